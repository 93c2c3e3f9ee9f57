/*
 * Lookups in the memory (memory.h).  Every statement is prepared with
 * bound parameters; the FTS5 query is built here from the words, each
 * quoted, so that no text of a prompt is read as query syntax.
 */
#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "jsonw.h"
#include "memory.h"
#include "xmalloc.h"

#define QUERYING	"query the memory"
/* The event types that are observations. */
#define OBS_TYPES	"('tool_use', 'tool_error', 'user_prompt', 'route')"

const char *const mem_kind_names[MEM__COUNT] = {
	[MEM_SUMMARY] = "summary",
	[MEM_CONVERSATION] = "conversation",
	[MEM_OBSERVATION] = "observation",
};

static const char kind_letter[MEM__COUNT] = { 's', 'c', 'e' };

void
mem_rows_init(struct mem_rows *r)
{
	memset(r, 0, sizeof(*r));
}

void
mem_row_release(struct mem_row *r)
{
	free(r->type);
	free(r->ts);
	free(r->session);
	free(r->project);
	free(r->tool);
	free(r->line);
	free(r->text);
	free(r->data);
	free(r->exec_type);
	free(r->pipeline);
	free(r->icon);
	free(r->reason);
	memset(r, 0, sizeof(*r));
}

void
mem_rows_release(struct mem_rows *r)
{
	size_t	i;

	for (i = 0; i < r->n; i++)
		mem_row_release(&r->v[i]);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

static struct mem_row *
push(struct mem_rows *r, enum mem_kind kind, long long rowid)
{
	struct mem_row	*row;

	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 8;
		r->v = xreallocarray(r->v, r->cap, sizeof(*r->v));
	}
	row = &r->v[r->n++];
	memset(row, 0, sizeof(*row));
	row->kind = kind;
	row->rowid = rowid;
	snprintf(row->id, sizeof(row->id), "%c%lld", kind_letter[kind], rowid);
	return row;
}

static char *
col(sqlite3_stmt *st, int i)
{
	const unsigned char	*t;

	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return NULL;
	t = sqlite3_column_text(st, i);
	return t ? utf8_valid_dup((const char *)t,
	    (size_t)sqlite3_column_bytes(st, i)) : NULL;
}

/* The first line of s that is not blank, cut; owned ("" when none). */
static char *
one_line(const char *s)
{
	const char	*p = s, *e;
	size_t		 n;

	if (s == NULL)
		return xstrdup("");
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	e = p + strcspn(p, "\r\n");
	n = utf8_prefix(p, (size_t)(e - p), MEM_LINE_MAX);
	return n < (size_t)(e - p) || *e != '\0' ?
	    xasprintf("%.*s...", (int)n, p) : xstrndup(p, n);
}

/* All of s on one line (blanks and breaks as one space), cut; owned. */
static char *
flat_line(const char *s)
{
	struct buf	 b;
	const char	*p;
	size_t		 n;

	buf_init(&b);
	for (p = s ? s : ""; *p; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
			if (b.len > 0 && b.data[b.len - 1] != ' ')
				buf_addc(&b, ' ');
			continue;
		}
		buf_addc(&b, *p);
	}
	while (b.len > 0 && b.data[b.len - 1] == ' ')
		b.len--;
	n = utf8_prefix(b.data ? b.data : "", b.len, MEM_LINE_MAX);
	if (n < b.len) {
		b.len = n;
		buf_adds(&b, "...");
	} else if (b.data != NULL)
		b.data[b.len] = '\0';
	return b.data ? buf_detach(&b, NULL) : xstrdup("");
}

bool
mem_valid_id(const char *id)
{
	size_t	i;

	if (id == NULL || (id[0] != 's' && id[0] != 'c' && id[0] != 'e') ||
	    id[1] == '\0' || strlen(id) > 19)
		return false;
	for (i = 1; id[i]; i++)
		if (id[i] < '0' || id[i] > '9')
			return false;
	return true;
}

static enum mem_kind
id_kind(const char *id)
{
	return id[0] == 's' ? MEM_SUMMARY : id[0] == 'c' ? MEM_CONVERSATION :
	    MEM_OBSERVATION;
}

/* A token character of the query: what unicode61 keeps in a word. */
static bool
word_char(unsigned char c)
{
	return c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z');
}

char *
mem_fts_query(const char *words, bool any_word)
{
	const unsigned char	*p = (const unsigned char *)words;
	struct buf		 b;
	size_t			 n, used = 0;

	if (words == NULL)
		return NULL;
	buf_init(&b);
	while (*p && used < MEM_QUERY_WORDS) {
		while (*p && !word_char(*p))
			p++;
		for (n = 0; p[n] && word_char(p[n]); n++)
			;
		if (n >= 2) {
			if (used++)
				buf_adds(&b, any_word ? " OR " : " ");
			buf_addc(&b, '"');
			buf_add(&b, (const char *)p, n);
			buf_adds(&b, "\"*");
		}
		p += n;
	}
	if (b.len == 0) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b, NULL);
}

/* Steps st, turning each result into a row with fill(); finalizes st. */
static int
collect(struct rr_db *db, sqlite3_stmt *st, struct mem_rows *rows,
    void (*fill)(sqlite3_stmt *, struct mem_rows *), char **err)
{
	int	rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fill(st, rows);
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	*err = db_fail(db, rc, QUERYING);
	return -1;
}

/* ---- the three kinds of rows ------------------------------------------- */

/* Columns: id, ts, session_id, project, summary, data. */
static void
fill_summary(sqlite3_stmt *st, struct mem_rows *rows)
{
	struct mem_row	*r = push(rows, MEM_SUMMARY,
			    sqlite3_column_int64(st, 0));

	r->type = xstrdup("session_summary");
	r->ts = col(st, 1);
	r->session = col(st, 2);
	r->project = col(st, 3);
	r->text = col(st, 4);
	r->data = col(st, 5);
	r->line = flat_line(r->text);
}

/* Columns: id, ts, session_id, project, user_message, assistant_message. */
static void
fill_turn(sqlite3_stmt *st, struct mem_rows *rows)
{
	struct mem_row	*r = push(rows, MEM_CONVERSATION,
			    sqlite3_column_int64(st, 0));
	char		*user = col(st, 4), *answer = col(st, 5), *l;

	r->type = xstrdup("chat_log");
	r->ts = col(st, 1);
	r->session = col(st, 2);
	r->project = col(st, 3);
	r->text = xasprintf("user: %s\nassistant: %s", user ? user : "",
	    answer ? answer : "");
	l = flat_line(user);
	r->line = xasprintf("user: %s", l);
	free(l);
	free(user);
	free(answer);
}

static char *
jtext(const cJSON *d, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(d, key);

	return cJSON_IsString(v) ? xstrdup(v->valuestring) : NULL;
}

/* Columns: id, ts, session_id, type, data. */
static void
fill_event(sqlite3_stmt *st, struct mem_rows *rows)
{
	struct mem_row	*r = push(rows, MEM_OBSERVATION,
			    sqlite3_column_int64(st, 0));
	const cJSON	*c;
	cJSON		*d;
	char		*s;

	r->ts = col(st, 1);
	r->session = col(st, 2);
	r->type = col(st, 3);
	r->data = col(st, 4);
	r->text = xstrdup(r->data ? r->data : "");
	d = r->data ? cJSON_Parse(r->data) : NULL;
	r->tool = jtext(d, "tool");
	if (r->type != NULL && strcmp(r->type, "user_prompt") == 0) {
		s = jtext(d, "prompt");
		r->line = one_line(s);
		free(s);
		s = r->line;
		r->line = xasprintf("prompt: %s", s);
		free(s);
	} else if (r->type != NULL && strcmp(r->type, "route") == 0) {
		r->exec_type = jtext(d, "exec_type");
		r->pipeline = jtext(d, "pipeline");
		r->icon = jtext(d, "icon");
		r->reason = jtext(d, "reason");
		c = cJSON_GetObjectItemCaseSensitive(d, "confidence");
		r->confidence = cJSON_IsNumber(c) ? (int)c->valuedouble : 0;
		r->line = xasprintf("route: %s%s%s (%d%%)%s%s",
		    r->exec_type ? r->exec_type : "?", r->pipeline ? ", " : "",
		    r->pipeline ? r->pipeline : "", r->confidence,
		    r->reason ? ": " : "", r->reason ? r->reason : "");
	} else {
		s = jtext(d, "summary");
		if (s == NULL)
			s = xasprintf("%s %s", r->tool ? r->tool : "?",
			    r->type ? r->type : "");
		r->line = one_line(s);
		free(s);
	}
	cJSON_Delete(d);
}

/* ---- search ---------------------------------------------------------------- */

static const char *const search_sql[MEM__COUNT][2] = {
	[MEM_SUMMARY] = {
		"SELECT s.id, s.ts, s.session_id, s.project, s.summary, "
		"s.data FROM rr_session_summary_fts AS f CROSS JOIN "
		"session_summary AS s ON s.id = f.rowid WHERE "
		"rr_session_summary_fts MATCH ?1 AND (?2 IS NULL OR "
		"s.session_id = ?2) AND (?3 IS NULL OR s.session_id <> ?3) AND "
		"(?4 IS NULL OR s.project = ?4) ORDER BY "
		"bm25(rr_session_summary_fts), s.id DESC LIMIT ?5",
		"SELECT id, ts, session_id, project, summary, data FROM "
		"session_summary WHERE (?2 IS NULL OR session_id = ?2) AND "
		"(?3 IS NULL OR session_id <> ?3) AND (?4 IS NULL OR project = "
		"?4) AND ?1 IS NULL ORDER BY id DESC LIMIT ?5",
	},
	[MEM_CONVERSATION] = {
		"SELECT c.id, c.ts, c.session_id, c.project, c.user_message, "
		"c.assistant_message FROM rr_chat_logs_fts AS f CROSS JOIN "
		"chat_logs AS c ON c.id = f.rowid WHERE rr_chat_logs_fts MATCH "
		"?1 AND (?2 IS NULL OR c.session_id = ?2) AND (?3 IS NULL OR "
		"c.session_id <> ?3) AND (?4 IS NULL OR c.project = ?4) ORDER "
		"BY bm25(rr_chat_logs_fts), c.id DESC LIMIT ?5",
		"SELECT id, ts, session_id, project, user_message, "
		"assistant_message FROM chat_logs WHERE (?2 IS NULL OR "
		"session_id = ?2) AND (?3 IS NULL OR session_id <> ?3) AND (?4 "
		"IS NULL OR project = ?4) AND ?1 IS NULL ORDER BY id DESC "
		"LIMIT ?5",
	},
	/* Events keep no project: ?4 is there to be bound, and ignored. */
	[MEM_OBSERVATION] = {
		"SELECT e.id, e.ts, e.session_id, e.type, e.data FROM "
		"rr_events_fts AS f CROSS JOIN events AS e ON e.id = f.rowid "
		"WHERE rr_events_fts MATCH ?1 AND (?2 IS NULL OR e.session_id "
		"= ?2) AND (?3 IS NULL OR e.session_id <> ?3) AND (?4 IS NULL "
		"OR ?4 IS NOT NULL) ORDER BY bm25(rr_events_fts), e.id DESC LIMIT ?5",
		"SELECT id, ts, session_id, type, data FROM events WHERE type "
		"IN " OBS_TYPES " AND (?2 IS NULL OR session_id = ?2) AND (?3 "
		"IS NULL OR session_id <> ?3) AND (?4 IS NULL OR ?4 IS NOT NULL) "
		"AND ?1 IS "
		"NULL ORDER BY id DESC LIMIT ?5",
	},
};

static void (*const fillers[MEM__COUNT])(sqlite3_stmt *, struct mem_rows *) = {
	fill_summary, fill_turn, fill_event
};

/* Whether the memory has its tables: an older schema has none. */
static bool
has_memory(struct rr_db *db)
{
	return db->indexed;
}

int
mem_search(struct rr_db *db, enum mem_kind kind, const struct mem_query *q,
    struct mem_rows *rows, char **err)
{
	sqlite3_stmt	*st;
	char		*match;
	size_t		 limit = q->limit ? q->limit : MEM_LIMIT_DEFAULT;
	bool		 blank;
	int		 rc;

	*err = NULL;
	if (db_conn(db, DB_READ, err) == NULL || !has_memory(db))
		return *err ? -1 : 0;
	match = mem_fts_query(q->words, q->any_word);
	blank = q->words == NULL || strspn(q->words, " \t\r\n") ==
	    strlen(q->words);
	/* Words too short to search for find nothing, not everything. */
	if (match == NULL && !blank)
		return 0;
	st = db_prepare(db, QUERYING, err, search_sql[kind][match == NULL],
	    "tttti", match, q->session, q->not_session, q->project,
	    (long long)(limit > MEM_LIMIT_MAX ? MEM_LIMIT_MAX : limit));
	free(match);
	if (st == NULL)
		return -1;
	rc = collect(db, st, rows, fillers[kind], err);
	/* A damaged index: repaired, and asked once more. */
	if (rc < 0 && !db->failed && db_index_broken(db) &&
	    db_repair_index(db, *err)) {
		free(*err);
		*err = NULL;
		return mem_search(db, kind, q, rows, err);
	}
	return rc;
}

/* '%/' path with LIKE's wildcards escaped; owned. */
static char *
suffix_pattern(const char *path)
{
	struct buf	b;

	buf_init(&b);
	buf_adds(&b, "%/");
	while (*path == '/')
		path++;
	for (; *path; path++) {
		if (*path == '%' || *path == '_' || *path == '\\')
			buf_addc(&b, '\\');
		buf_addc(&b, *path);
	}
	return buf_detach(&b, NULL);
}

int
mem_file(struct rr_db *db, const char *path, const char *session,
    size_t limit, struct mem_rows *rows, char **err)
{
	sqlite3_stmt	*st;
	char		*pat;

	*err = NULL;
	if (db_conn(db, DB_READ, err) == NULL)
		return *err ? -1 : 0;
	pat = suffix_pattern(path);
	st = db_prepare(db, QUERYING, err, "SELECT id, ts, session_id, type, "
	    "data FROM events WHERE type IN ('tool_use', 'tool_error') AND "
	    "(json_extract(data, '$.file') = ?1 OR json_extract(data, "
	    "'$.file') LIKE ?2 ESCAPE '\\') AND (?3 IS NULL OR session_id = "
	    "?3) ORDER BY id DESC LIMIT ?4", "ttti", path, pat, session,
	    (long long)(limit ? limit : MEM_LIMIT_DEFAULT));
	free(pat);
	if (st == NULL)
		return -1;
	return collect(db, st, rows, fill_event, err);
}

/* ---- one row, and the rows around it -------------------------------------- */

static const char *const show_sql[MEM__COUNT] = {
	[MEM_SUMMARY] = "SELECT id, ts, session_id, project, summary, data "
	    "FROM session_summary WHERE id = ?1",
	[MEM_CONVERSATION] = "SELECT id, ts, session_id, project, "
	    "user_message, assistant_message FROM chat_logs WHERE id = ?1",
	[MEM_OBSERVATION] = "SELECT id, ts, session_id, type, data FROM events "
	    "WHERE id = ?1",
};

int
mem_show(struct rr_db *db, const char *id, struct mem_rows *rows, char **err)
{
	sqlite3_stmt	*st;
	enum mem_kind	 k;

	*err = NULL;
	if (!mem_valid_id(id))
		return 0;
	if (db_conn(db, DB_READ, err) == NULL)
		return *err ? -1 : 0;
	k = id_kind(id);
	if (k != MEM_OBSERVATION && !has_memory(db))
		return 0;
	st = db_prepare(db, QUERYING, err, show_sql[k], "i",
	    strtoll(id + 1, NULL, 10));
	if (st == NULL)
		return -1;
	return collect(db, st, rows, fillers[k], err);
}

/* Moves the row src to the end of rows. */
static void
take_row(struct mem_rows *rows, struct mem_row *src)
{
	struct mem_row	*dst = push(rows, src->kind, src->rowid);

	*dst = *src;
	memset(src, 0, sizeof(*src));
}

static int
events_side(struct rr_db *db, const char *session, long long pivot,
    bool before, size_t n, struct mem_rows *rows, char **err)
{
	sqlite3_stmt	*st;
	struct mem_rows	 got;
	size_t		 i;
	int		 rc;

	if (n == 0)
		return 0;
	st = db_prepare(db, QUERYING, err, before ? "SELECT id, ts, "
	    "session_id, type, data FROM events WHERE session_id = ?1 AND id "
	    "< ?2 AND type IN " OBS_TYPES " ORDER BY id DESC LIMIT ?3" :
	    "SELECT id, ts, session_id, type, data FROM events WHERE "
	    "session_id = ?1 AND id > ?2 AND type IN " OBS_TYPES " ORDER BY "
	    "id LIMIT ?3", "tii", session, pivot, (long long)n);
	if (st == NULL)
		return -1;
	mem_rows_init(&got);
	rc = collect(db, st, &got, fill_event, err);
	for (i = 0; rc == 0 && i < got.n; i++)
		take_row(rows, &got.v[before ? got.n - 1 - i : i]);
	mem_rows_release(&got);
	return rc;
}

/* The event of session nearest before ts (or its first): 0 when none. */
static int
pivot_at(struct rr_db *db, const char *session, const char *ts,
    long long *pivot, char **err)
{
	sqlite3_stmt	*st;
	int		 rc;

	*pivot = 0;
	st = db_prepare(db, QUERYING, err, "SELECT coalesce((SELECT max(id) "
	    "FROM events WHERE session_id = ?1 AND ts <= ?2 AND type IN "
	    OBS_TYPES "), (SELECT min(id) FROM events WHERE session_id = ?1 "
	    "AND type IN " OBS_TYPES "), 0)", "tt", session, ts);
	if (st == NULL)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*pivot = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		return 0;
	*err = db_fail(db, rc, QUERYING);
	return -1;
}

int
mem_timeline(struct rr_db *db, const char *id, size_t before, size_t after,
    struct mem_rows *rows, char **err)
{
	struct mem_rows	 self, at;
	char		 pid[24];
	long long	 pivot = 0;
	int		 rc;

	*err = NULL;
	mem_rows_init(&self);
	mem_rows_init(&at);
	rc = mem_show(db, id, &self, err);
	if (rc < 0 || self.n == 0 || self.v[0].session == NULL)
		goto out;
	if (self.v[0].kind == MEM_OBSERVATION) {
		pivot = self.v[0].rowid;
		take_row(&at, &self.v[0]);
	} else {
		rc = pivot_at(db, self.v[0].session, self.v[0].ts ?
		    self.v[0].ts : "", &pivot, err);
		if (rc < 0 || pivot == 0)
			goto out;
		snprintf(pid, sizeof(pid), "e%lld", pivot);
		rc = mem_show(db, pid, &at, err);
	}
	if (rc < 0 || at.n != 1)
		goto out;
	rc = events_side(db, at.v[0].session, pivot, true, before, rows, err);
	if (rc == 0) {
		take_row(rows, &at.v[0]);
		rc = events_side(db, rows->v[rows->n - 1].session, pivot, false,
		    after, rows, err);
	}
out:
	mem_rows_release(&self);
	mem_rows_release(&at);
	return rc;
}

/* ---- sessions ---------------------------------------------------------------- */

static int
list_sessions(struct rr_db *db, size_t limit, struct mem_rows *rows,
    char **err)
{
	sqlite3_stmt	*st;
	struct mem_row	*r;
	char		*first;
	int		 rc;

	st = db_prepare(db, QUERYING, err, "SELECT x.session_id, max(x.ts), "
	    "(SELECT s.id FROM session_summary AS s WHERE s.session_id = "
	    "x.session_id ORDER BY s.id DESC LIMIT 1), (SELECT s.summary FROM "
	    "session_summary AS s WHERE s.session_id = x.session_id ORDER BY "
	    "s.id DESC LIMIT 1), (SELECT json_extract(e.data, '$.prompt') "
	    "FROM events AS e WHERE e.session_id = x.session_id AND e.type = "
	    "'user_prompt' ORDER BY e.id LIMIT 1), (SELECT c.user_message "
	    "FROM chat_logs AS c WHERE c.session_id = x.session_id ORDER BY "
	    "c.id LIMIT 1) FROM (SELECT session_id, ts FROM events UNION ALL "
	    "SELECT session_id, ts FROM chat_logs UNION ALL SELECT "
	    "session_id, ts FROM session_summary) AS x WHERE x.session_id IS "
	    "NOT NULL AND x.session_id <> '' GROUP BY x.session_id ORDER BY "
	    "max(x.ts) DESC LIMIT ?1", "i", (long long)(limit ? limit :
	    MEM_LIMIT_DEFAULT));
	if (st == NULL)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		r = push(rows, MEM_SUMMARY, sqlite3_column_int64(st, 2));
		if (sqlite3_column_type(st, 2) == SQLITE_NULL)
			r->id[0] = '\0';
		r->type = xstrdup("session");
		r->session = col(st, 0);
		r->ts = col(st, 1);
		r->text = col(st, 3);
		if (r->text != NULL)
			r->line = flat_line(r->text);
		else {
			first = col(st, 4);
			if (first == NULL)
				first = col(st, 5);
			r->line = first ? one_line(first) : xstrdup("");
			free(first);
		}
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	*err = db_fail(db, rc, QUERYING);
	return -1;
}

int
mem_session(struct rr_db *db, const char *session, size_t limit,
    struct mem_rows *rows, char **err)
{
	struct mem_query	 q;
	struct mem_rows		 turns, events;
	size_t			 i = 0, j = 0;
	int			 rc;

	*err = NULL;
	if (db_conn(db, DB_READ, err) == NULL || !has_memory(db))
		return *err ? -1 : 0;
	if (session == NULL)
		return list_sessions(db, limit, rows, err);
	memset(&q, 0, sizeof(q));
	q.session = session;
	q.limit = 1;
	if (mem_search(db, MEM_SUMMARY, &q, rows, err) < 0)
		return -1;
	q.limit = MEM_LIMIT_MAX;
	mem_rows_init(&turns);
	mem_rows_init(&events);
	rc = mem_search(db, MEM_CONVERSATION, &q, &turns, err);
	if (rc == 0)
		rc = mem_search(db, MEM_OBSERVATION, &q, &events, err);
	/* Newest first from search: merged oldest first by time. */
	while (rc == 0 && (i < turns.n || j < events.n)) {
		struct mem_row	*t = i < turns.n ? &turns.v[turns.n - 1 - i] :
				    NULL;
		struct mem_row	*e = j < events.n ?
				    &events.v[events.n - 1 - j] : NULL;
		struct mem_row	*take;

		if (t != NULL && (e == NULL || strcmp(t->ts ? t->ts : "",
		    e->ts ? e->ts : "") <= 0)) {
			take = t;
			i++;
		} else {
			take = e;
			j++;
		}
		take_row(rows, take);
	}
	mem_rows_release(&turns);
	mem_rows_release(&events);
	return rc;
}

int
mem_last_route(struct rr_db *db, const char *session, struct mem_row *out,
    bool *found, char **err)
{
	struct mem_rows	 rows;
	sqlite3_stmt	*st;
	int		 rc;

	*err = NULL;
	*found = false;
	memset(out, 0, sizeof(*out));
	if (db_conn(db, DB_READ, err) == NULL)
		return *err ? -1 : 0;
	st = db_prepare(db, QUERYING, err, "SELECT id, ts, session_id, type, "
	    "data FROM events WHERE session_id = ?1 AND type = 'route' ORDER "
	    "BY id DESC LIMIT 1", "t", session);
	if (st == NULL)
		return -1;
	mem_rows_init(&rows);
	rc = collect(db, st, &rows, fill_event, err);
	if (rc == 0 && rows.n == 1) {
		*out = rows.v[0];
		memset(&rows.v[0], 0, sizeof(rows.v[0]));
		*found = true;
	}
	mem_rows_release(&rows);
	return rc;
}
