/*
 * The journal beside the database (NAME.pending): records a hook appends
 * instead of opening SQLite, folded into the database by whoever opens it
 * next (record_fold(), called by db_conn()).
 *
 * A record is one line, written with one write() under flock(LOCK_EX):
 *
 *	RRJ1 LEN SUM KEY PAYLOAD\n
 *
 * LEN is the payload's length in decimal, SUM the 16 hex digits of
 * rr_checksum() over "KEY PAYLOAD", KEY a unique name without spaces
 * (process, realtime clock, counter) and PAYLOAD LEN bytes without a
 * newline (JSON text).  A line that does not parse or whose sum is wrong
 * (a writer that died mid-write, garbage) is skipped and counted; the
 * next line starts afresh, and an append after a torn tail starts on a
 * new line, so one damaged record never hides another.
 *
 * This module knows files and framing only: what the payload means and
 * how a fold stays idempotent across a crash (the last folded key kept in
 * the database, in the fold's transaction) is record_journal.c's.
 *
 * Ownership: journal_path() returns an owned string; struct journal owns
 * its descriptor (and lock) and its copy of the file until
 * journal_close(); a struct journal_rec points into that copy.
 */
#ifndef RR_JOURNAL_H
#define RR_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Past this size a hook does not append: it folds (a slice: db.h) and
 * writes itself.  Some 1,500 calls: a command folds them in about 1 s.
 */
#define JOURNAL_MAX_BYTES	(1024u * 1024)
/* Longest KEY. */
#define JOURNAL_KEY_MAX		64

struct journal {
	int	 fd;		/* -1: there is no journal */
	char	*path;
	char	*data;		/* the whole file, read under the lock */
	size_t	 len;
	size_t	 pos;		/* journal_next()'s place */
	size_t	 damaged;	/* records skipped as damaged */
};

struct journal_rec {
	const char	*key;		/* not NUL-terminated */
	size_t		 keylen;
	const char	*data;		/* not NUL-terminated */
	size_t		 len;
};

/* db_path's journal (DB.pending), owned. */
char	*journal_path(const char *db_path);
/* Whether path is a journal with something in it. */
bool	 journal_pending(const char *path);
/* Whether the journal of the database db_path has something in it. */
bool	 journal_waits(const char *db_path);
/*
 * A fresh key: process id, realtime nanoseconds and a counter, written
 * to out (JOURNAL_KEY_MAX + 1 bytes).
 */
void	 journal_key(char *out);
/*
 * Appends one record (the directory is made if missing; the file is 0600).
 * Waits for the lock until deadline_ms (monotonic).  Returns 0, 1 when
 * the file already holds max_bytes (nothing written: fold it), or -1 and
 * *err (owned).
 */
int	 journal_append(const char *path, const char *key, const char *payload,
	     size_t len, size_t max_bytes, long long deadline_ms, char **err);

/*
 * Opens path, takes its lock (waiting until deadline_ms) and reads it
 * whole.  0 (j->fd == -1 when there is no file), or -1 and *err.
 */
int	 journal_open(struct journal *, const char *path, long long deadline_ms,
	     char **err);
/* The next whole record into *rec: true, or false at the end. */
bool	 journal_next(struct journal *, struct journal_rec *);
/* Empties the file, still under the lock; 0 or -1 and *err. */
int	 journal_clear(struct journal *, char **err);
/* Unlocks and frees. */
void	 journal_close(struct journal *);

#endif
