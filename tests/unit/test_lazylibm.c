/*
 * src/lazylibm.c: a program with SQLite linked statically does not load
 * libm at start, and SQL math functions still give libm's answers (libm
 * is loaded on the first call).
 */
#include <link.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"

/* The sanitizers' runtimes load libm themselves. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

static int
find_libm(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	if (strstr(info->dlpi_name, "libm.so") != NULL)
		*(int *)arg = 1;
	return 0;
}

static int
libm_loaded(void)
{
	int	found = 0;

	dl_iterate_phdr(find_libm, &found);
	return found;
}

int
main(void)
{
	sqlite3		*db;
	sqlite3_stmt	*st;
	double		 v[5];
	int		 i, rc;

	if (SANITIZED)
		skip("libm is not loaded at start: the sanitizers load it");
	else
		ok(!libm_loaded(), "libm is not loaded at start");
	rc = sqlite3_open(":memory:", &db);
	ok(rc == SQLITE_OK, "open an in-memory database");
	rc = sqlite3_prepare_v2(db, "SELECT sin(0.5), pow(2, 10), "
	    "trunc(-2.7), atan2(1, 1), sqrt(2)", -1, &st, NULL);
	ok(rc == SQLITE_OK, "SQL math functions exist: %s",
	    sqlite3_errmsg(db));
	ok(rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW, "they run");
	for (i = 0; i < 5; i++)
		v[i] = rc == SQLITE_OK ? sqlite3_column_double(st, i) : NAN;
	sqlite3_finalize(st);
	sqlite3_close(db);
	ok(fabs(v[0] - 0.479425538604203) < 1e-12, "sin(0.5) = %.15g", v[0]);
	ok(v[1] == 1024.0, "pow(2, 10) = %g", v[1]);
	ok(v[2] == -2.0, "trunc(-2.7) = %g", v[2]);
	ok(fabs(v[3] - 0.785398163397448) < 1e-12, "atan2(1, 1) = %.15g",
	    v[3]);
	ok(fabs(v[4] - 1.4142135623731) < 1e-12, "sqrt(2) = %.15g", v[4]);
	if (SANITIZED)
		skip("libm was loaded for them: the sanitizers load it");
	else
		ok(libm_loaded(), "libm was loaded for them");
	return done_testing();
}
