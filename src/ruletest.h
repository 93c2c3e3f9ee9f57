/*
 * Running the tests: blocks of rules.  Each test's event is completed with
 * defaults from its rule (hook_event_name from `on`, tool_name from the
 * first exact tool, a session id and cwd), parsed like a real event, and
 * evaluated against that rule alone with fresh state.
 */
#ifndef RR_RULETEST_H
#define RR_RULETEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "rule.h"

/* The project directory tests run in; test paths are relative to it. */
#define RULETEST_CWD	"/project"

/*
 * Prints one line per failing test to fp (with tap, a TAP line per test,
 * numbered from *passed + *failed + 1); adds to the counters.
 */
void	ruletest_run(const struct ruleset *, FILE *fp, bool tap,
	    size_t *passed, size_t *failed);

#endif
