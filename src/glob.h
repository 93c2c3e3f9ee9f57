/*
 * Path globs, minimatch-like with {dot: true, matchBase: true}:
 *   *      any run of characters except '/'
 *   **     as a whole path segment: zero or more segments
 *   ?      one character except '/'
 *   [a-z] [!a-z] [^a-z]   a character class (never matches '/')
 *   {a,b}  alternatives, nested; {1..3} numeric ranges
 *   \x     the character x, literally
 * Dotfiles match like any other name.  A pattern without '/' is matched
 * against the basename of the path (matchBase), and so is the rest of one
 * that starts with "**" + "/" when that rest has no '/' and no "**"
 * (the same answer).  A leading "./" in the pattern is ignored.  Paths
 * use '/'; callers turn '\' into '/' first.
 *
 * The glob is translated to a PCRE2 pattern (glob_to_regex) and run by
 * match_re, so brace-heavy globs cost no exponential expansion.  Time is
 * linear in the path; a glob that must backtrack over a very long path
 * (a "**" between segments, a million segments deep) reaches the regex
 * match limit, which rr_glob_test() reports.
 *
 * Ignoring case (rr_glob_test_ci) is Unicode simple case folding, as
 * casefold.h and a caseless PCRE2 regex do it.  A glob whose folding is
 * itself (most are: '.env', 'secrets/x') is matched as it is against the
 * folded path; one that folding changes ('Makefile') has a caseless twin
 * of its regex, compiled with it, matched against the path as it is.
 * Either way a glob costs no compilation at match time.
 */
#ifndef RR_GLOB_H
#define RR_GLOB_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "match_re.h"

/*
 * Appends to `out` an anchored PCRE2 pattern equivalent to glob[0..len).
 * Sets *basename_only when the glob has no '/' (match the basename).
 * Returns 0, or -1 with *errmsg (static string) and *erroff (byte offset in
 * the glob) set, e.g. for an unterminated '[' or '{', or a trailing '\'.
 */
int	 glob_to_regex(const char *glob, size_t len, struct buf *out,
	     bool *basename_only, const char **errmsg, size_t *erroff);

struct rr_glob;

/* Compiles a glob; NULL with *errmsg and *erroff set on error. */
struct rr_glob *rr_glob_compile(const char *glob, size_t len,
	     const char **errmsg, size_t *erroff);
/* Matches a '/'-separated path (basename only when the glob has no '/'). */
bool	 rr_glob_match(const struct rr_glob *, const char *path, size_t len);
/* The same, telling a limit reached from no match (match_re.h). */
enum rr_match_result rr_glob_test(const struct rr_glob *, const char *path,
	     size_t len);
/*
 * The same ignoring case; folded[0..flen) is rr_fold() of path[0..len)
 * (the caller folds, so that one folding serves every glob).
 */
enum rr_match_result rr_glob_test_ci(const struct rr_glob *, const char *path,
	     size_t len, const char *folded, size_t flen);
void	 rr_glob_free(struct rr_glob *);

struct rr_regex;
/*
 * A glob around already translated regexes (consumed): the cache's.  ci
 * is the caseless twin, or NULL when the glob's folding is itself.
 */
struct rr_glob *rr_glob_wrap(struct rr_regex *, struct rr_regex *ci,
	     bool basename_only);
const struct rr_regex *rr_glob_regex(const struct rr_glob *);
const struct rr_regex *rr_glob_regex_ci(const struct rr_glob *);
bool	 rr_glob_basename_only(const struct rr_glob *);

#endif
