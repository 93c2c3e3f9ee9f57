/*
 * Knowledge-base lookups and writes (kb.h).  Every statement is prepared
 * with bound parameters; every SQLite result code is checked and turned
 * into a message by db_fail().
 */
#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "errmark.h"
#include "jsonw.h"
#include "kb.h"
#include "xmalloc.h"

/* What db_fail() says we were doing. */
#define KB_QUERYING	"query the knowledge base"
#define KB_WRITING	"write to the knowledge base"

/* Rows the file lookup reads in last_used order before using the index. */
#define KB_PROBE_ROWS	400

static enum kb_plan	last_plan;

enum kb_plan
kb_last_plan(void)
{
	return last_plan;
}

void
kb_rows_init(struct kb_rows *r)
{
	memset(r, 0, sizeof(*r));
}

void
kb_rows_release(struct kb_rows *r)
{
	size_t	i;

	for (i = 0; i < r->n; i++) {
		free(r->v[i].error);
		free(r->v[i].resolution);
		free(r->v[i].last_used);
		cJSON_Delete(r->v[i].parsed);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}

static struct kb_row *
rows_push(struct kb_rows *r)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 4;
		r->v = xreallocarray(r->v, r->cap, sizeof(*r->v));
	}
	memset(&r->v[r->n], 0, sizeof(r->v[0]));
	return &r->v[r->n++];
}

void
kb_rows_take(struct kb_rows *dst, struct kb_rows *src)
{
	size_t	i;

	for (i = 0; i < src->n; i++)
		*rows_push(dst) = src->v[i];
	free(src->v);
	memset(src, 0, sizeof(*src));
}

static char *
col_text(sqlite3_stmt *st, int i)
{
	const unsigned char	*t;

	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return NULL;
	t = sqlite3_column_text(st, i);
	return t ? xmemdup0(t, (size_t)sqlite3_column_bytes(st, i)) : NULL;
}

/*
 * What JSON.parse() would make of a resolution, if anything usable: the
 * whole text must parse, and null counts as not JSON (seed 000 then shows
 * the raw text).
 */
static cJSON *
parse_resolution(const char *text)
{
	cJSON	*j;

	if (text == NULL)
		return NULL;
	j = cJSON_ParseWithOpts(text, NULL, 1);
	if (j != NULL && cJSON_IsNull(j)) {
		cJSON_Delete(j);
		j = NULL;
	}
	return j;
}

/* Columns 0..4: id, error_normalized, resolution, last_used, use_count. */
static void
read_row(sqlite3_stmt *st, struct kb_rows *rows)
{
	struct kb_row	*r = rows_push(rows);

	r->id = sqlite3_column_int64(st, 0);
	r->error = col_text(st, 1);
	if (r->error == NULL)
		r->error = xstrdup("");
	r->resolution = col_text(st, 2);
	r->last_used = col_text(st, 3);
	r->uses = sqlite3_column_int64(st, 4);
	r->parsed = parse_resolution(r->resolution);
}

static const char *
uses_col(const struct rr_db *db)
{
	return db->has_use_count ? "use_count" : "0";
}

char *
kb_like_pattern(const char *name)
{
	struct buf	b;

	buf_init(&b);
	buf_addc(&b, '%');
	for (; *name; name++) {
		if (*name == '%' || *name == '_' || *name == '\\')
			buf_addc(&b, '\\');
		buf_addc(&b, *name);
	}
	buf_addc(&b, '%');
	return buf_detach(&b, NULL);
}

/*
 * Whether the trigram index finds every row LIKE finds for this name:
 * three characters or more, valid UTF-8, no U+FFFD (LIKE reads every
 * malformed sequence as U+FFFD, the tokenizer does not) and no leading
 * U+0080 (LIKE then searches for the byte 0x80, which may sit inside
 * another character).
 */
static bool
index_can_answer(const char *name)
{
	const unsigned char	*p = (const unsigned char *)name;
	size_t			 len = strlen(name), i = 0, n, chars = 0;

	if (len >= 2 && p[0] == 0xc2 && p[1] == 0x80)
		return false;
	while (i < len) {
		n = utf8_seqlen(p + i, len - i);
		if (n == 0)
			return false;
		if (n == 3 && p[i] == 0xef && p[i + 1] == 0xbf &&
		    p[i + 2] == 0xbd)
			return false;
		i += n;
		chars++;
	}
	return chars >= 3;
}

/*
 * Whether a name of one or two characters can be found among the index's
 * trigrams: printable ASCII, which the tokenizer folds as LIKE does (and
 * not U+0001, which ends every indexed text).
 */
static bool
terms_can_answer(const char *name)
{
	size_t	len = strlen(name), i;

	if (len == 0 || len > 2)
		return false;
	for (i = 0; i < len; i++)
		if ((unsigned char)name[i] < 0x20 ||
		    (unsigned char)name[i] >= 0x7f)
			return false;
	return true;
}

/*
 * The newest rows' error texts, kept by the probe: a sample of what the
 * table holds, to tell rare trigrams from common ones.
 */
struct sample {
	char	**text;
	size_t	  n;
};

static void
sample_release(struct sample *sm)
{
	size_t	i;

	for (i = 0; i < sm->n; i++)
		free(sm->text[i]);
	free(sm->text);
	memset(sm, 0, sizeof(*sm));
}

static bool
contains_ci(const char *hay, const char *needle, size_t n)
{
	size_t	i, j, len = strlen(hay);
	char	a, b;

	for (i = 0; i + n <= len; i++) {
		for (j = 0; j < n; j++) {
			a = hay[i + j];
			b = needle[j];
			if (a >= 'A' && a <= 'Z')
				a += 32;
			if (b >= 'A' && b <= 'Z')
				b += 32;
			if (a != b)
				break;
		}
		if (j == n)
			return true;
	}
	return false;
}

#define FTS_TERMS	3

/*
 * The index query: the name's rarest trigrams, ANDed.  Every row whose
 * text contains the name contains each of its trigrams, so the answer is
 * still a superset of LIKE's; but a trigram in nearly every row (".ts",
 * "src") would make FTS5 walk a doclist as long as the table, so the
 * FTS_TERMS trigrams least frequent in the sample are asked for.
 */
static char *
fts_query(const char *name, const struct sample *sm)
{
	const unsigned char	*p = (const unsigned char *)name;
	size_t			 len = strlen(name), starts[256], nt = 0, i, j;
	size_t			 count[256], pick[FTS_TERMS], np = 0, end, k;
	bool			 used[256];
	struct buf		 b;

	for (i = 0; i < len && nt < 256; i += utf8_seqlen(p + i, len - i))
		starts[nt++] = i;
	/* nt characters give nt - 2 trigrams (index_can_answer: nt >= 3). */
	nt = nt >= 3 ? nt - 2 : 0;
	for (i = 0; i < nt; i++) {
		end = i + 3 < nt + 2 ? starts[i + 3] : len;
		count[i] = 0;
		used[i] = false;
		for (j = 0; j < sm->n; j++)
			if (contains_ci(sm->text[j], name + starts[i],
			    end - starts[i]))
				count[i]++;
	}
	while (np < FTS_TERMS && np < nt) {
		for (k = nt, i = 0; i < nt; i++)
			if (!used[i] && (k == nt || count[i] < count[k]))
				k = i;
		used[k] = true;
		pick[np++] = k;
	}
	buf_init(&b);
	for (i = 0; i < np; i++) {
		end = pick[i] + 3 < nt + 2 ? starts[pick[i] + 3] : len;
		if (i)
			buf_adds(&b, " AND ");
		buf_addc(&b, '"');
		for (j = starts[pick[i]]; j < end; j++) {
			if (name[j] == '"')
				buf_addc(&b, '"');
			buf_addc(&b, name[j]);
		}
		buf_addc(&b, '"');
	}
	return buf_detach(&b, NULL);
}

/* Steps st to the end, collecting every row; finalizes st. */
static int
collect(struct rr_db *db, sqlite3_stmt *st, struct kb_rows *rows, char **err)
{
	int	rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		read_row(st, rows);
	db_finish(db, st);
	if (rc == SQLITE_DONE)
		return 0;
	*err = db_fail(db, rc, "query the knowledge base");
	return -1;
}

/*
 * The newest KB_PROBE_ROWS rows, each checked with LIKE.  Sets *complete
 * when limit matches were found or the table ran out: the answer is then
 * final, since rows come in the answer's own order.
 */
static int
probe(struct rr_db *db, const char *pattern, size_t limit, unsigned flags,
    struct kb_rows *rows, bool *complete, struct sample *sm, char **err)
{
	sqlite3_stmt	*st;
	char		*sql;
	size_t		 seen = 0;
	int		 rc = SQLITE_DONE;

	*complete = false;
	sql = xasprintf("SELECT id, error_normalized, resolution, last_used, "
	    "%s, error_normalized LIKE ?1 ESCAPE '\\' FROM error_kb %s "
	    "ORDER BY last_used DESC, id DESC LIMIT ?2", uses_col(db),
	    flags & KB_ANY_RESOLUTION ? "" : "WHERE resolution IS NOT NULL");
	st = db_prepare(db, KB_QUERYING, err, sql, "ti", pattern,
	    (long long)KB_PROBE_ROWS);
	free(sql);
	if (st == NULL)
		return -1;
	sm->text = xcalloc(KB_PROBE_ROWS, sizeof(*sm->text));
	while (rows->n < limit && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		seen++;
		if (sm->n < KB_PROBE_ROWS)
			sm->text[sm->n++] = xstrdup(sqlite3_column_text(st, 1) ?
			    (const char *)sqlite3_column_text(st, 1) : "");
		if (sqlite3_column_int(st, 5))
			read_row(st, rows);
	}
	if (rows->n >= limit)
		rc = SQLITE_DONE;
	db_finish(db, st);
	if (rc != SQLITE_DONE) {
		*err = db_fail(db, rc, "query the knowledge base");
		return -1;
	}
	*complete = rows->n >= limit || seen < KB_PROBE_ROWS;
	return 0;
}

/*
 * Every row that matches, by LIKE in SQL.  Its query is probe()'s with
 * the LIKE moved from the result columns into WHERE: the two are alike
 * on purpose, and differ in what SQLite is asked to do.
 */
static int
scan(struct rr_db *db, const char *pattern, size_t limit, unsigned flags,
    struct kb_rows *rows, char **err)
{
	sqlite3_stmt	*st;
	char		*sql;

	sql = xasprintf("SELECT id, error_normalized, resolution, last_used, "
	    "%s FROM error_kb WHERE error_normalized LIKE ?1 ESCAPE '\\' %s "
	    "ORDER BY last_used DESC, id DESC LIMIT ?2", uses_col(db),
	    flags & KB_ANY_RESOLUTION ? "" : "AND resolution IS NOT NULL");
	st = db_prepare(db, KB_QUERYING, err, sql, "ti", pattern,
	    (long long)limit);
	free(sql);
	if (st == NULL)
		return -1;
	return collect(db, st, rows, err);
}

/*
 * Candidates from the trigram index (a superset of LIKE's answer: the
 * tokenizer folds case like LIKE and more), each checked with the LIKE
 * itself.  CROSS JOIN keeps the index as the outer loop.
 */
static int
indexed(struct rr_db *db, const char *name, const char *pattern, size_t limit,
    unsigned flags, const struct sample *sm, struct kb_rows *rows, char **err)
{
	sqlite3_stmt	*st;
	char		*sql, *phrase;

	sql = xasprintf("SELECT k.id, k.error_normalized, k.resolution, "
	    "k.last_used, %s%s FROM (SELECT rowid AS rid FROM error_kb_fts "
	    "WHERE error_kb_fts MATCH ?1) AS f CROSS JOIN error_kb AS k "
	    "ON k.id = f.rid WHERE k.error_normalized LIKE ?2 ESCAPE '\\' %s "
	    "ORDER BY k.last_used DESC, k.id DESC LIMIT ?3",
	    db->has_use_count ? "k." : "", uses_col(db),
	    flags & KB_ANY_RESOLUTION ? "" : "AND k.resolution IS NOT NULL");
	phrase = fts_query(name, sm);
	st = db_prepare(db, KB_QUERYING, err, sql, "tti", phrase, pattern,
	    (long long)limit);
	free(sql);
	free(phrase);
	if (st == NULL)
		return -1;
	return collect(db, st, rows, err);
}

/*
 * Candidates for a name of one or two characters: the rows of every
 * trigram that begins with it (a range of the index's terms, folded as
 * the tokenizer folds ASCII), each checked with the LIKE itself.
 */
static int
by_terms(struct rr_db *db, const char *name, const char *pattern,
    size_t limit, unsigned flags, struct kb_rows *rows, char **err)
{
	sqlite3_stmt	*st;
	char		*sql, lo[3], hi[3];
	size_t		 n = strlen(name), i;

	for (i = 0; i < n; i++)
		lo[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ?
		    name[i] + 32 : name[i]);
	lo[n] = '\0';
	memcpy(hi, lo, n + 1);
	hi[n - 1]++;		/* printable ASCII: no overflow */
	sql = xasprintf("SELECT k.id, k.error_normalized, k.resolution, "
	    "k.last_used, %s%s FROM (SELECT DISTINCT doc AS rid FROM "
	    "error_kb_terms WHERE term >= ?1 AND term < ?2) AS f CROSS JOIN "
	    "error_kb AS k ON k.id = f.rid WHERE k.error_normalized LIKE ?3 "
	    "ESCAPE '\\' %s ORDER BY k.last_used DESC, k.id DESC LIMIT ?4",
	    db->has_use_count ? "k." : "", uses_col(db),
	    flags & KB_ANY_RESOLUTION ? "" : "AND k.resolution IS NOT NULL");
	st = db_prepare(db, KB_QUERYING, err, sql, "ttti", lo, hi, pattern,
	    (long long)limit);
	free(sql);
	if (st == NULL)
		return -1;
	return collect(db, st, rows, err);
}

/* The index's answer for name, by its plan. */
static int
from_index(struct rr_db *db, const char *name, const char *pattern,
    size_t limit, unsigned flags, const struct sample *sm,
    struct kb_rows *rows, char **err)
{
	if (last_plan == KB_PLAN_TERMS)
		return by_terms(db, name, pattern, limit, flags, rows, err);
	return indexed(db, name, pattern, limit, flags, sm, rows, err);
}

/*
 * After the index failed with *err: when the index itself is damaged the
 * rows are intact, so the index is repaired and asked again, or, if it
 * cannot be, the rows are scanned.  Other failures stand.
 */
static int
index_failed(struct rr_db *db, const char *name, const char *pattern,
    size_t limit, unsigned flags, const struct sample *sm,
    struct kb_rows *rows, char **err)
{
	bool	repaired;

	if (db->failed || !db_index_broken(db))
		return -1;
	kb_rows_release(rows);
	repaired = db_repair_index(db, *err);
	free(*err);
	*err = NULL;
	if (repaired)
		return from_index(db, name, pattern, limit, flags, sm, rows,
		    err);
	if (db->conn == NULL) {		/* the reopen failed: in the notes */
		*err = xstrdup(db->failed ? db->fail_msg :
		    "the database is closed");
		return -1;
	}
	last_plan = KB_PLAN_SCAN;
	return scan(db, pattern, limit, flags, rows, err);
}

int
kb_file_errors(struct rr_db *db, const char *name, size_t limit,
    unsigned flags, struct kb_rows *rows, char **err)
{
	struct kb_rows	 got;
	struct sample	 sm;
	char		*pattern;
	bool		 complete;
	int		 rc;

	*err = NULL;
	last_plan = KB_PLAN_NONE;
	if (limit == 0 || db_conn(db, DB_READ, err) == NULL)
		return *err ? -1 : 0;
	kb_rows_init(&got);
	memset(&sm, 0, sizeof(sm));
	pattern = kb_like_pattern(name);
	last_plan = KB_PLAN_PROBE;
	rc = probe(db, pattern, limit, flags, &got, &complete, &sm, err);
	if (rc == 0 && !complete) {
		kb_rows_release(&got);
		if (db->indexed && (index_can_answer(name) ||
		    terms_can_answer(name))) {
			last_plan = index_can_answer(name) ? KB_PLAN_INDEX :
			    KB_PLAN_TERMS;
			rc = from_index(db, name, pattern, limit, flags, &sm,
			    &got, err);
			if (rc < 0)
				rc = index_failed(db, name, pattern, limit,
				    flags, &sm, &got, err);
		} else {
			last_plan = KB_PLAN_SCAN;
			rc = scan(db, pattern, limit, flags, &got, err);
		}
	}
	free(pattern);
	sample_release(&sm);
	if (rc == 0)
		kb_rows_take(rows, &got);
	kb_rows_release(&got);
	return rc;
}

int
kb_file_errors_scan(struct rr_db *db, const char *name, size_t limit,
    unsigned flags, struct kb_rows *rows, char **err)
{
	char	*pattern;
	int	 rc;

	*err = NULL;
	if (db_conn(db, DB_READ, err) == NULL)
		return *err ? -1 : 0;
	pattern = kb_like_pattern(name);
	rc = scan(db, pattern, limit, flags, rows, err);
	free(pattern);
	return rc;
}

int
kb_session_error(struct rr_db *db, const char *session_id, const char *tool,
    size_t limit, struct kb_rows *rows, char **err)
{
	sqlite3_stmt	*ev, *st;
	char		*sql;
	int		 rc, type;

	*err = NULL;
	if (limit == 0)
		return 0;
	/* Almost every session has none: the markers say so without SQLite. */
	if (db->conn == NULL && !db->failed && errmark_check(db->path,
	    session_id, tool) == ERRMARK_NONE)
		return 0;
	if (db_conn(db, DB_READ, err) == NULL)
		return *err ? -1 : 0;
	ev = db_prepare(db, "query the session's errors", err, "SELECT "
	    "json_extract(data, '$.error') FROM events WHERE type = "
	    "'tool_error' AND session_id = ?1 AND json_extract(data, '$.tool') "
	    "= ?2 ORDER BY ts DESC, id DESC LIMIT 1", "tt", session_id, tool);
	if (ev == NULL)
		return -1;
	rc = sqlite3_step(ev);
	if (rc != SQLITE_ROW) {
		db_finish(db, ev);
		if (rc == SQLITE_DONE)
			return 0;
		*err = db_fail(db, rc, "query the session's errors");
		return -1;
	}
	/* Seed 000 goes on only when the error is truthy in JavaScript. */
	type = sqlite3_column_type(ev, 0);
	if (type == SQLITE_NULL || (type == SQLITE_TEXT &&
	    sqlite3_column_bytes(ev, 0) == 0) || ((type == SQLITE_INTEGER ||
	    type == SQLITE_FLOAT) && sqlite3_column_double(ev, 0) == 0)) {
		db_finish(db, ev);
		return 0;
	}
	sql = xasprintf("SELECT id, error_normalized, resolution, last_used, "
	    "%s FROM error_kb WHERE error_normalized = ?1 AND resolution IS "
	    "NOT NULL ORDER BY last_used DESC, id DESC LIMIT ?2", uses_col(db));
	st = db_prepare(db, KB_QUERYING, err, sql, "vi",
	    sqlite3_column_value(ev, 0), (long long)limit);
	free(sql);
	if (st == NULL) {
		db_finish(db, ev);
		return -1;
	}
	rc = collect(db, st, rows, err);
	db_finish(db, ev);
	return rc;
}

int
kb_list(struct rr_db *db, size_t limit, struct kb_rows *rows, char **err)
{
	sqlite3_stmt	*st;
	char		*sql;

	*err = NULL;
	if (db_conn(db, DB_READ, err) == NULL)
		return *err ? -1 : 0;
	sql = xasprintf("SELECT id, error_normalized, resolution, last_used, "
	    "%s FROM error_kb ORDER BY last_used DESC, id DESC LIMIT ?1",
	    uses_col(db));
	st = db_prepare(db, KB_QUERYING, err, sql, "i",
	    limit ? (long long)limit : -1LL);
	free(sql);
	if (st == NULL)
		return -1;
	return collect(db, st, rows, err);
}

/* ---- writes --------------------------------------------------------- */

static int
need_schema(struct rr_db *db, char **err)
{
	if (db->indexed && db->has_use_count)
		return 0;
	*err = xasprintf("database '%s' is not upgraded yet; run "
	    "'reflexion-rules kb list' once", db->path);
	return -1;
}

/* The newest row with exactly this error text: 1, 0 (none) or -1. */
static int
find_row(struct rr_db *db, const char *error, struct kb_rows *rows,
    char **err)
{
	sqlite3_stmt	*st;

	st = db_prepare(db, KB_QUERYING, err, "SELECT id, error_normalized, "
	    "resolution, last_used, use_count FROM error_kb WHERE "
	    "error_normalized = ?1 ORDER BY last_used DESC, id DESC LIMIT 1",
	    "t", error);
	if (st == NULL || collect(db, st, rows, err) < 0)
		return -1;
	return rows->n > 0;
}

int
kb_put_resolution(struct rr_db *db, const char *error, const char *error_raw,
    const char *resolution, const char *now, long long *id, char **err)
{
	struct kb_rows	 rows;
	sqlite3_stmt	*st;
	int		 found;

	*err = NULL;
	if (need_schema(db, err) < 0)
		return -1;
	kb_rows_init(&rows);
	if ((found = find_row(db, error, &rows, err)) < 0)
		return -1;
	if (found)
		st = db_prepare(db, KB_WRITING, err, "UPDATE error_kb SET "
		    "resolution = ?2, last_used = ?3, use_count = "
		    "coalesce(use_count, 0) + 1, error_raw = coalesce(?4, "
		    "error_raw) WHERE id = ?1", "ittt", rows.v[0].id,
		    resolution, now, error_raw);
	else
		st = db_prepare(db, KB_WRITING, err, "INSERT INTO error_kb "
		    "(error_normalized, resolution, last_used, error_raw, ts, "
		    "use_count) VALUES (?1, ?2, ?3, ?4, ?3, 1)", "tttt", error,
		    resolution, now, error_raw);
	if (st == NULL || db_run(db, st, KB_WRITING, err) < 0)
		goto fail;
	if (id != NULL)
		*id = found ? rows.v[0].id :
		    (long long)sqlite3_last_insert_rowid(db->conn);
	kb_rows_release(&rows);
	return 0;
fail:
	kb_rows_release(&rows);
	return -1;
}

static bool
str_eq(const char *a, const char *b)
{
	return (a == NULL && b == NULL) ||
	    (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static int
put_merge(struct rr_db *db, const char *error, const char *resolution,
    const char *last_used, long long uses, enum kb_put_result *res,
    char **err)
{
	struct kb_rows	 rows;
	struct kb_row	*r;
	sqlite3_stmt	*st;
	char		 now[32];
	bool		 newer;
	int		 found;

	*err = NULL;
	*res = KB_UNCHANGED;
	if (need_schema(db, err) < 0)
		return -1;
	kb_rows_init(&rows);
	if ((found = find_row(db, error, &rows, err)) < 0)
		return -1;
	db_now(now);
	if (!found) {
		st = db_prepare(db, KB_WRITING, err, "INSERT INTO error_kb "
		    "(error_normalized, resolution, last_used, ts, use_count) "
		    "VALUES (?1, ?2, ?3, ?4, ?5)", "tttti", error, resolution,
		    last_used, now, uses > 0 ? uses : 0LL);
		if (st == NULL || db_run(db, st, KB_WRITING, err) < 0)
			goto fail;
		*res = KB_ADDED;
		kb_rows_release(&rows);
		return 0;
	}
	r = &rows.v[0];
	newer = resolution != NULL && (r->resolution == NULL ||
	    (last_used != NULL && (r->last_used == NULL ||
	    strcmp(last_used, r->last_used) > 0)));
	if (newer && str_eq(resolution, r->resolution) &&
	    str_eq(last_used, r->last_used))
		newer = false;
	if (!newer && uses <= r->uses) {
		kb_rows_release(&rows);
		return 0;
	}
	st = db_prepare(db, KB_WRITING, err, "UPDATE error_kb SET resolution "
	    "= coalesce(?2, resolution), last_used = coalesce(?3, last_used), "
	    "use_count = max(coalesce(use_count, 0), ?4) WHERE id = ?1",
	    "itti", r->id, newer ? resolution : NULL, newer ? last_used :
	    NULL, uses);
	if (st == NULL || db_run(db, st, KB_WRITING, err) < 0)
		goto fail;
	*res = KB_UPDATED;
	kb_rows_release(&rows);
	return 0;
fail:
	kb_rows_release(&rows);
	return -1;
}

/* Texts from outside (a command line, a shared file) are made valid UTF-8. */
static char *
valid_or_null(const char *s)
{
	return s ? utf8_valid_dup(s, strlen(s)) : NULL;
}

int
kb_put_merge(struct rr_db *db, const char *error, const char *resolution,
    const char *last_used, long long uses, enum kb_put_result *res,
    char **err)
{
	char	*e = valid_or_null(error), *r = valid_or_null(resolution);
	char	*l = valid_or_null(last_used);
	int	 rc;

	rc = put_merge(db, e, r, l, uses, res, err);
	free(e);
	free(r);
	free(l);
	return rc;
}

/* ---- JSON Lines ----------------------------------------------------------- */

int
kb_import_entry(struct rr_db *db, const cJSON *e, enum kb_put_result *res,
    char **err)
{
	const cJSON	*error, *resolution, *last_used, *uses;
	char		*text = NULL;
	long long	 n = 0;
	int		 rc;

	*err = NULL;
	if (!cJSON_IsObject(e)) {
		*err = xstrdup("an entry must be a JSON object");
		return -1;
	}
	error = cJSON_GetObjectItemCaseSensitive(e, "error");
	resolution = cJSON_GetObjectItemCaseSensitive(e, "resolution");
	last_used = cJSON_GetObjectItemCaseSensitive(e, "last_used");
	uses = cJSON_GetObjectItemCaseSensitive(e, "use_count");
	if (!cJSON_IsString(error) || error->valuestring[0] == '\0') {
		*err = xstrdup("'error' must be a non-empty string");
		return -1;
	}
	if (last_used != NULL && !cJSON_IsNull(last_used) &&
	    !cJSON_IsString(last_used)) {
		*err = xstrdup("'last_used' must be a string");
		return -1;
	}
	if (uses != NULL && (!cJSON_IsNumber(uses) || uses->valuedouble < 0 ||
	    uses->valuedouble > 9e15)) {
		*err = xstrdup("'use_count' must be a number of 0 or more");
		return -1;
	}
	if (uses != NULL)
		n = (long long)uses->valuedouble;
	if (cJSON_IsString(resolution))
		text = xstrdup(resolution->valuestring);
	else if (resolution != NULL && !cJSON_IsNull(resolution))
		text = cJSON_PrintUnformatted(resolution);
	rc = kb_put_merge(db, error->valuestring, text,
	    cJSON_IsString(last_used) ? last_used->valuestring : NULL, n, res,
	    err);
	free(text);
	return rc;
}

char *
kb_export_entry(const struct kb_row *r)
{
	struct buf	 b;
	char		*json;

	buf_init(&b);
	buf_adds(&b, "{\"error\":");
	jsonw_cstring(&b, r->error);
	buf_adds(&b, ",\"resolution\":");
	/* A JSON object reads better in a diff than its escaped text. */
	if (r->parsed != NULL && cJSON_IsObject(r->parsed) &&
	    (json = cJSON_PrintUnformatted(r->parsed)) != NULL) {
		buf_adds(&b, json);
		free(json);
	} else if (r->resolution != NULL)
		jsonw_cstring(&b, r->resolution);
	else
		buf_adds(&b, "null");
	if (r->last_used != NULL) {
		buf_adds(&b, ",\"last_used\":");
		jsonw_cstring(&b, r->last_used);
	}
	buf_printf(&b, ",\"use_count\":%lld}", r->uses);
	return buf_detach(&b, NULL);
}
