/*
 * PCRE2 behind a small interface, with the limits that make a regex safe on
 * the hot path: JIT where available, and match/depth/heap limits so that a
 * pattern that backtracks catastrophically returns "limit hit" instead of
 * hanging the hook.  Subjects may be invalid UTF-8 (PCRE2_MATCH_INVALID_UTF).
 *
 * A struct rr_regex owns its pcre2_code; rr_regex_free() releases it.
 * Match data and the match context are process-wide and reused.
 *
 * JIT compilation is lazy: a pattern is JIT-compiled the first time it
 * meets a subject of RR_RE_JIT_MIN bytes or more; shorter subjects use
 * the interpreter.  Both give the same answers; only the point where a
 * pathological pattern hits its match limit differs, and the choice
 * depends on the subject alone, never on where the pattern came from.
 *
 * The threshold is low because the interpreter is not linear where the
 * JIT is: a pattern that starts with an unbounded repeat ('\s+$' on a
 * run of blanks, '\w+@' on a long word) is retried at every start, each
 * retry running to the end of the run, and the match limit counts per
 * start, so it never stops that: 8 KB of blanks took 0.4 s, 16 KB 1.7 s.
 * The JIT skips such runs.  At 512 bytes the interpreter's worst case is
 * about 2 ms, and a JIT compilation (10 to 50 us) is paid only by the
 * patterns that meet a longer subject.  Without JIT (REFLEXION_NO_JIT,
 * or a PCRE2 without it) such patterns stay quadratic in the run; the
 * hook's deadline bounds them.
 *
 * A regex may also be created lazy (rr_regex_lazy): its code comes from
 * an rr_regex_source (the compiled cache's serialized patterns) or, if
 * that fails, from compiling its source, the first time it is matched.
 */
#ifndef RR_MATCH_RE_H
#define RR_MATCH_RE_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

struct rr_regex;

#define RR_RE_JIT_MIN	512u

enum rr_regex_flags {
	RR_RE_IGNORE_CASE = 1 << 0,
	RR_RE_ANCHORED_FULL = 1 << 1	/* must match the whole subject */
};

enum rr_match_result {
	RR_MATCH_LIMIT = -1,	/* hit a limit: counts as no match, reported */
	RR_MATCH_NO = 0,
	RR_MATCH_YES = 1
};

/*
 * Compiles pattern[0..len).  On error returns NULL, sets *erroff to the byte
 * offset inside the pattern and writes PCRE2's message to errbuf.
 */
struct rr_regex *rr_regex_compile(const char *pattern, size_t len,
	     unsigned flags, size_t *erroff, char *errbuf, size_t errlen);
/* On RR_MATCH_YES, *start and *end (may be NULL) delimit the match. */
enum rr_match_result rr_regex_match(const struct rr_regex *,
	     const char *subject, size_t len, size_t *start, size_t *end);
/*
 * The same from byte offset `from`: anchors and lookbehinds still see the
 * whole subject, so a global search can resume after a match.
 */
enum rr_match_result rr_regex_match_from(const struct rr_regex *,
	     const char *subject, size_t len, size_t from, size_t *start,
	     size_t *end);
/*
 * The same, and the text of the first capture group in *gstart, *gend
 * (the whole match when the pattern has none or the group did not take
 * part): a block's id, a listed id (reflexion-rules(5), blocks).
 */
enum rr_match_result rr_regex_match_group(const struct rr_regex *,
	     const char *subject, size_t len, size_t from, size_t *start,
	     size_t *end, size_t *gstart, size_t *gend);
/*
 * Appends s[0..len) to out with every match of re replaced by repl (text
 * a \\K in the pattern skips stays as it is).  Returns the number of
 * replacements, or -1 when a match hit a limit: the rest of s is then
 * copied unchanged and the caller decides.
 */
long	 rr_regex_replace_all(const struct rr_regex *, const char *s,
	     size_t len, const char *repl, struct buf *out);
void	 rr_regex_free(struct rr_regex *);
/*
 * Compiles a built-in table of n patterns into out[0..n) (flags 0).  Each
 * row of the table starts with its pattern, a const char *, and the rows
 * are row_size bytes apart (sizeof(table[0])), so a table may hold more
 * than patterns.  A built-in pattern that does not compile is a bug:
 * BUG() names the table (what) and the row.
 */
void	 rr_regex_compile_table(const char *what, const void *table,
	     size_t n, size_t row_size, struct rr_regex **out);
/* Overrides the match limit (tests, and the `limits:` of issue 6). */
void	 rr_regex_set_match_limit(unsigned long);
/* "10.42 2022-12-11": part of the compiled cache's identity. */
const char *rr_regex_version(void);
/* Whether this build uses PCRE2's JIT (configure found one that works). */
bool	 rr_regex_jit_built(void);

/* Where a lazy regex gets its code (implemented by the cache). */
struct rr_regex_source {
	/* The compiled code of slot, now owned by the caller; or NULL. */
	void	*(*take)(struct rr_regex_source *, size_t slot);
};

/*
 * A regex compiled on first use.  pattern (borrowed: it must outlive
 * the regex) and flags are what rr_regex_compile() was given; src/slot
 * say where serialized code may be found (src may be NULL).
 */
struct rr_regex *rr_regex_lazy(const char *pattern, size_t len,
	     unsigned flags, struct rr_regex_source *src, size_t slot);
unsigned rr_regex_flags(const struct rr_regex *);
/* A lazy regex's pattern (borrowed) and its length; NULL for others. */
const char *rr_regex_pattern(const struct rr_regex *, size_t *len);

/*
 * Appends the PCRE2 serialization of n regexes (one set) to out.
 * Returns 0, or -1 if a regex has no code or PCRE2 refuses.
 */
int	 rr_regex_encode(struct rr_regex *const *, size_t n, struct buf *out);
/*
 * Decodes a set written by rr_regex_encode() into codes[0..n), each
 * owned by the caller (rr_regex_code_free).  The bytes must be trusted
 * (checksummed): PCRE2 does not validate them.  Returns 0 or -1.
 */
int	 rr_regex_decode(const void *bytes, size_t len, size_t n, void **codes);
void	 rr_regex_code_free(void *);

#endif
