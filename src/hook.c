/*
 * One hook call (hook.h): the event read, the rules loaded and evaluated,
 * the reply made and held as final, then the call recorded and old state
 * cleaned up.  The answers the rules do not give (fail-closed denies, the
 * deadline's) are made in hook_answer.c.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "applypatch.h"
#include "checksum.h"
#include "db.h"
#include "envflag.h"
#include "event.h"
#include "hook.h"
#include "hook_priv.h"
#include "load.h"
#include "places.h"
#include "record.h"
#include "userconf.h"
#include "watchdog.h"
#include "state.h"
#include "xmalloc.h"

#define LOAD_ERRORS_LISTED	3
#define LOAD_ERRORS_SLOT	"load-errors "
#define STATE_MAX_AGE_DAYS	30
/* What a configured command's wait adds to the deadline besides its own. */
#define HOOK_COMMAND_MARGIN_MS	1000

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
		.home_info = opts->home_info,
		.project = project,
		.mode = rebuild ? LOAD_REBUILD : LOAD_CACHED,
		.say = SAY_TRACE_OR_UNSAVED,
		/* A compile that outlives the deadline still saves its cache. */
		.apart = true,
		/* A hook runs rules, not their tests. */
		.skip_tests = true,
	};
	struct rules_loaded	 how;

	rules_load(rs, diags, &rq, &how);
	if (how.notes != NULL)
		buf_adds(&reply->err, how.notes);
	rules_loaded_release(&how);
}

/*
 * Every load error, one line each on stderr.  Warnings (a rule that can
 * never fire) are lint's business: a hook runs on every tool call and
 * would repeat them each time.
 */
static void
report_diags(const struct diag_list *diags, struct hook_reply *reply)
{
	hook_diag_lines(diags, &reply->err);
}

/*
 * Whether this session is to be shown the systemMessage about broken rule
 * files: repeated on every call, it is a message users learn to ignore.
 * The session's state remembers the errors it was last shown (a hash of
 * all of them), so it is shown again when they change, and on every call
 * when there is no session to remember it in or its state cannot be
 * kept: better noisy than silent.  stderr still has them every call.
 */
static bool
first_showing(const struct diag_list *diags, const char *state_dir,
    const struct rr_event *ev, struct hook_reply *reply)
{
	struct buf	 all;
	char		*k, *s, *warn = NULL, *err = NULL;
	size_t		 i;
	bool		 first = true;

	/* No session, or no place to remember it: better noisy than silent. */
	if (*ev->session_id == '\0' || state_dir == NULL)
		return true;
	buf_init(&all);
	for (i = 0; i < diags->n; i++) {
		if (diags->items[i].severity != DIAG_ERROR)
			continue;
		s = diag_format_short(&diags->items[i]);
		buf_printf(&all, "%s\n", s);
		free(s);
	}
	/* Not a rule's key: rule ids have no space. */
	k = xasprintf("%s%016llx", LOAD_ERRORS_SLOT,
	    (unsigned long long)rr_checksum(all.data, all.len));
	if (state_claim_slot(state_dir, ev->session_id, LOAD_ERRORS_SLOT, k,
	    &first, &warn, &err) < 0) {
		free(err);
		first = true;
	}
	if (warn != NULL) {
		buf_printf(&reply->err, "reflexion-rules: %s\n", warn);
		free(warn);
	}
	free(k);
	buf_release(&all);
	return first;
}

/*
 * An event that cannot be read has no known kind, so the only answer that
 * blocks every event is the legacy one: the reason on stderr, exit 2.
 * That is given only when some rule file declares on_error: deny.
 * Copilot CLI blocks on exit 2 without passing the reason, so there the
 * deny is its JSON one (output_error_deny()).
 */
static void
bad_event(const char *err, const struct hook_opts *opts,
    struct hook_reply *reply)
{
	struct ruleset		rs;
	struct diag_list	diags;
	size_t			i;
	char			*project, *why;

	/* No event, no cwd: the project of the hook's own directory. */
	project = project_root(NULL);
	load_rules(opts, project, false, &rs, &diags, reply);
	free(project);
	report_diags(&diags, reply);
	for (i = 0; i < rs.nfc_files; i++)
		if (rs.fc_files[i].events != 0)
			break;
	if (i < rs.nfc_files) {
		why = xasprintf("reflexion-rules: %s; denying because %s "
		    "declares on_error: deny", err, rs.fc_files[i].file);
		output_error_deny(opts->agent, why, opts->exit2, reply);
		free(why);
	} else
		buf_printf(&reply->err, "reflexion-rules: %s; allowing\n", err);
	diag_list_release(&diags);
	ruleset_release(&rs);
}

/* record_env.before_command: the deadline moves past the command's. */
static void
extend_deadline(void *arg, long ms)
{
	const struct hook_opts	*opts = arg;
	char			*err = NULL;

	if (opts->deadline_ms == 0)
		return;
	if (watchdog_arm((unsigned long)ms + HOOK_COMMAND_MARGIN_MS,
	    &err) < 0)
		free(err);
}

/*
 * config.yaml, read when the summarizer or the router is first needed:
 * the compiled cache holds the rules, not these settings, and most
 * calls need neither.
 */
struct hook_config {
	const struct hook_opts	*opts;
	const char		*home;
	bool			 loaded;
	struct rr_config	 cfg;
};

static const struct rr_config *
hook_config(struct hook_config *hc)
{
	struct diag_list	 diags;
	char			*packs;

	if (hc->home == NULL)
		return NULL;
	if (!hc->loaded) {
		diag_list_init(&diags);
		packs = packs_dir();
		config_load(&hc->cfg, hc->home, packs, NULL, &diags);
		free(packs);
		diag_list_release(&diags);
		hc->loaded = true;
	}
	return &hc->cfg;
}

static const struct rr_command *
configured(const struct rr_command *c)
{
	return c->shell != NULL || c->argv != NULL ? c : NULL;
}

/*
 * eval_opts.router: asked for right before the router runs, so the
 * deadline moves past its time limit (the user chose to wait for it).
 */
static const struct rr_command *
hook_router(void *arg)
{
	struct hook_config	*hc = arg;
	const struct rr_config	*cfg = hook_config(hc);
	const struct rr_command	*c;

	c = cfg != NULL ? configured(&cfg->router) : NULL;
	if (c != NULL)
		extend_deadline((void *)hc->opts, c->timeout_ms);
	return c;
}

/*
 * Writes the event to the database when a record rule fired (the first
 * one's options count: one call, one row): a tool call, a prompt, the
 * turn on Stop, the session's summary on SessionEnd (with the summarizer
 * config.yaml names).  The answer is already made: a failure here only
 * adds a line to stderr.
 */
static void
hook_record(struct rr_db *db, const struct rule *rule, struct rr_event *ev,
    const struct hook_opts *opts, struct hook_config *hc,
    struct hook_reply *reply)
{
	struct record_env	 env;
	const struct rr_config	*cfg;
	char			*err = NULL;

	memset(&env, 0, sizeof(env));
	env.notes = &reply->err;
	env.before_command = extend_deadline;
	env.arg = (void *)opts;
	if (ev->kind == EV_SESSION_END && (cfg = hook_config(hc)) != NULL)
		env.summarizer = configured(&cfg->summarizer);
	if (record_event(db, ev, rule->record, &env, &err) < 0) {
		buf_printf(&reply->err, "reflexion-rules: %s; this %s was not "
		    "recorded\n", err, ev->kind == EV_POST_TOOL_USE ||
		    ev->kind == EV_POST_TOOL_USE_FAILURE ? "tool call" :
		    "event");
		free(err);
	}
}

/* The routing log: the first route of the fired rules, if any. */
static void
hook_route(struct rr_db *db, const struct eval_outcome *out,
    const struct rr_event *ev, struct hook_reply *reply)
{
	char	*err = NULL;
	size_t	 i;

	for (i = 0; i < out->nfired; i++)
		if (out->fired[i].route != NULL)
			break;
	if (i == out->nfired)
		return;
	if (record_route(db, ev, out->fired[i].route, &err) < 0) {
		buf_printf(&reply->err, "reflexion-rules: %s; the route was "
		    "not recorded\n", err);
		free(err);
	}
}

/*
 * A deny given in this session, counted in its state for `statusline`:
 * one key per denied call (its tool_use_id, else the time and process).
 */
static void
count_deny(const char *state_dir, const struct eval_outcome *out,
    const struct rr_event *ev, struct hook_reply *reply)
{
	const cJSON	*id = cJSON_GetObjectItemCaseSensitive(ev->root,
			    "tool_use_id");
	struct timespec	 ts;
	bool		 first;
	char		*key, *warn = NULL, *err = NULL;
	const char	*keys[1];
	size_t		 i;

	for (i = 0; i < out->nfired; i++)
		if (out->fired[i].rule->action == ACT_DENY)
			break;
	if (i == out->nfired || state_dir == NULL || *ev->session_id == '\0')
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	key = cJSON_IsString(id) ? xasprintf("%s%s", HOOK_DENY_KEY,
	    id->valuestring) : xasprintf("%s%lld.%09ld-%ld", HOOK_DENY_KEY,
	    (long long)ts.tv_sec, ts.tv_nsec, (long)getpid());
	keys[0] = key;
	if (state_claim(state_dir, ev->session_id, keys, 1, &first, false,
	    &warn, &err) < 0)
		free(err);
	if (warn != NULL)
		buf_printf(&reply->err, "reflexion-rules: %s\n", warn);
	free(warn);
	free(key);
}

/* The first record rule of an outcome, or NULL. */
static const struct rule *
record_rule(const struct eval_outcome *out)
{
	size_t	i;

	for (i = 0; i < out->nfired; i++)
		if (out->fired[i].rule->action == ACT_RECORD)
			return out->fired[i].rule;
	return NULL;
}

/* A patch_file_after() for event.h's file_after. */
static int
patch_after(const void *arg, const char *disk, size_t len, struct buf *out)
{
	return patch_file_after(arg, disk, len, out);
}

/*
 * The events of one hook call: usually one; one per file of a Codex
 * patch, which are evaluated each and answered together.
 */
struct hook_events {
	struct rr_event		*v;
	size_t			 n;
	const struct rule	**record;	/* each one's record rule */
	/* v and record when there is one event: nothing to allocate. */
	struct rr_event		 one;
	const struct rule	*one_record;
};

static void
events_make(struct agent_mapped *m, struct hook_events *evs)
{
	size_t	i;

	evs->n = m->n;
	if (m->n == 1) {
		evs->v = &evs->one;
		evs->record = &evs->one_record;
		evs->one_record = NULL;
	} else {
		evs->v = xcalloc(m->n, sizeof(*evs->v));
		evs->record = xcalloc(m->n, sizeof(*evs->record));
	}
	for (i = 0; i < m->n; i++) {
		event_from_root(&evs->v[i], m->events[i], NULL, m->agent);
		m->events[i] = NULL;	/* the event owns it now */
		if (m->agent != AGENT_CLAUDE)
			event_set_client(&evs->v[i], m->client_event,
			    m->client_tool);
		if (m->files[i] != NULL) {
			evs->v[i].file_after = patch_after;
			evs->v[i].file_after_arg = m->files[i];
		}
	}
	/* Why the call was not all read, as a note of its first event. */
	if (m->note != NULL && evs->v[0].note == NULL)
		evs->v[0].note = arena_strdup(&evs->v[0].arena, m->note);
}

static void
events_release(struct hook_events *evs)
{
	size_t	i;

	for (i = 0; i < evs->n; i++)
		event_release(&evs->v[i]);
	if (evs->v != &evs->one) {
		free(evs->v);
		free(evs->record);
	}
}

/*
 * Evaluates every event into out, each one's decision held at the
 * deadline together with those before it.  Returns -1 when a cached
 * rule would not decode (out is then to be discarded).
 */
static int
eval_all(const struct ruleset *rs, struct hook_events *evs,
    const struct eval_opts *eo, struct hook_held *held,
    struct eval_outcome *out)
{
	struct eval_outcome	part;
	size_t			i;

	for (i = 0; i < evs->n; i++) {
		eval_outcome_init(&part);
		held->before = out;
		if (eval_event(rs, &evs->v[i], eo, &part) < 0) {
			eval_outcome_release(&part);
			held->before = NULL;
			return -1;
		}
		evs->record[i] = record_rule(&part);
		eval_outcome_append(out, &part);
	}
	held->before = NULL;
	return 0;
}

/*
 * What a call built, when the process exits right after it (hook_opts'
 * exiting): the rules and the regexes they decoded, the cache's mapping,
 * the event, the outcome.  Freed piece by piece, they cost a Bash call of
 * the dangerous-commands pack 7% of its instructions and an munmap(),
 * work the exit does at once.  Kept here they stay reachable, so that
 * leak checkers do not count them lost.  Built with AddressSanitizer, or
 * with REFLEXION_FREE_AT_EXIT set (for valgrind), they are freed as
 * before, which keeps the release code checked.  (Used: else the
 * compiler, seeing it never read, may drop the stores.)
 */
static __attribute__((used)) struct {
	struct eval_outcome	out;
	struct diag_list	diags;
	struct ruleset		rs;
	struct hook_events	evs;
	struct agent_mapped	m;
} leftovers;

static bool
free_at_exit(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	return true;
#endif
#endif
	return env_on("REFLEXION_FREE_AT_EXIT");
}

void
hook_run(const char *input, size_t len, const struct hook_opts *opts,
    struct hook_reply *reply)
{
	struct agent_mapped	 m;
	struct hook_events	 evs;
	struct rr_event		*ev;
	struct ruleset		 rs;
	struct diag_list	 diags;
	struct eval_outcome	 out;
	struct eval_opts	 eo;
	struct hook_held	 held;
	struct hook_config	 hc;
	struct rr_db		*db;
	struct cJSON		*root;
	char			*err = NULL, *sysmsg, *state_dir, *db_path;
	char			*project;
	size_t			 i;

	if ((root = event_json_parse(input, len, &err)) == NULL) {
		bad_event(err, opts, reply);
		free(err);
		return;
	}
	agent_map(root, opts->agent, opts->event, &m);
	events_make(&m, &evs);
	ev = &evs.v[0];
	if (ev->guessed != NULL)
		buf_printf(&reply->err, "reflexion-rules: the event has no "
		    "hook_event_name: %s%s (%s); hook --event NAME says "
		    "which\n", ev->kind == EV_OTHER ? "not evaluated" :
		    "read as ", ev->kind == EV_OTHER ? "" : ev->event_name,
		    ev->guessed);
	project = project_root(ev->cwd);
	for (i = 0; i < evs.n; i++)
		event_set_project(&evs.v[i], project);
	free(project);
	if (ev->kind == EV_OTHER) {
		/* Events we do not evaluate are read and answered with nothing. */
		events_release(&evs);
		agent_mapped_release(&m);
		return;
	}
	if ((ev->kind == EV_PRE_TOOL_USE || ev->kind == EV_POST_TOOL_USE ||
	    ev->kind == EV_POST_TOOL_USE_FAILURE) && ev->tool == NULL)
		buf_printf(&reply->err, "reflexion-rules: the %s event has no "
		    "tool_name; rules that name tools are skipped\n",
		    ev->client_event);
	for (i = 0; i < evs.n; i++)
		if (evs.v[i].note != NULL)
			buf_printf(&reply->err, "reflexion-rules: %s\n",
			    evs.v[i].note);
	memset(&held, 0, sizeof(held));
	held.opts = opts;
	held.ev = ev;
	held.diags = &diags;
	held.reply = reply;
	load_rules(opts, ev->project_dir, false, &rs, &diags, reply);
	held.sysmsg = sysmsg = hook_load_errors_message(&diags);
	held.guarded = hook_guarding_file(&rs, ev, false) != NULL;
	hook_hold_undecided(&held, &rs);
	/* No home, no memory: no state, no database (places.h). */
	state_dir = NULL;
	db = NULL;
	if (opts->home != NULL) {
		state_dir = xstrjoin(opts->home, "/state", NULL);
		/* Opened only if a kb condition or a record rule needs it. */
		db_path = db_default_path(opts->home);
		db = db_new(db_path);
		/* One call, one budget: no query may run past it either. */
		db->bound_queries = true;
		/* A call that only records goes to the journal. */
		db->journal = true;
		free(db_path);
	}
	memset(&eo, 0, sizeof(eo));
	eo.state_dir = state_dir;
	eo.no_state = state_dir == NULL;
	eo.db = db;
	memset(&hc, 0, sizeof(hc));
	hc.home = opts->home;
	hc.opts = opts;
	eo.router = hook_router;
	eo.router_arg = &hc;
	if (opts->deadline_ms != 0) {
		eo.decided = hook_hold_decision;
		eo.decided_arg = &held;
	}
	eval_outcome_init(&out);
	if (eval_all(&rs, &evs, &eo, &held, &out) < 0) {
		/* A rule in the cache would not decode: compile, and redo. */
		eval_outcome_release(&out);
		diag_list_release(&diags);
		ruleset_release(&rs);
		free(sysmsg);
		load_rules(opts, ev->project_dir, true, &rs, &diags, reply);
		held.sysmsg = sysmsg = hook_load_errors_message(&diags);
		held.guarded = hook_guarding_file(&rs, ev, false) != NULL;
		hook_hold_undecided(&held, &rs);
		eval_outcome_init(&out);
		eval_all(&rs, &evs, &eo, &held, &out);
	}
	if (sysmsg != NULL && !first_showing(&diags, state_dir, ev, reply)) {
		free(sysmsg);
		sysmsg = NULL;
	}
	report_diags(&diags, reply);
	buf_add(&reply->err, out.notes.data, out.notes.len);
	hook_error_denies(&rs, ev, &out);
	output_reply(&out, ev, sysmsg, opts->exit2, reply);
	hook_hold_reply(reply, opts);
	count_deny(state_dir, &out, ev, reply);
	if (db != NULL) {
		for (i = 0; i < evs.n; i++)
			if (evs.record[i] != NULL)
				hook_record(db, evs.record[i], &evs.v[i],
				    opts, &hc, reply);
		hook_route(db, &out, ev, reply);
		buf_add(&reply->err, db->notes.data, db->notes.len);
		db_close(db);
	}

	/* Old sessions' state goes away once per session, not per call. */
	if (state_dir != NULL && ev->kind == EV_SESSION_START &&
	    state_prune(state_dir, STATE_MAX_AGE_DAYS, &err) < 0) {
		buf_printf(&reply->err, "reflexion-rules: %s\n", err);
		free(err);
	}
	if (hc.loaded)
		config_release(&hc.cfg);
	free(state_dir);
	free(sysmsg);
	if (opts->exiting && !free_at_exit()) {
		leftovers.out = out;
		leftovers.diags = diags;
		leftovers.rs = rs;
		leftovers.evs = evs;
		leftovers.m = m;
		return;
	}
	eval_outcome_release(&out);
	diag_list_release(&diags);
	ruleset_release(&rs);
	events_release(&evs);
	agent_mapped_release(&m);
}
