#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"
#include "match_re.h"
#include "xmalloc.h"

/*
 * 1M backtracking steps is far more than any sane rule needs on a
 * 10 MB file and, JIT or not, returns in well under a second.
 */
#define RE_MATCH_LIMIT_DEFAULT	1000000UL
/*
 * Memory is bounded by the heap limit (interpreter) and the JIT stack;
 * the depth limit only stops pathological nesting, not long subjects.
 */
#define RE_DEPTH_LIMIT		1000000U
#define RE_HEAP_LIMIT_KB	(64U * 1024U)
#define RE_JIT_STACK_MAX	(8U * 1024U * 1024U)

struct rr_regex {
	pcre2_code	*code;
	bool		 jit;
};

static pcre2_match_data		*re_md;
static pcre2_match_context	*re_mctx;
#ifdef HAVE_PCRE2_JIT
static pcre2_jit_stack		*re_jit_stack;
#endif
static unsigned long		 re_match_limit = RE_MATCH_LIMIT_DEFAULT;

static void
re_init(void)
{
	if (re_md != NULL)
		return;
	re_md = pcre2_match_data_create(32, NULL);
	re_mctx = pcre2_match_context_create(NULL);
	if (re_md == NULL || re_mctx == NULL) {
		fprintf(stderr, "reflexion-rules: cannot allocate PCRE2 match data\n");
		abort();
	}
	pcre2_set_match_limit(re_mctx, (uint32_t)re_match_limit);
	pcre2_set_depth_limit(re_mctx, RE_DEPTH_LIMIT);
	pcre2_set_heap_limit(re_mctx, RE_HEAP_LIMIT_KB);
#ifdef HAVE_PCRE2_JIT
	/* The default 32 KB JIT stack fails on long subjects; grow to 8 MB. */
	re_jit_stack = pcre2_jit_stack_create(32 * 1024, RE_JIT_STACK_MAX, NULL);
	if (re_jit_stack != NULL)
		pcre2_jit_stack_assign(re_mctx, NULL, re_jit_stack);
#endif
}

#ifdef HAVE_PCRE2_JIT
static bool
jit_disabled(void)
{
	static int	off = -1;
	const char	*v;

	if (off < 0) {
		v = getenv("REFLEXION_NO_JIT");
		off = v != NULL && *v != '\0' && strcmp(v, "0") != 0;
	}
	return off;
}
#endif

void
rr_regex_set_match_limit(unsigned long limit)
{
	re_match_limit = limit;
	if (re_mctx != NULL)
		pcre2_set_match_limit(re_mctx, (uint32_t)limit);
}

struct rr_regex *
rr_regex_compile(const char *pattern, size_t len, unsigned flags,
    size_t *erroff, char *errbuf, size_t errlen)
{
	struct rr_regex	*re;
	pcre2_code	*code;
	uint32_t	 opts = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
	int		 err;
	PCRE2_SIZE	 off;

	if (flags & RR_RE_IGNORE_CASE)
		opts |= PCRE2_CASELESS;
	if (flags & RR_RE_ANCHORED_FULL)
		opts |= PCRE2_ANCHORED | PCRE2_ENDANCHORED;
	code = pcre2_compile((PCRE2_SPTR)pattern, len, opts, &err, &off, NULL);
	if (code == NULL) {
		if (erroff)
			*erroff = off;
		if (errbuf && errlen) {
			pcre2_get_error_message(err, (PCRE2_UCHAR *)errbuf,
			    errlen);
		}
		return NULL;
	}
	re = xcalloc(1, sizeof(*re));
	re->code = code;
#ifdef HAVE_PCRE2_JIT
	/*
	 * JIT is an optimisation: the interpreter gives the same answers.
	 * REFLEXION_NO_JIT turns it off for memory checkers, which cannot
	 * follow JIT code that reads whole words past a subject's end.
	 */
	if (!jit_disabled())
		re->jit = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
#endif
	return re;
}

enum rr_match_result
rr_regex_match(const struct rr_regex *re, const char *subject, size_t len,
    size_t *start, size_t *end)
{
	return rr_regex_match_from(re, subject, len, 0, start, end);
}

enum rr_match_result
rr_regex_match_from(const struct rr_regex *re, const char *subject,
    size_t len, size_t from, size_t *start, size_t *end)
{
	PCRE2_SIZE	*ov;
	int		 rc;

	re_init();
	rc = pcre2_match(re->code, (PCRE2_SPTR)subject, len, from, 0, re_md,
	    re_mctx);
	if (rc >= 0) {
		ov = pcre2_get_ovector_pointer(re_md);
		if (start)
			*start = ov[0];
		if (end)
			*end = ov[1] >= ov[0] ? ov[1] : ov[0];
		return RR_MATCH_YES;
	}
	if (rc == PCRE2_ERROR_NOMATCH || rc == PCRE2_ERROR_PARTIAL)
		return RR_MATCH_NO;
	/* Match, depth, heap and JIT stack limits, and anything else odd. */
	return RR_MATCH_LIMIT;
}

long
rr_regex_replace_all(const struct rr_regex *re, const char *s, size_t len,
    const char *repl, struct buf *out)
{
	enum rr_match_result	 r;
	size_t			 pos = 0, copied = 0, st, en, step;
	long			 n = 0;

	while (pos <= len) {
		r = rr_regex_match_from(re, s, len, pos, &st, &en);
		if (r == RR_MATCH_NO)
			break;
		if (r == RR_MATCH_LIMIT) {
			buf_add(out, s + copied, len - copied);
			return -1;
		}
		if (st < copied)
			st = copied;
		if (en < st)
			en = st;
		buf_add(out, s + copied, st - copied);
		buf_adds(out, repl);
		copied = en;
		n++;
		if (en > st) {
			pos = en;
			continue;
		}
		/* An empty match: step over one character and go on. */
		if (en >= len)
			break;
		step = utf8_seqlen((const unsigned char *)s + en, len - en);
		if (step == 0)
			step = 1;
		buf_add(out, s + en, step);
		copied = pos = en + step;
	}
	buf_add(out, s + copied, len - copied);
	return n;
}

void
rr_regex_free(struct rr_regex *re)
{
	if (re == NULL)
		return;
	pcre2_code_free(re->code);
	free(re);
}

const char *
rr_regex_version(void)
{
	static char	v[64];

	if (v[0] == '\0' && pcre2_config(PCRE2_CONFIG_VERSION, v) < 0)
		snprintf(v, sizeof(v), "unknown");
	return v;
}
