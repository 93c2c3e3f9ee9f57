/*
 * Redaction of recorded text (redact.h).  The built-in patterns are
 * compiled once per process, on first use.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "match_re.h"
#include "redact.h"
#include "xmalloc.h"

/* Environment values shorter than this are too common to mask. */
#define ENV_SECRET_MIN	8

/*
 * Pattern, replacement.  A \K keeps what precedes it (the name of a
 * variable, the scheme and user of a URL) and masks only the value.
 */
static const char *const builtins[][2] = {
	{ "-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:[\\s\\S]*?-----END "
	    "[A-Z0-9 ]*PRIVATE KEY-----|[\\s\\S]*)", "[REDACTED PRIVATE KEY]" },
	/* The end of a key whose start was cut off elsewhere. */
	{ "(?m)^(?:[A-Za-z0-9+/=]{16,}\\r?\\n)+-----END [A-Z0-9 ]*PRIVATE "
	    "KEY-----", "[REDACTED PRIVATE KEY]" },
	{ "(?i)\\b(?:proxy-)?authorization[\"']?\\s*[:=]\\s*[\"']?"
	    "(?:bearer|basic|token|bot)?\\s*\\K[^\\s\"',;]+", REDACTED },
	{ "(?i)\\bbearer\\s+\\K[A-Za-z0-9._~+/=-]{8,}", REDACTED },
	{ "\\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\\b",
	    REDACTED },
	{ "\\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,})",
	    REDACTED },
	{ "\\bxox[abposr]-[A-Za-z0-9-]{10,}", REDACTED },
	{ "\\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}", REDACTED },
	{ "\\bAIza[0-9A-Za-z_-]{35}", REDACTED },
	{ "\\beyJ[A-Za-z0-9_-]{5,}\\.eyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{5,}",
	    REDACTED },
	{ "(?i)\\b[a-z][a-z0-9+.-]*://[^/\\s:@]+:\\K[^/\\s@]+(?=@)", REDACTED },
	{ "(?i)--?(?:password|passwd|token|secret|api-?key)(?:=|\\s+)\\K"
	    "[^\\s\"']+", REDACTED },
	{ "(?i)\\b[A-Za-z0-9_.-]*(?:password|passwd|secret|token|api[_-]?key|"
	    "apikey|access[_-]?key|private[_-]?key|credential)[A-Za-z0-9_.-]*"
	    "[\"']?[ \\t]*[:=][ \\t]*[\"']?\\K[^\\s\"'`,;&]+", REDACTED },
};

#define NBUILTINS	(sizeof(builtins) / sizeof(builtins[0]))

static struct rr_regex	*compiled[NBUILTINS];

static void
compile_builtins(void)
{
	if (compiled[0] == NULL)
		rr_regex_compile_table("redaction pattern", builtins,
		    NBUILTINS, sizeof(builtins[0]), compiled);
}

/* Case-insensitive search for an ASCII needle; NULL when absent. */
static const char *
find_ci(const char *s, size_t len, const char *needle)
{
	size_t	n = strlen(needle), i, j;

	for (i = 0; i + n <= len; i++) {
		for (j = 0; j < n; j++)
			if (tolower((unsigned char)s[i + j]) != needle[j])
				break;
		if (j == n)
			return s + i;
	}
	return NULL;
}

void
redact_drop_private(const char *s, size_t len, struct buf *out)
{
	const char	*open, *close, *end = s + len;

	while ((open = find_ci(s, (size_t)(end - s), "<private>")) != NULL) {
		buf_add(out, s, (size_t)(open - s));
		close = find_ci(open, (size_t)(end - open), "</private>");
		if (close == NULL)
			return;
		s = close + strlen("</private>");
	}
	buf_add(out, s, (size_t)(end - s));
}

static bool
secret_name(const char *name, size_t len)
{
	static const char *const words[] = {
		"password", "passwd", "secret", "token", "apikey", "api_key",
		"access_key", "private_key", "credential", NULL
	};
	size_t	i;

	for (i = 0; words[i]; i++)
		if (find_ci(name, len, words[i]) != NULL)
			return true;
	return false;
}

/* Masks every literal occurrence of the values of secret-named variables. */
static void
mask_env(struct buf *b)
{
	extern char	**environ;
	char		**e;
	const char	 *eq, *val, *hit;
	struct buf	  out;
	size_t		  vlen, i;

	for (e = environ; e != NULL && *e != NULL; e++) {
		if ((eq = strchr(*e, '=')) == NULL ||
		    !secret_name(*e, (size_t)(eq - *e)))
			continue;
		val = eq + 1;
		vlen = strlen(val);
		if (vlen < ENV_SECRET_MIN ||
		    memmem(b->data, b->len, val, vlen) == NULL)
			continue;
		buf_init(&out);
		i = 0;
		while ((hit = memmem(b->data + i, b->len - i, val, vlen)) !=
		    NULL) {
			buf_add(&out, b->data + i, (size_t)(hit - b->data) - i);
			buf_adds(&out, REDACTED);
			i = (size_t)(hit - b->data) + vlen;
		}
		buf_add(&out, b->data + i, b->len - i);
		buf_release(b);
		*b = out;
	}
}

/* Applies one pattern to b; false when it hit a limit. */
static bool
apply(const struct rr_regex *re, const char *repl, struct buf *b)
{
	struct buf	out;
	long		n;

	buf_init(&out);
	n = rr_regex_replace_all(re, b->data, b->len, repl, &out);
	buf_release(b);
	*b = out;
	return n >= 0;
}

void
redact_text(const struct redact_opts *o, const char *s, size_t len,
    struct buf *out)
{
	struct buf	b;
	size_t		i;
	bool		ok = true;

	buf_init(&b);
	redact_drop_private(s, len, &b);
	if (o->defaults) {
		compile_builtins();
		mask_env(&b);
		for (i = 0; i < NBUILTINS && ok; i++)
			ok = apply(compiled[i], builtins[i][1], &b);
	}
	for (i = 0; i < o->nextra && ok; i++)
		ok = apply(o->extra[i], REDACTED, &b);
	if (ok)
		buf_add(out, b.data, b.len);
	else
		buf_adds(out, REDACT_FAILED);
	buf_release(&b);
}
