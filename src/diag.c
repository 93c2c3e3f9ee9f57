#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "jsonw.h"
#include "textesc.h"
#include "xmalloc.h"

void
diag_list_init(struct diag_list *l)
{
	memset(l, 0, sizeof(*l));
}

static void
diag_release_one(struct diag *d)
{
	free(d->file);
	free(d->message);
	free(d->hint);
	free(d->source_line);
}

void
diag_list_release(struct diag_list *l)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		diag_release_one(&l->items[i]);
	free(l->items);
	diag_list_init(l);
}

/*
 * Copies line `line` (1-based) of text, without its newline.  With a
 * cursor it is looked for from the line found last, forward or back:
 * diagnostics come mostly in the order of the file.
 */
static char *
copy_line(const char *text, size_t len, int line, struct diag_cursor *cur)
{
	const char	*p, *end, *nl;
	int		 n = 1;

	if (text == NULL || line < 1)
		return NULL;
	p = text;
	end = text + len;
	if (cur != NULL && cur->line > 0 && cur->off <= len) {
		p = text + cur->off;
		n = cur->line;
		/* Back to the start of the line before, as often as needed. */
		for (; n > line; n--)
			for (p--; p > text && p[-1] != '\n'; p--)
				;
	}
	for (; n < line; n++) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			return NULL;
		p = nl + 1;
	}
	if (cur != NULL) {
		cur->off = (size_t)(p - text);
		cur->line = n;
	}
	nl = memchr(p, '\n', (size_t)(end - p));
	if (nl == NULL)
		nl = end;
	if (nl > p && nl[-1] == '\r')
		nl--;
	return xmemdup0(p, (size_t)(nl - p));
}

struct diag *
diag_vadd_at(struct diag_list *l, enum diag_severity sev, enum diag_code code,
    const struct diag_loc *loc, struct diag_cursor *cur, const char *fmt,
    va_list ap)
{
	struct diag	*d;

	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->items = xreallocarray(l->items, l->cap, sizeof(*l->items));
	}
	d = &l->items[l->n++];
	memset(d, 0, sizeof(*d));
	d->code = code;
	d->severity = sev;
	if (loc != NULL) {
		d->file = xstrdup(loc->file ? loc->file : "<input>");
		d->line = loc->line;
		d->col = loc->col;
		d->end_line = loc->end_line;
		d->end_col = loc->end_col;
		d->source_line = copy_line(loc->text, loc->text_len, loc->line,
		    cur);
	} else
		d->file = xstrdup("<input>");
	d->message = xvasprintf(fmt, ap);
	if (sev == DIAG_ERROR)
		l->errors++;
	return d;
}

struct diag *
diag_vadd(struct diag_list *l, enum diag_severity sev, enum diag_code code,
    const struct diag_loc *loc, const char *fmt, va_list ap)
{
	return diag_vadd_at(l, sev, code, loc, NULL, fmt, ap);
}

struct diag *
diag_add(struct diag_list *l, enum diag_severity sev, enum diag_code code,
    const struct diag_loc *loc, const char *fmt, ...)
{
	struct diag	*d;
	va_list		 ap;

	va_start(ap, fmt);
	d = diag_vadd(l, sev, code, loc, fmt, ap);
	va_end(ap);
	return d;
}

void
diag_set_hint(struct diag *d, const char *fmt, ...)
{
	va_list		 ap;

	free(d->hint);
	va_start(ap, fmt);
	d->hint = xvasprintf(fmt, ap);
	va_end(ap);
}

static int
diag_cmp(const void *a, const void *b)
{
	const struct diag	*x = a, *y = b;
	int			 c;

	if ((c = strcmp(x->file, y->file)) != 0)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	if (x->code != y->code)
		return x->code < y->code ? -1 : 1;
	return strcmp(x->message, y->message);
}

void
diag_sort(struct diag_list *l)
{
	if (l->n > 1)
		qsort(l->items, l->n, sizeof(*l->items), diag_cmp);
}

void
diag_list_take(struct diag_list *dst, struct diag_list *src)
{
	size_t	i;

	for (i = 0; i < src->n; i++) {
		if (dst->n == dst->cap) {
			dst->cap = dst->cap ? dst->cap * 2 : 16;
			dst->items = xreallocarray(dst->items, dst->cap,
			    sizeof(*dst->items));
		}
		dst->items[dst->n++] = src->items[i];
	}
	dst->errors += src->errors;
	free(src->items);
	diag_list_init(src);
}

const char *
diag_code_name(enum diag_code code)
{
	switch (code) {
#define X(num, name, summary) case DIAG_##name: return #name;
#include "diag.def"
#undef X
	}
	return "unknown";
}

void
diag_code_str(enum diag_code code, char out[8])
{
	snprintf(out, 8, "RR%04d", (int)code % 10000);
}

static const char *
severity_name(enum diag_severity s)
{
	switch (s) {
	case DIAG_ERROR:	return "error";
	case DIAG_WARNING:	return "warning";
	case DIAG_NOTE:		return "note";
	}
	return "error";
}

static void
print_location(struct buf *b, const struct diag *d)
{
	textesc_add(b, d->file, strlen(d->file), TEXTESC_LINE);
	if (d->line > 0) {
		buf_printf(b, ":%d", d->line);
		if (d->col > 0)
			buf_printf(b, ":%d", d->col);
	}
}

char *
diag_format_short(const struct diag *d)
{
	struct buf	b;
	char		code[8];

	buf_init(&b);
	diag_code_str(d->code, code);
	print_location(&b, d);
	buf_printf(&b, ": %s: ", severity_name(d->severity));
	textesc_add(&b, d->message, strlen(d->message), TEXTESC_LINE);
	buf_printf(&b, " [%s]", code);
	return buf_detach(&b, NULL);
}

/* East Asian wide characters take two terminal cells. */
static int
cell_width(const unsigned char *p, size_t n)
{
	unsigned int	cp;

	if (n == 3)
		cp = ((p[0] & 0x0fu) << 12) | ((p[1] & 0x3fu) << 6) |
		    (p[2] & 0x3fu);
	else if (n == 4)
		cp = ((p[0] & 0x07u) << 18) | ((p[1] & 0x3fu) << 12) |
		    ((p[2] & 0x3fu) << 6) | (p[3] & 0x3fu);
	else
		return 1;
	if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) ||
	    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
	    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
	    (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
	    (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd))
		return 2;
	return 1;
}

/*
 * The caret line keeps the tabs of the source line so the caret lands under
 * the right character in any tab setting, and pads wide characters with two
 * spaces.  Columns count characters.
 */
void
diag_print_text(FILE *fp, const struct diag *d)
{
	diag_print_text_color(fp, d, false);
}

/* ANSI colours, as compilers use them (color.h decides when). */
#define DIAG_BOLD	"\033[1m"
#define DIAG_RED	"\033[1;31m"
#define DIAG_MAGENTA	"\033[1;35m"
#define DIAG_CYAN	"\033[1;36m"
#define DIAG_GREEN	"\033[1;32m"
#define DIAG_RESET	"\033[0m"

void
diag_print_text_color(FILE *fp, const struct diag *d, bool color)
{
	struct buf	 b;
	char		*s, code[8];
	const char	*p;
	size_t		 len, off, i, n, width;
	int		 ch;

	buf_init(&b);
	if (color) {
		diag_code_str(d->code, code);
		buf_adds(&b, DIAG_BOLD);
		print_location(&b, d);
		buf_printf(&b, ": %s%s:" DIAG_RESET " ", d->severity ==
		    DIAG_ERROR ? DIAG_RED : d->severity == DIAG_WARNING ?
		    DIAG_MAGENTA : DIAG_CYAN, severity_name(d->severity));
		textesc_add(&b, d->message, strlen(d->message), TEXTESC_LINE);
		buf_printf(&b, " [%s]", code);
	} else {
		s = diag_format_short(d);
		buf_adds(&b, s);
		free(s);
	}
	buf_addc(&b, '\n');
	if (d->source_line != NULL && d->col > 0) {
		p = d->source_line;
		len = strlen(p);
		buf_printf(&b, "%s\n", p);
		off = utf8_prefix(p, len, (size_t)d->col - 1);
		for (i = 0; i < off; i += n ? n : 1) {
			n = utf8_seqlen((const unsigned char *)p + i, off - i);
			if (p[i] == '\t')
				buf_addc(&b, '\t');
			else
				buf_adds(&b, cell_width((const unsigned char *)
				    p + i, n) == 2 ? "  " : " ");
		}
		if (color)
			buf_adds(&b, DIAG_GREEN);
		buf_addc(&b, '^');
		width = 1;
		if ((d->end_line == 0 || d->end_line == d->line) &&
		    d->end_col > d->col)
			width = (size_t)(d->end_col - d->col) + 1;
		/* Never underline past the end of the line. */
		ch = (int)utf8_count(p + off, len - off);
		if (width > (size_t)ch && ch > 0)
			width = (size_t)ch;
		for (i = 1; i < width; i++)
			buf_addc(&b, '~');
		if (color)
			buf_adds(&b, DIAG_RESET);
		buf_addc(&b, '\n');
	}
	if (d->hint != NULL)
		buf_printf(&b, "hint: %s\n", d->hint);
	fwrite(b.data, 1, b.len, fp);
	buf_release(&b);
}

/*
 * The machine formats (json, github) walk the list alike; what they
 * write, and how they escape it, is each format's own.
 */
void
diag_print_json(FILE *fp, const struct diag_list *l)
{
	struct buf		 b;
	const struct diag	*d;
	size_t			 i;
	char			 code[8];

	buf_init(&b);
	buf_addc(&b, '[');
	for (i = 0; i < l->n; i++) {
		d = &l->items[i];
		diag_code_str(d->code, code);
		buf_adds(&b, i ? ",\n {" : "\n {");
		buf_adds(&b, "\"file\":");
		jsonw_cstring(&b, d->file);
		buf_printf(&b, ",\"line\":%d,\"column\":%d,\"end_line\":%d,"
		    "\"end_column\":%d,\"severity\":\"%s\",\"code\":\"%s\","
		    "\"name\":\"%s\",\"message\":", d->line, d->col,
		    d->end_line ? d->end_line : d->line,
		    d->end_col ? d->end_col : d->col,
		    severity_name(d->severity), code, diag_code_name(d->code));
		jsonw_cstring(&b, d->message);
		if (d->hint != NULL) {
			buf_adds(&b, ",\"hint\":");
			jsonw_cstring(&b, d->hint);
		}
		buf_addc(&b, '}');
	}
	buf_adds(&b, l->n ? "\n]\n" : "]\n");
	fwrite(b.data, 1, b.len, fp);
	buf_release(&b);
}

/* GitHub escapes %, CR and LF in workflow command values. */
static void
github_escape(struct buf *b, const char *s, bool property)
{
	for (; *s; s++) {
		if (*s == '%')
			buf_adds(b, "%25");
		else if (*s == '\r')
			buf_adds(b, "%0D");
		else if (*s == '\n')
			buf_adds(b, "%0A");
		else if (property && *s == ':')
			buf_adds(b, "%3A");
		else if (property && *s == ',')
			buf_adds(b, "%2C");
		else
			buf_addc(b, *s);
	}
}

void
diag_print_github(FILE *fp, const struct diag_list *l)
{
	struct buf		 b;
	const struct diag	*d;
	size_t			 i;
	char			 code[8];

	buf_init(&b);
	for (i = 0; i < l->n; i++) {
		d = &l->items[i];
		diag_code_str(d->code, code);
		buf_printf(&b, "::%s file=", d->severity == DIAG_ERROR ?
		    "error" : d->severity == DIAG_WARNING ? "warning" : "notice");
		github_escape(&b, d->file, true);
		if (d->line > 0)
			buf_printf(&b, ",line=%d", d->line);
		if (d->col > 0)
			buf_printf(&b, ",col=%d", d->col);
		buf_printf(&b, ",title=%s::", code);
		github_escape(&b, d->message, false);
		buf_addc(&b, '\n');
	}
	fwrite(b.data, 1, b.len, fp);
	buf_release(&b);
}

/* Every code, with its summary: SARIF's rules. */
static const struct {
	enum diag_code	 code;
	const char	*summary;
} diag_codes[] = {
#define X(num, name, summary) { DIAG_##name, summary },
#include "diag.def"
#undef X
};

/* A file name as a SARIF URI: file:///abs/path, or a relative reference. */
static void
sarif_uri(struct buf *b, const char *file)
{
	struct buf		 u;
	const unsigned char	*p;

	buf_init(&u);
	if (file[0] == '/')
		buf_adds(&u, "file://");
	for (p = (const unsigned char *)file; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/-._~", *p) != NULL)
			buf_addc(&u, (char)*p);
		else
			buf_printf(&u, "%%%02X", *p);
	}
	buf_addc(&u, '\0');
	jsonw_cstring(b, u.data);
	buf_release(&u);
}

static size_t
sarif_rule_index(enum diag_code code)
{
	size_t	i;

	for (i = 0; i < sizeof(diag_codes) / sizeof(diag_codes[0]); i++)
		if (diag_codes[i].code == code)
			return i;
	return 0;
}

void
diag_print_sarif(FILE *fp, const struct diag_list *l, const char *version)
{
	struct buf		 b;
	const struct diag	*d;
	size_t			 i;
	char			 code[8], *text;

	buf_init(&b);
	buf_adds(&b, "{\"$schema\":\"https://json.schemastore.org/"
	    "sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{\"tool\":"
	    "{\"driver\":{\"name\":\"reflexion-rules\",\"version\":");
	jsonw_cstring(&b, version);
	buf_adds(&b, ",\"rules\":[");
	for (i = 0; i < sizeof(diag_codes) / sizeof(diag_codes[0]); i++) {
		diag_code_str(diag_codes[i].code, code);
		buf_printf(&b, "%s\n {\"id\":\"%s\",\"name\":\"%s\","
		    "\"shortDescription\":{\"text\":", i ? "," : "", code,
		    diag_code_name(diag_codes[i].code));
		jsonw_cstring(&b, diag_codes[i].summary);
		buf_adds(&b, "},\"help\":{\"text\":");
		text = xasprintf("%s: %s. See reflexion-rules(5), DIAGNOSTICS, "
		    "for what it means and how to fix it.", code,
		    diag_codes[i].summary);
		jsonw_cstring(&b, text);
		free(text);
		/* The codes that only warn say so in their summary. */
		buf_printf(&b, "},\"defaultConfiguration\":{\"level\":\"%s\"}}",
		    strstr(diag_codes[i].summary, "(a warning)") != NULL ?
		    "warning" : "error");
	}
	buf_adds(&b, "]}},\"columnKind\":\"unicodeCodePoints\",\"results\":[");
	for (i = 0; i < l->n; i++) {
		d = &l->items[i];
		diag_code_str(d->code, code);
		buf_printf(&b, "%s\n {\"ruleId\":\"%s\",\"ruleIndex\":%zu,"
		    "\"level\":\"%s\",\"message\":{\"text\":", i ? "," : "",
		    code, sarif_rule_index(d->code),
		    d->severity == DIAG_ERROR ? "error" :
		    d->severity == DIAG_WARNING ? "warning" : "note");
		if (d->hint != NULL) {
			text = xasprintf("%s\nhint: %s", d->message, d->hint);
			jsonw_cstring(&b, text);
			free(text);
		} else
			jsonw_cstring(&b, d->message);
		buf_adds(&b, "},\"locations\":[{\"physicalLocation\":"
		    "{\"artifactLocation\":{\"uri\":");
		sarif_uri(&b, d->file);
		buf_addc(&b, '}');
		if (d->line > 0) {
			buf_printf(&b, ",\"region\":{\"startLine\":%d",
			    d->line);
			if (d->col > 0)
				buf_printf(&b, ",\"startColumn\":%d", d->col);
			if (d->end_line > 0)
				buf_printf(&b, ",\"endLine\":%d", d->end_line);
			/* SARIF's end column is the one after the region. */
			if (d->end_col > 0)
				buf_printf(&b, ",\"endColumn\":%d",
				    d->end_col + 1);
			buf_addc(&b, '}');
		}
		buf_adds(&b, "}}]}");
	}
	buf_adds(&b, l->n ? "\n]}]}\n" : "]}]}\n");
	fwrite(b.data, 1, b.len, fp);
	buf_release(&b);
}
