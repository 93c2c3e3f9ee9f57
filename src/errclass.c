/*
 * Errors in successful tool calls' outputs (errclass.h).
 */
#include <string.h>

#include "errclass.h"
#include "jsonw.h"
#include "match_re.h"
#include "xmalloc.h"

/* A found line is cut to this many characters. */
#define ERRCLASS_LINE_MAX	500

enum detector {
	D_TRACEBACK,
	D_HTTP_LINE,
	D_STATUS,
	D_CURL,
	D_ERRLINE,
	D__COUNT
};

static const char *const detector_patterns[D__COUNT] = {
	[D_TRACEBACK] = "(?m)^Traceback \\(most recent call last\\):$",
	[D_HTTP_LINE] = "(?m)^(?:< )?HTTP/[0-9.]+ [45][0-9][0-9]\\b.*$",
	[D_STATUS] = "(?i)[\"']?\\b(?:status|status_?code)[\"']?\\s*[:=]\\s*"
	    "[\"']?[45][0-9][0-9]\\b",
	[D_CURL] = "(?m)curl: \\(22\\) The requested URL returned error: "
	    "[45][0-9][0-9].*$",
	[D_ERRLINE] = "(?m)^[ \\t]*(?:[A-Za-z_][A-Za-z0-9_.]*)?Error: \\S.*$",
};

/* Compiled on first use. */
static struct rr_regex	*detectors[D__COUNT];

bool
errclass_reads(const char *tool)
{
	return tool != NULL && (strcmp(tool, "Bash") == 0 ||
	    strcmp(tool, "PowerShell") == 0 || strcmp(tool, "WebFetch") == 0);
}

/* Whether s holds "status" in any case: the literal of D_STATUS. */
static bool
has_status_word(const char *s, size_t len)
{
	static const char	word[] = "status";
	size_t			i, j;

	for (i = 0; i + 6 <= len; i++) {
		if ((s[i] | 0x20) != 's')
			continue;
		for (j = 1; j < 6; j++)
			if ((s[i + j] | 0x20) != word[j])
				break;
		if (j == 6)
			return true;
	}
	return false;
}

/*
 * The line around s[st..en) (from st itself when whole_line is false),
 * without its leading blanks; owned.
 */
static char *
line_of(const char *s, size_t len, size_t st, size_t en, bool whole_line)
{
	size_t	a = st, b = en;

	while (whole_line && a > 0 && s[a - 1] != '\n')
		a--;
	while (b < len && s[b] != '\n')
		b++;
	while (a < b && (s[a] == ' ' || s[a] == '\t'))
		a++;
	while (b > a && (s[b - 1] == '\r' || s[b - 1] == ' '))
		b--;
	return xstrndup(s + a, utf8_prefix(s + a, b - a, ERRCLASS_LINE_MAX));
}

/* A traceback from its header at st..en to its first unindented line. */
static char *
traceback_block(const char *s, size_t len, size_t st, size_t en)
{
	size_t	p = en, nl;

	while (p < len) {
		p++;
		nl = p;
		while (nl < len && s[nl] != '\n')
			nl++;
		if (nl > p && s[p] != ' ' && s[p] != '\t') {
			p = nl;
			break;
		}
		p = nl;
	}
	return xstrndup(s + st, (p < len ? p : len) - st);
}

static bool
found(enum detector d, const char *s, size_t len, size_t *st, size_t *en)
{
	return rr_regex_match(detectors[d], s, len, st, en) == RR_MATCH_YES;
}

char *
errclass_detect(const char *tool, const char *s, size_t len, long http_status,
    const char *http_text)
{
	size_t	st, en;

	if (!errclass_reads(tool))
		return NULL;
	if (strcmp(tool, "WebFetch") == 0 && http_status >= 400 &&
	    http_status <= 599)
		return xasprintf("HTTP %ld%s%s", http_status,
		    http_text && *http_text ? " " : "",
		    http_text ? http_text : "");
	if (s == NULL || len == 0)
		return NULL;
	/* Most outputs hold none of the literals: no regex runs. */
	if (memmem(s, len, "Traceback", 9) == NULL &&
	    memmem(s, len, "HTTP/", 5) == NULL &&
	    memmem(s, len, "rror: ", 6) == NULL &&
	    memmem(s, len, "curl: (22)", 10) == NULL &&
	    !has_status_word(s, len))
		return NULL;
	if (detectors[0] == NULL)
		rr_regex_compile_table("error detector", detector_patterns,
		    D__COUNT, sizeof(detector_patterns[0]), detectors);
	if (found(D_TRACEBACK, s, len, &st, &en))
		return traceback_block(s, len, st, en);
	if (found(D_HTTP_LINE, s, len, &st, &en)) {
		if (s[st] == '<')
			st += 2;
		return line_of(s, len, st, en, false);
	}
	if (found(D_STATUS, s, len, &st, &en) ||
	    found(D_CURL, s, len, &st, &en) ||
	    found(D_ERRLINE, s, len, &st, &en))
		return line_of(s, len, st, en, true);
	return NULL;
}
