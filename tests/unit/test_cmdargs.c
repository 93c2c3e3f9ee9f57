/* The command-line parser of cmdargs.c, and the usage it prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdargs.h"
#include "tap.h"
#include "xmalloc.h"

enum { T_RULES, T_AGENT, T_EXIT2, T_NAME };

static const struct cmd_option t_options[] = {
	{ "rules", 0, "PATH", CMD_OPT_REPEAT, T_RULES },
	{ "agent", 0, "claude", 0, T_AGENT },
	{ "exit2", 0, NULL, 0, T_EXIT2 },
	{ "name", 'n', "NAME", 0, T_NAME },
	{ NULL, 0, NULL, 0, 0 }
};

static const struct cmd_entry t_entry = {
	.name = "t",
	.options = t_options,
	.args = "FILE [FILE]",
	.lower = 1,
	.upper = 2,
};

static const struct cmd_entry t_bare = {
	.name = "bare",
};

static const struct cmd_entry t_verb_a = {
	.name = "v a",
	.options = t_options + 2,
	.args = "X",
	.lower = 1,
	.upper = 1,
};

static const struct cmd_entry t_verb_b = {
	.name = "v b",
};

static const struct cmd_entry *const t_verbs[] = {
	&t_verb_a,
	&t_verb_b,
	NULL
};

static const struct cmd_entry t_verbed = {
	.name = "v",
	.args = "[ARGS]",
	.lower = 1,
	.verbs = t_verbs,
	.summary = "Verbs.",
};

static char	*argv_store[16], words[256];

/* Parses the words of line (split at spaces; "_" is an empty word). */
static int
parse(const struct cmd_entry *e, const char *line, struct cmd_args *a,
    char **err)
{
	char	*w;
	int	 argc = 0;

	snprintf(words, sizeof(words), "%s", line);
	for (w = strtok(words, " "); w != NULL && argc < 15;
	    w = strtok(NULL, " "))
		argv_store[argc++] = strcmp(w, "_") == 0 ? w + 1 : w;
	argv_store[argc] = NULL;
	return cmd_args_parse(e, argc, argv_store, a, err);
}

/* The error parsing line gives, or "ok". */
static char *
error_of(const struct cmd_entry *e, const char *line)
{
	struct cmd_args	 a;
	char		*err = NULL;

	if (parse(e, line, &a, &err) == 0) {
		cmd_args_release(&a);
		return xstrdup("ok");
	}
	return err != NULL ? err : xstrdup("(count)");
}

static char *
printed(void (*fn)(const struct cmd_entry *, FILE *),
    const struct cmd_entry *e)
{
	char	*s = NULL;
	size_t	 n = 0;
	FILE	*fp = open_memstream(&s, &n);

	fn(e, fp);
	fclose(fp);
	return s;
}

static void
check_error(const struct cmd_entry *e, const char *line, const char *want)
{
	char	*got = error_of(e, line);

	is_str(got, want, "%s '%s': %s", e->name, line, want);
	free(got);
}

int
main(void)
{
	struct cmd_args	  a;
	const char	**v;
	char		 *err, *s;
	size_t		  n;

	ok(parse(&t_entry, "--rules a --rules=b f --agent x --agent=y "
	    "--exit2", &a, &err) == 0 && err == NULL, "parses");
	v = cmd_args_values(&a, T_RULES, &n);
	ok(n == 2 && strcmp(v[0], "a") == 0 && strcmp(v[1], "b") == 0,
	    "a repeatable option keeps every value, in order");
	is_str(cmd_args_get(&a, T_RULES), "b", "get: the last value");
	is_str(cmd_args_get(&a, T_AGENT), "y", "otherwise the last one wins");
	v = cmd_args_values(&a, T_AGENT, &n);
	ok(n == 1, "and only it is kept");
	ok(cmd_args_has(&a, T_EXIT2) && !cmd_args_has(&a, T_NAME),
	    "flags: given or not");
	ok(cmd_args_get(&a, T_NAME) == NULL && cmd_args_values(&a, T_NAME,
	    &n) == NULL && n == 0, "an option not given has no value");
	ok(a.nrest == 1 && strcmp(a.rest[0], "f") == 0 && !a.help,
	    "positional arguments between options");
	cmd_args_release(&a);

	ok(parse(&t_entry, "--rules= -n N1 -nN2 -- --exit2 -", &a,
	    &err) == 0, "parses");
	is_str(cmd_args_get(&a, T_RULES), "", "--name= is an empty value");
	is_str(cmd_args_get(&a, T_NAME), "N2", "aliases: -n V and -nV");
	ok(a.nrest == 2 && strcmp(a.rest[0], "--exit2") == 0 &&
	    strcmp(a.rest[1], "-") == 0 && !cmd_args_has(&a, T_EXIT2),
	    "after --, options are arguments; - is one");
	cmd_args_release(&a);

	ok(parse(&t_entry, "--agent --exit2 f", &a, &err) == 0,
	    "a value may start with -");
	is_str(cmd_args_get(&a, T_AGENT), "--exit2", "and is taken as is");
	cmd_args_release(&a);

	ok(parse(&t_entry, "_ --agent _", &a, &err) == 0 && a.nrest == 1 &&
	    a.rest[0][0] == '\0', "an empty word is an argument");
	is_str(cmd_args_get(&a, T_AGENT), "", "and a value");
	cmd_args_release(&a);

	ok(parse(&t_entry, "-h", &a, &err) == 0 && a.help,
	    "-h: help, and no arguments needed");
	cmd_args_release(&a);
	ok(parse(&t_entry, "f --help", &a, &err) == 0 && a.help,
	    "--help anywhere");
	cmd_args_release(&a);

	check_error(&t_entry, "f --frob", "unknown option '--frob'");
	check_error(&t_entry, "f --exit2=1", "unknown option '--exit2=1'");
	check_error(&t_entry, "f --rulesx", "unknown option '--rulesx'");
	check_error(&t_entry, "f -x", "unknown option '-x'");
	check_error(&t_entry, "f --rules", "option '--rules' needs a value");
	check_error(&t_entry, "f -n", "option '-n' needs a value");
	check_error(&t_entry, "f g h", "unexpected argument 'h'");
	check_error(&t_entry, "h i --help", "ok");
	check_error(&t_entry, "--help --frob", "unknown option '--frob'");
	check_error(&t_entry, "--exit2", "(count)");
	check_error(&t_bare, "x", "unexpected argument 'x'");
	check_error(&t_bare, "--rules x", "unknown option '--rules'");
	ok(parse(&t_bare, "", &a, &err) == 0 && a.nrest == 0,
	    "no options, no arguments");
	ok(!cmd_args_has(&a, T_RULES), "has: an option not in the table");
	cmd_args_release(&a);

	ok(parse(&t_verbed, "a --exit2 x", &a, &err) == 0 && a.nrest == 3 &&
	    strcmp(a.rest[0], "a") == 0 && strcmp(a.rest[1], "--exit2") == 0,
	    "verbs: parsing stops at the verb");
	ok(cmd_find_verb(&t_verbed, a.rest[0]) == &t_verb_a &&
	    cmd_find_verb(&t_verbed, "b") == &t_verb_b &&
	    cmd_find_verb(&t_verbed, "v") == NULL, "verbs are found by word");
	cmd_args_release(&a);
	check_error(&t_verbed, "--exit2 a", "unknown option '--exit2'");
	check_error(&t_verbed, "", "(count)");
	check_error(&t_verb_a, "--rules x", "unknown option '--rules'");
	check_error(&t_verb_a, "x y", "unexpected argument 'y'");

	s = printed(cmd_print_synopsis, &t_entry);
	is_str(s, "[--rules PATH]... [--agent claude] [--exit2] "
	    "[-n|--name NAME] FILE [FILE]", "synopsis from the table");
	free(s);
	s = printed(cmd_print_synopsis, &t_verbed);
	is_str(s, "a|b [ARGS]", "synopsis of a command with verbs");
	free(s);
	s = printed(cmd_print_help, &t_verbed);
	is_str(s, "usage: reflexion-rules v a [--exit2] [-n|--name NAME] X\n"
	    "       reflexion-rules v b\n\nVerbs.\n\nSee reflexion-rules(1).\n",
	    "help lists each verb");
	free(s);
	return done_testing();
}
