/*
 * A minimal TAP producer for unit tests, read by automake's tap-driver.sh.
 * ok(cond, fmt, ...) records one test point; done_testing() prints the plan
 * and returns the exit status (0 when every point passed).
 */
#ifndef RR_TAP_H
#define RR_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline int
tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	fflush(stdout);
	return cond;
}

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

/* A test point that cannot run here, and why. */
static inline void
skip(const char *why)
{
	printf("ok %d - # SKIP %s\n", ++tap_n, why);
	fflush(stdout);
}

/* String equality with a diagnostic showing both sides on failure. */
#define is_str(got, want, ...) do {					\
	const char *tap_g_ = (got), *tap_w_ = (want);			\
	if (!tap_ok(tap_g_ != NULL && tap_w_ != NULL &&			\
	    strcmp(tap_g_, tap_w_) == 0, __FILE__, __LINE__, __VA_ARGS__)) \
		printf("#   got:  '%s'\n#   want: '%s'\n",		\
		    tap_g_ ? tap_g_ : "(null)", tap_w_ ? tap_w_ : "(null)"); \
} while (0)

#define is_int(got, want, ...) do {					\
	long long tap_g_ = (got), tap_w_ = (want);			\
	if (!tap_ok(tap_g_ == tap_w_, __FILE__, __LINE__, __VA_ARGS__))	\
		printf("#   got:  %lld\n#   want: %lld\n", tap_g_, tap_w_); \
} while (0)

static inline int
done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
