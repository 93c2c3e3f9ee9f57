/*
 * Hints for YAML syntax errors (see yamlhint.h).  Each is read off
 * libyaml's message and the text around the error: nothing here parses
 * YAML, and a case that is not recognised gets no hint rather than a
 * wrong one.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xmalloc.h"
#include "yamlhint.h"

/* Line n (1-based) of text, without its newline: start and length. */
static bool
get_line(const char *text, size_t len, int n, const char **start,
    size_t *linelen)
{
	const char	*p = text, *end = text + len, *nl;

	for (; n > 1; n--) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			return false;
		p = nl + 1;
	}
	nl = memchr(p, '\n', (size_t)(end - p));
	*start = p;
	*linelen = (size_t)((nl != NULL ? nl : end) - p);
	if (*linelen > 0 && p[*linelen - 1] == '\r')
		(*linelen)--;
	return true;
}

static size_t
indent_of(const char *s, size_t n)
{
	size_t	i = 0;

	while (i < n && s[i] == ' ')
		i++;
	return i;
}

/* The indentation of the nearest line above n with content; -1: none. */
static long
indent_above(const char *text, size_t len, int n)
{
	const char	*s;
	size_t		 l, i;

	while (--n >= 1) {
		if (!get_line(text, len, n, &s, &l))
			return -1;
		i = indent_of(s, l);
		if (i < l && s[i] != '#')
			return (long)i;
	}
	return -1;
}

/* "key: 'value'" for a line "key: value: more", or NULL. */
static char *
quoted_suggestion(const char *s, size_t l)
{
	const char	*colon = NULL, *v, *p;
	struct buf	 b;
	size_t		 i;

	for (i = indent_of(s, l); i + 1 < l; i++)
		if (s[i] == ':' && (s[i + 1] == ' ' || s[i + 1] == '\t')) {
			colon = s + i;
			break;
		}
	if (colon == NULL)
		return NULL;
	for (v = colon + 1; v < s + l && (*v == ' ' || *v == '\t'); v++)
		;
	if (v == s + l || *v == '\'' || *v == '"' || *v == '|' ||
	    *v == '>')
		return NULL;
	buf_init(&b);
	buf_add(&b, s + indent_of(s, l), (size_t)(v - s) - indent_of(s, l));
	buf_addc(&b, '\'');
	for (p = v; p < s + l; p++) {
		if (*p == '\'')
			buf_addc(&b, '\'');
		buf_addc(&b, *p);
	}
	buf_addc(&b, '\'');
	return buf_detach(&b, NULL);
}

/* Where the value of a line "key: value" or "- value" starts. */
static const char *
value_start(const char *s, size_t l)
{
	size_t	i = indent_of(s, l);

	if (i + 1 < l && s[i] == '-' && s[i + 1] == ' ')
		i += 2;
	for (; i + 1 < l; i++)
		if (s[i] == ':' && s[i + 1] == ' ')
			break;
	if (i + 1 >= l)
		return s + indent_of(s, l);
	for (i++; i < l && s[i] == ' '; i++)
		;
	return s + i;
}

char *
yaml_syntax_hint(const char *text, size_t len, int line, int col,
    const char *problem, const char *context, int ctx_line, int ctx_col)
{
	const char	*s, *at, *p;
	char		*q, *hint;
	size_t		 l, ind, c;
	long		 above;

	if (problem == NULL || line < 1 || col < 1 ||
	    !get_line(text, len, line, &s, &l))
		return NULL;
	c = (size_t)col - 1;
	at = c < l ? s + c : NULL;
	ind = indent_of(s, l);
	if (context == NULL)
		context = "";
	/* A tab where YAML wants spaces. */
	if ((at != NULL && *at == '\t') || strstr(problem, "tab") != NULL)
		return xasprintf("YAML indents with spaces, never tabs: replace "
		    "the tab %s line %d with spaces", at != NULL &&
		    at == s + ind ? "at the start of" : "on", line);
	/* Characters YAML keeps for itself at the start of a value. */
	if (at != NULL && (strstr(context, "alias") != NULL ||
	    strstr(context, "anchor") != NULL || ((*at == '@' ||
	    *at == '`') && strstr(problem, "cannot start any token") !=
	    NULL))) {
		for (p = at; p > s && p[-1] != ' ' &&
		    p[-1] != '\t' && p[-1] != '{' && p[-1] != '[' &&
		    p[-1] != ','; p--)
			;
		return xasprintf("a value that starts with %c is YAML syntax "
		    "(%s): quote it, as in '%.*s'", *p, *p == '*' ?
		    "an alias" : *p == '&' ? "an anchor" : "reserved",
		    (int)strcspn(p, ",]} \t\r\n"), p);
	}
	/* key: text: more, the second ": " in a plain value. */
	if (strstr(problem, "mapping values are not allowed") != NULL) {
		if ((q = quoted_suggestion(s, l)) != NULL &&
		    (p = strstr(s + ind, ": ")) != NULL && p < s + c) {
			hint = xasprintf("a ': ' inside a plain value starts a "
			    "mapping: quote the value (%s) or write it as a "
			    "block (|)", q);
			free(q);
			return hint;
		}
		free(q);
		above = indent_above(text, len, line);
		return xasprintf("this line is indented %zu space%s, more "
		    "than the line above it (%ld): a key lines up with the "
		    "other keys of its mapping", ind, ind == 1 ? "" : "s",
		    above < 0 ? 0 : above);
	}
	/* [ or { never closed; a quote never closed. */
	if (strstr(problem, "did not find expected ','") != NULL &&
	    ctx_line > 0)
		return xasprintf("the %s opened at line %d, column %d is not "
		    "closed (or an item before here lacks its comma)",
		    strstr(problem, "']'") != NULL ? "[" : "{", ctx_line,
		    ctx_col);
	if (strstr(context, "quoted scalar") != NULL && ctx_line > 0)
		return xasprintf("the quote opened at line %d, column %d is "
		    "not closed", ctx_line, ctx_col);
	if (strstr(problem, "did not find expected key") != NULL ||
	    strstr(problem, "did not find expected '-'") != NULL) {
		/* Text after a closing quote or bracket on the same line. */
		if (at != NULL && c > ind && (at[-1] == '\'' ||
		    at[-1] == '"'))
			return xasprintf("the quoted value ends at the %s "
			    "before column %d: to put %s inside '...', write it "
			    "twice (''), or quote the whole value with the "
			    "other quote", at[-1] == '\'' ? "'" : "\"", col,
			    at[-1] == '\'' ? "a '" : "a \"");
		if (at != NULL && c > ind && (at[-1] == '}' ||
		    at[-1] == ']')) {
			p = value_start(s, l);
			return xasprintf("a value that starts with %c is a "
			    "flow %s: quote a glob or text that starts with it, "
			    "as in '%.*s'", *p, *p == '{' ? "mapping" : "list",
			    (int)(s + l - p), p);
		}
		if (c <= ind) {
			above = indent_above(text, len, line);
			return xasprintf("this line is indented %zu space%s, "
			    "which lines up with no key or item above it (the "
			    "line above has %ld): keys of one mapping, and items "
			    "of one list, start in the same column", ind,
			    ind == 1 ? "" : "s", above < 0 ? 0 : above);
		}
	}
	return NULL;
}
