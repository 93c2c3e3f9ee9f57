/*
 * Prefilters that never change a decision: which rules an event can
 * possibly fire, found without running any rule.
 *
 * The index is one flat, position-independent byte string (the same
 * bytes in memory after a compile and inside the compiled cache): per
 * event kind, a bucket of the rules that take any tool, a bucket per
 * exact tool name (hashed), and a bucket of the rules with tool globs.
 * Each bucket entry carries the rule's literal clauses: a rule can fire
 * only if, for every clause, the event field the clause names contains
 * at least one of its literals (derived from the rule's `when` by
 * relit.h: regexes, globs, keywords, contains, equals).  The literals of
 * all candidate rules are searched in one pass per field (litscan.h).
 *
 * A candidate is not a decision: eval.c still evaluates it in full.
 * Everything here only leaves out rules that cannot fire.
 *
 * The bytes may come from a file: pf_select() bounds-checks every offset
 * and, unless told the bytes are intact, checksums the directory and each
 * bucket it reads.  The literal scanners are built with the index, so a
 * call builds nothing: it runs the scanners of its event's buckets and
 * reads the postings of the literals they find (prefilter.c).
 */
#ifndef RR_PREFILTER_H
#define RR_PREFILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "event.h"
#include "rule.h"

struct pf_candidates {
	size_t	*rules;		/* indexes into the ruleset, ascending */
	size_t	 n;
};

/* Appends the index of every enabled rule of rs to out. */
void	 pf_build(const struct ruleset *, struct buf *out);

/*
 * The texts of `path`, `read_path` and F_PROGRAMS that the evaluation
 * makes and the event does not hold (the files a shell command writes
 * and reads, the programs it runs): text() fills *out and returns true,
 * or returns false for the event's own (its path; no read_path; no
 * command, so no programs).  Asked only when a candidate has a literal
 * on that field.
 */
struct pf_lazy {
	bool	 (*text)(void *arg, enum rr_field, struct rr_text *out);
	void	*arg;
};

/*
 * Fills out (owned: pf_candidates_release) with the rules of the index
 * that can fire on ev.  With verify, the directory and the buckets read
 * are checksummed first.  lazy may be NULL.  Returns 0, or -1 when the
 * index is corrupt.
 */
int	 pf_select(const unsigned char *, size_t, bool verify,
	     struct rr_event *, const struct pf_lazy *lazy,
	     struct pf_candidates *out);
void	 pf_candidates_release(struct pf_candidates *);

/* Builds rs's index in memory (rs->pf), replacing any it had. */
void	 ruleset_index(struct ruleset *);

#endif
