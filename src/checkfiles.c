/*
 * reflexion-rules check: files judged by the rules as the Write of their
 * text (see checkfiles.h).
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkfiles.h"
#include "eval.h"
#include "event.h"
#include "fileio.h"
#include "jsonw.h"
#include "xmalloc.h"

/* The largest file checked: what the hook reads on stdin. */
#define CHECK_FILE_MAX	(64u * 1024 * 1024)

static const char *const gate_names[] = {
	[GATE_PASS] = "PASS", [GATE_NEEDS_CONFIRMATION] = "NEEDS_CONFIRMATION",
	[GATE_BLOCKED] = "BLOCKED",
};

void
check_report_init(struct check_report *r)
{
	memset(r, 0, sizeof(*r));
	buf_init(&r->notes);
}

void
check_report_release(struct check_report *r)
{
	size_t	i;

	for (i = 0; i < r->n; i++) {
		free(r->v[i].file);
		free(r->v[i].id);
		free(r->v[i].id_name);
		free(r->v[i].rule);
		free(r->v[i].reason);
	}
	free(r->v);
	buf_release(&r->notes);
	memset(r, 0, sizeof(*r));
}

/* ---- one file ------------------------------------------------------------- */

/* The file's text: a regular file, read without blocking; -1 and a note. */
static int
read_file(const char *path, struct buf *out, struct check_report *r)
{
	int	err;

	if ((err = file_read_regular(path, CHECK_FILE_MAX, out)) == 0)
		return 0;
	buf_printf(&r->notes, "reflexion-rules check: %s: %s\n", path,
	    err == EINVAL ? "not a regular file" : err == EFBIG ?
	    "larger than 64 MB" : strerror(err));
	r->unreadable = true;
	r->unread++;
	return -1;
}

/* The Write of the file's text, as the agent would send it; owned. */
static char *
write_event(const char *path, const char *cwd, const struct buf *text)
{
	cJSON	*ev, *input;
	char	*json, *abs;

	abs = path[0] == '/' ? xstrdup(path) : xasprintf("%s/%s", cwd, path);
	ev = cJSON_CreateObject();
	cJSON_AddStringToObject(ev, "hook_event_name", "PreToolUse");
	cJSON_AddStringToObject(ev, "session_id", "reflexion-check");
	cJSON_AddStringToObject(ev, "cwd", cwd);
	cJSON_AddStringToObject(ev, "tool_name", "Write");
	input = cJSON_AddObjectToObject(ev, "tool_input");
	cJSON_AddStringToObject(input, "file_path", abs);
	cJSON_AddStringToObject(input, "content", text->data ? text->data : "");
	json = cJSON_PrintUnformatted(ev);
	cJSON_Delete(ev);
	free(abs);
	if (json == NULL)
		out_of_memory(text->len);
	return json;
}

static enum gate
gate_of(enum rr_action a)
{
	return a == ACT_DENY ? GATE_BLOCKED : a == ACT_ASK ?
	    GATE_NEEDS_CONFIRMATION : GATE_PASS;
}

static struct check_result *
add_result(struct check_report *r, const char *file)
{
	struct check_result	*res;

	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 16;
		r->v = xreallocarray(r->v, r->cap, sizeof(*r->v));
	}
	res = &r->v[r->n++];
	memset(res, 0, sizeof(*res));
	res->file = xstrdup(file);
	return res;
}

/* The rule's message, without the line feed a YAML block adds. */
static char *
reason_of(const struct fired_rule *f)
{
	size_t	len = f->len;

	if (f->text == NULL)
		return NULL;
	while (len > 0 && f->text[len - 1] == '\n')
		len--;
	return xmemdup0(f->text, len);
}

/*
 * A fired rule into the file's results: a block's, merged with what
 * other rules said of it (the strongest gate decides), or the file's.
 */
static void
add_fired(struct check_report *r, const char *file, size_t first,
    const struct fired_rule *f, size_t *order)
{
	struct check_result	*res = NULL;
	enum gate		 g = gate_of(f->rule->action);
	size_t			 i;

	if (f->block != NULL)
		for (i = first; i < r->n; i++)
			if (r->v[i].id != NULL && strcmp(r->v[i].id,
			    f->block) == 0) {
				res = &r->v[i];
				break;
			}
	if (res == NULL) {
		res = add_result(r, file);
		/* Document order: by line, then by place among the blocks. */
		order[r->n - 1 - first] = f->block != NULL ?
		    f->block_line * 1000000 + f->block_index + 1 : 0;
		if (f->block != NULL) {
			res->id = xstrdup(f->block);
			res->id_name = xstrdup(f->block_name);
			res->line = f->block_line;
		}
		res->gate = g;
	} else if (g > res->gate || (g == res->gate && res->reason == NULL)) {
		res->gate = g;
		free(res->rule);
		free(res->reason);
		res->rule = res->reason = NULL;
	} else
		return;
	res->rule = xstrdup(f->rule->id);
	res->reason = reason_of(f);
}

/* The file's results in document order (stable): the file's first. */
static void
sort_results(struct check_report *r, size_t first, size_t *order)
{
	struct check_result	 t;
	size_t			 i, j, n = r->n - first, ko;

	for (i = 1; i < n; i++) {
		t = r->v[first + i];
		ko = order[i];
		for (j = i; j > 0 && order[j - 1] > ko; j--) {
			r->v[first + j] = r->v[first + j - 1];
			order[j] = order[j - 1];
		}
		r->v[first + j] = t;
		order[j] = ko;
	}
}

void
check_file(const struct ruleset *rs, const char *path, const char *cwd,
    const char *project, struct check_report *r)
{
	struct rr_event		 ev;
	struct eval_outcome	 out;
	struct eval_opts	 eo;
	struct buf		 text;
	const struct fired_rule	*f;
	char			*json, *err = NULL;
	size_t			 i, first = r->n, *order;

	r->files++;
	buf_init(&text);
	if (read_file(path, &text, r) < 0) {
		buf_release(&text);
		return;
	}
	json = write_event(path, cwd, &text);
	buf_release(&text);
	if (event_parse(&ev, json, strlen(json), project ? project : cwd,
	    &err) < 0) {
		buf_printf(&r->notes, "reflexion-rules check: %s: %s\n", path,
		    err);
		r->unreadable = true;
		r->unread++;
		free(err);
		free(json);
		event_release(&ev);
		return;
	}
	free(json);
	memset(&eo, 0, sizeof(eo));
	eo.check = true;
	eval_outcome_init(&out);
	eval_event(rs, &ev, &eo, &out);
	buf_add(&r->notes, out.notes.data, out.notes.len);
	order = xcalloc(out.nfired + 1, sizeof(*order));
	for (i = 0; i < out.nfired; i++) {
		f = &out.fired[i];
		/* A gate's results: deny, ask, and the allows that pass. */
		if (f->rule->action != ACT_DENY && f->rule->action != ACT_ASK &&
		    f->rule->action != ACT_ALLOW)
			continue;
		add_fired(r, path, first, f, order);
	}
	if (r->n == first)
		add_result(r, path)->gate = GATE_PASS;
	else
		sort_results(r, first, order);
	free(order);
	eval_outcome_release(&out);
	event_release(&ev);
}

size_t
check_failures(const struct check_report *r)
{
	size_t	i, n = 0;

	for (i = 0; i < r->n; i++)
		if (r->v[i].gate != GATE_PASS)
			n++;
	return n;
}

/* ---- reports -------------------------------------------------------------- */

void
check_format_text(const struct check_report *r, struct buf *b)
{
	const struct check_result	*res;
	const char			*nl;
	size_t				 i;

	for (i = 0; i < r->n; i++) {
		res = &r->v[i];
		if (res->gate == GATE_PASS)
			continue;
		buf_adds(b, res->file);
		if (res->line > 0)
			buf_printf(b, ":%zu", res->line);
		if (res->id != NULL)
			buf_printf(b, ": %s", res->id);
		buf_printf(b, ": %s: %s", gate_names[res->gate],
		    res->rule ? res->rule : "?");
		if (res->reason != NULL) {
			nl = strchr(res->reason, '\n');
			buf_adds(b, ": ");
			buf_add(b, res->reason, nl ? (size_t)(nl -
			    res->reason) : strlen(res->reason));
		}
		buf_addc(b, '\n');
	}
}

void
check_format_json(const struct check_report *r, struct buf *b)
{
	const struct check_result	*res;
	size_t				 i, count[3] = { 0, 0, 0 };

	for (i = 0; i < r->n; i++)
		count[r->v[i].gate]++;
	buf_printf(b, "{\n  \"gate_passed\": %s,\n  \"results\": [",
	    count[GATE_BLOCKED] + count[GATE_NEEDS_CONFIRMATION] == 0 &&
	    !r->unreadable ? "true" : "false");
	for (i = 0; i < r->n; i++) {
		res = &r->v[i];
		buf_adds(b, i ? ",\n    {" : "\n    {");
		buf_adds(b, "\"file\": ");
		jsonw_cstring(b, res->file);
		if (res->id != NULL) {
			buf_adds(b, ", ");
			jsonw_cstring(b, res->id_name ? res->id_name : "id");
			buf_adds(b, ": ");
			jsonw_cstring(b, res->id);
		}
		if (res->line > 0)
			buf_printf(b, ", \"line\": %zu", res->line);
		buf_printf(b, ", \"gate\": \"%s\"", gate_names[res->gate]);
		if (res->rule != NULL) {
			buf_adds(b, ", \"rule\": ");
			jsonw_cstring(b, res->rule);
		}
		buf_adds(b, ", \"reason\": ");
		jsonw_cstring(b, res->reason ? res->reason : "");
		buf_addc(b, '}');
	}
	buf_printf(b, "%s],\n  \"summary\": {\"pass\": %zu, \"blocked\": %zu, "
	    "\"needs_confirmation\": %zu}\n}\n", r->n ? "\n  " : "",
	    count[GATE_PASS], count[GATE_BLOCKED],
	    count[GATE_NEEDS_CONFIRMATION]);
}
