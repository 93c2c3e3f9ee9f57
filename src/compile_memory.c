/*
 * The parts of the rule language that read and steer the memory of seeds
 * 001 and 004 (reflexion-rules(5)): the `memory` and `router` conditions,
 * a rule's `route:` and a file's `banner:`.  A leaf of the compile stage,
 * beside compile_kb.c: compile_cond.c and compile_rule.c call it.
 */
#include <stdlib.h>
#include <string.h>

#include "compile_priv.h"
#include "route.h"
#include "rule.h"
#include "template.h"

#define MEMORY_LIMIT_MAX	20

static const char *const memory_keys[] = {
	"query", "limit", "projects", "below", NULL
};

static const char *const memory_queries[] = {
	"summaries", "conversations", "observations", "route", NULL
};

/* Three past summaries, or turns, or calls; one route. */
static const size_t memory_default_limits[MQ__COUNT] = { 3, 3, 5, 1 };

static const char *const route_keys[] = {
	"exec_type", "pipeline", "icon", "confidence", "reason", NULL
};

static int
one_of(struct cctx *cx, const struct ynode *v, const char *what,
    const char *const *names)
{
	const char	*near;
	struct diag	*d;
	struct buf	 b;
	int		 i;

	if (!is_string(v)) {
		cx_error(cx, v, DIAG_wrong_type, "%s must be a string, not %s",
		    what, ynode_type_name(v));
		return -1;
	}
	for (i = 0; names[i] != NULL; i++)
		if (strcmp(v->str, names[i]) == 0)
			return i;
	d = cx_error(cx, v, DIAG_invalid_value, "unknown %s '%s'", what,
	    v->str);
	if ((near = closest_word(v->str, names)) != NULL)
		diag_set_hint(d, "did you mean '%s'?", near);
	else {
		buf_init(&b);
		for (i = 0; names[i] != NULL; i++)
			buf_printf(&b, "%s%s", i ? ", " : "", names[i]);
		diag_set_hint(d, "one of %s", b.data);
		buf_release(&b);
	}
	return -1;
}

static int
int_in(struct cctx *cx, const struct ynode *v, const char *what,
    long long lo, long long hi, long long *out)
{
	if (!ynode_int(v, out)) {
		cx_error(cx, v, DIAG_wrong_type, "'%s' must be an integer",
		    what);
		return -1;
	}
	if (*out < lo || *out > hi) {
		cx_error(cx, v, DIAG_invalid_value, "'%s' must be between %lld "
		    "and %lld", what, lo, hi);
		return -1;
	}
	return 0;
}

/*
 * memory: summaries | {query: Q, limit: N, projects: all, below: N}
 */
struct cond *
compile_memory_cond(struct cctx *cx, const struct ynode *key,
    const struct ynode *v)
{
	const struct ynode	*q, *n;
	struct cond		*c;
	long long		 num;
	int			 k;

	q = v;
	if (v->type == YNODE_MAP) {
		compile_check_keys(cx, v, "a memory condition", memory_keys);
		if ((q = ynode_get(v, "query")) == NULL) {
			cx_error(cx, v, DIAG_missing_key, "a memory condition "
			    "needs 'query' (summaries, conversations, "
			    "observations or route)");
			return NULL;
		}
	}
	if ((k = one_of(cx, q, "memory query", memory_queries)) < 0)
		return NULL;
	c = arena_alloc(&cx->rs->arena, sizeof(*c));
	c->kind = C_MEMORY;
	c->label = "memory";
	c->line = key->line;
	c->col = key->col;
	c->mem_query = (enum mem_query_kind)k;
	c->mem_limit = memory_default_limits[k];
	if (v->type != YNODE_MAP)
		return c;
	if ((n = ynode_get(v, "limit")) != NULL) {
		if (int_in(cx, n, "limit", 1, MEMORY_LIMIT_MAX, &num) < 0)
			return NULL;
		c->mem_limit = (size_t)num;
	}
	if ((n = ynode_get(v, "projects")) != NULL) {
		static const char *const scopes[] = { "this", "all", NULL };
		if ((k = one_of(cx, n, "'projects'", scopes)) < 0)
			return NULL;
		c->mem_all_projects = k == 1;
	}
	if ((n = ynode_get(v, "below")) != NULL) {
		if (c->mem_query != MQ_ROUTE) {
			cx_error(cx, n, DIAG_invalid_value, "'below' applies "
			    "to the route query: a confidence from 1 to 100");
			return NULL;
		}
		if (int_in(cx, n, "below", 1, 100, &num) < 0)
			return NULL;
		c->mem_below = (int)num;
	}
	return c;
}

/* router: true */
struct cond *
compile_router_cond(struct cctx *cx, const struct ynode *key,
    const struct ynode *v)
{
	struct cond	*c;

	if (ynode_bool(v) != 1) {
		cx_error(cx, v, DIAG_invalid_value, "'router' must be true: "
		    "the condition holds when the configured router routes "
		    "the prompt");
		return NULL;
	}
	c = arena_alloc(&cx->rs->arena, sizeof(*c));
	c->kind = C_ROUTER;
	c->label = "router";
	c->line = key->line;
	c->col = key->col;
	return c;
}

static const char *
opt_str(struct cctx *cx, const struct ynode *map, const char *key)
{
	const struct ynode	*v = ynode_get(map, key);

	if (v == NULL)
		return NULL;
	if (!is_string(v) || v->len == 0) {
		cx_error(cx, v, DIAG_wrong_type, "'%s' must be a string", key);
		return NULL;
	}
	return arena_strdup(&cx->rs->arena, v->str);
}

/*
 * route: {exec_type: E, pipeline: P, icon: I, confidence: N, reason: R}
 * or route: router (the router condition's answer).
 */
const struct rule_route *
compile_route(struct cctx *cx, const struct ynode *v)
{
	struct rule_route	*r;
	const struct ynode	*n;
	long long		 num;
	size_t			 before = cx->errors;

	r = arena_alloc(&cx->rs->arena, sizeof(*r));
	if (is_string(v) && strcmp(v->str, "router") == 0) {
		r->from_router = true;
		return r;
	}
	if (v->type != YNODE_MAP) {
		struct diag *d = cx_error(cx, v, DIAG_wrong_type, "'route' "
		    "must be a mapping, or 'router'");
		diag_set_hint(d, "route: {exec_type: tool, pipeline: jira, "
		    "confidence: 90, reason: ...}");
		return NULL;
	}
	compile_check_keys(cx, v, "a route", route_keys);
	if ((n = ynode_get(v, "exec_type")) == NULL)
		cx_error(cx, v, DIAG_missing_key, "a route needs 'exec_type' "
		    "(%s)", ROUTE_EXEC_TYPES);
	else if (one_of(cx, n, "exec_type", route_exec_types) >= 0)
		r->exec_type = arena_strdup(&cx->rs->arena, n->str);
	r->pipeline = opt_str(cx, v, "pipeline");
	r->icon = opt_str(cx, v, "icon");
	r->reason = opt_str(cx, v, "reason");
	r->confidence = 100;
	if ((n = ynode_get(v, "confidence")) != NULL &&
	    int_in(cx, n, "confidence", 0, 100, &num) == 0)
		r->confidence = (int)num;
	return cx->errors == before ? r : NULL;
}

/* One banner template; NULL with an error. */
static struct template *
banner_template(struct cctx *cx, const struct ynode *v)
{
	struct template	*t;
	struct diag	*d;
	char		*err = NULL;
	size_t		 off = 0;
	int		 rc;

	if (!is_string(v)) {
		cx_error(cx, v, DIAG_wrong_type, "'banner' must be a string, "
		    "not %s", ynode_type_name(v));
		return NULL;
	}
	t = arena_alloc(&cx->rs->arena, sizeof(*t));
	if ((rc = tpl_compile_banner(&cx->rs->arena, v->str, v->len, t, &err,
	    &off)) == 0)
		return t;
	d = cx_error_at(cx, v, off, rc == -2 ? DIAG_template_section :
	    DIAG_unknown_template, "%s", err);
	diag_set_hint(d, "a banner lists the skills of each priority: "
	    "critical, high, medium and low, as sections ({{#high}}...{{/high}}"
	    ") and lists ({{high | join: \", \"}})");
	free(err);
	return NULL;
}

/*
 * banner: the template of the suggestion banner of the file's rules, or
 * a mapping of language to template as a message may be ({en: ..., ko:
 * ...}; en, else the first, is the default).
 */
void
compile_banner(struct cctx *cx, const struct ynode *v)
{
	const struct ynode	*k;
	struct template		*t;
	size_t			 i, def = 0, before = cx->errors;

	if (v->type != YNODE_MAP) {
		cx->banner = banner_template(cx, v);
		return;
	}
	if (v->n == 0) {
		cx_error(cx, v, DIAG_empty_condition, "'banner' has no "
		    "language");
		return;
	}
	cx->banners = arena_alloc(&cx->rs->arena, v->n * sizeof(*cx->banners));
	for (i = 0; i < v->n; i++) {
		k = v->items[2 * i];
		if (!is_string(k) || !compile_valid_lang(k->str)) {
			cx_error(cx, k, DIAG_invalid_value, "a banner's key is a "
			    "language, such as en or ko");
			continue;
		}
		if ((t = banner_template(cx, v->items[2 * i + 1])) == NULL)
			continue;
		cx->banners[cx->nbanners].lang = arena_strdup(&cx->rs->arena,
		    k->str);
		cx->banners[cx->nbanners++].tpl = t;
		if (strcmp(k->str, "en") == 0)
			def = cx->nbanners - 1;
	}
	if (cx->errors != before) {
		cx->banners = NULL;
		cx->nbanners = 0;
		return;
	}
	cx->banner = cx->banners[def].tpl;
}
