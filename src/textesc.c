#include <stdbool.h>
#include <stdio.h>

#include "jsonw.h"
#include "textesc.h"

/* The code point of the valid n-byte UTF-8 sequence at p. */
static unsigned int
decode(const unsigned char *p, size_t n)
{
	switch (n) {
	case 2:
		return ((p[0] & 0x1fu) << 6) | (p[1] & 0x3fu);
	case 3:
		return ((p[0] & 0x0fu) << 12) | ((p[1] & 0x3fu) << 6) |
		    (p[2] & 0x3fu);
	case 4:
		return ((p[0] & 0x07u) << 18) | ((p[1] & 0x3fu) << 12) |
		    ((p[2] & 0x3fu) << 6) | (p[3] & 0x3fu);
	}
	return p[0];
}

/* Code points past ASCII that could break a line or reorder the text. */
static bool
is_hidden(unsigned int cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 ||
	    cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

void
textesc_add(struct buf *out, const char *s, size_t len,
    enum textesc_mode mode)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i = 0, run, n;
	unsigned int		 cp;
	char			 esc[8];

	while (i < len) {
		/* Runs of printable ASCII, the common case, in one copy. */
		for (run = i; run < len && p[run] >= 0x20 && p[run] < 0x7f;
		    run++)
			;
		buf_add(out, p + i, run - i);
		if ((i = run) >= len)
			break;
		if (p[i] < 0x80) {
			if (p[i] == '\n' && mode == TEXTESC_KEEP_LF)
				buf_addc(out, '\n');
			else if (p[i] == '\n')
				buf_adds(out, "\\n");
			else if (p[i] == '\r')
				buf_adds(out, "\\r");
			else if (p[i] == '\t')
				buf_adds(out, "\\t");
			else {
				snprintf(esc, sizeof(esc), "\\x%02x", p[i]);
				buf_adds(out, esc);
			}
			i++;
			continue;
		}
		if ((n = utf8_seqlen(p + i, len - i)) == 0) {
			snprintf(esc, sizeof(esc), "\\x%02x", p[i]);
			buf_adds(out, esc);
			i++;
			continue;
		}
		cp = decode(p + i, n);
		if (is_hidden(cp)) {
			snprintf(esc, sizeof(esc), "\\u%04x", cp);
			buf_adds(out, esc);
		} else
			buf_add(out, p + i, n);
		i += n;
	}
}
