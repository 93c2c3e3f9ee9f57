/*
 * Glob patterns in a shell command's words (see shellglob.h).  fnmatch(3)
 * with FNM_PERIOD matches one name as bash does without dotglob: a
 * leading dot only by a dot written in the pattern, never . or ..; ** is
 * * (globstar is off in a shell that runs a command line).
 */
#include <dirent.h>
#include <fnmatch.h>
#include <string.h>

#include "buf.h"
#include "shellglob.h"

bool
sh_is_pattern(const char *word)
{
	return strpbrk(word, "*?[") != NULL;
}

size_t
sh_arg_globs(const char *path, const char *home, struct arena *a,
    const char **out, size_t max)
{
	const char	*root = NULL, *seg, *rest;
	struct buf	 dir, name;
	struct dirent	*de;
	DIR		*d;
	size_t		 rootlen = 0, n = 0, seen = 0, seglen;

	if (max == 0 || !sh_is_pattern(path))
		return 0;
	if (path[0] == '~' && (path[1] == '/' || path[1] == '\0'))
		rootlen = 1;
	else if (strncmp(path, "$HOME", 5) == 0 &&
	    (path[5] == '/' || path[5] == '\0'))
		rootlen = 5;
	else if (path[0] != '/')
		return 0;
	if (rootlen > 0) {
		if (home == NULL || home[0] != '/')
			return 0;
		root = home;
	}
	/* The first segment with a pattern: [seg, rest). */
	for (seg = path + rootlen;; seg = rest) {
		while (*seg == '/')
			seg++;
		if (*seg == '\0')
			return 0;
		rest = seg + strcspn(seg, "/");
		seglen = (size_t)(rest - seg);
		if (memchr(seg, '*', seglen) || memchr(seg, '?', seglen) ||
		    memchr(seg, '[', seglen))
			break;
	}
	buf_init(&dir);
	buf_init(&name);
	if (root != NULL)
		buf_adds(&dir, root);
	buf_add(&dir, path + rootlen, (size_t)(seg - path - rootlen));
	if (dir.len == 0)
		buf_addc(&dir, '/');
	buf_add(&name, seg, seglen);	/* the pattern, NUL-terminated */
	if ((d = opendir(dir.data)) != NULL) {
		while (n < max && seen++ < SH_GLOB_SCAN &&
		    (de = readdir(d)) != NULL) {
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0 ||
			    fnmatch(name.data, de->d_name, FNM_PERIOD) != 0)
				continue;
			out[n++] = arena_printf(a, "%.*s%s%s",
			    (int)(seg - path), path, de->d_name, rest);
		}
		closedir(d);
	}
	buf_release(&dir);
	buf_release(&name);
	return n;
}
