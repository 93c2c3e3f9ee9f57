/*
 * A test helper that needs only libsqlite3 (the sqlite3 shell may be
 * missing where the tests run):
 *
 *   sqlrun DB SQL
 *	folds the journal beside DB first, if it holds anything (as every
 *	reader of the engine does when it opens DB: journal.h), then runs
 *	SQL, prints each result row with '|' between columns
 *   sqlrun --raw DB SQL
 *	the same without the fold: DB's file as it is
 *   sqlrun --hold write|exclusive DB SECONDS READYFILE
 *	takes a write lock (BEGIN IMMEDIATE and an insert) or an exclusive
 *	one (locking_mode EXCLUSIVE, BEGIN EXCLUSIVE and an insert, which
 *	shuts out readers too), creates READYFILE, holds the lock SECONDS
 *	seconds, rolls back and exits
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "journal.h"
#include "xmalloc.h"

static int
print_row(void *arg, int n, char **vals, char **names)
{
	int	i;

	(void)arg;
	(void)names;
	for (i = 0; i < n; i++)
		printf("%s%s", i ? "|" : "", vals[i] ? vals[i] : "NULL");
	printf("\n");
	return 0;
}

static int
hold(const char *mode, const char *path, int seconds, const char *ready)
{
	sqlite3	*db;
	char	*err = NULL;
	FILE	*f;
	int	 excl = strcmp(mode, "exclusive") == 0;

	if (sqlite3_open(path, &db) != SQLITE_OK)
		return 2;
	sqlite3_busy_timeout(db, 10000);
	if (sqlite3_exec(db, excl ? "PRAGMA locking_mode = EXCLUSIVE; "
	    "BEGIN EXCLUSIVE; INSERT INTO events (ts, session_id, type, data) "
	    "VALUES ('x', 'holder', 'x', '{}');" : "BEGIN IMMEDIATE; INSERT "
	    "INTO events (ts, session_id, type, data) VALUES ('x', 'holder', "
	    "'x', '{}');", NULL, NULL, &err) != SQLITE_OK) {
		fprintf(stderr, "sqlrun: %s\n", err);
		return 2;
	}
	if ((f = fopen(ready, "w")) != NULL)
		fclose(f);
	sleep((unsigned)seconds);
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(db);
	return 0;
}

/* What the engine's next open of path would fold, folded now. */
static void
fold(const char *path)
{
	struct rr_db	*db;
	char		*jp = journal_path(path), *err = NULL;

	if (journal_pending(jp)) {
		db = db_new(path);
		db->budget_ms = 10000;
		if (db_conn(db, DB_WRITE, &err) == NULL) {
			fprintf(stderr, "sqlrun: %s\n", err);
			free(err);
		}
		fwrite(db->notes.data, 1, db->notes.len, stderr);
		db_close(db);
	}
	free(jp);
}

int
main(int argc, char **argv)
{
	sqlite3	*db;
	char	*err = NULL;

	if (argc == 6 && strcmp(argv[1], "--hold") == 0)
		return hold(argv[2], argv[3], atoi(argv[4]), argv[5]);
	if (argc == 4 && strcmp(argv[1], "--raw") == 0) {
		argc--;
		argv++;
	} else if (argc == 3)
		fold(argv[1]);
	if (argc != 3) {
		fprintf(stderr, "usage: sqlrun DB SQL | sqlrun --hold "
		    "write|exclusive DB SECONDS READYFILE\n");
		return 2;
	}
	if (sqlite3_open(argv[1], &db) != SQLITE_OK) {
		fprintf(stderr, "sqlrun: cannot open %s\n", argv[1]);
		return 2;
	}
	sqlite3_busy_timeout(db, 10000);
	if (sqlite3_exec(db, argv[2], print_row, NULL, &err) != SQLITE_OK) {
		fprintf(stderr, "sqlrun: %s\n", err);
		sqlite3_free(err);
		sqlite3_close(db);
		return 1;
	}
	sqlite3_close(db);
	return 0;
}
