/*
 * The recorder (record.h): what is kept of a tool call, and the one
 * transaction that writes it.
 */
#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "errmark.h"
#include "errnorm.h"
#include "event.h"
#include "jsonw.h"
#include "kb.h"
#include "record.h"
#include "record_priv.h"
#include "redact.h"
#include "toolsum.h"
#include "xmalloc.h"

/* What db_fail() says we were doing. */
#define RECORDING	"record the tool call"
/* Entries of a Grep/Glob file list kept, at most. */
#define FILE_LIST_MAX	1000
/* resolvedBy (a command or a path) is cut to this many characters. */
#define RESOLVED_BY_MAX	200

static const char *
jstr(const cJSON *obj, const char *key)
{
	const cJSON	*it = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(it) && it->valuestring ? it->valuestring : NULL;
}

static bool
is_tool(const char *tool, const char *a, const char *b)
{
	return strcmp(tool, a) == 0 || (b != NULL && strcmp(tool, b) == 0);
}

/* ---- what is kept of the output ----------------------------------------- */

/* Adds line to the list unless it is there already. */
static void
add_unique(struct buf *b, const char *s, size_t n, size_t *count)
{
	const char	*p = b->data, *end = b->data + b->len, *nl;

	if (*count >= FILE_LIST_MAX || n == 0)
		return;
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		if ((size_t)(nl - p) == n && memcmp(p, s, n) == 0)
			return;
		p = nl + 1;
	}
	if (b->len)
		buf_addc(b, '\n');
	buf_add(b, s, n);
	(*count)++;
}

/*
 * Grep and Glob keep only the files: the `filenames` list, or the path
 * before the first ':' of each line of Grep's content output.
 */
static void
file_list(const cJSON *resp, struct buf *out)
{
	const cJSON	*names = cJSON_GetObjectItemCaseSensitive(resp,
			    "filenames"), *it;
	const char	*text, *p, *nl, *colon;
	size_t		 count = 0;

	if (cJSON_IsArray(names)) {
		cJSON_ArrayForEach(it, names)
			if (cJSON_IsString(it) && it->valuestring)
				add_unique(out, it->valuestring,
				    strlen(it->valuestring), &count);
		return;
	}
	text = cJSON_IsString(resp) ? resp->valuestring : jstr(resp, "content");
	if (text == NULL)
		return;
	for (p = text; *p; p = *nl ? nl + 1 : nl) {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		colon = memchr(p, ':', (size_t)(nl - p));
		add_unique(out, p, (size_t)((colon ? colon : nl) - p), &count);
	}
}

/* The diff lines of an edit's structuredPatch. */
static void
patch_lines(const cJSON *resp, struct buf *out)
{
	const cJSON	*hunks = cJSON_GetObjectItemCaseSensitive(resp,
			    "structuredPatch"), *h, *lines, *l;

	cJSON_ArrayForEach(h, hunks) {
		lines = cJSON_GetObjectItemCaseSensitive(h, "lines");
		cJSON_ArrayForEach(l, lines) {
			if (!cJSON_IsString(l) || l->valuestring == NULL)
				continue;
			if (out->len)
				buf_addc(out, '\n');
			buf_adds(out, l->valuestring);
		}
	}
}

/* The text worth keeping of a tool's response, before any cut. */
static void
extract_output(struct rr_event *ev, struct buf *out)
{
	const cJSON	*resp = cJSON_GetObjectItemCaseSensitive(ev->root,
			    "tool_response"), *file;
	const char	*t = ev->tool, *s, *e;

	/* Seed 001's own name for it. */
	if (resp == NULL || cJSON_IsNull(resp))
		resp = cJSON_GetObjectItemCaseSensitive(ev->root,
		    "tool_output");
	if (resp == NULL || cJSON_IsNull(resp))
		return;
	if (is_tool(t, "Grep", "Glob")) {
		file_list(resp, out);
		return;
	}
	if (cJSON_IsString(resp)) {
		buf_adds(out, resp->valuestring);
		return;
	}
	if (is_tool(t, "Bash", "PowerShell") && cJSON_IsObject(resp)) {
		if ((s = jstr(resp, "stdout")) != NULL)
			buf_adds(out, s);
		if ((e = jstr(resp, "stderr")) != NULL && *e != '\0') {
			if (out->len)
				buf_addc(out, '\n');
			buf_adds(out, e);
		}
		return;
	}
	if (is_tool(t, "Read", NULL) && (file =
	    cJSON_GetObjectItemCaseSensitive(resp, "file")) != NULL &&
	    (s = jstr(file, "content")) != NULL) {
		buf_adds(out, s);
		return;
	}
	if (is_tool(t, "Edit", "MultiEdit") || is_tool(t, "Write",
	    "NotebookEdit")) {
		patch_lines(resp, out);
		return;
	}
	if (is_tool(t, "WebFetch", NULL) && (s = jstr(resp, "result")) !=
	    NULL) {
		buf_adds(out, s);
		return;
	}
	buf_add(out, ev->f[F_RESPONSE].s, ev->f[F_RESPONSE].len);
}

static size_t
count_lines(const char *s, size_t len)
{
	size_t	n = len > 0, i;

	for (i = 0; i + 1 < len; i++)
		if (s[i] == '\n')
			n++;
	return n;
}

/* Offset of the start of line `k` (0-based) of s. */
static size_t
line_start(const char *s, size_t len, size_t k)
{
	size_t	i;

	for (i = 0; i < len && k > 0; i++)
		if (s[i] == '\n')
			k--;
	return i;
}

/* Cuts b to at most max bytes: its head and tail, on character bounds. */
static void
cap_bytes(struct buf *b, size_t max)
{
	struct buf	 out;
	char		 note[96];
	size_t		 half, head, tail, nl;

	if (b->len <= max)
		return;
	snprintf(note, sizeof(note), "\n... [%zu bytes omitted] ...\n",
	    b->len - max);
	nl = strlen(note);
	half = max > nl ? (max - nl) / 2 : 0;
	head = utf8_prefix(b->data, half, half);
	/* The tail starts after any continuation bytes. */
	tail = b->len - half;
	while (tail < b->len && ((unsigned char)b->data[tail] & 0xc0) == 0x80)
		tail++;
	buf_init(&out);
	buf_add(&out, b->data, head);
	buf_add(&out, note, nl);
	buf_add(&out, b->data + tail, b->len - tail);
	buf_release(b);
	*b = out;
}

/* Keeps the first head and last tail lines, saying how many went. */
static void
cut_lines(const char *s, size_t len, const struct record_opts *o,
    struct buf *out)
{
	size_t	lines = count_lines(s, len), head_end, tail_start;

	if (lines > o->head_lines + o->tail_lines) {
		head_end = line_start(s, len, o->head_lines);
		tail_start = line_start(s, len, lines - o->tail_lines);
		buf_add(out, s, head_end);
		buf_printf(out, "... [%zu lines omitted] ...\n",
		    lines - o->head_lines - o->tail_lines);
		buf_add(out, s + tail_start, len - tail_start);
	} else
		buf_add(out, s, len);
}

void
record_compress(const char *s, size_t len, const struct record_opts *o,
    struct buf *out)
{
	cut_lines(s, len, o, out);
	cap_bytes(out, o->max_output);
}

/* ---- the transaction ------------------------------------------------------ */

int
record_insert_event(struct rr_db *db, const char *ts, const char *session_id,
    const char *type, const char *data, char **err)
{
	sqlite3_stmt	*st;

	st = db_prepare(db, RECORDING, err, "INSERT INTO events (ts, "
	    "session_id, type, data) VALUES (?1, ?2, ?3, ?4)", "tttt", ts,
	    session_id, type, data);
	if (st == NULL)
		return -1;
	return db_run(db, st, RECORDING, err);
}


char *
record_redacted(const struct record_opts *o, const char *s, size_t len)
{
	struct redact_opts	ro;
	struct buf		b;

	ro.defaults = o->redact_defaults;
	ro.extra = o->redact;
	ro.nextra = o->nredact;
	buf_init(&b);
	redact_text(&ro, s, len, &b);
	return buf_detach(&b, NULL);
}

void
record_call_release(struct call *c)
{
	free(c->file);
	free(c->command);
	free(c->resolved_by);
	buf_release(&c->output);
	free(c->error);
	free(c->error_raw);
	free(c->error_red);
	free(c->summary);
	free(c->pattern);
}

/*
 * The error of the call: the failure's, or the one errclass.h finds in a
 * successful output (event_error(): what rules saw), unless the rule's
 * detect_errors is off.  NULL: the call succeeded.
 */
static const char *
call_error(struct rr_event *ev, const struct record_opts *o, bool *detected)
{
	struct rr_text	e;

	*detected = false;
	if (ev->failed)
		return ev->f[F_ERROR].s != NULL ? ev->f[F_ERROR].s : "";
	if (!o->detect_errors)
		return ev->error_detected ? NULL : ev->f[F_ERROR].s;
	e = event_error(ev);
	*detected = e.s != NULL && ev->error_detected;
	return e.s;
}

/* The summary line, from the texts already redacted and kept. */
static void
summarize(struct rr_event *ev, const struct record_opts *o, struct call *c)
{
	struct toolsum_call	 t;
	char			*line, *shown = NULL;

	memset(&t, 0, sizeof(t));
	t.tool = c->tool;
	if (ev->rel_path != NULL)
		t.path = shown = record_redacted(o, ev->rel_path, strlen(ev->rel_path));
	t.command = c->command;
	t.output = c->output.data;
	t.output_len = c->output.len;
	t.error = c->error_raw;
	t.input = cJSON_GetObjectItemCaseSensitive(ev->root, "tool_input");
	t.response = cJSON_GetObjectItemCaseSensitive(ev->root,
	    "tool_response");
	line = toolsum(&t);
	c->summary = record_redacted(o, line, strlen(line));
	free(line);
	free(shown);
}

void
record_call_normalize(struct call *c)
{
	if (c->error_red == NULL || c->error != NULL)
		return;
	c->error = errnorm(c->error_red, strlen(c->error_red), c->project_dir,
	    c->home);
}

void
record_prepare_call(struct rr_event *ev, const struct record_opts *o,
    struct call *c, bool defer_norm)
{
	const cJSON	*dur, *in;
	const char	*raw, *home = getenv("HOME"), *pat;
	struct buf	 full, kept;
	char		*red;
	bool		 detected;

	memset(c, 0, sizeof(*c));
	buf_init(&c->output);
	c->tool = ev->tool;
	c->session = ev->session_id;
	c->is_read = strcmp(ev->tool, "Read") == 0;
	if (ev->abs_path != NULL)
		c->file = record_redacted(o, ev->abs_path, strlen(ev->abs_path));
	if (ev->f[F_COMMAND].s != NULL)
		c->command = record_redacted(o, ev->f[F_COMMAND].s,
		    ev->f[F_COMMAND].len);
	c->target = c->file ? c->file : c->command;
	if (c->command != NULL)
		c->resolved_by = xstrndup(c->command, utf8_prefix(c->command,
		    strlen(c->command), RESOLVED_BY_MAX));
	else if (ev->rel_path != NULL)
		c->resolved_by = record_redacted(o, ev->rel_path,
		    strlen(ev->rel_path));
	in = cJSON_GetObjectItemCaseSensitive(ev->root, "tool_input");
	if ((is_tool(c->tool, "Grep", "Glob")) &&
	    (pat = jstr(in, "pattern")) != NULL)
		c->pattern = record_redacted(o, pat, strlen(pat));

	/*
	 * Private spans go from the whole output; then only the lines kept
	 * are redacted (whole lines: a cut never splits a secret from its
	 * name), which keeps a 50 MB output cheap.
	 */
	buf_init(&full);
	extract_output(ev, &full);
	buf_init(&kept);
	redact_drop_private(full.data, full.len, &kept);
	buf_reset(&full);
	cut_lines(kept.data, kept.len, o, &full);
	buf_release(&kept);
	red = record_redacted(o, full.data, full.len);
	buf_release(&full);
	buf_adds(&c->output, red);
	cap_bytes(&c->output, o->max_output);
	free(red);

	raw = call_error(ev, o, &detected);
	c->success = raw == NULL;
	if (raw != NULL) {
		c->detected = detected ? "output" : NULL;
		red = record_redacted(o, raw, strlen(raw));
		c->error_raw = xstrndup(red, utf8_prefix(red, strlen(red),
		    RECORD_ERROR_RAW_MAX));
		c->error_red = red;
		c->project_dir = ev->project_dir;
		c->home = home;
		if (!defer_norm)
			record_call_normalize(c);
	}
	summarize(ev, o, c);
	c->tool_use_id = jstr(ev->root, "tool_use_id");
	c->conversation_id = jstr(ev->root, "conversation_id");
	c->started_at = jstr(ev->root, "started_at");
	c->ended_at = jstr(ev->root, "ended_at");
	dur = cJSON_GetObjectItemCaseSensitive(ev->root, "duration_ms");
	if (cJSON_IsNumber(dur)) {
		c->duration_ms = dur->valuedouble;
		c->has_duration = true;
	}
}

static void
key_str(struct buf *b, const char *key, const char *val)
{
	if (val == NULL)
		return;
	buf_printf(b, ",\"%s\":", key);
	jsonw_cstring(b, val);
}

char *
record_call_json(const struct call *c, long long count, const char *first_ts)
{
	struct buf	b;

	buf_init(&b);
	buf_adds(&b, "{\"tool\":");
	jsonw_cstring(&b, c->tool);
	buf_printf(&b, ",\"success\":%s", c->success ? "true" : "false");
	key_str(&b, "file", c->file);
	key_str(&b, "command", c->command);
	key_str(&b, "target", c->target);
	key_str(&b, "error", c->error);
	key_str(&b, "error_raw", c->error_raw);
	key_str(&b, "detected", c->detected);
	key_str(&b, "summary", c->summary);
	key_str(&b, "pattern", c->pattern);
	buf_adds(&b, ",\"output\":");
	jsonw_string(&b, c->output.data, c->output.len);
	key_str(&b, "tool_use_id", c->tool_use_id);
	key_str(&b, "conversation_id", c->conversation_id);
	key_str(&b, "started_at", c->started_at);
	key_str(&b, "ended_at", c->ended_at);
	if (c->has_duration)
		buf_printf(&b, ",\"duration_ms\":%.0f", c->duration_ms);
	if (count > 1) {
		buf_printf(&b, ",\"count\":%lld", count);
		key_str(&b, "first_ts", first_ts);
	}
	buf_addc(&b, '}');
	return buf_detach(&b, NULL);
}

/*
 * A Read of the file the session's latest event read: that row goes and
 * its count carries over to the new one.  Sets *count and *first_ts.
 */
static int
collapse_read(struct rr_db *db, const struct call *c, long long *count,
    char **first_ts, char **err)
{
	sqlite3_stmt	*st;
	long long	 id = 0;
	int		 rc;

	*count = 1;
	*first_ts = NULL;
	st = db_prepare(db, RECORDING, err, "SELECT id, ts, "
	    "coalesce(json_extract(data, '$.count'), 1), json_extract(data, "
	    "'$.first_ts') FROM events WHERE session_id = ?1 AND id = (SELECT "
	    "max(id) FROM events WHERE session_id = ?1) AND type = 'tool_use' "
	    "AND json_extract(data, '$.tool') = 'Read' AND json_extract(data, "
	    "'$.target') = ?2", "tt", c->session, c->target);
	if (st == NULL)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		*count = sqlite3_column_int64(st, 2) + 1;
		if (sqlite3_column_type(st, 3) == SQLITE_TEXT)
			*first_ts = xstrdup((const char *)
			    sqlite3_column_text(st, 3));
		else if (sqlite3_column_type(st, 1) == SQLITE_TEXT)
			*first_ts = xstrdup((const char *)
			    sqlite3_column_text(st, 1));
	}
	db_finish(db, st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		*err = db_fail(db, rc, RECORDING);
		return -1;
	}
	if (id == 0)
		return 0;
	st = db_prepare(db, RECORDING, err, "DELETE FROM events WHERE id = ?1",
	    "i", id);
	if (st == NULL)
		return -1;
	return db_run(db, st, RECORDING, err);
}

/* The tools of the session's calls after event `after`, as JSON. */
static int
tool_sequence(struct rr_db *db, const char *session, long long after,
    struct buf *json, char **err)
{
	sqlite3_stmt	*st;
	const char	*t;
	int		 rc, n = 0;

	st = db_prepare(db, RECORDING, err, "SELECT json_extract(data, "
	    "'$.tool') FROM events WHERE session_id = ?1 AND id > ?2 AND type "
	    "IN ('tool_use', 'tool_error') ORDER BY id LIMIT ?3", "tii",
	    session, after, (long long)RECORD_SEQUENCE_MAX);
	if (st == NULL)
		return -1;
	buf_addc(json, '[');
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		t = (const char *)sqlite3_column_text(st, 0);
		if (n++)
			buf_addc(json, ',');
		jsonw_cstring(json, t ? t : "");
	}
	buf_addc(json, ']');
	db_finish(db, st);
	if (rc == SQLITE_DONE)
		return 0;
	*err = db_fail(db, rc, RECORDING);
	return -1;
}

/* Tools that change a file: any of them can fix another's failure. */
static bool
is_writer(const char *tool)
{
	return is_tool(tool, "Edit", "Write") || is_tool(tool, "MultiEdit",
	    "NotebookEdit");
}

struct pending {
	long long	 id;
	char		*error;
	char		*raw;
};

/*
 * The errors this success resolves: earlier unresolved errors of the
 * session on the same file or command, by the same tool (or, on a file,
 * by any tool that writes files: a Read that works fixes no failed Edit).
 */
static int
pending_errors(struct rr_db *db, const struct call *c, struct pending **out,
    size_t *n, char **err)
{
	sqlite3_stmt	*st;
	size_t		 cap = 0;
	int		 rc;

	*out = NULL;
	*n = 0;
	st = db_prepare(db, RECORDING, err, "SELECT e.id, "
	    "json_extract(e.data, '$.error'), json_extract(e.data, "
	    "'$.error_raw') FROM events AS e WHERE e.type = 'tool_error' AND "
	    "e.session_id = ?1 AND json_extract(e.data, '$.target') = ?2 AND "
	    "(json_extract(e.data, '$.tool') = ?3 OR (?4 AND "
	    "json_extract(e.data, '$.tool') IN ('Edit', 'Write', 'MultiEdit', "
	    "'NotebookEdit'))) AND NOT EXISTS (SELECT 1 FROM events AS r WHERE "
	    "r.type = 'error_resolved' AND json_extract(r.data, '$.error_id') "
	    "= e.id) ORDER BY e.id", "ttti", c->session, c->target, c->tool,
	    (long long)is_writer(c->tool));
	if (st == NULL)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 4;
			*out = xreallocarray(*out, cap, sizeof(**out));
		}
		(*out)[*n].id = sqlite3_column_int64(st, 0);
		(*out)[*n].error = sqlite3_column_type(st, 1) == SQLITE_TEXT ?
		    xstrdup((const char *)sqlite3_column_text(st, 1)) : NULL;
		(*out)[*n].raw = sqlite3_column_type(st, 2) == SQLITE_TEXT ?
		    xstrdup((const char *)sqlite3_column_text(st, 2)) : NULL;
		(*n)++;
	}
	db_finish(db, st);
	if (rc == SQLITE_DONE)
		return 0;
	*err = db_fail(db, rc, RECORDING);
	return -1;
}

/* Each earlier error on the same file or command becomes KB knowledge. */
static int
resolve(struct rr_db *db, const struct call *c, const char *now, char **err)
{
	struct pending	*p;
	struct buf	 seq, res, ev;
	long long	 kb_id;
	size_t		 n, i;
	int		 rc = 0;

	if (pending_errors(db, c, &p, &n, err) < 0)
		return -1;
	for (i = 0; i < n && rc == 0; i++) {
		buf_init(&seq);
		buf_init(&res);
		buf_init(&ev);
		kb_id = 0;
		rc = tool_sequence(db, c->session, p[i].id, &seq, err);
		if (rc == 0 && p[i].error != NULL && p[i].error[0] != '\0') {
			buf_adds(&res, "{\"resolvedBy\":");
			jsonw_cstring(&res, c->resolved_by ? c->resolved_by :
			    c->tool);
			buf_adds(&res, ",\"tool\":");
			jsonw_cstring(&res, c->tool);
			buf_adds(&res, ",\"toolSequence\":");
			buf_add(&res, seq.data, seq.len);
			buf_addc(&res, '}');
			rc = kb_put_resolution(db, p[i].error, p[i].raw,
			    res.data, now, &kb_id, err);
		}
		if (rc == 0) {
			buf_printf(&ev, "{\"error_id\":%lld", p[i].id);
			if (kb_id)
				buf_printf(&ev, ",\"kb_id\":%lld", kb_id);
			buf_adds(&ev, ",\"tool\":");
			jsonw_cstring(&ev, c->tool);
			buf_addc(&ev, '}');
			rc = record_insert_event(db, now, c->session,
			    "error_resolved", ev.data, err);
		}
		buf_release(&seq);
		buf_release(&res);
		buf_release(&ev);
	}
	for (i = 0; i < n; i++) {
		free(p[i].error);
		free(p[i].raw);
	}
	free(p);
	return rc;
}

int
record_prune(struct rr_db *db, const char *table, int days, char **err)
{
	sqlite3_stmt	*st;
	char		 cutoff[32], *sql, *doing;
	int		 rc;

	if (days <= 0)
		return 0;
	db_days_ago(days, cutoff);
	doing = xasprintf("prune old %s", table);
	sql = xasprintf("DELETE FROM %s WHERE id IN (SELECT id FROM %s WHERE "
	    "ts < ?1 ORDER BY ts LIMIT ?2)", table, table);
	st = db_prepare(db, doing, err, sql, "ti", cutoff,
	    (long long)RECORD_PRUNE_BATCH);
	free(sql);
	rc = st == NULL ? -1 : db_run(db, st, doing, err);
	free(doing);
	return rc;
}

int
record_call_rows(struct rr_db *db, const struct call *c,
    const struct record_opts *opts, const char *now, char **err)
{
	char		*data, *first_ts = NULL;
	long long	 count = 1, id;
	int		 rc;

	if (c->success && c->is_read && opts->collapse_reads &&
	    c->target != NULL && collapse_read(db, c, &count, &first_ts,
	    err) < 0)
		return -1;
	if (!c->success && record_note_error(db, c, err) < 0) {
		free(first_ts);
		return -1;
	}
	data = record_call_json(c, count, first_ts);
	free(first_ts);
	rc = record_insert_event(db, now, c->session, c->success ? "tool_use" :
	    "tool_error", data, err);
	free(data);
	if (rc < 0)
		return -1;
	id = sqlite3_last_insert_rowid(db->conn);
	if (c->success && c->target != NULL && resolve(db, c, now, err) < 0)
		return -1;
	if (id % RECORD_PRUNE_EVERY == 0) {
		if (record_prune(db, "events", opts->retention_days, err) < 0)
			return -1;
		db->prune_marks = opts->retention_days;
	}
	return 0;
}

int
record_note_error(struct rr_db *db, const struct call *c, char **err)
{
	char	*e = NULL;
	int	 rc;

	*err = NULL;
	rc = errmark_note(db->path, c->session, c->tool, &e);
	if (rc > 0)
		buf_printf(&db->notes, "reflexion-rules: %s; session_error "
		    "lookups open the database\n", e);
	else if (rc < 0)
		*err = xasprintf("%s; the failed call is not recorded, or "
		    "session_error lookups would miss it", e);
	free(e);
	return rc < 0 ? -1 : 0;
}

void
record_prune_marks(struct rr_db *db)
{
	char	*err = NULL;
	int	 days = db->prune_marks;

	db->prune_marks = 0;
	if (days > 0 && errmark_prune(db, days, &err) < 0) {
		buf_printf(&db->notes, "reflexion-rules: %s; old error markers "
		    "stay\n", err);
		free(err);
	}
}

/* One transaction: the event's row, what it resolves, the pruning. */
static int
record_call(struct rr_db *db, const struct call *c,
    const struct record_opts *opts, char **err)
{
	char	now[32];

	db_now(now);
	if (db_begin(db, err) < 0)
		return -1;
	if (record_call_rows(db, c, opts, now, err) < 0) {
		db_rollback(db);
		db->prune_marks = 0;
		return -1;
	}
	if (db_commit(db, err) < 0)
		return -1;
	/* After the commit: the prune asks what is left. */
	record_prune_marks(db);
	return 0;
}

/*
 * A hook that has not opened the database, or could not (locked past its
 * budget, corrupt): the prepared call goes to the journal, unless it is
 * off or full (then the database is opened, which folds the journal
 * first, and the call written as usual).
 */
static int
journal_or_write(struct rr_db *db, struct rr_event *ev,
    const struct record_opts *opts, char **err)
{
	struct call	c;
	int		rc;

	record_prepare_call(ev, opts, &c, true);
	/* Before the append: a reader that folds it finds the marker. */
	if (!c.success && record_note_error(db, &c, err) < 0) {
		record_call_release(&c);
		return -1;
	}
	rc = record_journal_call(db, &c, opts, err);
	if (rc < 0) {
		buf_printf(&db->notes, "reflexion-rules: %s; the call is "
		    "written to the database instead\n", *err);
		free(*err);
		*err = NULL;
	}
	if (rc != 0) {
		record_call_normalize(&c);
		if (db_conn(db, DB_WRITE, err) == NULL)
			rc = -1;
		else if (db->readonly) {
			*err = xasprintf("database '%s' is read-only",
			    db->path);
			rc = -1;
		} else {
			rc = record_call(db, &c, opts, err);
			if (rc < 0 && db_repaired_for_retry(db, err))
				rc = record_call(db, &c, opts, err);
		}
	}
	record_call_release(&c);
	return rc;
}

int
record_event(struct rr_db *db, struct rr_event *ev,
    const struct record_opts *opts, const struct record_env *env,
    char **err)
{
	struct record_opts	 defaults;
	struct call		 c;
	int			 rc;

	*err = NULL;
	if (opts == NULL) {
		record_opts_default(&defaults);
		opts = &defaults;
	}
	switch (ev->kind) {
	case EV_POST_TOOL_USE:
	case EV_POST_TOOL_USE_FAILURE:
	case EV_USER_PROMPT_SUBMIT:
	case EV_STOP:
	case EV_SUBAGENT_STOP:
	case EV_SESSION_END:
		break;
	default:
		*err = xasprintf("%s events are not recorded", ev->event_name);
		return -1;
	}
	if ((ev->kind == EV_POST_TOOL_USE || ev->kind ==
	    EV_POST_TOOL_USE_FAILURE) && ev->tool == NULL) {
		*err = xstrdup("the event has no tool_name");
		return -1;
	}
	if ((ev->kind == EV_POST_TOOL_USE || ev->kind ==
	    EV_POST_TOOL_USE_FAILURE) && db->journal && (db->conn == NULL ||
	    db->failed))
		return journal_or_write(db, ev, opts, err);
	if (db_conn(db, DB_WRITE, err) == NULL)
		return -1;
	if (db->readonly) {
		*err = xasprintf("database '%s' is read-only", db->path);
		return -1;
	}
	switch (ev->kind) {
	case EV_USER_PROMPT_SUBMIT:
		return record_prompt(db, ev, opts, err);
	case EV_STOP:
	case EV_SUBAGENT_STOP:
		return record_turn(db, ev, opts, err);
	case EV_SESSION_END:
		return record_session_end(db, ev, opts, env, err);
	default:
		break;
	}
	record_prepare_call(ev, opts, &c, false);
	rc = record_call(db, &c, opts, err);
	/* A damaged index fails error_kb's triggers: repair, then again. */
	if (rc < 0 && db_repaired_for_retry(db, err))
		rc = record_call(db, &c, opts, err);
	record_call_release(&c);
	return rc;
}
