/*
 * One literal in one text, in linear time (see textfind.h).
 */
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"
#include "textfind.h"
#include "xmalloc.h"

/* What a byte that starts no valid UTF-8 sequence decodes to. */
#define NOT_UTF8	0xffffffffu

/*
 * Non-ASCII code points that are not word characters, in order: spaces,
 * punctuation and symbols that text often puts right next to a word
 * ("„über“", "word—word", "語。").  Connector punctuation (U+203F,
 * U+2040, U+2054, U+FF3F) stays a word character, as '_' is.
 */
static const uint32_t nonword[][2] = {
	{ 0x0080, 0x00a9 }, { 0x00ab, 0x00b1 }, { 0x00b4, 0x00b4 },
	{ 0x00b6, 0x00b8 }, { 0x00bb, 0x00bb }, { 0x00bf, 0x00bf },
	{ 0x00d7, 0x00d7 }, { 0x00f7, 0x00f7 }, { 0x1680, 0x1680 },
	{ 0x2000, 0x203e }, { 0x2041, 0x2053 }, { 0x2055, 0x206f },
	{ 0x3000, 0x3004 }, { 0x3008, 0x3020 }, { 0xfeff, 0xfeff },
	{ 0xff01, 0xff0f }, { 0xff1a, 0xff20 }, { 0xff3b, 0xff3e },
	{ 0xff40, 0xff40 }, { 0xff5b, 0xff65 }
};

bool
text_word_char(uint32_t c)
{
	size_t	lo = 0, hi = sizeof(nonword) / sizeof(nonword[0]), mid;

	if (c < 0x80)
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_';
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (c < nonword[mid][0])
			hi = mid;
		else if (c > nonword[mid][1])
			lo = mid + 1;
		else
			return false;
	}
	return true;
}

/* The code point of the valid k-byte sequence at p. */
static uint32_t
decode(const unsigned char *p, size_t k)
{
	static const unsigned char lead_mask[] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	uint32_t	c = p[0] & lead_mask[k];
	size_t		i;

	for (i = 1; i < k; i++)
		c = (c << 6) | (p[i] & 0x3f);
	return c;
}

/* The character that starts at s[i] (i < len). */
static uint32_t
char_at(const unsigned char *s, size_t len, size_t i)
{
	size_t	k = utf8_seqlen(s + i, len - i);

	return k == 0 ? NOT_UTF8 : decode(s + i, k);
}

/* The character that ends at s[i] (i > 0): a sequence is 4 bytes at most. */
static uint32_t
char_before(const unsigned char *s, size_t i)
{
	size_t	j = i - 1;

	while (j > 0 && i - j < 4 && (s[j] & 0xc0) == 0x80)
		j--;
	if (utf8_seqlen(s + j, i - j) == i - j)
		return decode(s + j, i - j);
	return s[i - 1] < 0x80 ? s[i - 1] : NOT_UTF8;
}

static bool
is_word(uint32_t c)
{
	return c == NOT_UTF8 || text_word_char(c);
}

/*
 * Whether the occurrence at h[at..at+n) stands as a word: left and right
 * say which ends of the needle are word characters.
 */
static bool
bounded(const unsigned char *h, size_t hlen, size_t at, size_t n, bool left,
    bool right)
{
	if (left && at > 0 && is_word(char_before(h, at)))
		return false;
	if (right && at + n < hlen && is_word(char_at(h, hlen, at + n)))
		return false;
	return true;
}

/*
 * The first occurrence from h[from] on that stands as a word, in one
 * Knuth-Morris-Pratt pass: each byte of the text is looked at a bounded
 * number of times, however the needle overlaps itself.
 */
static long
find_word_from(const unsigned char *h, size_t hlen, size_t from,
    const unsigned char *n, size_t nlen, bool left, bool right)
{
	size_t	*border = xcalloc(nlen, sizeof(*border)), i, k;
	long	 r = -1;

	/* border[i]: the longest proper border of n[0..i]. */
	for (k = 0, i = 1; i < nlen; i++) {
		while (k > 0 && n[i] != n[k])
			k = border[k - 1];
		if (n[i] == n[k])
			k++;
		border[i] = k;
	}
	for (k = 0, i = from; i < hlen; i++) {
		while (k > 0 && h[i] != n[k])
			k = border[k - 1];
		if (h[i] == n[k])
			k++;
		if (k < nlen)
			continue;
		if (bounded(h, hlen, i + 1 - nlen, nlen, left, right)) {
			r = (long)(i + 1 - nlen);
			break;
		}
		k = border[k - 1];
	}
	free(border);
	return r;
}

long
text_find(const char *hay, size_t hlen, const char *needle, size_t nlen,
    bool word)
{
	const unsigned char	*h = (const unsigned char *)hay;
	const unsigned char	*n = (const unsigned char *)needle, *q;
	bool			 left, right;
	size_t			 at;

	if (nlen == 0)
		return word ? -1 : 0;
	if (nlen > hlen || (q = memmem(h, hlen, n, nlen)) == NULL)
		return -1;
	at = (size_t)(q - h);
	if (!word)
		return (long)at;
	left = is_word(char_at(n, nlen, 0));
	right = is_word(char_before(n, nlen));
	if (bounded(h, hlen, at, nlen, left, right))
		return (long)at;
	return find_word_from(h, hlen, at + 1, n, nlen, left, right);
}
