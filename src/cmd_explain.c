/*
 * reflexion-rules explain: evaluate an event like the hook would, without
 * claiming any `once` state, and show every rule considered, whether it
 * fired, and which condition decided it; then the exact hook reply.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

enum { EXPLAIN_RULES };

static const struct cmd_option explain_options[] = {
	{ "rules", 0, "PATH", CMD_OPT_REPEAT, EXPLAIN_RULES },
	{ NULL, 0, NULL, 0, 0 }
};

const struct cmd_entry cmd_explain_entry = {
	.name = "explain",
	.options = explain_options,
	.args = "< event.json",
	.summary = "Show which rules an event would fire, and why.",
	.exec = cmd_explain_exec,
};

static int
cmd_explain_exec(int argc, char **argv)
{
	struct cmd_args		 a;
	struct rule_sources	 src;
	struct rr_event		 ev;
	struct ruleset		 rs;
	struct diag_list	 diags;
	struct eval_outcome	 out;
	struct eval_opts	 eo;
	struct hook_reply	 reply;
	struct rules_request	 rq;
	struct rules_loaded	 how;
	struct buf		 in, trace;
	struct rr_home		 home;
	char			*input = NULL, *err = NULL, *state_dir = NULL;
	char			*sysmsg, *db_path, *project;
	size_t			 len, i;

	if (cmd_args_parse(&cmd_explain_entry, argc, argv, &a, &err) < 0)
		return cmd_usage(&cmd_explain_entry, err);
	if (a.help) {
		cmd_print_help(&cmd_explain_entry, stdout);
		cmd_args_release(&a);
		return RR_EXIT_OK;
	}
	memset(&ev, 0, sizeof(ev));
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
	if (err != NULL || event_parse(&ev, input, len, NULL, &err) < 0) {
		fprintf(stderr, "reflexion-rules explain: %s\n", err);
		free(err);
		free(input);
		event_release(&ev);
		cmd_args_release(&a);
		return RR_EXIT_USAGE;
	}
	free(input);
	/* The project of the event's cwd, as the hook finds it. */
	project = project_root(ev.cwd);
	event_set_project(&ev, project);
	free(project);
	home_find(&home);
	src.paths = cmd_args_values(&a, EXPLAIN_RULES, &src.npaths);
	/* Every rule now: explain looks at all of them. */
	memset(&rq, 0, sizeof(rq));
	rq.sources = &src;
	rq.home = home.dir;
	rq.home_info = &home;
	rq.project = ev.project_dir;
	rq.say = SAY_TRACE;
	rq.all = true;
	rules_load(&rs, &diags, &rq, &how);
	if (how.notes != NULL)
		fputs(how.notes, stderr);
	rules_loaded_release(&how);
	for (i = 0; i < diags.n; i++)
		diag_print_text(stdout, &diags.items[i]);

	printf("event: %s", ev.event_name[0] ? ev.event_name : "(none)");
	if (ev.tool)
		printf(", tool: %s", ev.tool);
	if (ev.rel_path)
		printf(", path: %s", ev.rel_path);
	printf("\n");
	if (ev.note != NULL)
		printf("%s\n", ev.note);
	if (ev.kind == EV_OTHER)
		printf("this event is not evaluated by rules\n");
	printf("rules: %zu loaded from %zu file%s\n", rs.n, rs.nfiles,
	    rs.nfiles == 1 ? "" : "s");

	buf_init(&trace);
	memset(&eo, 0, sizeof(eo));
	eo.state_dry_run = true;
	eo.explain = &trace;
	if (home.dir != NULL) {
		state_dir = xasprintf("%s/state", home.dir);
		eo.state_dir = state_dir;
		db_path = db_default_path(home.dir);
		eo.db = db_new(db_path);
		free(db_path);
	}
	eval_outcome_init(&out);
	eval_event(&rs, &ev, &eo, &out);
	if (eo.db != NULL)
		fwrite(eo.db->notes.data, 1, eo.db->notes.len, stdout);
	db_close(eo.db);
	fwrite(trace.data, 1, trace.len, stdout);
	fwrite(out.notes.data, 1, out.notes.len, stdout);

	sysmsg = hook_load_errors_message(&diags);
	hook_reply_init(&reply);
	output_claude(&out, &ev, sysmsg, false, &reply);
	if (reply.out.len)
		printf("reply: %s", reply.out.data);
	else
		printf("reply: (nothing: the tool call proceeds as usual)\n");

	hook_reply_release(&reply);
	free(sysmsg);
	free(state_dir);
	buf_release(&trace);
	eval_outcome_release(&out);
	diag_list_release(&diags);
	ruleset_release(&rs);
	event_release(&ev);
	home_release(&home);
	cmd_args_release(&a);
	return RR_EXIT_OK;
}
