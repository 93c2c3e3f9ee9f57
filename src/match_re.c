#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "envflag.h"
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
	pcre2_code	*code;		/* NULL until a lazy regex is used */
	bool		 jit_tried;
	bool		 failed;	/* a lazy regex that would not compile */
	unsigned	 flags;
	/* Lazy: the pattern (borrowed) and where serialized code may be. */
	const char	*pattern;
	size_t		 len;
	struct rr_regex_source *src;
	size_t		 slot;
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
	if (re_md == NULL || re_mctx == NULL)
		out_of_memory(0);
	pcre2_set_match_limit(re_mctx, (uint32_t)re_match_limit);
	pcre2_set_depth_limit(re_mctx, RE_DEPTH_LIMIT);
	pcre2_set_heap_limit(re_mctx, RE_HEAP_LIMIT_KB);
}

#ifdef HAVE_PCRE2_JIT
/* The default 32 KB JIT stack fails on long subjects; grow to 8 MB. */
static void
re_jit_init(void)
{
	if (re_jit_stack != NULL)
		return;
	re_jit_stack = pcre2_jit_stack_create(32 * 1024, RE_JIT_STACK_MAX, NULL);
	if (re_jit_stack != NULL)
		pcre2_jit_stack_assign(re_mctx, NULL, re_jit_stack);
}
#endif

#ifdef HAVE_PCRE2_JIT
static bool
jit_disabled(void)
{
	static int	off = -1;

	if (off < 0)
		off = env_on("REFLEXION_NO_JIT");
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

static pcre2_code *
compile_code(const char *pattern, size_t len, unsigned flags, int *err,
    PCRE2_SIZE *off)
{
	uint32_t	opts = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;

	if (flags & RR_RE_IGNORE_CASE)
		opts |= PCRE2_CASELESS;
	if (flags & RR_RE_ANCHORED_FULL)
		opts |= PCRE2_ANCHORED | PCRE2_ENDANCHORED;
	return pcre2_compile((PCRE2_SPTR)pattern, len, opts, err, off, NULL);
}

struct rr_regex *
rr_regex_compile(const char *pattern, size_t len, unsigned flags,
    size_t *erroff, char *errbuf, size_t errlen)
{
	struct rr_regex	*re;
	pcre2_code	*code;
	int		 err;
	PCRE2_SIZE	 off;

	code = compile_code(pattern, len, flags, &err, &off);
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
	re->flags = flags;
	return re;
}

void
rr_regex_compile_table(const char *what, const void *table, size_t n,
    size_t row_size, struct rr_regex **out)
{
	const char	*pattern;
	char		 errbuf[128];
	size_t		 i, off;

	for (i = 0; i < n; i++) {
		pattern = *(const char *const *)((const char *)table +
		    i * row_size);
		out[i] = rr_regex_compile(pattern, strlen(pattern), 0, &off,
		    errbuf, sizeof(errbuf));
		if (out[i] == NULL)
			BUG("%s %zu: %s at offset %zu", what, i, errbuf, off);
	}
}

struct rr_regex *
rr_regex_lazy(const char *pattern, size_t len, unsigned flags,
    struct rr_regex_source *src, size_t slot)
{
	struct rr_regex	*re = xcalloc(1, sizeof(*re));

	re->flags = flags;
	re->pattern = pattern;
	re->len = len;
	re->src = src;
	re->slot = slot;
	return re;
}

unsigned
rr_regex_flags(const struct rr_regex *re)
{
	return re->flags;
}

const char *
rr_regex_pattern(const struct rr_regex *re, size_t *len)
{
	*len = re->len;
	return re->pattern;
}

/*
 * The code of a lazy regex: serialized code if its source has it, else
 * compiled from the pattern.  The regex is logically const; its code is
 * a cache filled in on first use.
 */
static pcre2_code *
resolve(struct rr_regex *re)
{
	int		err;
	PCRE2_SIZE	off;

	if (re->code != NULL || re->failed)
		return re->code;
	if (re->src != NULL)
		re->code = re->src->take(re->src, re->slot);
	if (re->code == NULL && re->pattern != NULL)
		re->code = compile_code(re->pattern, re->len, re->flags, &err,
		    &off);
	re->failed = re->code == NULL;
	return re->code;
}

enum rr_match_result
rr_regex_match(const struct rr_regex *re, const char *subject, size_t len,
    size_t *start, size_t *end)
{
	return rr_regex_match_from(re, subject, len, 0, start, end);
}

enum rr_match_result
rr_regex_match_from(const struct rr_regex *cre, const char *subject,
    size_t len, size_t from, size_t *start, size_t *end)
{
	return rr_regex_match_group(cre, subject, len, from, start, end, NULL,
	    NULL);
}

enum rr_match_result
rr_regex_match_group(const struct rr_regex *cre, const char *subject,
    size_t len, size_t from, size_t *start, size_t *end, size_t *gstart,
    size_t *gend)
{
	struct rr_regex	*re = (struct rr_regex *)cre;
	PCRE2_SIZE	*ov;
	pcre2_code	*code;
	int		 rc;

	re_init();
	if ((code = resolve(re)) == NULL)
		return RR_MATCH_LIMIT;
#ifdef HAVE_PCRE2_JIT
	/*
	 * JIT is an optimisation: the interpreter gives the same answers.
	 * REFLEXION_NO_JIT turns it off for memory checkers, which cannot
	 * follow JIT code that reads whole words past a subject's end.
	 */
	if (!re->jit_tried && len >= RR_RE_JIT_MIN && !jit_disabled()) {
		re->jit_tried = true;
		re_jit_init();
		pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
	}
#endif
	rc = pcre2_match(code, (PCRE2_SPTR)subject, len, from, 0, re_md,
	    re_mctx);
	if (rc >= 0) {
		ov = pcre2_get_ovector_pointer(re_md);
		if (start)
			*start = ov[0];
		if (end)
			*end = ov[1] >= ov[0] ? ov[1] : ov[0];
		if (gstart != NULL) {
			/* Group 1 when it took part, else the whole match. */
			if (rc >= 2 && ov[2] != PCRE2_UNSET && ov[3] >= ov[2]) {
				*gstart = ov[2];
				*gend = ov[3];
			} else {
				*gstart = ov[0];
				*gend = ov[1] >= ov[0] ? ov[1] : ov[0];
			}
		}
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

int
rr_regex_encode(struct rr_regex *const *res, size_t n, struct buf *out)
{
	const pcre2_code	**codes;
	uint8_t			 *bytes;
	PCRE2_SIZE		  blen;
	size_t			  i;
	int32_t			  rc;

	if (n == 0)
		return -1;
	codes = xcalloc(n, sizeof(*codes));
	for (i = 0; i < n; i++)
		if ((codes[i] = resolve(res[i])) == NULL) {
			free(codes);
			return -1;
		}
	rc = pcre2_serialize_encode(codes, (int32_t)n, &bytes, &blen, NULL);
	free(codes);
	if (rc < 0)
		return -1;
	buf_add(out, bytes, blen);
	pcre2_serialize_free(bytes);
	return 0;
}

int
rr_regex_decode(const void *bytes, size_t len, size_t n, void **out)
{
	pcre2_code	**codes;
	int32_t		  rc;
	size_t		  i;

	/* The serialized header alone is larger than this. */
	if (len < 64 || n == 0 || n > INT32_MAX ||
	    pcre2_serialize_get_number_of_codes(bytes) != (int32_t)n)
		return -1;
	codes = xcalloc(n, sizeof(*codes));
	rc = pcre2_serialize_decode(codes, (int32_t)n, bytes, NULL);
	if (rc != (int32_t)n) {
		for (i = 0; rc > 0 && i < (size_t)rc; i++)
			pcre2_code_free(codes[i]);
		free(codes);
		return -1;
	}
	for (i = 0; i < n; i++)
		out[i] = codes[i];
	free(codes);
	return 0;
}

void
rr_regex_code_free(void *code)
{
	pcre2_code_free(code);
}

bool
rr_regex_jit_built(void)
{
#ifdef HAVE_PCRE2_JIT
	return true;
#else
	return false;
#endif
}

const char *
rr_regex_version(void)
{
#ifdef RR_PCRE2_STATIC
	/*
	 * Linked in, the library is the one these headers describe: its
	 * version spelled as pcre2_config() spells it, without calling into
	 * PCRE2, whose code lies far from the hook's (every hook names the
	 * version in its cache key).  tests/unit/test_cache.c compares.
	 */
#define RR_STR_(x)	#x
#define RR_STR(x)	RR_STR_(x)
	return RR_STR(PCRE2_MAJOR) "." RR_STR(PCRE2_MINOR) RR_STR(PCRE2_PRERELEASE)
	    " " RR_STR(PCRE2_DATE);
#else
	static char	v[64];

	if (v[0] == '\0' && pcre2_config(PCRE2_CONFIG_VERSION, v) < 0)
		snprintf(v, sizeof(v), "unknown");
	return v;
#endif
}
