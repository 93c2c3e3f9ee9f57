/*
 * The queries rules make of a parsed command (see shellwords.h): its
 * subcommand, past the global options of a few known programs, and
 * whether it has an option, long options abbreviated as the program's
 * option parser accepts them.  They read a finished struct sh_cmd only.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "shellwords.h"
#include "strset.h"
#include "xmalloc.h"

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

/*
 * The long options of programs whose abbreviations rules must see: GNU
 * getopt_long and git's parse-options take any unambiguous prefix of a
 * long option (`rm --rec --for`, `git reset --har`).  A prefix of several
 * options is an error to the program: it is taken as each of them, which
 * costs nothing (the command fails anyway) and keeps a table that lags
 * the program's options from hiding one.  Only the programs listed are
 * resolved: elsewhere --for stays --for.
 */
struct long_opts {
	const char		*program;
	const char		*subcommand;	/* NULL: any */
	const char *const	*opts;		/* its long options, or NULL */
	const char		*short_vals;	/* short options that take a
						   value: a bundle ends there
						   (-bfeature is -b feature) */
};

static const char *const rm_long[] = {
	"--force", "--interactive", "--one-file-system", "--no-preserve-root",
	"--preserve-root", "--recursive", "--dir", "--verbose", "--help",
	"--version", NULL
};
static const char *const chmod_long[] = {
	"--changes", "--silent", "--quiet", "--verbose", "--no-preserve-root",
	"--preserve-root", "--reference", "--recursive", "--help", "--version",
	NULL
};
static const char *const chown_long[] = {
	"--changes", "--dereference", "--no-dereference", "--from",
	"--silent", "--quiet", "--verbose", "--no-preserve-root",
	"--preserve-root", "--reference", "--recursive", "--help", "--version",
	NULL
};
static const char *const git_reset_long[] = {
	"--quiet", "--no-quiet", "--refresh", "--no-refresh", "--mixed",
	"--soft", "--hard", "--merge", "--keep", "--recurse-submodules",
	"--no-recurse-submodules", "--patch", "--intent-to-add",
	"--pathspec-from-file", "--pathspec-file-nul", NULL
};
static const char *const git_push_long[] = {
	"--verbose", "--quiet", "--repo", "--all", "--branches", "--mirror",
	"--delete", "--tags", "--dry-run", "--porcelain", "--force",
	"--force-with-lease", "--force-if-includes", "--recurse-submodules",
	"--thin", "--receive-pack", "--exec", "--set-upstream", "--progress",
	"--prune", "--no-verify", "--verify", "--follow-tags", "--signed",
	"--atomic", "--push-option", "--ipv4", "--ipv6", NULL
};
static const char *const git_clean_long[] = {
	"--quiet", "--dry-run", "--force", "--interactive", "--exclude", NULL
};

static const struct long_opts long_opts[] = {
	{ "rm", NULL, rm_long, "" },
	{ "chmod", NULL, chmod_long, "" },
	{ "chown", NULL, chown_long, "" },
	{ "chgrp", NULL, chown_long, "" },
	{ "git", "reset", git_reset_long, "" },
	{ "git", "push", git_push_long, "o" },
	{ "git", "clean", git_clean_long, "e" },
	{ "git", "checkout", NULL, "bB" },
	{ "git", "switch", NULL, "cC" },
	{ "git", "branch", NULL, "" },
	{ "git", "commit", NULL, "mFcCt" },
	{ "git", "stash", NULL, "m" },
	{ "git", "tag", NULL, "mFu" },
};

static const struct long_opts *
find_long_opts(const struct sh_cmd *c)
{
	const char	*sub = NULL;
	size_t		 i;
	bool		 have_sub = false;

	for (i = 0; i < sizeof(long_opts) / sizeof(long_opts[0]); i++) {
		if (strcmp(c->program, long_opts[i].program) != 0)
			continue;
		if (long_opts[i].subcommand == NULL)
			return &long_opts[i];
		if (!have_sub) {
			sub = sh_subcommand(c);
			have_sub = true;
		}
		if (sub != NULL && strcmp(sub, long_opts[i].subcommand) == 0)
			return &long_opts[i];
	}
	return NULL;
}

static const char ambiguous[] = "";

/*
 * The long option that s[0..n) ("--rec") stands for in opts: itself, or
 * the one option it is a prefix of; `ambiguous` when it is a prefix of
 * several, NULL of none.
 */
static const char *
resolve_long(const char *s, size_t n, const char *const *opts)
{
	const char	*found = NULL;
	bool		 several = false;

	for (; *opts != NULL; opts++) {
		if (strncmp(*opts, s, n) != 0)
			continue;
		if ((*opts)[n] == '\0')
			return *opts;
		several = found != NULL;
		found = *opts;
	}
	return several ? ambiguous : found;
}

/*
 * git's long options that rules test and that take no value: git refuses
 * `--force=x` ("option `force' takes no value") and runs nothing.
 */
static const char *const git_no_value[] = {
	"--force", "--hard", "--soft", "--mixed", "--merge", "--keep",
	"--mirror", "--delete", "--prune", "--all", "--tags", "--dry-run",
	"--discard-changes", "--cached", "--staged", "--worktree", NULL
};

/*
 * Whether s turns git's option lng ("--force") off: --no-force, or an
 * abbreviation of it that the table resolves to lng alone (--no-har in
 * reset); git refuses an ambiguous one (push --no-forc), which then
 * cancels nothing here either.
 */
static bool
git_negates(const char *s, const char *lng, const char *const *opts)
{
	const char	*full;
	char		 buf[64];
	size_t		 n;

	if (strncmp(s, "--no-", 5) != 0 || strchr(s, '=') != NULL)
		return false;
	if (strcmp(s + 5, lng + 2) == 0)
		return true;
	n = strlen(s + 5);
	if (opts == NULL || n == 0 || n + 3 > sizeof(buf))
		return false;
	buf[0] = buf[1] = '-';
	memcpy(buf + 2, s + 5, n + 1);
	full = resolve_long(buf, n + 2, opts);
	return full != NULL && full != ambiguous && strcmp(full, lng) == 0;
}

/* Whether the bundle s (-qbfeature) holds letter before a value. */
static bool
in_bundle(const char *s, char letter, const char *vals)
{
	for (s++; *s != '\0'; s++) {
		if (*s == letter)
			return true;
		if (strchr(vals, *s) != NULL)
			return false;	/* the rest is its value */
	}
	return false;
}

bool
sh_has_flag(const struct sh_cmd *c, const char *flag)
{
	const char		*s, *full, *vals = "", *lng = NULL;
	const char *const	*opts = NULL;
	const struct long_opts	*lo;
	size_t			 i, flen = strlen(flag), n;
	bool			 find = strcmp(c->program, "find") == 0;
	bool			 git = strcmp(c->program, "git") == 0;
	bool			 on = false;

	if (flen < 2 || flag[0] != '-')
		return false;
	/*
	 * git: the last of --force (or -f) and --no-force wins, and
	 * --force=x is an error that runs nothing.
	 */
	if (git)
		lng = flag[1] == '-' ? flag : strcmp(flag, "-f") == 0 ?
		    "--force" : NULL;
	if ((lo = find_long_opts(c)) != NULL) {
		opts = flag[1] == '-' ? lo->opts : NULL;
		vals = lo->short_vals;
	}
	for (i = 1; i < c->argc; i++) {
		s = c->argv[i];
		if (strcmp(s, "--") == 0)
			break;
		/* find -exec CMD ... ;: CMD's words are not find's. */
		if (find && (strcmp(s, "-exec") == 0 ||
		    strcmp(s, "-execdir") == 0 || strcmp(s, "-ok") == 0 ||
		    strcmp(s, "-okdir") == 0)) {
			while (i + 1 < c->argc && strcmp(c->argv[i + 1], ";") &&
			    strcmp(c->argv[i + 1], "+"))
				i++;
			i++;
			continue;
		}
		if (s[0] != '-' || s[1] == '\0')
			continue;
		if (lng != NULL && git_negates(s, lng, lo != NULL ? lo->opts :
		    NULL)) {
			on = false;
			continue;
		}
		if (flag[1] == '-') {			/* --long */
			n = strcspn(s, "=");
			/* --force=x, --forc=x: git refuses it. */
			if (git && s[n] == '=' && n <= flen &&
			    memcmp(s, flag, n) == 0 &&
			    str_in_set(flag, git_no_value))
				continue;
			if (n == flen && memcmp(s, flag, n) == 0) {
				if (!git)
					return true;
				on = true;
				continue;
			}
			/*
			 * An abbreviation, where the program takes them.  One
			 * of several options (git push --forc) is refused by
			 * the program: taken as each of them, so that a table
			 * older or newer than the program opens no way round.
			 */
			if (opts != NULL && n > 2 && n < flen &&
			    memcmp(s, flag, n) == 0 &&
			    (full = resolve_long(s, n, opts)) != NULL &&
			    (strcmp(full, flag) == 0 || (full == ambiguous &&
			    str_in_set(flag, opts)))) {
				if (!git)
					return true;
				on = true;
			}
		} else if (flen == 2) {			/* -x in a bundle */
			if (s[1] != '-' && in_bundle(s, flag[1], vals)) {
				if (!git)
					return true;
				on = true;
			}
		} else if (strcmp(s, flag) == 0)	/* -word */
			return true;
	}
	return on;
}

/*
 * The end of a leading ${NAME<op>WORD} whose value is $NAME when NAME is
 * set (op :? ? :- - := =), or NULL; *namelen gets NAME's length.
 */
static const char *
param_default(const char *s, size_t *namelen)
{
	const char	*p;

	if (s[0] != '$' || s[1] != '{')
		return NULL;
	for (p = s + 2; (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
	    (*p >= '0' && *p <= '9') || *p == '_'; p++)
		;
	*namelen = (size_t)(p - s - 2);
	if (*namelen == 0)
		return NULL;
	if (*p == ':')
		p++;
	if (*p != '?' && *p != '-' && *p != '=')
		return NULL;
	return strchr(p, '}');
}

/*
 * out holds ~, ~NAME or $NAME (the root of a path that .. climbs above):
 * replaces it with the absolute directory it stands for when home tells
 * it (~ and $HOME are home, ~NAME is NAME beside it); false otherwise.
 */
static bool
absolute_root(struct buf *out, const char *home)
{
	const char	*slash;
	char		*name;
	size_t		 len;

	if (home == NULL || home[0] != '/')
		return false;
	if (strcmp(out->data, "~") == 0 || strcmp(out->data, "$HOME") == 0) {
		buf_reset(out);
		buf_adds(out, home);
	} else if (out->data[0] == '~') {
		name = xstrdup(out->data + 1);
		slash = strrchr(home, '/');
		len = (size_t)(slash - home);
		buf_reset(out);
		buf_add(out, home, len);
		buf_addc(out, '/');
		buf_adds(out, name);
		free(name);
	} else
		return false;
	while (out->len > 1 && out->data[out->len - 1] == '/')
		buf_truncate(out, out->len - 1);
	return true;
}

bool
sh_arg_path(const char *arg, const char *home, struct buf *out)
{
	const char	*p = arg, *seg, *end;
	size_t		 seglen, floor, cut, n;

	buf_reset(out);
	if ((end = param_default(p, &n)) != NULL) {
		buf_addc(out, '$');
		buf_add(out, p + 2, n);
		p = end + 1;
		if (*p != '\0' && *p != '/')
			return false;	/* ${D:-x}y: another name */
	} else if (*p == '~' || *p == '$') {
		for (seg = p; *p && *p != '/'; p++)
			;
		buf_add(out, seg, (size_t)(p - seg));
	} else if (*p != '/')
		return false;
	if (out->len == 0)
		buf_addc(out, '/');
	/* What ".." cannot drop: "/", "~" or "$NAME". */
	floor = out->len;
	while (*p) {
		while (*p == '/')
			p++;
		for (seg = p; *p && *p != '/'; p++)
			;
		seglen = (size_t)(p - seg);
		if (seglen == 0 || (seglen == 1 && seg[0] == '.'))
			continue;
		if (seglen == 2 && seg[0] == '.' && seg[1] == '.') {
			if (out->len > floor) {
				for (cut = out->len; cut > floor &&
				    out->data[cut - 1] != '/'; cut--)
					;
				if (cut > floor)
					cut--;		/* the '/' before it */
				buf_truncate(out, cut);
			} else if (out->data[0] != '/') {
				/* Above ~ or $NAME: where it stands. */
				if (!absolute_root(out, home))
					return false;
				floor = 1;
				p = seg;	/* the .. again */
			}
			continue;
		}
		if (out->data[out->len - 1] != '/')
			buf_addc(out, '/');
		buf_add(out, seg, seglen);
	}
	return strcmp(out->data, arg) != 0;
}
