/*
 * The spec of a json matcher (reflexion-rules(5), jsoncheck.h): find,
 * where, keys, types, equals, compare and nested each entries (with
 * their key and has), compiled into a
 * struct json_spec in the ruleset's arena.  Expected JSON values are owned
 * by the ruleset.  A text matcher's {json: ...} (compile_match.c) comes
 * here; this file uses only the context's helpers (compile_ctx.c).
 */
#include <cjson/cJSON.h>
#include <string.h>

#include "compile_priv.h"
#include "jsoncheck.h"
#include "pathtpl.h"

static const char *const json_keys[] = {
	"find", "where", "keys", "types", "equals", "compare", "each", NULL
};

static const char *const json_each_keys[] = {
	"in", "where", "key", "has", "keys", "types", "equals", "compare",
	"each", NULL
};

static const char *const count_keys[] = {
	"in", "where", "key", "has", NULL
};

static bool
valid_path(const char *p)
{
	size_t	n = strlen(p);

	return n > 0 && p[0] != '.' && p[n - 1] != '.' &&
	    strstr(p, "..") == NULL;
}

static int
add_check(struct cctx *cx, struct json_check *out, enum json_check_kind kind,
    const struct ynode *k, const struct ynode *val)
{
	cJSON		*j;
	size_t		 i;
	int		 t;

	if (!is_string(k) || !valid_path(k->str)) {
		cx_error(cx, k, DIAG_invalid_value, "a JSON key path is "
		    "names separated by dots, such as 'verification.result'");
		return -1;
	}
	memset(out, 0, sizeof(*out));
	out->kind = kind;
	out->path = arena_strdup(&cx->rs->arena, k->str);
	if (kind == JC_EQUALS) {
		j = ynode_to_json(val, 0);
		ruleset_own_json(cx->rs, j);
		out->value = j;
	} else if (kind == JC_TYPE) {
		const struct ynode *one = val;
		for (i = 0; i < (val->type == YNODE_SEQ ? val->n : 1); i++) {
			if (val->type == YNODE_SEQ)
				one = val->items[i];
			if (!is_string(one) ||
			    (t = json_type_from_name(one->str)) < 0) {
				struct diag *d = cx_error(cx, one,
				    DIAG_invalid_value, "unknown JSON type");
				diag_set_hint(d, "types are object, array, "
				    "string, number, integer, boolean, null");
				return -1;
			}
			out->types |= (unsigned)t;
		}
		if (out->types == 0) {
			cx_error(cx, val, DIAG_empty_condition,
			    "no type given for '%s'", k->str);
			return -1;
		}
	}
	return 0;
}

/* A mapping of path -> value (where, types, equals) into checks. */
static int
add_map(struct cctx *cx, const struct ynode *map, const char *what,
    enum json_check_kind kind, struct json_check **arr, size_t *n)
{
	size_t	i;

	if (map->type != YNODE_MAP) {
		cx_error(cx, map, DIAG_wrong_type, "'%s' must be a mapping of "
		    "key paths, not %s", what, ynode_type_name(map));
		return -1;
	}
	for (i = 0; i < map->n; i++)
		if (add_check(cx, &(*arr)[(*n)], kind, map->items[2 * i],
		    map->items[2 * i + 1]) == 0)
			(*n)++;
	return 0;
}

static int compile_checks(struct cctx *, const struct ynode *,
    struct json_spec *, int depth);
static int compile_fit(struct cctx *, const struct ynode *,
    struct json_spec *);

/* ---- compare -------------------------------------------------------------- */

/* A plain scalar that is a number: 0 with *out, else -1. */
static int
number_of(const struct ynode *n, double *out)
{
	cJSON	*j;
	int	 rc = -1;

	if (n->type != YNODE_SCALAR || n->style != YSTYLE_PLAIN)
		return -1;
	if ((j = ynode_to_json(n, 0)) != NULL && cJSON_IsNumber(j)) {
		*out = j->valuedouble;
		rc = 0;
	}
	cJSON_Delete(j);
	return rc;
}

static int
key_path(struct cctx *cx, const struct ynode *k, const char **out)
{
	if (!is_string(k) || !valid_path(k->str)) {
		cx_error(cx, k, DIAG_invalid_value, "a JSON key path is "
		    "names separated by dots, such as 'summary.total'");
		return -1;
	}
	*out = arena_strdup(&cx->rs->arena, k->str);
	return 0;
}

/* A side written as value: PATH, sum: [PATH, ...] or count: PATH|{in...}. */
static int
compile_side(struct cctx *cx, const char *kind, const struct ynode *v,
    struct json_num *n)
{
	const struct ynode	*in;
	struct arena		*a = &cx->rs->arena;
	struct json_spec	*fit;
	struct strlist		 l;
	size_t			 i;

	if (strcmp(kind, "value") == 0) {
		n->kind = JN_VALUE;
		n->paths = arena_alloc(a, sizeof(*n->paths));
		n->npaths = 1;
		return key_path(cx, v, &n->paths[0]);
	}
	if (strcmp(kind, "sum") == 0) {
		if (strlist_from(cx, v, &l, false, "a key path") < 0)
			return -1;
		if (l.n == 0) {
			cx_error(cx, v, DIAG_empty_condition,
			    "'sum' is an empty list");
			return -1;
		}
		n->kind = JN_SUM;
		n->paths = arena_alloc(a, l.n * sizeof(*n->paths));
		for (i = 0; i < l.n; i++)
			if (key_path(cx, l.items[i].node,
			    &n->paths[n->npaths]) == 0)
				n->npaths++;
		return n->npaths == l.n ? 0 : -1;
	}
	n->kind = JN_COUNT;
	n->paths = arena_alloc(a, sizeof(*n->paths));
	n->npaths = 1;
	if (v->type != YNODE_MAP)
		return key_path(cx, v, &n->paths[0]);
	/* {count: {in: PATH, where: ..., key: ..., has: [...]}} */
	compile_check_keys(cx, v, "count", count_keys);
	if ((in = ynode_get(v, "in")) == NULL) {
		cx_error(cx, v, DIAG_missing_key, "'count' needs 'in': the "
		    "key path of the object or array whose members it counts");
		return -1;
	}
	if (key_path(cx, in, &n->paths[0]) < 0)
		return -1;
	fit = arena_alloc(a, sizeof(*fit));
	if (compile_fit(cx, v, fit) < 0)
		return -1;
	n->fit = fit;
	return 0;
}

/*
 * The right side of a comparison: a number, a key path (a string), or a
 * mapping of one of value, sum, count.
 */
static int
compile_right(struct cctx *cx, const struct ynode *v, struct json_num *n)
{
	const struct ynode	*k;

	memset(n, 0, sizeof(*n));
	if (number_of(v, &n->value) == 0) {
		n->kind = JN_CONST;
		return 0;
	}
	if (is_string(v))
		return compile_side(cx, "value", v, n);
	if (v->type == YNODE_MAP && v->n == 1 && is_string(k = v->items[0]) &&
	    (strcmp(k->str, "value") == 0 || strcmp(k->str, "sum") == 0 ||
	    strcmp(k->str, "count") == 0))
		return compile_side(cx, k->str, v->items[1], n);
	cx_error(cx, v, DIAG_wrong_type, "the other side of a comparison is "
	    "a number, a key path, or one of {value: PATH}, {sum: [PATH, "
	    "...]}, {count: PATH}");
	return -1;
}

/* One comparison: a left side and one operator with its right side. */
static int
compile_compare(struct cctx *cx, const struct ynode *e, struct json_check *out)
{
	static const char *const known[] = {
		"value", "sum", "count", "equals", "not_equals", "less_than",
		"at_most", "greater_than", "at_least", NULL
	};
	struct json_compare	*cmp;
	const struct ynode	*k, *op = NULL, *left = NULL;
	size_t			 i;
	int			 o, which = -1;

	if (e->type != YNODE_MAP) {
		cx_error(cx, e, DIAG_wrong_type, "a comparison is a mapping "
		    "such as {sum: [a, b], equals: total}, not %s",
		    ynode_type_name(e));
		return -1;
	}
	for (i = 0; i < e->n; i++) {
		k = e->items[2 * i];
		if (!is_string(k)) {
			cx_error(cx, k, DIAG_wrong_type, "a key must be a "
			    "string");
			return -1;
		}
		for (o = 0; o < JCMP__COUNT; o++)
			if (strcmp(k->str, json_cmp_names[o]) == 0)
				break;
		if (o < JCMP__COUNT) {
			if (op != NULL) {
				cx_error(cx, k, DIAG_invalid_value, "a "
				    "comparison takes one operator");
				return -1;
			}
			op = k;
			which = o;
		} else if (strcmp(k->str, "value") == 0 ||
		    strcmp(k->str, "sum") == 0 || strcmp(k->str, "count") == 0) {
			if (left != NULL) {
				cx_error(cx, k, DIAG_invalid_value, "a "
				    "comparison takes one of value, sum, count");
				return -1;
			}
			left = k;
		} else {
			cx_unknown_key(cx, k, "a comparison", known);
			return -1;
		}
	}
	if (left == NULL || op == NULL) {
		struct diag *d = cx_error(cx, e, DIAG_missing_key, "a "
		    "comparison needs %s", left == NULL ? "one of value, sum, "
		    "count" : "an operator");
		diag_set_hint(d, "for example {sum: [a, b], equals: total}; "
		    "operators are equals, not_equals, less_than, at_most, "
		    "greater_than, at_least");
		return -1;
	}
	cmp = arena_alloc(&cx->rs->arena, sizeof(*cmp));
	if (compile_side(cx, left->str, ynode_get(e, left->str),
	    &cmp->left) < 0 ||
	    compile_right(cx, ynode_get(e, op->str), &cmp->right) < 0)
		return -1;
	cmp->op = (enum json_cmp_op)which;
	memset(out, 0, sizeof(*out));
	out->kind = JC_COMPARE;
	out->cmp = cmp;
	return 0;
}

/* `compare`: one comparison or a list of them. */
static void
add_compares(struct cctx *cx, const struct ynode *v, struct json_spec *s)
{
	size_t	i, n = v->type == YNODE_SEQ ? v->n : 1;

	if (v->type == YNODE_SEQ && v->n == 0) {
		cx_error(cx, v, DIAG_empty_condition,
		    "'compare' is an empty list");
		return;
	}
	for (i = 0; i < n; i++)
		if (compile_compare(cx, v->type == YNODE_SEQ ? v->items[i] : v,
		    &s->checks[s->nchecks]) == 0)
			s->nchecks++;
}

/*
 * What picks the members an `each` entry or a count looks at: where,
 * key (a template) and has.
 */
static int
compile_fit(struct cctx *cx, const struct ynode *v, struct json_spec *s)
{
	const struct ynode	*where, *key, *has;
	struct arena		*a = &cx->rs->arena;
	struct strlist		 l;
	const char		*msg;
	size_t			 before = cx->errors, off, i;
	unsigned		 uses;

	if ((where = ynode_get(v, "where")) != NULL) {
		if (where->type == YNODE_MAP)
			s->where = arena_alloc(a, (where->n + 1) *
			    sizeof(*s->where));
		add_map(cx, where, "where", JC_EQUALS, &s->where, &s->nwhere);
	}
	if ((key = ynode_get(v, "key")) != NULL) {
		if (key->type != YNODE_SCALAR)
			cx_error(cx, key, DIAG_wrong_type, "'key' must be a "
			    "member's key, such as '{{block}}' or 'TC-1.1'");
		else if (ptpl_check(key->str, key->len, PV_KEY_VARS, &uses,
		    &msg, &off) < 0)
			cx_error_at(cx, key, off, DIAG_invalid_value, "%s",
			    msg);
		else
			s->key = arena_strdup(a, key->str);
	}
	if ((has = ynode_get(v, "has")) != NULL &&
	    strlist_from(cx, has, &l, false, "a key path") == 0) {
		s->has = arena_alloc(a, (l.n ? l.n : 1) * sizeof(*s->has));
		for (i = 0; i < l.n; i++)
			if (key_path(cx, l.items[i].node, &s->has[s->nhas]) ==
			    0)
				s->nhas++;
	}
	return cx->errors != before ? -1 : 0;
}

/* One entry of `each`: {in: PATH, where..., keys..., ...} into *out. */
static int
add_each(struct cctx *cx, const struct ynode *e, struct json_check *out,
    int depth)
{
	const struct ynode	*in;
	struct json_spec	*member;

	if (e->type != YNODE_MAP) {
		cx_error(cx, e, DIAG_wrong_type, "an 'each' entry must be a "
		    "mapping (in, where, keys, types, equals, each), not %s",
		    ynode_type_name(e));
		return -1;
	}
	compile_check_keys(cx, e, "an 'each' entry", json_each_keys);
	if ((in = ynode_get(e, "in")) == NULL) {
		cx_error(cx, e, DIAG_missing_key, "an 'each' entry needs 'in': "
		    "the key path of the object or array whose members it "
		    "checks");
		return -1;
	}
	if (add_check(cx, out, JC_EACH, in, NULL) < 0)
		return -1;
	member = arena_alloc(&cx->rs->arena, sizeof(*member));
	if (compile_fit(cx, e, member) < 0 ||
	    compile_checks(cx, e, member, depth + 1) < 0)
		return -1;
	out->each = member;
	return 0;
}

/*
 * where, keys, types, equals and each of mapping v into s; `each` entries
 * one level deeper, up to JSON_EACH_DEPTH.
 */
static int
compile_checks(struct cctx *cx, const struct ynode *v, struct json_spec *s,
    int depth)
{
	const struct ynode	*where, *keys, *types, *eq, *each, *cmp;
	struct arena		*a = &cx->rs->arena;
	size_t			 before = cx->errors, max = 0, i, neach;

	where = ynode_get(v, "where");
	keys = ynode_get(v, "keys");
	types = ynode_get(v, "types");
	eq = ynode_get(v, "equals");
	each = ynode_get(v, "each");
	cmp = ynode_get(v, "compare");
	/* An each entry's where is its fit's (compile_fit). */
	if (where != NULL && depth == 0) {
		if (where->type == YNODE_MAP)
			s->where = arena_alloc(a, (where->n + 1) *
			    sizeof(*s->where));
		add_map(cx, where, "where", JC_EQUALS, &s->where, &s->nwhere);
	}
	if (keys != NULL && keys->type == YNODE_SEQ)
		max += keys->n;
	else if (keys != NULL && keys->type == YNODE_SCALAR)
		max++;
	if (types != NULL && types->type == YNODE_MAP)
		max += types->n;
	if (eq != NULL && eq->type == YNODE_MAP)
		max += eq->n;
	neach = each == NULL ? 0 : each->type == YNODE_SEQ ? each->n : 1;
	max += neach;
	if (cmp != NULL)
		max += cmp->type == YNODE_SEQ ? cmp->n : 1;
	s->checks = arena_alloc(a, (max + 1) * sizeof(*s->checks));
	if (keys != NULL) {
		struct strlist l;
		if (strlist_from(cx, keys, &l, false, "a key path") == 0)
			for (i = 0; i < l.n; i++)
				if (add_check(cx, &s->checks[s->nchecks],
				    JC_KEY, l.items[i].node, NULL) == 0)
					s->nchecks++;
	}
	if (types != NULL)
		add_map(cx, types, "types", JC_TYPE, &s->checks, &s->nchecks);
	if (eq != NULL)
		add_map(cx, eq, "equals", JC_EQUALS, &s->checks, &s->nchecks);
	if (cmp != NULL)
		add_compares(cx, cmp, s);
	if (each != NULL && depth >= JSON_EACH_DEPTH)
		cx_error(cx, each, DIAG_invalid_value, "'each' is nested more "
		    "than %d deep", JSON_EACH_DEPTH);
	else
		for (i = 0; i < neach; i++)
			if (add_each(cx, each->type == YNODE_SEQ ?
			    each->items[i] : each, &s->checks[s->nchecks],
			    depth) == 0)
				s->nchecks++;
	return cx->errors != before ? -1 : 0;
}

int
compile_json_spec(struct cctx *cx, const struct ynode *v,
    struct json_spec **out)
{
	const struct ynode	*find;
	struct json_spec	*s;
	size_t			 before = cx->errors;
	int			 b;

	if (v->type != YNODE_MAP) {
		cx_error(cx, v, DIAG_wrong_type, "'json' must be a mapping "
		    "(find, where, keys, types, equals, each), not %s",
		    ynode_type_name(v));
		return -1;
	}
	compile_check_keys(cx, v, "a json matcher", json_keys);
	s = arena_alloc(&cx->rs->arena, sizeof(*s));
	if ((find = ynode_get(v, "find")) != NULL) {
		if ((b = ynode_bool(find)) < 0)
			cx_error(cx, find, DIAG_wrong_type,
			    "'find' must be true or false");
		else
			s->find = b;
	}
	if (compile_checks(cx, v, s, 0) < 0 || cx->errors != before)
		return -1;
	*out = s;
	return 0;
}
