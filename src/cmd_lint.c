/*
 * reflexion-rules lint: compile rule files and print every problem with
 * its file, line, column, the source line and a caret.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>

#include "cmd_check.h"
#include "cmdargs.h"
#include "color.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION	"0.0.0"
#endif

static int cmd_lint_exec(int, char **);

enum { LINT_FORMAT };

static const struct cmd_option lint_options[] = {
	{ "format", 0, "text|json|sarif|github", 0, LINT_FORMAT },
	{ NULL, 0, NULL, 0, 0 }
};

const struct cmd_entry cmd_lint_entry = {
	.name = "lint",
	.options = lint_options,
	.args = "[PATH...]",
	.upper = -1,
	.summary = "Check rule files and print every problem found, as "
	    "file:line:col: error: message [CODE].",
	.exec = cmd_lint_exec,
};

static int
cmd_lint_exec(int argc, char **argv)
{
	struct cmd_args		 a;
	struct check_set	 cs;
	struct rule_sources	 src;
	const char		*fmt;
	char			*err;
	size_t			 i, nrules = 0, warnings = 0;
	int			 status;
	bool			 color;

	if (cmd_args_parse(&cmd_lint_entry, argc, argv, &a, &err) < 0)
		return cmd_usage(&cmd_lint_entry, err);
	if (a.help) {
		cmd_print_help(&cmd_lint_entry, stdout);
		cmd_args_release(&a);
		return RR_EXIT_OK;
	}
	if ((fmt = cmd_args_get(&a, LINT_FORMAT)) == NULL)
		fmt = "text";
	if (strcmp(fmt, "text") && strcmp(fmt, "json") &&
	    strcmp(fmt, "sarif") && strcmp(fmt, "github")) {
		fprintf(stderr, "reflexion-rules lint: unknown format '%s' "
		    "(text, json, sarif or github)\n", fmt);
		cmd_args_release(&a);
		return RR_EXIT_USAGE;
	}
	/*
	 * Compiled now, without the cache: lint is the check one runs right
	 * after editing a rule file, and in CI, where a cache would be cold
	 * anyway; its diagnostics must come from compiling every file as it
	 * is, with no chance of a stored compile standing in; and a check
	 * writes nothing under $REFLEXION_HOME.
	 */
	src.paths = (const char **)a.rest;
	src.npaths = (size_t)a.nrest;
	check_load("lint", &src, LOAD_FRESH, false, &cs);
	nrules = cs.nrules;
	for (i = 0; i < cs.diags.n; i++)
		if (cs.diags.items[i].severity == DIAG_WARNING)
			warnings++;
	if (strcmp(fmt, "json") == 0)
		diag_print_json(stdout, &cs.diags);
	else if (strcmp(fmt, "sarif") == 0)
		diag_print_sarif(stdout, &cs.diags, PACKAGE_VERSION);
	else if (strcmp(fmt, "github") == 0)
		diag_print_github(stdout, &cs.diags);
	else {
		color = color_wanted(stdout);
		for (i = 0; i < cs.diags.n; i++)
			diag_print_text_color(stdout, &cs.diags.items[i],
			    color);
		if (cs.diags.errors || warnings)
			printf("%zu error%s, %zu warning%s\n", cs.diags.errors,
			    cs.diags.errors == 1 ? "" : "s", warnings,
			    warnings == 1 ? "" : "s");
		else
			printf("ok: %zu rule%s in %zu file%s\n", nrules,
			    nrules == 1 ? "" : "s", cs.nfiles,
			    cs.nfiles == 1 ? "" : "s");
	}
	status = check_found("lint", &cs,
	    cs.diags.errors ? RR_EXIT_FAIL : RR_EXIT_OK);
	check_release(&cs);
	cmd_args_release(&a);
	return status;
}
