/*
 * Warnings about rules that compile but can never do what they say: a
 * tool name no agent has, and a `when` that can never hold because it
 * tests a field that none of the rule's events and tools carries (a
 * `path` on a Bash-only rule, a `prompt` on PreToolUse).  Which fields
 * an event and a tool carry is toolinfo.c's table.
 *
 * A condition on a missing field never holds, required or not
 * (reflexion-rules(5)), so under `not` it always holds: that is warned
 * about too, by another code, since the rule still fires.  `unless` is
 * left alone: a condition there that never holds cancels nothing, which
 * costs nothing.  Warnings leave the rule in: the hook ignores them.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compile_priv.h"
#include "glob.h"
#include "agent.h"
#include "pathtpl.h"
#include "toolinfo.h"
#include "xmalloc.h"

/* ---- tools ------------------------------------------------------------- */

void
reach_check_tool(struct cctx *cx, const struct rule *r,
    const struct ynode *n, const char *name)
{
	struct diag	*d;
	const char	*near = NULL, *canon;
	enum rr_agent	 agent;
	size_t		 i;

	if ((canon = agent_canonical_tool(name, &agent)) != NULL) {
		d = cx_warning(cx, n, DIAG_unknown_tool, "%s%s%stool '%s' is "
		    "what %s calls %s: every client's tools reach rules by "
		    "their canonical names, so the rule never fires for it",
		    r->id ? "rule '" : "", r->id ? r->id : "", r->id ? "': " :
		    "", name, agent_titles[agent], canon);
		diag_set_hint(d, "write '%s' (reflexion-rules(5), TOOLS)",
		    canon);
		return;
	}
	if (toolinfo_find(name) != NULL || strncmp(name, "mcp__", 5) == 0)
		return;
	d = cx_warning(cx, n, DIAG_unknown_tool, "%s%s%sunknown tool '%s': "
	    "no agent the engine knows has it, so the rule never fires for "
	    "it", r->id ? "rule '" : "", r->id ? r->id : "", r->id ? "': " :
	    "", name);
	for (i = 0; i < nknown_tools && near == NULL; i++)
		if (strcasecmp(known_tools[i].name, name) == 0)
			near = known_tools[i].name;
	if (near != NULL)
		diag_set_hint(d, "did you mean '%s'? Tool names are "
		    "case-sensitive", near);
	else if ((near = closest_word(name, known_tool_names)) != NULL)
		diag_set_hint(d, "did you mean '%s'?", near);
	else
		diag_set_hint(d, "tools have the same names for every agent: "
		    "Bash, Write, Edit, Read, Delete, ..., "
		    "mcp__SERVER__TOOL for MCP tools; a new tool is fine, "
		    "and then this is only a reminder");
}

/*
 * A rule with tools applies to the events that have a tool only: the
 * other events of its `on` never see it.  (With no such event at all,
 * check_action_events() reports an error instead.)
 */
void
reach_check_tool_events(struct cctx *cx, const struct rule *r,
    const struct ynode *on)
{
	const struct ynode	*ev;
	size_t			 i, n;
	enum rr_event_kind	 k;
	struct diag		*d;

	if (r->ntools == 0 || !(r->events & ((1u << EV_PRE_TOOL_USE) |
	    (1u << EV_POST_TOOL_USE) | (1u << EV_POST_TOOL_USE_FAILURE))))
		return;
	n = on->type == YNODE_SEQ ? on->n : 1;
	for (i = 0; i < n; i++) {
		ev = on->type == YNODE_SEQ ? on->items[i] : on;
		if (!is_string(ev))
			continue;
		k = event_kind_from_name(ev->str);
		if (k == EV_OTHER || toolinfo_has_tool(k))
			continue;
		d = cx_warning(cx, ev, DIAG_tools_event, "rule '%s' never runs "
		    "on %s: it has 'tools', and %s has no tool", r->id,
		    ev->str, ev->str);
		diag_set_hint(d, "a rule with 'tools' runs on PreToolUse, "
		    "PostToolUse and PostToolUseFailure; write another rule "
		    "for %s", ev->str);
	}
}

/* ---- fields -------------------------------------------------------------- */

/* Whether a tool entry of the rule (a name or a glob) matches name. */
static bool
tool_entry_matches(const struct rule *r, size_t i, const char *name)
{
	if (r->tool_globs[i] != NULL)
		return rr_glob_match(r->tool_globs[i], name, strlen(name));
	return strcmp(r->tools[i], name) == 0;
}

/*
 * Every field some event and tool of the rule can carry.  A rule with
 * tools applies to the events that have one only; a glob matches the
 * known tools it matches and any tool we do not know.
 */
static unsigned
rule_fields(const struct rule *r)
{
	unsigned	u = 0;
	size_t		i, t;
	int		k;

	for (k = 0; k < EV__COUNT; k++) {
		if (!(r->events & (1u << k)))
			continue;
		/* A rule with tools does not apply to events without one. */
		if (!toolinfo_has_tool((enum rr_event_kind)k) &&
		    r->ntools > 0)
			continue;
		if (!toolinfo_has_tool((enum rr_event_kind)k) ||
		    r->ntools == 0) {
			u |= toolinfo_fields((enum rr_event_kind)k, NULL);
			for (t = 0; t < nknown_tools; t++)
				u |= toolinfo_fields((enum rr_event_kind)k,
				    &known_tools[t]);
			continue;
		}
		for (i = 0; i < r->ntools; i++) {
			if (r->tool_globs[i] == NULL) {
				u |= toolinfo_fields((enum rr_event_kind)k,
				    toolinfo_for(r->tools[i]));
				continue;
			}
			/* A glob may match tools we do not know, and MCP's. */
			u |= toolinfo_fields((enum rr_event_kind)k, NULL);
			u |= toolinfo_fields((enum rr_event_kind)k,
			    &toolinfo_mcp);
			for (t = 0; t < nknown_tools; t++)
				if (tool_entry_matches(r, i,
				    known_tools[t].name))
					u |= toolinfo_fields(
					    (enum rr_event_kind)k,
					    &known_tools[t]);
		}
	}
	return u;
}

/*
 * Whether a related file is found from the event's file: named by it, or
 * relative to its directory (not absolute, not from {{project}}).
 */
static bool
related_needs_file(const struct related_spec *r)
{
	if (r->uses & (PV_BIT(PV_DIR) | PV_BIT(PV_NAME) | PV_BIT(PV_STEM)))
		return true;
	return r->tpl[0] != '/' && strncmp(r->tpl, "{{project}}", 11) != 0;
}

/* The field a leaf condition needs (an FB bit), or 0. */
static unsigned
cond_needs(const struct cond *c)
{
	switch (c->kind) {
	case C_TEXT:
		return FB(c->field);
	/*
	 * The one file the tool touches, which a shell command has not
	 * (its `path` is the files it names): file_before's bit, shown
	 * as 'path' (need_name).
	 */
	case C_FILE_CONTAINS:
		return FB(F_FILE_BEFORE);
	case C_KB:
		return c->kb_query == KBQ_FILE_ERRORS ? FB(F_FILE_BEFORE) :
		    FB(F_TOOL);
	case C_SHELL:
		return FB(F_COMMAND);
	case C_BLOCKS:
		return FB(c->blocks->in);
	case C_RELATED:
		/* Beside the event's file, unless it names none of it. */
		return related_needs_file(c->related) ? FB(F_FILE_BEFORE) : 0;
	case C_ROUTER:
		return FB(F_PROMPT);
	case C_MEMORY:
		return c->mem_query == MQ_OBSERVATIONS ? FB(F_FILE_BEFORE) : 0;
	case C_BLOCK_PART:
	case C_LISTED:
	case C_ALL:
	case C_ANY:
	case C_NOT:
	case C_ENV:
	case C_SH_TEXT:
	case C_SH_FLAGS:
	case C_SECTIONS:
		break;
	}
	return 0;
}

/* The name of a field bit, as the rule language spells it. */
static const char *
field_name(unsigned bit)
{
	int	f;

	for (f = 0; f <= F_INPUT; f++)
		if (bit == FB(f))
			return rr_field_names[f];
	return "?";
}

/* The field a leaf needs, as the rule writer knows it. */
static const char *
need_name(const struct cond *c, unsigned need)
{
	if (need == FB(F_FILE_BEFORE) && c->kind != C_TEXT)
		return "path";
	return field_name(need);
}

enum reach {
	NEVER,
	MAYBE,
	ALWAYS
};

static enum reach
flip(enum reach r)
{
	return r == NEVER ? ALWAYS : r == ALWAYS ? NEVER : MAYBE;
}

/* Whether c can hold when the event carries only the fields in have. */
static enum reach
reach(const struct cond *c, unsigned have)
{
	enum reach	r, k;
	size_t		i;

	switch (c->kind) {
	case C_ALL:
		for (r = ALWAYS, i = 0; i < c->nkids; i++) {
			if ((k = reach(c->kids[i], have)) == NEVER)
				return NEVER;
			if (k == MAYBE)
				r = MAYBE;
		}
		return r;
	case C_ANY:
		for (r = NEVER, i = 0; i < c->nkids; i++) {
			if ((k = reach(c->kids[i], have)) == ALWAYS)
				return ALWAYS;
			if (k == MAYBE)
				r = MAYBE;
		}
		return r;
	case C_NOT:
		return flip(reach(c->kids[0], have));
	case C_SECTIONS:
		/* A tag without a condition applies; the file decides. */
		for (i = 0; i < c->sections->ntags; i++)
			if (c->sections->tags[i].when == NULL ||
			    reach(c->sections->tags[i].when, have) != NEVER)
				return MAYBE;
		return NEVER;
	default:
		return cond_needs(c) & ~have ? NEVER : MAYBE;
	}
}

/* What a walk over one rule's `when` reports, and where. */
struct blame {
	struct cctx		*cx;
	const struct rule	*r;
	unsigned		 have;
	const char		*where;		/* its events and tools */
	enum diag_code		 code;
};

static void hint_where(struct blame *, struct diag *, unsigned,
    const char *);

static void
warn_leaf(struct blame *b, const struct cond *c)
{
	unsigned	 need = cond_needs(c);
	const char	*field = need_name(c, need);
	struct diag	*d;
	char		*what;

	/* "'path'", or "'kb' needs 'path', which" */
	what = strcmp(c->label, field) == 0 ? xasprintf("'%s'", field) :
	    xasprintf("'%s' needs '%s', which", c->label, field);
	if (b->code == DIAG_absent_field)
		d = cx_warning_key(b->cx, c->line, c->col, c->label, b->code,
		    "rule '%s' never fires: %s is never there on %s",
		    b->r->id, what, b->where);
	else
		d = cx_warning_key(b->cx, c->line, c->col, c->label, b->code,
		    "'not' always holds in rule '%s': %s is never there on %s",
		    b->r->id, what, b->where);
	free(what);
	if (b->code == DIAG_vacuous_not)
		diag_set_hint(d, "a condition on a field that is not there "
		    "never holds, so 'not' of it always does: drop the 'not', "
		    "or the rule's events and tools do not fit it");
	else
		hint_where(b, d, need, field);
}

/*
 * Where a field is there: its events, and for a field from a tool's
 * input the tools of tools.def that send it.
 */
static void
hint_where(struct blame *b, struct diag *d, unsigned need, const char *name)
{
	struct buf	 h;
	size_t		 t, n = 0;
	int		 k;
	bool		 by_tool = false;

	buf_init(&h);
	buf_printf(&h, "'%s' is there on ", name);
	for (k = 0; k < EV__COUNT; k++)
		if (toolinfo_fields((enum rr_event_kind)k, NULL) & need ||
		    (toolinfo_has_tool((enum rr_event_kind)k) &&
		    (need & (FB(F_CONTENT) | FB(F_OLD_CONTENT) |
		    FB(F_COMMAND) | FB(F_FILE_AFTER) | FB(F_READ_PATH)))))
			buf_printf(&h, "%s%s", n++ ? ", " : "",
			    event_kind_names[k]);
	if (need & (FB(F_PATH) | FB(F_FILE_BEFORE) | FB(F_CONTENT) |
	    FB(F_OLD_CONTENT) | FB(F_COMMAND) | FB(F_FILE_AFTER) |
	    FB(F_READ_PATH))) {
		by_tool = true;
		buf_adds(&h, " for ");
		for (n = 0, t = 0; t < nknown_tools; t++)
			if (need == FB(F_FILE_BEFORE) ?
			    (known_tools[t].fields & (FB(F_PATH) |
			    FB(F_COMMAND))) == FB(F_PATH) :
			    (known_tools[t].fields & need) != 0)
				buf_printf(&h, "%s%s", n++ ? ", " : "",
				    known_tools[t].name);
		if (need & (FB(F_PATH) | FB(F_FILE_BEFORE)))
			buf_adds(&h, " and the tools lint does not know");
		else if (need == FB(F_FILE_AFTER))
			buf_adds(&h, " (on PostToolUse, any tool with a path)");
	}
	if (b->r->ntools > 0 && !by_tool && (b->r->events &
	    ~((1u << EV_PRE_TOOL_USE) | (1u << EV_POST_TOOL_USE) |
	    (1u << EV_POST_TOOL_USE_FAILURE))))
		buf_adds(&h, "; a rule with 'tools' runs on PreToolUse, "
		    "PostToolUse and PostToolUseFailure only");
	diag_set_hint(d, "%s", h.data);
	buf_release(&h);
}

/* Reports the leaves that make c `want` (NEVER or ALWAYS). */
static void
blame(struct blame *b, const struct cond *c, enum reach want)
{
	size_t	i;

	switch (c->kind) {
	case C_ALL:
	case C_ANY:
		for (i = 0; i < c->nkids; i++) {
			enum reach k = reach(c->kids[i], b->have);
			/* all: one NEVER kid suffices; any: every kid. */
			if (k == want)
				blame(b, c->kids[i], want);
		}
		return;
	case C_NOT:
		blame(b, c->kids[0], flip(want));
		return;
	case C_SECTIONS:
		for (i = 0; i < c->sections->ntags; i++)
			if (c->sections->tags[i].when != NULL)
				blame(b, c->sections->tags[i].when, want);
		return;
	default:
		if (want == NEVER)
			warn_leaf(b, c);
		return;
	}
}

/* Finds the `not`s that always hold because their condition never can. */
static void
find_vacuous(struct blame *b, const struct cond *c)
{
	size_t	i;

	switch (c->kind) {
	case C_ALL:
	case C_ANY:
		for (i = 0; i < c->nkids; i++)
			find_vacuous(b, c->kids[i]);
		return;
	case C_NOT:
		if (reach(c->kids[0], b->have) == NEVER)
			blame(b, c->kids[0], NEVER);
		else
			find_vacuous(b, c->kids[0]);
		return;
	case C_SECTIONS:
		for (i = 0; i < c->sections->ntags; i++)
			if (c->sections->tags[i].when != NULL)
				find_vacuous(b, c->sections->tags[i].when);
		return;
	default:
		return;
	}
}

void
reach_check_rule(struct cctx *cx, const struct rule *r)
{
	struct blame	 b;
	struct buf	 where;
	size_t		 i;
	int		 k;

	if (r->when == NULL || r->events == 0 || r->id == NULL)
		return;
	memset(&b, 0, sizeof(b));
	b.cx = cx;
	b.r = r;
	b.have = rule_fields(r);
	buf_init(&where);
	for (k = 0; k < EV__COUNT; k++)
		if (r->events & (1u << k))
			buf_printf(&where, "%s%s", where.len ? ", " : "",
			    r->check_only ? "Check" : event_kind_names[k]);
	for (i = 0; i < r->ntools; i++)
		buf_printf(&where, "%s%s", i ? ", " : " for ", r->tools[i]);
	b.where = where.data;
	if (reach(r->when, b.have) == NEVER) {
		b.code = DIAG_absent_field;
		blame(&b, r->when, NEVER);
	} else {
		b.code = DIAG_vacuous_not;
		find_vacuous(&b, r->when);
	}
	buf_release(&where);
}
