/*
 * Programs on PATH, and this one (see progpath.h).
 */
#define _XOPEN_SOURCE 700	/* realpath() */

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "progpath.h"
#include "xmalloc.h"

char *
progpath_find(const char *name)
{
	const char	*path = getenv("PATH"), *p, *end;
	char		*f;
	struct stat	 st;

	if (path == NULL)
		return NULL;
	for (p = path; ; p = end + 1) {
		if ((end = strchr(p, ':')) == NULL)
			end = p + strlen(p);
		f = xasprintf("%.*s%s%s", (int)(end - p), p, end > p ? "/" : "",
		    name);
		if (stat(f, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(f, X_OK) == 0)
			return f;
		free(f);
		if (*end == '\0')
			return NULL;
	}
}

char *
progpath_self(void)
{
	return realpath("/proc/self/exe", NULL);
}
