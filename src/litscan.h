/*
 * Many literals searched in one text at once: the prefilter's "does this
 * field contain any of the rules' required literals" step.  Literals are
 * matched exactly or case-insensitively: a ci literal occurs when its
 * folding occurs in the text's folding (Unicode simple case folding,
 * casefold.h, the equivalence of PCRE2's caseless matching: "kelvin" is
 * found in "\u212AELVIN" as /kelvin/i finds it).  lit_occurs() is the
 * reference every strategy must reproduce.
 *
 * A scanner is built once (litscan_add), then encoded into a flat,
 * position-independent byte string (litscan_encode) that the compiled
 * cache keeps: a hook maps it and runs it as it is (litscan_map_run),
 * building nothing.  The literals are grouped by their first four bytes
 * (and case folding); a group's literals are sorted by length class and
 * bytes, so that where a group's key occurs in the text, each class is
 * one binary search.
 *
 * Two strategies, chosen per text by an estimate of their cost: memmem()
 * per group (few groups, or a long text), or one pass over the text that
 * hashes every 4-byte window into the groups' table behind a bit filter
 * (many groups on a short text: the cost no longer grows with their
 * number).  ci literals are kept folded and searched in the text folded
 * once per run.
 *
 * Both run in time linear in the text and the literals, whatever the
 * text: the hook must answer before its deadline, where every rule of the
 * event would be let through, on a megabyte of upper case, or of "aaaa"
 * against a long "aaa...ab", as on prose (tests/unit/test_litscan.c
 * measures it).
 *
 * The encoded bytes may come from a file: the map checks that its
 * tables lie within the bytes, the run checks every offset it follows,
 * and a run that meets a bad one stops and says so (-1); bad bytes
 * within bounds can only change which literals are reported.
 *
 * A struct litscan owns copies of its literals.
 */
#ifndef RR_LITSCAN_H
#define RR_LITSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

struct litscan;

enum litscan_strategy {
	LITSCAN_AUTO,
	LITSCAN_EACH,		/* memmem per group of literals */
	LITSCAN_WINDOW		/* one hashed pass */
};

struct litscan *litscan_new(void);
void	 litscan_free(struct litscan *);
/*
 * Adds a literal (len > 0) and returns its id; ids are dense from 0, and
 * an identical literal added again (for ci: one with the same folding)
 * gets the first one's id.
 */
size_t	 litscan_add(struct litscan *, const char *, size_t len, bool ci);
size_t	 litscan_count(const struct litscan *);
/* Tests only: pin the strategy instead of estimating. */
void	 litscan_force(struct litscan *, enum litscan_strategy);
/*
 * Sets found[id] to 1 for each literal that occurs in text[0..len); the
 * caller provides litscan_count() zeroed bytes.  (Encodes the scanner
 * and runs the encoding: the one way literals are searched.)
 */
void	 litscan_run(struct litscan *, const char *text, size_t len,
	     unsigned char *found);

/* Appends the encoding of the scanner to out, 4-byte aligned in size. */
void	 litscan_encode(const struct litscan *, struct buf *out);

/* An encoded scanner, mapped: pointers into borrowed bytes. */
struct litscan_map {
	const unsigned char	*p;
	size_t			 len;
	uint32_t		 nlits, ngroups, nwin, flags;
	uint32_t		 groups, classes, nclasses, lits;
	uint32_t		 text, text_len;
	uint32_t		 table_bits, table, filter_bits, filter;
};

/*
 * Maps len bytes written by litscan_encode().  Returns 0, or -1 when its
 * header or tables do not fit in them.
 */
int	 litscan_map(struct litscan_map *, const void *, size_t len);
static inline uint32_t
litscan_map_count(const struct litscan_map *m)
{
	return m->nlits;
}

/*
 * A text to run scanners on, with its case folding made on first need
 * and kept for the next scanner (owned: litscan_text_release).
 */
struct litscan_text {
	const char	*s;
	size_t		 len;
	struct buf	 folded;
	bool		 have_folded;
};

void	 litscan_text_init(struct litscan_text *, const char *, size_t);
void	 litscan_text_release(struct litscan_text *);

/* The ids a run found, in the order found (grows; owned by the caller). */
struct litscan_hits {
	uint32_t	*v;
	size_t		 n, cap;
};

/*
 * Runs a mapped scanner: found (litscan_map_count() zeroed bytes) gets 1
 * for each literal that occurs, and the id of each is appended to hits
 * when hits is not NULL.  Returns 0, or
 * -1 when the bytes are found corrupt (found is then incomplete).
 */
int	 litscan_map_run(const struct litscan_map *, struct litscan_text *,
	     enum litscan_strategy, unsigned char *found,
	     struct litscan_hits *hits);

/*
 * The reference: does s[0..n) occur in text, or if ci, s's folding in
 * the text's folding?
 */
bool	 lit_occurs(const char *text, size_t len, const char *s, size_t n,
	     bool ci);

#endif
