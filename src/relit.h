/*
 * Required literals: strings that any text a pattern matches must
 * contain, so a cheap substring search can rule a pattern out before the
 * regex engine runs.
 *
 * The result is a disjunction: a text can match only if it contains at
 * least one of the alternatives (one per top-level branch of the
 * pattern).  Extraction is conservative: whenever the pattern uses a
 * construct whose effect on the matched text is not plainly known
 * (extended mode, verbs, conditionals, recursion, backreferences, \x and
 * \p escapes, ...) there is no result, never a guess.
 *
 * Case: an alternative marked ci must be searched with ASCII case folding.
 * Under PCRE2's caseless UTF matching 'k' also matches U+212A KELVIN SIGN
 * and 's' matches U+017F LATIN SMALL LETTER LONG S, and non-ASCII letters
 * fold in ways an ASCII search does not; such characters never enter a
 * caseless literal (tests/unit/test_relit.c checks this against PCRE2).
 *
 * A struct relit owns its strings; relit_release() frees them.
 */
#ifndef RR_RELIT_H
#define RR_RELIT_H

#include <stdbool.h>
#include <stddef.h>

#define RELIT_MAX_ALTS	16

struct relit_alt {
	char	*s;		/* owned, NUL-terminated */
	size_t	 len;		/* > 0 */
	bool	 ci;		/* ASCII case-insensitive */
};

struct relit {
	struct relit_alt alts[RELIT_MAX_ALTS];
	size_t		 n;	/* 0: no sound literal */
};

/*
 * The required literals of a PCRE2 pattern compiled with PCRE2_UTF (and
 * PCRE2_CASELESS when ci).  Returns 0 with out->n > 0, or -1 with
 * out->n == 0 when there is none that is provably required.
 */
int	 relit_regex(const char *pat, size_t len, bool ci, struct relit *out);

/*
 * The longest literal run of a glob (glob.h syntax) outside braces and
 * classes: any path the glob matches contains it.  Case-sensitive.
 */
int	 relit_glob(const char *glob, size_t len, struct relit *out);

void	 relit_release(struct relit *);

/* True for the ASCII letters PCRE2 folds to a non-ASCII character. */
bool	 relit_ci_unsafe(unsigned char);

#endif
