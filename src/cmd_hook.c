/*
 * reflexion-rules hook: the process plumbing around hook_run().  Whatever
 * happens it reads stdin to EOF first (an agent that gets EPIPE reports a
 * hook failure) and, bar --exit2 blocks, exits 0: a hook error must never
 * block the agent by accident.  A watchdog bounds the whole call, reading
 * stdin included (see watchdog.h).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "cmd.h"
#include "cmdargs.h"
#include "event.h"
#include "fileio.h"
#include "hook.h"
#include "jsonw.h"
#include "watchdog.h"
#include "xmalloc.h"

#define HOOK_STDIN_MAX	(64u * 1024 * 1024)
/* Well under any agent's timeout (Claude Code: 10 s as init registers). */
#define HOOK_DEADLINE_MS	2000
#define HOOK_DEADLINE_MAX_MS	(24ul * 3600 * 1000)

static int cmd_hook_exec(int, char **);

enum { HOOK_AGENT, HOOK_EVENT, HOOK_RULES, HOOK_EXIT2, HOOK_DEADLINE };

static const struct cmd_option hook_options[] = {
	{ "agent", 0, "auto|claude|gemini|codex|copilot|cursor", 0,
	    HOOK_AGENT },
	{ "event", 0, "EVENT", 0, HOOK_EVENT },
	{ "rules", 0, "PATH", CMD_OPT_REPEAT, HOOK_RULES },
	{ "exit2", 0, NULL, 0, HOOK_EXIT2 },
	{ "deadline", 0, "MS", 0, HOOK_DEADLINE },
	{ NULL, 0, NULL, 0, 0 }
};

const struct cmd_entry cmd_hook_entry = {
	.name = "hook",
	.options = hook_options,
	.args = "< event.json",
	.summary = "Evaluate the rules for one hook event read on stdin and "
	    "answer in the agent's hook protocol.",
	.exec = cmd_hook_exec,
};

/* A usage error must still be seen, but must not block: systemMessage. */
static void
usage_reply(struct hook_reply *r, const char *what)
{
	struct buf	msg;

	buf_init(&msg);
	buf_printf(&msg, "reflexion-rules hook: %s; rules were not evaluated",
	    what);
	buf_printf(&r->err, "%s\n", msg.data);
	buf_adds(&r->out, "{\"systemMessage\":");
	jsonw_string(&r->out, msg.data, msg.len);
	buf_adds(&r->out, "}\n");
	buf_release(&msg);
}

/*
 * Milliseconds from --deadline, else $REFLEXION_DEADLINE_MS, else the
 * default; 0 turns the deadline off.  A bad value is said on stderr (the
 * agent's user sees it) and the default is used.
 */
static unsigned long
deadline_ms(const char *opt, struct hook_reply *r)
{
	const char	*v = opt ? opt : getenv("REFLEXION_DEADLINE_MS");
	char		*end;
	unsigned long	 ms;

	if (v == NULL || *v == '\0')
		return HOOK_DEADLINE_MS;
	errno = 0;
	ms = strtoul(v, &end, 10);
	if (errno != 0 || *end != '\0' || *v == '-' || *v == '+' ||
	    ms > HOOK_DEADLINE_MAX_MS) {
		buf_printf(&r->err, "reflexion-rules: %s '%s' is not a number "
		    "of milliseconds up to %lu; using %u\n", opt ?
		    "--deadline" : "REFLEXION_DEADLINE_MS", v,
		    HOOK_DEADLINE_MAX_MS, HOOK_DEADLINE_MS);
		return HOOK_DEADLINE_MS;
	}
	return ms;
}

static int
cmd_hook_exec(int argc, char **argv)
{
	struct cmd_args		 a;
	struct hook_opts	 opts;
	struct hook_reply	 reply;
	struct buf		 in;
	const char		*agent;
	char			*input, *err = NULL, *what;
	struct rr_home		 home;
	size_t			 len;
	int			 status, args_rc;
	unsigned long		 ms;
	struct buf		 wb;
	int			 ag = AGENT_AUTO;

	hook_reply_init(&reply);
	/* A closed stdout or a file size limit must not kill the hook. */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	if ((args_rc = cmd_args_parse(&cmd_hook_entry, argc, argv, &a,
	    &err)) < 0) {
		fprintf(stderr, "reflexion-rules hook: %s\n", err);
		free(err);
		err = NULL;
	}
	ms = deadline_ms(cmd_args_get(&a, HOOK_DEADLINE), &reply);
	buf_init(&wb);
	buf_adds(&wb, "reflexion-rules: no answer within the deadline of ");
	buf_add_u64(&wb, ms, 0);
	buf_adds(&wb, " ms; allowing\n");
	watchdog_answer("", 0, wb.data, wb.len, 0);
	buf_release(&wb);
	if (watchdog_arm(ms, &err) < 0) {
		buf_printf(&reply.err, "reflexion-rules: %s\n", err);
		free(err);
		err = NULL;
	}
	buf_init(&in);
	switch (fd_read_all(0, HOOK_STDIN_MAX, true, &in)) {
	case FD_READ_ERROR:
		err = xasprintf("cannot read stdin: %s", strerror(errno));
		break;
	case FD_READ_TOO_BIG:
		err = xasprintf("the event on stdin is larger than %zu bytes",
		    (size_t)HOOK_STDIN_MAX);
		break;
	case FD_READ_OK:
		break;
	}
	input = buf_detach(&in, &len);
	agent = cmd_args_get(&a, HOOK_AGENT);
	if (args_rc < 0)
		usage_reply(&reply, "bad arguments (see 'reflexion-rules hook "
		    "--help')");
	else if (a.help) {
		cmd_print_help(&cmd_hook_entry, stdout);
	} else if (agent != NULL && (ag = agent_from_name(agent)) < 0) {
		what = xasprintf("unknown agent '%s' (auto, claude, gemini, "
		    "codex, copilot or cursor)", agent);
		usage_reply(&reply, what);
		free(what);
	} else if (err != NULL) {
		buf_printf(&reply.err, "reflexion-rules: %s; allowing\n", err);
	} else {
		memset(&opts, 0, sizeof(opts));
		opts.sources.paths = cmd_args_values(&a, HOOK_RULES,
		    &opts.sources.npaths);
		opts.exit2 = cmd_args_has(&a, HOOK_EXIT2);
		opts.deadline_ms = ms;
		opts.agent = (enum rr_agent)ag;
		opts.event = cmd_args_get(&a, HOOK_EVENT);
		opts.exiting = true;
		home_find(&home);
		opts.home = home.dir;
		opts.home_info = &home;
		hook_run(input, len, &opts, &reply);
		home_release(&home);
	}
	free(err);
	free(input);
	cmd_args_release(&a);
	watchdog_disarm();
	/* If stdout is gone there is nobody to tell; the status still counts. */
	fd_write_all(1, reply.out.data, reply.out.len);
	fd_write_all(2, reply.err.data, reply.err.len);
	status = reply.status;
	hook_reply_release(&reply);
	return status;
}
