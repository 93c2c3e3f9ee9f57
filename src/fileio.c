#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "xmalloc.h"

enum fd_read_result
fd_read_all(int fd, size_t max, bool drain, struct buf *out)
{
	char	chunk[65536];
	ssize_t	n;
	bool	too_big = false;

	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return FD_READ_ERROR;
		if (n == 0)
			break;
		if (!too_big && out->len + (size_t)n > max) {
			too_big = true;
			buf_reset(out);
			if (!drain)
				break;
		}
		if (!too_big)
			buf_add(out, chunk, (size_t)n);
	}
	return too_big ? FD_READ_TOO_BIG : FD_READ_OK;
}

int
fd_write_all(int fd, const void *p, size_t n)
{
	const char	*s = p;
	ssize_t		 w;

	while (n > 0) {
		w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

bool
str_has_suffix(const char *s, const char *suffix)
{
	size_t	ls = strlen(s), lf = strlen(suffix);

	return ls >= lf && strcmp(s + ls - lf, suffix) == 0;
}

int
mkdir_p(const char *dir, char **err)
{
	char	*p, *s = xstrdup(dir), c;

	for (p = s + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		c = *p;
		*p = '\0';
		if (mkdir(s, 0700) < 0 && errno != EEXIST) {
			*err = xasprintf("cannot create directory '%s': %s", s,
			    strerror(errno));
			free(s);
			return -1;
		}
		*p = c;
		if (c == '\0')
			break;
	}
	free(s);
	return 0;
}
