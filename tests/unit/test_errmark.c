/*
 * The error markers (errmark.h): a trusted absence only with the stamp of
 * the database file as it is, markers for rows written before the store
 * (the stamp's one-time SELECT), hostile session ids kept inside the
 * directory, a planted symlink or FIFO refused (the store distrusted, not
 * followed, no hang), the prune exact, and kb_session_error() answering
 * from the markers without opening SQLite.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "errmark.h"
#include "journal.h"
#include "kb.h"
#include "tap.h"
#include "xmalloc.h"

static char	dir[] = "/tmp/rr-errmark-XXXXXX";

/* Opens path for writing (which makes the stamp) and closes it. */
static int
open_close(const char *path, const char *sql)
{
	struct rr_db	*db = db_new(path);
	char		*err = NULL;
	int		 rc = 0;

	if (db_conn(db, DB_WRITE, &err) == NULL ||
	    (sql != NULL && db_exec(db, sql, &err) < 0)) {
		printf("# %s\n", err ? err : "no database");
		rc = -1;
	}
	free(err);
	db_close(db);
	return rc;
}

static size_t
count_files(const char *d)
{
	DIR		*dp = opendir(d);
	struct dirent	*e;
	size_t		 n = 0;

	if (dp == NULL)
		return 0;
	while ((e = readdir(dp)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(dp);
	return n;
}

static bool
has_stamp(const char *store)
{
	DIR		*dp = opendir(store);
	struct dirent	*e;
	bool		 yes = false;

	if (dp == NULL)
		return false;
	while ((e = readdir(dp)) != NULL)
		if (strncmp(e->d_name, ".complete-", 10) == 0)
			yes = true;
	closedir(dp);
	return yes;
}

static void
age(const char *path, int days)
{
	struct timespec	t[2];

	t[0].tv_sec = t[1].tv_sec = time(NULL) - (time_t)days * 86400;
	t[0].tv_nsec = t[1].tv_nsec = 0;
	utimensat(AT_FDCWD, path, t, AT_SYMLINK_NOFOLLOW);
}

int
main(void)
{
	struct rr_db	*db;
	struct kb_rows	 rows;
	struct stat	 st;
	char		*path, *store, *p, *err = NULL, *huge, *q, cutoff[32];
	int		 rc;

	if (mkdtemp(dir) == NULL)
		return 99;
	path = xasprintf("%s/d/reflexion.db", dir);
	store = errmark_dir(path);
	ok(errmark_dir(":memory:") == NULL, "no store for :memory:");
	ok(errmark_check(":memory:", "s", "Bash") == ERRMARK_MAYBE,
	    "an in-memory database is always asked");
	ok(errmark_check(path, "s", "Bash") == ERRMARK_MAYBE,
	    "no database, no stamp: ask");

	/* ---- a new database: the stamp, then the markers ---------------- */
	ok(open_close(path, NULL) == 0 && has_stamp(store),
	    "a writable open makes the stamp");
	ok(errmark_check(path, "s", "Bash") == ERRMARK_NONE,
	    "stamped, no marker: no error");
	ok(errmark_check(path, NULL, "Bash") == ERRMARK_MAYBE,
	    "no session id: ask");
	ok(errmark_note(path, "s", "Bash", &err) == 0, "a note");
	ok(errmark_check(path, "s", "Bash") == ERRMARK_MAYBE,
	    "noted: ask the database");
	ok(errmark_check(path, "s", "Read") == ERRMARK_NONE &&
	    errmark_check(path, "t", "Bash") == ERRMARK_NONE,
	    "another tool, another session: still none");
	p = xasprintf("%s/s.Bash", store);
	ok(stat(p, &st) == 0 && S_ISREG(st.st_mode) &&
	    (st.st_mode & 0777) == 0600 && st.st_size == 0,
	    "the marker: empty, 0600");
	free(p);
	ok(stat(store, &st) == 0 && (st.st_mode & 0777) == 0700,
	    "the directory: 0700");
	ok(errmark_note(path, "s", "Bash", &err) == 0, "a second note");

	/* ---- hostile ids stay inside the store ---------------------------- */
	huge = xmalloc(20001);
	memset(huge, 'a', 20000);
	huge[20000] = '\0';
	ok(errmark_note(path, "../../escape", "Bash", &err) == 0 &&
	    errmark_note(path, huge, "Bash", &err) == 0 &&
	    errmark_note(path, "\xff\xfe/\n", "Bash", &err) == 0 &&
	    errmark_note(path, "s", "../../Tool", &err) == 0,
	    "notes of '../', a 20000-byte id, invalid UTF-8, a '../' tool");
	ok(errmark_check(path, "../../escape", "Bash") == ERRMARK_MAYBE &&
	    errmark_check(path, huge, "Bash") == ERRMARK_MAYBE &&
	    errmark_check(path, "\xff\xfe/\n", "Bash") == ERRMARK_MAYBE &&
	    errmark_check(path, "s", "../../Tool") == ERRMARK_MAYBE,
	    "each found again");
	huge[19999] = 'b';
	ok(errmark_check(path, huge, "Bash") == ERRMARK_NONE,
	    "a long id that differs at its end has no marker");
	free(huge);
	p = xasprintf("%s/escape.Bash", dir);
	q = xasprintf("%s/d/escape.Bash", dir);
	ok(count_files(store) == 5 && access(p, F_OK) < 0 &&
	    access(q, F_OK) < 0, "five markers, all in the store (%zu)",
	    count_files(store));
	free(p);
	free(q);

	/* ---- a planted symlink or FIFO ------------------------------------ */
	p = xasprintf("%s/target", dir);
	q = xasprintf("%s/evil.Bash", store);
	close(open(p, O_WRONLY | O_CREAT, 0600));
	age(p, 10);
	rc = symlink(p, q);
	ok(rc == 0 && errmark_check(path, "evil", "Bash") == ERRMARK_MAYBE,
	    "a symlink marker: ask");
	rc = errmark_note(path, "evil", "Bash", &err);
	ok(rc == 1 && err != NULL, "a note through it fails, the store "
	    "distrusted (%d): %s", rc, err ? err : "");
	free(err);
	err = NULL;
	ok(stat(p, &st) == 0 && st.st_mtime < time(NULL) - 86400,
	    "its target is not touched");
	ok(!has_stamp(store) && errmark_check(path, "t", "Bash") ==
	    ERRMARK_MAYBE, "the store is distrusted: every check asks");
	ok(open_close(path, NULL) == 0 && !has_stamp(store),
	    "a fresh .broken keeps the stamp from being made again");
	unlink(q);
	free(q);
	q = xasprintf("%s/.broken", store);
	age(q, 1);
	ok(open_close(path, NULL) == 0 && has_stamp(store),
	    "an hour later it is made again");
	free(q);
	q = xasprintf("%s/fifo.Bash", store);
	ok(mkfifo(q, 0600) == 0 && errmark_check(path, "fifo", "Bash") ==
	    ERRMARK_MAYBE, "a FIFO marker: ask");
	ok(errmark_note(path, "fifo", "Bash", &err) == 1,
	    "a note on it fails, without hanging");
	free(err);
	err = NULL;
	unlink(q);
	free(q);
	q = xasprintf("%s/.broken", store);
	unlink(q);
	free(q);
	free(p);

	/* ---- rows written before the store: the stamp's SELECT ---------- */
	ok(open_close(path, "INSERT INTO events (ts, session_id, type, data) "
	    "VALUES ('2026-01-01T00:00:00.000Z', 'old', 'tool_error', "
	    "'{\"tool\":\"Bash\",\"error\":\"E\"}')") == 0,
	    "a row written around the recorder");
	p = xasprintf("rm -rf '%s'", store);
	ok(system(p) == 0, "the store removed (a database from before)");
	free(p);
	ok(errmark_check(path, "old", "Bash") == ERRMARK_MAYBE &&
	    errmark_check(path, "new", "Bash") == ERRMARK_MAYBE,
	    "no store: every check asks");
	ok(open_close(path, NULL) == 0 && has_stamp(store),
	    "the next open makes the store");
	ok(errmark_check(path, "old", "Bash") == ERRMARK_MAYBE,
	    "the old row has its marker");
	ok(errmark_check(path, "new", "Bash") == ERRMARK_NONE,
	    "others have none");

	/* ---- the journal waits: no stamp yet ------------------------------ */
	db = db_new(path);
	ok(db_conn(db, DB_WRITE, &err) != NULL, "opened");
	p = xasprintf("rm -rf '%s'", store);
	ok(system(p) == 0, "the store removed again");
	free(p);
	q = journal_path(path);
	rc = open(q, O_WRONLY | O_CREAT, 0600);
	ok(rc >= 0 && write(rc, "x", 1) == 1, "a journal that holds something");
	if (rc >= 0)
		close(rc);
	ok(errmark_init(db, &err) == 0 && !has_stamp(store),
	    "the journal waits: no stamp (its calls may lack markers)");
	unlink(q);
	free(q);
	ok(errmark_init(db, &err) == 0 && has_stamp(store),
	    "the journal empty: stamped");
	db_close(db);

	/* ---- kb_session_error() without SQLite ---------------------------- */
	db = db_new(path);
	kb_rows_init(&rows);
	rc = kb_session_error(db, "new", "Bash", 5, &rows, &err);
	ok(rc == 0 && rows.n == 0 && db->conn == NULL,
	    "kb_session_error: none, and the database is not opened");
	rc = kb_session_error(db, "old", "Bash", 5, &rows, &err);
	ok(rc == 0 && db->conn != NULL,
	    "a marked session opens it (%d)", rc);
	kb_rows_release(&rows);
	free(err);
	err = NULL;
	db_close(db);

	/* ---- a database replaced by rename: its stamp is missing --------- */
	p = xasprintf("%s.new", path);
	q = xasprintf("cp '%s' '%s' && mv '%s' '%s'", path, p, p, path);
	ok(system(q) == 0 && errmark_check(path, "new", "Bash") ==
	    ERRMARK_MAYBE, "another file at the path: ask");
	free(p);
	free(q);
	ok(open_close(path, NULL) == 0 && errmark_check(path, "new",
	    "Bash") == ERRMARK_NONE, "its own stamp, once opened");

	/* ---- the prune ---------------------------------------------------- */
	p = xasprintf("%s/s.Read", store);
	ok(errmark_note(path, "s", "Read", &err) == 0 &&
	    errmark_note(path, "s", "Bash", &err) == 0,
	    "a marker to age, and a recent one");
	age(p, 60);
	db = db_new(path);
	ok(db_conn(db, DB_WRITE, &err) != NULL, "opened");
	ok(errmark_prune(db, 30, &err) == 0 && access(p, F_OK) == 0,
	    "an old error row left (2026-01-01): the old marker stays");
	db_days_ago(400, cutoff);
	q = xasprintf("DELETE FROM events WHERE ts < '%s' OR session_id = "
	    "'old'", cutoff);
	ok(db_exec(db, q, &err) == 0, "the old rows pruned");
	free(q);
	ok(errmark_prune(db, 30, &err) == 0 && access(p, F_OK) < 0,
	    "then the old marker goes");
	q = xasprintf("%s/s.Bash", store);
	ok(access(q, F_OK) == 0, "a recent marker stays");
	free(q);
	free(p);
	db_close(db);

	/* ---- the store itself a symlink: refused ------------------------ */
	p = xasprintf("%s/elsewhere", dir);
	q = xasprintf("mv '%s' '%s' && ln -s '%s' '%s'", store, p, p, store);
	ok(system(q) == 0 && errmark_check(path, "new", "Bash") ==
	    ERRMARK_MAYBE, "a symlinked store: every check asks");
	ok(errmark_note(path, "x", "Bash", &err) == 1,
	    "and no note goes through it");
	free(err);
	err = NULL;
	free(q);
	q = xasprintf("%s/x.Bash", p);
	ok(access(q, F_OK) < 0, "nothing written where it points");
	free(q);
	q = xasprintf("rm '%s' && mv '%s' '%s'", store, p, store);
	ok(system(q) == 0 && errmark_check(path, "new", "Bash") ==
	    ERRMARK_NONE, "put back, it answers again");
	free(q);
	free(p);

	/* ---- a read-only store: notes fail, checks ask -------------------- */
	if (geteuid() == 0) {
		skip("root writes into a read-only directory");
	} else {
		chmod(store, 0500);
		rc = errmark_note(path, "ro", "Bash", &err);
		ok(rc == -1 && err != NULL, "a read-only store with its "
		    "stamp: the row must not be written (%d): %s", rc,
		    err ? err : "");
		ok(errmark_check(path, "ro", "Bash") == ERRMARK_NONE,
		    "(which is why: the stamp still answers)");
		chmod(store, 0700);
		free(err);
		err = NULL;
	}

	p = xasprintf("rm -rf '%s'", dir);
	if (system(p) != 0)
		printf("# cannot remove %s\n", dir);
	free(p);
	free(store);
	free(path);
	return done_testing();
}
