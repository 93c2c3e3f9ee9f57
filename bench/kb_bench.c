/*
 * The knowledge-base lookups at scale (make bench runs it through
 * kb-run.sh): a database of ROWS error_kb rows and ROWS events is built in
 * DIR, then each query runs many times and its wall time percentiles are
 * printed as Markdown table rows, next to the same question asked the way
 * seed 000 asks it (a plain LIKE; the session lookup on tables without our
 * indexes).
 *
 *   kb_bench DIR ROWS
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "kb.h"
#include "xmalloc.h"

#define FILES		5000	/* distinct file names in the errors */
#define SESSIONS_PER	50	/* events per session */
#define ITER		200

static unsigned long long rng = 88172645463325252ULL;

static unsigned
rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static double
now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
dcmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
pct(double *v, int n, double p)
{
	qsort(v, (size_t)n, sizeof(*v), dcmp);
	return v[(int)(p * (n - 1) + 0.5)];
}

static const char *const kinds[] = {
	"TypeError: Cannot read properties of undefined (reading '%s')",
	"SyntaxError: Unexpected token '}'",
	"error TS2322: Type 'string' is not assignable to type 'number'",
	"ModuleNotFoundError: No module named '%s'",
	"Error: ENOENT: no such file or directory, open",
	"FAIL <project>/src/%s",
};

/* One error text naming a file: mostly the pool, some index.ts, some go. */
static void
error_text(char *out, size_t n, unsigned i)
{
	char		 file[64], word[32];
	unsigned	 r = rnd(100);

	if (r < 5)
		snprintf(file, sizeof(file), "src/pages/index.ts");
	else if (r < 6)
		snprintf(file, sizeof(file), "cmd/go");
	else if (rnd(10000) == 0)
		snprintf(file, sizeof(file), "cmd/qz");
	else
		snprintf(file, sizeof(file), "src/lib/mod%u.ts", rnd(FILES));
	snprintf(word, sizeof(word), "w%u", rnd(1000));
	snprintf(out, n, "%s at <project>/%s:<n>:<n> (#%u)",
	    kinds[rnd(6)], file, i);
	(void)word;
}

static int
build(const char *path, long rows)
{
	struct rr_db	*db = db_new(path);
	sqlite3_stmt	*kb, *ev;
	char		*err = NULL, text[256], when[32], data[512], sess[32];
	long		 i;

	if (db_conn(db, DB_WRITE, &err) == NULL) {
		fprintf(stderr, "kb_bench: %s\n", err);
		return -1;
	}
	sqlite3_exec(db->conn, "BEGIN", NULL, NULL, NULL);
	sqlite3_prepare_v2(db->conn, "INSERT INTO error_kb (error_normalized, "
	    "resolution, last_used, ts, use_count) VALUES (?1, ?2, ?3, ?3, 1)",
	    -1, &kb, NULL);
	sqlite3_prepare_v2(db->conn, "INSERT INTO events (ts, session_id, type, "
	    "data) VALUES (?1, ?2, ?3, ?4)", -1, &ev, NULL);
	for (i = 0; i < rows; i++) {
		error_text(text, sizeof(text), (unsigned)i);
		snprintf(when, sizeof(when), "2026-%02u-%02uT%02u:%02u:%02u.%03uZ",
		    1 + rnd(12), 1 + rnd(28), rnd(24), rnd(60), rnd(60),
		    rnd(1000));
		sqlite3_bind_text(kb, 1, text, -1, SQLITE_STATIC);
		if (rnd(10))
			sqlite3_bind_text(kb, 2, "{\"resolvedBy\":\"npm run "
			    "build\",\"tool\":\"Bash\",\"toolSequence\":[\"Read\","
			    "\"Edit\",\"Bash\"]}", -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(kb, 2);
		sqlite3_bind_text(kb, 3, when, -1, SQLITE_STATIC);
		sqlite3_step(kb);
		sqlite3_reset(kb);
		snprintf(sess, sizeof(sess), "s%ld", i / SESSIONS_PER);
		snprintf(data, sizeof(data), "{\"tool\":\"%s\",\"success\":%s,"
		    "\"error\":\"%s\"}", rnd(3) ? "Bash" : "Edit",
		    rnd(5) ? "true" : "false", rnd(5) ? "" : "boom");
		sqlite3_bind_text(ev, 1, when, -1, SQLITE_STATIC);
		sqlite3_bind_text(ev, 2, sess, -1, SQLITE_STATIC);
		sqlite3_bind_text(ev, 3, rnd(5) ? "tool_use" : "tool_error", -1,
		    SQLITE_STATIC);
		sqlite3_bind_text(ev, 4, data, -1, SQLITE_STATIC);
		sqlite3_step(ev);
		sqlite3_reset(ev);
	}
	sqlite3_finalize(kb);
	sqlite3_finalize(ev);
	/* Known session errors that the KB resolves exactly. */
	sqlite3_exec(db->conn, "INSERT INTO error_kb (error_normalized, "
	    "resolution, last_used) VALUES ('npm: command not found', "
	    "'{\"toolSequence\":[\"Bash\"]}', '2026-06-01');", NULL, NULL,
	    NULL);
	sqlite3_exec(db->conn, "COMMIT; PRAGMA wal_checkpoint(TRUNCATE); "
	    "ANALYZE;", NULL, NULL, NULL);
	db_close(db);
	return 0;
}

/* The seed's session query on tables without our indexes. */
static int
plain_session(sqlite3 *c, const char *session)
{
	sqlite3_stmt	*a, *b;
	int		 n = 0;

	sqlite3_prepare_v2(c, "SELECT json_extract(data, '$.error') AS error "
	    "FROM events NOT INDEXED WHERE type = 'tool_error' AND session_id "
	    "= ? AND json_extract(data, '$.tool') = 'Bash' ORDER BY ts DESC "
	    "LIMIT 1", -1, &a, NULL);
	sqlite3_bind_text(a, 1, session, -1, SQLITE_STATIC);
	if (sqlite3_step(a) == SQLITE_ROW) {
		sqlite3_prepare_v2(c, "SELECT error_normalized, resolution FROM "
		    "error_kb NOT INDEXED WHERE error_normalized = ? AND "
		    "resolution IS NOT NULL LIMIT 1", -1, &b, NULL);
		sqlite3_bind_value(b, 1, sqlite3_column_value(a, 0));
		while (sqlite3_step(b) == SQLITE_ROW)
			n++;
		sqlite3_finalize(b);
	}
	sqlite3_finalize(a);
	return n;
}

enum q { Q_RARE, Q_COMMON, Q_ABSENT, Q_SHORT, Q_SHORT_RARE, Q_ONE_RARE,
	Q_SESSION };
static const char *const qnames[] = {
	"file_errors, a file named in ~1/5000 of the rows",
	"file_errors, index.ts (in 5% of the rows)",
	"file_errors, a name no row holds",
	"file_errors, a 2-character name in 1% of the rows (go)",
	"file_errors, a 2-character name in 0.01% of the rows (qz)",
	"file_errors, a 1-character name in 0.01% of the rows (q)",
	"session_error",
};

static void
name_for(enum q q, char *out, size_t n)
{
	switch (q) {
	case Q_RARE:
		snprintf(out, n, "mod%u.ts", rnd(FILES));
		break;
	case Q_COMMON:
		snprintf(out, n, "index.ts");
		break;
	case Q_ABSENT:
		snprintf(out, n, "nothere%u.py", rnd(FILES));
		break;
	case Q_SHORT:
		snprintf(out, n, "go");
		break;
	case Q_SHORT_RARE:
		snprintf(out, n, "qz");
		break;
	case Q_ONE_RARE:
		snprintf(out, n, "q");
		break;
	case Q_SESSION:
		snprintf(out, n, "s%u", rnd(1000));
		break;
	}
}

/* One query kind: ours warm, ours on a new connection, the plain way. */
static void
measure(const char *path, long rows, enum q q)
{
	struct rr_db	*db = db_new(path), *fresh;
	struct kb_rows	 r;
	sqlite3		*plain;
	double		 warm[ITER], cold[ITER], base[ITER], t;
	char		 name[64], how[64], *err = NULL;
	int		 i, nplain = rows >= 1000000 ? 5 : rows >= 100000 ? 20 :
			    ITER, plans[5] = { 0 };
	/* A scan of a big table is slow on both sides: fewer runs. */
	int		 iter = ITER;

	db_conn(db, DB_READ, &err);
	sqlite3_open_v2(path, &plain, SQLITE_OPEN_READONLY, NULL);
	for (i = 0; i < iter; i++) {
		name_for(q, name, sizeof(name));
		kb_rows_init(&r);
		t = now_ms();
		if (q == Q_SESSION)
			kb_session_error(db, name, "Bash", 1, &r, &err);
		else
			kb_file_errors(db, name, 2, 0, &r, &err);
		warm[i] = now_ms() - t;
		if (q != Q_SESSION)
			plans[kb_last_plan()]++;
		kb_rows_release(&r);
		/* What a hook pays: a new connection each time. */
		t = now_ms();
		fresh = db_new(path);
		if (q == Q_SESSION)
			kb_session_error(fresh, name, "Bash", 1, &r, &err);
		else
			kb_file_errors(fresh, name, 2, 0, &r, &err);
		db_close(fresh);
		cold[i] = now_ms() - t;
		kb_rows_release(&r);
	}
	for (i = 0; i < nplain; i++) {
		name_for(q, name, sizeof(name));
		t = now_ms();
		if (q == Q_SESSION)
			plain_session(plain, name);
		else {
			kb_rows_init(&r);
			kb_file_errors_scan(db, name, 2, 0, &r, &err);
			kb_rows_release(&r);
		}
		base[i] = now_ms() - t;
	}
	if (q == Q_SESSION)
		snprintf(how, sizeof(how), "index");
	else
		snprintf(how, sizeof(how), "probe %d, index %d, terms %d, "
		    "scan %d", plans[KB_PLAN_PROBE], plans[KB_PLAN_INDEX],
		    plans[KB_PLAN_TERMS], plans[KB_PLAN_SCAN]);
	printf("| %ld | %s | %.3f | %.3f | %.3f | %.2f | %.2f | %s |\n", rows,
	    qnames[q], pct(warm, iter, 0.5), pct(warm, iter, 0.95),
	    pct(cold, iter, 0.5), pct(base, nplain, 0.5),
	    pct(base, nplain, 0.95), how);
	fflush(stdout);
	sqlite3_close(plain);
	db_close(db);
}

int
main(int argc, char **argv)
{
	struct stat	 st;
	char		*path;
	long		 rows;
	double		 t;
	int		 q;

	if (argc != 3 || (rows = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: kb_bench DIR ROWS\n");
		return 2;
	}
	path = xasprintf("%s/kb-%ld.db", argv[1], rows);
	unlink(path);
	t = now_ms();
	if (build(path, rows) < 0)
		return 1;
	stat(path, &st);
	/* kb-run.sh lists these lines under the table. */
	fprintf(stderr, "size: %ld rows: %.1f MB database (events and "
	    "error_kb), built in %.1f s\n", rows, st.st_size / 1048576.0,
	    (now_ms() - t) / 1000);
	for (q = Q_RARE; q <= Q_SESSION; q++)
		measure(path, rows, (enum q)q);
	if (getenv("KB_BENCH_KEEP") == NULL)
		unlink(path);
	free(path);
	return 0;
}
