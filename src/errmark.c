/*
 * The error markers beside the database (errmark.h, which states why a
 * missing marker is an exact answer).  Every file here is opened with
 * O_NOFOLLOW and O_NONBLOCK and checked to be a regular file: a symlink
 * or FIFO planted in the directory makes a check answer ERRMARK_MAYBE and
 * a note fail (so the store is distrusted), never a hang or a write
 * elsewhere.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "errmark.h"
#include "fileio.h"
#include "journal.h"
#include "state.h"
#include "xmalloc.h"

#define STAMP_PREFIX	".complete-"
#define BROKEN_NAME	".broken"
#define LOCK_NAME	".lock"
/* How long a failed note keeps the stamp from being made again. */
#define BROKEN_SECS	3600

static bool
is_memory(const char *db_path)
{
	return strcmp(db_path, ":memory:") == 0;
}

char *
errmark_dir(const char *db_path)
{
	if (is_memory(db_path))
		return NULL;
	return xasprintf("%s.errors", db_path);
}

/* The store is a directory of its own, not a symlink to one elsewhere. */
static bool
store_ok(const char *dir)
{
	struct stat	st;

	return lstat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

/* state_file_name() without its ".json": no '.' in it. */
static char *
part(const char *s)
{
	char	*n = state_file_name(s);
	size_t	 len = strlen(n);

	if (len >= 5 && strcmp(n + len - 5, ".json") == 0)
		n[len - 5] = '\0';
	return n;
}

static char *
marker_path(const char *dir, const char *session, const char *tool)
{
	char	*s = part(session), *t = part(tool), *p;

	p = xasprintf("%s/%s.%s", dir, s, t);
	free(s);
	free(t);
	return p;
}

static char *
stamp_path(const char *dir, dev_t dev, ino_t ino)
{
	return xasprintf("%s/" STAMP_PREFIX "%llu-%llu", dir,
	    (unsigned long long)dev, (unsigned long long)ino);
}

enum errmark_answer
errmark_check(const char *db_path, const char *session, const char *tool)
{
	struct stat		 st;
	enum errmark_answer	 a = ERRMARK_MAYBE;
	char			*dir, *p;

	if (session == NULL || tool == NULL || stat(db_path, &st) < 0 ||
	    (dir = errmark_dir(db_path)) == NULL)
		return ERRMARK_MAYBE;
	p = stamp_path(dir, st.st_dev, st.st_ino);
	if (store_ok(dir) && lstat(p, &st) == 0 && S_ISREG(st.st_mode)) {
		free(p);
		p = marker_path(dir, session, tool);
		if (lstat(p, &st) < 0 && errno == ENOENT)
			a = ERRMARK_NONE;
	}
	free(p);
	free(dir);
	return a;
}

/* The lock file, locked (how: LOCK_SH, LOCK_EX | LOCK_NB); -1 on failure. */
static int
lock_store(const char *dir, int how)
{
	char	*p = xasprintf("%s/" LOCK_NAME, dir);
	int	 fd, r;

	fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK,
	    0600);
	free(p);
	if (fd < 0)
		return -1;
	while ((r = flock(fd, how)) < 0 && errno == EINTR)
		;
	if (r < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Touches the marker at p (made when missing), under the store's lock.
 * By name, not by descriptor: a prune that removes p either comes before
 * (the marker is made anew) or after (it sees the new mtime).
 */
static int
touch(const char *p, char **err)
{
	struct stat	st;
	int		fd, tries;

	for (tries = 0; tries < 3; tries++) {
		if (lstat(p, &st) == 0) {
			if (!S_ISREG(st.st_mode)) {
				*err = xasprintf("error marker '%s' is not a "
				    "regular file", p);
				return -1;
			}
			if (utimensat(AT_FDCWD, p, NULL,
			    AT_SYMLINK_NOFOLLOW) == 0)
				return 0;
			if (errno != ENOENT)
				break;
			continue;
		}
		if (errno != ENOENT)
			break;
		fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
		    O_NOFOLLOW | O_NONBLOCK, 0600);
		if (fd >= 0) {
			close(fd);
			return 0;
		}
		if (errno != EEXIST)
			break;
	}
	*err = xasprintf("cannot write error marker '%s': %s", p,
	    strerror(errno ? errno : EAGAIN));
	return -1;
}

/* Removes every stamp in dir but keep (NULL: all); -1 if one stays. */
static int
drop_stamps(const char *dir, const char *keep)
{
	DIR		*d;
	struct dirent	*e;
	char		*p;
	int		 rc = 0;

	if ((d = opendir(dir)) == NULL)
		return errno == ENOENT ? 0 : -1;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, STAMP_PREFIX,
		    sizeof(STAMP_PREFIX) - 1) != 0)
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		if ((keep == NULL || strcmp(p, keep) != 0) && unlink(p) < 0 &&
		    errno != ENOENT)
			rc = -1;
		free(p);
	}
	closedir(d);
	return rc;
}

/*
 * A note failed: no reader may trust the store, and no stamp is made for
 * now.  1 when no stamp is left (the row may be written: readers ask the
 * database), -1 when one stays (it must not be).
 */
static int
distrust(const char *dir, char **err)
{
	char	*p = xasprintf("%s/" BROKEN_NAME, dir), *e;
	int	 fd;

	fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK,
	    0600);
	if (fd >= 0) {
		futimens(fd, NULL);
		close(fd);
	}
	free(p);
	if (drop_stamps(dir, NULL) == 0)
		return 1;
	e = xasprintf("%s; and its stamp cannot be removed (%s)", *err,
	    strerror(errno));
	free(*err);
	*err = e;
	return -1;
}

int
errmark_note(const char *db_path, const char *session, const char *tool,
    char **err)
{
	char	*dir, *p;
	int	 lfd, rc;

	*err = NULL;
	if (session == NULL || tool == NULL || is_memory(db_path))
		return 0;
	dir = errmark_dir(db_path);
	if (mkdir_p(dir, err) < 0) {
		rc = distrust(dir, err);
		free(dir);
		return rc;
	}
	/* Nothing is written through it; checks refuse it already. */
	if (!store_ok(dir)) {
		*err = xasprintf("error markers '%s' is not a directory", dir);
		free(dir);
		return 1;
	}
	if ((lfd = lock_store(dir, LOCK_SH)) < 0) {
		*err = xasprintf("cannot lock '%s/" LOCK_NAME "': %s", dir,
		    strerror(errno));
		rc = distrust(dir, err);
		free(dir);
		return rc;
	}
	p = marker_path(dir, session, tool);
	rc = touch(p, err);
	if (rc < 0)
		rc = distrust(dir, err);
	close(lfd);
	free(p);
	free(dir);
	return rc;
}

/* Whether .broken says a failed writer may still be on its way. */
static bool
broken_fresh(const char *dir)
{
	struct stat	 st;
	char		*p = xasprintf("%s/" BROKEN_NAME, dir);
	bool		 fresh = false;

	if (lstat(p, &st) == 0) {
		if (S_ISREG(st.st_mode) && st.st_mtime > time(NULL) -
		    BROKEN_SECS)
			fresh = true;
		else if (unlink(p) < 0)
			fresh = true;
	}
	free(p);
	return fresh;
}

/* Markers for every tool_error row, under the exclusive lock. */
static int
mark_all(struct rr_db *db, const char *dir, char **err)
{
	sqlite3_stmt	*st;
	char		*p;
	int		 rc;

	st = db_prepare(db, "list the sessions' errors", err, "SELECT "
	    "DISTINCT session_id, json_extract(data, '$.tool') FROM events "
	    "WHERE type = 'tool_error'", "");
	if (st == NULL)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 0) != SQLITE_TEXT ||
		    sqlite3_column_type(st, 1) != SQLITE_TEXT)
			continue;
		p = marker_path(dir, (const char *)sqlite3_column_text(st, 0),
		    (const char *)sqlite3_column_text(st, 1));
		rc = touch(p, err);
		free(p);
		if (rc < 0) {
			db_finish(db, st);
			return -1;
		}
	}
	db_finish(db, st);
	if (rc != SQLITE_DONE) {
		*err = db_fail(db, rc, "list the sessions' errors");
		return -1;
	}
	return 0;
}

int
errmark_init(struct rr_db *db, char **err)
{
	struct stat	 st;
	char		*dir, *stamp;
	int		 lfd, fd, rc = 0;

	*err = NULL;
	if (db->conn == NULL || db->readonly || db->ino == 0 ||
	    (dir = errmark_dir(db->path)) == NULL)
		return 0;
	stamp = stamp_path(dir, db->dev, db->ino);
	if (lstat(stamp, &st) == 0 || journal_waits(db->path))
		goto out;
	if (mkdir_p(dir, err) < 0) {
		rc = -1;
		goto out;
	}
	if (!store_ok(dir))
		goto out;
	/* Busy: a writer is touching a marker; a later open makes it. */
	if ((lfd = lock_store(dir, LOCK_EX | LOCK_NB)) < 0)
		goto out;
	if (!broken_fresh(dir) && !journal_waits(db->path) &&
	    (rc = mark_all(db, dir, err)) == 0) {
		drop_stamps(dir, NULL);
		fd = open(stamp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
		    O_NOFOLLOW | O_NONBLOCK, 0600);
		if (fd >= 0)
			close(fd);
	}
	close(lfd);
out:
	free(stamp);
	free(dir);
	return rc;
}

/* Whether a tool_error row older than cutoff is left: 1, 0, -1. */
static int
old_errors(struct rr_db *db, const char *cutoff, char **err)
{
	sqlite3_stmt	*st;
	int		 rc;

	st = db_prepare(db, "look for old errors", err, "SELECT 1 FROM "
	    "events WHERE type = 'tool_error' AND ts < ?1 LIMIT 1", "t",
	    cutoff);
	if (st == NULL)
		return -1;
	rc = sqlite3_step(st);
	db_finish(db, st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	*err = db_fail(db, rc, "look for old errors");
	return -1;
}

int
errmark_prune(struct rr_db *db, int days, char **err)
{
	DIR		*d;
	struct dirent	*e;
	struct stat	 st;
	char		 cutoff[32], *dir, *p;
	time_t		 limit;
	int		 lfd, rc = 0;

	*err = NULL;
	if (days <= 0 || is_memory(db->path) || db->conn == NULL)
		return 0;
	dir = errmark_dir(db->path);
	if (!store_ok(dir) || (d = opendir(dir)) == NULL) {
		free(dir);
		return 0;
	}
	if ((lfd = lock_store(dir, LOCK_EX | LOCK_NB)) < 0)
		goto out;
	/*
	 * The limit first: a row's ts is at most its marker's mtime, so a
	 * marker older than limit has rows older than cutoff, if any.
	 */
	limit = time(NULL) - (time_t)days * 86400;
	db_days_ago(days, cutoff);
	if (journal_waits(db->path) || (rc = old_errors(db, cutoff, err)) != 0)
		goto unlock;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_mtime < limit)
			unlink(p);
		free(p);
	}
unlock:
	if (rc > 0)
		rc = 0;
	close(lfd);
out:
	closedir(d);
	free(dir);
	return rc;
}
