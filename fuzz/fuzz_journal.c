/*
 * libFuzzer: the journal of recorded calls (journal.h) as a crash, a disk
 * or a hostile user may leave it.  The input is written as the journal
 * beside a database file, read back record by record (every record lies
 * within the file, its key within JOURNAL_KEY_MAX), and folded by opening
 * the database, as any reader does: the fold must not crash, and when it
 * succeeds the journal must be empty.  An input that starts with '{' is
 * a payload instead, framed with a good sum (newlines made spaces), so
 * that what the fold decodes is fuzzed too.  The database is started
 * afresh every few hundred inputs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "fileio.h"
#include "journal.h"
#include "monoclock.h"
#include "xmalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static char	*dir, *dbpath, *jpath;
static size_t	 runs;

static void
setup(void)
{
	char	tmpl[] = "/tmp/rr-fuzz-journal-XXXXXX";

	if (mkdtemp(tmpl) == NULL)
		abort();
	dir = xstrdup(tmpl);
	dbpath = xasprintf("%s/reflexion.db", dir);
	jpath = journal_path(dbpath);
}

static void
check_framing(void)
{
	struct journal		j;
	struct journal_rec	r;
	char			*err = NULL;

	if (journal_open(&j, jpath, monoclock_ms() + 1000, &err) < 0) {
		free(err);
		return;
	}
	while (j.fd >= 0 && journal_next(&j, &r)) {
		if (r.key < j.data || r.data + r.len > j.data + j.len ||
		    r.keylen == 0 || r.keylen > JOURNAL_KEY_MAX ||
		    memchr(r.data, '\n', r.len) != NULL)
			abort();
	}
	journal_close(&j);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rr_db	*db;
	char		*err = NULL, *side, *payload, key[JOURNAL_KEY_MAX + 1];
	size_t		 i;
	int		 rc;

	if (dir == NULL)
		setup();
	if (runs++ % 500 == 0) {
		unlink(dbpath);
		side = xasprintf("%s-wal", dbpath);
		unlink(side);
		free(side);
		side = xasprintf("%s-shm", dbpath);
		unlink(side);
		free(side);
	}
	if (size > 0 && data[0] == '{') {
		/*
		 * A payload: framed with a good sum, so that the fold's
		 * decoding, not only the framing, meets what it holds.
		 */
		payload = xmemdup0(data, size);
		for (i = 0; i < size; i++)
			if (payload[i] == '\n')
				payload[i] = ' ';
		unlink(jpath);
		journal_key(key);
		rc = journal_append(jpath, key, payload, size,
		    JOURNAL_MAX_BYTES, monoclock_ms() + 1000, &err);
		free(payload);
		free(err);
		err = NULL;
		if (rc != 0)
			return 0;
	} else if (file_replace(jpath, data, size, 0600, &err) < 0) {
		free(err);
		return 0;
	}
	check_framing();
	db = db_new(dbpath);
	if (db_conn(db, DB_WRITE, &err) == NULL)
		free(err);
	else if (!db->failed && journal_pending(jpath) &&
	    strstr(db->notes.data ? db->notes.data : "", "wait for a later "
	    "open") == NULL)
		abort();	/* folded without a word, yet not emptied */
	db_close(db);
	return 0;
}
