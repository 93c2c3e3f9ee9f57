/*
 * The command-line parser of every subcommand, and the usage and --help
 * texts, all read from the command's struct cmd_entry (cmd.h) so that
 * what a command accepts and what it says it accepts cannot drift apart.
 *
 * The syntax: "--NAME VALUE" or "--NAME=VALUE" (a value may start with
 * '-'), "-A VALUE" or "-AVALUE" for an alias, a flag alone; "--" ends the
 * options; "-" is a positional argument; -h and --help anywhere ask for
 * help.  An option given again replaces its value, unless it is
 * CMD_OPT_REPEAT: then every value is kept, in order.
 */
#ifndef RR_CMDARGS_H
#define RR_CMDARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cmd.h"

struct cmd_optval {
	const char	**v;	/* the values (a flag: as spelled), in order */
	size_t		  n;
};

/*
 * opts has one element per row of the entry's table; rest holds the
 * positional arguments, or with verbs the verb and all that follows it.
 */
struct cmd_args {
	const struct cmd_entry	 *entry;
	struct cmd_optval	 *opts;
	char			**rest;
	int			  nrest;
	bool			  help;		/* -h or --help */
};

/*
 * Parses argv (after the command's name) against e.  Returns 0, or -1
 * with a released a and *err saying what is wrong; *err is NULL when only
 * the number of positional arguments is (the usage says it all).  The
 * values point into argv.
 */
int	 cmd_args_parse(const struct cmd_entry *e, int argc, char **argv,
	     struct cmd_args *a, char **err);
void	 cmd_args_release(struct cmd_args *);

/* By option id: given at all; its last value; all of them (NULL, 0). */
bool		 cmd_args_has(const struct cmd_args *, int id);
const char	*cmd_args_get(const struct cmd_args *, int id);
const char	**cmd_args_values(const struct cmd_args *, int id, size_t *n);

/* The verb of e called word, or NULL. */
const struct cmd_entry *cmd_find_verb(const struct cmd_entry *e,
	     const char *word);

/* What follows "reflexion-rules NAME" in a usage line. */
void	 cmd_print_synopsis(const struct cmd_entry *, FILE *);
/* The usage line (one per verb), the summary and the manual to read. */
void	 cmd_print_help(const struct cmd_entry *, FILE *);
/*
 * Prints "reflexion-rules NAME: ERR" unless err is NULL (freed), then
 * "usage: reflexion-rules NAME SYNOPSIS", to stderr.  Returns
 * RR_EXIT_USAGE.
 */
int	 cmd_usage(const struct cmd_entry *, char *err);

#endif
