/*
 * Text matching: whether the subjects a condition picked (a field's text,
 * the words of a shell command) match its matcher, by regex, glob,
 * keywords, contains, equals, starts_with / ends_with, json or required.
 * On a hit it records {{match}}; required and json record {{missing}}.
 * It evaluates no condition: the conditions (eval_cond.c) call down to it.
 *
 * Case-insensitive literals (keywords, and the others with ignore_case)
 * compare the Unicode simple case folding of both sides (casefold.h), the
 * equivalence PCRE2 gives a caseless regex, so the prefilter's literal
 * scan (litscan.h), which folds the same way, never rules out a rule that
 * would match.  Every literal matcher is linear in its subject
 * (textfind.h; equals, starts_with and ends_with look at each line once).
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "casefold.h"
#include "eval_priv.h"
#include "glob.h"
#include "jsoncheck.h"
#include "match_re.h"
#include "textfind.h"

/* ---- literals ----------------------------------------------------------- */

/*
 * The folding of a subject: from the event's cache, or made now into
 * `own` (the caller releases it).  Subjects are cached, so that a
 * thousand keyword rules on one prompt fold it once; the cache is the
 * ectx's, the folded texts live in the event's arena.
 */
static const char *
folded_subject(struct ectx *cx, const char *s, size_t len, size_t *flen,
    struct buf *own)
{
	struct eval_fold	*f;
	size_t			 i;

	for (i = 0; i < cx->nfolds; i++) {
		f = &cx->folds[i];
		if (f->s == s && f->len == len) {
			*flen = f->flen;
			return f->fold;
		}
	}
	rr_fold(s, len, own);
	*flen = own->len;
	if (cx->nfolds == EVAL_FOLDS)
		return own->data;
	f = &cx->folds[cx->nfolds++];
	f->s = s;
	f->len = len;
	f->fold = arena_strndup(&cx->ev->arena, own->data, own->len);
	f->flen = own->len;
	buf_reset(own);
	return f->fold;
}

/*
 * The folding of ASCII text is its lower case (casefold.h): into out,
 * when s[0..len) is all ASCII.
 */
static bool
ascii_fold(const char *s, size_t len, char *out)
{
	size_t	i;

	for (i = 0; i < len; i++) {
		if ((unsigned char)s[i] >= 0x80)
			return false;
		out[i] = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] + 32) : s[i];
	}
	return true;
}

/*
 * equals / starts_with / ends_with: p[0..plen) against s[0..len) as a
 * whole, or per line in line mode.  Linear: each line is looked at once.
 */
static bool
line_hit(enum matcher_kind kind, bool line, const char *p, size_t plen,
    const char *s, size_t len, size_t *start, size_t *end)
{
	const char	*l = s, *eol, *stop = s + len, *at;
	size_t		 ll;

	for (;;) {
		eol = line ? memchr(l, '\n', (size_t)(stop - l)) : NULL;
		if (eol == NULL)
			eol = stop;
		ll = (size_t)(eol - l);
		if (line && ll > 0 && l[ll - 1] == '\r')
			ll--;
		if (ll >= plen && (kind != M_EQUALS || ll == plen)) {
			at = kind == M_ENDS_WITH ? l + ll - plen : l;
			if (memcmp(at, p, plen) == 0) {
				*start = (size_t)(at - s);
				*end = *start + plen;
				return true;
			}
		}
		if (eol == stop)
			return false;
		l = eol + 1;
	}
}

/*
 * A literal pattern (keywords, contains, equals, starts_with, ends_with)
 * in one subject.  With ignore_case both are folded (casefold.h) and the
 * hit is mapped back, so {{match}} is the subject's own text.
 */
static bool
literal_hit(struct ectx *cx, const struct matcher *m, bool ci,
    const struct pattern *p, const char *s, size_t len, size_t *start,
    size_t *end)
{
	struct buf	 fs, fp;
	const char	*t = s, *n = p->src;
	char		 low[128];
	size_t		 tlen = len, nlen = p->len;
	long		 at;
	bool		 hit;

	buf_init(&fs);
	buf_init(&fp);
	if (ci) {
		/* Most patterns are short ASCII: folded on the stack. */
		if (p->len <= sizeof(low) && ascii_fold(p->src, p->len, low))
			n = low;
		else {
			rr_fold(p->src, p->len, &fp);
			n = fp.data;
		}
		nlen = n == low ? p->len : fp.len;
		/* A character's folding is a third to 3/2 of its bytes. */
		if (m->kind == M_EQUALS && !m->line && len / 3 > nlen) {
			buf_release(&fp);
			return false;
		}
		t = folded_subject(cx, s, len, &tlen, &fs);
	}
	if (m->kind == M_KEYWORDS || m->kind == M_CONTAINS) {
		at = text_find(t, tlen, n, nlen, m->word);
		if ((hit = at >= 0)) {
			*start = (size_t)at;
			*end = (size_t)at + nlen;
		}
	} else
		hit = line_hit(m->kind, m->line, n, nlen, t, tlen, start, end);
	if (hit && ci) {
		*start = rr_fold_offset(s, len, *start, false);
		*end = rr_fold_offset(s, len, *end, true);
		if (*end < *start)
			*end = *start;
	}
	buf_release(&fs);
	buf_release(&fp);
	return hit;
}

/*
 * A regex, glob or JSON search that reached its limit (`what` says so),
 * written at line:col: noted on stderr, and the rule, if its file fails
 * closed, could not be decided (why: for the deny reason).
 */
static void
limit_hit(struct ectx *cx, const struct cond *c, int line, int col,
    const char *what, const char *why)
{
	struct cond	at = *c;

	at.line = line;
	at.col = col;
	eval_limit(cx, &at, what, why);
}

/*
 * Whether a condition compares ignoring case: ignore_case, or a path
 * on a file system that folds case, where .ENV is .env (reflexion-rules(5),
 * Path matching).  A regex on a path is matched as written.
 */
static bool
ignores_case(struct ectx *cx, const struct cond *c)
{
	return c->m.ignore_case || (c->kind == C_TEXT &&
	    (c->field == F_PATH || c->field == F_READ_PATH) &&
	    c->m.kind != M_REGEX && event_paths_fold_case(cx->ev));
}

/* A glob on one subject, ignoring case or not; its limit is noted. */
static bool
glob_hit(struct ectx *cx, const struct cond *c, const struct pattern *p,
    bool ci, const char *s, size_t len)
{
	enum rr_match_result	 r;
	struct buf		 own;
	const char		*f;
	size_t			 flen;

	if (ci) {
		buf_init(&own);
		f = folded_subject(cx, s, len, &flen, &own);
		r = rr_glob_test_ci(p->glob, s, len, f, flen);
		buf_release(&own);
	} else
		r = rr_glob_test(p->glob, s, len);
	if (r == RR_MATCH_LIMIT)
		limit_hit(cx, c, p->line, p->col, "glob hit its match limit",
		    "a glob hit its limit");
	return r == RR_MATCH_YES;
}

/*
 * Tests one subject against pattern pi of a matcher.  On a hit sets
 * *start and *end.  A regex or glob that hits its limit is noted.
 */
static bool
eval_pattern_hit(struct ectx *cx, const struct cond *c, size_t pi,
    const char *s, size_t len, size_t *start, size_t *end)
{
	const struct matcher	*m = &c->m;
	const struct pattern	*p = &m->pats[pi];
	enum rr_match_result	 r;

	switch (m->kind) {
	case M_REGEX:
		r = rr_regex_match(p->re, s, len, start, end);
		if (r == RR_MATCH_LIMIT)
			limit_hit(cx, c, p->line, p->col,
			    "regex hit its match limit",
			    "a regex hit its limit");
		return r == RR_MATCH_YES;
	case M_GLOB:
		*start = 0;
		*end = len;
		return glob_hit(cx, c, p, ignores_case(cx, c), s, len);
	case M_KEYWORDS:
	case M_CONTAINS:
	case M_EQUALS:
	case M_STARTS_WITH:
	case M_ENDS_WITH:
		return literal_hit(cx, m, ignores_case(cx, c), p, s, len,
		    start, end);
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

/*
 * What a json matcher says of result r (failures in fails): plain, it
 * holds when the document passes; required, when a check fails or there
 * is no document to check (unless a `where` picks it).
 */
static bool
json_verdict(struct ectx *cx, const struct cond *c, enum json_result r,
    const struct buf *fails, bool in_when)
{
	const struct json_spec	*spec = c->m.json;
	const char		*why;
	bool			 holds;

	if (r == JSON_LIMIT) {
		limit_hit(cx, c, c->line, c->col, "the json search hit its "
		    "work limit", "the json search hit its limit");
		explain(cx, "%s: json search stopped at its limit\n",
		    c->label);
		return false;
	}
	if (!c->m.required) {
		explain(cx, "%s: json %s\n", c->label, r == JSON_PASSES ?
		    "document passes every check" : r == JSON_FAILS ?
		    "document fails a check" : "document not found");
		return r == JSON_PASSES;
	}
	holds = r == JSON_FAILS || (r == JSON_NO_DOCUMENT && spec->nwhere == 0);
	why = r == JSON_FAILS ? fails->data : spec->find ?
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
	return holds;
}

static bool
eval_json(struct ectx *cx, const struct cond *c, const char *const *subjects,
    const size_t *lens, size_t n, bool in_when)
{
	enum json_result	 r = JSON_NO_DOCUMENT;
	struct json_env		 env;
	struct buf		 fails;
	cJSON			*doc;
	size_t			 k;
	bool			 holds, kept;

	buf_init(&fails);
	for (k = 0; k < n && r == JSON_NO_DOCUMENT; k++) {
		buf_reset(&fails);
		if (c->m.json->find || lens[k] > JSON_TEXT_MAX) {
			/* Each search its own: no document is kept. */
			eval_json_env(cx, &env, false);
			r = json_check_text(c->m.json, subjects[k], lens[k],
			    &fails, &env);
			continue;
		}
		/* Parsed once per event, for every rule and block. */
		doc = eval_parsed(cx, subjects[k], lens[k], &kept);
		eval_json_env(cx, &env, kept);
		r = json_check_doc(c->m.json, doc, &fails, &env);
		if (!kept)
			cJSON_Delete(doc);
	}
	holds = json_verdict(cx, c, r, &fails, in_when);
	buf_release(&fails);
	return holds;
}

bool
eval_json_doc(struct ectx *cx, const struct cond *c, const struct cJSON *doc,
    bool in_when)
{
	enum json_result	 r;
	struct json_env		 env;
	struct buf		 fails;
	bool			 holds;

	eval_json_env(cx, &env, true);
	buf_init(&fails);
	r = json_check_doc(c->m.json, doc, &fails, &env);
	holds = json_verdict(cx, c, r, &fails, in_when);
	buf_release(&fails);
	return holds;
}

/* ---- subjects ----------------------------------------------------------- */

bool
eval_match_except(struct ectx *cx, const struct cond *c,
    const char *const *subjects, const size_t *lens, size_t n, size_t *which)
{
	/* Globs of a path: folded where the file system folds case. */
	bool	ci = c->m.ignore_case || event_paths_fold_case(cx->ev);
	size_t	i, k;

	for (i = 0; i < c->m.nexcept; i++)
		for (k = 0; k < n; k++)
			if (glob_hit(cx, c, &c->m.except[i], ci, subjects[k],
			    lens[k])) {
				*which = i;
				return true;
			}
	return false;
}

/*
 * Tests the subjects of a condition (one field's text, or several words of
 * a shell command) against its matcher: any subject may match.
 */
bool
eval_match_subjects(struct ectx *cx, const struct cond *c,
    const char *const *subjects, const size_t *lens, size_t nsub,
    bool in_when, size_t *hit)
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
	if (c->m.npats == 0) {
		/* outside / except alone: every file they left in. */
		if (hit != NULL)
			*hit = 0;
		if (in_when && cx->match == NULL) {
			cx->match = subjects[0];
			cx->match_len = lens[0];
			cx->match_is_glob = true;
		}
		if (x != NULL) {
			explain(cx, "%s: any file: ", c->label);
			eval_snippet(x, subjects[0], lens[0]);
			buf_addc(x, '\n');
		}
		return true;
	}
	for (k = 0; k < nsub; k++) {
		if (!match_subject(cx, c, subjects[k], lens[k], &pi, &start,
		    &end))
			continue;
		if (hit != NULL)
			*hit = k;
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
			buf_printf(x, " at %zu..%zu%s\n", start, end,
			    c->kind == C_TEXT && (c->field == F_PATH ||
			    c->field == F_READ_PATH) &&
			    ignores_case(cx, c) ? ", case folded" : "");
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
