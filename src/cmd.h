/*
 * Subcommands.  Each cmd_*.c exports one const struct cmd_entry; main.c
 * holds the table.  exec() returns the process exit status (see
 * enum rr_exit); nothing below main.c calls exit().
 */
#ifndef RR_CMD_H
#define RR_CMD_H

enum rr_exit {
	RR_EXIT_OK = 0,
	RR_EXIT_FAIL = 1,	/* lint errors, failing tests */
	RR_EXIT_USAGE = 2,	/* bad arguments, system error */
	RR_EXIT_COMPILE = 3	/* rules do not compile */
};

struct cmd_entry {
	const char	*name;
	const char	*usage;		/* after "reflexion-rules NAME " */
	const char	*summary;
	int		(*exec)(int argc, char **argv);
};

extern const struct cmd_entry cmd_hook_entry;
extern const struct cmd_entry cmd_lint_entry;
extern const struct cmd_entry cmd_test_entry;
extern const struct cmd_entry cmd_explain_entry;
extern const struct cmd_entry cmd_init_entry;
extern const struct cmd_entry cmd_kb_entry;
extern const struct cmd_entry cmd_import_entry;
extern const struct cmd_entry cmd_compile_entry;

/* Prints "usage: reflexion-rules NAME USAGE" to stderr; returns RR_EXIT_USAGE. */
int	cmd_usage(const struct cmd_entry *);

#endif
