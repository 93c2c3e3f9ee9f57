/*
 * The parts of document checks that hold no condition map (reflexion-
 * rules(5), Blocks and Related files): how a `blocks` condition cuts its
 * text, the conditions that only a blocks map knows (block, block_id,
 * listed), and the files beside the one the tool touches (file_exists,
 * file_contains with a file, json_file).  compile_cond.c compiles the
 * maps of a blocks condition and calls this file for the rest; this file
 * calls only the matchers (compile_match.c, compile_json.c) and the
 * context.
 */
#include <stdlib.h>
#include <string.h>

#include "compile_priv.h"
#include "pathtpl.h"
#include "xmalloc.h"

static const char *const block_cut_keys[] = {
	"in", "start", "separator", "end", "id", "json", "name", "some",
	"every", "when", "unless", NULL
};

static struct cond *
doc_cond(struct cctx *cx, enum cond_kind kind, const struct ynode *at,
    const char *label)
{
	struct cond	*c = arena_alloc(&cx->rs->arena, sizeof(*c));

	c->kind = kind;
	c->label = arena_strdup(&cx->rs->arena, label);
	c->line = at->line;
	c->col = at->col;
	return c;
}

/* One regular expression (a string) of a blocks condition. */
static struct pattern *
one_regex(struct cctx *cx, const struct ynode *v, const char *what)
{
	struct matcher	 m;

	if (!is_string(v) || v->len == 0) {
		cx_error(cx, v, DIAG_wrong_type, "'%s' must be a regular "
		    "expression (a string)", what);
		return NULL;
	}
	if (compile_text_matcher(cx, v, false, &m, what) < 0)
		return NULL;
	if (m.npats != 1) {
		cx_error(cx, v, DIAG_wrong_type, "'%s' must be one regular "
		    "expression, not a list", what);
		return NULL;
	}
	return &m.pats[0];
}

static bool
valid_name(const char *s)
{
	size_t	i;

	if (s[0] == '\0' || !((s[0] >= 'a' && s[0] <= 'z') ||
	    (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
		return false;
	for (i = 1; s[i]; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' &&
		    s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		    s[i] == '_'))
			return false;
	return true;
}

/* A dotted key path, or "." for a JSON document itself. */
static bool
valid_key_path(const char *p, bool dot)
{
	size_t	n = strlen(p);

	if (dot && strcmp(p, ".") == 0)
		return true;
	return n > 0 && p[0] != '.' && p[n - 1] != '.' &&
	    strstr(p, "..") == NULL;
}

/* `in`: the field a blocks condition cuts (file_after by default). */
static void
cut_field(struct cctx *cx, const struct ynode *in, struct blocks_spec *b)
{
	int	f;

	b->in = F_FILE_AFTER;
	if (in == NULL)
		return;
	if (!is_string(in)) {
		cx_error(cx, in, DIAG_wrong_type, "'in' must be the name of a "
		    "text field, such as file_after or content");
		return;
	}
	if (strncmp(in->str, "input.", 6) == 0 && in->str[6] != '\0') {
		b->in = F_INPUT;
		b->in_key = arena_strdup(&cx->rs->arena, in->str + 6);
		return;
	}
	for (f = 0; f < F__COUNT; f++)
		if (strcmp(rr_field_names[f], in->str) == 0)
			break;
	if (f == F__COUNT || f == F_PATH || f == F_READ_PATH) {
		struct diag *d = cx_error(cx, in, DIAG_invalid_value,
		    "'%s' is not a text field that blocks can cut", in->str);
		diag_set_hint(d, "write file_after (the default), content, "
		    "file_before, message, response, prompt or input.<key>");
		return;
	}
	b->in = (enum rr_field)f;
}

int
compile_block_cut(struct cctx *cx, const struct ynode *v,
    struct blocks_spec *b)
{
	const struct ynode	*start, *sep, *end, *id, *json, *name;
	size_t			 before = cx->errors, nhow;

	compile_check_keys(cx, v, "blocks", block_cut_keys);
	start = ynode_get(v, "start");
	sep = ynode_get(v, "separator");
	json = ynode_get(v, "json");
	end = ynode_get(v, "end");
	id = ynode_get(v, "id");
	name = ynode_get(v, "name");
	cut_field(cx, ynode_get(v, "in"), b);
	nhow = (start != NULL) + (sep != NULL) + (json != NULL);
	if (nhow == 0) {
		struct diag *d = cx_error(cx, v, DIAG_missing_key, "'blocks' "
		    "needs how to cut the text: 'start', 'separator' or "
		    "'json'");
		diag_set_hint(d, "start: '^### (TC-[0-9.]+)' begins a block at "
		    "each heading and names it by the group");
		return -1;
	}
	if (nhow > 1) {
		cx_error(cx, sep != NULL && start != NULL ? sep : json,
		    DIAG_invalid_value, "'blocks' takes only one of 'start', "
		    "'separator' and 'json'");
		return -1;
	}
	if (json != NULL) {
		if (!is_string(json) || !valid_key_path(json->str, true))
			cx_error(cx, json, DIAG_invalid_value, "'json' must be "
			    "the key path of an object or array, or '.' for "
			    "the document");
		else
			b->json = arena_strdup(&cx->rs->arena, json->str);
		if (end != NULL)
			cx_error(cx, end, DIAG_invalid_value, "'end' applies "
			    "to text blocks, not to the members of 'json'");
		if (id != NULL && (!is_string(id) ||
		    !valid_key_path(id->str, false)))
			cx_error(cx, id, DIAG_invalid_value, "with 'json', "
			    "'id' is the key path of each item's id");
		else if (id != NULL)
			b->json_id = arena_strdup(&cx->rs->arena, id->str);
	} else {
		if (start != NULL)
			b->start = one_regex(cx, start, "start");
		if (sep != NULL)
			b->separator = one_regex(cx, sep, "separator");
		if (end != NULL)
			b->end = one_regex(cx, end, "end");
		if (id != NULL)
			b->id = one_regex(cx, id, "id");
	}
	if (name != NULL) {
		if (!is_string(name) || !valid_name(name->str))
			cx_error(cx, name, DIAG_invalid_value, "'name' must be "
			    "a plain name such as tc_id: the key of a block's "
			    "id in check's report");
		else
			b->name = arena_strdup(&cx->rs->arena, name->str);
	}
	if (b->name == NULL)
		b->name = "id";
	return cx->errors == before ? 0 : -1;
}

/* block, block_id: the block's text or id against a matcher. */
struct cond *
compile_block_part(struct cctx *cx, const struct ynode *key,
    const struct ynode *v)
{
	struct cond	*c;

	if (!cx->in_blocks) {
		struct diag *d = cx_error(cx, key, DIAG_invalid_value, "'%s' "
		    "is only known inside a 'blocks' condition", key->str);
		diag_set_hint(d, "blocks: {start: '^## (.+)', some: {block: "
		    "...}} tests each block");
		return NULL;
	}
	c = doc_cond(cx, C_BLOCK_PART, key, key->str);
	c->block_part = strcmp(key->str, "block") == 0 ? BP_TEXT : BP_ID;
	if (compile_text_matcher(cx, v, false, &c->m, key->str) < 0)
		return NULL;
	return c;
}

/* listed: regexes whose first group names ids anywhere in the text. */
struct cond *
compile_listed(struct cctx *cx, const struct ynode *key,
    const struct ynode *v)
{
	struct cond	*c;

	if (!cx->in_blocks) {
		cx_error(cx, key, DIAG_invalid_value, "'listed' is only known "
		    "inside a 'blocks' condition");
		return NULL;
	}
	if (v->type == YNODE_MAP) {
		cx_error(cx, v, DIAG_wrong_type, "'listed' takes a regular "
		    "expression or a list of them, whose first group "
		    "captures an id");
		return NULL;
	}
	c = doc_cond(cx, C_LISTED, key, "listed");
	if (compile_text_matcher(cx, v, false, &c->m, "listed") < 0)
		return NULL;
	return c;
}

/* ---- related files -------------------------------------------------------- */

/*
 * The path template of a related file: its variables known, wildcards
 * only in its last name.
 */
static int
related_path(struct cctx *cx, const struct ynode *v, struct related_spec *r)
{
	const char	*msg, *slash;
	size_t		 off, dirlen, i;

	if (!is_string(v) || v->len == 0) {
		cx_error(cx, v, DIAG_wrong_type, "the related file must be a "
		    "path, such as '{{dir}}/partial_results/{{block}}.json'");
		return -1;
	}
	if (ptpl_check(v->str, v->len, PV_ALL_VARS, &r->uses, &msg,
	    &off) < 0) {
		cx_error_at(cx, v, off, DIAG_invalid_value, "%s", msg);
		return -1;
	}
	slash = strrchr(v->str, '/');
	dirlen = slash != NULL ? (size_t)(slash - v->str) : 0;
	for (i = 0; i < dirlen; i++) {
		if (v->str[i] == '\\') {
			i++;
			continue;
		}
		if (v->str[i] == '*' || v->str[i] == '?') {
			struct diag *d = cx_error_at(cx, v, i,
			    DIAG_invalid_value, "a wildcard may only be in the "
			    "file's own name, after the last '/'");
			diag_set_hint(d, "'{{dir}}/../*_mapping.json' looks "
			    "in one directory; name the directories");
			return -1;
		}
	}
	r->tpl = arena_strdup(&cx->rs->arena, v->str);
	return 0;
}

/*
 * A copy of mapping v without the keys of drop, for a matcher's
 * compiler; its items borrow v's nodes (*items, owned, is freed by the
 * caller).
 */
static void
map_without(const struct ynode *v, const char *const *drop,
    struct ynode *out, struct ynode ***items)
{
	size_t	i, k, n = 0;
	bool	skip;

	*out = *v;
	*items = xcalloc(v->n ? 2 * v->n : 1, sizeof(**items));
	for (i = 0; i < v->n; i++) {
		for (skip = false, k = 0; drop[k] != NULL; k++)
			if (is_string(v->items[2 * i]) &&
			    strcmp(v->items[2 * i]->str, drop[k]) == 0)
				skip = true;
		if (skip)
			continue;
		(*items)[2 * n] = v->items[2 * i];
		(*items)[2 * n + 1] = v->items[2 * i + 1];
		n++;
	}
	out->items = *items;
	out->n = n;
}

struct cond *
compile_related(struct cctx *cx, const struct ynode *key,
    const struct ynode *v)
{
	static const char *const drop_file[] = { "file", NULL };
	static const char *const drop_json[] = { "file", "required", NULL };
	const struct ynode	*file, *req, *find;
	struct related_spec	*r;
	struct ynode		 rest, **items;
	struct cond		*c;
	int			 b, rc;

	c = doc_cond(cx, C_RELATED, key, key->str);
	r = c->related = arena_alloc(&cx->rs->arena, sizeof(*r));
	if (strcmp(key->str, "file_exists") == 0) {
		r->exists = true;
		return related_path(cx, v, r) < 0 ? NULL : c;
	}
	if (v->type != YNODE_MAP || (file = ynode_get(v, "file")) == NULL) {
		struct diag *d = cx_error(cx, v, v->type == YNODE_MAP ?
		    DIAG_missing_key : DIAG_wrong_type, "'%s' with a file "
		    "needs 'file', the path of the file", key->str);
		diag_set_hint(d, "%s: {file: '{{dir}}/%s', %s}", key->str,
		    key->str[0] == 'j' ? "../*_mapping.json" : "notes.md",
		    key->str[0] == 'j' ? "keys: [summary]" :
		    "contains: ['reviewed']");
		return NULL;
	}
	if (related_path(cx, file, r) < 0)
		return NULL;
	if (strcmp(key->str, "file_contains") == 0) {
		map_without(v, drop_file, &rest, &items);
		if (rest.n == 0)
			cx_error(cx, v, DIAG_empty_condition, "'file_contains' "
			    "needs a matcher besides 'file': contains, regex, "
			    "keywords, ...");
		rc = rest.n == 0 ? -1 : compile_text_matcher(cx, &rest, false,
		    &r->m, "file_contains");
		free(items);
		return rc < 0 ? NULL : c;
	}
	/* json_file: the file is JSON; the rest is a json matcher's spec. */
	if ((find = ynode_get(v, "find")) != NULL) {
		cx_error(cx, find, DIAG_invalid_value, "'find' does not apply "
		    "to json_file: the file is the JSON document");
		return NULL;
	}
	if ((req = ynode_get(v, "required")) != NULL) {
		if ((b = ynode_bool(req)) < 0) {
			cx_error(cx, req, DIAG_wrong_type,
			    "'required' must be true or false");
			return NULL;
		}
		r->m.required = b;
	}
	map_without(v, drop_json, &rest, &items);
	r->m.kind = M_JSON;
	rc = compile_json_spec(cx, &rest, &r->m.json);
	free(items);
	return rc < 0 ? NULL : c;
}
