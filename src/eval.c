/*
 * Rules and the event (eval.h): whether a rule applies to the event's
 * kind and tool, the cheap first look at a rule's `when`, deciding each
 * rule through its conditions (eval_cond.c), rendering the messages of
 * the rules that fire, and `once`.  The top of the evaluation stage:
 * nothing else in it calls this file.
 */
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "eval_priv.h"
#include "envflag.h"
#include "glob.h"
#include "prefilter.h"
#include "state.h"
#include "textesc.h"
#include "xmalloc.h"

void
eval_outcome_init(struct eval_outcome *o)
{
	memset(o, 0, sizeof(*o));
	buf_init(&o->notes);
}

void
eval_outcome_release(struct eval_outcome *o)
{
	size_t	i;

	for (i = 0; i < o->nfired; i++)
		free(o->fired[i].text);
	free(o->fired);
	buf_release(&o->notes);
	memset(o, 0, sizeof(*o));
}

void
eval_outcome_append(struct eval_outcome *dst, struct eval_outcome *src)
{
	if (src->nfired > 0) {
		dst->fired = xreallocarray(dst->fired, dst->nfired +
		    src->nfired, sizeof(*dst->fired));
		memcpy(dst->fired + dst->nfired, src->fired, src->nfired *
		    sizeof(*src->fired));
		dst->nfired += src->nfired;
		dst->cap = dst->nfired;
		src->nfired = 0;
	}
	buf_add(&dst->notes, src->notes.data, src->notes.len);
	if (dst->undecided == NULL) {
		dst->undecided = src->undecided;
		dst->undecided_why = src->undecided_why;
	}
	if (dst->lang == NULL)
		dst->lang = src->lang;
	eval_outcome_release(src);
}

/* ---- rules ---------------------------------------------------------------- */

static bool
tool_matches(const struct rule *r, const char *tool)
{
	size_t	i;

	if (r->ntools == 0)
		return true;
	if (tool == NULL)
		return false;
	for (i = 0; i < r->ntools; i++) {
		if (r->tool_globs[i] != NULL) {
			if (rr_glob_match(r->tool_globs[i], tool, strlen(tool)))
				return true;
			continue;
		}
		if (strcmp(r->tools[i], tool) == 0)
			return true;
		/* Claude Code 2.1.63 renamed Task to Agent; rules keep working. */
		if ((strcmp(r->tools[i], "Task") == 0 &&
		    strcmp(tool, "Agent") == 0) ||
		    (strcmp(r->tools[i], "Agent") == 0 &&
		    strcmp(tool, "Task") == 0))
			return true;
	}
	return false;
}

bool
rule_applies(const struct rule *r, const struct rr_event *ev)
{
	if (ev->kind == EV_OTHER || !(r->events & (1u << ev->kind)))
		return false;
	return tool_matches(r, ev->tool);
}

static int
fired_cmp(const void *a, const void *b)
{
	const struct fired_rule	*x = a, *y = b;

	if (x->rule->priority != y->rule->priority)
		return x->rule->priority < y->rule->priority ? -1 : 1;
	if (x->rule->order != y->rule->order)
		return x->rule->order < y->rule->order ? -1 : 1;
	return 0;
}

/*
 * The route a fired rule gives: its own (its strings the ruleset's), or
 * the router's answer; in the event's arena, NULL when none.
 */
static const struct route_info *
rule_route(struct ectx *cx, const struct rule *r)
{
	struct route_info	*ri;

	if (r->route == NULL || (r->route->from_router && cx->routed != 1))
		return NULL;
	ri = arena_alloc(&cx->ev->arena, sizeof(*ri));
	if (r->route->from_router)
		*ri = cx->router_route;
	else {
		ri->exec_type = r->route->exec_type;
		ri->pipeline = r->route->pipeline;
		ri->icon = r->route->icon;
		ri->reason = r->route->reason;
		ri->confidence = r->route->confidence;
		ri->source = "rules";
	}
	ri->rule = r->id;
	return ri;
}

static void
add_fired(struct eval_outcome *o, const struct rule *r, struct buf *text,
    const char *path, const struct route_info *route)
{
	struct fired_rule	*f;

	if (o->nfired == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 8;
		o->fired = xreallocarray(o->fired, o->cap, sizeof(*o->fired));
	}
	f = &o->fired[o->nfired++];
	memset(f, 0, sizeof(*f));
	f->rule = r;
	f->path = path;
	f->route = route;
	f->text = text ? buf_detach(text, &f->len) : NULL;
	if (text == NULL)
		f->len = 0;
}

/* The ids of the rule's block hits, ", " between, up to about 4 KB. */
static const char *
hit_ids(struct ectx *cx)
{
	struct buf	 b;
	const char	*s;
	size_t		 i;

	buf_init(&b);
	for (i = 0; i < cx->nhits; i++) {
		if (b.len >= 4096) {
			buf_printf(&b, ", ... (%zu in all)", cx->nhits);
			break;
		}
		buf_printf(&b, "%s%s", i ? ", " : "", cx->hits[i].id);
	}
	s = arena_strndup(&cx->ev->arena, b.data, b.len);
	buf_release(&b);
	return s;
}

/*
 * {{missing}} of a rule: its own, then each block's as "ID (what)", so
 * that one message can say what each test case lacks.
 */
static const char *
rule_missing(struct ectx *cx)
{
	struct buf	 b;
	const char	*s;
	size_t		 i;

	if (cx->nhits == 0)
		return cx->missing.data;
	buf_init(&b);
	buf_add(&b, cx->missing.data, cx->missing.len);
	for (i = 0; i < cx->nhits; i++) {
		if (cx->hits[i].missing == NULL)
			continue;
		if (b.len >= 4096) {
			buf_adds(&b, ", ...");
			break;
		}
		buf_printf(&b, "%s%s (%s)", b.len ? ", " : "", cx->hits[i].id,
		    cx->hits[i].missing);
	}
	s = arena_strndup(&cx->ev->arena, b.data, b.len);
	buf_release(&b);
	return s;
}

/*
 * The language the locale names: "ko" for ko_KR.UTF-8, NULL for C and
 * POSIX or none.  LC_ALL, then LC_MESSAGES, then LANG, as setlocale(3)
 * would take them.
 */
static const char *
locale_lang(void)
{
	static char	 lang[8];
	static const char *const vars[] = { "LC_ALL", "LC_MESSAGES", "LANG" };
	const char	*v = NULL;
	size_t		 i, n;

	for (i = 0; i < 3 && (v == NULL || *v == '\0'); i++)
		v = getenv(vars[i]);
	if (v == NULL || *v == '\0')
		return NULL;
	for (n = 0; n < sizeof(lang) - 1 && v[n] >= 'a' && v[n] <= 'z'; n++)
		lang[n] = v[n];
	lang[n] = '\0';
	return n >= 2 && n <= 3 ? lang : NULL;
}

/*
 * The template of r for the language: its own, else the one of the
 * same primary language (ko for ko-KR, and the other way), else the
 * default.
 */
static const struct template *
message_for(const struct rule *r, const char *lang)
{
	return rule_text_for(r->message, r->messages, r->nmessages, lang);
}

/* hit: the one block the message is for (check), or NULL: all of them. */
static void
render(struct ectx *cx, const struct rule *r, const struct block_hit *hit,
    const struct route_info *route, struct buf *b)
{
	struct tpl_ctx	tc;

	memset(&tc, 0, sizeof(tc));
	tc.ev = cx->ev;
	tc.rule_id = r->id;
	tc.skill = r->skill;
	tc.description = r->description;
	tc.match = cx->match;
	tc.match_len = cx->match_len;
	tc.kb = &cx->rows;
	tc.memory = &cx->mem;
	tc.route = route;
	tc.missing = cx->missing.data;
	tc.sections = cx->sections;
	tc.keywords = cx->keywords;
	if (cx->path_hit != NULL) {
		/* The file of the shell command that the rule matched. */
		tc.path = cx->path_hit->rel;
		tc.abs_path = cx->path_hit->abs;
		tc.file_path = cx->path_hit->from->file;
	}
	if (hit != NULL) {
		tc.block = tc.blocks = hit->id;
		tc.block_member = hit->member;
		if (hit->missing != NULL)
			tc.missing = hit->missing;
	} else if (cx->nhits > 0) {
		tc.block = cx->hits[0].id;
		tc.blocks = hit_ids(cx);
		tc.block_member = cx->hits[0].member;
		tc.missing = rule_missing(cx);
	}
	tpl_render(message_for(r, cx->lang), &tc, b);
}

/* Conditions that cost next to nothing, whatever the event's size. */
static bool
is_cheap(const struct cond *c)
{
	switch (c->kind) {
	case C_TEXT:
		/* Required patterns list what is missing: evaluated in order. */
		if (c->m.required || c->field == F_FILE_BEFORE ||
		    c->field == F_FILE_AFTER)
			return false;
		switch (c->m.kind) {
		case M_GLOB:
		case M_KEYWORDS:
		case M_CONTAINS:
		case M_EQUALS:
		case M_STARTS_WITH:
		case M_ENDS_WITH:
			return c->field != F_CONTENT && c->field !=
			    F_OLD_CONTENT && c->field != F_RESPONSE;
		case M_REGEX:
		case M_JSON:
			return false;
		}
		return false;
	case C_ENV:
		return true;
	case C_ALL:
	case C_ANY:
	case C_NOT:
	case C_FILE_CONTAINS:
	case C_KB:
	case C_SHELL:
	case C_SH_TEXT:
	case C_SH_FLAGS:
	case C_SECTIONS:
	case C_BLOCKS:
	case C_BLOCK_PART:
	case C_LISTED:
	case C_RELATED:
	case C_MEMORY:
	case C_ROUTER:
		return false;
	}
	return false;
}

/*
 * With prefilters on, the cheap conditions of a `when` that must all
 * hold are tried first, quietly: if one fails the rule cannot fire and
 * its regexes never run.  Otherwise the rule is evaluated as usual, in
 * order, so that {{match}} and the notes are what they always were.
 */
static bool
cheap_when_fails(struct ectx *cx, const struct cond *when)
{
	size_t	i;

	if (when->kind != C_ALL || when->nkids < 2)
		return false;
	for (i = 0; i < when->nkids; i++)
		if (is_cheap(when->kids[i]) &&
		    !eval_condition(cx, when->kids[i], false))
			return true;
	return false;
}

/* Decides one rule; on fire, appends it (rendered) to the outcome. */
static void
eval_rule(struct ectx *cx, const struct rule *r)
{
	struct rr_event		*ev = cx->ev;
	const struct block_hit	*bh;
	const struct route_info	*route;
	struct fired_rule	*f;
	struct buf		 text;
	const char		*hit;
	size_t			 i;

	eval_ctx_reset_rule(cx, r);
	if (!rule_applies(r, ev)) {
		if (cx->opts->explain && (r->events & (1u << ev->kind)))
			explain(cx, "rule %s (%s:%d): skipped: tool '%s' not "
			    "in its tools\n", r->id, r->file, r->line,
			    ev->tool ? ev->tool : "(none)");
		return;
	}
	explain(cx, "rule %s (%s:%d): %s\n", r->id, r->file, r->line,
	    action_names[r->action]);
	cx->depth = 1;
	if (!r->enabled) {
		explain(cx, "not fired: disabled (enabled: false)\n");
		return;
	}
	if (r->check_only && !cx->opts->check) {
		explain(cx, "not fired: it runs only under reflexion-rules "
		    "check (on: Check)\n");
		return;
	}
	if (r->action == ACT_DENY && ev->stop_hook_active &&
	    !r->ignore_stop_hook_active &&
	    (ev->kind == EV_STOP || ev->kind == EV_SUBAGENT_STOP)) {
		explain(cx, "not fired: stop_hook_active is true (the agent "
		    "is already continuing because of a Stop hook)\n");
		return;
	}
	if (cx->fast && r->when != NULL && cheap_when_fails(cx, r->when))
		return;
	if (r->when != NULL) {
		explain(cx, "when:\n");
		cx->depth = 1;
		if (!eval_condition(cx, r->when, true)) {
			cx->depth = 1;
			explain(cx, "not fired: 'when' does not hold\n");
			return;
		}
		cx->depth = 1;
	}
	if (r->unless != NULL) {
		explain(cx, "unless:\n");
		cx->depth = 1;
		if (eval_condition(cx, r->unless, false)) {
			cx->depth = 1;
			explain(cx, "not fired: cancelled by 'unless'\n");
			return;
		}
		cx->depth = 1;
	}
	explain(cx, "fired\n");
	hit = cx->path_hit != NULL ? cx->path_hit->abs : NULL;
	buf_init(&text);
	route = rule_route(cx, r);
	if (cx->opts->check && cx->nhits > 0) {
		/* check: one result per block, each with its own message. */
		for (i = 0; i < cx->nhits; i++) {
			bh = &cx->hits[i];
			if (r->message != NULL)
				render(cx, r, bh, route, &text);
			add_fired(cx->out, r, r->message ? &text : NULL, hit,
			    route);
			f = &cx->out->fired[cx->out->nfired - 1];
			f->block = bh->id;
			f->block_line = bh->line;
			f->block_index = bh->index;
			f->block_name = bh->name;
		}
		buf_release(&text);
		return;
	}
	if (r->message != NULL) {
		render(cx, r, NULL, route, &text);
		add_fired(cx->out, r, &text, hit, route);
	} else
		add_fired(cx->out, r, NULL, hit, route);
}

/*
 * The state key of a fired `once` rule: session+path counts per file,
 * the event's or the shell command's file that the rule matched.
 */
static char *
once_key(const struct fired_rule *f, const struct rr_event *ev)
{
	const struct rule	*r = f->rule;
	const char		*path = f->path != NULL ? f->path :
				    ev->abs_path;

	if (r->once == ONCE_SESSION_PATH && path != NULL)
		return xasprintf("%s\x1f%s", r->id, path);
	return xstrdup(r->id);
}

/*
 * Whether a `once` rule fires when the session's state cannot be kept
 * (the claim failed): it would fire on every call.  A deny or an ask
 * would then block every call, against the failure policy, and an allow
 * would grant every time what was meant once: they fail open (do not
 * fire) unless their file declares on_error: deny.  Context, suggest,
 * warn and record rules only inform: said again is better than never.
 */
static bool
fires_without_state(const struct rule *r)
{
	switch (r->action) {
	case ACT_DENY:
	case ACT_ASK:
		return r->fail_closed;
	case ACT_ALLOW:
		return false;
	default:
		return true;
	}
}

/*
 * Drops `once` rules that already fired in this session; claims the rest
 * in one locked read-modify-write of the session's state file.
 */
static void
apply_once(struct ectx *cx)
{
	struct eval_outcome	*o = cx->out;
	char			**keys, *warn = NULL, *err = NULL;
	size_t			*idx, n = 0, i, j;
	bool			*first, lost = false;
	int			 rc;

	for (i = 0; i < o->nfired; i++)
		if (o->fired[i].rule->once != ONCE_NEVER)
			n++;
	if (n == 0 || (cx->opts->state_dir == NULL && !cx->opts->no_state))
		return;
	keys = xcalloc(n, sizeof(*keys));
	idx = xcalloc(n, sizeof(*idx));
	first = xcalloc(n, sizeof(*first));
	for (i = 0, j = 0; i < o->nfired; i++)
		if (o->fired[i].rule->once != ONCE_NEVER) {
			idx[j] = i;
			keys[j++] = once_key(&o->fired[i], cx->ev);
		}
	if (cx->opts->state_dir == NULL) {
		/* No home (places.h): as if the state could not be kept. */
		for (j = 0; j < n; j++)
			first[j] = true;
		err = xstrdup("there is no data directory");
		rc = -1;
	} else
		rc = state_claim(cx->opts->state_dir, cx->ev->session_id,
		    (const char *const *)keys, n, first,
		    cx->opts->state_dry_run, &warn, &err);
	if (rc < 0) {
		buf_printf(&o->notes, "reflexion-rules: %s; 'once' state "
		    "cannot be kept: once rules that deny, ask or allow do "
		    "not fire (fail open) unless their file declares "
		    "on_error: deny, the others fire as if for the first "
		    "time\n", err);
		free(err);
		lost = true;
	}
	if (warn != NULL) {
		buf_printf(&o->notes, "reflexion-rules: %s\n", warn);
		free(warn);
	}
	/* Walk backwards so removals do not shift pending indexes. */
	for (j = n; j > 0; j--) {
		i = idx[j - 1];
		if (first[j - 1]) {
			if (!lost || fires_without_state(o->fired[i].rule))
				continue;
			if (cx->opts->explain)
				buf_printf(cx->opts->explain, "rule %s: not "
				    "fired: its once state cannot be kept "
				    "(fail open)\n", o->fired[i].rule->id);
		} else if (cx->opts->explain)
			buf_printf(cx->opts->explain, "rule %s: already fired "
			    "in this session (once: %s); dropped\n",
			    o->fired[i].rule->id,
			    o->fired[i].rule->once == ONCE_SESSION ?
			    "session" : "session+path");
		free(o->fired[i].text);
		memmove(&o->fired[i], &o->fired[i + 1],
		    (o->nfired - i - 1) * sizeof(*o->fired));
		o->nfired--;
	}
	for (i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	free(idx);
	free(first);
}

static bool
prefilter_disabled(void)
{
	static int	off = -1;

	if (off < 0)
		off = env_on("REFLEXION_NO_PREFILTER");
	return off;
}

/*
 * The rules to evaluate, in rule order: the index's candidates, or all.
 * Every one is decoded before any is evaluated, so that a corrupt cache
 * is found before anything happens.
 */
static int
select_rules(struct ectx *cx, const struct ruleset *rs, struct rr_event *ev,
    bool fast, struct pf_candidates *c)
{
	struct pf_lazy	lazy = { eval_paths_text, cx };
	size_t		i;

	if (fast && rs->pf != NULL) {
		if (pf_select(rs->pf, rs->pflen, !rs->pf_intact, ev, &lazy,
		    c) < 0)
			return -1;
	} else {
		c->rules = xcalloc(rs->n ? rs->n : 1, sizeof(*c->rules));
		for (c->n = 0; c->n < rs->n; c->n++)
			c->rules[c->n] = c->n;
	}
	for (i = 0; i < c->n; i++)
		if (ruleset_rule(rs, c->rules[i]) == NULL) {
			pf_candidates_release(c);
			return -1;
		}
	return 0;
}

/*
 * Tells opts->decided when the rules fired since index `from` make the
 * decision so far stronger than *strongest (ACT_DENY < ACT_ASK: lower is
 * stronger).  Costs a look at each fired rule; the copy is made only when
 * the decision changes, at most twice per event.
 */
static void
tell_decision(const struct eval_opts *opts, const struct eval_outcome *out,
    size_t from, enum rr_action *strongest)
{
	struct eval_outcome	 so_far;
	const struct rule	*r;
	size_t			 i;
	bool			 stronger = false;

	for (i = from; i < out->nfired; i++) {
		r = out->fired[i].rule;
		if (r->once == ONCE_NEVER && (r->action == ACT_DENY ||
		    r->action == ACT_ASK) && r->action < *strongest) {
			*strongest = r->action;
			stronger = true;
		}
	}
	if (!stronger)
		return;
	so_far = *out;
	so_far.fired = xcalloc(out->nfired, sizeof(*so_far.fired));
	so_far.nfired = so_far.cap = 0;
	for (i = 0; i < out->nfired; i++)
		if (out->fired[i].rule->once == ONCE_NEVER)
			so_far.fired[so_far.nfired++] = out->fired[i];
	if (so_far.nfired > 1)
		qsort(so_far.fired, so_far.nfired, sizeof(*so_far.fired),
		    fired_cmp);
	opts->decided(opts->decided_arg, &so_far);
	free(so_far.fired);
}

/*
 * An allow of the project's or the local rules counts only in a project
 * config.yaml trusts: elsewhere a repository could approve whatever its
 * agent does, past the agent's own permission prompt.  The rule is
 * dropped as if it had not fired, with a line for stderr.
 */
static void
drop_untrusted_allows(const struct ruleset *rs, const struct rr_event *ev,
    const struct eval_opts *opts, struct eval_outcome *o)
{
	const struct rule	*r;
	const char		*dir = ev->project_dir != NULL &&
				    *ev->project_dir != '\0' ?
				    ev->project_dir : "(none)";
	size_t			 i;

	if (rs->project_trusted)
		return;
	for (i = o->nfired; i > 0; i--) {
		r = o->fired[i - 1].rule;
		if (r->action != ACT_ALLOW || layer_trust(r->layer) <
		    TRUST_PROJECT)
			continue;
		buf_printf(&o->notes, "reflexion-rules: rule '%s' (%s:%d) "
		    "allows, but the project ", r->id, r->file, r->line);
		/* From the event's cwd: shown as data, on one line. */
		textesc_add(&o->notes, dir, strlen(dir), TEXTESC_LINE);
		buf_adds(&o->notes, " is not trusted: no decision "
		    "(reflexion-rules trust)\n");
		if (opts->explain != NULL)
			buf_printf(opts->explain, "rule %s: not fired: an "
			    "allow of %s rules counts only in a trusted "
			    "project (reflexion-rules trust)\n", r->id,
			    trust_name(layer_trust(r->layer)));
		free(o->fired[i - 1].text);
		memmove(&o->fired[i - 1], &o->fired[i],
		    (o->nfired - i) * sizeof(*o->fired));
		o->nfired--;
	}
}

int
eval_event(const struct ruleset *rs, struct rr_event *ev,
    const struct eval_opts *opts, struct eval_outcome *out)
{
	struct ectx		cx;
	struct pf_candidates	cands;
	enum rr_action		strongest = ACT__COUNT;
	size_t			i, seen;

	eval_ctx_init(&cx, ev, opts, out);
	cx.lang = opts->lang != NULL ? opts->lang : rs->lang != NULL ?
	    rs->lang : locale_lang();
	out->lang = cx.lang;
	cx.fast = !opts->no_prefilter && opts->explain == NULL &&
	    !prefilter_disabled();
	if (opts->only != NULL)
		eval_rule(&cx, opts->only);
	else {
		if (select_rules(&cx, rs, ev, cx.fast, &cands) < 0) {
			/* The prefilter may have made the command's paths. */
			eval_ctx_release(&cx);
			return -1;
		}
		for (i = 0; i < cands.n; i++) {
			seen = out->nfired;
			eval_rule(&cx, rs->rules[cands.rules[i]]);
			if (opts->decided != NULL && out->nfired > seen)
				tell_decision(opts, out, seen, &strongest);
		}
		pf_candidates_release(&cands);
		drop_untrusted_allows(rs, ev, opts, out);
	}
	eval_ctx_release(&cx);
	if (out->nfired > 1)
		qsort(out->fired, out->nfired, sizeof(*out->fired), fired_cmp);
	apply_once(&cx);
	return 0;
}
