/*
 * reflexion-rules explain: evaluate an event like the hook would, without
 * claiming any `once` state, and show every rule considered, whether it
 * fired, and which condition decided it; then the exact hook reply.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "applypatch.h"
#include "cmdargs.h"
#include "db.h"
#include "eval.h"
#include "fileio.h"
#include "hook.h"
#include "load.h"
#include "places.h"
#include "xmalloc.h"

#define EXPLAIN_STDIN_MAX	(64u * 1024 * 1024)

static int cmd_explain_exec(int, char **);

static int
explain_patch_after(const void *arg, const char *disk, size_t len,
    struct buf *out)
{
	return patch_file_after(arg, disk, len, out);
}

enum {
	EXPLAIN_AGENT, EXPLAIN_EVENT, EXPLAIN_RULES, EXPLAIN_COMMAND,
	EXPLAIN_PATH, EXPLAIN_TOOL, EXPLAIN_CONTENT, EXPLAIN_PROMPT
};

static const struct cmd_option explain_options[] = {
	{ "agent", 0, "auto|claude|gemini|codex|copilot|cursor", 0,
	    EXPLAIN_AGENT },
	{ "event", 0, "EVENT", 0, EXPLAIN_EVENT },
	{ "rules", 0, "PATH", CMD_OPT_REPEAT, EXPLAIN_RULES },
	{ "command", 0, "CMD", 0, EXPLAIN_COMMAND },
	{ "path", 0, "FILE", 0, EXPLAIN_PATH },
	{ "tool", 0, "TOOL", 0, EXPLAIN_TOOL },
	{ "content", 0, "TEXT", 0, EXPLAIN_CONTENT },
	{ "prompt", 0, "TEXT", 0, EXPLAIN_PROMPT },
	{ NULL, 0, NULL, 0, 0 }
};

const struct cmd_entry cmd_explain_entry = {
	.name = "explain",
	.options = explain_options,
	.args = "[< event.json]",
	.summary = "Show which rules an event would fire, and why: the event "
	    "on standard input, or built from --command CMD (a Bash call), "
	    "--path FILE (a Write; --tool and --content change it) or "
	    "--prompt TEXT.",
	.exec = cmd_explain_exec,
};

/*
 * The event that --command, --path or --prompt describe, as Claude Code
 * sends it (its names are the canonical ones), in the current directory
 * and an explain session of its own.  NULL with *err when the options
 * do not make one event.
 */
static struct cJSON *
built_event(const struct cmd_args *a, char **err)
{
	const char	*cmd = cmd_args_get(a, EXPLAIN_COMMAND);
	const char	*path = cmd_args_get(a, EXPLAIN_PATH);
	const char	*prompt = cmd_args_get(a, EXPLAIN_PROMPT);
	const char	*tool = cmd_args_get(a, EXPLAIN_TOOL);
	const char	*content = cmd_args_get(a, EXPLAIN_CONTENT);
	struct cJSON	*ev, *in;
	char		 cwd[4096];

	if ((cmd != NULL) + (path != NULL) + (prompt != NULL) > 1) {
		*err = xstrdup("--command, --path and --prompt each make an "
		    "event: give one");
		return NULL;
	}
	if (prompt != NULL && (tool != NULL || content != NULL)) {
		*err = xstrdup("--tool and --content go with --command or "
		    "--path, not with --prompt");
		return NULL;
	}
	if (cmd != NULL && content != NULL) {
		*err = xstrdup("--content goes with --path");
		return NULL;
	}
	if (cmd == NULL && path == NULL && prompt == NULL) {
		if (tool != NULL || content != NULL)
			*err = xstrdup("--tool and --content go with "
			    "--command or --path");
		return NULL;
	}
	ev = cJSON_CreateObject();
	cJSON_AddStringToObject(ev, "session_id", "explain");
	if (getcwd(cwd, sizeof(cwd)) != NULL)
		cJSON_AddStringToObject(ev, "cwd", cwd);
	if (prompt != NULL) {
		cJSON_AddStringToObject(ev, "hook_event_name",
		    "UserPromptSubmit");
		cJSON_AddStringToObject(ev, "prompt", prompt);
		return ev;
	}
	cJSON_AddStringToObject(ev, "hook_event_name", "PreToolUse");
	if (tool == NULL)
		tool = cmd != NULL ? "Bash" : "Write";
	cJSON_AddStringToObject(ev, "tool_name", tool);
	in = cJSON_AddObjectToObject(ev, "tool_input");
	if (cmd != NULL) {
		cJSON_AddStringToObject(in, "command", cmd);
		return ev;
	}
	cJSON_AddStringToObject(in, strcmp(tool, "NotebookEdit") == 0 ?
	    "notebook_path" : "file_path", path);
	/* The text the tool would write, where the tool takes one. */
	if (strcmp(tool, "Write") == 0)
		cJSON_AddStringToObject(in, "content", content ? content : "");
	else if (strcmp(tool, "Edit") == 0) {
		cJSON_AddStringToObject(in, "old_string", "");
		cJSON_AddStringToObject(in, "new_string",
		    content ? content : "");
	} else if (strcmp(tool, "NotebookEdit") == 0)
		cJSON_AddStringToObject(in, "new_source",
		    content ? content : "");
	return ev;
}

/* The client, and what its names are canonically. */
static void
print_agent(const struct agent_mapped *m)
{
	const char	*p, *nl;

	printf("agent: %s (%s)\n", agent_names[m->agent], m->why);
	for (p = m->renamed.data; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		printf("  mapped: %.*s\n", (int)(nl - p), p);
	}
}

/* One event of the call, its rules traced; what fired goes to all. */
static void
explain_one(const struct ruleset *rs, struct rr_event *ev,
    const struct rr_home *home, struct eval_outcome *all, size_t i,
    size_t n)
{
	struct eval_outcome	 out;
	struct eval_opts	 eo;
	struct buf		 trace;
	char			*state_dir = NULL, *db_path;

	printf("event: %s", ev->event_name[0] ? ev->event_name : "(none)");
	if (ev->tool)
		printf(", tool: %s", ev->tool);
	if (ev->rel_path)
		printf(", path: %s", ev->rel_path);
	if (n > 1)
		printf(" (file %zu of %zu of the patch)", i + 1, n);
	printf("\n");
	if (ev->note != NULL)
		printf("%s\n", ev->note);
	if (ev->kind == EV_OTHER) {
		printf("this event is not evaluated by rules\n");
		if (n > 1)
			return;
	}
	if (i == 0)
		printf("rules: %zu loaded from %zu file%s\n", rs->n,
		    rs->nfiles, rs->nfiles == 1 ? "" : "s");
	buf_init(&trace);
	memset(&eo, 0, sizeof(eo));
	eo.state_dry_run = true;
	eo.explain = &trace;
	if (home->dir != NULL) {
		state_dir = xasprintf("%s/state", home->dir);
		eo.state_dir = state_dir;
		db_path = db_default_path(home->dir);
		eo.db = db_new(db_path);
		free(db_path);
	}
	eval_outcome_init(&out);
	eval_event(rs, ev, &eo, &out);
	if (eo.db != NULL)
		fwrite(eo.db->notes.data, 1, eo.db->notes.len, stdout);
	db_close(eo.db);
	fwrite(trace.data, 1, trace.len, stdout);
	fwrite(out.notes.data, 1, out.notes.len, stdout);
	buf_reset(&out.notes);
	eval_outcome_append(all, &out);
	free(state_dir);
	buf_release(&trace);
}

static int
cmd_explain_exec(int argc, char **argv)
{
	struct cmd_args		 a;
	struct rule_sources	 src;
	struct agent_mapped	 m;
	struct rr_event		*evs = NULL;
	struct ruleset		 rs;
	struct diag_list	 diags;
	struct eval_outcome	 out;
	struct hook_reply	 reply;
	struct rules_request	 rq;
	struct rules_loaded	 how;
	struct buf		 in;
	struct rr_home		 home;
	struct cJSON		*root = NULL;
	const char		*agent;
	char			*input = NULL, *err = NULL;
	char			*sysmsg, *project;
	size_t			 len, i, n;
	int			 ag = AGENT_AUTO;
	bool			 built = false;

	if (cmd_args_parse(&cmd_explain_entry, argc, argv, &a, &err) < 0)
		return cmd_usage(&cmd_explain_entry, err);
	if (a.help) {
		cmd_print_help(&cmd_explain_entry, stdout);
		cmd_args_release(&a);
		return RR_EXIT_OK;
	}
	agent = cmd_args_get(&a, EXPLAIN_AGENT);
	if (agent != NULL && (ag = agent_from_name(agent)) < 0) {
		err = xasprintf("unknown agent '%s' (auto, claude, gemini, "
		    "codex, copilot or cursor)", agent);
		cmd_args_release(&a);
		return cmd_usage(&cmd_explain_entry, err);
	}
	if ((root = built_event(&a, &err)) != NULL || err != NULL) {
		if (err == NULL && ag > AGENT_CLAUDE)
			err = xasprintf("--command, --path and --prompt build a "
			    "Claude Code event (its names are the canonical "
			    "ones); give a %s event on standard input instead",
			    agent_titles[ag]);
		if (err != NULL) {
			cJSON_Delete(root);
			cmd_args_release(&a);
			return cmd_usage(&cmd_explain_entry, err);
		}
		ag = AGENT_CLAUDE;
		built = true;
		goto mapped;
	}
	buf_init(&in);
	switch (fd_read_all(0, EXPLAIN_STDIN_MAX, true, &in)) {
	case FD_READ_ERROR:
		err = xasprintf("cannot read stdin: %s", strerror(errno));
		break;
	case FD_READ_TOO_BIG:
		err = xasprintf("the event on stdin is larger than %zu bytes",
		    (size_t)EXPLAIN_STDIN_MAX);
		break;
	case FD_READ_OK:
		break;
	}
	input = buf_detach(&in, &len);
	if (err != NULL || (root = event_json_parse(input, len, &err)) ==
	    NULL) {
		fprintf(stderr, "reflexion-rules explain: %s\n", err);
		free(err);
		free(input);
		cmd_args_release(&a);
		return RR_EXIT_USAGE;
	}
	free(input);
mapped:
	agent_map(root, (enum rr_agent)ag, cmd_args_get(&a, EXPLAIN_EVENT),
	    &m);
	if (built)
		m.why = "an event built from the options";
	n = m.n;
	evs = xcalloc(n, sizeof(*evs));
	for (i = 0; i < n; i++) {
		event_from_root(&evs[i], m.events[i], NULL, m.agent);
		m.events[i] = NULL;
		if (m.agent != AGENT_CLAUDE)
			event_set_client(&evs[i], m.client_event,
			    m.client_tool);
		if (m.files[i] != NULL) {
			evs[i].file_after = explain_patch_after;
			evs[i].file_after_arg = m.files[i];
		}
	}
	if (m.note != NULL && evs[0].note == NULL)
		evs[0].note = arena_strdup(&evs[0].arena, m.note);
	/* The project of the event's cwd, as the hook finds it. */
	project = project_root(evs[0].cwd);
	for (i = 0; i < n; i++)
		event_set_project(&evs[i], project);
	free(project);
	home_find(&home);
	src.paths = cmd_args_values(&a, EXPLAIN_RULES, &src.npaths);
	/* Every rule now: explain looks at all of them. */
	memset(&rq, 0, sizeof(rq));
	rq.sources = &src;
	rq.home = home.dir;
	rq.home_info = &home;
	rq.project = evs[0].project_dir;
	rq.say = SAY_TRACE;
	rq.all = true;
	rules_load(&rs, &diags, &rq, &how);
	if (how.notes != NULL)
		fputs(how.notes, stderr);
	rules_loaded_release(&how);
	for (i = 0; i < diags.n; i++)
		diag_print_text(stdout, &diags.items[i]);

	print_agent(&m);
	eval_outcome_init(&out);
	for (i = 0; i < n; i++)
		explain_one(&rs, &evs[i], &home, &out, i, n);

	sysmsg = hook_load_errors_message(&diags);
	hook_reply_init(&reply);
	output_reply(&out, &evs[0], sysmsg, false, &reply);
	if (reply.out.len)
		printf("reply: %s", reply.out.data);
	else
		printf("reply: (nothing: the tool call proceeds as usual)\n");

	hook_reply_release(&reply);
	free(sysmsg);
	eval_outcome_release(&out);
	diag_list_release(&diags);
	ruleset_release(&rs);
	for (i = 0; i < n; i++)
		event_release(&evs[i]);
	free(evs);
	agent_mapped_release(&m);
	home_release(&home);
	cmd_args_release(&a);
	return RR_EXIT_OK;
}
