/*
 * The installed data directory (see datadir.h).  The configured paths
 * come from src/instdirs.h, which make writes from the configured
 * directories and replaces only when they change.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datadir.h"
#include "instdirs.h"
#include "xmalloc.h"

char *
datadir_configured(const char *sub)
{
	/* Joined, not formatted: printf's code is libc pages a hook need not touch. */
	return xstrjoin(RR_PKGDATADIR, "/", sub, NULL);
}

char *
datadir_path(const char *sub)
{
	char		 exe[PATH_MAX], *slash, *beside;
	const char	*rel;
	struct stat	 st;
	ssize_t		 n;

	/*
	 * One readlink() on the usual path: a program in the configured
	 * bindir uses the configured directory without looking further.
	 */
	if (RR_BIN_TO_PKGDATA[0] == '\0' ||
	    (n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) <= 0)
		return datadir_configured(sub);
	exe[n] = '\0';
	if ((slash = strrchr(exe, '/')) == NULL)
		return datadir_configured(sub);
	*slash = '\0';
	if (strcmp(exe, RR_BINDIR) == 0)
		return datadir_configured(sub);
	/* "../share/reflexion-rules": each ".." takes a directory off. */
	for (rel = RR_BIN_TO_PKGDATA; strncmp(rel, "..", 2) == 0 &&
	    (rel[2] == '/' || rel[2] == '\0'); rel += rel[2] ? 3 : 2) {
		if ((slash = strrchr(exe, '/')) == NULL)
			return datadir_configured(sub);
		*slash = '\0';
	}
	beside = xstrjoin(exe, *rel ? "/" : "", rel, "/", sub, NULL);
	if (stat(beside, &st) == 0 && S_ISDIR(st.st_mode))
		return beside;
	free(beside);
	return datadir_configured(sub);
}
