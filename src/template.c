/*
 * Compiling message templates (template.h): variables, sections and
 * filters resolved once, unknown ones reported with their offset, so
 * that nothing is a surprise at hook time.  Rendering is
 * template_render.c's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory.h"
#include "route.h"
#include "template.h"
#include "xmalloc.h"

const char *const tpl_var_names[V__COUNT] = {
	[V_PATH] = "path",
	[V_FILE_PATH] = "file_path",
	[V_ABS_PATH] = "abs_path",
	[V_COMMAND] = "command",
	[V_TOOL] = "tool",
	[V_EVENT] = "event",
	[V_RULE] = "rule",
	[V_SKILL] = "skill",
	[V_DESCRIPTION] = "description",
	[V_MATCH] = "match",
	[V_PROMPT] = "prompt",
	[V_MESSAGE] = "message",
	[V_ERROR] = "error",
	[V_CWD] = "cwd",
	[V_SESSION_ID] = "session_id",
	[V_INPUT] = "input",
	[V_ENV] = "env",
	[V_MISSING] = "missing",
	[V_SECTIONS] = "sections",
	[V_KEYWORDS] = "keywords",
	[V_LBRACES] = "lbraces",
	[V_LBRACE] = "lbrace",
	[V_BLOCK] = "block",
	[V_BLOCKS] = "blocks",
	[V_BLOCK_FIELD] = "block",
	[V_ROUTE_EXEC_TYPE] = "route.exec_type",
	[V_ROUTE_PIPELINE] = "route.pipeline",
	[V_ROUTE_ICON] = "route.icon",
	[V_ROUTE_CONFIDENCE] = "route.confidence",
	[V_ROUTE_REASON] = "route.reason",
	[V_CRITICAL] = "critical",
	[V_HIGH] = "high",
	[V_MEDIUM] = "medium",
	[V_LOW] = "low",
};

const char *const tpl_mem_field_names[MF__COUNT] = {
	[MF_ID] = "id",
	[MF_KIND] = "kind",
	[MF_DATE] = "date",
	[MF_TS] = "ts",
	[MF_SESSION] = "session",
	[MF_PROJECT] = "project",
	[MF_SUMMARY] = "summary",
	[MF_TEXT] = "text",
	[MF_TOOL] = "tool",
	[MF_EXEC_TYPE] = "exec_type",
	[MF_PIPELINE] = "pipeline",
	[MF_ICON] = "icon",
	[MF_CONFIDENCE] = "confidence",
	[MF_REASON] = "reason",
};

static bool
is_banner_list(enum tpl_var v)
{
	return v >= V_CRITICAL && v <= V_LOW;
}

static void
push(struct arena *a, struct template *t, struct tpl_seg *seg)
{
	struct tpl_seg	*segs;

	/* Templates are short; growing by copy keeps everything in the arena. */
	segs = arena_alloc(a, (t->n + 1) * sizeof(*segs));
	if (t->n)
		memcpy(segs, t->segs, t->n * sizeof(*segs));
	segs[t->n++] = *seg;
	t->segs = segs;
}

void
tpl_add_literal(struct arena *a, struct template *t, const char *s,
    size_t len)
{
	struct tpl_seg	seg = { .kind = TPL_LITERAL, .len = len,
	    .var = V__COUNT };

	if (len == 0)
		return;
	seg.text = arena_strndup(a, s, len);
	push(a, t, &seg);
}

void
tpl_add_var(struct arena *a, struct template *t, enum tpl_var v)
{
	struct tpl_seg	seg = { .kind = TPL_VAR, .var = v };

	push(a, t, &seg);
}

static int
is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

/*
 * The event variable named ns[0..nlen) into seg (kind, var, key); the
 * enum value, or -1 when there is no such variable.
 */
static int
lookup_var(struct arena *a, const char *ns, size_t nlen, struct tpl_seg *seg)
{
	size_t	i, vl;
	int	v;

	for (i = 0; i < nlen; i++)
		if (!is_key_char(ns[i]))
			return -1;
	if (nlen == 0)
		return -1;
	for (v = 0; v < V__COUNT; v++) {
		vl = strlen(tpl_var_names[v]);
		if (v == V_INPUT || v == V_ENV || v == V_BLOCK_FIELD) {
			if (nlen > vl + 1 && memcmp(ns, tpl_var_names[v],
			    vl) == 0 && ns[vl] == '.') {
				seg->text = arena_strndup(a, ns + vl + 1,
				    nlen - vl - 1);
				seg->len = nlen - vl - 1;
				break;
			}
		} else if (vl == nlen && memcmp(ns, tpl_var_names[v],
		    nlen) == 0)
			break;
	}
	if (v == V__COUNT)
		return -1;
	seg->kind = TPL_VAR;
	seg->var = (enum tpl_var)v;
	return v;
}

/* ---- sections ----------------------------------------------------------- */

#define TPL_MAX_DEPTH	16

const char *const tpl_row_field_names[TF__COUNT] = {
	[TF_ERROR] = "error",
	[TF_RESOLUTION] = "resolution",
	[TF_PARSED] = "parsed",
	[TF_LAST_USED] = "last_used",
	[TF_USES] = "uses",
	[TF_ID] = "id",
	[TF_RESOLUTION_PATH] = "resolution.",
};

/* One compilation: the source, where we are, and the first error. */
struct tparse {
	struct arena	*a;
	const char	*src;
	size_t		 len;
	size_t		 pos;
	struct template	*root;
	int		 depth;
	bool		 in_kb;		/* inside {{#kb}} */
	bool		 in_memory;	/* inside {{#memory}} */
	bool		 banner;	/* the lists of a banner are known */
	char		*errmsg;
	size_t		 erroff;
	int		 rc;
};

static int
tp_error(struct tparse *p, int rc, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int
tp_error(struct tparse *p, int rc, size_t off, const char *fmt, ...)
{
	va_list		ap;

	va_start(ap, fmt);
	p->errmsg = xvasprintf(fmt, ap);
	va_end(ap);
	p->erroff = off;
	p->rc = rc;
	return -1;
}

/* The "}}" closing the tag at `open`, skipping quoted separators. */
static const char *
tag_end(const char *open, const char *end)
{
	const char	*q;
	bool		 quoted = false;

	for (q = open + 2; q + 1 < end; q++) {
		if (quoted) {
			if (*q == '\\' && q + 1 < end)
				q++;
			else if (*q == '"')
				quoted = false;
		} else if (*q == '"')
			quoted = true;
		else if (q[0] == '}' && q[1] == '}')
			return q;
	}
	return NULL;
}

/*
 * Parses `| join: "SEP"` at s[0..n) (s points at the '|'); sets the
 * unescaped separator.  -1 with the error set.
 */
static int
parse_join(struct tparse *p, const char *s, size_t n, struct tpl_seg *seg)
{
	const char	*q = s + 1, *end = s + n;
	struct buf	 b;
	size_t		 off = (size_t)(s - p->src);

	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	if ((size_t)(end - q) < 4 || memcmp(q, "join", 4) != 0)
		return tp_error(p, -2, off, "unknown filter in '%.*s': the "
		    "only one is '| join: \"separator\"'", (int)n, s);
	q += 4;
	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	if (q < end && *q == ':')
		q++;
	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	if (q >= end || *q != '"')
		return tp_error(p, -2, (size_t)(q - p->src), "'join' needs a "
		    "quoted separator: | join: \", \"");
	buf_init(&b);
	for (q++; q < end && *q != '"'; q++) {
		if (*q != '\\') {
			buf_addc(&b, *q);
			continue;
		}
		if (++q >= end)
			break;
		switch (*q) {
		case 'n':  buf_addc(&b, '\n'); break;
		case 't':  buf_addc(&b, '\t'); break;
		case '\\': buf_addc(&b, '\\'); break;
		case '"':  buf_addc(&b, '"'); break;
		default:
			buf_release(&b);
			return tp_error(p, -2, (size_t)(q - 1 - p->src),
			    "unknown escape '\\%c' in a separator (use \\n, "
			    "\\t, \\\\ or \\\")", *q);
		}
	}
	if (q >= end) {
		buf_release(&b);
		return tp_error(p, -2, off, "unterminated separator string");
	}
	for (q++; q < end && (*q == ' ' || *q == '\t'); q++)
		;
	if (q < end) {
		buf_release(&b);
		return tp_error(p, -2, (size_t)(q - p->src), "unexpected '%.*s' "
		    "after the separator", (int)(end - q), q);
	}
	seg->seplen = b.len;
	seg->sep = arena_strndup(p->a, b.data, b.len);
	buf_release(&b);
	return 0;
}

/*
 * Resolves a name: kb (the rows), kb.FIELD (a field of the current row)
 * or an event variable.  Fills seg; -1 with the error set.
 */
static int
resolve_name(struct tparse *p, const char *ns, size_t nlen, size_t off,
    struct tpl_seg *seg, bool section)
{
	size_t	i, fl;
	int	f;

	if (nlen == 2 && memcmp(ns, "kb", 2) == 0) {
		p->root->uses_kb = true;
		if (!section)
			return tp_error(p, -2, off, "'kb' is a list of rows: "
			    "write {{#kb}}...{{/kb}} and name the fields of a "
			    "row inside (kb.error, kb.resolution, ...)");
		seg->section = SEC_KB;
		return 0;
	}
	if (nlen > 3 && memcmp(ns, "kb.", 3) == 0) {
		p->root->uses_kb = true;
		for (i = 3; i < nlen; i++)
			if (!is_key_char(ns[i]))
				break;
		for (f = 0; i == nlen && f < TF__COUNT; f++) {
			fl = strlen(tpl_row_field_names[f]);
			if (f == TF_RESOLUTION_PATH ? nlen - 3 > fl &&
			    memcmp(ns + 3, tpl_row_field_names[f], fl) == 0 :
			    nlen - 3 == fl && memcmp(ns + 3,
			    tpl_row_field_names[f], fl) == 0)
				break;
		}
		if (i != nlen || f == TF__COUNT)
			return tp_error(p, -1, off, "unknown template variable "
			    "'%.*s'", (int)nlen, ns);
		if (!p->in_kb)
			return tp_error(p, -2, off, "'%.*s' names a row of the "
			    "knowledge base: use it inside {{#kb}}...{{/kb}}",
			    (int)nlen, ns);
		seg->kind = TPL_ROW;
		seg->section = SEC_ROW;
		seg->field = (enum tpl_row_field)f;
		if (f == TF_RESOLUTION_PATH) {
			fl = 3 + strlen(tpl_row_field_names[f]);
			seg->text = arena_strndup(p->a, ns + fl, nlen - fl);
			seg->len = nlen - fl;
		}
		return 0;
	}
	if (nlen == 6 && memcmp(ns, "memory", 6) == 0) {
		p->root->uses_memory = true;
		if (!section)
			return tp_error(p, -2, off, "'memory' is a list of rows: "
			    "write {{#memory}}...{{/memory}} and name the "
			    "fields of a row inside (memory.summary, ...)");
		seg->section = SEC_MEMORY;
		return 0;
	}
	if (nlen > 7 && memcmp(ns, "memory.", 7) == 0) {
		p->root->uses_memory = true;
		for (f = 0; f < MF__COUNT; f++)
			if (nlen - 7 == strlen(tpl_mem_field_names[f]) &&
			    memcmp(ns + 7, tpl_mem_field_names[f], nlen - 7) ==
			    0)
				break;
		if (f == MF__COUNT)
			return tp_error(p, -1, off, "unknown template variable "
			    "'%.*s'", (int)nlen, ns);
		if (!p->in_memory)
			return tp_error(p, -2, off, "'%.*s' names a row of the "
			    "memory: use it inside {{#memory}}...{{/memory}}",
			    (int)nlen, ns);
		seg->kind = TPL_MEMROW;
		seg->section = SEC_MEMROW;
		seg->mfield = (enum tpl_mem_field)f;
		return 0;
	}
	if (lookup_var(p->a, ns, nlen, seg) < 0 || (!p->banner &&
	    is_banner_list(seg->var)))
		return tp_error(p, -1, off, "unknown template variable '%.*s'",
		    (int)nlen, ns);
	seg->section = SEC_VAR;
	return 0;
}

/* The first "{{" in s[0..n), or NULL (memchr() finds the braces fast). */
static const char *
find_open(const char *s, size_t n)
{
	const char	*end = s + n, *q;

	while (s + 1 < end && (q = memchr(s, '{', (size_t)(end - s) - 1)) !=
	    NULL) {
		if (q[1] == '{')
			return q;
		s = q + 1;
	}
	return NULL;
}

/*
 * Parses segments into t until the end of the source (close == NULL) or
 * the {{/close}} tag.  open_off is where that section opened.
 */
static int
parse_body(struct tparse *p, struct template *t, const char *close,
    size_t close_len, size_t open_off)
{
	const char	*end = p->src + p->len, *open, *tend, *ns, *ne, *bar;
	struct tpl_seg	 seg;
	size_t		 off, nlen;
	char		 sigil;
	bool		 was_in_kb, was_in_memory;

	while (p->pos < p->len) {
		open = find_open(p->src + p->pos, p->len - p->pos);
		if (open == NULL) {
			tpl_add_literal(p->a, t, p->src + p->pos,
			    p->len - p->pos);
			p->pos = p->len;
			break;
		}
		tpl_add_literal(p->a, t, p->src + p->pos,
		    (size_t)(open - p->src) - p->pos);
		off = (size_t)(open - p->src);
		if ((tend = tag_end(open, end)) == NULL)
			return tp_error(p, -1, off,
			    "unterminated '{{' in message");
		p->pos = (size_t)(tend - p->src) + 2;
		ns = open + 2;
		ne = tend;
		while (ns < ne && (*ns == ' ' || *ns == '\t'))
			ns++;
		while (ne > ns && (ne[-1] == ' ' || ne[-1] == '\t'))
			ne--;
		sigil = ns < ne && (*ns == '#' || *ns == '^' || *ns == '/') ?
		    *ns : 0;
		if (sigil) {
			ns++;
			while (ns < ne && (*ns == ' ' || *ns == '\t'))
				ns++;
		}
		bar = memchr(ns, '|', (size_t)(ne - ns));
		nlen = (size_t)((bar ? bar : ne) - ns);
		while (nlen > 0 && (ns[nlen - 1] == ' ' || ns[nlen - 1] == '\t'))
			nlen--;
		memset(&seg, 0, sizeof(seg));
		if (sigil == '/') {
			if (close == NULL)
				return tp_error(p, -2, off, "'{{/%.*s}}' closes "
				    "no open section", (int)nlen, ns);
			if (nlen != close_len || memcmp(ns, close, nlen) != 0)
				return tp_error(p, -2, off, "'{{/%.*s}}' does "
				    "not close the open section '{{#%.*s}}'",
				    (int)nlen, ns, (int)close_len, close);
			return 0;
		}
		if (resolve_name(p, ns, nlen, off, &seg, sigil != 0) < 0)
			return -1;
		if (bar != NULL) {
			if (sigil == '^')
				return tp_error(p, -2, (size_t)(bar - p->src),
				    "'join' does not apply to {{^...}}");
			if (parse_join(p, bar, (size_t)(ne - bar), &seg) < 0)
				return -1;
			if (sigil == '#' ? seg.section != SEC_KB &&
			    seg.section != SEC_MEMORY :
			    !(seg.kind == TPL_ROW &&
			    seg.field == TF_RESOLUTION_PATH) &&
			    !(seg.kind == TPL_VAR && is_banner_list(seg.var)))
				return tp_error(p, -2, (size_t)(bar - p->src),
				    "'join' needs a list: {{#kb | join: ...}}, "
				    "{{#memory | join: ...}}, a list in a "
				    "resolution, {{kb.resolution.NAME | join: "
				    "...}}, or a banner's list");
		}
		if (sigil == 0) {
			push(p->a, t, &seg);
			continue;
		}
		if ((seg.section == SEC_KB || seg.section == SEC_MEMORY) &&
		    (p->in_kb || p->in_memory))
			return tp_error(p, -2, off, "a section over rows inside "
			    "another: sections over kb and memory do not nest");
		if (p->depth >= TPL_MAX_DEPTH)
			return tp_error(p, -2, off, "sections nest deeper than "
			    "%d", TPL_MAX_DEPTH);
		seg.kind = TPL_SECTION;
		seg.inverted = sigil == '^';
		seg.body = arena_alloc(p->a, sizeof(*seg.body));
		seg.body->src = p->root->src;
		was_in_kb = p->in_kb;
		was_in_memory = p->in_memory;
		if (seg.section == SEC_KB && !seg.inverted)
			p->in_kb = true;
		if (seg.section == SEC_MEMORY && !seg.inverted)
			p->in_memory = true;
		p->depth++;
		if (parse_body(p, seg.body, ns, nlen, off) < 0)
			return -1;
		p->depth--;
		p->in_kb = was_in_kb;
		p->in_memory = was_in_memory;
		push(p->a, t, &seg);
	}
	if (close != NULL)
		return tp_error(p, -2, open_off, "section '{{#%.*s}}' is not "
		    "closed: end it with {{/%.*s}}", (int)close_len, close,
		    (int)close_len, close);
	return 0;
}

static int
compile_any(struct arena *a, const char *src, size_t len, struct template *t,
    char **errmsg, size_t *erroff, bool banner)
{
	struct tparse	p;

	memset(t, 0, sizeof(*t));
	t->src = arena_strndup(a, src, len);
	memset(&p, 0, sizeof(p));
	p.a = a;
	p.src = t->src;
	p.len = len;
	p.root = t;
	p.banner = banner;
	if (parse_body(&p, t, NULL, 0, 0) == 0)
		return 0;
	*errmsg = p.errmsg;
	*erroff = p.erroff;
	return p.rc;
}

int
tpl_compile(struct arena *a, const char *src, size_t len, struct template *t,
    char **errmsg, size_t *erroff)
{
	return compile_any(a, src, len, t, errmsg, erroff, false);
}

int
tpl_compile_banner(struct arena *a, const char *src, size_t len,
    struct template *t, char **errmsg, size_t *erroff)
{
	return compile_any(a, src, len, t, errmsg, erroff, true);
}
