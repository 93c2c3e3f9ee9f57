/*
 * Option parsing shared by the subcommands that read rules.
 */
#ifndef RR_CMD_COMMON_H
#define RR_CMD_COMMON_H

#include <stdbool.h>
#include <stdio.h>

#include "cmd.h"
#include "sources.h"

struct common_args {
	struct rule_sources	 sources;	/* paths point into argv */
	const char		*agent;
	const char		*format;
	const char		*deadline;	/* --deadline MS, unparsed */
	bool			 exit2;
	bool			 tap;
	bool			 help;
	char			**rest;		/* positional arguments */
	int			 nrest;
};

enum common_flags {
	ARGS_RULES = 1 << 0,	/* --rules PATH */
	ARGS_AGENT = 1 << 1,	/* --agent NAME */
	ARGS_EXIT2 = 1 << 2,	/* --exit2 */
	ARGS_FORMAT = 1 << 3,	/* --format NAME */
	ARGS_POSITIONAL = 1 << 4,
	ARGS_TAP = 1 << 5,	/* --tap */
	ARGS_DEADLINE = 1 << 6	/* --deadline MS */
};

/*
 * Parses argv (after the subcommand name).  Returns 0, or -1 after printing
 * "reflexion-rules NAME: ..." to stderr.  Free with common_args_release().
 */
int	 common_args_parse(const struct cmd_entry *, int argc, char **argv,
	     unsigned flags, struct common_args *);
void	 common_args_release(struct common_args *);
void	 cmd_print_help(const struct cmd_entry *, FILE *);

#endif
