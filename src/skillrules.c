/*
 * diet103 .claude/skills/skill-rules.json read as is: the rules diet103.c
 * maps the file to (see diet103.h for the mapping), built as ordinary
 * rules of a ruleset (rule.h) and added to it.  Only the building is
 * here: which rules, patterns and messages a skill makes is decided in
 * diet103.c, for this reader and for the importer alike.
 */
#include <string.h>

#include "compile.h"
#include "diet103.h"

static struct cond *
new_cond(struct ruleset *rs, const struct d103_rule *d, enum cond_kind kind,
    const char *label)
{
	struct cond	*c = arena_alloc(&rs->arena, sizeof(*c));

	c->kind = kind;
	c->label = label;
	c->line = d->line;
	c->col = 1;
	return c;
}

static void
add_kid(struct ruleset *rs, struct cond *parent, struct cond *kid)
{
	struct cond	**kids = arena_alloc(&rs->arena,
	    (parent->nkids + 1) * sizeof(*kids));

	if (parent->nkids)
		memcpy(kids, parent->kids, parent->nkids * sizeof(*kids));
	kids[parent->nkids++] = kid;
	parent->kids = kids;
}

/*
 * A text condition with one pattern per item of l, added to parent when l
 * has any.  The compiled regexes and globs are taken from the list.
 */
static void
add_text(struct ruleset *rs, const struct d103_rule *d, struct cond *parent,
    enum rr_field field, const char *label, enum matcher_kind kind,
    struct d103_list *l)
{
	struct cond	*c;
	struct pattern	*p;
	size_t		 i;

	if (l->n == 0)
		return;
	c = new_cond(rs, d, C_TEXT, label);
	c->field = field;
	c->m.kind = kind;
	c->m.ignore_case = kind != M_GLOB;
	c->m.pats = arena_alloc(&rs->arena, l->n * sizeof(*c->m.pats));
	for (i = 0; i < l->n; i++) {
		p = &c->m.pats[c->m.npats++];
		p->src = arena_strdup(&rs->arena, l->v[i]);
		p->len = strlen(p->src);
		p->line = d->line;
		p->col = 1;
		if (l->re != NULL) {
			p->re = l->re[i];
			l->re[i] = NULL;
			ruleset_own_regex(rs, p->re);
		} else if (l->glob != NULL) {
			p->glob = l->glob[i];
			l->glob[i] = NULL;
			ruleset_own_glob(rs, p->glob);
		}
	}
	add_kid(rs, parent, c);
}

/* A condition on a list of names (file_contains, env). */
static void
add_strs(struct ruleset *rs, const struct d103_rule *d, struct cond *parent,
    enum cond_kind kind, const char *label, const struct d103_list *l)
{
	struct cond	*c;
	size_t		 i;

	if (l->n == 0)
		return;
	c = new_cond(rs, d, kind, label);
	c->strs = arena_alloc(&rs->arena, l->n * sizeof(*c->strs));
	for (i = 0; i < l->n; i++)
		c->strs[c->nstrs++] = arena_strdup(&rs->arena, l->v[i]);
	add_kid(rs, parent, c);
}

static struct template *
message_of(struct ruleset *rs, const struct d103_rule *d)
{
	struct template	*t = arena_alloc(&rs->arena, sizeof(*t));
	size_t		 i;

	for (i = 0; i < d->nmessage; i++) {
		if (d->message[i].var == V__COUNT)
			tpl_add_literal(&rs->arena, t, d->message[i].text,
			    d->message[i].len);
		else
			tpl_add_var(&rs->arena, t, d->message[i].var);
	}
	return t;
}

static struct rule *
rule_of(struct ruleset *rs, const char *file, struct d103_rule *d)
{
	struct arena	*a = &rs->arena;
	struct rule	*r = ruleset_new_rule(rs);
	struct cond	*unless;

	r->id = arena_printf(a, "skill-rules/%s", d->id);
	r->file = file;
	r->line = d->line;
	r->col = 1;
	r->events = 1u << d->event;
	r->action = d->action;
	r->skill = arena_strdup(a, d->skill);
	if (d->description != NULL)
		r->description = arena_strdup(a, d->description);
	r->priority = d->priority;
	if (d->ntools > 0) {
		r->tools = (const char **)d->tools;
		r->tool_globs = arena_alloc(a, d->ntools *
		    sizeof(*r->tool_globs));
		r->ntools = d->ntools;
	}
	r->once = d->once;
	if (d->kind == D103_SUGGEST) {
		r->when = new_cond(rs, d, C_ANY, "promptTriggers");
		add_text(rs, d, r->when, F_PROMPT, "prompt", M_CONTAINS,
		    &d->keywords);
		add_text(rs, d, r->when, F_PROMPT, "prompt", M_REGEX,
		    &d->intents);
	} else {
		r->when = new_cond(rs, d, C_ALL, "fileTriggers");
		add_text(rs, d, r->when, F_PATH, "path", M_GLOB, &d->paths);
		add_text(rs, d, r->when, F_CONTENT, "content", M_REGEX,
		    &d->content);
		unless = new_cond(rs, d, C_ANY, "skipConditions");
		add_text(rs, d, unless, F_PATH, "path", M_GLOB,
		    &d->exclusions);
		add_strs(rs, d, unless, C_FILE_CONTAINS, "file_contains",
		    &d->markers);
		add_strs(rs, d, unless, C_ENV, "env", &d->env);
		r->unless = unless->nkids ? unless : NULL;
	}
	if (d->nmessage > 0)
		r->message = message_of(rs, d);
	return r;
}

size_t
ruleset_add_skill_rules(struct ruleset *rs, const char *file,
    const char *text, size_t len, int layer, struct diag_list *diags)
{
	struct d103_set	 set;
	struct diag_loc	 loc;
	size_t		 i, errors;

	file = ruleset_intern_file(rs, file);
	switch (d103_read(&set, file, text, len, DIAG_skill_rules, diags)) {
	case D103_NOT_JSON:
		memset(&loc, 0, sizeof(loc));
		loc.file = file;
		loc.line = set.json_line;
		loc.col = set.json_col;
		loc.text = text;
		loc.text_len = len;
		diag_add(diags, DIAG_ERROR, DIAG_skill_rules, &loc,
		    "skill-rules.json is not valid JSON");
		set.errors++;
		break;
	case D103_NO_SKILLS:
		break;
	case D103_OK:
		for (i = 0; i < set.n; i++) {
			d103_loc(&set, &set.rules[i], &loc);
			if (ruleset_commit_rule(rs, rule_of(rs, file,
			    &set.rules[i]), layer, diags, &loc) < 0)
				set.errors++;
		}
		break;
	}
	errors = set.errors;
	d103_release(&set);
	return errors;
}
