/*
 * The journal (journal.h) and its fold (record_fold()): framing, torn and
 * damaged records, the size cap, and folding that writes what a direct
 * recording writes, once, even after a crash between COMMIT and emptying.
 */
#include <sqlite3.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "db.h"
#include "event.h"
#include "fileio.h"
#include "journal.h"
#include "monoclock.h"
#include "record.h"
#include "tap.h"
#include "xmalloc.h"

static char	dir[] = "/tmp/rr-journal-XXXXXX";

#define diag(...) do {							\
	fprintf(stderr, "# ");						\
	fprintf(stderr, __VA_ARGS__);					\
	fprintf(stderr, "\n");						\
} while (0)

static int
append(const char *path, const char *key, const char *payload, size_t max)
{
	char	*err = NULL;
	int	 rc;

	rc = journal_append(path, key, payload, strlen(payload), max,
	    monoclock_ms() + 1000, &err);
	if (rc < 0)
		diag("append: %s", err);
	free(err);
	return rc;
}

static void
raw_append(const char *path, const char *bytes)
{
	int	fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0600);

	if (fd >= 0) {
		if (write(fd, bytes, strlen(bytes)) < 0)
			diag("write failed");
		close(fd);
	}
}

/* The keys of path's whole records, space-separated; damaged in *bad. */
static char *
keys(const char *path, size_t *bad)
{
	struct journal		j;
	struct journal_rec	r;
	struct buf		b;
	char			*err = NULL;

	buf_init(&b);
	*bad = 0;
	if (journal_open(&j, path, monoclock_ms() + 1000, &err) < 0) {
		diag("open: %s", err);
		free(err);
		buf_adds(&b, "error");
		return buf_detach(&b, NULL);
	}
	while (j.fd >= 0 && journal_next(&j, &r)) {
		if (b.len)
			buf_addc(&b, ' ');
		buf_add(&b, r.key, r.keylen);
		buf_addc(&b, '=');
		buf_add(&b, r.data, r.len);
	}
	*bad = j.damaged;
	journal_close(&j);
	buf_addc(&b, '\0');
	return buf_detach(&b, NULL);
}

static void
test_framing(void)
{
	char		*p = xasprintf("%s/f/x.db.pending", dir), *s, key[80];
	struct stat	 st;
	size_t		 bad;

	ok(append(p, "k1", "{\"a\":1}", JOURNAL_MAX_BYTES) == 0,
	    "append makes the directory and the file");
	ok(stat(p, &st) == 0 && (st.st_mode & 0777) == 0600, "mode 0600");
	append(p, "k2", "{\"b\":2}", JOURNAL_MAX_BYTES);
	s = keys(p, &bad);
	is_str(s, "k1={\"a\":1} k2={\"b\":2}", "two records read back");
	ok(bad == 0, "none damaged");
	free(s);

	/* A writer died mid-record: no newline after it. */
	raw_append(p, "RRJ1 40 0123456789abcdef k3 {\"torn\":");
	ok(append(p, "k4", "{\"d\":4}", JOURNAL_MAX_BYTES) == 0,
	    "an append after a torn record");
	s = keys(p, &bad);
	is_str(s, "k1={\"a\":1} k2={\"b\":2} k4={\"d\":4}",
	    "the torn record is skipped, the next one is whole");
	ok(bad == 1, "one damaged (%zu)", bad);
	free(s);

	/* A flipped byte, garbage lines, an empty payload's neighbours. */
	raw_append(p, "RRJ1 7 0000000000000000 k5 {\"e\":5}\n");
	raw_append(p, "\x01\x02 garbage\nRRJ1 x y z\nRRJ1 999 ffff k6 {}\n");
	append(p, "k7", "{\"g\":7}", JOURNAL_MAX_BYTES);
	s = keys(p, &bad);
	is_str(s, "k1={\"a\":1} k2={\"b\":2} k4={\"d\":4} k7={\"g\":7}",
	    "a wrong sum, garbage and a wrong length are skipped");
	ok(bad == 5, "five damaged (%zu)", bad);
	free(s);

	/* Oversize: nothing written, the caller folds. */
	ok(stat(p, &st) == 0 && append(p, "k8", "{}", (size_t)st.st_size) ==
	    1, "at the cap: 1, not written");
	s = keys(p, &bad);
	ok(strstr(s, "k8") == NULL, "and the record is not there");
	free(s);
	ok(append(p, "k9", "a\nb", JOURNAL_MAX_BYTES) < 0,
	    "a payload with a newline is refused");
	journal_key(key);
	ok(strchr(key, ' ') == NULL && strlen(key) > 10, "a key: %s", key);
	free(p);
}

static struct rr_event	ev;

/* A hook's recording of json into the database at path. */
static int
hook_post(const char *path, const char *json, bool journal, char **notes)
{
	struct rr_db	*db = db_new(path);
	char		*err = NULL;
	int		 rc;

	db->journal = journal;
	db->bound_queries = true;
	if (event_parse(&ev, json, strlen(json), "/p", &err) < 0) {
		diag("%s", err);
		free(err);
		db_close(db);
		return -1;
	}
	rc = record_event(db, &ev, NULL, NULL, &err);
	if (rc < 0)
		diag("record: %s", err);
	free(err);
	event_release(&ev);
	if (notes != NULL)
		*notes = xstrndup(db->notes.data ? db->notes.data : "",
		    db->notes.len);
	db_close(db);
	return rc;
}

/* The rows of sql in the database at path, opened as a reader would. */
static char *
query(const char *path, const char *sql, char **notes)
{
	struct rr_db	*db = db_new(path);
	sqlite3_stmt	*st;
	struct buf	 b;
	char		*err = NULL;
	int		 i, n = 0;

	buf_init(&b);
	if (db_conn(db, DB_READ, &err) == NULL) {
		buf_printf(&b, "no database: %s", err ? err : "");
		free(err);
	} else if (sqlite3_prepare_v2(db->conn, sql, -1, &st, NULL) ==
	    SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			if (n++)
				buf_addc(&b, '\n');
			for (i = 0; i < sqlite3_column_count(st); i++)
				buf_printf(&b, "%s%s", i ? "|" : "",
				    sqlite3_column_text(st, i) ? (const char *)
				    sqlite3_column_text(st, i) : "NULL");
		}
		sqlite3_finalize(st);
	} else
		buf_printf(&b, "error: %s", sqlite3_errmsg(db->conn));
	if (notes != NULL)
		*notes = xstrndup(db->notes.data ? db->notes.data : "",
		    db->notes.len);
	db_close(db);
	buf_addc(&b, '\0');
	return buf_detach(&b, NULL);
}

static char *
slurp(const char *path)
{
	struct buf	b;

	buf_init(&b);
	file_read_regular(path, 1 << 24, &b);
	buf_addc(&b, '\0');
	return buf_detach(&b, NULL);
}

static void
spit(const char *path, const char *s)
{
	char	*e = NULL;

	if (file_replace(path, s, strlen(s), 0600, &e) < 0) {
		diag("%s", e);
		free(e);
	}
}

#define POST(sess, tool, rest) \
	"{\"session_id\":\"" sess "\",\"hook_event_name\":\"PostToolUse\"," \
	"\"cwd\":\"/p\",\"tool_name\":\"" tool "\"," rest "}"
#define FAIL(sess, tool, rest) \
	"{\"session_id\":\"" sess "\",\"hook_event_name\":" \
	"\"PostToolUseFailure\",\"cwd\":\"/p\",\"tool_name\":\"" tool "\"," \
	rest "}"
#define READ_A	POST("s", "Read", "\"tool_input\":{\"file_path\":\"/p/a.c\"}," \
	"\"tool_response\":{\"file\":{\"content\":\"x\"}}")
#define MAKE_BAD FAIL("s", "Bash", "\"tool_input\":{\"command\":\"make\"}," \
	"\"error\":\"make: *** No rule to make target all at /p/Makefile:12\"")
#define MAKE_OK	POST("s", "Bash", "\"tool_input\":{\"command\":\"make\"}," \
	"\"tool_response\":{\"stdout\":\"built\",\"stderr\":\"\"}")

static void
test_fold(void)
{
	char		*db = xasprintf("%s/d/reflexion.db", dir);
	char		*jp = journal_path(db), *s, *notes, *saved, *direct;
	struct stat	 st;

	ok(hook_post(db, READ_A, true, NULL) == 0, "a Read journaled");
	ok(stat(db, &st) < 0 && journal_pending(jp),
	    "no database opened, the journal holds it");
	hook_post(db, READ_A, true, NULL);
	hook_post(db, MAKE_BAD, true, NULL);
	hook_post(db, MAKE_OK, true, NULL);
	s = query(db, "SELECT type, json_extract(data, '$.tool'), "
	    "coalesce(json_extract(data, '$.count'), 1) FROM events ORDER BY id",
	    &notes);
	is_str(s, "tool_use|Read|2\ntool_error|Bash|1\ntool_use|Bash|1\n"
	    "error_resolved|Bash|1", "a reader folds: Reads collapsed, the "
	    "error resolved, in order");
	is_str(notes, "", "quietly");
	ok(!journal_pending(jp), "the journal is emptied");
	free(s);
	free(notes);
	s = query(db, "SELECT count(*) FROM error_kb WHERE error_normalized "
	    "LIKE '%No rule to make target%'", NULL);
	is_str(s, "1", "the resolution is knowledge");
	free(s);
	s = query(db, "SELECT json_extract(data, '$.error') FROM events WHERE "
	    "type = 'tool_error'", NULL);
	is_str(s, "make: *** No rule to make target all at "
	    "<project>/Makefile:12", "the error normalized by the fold");
	free(s);

	/* The same calls written directly: the same rows. */
	direct = xasprintf("%s/direct/reflexion.db", dir);
	hook_post(direct, READ_A, false, NULL);
	hook_post(direct, READ_A, false, NULL);
	hook_post(direct, MAKE_BAD, false, NULL);
	hook_post(direct, MAKE_OK, false, NULL);
	s = query(direct, "SELECT type, session_id, replace(data, "
	    "json_extract(data, '$.first_ts'), 'T') FROM events ORDER BY id",
	    NULL);
	saved = query(db, "SELECT type, session_id, replace(data, "
	    "json_extract(data, '$.first_ts'), 'T') FROM events ORDER BY id",
	    NULL);
	is_str(saved, s, "folded rows are the rows a direct write makes");
	free(s);
	free(saved);
	free(direct);

	/* A crash after COMMIT, before the journal was emptied. */
	hook_post(db, POST("c", "Bash", "\"tool_input\":{\"command\":\"ls\"}"),
	    true, NULL);
	saved = slurp(jp);
	s = query(db, "SELECT count(*) FROM events WHERE session_id = 'c'",
	    NULL);
	is_str(s, "1", "folded once");
	free(s);
	spit(jp, saved);
	hook_post(db, POST("c", "Bash", "\"tool_input\":{\"command\":\"pwd\"}"),
	    true, NULL);
	s = query(db, "SELECT json_extract(data, '$.command') FROM events "
	    "WHERE session_id = 'c' ORDER BY id", NULL);
	is_str(s, "ls\npwd", "the refolded journal: the done record skipped, "
	    "the new one folded");
	free(s);
	free(saved);

	/* A damaged journal loses nothing else and blocks nothing. */
	raw_append(jp, "RRJ1 garbage\n\xff\xfe\nRRJ1 3 0 k {}");
	hook_post(db, POST("g", "Bash", "\"tool_input\":{\"command\":\"id\"}"),
	    true, NULL);
	raw_append(jp, "RRJ1 12 0000000000000000 kk {\"v\":1,\"x\":1}\n");
	s = query(db, "SELECT count(*) FROM events WHERE session_id = 'g'",
	    &notes);
	is_str(s, "1", "the whole record after garbage is folded");
	ok(strstr(notes, "damaged record(s) skipped") != NULL,
	    "the damage is noted: %s", notes);
	ok(!journal_pending(jp), "and the journal emptied");
	free(s);
	free(notes);
	s = query(db, "SELECT count(*) FROM events", NULL);
	is_str(s, "7", "no row lost or doubled");
	free(s);

	/* Full: the hook folds and writes itself. */
	hook_post(db, POST("f", "Bash", "\"tool_input\":{\"command\":\"a\"}"),
	    true, NULL);
	if (truncate(jp, JOURNAL_MAX_BYTES) < 0)
		diag("truncate");
	raw_append(jp, "\n");
	hook_post(db, POST("f", "Bash", "\"tool_input\":{\"command\":\"b\"}"),
	    true, &notes);
	ok(!journal_pending(jp), "a full journal is folded by the hook");
	free(notes);
	s = query(db, "SELECT json_extract(data, '$.command') FROM events "
	    "WHERE session_id = 'f' ORDER BY id", NULL);
	is_str(s, "a\nb", "its records first, then the call");
	free(s);

	/* A read-only open does not fold. */
	hook_post(db, POST("r", "Bash", "\"tool_input\":{\"command\":\"r\"}"),
	    true, NULL);
	setenv("REFLEXION_DB_READONLY", "1", 1);
	s = query(db, "SELECT count(*) FROM events WHERE session_id = 'r'",
	    NULL);
	unsetenv("REFLEXION_DB_READONLY");
	is_str(s, "0", "REFLEXION_DB_READONLY: the journal waits");
	ok(journal_pending(jp), "and keeps the call");
	free(s);
	s = query(db, "SELECT count(*) FROM events WHERE session_id = 'r'",
	    NULL);
	is_str(s, "1", "folded by the next writable open");
	free(s);

	/* In slices: each one's key is where the next starts. */
	{
		struct rr_db	*h;
		bool		 more = false;
		char		*e = NULL;
		int		 k, rc;

		for (k = 0; k < 5; k++)
			hook_post(db, POST("sl", "Bash",
			    "\"tool_input\":{\"command\":\"x\"}"), true, NULL);
		h = db_new(db);
		h->folding = true;	/* opened without the fold */
		db_conn(h, DB_WRITE, &e);
		h->folding = false;
		rc = record_fold(h, 2, &more, &e);
		ok(rc == 0 && more && journal_pending(jp),
		    "a slice of 2 of 5: more wait, the journal is kept");
		rc = record_fold(h, 2, &more, &e);
		rc |= record_fold(h, 2, &more, &e);
		ok(rc == 0 && !more && !journal_pending(jp),
		    "three slices: all folded, the journal emptied");
		free(e);
		db_close(h);
		s = query(db, "SELECT count(*) FROM events WHERE session_id = "
		    "'sl'", NULL);
		is_str(s, "5", "each record once");
		free(s);
	}

	/* Switched off: written directly. */
	setenv("REFLEXION_NO_JOURNAL", "1", 1);
	hook_post(db, POST("n", "Bash", "\"tool_input\":{\"command\":\"n\"}"),
	    true, NULL);
	unsetenv("REFLEXION_NO_JOURNAL");
	ok(!journal_pending(jp), "REFLEXION_NO_JOURNAL: nothing journaled");
	free(jp);
	free(db);
}

int
main(void)
{
	char	*cmd;

	if (mkdtemp(dir) == NULL)
		return 99;
	unsetenv("REFLEXION_NO_JOURNAL");
	unsetenv("REFLEXION_DB_READONLY");
	test_framing();
	test_fold();
	cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		diag("cannot remove %s", dir);
	free(cmd);
	return done_testing();
}
