/*
 * The memory parts of the rule language: the `kb` condition, a rule's
 * `record:` options and the kb and tool_errors seeds of its tests.  A
 * leaf of the compile stage: compile_cond.c and compile_rule.c call it,
 * and it uses only the context's helpers (compile_ctx.c).
 */
#include <stdlib.h>
#include <string.h>

#include "compile_priv.h"
#include "match_re.h"
#include "rule.h"
#include "xmalloc.h"

#define KB_LIMIT_MAX	50

static const char *const compile_kb_keys[] = {
	"query", "limit", NULL
};

static const char *const compile_record_keys[] = {
	"retention_days", "max_output", "head_lines", "tail_lines", "redact",
	"redact_defaults", "detect_errors", "collapse_reads", "max_chars", NULL
};

static const char *const kb_queries[] = {
	"file_errors", "session_error", NULL
};

/* Seed 000 asks for the 2 newest file errors and 1 session error. */
static const size_t kb_default_limits[] = { 2, 1 };

static int
kb_query_value(struct cctx *cx, const struct ynode *v)
{
	const char	*near;
	struct diag	*d;
	int		 i;

	if (!is_string(v)) {
		cx_error(cx, v, DIAG_wrong_type, "a kb query must be a string, "
		    "not %s", ynode_type_name(v));
		return -1;
	}
	for (i = 0; kb_queries[i]; i++)
		if (strcmp(v->str, kb_queries[i]) == 0)
			return i;
	d = cx_error(cx, v, DIAG_kb_condition, "unknown kb query '%s'",
	    v->str);
	near = closest_word(v->str, kb_queries);
	if (near != NULL)
		diag_set_hint(d, "did you mean '%s'?", near);
	else
		diag_set_hint(d, "queries are file_errors (past errors naming "
		    "the event's file) and session_error (the session's last "
		    "error of this tool)");
	return -1;
}

/* An integer in [lo, hi]; -1 with an error otherwise. */
static int
int_value(struct cctx *cx, const struct ynode *v, const char *what,
    enum diag_code code, long long lo, long long hi, long long *out)
{
	if (!ynode_int(v, out)) {
		cx_error(cx, v, DIAG_wrong_type, "'%s' must be an integer",
		    what);
		return -1;
	}
	if (*out < lo || *out > hi) {
		cx_error(cx, v, code, "'%s' must be between %lld and %lld",
		    what, lo, hi);
		return -1;
	}
	return 0;
}

struct cond *
compile_kb_cond(struct cctx *cx, const struct ynode *key,
    const struct ynode *v)
{
	const struct ynode	*q, *lim;
	struct cond		*c;
	long long		 n;
	int			 k;

	if (v->type == YNODE_MAP) {
		compile_check_keys(cx, v, "a kb condition", compile_kb_keys);
		if ((q = ynode_get(v, "query")) == NULL) {
			cx_error(cx, v, DIAG_kb_condition, "a kb condition "
			    "needs 'query' (file_errors or session_error)");
			return NULL;
		}
		lim = ynode_get(v, "limit");
	} else {
		q = v;
		lim = NULL;
	}
	if ((k = kb_query_value(cx, q)) < 0)
		return NULL;
	c = arena_alloc(&cx->rs->arena, sizeof(*c));
	c->kind = C_KB;
	c->label = "kb";
	c->line = key->line;
	c->col = key->col;
	c->kb_query = (enum kb_query)k;
	c->kb_limit = kb_default_limits[k];
	if (lim != NULL) {
		if (int_value(cx, lim, "limit", DIAG_kb_condition, 1,
		    KB_LIMIT_MAX, &n) < 0)
			return NULL;
		c->kb_limit = (size_t)n;
	}
	return c;
}

static void
bool_opt(struct cctx *cx, const struct ynode *map, const char *key, bool *out)
{
	const struct ynode	*v = ynode_get(map, key);
	int			 b;

	if (v == NULL)
		return;
	if ((b = ynode_bool(v)) < 0)
		cx_error(cx, v, DIAG_wrong_type, "'%s' must be true or false",
		    key);
	else
		*out = b;
}

static void
size_opt(struct cctx *cx, const struct ynode *map, const char *key,
    long long lo, long long hi, size_t *out)
{
	const struct ynode	*v = ynode_get(map, key);
	long long		 n;

	if (v != NULL && int_value(cx, v, key, DIAG_record_options, lo, hi,
	    &n) == 0)
		*out = (size_t)n;
}

/* The redact: list, each a PCRE2 pattern masked as [REDACTED]. */
static void
redact_opt(struct cctx *cx, const struct ynode *v, struct record_opts *o)
{
	struct strlist	 l;
	struct rr_regex	*re;
	char		 errbuf[256];
	size_t		 i, off = 0;

	if (strlist_from(cx, v, &l, true, "a redact pattern") < 0)
		return;
	o->redact = arena_alloc(&cx->rs->arena, (l.n ? l.n : 1) *
	    sizeof(*o->redact));
	o->redact_src = arena_alloc(&cx->rs->arena, (l.n ? l.n : 1) *
	    sizeof(*o->redact_src));
	o->redact_len = arena_alloc(&cx->rs->arena, (l.n ? l.n : 1) *
	    sizeof(*o->redact_len));
	for (i = 0; i < l.n; i++) {
		re = rr_regex_compile(l.items[i].s, l.items[i].len, 0, &off,
		    errbuf, sizeof(errbuf));
		if (re == NULL) {
			if (l.items[i].node->len == l.items[i].len &&
			    memcmp(l.items[i].node->str, l.items[i].s,
			    l.items[i].len) == 0)
				cx_error_at(cx, l.items[i].node, off,
				    DIAG_invalid_regex, "invalid regex: %s at "
				    "offset %zu", errbuf, off);
			else
				cx_error(cx, l.items[i].node,
				    DIAG_invalid_regex, "invalid regex '%s' "
				    "(from %s): %s at offset %zu",
				    l.items[i].s, l.items[i].node->str, errbuf,
				    off);
			continue;
		}
		ruleset_own_regex(cx->rs, re);
		o->redact_src[o->nredact] = l.items[i].s;
		o->redact_len[o->nredact] = l.items[i].len;
		o->redact[o->nredact++] = re;
	}
}

const struct record_opts *
compile_record(struct cctx *cx, const struct ynode *v)
{
	struct record_opts	*o;
	const struct ynode	*r;
	long long		 n;

	if (v->type != YNODE_MAP) {
		cx_error(cx, v, DIAG_wrong_type, "'record' must be a mapping "
		    "of options, not %s", ynode_type_name(v));
		return NULL;
	}
	compile_check_keys(cx, v, "record options", compile_record_keys);
	o = arena_alloc(&cx->rs->arena, sizeof(*o));
	record_opts_default(o);
	if ((r = ynode_get(v, "retention_days")) != NULL &&
	    int_value(cx, r, "retention_days", DIAG_record_options, 0, 36500,
	    &n) == 0)
		o->retention_days = (int)n;
	size_opt(cx, v, "max_output", 256, 1048576, &o->max_output);
	size_opt(cx, v, "head_lines", 0, 100000, &o->head_lines);
	size_opt(cx, v, "tail_lines", 0, 100000, &o->tail_lines);
	size_opt(cx, v, "max_chars", 100, 1000000, &o->max_chars);
	bool_opt(cx, v, "redact_defaults", &o->redact_defaults);
	bool_opt(cx, v, "detect_errors", &o->detect_errors);
	bool_opt(cx, v, "collapse_reads", &o->collapse_reads);
	if ((r = ynode_get(v, "redact")) != NULL)
		redact_opt(cx, r, o);
	return o;
}

/* A tests: seed list (kb, tool_errors): a list of mappings. */
struct cJSON *
compile_test_seed(struct cctx *cx, const struct ynode *v, const char *key)
{
	struct cJSON	*j;
	size_t		 i;

	if (v->type != YNODE_SEQ) {
		cx_error(cx, v, DIAG_bad_test, "'%s' in a test must be a list "
		    "of mappings", key);
		return NULL;
	}
	for (i = 0; i < v->n; i++)
		if (v->items[i]->type != YNODE_MAP) {
			cx_error(cx, v->items[i], DIAG_bad_test, "each item of "
			    "'%s' must be a mapping", key);
			return NULL;
		}
	j = ynode_to_json(v, 0);
	ruleset_own_json(cx->rs, j);
	return j;
}
