/*
 * Whole-file reads and writes, directories made, and file_replace() (see
 * fileio.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"

/* fd_read_all(): the first free space it reads into, and the least. */
#define FD_READ_FIRST_ROOM	16384
#define FD_READ_MIN_ROOM	4096
#include "xmalloc.h"

int
file_read_regular(const char *path, size_t max, struct buf *out)
{
	struct stat		st;
	enum fd_read_result	rr;
	int			fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return errno;
	if (fstat(fd, &st) < 0)
		err = errno;
	else if (!S_ISREG(st.st_mode))
		err = EINVAL;
	else if ((rr = fd_read_all(fd, max, false, out)) == FD_READ_ERROR)
		err = errno;
	else if (rr == FD_READ_TOO_BIG)
		err = EFBIG;
	close(fd);
	return err;
}

enum fd_read_result
fd_read_all(int fd, size_t max, bool drain, struct buf *out)
{
	size_t	room;
	ssize_t	n;
	bool	too_big = false;

	/*
	 * Straight into the buffer's free space: a chunk on the stack cost
	 * every hook call two page faults of stack touched only here.  The
	 * first room stays below malloc's mmap threshold (an event is small).
	 */
	for (;;) {
		if (out->cap - out->len < FD_READ_MIN_ROOM + 1)
			buf_grow(out, out->cap > FD_READ_FIRST_ROOM ?
			    out->cap : FD_READ_FIRST_ROOM);
		room = out->cap - out->len - 1;
		n = read(fd, out->data + out->len, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			out->data[out->len] = '\0';
			return FD_READ_ERROR;
		}
		if (n == 0)
			break;
		if (!too_big && out->len + (size_t)n > max) {
			too_big = true;
			buf_reset(out);
			if (!drain)
				break;
		}
		/* Past max, what was read lies in free space, and is dropped. */
		if (!too_big)
			out->len += (size_t)n;
	}
	out->data[out->len] = '\0';
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

int
mkdir_parent(const char *path, char **err)
{
	char	*dir = xstrdup(path), *slash = strrchr(dir, '/');
	int	 rc = 0;

	if (slash != NULL && slash != dir) {
		*slash = '\0';
		rc = mkdir_p(dir, err);
	}
	free(dir);
	return rc;
}

/*
 * Writes in page-sized pieces.  Linux caches a file in folios as large as
 * the writes that created it, and maps a whole folio on a fault: one big
 * write() made every hook that read a few pages of a 10,000-rule cache
 * map 2 MB of it.
 */
static int
write_pages(int fd, const char *p, size_t n)
{
	size_t	k;

	for (; n > 0; p += k, n -= k) {
		k = n < 4096 ? n : 4096;
		if (fd_write_all(fd, p, k) < 0)
			return -1;
	}
	return 0;
}

/*
 * Makes a rename() in dir last.  Errors are ignored: the file is replaced
 * by then, and some filesystems refuse to sync a directory (EINVAL), as
 * SQLite's unix VFS also allows for.
 */
static void
sync_dir(const char *dir)
{
	int	fd;

	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return;
	(void)fsync(fd);
	close(fd);
}

/*
 * The stamp of a new file: a modification time the file system keeps to
 * the nanosecond, tried on the empty file; false when it does not keep it.
 */
static bool
choose_stamp(int fd, struct timespec *t)
{
	struct timespec	 ts[2];
	struct stat	 st;

	clock_gettime(CLOCK_REALTIME, &ts[1]);
	/* A second back: a later write, even in this second, differs. */
	ts[1].tv_sec -= 1;
	/* Odd: coarse file system clocks make even nanoseconds. */
	ts[1].tv_nsec = (long)((((unsigned long)ts[1].tv_nsec * 2654435761UL) ^
	    ((unsigned long)getpid() * 40503UL)) % 999999999UL) | 1;
	ts[0].tv_sec = 0;
	ts[0].tv_nsec = UTIME_OMIT;
	if (futimens(fd, ts) < 0 || fstat(fd, &st) < 0 ||
	    st.st_mtim.tv_sec != ts[1].tv_sec ||
	    st.st_mtim.tv_nsec != ts[1].tv_nsec)
		return false;
	*t = ts[1];
	return true;
}

int
file_replace_stamped(const char *path, void *data, size_t len, mode_t mode,
    const struct file_stamp *stamp, char **err)
{
	const char	*base;
	char		*dir, *tmp;
	struct timespec	 ts[2];
	struct stat	 st;
	bool		 stamped = false;
	int		 fd, rc = -1;

	if ((base = strrchr(path, '/')) != NULL) {
		dir = base == path ? xstrdup("/") :
		    xstrndup(path, (size_t)(base - path));
		base++;
	} else {
		dir = xstrdup(".");
		base = path;
	}
	tmp = xasprintf("%.*s.%s.XXXXXX.tmp", (int)(base - path), path, base);
	if ((fd = mkostemps(tmp, 4, O_CLOEXEC)) < 0) {
		*err = xasprintf("cannot write in '%s': %s", dir,
		    strerror(errno));
		goto out;
	}
	if (stamp != NULL) {
		if (fstat(fd, &st) < 0)
			goto fail;
		stamped = choose_stamp(fd, &ts[1]);
		stamp->fill(stamp->arg, data, len, &st,
		    stamped ? &ts[1] : NULL);
		ts[0].tv_sec = 0;
		ts[0].tv_nsec = UTIME_OMIT;
	}
	/* mkstemp() makes the file 0600: give it its mode before the sync. */
	if (write_pages(fd, data, len) < 0 || fchmod(fd, mode) < 0 ||
	    (stamped && futimens(fd, ts) < 0) || fsync(fd) < 0)
		goto fail;
	if (close(fd) < 0) {
		*err = xasprintf("cannot write '%s': %s", path,
		    strerror(errno));
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, path) < 0) {
		*err = xasprintf("cannot replace '%s': %s", path,
		    strerror(errno));
		unlink(tmp);
		goto out;
	}
	sync_dir(dir);
	rc = 0;
	goto out;
fail:
	*err = xasprintf("cannot write '%s': %s", path, strerror(errno));
	close(fd);
	unlink(tmp);
out:
	free(tmp);
	free(dir);
	return rc;
}

int
file_replace(const char *path, const void *data, size_t len, mode_t mode,
    char **err)
{
	return file_replace_stamped(path, (void *)data, len, mode, NULL, err);
}

bool
file_is_replace_temp(const char *name)
{
	return name[0] == '.' && strlen(name) > strlen("..tmp") &&
	    str_has_suffix(name, ".tmp");
}

mode_t
new_file_mode(mode_t mode)
{
	mode_t	mask = umask(022);

	umask(mask);
	return mode & ~mask;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
dir_names(const char *dir, char ***names, size_t *n)
{
	struct dirent	*de;
	DIR		*d;
	char		**v = NULL;
	size_t		 nv = 0, cap = 0;

	*names = NULL;
	*n = 0;
	if ((d = opendir(dir)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (nv == cap) {
			cap = cap ? cap * 2 : 16;
			v = xreallocarray(v, cap, sizeof(*v));
		}
		v[nv++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (nv > 1)
		qsort(v, nv, sizeof(*v), name_cmp);
	*names = v;
	*n = nv;
	return 0;
}

void
dir_names_free(char **names, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
