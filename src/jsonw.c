#include <stdio.h>
#include <string.h>

#include "jsonw.h"

size_t
utf8_seqlen(const unsigned char *s, size_t avail)
{
	unsigned char	c = s[0];
	size_t		n, i;
	unsigned int	cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		cp = c & 0x07;
	} else
		return 0;
	if (avail < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Reject overlongs, surrogates and values past U+10FFFF. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
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
		n = utf8_seqlen(p + i, len - i);
		i += n ? n : 1;
		chars++;
	}
	return chars;
}

void
jsonw_string(struct buf *b, const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i = 0, run, n;
	char			 esc[8];

	buf_addc(b, '"');
	while (i < len) {
		/* Copy runs of plain ASCII in one go. */
		run = i;
		while (run < len && p[run] >= 0x20 && p[run] < 0x80 &&
		    p[run] != '"' && p[run] != '\\')
			run++;
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
		n = utf8_seqlen(p + i, len - i);
		if (n == 0) {
			buf_add(b, "\\ufffd", 6);
			i++;
		} else {
			buf_add(b, p + i, n);
			i += n;
		}
	}
	buf_addc(b, '"');
}

void
jsonw_cstring(struct buf *b, const char *s)
{
	jsonw_string(b, s, strlen(s));
}
