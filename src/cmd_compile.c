/*
 * reflexion-rules compile: build the compiled rule cache now, so that
 * the first hook call of a session does not pay for it, and show what
 * went in.  Rule-file problems are printed as lint prints them; they are
 * stored in the cache too, so the hook reports them from there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdargs.h"
#include "load.h"
#include "places.h"
#include "xmalloc.h"

static int cmd_compile_exec(int, char **);

enum { COMPILE_RULES };

static const struct cmd_option compile_options[] = {
	{ "rules", 0, "PATH", CMD_OPT_REPEAT, COMPILE_RULES },
	{ NULL, 0, NULL, 0, 0 }
};

const struct cmd_entry cmd_compile_entry = {
	.name = "compile",
	.options = compile_options,
	.summary = "Compile the rules into the cache under "
	    "$REFLEXION_HOME/cache/ now; print where, and how many rules.",
	.exec = cmd_compile_exec,
};

static int
cmd_compile_exec(int argc, char **argv)
{
	struct cmd_args		 a;
	struct rule_sources	 src;
	struct ruleset		 rs;
	struct diag_list	 diags;
	struct rules_request	 rq;
	struct rules_loaded	 how;
	struct rr_home		 home;
	char			*err, *project, *note;
	size_t			 i;
	int			 status;

	if (cmd_args_parse(&cmd_compile_entry, argc, argv, &a, &err) < 0)
		return cmd_usage(&cmd_compile_entry, err);
	if (a.help) {
		cmd_print_help(&cmd_compile_entry, stdout);
		cmd_args_release(&a);
		return RR_EXIT_OK;
	}
	if (rules_cache_off()) {
		fprintf(stderr, "reflexion-rules compile: the cache is off "
		    "(REFLEXION_NO_CACHE is set)\n");
		cmd_args_release(&a);
		return RR_EXIT_USAGE;
	}
	home_find(&home);
	if (home.dir == NULL) {
		/* The cache lives in the data directory: nowhere to build it. */
		note = home_note(&home);
		fprintf(stderr, "%s", note);
		free(note);
		home_release(&home);
		cmd_args_release(&a);
		return RR_EXIT_USAGE;
	}
	src.paths = cmd_args_values(&a, COMPILE_RULES, &src.npaths);
	/* The hook's project is found from the event's cwd: here, this one. */
	project = project_root(NULL);
	memset(&rq, 0, sizeof(rq));
	rq.sources = &src;
	rq.home = home.dir;
	rq.home_info = &home;
	rq.project = project;
	rq.mode = LOAD_REBUILD;
	/* compile says itself what it did (stdout) or why not (stderr). */
	rq.say = SAY_NOTHING;
	rules_load(&rs, &diags, &rq, &how);
	for (i = 0; i < diags.n; i++)
		diag_print_text(stdout, &diags.items[i]);
	if (how.status == LOADED_BUILT) {
		printf("compiled %zu rule%s from %zu file%s into %s\n", rs.n,
		    rs.n == 1 ? "" : "s", rs.nfiles, rs.nfiles == 1 ? "" : "s",
		    how.path);
		if (diags.errors)
			printf("%zu error%s: the broken rules are left out, "
			    "and the hook reports them\n", diags.errors,
			    diags.errors == 1 ? "" : "s");
		status = diags.errors ? RR_EXIT_COMPILE : RR_EXIT_OK;
	} else {
		fprintf(stderr, "reflexion-rules compile: %s\n",
		    how.why ? how.why : "the cache was not written");
		status = RR_EXIT_USAGE;
	}
	rules_loaded_release(&how);
	diag_list_release(&diags);
	ruleset_release(&rs);
	free(project);
	home_release(&home);
	cmd_args_release(&a);
	return status;
}
