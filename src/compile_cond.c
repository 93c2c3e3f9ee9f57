/*
 * Conditions: a rule's when: and unless:, and the condition maps inside
 * them, compiled into trees of struct cond.  The recursive kinds live
 * here because they hold condition maps: any, all, not, and the forms
 * that look at more than one field of an event:
 *
 *   shell:     a condition map over the simple commands of `command`
 *              (shellwords.h); holds when one simple command satisfies
 *              it.  Its keys are the parts of a command, and path and
 *              read_path, that command's files.
 *   sections:  keyword tags, each with a condition; the sections of a
 *              Markdown file tagged with a tag whose condition holds.
 *   blocks:    the blocks of a text (a test case of a test sheet, a
 *              member of a JSON object), each against a condition map:
 *              some or every block that its when/unless let count.
 *
 * The leaf kinds are compiled below this file: text matchers in
 * compile_match.c (and compile_json.c), kb in compile_kb.c.  Everything
 * is allocated in the ruleset's arena.
 */
#include <string.h>

#include "compile_priv.h"

static const char *const cond_keys[] = {
	"path", "content", "old_content", "command", "prompt", "response",
	"error", "message", "tool", "event", "cwd", "file_contains", "env",
	"any", "all", "not", "kb", "file_before", "file_after", "shell",
	"sections", "read_path", "blocks", "file_exists", "json_file", "memory",
	"router", "reason", NULL
};

static const char *const block_keys[] = {
	"block", "block_id", "listed", NULL
};

static const char *const shell_keys[] = {
	"program", "subcommand", "args", "flags", "dir", "redirects", "input",
	"path", "read_path", "any", "all", "not", NULL
};

static const char *const sections_keys[] = {
	"file", "keywords", NULL
};

/* Indexed by enum sh_part. */
static const char *const sh_part_names[SH__COUNT] = {
	[SH_PROGRAM] = "program", [SH_SUBCOMMAND] = "subcommand",
	[SH_ARGS] = "args", [SH_DIR] = "dir", [SH_REDIRECTS] = "redirects",
	[SH_INPUT] = "input",
};

/* ---- conditions --------------------------------------------------------- */

static struct cond *
new_cond(struct cctx *cx, enum cond_kind kind, const struct ynode *n,
    const char *label)
{
	struct cond	*c = arena_alloc(&cx->rs->arena, sizeof(*c));

	c->kind = kind;
	/* A key's text lives in the YAML document, which goes away. */
	c->label = arena_strdup(&cx->rs->arena, label);
	c->line = n->line;
	c->col = n->col;
	return c;
}

static void
cond_add_kid(struct cctx *cx, struct cond *c, struct cond *kid)
{
	struct cond	**kids;

	kids = arena_alloc(&cx->rs->arena, (c->nkids + 1) * sizeof(*kids));
	if (c->nkids)
		memcpy(kids, c->kids, c->nkids * sizeof(*kids));
	kids[c->nkids++] = kid;
	c->kids = kids;
}

static struct cond *compile_cond_map(struct cctx *, const struct ynode *,
	    enum cond_kind, const char *);

/* any: / all: take a list of condition maps or one map. */
static struct cond *
compile_group(struct cctx *cx, const struct ynode *key, const struct ynode *v,
    enum cond_kind kind)
{
	struct cond	*c, *kid;
	size_t		 i;

	if (v->type == YNODE_MAP)
		return compile_cond_map(cx, v, kind, key->str);
	if (v->type != YNODE_SEQ) {
		cx_error(cx, v, DIAG_wrong_type,
		    "'%s' must be a list of condition maps, not %s", key->str,
		    ynode_type_name(v));
		return NULL;
	}
	if (v->n == 0) {
		cx_error(cx, v, DIAG_empty_condition, "'%s' is an empty list",
		    key->str);
		return NULL;
	}
	c = new_cond(cx, kind, key, key->str);
	for (i = 0; i < v->n; i++) {
		if (v->items[i]->type != YNODE_MAP) {
			cx_error(cx, v->items[i], DIAG_wrong_type,
			    "each item of '%s' must be a condition map, not %s",
			    key->str, ynode_type_name(v->items[i]));
			continue;
		}
		kid = compile_cond_map(cx, v->items[i], C_ALL, key->str);
		if (kid != NULL)
			cond_add_kid(cx, c, kid);
	}
	return c;
}

/* ---- shell ------------------------------------------------------------- */

static struct cond *
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
		    "flags, dir, redirects, input, path, read_path, any, all, "
		    "not");
		return NULL;
	}
	cx->in_shell = true;
	kid = compile_cond_map(cx, v, C_ALL, "shell");
	cx->in_shell = false;
	if (kid == NULL)
		return NULL;
	c = new_cond(cx, C_SHELL, key, "shell");
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

static struct cond *
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
		c = new_cond(cx, C_SH_FLAGS, key, "flags");
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
	/*
	 * The files this simple command writes or reads: a path condition,
	 * which the evaluation gives only that command's files inside a
	 * shell map (eval_paths.c).
	 */
	if (strcmp(name, "path") == 0 || strcmp(name, "read_path") == 0) {
		c = new_cond(cx, C_TEXT, key, name);
		c->field = name[0] == 'p' ? F_PATH : F_READ_PATH;
		if (compile_text_matcher(cx, v, TU_PATH, &c->m, name) < 0)
			return NULL;
		return c;
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
			    "path, read_path, any, all, not");
		return NULL;
	}
	c = new_cond(cx, C_SH_TEXT, key, sh_part_names[part]);
	c->sh_part = (enum sh_part)part;
	/* Program and subcommand names are globs: rm, 'mkfs*'. */
	if (compile_text_matcher(cx, v, part == SH_PROGRAM ||
	    part == SH_SUBCOMMAND ? TU_NAMES : TU_TEXT, &c->m, name) < 0)
		return NULL;
	return c;
}

/* ---- sections ----------------------------------------------------------- */

static struct cond *
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
		t->when = compile_cond_map(cx, val, C_ALL, k->str);
	}
	if (cx->errors != before)
		return NULL;
	spec->file = arena_strdup(a, file->str);
	c = new_cond(cx, C_SECTIONS, key, "sections");
	c->sections = spec;
	return c;
}

/* ---- blocks --------------------------------------------------------------- */

/* A map of a blocks condition: some, every, when or unless. */
static struct cond *
block_map(struct cctx *cx, const struct ynode *v, const char *what)
{
	if (v->type != YNODE_MAP) {
		cx_error(cx, v, DIAG_wrong_type, "'%s' of 'blocks' must be a "
		    "condition map, not %s", what, ynode_type_name(v));
		return NULL;
	}
	return compile_cond_map(cx, v, C_ALL, what);
}

static struct cond *
compile_blocks(struct cctx *cx, const struct ynode *key, const struct ynode *v)
{
	const struct ynode	*some, *every, *when, *unless;
	struct blocks_spec	*b;
	struct cond		*c;
	size_t			 before = cx->errors;

	if (cx->in_blocks) {
		cx_error(cx, key, DIAG_invalid_value,
		    "'blocks' cannot be nested in 'blocks'");
		return NULL;
	}
	if (v->type != YNODE_MAP) {
		struct diag *d = cx_error(cx, v, DIAG_wrong_type, "'blocks' "
		    "must be a mapping, not %s", ynode_type_name(v));
		diag_set_hint(d, "its keys are in, start, separator, end, id, "
		    "json, name, some, every, when, unless");
		return NULL;
	}
	b = arena_alloc(&cx->rs->arena, sizeof(*b));
	compile_block_cut(cx, v, b);
	some = ynode_get(v, "some");
	every = ynode_get(v, "every");
	when = ynode_get(v, "when");
	unless = ynode_get(v, "unless");
	if ((some == NULL) == (every == NULL)) {
		cx_error(cx, some != NULL ? every : v, some != NULL ?
		    DIAG_invalid_value : DIAG_missing_key, "'blocks' takes "
		    "one of 'some' (a block must hold) and 'every' (each "
		    "block must)");
		return NULL;
	}
	cx->in_blocks = true;
	b->every = every != NULL;
	b->test = block_map(cx, some != NULL ? some : every,
	    some != NULL ? "some" : "every");
	if (when != NULL)
		b->when = block_map(cx, when, "when");
	if (unless != NULL) {
		b->unless = block_map(cx, unless, "unless");
		/* unless: any of its keys, as a rule's. */
		if (b->unless != NULL)
			b->unless->kind = C_ANY;
	}
	cx->in_blocks = false;
	if (cx->errors != before)
		return NULL;
	c = new_cond(cx, C_BLOCKS, key, "blocks");
	c->blocks = b;
	return c;
}

/* ---- condition maps ----------------------------------------------------- */

static struct cond *
compile_one(struct cctx *cx, const struct ynode *key, const struct ynode *v)
{
	const char	*name = key->str;
	struct cond	*c, *kid;
	struct strlist	 l;
	size_t		 i;
	int		 f;

	if (strcmp(name, "any") == 0)
		return compile_group(cx, key, v, C_ANY);
	if (strcmp(name, "all") == 0)
		return compile_group(cx, key, v, C_ALL);
	if (strcmp(name, "not") == 0) {
		if (v->type != YNODE_MAP) {
			cx_error(cx, v, DIAG_wrong_type,
			    "'not' must be a condition map, not %s",
			    ynode_type_name(v));
			return NULL;
		}
		kid = compile_cond_map(cx, v, C_ALL, "not");
		if (kid == NULL)
			return NULL;
		c = new_cond(cx, C_NOT, key, "not");
		cond_add_kid(cx, c, kid);
		return c;
	}
	if (strcmp(name, "shell") == 0)
		return compile_shell(cx, key, v);
	if (cx->in_shell)
		return compile_shell_part(cx, key, v);
	if (strcmp(name, "file_contains") == 0 && v->type == YNODE_MAP)
		return compile_related(cx, key, v);
	if (strcmp(name, "file_contains") == 0 || strcmp(name, "env") == 0) {
		if (strlist_from(cx, v, &l, true, name[0] == 'e' ?
		    "an environment variable name" : "a marker") < 0)
			return NULL;
		c = new_cond(cx, name[0] == 'e' ? C_ENV : C_FILE_CONTAINS, key,
		    name[0] == 'e' ? "env" : "file_contains");
		c->strs = arena_alloc(&cx->rs->arena, (l.n ? l.n : 1) *
		    sizeof(*c->strs));
		for (i = 0; i < l.n; i++)
			c->strs[c->nstrs++] = l.items[i].s;
		if (c->nstrs == 0) {
			cx_error(cx, v, DIAG_empty_condition,
			    "'%s' is an empty list", name);
			return NULL;
		}
		return c;
	}
	if (strcmp(name, "sections") == 0)
		return compile_sections(cx, key, v);
	if (strcmp(name, "blocks") == 0)
		return compile_blocks(cx, key, v);
	if (strcmp(name, "block") == 0 || strcmp(name, "block_id") == 0)
		return compile_block_part(cx, key, v);
	if (strcmp(name, "listed") == 0)
		return compile_listed(cx, key, v);
	if (strcmp(name, "file_exists") == 0 || strcmp(name, "json_file") == 0)
		return compile_related(cx, key, v);
	if (strcmp(name, "kb") == 0)
		return compile_kb_cond(cx, key, v);
	if (strcmp(name, "memory") == 0)
		return compile_memory_cond(cx, key, v);
	if (strcmp(name, "router") == 0)
		return compile_router_cond(cx, key, v);
	c = new_cond(cx, C_TEXT, key, name);
	if (strncmp(name, "input.", 6) == 0 && name[6] != '\0') {
		c->field = F_INPUT;
		c->input_key = c->label + 6;
	} else {
		for (f = 0; f < F__COUNT; f++)
			if (strcmp(rr_field_names[f], name) == 0)
				break;
		if (f == F__COUNT) {
			struct diag *d = cx_error(cx, key, DIAG_unknown_field,
			    "unknown condition field '%s'", name);
			const char *near = closest_word(name, cond_keys);
			if (near == NULL && cx->in_blocks)
				near = closest_word(name, block_keys);
			if (near != NULL)
				diag_set_hint(d, "did you mean '%s'?", near);
			else
				diag_set_hint(d, "fields are path, read_path, "
				    "content, old_content, command, prompt, "
				    "response, error, message, tool, event, cwd, "
				    "file_before, file_after, input.<key>, "
				    "file_contains, env, kb, shell, sections, "
				    "blocks, file_exists, json_file, any, all, "
				    "not");
			return NULL;
		}
		c->field = (enum rr_field)f;
	}
	if (compile_text_matcher(cx, v, c->field == F_PATH ||
	    c->field == F_READ_PATH ? TU_PATH : TU_TEXT, &c->m, name) < 0)
		return NULL;
	return c;
}

static struct cond *
compile_cond_map(struct cctx *cx, const struct ynode *map, enum cond_kind kind,
    const char *label)
{
	struct cond	*c, *kid;
	size_t		 i, before = cx->errors;

	if (map->n == 0) {
		cx_error(cx, map, DIAG_empty_condition,
		    "'%s' has no conditions", label);
		return NULL;
	}
	c = new_cond(cx, kind, map, label);
	for (i = 0; i < map->n; i++) {
		const struct ynode *k = map->items[2 * i];
		const struct ynode *v = map->items[2 * i + 1];
		if (!is_string(k)) {
			cx_error(cx, k, DIAG_wrong_type,
			    "a condition key must be a string");
			continue;
		}
		kid = compile_one(cx, k, v);
		if (kid != NULL)
			cond_add_kid(cx, c, kid);
	}
	return cx->errors == before ? c : NULL;
}

/* when: a map (AND of keys) or a list of maps (OR). unless: OR of keys. */
struct cond *
compile_when(struct cctx *cx, const struct ynode *key, const struct ynode *v,
    bool is_unless)
{
	struct cond	*c;

	if (v->type == YNODE_MAP)
		c = compile_cond_map(cx, v, is_unless ? C_ANY : C_ALL,
		    key->str);
	else if (v->type == YNODE_SEQ)
		c = compile_group(cx, key, v, C_ANY);
	else {
		cx_error(cx, v, DIAG_wrong_type,
		    "'%s' must be a condition map or a list of them, not %s",
		    key->str, ynode_type_name(v));
		return NULL;
	}
	cond_mark(c);
	return c;
}
