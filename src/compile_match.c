/*
 * Text matchers: the value of a text condition (path, command,
 * input.<key>, a part of a shell command, ...) compiled into a struct
 * matcher.  Regexes and globs are compiled here and owned by the
 * ruleset; a {json: ...} spec is compiled by compile_json.c.  The
 * conditions (compile_cond.c) call this; it calls only down.
 */
#include <stdio.h>
#include <string.h>

#include "compile_priv.h"
#include "glob.h"
#include "match_re.h"

static const char *const matcher_keys[] = {
	"regex", "keywords", "contains", "equals", "glob", "ignore_case",
	"word", "starts_with", "ends_with", "json", "line", "required",
	"outside", "except", NULL
};

/* The places of `outside`, by enum rr_place bit: 1 << index. */
static const char *const place_names[] = { "project", "temp", NULL };

static void
add_pattern(struct cctx *cx, struct matcher *m, const struct strlist_item *it)
{
	struct pattern	*p;
	struct rr_regex	*re;
	struct rr_glob	*g;
	const char	*gerr;
	char		 errbuf[256];
	size_t		 off = 0;
	struct diag	*d;

	p = &m->pats[m->npats];
	p->src = it->s;
	p->len = it->len;
	p->line = it->node->line;
	p->col = it->node->col;
	if (m->kind == M_REGEX) {
		re = rr_regex_compile(it->s, it->len,
		    m->ignore_case ? RR_RE_IGNORE_CASE : 0, &off, errbuf,
		    sizeof(errbuf));
		if (re == NULL) {
			/* An item from a $var has no offset we can map back. */
			if (it->node->str == it->s ||
			    (it->node->len == it->len &&
			    memcmp(it->node->str, it->s, it->len) == 0))
				d = cx_error_at(cx, it->node, off,
				    DIAG_invalid_regex,
				    "invalid regex: %s at offset %zu", errbuf,
				    off);
			else
				d = cx_error(cx, it->node, DIAG_invalid_regex,
				    "invalid regex '%s' (from %s): %s at "
				    "offset %zu", it->s, it->node->str, errbuf,
				    off);
			diag_set_hint(d, "if you meant a literal string, use "
			    "{contains: [...]} or {keywords: [...]}");
			return;
		}
		ruleset_own_regex(cx->rs, re);
		p->re = re;
	} else if (m->kind == M_GLOB) {
		g = rr_glob_compile(it->s, it->len, &gerr, &off);
		if (g == NULL) {
			cx_error_at(cx, it->node, off, DIAG_invalid_glob,
			    "invalid glob: %s", gerr);
			return;
		}
		ruleset_own_glob(cx->rs, g);
		p->glob = g;
	}
	m->npats++;
}

static int
matcher_from_list(struct cctx *cx, struct matcher *m, const struct strlist *l)
{
	size_t	i, before = cx->errors;

	m->pats = arena_alloc(&cx->rs->arena, (l->n ? l->n : 1) *
	    sizeof(*m->pats));
	for (i = 0; i < l->n; i++)
		add_pattern(cx, m, &l->items[i]);
	return cx->errors == before ? 0 : -1;
}

/* outside: a place or a list of them, into m->outside. */
static void
compile_outside(struct cctx *cx, const struct ynode *v, struct matcher *m)
{
	struct strlist	 l;
	struct diag	*d;
	const char	*near;
	size_t		 i, k;

	if (strlist_from(cx, v, &l, true, "a place") < 0)
		return;
	if (l.n == 0) {
		cx_error(cx, v, DIAG_empty_condition,
		    "'outside' is an empty list");
		return;
	}
	for (i = 0; i < l.n; i++) {
		for (k = 0; place_names[k] != NULL; k++)
			if (strcmp(place_names[k], l.items[i].s) == 0)
				break;
		if (place_names[k] != NULL) {
			m->outside |= 1u << k;
			continue;
		}
		d = cx_error(cx, l.items[i].node, DIAG_invalid_value,
		    "'%s' is not a place", l.items[i].s);
		near = closest_word(l.items[i].s, place_names);
		if (near != NULL)
			diag_set_hint(d, "did you mean '%s'?", near);
		else
			diag_set_hint(d, "the places are project (the project "
			    "directory) and temp (the temporary directories)");
	}
}

/* except: globs, a string or a list, into m->except. */
static void
compile_except(struct cctx *cx, const struct ynode *v, struct matcher *m)
{
	struct matcher	 g;
	struct strlist	 l;

	if (strlist_from(cx, v, &l, true, "an except glob") < 0)
		return;
	if (l.n == 0) {
		cx_error(cx, v, DIAG_empty_condition,
		    "'except' is an empty list");
		return;
	}
	memset(&g, 0, sizeof(g));
	g.kind = M_GLOB;
	if (matcher_from_list(cx, &g, &l) < 0)
		return;
	m->except = g.pats;
	m->nexcept = g.npats;
}

/*
 * A text condition's value: a regex string or list (globs for path), or a
 * mapping with one of regex / keywords / contains / equals / glob /
 * starts_with / ends_with / json and its modifiers.  Unless the use is
 * TU_TEXT the patterns are globs and 'required' does not apply: path,
 * and the program and subcommand of a shell command.  A path (TU_PATH)
 * also takes outside and except, which choose the files that count, and
 * with either the patterns may be left out: every file then matches.
 */
int
compile_text_matcher(struct cctx *cx, const struct ynode *n,
    enum text_use use, struct matcher *m, const char *label)
{
	static const char *const kinds[] = {
		"regex", "keywords", "contains", "equals", "glob",
		"starts_with", "ends_with", "json"
	};
	static const enum matcher_kind kind_of[] = {
		M_REGEX, M_KEYWORDS, M_CONTAINS, M_EQUALS, M_GLOB,
		M_STARTS_WITH, M_ENDS_WITH, M_JSON
	};
	const int		 nk = (int)(sizeof(kinds) / sizeof(kinds[0]));
	const struct ynode	*v, *which = NULL, *outside, *except;
	const bool		 is_path = use != TU_TEXT;
	struct strlist		 l;
	size_t			 before = cx->errors;
	int			 b, nkinds = 0, k, chosen = -1;
	char			 what[96];

	memset(m, 0, sizeof(*m));
	if (n->type != YNODE_MAP) {
		m->kind = is_path ? M_GLOB : M_REGEX;
		snprintf(what, sizeof(what), "a %s pattern", label);
		if (strlist_from(cx, n, &l, true, what) < 0)
			return -1;
		return matcher_from_list(cx, m, &l);
	}
	compile_check_keys(cx, n, "a matcher", matcher_keys);
	outside = ynode_get(n, "outside");
	except = ynode_get(n, "except");
	if (use != TU_PATH && (outside != NULL || except != NULL)) {
		v = outside != NULL ? outside : except;
		cx_error(cx, ynode_get_key(n, v == outside ? "outside" :
		    "except"), DIAG_invalid_value,
		    "'%s' applies only to path and read_path",
		    v == outside ? "outside" : "except");
		return -1;
	}
	if (outside != NULL)
		compile_outside(cx, outside, m);
	if (except != NULL)
		compile_except(cx, except, m);
	if (cx->errors != before)
		return -1;
	for (k = 0; k < nk; k++) {
		if ((v = ynode_get(n, kinds[k])) != NULL) {
			nkinds++;
			if (chosen < 0) {
				chosen = k;
				which = v;
			}
		}
	}
	/* Only outside and except: every file they leave in. */
	if (nkinds == 0 && (outside != NULL || except != NULL)) {
		which = NULL;
		chosen = 4;		/* kinds[4], "glob" */
	} else if (nkinds == 0) {
		cx_error(cx, n, DIAG_empty_condition,
		    "matcher for '%s' needs one of regex, keywords, contains, "
		    "equals, starts_with, ends_with, json%s", label,
		    use == TU_PATH ? ", glob, outside, except" :
		    is_path ? ", glob" : "");
		return -1;
	}
	if (nkinds > 1) {
		cx_error(cx, n, DIAG_invalid_value,
		    "matcher for '%s' takes only one of regex, keywords, "
		    "contains, equals, glob, starts_with, ends_with, json",
		    label);
		return -1;
	}
	if (kind_of[chosen] == M_GLOB && !is_path) {
		cx_error(cx, which, DIAG_invalid_value,
		    "'glob' applies only to path");
		return -1;
	}
	m->kind = kind_of[chosen];
	/* Keywords are case-insensitive unless asked otherwise. */
	m->ignore_case = m->kind == M_KEYWORDS;
	if ((v = ynode_get(n, "ignore_case")) != NULL) {
		if ((b = ynode_bool(v)) < 0)
			cx_error(cx, v, DIAG_wrong_type,
			    "'ignore_case' must be true or false");
		else if (m->kind == M_JSON)
			cx_error(cx, v, DIAG_invalid_value,
			    "'ignore_case' does not apply to %s",
			    kinds[chosen]);
		else
			m->ignore_case = b;
	}
	if ((v = ynode_get(n, "word")) != NULL) {
		if ((b = ynode_bool(v)) < 0)
			cx_error(cx, v, DIAG_wrong_type,
			    "'word' must be true or false");
		else if (m->kind != M_KEYWORDS)
			cx_error(cx, v, DIAG_invalid_value,
			    "'word' applies only to keywords");
		else
			m->word = b;
	}
	if ((v = ynode_get(n, "line")) != NULL) {
		if ((b = ynode_bool(v)) < 0)
			cx_error(cx, v, DIAG_wrong_type,
			    "'line' must be true or false");
		else if (m->kind != M_EQUALS && m->kind != M_STARTS_WITH &&
		    m->kind != M_ENDS_WITH)
			cx_error(cx, v, DIAG_invalid_value, "'line' applies "
			    "only to equals, starts_with and ends_with");
		else
			m->line = b;
	}
	if ((v = ynode_get(n, "required")) != NULL) {
		if ((b = ynode_bool(v)) < 0)
			cx_error(cx, v, DIAG_wrong_type,
			    "'required' must be true or false");
		else if (m->kind == M_GLOB || is_path)
			cx_error(cx, v, DIAG_invalid_value,
			    "'required' does not apply to paths");
		else
			m->required = b;
	}
	if (m->kind == M_JSON)
		return compile_json_spec(cx, which, &m->json);
	if (which == NULL) {
		m->pats = arena_alloc(&cx->rs->arena, sizeof(*m->pats));
		return cx->errors == before ? 0 : -1;
	}
	snprintf(what, sizeof(what), "each %s item", kinds[chosen]);
	if (strlist_from(cx, which, &l, true, what) < 0)
		return -1;
	if (l.n == 0) {
		cx_error(cx, which, DIAG_empty_condition,
		    "'%s' for '%s' is an empty list", kinds[chosen], label);
		return -1;
	}
	return matcher_from_list(cx, m, &l);
}
