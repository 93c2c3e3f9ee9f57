#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "event.h"
#include "hook.h"
#include "state.h"
#include "xmalloc.h"

#define LOAD_ERRORS_LISTED	3
#define STATE_MAX_AGE_DAYS	30

char *
hook_load_errors_message(const struct diag_list *diags)
{
	struct buf	 b;
	size_t		 i, shown = 0;
	char		*s;

	if (diags->errors == 0)
		return NULL;
	buf_init(&b);
	buf_printf(&b, "reflexion-rules: %zu error%s in rule files; the "
	    "broken rules are not active (run 'reflexion-rules lint'):",
	    diags->errors, diags->errors == 1 ? "" : "s");
	for (i = 0; i < diags->n && shown < LOAD_ERRORS_LISTED; i++) {
		if (diags->items[i].severity != DIAG_ERROR)
			continue;
		s = diag_format_short(&diags->items[i]);
		buf_printf(&b, "\n%s", s);
		free(s);
		shown++;
	}
	if (diags->errors > shown)
		buf_printf(&b, "\n... and %zu more", diags->errors - shown);
	return buf_detach(&b, NULL);
}

/* Loads the rules for ev (from the cache when it is valid). */
static void
load_rules(const struct hook_opts *opts, const struct rr_event *ev,
    bool rebuild, struct ruleset *rs, struct diag_list *diags,
    struct hook_reply *reply)
{
	struct rules_request	 rq;
	struct rules_loaded	 how;
	char			*line;

	memset(&rq, 0, sizeof(rq));
	rq.sources = &opts->sources;
	rq.home = opts->home;
	rq.project = ev->project_dir;
	rq.rebuild = rebuild;
	rules_load(rs, diags, &rq, &how);
	if (cache_trace_enabled()) {
		line = rules_loaded_trace(&how, rs);
		buf_printf(&reply->err, "%s\n", line);
		free(line);
	} else if (how.status == CACHE_UNSAVED)
		buf_printf(&reply->err, "reflexion-rules: the rule cache "
		    "cannot be saved (%s); rules are compiled on every call\n",
		    how.why);
	rules_loaded_release(&how);
}

void
hook_run(const char *input, size_t len, const struct hook_opts *opts,
    struct hook_reply *reply)
{
	struct rr_event		 ev;
	struct ruleset		 rs;
	struct diag_list	 diags;
	struct eval_outcome	 out;
	struct eval_opts	 eo;
	char			*err = NULL, *sysmsg, *state_dir;
	size_t			 i;

	if (event_parse(&ev, input, len, getenv("CLAUDE_PROJECT_DIR"),
	    &err) < 0) {
		buf_printf(&reply->err, "reflexion-rules: %s; allowing\n", err);
		free(err);
		event_release(&ev);
		return;
	}
	if (ev.kind == EV_OTHER) {
		/* Events we do not evaluate are read and answered with nothing. */
		event_release(&ev);
		return;
	}
	if ((ev.kind == EV_PRE_TOOL_USE || ev.kind == EV_POST_TOOL_USE ||
	    ev.kind == EV_POST_TOOL_USE_FAILURE) && ev.tool == NULL)
		buf_printf(&reply->err, "reflexion-rules: the %s event has no "
		    "tool_name; rules that name tools are skipped\n",
		    ev.event_name);
	load_rules(opts, &ev, false, &rs, &diags, reply);
	state_dir = xasprintf("%s/state", opts->home);
	memset(&eo, 0, sizeof(eo));
	eo.state_dir = state_dir;
	eval_outcome_init(&out);
	if (eval_event(&rs, &ev, &eo, &out) < 0) {
		/* A rule in the cache would not decode: compile, and redo. */
		eval_outcome_release(&out);
		diag_list_release(&diags);
		ruleset_release(&rs);
		load_rules(opts, &ev, true, &rs, &diags, reply);
		eval_outcome_init(&out);
		eval_event(&rs, &ev, &eo, &out);
	}
	for (i = 0; i < diags.n; i++) {
		char *line = diag_format_short(&diags.items[i]);
		buf_printf(&reply->err, "reflexion-rules: %s\n", line);
		free(line);
	}
	sysmsg = hook_load_errors_message(&diags);
	buf_add(&reply->err, out.notes.data, out.notes.len);
	output_claude(&out, &ev, sysmsg, opts->exit2, reply);

	/* Old sessions' state goes away once per session, not per call. */
	if (ev.kind == EV_SESSION_START &&
	    state_prune(state_dir, STATE_MAX_AGE_DAYS, &err) < 0) {
		buf_printf(&reply->err, "reflexion-rules: %s\n", err);
		free(err);
	}
	free(state_dir);
	free(sysmsg);
	eval_outcome_release(&out);
	diag_list_release(&diags);
	ruleset_release(&rs);
	event_release(&ev);
}
