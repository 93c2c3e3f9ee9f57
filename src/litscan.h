/*
 * Many literals searched in one text at once: the prefilter's "does this
 * field contain any of the rules' required literals" step.  Literals are
 * matched exactly or case-insensitively: a ci literal occurs when its
 * folding occurs in the text's folding (Unicode simple case folding,
 * casefold.h, the equivalence of PCRE2's caseless matching: "kelvin" is
 * found in "\u212AELVIN" as /kelvin/i finds it).  lit_occurs() is the
 * reference every strategy must reproduce.
 *
 * Two strategies, chosen per text by an estimate of their cost: memmem()
 * per group of literals sharing their first four bytes (few groups, or a
 * short text), or one pass over the text that hashes every 4-byte window
 * into a table of the literals' first four bytes behind a 64K-bit filter,
 * then checks the candidates (many literals on a long text: the cost no
 * longer grows with their number).  ci literals are kept folded and
 * searched in the text folded once per run.
 *
 * Both run in time linear in the text and the literals, whatever the
 * text: the hook must answer before its deadline, where every rule of the
 * event would be let through, on a megabyte of upper case, or of "aaaa"
 * against a long "aaa...ab", as on prose (tests/unit/test_litscan.c
 * measures it).
 *
 * A struct litscan owns copies of its literals.
 */
#ifndef RR_LITSCAN_H
#define RR_LITSCAN_H

#include <stdbool.h>
#include <stddef.h>

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
 * caller provides litscan_count() zeroed bytes.
 */
void	 litscan_run(struct litscan *, const char *text, size_t len,
	     unsigned char *found);

/*
 * The reference: does s[0..n) occur in text, or if ci, s's folding in
 * the text's folding?
 */
bool	 lit_occurs(const char *text, size_t len, const char *s, size_t n,
	     bool ci);

#endif
