/*
 * Globs to PCRE2 (see glob.h for the syntax).  Translating instead of
 * expanding keeps {a,b} groups linear: a glob with thousands of braces is a
 * regex with thousands of alternations, not an exponential list of strings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casefold.h"
#include "glob.h"
#include "jsonw.h"
#include "match_re.h"
#include "xmalloc.h"

#define GLOB_RANGE_MAX		10000
#define GLOB_BRACE_DEPTH	64

struct rr_glob {
	struct rr_regex	*re;
	struct rr_regex	*re_ci;		/* caseless twin, or NULL (glob.h) */
	bool		 basename_only;
};

/* "**" + "/" as a regex: any directories, or none. */
#define GLOB_ANY_DIRS	"(?:[^/]*/)*"
/* The most of a regex's leading literal text literal_start_fits() reads. */
#define GLOB_LEAD_MAX	128

/*
 * The characters lit() escapes: those a regex takes as literal only
 * escaped.  A switch, not strchr() per byte: literal_start_fits() reads
 * regexes with it on every glob test.
 */
static inline bool
re_special(char c)
{
	switch (c) {
	case '\\': case '^': case '$': case '.': case '|': case '?':
	case '*': case '+': case '(': case ')': case '[': case ']':
	case '{': case '}': case '#':
		return true;
	default:
		return false;
	}
}

/* Appends c as a literal regex character. */
static void
lit(struct buf *out, char c)
{
	/* NUL too (as strchr() found it), for a pattern with one. */
	if (c == '\0' || re_special(c))
		buf_addc(out, '\\');
	buf_addc(out, c);
}

/* Index of the ']' closing the class that opens at g[i], or 0. */
static size_t
class_end(const char *g, size_t len, size_t i)
{
	size_t		 j = i + 1;
	const char	*e;

	if (j < len && (g[j] == '!' || g[j] == '^'))
		j++;
	if (j < len && g[j] == ']')
		j++;
	for (; j < len; j++) {
		if (g[j] == '\\' && j + 1 < len) {
			j++;
			continue;
		}
		if (g[j] == '[' && j + 1 < len && g[j + 1] == ':' &&
		    (e = memmem(g + j + 2, len - j - 2, ":]", 2)) != NULL) {
			j = (size_t)(e - g) + 1;
			continue;
		}
		if (g[j] == ']')
			return j;
	}
	return 0;
}

/* A class never matches '/', negated or not (minimatch). */
static void
emit_class(struct buf *out, const char *g, size_t i, size_t end)
{
	const char	*e;
	size_t		 j = i + 1;

	if (g[j] == '!' || g[j] == '^') {
		buf_adds(out, "[^/");
		j++;
	} else
		buf_adds(out, "(?!/)[");
	if (g[j] == ']') {
		buf_adds(out, "\\]");
		j++;
	}
	for (; j < end; j++) {
		if (g[j] == '\\' && j + 1 < end) {
			buf_addc(out, '\\');
			buf_addc(out, g[++j]);
			continue;
		}
		if (g[j] == '[' && j + 1 < end && g[j + 1] == ':' &&
		    (e = memmem(g + j + 2, end - j - 2, ":]", 2)) != NULL) {
			buf_add(out, g + j, (size_t)(e - g) + 2 - j);
			j = (size_t)(e - g) + 1;
			continue;
		}
		if (g[j] == '[' || g[j] == ']')
			buf_addc(out, '\\');
		buf_addc(out, g[j]);
	}
	buf_addc(out, ']');
}

/*
 * Looks at the brace group opening at g[i]: sets *close to its matching
 * '}' and *commas to whether it has a top-level ','.  Returns -1 when it
 * is never closed.
 */
static int
brace_scan(const char *g, size_t len, size_t i, size_t *close, bool *commas)
{
	size_t	j, depth = 0, ce;

	*commas = false;
	for (j = i; j < len; j++) {
		if (g[j] == '\\' && j + 1 < len) {
			j++;
			continue;
		}
		if (g[j] == '[' && (ce = class_end(g, len, j)) != 0) {
			j = ce;
			continue;
		}
		if (g[j] == '{')
			depth++;
		else if (g[j] == '}') {
			if (--depth == 0) {
				*close = j;
				return 0;
			}
		} else if (g[j] == ',' && depth == 1)
			*commas = true;
	}
	return -1;
}

static bool
parse_int(const char *s, size_t n, long *v)
{
	size_t	i = 0;
	long	x = 0;
	int	neg = 0;

	if (n > 0 && s[0] == '-') {
		neg = 1;
		i = 1;
	}
	if (i >= n || n - i > 9)
		return false;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		x = x * 10 + (s[i] - '0');
	}
	*v = neg ? -x : x;
	return true;
}

/*
 * {a..b}: numeric (optionally zero-padded) or single-letter ranges.
 * Returns 1 if emitted, 0 if the body is no range, -1 if too large.
 */
static int
emit_range(struct buf *out, const char *body, size_t n)
{
	const char	*dots = memmem(body, n, "..", 2);
	size_t		 la, lb, width = 0;
	long		 a, b, k, step;
	char		 num[32];

	if (dots == NULL)
		return 0;
	la = (size_t)(dots - body);
	lb = n - la - 2;
	if (la == 1 && lb == 1 && !(body[0] >= '0' && body[0] <= '9')) {
		a = (unsigned char)body[0];
		b = (unsigned char)dots[2];
		if (!((a >= 'a' && a <= 'z' && b >= 'a' && b <= 'z') ||
		    (a >= 'A' && a <= 'Z' && b >= 'A' && b <= 'Z')))
			return 0;
		step = a <= b ? 1 : -1;
		buf_adds(out, "(?:");
		for (k = a;; k += step) {
			lit(out, (char)k);
			if (k == b)
				break;
			buf_addc(out, '|');
		}
		buf_addc(out, ')');
		return 1;
	}
	if (!parse_int(body, la, &a) || !parse_int(dots + 2, lb, &b))
		return 0;
	if ((la > 1 && body[body[0] == '-'] == '0') ||
	    (lb > 1 && dots[2 + (dots[2] == '-')] == '0'))
		width = la > lb ? la : lb;
	if ((a > b ? a - b : b - a) >= GLOB_RANGE_MAX)
		return -1;
	step = a <= b ? 1 : -1;
	buf_adds(out, "(?:");
	for (k = a;; k += step) {
		snprintf(num, sizeof(num), "%0*ld", (int)width, k);
		buf_adds(out, num);
		if (k == b)
			break;
		buf_addc(out, '|');
	}
	buf_addc(out, ')');
	return 1;
}

static bool
seg_start(const char *g, size_t i, size_t start)
{
	return i == start || g[i - 1] == '/' || g[i - 1] == '{' ||
	    g[i - 1] == ',';
}

int
glob_to_regex(const char *glob, size_t len, struct buf *out,
    bool *basename_only, const char **errmsg, size_t *erroff)
{
	const char	*g = glob;
	size_t		 i, start = 0, close, ce, u;
	size_t		 closes[GLOB_BRACE_DEPTH], depth = 0;
	bool		 commas;
	int		 r;

	/* Check UTF-8 first: PCRE2 in UTF mode would reject it obscurely. */
	for (i = 0; i < len; i += u) {
		u = utf8_seqlen((const unsigned char *)g + i, len - i);
		if (u == 0) {
			*errmsg = "glob is not valid UTF-8";
			*erroff = i;
			return -1;
		}
	}
	if (len >= 2 && g[0] == '.' && g[1] == '/')
		start = 2;
	/*
	 * "**" + "/" + a rest with neither '/' nor "**": whatever the
	 * segments before it, the rest must match the basename (it cannot
	 * match a '/'), so it is matched there alone.  The same answer
	 * without a backtracking point per segment: a path of a million
	 * segments is one basename to look at, not a match limit to reach.
	 */
	if (len - start > 3 && memcmp(g + start, "**/", 3) == 0 &&
	    memchr(g + start + 3, '/', len - start - 3) == NULL &&
	    memmem(g + start + 3, len - start - 3, "**", 2) == NULL)
		start += 3;
	*basename_only = memchr(g + start, '/', len - start) == NULL;
	for (i = start; i < len; i++) {
		switch (g[i]) {
		case '\\':
			if (i + 1 >= len) {
				*errmsg = "trailing backslash";
				*erroff = i;
				return -1;
			}
			lit(out, g[++i]);
			break;
		case '*':
			if (i + 1 < len && g[i + 1] == '*' &&
			    seg_start(g, i, start) && (i + 2 == len ||
			    g[i + 2] == '/' || g[i + 2] == '}' ||
			    g[i + 2] == ',')) {
				if (i + 2 < len && g[i + 2] == '/') {
					buf_adds(out, GLOB_ANY_DIRS);
					i += 2;
				} else {
					buf_adds(out, ".*");
					i++;
				}
				break;
			}
			while (i + 1 < len && g[i + 1] == '*')
				i++;
			buf_adds(out, "[^/]*");
			break;
		case '?':
			buf_adds(out, "[^/]");
			break;
		case '[':
			if ((ce = class_end(g, len, i)) == 0) {
				*errmsg = "unterminated character class";
				*erroff = i;
				return -1;
			}
			emit_class(out, g, i, ce);
			i = ce;
			break;
		case '{':
			if (brace_scan(g, len, i, &close, &commas) < 0) {
				*errmsg = "unterminated brace";
				*erroff = i;
				return -1;
			}
			if (!commas) {
				r = emit_range(out, g + i + 1, close - i - 1);
				if (r < 0) {
					*errmsg = "numeric range too large";
					*erroff = i;
					return -1;
				}
				if (r > 0)
					i = close;
				else
					lit(out, '{');	/* {a} is literal */
				break;
			}
			if (depth == GLOB_BRACE_DEPTH) {
				*errmsg = "braces nest too deep";
				*erroff = i;
				return -1;
			}
			closes[depth++] = close;
			buf_adds(out, "(?:");
			break;
		case ',':
			if (depth > 0)
				buf_addc(out, '|');
			else
				lit(out, ',');
			break;
		case '}':
			if (depth > 0 && closes[depth - 1] == i) {
				depth--;
				buf_addc(out, ')');
			} else
				lit(out, '}');
			break;
		default:
			lit(out, g[i]);
			break;
		}
	}
	return 0;
}

/*
 * Whether matching the glob against a folded path is matching it
 * ignoring case: its folding is itself, and it names no character class
 * ('[:upper:]' would never meet an upper-case letter there).
 */
static bool
folds_to_itself(const char *glob, size_t len)
{
	struct buf	f;
	bool		same;

	if (memmem(glob, len, "[:", 2) != NULL)
		return false;
	buf_init(&f);
	rr_fold(glob, len, &f);
	same = f.len == len && memcmp(f.data, glob, len) == 0;
	buf_release(&f);
	return same;
}

struct rr_glob *
rr_glob_compile(const char *glob, size_t len, const char **errmsg,
    size_t *erroff)
{
	struct rr_glob	*gl;
	struct rr_regex	*re, *re_ci = NULL;
	struct buf	 b;
	bool		 base;
	char		 err[128];
	size_t		 off;

	buf_init(&b);
	if (glob_to_regex(glob, len, &b, &base, errmsg, erroff) < 0) {
		buf_release(&b);
		return NULL;
	}
	re = rr_regex_compile(b.data, b.len, RR_RE_ANCHORED_FULL, &off, err,
	    sizeof(err));
	if (re != NULL && !folds_to_itself(glob, len) &&
	    (re_ci = rr_regex_compile(b.data, b.len, RR_RE_ANCHORED_FULL |
	    RR_RE_IGNORE_CASE, &off, err, sizeof(err))) == NULL) {
		rr_regex_free(re);
		re = NULL;
	}
	buf_release(&b);
	if (re == NULL) {
		*errmsg = "glob too complex";
		*erroff = 0;
		return NULL;
	}
	gl = xcalloc(1, sizeof(*gl));
	gl->re = re;
	gl->re_ci = re_ci;
	gl->basename_only = base;
	return gl;
}

/*
 * Whether the subject can match a glob's regex (glob_to_regex()'s,
 * anchored, case-sensitive) by the literal text it starts with: the subject
 * must begin with it, or, after a leading "**" + "/", contain it.  Such a
 * regex has no '|' outside a group and no quantifier right after a
 * literal, so its leading literals (escaped punctuation included) are
 * required as they stand; the scan stops at anything else.  False says
 * it cannot match.  Why: most globs a path meets name places it is not in
 * (system folders, package caches), and this answers them without
 * decoding their code from the cache, or running it.
 */
static bool
literal_start_fits(const char *re, size_t relen, const char *s, size_t len)
{
	char	lead[GLOB_LEAD_MAX];
	size_t	i = 0, n = 0;
	bool	anywhere = false;
	char	c;

	if (relen >= sizeof(GLOB_ANY_DIRS) - 1 &&
	    memcmp(re, GLOB_ANY_DIRS, sizeof(GLOB_ANY_DIRS) - 1) == 0) {
		anywhere = true;
		i = sizeof(GLOB_ANY_DIRS) - 1;
	}
	while (i < relen && n < sizeof(lead)) {
		c = re[i];
		if (c == '\\') {
			/* What lit() escapes; any other escape is a class. */
			if (i + 1 >= relen || !re_special(re[i + 1]))
				break;
			c = re[i + 1];
			i += 2;
		} else if (c == '\0' || re_special(c))
			break;
		else
			i++;
		/* A quantifier would make it optional: none in a glob's. */
		if (i < relen && (re[i] == '?' || re[i] == '*' ||
		    re[i] == '+' || re[i] == '{'))
			break;
		lead[n++] = c;
	}
	if (n == 0)
		return true;
	if (anywhere)
		return memmem(s, len, lead, n) != NULL;
	return len >= n && memcmp(s, lead, n) == 0;
}

static enum rr_match_result
test_with(const struct rr_glob *gl, const struct rr_regex *re,
    const char *path, size_t len)
{
	const char	*slash, *pat;
	size_t		 plen;

	if (gl->basename_only &&
	    (slash = memrchr(path, '/', len)) != NULL) {
		len -= (size_t)(slash + 1 - path);
		path = slash + 1;
	}
	if ((rr_regex_flags(re) & (RR_RE_ANCHORED_FULL | RR_RE_IGNORE_CASE)) ==
	    RR_RE_ANCHORED_FULL && (pat = rr_regex_pattern(re, &plen)) != NULL &&
	    !literal_start_fits(pat, plen, path, len))
		return RR_MATCH_NO;
	return rr_regex_match(re, path, len, NULL, NULL);
}

enum rr_match_result
rr_glob_test(const struct rr_glob *gl, const char *path, size_t len)
{
	return test_with(gl, gl->re, path, len);
}

enum rr_match_result
rr_glob_test_ci(const struct rr_glob *gl, const char *path, size_t len,
    const char *folded, size_t flen)
{
	/* Folding keeps every '/', so the basename is the folded one. */
	if (gl->re_ci != NULL)
		return test_with(gl, gl->re_ci, path, len);
	return test_with(gl, gl->re, folded, flen);
}

bool
rr_glob_match(const struct rr_glob *gl, const char *path, size_t len)
{
	return rr_glob_test(gl, path, len) == RR_MATCH_YES;
}

struct rr_glob *
rr_glob_wrap(struct rr_regex *re, struct rr_regex *ci, bool basename_only)
{
	struct rr_glob	*gl = xcalloc(1, sizeof(*gl));

	gl->re = re;
	gl->re_ci = ci;
	gl->basename_only = basename_only;
	return gl;
}

const struct rr_regex *
rr_glob_regex(const struct rr_glob *gl)
{
	return gl->re;
}

const struct rr_regex *
rr_glob_regex_ci(const struct rr_glob *gl)
{
	return gl->re_ci;
}

bool
rr_glob_basename_only(const struct rr_glob *gl)
{
	return gl->basename_only;
}

void
rr_glob_free(struct rr_glob *gl)
{
	if (gl == NULL)
		return;
	rr_regex_free(gl->re);
	rr_regex_free(gl->re_ci);
	free(gl);
}
