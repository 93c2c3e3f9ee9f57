#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "jsonw.h"
#include "kb.h"
#include "memory.h"
#include "route.h"
#include "template.h"
#include "textesc.h"
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
		if (v == V_INPUT || v == V_ENV) {
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
		open = memmem(p->src + p->pos, p->len - p->pos, "{{", 2);
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

static void
add_cstr(struct buf *b, const char *s)
{
	if (s != NULL)
		buf_adds(b, s);
}

/* A value that is data: escaped, so it can add no line to the message. */
static void
add_data(struct buf *b, const char *s, size_t len)
{
	if (s != NULL)
		textesc_add(b, s, len, TEXTESC_LINE);
}

static void
add_cdata(struct buf *b, const char *s)
{
	if (s != NULL)
		textesc_add(b, s, strlen(s), TEXTESC_LINE);
}

/*
 * Text of a knowledge-base row: data too, but multi-line by nature (an
 * error's lines, a resolution as written), and seed 000 prints it so:
 * line feeds stay, every other control is escaped.
 */
static void
add_row_text(struct buf *b, const char *s)
{
	if (s != NULL)
		textesc_add(b, s, strlen(s), TEXTESC_KEEP_LF);
}

/*
 * The event variable of seg.  What the rule's author wrote (rule, skill,
 * description, keywords) is copied as it is; what comes from the event,
 * the environment or files and rows derived from them is data.
 * {{sections}} keeps the line breaks the engine put between its titles
 * (a title is one line of a Markdown file).
 */
static void render_route(const struct tpl_seg *, const struct route_info *,
	    struct buf *);
static void render_skills(const struct tpl_seg *, const struct tpl_ctx *,
	    struct buf *);

static void
render_var(const struct tpl_seg *s, const struct tpl_ctx *c, struct buf *out)
{
	struct rr_event		*ev = c->ev;
	struct rr_text		 txt;

	if (s->var >= V_ROUTE_EXEC_TYPE && s->var <= V_ROUTE_REASON) {
		render_route(s, c->route, out);
		return;
	}
	if (is_banner_list(s->var)) {
		render_skills(s, c, out);
		return;
	}
	switch (s->var) {
	case V_RULE:
		add_cstr(out, c->rule_id);
		return;
	case V_SKILL:
		add_cstr(out, c->skill);
		return;
	case V_DESCRIPTION:
		add_cstr(out, c->description);
		return;
	case V_MATCH:
		add_data(out, c->match, c->match_len);
		return;
	case V_ENV:
		add_cdata(out, getenv(s->text));
		return;
	case V_MISSING:
		add_cdata(out, c->missing);
		return;
	case V_SECTIONS:
		add_row_text(out, c->sections);
		return;
	case V_KEYWORDS:
		add_cstr(out, c->keywords);
		return;
	case V_LBRACES:
		buf_adds(out, "{{");
		return;
	case V_LBRACE:
		buf_addc(out, '{');
		return;
	default:
		break;
	}
	if (ev == NULL)
		return;
	switch (s->var) {
	case V_PATH:
		add_cdata(out, c->path != NULL ? c->path : ev->rel_path);
		break;
	case V_FILE_PATH:
		if (c->file_path != NULL)
			add_cdata(out, c->file_path);
		else
			add_data(out, ev->f[F_PATH].s, ev->f[F_PATH].len);
		break;
	case V_ABS_PATH:
		add_cdata(out, c->abs_path != NULL ? c->abs_path :
		    ev->abs_path);
		break;
	case V_COMMAND:
		add_data(out, ev->f[F_COMMAND].s, ev->f[F_COMMAND].len);
		break;
	case V_TOOL:
		add_cdata(out, ev->tool);
		break;
	case V_EVENT:
		add_cdata(out, ev->event_name);
		break;
	case V_PROMPT:
		txt = event_field(ev, F_PROMPT);
		add_data(out, txt.s, txt.len);
		break;
	case V_MESSAGE:
		add_data(out, ev->f[F_MESSAGE].s, ev->f[F_MESSAGE].len);
		break;
	case V_ERROR:
		txt = event_error(ev);
		add_data(out, txt.s, txt.len);
		break;
	case V_CWD:
		add_cdata(out, ev->cwd);
		break;
	case V_SESSION_ID:
		add_cdata(out, ev->session_id);
		break;
	case V_INPUT:
		txt = event_input(ev, s->text);
		add_data(out, txt.s, txt.len);
		break;
	default:
		break;
	}
}

/* A route's value: the rule's own is as written, a router's is data. */
static void
render_route(const struct tpl_seg *s, const struct route_info *r,
    struct buf *out)
{
	const char	*v = NULL;

	if (r == NULL)
		return;
	switch (s->var) {
	case V_ROUTE_EXEC_TYPE:
		v = r->exec_type;
		break;
	case V_ROUTE_PIPELINE:
		v = r->pipeline;
		break;
	case V_ROUTE_ICON:
		v = r->icon;
		break;
	case V_ROUTE_CONFIDENCE:
		buf_printf(out, "%d", r->confidence);
		return;
	case V_ROUTE_REASON:
		v = r->reason;
		break;
	default:
		return;
	}
	add_cdata(out, v);
}

/* A banner's list: the skill names, as the rules wrote them. */
static void
render_skills(const struct tpl_seg *s, const struct tpl_ctx *c,
    struct buf *out)
{
	size_t	k = (size_t)(s->var - V_CRITICAL), i;

	for (i = 0; i < c->nskills[k]; i++) {
		if (i > 0) {
			if (s->sep != NULL)
				buf_add(out, s->sep, s->seplen);
			else
				buf_adds(out, ", ");
		}
		add_cstr(out, c->skills[k][i]);
	}
}

/* The value at a dotted path inside a parsed resolution, or NULL. */
static const cJSON *
json_at(const cJSON *j, const char *path, size_t len)
{
	const char	*p = path, *end = path + len, *dot;
	char		 part[128];
	size_t		 n;

	while (j != NULL && p < end) {
		dot = memchr(p, '.', (size_t)(end - p));
		if (dot == NULL)
			dot = end;
		n = (size_t)(dot - p);
		if (n >= sizeof(part))
			return NULL;
		memcpy(part, p, n);
		part[n] = '\0';
		if (cJSON_IsArray(j) && n > 0 && strspn(part, "0123456789") == n)
			j = cJSON_GetArrayItem(j, atoi(part));
		else if (cJSON_IsObject(j))
			j = cJSON_GetObjectItemCaseSensitive(j, part);
		else
			return NULL;
		p = dot + 1;
	}
	return j;
}

/* JavaScript truthiness: what `if (value)` in seed 000 tests. */
static bool
json_present(const cJSON *j)
{
	if (j == NULL || cJSON_IsNull(j) || cJSON_IsFalse(j))
		return false;
	if (cJSON_IsNumber(j))
		return j->valuedouble != 0 && j->valuedouble == j->valuedouble;
	if (cJSON_IsString(j))
		return j->valuestring != NULL && j->valuestring[0] != '\0';
	return true;
}

static void json_render(const cJSON *, const char *sep, size_t seplen,
	    struct buf *, int depth);

/*
 * A JSON value as text, as seed 000's `${value || ''}` shows it: strings
 * as they are, numbers as numbers, a list's items joined by sep (default
 * ","), an object as compact JSON; a value that is not present (null,
 * false, 0, "") as nothing.  Items of a list print even when 0 or false.
 */
static void
json_render(const cJSON *j, const char *sep, size_t seplen, struct buf *out,
    int depth)
{
	const cJSON	*it;
	char		 num[64], *txt;
	bool		 first = true;

	if (j == NULL || depth > 32)
		return;
	if (cJSON_IsString(j)) {
		add_row_text(out, j->valuestring);
	} else if (cJSON_IsNumber(j)) {
		if (j->valuedouble == 0 && depth == 0)
			return;
		if (j->valuedouble > -9.2e18 && j->valuedouble < 9.2e18 &&
		    j->valuedouble == (double)(long long)j->valuedouble)
			snprintf(num, sizeof(num), "%lld",
			    (long long)j->valuedouble);
		else {
			snprintf(num, sizeof(num), "%.15g", j->valuedouble);
			if (strtod(num, NULL) != j->valuedouble)
				snprintf(num, sizeof(num), "%.17g",
				    j->valuedouble);
		}
		buf_adds(out, num);
	} else if (cJSON_IsTrue(j)) {
		buf_adds(out, "true");
	} else if (cJSON_IsFalse(j) && depth > 0) {
		buf_adds(out, "false");
	} else if (cJSON_IsArray(j)) {
		cJSON_ArrayForEach(it, j) {
			if (!first) {
				if (sep != NULL)
					buf_add(out, sep, seplen);
				else
					buf_addc(out, ',');
			}
			first = false;
			json_render(it, NULL, 0, out, depth + 1);
		}
	} else if (cJSON_IsObject(j)) {
		if ((txt = cJSON_PrintUnformatted(j)) != NULL) {
			add_row_text(out, txt);
			free(txt);
		}
	}
}

/* The rows a section is at: one of kb's, one of memory's. */
struct tpl_cur {
	const struct kb_row	*kb;
	const struct mem_row	*mem;
};

static void
render_row(const struct tpl_seg *s, const struct kb_row *row, struct buf *out)
{
	if (row == NULL)
		return;
	switch (s->field) {
	case TF_ERROR:
		add_row_text(out, row->error);
		break;
	case TF_RESOLUTION:
		add_row_text(out, row->resolution);
		break;
	case TF_PARSED:
		buf_adds(out, row->parsed ? "true" : "false");
		break;
	case TF_LAST_USED:
		add_row_text(out, row->last_used);
		break;
	case TF_USES:
		buf_printf(out, "%lld", row->uses);
		break;
	case TF_ID:
		buf_printf(out, "%lld", row->id);
		break;
	case TF_RESOLUTION_PATH:
		json_render(json_at(row->parsed, s->text, s->len), s->sep,
		    s->seplen, out, 0);
		break;
	case TF__COUNT:
		break;
	}
}

static bool
row_present(const struct tpl_seg *s, const struct kb_row *row)
{
	if (row == NULL)
		return false;
	switch (s->field) {
	case TF_ERROR:
		return row->error != NULL && row->error[0] != '\0';
	case TF_RESOLUTION:
		return row->resolution != NULL && row->resolution[0] != '\0';
	case TF_PARSED:
		return row->parsed != NULL;
	case TF_LAST_USED:
		return row->last_used != NULL && row->last_used[0] != '\0';
	case TF_USES:
		return row->uses != 0;
	case TF_ID:
		return row->id != 0;
	case TF_RESOLUTION_PATH:
		return json_present(json_at(row->parsed, s->text, s->len));
	case TF__COUNT:
		break;
	}
	return false;
}

/* A memory row's field; its texts are data (a summary keeps its lines). */
static void
render_memrow(const struct tpl_seg *s, const struct mem_row *m,
    struct buf *out)
{
	if (m == NULL)
		return;
	switch (s->mfield) {
	case MF_ID:
		add_cstr(out, m->id);
		break;
	case MF_KIND:
		add_cstr(out, mem_kind_names[m->kind]);
		break;
	case MF_DATE:
		if (m->ts != NULL && strlen(m->ts) >= 16)
			buf_printf(out, "%.10s %.5s", m->ts, m->ts + 11);
		else
			add_cdata(out, m->ts);
		break;
	case MF_TS:
		add_cdata(out, m->ts);
		break;
	case MF_SESSION:
		if (m->session != NULL)
			textesc_add(out, m->session, utf8_prefix(m->session,
			    strlen(m->session), 8), TEXTESC_LINE);
		break;
	case MF_PROJECT:
		add_cdata(out, m->project);
		break;
	case MF_SUMMARY:
		add_cdata(out, m->line);
		break;
	case MF_TEXT:
		add_row_text(out, m->text);
		break;
	case MF_TOOL:
		add_cdata(out, m->tool);
		break;
	case MF_EXEC_TYPE:
		add_cdata(out, m->exec_type);
		break;
	case MF_PIPELINE:
		add_cdata(out, m->pipeline);
		break;
	case MF_ICON:
		add_cdata(out, m->icon);
		break;
	case MF_CONFIDENCE:
		if (m->exec_type != NULL)
			buf_printf(out, "%d", m->confidence);
		break;
	case MF_REASON:
		add_cdata(out, m->reason);
		break;
	case MF__COUNT:
		break;
	}
}

static void render_list(const struct template *, const struct tpl_ctx *,
	    const struct tpl_cur *, struct buf *);

/* Renders body once per row of a kb or memory section. */
static void
render_rows(const struct tpl_seg *s, const struct tpl_ctx *c,
    const struct tpl_cur *cur, struct buf *out)
{
	struct tpl_cur	at = *cur;
	size_t		i, n;

	if (s->section == SEC_KB)
		n = c->kb != NULL ? c->kb->n : 0;
	else
		n = c->memory != NULL ? c->memory->n : 0;
	if (s->inverted) {
		if (n == 0)
			render_list(s->body, c, cur, out);
		return;
	}
	for (i = 0; i < n; i++) {
		if (i > 0 && s->sep != NULL)
			buf_add(out, s->sep, s->seplen);
		if (s->section == SEC_KB)
			at.kb = &c->kb->v[i];
		else
			at.mem = &c->memory->v[i];
		render_list(s->body, c, &at, out);
	}
}

static void
render_section(const struct tpl_seg *s, const struct tpl_ctx *c,
    const struct tpl_cur *cur, struct buf *out)
{
	struct buf	probe;
	bool		present = false;

	switch (s->section) {
	case SEC_KB:
	case SEC_MEMORY:
		render_rows(s, c, cur, out);
		return;
	case SEC_VAR:
		buf_init(&probe);
		render_var(s, c, &probe);
		present = probe.len > 0;
		buf_release(&probe);
		break;
	case SEC_ROW:
		present = row_present(s, cur->kb);
		break;
	case SEC_MEMROW:
		buf_init(&probe);
		render_memrow(s, cur->mem, &probe);
		present = probe.len > 0;
		buf_release(&probe);
		break;
	}
	if (present != s->inverted)
		render_list(s->body, c, cur, out);
}

static void
render_list(const struct template *t, const struct tpl_ctx *c,
    const struct tpl_cur *cur, struct buf *out)
{
	const struct tpl_seg	*s;
	size_t			 i;

	for (i = 0; i < t->n; i++) {
		s = &t->segs[i];
		switch (s->kind) {
		case TPL_LITERAL:
			buf_add(out, s->text, s->len);
			break;
		case TPL_VAR:
			render_var(s, c, out);
			break;
		case TPL_ROW:
			render_row(s, cur->kb, out);
			break;
		case TPL_MEMROW:
			render_memrow(s, cur->mem, out);
			break;
		case TPL_SECTION:
			render_section(s, c, cur, out);
			break;
		}
	}
}

void
tpl_render(const struct template *t, const struct tpl_ctx *c,
    struct buf *out)
{
	struct tpl_cur	none = { NULL, NULL };

	render_list(t, c, &none, out);
}
