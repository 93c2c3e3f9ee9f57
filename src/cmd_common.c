#include <stdlib.h>
#include <string.h>

#include "cmd_common.h"
#include "xmalloc.h"

void
cmd_print_help(const struct cmd_entry *e, FILE *fp)
{
	fprintf(fp, "usage: reflexion-rules %s %s\n\n%s\n\nSee "
	    "reflexion-rules(1).\n", e->name, e->usage, e->summary);
}

int
cmd_usage(const struct cmd_entry *e)
{
	fprintf(stderr, "usage: reflexion-rules %s %s\n", e->name, e->usage);
	return RR_EXIT_USAGE;
}

/* Accepts "--name VALUE" and "--name=VALUE". */
static const char *
option_value(const char *name, int argc, char **argv, int *i, int *bad)
{
	size_t	n = strlen(name);

	if (strncmp(argv[*i], name, n) != 0)
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		*bad = 1;
		return NULL;
	}
	return argv[++*i];
}

int
common_args_parse(const struct cmd_entry *e, int argc, char **argv,
    unsigned flags, struct common_args *a)
{
	const char	*v;
	int		 i, bad = 0, dashdash = 0;

	memset(a, 0, sizeof(*a));
	a->rest = xcalloc((size_t)argc + 1, sizeof(*a->rest));
	a->sources.paths = xcalloc((size_t)argc + 1,
	    sizeof(*a->sources.paths));
	for (i = 0; i < argc; i++) {
		if (dashdash || argv[i][0] != '-' || argv[i][1] == '\0') {
			if (!(flags & ARGS_POSITIONAL)) {
				fprintf(stderr, "reflexion-rules %s: unexpected "
				    "argument '%s'\n", e->name, argv[i]);
				return -1;
			}
			a->rest[a->nrest++] = argv[i];
			continue;
		}
		if (strcmp(argv[i], "--") == 0) {
			dashdash = 1;
			continue;
		}
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			a->help = true;
			continue;
		}
		if ((flags & ARGS_RULES) &&
		    (v = option_value("--rules", argc, argv, &i, &bad))) {
			a->sources.paths[a->sources.npaths++] = v;
			continue;
		}
		if ((flags & ARGS_AGENT) &&
		    (v = option_value("--agent", argc, argv, &i, &bad))) {
			a->agent = v;
			continue;
		}
		if ((flags & ARGS_DEADLINE) &&
		    (v = option_value("--deadline", argc, argv, &i, &bad))) {
			a->deadline = v;
			continue;
		}
		if ((flags & ARGS_FORMAT) &&
		    (v = option_value("--format", argc, argv, &i, &bad))) {
			a->format = v;
			continue;
		}
		if ((flags & ARGS_TAP) && strcmp(argv[i], "--tap") == 0) {
			a->tap = true;
			continue;
		}
		if ((flags & ARGS_EXIT2) && strcmp(argv[i], "--exit2") == 0) {
			a->exit2 = true;
			continue;
		}
		if (bad)
			fprintf(stderr, "reflexion-rules %s: option '%s' needs "
			    "a value\n", e->name, argv[i]);
		else
			fprintf(stderr, "reflexion-rules %s: unknown option "
			    "'%s'\n", e->name, argv[i]);
		return -1;
	}
	return 0;
}

void
common_args_release(struct common_args *a)
{
	free(a->rest);
	free(a->sources.paths);
	memset(a, 0, sizeof(*a));
}
