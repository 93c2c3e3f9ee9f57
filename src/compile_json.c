/*
 * The spec of a json matcher (reflexion-rules(5), jsoncheck.h): find,
 * where, keys, types, equals and nested each entries, compiled into a
 * struct json_spec in the ruleset's arena.  Expected JSON values are owned
 * by the ruleset.  A text matcher's {json: ...} (compile_match.c) comes
 * here; this file uses only the context's helpers (compile_ctx.c).
 */
#include <cjson/cJSON.h>
#include <string.h>

#include "compile_priv.h"
#include "jsoncheck.h"

static const char *const json_keys[] = {
	"find", "where", "keys", "types", "equals", "each", NULL
};

static const char *const json_each_keys[] = {
	"in", "where", "keys", "types", "equals", "each", NULL
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
	if (compile_checks(cx, e, member, depth + 1) < 0)
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
	const struct ynode	*where, *keys, *types, *eq, *each;
	struct arena		*a = &cx->rs->arena;
	size_t			 before = cx->errors, max = 0, i, neach;

	where = ynode_get(v, "where");
	keys = ynode_get(v, "keys");
	types = ynode_get(v, "types");
	eq = ynode_get(v, "equals");
	each = ynode_get(v, "each");
	if (where != NULL) {
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
