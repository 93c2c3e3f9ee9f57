/*
 * libFuzzer: the knowledge base's JSON Lines import (what `kb import` reads
 * from a shared file), the error normalizer, and the file-name lookup, on
 * one in-memory database.  Each input's writes are rolled back.
 *
 * A property is checked too: whatever an import stored, exporting it and
 * importing the export into an empty database gives the same export.
 */
#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "errnorm.h"
#include "event.h"
#include "kb.h"
#include "xmalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct rr_db *
open_memory(void)
{
	struct rr_db	*db = db_new(":memory:");
	char		*err = NULL;

	if (db_conn(db, DB_WRITE, &err) == NULL) {
		fprintf(stderr, "fuzz_kb: %s\n", err);
		abort();
	}
	return db;
}

/* Imports each line of text (a copy is modified); count of entries. */
static size_t
import_text(struct rr_db *db, const char *text, size_t len)
{
	enum kb_put_result	 res;
	char			*copy = xmemdup0(text, len), *p, *nl, *err;
	cJSON			*j;
	size_t			 stored = 0;

	for (p = copy; p < copy + len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(copy + len - p));
		if (nl == NULL)
			nl = copy + len;
		*nl = '\0';
		json_fix_escapes(p, (size_t)(nl - p));
		j = cJSON_ParseWithLength(p, (size_t)(nl - p));
		err = NULL;
		if (j != NULL && kb_import_entry(db, j, &res, &err) == 0)
			stored++;
		free(err);
		cJSON_Delete(j);
	}
	free(copy);
	return stored;
}

/* Every entry, exported, one line each, in id order. */
static char *
export_all(struct rr_db *db)
{
	struct kb_rows	 rows;
	struct buf	 b;
	char		*err = NULL, *line;
	size_t		 i;

	kb_rows_init(&rows);
	buf_init(&b);
	if (kb_list(db, 0, &rows, &err) < 0) {
		fprintf(stderr, "fuzz_kb: %s\n", err);
		abort();
	}
	for (i = rows.n; i-- > 0;) {
		line = kb_export_entry(&rows.v[i]);
		buf_printf(&b, "%s\n", line);
		free(line);
	}
	kb_rows_release(&rows);
	buf_addc(&b, '\0');
	return buf_detach(&b, NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rr_db	*db;
	struct rr_db		*again;
	struct kb_rows		 rows;
	char			*err = NULL, *norm, *first, *second, *name;
	const char		*nl;

	if (db == NULL)
		db = open_memory();
	if (db_begin(db, &err) < 0)
		abort();
	import_text(db, (const char *)data, size);

	/* The normalizer and the lookup, on the input's first line. */
	nl = memchr(data, '\n', size);
	norm = errnorm((const char *)data, nl ? (size_t)(nl -
	    (const char *)data) : size, "/p", "/home/u");
	name = xstrndup(norm, 40);
	kb_rows_init(&rows);
	if (kb_file_errors(db, name, 5, KB_ANY_RESOLUTION, &rows, &err) < 0) {
		fprintf(stderr, "fuzz_kb: lookup: %s\n", err);
		abort();
	}
	kb_rows_release(&rows);
	free(name);
	free(norm);

	/* Export, import into an empty database, export again: the same. */
	first = export_all(db);
	again = open_memory();
	if (db_begin(again, &err) < 0)
		abort();
	import_text(again, first, strlen(first));
	second = export_all(again);
	if (strcmp(first, second) != 0) {
		fprintf(stderr, "fuzz_kb: export/import/export differs:\n%s---\n"
		    "%s", first, second);
		abort();
	}
	free(first);
	free(second);
	db_rollback(again);
	db_close(again);
	db_rollback(db);
	return 0;
}
