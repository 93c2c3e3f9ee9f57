/*
 * The knowledge base: the file-name lookup answers exactly what a plain
 * LIKE query answers (on thousands of generated rows and names, hostile
 * bytes included) without scanning; the session lookup; writes; the
 * migration of databases made by the original tool; corrupt files.
 */
#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db.h"
#include "kb.h"
#include "tap.h"
#include "xmalloc.h"

/* The schema version as text: "3". */
#define STR_(x)		#x
#define STR(x)		STR_(x)
#define DB_STR_V	STR(DB_SCHEMA_VERSION)

static unsigned long long rng = 0x9e3779b97f4a7c15ULL;

static unsigned
rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* Pieces of generated texts: case, wildcards, quotes, UTF-8 and not. */
static const char *const pieces[] = {
	"a", "b", "c", "A", "B", "C", "x", "y", "z", ".", "/", "_", "%",
	"\\", "\"", "'", " ", "ts", "py", "index", "Index", "INDEX", ".ts",
	"\xc3\xa9", "\xc3\x89", "\xed\x95\x9c", "\xea\xb8\x80",
	"\xc2\x80", "\xef\xbf\xbd", "\xe2\x84\xaa", "\xc3\x9f", "1", "2",
	"-", "*", ":", "\xff", "\xc3", "\x80", "\xe2\x80\x80", "\xc0\x80",
	"\xed\xa0\x80", "\xf0\x9f\x92\xa1", "k", "K", "s", "S", "\xc5\xbf",
};
#define NPIECES	(sizeof(pieces) / sizeof(pieces[0]))

static char *
gen_text(unsigned min, unsigned max)
{
	struct buf	b;
	unsigned	n = min + rnd(max - min + 1), i;

	buf_init(&b);
	for (i = 0; i < n; i++)
		buf_adds(&b, pieces[rnd(NPIECES)]);
	return buf_detach(&b, NULL);
}

static char *
ids(const struct kb_rows *r)
{
	struct buf	b;
	size_t		i;

	buf_init(&b);
	for (i = 0; i < r->n; i++)
		buf_printf(&b, "%s%lld", i ? "," : "", r->v[i].id);
	return buf_detach(&b, NULL);
}

/* A note without its newline, for a TAP description. */
static const char *
line(const struct rr_db *db)
{
	static char	b[512];
	size_t		n = db->notes.len;

	if (n > 0 && db->notes.data[n - 1] == '\n')
		n--;
	snprintf(b, sizeof(b), "%.*s", (int)n, db->notes.data);
	return b;
}

static void
exec_ok(sqlite3 *c, const char *sql)
{
	char	*e = NULL;

	if (sqlite3_exec(c, sql, NULL, NULL, &e) != SQLITE_OK) {
		printf("# sql failed: %s: %s\n", sql, e);
		sqlite3_free(e);
	}
}

static long long
count(sqlite3 *c, const char *sql)
{
	sqlite3_stmt	*st;
	long long	 n = -1;

	if (sqlite3_prepare_v2(c, sql, -1, &st, NULL) != SQLITE_OK)
		return -2;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static void
insert_row(sqlite3 *c, const char *error, const char *res, const char *when)
{
	sqlite3_stmt	*st;

	sqlite3_prepare_v2(c, "INSERT INTO error_kb (error_normalized, "
	    "resolution, last_used) VALUES (?1, ?2, ?3)", -1, &st, NULL);
	sqlite3_bind_text(st, 1, error, -1, SQLITE_STATIC);
	if (res)
		sqlite3_bind_text(st, 2, res, -1, SQLITE_STATIC);
	if (when)
		sqlite3_bind_text(st, 3, when, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		printf("# insert failed: %s\n", sqlite3_errmsg(c));
	sqlite3_finalize(st);
}

/* A name: a piece of a row (maybe cut mid-character), case flipped, or not. */
static char *
gen_name(char **rows, size_t nrows)
{
	const char	*r;
	size_t		 len, a, n, i;
	char		*s;

	if (rnd(10) < 4)
		return gen_text(0, 4);
	r = rows[rnd((unsigned)nrows)];
	len = strlen(r);
	a = len ? rnd((unsigned)len) : 0;
	n = 1 + rnd(12);
	if (a + n > len)
		n = len - a;
	s = xstrndup(r + a, n);
	for (i = 0; s[i]; i++)
		if (rnd(3) == 0 && ((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= 'A' && s[i] <= 'Z')))
			s[i] ^= 0x20;
	return s;
}

static void
test_like_equivalence(void)
{
	static const char *const times[] = {
		"2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z",
		"2026-01-03T00:00:00.000Z", "2026-02-07T10:00:00.000Z", NULL
	};
	struct rr_db	*db = db_new(":memory:");
	struct kb_rows	 got, want;
	char		*rows[3000], *name, *err = NULL, *g, *w;
	size_t		 nrows = 3000, i, names = 0, bad = 0, plans[5] = { 0 };
	size_t		 limits[] = { 2, 1000 };
	unsigned	 flags, li;

	ok(db_conn(db, DB_WRITE, &err) != NULL, "in-memory database: %s",
	    err ? err : "ok");
	ok(db->indexed, "schema %d with the trigram index", DB_SCHEMA_VERSION);
	exec_ok(db->conn, "BEGIN");
	for (i = 0; i < nrows; i++) {
		rows[i] = gen_text(2, 12);
		insert_row(db->conn, rows[i], rnd(10) ? "{\"resolvedBy\":\"x\"}" :
		    NULL, times[rnd(5)]);
	}
	exec_ok(db->conn, "COMMIT");
	exec_ok(db->conn, "INSERT INTO error_kb_fts(error_kb_fts) "
	    "VALUES('integrity-check')");
	for (names = 0; names < 2000; names++) {
		name = gen_name(rows, nrows);
		for (li = 0; li < 2; li++) {
			flags = rnd(2) ? KB_ANY_RESOLUTION : 0;
			kb_rows_init(&got);
			kb_rows_init(&want);
			if (kb_file_errors(db, name, limits[li], flags, &got,
			    &err) < 0 || kb_file_errors_scan(db, name, limits[li],
			    flags, &want, &err) < 0) {
				printf("# %s\n", err);
				free(err);
				err = NULL;
				bad++;
			}
			plans[kb_last_plan() == KB_PLAN_NONE ? 0 :
			    (size_t)kb_last_plan()]++;
			g = ids(&got);
			w = ids(&want);
			if (strcmp(g, w) != 0) {
				if (bad++ < 5)
					printf("# name '%s' limit %zu: got %s, "
					    "want %s\n", name, limits[li], g, w);
			}
			free(g);
			free(w);
			kb_rows_release(&got);
			kb_rows_release(&want);
		}
		free(name);
	}
	ok(bad == 0, "%zu names x 2 limits: the lookup equals the plain LIKE "
	    "query every time (%zu differ)", names, bad);
	printf("# plans: probe %zu, index %zu, terms %zu, scan %zu\n",
	    plans[KB_PLAN_PROBE], plans[KB_PLAN_INDEX], plans[KB_PLAN_TERMS],
	    plans[KB_PLAN_SCAN]);
	ok(plans[KB_PLAN_TERMS] > 50, "the trigrams a short name begins "
	    "answered %zu", plans[KB_PLAN_TERMS]);
	ok(plans[KB_PLAN_INDEX] > 500, "the trigram index answered %zu of "
	    "them", plans[KB_PLAN_INDEX]);
	ok(plans[KB_PLAN_PROBE] > 100, "the newest rows answered %zu",
	    plans[KB_PLAN_PROBE]);
	for (i = 0; i < nrows; i++)
		free(rows[i]);
	db_close(db);
}

/* The wildcards of LIKE are literal in a file name. */
static void
test_literal_names(void)
{
	struct rr_db	*db = db_new(":memory:");
	struct kb_rows	 r;
	char		*err = NULL, *s;
	int		 i;

	db_conn(db, DB_WRITE, &err);
	insert_row(db->conn, "error in my_file.py", "r", "2026-01-01");
	insert_row(db->conn, "error in myXfile.py", "r", "2026-01-02");
	insert_row(db->conn, "100% done in a.c", "r", "2026-01-03");
	insert_row(db->conn, "C:\\x\\y.ts failed", "r", "2026-01-04");
	insert_row(db->conn, "no resolution in my_file.py", NULL, "2026-01-05");
	/* More rows than the probe reads, so that the index answers. */
	exec_ok(db->conn, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
	    "SELECT i + 1 FROM n WHERE i < 1000) INSERT INTO error_kb "
	    "(error_normalized, resolution, last_used) SELECT 'filler ' || i, "
	    "'r', '2026-03-01' FROM n");
	for (i = 0; i < 4; i++) {
		static const char *const q[] = {
			"my_file.py", "100%", "y.ts", "\\y"
		};
		static const char *const want[] = { "1", "3", "4", "4" };
		kb_rows_init(&r);
		kb_file_errors(db, q[i], 10, 0, &r, &err);
		s = ids(&r);
		is_str(s, want[i], "'%s' is literal (plan %d)", q[i],
		    (int)kb_last_plan());
		free(s);
		kb_rows_release(&r);
	}
	kb_rows_init(&r);
	kb_file_errors(db, "MY_FILE.PY", 10, KB_ANY_RESOLUTION, &r, &err);
	s = ids(&r);
	is_str(s, "5,1", "ASCII case folds; any resolution, newest first");
	free(s);
	kb_rows_release(&r);
	kb_rows_init(&r);
	kb_file_errors(db, "py", 10, 0, &r, &err);
	ok(kb_last_plan() == KB_PLAN_TERMS && r.n == 2,
	    "a two-character name: the trigrams it begins");
	kb_rows_release(&r);
	/* At the very end of a text, and a whole text. */
	insert_row(db->conn, "built with Go", "r", "2026-01-06");
	insert_row(db->conn, "q", "r", "2026-01-07");
	insert_row(db->conn, "jq", "r", "2026-01-08");
	exec_ok(db->conn, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
	    "SELECT i + 1 FROM n WHERE i < 1000) INSERT INTO error_kb "
	    "(error_normalized, resolution, last_used) SELECT 'filler ' || i, "
	    "'r', '2026-03-01' FROM n");
	for (i = 0; i < 4; i++) {
		static const char *const q[] = { "go", "GO", "q", "J" };
		static const char *const want[] = {
			"1006", "1006", "1008,1007", "1008"
		};
		kb_rows_init(&r);
		kb_file_errors(db, q[i], 10, 0, &r, &err);
		s = ids(&r);
		ok(strcmp(s, want[i]) == 0 && kb_last_plan() == KB_PLAN_TERMS,
		    "'%s' at the end of a text, or the whole of it: %s (plan "
		    "%d)", q[i], s, (int)kb_last_plan());
		free(s);
		kb_rows_release(&r);
	}
	db_close(db);
}

static void
add_error_event(struct rr_db *db, const char *ts, const char *session,
    const char *data)
{
	sqlite3_stmt	*st;

	sqlite3_prepare_v2(db->conn, "INSERT INTO events (ts, session_id, "
	    "type, data) VALUES (?1, ?2, 'tool_error', ?3)", -1, &st, NULL);
	sqlite3_bind_text(st, 1, ts, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, session, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, data, -1, SQLITE_STATIC);
	sqlite3_step(st);
	sqlite3_finalize(st);
}

static void
test_session_error(void)
{
	struct rr_db	*db = db_new(":memory:");
	struct kb_rows	 r;
	char		*err = NULL;

	db_conn(db, DB_WRITE, &err);
	insert_row(db->conn, "npm: command not found", "{\"toolSequence\":"
	    "[\"Bash\"]}", "2026-01-01");
	insert_row(db->conn, "E2", "r", "2026-01-01");
	add_error_event(db, "2026-01-01T00:00:01.000Z", "s1",
	    "{\"tool\":\"Bash\",\"error\":\"npm: command not found\"}");
	add_error_event(db, "2026-01-01T00:00:02.000Z", "s1",
	    "{\"tool\":\"Edit\",\"error\":\"E2\"}");
	add_error_event(db, "2026-01-01T00:00:03.000Z", "s2",
	    "{\"tool\":\"Bash\",\"error\":\"E2\"}");

	kb_rows_init(&r);
	kb_session_error(db, "s1", "Bash", 1, &r, &err);
	ok(r.n == 1 && strcmp(r.v[0].error, "npm: command not found") == 0 &&
	    r.v[0].parsed != NULL, "the session's Bash error, matched exactly");
	kb_rows_release(&r);
	kb_session_error(db, "s1", "Edit", 1, &r, &err);
	ok(r.n == 1 && strcmp(r.v[0].error, "E2") == 0, "per tool");
	kb_rows_release(&r);
	kb_session_error(db, "s3", "Bash", 1, &r, &err);
	ok(r.n == 0, "another session has no errors");
	kb_rows_release(&r);
	add_error_event(db, "2026-01-01T00:00:04.000Z", "s1",
	    "{\"tool\":\"Bash\",\"error\":\"\"}");
	kb_session_error(db, "s1", "Bash", 1, &r, &err);
	ok(r.n == 0, "the latest error is empty: nothing (falsy in seed 000)");
	kb_rows_release(&r);
	add_error_event(db, "2026-01-01T00:00:05.000Z", "s1",
	    "{\"tool\":\"Bash\",\"error\":\"unknown\"}");
	kb_session_error(db, "s1", "Bash", 1, &r, &err);
	ok(r.n == 0, "only the latest error counts, and the KB lacks it");
	kb_rows_release(&r);
	db_close(db);
}

static void
test_writes(void)
{
	struct rr_db		*db = db_new(":memory:");
	struct kb_rows		 r;
	enum kb_put_result	 res;
	char			*err = NULL, *line;
	long long		 id = 0, id2 = 0;
	cJSON			*j;
	int			 i;

	db_conn(db, DB_WRITE, &err);
	ok(kb_put_resolution(db, "E", "raw", "{\"resolvedBy\":\"a\"}",
	    "2026-01-01T00:00:00.000Z", &id, &err) == 0 && id > 0,
	    "a resolution adds a row");
	ok(kb_put_resolution(db, "E", NULL, "{\"resolvedBy\":\"b\"}",
	    "2026-01-02T00:00:00.000Z", &id2, &err) == 0 && id2 == id,
	    "the same error updates it");
	kb_rows_init(&r);
	kb_list(db, 0, &r, &err);
	ok(r.n == 1 && r.v[0].uses == 2 && strcmp(r.v[0].resolution,
	    "{\"resolvedBy\":\"b\"}") == 0 && strcmp(r.v[0].last_used,
	    "2026-01-02T00:00:00.000Z") == 0, "use count 2, newest resolution");
	line = kb_export_entry(&r.v[0]);
	is_str(line, "{\"error\":\"E\",\"resolution\":{\"resolvedBy\":\"b\"},"
	    "\"last_used\":\"2026-01-02T00:00:00.000Z\",\"use_count\":2}",
	    "export entry");
	kb_rows_release(&r);

	j = cJSON_Parse(line);
	free(line);
	kb_import_entry(db, j, &res, &err);
	ok(res == KB_UNCHANGED, "importing the same entry changes nothing");
	cJSON_Delete(j);
	j = cJSON_Parse("{\"error\":\"E\",\"resolution\":\"older\","
	    "\"last_used\":\"2025-01-01\",\"use_count\":9}");
	kb_import_entry(db, j, &res, &err);
	cJSON_Delete(j);
	kb_list(db, 0, &r, &err);
	ok(res == KB_UPDATED && r.v[0].uses == 9 && strcmp(r.v[0].resolution,
	    "{\"resolvedBy\":\"b\"}") == 0, "an older entry keeps the newer "
	    "resolution, takes the larger count");
	kb_rows_release(&r);
	j = cJSON_Parse("{\"error\":\"F\",\"resolution\":[1,2]}");
	kb_import_entry(db, j, &res, &err);
	cJSON_Delete(j);
	ok(res == KB_ADDED, "a new entry is added");
	j = cJSON_Parse("{\"resolution\":\"x\"}");
	i = kb_import_entry(db, j, &res, &err);
	ok(i < 0 && err && strstr(err, "'error'"),
	    "an entry without error is refused: %s", err);
	free(err);
	err = NULL;
	cJSON_Delete(j);

	/* Invalid UTF-8 from a shared file is stored as U+FFFD. */
	j = cJSON_Parse("{\"error\":\"G \xd4 in g.ts\",\"resolution\":"
	    "{\"resolvedBy\":\"\xff\"},\"last_used\":\"2026-\xc3\"}");
	kb_import_entry(db, j, &res, &err);
	cJSON_Delete(j);
	kb_rows_init(&r);
	kb_list(db, 1, &r, &err);
	ok(res == KB_ADDED && r.n == 1 && strcmp(r.v[0].error,
	    "G \xef\xbf\xbd in g.ts") == 0 && strcmp(r.v[0].resolution,
	    "{\"resolvedBy\":\"\xef\xbf\xbd\"}") == 0 &&
	    strcmp(r.v[0].last_used, "2026-\xef\xbf\xbd") == 0,
	    "invalid UTF-8 in an entry becomes U+FFFD");
	line = kb_export_entry(&r.v[0]);
	kb_rows_release(&r);
	j = cJSON_Parse(line);
	free(line);
	kb_import_entry(db, j, &res, &err);
	cJSON_Delete(j);
	ok(res == KB_UNCHANGED, "so its export imports back unchanged");
	db_close(db);
}

static char *
tmp_dir(void)
{
	char	*d = xstrdup("/tmp/rr-kb-XXXXXX");

	if (mkdtemp(d) == NULL)
		abort();
	return d;
}

static void
rm_rf(const char *dir)
{
	char	*cmd = xasprintf("rm -rf '%s'", dir);

	if (system(cmd) != 0)
		printf("# cannot remove %s\n", dir);
	free(cmd);
}

/* A database as the original tool (minimal or full schema) left it. */
static void
test_migration(int full)
{
	char		*dir = tmp_dir(), *path = xasprintf("%s/r.db", dir), *err;
	sqlite3		*c;
	struct rr_db	*db;
	struct kb_rows	 r;
	int		 i;

	sqlite3_open(path, &c);
	if (!full)
		exec_ok(c, "CREATE TABLE events (id INTEGER PRIMARY KEY, ts TEXT "
		    "NOT NULL, session_id TEXT, type TEXT NOT NULL, data TEXT NOT "
		    "NULL); CREATE TABLE error_kb (id INTEGER PRIMARY KEY, "
		    "error_normalized TEXT NOT NULL, resolution TEXT, last_used "
		    "TEXT);");
	else
		/* The wider tables, unique index, FTS and no-update trigger. */
		exec_ok(c, "PRAGMA journal_mode=WAL; CREATE TABLE events (id "
		    "INTEGER PRIMARY KEY AUTOINCREMENT, v INTEGER DEFAULT 1, type "
		    "TEXT NOT NULL, ts TEXT NOT NULL, session_id TEXT NOT NULL, "
		    "project TEXT, project_path TEXT, data JSON NOT NULL); "
		    "CREATE INDEX idx_ev ON events(session_id, ts); "
		    "CREATE TABLE error_kb (id INTEGER PRIMARY KEY AUTOINCREMENT, "
		    "ts TEXT NOT NULL, error_normalized TEXT NOT NULL, error_raw "
		    "TEXT, resolution TEXT, resolved_by TEXT, tool_sequence TEXT, "
		    "use_count INTEGER DEFAULT 0, last_used TEXT); CREATE UNIQUE "
		    "INDEX idx_kb ON error_kb(error_normalized); "
		    "CREATE VIRTUAL TABLE events_fts USING fts5(type, text, "
		    "content='events', content_rowid='id'); "
		    "CREATE TRIGGER ev_ai AFTER INSERT ON events BEGIN INSERT INTO "
		    "events_fts(rowid, type, text) VALUES (new.id, new.type, "
		    "json_extract(new.data, '$.error')); END; "
		    "CREATE TRIGGER ev_ad AFTER DELETE ON events BEGIN INSERT INTO "
		    "events_fts(events_fts, rowid, type, text) VALUES ('delete', "
		    "old.id, old.type, json_extract(old.data, '$.error')); END; "
		    "CREATE TRIGGER ev_nu BEFORE UPDATE ON events BEGIN SELECT "
		    "RAISE(ABORT, 'events table is INSERT-only'); END;");
	for (i = 0; i < 50; i++) {
		char *sql = xasprintf("INSERT INTO events (ts, session_id, type, "
		    "data) VALUES ('2026-01-01T00:00:%02d.000Z', 's', "
		    "'tool_error', '{\"tool\":\"Bash\",\"error\":\"E%d\"}'); "
		    "INSERT INTO error_kb (%s error_normalized, resolution, "
		    "last_used) VALUES (%s 'E%d in f%d.ts', 'r%d', "
		    "'2026-01-01T00:00:%02d.000Z');", i, i, full ? "ts," : "",
		    full ? "'t'," : "", i, i, i, i);
		exec_ok(c, sql);
		free(sql);
	}
	sqlite3_close(c);

	db = db_new(path);
	err = NULL;
	ok(db_conn(db, DB_READ, &err) != NULL && db->indexed,
	    "%s original database: opened and upgraded (%s)", full ? "full" :
	    "minimal", err ? err : "ok");
	ok(strstr(db->notes.data, "upgraded to schema " DB_STR_V) != NULL,
	    "the upgrade is said: %s", line(db));
	is_int(count(db->conn, "SELECT count(*) FROM events"), 50,
	    "every event kept");
	is_int(count(db->conn, "SELECT count(*) FROM error_kb"), 50,
	    "every KB row kept");
	is_int(count(db->conn, "SELECT count(*) FROM error_kb_fts WHERE "
	    "error_kb_fts MATCH '\"f17.ts\"'"), 1, "old rows are indexed");
	kb_rows_init(&r);
	kb_session_error(db, "s", "Bash", 1, &r, &err);
	kb_rows_release(&r);
	ok(kb_put_resolution(db, "E7 in f7.ts", NULL, "{}", "2027", NULL,
	    &err) == 0, "an old row is updated in place");
	is_int(count(db->conn, "SELECT use_count FROM error_kb WHERE "
	    "error_normalized = 'E7 in f7.ts'"), 1, "its use count counts");
	if (full)
		is_int(count(db->conn, "SELECT count(*) FROM events_fts WHERE "
		    "events_fts MATCH 'E3'"), 1, "the tool's own index still "
		    "works");
	db_close(db);

	db = db_new(path);
	db_conn(db, DB_READ, &err);
	ok(db->notes.len == 0, "a second open upgrades nothing");
	db_close(db);
	rm_rf(dir);
	free(dir);
	free(path);
}

static void
test_big_database_deferred(void)
{
	char		*dir = tmp_dir(), *path = xasprintf("%s/r.db", dir), *err;
	sqlite3		*c;
	struct rr_db	*db;
	struct kb_rows	 r;

	sqlite3_open(path, &c);
	exec_ok(c, "CREATE TABLE events (id INTEGER PRIMARY KEY, ts TEXT NOT "
	    "NULL, session_id TEXT, type TEXT NOT NULL, data TEXT NOT NULL); "
	    "CREATE TABLE error_kb (id INTEGER PRIMARY KEY, error_normalized "
	    "TEXT NOT NULL, resolution TEXT, last_used TEXT); "
	    "INSERT INTO error_kb VALUES (1, 'E in a.ts', 'r', 'x'); "
	    "INSERT INTO error_kb VALUES (500000, 'F in a.ts', 'r', 'y');");
	sqlite3_close(c);
	db = db_new(path);
	err = NULL;
	db_conn(db, DB_READ, &err);
	ok(!db->indexed && strstr(db->notes.data, "one-time upgrade"),
	    "a big database is not upgraded inside a hook: %s", line(db));
	kb_rows_init(&r);
	ok(kb_file_errors(db, "a.ts", 2, 0, &r, &err) == 0 && r.n == 2 &&
	    r.v[0].id == 500000, "its lookups still answer, by scanning");
	kb_rows_release(&r);
	db_close(db);
	db = db_new(path);
	db->migrate_limit = 0;
	db_conn(db, DB_READ, &err);
	ok(db->indexed, "a kb command upgrades it");
	db_close(db);
	rm_rf(dir);
	free(dir);
	free(path);
}

/*
 * A damaged index in a knowledge base too big to index within a hook: the
 * lookup scans (the same answer), the note says so, the rows and the
 * damage stay for a kb command, which builds the index again.
 */
static void
test_damaged_index_big(void)
{
	char		*dir = tmp_dir(), *path = xasprintf("%s/r.db", dir), *err;
	struct rr_db	*db, *holder;
	struct kb_rows	 r;

	db = db_new(path);
	err = NULL;
	db_conn(db, DB_WRITE, &err);
	exec_ok(db->conn, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT "
	    "i + 1 FROM n WHERE i < 1000) INSERT INTO error_kb "
	    "(error_normalized, resolution, last_used) SELECT "
	    "'error number ' || i || ' in file' || i || '.ts', 'r', "
	    "printf('2026-01-%02d', 1 + i % 28) FROM n");
	exec_ok(db->conn, "DELETE FROM error_kb_fts_config");
	db_close(db);

	db = db_new(path);
	db->migrate_limit = 100;
	kb_rows_init(&r);
	ok(kb_file_errors(db, "file17.ts", 2, 0, &r, &err) == 0 && r.n == 1 &&
	    strcmp(r.v[0].error, "error number 17 in file17.ts") == 0 &&
	    kb_last_plan() == KB_PLAN_SCAN,
	    "a hook with a big damaged index: found by a scan (%s)",
	    err ? err : "ok");
	kb_rows_release(&r);
	ok(strstr(db->notes.data, "lookups scan until it is built again") &&
	    strstr(db->notes.data, "kb reindex"), "and says so: %s", line(db));
	db_close(db);

	/* A writer holds the lock: no repair within the budget, a scan. */
	holder = db_new(path);
	db_conn(holder, DB_WRITE, &err);
	db_begin(holder, &err);
	db = db_new(path);
	db->budget_ms = 50;
	ok(kb_file_errors(db, "file17.ts", 2, 0, &r, &err) == 0 && r.n == 1 &&
	    kb_last_plan() == KB_PLAN_SCAN, "a damaged index, the database "
	    "locked: found by a scan (%s)", err ? err : "ok");
	kb_rows_release(&r);
	ok(strstr(db->notes.data, "lookups scan until it is built again") &&
	    strstr(db->notes.data, "locked"), "and says so: %s", line(db));
	db_close(db);
	db_rollback(holder);
	db_close(holder);

	db = db_new(path);
	db->migrate_limit = 0;
	db_conn(db, DB_WRITE, &err);
	ok(db_rebuild_index(db, &err) == 0 && db->indexed,
	    "a kb command builds it again (%s)", err ? err : "ok");
	ok(kb_file_errors(db, "file17.ts", 2, 0, &r, &err) == 0 && r.n == 1 &&
	    kb_last_plan() == KB_PLAN_INDEX && db->notes.len == 0,
	    "then the index answers, silently");
	kb_rows_release(&r);
	exec_ok(db->conn, "INSERT INTO error_kb_fts(error_kb_fts) "
	    "VALUES('integrity-check')");
	db_close(db);
	rm_rf(dir);
	free(dir);
	free(path);
}

static void
write_file(const char *path, const void *data, size_t n)
{
	FILE	*f = fopen(path, "wb");

	fwrite(data, 1, n, f);
	fclose(f);
}

static void
test_corrupt(void)
{
	char		*dir = tmp_dir(), *path = xasprintf("%s/r.db", dir), *err;
	char		 garbage[8192], *cmd;
	struct rr_db	*db;
	struct kb_rows	 r;
	struct stat	 st;
	size_t		 i;

	for (i = 0; i < sizeof(garbage); i++)
		garbage[i] = (char)(i * 7 + 3);
	write_file(path, garbage, sizeof(garbage));
	db = db_new(path);
	err = NULL;
	kb_rows_init(&r);
	ok(kb_file_errors(db, "a.ts", 2, 0, &r, &err) == 0 && r.n == 0,
	    "a garbage file: the lookup finds nothing (%s)", err ? err : "ok");
	ok(strstr(db->notes.data, "is corrupt") && strstr(db->notes.data,
	    "set aside as"), "it is reported: %s", line(db));
	db_close(db);
	cmd = xasprintf("ls '%s' | grep -c 'r.db.corrupt-' >/dev/null", dir);
	ok(system(cmd) == 0, "the file is set aside");
	free(cmd);
	ok(stat(path, &st) == 0 && st.st_size > 0 && st.st_size != 8192,
	    "a new database took its place");

	/* A real database cut in half. */
	db = db_new(path);
	db_conn(db, DB_WRITE, &err);
	exec_ok(db->conn, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT "
	    "i + 1 FROM n WHERE i < 3000) INSERT INTO error_kb "
	    "(error_normalized, resolution, last_used) SELECT "
	    "'error number ' || i || ' in file' || i || '.ts', 'r', i FROM n");
	/* Into the file itself: a connection leaves its WAL as it is. */
	exec_ok(db->conn, "PRAGMA wal_checkpoint(TRUNCATE)");
	db_close(db);
	stat(path, &st);
	ok(truncate(path, st.st_size / 2) == 0, "truncated to %lld bytes",
	    (long long)st.st_size / 2);
	db = db_new(path);
	ok(kb_file_errors(db, "file17.ts", 2, 0, &r, &err) == 0,
	    "a truncated file: no crash, no error for the lookup (%s)",
	    err ? err : "ok");
	ok(strstr(db->notes.data, "is corrupt") != NULL, "reported: %s",
	    line(db));
	db_close(db);
	kb_rows_release(&r);
	rm_rf(dir);
	free(dir);
	free(path);
}

/* A write lock held elsewhere: the budget runs out, nothing hangs. */
static void
test_locked(void)
{
	char		*dir = tmp_dir(), *path = xasprintf("%s/r.db", dir), *err;
	struct rr_db	*db, *holder;
	struct kb_rows	 r;
	int		 rc;

	holder = db_new(path);
	db_conn(holder, DB_WRITE, &err);
	db_begin(holder, &err);
	exec_ok(holder->conn, "INSERT INTO error_kb (error_normalized, "
	    "resolution) VALUES ('x in a.ts', 'r')");
	db = db_new(path);
	db->budget_ms = 50;
	db_conn(db, DB_WRITE, &err);
	rc = db_begin(db, &err);
	ok(rc < 0 && err && strstr(err, "locked"), "a second "
	    "writer gives up after its budget: %s", err);
	free(err);
	err = NULL;
	kb_rows_init(&r);
	rc = kb_file_errors(db, "a.ts", 2, 0, &r, &err);
	ok(rc < 0 && err && strstr(err, "locked"), "and the handle stays "
	    "failed, without waiting again: %s", err);
	free(err);
	kb_rows_release(&r);
	db_close(db);
	db = db_new(path);
	ok(kb_file_errors(db, "a.ts", 2, 0, &r, &err) == 0 && r.n == 0,
	    "a reader is not blocked by a writer (WAL)");
	kb_rows_release(&r);
	db_close(db);
	db_rollback(holder);
	db_close(holder);
	rm_rf(dir);
	free(dir);
	free(path);
}

int
main(void)
{
	test_like_equivalence();
	test_literal_names();
	test_session_error();
	test_writes();
	test_migration(0);
	test_migration(1);
	test_big_database_deferred();
	test_damaged_index_big();
	test_corrupt();
	test_locked();
	return done_testing();
}
