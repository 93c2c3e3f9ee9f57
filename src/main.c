/*
 * reflexion-rules: a rule engine for AI coding agents' hooks.
 * main() only dispatches; every subcommand returns its exit status.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdargs.h"
#include "match_re.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.0.0"
#endif
#ifndef PACKAGE_BUGREPORT
#define PACKAGE_BUGREPORT "the reflexion-rules issue tracker"
#endif

static const struct cmd_entry *const commands[] = {
	&cmd_hook_entry,
	&cmd_lint_entry,
	&cmd_test_entry,
	&cmd_explain_entry,
	&cmd_checkfiles_entry,
	&cmd_compile_entry,
	&cmd_rules_entry,
	&cmd_trust_entry,
	&cmd_init_entry,
	&cmd_doctor_entry,
	&cmd_kb_entry,
	&cmd_memory_entry,
	&cmd_statusline_entry,
	&cmd_import_entry,
	NULL
};

enum { MAIN_VERSION };

static const struct cmd_option main_options[] = {
	{ "version", 0, NULL, 0, MAIN_VERSION },
	{ NULL, 0, NULL, 0, 0 }
};

/* The program's own options come before the command, which parses the rest. */
static const struct cmd_entry main_entry = {
	.name = "",
	.options = main_options,
	.verbs = commands,
};

static void
usage(FILE *fp)
{
	const struct cmd_entry *const *c;

	fprintf(fp, "usage: reflexion-rules COMMAND [ARGS]\n\n");
	for (c = commands; *c; c++) {
		fprintf(fp, "  %-8s ", (*c)->name);
		cmd_print_synopsis(*c, fp);
		fputc('\n', fp);
	}
	fprintf(fp, "\n  --version  print the version\n"
	    "  --help     print this help\n\nSee reflexion-rules(1) and "
	    "reflexion-rules(5).\n");
}

int
main(int argc, char **argv)
{
	struct cmd_args		 a;
	const struct cmd_entry	*c;
	char			*err;
	int			 status;

	if (cmd_args_parse(&main_entry, argc - 1, argv + 1, &a, &err) < 0) {
		fprintf(stderr, "reflexion-rules: %s\n", err);
		free(err);
		usage(stderr);
		return RR_EXIT_USAGE;
	}
	if (a.help || (a.nrest > 0 && strcmp(a.rest[0], "help") == 0)) {
		usage(stdout);
		status = RR_EXIT_OK;
	} else if (cmd_args_has(&a, MAIN_VERSION)) {
		printf("reflexion-rules %s (PCRE2 %s)\nReport bugs to %s.\n",
		    PACKAGE_VERSION, rr_regex_version(), PACKAGE_BUGREPORT);
		status = RR_EXIT_OK;
	} else if (a.nrest == 0) {
		usage(stderr);
		status = RR_EXIT_USAGE;
	} else if ((c = cmd_find_verb(&main_entry, a.rest[0])) == NULL) {
		fprintf(stderr, "reflexion-rules: unknown command '%s'\n",
		    a.rest[0]);
		usage(stderr);
		status = RR_EXIT_USAGE;
	} else
		status = c->exec(a.nrest - 1, a.rest + 1);
	cmd_args_release(&a);
	return status;
}
