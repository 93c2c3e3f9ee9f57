/*
 * reflexion-rules hook: the process plumbing around hook_run().  Whatever
 * happens it reads stdin to EOF first (an agent that gets EPIPE reports a
 * hook failure) and, bar --exit2 blocks, exits 0: a hook error must never
 * block the agent by accident.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd_common.h"
#include "event.h"
#include "fileio.h"
#include "hook.h"
#include "jsonw.h"
#include "xmalloc.h"

#define HOOK_STDIN_MAX	(64u * 1024 * 1024)

static int cmd_hook_exec(int, char **);

const struct cmd_entry cmd_hook_entry = {
	.name = "hook",
	.usage = "[--agent claude] [--rules PATH]... [--exit2] < event.json",
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

static int
cmd_hook_exec(int argc, char **argv)
{
	struct common_args	 a;
	struct hook_opts	 opts;
	struct hook_reply	 reply;
	char			*input = NULL, *err = NULL, *home;
	size_t			 len = 0;
	int			 rc, status;

	hook_reply_init(&reply);
	rc = read_all_fd(0, &input, &len, HOOK_STDIN_MAX, &err);
	if (common_args_parse(&cmd_hook_entry, argc, argv,
	    ARGS_RULES | ARGS_AGENT | ARGS_EXIT2, &a) < 0)
		usage_reply(&reply, "bad arguments (see 'reflexion-rules hook "
		    "--help')");
	else if (a.help) {
		cmd_print_help(&cmd_hook_entry, stdout);
	} else if (a.agent != NULL && strcmp(a.agent, "claude") != 0)
		usage_reply(&reply, "only '--agent claude' is supported by "
		    "this version");
	else if (rc < 0) {
		buf_printf(&reply.err, "reflexion-rules: %s; allowing\n", err);
	} else {
		memset(&opts, 0, sizeof(opts));
		opts.sources = a.sources;
		opts.exit2 = a.exit2;
		home = reflexion_home();
		opts.home = home;
		hook_run(input, len, &opts, &reply);
		free(home);
	}
	free(err);
	free(input);
	common_args_release(&a);
	/* If stdout is gone there is nobody to tell; the status still counts. */
	fd_write_all(1, reply.out.data, reply.out.len);
	fd_write_all(2, reply.err.data, reply.err.len);
	status = reply.status;
	hook_reply_release(&reply);
	return status;
}
