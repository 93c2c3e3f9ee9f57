/*
 * The queries rules make of a parsed command (see shellwords.h): its
 * subcommand, past the global options of a few known programs, and
 * whether it has an option.  They read a finished struct sh_cmd only.
 */
#include <string.h>

#include "shellwords.h"
#include "strset.h"

struct global_opts {
	const char		*program;
	const char *const	*with_value;
};

static const char *const git_opts[] = {
	"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env",
	"--super-prefix", NULL
};
static const char *const docker_opts[] = {
	"-H", "--host", "--config", "--context", "-c", "-l", "--log-level",
	NULL
};
static const char *const kubectl_opts[] = {
	"-n", "--namespace", "--context", "--kubeconfig", "-s", "--server",
	"--cluster", "--user", NULL
};

static const struct global_opts global_opts[] = {
	{ "git", git_opts },
	{ "docker", docker_opts },
	{ "kubectl", kubectl_opts },
};

const char *
sh_subcommand(const struct sh_cmd *c)
{
	const char *const	*with_value = NULL;
	size_t			 i;

	for (i = 0; i < sizeof(global_opts) / sizeof(global_opts[0]); i++)
		if (strcmp(c->program, global_opts[i].program) == 0)
			with_value = global_opts[i].with_value;
	for (i = 1; i < c->argc; i++) {
		if (strcmp(c->argv[i], "--") == 0)
			return i + 1 < c->argc ? c->argv[i + 1] : NULL;
		if (c->argv[i][0] != '-' || c->argv[i][1] == '\0')
			return c->argv[i];
		if (with_value != NULL && str_in_set(c->argv[i], with_value))
			i++;
	}
	return NULL;
}

bool
sh_has_flag(const struct sh_cmd *c, const char *flag)
{
	const char	*s;
	size_t		 i, flen = strlen(flag), n;

	if (flen < 2 || flag[0] != '-')
		return false;
	for (i = 1; i < c->argc; i++) {
		s = c->argv[i];
		if (strcmp(s, "--") == 0)
			break;
		if (s[0] != '-' || s[1] == '\0')
			continue;
		if (flag[1] == '-') {			/* --long */
			n = strcspn(s, "=");
			if (n == flen && memcmp(s, flag, n) == 0)
				return true;
		} else if (flen == 2) {			/* -x in a bundle */
			if (s[1] != '-' && strchr(s + 1, flag[1]) != NULL)
				return true;
		} else if (strcmp(s, flag) == 0)	/* -word */
			return true;
	}
	return false;
}
