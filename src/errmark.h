/*
 * The error markers beside the database (DB.errors/): which tools of
 * which session have had a tool_error recorded, kept outside SQLite so
 * that a hook's `kb: session_error` can say "no error of tool T in
 * session S" without opening the database (a 2 M instruction open, for
 * an answer that is almost always "none").
 *
 * Files, all mode 0600 in a 0700 directory, none ever followed:
 *
 *	S.T			a marker, empty: S and T are state_file_name()
 *				of the session id and of the tool name,
 *				without ".json" (their names hold no '.', so
 *				S.T is unambiguous; two long ids that share
 *				a hash share a marker: a needless open only)
 *	.complete-DEV-INO	the stamp: the markers are complete for the
 *				database file with that device and inode
 *	.broken			a marker write failed: no stamp is made
 *				again until it is an hour old
 *	.lock			flock(): LOCK_SH by writers of markers,
 *				LOCK_EX by the stamp's making and the prune
 *
 * Exactness: a missing marker means no such tool_error row, whenever the
 * stamp is there for the database file as it is now.
 *  - Every writer of a tool_error row (record.c, directly, in a fold, or
 *    through the journal) calls errmark_note() BEFORE the row can be seen
 *    (before its COMMIT, before its journal append).  It touches the
 *    marker (mtime = now, after the row's ts was taken) under LOCK_SH.
 *  - errmark_init() makes the stamp under LOCK_EX, when the journal holds
 *    nothing, after a fresh SELECT DISTINCT of the rows: rows seen get
 *    their markers; rows committed later had theirs written first.
 *  - When errmark_note() fails, the stamps go (readers open the database)
 *    and .broken keeps errmark_init() from making one while the failed
 *    writer's row may still be on its way (its budget is a second).  When
 *    a stamp cannot go either, the writer does not write the row: a call
 *    lost, said on stderr, rather than a wrong answer.
 *  - errmark_prune(), under LOCK_EX (no marker is being touched), removes
 *    markers last touched before the retention cutoff only when no
 *    tool_error row older than the cutoff is left and the journal is
 *    empty: every row left is then newer than its marker's last touch
 *    could be otherwise.  A stale marker (its rows pruned) costs one open.
 *  - A database replaced by rename (a set-aside, a copy moved in) has a
 *    new inode: its stamp is missing until errmark_init() runs for it.
 *    A database overwritten in place by something other than this
 *    program is not noticed: nothing but the recorder may write rows.
 *
 * ":memory:" databases (rule tests) have no store: every check says
 * ERRMARK_MAYBE.  Ownership: errmark_dir() returns an owned string;
 * messages through char **err are owned by the caller.
 */
#ifndef RR_ERRMARK_H
#define RR_ERRMARK_H

struct rr_db;

enum errmark_answer {
	ERRMARK_NONE,	/* trusted: no tool_error of that tool, that session */
	ERRMARK_MAYBE	/* ask the database */
};

/* db_path's store (DB.errors), owned; NULL for ":memory:". */
char	*errmark_dir(const char *db_path);

/*
 * Whether the store can answer for session and tool without the
 * database.  A few stat() calls; anything odd (no stamp, a marker that is
 * not a regular file, an unreadable directory) answers ERRMARK_MAYBE.
 */
enum errmark_answer errmark_check(const char *db_path, const char *session,
	     const char *tool);

/*
 * Records that session had a tool_error of tool: called before the row
 * can be seen.  0: noted.  1 and *err: not noted, but the store is
 * distrusted (its stamp removed: readers open the database), so the row
 * may be written.  -1 and *err: not noted and a stamp stays (a read-only
 * store): the row must not be written, or a reader would miss it.  A NULL
 * session needs no marker (no lookup matches it).
 */
int	 errmark_note(const char *db_path, const char *session,
	     const char *tool, char **err);

/*
 * Makes the stamp for db's file when it is missing: markers for every
 * tool_error row, then the stamp.  Needs a writable connection; skipped
 * (0) when the journal waits, .broken is fresh or the lock is held.  0,
 * or -1 and *err.
 */
int	 errmark_init(struct rr_db *db, char **err);

/*
 * Removes markers last touched more than days ago, when that is exact
 * (see above); 0 when skipped.  0, or -1 and *err.
 */
int	 errmark_prune(struct rr_db *db, int days, char **err);

#endif
