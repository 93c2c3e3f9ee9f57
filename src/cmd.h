/*
 * Subcommands.  Each cmd_*.c exports one const struct cmd_entry; main.c
 * holds the table.  The entries and option tables of the commands look
 * alike on purpose: they are data, one per command, read by cmdargs.c.  An entry carries the shape of its command line, its
 * options and positional arguments, which the one parser of cmdargs.c
 * reads and the usage and --help texts are printed from.  exec() returns
 * the process exit status (see enum rr_exit); nothing below main.c calls
 * exit().
 */
#ifndef RR_CMD_H
#define RR_CMD_H

enum rr_exit {
	RR_EXIT_OK = 0,
	RR_EXIT_FAIL = 1,	/* lint errors, failing tests */
	RR_EXIT_USAGE = 2,	/* bad arguments, system error */
	RR_EXIT_COMPILE = 3	/* rules do not compile */
};

#define CMD_OPT_REPEAT	0x1	/* every value is kept, not just the last */

/*
 * One option: --NAME, and -ALIAS when alias is set ('h' is taken by
 * help).  With a value name it takes a value, "--NAME VALUE" or
 * "--NAME=VALUE"; without, it is a flag.  The command looks its options
 * up by id, an enum of its own.  A table ends with a NULL name.
 */
struct cmd_option {
	const char	*name;
	char		 alias;
	const char	*value;		/* its name in usage; NULL: a flag */
	int		 flags;		/* CMD_OPT_* */
	int		 id;
};

/*
 * options may be NULL.  args names the positional arguments in the usage
 * line; there are lower of them at least and upper at most (-1: any).
 *
 * A command with verbs (kb) stops parsing at its first positional
 * argument, the verb, and leaves the rest to the verb's own entry; a
 * verb's name is its command's name, a space and the verb ("kb add").
 * verbs ends with NULL.  The command runs its verbs: their exec is NULL.
 */
struct cmd_entry {
	const char			 *name;
	const struct cmd_option		 *options;
	const char			 *args;
	int				  lower;
	int				  upper;
	const struct cmd_entry *const	 *verbs;
	const char			 *summary;
	int				(*exec)(int argc, char **argv);
};

extern const struct cmd_entry cmd_hook_entry;
extern const struct cmd_entry cmd_lint_entry;
extern const struct cmd_entry cmd_test_entry;
extern const struct cmd_entry cmd_explain_entry;
extern const struct cmd_entry cmd_init_entry;
extern const struct cmd_entry cmd_kb_entry;
extern const struct cmd_entry cmd_memory_entry;
extern const struct cmd_entry cmd_statusline_entry;
extern const struct cmd_entry cmd_import_entry;
extern const struct cmd_entry cmd_compile_entry;
extern const struct cmd_entry cmd_rules_entry;
extern const struct cmd_entry cmd_trust_entry;
extern const struct cmd_entry cmd_doctor_entry;
extern const struct cmd_entry cmd_checkfiles_entry;

#endif
