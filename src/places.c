/*
 * The data directory and the project root (see places.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "places.h"
#include "xmalloc.h"

#define CONSEQUENCE	"no user rules, packs, cache or memory"

/* What in home is checked, besides home itself. */
static const char *const home_parts[] = {
	"config.yaml", "rules", "cache", "state", "data", NULL
};

static void
refuse(struct rr_home *h, const char *path, const char *reason)
{
	h->refused = xstrdup(path);
	h->why = xasprintf("%s; the data directory is ignored: " CONSEQUENCE,
	    reason);
}

/*
 * Is what is at path this user's alone?  Absent is fine: the engine
 * creates its directories 0700.  Returns 0, or -1 having refused h.
 */
static int
check_owner(struct rr_home *h, const char *path, int top)
{
	struct stat	 st;
	char		*why;

	if (stat(path, &st) < 0) {
		if (errno == ENOENT || !top)
			return 0;
		why = xasprintf("cannot be used: %s", strerror(errno));
		refuse(h, path, why);
		free(why);
		return -1;
	}
	if (top && !S_ISDIR(st.st_mode)) {
		refuse(h, path, "is not a directory");
		return -1;
	}
	if (st.st_uid != geteuid()) {
		refuse(h, path, "is not owned by this user (chown it, or set "
		    "REFLEXION_HOME to a directory of yours)");
		return -1;
	}
	if ((st.st_mode & S_IWOTH) != 0 ||
	    ((st.st_mode & S_IWGRP) != 0 && st.st_gid != getegid())) {
		refuse(h, path, "is writable by others (chmod go-w it)");
		return -1;
	}
	return 0;
}

void
home_find(struct rr_home *h)
{
	const char	*rh = getenv("REFLEXION_HOME"), *home = getenv("HOME");
	char		*dir, *part;
	size_t		 i;

	memset(h, 0, sizeof(*h));
	if (home != NULL && *home == '\0')
		home = NULL;
	if (rh != NULL && *rh != '\0') {
		if (rh[0] == '~' && (rh[1] == '\0' || rh[1] == '/')) {
			if (home == NULL) {
				refuse(h, rh, "REFLEXION_HOME starts with ~ "
				    "and HOME is not set");
				return;
			}
			dir = xstrjoin(home, rh + 1, NULL);
		} else
			dir = xstrdup(rh);
		if (dir[0] != '/') {
			refuse(h, rh, "REFLEXION_HOME is not an absolute "
			    "path");
			free(dir);
			return;
		}
	} else if (home == NULL) {
		h->why = xstrdup("neither REFLEXION_HOME nor HOME is set: "
		    CONSEQUENCE);
		return;
	} else if (home[0] != '/') {
		refuse(h, home, "HOME is not an absolute path");
		return;
	} else
		dir = xstrjoin(home, "/.reflexion", NULL);
	if (check_owner(h, dir, 1) < 0) {
		free(dir);
		return;
	}
	for (i = 0; home_parts[i] != NULL; i++) {
		part = xstrjoin(dir, "/", home_parts[i], NULL);
		if (check_owner(h, part, 0) < 0) {
			free(part);
			free(dir);
			return;
		}
		free(part);
	}
	h->dir = dir;
}

void
home_release(struct rr_home *h)
{
	free(h->dir);
	free(h->refused);
	free(h->why);
	memset(h, 0, sizeof(*h));
}

char *
home_note(const struct rr_home *h)
{
	if (h->dir != NULL)
		return NULL;
	if (h->refused != NULL)
		return xasprintf("reflexion-rules: %s: %s\n", h->refused,
		    h->why);
	return xasprintf("reflexion-rules: %s\n", h->why);
}

/* Is there a .git in dir that this user owns, in a dir this user owns? */
static int
git_entry(const char *dir, int *trusted)
{
	struct stat	 st, dst;
	char		*git;
	int		 rc;

	git = xstrjoin(dir, dir[1] == '\0' ? "" : "/", ".git", NULL);
	rc = stat(git, &st);
	free(git);
	if (rc < 0 || !(S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)))
		return 0;
	*trusted = st.st_uid == geteuid() && stat(dir, &dst) == 0 &&
	    dst.st_uid == geteuid();
	return 1;
}

/* The git work tree holding dir (absolute), or NULL. */
static char *
git_root(const char *dir)
{
	char	*d = xstrdup(dir), *slash;
	size_t	 n;
	int	 trusted;

	/* "/a/b/" is "/a/b"; "/" stays. */
	for (n = strlen(d); n > 1 && d[n - 1] == '/'; n--)
		d[n - 1] = '\0';
	for (;;) {
		if (git_entry(d, &trusted)) {
			if (trusted)
				return d;
			break;		/* planted: not a project */
		}
		if (strcmp(d, "/") == 0)
			break;
		slash = strrchr(d, '/');
		if (slash == d)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	free(d);
	return NULL;
}

char *
project_root(const char *dir)
{
	const char	*env = getenv("CLAUDE_PROJECT_DIR");
	char		 cwd[4096], *root;

	if (env != NULL && *env != '\0')
		return xstrdup(env);
	if (dir == NULL || dir[0] != '/') {
		if (getcwd(cwd, sizeof(cwd)) == NULL)
			return xstrdup("");
		dir = cwd;
	}
	if ((root = git_root(dir)) != NULL)
		return root;
	return xstrdup(dir);
}
