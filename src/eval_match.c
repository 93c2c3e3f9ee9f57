/*
 * Text matching: whether the subjects a condition picked (a field's text,
 * the words of a shell command) match its matcher, by regex, glob,
 * keywords, contains, equals, starts_with / ends_with, json or required.
 * On a hit it records {{match}}; required and json record {{missing}}.
 * It evaluates no condition: the conditions (eval_cond.c) call down to it.
 */
#include <stdlib.h>
#include <string.h>

#include "eval_priv.h"
#include "glob.h"
#include "jsoncheck.h"
#include "match_re.h"

/* ---- patterns ----------------------------------------------------------- */

static inline unsigned char
lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static bool
is_word_byte(unsigned char c)
{
	/* Bytes of non-ASCII letters count as word bytes, as \w does in UCP. */
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

/* Finds needle in hay (ASCII case folding if ci); returns offset or -1. */
long
eval_find_text(const char *hay, size_t hlen, const char *needle,
    size_t nlen, bool ci, bool word)
{
	const unsigned char	*h = (const unsigned char *)hay;
	const unsigned char	*n = (const unsigned char *)needle;
	size_t			 i, j;

	if (nlen == 0)
		return word ? -1 : 0;
	if (nlen > hlen)
		return -1;
	for (i = 0; i + nlen <= hlen; i++) {
		if (ci) {
			if (lower(h[i]) != lower(n[0]))
				continue;
			for (j = 1; j < nlen; j++)
				if (lower(h[i + j]) != lower(n[j]))
					break;
		} else {
			if (h[i] != n[0])
				continue;
			j = memcmp(h + i, n, nlen) == 0 ? nlen : 0;
		}
		if (j != nlen)
			continue;
		if (word && ((i > 0 && is_word_byte(h[i - 1]) &&
		    is_word_byte(n[0])) || (i + nlen < hlen &&
		    is_word_byte(h[i + nlen]) && is_word_byte(n[nlen - 1]))))
			continue;
		return (long)i;
	}
	return -1;
}

static bool
equals_text(const char *a, size_t alen, const char *b, size_t blen, bool ci)
{
	size_t	i;

	if (alen != blen)
		return false;
	if (!ci)
		return memcmp(a, b, alen) == 0;
	for (i = 0; i < alen; i++)
		if (lower((unsigned char)a[i]) != lower((unsigned char)b[i]))
			return false;
	return true;
}

/* Finds p in s per line (line mode of equals/starts_with/ends_with). */
static bool
literal_hit(const struct matcher *m, const struct pattern *p, const char *s,
    size_t len, size_t *start, size_t *end)
{
	const char	*l = s, *eol, *stop = s + len;
	size_t		 ll;

	for (;;) {
		eol = m->line ? memchr(l, '\n', (size_t)(stop - l)) : NULL;
		if (eol == NULL)
			eol = stop;
		ll = (size_t)(eol - l);
		if (m->line && ll > 0 && l[ll - 1] == '\r')
			ll--;
		if (ll >= p->len && ((m->kind == M_EQUALS && ll == p->len) ||
		    m->kind == M_STARTS_WITH || m->kind == M_ENDS_WITH)) {
			const char *at = m->kind == M_ENDS_WITH ?
			    l + ll - p->len : l;
			if (equals_text(at, p->len, p->src, p->len,
			    m->ignore_case)) {
				*start = (size_t)(at - s);
				*end = *start + p->len;
				return true;
			}
		}
		if (eol == stop)
			return false;
		l = eol + 1;
	}
}

/*
 * Tests one subject against pattern pi of a matcher.  On a hit sets
 * *start and *end.  A regex that hits its limit is noted on stderr.
 */
static bool
eval_pattern_hit(struct ectx *cx, const struct cond *c, size_t pi,
    const char *s, size_t len, size_t *start, size_t *end)
{
	const struct matcher	*m = &c->m;
	const struct pattern	*p = &m->pats[pi];
	enum rr_match_result	 r;
	long			 at;

	switch (m->kind) {
	case M_REGEX:
		r = rr_regex_match(p->re, s, len, start, end);
		if (r == RR_MATCH_LIMIT) {
			buf_printf(&cx->out->notes,
			    "reflexion-rules: %s:%d:%d: rule '%s': regex "
			    "hit its match limit on %s; counted as no "
			    "match\n", cx->rule->file, p->line, p->col,
			    cx->rule->id, c->label);
			if (cx->rule->fail_closed && cx->out->undecided == NULL)
				cx->out->undecided = cx->rule;
		}
		return r == RR_MATCH_YES;
	case M_GLOB:
		*start = 0;
		*end = len;
		return rr_glob_match(p->glob, s, len);
	case M_KEYWORDS:
	case M_CONTAINS:
		at = eval_find_text(s, len, p->src, p->len, m->ignore_case,
		    m->word);
		if (at < 0)
			return false;
		*start = (size_t)at;
		*end = (size_t)at + p->len;
		return true;
	case M_EQUALS:
	case M_STARTS_WITH:
	case M_ENDS_WITH:
		return literal_hit(m, p, s, len, start, end);
	case M_JSON:
		return false;	/* matched as a whole by eval_json() */
	}
	return false;
}

/*
 * Tests one subject against a matcher.  On a hit sets *start, *end and the
 * pattern index.
 */
static bool
match_subject(struct ectx *cx, const struct cond *c, const char *s,
    size_t len, size_t *pi, size_t *start, size_t *end)
{
	size_t	i;

	for (i = 0; i < c->m.npats; i++)
		if (eval_pattern_hit(cx, c, i, s, len, start, end)) {
			*pi = i;
			return true;
		}
	return false;
}

static const char *
matcher_name(enum matcher_kind k)
{
	switch (k) {
	case M_REGEX:	 return "regex";
	case M_KEYWORDS: return "keyword";
	case M_CONTAINS: return "contains";
	case M_EQUALS:	 return "equals";
	case M_GLOB:	 return "glob";
	case M_STARTS_WITH: return "starts_with";
	case M_ENDS_WITH: return "ends_with";
	case M_JSON:	 return "json";
	}
	return "pattern";
}

/* ---- required, json ----------------------------------------------------- */

static bool
eval_required(struct ectx *cx, const struct cond *c,
    const char *const *subjects, const size_t *lens, size_t n, bool in_when)
{
	const struct matcher	*m = &c->m;
	struct buf		 items;
	size_t			 i, k, start, end, nmissing = 0;
	bool			 found;

	buf_init(&items);
	for (i = 0; i < m->npats; i++) {
		for (found = false, k = 0; k < n && !found; k++)
			found = eval_pattern_hit(cx, c, i, subjects[k], lens[k],
			    &start, &end);
		if (found)
			continue;
		if (items.len)
			buf_adds(&items, ", ");
		buf_add(&items, m->pats[i].src, m->pats[i].len);
		nmissing++;
	}
	if (nmissing == 0)
		explain(cx, "%s: all %zu required found\n", c->label,
		    m->npats);
	else {
		explain(cx, "%s: %zu of %zu required missing: %s\n", c->label,
		    nmissing, m->npats, items.data);
		if (in_when)
			eval_add_missing(cx, items.data, items.len);
	}
	buf_release(&items);
	return nmissing > 0;
}

static bool
eval_json(struct ectx *cx, const struct cond *c, const char *const *subjects,
    const size_t *lens, size_t n, bool in_when)
{
	const struct json_spec	*spec = c->m.json;
	enum json_result	 r = JSON_NO_DOCUMENT;
	struct buf		 fails;
	const char		*why;
	size_t			 k;
	bool			 holds;

	buf_init(&fails);
	for (k = 0; k < n && r == JSON_NO_DOCUMENT; k++) {
		buf_reset(&fails);
		r = json_check_text(spec, subjects[k], lens[k], &fails);
	}
	if (!c->m.required) {
		holds = r == JSON_PASSES;
		explain(cx, "%s: json %s\n", c->label, r == JSON_PASSES ?
		    "document passes every check" : r == JSON_FAILS ?
		    "document fails a check" : "document not found");
		buf_release(&fails);
		return holds;
	}
	/* required: a check fails, or there is no document to check. */
	holds = r == JSON_FAILS || (r == JSON_NO_DOCUMENT && spec->nwhere == 0);
	why = r == JSON_FAILS ? fails.data : spec->find ?
	    "no JSON document" : "not valid JSON";
	if (!holds)
		explain(cx, "%s: json %s\n", c->label, r == JSON_PASSES ?
		    "document passes every check" :
		    "document not found (nothing to check)");
	else {
		explain(cx, "%s: json required: %s\n", c->label, why);
		if (in_when)
			eval_add_missing(cx, why, strlen(why));
	}
	buf_release(&fails);
	return holds;
}

/* ---- subjects ----------------------------------------------------------- */

/*
 * Tests the subjects of a condition (one field's text, or several words of
 * a shell command) against its matcher: any subject may match.
 */
bool
eval_match_subjects(struct ectx *cx, const struct cond *c,
    const char *const *subjects, const size_t *lens, size_t nsub,
    bool in_when)
{
	size_t		 k, pi = 0, start = 0, end = 0;
	struct buf	*x = cx->opts->explain;

	if (nsub == 0) {
		explain(cx, "%s: no such field in this event\n", c->label);
		return false;
	}
	if (c->m.kind == M_JSON)
		return eval_json(cx, c, subjects, lens, nsub, in_when);
	if (c->m.required)
		return eval_required(cx, c, subjects, lens, nsub, in_when);
	for (k = 0; k < nsub; k++) {
		if (!match_subject(cx, c, subjects[k], lens[k], &pi, &start,
		    &end))
			continue;
		/*
		 * {{match}} is the first text a pattern found; a glob's whole
		 * path counts only until a finer match comes along.
		 */
		if (in_when && (cx->match == NULL || (cx->match_is_glob &&
		    c->m.kind != M_GLOB))) {
			cx->match = subjects[k] + start;
			cx->match_len = end - start;
			cx->match_is_glob = c->m.kind == M_GLOB;
		}
		if (x != NULL) {
			explain(cx, "%s: %s ", c->label,
			    matcher_name(c->m.kind));
			eval_snippet(x, c->m.pats[pi].src, c->m.pats[pi].len);
			buf_adds(x, " matched ");
			eval_snippet(x, subjects[k] + start, end - start);
			buf_printf(x, " at %zu..%zu\n", start, end);
		}
		return true;
	}
	if (x != NULL) {
		explain(cx, "%s: no %s of %zu matched ", c->label,
		    matcher_name(c->m.kind), c->m.npats);
		eval_snippet(x, subjects[0], lens[0]);
		if (nsub > 1)
			buf_printf(x, " (nor %zu more)", nsub - 1);
		buf_addc(x, '\n');
	}
	return false;
}
