/*
 * reflexion-rules lint: compile rule files and print every problem with
 * its file, line, column, the source line and a caret.
 */
#include <stdlib.h>
#include <string.h>

#include "cmdargs.h"
#include "compile.h"
#include "load.h"
#include "places.h"
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
	struct rule_sources	 src;
	struct rules_request	 rq;
	struct rules_loaded	 how;
	struct rr_home		 home;
	const char		*fmt;
	char			*err, *project, *where, *note;
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
	/*
	 * Compiled now, without the cache: lint is the check one runs right
	 * after editing a rule file, and in CI, where a cache would be cold
	 * anyway; its diagnostics must come from compiling every file as it
	 * is, with no chance of a stored compile standing in; and a check
	 * writes nothing under $REFLEXION_HOME.
	 */
	src.paths = (const char **)a.rest;
	src.npaths = (size_t)a.nrest;
	home_find(&home);
	/* Without a PATH, the rules the hook of this project would load. */
	project = project_root(NULL);
	memset(&rq, 0, sizeof(rq));
	rq.sources = &src;
	rq.home = home.dir;
	rq.home_info = &home;
	rq.project = project;
	rq.mode = LOAD_FRESH;
	rq.say = SAY_NOTHING;
	rules_load(&rs, &diags, &rq, &how);
	rules_loaded_release(&how);
	where = sources_where(&src, home.dir, project);
	if (src.npaths == 0 && home.refused == NULL &&
	    (note = home_note(&home)) != NULL) {
		fputs(note, stderr);
		free(note);
	}
	if (src.npaths == 0 && rs.nfiles > 0)
		fprintf(stderr, "reflexion-rules lint: project %s; rules "
		    "looked for in %s\n", *project ? project : "(none)", where);
	home_release(&home);
	free(project);
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
	/* A check that checked nothing must not pass (CI). */
	if (rs.nfiles == 0) {
		fprintf(stderr, "reflexion-rules lint: no rule file found; "
		    "looked in %s\n", where);
		status = RR_EXIT_FAIL;
	}
	free(where);
	diag_list_release(&diags);
	ruleset_release(&rs);
	cmd_args_release(&a);
	return status;
}
