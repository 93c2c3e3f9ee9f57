/*
 * Seeded random text for the property tests: regexes built from the
 * constructs the literal extractor must handle, and texts over the same
 * small alphabet (with case variants, U+212A and U+017F) so that they
 * match often.
 */
#ifndef RR_TEST_RANDPAT_H
#define RR_TEST_RANDPAT_H

#include <string.h>

#include "buf.h"

static unsigned long rp_state = 12345;

static inline void
rp_seed(unsigned long s)
{
	rp_state = s * 2654435761UL + 1;
}

static inline unsigned
rnd(unsigned n)
{
	rp_state = rp_state * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)((rp_state >> 33) % n);
}

static const char *const rp_chars[] = {
	"a", "b", "k", "K", "s", "S", "\xc5\xbf" /* long s */,
	"\xe2\x84\xaa" /* Kelvin */, "\xc3\xa9", "\xc3\x89", "-", ".", " ",
	"/"
};
#define RP_NCHARS (sizeof(rp_chars) / sizeof(rp_chars[0]))

/*
 * The alphabet in use: rp_chars, or one a test sets (rp_alphabet) with
 * more characters that fold across cases, lengths and scripts.
 */
static const char *const *rp_alpha = rp_chars;
static unsigned rp_nalpha = RP_NCHARS;

static inline void
rp_alphabet(const char *const *chars, unsigned n)
{
	rp_alpha = chars;
	rp_nalpha = n;
}

static inline void
rp_text(struct buf *b, unsigned maxlen)
{
	unsigned	i;

	for (i = rnd(maxlen + 1); i > 0; i--)
		buf_adds(b, rp_alpha[rnd(rp_nalpha)]);
}

static void rp_seq(struct buf *, int depth);

static inline void
rp_atom(struct buf *b, int depth)
{
	static const char *const quant[] = {
		"?", "*", "+", "{0,2}", "{1,2}", "{2}", "??", "*+", "+?", "{1,}"
	};
	const char	*c;

	switch (rnd(depth < 3 ? 14 : 10)) {
	case 0: case 1: case 2: case 3: case 4:
		c = rp_alpha[rnd(rp_nalpha)];
		if (strcmp(c, ".") == 0 || strcmp(c, "-") == 0)
			buf_addc(b, '\\');
		buf_adds(b, c);
		break;
	case 5:
		buf_adds(b, (const char *[]){ "[ab]", "[^a]", "[a-k]", ".",
		    "\\w", "\\s", "[]a]", "[[:alpha:]]" }[rnd(8)]);
		break;
	case 6:
		buf_adds(b, (const char *[]){ "^", "$", "\\b", "(?i)",
		    "(?-i)", "\\E", "(?#x)", "\\K" }[rnd(8)]);
		return;
	case 7:
		buf_adds(b, "\\Q");
		buf_adds(b, rp_alpha[rnd(rp_nalpha)]);
		buf_adds(b, rp_alpha[rnd(rp_nalpha)]);
		buf_adds(b, "\\E");
		break;
	case 8: case 9:
		buf_adds(b, rp_alpha[rnd(3)]);
		break;
	default:
		buf_adds(b, (const char *[]){ "(", "(?:", "(?i:", "(?-i:",
		    "(?=", "(?!", "(?>", "(?<n>" }[rnd(8)]);
		rp_seq(b, depth + 1);
		if (rnd(3) == 0) {
			buf_addc(b, '|');
			rp_seq(b, depth + 1);
		}
		buf_addc(b, ')');
		break;
	}
	if (rnd(4) == 0)
		buf_adds(b, quant[rnd(10)]);
}

static void
rp_seq(struct buf *b, int depth)
{
	unsigned	n = 1 + rnd(5), i;

	for (i = 0; i < n; i++)
		rp_atom(b, depth);
}

/* A whole pattern, sometimes with top-level alternation. */
static inline void
rp_pattern(struct buf *b)
{
	rp_seq(b, 0);
	if (rnd(4) == 0) {
		buf_addc(b, '|');
		rp_seq(b, 0);
	}
}

#endif
