/*
 * The built-in variable $REFLEXION_DIRS (reflexion-rules(5), vars): path
 * globs for every directory this engine keeps its rules and data in, so
 * that a rule file (the self-protection pack first) can guard them
 * wherever this installation put them: the data directory
 * ($REFLEXION_HOME), the system layer's directory, the installed packs
 * and each pinned team directory.  Each directory D gives the glob D
 * (the directory itself: deleting or moving it) and D with the suffix
 * slash-star-star (everything in it), glob characters in D escaped; when D is reached through a
 * symbolic link, its real path gives the same two, so that a path the
 * event names through the link, or the link through another, is seen.
 *
 * The values are read while compiling (rs->places, set by the loader);
 * the globs they become are what the cache keeps.  A file's own vars:
 * entry of the same name wins, for that file only (compile_ctx.c, which
 * calls this; nothing here calls back into the compiler).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "compile_priv.h"
#include "xmalloc.h"

static void
push_glob(char ***v, size_t *n, const char *dir, const char *suffix)
{
	struct buf	 b;
	const char	*p;

	buf_init(&b);
	for (p = dir; *p != '\0'; p++) {
		if (strchr("*?[]{}\\!", *p) != NULL)
			buf_addc(&b, '\\');
		buf_addc(&b, *p);
	}
	while (b.len > 1 && b.data[b.len - 1] == '/')
		b.len--;
	/* The root itself: with the suffix it would be every file. */
	if (!(b.len == 1 && b.data[0] == '/'))
		buf_adds(&b, suffix);
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = buf_detach(&b, NULL);
}

static void
push_dir(char ***v, size_t *n, const char *dir)
{
	char	*real;

	if (dir == NULL || dir[0] != '/')
		return;
	push_glob(v, n, dir, "");
	push_glob(v, n, dir, "/**");
	real = realpath(dir, NULL);
	if (real != NULL && strcmp(real, dir) != 0 && strcmp(real, "/") != 0) {
		push_glob(v, n, real, "");
		push_glob(v, n, real, "/**");
	}
	free(real);
}

int
place_var(const struct rule_places *pl, const char *name, char ***globs,
    size_t *n)
{
	size_t	i;

	*globs = NULL;
	*n = 0;
	if (strcmp(name, "REFLEXION_DIRS") != 0)
		return 0;
	if (pl == NULL)
		return 1;
	push_dir(globs, n, pl->home);
	push_dir(globs, n, pl->system);
	push_dir(globs, n, pl->packs);
	for (i = 0; i < pl->nsources; i++)
		push_dir(globs, n, pl->sources[i]);
	return 1;
}
