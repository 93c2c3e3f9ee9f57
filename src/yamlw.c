#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "jsonw.h"
#include "yamlw.h"

/* Words a plain scalar would turn into something other than a string. */
static const char *const special_words[] = {
	"true", "false", "null", "yes", "no", "on", "off", "y", "n", "~",
	NULL
};

static bool
is_special_word(const char *s, size_t len)
{
	const char *const	*w;

	for (w = special_words; *w; w++)
		if (strlen(*w) == len && strncasecmp(*w, s, len) == 0)
			return true;
	return false;
}

/* A plain scalar that is a string and only that string. */
static bool
plain_ok(const char *s, size_t len)
{
	size_t	i;

	if (len == 0 || is_special_word(s, len))
		return false;
	/* Anything that starts like a number might be read as one. */
	if ((s[0] >= '0' && s[0] <= '9') || s[0] == '-' || s[0] == '+' ||
	    s[0] == '.')
		return false;
	for (i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '_' ||
		    s[i] == '-' || s[i] == '.' || s[i] == '/'))
			return false;
	return true;
}

/* The code point of the valid n-byte UTF-8 sequence at p. */
static unsigned long
code_point(const unsigned char *p, size_t n)
{
	unsigned long	cp = n == 1 ? p[0] : n == 2 ? p[0] & 0x1f :
	    n == 3 ? p[0] & 0x0f : p[0] & 0x07;
	size_t		i;

	for (i = 1; i < n; i++)
		cp = (cp << 6) | (p[i] & 0x3f);
	return cp;
}

/*
 * Whether YAML lets the character stand for itself in a quoted or block
 * scalar: libyaml refuses C0 and C1 controls, DEL, U+FFFE and U+FFFF in
 * its input, and reads U+0085, U+2028 and U+2029 as line breaks; a BOM
 * inside a scalar is dropped by some readers.
 */
static bool
yaml_literal_ok(unsigned long cp)
{
	return (cp >= 0x20 && cp < 0x7f) || (cp >= 0xa0 && cp <= 0xd7ff &&
	    cp != 0x2028 && cp != 0x2029) || (cp >= 0xe000 && cp <= 0xfffd &&
	    cp != 0xfeff) || (cp >= 0x10000 && cp <= 0x10ffff);
}

/*
 * Whether s can be written between single quotes (or, with lines, in a
 * literal block, where newlines and tabs are fine too): valid UTF-8 of
 * characters that may stand for themselves.
 */
static bool
printable(const char *s, size_t len, bool lines)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i = 0, n;

	while (i < len) {
		if (lines && (p[i] == '\n' || p[i] == '\t')) {
			i++;
			continue;
		}
		n = utf8_seqlen(p + i, len - i);
		if (n == 0 || !yaml_literal_ok(code_point(p + i, n)))
			return false;
		i += n;
	}
	return true;
}

static void
single_quoted(struct buf *b, const char *s, size_t len)
{
	size_t	i;

	buf_addc(b, '\'');
	for (i = 0; i < len; i++) {
		if (s[i] == '\'')
			buf_addc(b, '\'');
		buf_addc(b, s[i]);
	}
	buf_addc(b, '\'');
}

/* YAML double quotes: escapes for everything single quotes cannot hold. */
static void
double_quoted(struct buf *b, const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	unsigned long		 cp;
	size_t			 i = 0, n;

	buf_addc(b, '"');
	while (i < len) {
		switch (p[i]) {
		case '"':  buf_adds(b, "\\\""); i++; continue;
		case '\\': buf_adds(b, "\\\\"); i++; continue;
		case '\n': buf_adds(b, "\\n"); i++; continue;
		case '\t': buf_adds(b, "\\t"); i++; continue;
		case '\r': buf_adds(b, "\\r"); i++; continue;
		default:
			break;
		}
		if (p[i] < 0x20 || p[i] == 0x7f) {
			buf_printf(b, "\\x%02x", p[i]);
			i++;
			continue;
		}
		if (p[i] < 0x80) {
			buf_addc(b, (char)p[i++]);
			continue;
		}
		n = utf8_seqlen(p + i, len - i);
		if (n == 0) {
			/* A stray byte: as the character of the same number. */
			buf_printf(b, "\\x%02x", p[i]);
			i++;
			continue;
		}
		cp = code_point(p + i, n);
		if (yaml_literal_ok(cp))
			buf_add(b, s + i, n);
		else if (cp == 0x85)
			buf_adds(b, "\\N");
		else if (cp == 0x2028)
			buf_adds(b, "\\L");
		else if (cp == 0x2029)
			buf_adds(b, "\\P");
		else if (cp < 0x100)
			buf_printf(b, "\\x%02lx", cp);
		else
			buf_printf(b, "\\u%04lx", cp);
		i += n;
	}
	buf_addc(b, '"');
}

void
yamlw_scalar(struct buf *b, const char *s, size_t len)
{
	if (plain_ok(s, len))
		buf_add(b, s, len);
	else if (printable(s, len, false))
		single_quoted(b, s, len);
	else
		double_quoted(b, s, len);
}

void
yamlw_cstr(struct buf *b, const char *s)
{
	yamlw_scalar(b, s, strlen(s));
}

/*
 * Whether the lines of s make a literal block that reads back as s, and
 * whether the block needs its indentation given (the first line with text
 * starts with a blank).  Lines of blanks before it would be read as too
 * indented, so they rule the block out.
 */
static bool
block_ok(const char *s, size_t len, size_t trail, bool *indicator)
{
	size_t	i;

	if (memchr(s, '\n', len) == NULL || trail == len ||
	    memchr(s, '\r', len) != NULL || !printable(s, len, true))
		return false;
	for (i = 0; i < len && (s[i] == '\n' || s[i] == ' ' || s[i] == '\t');
	    i++)
		;
	/* s[i] is the first text; from the start of its line, blanks only. */
	while (i > 0 && s[i - 1] != '\n')
		i--;
	*indicator = s[i] == ' ' || s[i] == '\t';
	for (; i > 0; i--)
		if (s[i - 1] != '\n')
			return false;
	return true;
}

void
yamlw_text(struct buf *b, const char *s, size_t len, int indent)
{
	size_t	trail = 0, i, start;
	bool	indicator = false;

	while (trail < len && s[len - 1 - trail] == '\n')
		trail++;
	if (!block_ok(s, len, trail, &indicator)) {
		buf_addc(b, ' ');
		yamlw_scalar(b, s, len);
		buf_addc(b, '\n');
		return;
	}
	buf_adds(b, indicator ? " |2" : " |");
	buf_adds(b, trail == 0 ? "-" : trail > 1 ? "+" : "");
	buf_addc(b, '\n');
	for (start = 0, i = 0; i <= len; i++) {
		if (i < len && s[i] != '\n')
			continue;
		if (i > start)
			buf_printf(b, "%*s%.*s", indent + 2, "",
			    (int)(i - start), s + start);
		if (i < len)
			buf_addc(b, '\n');
		start = i + 1;
	}
	if (trail == 0)
		buf_addc(b, '\n');
}

void
yamlw_flow_list(struct buf *b, const char *const *items, size_t n)
{
	size_t	i;

	buf_addc(b, '[');
	for (i = 0; i < n; i++) {
		if (i)
			buf_adds(b, ", ");
		yamlw_cstr(b, items[i]);
	}
	buf_addc(b, ']');
}
