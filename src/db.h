/*
 * The SQLite memory (reflexion-rules(1), MEMORY): $REFLEXION_HOME/data/reflexion.db.
 *
 * A struct rr_db names the file and opens it on first use, so a hook whose
 * rules never look anything up and record nothing never touches SQLite.
 * Every wait for a lock draws on one budget per struct rr_db (default
 * DB_BUDGET_MS_DEFAULT, REFLEXION_DB_BUDGET_MS overrides it): when the
 * budget is spent the caller gets an error and goes on without the
 * database, so a locked file never holds the agent up.  With
 * bound_queries (the hook sets it) the same deadline bounds the running
 * time of queries: a scan that would outlast it is interrupted.
 *
 * The schema is versioned by PRAGMA user_version.  Migration also upgrades
 * a database made by the original reflexion tool (its events and error_kb
 * tables, minimal or full): it only adds columns, indexes, an FTS5 trigram
 * index kept in step by triggers, and never rewrites or drops a row.  A
 * database too big to upgrade within a hook's budget is used as it is
 * (lookups scan) until a `kb` command upgrades it.
 *
 * A file SQLite reports as corrupt (not a database, malformed) is renamed
 * aside, with its -wal and -shm, to NAME.corrupt-TIMESTAMP and a new one
 * is started; the rename happens once per file under a lock, so parallel
 * hooks never set aside each other's fresh database.  A damaged FTS index
 * (derived data) is not a reason to set the rows aside: it is dropped and
 * built again (db_rebuild_index()), and lookups scan meanwhile.
 *
 * Ownership: db_new() returns an owned handle, db_close() frees it.  The
 * sqlite3 connection from db_conn() is borrowed.  Strings returned through
 * char **err are owned by the caller.  Notes (upgrades, set-asides) collect
 * in db->notes, one line each, for the caller's stderr.
 */
#ifndef RR_DB_H
#define RR_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "buf.h"

struct sqlite3;
struct sqlite3_stmt;

#define DB_SCHEMA_VERSION	3
#define DB_BUDGET_MS_DEFAULT	1000
/* Past this many rows a hook does not run the one-time upgrade. */
#define DB_MIGRATE_INLINE_ROWS	20000
/* Statement steps between checks of the deadline (over_budget()). */
#define DB_PROGRESS_STEPS	1000
/*
 * The most a hook spends folding the journal (the lock's wait included),
 * and the most records it folds: some 0.7 M instructions each.
 */
#define DB_FOLD_WAIT_MS		250
#define DB_FOLD_SLICE		200
/* WAL frames past which a commit copies them back (db.c). */
#define DB_WAL_PAGES		64

/* Statements db_cache() keeps, at most. */
#define DB_STMT_CACHE		24

struct db_stmt {
	char			*sql;
	struct sqlite3_stmt	*st;
	bool			 busy;	/* handed out, not finished yet */
};

enum db_mode {
	DB_READ,	/* lookups: a missing file is an empty memory */
	DB_WRITE	/* recording and kb commands: create the file */
};

struct rr_db {
	char		*path;		/* ":memory:" for tests */
	struct sqlite3	*conn;
	bool		 failed;	/* gave up: later calls fail at once */
	char		*fail_msg;	/* why, for those later calls */
	bool		 readonly;
	bool		 indexed;	/* schema current: FTS index present */
	bool		 has_use_count;	/* error_kb.use_count exists */
	bool		 set_aside_done;
	long		 budget_ms;
	long long	 deadline_ms;	/* monotonic; 0 until first use */
	bool		 bound_queries;	/* queries stop at the deadline too */
					/* (set before the first use) */
	size_t		 migrate_limit;	/* rows; 0 = no limit */
	int		 last_rc;	/* what db_fail() last described */
	long long	 schema_cookie;	/* PRAGMA schema_version when opened */
	dev_t		 dev;		/* the file we opened */
	ino_t		 ino;
	int		 wal_frames;	/* in the WAL after our last commit */
	bool		 journal;	/* a hook: calls may go to the journal */
	bool		 folding;	/* record_fold() is running */
	bool		 caching;	/* db_prepare() keeps statements */
	int		 prune_marks;	/* days: events were pruned, the error */
					/* markers are after the commit (errmark.h) */
	struct db_stmt	 cache[DB_STMT_CACHE];
	size_t		 ncache;
	struct buf	 notes;
};

/* A handle on path (nothing is opened yet).  Owned. */
struct rr_db *db_new(const char *path);
/* $home/data/reflexion.db, owned. */
char	*db_default_path(const char *home);
void	 db_close(struct rr_db *);

/*
 * The connection, opened (and in DB_WRITE mode created) and migrated on
 * the first call, which also folds the journal beside the file
 * (journal.h, record_fold()): every reader sees the calls hooks appended
 * there.  A pending journal makes a DB_READ open create the file.
 * Returns NULL with *err NULL when, in DB_READ mode, there is no
 * database file yet; NULL with *err set on failure (and every later call
 * then fails the same way without waiting again).
 */
struct sqlite3 *db_conn(struct rr_db *, enum db_mode, char **err);

/*
 * Describes a failed SQLite call (rc from it) as "cannot DOING: why" and
 * returns the owned message.  A corrupt file is set aside (once) and the
 * message says so; a lock held past the budget says "locked".  After a
 * corrupt or locked result the handle is marked failed.
 */
char	*db_fail(struct rr_db *, int rc, const char *doing);

/*
 * Whether the failure db_fail() last described came from the FTS index
 * rather than from the rows: SQLITE_CORRUPT_VTAB, or SQLITE_ERROR (the
 * index's shadow tables missing or unreadable to its constructor: our
 * statements are fixed, so a plain error means the schema is damaged).
 */
bool	 db_index_broken(const struct rr_db *);

/*
 * Drops the FTS index and its triggers and builds them again from error_kb,
 * whose rows are never touched; the connection is reopened.  With a
 * migrate_limit (a hook) only when error_kb has at most that many rows.
 * 0, or -1 and *err.  The index is derived data: rebuilding is the repair.
 */
int	 db_rebuild_index(struct rr_db *, char **err);

/*
 * db_rebuild_index() after a failure (why) that db_index_broken() blamed
 * on the index, with a line in the notes either way.  Whether the index
 * can be used again.
 */
bool	 db_repair_index(struct rr_db *, const char *why);

/*
 * After a write that failed with *err: when the index caused it and
 * db_repair_index() mended it, frees *err and returns true (do the write
 * again, once); otherwise false and *err stands.
 */
bool	 db_repaired_for_retry(struct rr_db *, char **err);

/*
 * A new budget from now: for a caller that waited for something else (a
 * configured command) between two uses of the database.
 */
void	 db_renew_budget(struct rr_db *);

/* BEGIN IMMEDIATE / COMMIT / ROLLBACK; -1 and *err on failure. */
int	 db_begin(struct rr_db *, char **err);
int	 db_commit(struct rr_db *, char **err);
void	 db_rollback(struct rr_db *);

/*
 * Prepares sql and binds ?1, ?2, ... in order from fmt: 't' a string
 * (const char *, copied; NULL binds NULL), 'i' an integer (long long),
 * 'v' a value (sqlite3_value *).  Returns the statement, or NULL and
 * *err = db_fail(db, rc, doing) when preparing or binding fails.
 */
struct sqlite3_stmt *db_prepare(struct rr_db *, const char *doing, char **err,
	     const char *sql, const char *fmt, ...);
/*
 * Steps a statement of db_prepare() that returns no rows and finishes it
 * (db_finish()); 0, or -1 and *err.
 */
int	 db_run(struct rr_db *, struct sqlite3_stmt *, const char *doing,
	     char **err);

/*
 * Steps a statement of db_prepare() for one row and finishes it: *out an
 * owned copy of its first column when that is text, else NULL (no row,
 * another type).  0, or -1 and *err.
 */
int	 db_text(struct rr_db *, struct sqlite3_stmt *, const char *doing,
	     char **out, char **err);
/*
 * Done with a statement of db_prepare(): finalized, or when db_cache()
 * keeps it, reset for the next db_prepare() of the same SQL.  Every
 * statement of db_prepare() ends here (or in db_run()), never in
 * sqlite3_finalize().
 */
void	 db_finish(struct rr_db *, struct sqlite3_stmt *);
/*
 * On: db_prepare() keeps up to DB_STMT_CACHE statements, prepared once
 * and reused for the same SQL text (a fold replays hundreds of calls
 * through the same few statements: preparing was 40% of it).  Off:
 * every kept statement is finalized.  Closing the connection turns it
 * off.
 */
void	 db_cache(struct rr_db *, bool on);

/* Runs SQL without results; -1 and *err (owned) on failure. */
int	 db_exec(struct rr_db *, const char *sql, char **err);

/* Current UTC time as 2026-02-07T12:34:56.789Z (the original tool's). */
void	 db_now(char out[32]);
/* The same, `days` days ago. */
void	 db_days_ago(int days, char out[32]);

#endif
