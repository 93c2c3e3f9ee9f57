#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "event.h"
#include "hook.h"
#include "load.h"
#include "record.h"
#include "state.h"
#include "watchdog.h"
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

/* Loads the rules for a project (from the cache when it is valid). */
static void
load_rules(const struct hook_opts *opts, const char *project,
    bool rebuild, struct ruleset *rs, struct diag_list *diags,
    struct hook_reply *reply)
{
	struct rules_request	 rq = {
		.sources = &opts->sources,
		.home = opts->home,
		.project = project,
		.mode = rebuild ? LOAD_REBUILD : LOAD_CACHED,
		.say = SAY_TRACE_OR_UNSAVED,
	};
	struct rules_loaded	 how;

	rules_load(rs, diags, &rq, &how);
	if (how.notes != NULL)
		buf_adds(&reply->err, how.notes);
	rules_loaded_release(&how);
}

/* Every load diagnostic, one line each on stderr. */
static void
report_diags(const struct diag_list *diags, struct hook_reply *reply)
{
	size_t	 i;
	char	*line;

	for (i = 0; i < diags->n; i++) {
		line = diag_format_short(&diags->items[i]);
		buf_printf(&reply->err, "reflexion-rules: %s\n", line);
		free(line);
	}
}

/* The stand-in rule behind a deny that an error, not a rule, decided. */
static const struct rule on_error_rule = {
	.id = "on_error",
	.action = ACT_DENY,
	.priority = PRI_CRITICAL,
	.enabled = true,
};

/* Appends a deny with reason (copied) to out, as if a rule had fired. */
static void
add_error_deny(struct eval_outcome *out, const char *reason)
{
	out->fired = xreallocarray(out->fired, out->nfired + 1,
	    sizeof(*out->fired));
	out->fired[out->nfired].rule = &on_error_rule;
	out->fired[out->nfired].text = xstrdup(reason);
	out->fired[out->nfired].len = strlen(reason);
	out->nfired++;
}

/*
 * The fail-closed file that guards this event, or NULL: with broken set,
 * only one whose own rules failed to compile.  A Stop hook already
 * continuing (stop_hook_active) is never blocked by an error: that could
 * only loop.
 */
static const struct fail_closed_file *
guarding_file(const struct ruleset *rs, const struct rr_event *ev,
    bool broken)
{
	size_t	i;

	if (ev->stop_hook_active &&
	    (ev->kind == EV_STOP || ev->kind == EV_SUBAGENT_STOP))
		return NULL;
	for (i = 0; i < rs->nfc_files; i++) {
		if (!(rs->fc_files[i].events & (1u << ev->kind)))
			continue;
		if (!broken || rs->fc_files[i].errors > 0)
			return &rs->fc_files[i];
	}
	return NULL;
}

/*
 * What the agent gets if the deadline passes from here on: a deny when an
 * on_error: deny file guards the event, else nothing (allow).
 */
static void
set_deadline_answer(const struct ruleset *rs, struct rr_event *ev,
    const struct hook_opts *opts)
{
	const struct fail_closed_file	*fc = guarding_file(rs, ev, false);
	struct eval_outcome		 out;
	struct hook_reply		 r;
	char				*why;

	if (fc == NULL || opts->deadline_ms == 0)
		return;
	eval_outcome_init(&out);
	hook_reply_init(&r);
	why = xasprintf("reflexion-rules: no decision within the deadline of "
	    "%lu ms; denying because %s declares on_error: deny",
	    opts->deadline_ms, fc->file);
	add_error_deny(&out, why);
	output_claude(&out, ev, NULL, opts->exit2, &r);
	if (r.status != 2)	/* --exit2 has said it on stderr already */
		buf_printf(&r.err, "%s\n", why);
	watchdog_answer(r.out.data, r.out.len, r.err.data, r.err.len,
	    r.status);
	free(why);
	hook_reply_release(&r);
	eval_outcome_release(&out);
}

/*
 * An event that cannot be read has no known kind, so the only answer that
 * blocks every event is the legacy one: the reason on stderr, exit 2.
 * That is given only when some rule file declares on_error: deny.
 */
static void
bad_event(const char *err, const struct hook_opts *opts,
    struct hook_reply *reply)
{
	struct ruleset		rs;
	struct diag_list	diags;
	size_t			i;

	load_rules(opts, project_dir(NULL), false, &rs, &diags, reply);
	report_diags(&diags, reply);
	for (i = 0; i < rs.nfc_files; i++)
		if (rs.fc_files[i].events != 0)
			break;
	if (i < rs.nfc_files) {
		buf_printf(&reply->err, "reflexion-rules: %s; denying because "
		    "%s declares on_error: deny\n", err, rs.fc_files[i].file);
		reply->status = 2;
	} else
		buf_printf(&reply->err, "reflexion-rules: %s; allowing\n", err);
	diag_list_release(&diags);
	ruleset_release(&rs);
}

/*
 * Writes the tool call to the database when a record rule fired (the
 * first one's options count: one call, one row).  The answer is already
 * made: a failure here only adds a line to stderr.
 */
static void
hook_record(struct rr_db *db, const struct eval_outcome *out,
    struct rr_event *ev, struct hook_reply *reply)
{
	char	*err = NULL;
	size_t	 i;

	for (i = 0; i < out->nfired; i++) {
		if (out->fired[i].rule->action != ACT_RECORD)
			continue;
		if (record_event(db, ev, out->fired[i].rule->record, &err) < 0) {
			buf_printf(&reply->err, "reflexion-rules: %s; this "
			    "tool call was not recorded\n", err);
			free(err);
		}
		return;
	}
}

void
hook_run(const char *input, size_t len, const struct hook_opts *opts,
    struct hook_reply *reply)
{
	const struct fail_closed_file *fc;
	struct rr_event		 ev;
	struct ruleset		 rs;
	struct diag_list	 diags;
	struct eval_outcome	 out;
	struct eval_opts	 eo;
	struct rr_db		*db;
	char			*err = NULL, *sysmsg, *state_dir, *db_path, *why;

	if (event_parse(&ev, input, len, getenv("CLAUDE_PROJECT_DIR"),
	    &err) < 0) {
		event_release(&ev);
		bad_event(err, opts, reply);
		free(err);
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
	load_rules(opts, ev.project_dir, false, &rs, &diags, reply);
	set_deadline_answer(&rs, &ev, opts);
	state_dir = xasprintf("%s/state", opts->home);
	/* Opened only if a kb condition or a record rule needs it. */
	db_path = db_default_path(opts->home);
	db = db_new(db_path);
	/* One call, one budget: no query may run past it either. */
	db->bound_queries = true;
	free(db_path);
	memset(&eo, 0, sizeof(eo));
	eo.state_dir = state_dir;
	eo.db = db;
	eval_outcome_init(&out);
	if (eval_event(&rs, &ev, &eo, &out) < 0) {
		/* A rule in the cache would not decode: compile, and redo. */
		eval_outcome_release(&out);
		diag_list_release(&diags);
		ruleset_release(&rs);
		load_rules(opts, ev.project_dir, true, &rs, &diags, reply);
		set_deadline_answer(&rs, &ev, opts);
		eval_outcome_init(&out);
		eval_event(&rs, &ev, &eo, &out);
	}
	report_diags(&diags, reply);
	sysmsg = hook_load_errors_message(&diags);
	buf_add(&reply->err, out.notes.data, out.notes.len);
	if ((fc = guarding_file(&rs, &ev, true)) != NULL) {
		why = xasprintf("reflexion-rules: %s has errors and declares "
		    "on_error: deny; denying until it is fixed (run "
		    "'reflexion-rules lint %s')", fc->file, fc->file);
		add_error_deny(&out, why);
		free(why);
	} else if (out.undecided != NULL &&
	    (out.undecided->action == ACT_DENY ||
	    out.undecided->action == ACT_ASK)) {
		why = xasprintf("reflexion-rules: rule '%s' (%s:%d) could not "
		    "be decided (%s) and its file declares on_error: deny",
		    out.undecided->id, out.undecided->file,
		    out.undecided->line, out.undecided_why != NULL ?
		    out.undecided_why : "a limit was reached");
		add_error_deny(&out, why);
		free(why);
	}
	output_claude(&out, &ev, sysmsg, opts->exit2, reply);
	hook_record(db, &out, &ev, reply);
	buf_add(&reply->err, db->notes.data, db->notes.len);
	db_close(db);

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
