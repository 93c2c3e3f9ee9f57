/*
 * reflexion-rules test: run the tests: blocks of rule files, print one line
 * per failure and a final "N passed, N failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdargs.h"
#include "load.h"
#include "places.h"
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
	struct ruleset		 rs;
	struct diag_list	 diags;
	struct ruletest_counts	 n;
	struct rule_sources	 src;
	struct rules_request	 rq;
	struct rules_loaded	 how;
	struct rr_home		 home;
	char			*line, *err, *project, *where;
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
	home_find(&home);
	/* Without a PATH, the rules the hook of this project would load. */
	project = project_root(NULL);
	/* Every rule now: each one's tests are run. */
	memset(&rq, 0, sizeof(rq));
	rq.sources = &src;
	rq.home = home.dir;
	rq.home_info = &home;
	rq.project = project;
	rq.say = SAY_TRACE;
	rq.all = true;
	rules_load(&rs, &diags, &rq, &how);
	if (how.notes != NULL)
		fputs(how.notes, stderr);
	rules_loaded_release(&how);
	where = sources_where(&src, home.dir, project);
	if (src.npaths == 0 && rs.nfiles > 0)
		fprintf(stderr, "reflexion-rules test: project %s; rules "
		    "looked for in %s\n", *project ? project : "(none)", where);
	home_release(&home);
	free(project);
	/* An error fails the run; a warning is only shown. */
	for (i = 0; i < diags.n; i++) {
		if (tap) {
			line = diag_format_short(&diags.items[i]);
			if (diags.items[i].severity == DIAG_ERROR)
				printf("not ok %zu - %s\n", ++failed, line);
			else
				printf("# %s\n", line);
			free(line);
		} else
			diag_print_text(stdout, &diags.items[i]);
	}
	memset(&n, 0, sizeof(n));
	n.failed = failed;
	ruletest_run(&rs, stdout, stderr, tap, &n);
	/* The last line is a contract (CI greps it): gaps go before it. */
	if (tap)
		printf("1..%zu\n", n.passed + n.failed + n.gaps);
	else {
		if (n.gaps > 0)
			printf("%zu known gap%s\n", n.gaps,
			    n.gaps == 1 ? "" : "s");
		printf("%zu passed, %zu failed\n", n.passed, n.failed);
	}
	status = n.failed || diags.errors ? RR_EXIT_FAIL : RR_EXIT_OK;
	/* A check that checked nothing must not pass (CI). */
	if (rs.nfiles == 0) {
		fprintf(stderr, "reflexion-rules test: no rule file found; "
		    "looked in %s\n", where);
		status = RR_EXIT_FAIL;
	}
	free(where);
	diag_list_release(&diags);
	ruleset_release(&rs);
	cmd_args_release(&a);
	return status;
}
