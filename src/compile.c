/*
 * YAML rule files to a struct ruleset.
 *
 * The compiler walks the tree from yamlload.c and reports every problem it
 * finds, with the node's position, instead of stopping at the first: lint
 * is only useful if one run shows everything.  A rule with any error is not
 * added, so a broken rule never half-works.
 */
#include <stdlib.h>
#include <string.h>

#include "compile_priv.h"
#include "glob.h"
#include "match_re.h"
#include "xmalloc.h"

const char *const compile_top_keys[] = {
	"version", "pack", "description", "vars", "rules", "on_error", NULL
};

const char *const compile_rule_keys[] = {
	"id", "description", "on", "tools", "priority", "when", "unless",
	"once", "action", "message", "skill", "tags", "enabled", "tests",
	"ignore_stop_hook_active", "record", NULL
};

const char *const compile_test_keys[] = {
	"name", "event", "expect", "kb", "tool_errors", "known_gap", "files",
	"message_contains", NULL
};

/* Text fields a condition can name, indexed by enum rr_field. */
static const char *const field_names[F__COUNT] = {
	[F_PATH] = "path", [F_CONTENT] = "content",
	[F_OLD_CONTENT] = "old_content", [F_COMMAND] = "command",
	[F_PROMPT] = "prompt", [F_RESPONSE] = "response",
	[F_ERROR] = "error", [F_MESSAGE] = "message", [F_TOOL] = "tool",
	[F_EVENT] = "event", [F_CWD] = "cwd",
	[F_FILE_BEFORE] = "file_before", [F_FILE_AFTER] = "file_after",
};

static const char *const cond_keys[] = {
	"path", "content", "old_content", "command", "prompt", "response",
	"error", "message", "tool", "event", "cwd", "file_contains", "env",
	"any", "all", "not", "kb", "file_before", "file_after", "shell",
	"sections", NULL
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
	if (strcmp(name, "kb") == 0)
		return compile_kb_cond(cx, key, v);
	c = new_cond(cx, C_TEXT, key, name);
	if (strncmp(name, "input.", 6) == 0 && name[6] != '\0') {
		c->field = F_INPUT;
		c->input_key = c->label + 6;
	} else {
		for (f = 0; f < F__COUNT; f++)
			if (strcmp(field_names[f], name) == 0)
				break;
		if (f == F__COUNT) {
			struct diag *d = cx_error(cx, key, DIAG_unknown_field,
			    "unknown condition field '%s'", name);
			const char *near = closest_word(name, cond_keys);
			if (near != NULL)
				diag_set_hint(d, "did you mean '%s'?", near);
			else
				diag_set_hint(d, "fields are path, content, "
				    "old_content, command, prompt, response, "
				    "error, message, tool, event, cwd, "
				    "file_before, file_after, input.<key>, "
				    "file_contains, env, kb, shell, sections, "
				    "any, all, not");
			return NULL;
		}
		c->field = (enum rr_field)f;
	}
	if (compile_text_matcher(cx, v, c->field == F_PATH, &c->m, name) < 0)
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

struct cond *
compile_condition_map(struct cctx *cx, const struct ynode *map,
    const char *label)
{
	return compile_cond_map(cx, map, C_ALL, label);
}

/* when: a map (AND of keys) or a list of maps (OR). unless: OR of keys. */
struct cond *
compile_when(struct cctx *cx, const struct ynode *key, const struct ynode *v,
    bool is_unless)
{
	if (v->type == YNODE_MAP)
		return compile_cond_map(cx, v, is_unless ? C_ANY : C_ALL,
		    key->str);
	if (v->type == YNODE_SEQ)
		return compile_group(cx, key, v, C_ANY);
	cx_error(cx, v, DIAG_wrong_type,
	    "'%s' must be a condition map or a list of them, not %s", key->str,
	    ynode_type_name(v));
	return NULL;
}
