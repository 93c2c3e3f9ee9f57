/*
 * Unicode simple case folding of UTF-8 text (see casefold.h).  ASCII, most
 * of any text, takes a fast path; other characters are decoded strictly
 * and looked up in a table of ranges by binary search, starting from the
 * range of the previous character (text tends to stay in one script).
 */

#include "casefold.h"

struct casefold_range {
	uint32_t	first;
	uint16_t	count;		/* first + k * stride, k < count */
	uint8_t		stride;
	int32_t		delta;
};

#include "casefold_table.h"

#define NRANGES	(sizeof(casefold_table) / sizeof(casefold_table[0]))

/*
 * The index of the range that can hold c: the last one starting at or
 * before c.  *hint is the previous answer.  Returns false below the table.
 */
static bool
find_range(uint32_t c, size_t *hint)
{
	size_t	lo = *hint, hi;

	if (c < casefold_table[0].first)
		return false;
	if (casefold_table[lo].first <= c &&
	    (lo + 1 == NRANGES || c < casefold_table[lo + 1].first))
		return true;
	lo = 0;
	hi = NRANGES;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (casefold_table[mid].first <= c)
			lo = mid;
		else
			hi = mid;
	}
	*hint = lo;
	return true;
}

static uint32_t
fold_code(uint32_t c, size_t *hint)
{
	const struct casefold_range	*r;
	uint32_t			 d;

	if (!find_range(c, hint))
		return c;
	r = &casefold_table[*hint];
	d = c - r->first;
	if (d % r->stride != 0 || d / r->stride >= r->count)
		return c;
	return (uint32_t)((int32_t)c + r->delta);
}

uint32_t
rr_fold_code(uint32_t c)
{
	size_t	hint = 0;

	return fold_code(c, &hint);
}

/*
 * The length of the valid UTF-8 sequence at p (1 to 4) and its code
 * point, or 0 if p[0] starts none (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF).  n > 0.
 */
static size_t
utf8_decode(const unsigned char *p, size_t n, uint32_t *cp)
{
	unsigned char	lo = 0x80, hi = 0xbf;
	size_t		k, i;
	uint32_t	c;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] < 0xc2 || p[0] > 0xf4)
		return 0;
	if (p[0] < 0xe0) {
		k = 2;
		c = p[0] & 0x1f;
	} else if (p[0] < 0xf0) {
		k = 3;
		c = p[0] & 0x0f;
		if (p[0] == 0xe0)
			lo = 0xa0;
		else if (p[0] == 0xed)
			hi = 0x9f;
	} else {
		k = 4;
		c = p[0] & 0x07;
		if (p[0] == 0xf0)
			lo = 0x90;
		else if (p[0] == 0xf4)
			hi = 0x8f;
	}
	if (n < k || p[1] < lo || p[1] > hi)
		return 0;
	for (i = 1; i < k; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (p[i] & 0x3f);
	}
	*cp = c;
	return k;
}

static size_t
utf8_len(uint32_t c)
{
	return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

static size_t
utf8_encode(uint32_t c, unsigned char *o)
{
	switch (utf8_len(c)) {
	case 1:
		o[0] = (unsigned char)c;
		return 1;
	case 2:
		o[0] = (unsigned char)(0xc0 | (c >> 6));
		o[1] = (unsigned char)(0x80 | (c & 0x3f));
		return 2;
	case 3:
		o[0] = (unsigned char)(0xe0 | (c >> 12));
		o[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
		o[2] = (unsigned char)(0x80 | (c & 0x3f));
		return 3;
	}
	o[0] = (unsigned char)(0xf0 | (c >> 18));
	o[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3f));
	o[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
	o[3] = (unsigned char)(0x80 | (c & 0x3f));
	return 4;
}

static inline unsigned char
fold_ascii(unsigned char c)
{
	return (unsigned char)((unsigned)(c - 'A') < 26 ? c + ('a' - 'A') : c);
}

size_t
rr_fold_mem(const char *s, size_t len, char *out)
{
	const unsigned char	*p = (const unsigned char *)s, *end = p + len;
	unsigned char		*o = (unsigned char *)out;
	size_t			 k, hint = 0;
	uint32_t		 c;

	while (p < end) {
		if (*p < 0x80) {
			*o++ = fold_ascii(*p++);
			continue;
		}
		if ((k = utf8_decode(p, (size_t)(end - p), &c)) == 0) {
			*o++ = *p++;	/* not UTF-8: kept as it is */
			continue;
		}
		o += utf8_encode(fold_code(c, &hint), o);
		p += k;
	}
	*o = '\0';
	return (size_t)((char *)o - out);
}

void
rr_fold(const char *s, size_t len, struct buf *out)
{
	buf_grow(out, RR_FOLD_ROOM(len));
	out->len += rr_fold_mem(s, len, out->data + out->len);
}

size_t
rr_fold_offset(const char *s, size_t len, size_t off, bool end)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 pos = 0, fpos = 0, k, flen, hint = 0;
	uint32_t		 c;

	if (end && off == 0)
		return 0;
	/*
	 * ASCII folds to one byte: over an ASCII prefix the offsets are the
	 * same, and the walk below goes on from where it ends.
	 */
	while (pos < len && pos < off && p[pos] < 0x80)
		pos++;
	if (pos == len || pos == off)
		return pos;
	fpos = pos;
	while (pos < len) {
		if (p[pos] < 0x80 ||
		    (k = utf8_decode(p + pos, len - pos, &c)) == 0) {
			k = 1;
			flen = 1;
		} else
			flen = utf8_len(fold_code(c, &hint));
		if (!end && fpos + flen > off)
			return pos;
		fpos += flen;
		pos += k;
		if (end && fpos >= off)
			return pos;
	}
	return len;
}
