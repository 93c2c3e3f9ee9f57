/*
 * One literal searched in one text: the keywords, contains and
 * file_contains matchers, and keywords with `word: true`.  Case folding
 * is the caller's: it searches the folding (casefold.h) of a pattern in
 * the folding of the text and maps the hit back with rr_fold_offset().
 *
 * A search runs in time linear in the text and the literal, whatever
 * the text: memmem() finds the first occurrence (glibc's is linear), and
 * when word mode rejects it, one Knuth-Morris-Pratt pass finds every
 * later one, so a keyword that occurs at every byte of a megabyte and
 * never as a whole word costs one pass, not one comparison of its length
 * per byte (tests/unit/test_linear.c measures it).
 *
 * Words are decided on code points of UTF-8: ASCII letters, digits and
 * '_' are word characters, and so is every other code point except the
 * spaces, punctuation and symbols of text_word_char()'s table (Latin-1,
 * General Punctuation, CJK and fullwidth punctuation), each of which
 * PCRE2's \W matches under PCRE2_UCP (tests/unit/test_textfind.c checks
 * that).  A byte that is not part of valid UTF-8 counts as a word
 * character when it is not ASCII, as it always did.
 *
 * Nothing here allocates beyond the pass's table, freed before return.
 */
#ifndef RR_TEXTFIND_H
#define RR_TEXTFIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The offset of the first occurrence of needle in hay, or -1.  With
 * word, the first one with no word character just before it (when the
 * needle starts with a word character) nor just after it (when it ends
 * with one).  An empty needle is found at 0, and never as a word.
 */
long	 text_find(const char *hay, size_t hlen, const char *needle,
	     size_t nlen, bool word);

/* Whether code point c is a word character (see above). */
bool	 text_word_char(uint32_t c);

#endif
