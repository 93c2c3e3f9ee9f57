/*
 * Rendering a compiled template (template.h) for one rule that fired:
 * what it substitutes from the event, files and rows is data, escaped
 * (textesc.h); what the rule's author wrote is copied as it is.
 * template.c compiles; this file only reads a compiled template.
 */
#include <cjson/cJSON.h>
#include <stdint.h>
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

static const cJSON *json_at(const cJSON *, const char *, size_t);

/*
 * A value of a JSON block ({{block.PATH}}): a string or a number as it
 * is, anything else as compact JSON, all of it data on one line; nothing
 * when there is no such value.
 */
static void
render_field(const cJSON *j, struct buf *out)
{
	char	num[64], *txt;

	if (j == NULL || cJSON_IsNull(j))
		return;
	if (cJSON_IsString(j)) {
		add_cdata(out, j->valuestring);
		return;
	}
	if (cJSON_IsNumber(j)) {
		if (j->valuedouble > -9.2e18 && j->valuedouble < 9.2e18 &&
		    j->valuedouble == (double)(long long)j->valuedouble)
			snprintf(num, sizeof(num), "%lld",
			    (long long)j->valuedouble);
		else
			snprintf(num, sizeof(num), "%.15g", j->valuedouble);
		buf_adds(out, num);
		return;
	}
	if ((txt = cJSON_PrintUnformatted((cJSON *)(uintptr_t)j)) != NULL) {
		add_cdata(out, txt);
		free(txt);
	}
}

/*
 * The event variable of seg.  What the rule's author wrote (rule, skill,
 * description, keywords) is copied as it is; what comes from the event,
 * the environment or files and rows derived from them is data.
 * {{sections}} keeps the line breaks the engine put between its titles
 * (a title is one line of a Markdown file).
 */
static bool
is_banner_list(enum tpl_var v)
{
	return v >= V_CRITICAL && v <= V_LOW;
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
	case V_BLOCK:
		add_cdata(out, c->block);
		return;
	case V_BLOCKS:
		add_cdata(out, c->blocks);
		return;
	case V_BLOCK_FIELD:
		render_field(json_at(c->block_member, s->text, s->len), out);
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

/* The rows a section is at: one of kb's, one of memory's. */
struct tpl_cur {
	const struct kb_row	*kb;
	const struct mem_row	*mem;
};

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
