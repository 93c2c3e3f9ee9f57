/*
 * reflexion-rules test: run the tests: blocks of rule files, print one line
 * per failure and a final "N passed, N failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_check.h"
#include "cmdargs.h"
#include "ruletest.h"

static int cmd_test_exec(int, char **);

enum { TEST_TAP };

static const struct cmd_option test_options[] = {
	{ "tap", 0, NULL, 0, TEST_TAP },
	{ NULL, 0, NULL, 0, 0 }
};

const struct cmd_entry cmd_test_entry = {
	.name = "test",
	.options = test_options,
	.args = "[PATH...]",
	.upper = -1,
	.summary = "Run the tests: of every rule and report failures; exit 1 "
	    "if any test fails or a rule file has errors.",
	.exec = cmd_test_exec,
};

static int
cmd_test_exec(int argc, char **argv)
{
	struct cmd_args		 a;
	struct check_set	 cs;
	struct ruletest_counts	 n;
	struct rule_sources	 src;
	char			*line, *err;
	size_t			 i, failed = 0;
	int			 status;
	bool			 tap;

	if (cmd_args_parse(&cmd_test_entry, argc, argv, &a, &err) < 0)
		return cmd_usage(&cmd_test_entry, err);
	if (a.help) {
		cmd_print_help(&cmd_test_entry, stdout);
		cmd_args_release(&a);
		return RR_EXIT_OK;
	}
	tap = cmd_args_has(&a, TEST_TAP);
	/* PATH arguments are read like --rules PATH: the same cache. */
	src.paths = (const char **)a.rest;
	src.npaths = (size_t)a.nrest;
	/* Every rule now: each one's tests are run. */
	check_load("test", &src, LOAD_CACHED, true, &cs);
	/* An error fails the run; a warning is only shown. */
	for (i = 0; i < cs.diags.n; i++) {
		if (tap) {
			line = diag_format_short(&cs.diags.items[i]);
			if (cs.diags.items[i].severity == DIAG_ERROR)
				printf("not ok %zu - %s\n", ++failed, line);
			else
				printf("# %s\n", line);
			free(line);
		} else
			diag_print_text(stdout, &cs.diags.items[i]);
	}
	memset(&n, 0, sizeof(n));
	n.failed = failed;
	ruletest_run(&cs.rs, stdout, stderr, tap, &n);
	/* The last line is a contract (CI greps it): gaps go before it. */
	if (tap)
		printf("1..%zu\n", n.passed + n.failed + n.gaps);
	else {
		if (n.gaps > 0)
			printf("%zu known gap%s\n", n.gaps,
			    n.gaps == 1 ? "" : "s");
		printf("%zu passed, %zu failed\n", n.passed, n.failed);
	}
	status = check_found("test", &cs,
	    n.failed || cs.diags.errors ? RR_EXIT_FAIL : RR_EXIT_OK);
	/* Rules without a test check nothing either (pytest: exit 5). */
	if (status == RR_EXIT_OK && n.passed + n.gaps == 0) {
		if (cs.nrules == 1)
			fprintf(stderr, "reflexion-rules test: the one rule "
			    "has no test; add tests: to it (reflexion-rules(5))"
			    "\n");
		else
			fprintf(stderr, "reflexion-rules test: none of the %zu "
			    "rules has a test; add tests: to them "
			    "(reflexion-rules(5))\n", cs.nrules);
		status = RR_EXIT_FAIL;
	}
	check_release(&cs);
	cmd_args_release(&a);
	return status;
}
