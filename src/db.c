/*
 * Opening, migrating and failing safely with the SQLite memory (db.h).
 */
#include <sqlite3.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "envflag.h"
#include "errmark.h"
#include "fileio.h"
#include "journal.h"
#include "monoclock.h"
#include "record.h"
#include "xmalloc.h"

/*
 * Schema version 3 (the memory below).  Tables are created only when missing: a database made
 * by the original tool keeps its own (wider) tables and gets the columns it
 * lacks.  The FTS5 trigram index answers error_normalized LIKE '%name%'
 * without a scan; it holds no copy of the text (external content, read
 * through a view) and the triggers keep it in step with every writer, ours
 * or not.  It indexes each text with two characters U+0001 after it, so
 * that every place of a text starts a trigram: a name of one or two
 * characters is found among the trigrams it begins (error_kb_terms, the
 * index's terms by range), at the end of a text too (kb.c).  Version 1
 * had the index without them; the upgrade makes it again.
 */
#define DB_STR_(x)		#x
#define DB_STR(x)		DB_STR_(x)

static const char schema_tables[] =
	"CREATE TABLE IF NOT EXISTS events ("
	"id INTEGER PRIMARY KEY, ts TEXT NOT NULL, session_id TEXT, "
	"type TEXT NOT NULL, data TEXT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS error_kb ("
	"id INTEGER PRIMARY KEY, error_normalized TEXT NOT NULL, "
	"resolution TEXT, last_used TEXT, ts TEXT, error_raw TEXT, "
	"use_count INTEGER NOT NULL DEFAULT 0);";

/*
 * Columns of error_kb that a database made by the original reflexion tool
 * (doc/seeds/000_*.txt) lacks.
 */
static const char *const kb_columns[][2] = {
	{ "ts", "ALTER TABLE error_kb ADD COLUMN ts TEXT" },
	{ "error_raw", "ALTER TABLE error_kb ADD COLUMN error_raw TEXT" },
	{ "use_count", "ALTER TABLE error_kb ADD COLUMN use_count INTEGER "
	    "NOT NULL DEFAULT 0" },
};

static const char schema_index[] =
	"CREATE INDEX IF NOT EXISTS rr_events_ts ON events(ts);"
	"CREATE INDEX IF NOT EXISTS rr_events_session ON events(session_id);"
	"CREATE INDEX IF NOT EXISTS rr_events_tool_error ON events(session_id, "
	"json_extract(data, '$.tool'), ts) WHERE type = 'tool_error';"
	"CREATE INDEX IF NOT EXISTS rr_events_target ON events(session_id, "
	"json_extract(data, '$.target')) WHERE type = 'tool_error';"
	"CREATE INDEX IF NOT EXISTS rr_events_resolved ON events("
	"json_extract(data, '$.error_id')) WHERE type = 'error_resolved';"
	"CREATE INDEX IF NOT EXISTS rr_error_kb_error ON error_kb("
	"error_normalized);"
	"CREATE INDEX IF NOT EXISTS rr_error_kb_last_used ON error_kb("
	"last_used);"
	"CREATE VIEW IF NOT EXISTS error_kb_fts_text(id, error_normalized) AS "
	"SELECT id, error_normalized || char(1, 1) FROM error_kb;"
	"CREATE VIRTUAL TABLE IF NOT EXISTS error_kb_fts USING fts5("
	"error_normalized, content='error_kb_fts_text', content_rowid='id', "
	"tokenize='trigram');"
	"CREATE VIRTUAL TABLE IF NOT EXISTS error_kb_terms USING "
	"fts5vocab(error_kb_fts, instance);"
	"CREATE TRIGGER IF NOT EXISTS rr_error_kb_ai AFTER INSERT ON error_kb "
	"BEGIN INSERT INTO error_kb_fts(rowid, error_normalized) "
	"VALUES (new.id, new.error_normalized || char(1, 1)); END;"
	"CREATE TRIGGER IF NOT EXISTS rr_error_kb_ad AFTER DELETE ON error_kb "
	"BEGIN INSERT INTO error_kb_fts(error_kb_fts, rowid, error_normalized) "
	"VALUES ('delete', old.id, old.error_normalized || char(1, 1)); END;"
	"CREATE TRIGGER IF NOT EXISTS rr_error_kb_au AFTER UPDATE OF "
	"error_normalized ON error_kb BEGIN "
	"INSERT INTO error_kb_fts(error_kb_fts, rowid, error_normalized) "
	"VALUES ('delete', old.id, old.error_normalized || char(1, 1)); "
	"INSERT INTO error_kb_fts(rowid, error_normalized) "
	"VALUES (new.id, new.error_normalized || char(1, 1)); END;"
	"INSERT INTO error_kb_fts(error_kb_fts) VALUES ('rebuild');";

/*
 * Version 3: the memory of seeds 001 and 004.  The conversations saved on
 * Stop (chat_logs) and the summaries written at SessionEnd
 * (session_summary) are tables of their own, as seed 004 names them; the
 * observations stay rows of events (seed 001 §5.1).  Three FTS5 indexes
 * (unicode61, prefixes of 2 and 3 characters: a Korean word is found by
 * its stem, 노션 in 노션에) serve `memory search` and the `memory`
 * condition; none holds a copy of the text (external content, events'
 * through a view of what is searched: a call's summary line and error,
 * a prompt, never a whole output, seed 001 §5.4).
 */
#define MEMORY_EVENT_TEXT(r) \
	"CASE WHEN json_valid(" r ".data) THEN coalesce(json_extract(" r \
	".data, '$.summary'), '') || ' ' || coalesce(json_extract(" r \
	".data, '$.prompt'), '') || ' ' || coalesce(json_extract(" r \
	".data, '$.error'), '') ELSE '' END"
#define MEMORY_EVENT_TYPES \
	"('tool_use', 'tool_error', 'user_prompt', 'route')"
#define MEMORY_TOKENIZE \
	"tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'"

static const char schema_memory[] =
	"CREATE TABLE IF NOT EXISTS chat_logs ("
	"id INTEGER PRIMARY KEY, ts TEXT NOT NULL, session_id TEXT NOT NULL, "
	"project TEXT, user_message TEXT NOT NULL, "
	"assistant_message TEXT NOT NULL);"
	"CREATE INDEX IF NOT EXISTS rr_chat_logs_session ON chat_logs("
	"session_id, id);"
	"CREATE INDEX IF NOT EXISTS rr_chat_logs_ts ON chat_logs(ts);"
	"CREATE TABLE IF NOT EXISTS session_summary ("
	"id INTEGER PRIMARY KEY, ts TEXT NOT NULL, session_id TEXT NOT NULL, "
	"project TEXT, summary TEXT NOT NULL, source TEXT NOT NULL, "
	"data TEXT);"
	"CREATE INDEX IF NOT EXISTS rr_session_summary_session ON "
	"session_summary(session_id);"
	"CREATE INDEX IF NOT EXISTS rr_session_summary_project ON "
	"session_summary(project, ts);"
	"CREATE INDEX IF NOT EXISTS rr_session_summary_ts ON "
	"session_summary(ts);"
	"CREATE INDEX IF NOT EXISTS rr_events_kind ON events(session_id, type, "
	"id);"
	"CREATE VIEW IF NOT EXISTS rr_events_fts_text(id, text) AS SELECT e.id, "
	MEMORY_EVENT_TEXT("e") " FROM events AS e WHERE e.type IN "
	MEMORY_EVENT_TYPES ";"
	"CREATE VIRTUAL TABLE IF NOT EXISTS rr_events_fts USING fts5(text, "
	"content = 'rr_events_fts_text', content_rowid = 'id', "
	MEMORY_TOKENIZE ");"
	"CREATE TRIGGER IF NOT EXISTS rr_events_fts_ai AFTER INSERT ON events "
	"WHEN new.type IN " MEMORY_EVENT_TYPES " BEGIN "
	"INSERT INTO rr_events_fts(rowid, text) VALUES (new.id, "
	MEMORY_EVENT_TEXT("new") "); END;"
	"CREATE TRIGGER IF NOT EXISTS rr_events_fts_ad AFTER DELETE ON events "
	"WHEN old.type IN " MEMORY_EVENT_TYPES " BEGIN "
	"INSERT INTO rr_events_fts(rr_events_fts, rowid, text) VALUES ('delete', "
	"old.id, " MEMORY_EVENT_TEXT("old") "); END;"
	"CREATE VIRTUAL TABLE IF NOT EXISTS rr_chat_logs_fts USING fts5("
	"user_message, assistant_message, content = 'chat_logs', "
	"content_rowid = 'id', " MEMORY_TOKENIZE ");"
	"CREATE TRIGGER IF NOT EXISTS rr_chat_logs_ai AFTER INSERT ON chat_logs "
	"BEGIN INSERT INTO rr_chat_logs_fts(rowid, user_message, "
	"assistant_message) VALUES (new.id, new.user_message, "
	"new.assistant_message); END;"
	"CREATE TRIGGER IF NOT EXISTS rr_chat_logs_ad AFTER DELETE ON chat_logs "
	"BEGIN INSERT INTO rr_chat_logs_fts(rr_chat_logs_fts, rowid, user_message, "
	"assistant_message) VALUES ('delete', old.id, old.user_message, "
	"old.assistant_message); END;"
	"CREATE TRIGGER IF NOT EXISTS rr_chat_logs_au AFTER UPDATE ON chat_logs "
	"BEGIN INSERT INTO rr_chat_logs_fts(rr_chat_logs_fts, rowid, user_message, "
	"assistant_message) VALUES ('delete', old.id, old.user_message, "
	"old.assistant_message); INSERT INTO rr_chat_logs_fts(rowid, "
	"user_message, assistant_message) VALUES (new.id, new.user_message, "
	"new.assistant_message); END;"
	"CREATE VIRTUAL TABLE IF NOT EXISTS rr_session_summary_fts USING fts5("
	"summary, content = 'session_summary', content_rowid = 'id', "
	MEMORY_TOKENIZE ");"
	"CREATE TRIGGER IF NOT EXISTS rr_session_summary_ai AFTER INSERT ON "
	"session_summary BEGIN INSERT INTO rr_session_summary_fts(rowid, summary) "
	"VALUES (new.id, new.summary); END;"
	"CREATE TRIGGER IF NOT EXISTS rr_session_summary_ad AFTER DELETE ON "
	"session_summary BEGIN INSERT INTO rr_session_summary_fts("
	"rr_session_summary_fts, rowid, summary) VALUES ('delete', old.id, "
	"old.summary); END;"
	"CREATE TRIGGER IF NOT EXISTS rr_session_summary_au AFTER UPDATE ON "
	"session_summary BEGIN INSERT INTO rr_session_summary_fts("
	"rr_session_summary_fts, rowid, summary) VALUES ('delete', old.id, "
	"old.summary); INSERT INTO rr_session_summary_fts(rowid, summary) VALUES "
	"(new.id, new.summary); END;"
	"INSERT INTO rr_events_fts(rr_events_fts) VALUES ('rebuild');"
	"INSERT INTO rr_chat_logs_fts(rr_chat_logs_fts) VALUES ('rebuild');"
	"INSERT INTO rr_session_summary_fts(rr_session_summary_fts) VALUES "
	"('rebuild');"
	"PRAGMA user_version = " DB_STR(DB_SCHEMA_VERSION) ";";

/* Version 1's index (without the U+0001 ends), taken out by the upgrade. */
static const char schema_v1_out[] =
	"DROP TRIGGER IF EXISTS rr_error_kb_ai;"
	"DROP TRIGGER IF EXISTS rr_error_kb_ad;"
	"DROP TRIGGER IF EXISTS rr_error_kb_au;"
	"DROP TABLE IF EXISTS error_kb_fts;";

/* user_version while db_rebuild_index() has the index out. */
#define DB_VERSION_REINDEX	-1

static void
sleep_ms(long ms)
{
	struct timespec	ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void
format_time(time_t t, long msec, char out[32])
{
	struct tm	tm;
	char		tmp[96];
	size_t		n;

	gmtime_r(&t, &tm);
	snprintf(tmp, sizeof(tmp), "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ",
	    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
	    tm.tm_min, tm.tm_sec, msec);
	n = strlen(tmp);
	if (n > 31)
		n = 31;
	memcpy(out, tmp, n);
	out[n] = '\0';
}

void
db_now(char out[32])
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	format_time(ts.tv_sec, ts.tv_nsec / 1000000, out);
}

void
db_days_ago(int days, char out[32])
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	format_time(ts.tv_sec - (time_t)days * 86400, ts.tv_nsec / 1000000,
	    out);
}

struct rr_db *
db_new(const char *path)
{
	struct rr_db	*db = xcalloc(1, sizeof(*db));
	const char	*v = getenv("REFLEXION_DB_BUDGET_MS");
	char		*end;
	long		 ms;

	db->path = xstrdup(path);
	db->budget_ms = DB_BUDGET_MS_DEFAULT;
	if (v != NULL && *v != '\0') {
		ms = strtol(v, &end, 10);
		if (*end == '\0' && ms >= 0 && ms <= 600000)
			db->budget_ms = ms;
	}
	db->migrate_limit = DB_MIGRATE_INLINE_ROWS;
	buf_init(&db->notes);
	return db;
}

char *
db_default_path(const char *home)
{
	return xstrjoin(home, "/data/reflexion.db", NULL);
}

void
db_close(struct rr_db *db)
{
	if (db == NULL)
		return;
	db_cache(db, false);
	if (db->conn != NULL)
		sqlite3_close_v2(db->conn);
	free(db->path);
	free(db->fail_msg);
	buf_release(&db->notes);
	free(db);
}

/*
 * SQLite calls this while a lock is held elsewhere.  Waiting stops at the
 * handle's deadline, whatever statement is waiting: the budget is per
 * hook, not per statement.
 */
static int
busy_wait(void *arg, int count)
{
	struct rr_db	*db = arg;
	long long	 left = db->deadline_ms - monoclock_ms();
	long		 step = count < 4 ? 1 + count * 2 : 20;

	if (left <= 0)
		return 0;
	sleep_ms(step < left ? step : (long)left);
	return 1;
}

/*
 * SQLite calls this every few hundred steps of a statement: a query that
 * would outlast the handle's deadline (a scan of a huge table for a short
 * file name) is interrupted, and the hook goes on without its answer.
 */
static int
over_budget(void *arg)
{
	struct rr_db	*db = arg;

	return db->deadline_ms - monoclock_ms() <= 0;
}

static bool
is_memory(const struct rr_db *db)
{
	return strcmp(db->path, ":memory:") == 0;
}

static bool
is_corrupt(int rc)
{
	return (rc & 0xff) == SQLITE_NOTADB ||
	    ((rc & 0xff) == SQLITE_CORRUPT && rc != SQLITE_CORRUPT_VTAB);
}

static bool
is_busy(int rc)
{
	return (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
}

/* Takes the set-aside lock within the budget; the fd, or -1. */
static int
lock_file(struct rr_db *db)
{
	char	*lock = xasprintf("%s.lock", db->path);
	int	 fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);

	free(lock);
	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if ((errno != EWOULDBLOCK && errno != EINTR) ||
		    monoclock_ms() >= db->deadline_ms) {
			close(fd);
			return -1;
		}
		sleep_ms(5);
	}
	return fd;
}

static void
rename_aside(const char *from, const char *to)
{
	if (rename(from, to) < 0 && errno != ENOENT)
		unlink(from);
}

/*
 * Moves a corrupt database (and its -wal/-shm, which must never be
 * replayed onto a new file) to NAME.corrupt-TIMESTAMP.  Only if the file
 * at the path is still the one we opened: another hook may have set it
 * aside already and started a new one.  Returns the new name (owned), or
 * NULL when it was not ours to move.
 */
static char *
set_aside(struct rr_db *db)
{
	struct stat	 st;
	char		 stamp[32], *aside = NULL, *from, *to;
	time_t		 t = time(NULL);
	struct tm	 tm;
	int		 fd;

	if (db->conn != NULL) {
		db_cache(db, false);
		sqlite3_close_v2(db->conn);
		db->conn = NULL;
	}
	if (is_memory(db) || db->set_aside_done)
		return NULL;
	db->set_aside_done = true;
	if ((fd = lock_file(db)) < 0)
		return NULL;
	if (stat(db->path, &st) == 0 && st.st_dev == db->dev &&
	    st.st_ino == db->ino) {
		gmtime_r(&t, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
		aside = xasprintf("%s.corrupt-%s-%ld", db->path, stamp,
		    (long)getpid());
		from = xasprintf("%s-wal", db->path);
		to = xasprintf("%s-wal", aside);
		rename_aside(from, to);
		free(from);
		free(to);
		from = xasprintf("%s-shm", db->path);
		to = xasprintf("%s-shm", aside);
		rename_aside(from, to);
		free(from);
		free(to);
		if (rename(db->path, aside) < 0) {
			free(aside);
			aside = NULL;
		}
	}
	close(fd);	/* releases the lock */
	return aside;
}

static void
mark_failed(struct rr_db *db, const char *msg)
{
	db->failed = true;
	free(db->fail_msg);
	db->fail_msg = xstrdup(msg);
}

char *
db_fail(struct rr_db *db, int rc, const char *doing)
{
	char	*why, *msg, *aside, *ret;

	db->last_rc = rc;
	/* A copy: setting the file aside closes the connection that owns it. */
	if (db->conn != NULL && sqlite3_extended_errcode(db->conn) == rc)
		why = xstrdup(sqlite3_errmsg(db->conn));
	else
		why = xstrdup(sqlite3_errstr(rc));
	if (is_corrupt(rc)) {
		msg = xasprintf("database '%s' is corrupt (%s)", db->path,
		    why);
		aside = set_aside(db);
		if (aside != NULL) {
			buf_printf(&db->notes, "reflexion-rules: %s; set aside "
			    "as '%s', a new one is started\n", msg, aside);
			free(aside);
		}
		mark_failed(db, msg);
		free(msg);
		ret = xasprintf("cannot %s: database '%s' is corrupt (%s)",
		    doing, db->path, why);
	} else if (is_busy(rc)) {
		msg = xasprintf("database '%s' is locked by another process "
		    "(waited %ld ms)", db->path, db->budget_ms);
		mark_failed(db, msg);
		free(msg);
		ret = xasprintf("cannot %s: database '%s' is locked by "
		    "another process (waited %ld ms)", doing, db->path,
		    db->budget_ms);
	} else if ((rc & 0xff) == SQLITE_INTERRUPT) {
		msg = xasprintf("database '%s' took longer than the budget of "
		    "%ld ms", db->path, db->budget_ms);
		mark_failed(db, msg);
		ret = xasprintf("cannot %s: %s", doing, msg);
		free(msg);
	} else if ((rc & 0xff) == SQLITE_READONLY)
		ret = xasprintf("cannot %s: database '%s' is read-only",
		    doing, db->path);
	else
		ret = xasprintf("cannot %s: %s", doing, why);
	free(why);
	return ret;
}

/* ---- statements kept for reuse (db_cache()) ------------------------------ */

/* A kept statement for sql, free and of this connection, reset; or NULL. */
static sqlite3_stmt *
cached(struct rr_db *db, const char *sql)
{
	struct db_stmt	*e;
	size_t		 i;

	for (i = 0; i < db->ncache; i++) {
		e = &db->cache[i];
		if (e->busy || sqlite3_db_handle(e->st) != db->conn ||
		    strcmp(e->sql, sql) != 0)
			continue;
		sqlite3_reset(e->st);
		sqlite3_clear_bindings(e->st);
		e->busy = true;
		return e->st;
	}
	return NULL;
}

static void
keep(struct rr_db *db, const char *sql, sqlite3_stmt *st)
{
	struct db_stmt	*e;

	if (!db->caching || db->ncache == DB_STMT_CACHE)
		return;
	e = &db->cache[db->ncache++];
	e->sql = xstrdup(sql);
	e->st = st;
	e->busy = true;
}

void
db_cache(struct rr_db *db, bool on)
{
	size_t	i;

	if (!on) {
		for (i = 0; i < db->ncache; i++) {
			sqlite3_finalize(db->cache[i].st);
			free(db->cache[i].sql);
		}
		db->ncache = 0;
	}
	db->caching = on;
}

void
db_finish(struct rr_db *db, sqlite3_stmt *st)
{
	size_t	i;

	for (i = 0; i < db->ncache; i++)
		if (db->cache[i].st == st) {
			sqlite3_reset(st);
			db->cache[i].busy = false;
			return;
		}
	sqlite3_finalize(st);
}

struct sqlite3_stmt *
db_prepare(struct rr_db *db, const char *doing, char **err, const char *sql,
    const char *fmt, ...)
{
	sqlite3_stmt	*st;
	const char	*t;
	va_list		 ap;
	int		 rc = SQLITE_OK, i;

	if ((st = cached(db, sql)) == NULL) {
		rc = sqlite3_prepare_v3(db->conn, sql, -1, db->caching ?
		    SQLITE_PREPARE_PERSISTENT : 0, &st, NULL);
		if (rc != SQLITE_OK) {
			*err = db_fail(db, rc, doing);
			return NULL;
		}
		keep(db, sql, st);
	}
	va_start(ap, fmt);
	for (i = 0; rc == SQLITE_OK && fmt[i] != '\0'; i++) {
		switch (fmt[i]) {
		case 't':
			t = va_arg(ap, const char *);
			rc = t ? sqlite3_bind_text(st, i + 1, t, -1,
			    SQLITE_TRANSIENT) : sqlite3_bind_null(st, i + 1);
			break;
		case 'i':
			rc = sqlite3_bind_int64(st, i + 1,
			    va_arg(ap, long long));
			break;
		case 'v':
			rc = sqlite3_bind_value(st, i + 1,
			    va_arg(ap, sqlite3_value *));
			break;
		default:
			rc = SQLITE_MISUSE;
			break;
		}
	}
	va_end(ap);
	if (rc != SQLITE_OK) {
		db_finish(db, st);
		*err = db_fail(db, rc, doing);
		return NULL;
	}
	return st;
}

int
db_text(struct rr_db *db, sqlite3_stmt *st, const char *doing, char **out,
    char **err)
{
	int	rc;

	*out = NULL;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_TEXT)
		*out = xstrdup((const char *)sqlite3_column_text(st, 0));
	db_finish(db, st);
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		return 0;
	*err = db_fail(db, rc, doing);
	return -1;
}

int
db_run(struct rr_db *db, struct sqlite3_stmt *st, const char *doing,
    char **err)
{
	int	rc = sqlite3_step(st);

	db_finish(db, st);
	if (rc == SQLITE_DONE)
		return 0;
	*err = db_fail(db, rc, doing);
	return -1;
}

int
db_exec(struct rr_db *db, const char *sql, char **err)
{
	int	rc = sqlite3_exec(db->conn, sql, NULL, NULL, NULL);

	if (rc == SQLITE_OK)
		return 0;
	*err = db_fail(db, rc, "update the database");
	return -1;
}

/* After each commit in WAL mode (replaces the automatic checkpoint). */
static int
wal_count(void *arg, sqlite3 *c, const char *name, int frames)
{
	struct rr_db	*db = arg;

	(void)c;
	(void)name;
	db->wal_frames = frames;
	return SQLITE_OK;
}

/*
 * Copies a full WAL back into the database and truncates it, so that the
 * next connections have nothing to read back from it.  (SQLite's own
 * automatic checkpoint is PASSIVE: it would copy the frames, but what it
 * copied is known only to the shared memory of the connections open,
 * which the next process, alone, starts afresh; the WAL would grow for
 * ever and every commit copy it all again.)  Busy or failed, it is
 * tried again after a later commit.
 */
static void
checkpoint_full(struct rr_db *db)
{
	if (db->wal_frames < DB_WAL_PAGES)
		return;
	if (sqlite3_wal_checkpoint_v2(db->conn, "main",
	    SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL) == SQLITE_OK)
		db->wal_frames = 0;
}

void
db_renew_budget(struct rr_db *db)
{
	if (db->deadline_ms != 0)
		db->deadline_ms = monoclock_ms() + db->budget_ms;
}

int
db_begin(struct rr_db *db, char **err)
{
	int	rc = sqlite3_exec(db->conn, "BEGIN IMMEDIATE", NULL, NULL, NULL);

	if (rc == SQLITE_OK)
		return 0;
	*err = db_fail(db, rc, "start a transaction");
	return -1;
}

int
db_commit(struct rr_db *db, char **err)
{
	int	rc = sqlite3_exec(db->conn, "COMMIT", NULL, NULL, NULL);

	if (rc == SQLITE_OK) {
		checkpoint_full(db);
		return 0;
	}
	*err = db_fail(db, rc, "commit");
	db_rollback(db);
	return -1;
}

void
db_rollback(struct rr_db *db)
{
	if (db->conn != NULL && !sqlite3_get_autocommit(db->conn))
		sqlite3_exec(db->conn, "ROLLBACK", NULL, NULL, NULL);
}

/* One integer from sql; rc of the step (SQLITE_ROW on success). */
static int
query_int(sqlite3 *c, const char *sql, long long *out)
{
	sqlite3_stmt	*st;
	int		 rc;

	*out = 0;
	rc = sqlite3_prepare_v2(c, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	else if (rc == SQLITE_DONE)
		rc = SQLITE_ROW;	/* no row: 0 */
	if (sqlite3_finalize(st) != SQLITE_OK && rc == SQLITE_ROW)
		rc = sqlite3_errcode(c);
	return rc;
}

static int
has_column(sqlite3 *c, const char *table, const char *col, bool *yes)
{
	sqlite3_stmt	*st;
	int		 rc;

	*yes = false;
	rc = sqlite3_prepare_v2(c, "SELECT 1 FROM pragma_table_info(?1) "
	    "WHERE name = ?2", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	if ((rc = sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC)) !=
	    SQLITE_OK || (rc = sqlite3_bind_text(st, 2, col, -1,
	    SQLITE_STATIC)) != SQLITE_OK) {
		sqlite3_finalize(st);
		return rc;
	}
	rc = sqlite3_step(st);
	*yes = rc == SQLITE_ROW;
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		rc = SQLITE_OK;
	sqlite3_finalize(st);
	return rc;
}

/*
 * About how many rows a table holds: max(rowid) reads one page, where
 * count(*) would read them all.  0 when the table does not exist.
 */
static int
table_rows(sqlite3 *c, const char *table, long long *n)
{
	char	*sql;
	int	 rc;

	*n = 0;
	sql = xasprintf("SELECT max(rowid) FROM \"%s\"", table);
	rc = query_int(c, sql, n);
	free(sql);
	if (rc == SQLITE_ROW)
		return SQLITE_OK;
	/* No such table: nothing to count. */
	return (rc & 0xff) == SQLITE_ERROR ? SQLITE_OK : rc;
}

/*
 * Brings the schema to DB_SCHEMA_VERSION in one IMMEDIATE transaction
 * (re-reading user_version inside it: a parallel hook may have done it).
 * Returns SQLITE_OK, SQLITE_DONE when the upgrade is deferred (too many
 * rows for a hook), or the failing rc.
 */
static int
migrate(struct rr_db *db)
{
	sqlite3		*c = db->conn;
	long long	 ver, ntables, nev, nkb;
	size_t		 i;
	bool		 yes;
	int		 rc;

	if ((rc = sqlite3_exec(c, "BEGIN IMMEDIATE", NULL, NULL, NULL)) != 0)
		return rc;
	if ((rc = query_int(c, "PRAGMA user_version", &ver)) != SQLITE_ROW)
		goto fail;
	if (ver >= DB_SCHEMA_VERSION) {
		rc = sqlite3_exec(c, "COMMIT", NULL, NULL, NULL);
		return rc;
	}
	if ((rc = query_int(c, "SELECT count(*) FROM sqlite_master WHERE "
	    "type = 'table' AND name IN ('events', 'error_kb')", &ntables)) !=
	    SQLITE_ROW)
		goto fail;
	nev = nkb = 0;
	if (ntables > 0 && (rc = table_rows(c, "events", &nev)) != SQLITE_OK)
		goto fail;
	if (ntables > 0 && (rc = table_rows(c, "error_kb", &nkb)) != SQLITE_OK)
		goto fail;
	if (db->migrate_limit > 0 && (size_t)(nev + nkb) > db->migrate_limit) {
		sqlite3_exec(c, "ROLLBACK", NULL, NULL, NULL);
		buf_printf(&db->notes, "reflexion-rules: database '%s' needs a "
		    "one-time upgrade (about %lld rows), too long for a hook; "
		    "lookups scan until then: run 'reflexion-rules kb list' "
		    "once\n", db->path, nev + nkb);
		return SQLITE_DONE;
	}
	if ((rc = sqlite3_exec(c, schema_tables, NULL, NULL, NULL)) != 0)
		goto fail;
	for (i = 0; i < sizeof(kb_columns) / sizeof(kb_columns[0]); i++) {
		if ((rc = has_column(c, "error_kb", kb_columns[i][0], &yes)) !=
		    SQLITE_OK)
			goto fail;
		if (!yes && (rc = sqlite3_exec(c, kb_columns[i][1], NULL, NULL,
		    NULL)) != SQLITE_OK)
			goto fail;
	}
	if (ver == 1 && (rc = sqlite3_exec(c, schema_v1_out, NULL, NULL,
	    NULL)) != SQLITE_OK)
		goto fail;
	if ((rc = sqlite3_exec(c, schema_index, NULL, NULL, NULL)) != SQLITE_OK)
		goto fail;
	if ((rc = sqlite3_exec(c, schema_memory, NULL, NULL, NULL)) !=
	    SQLITE_OK)
		goto fail;
	if (ntables > 0 && ver != DB_VERSION_REINDEX)
		buf_printf(&db->notes, "reflexion-rules: database '%s' upgraded "
		    "to schema %d; its rows are kept\n", db->path,
		    DB_SCHEMA_VERSION);
	return sqlite3_exec(c, "COMMIT", NULL, NULL, NULL);
fail:
	sqlite3_exec(c, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/* Opens the file once; SQLITE_OK or the failing rc.  *absent: no file. */
static int
open_conn(struct rr_db *db, enum db_mode mode, bool *absent, char **err)
{
	struct stat	 st;
	long long	 ver;
	int		 flags, rc;
	char		 jm[16];
	sqlite3_stmt	*s;

	*absent = false;
	if (!is_memory(db)) {
		if (stat(db->path, &st) < 0) {
			if (errno != ENOENT) {
				*err = xasprintf("cannot open database '%s': %s",
				    db->path, strerror(errno));
				return SQLITE_CANTOPEN;
			}
			if (mode == DB_READ) {
				*absent = true;
				return SQLITE_OK;
			}
			if (mkdir_parent(db->path, err) < 0)
				return SQLITE_CANTOPEN;
		} else if (!S_ISREG(st.st_mode)) {
			*err = xasprintf("cannot open database '%s': not a "
			    "regular file", db->path);
			return SQLITE_CANTOPEN;
		}
	}
	flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	if (env_on("REFLEXION_DB_READONLY"))
		flags = SQLITE_OPEN_READONLY;
	rc = sqlite3_open_v2(db->path, &db->conn, flags | SQLITE_OPEN_NOFOLLOW,
	    NULL);
	if (rc != SQLITE_OK) {
		*err = xasprintf("cannot open database '%s': %s", db->path,
		    db->conn ? sqlite3_errmsg(db->conn) : sqlite3_errstr(rc));
		db_cache(db, false);
		sqlite3_close_v2(db->conn);
		db->conn = NULL;
		return rc;
	}
	sqlite3_extended_result_codes(db->conn, 1);
	sqlite3_busy_handler(db->conn, busy_wait, db);
	if (!is_memory(db) && stat(db->path, &st) == 0) {
		db->dev = st.st_dev;
		db->ino = st.st_ino;
	}
	db->readonly = sqlite3_db_readonly(db->conn, "main") == 1;
	/* The first read of the file: a garbage file fails here. */
	if ((rc = query_int(db->conn, "PRAGMA user_version", &ver)) !=
	    SQLITE_ROW)
		return rc;
	if (!db->readonly && !is_memory(db)) {
		rc = sqlite3_prepare_v2(db->conn, "PRAGMA journal_mode", -1,
		    &s, NULL);
		if (rc != SQLITE_OK)
			return rc;
		jm[0] = '\0';
		if ((rc = sqlite3_step(s)) == SQLITE_ROW)
			snprintf(jm, sizeof(jm), "%s",
			    (const char *)sqlite3_column_text(s, 0));
		sqlite3_finalize(s);
		if (rc != SQLITE_ROW)
			return rc;
		/* A busy switch is not fatal: the old mode still works. */
		if (strcmp(jm, "wal") != 0)
			sqlite3_exec(db->conn, "PRAGMA journal_mode = WAL",
			    NULL, NULL, NULL);
		/* Safe in WAL mode; on failure FULL stays, only slower. */
		sqlite3_exec(db->conn, "PRAGMA synchronous = NORMAL", NULL,
		    NULL, NULL);
	}
	/*
	 * A hook is one short connection: checkpointing when it closed cost
	 * every recorded call two fsyncs, and two more to make the WAL file
	 * and its directory entry again.  The WAL stays instead, and
	 * db_commit() copies it back and empties it when it holds
	 * DB_WAL_PAGES frames (checkpoint_full()).
	 */
	sqlite3_db_config(db->conn, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1,
	    (int *)NULL);
	db->wal_frames = 0;
	sqlite3_wal_hook(db->conn, wal_count, db);
	if (ver < DB_SCHEMA_VERSION && !db->readonly) {
		rc = migrate(db);
		if (is_busy(rc))
			buf_printf(&db->notes, "reflexion-rules: database '%s' "
			    "is locked; its upgrade waits for a later call\n",
			    db->path);
		else if (rc != SQLITE_OK && rc != SQLITE_DONE)
			return rc;
		if ((rc = query_int(db->conn, "PRAGMA user_version", &ver)) !=
		    SQLITE_ROW)
			return rc;
	}
	db->indexed = ver >= DB_SCHEMA_VERSION;
	if ((rc = query_int(db->conn, "PRAGMA schema_version",
	    &db->schema_cookie)) != SQLITE_ROW)
		return rc;
	/* After the upgrade, which its row limit bounds. */
	if (db->bound_queries)
		sqlite3_progress_handler(db->conn, DB_PROGRESS_STEPS,
		    over_budget, db);
	/* The upgrade adds the column: asked only of an older schema. */
	if (db->indexed) {
		db->has_use_count = true;
		return SQLITE_OK;
	}
	return has_column(db->conn, "error_kb", "use_count",
	    &db->has_use_count);
}

/*
 * The journal folded in, after an open: a failure leaves it for the next
 * open and never fails this one.  A hook (bound_queries) folds at most
 * DB_FOLD_SLICE records and spends DB_FOLD_WAIT_MS at most on it, lock
 * included, out of its budget.  A lock held elsewhere is not an error:
 * the fold waits for a later open, the handle stays usable (readers do
 * not need the write lock), and only a command says so.  The fold may
 * create a table: the schema cookie is read again.
 */
static void
fold_journal(struct rr_db *db)
{
	long long	 saved = db->deadline_ms, cap;
	char		*err = NULL;
	bool		 more;
	int		 rc;

	if (db->folding || db->readonly || is_memory(db) || db->conn == NULL)
		return;
	cap = monoclock_ms() + DB_FOLD_WAIT_MS;
	if (db->bound_queries && cap < saved)
		db->deadline_ms = cap;
	/* A hook or the status line folds a slice; a command all of it. */
	do
		rc = record_fold(db, db->bound_queries ? DB_FOLD_SLICE : 0,
		    &more, &err);
	while (rc == 0 && more && !db->bound_queries);
	db->deadline_ms = saved;
	if (rc < 0 && db->conn != NULL && is_busy(db->last_rc)) {
		db->failed = false;
		free(db->fail_msg);
		db->fail_msg = NULL;
		if (db->bound_queries) {
			free(err);
			err = NULL;
		}
	}
	if (err != NULL) {
		buf_printf(&db->notes, "reflexion-rules: %s; the journal's calls "
		    "wait for a later open\n", err);
		free(err);
	}
	if (db->conn != NULL)
		query_int(db->conn, "PRAGMA schema_version",
		    &db->schema_cookie);
}

/*
 * The error markers' stamp (errmark.h) made once for this file, after the
 * fold: until then kb_session_error() opens the database.  A failure only
 * leaves it for a later open.  Not before the upgrade: without the
 * schema's partial index of tool_error rows its SELECT scans every event,
 * which a big database's hooks would start (and give up) on every open.
 */
static void
mark_errors(struct rr_db *db)
{
	char	*err = NULL;

	if (db->conn == NULL || db->failed || db->readonly || !db->indexed)
		return;
	if (errmark_init(db, &err) < 0) {
		buf_printf(&db->notes, "reflexion-rules: %s; the error markers "
		    "wait for a later open\n", err);
		free(err);
	}
}

/* Whether db's journal holds calls not folded yet, that an open folds. */
static bool
fold_waits(const struct rr_db *db)
{
	return !is_memory(db) && !env_on("REFLEXION_DB_READONLY") &&
	    journal_waits(db->path);
}

struct sqlite3 *
db_conn(struct rr_db *db, enum db_mode mode, char **err)
{
	bool	absent;
	int	rc, attempt;

	*err = NULL;
	if (db->failed) {
		*err = xstrdup(db->fail_msg);
		return NULL;
	}
	if (db->conn != NULL)
		return db->conn;
	if (db->deadline_ms == 0)
		db->deadline_ms = monoclock_ms() + db->budget_ms;
	if (mode == DB_READ && !db->folding && fold_waits(db))
		mode = DB_WRITE;
	for (attempt = 0; attempt < 2; attempt++) {
		rc = open_conn(db, mode, &absent, err);
		if (rc == SQLITE_OK && !absent) {
			fold_journal(db);
			mark_errors(db);
		}
		if (rc == SQLITE_OK)
			return absent ? NULL : db->conn;
		if (*err == NULL)
			*err = db_fail(db, rc, "open the database");
		/* A corrupt file was set aside: start a new one, once. */
		if (!is_corrupt(rc) || db->conn != NULL || attempt > 0 ||
		    !db->set_aside_done)
			break;
		free(*err);
		*err = NULL;
		db->failed = false;
		if (mode == DB_READ)
			mode = DB_WRITE;	/* the lookup sees an empty one */
	}
	if (db->conn != NULL) {
		db_cache(db, false);
		sqlite3_close_v2(db->conn);
		db->conn = NULL;
	}
	mark_failed(db, *err);
	return NULL;
}

bool
db_index_broken(const struct rr_db *db)
{
	return db->last_rc == SQLITE_CORRUPT_VTAB ||
	    (db->last_rc & 0xff) == SQLITE_ERROR;
}

/*
 * Takes the FTS index out in one transaction: its triggers, its schema
 * row (a virtual table whose constructor fails cannot be dropped with
 * DROP TABLE, so the row is deleted under writable_schema) and its shadow
 * tables, which are plain tables.  user_version goes to -1 (below every
 * schema), so the next open runs the ordinary upgrade, which builds the
 * index again from error_kb; until then every reader sees an unindexed
 * schema and scans.
 */
static const char index_drop[] =
	"DROP TABLE IF EXISTS error_kb_terms;"
	"DROP TRIGGER IF EXISTS rr_error_kb_ai;"
	"DROP TRIGGER IF EXISTS rr_error_kb_ad;"
	"DROP TRIGGER IF EXISTS rr_error_kb_au;"
	"PRAGMA writable_schema = ON;"
	"DELETE FROM sqlite_master WHERE type = 'table' AND "
	"name = 'error_kb_fts';"
	"PRAGMA writable_schema = OFF;"
	"DROP TABLE IF EXISTS error_kb_fts_data;"
	"DROP TABLE IF EXISTS error_kb_fts_idx;"
	"DROP TABLE IF EXISTS error_kb_fts_docsize;"
	"DROP TABLE IF EXISTS error_kb_fts_content;"
	"DROP TABLE IF EXISTS error_kb_fts_config;"
	"DROP TRIGGER IF EXISTS rr_events_fts_ai;"
	"DROP TRIGGER IF EXISTS rr_events_fts_ad;"
	"DROP TRIGGER IF EXISTS rr_chat_logs_ai;"
	"DROP TRIGGER IF EXISTS rr_chat_logs_ad;"
	"DROP TRIGGER IF EXISTS rr_chat_logs_au;"
	"DROP TRIGGER IF EXISTS rr_session_summary_ai;"
	"DROP TRIGGER IF EXISTS rr_session_summary_ad;"
	"DROP TRIGGER IF EXISTS rr_session_summary_au;"
	"PRAGMA writable_schema = ON;"
	"DELETE FROM sqlite_master WHERE type = 'table' AND name IN ("
	"'rr_events_fts', 'rr_chat_logs_fts', 'rr_session_summary_fts');"
	"PRAGMA writable_schema = OFF;"
	"DROP TABLE IF EXISTS rr_events_fts_data;"
	"DROP TABLE IF EXISTS rr_events_fts_idx;"
	"DROP TABLE IF EXISTS rr_events_fts_docsize;"
	"DROP TABLE IF EXISTS rr_events_fts_config;"
	"DROP TABLE IF EXISTS rr_chat_logs_fts_data;"
	"DROP TABLE IF EXISTS rr_chat_logs_fts_idx;"
	"DROP TABLE IF EXISTS rr_chat_logs_fts_docsize;"
	"DROP TABLE IF EXISTS rr_chat_logs_fts_config;"
	"DROP TABLE IF EXISTS rr_session_summary_fts_data;"
	"DROP TABLE IF EXISTS rr_session_summary_fts_idx;"
	"DROP TABLE IF EXISTS rr_session_summary_fts_docsize;"
	"DROP TABLE IF EXISTS rr_session_summary_fts_config;"
	"PRAGMA user_version = " DB_STR(DB_VERSION_REINDEX) ";";

int
db_rebuild_index(struct rr_db *db, char **err)
{
	sqlite3		*c = db->conn;
	long long	 nkb, cookie;
	size_t		 limit = db->migrate_limit, mark;
	int		 rc;

	*err = NULL;
	if (c == NULL || db->failed) {
		*err = xstrdup(db->failed ? db->fail_msg : "the database is "
		    "not open");
		return -1;
	}
	if (db->readonly) {
		*err = xasprintf("database '%s' is read-only", db->path);
		return -1;
	}
	if ((rc = table_rows(c, "error_kb", &nkb)) != SQLITE_OK) {
		*err = db_fail(db, rc, "count the knowledge base");
		return -1;
	}
	if (limit > 0 && (size_t)nkb > limit) {
		*err = xasprintf("about %lld rows are too many to index within "
		    "a hook; run 'reflexion-rules kb reindex'", nkb);
		return -1;
	}
	sqlite3_db_config(c, SQLITE_DBCONFIG_DEFENSIVE, 0, (int *)NULL);
	if ((rc = sqlite3_exec(c, "BEGIN IMMEDIATE", NULL, NULL, NULL)) !=
	    SQLITE_OK || (rc = query_int(c, "PRAGMA schema_version",
	    &cookie)) != SQLITE_ROW) {
		*err = db_fail(db, rc, "drop the search index");
		db_rollback(db);
		return -1;
	}
	/*
	 * The schema changed since we opened: a parallel hook that met the
	 * same damage has rebuilt the index while we waited for the lock.
	 */
	if (cookie != db->schema_cookie)
		db_rollback(db);
	else if ((rc = sqlite3_exec(c, index_drop, NULL, NULL, NULL)) !=
	    SQLITE_OK || (rc = sqlite3_exec(c, "COMMIT", NULL, NULL, NULL)) !=
	    SQLITE_OK) {
		*err = db_fail(db, rc, "drop the search index");
		db_rollback(db);
		return -1;
	}
	/*
	 * A new connection reads the schema afresh; its upgrade is bounded
	 * by the row count checked above, not by the events table's.
	 */
	mark = db->notes.len;
	db_cache(db, false);
	sqlite3_close_v2(db->conn);
	db->conn = NULL;
	db->migrate_limit = 0;
	c = db_conn(db, DB_WRITE, err);
	db->migrate_limit = limit;
	buf_truncate(&db->notes, mark);		/* not an "upgrade" */
	if (c == NULL)
		return -1;
	if (!db->indexed) {
		*err = xasprintf("database '%s': the search index was not "
		    "built again", db->path);
		return -1;
	}
	db->last_rc = SQLITE_OK;
	return 0;
}

bool
db_repair_index(struct rr_db *db, const char *why)
{
	char	*err;

	if (db_rebuild_index(db, &err) == 0) {
		buf_printf(&db->notes, "reflexion-rules: the search index of "
		    "'%s' was damaged (%s); built again from its rows\n",
		    db->path, why);
		return true;
	}
	buf_printf(&db->notes, "reflexion-rules: the search index of '%s' is "
	    "damaged (%s); lookups scan until it is built again: %s\n",
	    db->path, why, err);
	free(err);
	return false;
}

bool
db_repaired_for_retry(struct rr_db *db, char **err)
{
	if (*err == NULL || db->failed || !db_index_broken(db) ||
	    !db_repair_index(db, *err))
		return false;
	free(*err);
	*err = NULL;
	return true;
}
