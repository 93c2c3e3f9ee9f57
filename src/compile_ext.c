/*
 * The condition forms that look at more than one field of an event:
 *
 *   shell:     a condition map over the simple commands of `command`
 *              (shellwords.h); holds when one simple command satisfies
 *              it.  Its keys are the parts of a command.
 *   sections:  keyword tags, each with a condition; the sections of a
 *              Markdown file tagged with a tag whose condition holds.
 *
 * compile.c dispatches to these; everything is allocated in the
 * ruleset's arena.
 */
#include <string.h>

#include "compile_priv.h"

const char *const shell_keys[] = {
	"program", "subcommand", "args", "flags", "dir", "redirects", "input",
	"any", "all", "not", NULL
};

const char *const sections_keys[] = {
	"file", "keywords", NULL
};

/* Indexed by enum sh_part. */
static const char *const sh_part_names[SH__COUNT] = {
	[SH_PROGRAM] = "program", [SH_SUBCOMMAND] = "subcommand",
	[SH_ARGS] = "args", [SH_DIR] = "dir", [SH_REDIRECTS] = "redirects",
	[SH_INPUT] = "input",
};

static struct cond *
ext_cond(struct cctx *cx, enum cond_kind kind, const struct ynode *at,
    const char *label)
{
	struct cond	*c = arena_alloc(&cx->rs->arena, sizeof(*c));

	c->kind = kind;
	c->label = label;
	c->line = at->line;
	c->col = at->col;
	return c;
}

/* ---- shell ------------------------------------------------------------- */

struct cond *
compile_shell(struct cctx *cx, const struct ynode *key, const struct ynode *v)
{
	struct cond	*c, *kid;

	if (cx->in_shell) {
		cx_error(cx, key, DIAG_invalid_value,
		    "'shell' cannot be nested in 'shell'");
		return NULL;
	}
	if (v->type != YNODE_MAP) {
		struct diag *d = cx_error(cx, v, DIAG_wrong_type,
		    "'shell' must be a mapping, not %s", ynode_type_name(v));
		diag_set_hint(d, "its keys are program, subcommand, args, "
		    "flags, dir, redirects, input, any, all, not");
		return NULL;
	}
	cx->in_shell = true;
	kid = compile_condition_map(cx, v, "shell");
	cx->in_shell = false;
	if (kid == NULL)
		return NULL;
	c = ext_cond(cx, C_SHELL, key, "shell");
	c->field = F_COMMAND;
	c->kids = arena_alloc(&cx->rs->arena, sizeof(*c->kids));
	c->kids[0] = kid;
	c->nkids = 1;
	return c;
}

/* A valid option spelling: -x, --long, or -word. */
static bool
valid_flag(const char *s)
{
	return s[0] == '-' && s[1] != '\0' && strcmp(s, "--") != 0 &&
	    strpbrk(s, " \t=") == NULL;
}

struct cond *
compile_shell_part(struct cctx *cx, const struct ynode *key,
    const struct ynode *v)
{
	const char	*name = key->str, *near;
	struct strlist	 l;
	struct cond	*c;
	struct diag	*d;
	size_t		 i, before = cx->errors;
	int		 part;

	if (strcmp(name, "flags") == 0) {
		if (strlist_from(cx, v, &l, true, "an option") < 0)
			return NULL;
		if (l.n == 0) {
			cx_error(cx, v, DIAG_empty_condition,
			    "'flags' is an empty list");
			return NULL;
		}
		c = ext_cond(cx, C_SH_FLAGS, key, "flags");
		c->strs = arena_alloc(&cx->rs->arena, l.n * sizeof(*c->strs));
		for (i = 0; i < l.n; i++) {
			if (!valid_flag(l.items[i].s)) {
				d = cx_error(cx, l.items[i].node,
				    DIAG_invalid_value, "'%s' is not an "
				    "option", l.items[i].s);
				diag_set_hint(d, "write -r (a short option, "
				    "also found in -rf), --force (a long one) "
				    "or -delete (a whole word)");
				continue;
			}
			c->strs[c->nstrs++] = l.items[i].s;
		}
		return cx->errors == before ? c : NULL;
	}
	for (part = 0; part < SH__COUNT; part++)
		if (strcmp(sh_part_names[part], name) == 0)
			break;
	if (part == SH__COUNT) {
		d = cx_error(cx, key, DIAG_unknown_field,
		    "'%s' is not a part of a shell command", name);
		near = closest_word(name, shell_keys);
		if (near != NULL)
			diag_set_hint(d, "did you mean '%s'?", near);
		else
			diag_set_hint(d, "inside 'shell' the keys are program, "
			    "subcommand, args, flags, dir, redirects, input, "
			    "any, all, not");
		return NULL;
	}
	c = ext_cond(cx, C_SH_TEXT, key, sh_part_names[part]);
	c->sh_part = (enum sh_part)part;
	/* Program and subcommand names are globs: rm, 'mkfs*'. */
	if (compile_text_matcher(cx, v, part == SH_PROGRAM ||
	    part == SH_SUBCOMMAND, &c->m, name) < 0)
		return NULL;
	return c;
}

/* ---- sections ----------------------------------------------------------- */

struct cond *
compile_sections(struct cctx *cx, const struct ynode *key,
    const struct ynode *v)
{
	const struct ynode	*file, *kw, *k, *val;
	struct sections_spec	*spec;
	struct arena		*a = &cx->rs->arena;
	struct section_tag	*t;
	struct cond		*c;
	size_t			 i, before = cx->errors;

	if (v->type != YNODE_MAP) {
		cx_error(cx, v, DIAG_wrong_type, "'sections' must be a mapping "
		    "with 'file' and 'keywords', not %s", ynode_type_name(v));
		return NULL;
	}
	compile_check_keys(cx, v, "sections", sections_keys);
	file = ynode_get(v, "file");
	kw = ynode_get(v, "keywords");
	if (file == NULL)
		cx_error(cx, v, DIAG_missing_key, "'sections' needs 'file', "
		    "the Markdown file (relative to the project)");
	else if (!is_string(file) || file->len == 0)
		cx_error(cx, file, DIAG_wrong_type,
		    "'file' must be a file name");
	if (kw == NULL) {
		cx_error(cx, v, DIAG_missing_key, "'sections' needs "
		    "'keywords', a mapping of keyword to condition");
		return NULL;
	}
	if (kw->type != YNODE_MAP || kw->n == 0) {
		cx_error(cx, kw, kw->type != YNODE_MAP ? DIAG_wrong_type :
		    DIAG_empty_condition, "'keywords' must be a non-empty "
		    "mapping of keyword to condition map (or true)");
		return NULL;
	}
	spec = arena_alloc(a, sizeof(*spec));
	spec->tags = arena_alloc(a, kw->n * sizeof(*spec->tags));
	for (i = 0; i < kw->n; i++) {
		k = kw->items[2 * i];
		val = kw->items[2 * i + 1];
		/* Any scalar: a keyword may well be "null" or "on". */
		if (k->type != YNODE_SCALAR || k->len == 0) {
			cx_error(cx, k, DIAG_wrong_type,
			    "a keyword must be a string");
			continue;
		}
		t = &spec->tags[spec->ntags++];
		t->name = arena_strdup(a, k->str);
		if (val->type == YNODE_SCALAR && ynode_bool(val) == 1)
			continue;	/* always */
		if (val->type != YNODE_MAP) {
			cx_error(cx, val, DIAG_wrong_type, "keyword '%s' needs "
			    "a condition map, or true for always", k->str);
			continue;
		}
		t->when = compile_condition_map(cx, val, k->str);
	}
	if (cx->errors != before)
		return NULL;
	spec->file = arena_strdup(a, file->str);
	c = ext_cond(cx, C_SECTIONS, key, "sections");
	c->sections = spec;
	return c;
}
