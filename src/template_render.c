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
#include "kb.h"
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
static void
render_var(const struct tpl_seg *s, const struct tpl_ctx *c, struct buf *out)
{
	struct rr_event		*ev = c->ev;
	struct rr_text		 txt;

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
		add_data(out, ev->f[F_PROMPT].s, ev->f[F_PROMPT].len);
		break;
	case V_MESSAGE:
		add_data(out, ev->f[F_MESSAGE].s, ev->f[F_MESSAGE].len);
		break;
	case V_ERROR:
		add_data(out, ev->f[F_ERROR].s, ev->f[F_ERROR].len);
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

static void render_list(const struct template *, const struct tpl_ctx *,
	    const struct kb_row *, struct buf *);

static void
render_section(const struct tpl_seg *s, const struct tpl_ctx *c,
    const struct kb_row *row, struct buf *out)
{
	struct buf	probe;
	bool		present = false;
	size_t		i, n;

	switch (s->section) {
	case SEC_KB:
		n = c->kb != NULL ? c->kb->n : 0;
		if (s->inverted) {
			if (n == 0)
				render_list(s->body, c, row, out);
			return;
		}
		for (i = 0; i < n; i++) {
			if (i > 0 && s->sep != NULL)
				buf_add(out, s->sep, s->seplen);
			render_list(s->body, c, &c->kb->v[i], out);
		}
		return;
	case SEC_VAR:
		buf_init(&probe);
		render_var(s, c, &probe);
		present = probe.len > 0;
		buf_release(&probe);
		break;
	case SEC_ROW:
		present = row_present(s, row);
		break;
	}
	if (present != s->inverted)
		render_list(s->body, c, row, out);
}

static void
render_list(const struct template *t, const struct tpl_ctx *c,
    const struct kb_row *row, struct buf *out)
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
			render_row(s, row, out);
			break;
		case TPL_SECTION:
			render_section(s, c, row, out);
			break;
		}
	}
}

void
tpl_render(const struct template *t, const struct tpl_ctx *c,
    struct buf *out)
{
	render_list(t, c, NULL, out);
}
