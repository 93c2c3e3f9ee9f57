#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "mdsections.h"

struct span {
	const char	*s;
	size_t		 len;
};

static struct span
trim(const char *s, size_t len)
{
	struct span	t;

	while (len > 0 && strchr(" \t\r", *s) != NULL) {
		s++;
		len--;
	}
	while (len > 0 && strchr(" \t\r", s[len - 1]) != NULL)
		len--;
	t.s = s;
	t.len = len;
	return t;
}

static bool
starts_with(struct span t, const char *prefix)
{
	size_t	n = strlen(prefix);

	return t.len >= n && strncasecmp(t.s, prefix, n) == 0;
}

/* Whether the comma list in a tag names one of the active keywords. */
static bool
tag_matches(struct span list, const char *const *active, size_t nactive)
{
	const char	*p = list.s, *end = list.s + list.len, *comma;
	struct span	 kw;
	size_t		 i;

	while (p < end) {
		comma = memchr(p, ',', (size_t)(end - p));
		if (comma == NULL)
			comma = end;
		kw = trim(p, (size_t)(comma - p));
		for (i = 0; i < nactive && kw.len > 0; i++)
			if (strlen(active[i]) == kw.len &&
			    strncasecmp(active[i], kw.s, kw.len) == 0)
				return true;
		p = comma + 1;
	}
	return false;
}

/*
 * If line is "<!-- keywords: ... -->", sets *list to the "..." and
 * returns true.
 */
static bool
tag_comment(struct span line, struct span *list)
{
	const char	*close;

	if (!starts_with(line, "<!--"))
		return false;
	line = trim(line.s + 4, line.len - 4);
	if (!starts_with(line, "keywords:"))
		return false;
	line = trim(line.s + 9, line.len - 9);
	close = line.len >= 3 ? line.s + line.len - 3 : NULL;
	if (close == NULL || memcmp(close, "-->", 3) != 0)
		return false;
	*list = trim(line.s, line.len - 3);
	return true;
}

size_t
md_tagged_sections(const char *text, size_t len, const char *const *active,
    size_t nactive, struct buf *titles)
{
	const char	*p = text, *end = text + len, *eol;
	struct span	 line, list, title;
	bool		 fenced = false, pending = false, wanted = false;
	size_t		 found = 0;

	for (; p < end; p = eol < end ? eol + 1 : end) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (eol == NULL)
			eol = end;
		line = trim(p, (size_t)(eol - p));
		if (starts_with(line, "```") || starts_with(line, "~~~")) {
			fenced = !fenced;
			pending = false;
			continue;
		}
		if (fenced)
			continue;
		if (tag_comment(line, &list)) {
			pending = true;
			wanted = tag_matches(list, active, nactive);
			continue;
		}
		if (line.len == 0 || !pending)
			continue;
		/* The first line after a tag: a heading, or the tag is moot. */
		pending = false;
		if (line.s[0] != '#' || !wanted)
			continue;
		title = line;
		while (title.len > 0 && title.s[0] == '#') {
			title.s++;
			title.len--;
		}
		title = trim(title.s, title.len);
		if (title.len == 0)
			continue;
		buf_adds(titles, found ? "\n  - " : "  - ");
		buf_add(titles, title.s, title.len);
		found++;
	}
	return found;
}
