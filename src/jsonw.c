#include <stdio.h>
#include <string.h>

#include "jsonw.h"

size_t
utf8_seqlen(const unsigned char *s, size_t avail)
{
	unsigned char	c = s[0];

	/*
	 * The lead byte gives the length; the second byte's range rules out
	 * overlongs (E0, F0), surrogates (ED) and values past U+10FFFF (F4),
	 * so no code point is assembled.
	 */
	if (c < 0x80)
		return 1;
	if (c < 0xc2 || c > 0xf4)
		return 0;
	if (c <= 0xdf)
		return avail >= 2 && (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c <= 0xef) {
		if (avail < 3 || (s[1] & 0xc0) != 0x80 ||
		    (s[2] & 0xc0) != 0x80 || (c == 0xe0 && s[1] < 0xa0) ||
		    (c == 0xed && s[1] >= 0xa0))
			return 0;
		return 3;
	}
	if (avail < 4 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 ||
	    (s[3] & 0xc0) != 0x80 || (c == 0xf0 && s[1] < 0x90) ||
	    (c == 0xf4 && s[1] >= 0x90))
		return 0;
	return 4;
}

char *
utf8_valid_dup(const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	struct buf		 out;
	size_t			 i, n;

	buf_init(&out);
	for (i = 0; i < len; i += n) {
		n = utf8_seqlen(p + i, len - i);
		if (n == 0 || p[i] == 0) {
			buf_adds(&out, "\xef\xbf\xbd");
			n = 1;
		} else
			buf_add(&out, p + i, n);
	}
	buf_addc(&out, '\0');
	return buf_detach(&out, NULL);
}

size_t
utf8_prefix(const char *s, size_t len, size_t max_chars)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i = 0, chars = 0, n;

	while (i < len && chars < max_chars) {
		n = utf8_seqlen(p + i, len - i);
		i += n ? n : 1;
		chars++;
	}
	return i;
}

size_t
utf8_count(const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i = 0, chars = 0, n;

	while (i < len) {
		/* ASCII is one byte, one character: no call for it. */
		if (p[i] < 0x80) {
			i++;
			chars++;
			continue;
		}
		n = utf8_seqlen(p + i, len - i);
		i += n ? n : 1;
		chars++;
	}
	return chars;
}

/*
 * The length of the run at p[i..len) that is copied as it is: plain
 * ASCII and whole, valid UTF-8 sequences (what a reply mostly holds).
 */
static size_t
plain_run(const unsigned char *p, size_t i, size_t len)
{
	size_t	n;

	while (i < len) {
		if (p[i] >= 0x20 && p[i] < 0x80 && p[i] != '"' &&
		    p[i] != '\\') {
			i++;
			continue;
		}
		if (p[i] < 0x80 || (n = utf8_seqlen(p + i, len - i)) == 0)
			break;
		i += n;
	}
	return i;
}

void
jsonw_string(struct buf *b, const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i = 0, run;
	char			 esc[8];

	/* Most text needs no escape: room for all of it in one go. */
	buf_grow(b, len + 2);
	buf_addc(b, '"');
	while (i < len) {
		run = plain_run(p, i, len);
		buf_add(b, p + i, run - i);
		i = run;
		if (i >= len)
			break;
		switch (p[i]) {
		case '"':  buf_add(b, "\\\"", 2); i++; continue;
		case '\\': buf_add(b, "\\\\", 2); i++; continue;
		case '\n': buf_add(b, "\\n", 2); i++; continue;
		case '\r': buf_add(b, "\\r", 2); i++; continue;
		case '\t': buf_add(b, "\\t", 2); i++; continue;
		case '\b': buf_add(b, "\\b", 2); i++; continue;
		case '\f': buf_add(b, "\\f", 2); i++; continue;
		}
		if (p[i] < 0x20) {
			snprintf(esc, sizeof(esc), "\\u%04x", p[i]);
			buf_add(b, esc, 6);
			i++;
			continue;
		}
		/* Not the start of a valid sequence (plain_run() said so). */
		buf_add(b, "\\ufffd", 6);
		i++;
	}
	buf_addc(b, '"');
}

void
jsonw_cstring(struct buf *b, const char *s)
{
	jsonw_string(b, s, strlen(s));
}
