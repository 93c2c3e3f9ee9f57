/*
 * Running the tests: blocks of rules.  Each test's event is completed with
 * defaults from its rule (hook_event_name from `on`, tool_name from the
 * first exact tool, a session id and cwd), parsed like a real event, and
 * evaluated against that rule alone with fresh state.  A test may check
 * the message (message_contains), bring files (files), or document a
 * known gap: its expectation is the miss, counted apart from passes.
 */
#ifndef RR_RULETEST_H
#define RR_RULETEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "rule.h"

/* The project directory tests run in; test paths are relative to it. */
#define RULETEST_CWD	"/project"

struct ruletest_counts {
	size_t	passed;
	size_t	failed;		/* failures, and known gaps now closed */
	size_t	gaps;		/* known gaps still there */
};

/* The outcome of one test against its expectations. */
enum ruletest_verdict {
	V_PASS,
	V_FAIL,
	V_GAP,		/* a known gap, still there */
	V_GAP_CLOSED	/* a known gap that no longer holds: update the test */
};

/* One test run; everything borrowed for the time of the callback. */
struct ruletest_result {
	const struct rule	*rule;
	const struct rule_test	*test;
	size_t			 index;		/* of the test in its rule */
	enum ruletest_verdict	 verdict;
	const char		*expected;	/* "deny", "none", ... */
	const char		*why;		/* the failure, or "" */
};

typedef void (*ruletest_report_fn)(void *arg, const struct ruletest_result *,
    const struct ruletest_counts *so_far);

/*
 * Runs every test of every rule (the built-in pack's aside), adds to the
 * counters and calls report after each, the counters updated; the
 * evaluation's notes go to errfp.
 */
void	ruletest_run_each(const struct ruleset *, FILE *errfp,
	    ruletest_report_fn report, void *arg, struct ruletest_counts *);

/*
 * Prints one line per failing test to fp (with tap, a TAP line per test,
 * numbered from the counts so far + 1; known gaps as TODO tests), and the
 * evaluation's notes (a regex at its limit) to errfp; adds to the
 * counters.  A test with `files` runs in a fresh project directory
 * under $TMPDIR holding them, removed afterwards.
 */
void	ruletest_run(const struct ruleset *, FILE *fp, FILE *errfp, bool tap,
	    struct ruletest_counts *);

#endif
