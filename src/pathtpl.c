/*
 * Templates of related files and JSON keys (see pathtpl.h).
 */
#include <string.h>

#include "pathtpl.h"

const char *const ptpl_var_names[PV__COUNT] = {
	[PV_DIR] = "dir", [PV_NAME] = "name", [PV_STEM] = "stem",
	[PV_PROJECT] = "project", [PV_BLOCK] = "block",
};

/* The variable at tpl+i ("{{"), its length in *taglen; -1 if none. */
static int
var_at(const char *tpl, size_t len, size_t i, size_t *taglen)
{
	const char	*close;
	size_t		 n, v;

	close = memmem(tpl + i + 2, len - i - 2, "}}", 2);
	if (close == NULL)
		return -1;
	n = (size_t)(close - (tpl + i + 2));
	*taglen = n + 4;
	for (v = 0; v < PV__COUNT; v++)
		if (strlen(ptpl_var_names[v]) == n &&
		    memcmp(tpl + i + 2, ptpl_var_names[v], n) == 0)
			return (int)v;
	return -1;
}

int
ptpl_check(const char *tpl, size_t len, unsigned allowed, unsigned *uses,
    const char **errmsg, size_t *erroff)
{
	size_t	i, taglen;
	int	v;

	*uses = 0;
	for (i = 0; i + 1 < len; i++) {
		if (tpl[i] != '{' || tpl[i + 1] != '{')
			continue;
		if (memmem(tpl + i + 2, len - i - 2, "}}", 2) == NULL) {
			*errmsg = "unterminated '{{'";
			*erroff = i;
			return -1;
		}
		if ((v = var_at(tpl, len, i, &taglen)) < 0 ||
		    !(allowed & PV_BIT(v))) {
			*errmsg = allowed == PV_KEY_VARS ? "unknown variable: "
			    "a key may name {{block}}, {{name}} and {{stem}}" :
			    "unknown variable: a path may name {{dir}}, "
			    "{{name}}, {{stem}}, {{project}} and {{block}}";
			*erroff = i;
			return -1;
		}
		*uses |= PV_BIT(v);
		i += taglen - 1;
	}
	return 0;
}

bool
ptpl_is_name(const char *s)
{
	const unsigned char	*p;

	if (s == NULL || *s == '\0' || strcmp(s, ".") == 0 ||
	    strcmp(s, "..") == 0)
		return false;
	for (p = (const unsigned char *)s; *p; p++)
		if (*p == '/' || *p == '\\' || *p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

int
ptpl_expand(const char *tpl, const char *const values[PV__COUNT],
    bool pattern, struct buf *out, const char **why)
{
	const char	*val, *p;
	size_t		 i, len = strlen(tpl), taglen;
	int		 v;

	for (i = 0; i < len; i++) {
		if (tpl[i] != '{' || i + 1 >= len || tpl[i + 1] != '{' ||
		    (v = var_at(tpl, len, i, &taglen)) < 0) {
			buf_addc(out, tpl[i]);
			continue;
		}
		if ((val = values[v]) == NULL) {
			*why = "a variable of the template has no value here";
			return -1;
		}
		if ((v == PV_NAME || v == PV_STEM || v == PV_BLOCK) &&
		    !ptpl_is_name(val)) {
			*why = "a variable's value is not a file name";
			return -1;
		}
		for (p = val; *p; p++) {
			if (pattern && (*p == '*' || *p == '?' || *p == '\\'))
				buf_addc(out, '\\');
			buf_addc(out, *p);
		}
		i += taglen - 1;
	}
	return 0;
}

bool
ptpl_has_wildcard(const char *pat, size_t len)
{
	size_t	i;

	for (i = 0; i < len; i++) {
		if (pat[i] == '\\') {
			i++;
			continue;
		}
		if (pat[i] == '*' || pat[i] == '?')
			return true;
	}
	return false;
}

/* The length of the UTF-8 character at s (1 for a stray byte). */
static size_t
char_len(const unsigned char *s)
{
	size_t	n = *s < 0x80 ? 1 : *s >= 0xf0 ? 4 : *s >= 0xe0 ? 3 :
		    *s >= 0xc0 ? 2 : 1, i;

	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 1;
	return n;
}

bool
ptpl_name_match(const char *pat, const char *name)
{
	const char	*p = pat, *s = name, *star = NULL, *resume = NULL;
	size_t		 n;

	while (*s) {
		if (*p == '*') {
			star = ++p;
			resume = s;
			continue;
		}
		if (*p == '?') {
			p++;
			s += char_len((const unsigned char *)s);
			continue;
		}
		if (*p == '\\' && p[1] != '\0')
			p++;
		if (*p != '\0' && *p == *s) {
			p++;
			s++;
			continue;
		}
		if (star == NULL)
			return false;
		/* Let the last '*' take one more character, and retry. */
		p = star;
		n = char_len((const unsigned char *)resume);
		resume += n;
		s = resume;
	}
	while (*p == '*')
		p++;
	return *p == '\0';
}
