/*
 * Error normalization (errnorm.h).  The regex rules are compiled once per
 * process, on first use, and applied in table order.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "errnorm.h"
#include "jsonw.h"
#include "match_re.h"
#include "xmalloc.h"

/* Longer errors are cut before normalizing: the rules must stay cheap. */
#define ERRNORM_INPUT_MAX	(64u * 1024)

static const char *const rules[][2] = {
	{ "(?:/private)?(?:/tmp|/var/folders)(?:/[^\\s'\"():,;]+)+", "<tmp>" },
	{ "\\b\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(?::\\d{2}(?:[.,]\\d+)?)?"
	    "(?:Z|[+-]\\d{2}:?\\d{2})?", "<time>" },
	{ "\\b\\d{4}-\\d{2}-\\d{2}\\b", "<date>" },
	{ "\\b\\d{1,2}:\\d{2}:\\d{2}(?:[.,]\\d+)?\\b", "<time>" },
	{ "(?i)\\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-"
	    "[0-9a-f]{12}\\b", "<uuid>" },
	{ "\\b0x[0-9a-fA-F]+\\b", "0x<addr>" },
	{ "\\b(?=[0-9a-fA-F]*[a-fA-F])(?=[0-9a-fA-F]*[0-9])[0-9a-fA-F]{12,}\\b",
	    "<hex>" },
	{ "\\b(?:toolu|srvtoolu|msg|req|call)_[A-Za-z0-9]{6,}\\b", "<id>" },
	/* file.ts:12:5 and file.py:12 */
	{ "\\.[A-Za-z0-9]{1,10}:\\K\\d+(?=:\\d+)", "<n>" },
	{ "\\.[A-Za-z0-9]{1,10}:(?:<n>:)?\\K\\d+\\b", "<n>" },
	/* file.ts(12,5) */
	{ "\\.[A-Za-z0-9]{1,10}\\(\\K\\d+(?=[,:]\\d+\\))", "<n>" },
	{ "\\.[A-Za-z0-9]{1,10}\\(<n>[,:]\\K\\d+(?=\\))", "<n>" },
	/* line 12, Line: 12, column 5, col 5 */
	{ "(?i)\\b(?:line|ln|column|col)\\.?:?[ \\t]*\\K\\d+", "<n>" },
	{ "\\b\\d+(?:\\.\\d+)?[ \\t]?ms\\b", "<duration>" },
	{ "\\b\\d+\\.\\d+[ \\t]?s\\b", "<duration>" },
	{ "\\b\\d{6,}\\b", "<n>" },
};

#define NRULES	(sizeof(rules) / sizeof(rules[0]))

static struct rr_regex	*compiled[NRULES];

/* A typo in the table above is a BUG(); tests catch it first. */
static void
compile_rules(void)
{
	if (compiled[0] == NULL)
		rr_regex_compile_table("errnorm rule", rules, NRULES,
		    sizeof(rules[0]), compiled);
}

/* Replaces every occurrence of dir that ends a path component. */
static void
replace_dir(struct buf *b, const char *dir, const char *with)
{
	struct buf	 out;
	size_t		 dlen, i = 0;
	const char	*hit;
	char		 next;

	if (dir == NULL || dir[0] != '/')
		return;
	dlen = strlen(dir);
	while (dlen > 1 && dir[dlen - 1] == '/')
		dlen--;
	if (dlen <= 1)
		return;
	buf_init(&out);
	while (i < b->len && (hit = memmem(b->data + i, b->len - i, dir,
	    dlen)) != NULL) {
		next = hit[dlen];
		/* "/home/dev" must not eat the start of "/home/devel". */
		if ((next >= 'a' && next <= 'z') || (next >= 'A' &&
		    next <= 'Z') || (next >= '0' && next <= '9') ||
		    next == '_' || next == '-' || next == '.') {
			buf_add(&out, b->data + i, (size_t)(hit - b->data) -
			    i + 1);
			i = (size_t)(hit - b->data) + 1;
			continue;
		}
		buf_add(&out, b->data + i, (size_t)(hit - b->data) - i);
		buf_adds(&out, with);
		i = (size_t)(hit - b->data) + dlen;
	}
	buf_add(&out, b->data + i, b->len - i);
	buf_release(b);
	*b = out;
}

/* CR LF to LF, no trailing blanks on lines, no blank first/last lines. */
static void
tidy_lines(const char *s, size_t len, struct buf *out)
{
	size_t	i = 0, eol, end;

	while (i < len) {
		eol = i;
		while (eol < len && s[eol] != '\n')
			eol++;
		end = eol;
		while (end > i && (s[end - 1] == ' ' || s[end - 1] == '\t' ||
		    s[end - 1] == '\r'))
			end--;
		if (end > i || out->len > 0) {
			buf_add(out, s + i, end - i);
			buf_addc(out, '\n');
		}
		i = eol + 1;
	}
	while (out->len > 0 && out->data[out->len - 1] == '\n')
		buf_truncate(out, out->len - 1);
}

/* Invalid UTF-8 becomes U+FFFD: KB texts round-trip through JSON. */
static void
sanitize_utf8(struct buf *b)
{
	char	*clean;
	size_t	 n;

	if (b->len == 0)
		return;
	clean = utf8_valid_dup(b->data, b->len);
	n = strlen(clean);
	buf_truncate(b, 0);
	buf_add(b, clean, n);
	free(clean);
}

char *
errnorm(const char *s, size_t len, const char *project_dir, const char *home)
{
	struct buf	a, b, t;
	size_t		i;

	compile_rules();
	if (len > ERRNORM_INPUT_MAX)
		len = utf8_prefix(s, ERRNORM_INPUT_MAX, ERRNORM_INPUT_MAX);
	buf_init(&a);
	tidy_lines(s, len, &a);
	replace_dir(&a, project_dir, "<project>");
	replace_dir(&a, home, "~");
	for (i = 0; i < NRULES; i++) {
		buf_init(&b);
		/* On a limit hit the text is kept as it was: still stable. */
		rr_regex_replace_all(compiled[i], a.data, a.len, rules[i][1],
		    &b);
		t = a;
		a = b;
		buf_release(&t);
	}
	sanitize_utf8(&a);
	buf_truncate(&a, utf8_prefix(a.data, a.len, ERRNORM_MAX_CHARS));
	return buf_detach(&a, NULL);
}
