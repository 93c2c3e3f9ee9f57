/*
 * Rules and rule files: ruleset_add_yaml() (compile.h) compiles one YAML
 * document, its top-level keys and each of its rules, and commits the
 * good rules to the ruleset.  A rule's when: and unless: are compiled by
 * compile_cond.c, its record: options and test seeds by compile_kb.c.
 * Reading files and directories is compile_path.c's.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "compile_priv.h"
#include "event.h"
#include "glob.h"

static const char *const compile_top_keys[] = {
	"version", "pack", "description", "vars", "rules", "on_error", "locked",
	"banner", NULL
};

static const char *const compile_rule_keys[] = {
	"id", "description", "on", "tools", "priority", "when", "unless",
	"once", "action", "message", "skill", "tags", "enabled", "tests",
	"ignore_stop_hook_active", "record", "overridable", "locked", "route",
	NULL
};

static const char *const compile_test_keys[] = {
	"name", "event", "expect", "kb", "tool_errors", "known_gap", "files",
	"message_contains", "lang", NULL
};

static const char *const known_event_names[] = {
	"PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit",
	"Stop", "SubagentStop", "SessionStart", "SessionEnd", "Check", NULL
};

static const char *const priority_list[] = {
	"critical", "high", "medium", "low", NULL
};

/* NULL-terminated: closest_word() walks these. */
static const char *const action_list[] = {
	"deny", "ask", "allow", "context", "suggest", "warn", "record", NULL
};

static bool
valid_id(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' ||
		    *s == '.' || (unsigned char)*s >= 0x80))
			return false;
	return true;
}

/*
 * PACK/ID, both parts ids: the full id of a pack's rule, which a rule of
 * any file may take to replace or switch off that rule (LAYERS AND
 * TRUST decides whether it may).
 */
static bool
qualified_id(const char *s)
{
	const char	*slash = strchr(s, '/');
	char		 pack[256];
	size_t		 n;

	if (slash == NULL || (n = (size_t)(slash - s)) == 0 ||
	    n >= sizeof(pack) || strchr(slash + 1, '/') != NULL)
		return false;
	memcpy(pack, s, n);
	pack[n] = '\0';
	return valid_id(pack) && valid_id(slash + 1);
}

static int
enum_value(struct cctx *cx, const struct ynode *v, const char *key,
    const char *const *names, int count)
{
	const char	*near;
	struct diag	*d;
	int		 i;

	if (!is_string(v)) {
		cx_error(cx, v, DIAG_wrong_type, "'%s' must be a string, not %s",
		    key, ynode_type_name(v));
		return -1;
	}
	for (i = 0; i < count; i++)
		if (strcmp(v->str, names[i]) == 0)
			return i;
	d = cx_error(cx, v, DIAG_invalid_value, "invalid %s '%s'", key, v->str);
	near = closest_word(v->str, names);
	if (near != NULL)
		diag_set_hint(d, "did you mean '%s'?", near);
	else {
		struct buf b;
		buf_init(&b);
		for (i = 0; i < count; i++)
			buf_printf(&b, "%s%s", i ? ", " : "", names[i]);
		diag_set_hint(d, "one of %s", b.data);
		buf_release(&b);
	}
	return -1;
}

static int
bool_value(struct cctx *cx, const struct ynode *v, const char *key, bool *out)
{
	int	b = ynode_bool(v);

	if (b < 0) {
		cx_error(cx, v, DIAG_wrong_type, "'%s' must be true or false",
		    key);
		return -1;
	}
	*out = b;
	return 0;
}

static void
compile_events(struct cctx *cx, struct rule *r, const struct ynode *v)
{
	struct strlist	 l;
	const char	*near;
	struct diag	*d;
	size_t		 i;
	int		 k;
	bool		 saw_check = false;

	if (strlist_from(cx, v, &l, false, "an event name") < 0)
		return;
	for (i = 0; i < l.n; i++) {
		/*
		 * Check: no agent sends it; `reflexion-rules check` runs the
		 * rule on the Write of each file it checks.  With another
		 * event the rule is that event's, as any (check runs
		 * PreToolUse rules anyway).
		 */
		if (strcmp(l.items[i].s, "Check") == 0) {
			saw_check = true;
			continue;
		}
		k = event_kind_from_name(l.items[i].s);
		if (k != EV_OTHER) {
			r->events |= 1u << k;
			continue;
		}
		d = cx_error(cx, l.items[i].node, DIAG_unknown_event,
		    "unknown event '%s'", l.items[i].s);
		near = closest_word(l.items[i].s, known_event_names);
		if (near != NULL)
			diag_set_hint(d, "did you mean '%s'?", near);
		else
			diag_set_hint(d, "rules can run on PreToolUse, "
			    "PostToolUse, PostToolUseFailure, UserPromptSubmit, "
			    "Stop, SubagentStop, SessionStart, and Check "
			    "(reflexion-rules check only)");
	}
	if (l.n == 0)
		cx_error(cx, v, DIAG_empty_condition, "'on' is an empty list");
	if (saw_check && r->events == 0) {
		r->check_only = true;
		r->events = 1u << EV_PRE_TOOL_USE;
	}
}

static bool
has_glob_chars(const char *s)
{
	return strpbrk(s, "*?[{") != NULL;
}

static void
compile_tools(struct cctx *cx, struct rule *r, const struct ynode *v)
{
	struct arena	*a = &cx->rs->arena;
	struct strlist	 l;
	struct rr_glob	*g;
	const char	*err;
	size_t		 i, off;

	if (strlist_from(cx, v, &l, true, "a tool name") < 0)
		return;
	r->tools = arena_alloc(a, (l.n ? l.n : 1) * sizeof(*r->tools));
	r->tool_globs = arena_alloc(a, (l.n ? l.n : 1) *
	    sizeof(*r->tool_globs));
	for (i = 0; i < l.n; i++) {
		r->tools[i] = l.items[i].s;
		if (!has_glob_chars(l.items[i].s))
			reach_check_tool(cx, r, l.items[i].node,
			    l.items[i].s);
		else {
			g = rr_glob_compile(l.items[i].s, l.items[i].len, &err,
			    &off);
			if (g == NULL) {
				cx_error_at(cx, l.items[i].node, off,
				    DIAG_invalid_glob, "invalid glob: %s", err);
				continue;
			}
			ruleset_own_glob(cx->rs, g);
			r->tool_globs[i] = g;
		}
	}
	r->ntools = l.n;
	if (l.n == 0)
		cx_error(cx, v, DIAG_empty_condition, "'tools' is an empty list");
}

static void compile_test_extras(struct cctx *, const struct ynode *,
	    struct rule_test *);

static void
compile_tests(struct cctx *cx, struct rule *r, const struct ynode *v)
{
	static const char *const expect_names[] = {
		"deny", "ask", "allow", "context", "suggest", "warn", "record",
		"none", NULL
	};
	const struct ynode	*t, *ev, *ex, *nm, *seed;
	struct rule_test	*rt;
	cJSON			*j;
	size_t			 i;
	int			 k;

	if (v->type != YNODE_SEQ) {
		cx_error(cx, v, DIAG_wrong_type,
		    "'tests' must be a list, not %s", ynode_type_name(v));
		return;
	}
	r->tests = arena_alloc(&cx->rs->arena, (v->n ? v->n : 1) *
	    sizeof(*r->tests));
	for (i = 0; i < v->n; i++) {
		t = v->items[i];
		if (t->type != YNODE_MAP) {
			cx_error(cx, t, DIAG_bad_test,
			    "each test must be a mapping with 'event' and "
			    "'expect'");
			continue;
		}
		compile_check_keys(cx, t, "a test", compile_test_keys);
		ev = ynode_get(t, "event");
		ex = ynode_get(t, "expect");
		nm = ynode_get(t, "name");
		if (ev == NULL || ev->type != YNODE_MAP) {
			cx_error(cx, ev ? ev : t, DIAG_bad_test,
			    "a test needs 'event', a mapping");
			continue;
		}
		if (ex == NULL) {
			cx_error(cx, t, DIAG_bad_test, "a test needs 'expect'");
			continue;
		}
		k = enum_value(cx, ex, "expect", expect_names, 8);
		if (k < 0)
			continue;
		j = ynode_to_json(ev, 0);
		ruleset_own_json(cx->rs, j);
		rt = &r->tests[r->ntests++];
		rt->event = j;
		rt->expect = k == 7 ? ACT_NONE : (enum rr_action)k;
		rt->name = is_string(nm) ? arena_strdup(&cx->rs->arena,
		    nm->str) : NULL;
		rt->line = t->line;
		rt->col = t->col;
		if ((seed = ynode_get(t, "kb")) != NULL)
			rt->kb_rows = compile_test_seed(cx, seed, "kb");
		if ((seed = ynode_get(t, "tool_errors")) != NULL)
			rt->tool_errors = compile_test_seed(cx, seed,
			    "tool_errors");
		compile_test_extras(cx, t, rt);
	}
}

/* A file name a test may create: relative, inside the test project. */
static bool
safe_test_path(const char *p)
{
	const char	*seg = p;

	if (*p == '\0' || *p == '/')
		return false;
	for (;;) {
		size_t n = strcspn(seg, "/");
		if (n == 0 || (n == 2 && seg[0] == '.' && seg[1] == '.'))
			return false;
		if (seg[n] == '\0')
			return true;
		seg += n + 1;
	}
}

/* known_gap, lang, files and message_contains of one test. */
static void
compile_test_extras(struct cctx *cx, const struct ynode *t,
    struct rule_test *rt)
{
	struct arena		*a = &cx->rs->arena;
	const struct ynode	*v, *k, *val;
	struct strlist		 l;
	size_t			 i;

	if ((v = ynode_get(t, "known_gap")) != NULL)
		bool_value(cx, v, "known_gap", &rt->known_gap);
	if ((v = ynode_get(t, "lang")) != NULL) {
		if (!is_string(v) || v->len < 2 || v->len > 16)
			cx_error(cx, v, DIAG_bad_test, "'lang' must be the "
			    "language of the message tested, such as ko");
		else
			rt->lang = arena_strdup(a, v->str);
	}
	if ((v = ynode_get(t, "message_contains")) != NULL &&
	    strlist_from(cx, v, &l, false, "a message_contains text") == 0) {
		rt->says = arena_alloc(a, (l.n + 1) * sizeof(*rt->says));
		for (i = 0; i < l.n; i++)
			rt->says[rt->nsays++] = l.items[i].s;
	}
	if ((v = ynode_get(t, "files")) == NULL)
		return;
	if (v->type != YNODE_MAP) {
		cx_error(cx, v, DIAG_bad_test, "'files' must be a mapping of "
		    "file names (relative to the project) to their text");
		return;
	}
	rt->file_names = arena_alloc(a, (v->n + 1) * sizeof(*rt->file_names));
	rt->file_texts = arena_alloc(a, (v->n + 1) * sizeof(*rt->file_texts));
	for (i = 0; i < v->n; i++) {
		k = v->items[2 * i];
		val = v->items[2 * i + 1];
		if (!is_string(k) || !safe_test_path(k->str)) {
			cx_error(cx, k, DIAG_bad_test, "a test file name must "
			    "be a relative path without '..'");
			continue;
		}
		if (val->type != YNODE_SCALAR) {
			cx_error(cx, val, DIAG_bad_test,
			    "the text of '%s' must be a string", k->str);
			continue;
		}
		rt->file_names[rt->nfiles] = arena_strdup(a, k->str);
		rt->file_texts[rt->nfiles++] = arena_strndup(a, val->str,
		    val->len);
	}
}

/* Checks that the action can take effect on every event of the rule. */
static void
check_action_events(struct cctx *cx, struct rule *r, const struct ynode *at)
{
	unsigned	bad = 0;
	int		k;

	switch (r->action) {
	case ACT_ASK:
	case ACT_ALLOW:
		bad = r->events & ~(1u << EV_PRE_TOOL_USE);
		break;
	case ACT_DENY:
		bad = r->events & ((1u << EV_SESSION_START) |
		    (1u << EV_POST_TOOL_USE_FAILURE) | (1u << EV_SESSION_END));
		break;
	case ACT_RECORD:
		bad = r->events & ~((1u << EV_POST_TOOL_USE) |
		    (1u << EV_POST_TOOL_USE_FAILURE) |
		    (1u << EV_USER_PROMPT_SUBMIT) | (1u << EV_STOP) |
		    (1u << EV_SUBAGENT_STOP) | (1u << EV_SESSION_END));
		break;
	default:
		/* The client reads no answer to a SessionEnd. */
		bad = r->events & (1u << EV_SESSION_END);
		break;
	}
	for (k = 0; k < EV__COUNT; k++) {
		if (bad & (1u << k)) {
			struct diag *d = cx_error(cx, at, DIAG_action_event,
			    "action '%s' cannot take effect on %s",
			    action_names[r->action], event_kind_names[k]);
			diag_set_hint(d, "%s", r->action == ACT_DENY ?
			    "use 'context' to tell the model, or 'warn' to "
			    "tell the user" : r->action == ACT_RECORD ?
			    "it records tool calls (PostToolUse, "
			    "PostToolUseFailure), prompts (UserPromptSubmit), "
			    "turns (Stop, SubagentStop) and summaries "
			    "(SessionEnd)" : k == EV_SESSION_END ?
			    "the client reads no answer to it: only 'record' "
			    "applies" : "it applies to PreToolUse only");
			return;
		}
	}
	if (r->ntools > 0 && !(r->events & ((1u << EV_PRE_TOOL_USE) |
	    (1u << EV_POST_TOOL_USE) | (1u << EV_POST_TOOL_USE_FAILURE))))
		cx_error(cx, at, DIAG_action_event,
		    "'tools' applies only to PreToolUse, PostToolUse and "
		    "PostToolUseFailure");
}

/*
 * Whether a condition of that kind (C_KB or C_MEMORY) can add rows to the
 * message (not under not:).
 */
static bool
cond_has_rows(const struct cond *c, enum cond_kind kind)
{
	size_t	i;

	if (c == NULL)
		return false;
	switch (c->kind) {
	case C_KB:
	case C_MEMORY:
		return c->kind == kind;
	case C_ALL:
	case C_ANY:
		for (i = 0; i < c->nkids; i++)
			if (cond_has_rows(c->kids[i], kind))
				return true;
		return false;
	case C_SECTIONS:
		for (i = 0; i < c->sections->ntags; i++)
			if (cond_has_rows(c->sections->tags[i].when, kind))
				return true;
		return false;
	case C_BLOCKS:
		return cond_has_rows(c->blocks->test, kind);
	case C_BLOCK_PART:
	case C_LISTED:
	case C_RELATED:
	case C_NOT:
	case C_TEXT:
	case C_FILE_CONTAINS:
	case C_ENV:
	case C_SHELL:		/* shell maps hold only the command's parts */
	case C_SH_TEXT:
	case C_SH_FLAGS:
	case C_ROUTER:
		return false;
	}
	return false;
}

/* Whether `when` holds only when the router answered (a top-level one). */
static bool
cond_has_router(const struct cond *c)
{
	size_t	i;

	if (c == NULL)
		return false;
	if (c->kind == C_ROUTER)
		return true;
	if (c->kind != C_ALL)
		return false;
	for (i = 0; i < c->nkids; i++)
		if (cond_has_router(c->kids[i]))
			return true;
	return false;
}

static void
compile_rule(struct cctx *cx, const struct ynode *n, int layer)
{
	const struct ynode	*v, *idn, *actn;
	struct arena		*a = &cx->rs->arena;
	const struct rule	*first;
	struct rule		*r;
	struct diag_loc		 loc;
	struct strlist		 l;
	size_t			 before = cx->errors, i;
	int			 k;
	bool			 stub;

	if (n->type != YNODE_MAP) {
		cx_error(cx, n, DIAG_wrong_type,
		    "each rule must be a mapping, not %s", ynode_type_name(n));
		return;
	}
	/* `id` and `enabled: false` alone: it disables another rule. */
	if (!(stub = layer_is_stub(n)))
		compile_check_keys(cx, n, "a rule", compile_rule_keys);
	r = ruleset_new_rule(cx->rs);
	r->file = cx->file;
	r->line = n->line;
	r->col = n->col;

	idn = ynode_get(n, "id");
	if (idn == NULL)
		cx_error(cx, n, DIAG_missing_key, "rule has no 'id'");
	else if (!is_string(idn))
		cx_error(cx, idn, DIAG_wrong_type, "'id' must be a string");
	else if (qualified_id(idn->str))
		/* PACK/ID names a pack's rule as `rules` lists it. */
		r->id = arena_strdup(a, idn->str);
	else if (!valid_id(idn->str))
		cx_error(cx, idn, DIAG_bad_id,
		    "rule id '%s' may only hold letters, digits, '_', '-' "
		    "and '.' (or be PACK/ID, a pack's rule)", idn->str);
	else
		r->id = cx->pack ? arena_printf(a, "%s/%s", cx->pack,
		    idn->str) : arena_strdup(a, idn->str);

	if ((v = ynode_get(n, "description")) != NULL) {
		if (is_string(v))
			r->description = arena_strdup(a, v->str);
		else
			cx_error(cx, v, DIAG_wrong_type,
			    "'description' must be a string");
	}
	if (stub) {
		if ((r = layer_stub(cx, r, n, layer)) == NULL)
			return;
		ydoc_loc(cx->doc, idn, &loc);
		if (ruleset_commit_rule(cx->rs, r, layer, cx->diags, &loc) < 0)
			cx->errors++;
		return;
	}
	if ((v = ynode_get(n, "on")) == NULL)
		cx_error(cx, n, DIAG_missing_key, "rule%s%s has no 'on' event",
		    idn && is_string(idn) ? " " : "",
		    idn && is_string(idn) ? idn->str : "");
	else
		compile_events(cx, r, v);
	if ((v = ynode_get(n, "tools")) != NULL)
		compile_tools(cx, r, v);
	if ((v = ynode_get(n, "priority")) != NULL &&
	    (k = enum_value(cx, v, "priority", priority_list, PRI__COUNT)) >= 0)
		r->priority = (enum rr_priority)k;
	if ((v = ynode_get(n, "when")) != NULL)
		r->when = compile_when(cx, ynode_get_key(n, "when"), v,
		    false);
	if ((v = ynode_get(n, "unless")) != NULL)
		r->unless = compile_when(cx, ynode_get_key(n, "unless"),
		    v, true);
	if ((v = ynode_get(n, "once")) != NULL) {
		static const char *const once_names[] = {
			"never", "session", "session+path", NULL
		};
		if ((k = enum_value(cx, v, "once", once_names, 3)) >= 0)
			r->once = (enum rr_once)k;
	}
	actn = ynode_get(n, "action");
	if (actn == NULL)
		cx_error(cx, n, DIAG_missing_key, "rule has no 'action'");
	else if ((k = enum_value(cx, actn, "action", action_list,
	    ACT__COUNT)) >= 0)
		r->action = (enum rr_action)k;
	else
		cx->diags->items[cx->diags->n - 1].code = DIAG_unknown_action;
	if ((v = ynode_get(n, "message")) != NULL)
		compile_message(cx, r, v);
	if ((v = ynode_get(n, "skill")) != NULL) {
		if (is_string(v))
			r->skill = arena_strdup(a, v->str);
		else
			cx_error(cx, v, DIAG_wrong_type,
			    "'skill' must be a string");
	}
	if ((v = ynode_get(n, "tags")) != NULL &&
	    strlist_from(cx, v, &l, false, "a tag") == 0) {
		r->tags = arena_alloc(a, (l.n ? l.n : 1) * sizeof(*r->tags));
		for (i = 0; i < l.n; i++)
			r->tags[r->ntags++] = l.items[i].s;
	}
	if ((v = ynode_get(n, "enabled")) != NULL)
		bool_value(cx, v, "enabled", &r->enabled);
	if ((v = ynode_get(n, "ignore_stop_hook_active")) != NULL)
		bool_value(cx, v, "ignore_stop_hook_active",
		    &r->ignore_stop_hook_active);
	if ((v = ynode_get(n, "tests")) != NULL)
		compile_tests(cx, r, v);
	if ((v = ynode_get(n, "record")) != NULL)
		r->record = compile_record(cx, v);
	if ((v = ynode_get(n, "route")) != NULL)
		r->route = compile_route(cx, v);
	if (r->action == ACT_SUGGEST) {
		r->banner = cx->banner;
		r->banners = cx->banners;
		r->nbanners = cx->nbanners;
	}
	layer_rule_keys(cx, r, n);

	/* Cross-field checks, only when the parts themselves were fine. */
	if (r->action != ACT_NONE && actn != NULL) {
		if ((r->action == ACT_DENY || r->action == ACT_ASK ||
		    r->action == ACT_CONTEXT || r->action == ACT_WARN) &&
		    ynode_get(n, "message") == NULL) {
			struct diag *d = cx_error(cx, actn,
			    DIAG_missing_message,
			    "action '%s' needs a 'message'",
			    action_names[r->action]);
			diag_set_hint(d, "the message is what the model or "
			    "the user sees; say why and what to do instead");
		}
		if (r->action == ACT_SUGGEST && r->skill == NULL &&
		    ynode_get(n, "skill") == NULL)
			cx_error(cx, actn, DIAG_missing_key,
			    "action 'suggest' needs a 'skill'");
		if (r->events)
			check_action_events(cx, r, actn);
		if (r->action != ACT_RECORD && (v = ynode_get_key(n,
		    "record")) != NULL)
			cx_error(cx, v, DIAG_record_options, "'record' options "
			    "apply only to rules with 'action: record'");
	}
	/* A when that did not compile has said so already. */
	if (message_uses_kb(r) &&
	    (r->when != NULL || ynode_get(n, "when") == NULL) &&
	    !cond_has_rows(r->when, C_KB)) {
		struct diag *d = cx_error(cx, ynode_get(n, "message"),
		    DIAG_kb_unused, "the message lists kb rows but 'when' has "
		    "no kb condition to find them");
		diag_set_hint(d, "add 'kb: file_errors' or 'kb: session_error' "
		    "under 'when'");
	}
	if (message_uses_memory(r) &&
	    (r->when != NULL || ynode_get(n, "when") == NULL) &&
	    !cond_has_rows(r->when, C_MEMORY)) {
		struct diag *d = cx_error(cx, ynode_get(n, "message"),
		    DIAG_kb_unused, "the message lists memory rows but 'when' "
		    "has no memory condition to find them");
		diag_set_hint(d, "add 'memory: summaries' under 'when'");
	}
	if (r->route != NULL && r->route->from_router &&
	    !cond_has_router(r->when)) {
		struct diag *d = cx_error(cx, ynode_get(n, "route"),
		    DIAG_invalid_value, "'route: router' takes the router's "
		    "answer, but 'when' has no router condition");
		diag_set_hint(d, "add 'router: true' under 'when'");
	}
	/*
	 * A broken rule still tells which events its file guards: when its
	 * action could not be read, assume it was meant to block.
	 */
	if (r->action == ACT_DENY || r->action == ACT_ASK ||
	    r->action == ACT_NONE)
		cx->guarded |= r->events;
	r->fail_closed = cx->fail_closed;
	if (r->id == NULL)
		return;
	/*
	 * A rule with an error is left out, but its id still counts: a later
	 * rule with the same id is a duplicate all the same, and this one is
	 * reported if an earlier rule has its id.
	 */
	if ((first = ruleset_same_id(cx->rs, r, layer)) != NULL)
		cx_error(cx, idn, DIAG_duplicate_id, "duplicate rule id '%s' "
		    "(first defined at %s:%d)", r->id, first->file,
		    first->line);
	if (cx->errors != before) {
		ruleset_leave_out(cx->rs, r, layer);
		return;
	}
	reach_check_tool_events(cx, r, ynode_get(n, "on"));
	reach_check_rule(cx, r);
	layer_check_allow(cx, r, actn, layer);
	ydoc_loc(cx->doc, idn, &loc);
	if (ruleset_commit_rule(cx->rs, r, layer, cx->diags, &loc) < 0)
		cx->errors++;
}

size_t
ruleset_add_yaml(struct ruleset *rs, const char *file, const char *text,
    size_t len, int layer, struct diag_list *diags)
{
	struct ydoc		 doc;
	struct cctx		 cx;
	const struct ynode	*root, *v, *rules;
	size_t			 i, before = diags->errors;
	long long		 ver;
	int			 k;

	memset(&cx, 0, sizeof(cx));
	cx.rs = rs;
	cx.diags = diags;
	cx.file = ruleset_intern_file(rs, file);
	if (ydoc_load(&doc, cx.file, text, len, diags) < 0) {
		ydoc_release(&doc);
		return diags->errors - before;
	}
	cx.doc = &doc;
	root = doc.root;
	if (root == NULL) {
		cx_error(&cx, NULL, DIAG_missing_key,
		    "rule file is empty; expected 'version: 1' and 'rules:'");
		goto out;
	}
	if (root->type != YNODE_MAP) {
		cx_error(&cx, root, DIAG_wrong_type,
		    "a rule file must be a mapping with 'version' and 'rules', "
		    "not %s", ynode_type_name(root));
		goto out;
	}
	compile_check_keys(&cx, root, "the rule file", compile_top_keys);
	if ((v = ynode_get(root, "version")) == NULL)
		cx_error(&cx, root, DIAG_missing_key,
		    "rule file has no 'version' (write 'version: 1')");
	else if (!ynode_int(v, &ver) || ver != 1)
		cx_error(&cx, v, DIAG_invalid_value,
		    "unsupported version '%s'; this engine reads version 1",
		    v->type == YNODE_SCALAR ? v->str : ynode_type_name(v));
	if ((v = ynode_get(root, "pack")) != NULL) {
		if (!is_string(v) || !valid_id(v->str))
			cx_error(&cx, v, DIAG_bad_id, "'pack' must be a name of "
			    "letters, digits, '_', '-' and '.'");
		else
			cx.pack = v->str;
	}
	if ((v = ynode_get(root, "locked")) != NULL &&
	    (k = ynode_bool(v)) >= 0)
		cx.locked = k;
	else if (v != NULL)
		cx_error(&cx, v, DIAG_wrong_type,
		    "'locked' must be true or false");
	if ((v = ynode_get(root, "on_error")) != NULL) {
		if (!is_string(v) || (strcmp(v->str, "allow") &&
		    strcmp(v->str, "deny")))
			cx_error(&cx, v, DIAG_invalid_value,
			    "'on_error' must be 'allow' or 'deny'");
		else
			cx.fail_closed = strcmp(v->str, "deny") == 0;
	}
	if ((v = ynode_get(root, "banner")) != NULL)
		compile_banner(&cx, v);
	if ((v = ynode_get(root, "vars")) != NULL) {
		if (v->type != YNODE_MAP)
			cx_error(&cx, v, DIAG_wrong_type,
			    "'vars' must be a mapping of names to strings or "
			    "lists");
		else {
			cx.vars = v;
			for (i = 0; i < v->n; i++) {
				const struct ynode *val = v->items[2 * i + 1];
				struct strlist l;
				if (val->type == YNODE_MAP)
					cx_error(&cx, val, DIAG_wrong_type,
					    "variable '%s' must be a string or "
					    "a list of strings",
					    v->items[2 * i]->str);
				else
					strlist_from(&cx, val, &l, false,
					    "a variable item");
			}
		}
	}
	rules = ynode_get(root, "rules");
	if (rules == NULL)
		cx_error(&cx, root, DIAG_missing_key, "rule file has no 'rules'");
	else if (ynode_is_null(rules))
		;	/* "rules:" with nothing: an empty pack is fine */
	else if (rules->type != YNODE_SEQ)
		cx_error(&cx, rules, DIAG_wrong_type,
		    "'rules' must be a list, not %s", ynode_type_name(rules));
	else
		for (i = 0; i < rules->n; i++)
			compile_rule(&cx, rules->items[i], layer);
	if (cx.fail_closed)
		ruleset_add_fail_closed(rs, cx.file, cx.guarded,
		    diags->errors - before);
out:
	ydoc_release(&doc);
	return diags->errors - before;
}
