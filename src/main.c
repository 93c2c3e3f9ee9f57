/*
 * reflexion-rules: a rule engine for AI coding agents' hooks.
 * main() only dispatches; every subcommand returns its exit status.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <string.h>

#include "cmdargs.h"
#include "match_re.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.0.0"
#endif

static const struct cmd_entry *const commands[] = {
	&cmd_hook_entry,
	&cmd_lint_entry,
	&cmd_test_entry,
	&cmd_explain_entry,
	&cmd_compile_entry,
	&cmd_init_entry,
	&cmd_kb_entry,
	&cmd_import_entry,
	NULL
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
	const struct cmd_entry *const *c;

	if (argc < 2) {
		usage(stderr);
		return RR_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("reflexion-rules %s (PCRE2 %s)\n", PACKAGE_VERSION,
		    rr_regex_version());
		return RR_EXIT_OK;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return RR_EXIT_OK;
	}
	for (c = commands; *c; c++)
		if (strcmp((*c)->name, argv[1]) == 0)
			return (*c)->exec(argc - 2, argv + 2);
	fprintf(stderr, "reflexion-rules: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return RR_EXIT_USAGE;
}
