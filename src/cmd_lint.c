/*
 * reflexion-rules lint: compile rule files and print every problem with
 * its file, line, column, the source line and a caret.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd_common.h"
#include "cmdargs.h"
#include "compile.h"
#include "xmalloc.h"

static int cmd_lint_exec(int, char **);

enum { LINT_FORMAT };

static const struct cmd_option lint_options[] = {
	{ "format", 0, "text|json|github", 0, LINT_FORMAT },
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
	struct ruleset		 rs;
	struct diag_list	 diags;
	const char		*fmt;
	char			*home, *err;
	size_t			 i, nrules = 0, warnings = 0;
	int			 status;

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
	    strcmp(fmt, "github")) {
		fprintf(stderr, "reflexion-rules lint: unknown format '%s' "
		    "(text, json or github)\n", fmt);
		cmd_args_release(&a);
		return RR_EXIT_USAGE;
	}
	ruleset_init(&rs);
	diag_list_init(&diags);
	if (a.nrest > 0) {
		for (i = 0; i < (size_t)a.nrest; i++)
			ruleset_add_path(&rs, a.rest[i], LAYER_CLI, &diags);
	} else {
		home = reflexion_home();
		sources_load(&rs, NULL, home, project_dir(NULL), &diags);
		free(home);
	}
	diag_sort(&diags);
	for (i = 0; i < rs.n; i++)
		nrules++;
	for (i = 0; i < diags.n; i++)
		if (diags.items[i].severity == DIAG_WARNING)
			warnings++;
	if (strcmp(fmt, "json") == 0)
		diag_print_json(stdout, &diags);
	else if (strcmp(fmt, "github") == 0)
		diag_print_github(stdout, &diags);
	else {
		for (i = 0; i < diags.n; i++)
			diag_print_text(stdout, &diags.items[i]);
		if (diags.errors || warnings)
			printf("%zu error%s, %zu warning%s\n", diags.errors,
			    diags.errors == 1 ? "" : "s", warnings,
			    warnings == 1 ? "" : "s");
		else
			printf("ok: %zu rule%s in %zu file%s\n", nrules,
			    nrules == 1 ? "" : "s", rs.nfiles,
			    rs.nfiles == 1 ? "" : "s");
	}
	status = diags.errors ? RR_EXIT_FAIL : RR_EXIT_OK;
	diag_list_release(&diags);
	ruleset_release(&rs);
	cmd_args_release(&a);
	return status;
}
