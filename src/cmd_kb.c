/*
 * reflexion-rules kb: the error knowledge base by hand.  add, search and
 * list for people; export and import (JSON Lines, one entry a line) so a
 * team can share a curated knowledge base through git; prune for the
 * events the retention keeps; reindex to build the search index again.
 * Writes that a damaged index fails are repaired and tried once more.  Every subcommand upgrades an old database
 * however big it is (a hook does that only for small ones).
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include <unistd.h>

#include "cmd.h"
#include "cmdargs.h"
#include "db.h"
#include "errnorm.h"
#include "event.h"
#include "fileio.h"
#include "kb.h"
#include "places.h"
#include "xmalloc.h"

#define KB_IMPORT_MAX		(256u * 1024 * 1024)
#define KB_LIST_DEFAULT		20
/* An import shows this many bad lines, then counts the rest. */
#define KB_IMPORT_SHOWN		20
/* Commands are not hooks: they may wait longer for a lock. */
#define KB_CMD_BUDGET_MS	10000

static int cmd_kb_exec(int, char **);

enum { KB_LIMIT, KB_DAYS, KB_JSON, KB_RAW };

static const struct cmd_option kb_add_options[] = {
	{ "raw", 0, NULL, 0, KB_RAW },
	{ NULL, 0, NULL, 0, 0 }
};

static const struct cmd_option kb_query_options[] = {
	{ "limit", 0, "N", 0, KB_LIMIT },
	{ "json", 0, NULL, 0, KB_JSON },
	{ NULL, 0, NULL, 0, 0 }
};

static const struct cmd_option kb_prune_options[] = {
	{ "days", 0, "N", 0, KB_DAYS },
	{ NULL, 0, NULL, 0, 0 }
};

/* The verbs; cmd_kb_exec() runs them. */
static const struct cmd_entry kb_add_verb = {
	.name = "kb add",
	.options = kb_add_options,
	.args = "ERROR [RESOLUTION]",
	.lower = 1,
	.upper = 2,
	.summary = "Add an entry to the error knowledge base, or give an "
	    "existing one a new RESOLUTION.  ERROR is normalized first unless "
	    "--raw.",
};

static const struct cmd_entry kb_search_verb = {
	.name = "kb search",
	.options = kb_query_options,
	.args = "TEXT",
	.lower = 1,
	.upper = 1,
	.summary = "Print the entries whose error contains TEXT, newest "
	    "first; 20 at most unless --limit says otherwise (0: all).  "
	    "--json prints the export format.  Exit 1 when there is none.",
};

static const struct cmd_entry kb_list_verb = {
	.name = "kb list",
	.options = kb_query_options,
	.summary = "Print the entries, newest first; 20 at most unless "
	    "--limit says otherwise (0: all).  --json prints the export "
	    "format.",
};

static const struct cmd_entry kb_delete_verb = {
	.name = "kb delete",
	.args = "ID...",
	.lower = 1,
	.upper = -1,
	.summary = "Delete the entries of these ids (the #N that 'kb list' "
	    "and 'kb search' print).  Exit 1 when one of them is not there.",
};

static const struct cmd_entry kb_import_verb = {
	.name = "kb import",
	.args = "[FILE]",
	.upper = 1,
	.summary = "Merge the JSON Lines of FILE (standard input without it, "
	    "or with -) into the knowledge base, as 'kb export' writes them.",
};

static const struct cmd_entry kb_export_verb = {
	.name = "kb export",
	.args = "[FILE]",
	.upper = 1,
	.summary = "Write every entry as JSON Lines, sorted by error text, "
	    "to FILE (standard output without it, or with -).",
};

static const struct cmd_entry kb_prune_verb = {
	.name = "kb prune",
	.options = kb_prune_options,
	.summary = "Delete the events older than N days (default 30) and "
	    "compact the search index.",
};

static const struct cmd_entry kb_reindex_verb = {
	.name = "kb reindex",
	.summary = "Drop the search index and build it again from the "
	    "entries.",
};

static const struct cmd_entry *const kb_verbs[] = {
	&kb_add_verb,
	&kb_search_verb,
	&kb_list_verb,
	&kb_delete_verb,
	&kb_import_verb,
	&kb_export_verb,
	&kb_prune_verb,
	&kb_reindex_verb,
	NULL
};

const struct cmd_entry cmd_kb_entry = {
	.name = "kb",
	.args = "[OPTIONS] [ARGS]",
	.lower = 1,
	.verbs = kb_verbs,
	.summary = "Manage the error knowledge base.  import and export read "
	    "and write JSON Lines, one entry a line, so that a team can share "
	    "a curated knowledge base through git.",
	.exec = cmd_kb_exec,
};

/* A verb's arguments, as its table has them, the numbers checked. */
struct kb_args {
	const char	*pos[2];
	int		 npos;
	const char	**all;		/* every positional argument; owned */
	int		 nall;
	long		 limit;
	long		 days;
	bool		 json;
	bool		 raw;
};

static int
parse_long(const char *s, long lo, long hi, long *out)
{
	char	*end;
	long	 v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end != '\0' || end == s || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* --limit N, --days N: from 0 to a billion.  Sets *err unless it is set. */
static void
kb_number(const struct cmd_args *ca, int id, const char *name, long *out,
    char **err)
{
	const char	*v = cmd_args_get(ca, id);

	if (v != NULL && *err == NULL &&
	    parse_long(v, 0, 1000000000, out) < 0)
		*err = xasprintf("--%s needs a number", name);
}

/*
 * Parses the arguments of verb into a.  Returns -1 when the verb is to
 * run, else the exit status: its help was printed, or a usage error.
 */
static int
kb_parse(const struct cmd_entry *verb, int argc, char **argv,
    struct kb_args *a)
{
	struct cmd_args	 ca;
	char		*err = NULL;
	int		 i;

	memset(a, 0, sizeof(*a));
	a->limit = -1;
	a->days = -1;
	if (cmd_args_parse(verb, argc, argv, &ca, &err) < 0)
		return cmd_usage(verb, err);
	if (ca.help) {
		cmd_print_help(verb, stdout);
		cmd_args_release(&ca);
		return RR_EXIT_OK;
	}
	a->json = cmd_args_has(&ca, KB_JSON);
	a->raw = cmd_args_has(&ca, KB_RAW);
	kb_number(&ca, KB_LIMIT, "limit", &a->limit, &err);
	kb_number(&ca, KB_DAYS, "days", &a->days, &err);
	/* The values point into argv; only delete takes more than two. */
	for (i = 0; i < ca.nrest && i < 2; i++)
		a->pos[a->npos++] = ca.rest[i];
	a->all = xcalloc((size_t)ca.nrest + 1, sizeof(*a->all));
	for (i = 0; i < ca.nrest; i++)
		a->all[a->nall++] = ca.rest[i];
	cmd_args_release(&ca);
	if (err != NULL)
		return cmd_usage(&cmd_kb_entry, err);
	return -1;
}

/* The data directory, found once a verb is known to run (cmd_kb_exec). */
static const char *kb_home;

static struct rr_db *
open_db(void)
{
	struct rr_db	*db;
	char		*path = db_default_path(kb_home);

	db = db_new(path);
	if (getenv("REFLEXION_DB_BUDGET_MS") == NULL)
		db->budget_ms = KB_CMD_BUDGET_MS;
	db->migrate_limit = 0;
	free(path);
	return db;
}

/* Prints the database's notes; closes it; returns status. */
static int
finish(struct rr_db *db, int status)
{
	fwrite(db->notes.data, 1, db->notes.len, stderr);
	db_close(db);
	return status;
}

/* Says why a kb command failed; frees err; closes db. */
static int
fail_with(struct rr_db *db, char *err)
{
	fprintf(stderr, "reflexion-rules kb: %s\n", err);
	free(err);
	return finish(db, RR_EXIT_USAGE);
}

static void
print_indented(const char *label, const char *s)
{
	printf("  %s: ", label);
	for (; *s; s++) {
		putchar(*s);
		if (*s == '\n' && s[1] != '\0')
			printf("    ");
	}
	putchar('\n');
}

static void
print_rows(const struct kb_rows *rows, bool json)
{
	char	*line;
	size_t	 i;

	for (i = 0; i < rows->n; i++) {
		if (json) {
			line = kb_export_entry(&rows->v[i]);
			printf("%s\n", line);
			free(line);
			continue;
		}
		printf("#%lld  last used %s  uses %lld\n", rows->v[i].id,
		    rows->v[i].last_used ? rows->v[i].last_used : "never",
		    rows->v[i].uses);
		print_indented("error", rows->v[i].error);
		print_indented("resolution", rows->v[i].resolution ?
		    rows->v[i].resolution : "(none)");
	}
}

static int
kb_add(struct kb_args *a)
{
	struct rr_db		*db;
	enum kb_put_result	 res;
	char			*err = NULL, *error, now[32], *proj;
	int			 attempt;

	if (a->pos[0][0] == '\0')
		return cmd_usage(&kb_add_verb, NULL);
	proj = project_root(NULL);
	error = a->raw ? xstrdup(a->pos[0]) : errnorm(a->pos[0],
	    strlen(a->pos[0]), proj, getenv("HOME"));
	free(proj);
	db = open_db();
	db_now(now);
	for (attempt = 0; attempt < 2; attempt++) {
		if (db_conn(db, DB_WRITE, &err) != NULL &&
		    db_begin(db, &err) == 0 && kb_put_merge(db, error,
		    a->npos > 1 ? a->pos[1] : NULL, now, 1, &res, &err) == 0 &&
		    db_commit(db, &err) == 0)
			break;
		db_rollback(db);
		/* A damaged index fails error_kb's triggers: repair, again. */
		if (attempt > 0 || !db_repaired_for_retry(db, &err))
			break;
	}
	if (err != NULL) {
		fprintf(stderr, "reflexion-rules kb: %s\n", err);
		free(err);
		free(error);
		return finish(db, RR_EXIT_USAGE);
	}
	printf("%s: %s\n", res == KB_ADDED ? "added" : res == KB_UPDATED ?
	    "updated" : "unchanged", error);
	free(error);
	return finish(db, RR_EXIT_OK);
}

static int
kb_query(struct kb_args *a, bool search)
{
	struct rr_db	*db;
	struct kb_rows	 rows;
	char		*err = NULL;
	size_t		 limit;
	int		 rc;

	limit = a->limit >= 0 ? (size_t)a->limit : KB_LIST_DEFAULT;
	db = open_db();
	kb_rows_init(&rows);
	if (search)
		rc = kb_file_errors(db, a->pos[0], limit ? limit : (size_t)-1,
		    KB_ANY_RESOLUTION, &rows, &err);
	else
		rc = kb_list(db, limit, &rows, &err);
	if (rc < 0) {
		fprintf(stderr, "reflexion-rules kb: %s\n", err);
		free(err);
		kb_rows_release(&rows);
		return finish(db, RR_EXIT_USAGE);
	}
	print_rows(&rows, a->json);
	/* Said on stderr, so that --json stays a list of entries. */
	if (rows.n == 0 && search)
		fprintf(stderr, "reflexion-rules kb: no entry's error contains "
		    "'%s'\n", a->pos[0]);
	else if (rows.n == 0)
		fprintf(stderr, "reflexion-rules kb: the knowledge base is "
		    "empty: errors fixed in a session are learnt with the "
		    "observe pack, or add one with 'reflexion-rules kb add'\n");
	rc = search && rows.n == 0 ? RR_EXIT_FAIL : RR_EXIT_OK;
	kb_rows_release(&rows);
	return finish(db, rc);
}

/* An id as kb list prints it: "12" or "#12". */
static int
parse_id(const char *s, long long *id)
{
	char	*end;

	if (*s == '#')
		s++;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*id = strtoll(s, &end, 10);
	return errno != 0 || *end != '\0' || *id <= 0 ? -1 : 0;
}

static int
kb_delete(struct kb_args *a)
{
	struct rr_db	*db;
	sqlite3_stmt	*st;
	char		*err = NULL;
	long long	*ids, id;
	int		 i, missing = 0, attempt;

	ids = xcalloc((size_t)a->nall, sizeof(*ids));
	for (i = 0; i < a->nall; i++)
		if (parse_id(a->all[i], &ids[i]) < 0) {
			err = xasprintf("'%s' is not an entry's id (the #N of "
			    "'kb list')", a->all[i]);
			free(ids);
			return cmd_usage(&kb_delete_verb, err);
		}
	db = open_db();
	for (attempt = 0; attempt < 2; attempt++) {
		missing = 0;
		if (db_conn(db, DB_WRITE, &err) == NULL ||
		    db_begin(db, &err) < 0)
			break;
		for (i = 0; i < a->nall && err == NULL; i++) {
			id = ids[i];
			st = db_prepare(db, "delete an entry", &err, "DELETE "
			    "FROM error_kb WHERE id = ?1", "i", id);
			if (st != NULL && db_run(db, st, "delete an entry",
			    &err) == 0 && sqlite3_changes(db->conn) == 0) {
				fprintf(stderr, "reflexion-rules kb: no entry "
				    "#%lld\n", id);
				missing++;
			}
		}
		if (err == NULL && db_commit(db, &err) == 0)
			break;
		db_rollback(db);
		/* A damaged index fails the delete trigger: repair, again. */
		if (attempt > 0 || !db_repaired_for_retry(db, &err))
			break;
	}
	free(ids);
	if (err != NULL)
		return fail_with(db, err);
	printf("%d entr%s deleted\n", a->nall - missing,
	    a->nall - missing == 1 ? "y" : "ies");
	return finish(db, missing ? RR_EXIT_FAIL : RR_EXIT_OK);
}

static int
row_cmp(const void *x, const void *y)
{
	const struct kb_row	*a = x, *b = y;
	int			 c = strcmp(a->error, b->error);

	if (c != 0)
		return c;
	return a->id < b->id ? -1 : a->id > b->id;
}

static int
kb_export(struct kb_args *a)
{
	struct rr_db	*db;
	struct kb_rows	 rows;
	struct buf	 out;
	char		*err = NULL, *line;
	size_t		 i;

	db = open_db();
	kb_rows_init(&rows);
	if (kb_list(db, 0, &rows, &err) < 0)
		return fail_with(db, err);
	buf_init(&out);
	/* Sorted by error text, so that a shared file diffs well in git. */
	if (rows.n > 1)
		qsort(rows.v, rows.n, sizeof(rows.v[0]), row_cmp);
	for (i = 0; i < rows.n; i++) {
		line = kb_export_entry(&rows.v[i]);
		buf_printf(&out, "%s\n", line);
		free(line);
	}
	kb_rows_release(&rows);
	if (a->npos == 0 || strcmp(a->pos[0], "-") == 0) {
		fd_write_all(1, out.data, out.len);
		buf_release(&out);
		return finish(db, RR_EXIT_OK);
	}
	/* A file to share: readable by all, unless the umask says otherwise. */
	if (file_replace(a->pos[0], out.data, out.len, new_file_mode(0644),
	    &err) < 0) {
		fprintf(stderr, "reflexion-rules kb: %s\n", err);
		free(err);
		buf_release(&out);
		return finish(db, RR_EXIT_USAGE);
	}
	buf_release(&out);
	return finish(db, RR_EXIT_OK);
}

static int
read_input(const char *name, char **text, size_t *len)
{
	struct buf		b;
	enum fd_read_result	r;
	int			fd = 0;

	if (name != NULL && strcmp(name, "-") != 0 &&
	    (fd = open(name, O_RDONLY | O_CLOEXEC)) < 0) {
		fprintf(stderr, "reflexion-rules kb: cannot open '%s': %s\n",
		    name, strerror(errno));
		return -1;
	}
	buf_init(&b);
	r = fd_read_all(fd, KB_IMPORT_MAX, false, &b);
	if (fd != 0)
		close(fd);
	if (r != FD_READ_OK) {
		fprintf(stderr, "reflexion-rules kb: cannot read '%s': %s\n",
		    name ? name : "-", r == FD_READ_TOO_BIG ?
		    "larger than 256 MB" : strerror(errno));
		buf_release(&b);
		return -1;
	}
	*text = buf_detach(&b, len);
	return 0;
}

/* What one pass of an import did. */
struct import_pass {
	size_t		 n[3];		/* by enum kb_put_result */
	size_t		 bad;		/* lines with errors */
	struct buf	 msgs;		/* their messages, the first few */
};

/*
 * Imports every line of text (modified in place) inside the caller's
 * transaction.  -1 and *dberr when the database itself failed (the pass
 * must not be committed), else 0.
 */
static int
import_lines(struct rr_db *db, char *text, size_t len, const char *name,
    struct import_pass *ip, char **dberr)
{
	enum kb_put_result	 res;
	char			*p, *nl, *err = NULL;
	size_t			 lineno = 0;
	cJSON			*j;

	for (p = text; p < text + len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(text + len - p));
		if (nl == NULL)
			nl = text + len;
		lineno++;
		*nl = '\0';
		if (strspn(p, " \t\r") == (size_t)(nl - p))
			continue;
		json_fix_escapes(p, (size_t)(nl - p));
		j = cJSON_ParseWithLength(p, (size_t)(nl - p));
		if (j == NULL)
			err = xstrdup("not a JSON object");
		else if (kb_import_entry(db, j, &res, &err) == 0)
			ip->n[res]++;
		cJSON_Delete(j);
		if (err == NULL)
			continue;
		/* The database failed, not the line: the pass is over. */
		if (db->failed || db_index_broken(db)) {
			*dberr = err;
			return -1;
		}
		if (ip->bad++ < KB_IMPORT_SHOWN)
			buf_printf(&ip->msgs, "%s:%zu: %s\n", name, lineno,
			    err);
		free(err);
		err = NULL;
	}
	return 0;
}

static int
kb_import(struct kb_args *a)
{
	struct rr_db		*db;
	struct import_pass	 ip;
	const char		*name = a->npos ? a->pos[0] : "-";
	char			*text, *work, *err = NULL;
	size_t			 len;
	int			 rc, attempt;

	if (read_input(a->npos ? a->pos[0] : NULL, &text, &len) < 0)
		return RR_EXIT_USAGE;
	db = open_db();
	memset(&ip, 0, sizeof(ip));
	buf_init(&ip.msgs);
	for (attempt = 0; attempt < 2; attempt++) {
		memset(ip.n, 0, sizeof(ip.n));
		ip.bad = 0;
		buf_reset(&ip.msgs);
		if (db_conn(db, DB_WRITE, &err) == NULL ||
		    db_begin(db, &err) < 0)
			break;
		work = xmemdup0(text, len);
		rc = import_lines(db, work, len, name, &ip, &err);
		free(work);
		if (rc == 0 && db_commit(db, &err) == 0)
			break;
		db_rollback(db);
		/* A damaged index fails every insert: repair, then again. */
		if (attempt > 0 || !db_repaired_for_retry(db, &err))
			break;
	}
	free(text);
	fwrite(ip.msgs.data, 1, ip.msgs.len, stderr);
	buf_release(&ip.msgs);
	if (ip.bad > KB_IMPORT_SHOWN)
		fprintf(stderr, "%s: %zu more lines with errors\n", name,
		    ip.bad - KB_IMPORT_SHOWN);
	if (err != NULL)
		return fail_with(db, err);
	printf("%zu added, %zu updated, %zu unchanged%s", ip.n[KB_ADDED],
	    ip.n[KB_UPDATED], ip.n[KB_UNCHANGED], ip.bad ? "" : "\n");
	if (ip.bad)
		printf(", %zu line%s with errors\n", ip.bad, ip.bad == 1 ? "" :
		    "s");
	return finish(db, ip.bad ? RR_EXIT_FAIL : RR_EXIT_OK);
}

static int
kb_prune(struct kb_args *a)
{
	struct rr_db	*db;
	sqlite3_stmt	*st = NULL;
	char		*err = NULL, cutoff[32];
	int		 days = a->days >= 0 ? (int)a->days : 30;

	db_days_ago(days, cutoff);
	db = open_db();
	if (db_conn(db, DB_WRITE, &err) == NULL)
		goto fail;
	st = db_prepare(db, "prune the events", &err, "DELETE FROM events "
	    "WHERE ts < ?1", "t", cutoff);
	if (st == NULL || db_run(db, st, "prune the events", &err) < 0)
		goto fail;
	printf("%d events older than %d days pruned\n",
	    sqlite3_changes(db->conn), days);
	/* Merge the index's segments and give the space back to the file. */
	if (db_exec(db, "INSERT INTO error_kb_fts(error_kb_fts) VALUES "
	    "('optimize'); PRAGMA wal_checkpoint(TRUNCATE);", &err) < 0) {
		/* Building the index again is also the optimization. */
		if (!db_repaired_for_retry(db, &err))
			goto fail;
	}
	return finish(db, RR_EXIT_OK);
fail:
	return fail_with(db, err);
}

/* Drops the search index and builds it again from the rows. */
static int
kb_reindex(void)
{
	struct rr_db	*db;
	sqlite3_stmt	*st;
	char		*err = NULL;
	long long	 rows = 0;

	db = open_db();
	if (db_conn(db, DB_WRITE, &err) == NULL ||
	    db_rebuild_index(db, &err) < 0)
		goto fail;
	st = db_prepare(db, "count the knowledge base", &err, "SELECT "
	    "count(*) FROM error_kb", "");
	if (st == NULL)
		goto fail;
	if (sqlite3_step(st) == SQLITE_ROW)
		rows = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	printf("search index built again from %lld row%s\n", rows,
	    rows == 1 ? "" : "s");
	return finish(db, RR_EXIT_OK);
fail:
	return fail_with(db, err);
}

static int
cmd_kb_exec(int argc, char **argv)
{
	struct cmd_args		 top;
	struct kb_args		 a;
	const struct cmd_entry	*verb;
	struct rr_home		 home;
	char			*err, *note;
	int			 status;

	if (cmd_args_parse(&cmd_kb_entry, argc, argv, &top, &err) < 0)
		return cmd_usage(&cmd_kb_entry, err);
	if (top.help) {
		cmd_print_help(&cmd_kb_entry, stdout);
		cmd_args_release(&top);
		return RR_EXIT_OK;
	}
	if ((verb = cmd_find_verb(&cmd_kb_entry, top.rest[0])) == NULL) {
		err = xasprintf("unknown subcommand '%s'", top.rest[0]);
		cmd_args_release(&top);
		return cmd_usage(&cmd_kb_entry, err);
	}
	status = kb_parse(verb, top.nrest - 1, top.rest + 1, &a);
	cmd_args_release(&top);
	if (status >= 0) {
		free(a.all);
		return status;
	}
	home_find(&home);
	if ((kb_home = home.dir) == NULL) {
		/* Never a shared directory: no home, no knowledge base. */
		note = home_note(&home);
		fprintf(stderr, "%s", note);
		free(note);
		status = RR_EXIT_USAGE;
	} else if (verb == &kb_add_verb)
		status = kb_add(&a);
	else if (verb == &kb_search_verb)
		status = kb_query(&a, true);
	else if (verb == &kb_list_verb)
		status = kb_query(&a, false);
	else if (verb == &kb_delete_verb)
		status = kb_delete(&a);
	else if (verb == &kb_export_verb)
		status = kb_export(&a);
	else if (verb == &kb_import_verb)
		status = kb_import(&a);
	else if (verb == &kb_prune_verb)
		status = kb_prune(&a);
	else
		status = kb_reindex();
	kb_home = NULL;
	home_release(&home);
	free(a.all);
	return status;
}
