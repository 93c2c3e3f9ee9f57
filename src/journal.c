/*
 * The journal's file and framing (journal.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "checksum.h"
#include "fileio.h"
#include "journal.h"
#include "monoclock.h"
#include "xmalloc.h"

#define MAGIC		"RRJ1 "
#define MAGIC_LEN	5
#define SUM_LEN		16
/* The most a fold reads: far past what the appends' cap lets in. */
#define READ_MAX	(64u * 1024 * 1024)

char *
journal_path(const char *db_path)
{
	return xstrjoin(db_path, ".pending", NULL);
}

bool
journal_pending(const char *path)
{
	struct stat	st;

	return lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

bool
journal_waits(const char *db_path)
{
	char	*jp = journal_path(db_path);
	bool	 yes = journal_pending(jp);

	free(jp);
	return yes;
}

void
journal_key(char *out)
{
	static unsigned long	counter;
	struct timespec		ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(out, JOURNAL_KEY_MAX + 1, "%ld.%lld.%09ld.%lu", (long)getpid(),
	    (long long)ts.tv_sec, ts.tv_nsec, counter++);
}

/* "KEY PAYLOAD"'s sum, as the record carries it. */
static uint64_t
record_sum(const char *key, size_t keylen, const char *data, size_t len)
{
	struct buf	b;
	uint64_t	sum;

	buf_init(&b);
	buf_add(&b, key, keylen);
	buf_addc(&b, ' ');
	buf_add(&b, data, len);
	sum = rr_checksum(b.data, b.len);
	buf_release(&b);
	return sum;
}

/* flock(LOCK_EX) on fd, polling until deadline_ms. */
static int
lock_until(int fd, long long deadline_ms)
{
	struct timespec	ts = { 0, 2 * 1000 * 1000 };

	for (;;) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK)
			return -1;
		if (monoclock_ms() >= deadline_ms) {
			errno = EWOULDBLOCK;
			return -1;
		}
		nanosleep(&ts, NULL);
	}
}

int
journal_append(const char *path, const char *key, const char *payload,
    size_t len, size_t max_bytes, long long deadline_ms, char **err)
{
	struct stat	 st;
	struct buf	 rec;
	char		 last;
	int		 fd, rc = -1;
	ssize_t		 n;

	*err = NULL;
	if (memchr(payload, '\n', len) != NULL || strlen(key) == 0 ||
	    strlen(key) > JOURNAL_KEY_MAX || strchr(key, ' ') != NULL) {
		*err = xstrdup("a journal record cannot hold a newline");
		return -1;
	}
	fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW |
	    O_NONBLOCK, 0600);
	if (fd < 0 && errno == ENOENT) {
		if (mkdir_parent(path, err) < 0)
			return -1;
		fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC |
		    O_NOFOLLOW | O_NONBLOCK, 0600);
	}
	if (fd < 0) {
		*err = xasprintf("cannot open journal '%s': %s", path,
		    strerror(errno));
		return -1;
	}
	if (lock_until(fd, deadline_ms) < 0) {
		*err = xasprintf("cannot lock journal '%s': %s", path,
		    strerror(errno));
		close(fd);
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		*err = xasprintf("journal '%s' is not a regular file", path);
		goto out;
	}
	if ((size_t)st.st_size >= max_bytes) {
		rc = 1;
		goto out;
	}
	buf_init(&rec);
	/* A writer died mid-line: ours starts on a line of its own. */
	if (st.st_size > 0 && pread(fd, &last, 1, st.st_size - 1) == 1 &&
	    last != '\n')
		buf_addc(&rec, '\n');
	buf_printf(&rec, MAGIC "%zu %016" PRIx64 " %s ", len,
	    record_sum(key, strlen(key), payload, len), key);
	buf_add(&rec, payload, len);
	buf_addc(&rec, '\n');
	n = write(fd, rec.data, rec.len);
	if (n == (ssize_t)rec.len)
		rc = 0;
	else
		*err = xasprintf("cannot write journal '%s': %s", path,
		    n < 0 ? strerror(errno) : "short write");
	buf_release(&rec);
out:
	close(fd);		/* and the lock with it */
	return rc;
}

int
journal_open(struct journal *j, const char *path, long long deadline_ms,
    char **err)
{
	struct stat	st;
	struct buf	b;

	*err = NULL;
	memset(j, 0, sizeof(*j));
	j->path = xstrdup(path);
	j->fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (j->fd < 0) {
		if (errno == ENOENT)
			return 0;
		*err = xasprintf("cannot open journal '%s': %s", path,
		    strerror(errno));
		return -1;
	}
	if (fstat(j->fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		*err = xasprintf("journal '%s' is not a regular file", path);
		goto fail;
	}
	if (lock_until(j->fd, deadline_ms) < 0) {
		*err = xasprintf("cannot lock journal '%s': %s", path,
		    strerror(errno));
		goto fail;
	}
	buf_init(&b);
	if (fd_read_all(j->fd, READ_MAX, false, &b) != FD_READ_OK) {
		*err = xasprintf("cannot read journal '%s': %s", path,
		    errno ? strerror(errno) : "too big");
		buf_release(&b);
		goto fail;
	}
	j->data = buf_detach(&b, &j->len);
	return 0;
fail:
	close(j->fd);
	j->fd = -1;
	return -1;
}

/* A decimal size_t at *p, ending at a space; false if none. */
static bool
parse_size(const char **p, const char *end, size_t *out)
{
	size_t	v = 0;
	int	digits = 0;

	while (*p < end && **p >= '0' && **p <= '9' && digits < 19) {
		v = v * 10 + (size_t)(**p - '0');
		(*p)++;
		digits++;
	}
	if (digits == 0 || *p == end || **p != ' ')
		return false;
	(*p)++;
	*out = v;
	return true;
}

/* One line [p, end) as a record. */
static bool
parse_line(const char *p, const char *end, struct journal_rec *rec)
{
	char		 hex[SUM_LEN + 1], *stop;
	const char	*sp;
	uint64_t	 sum;
	size_t		 len;

	if ((size_t)(end - p) < MAGIC_LEN || memcmp(p, MAGIC, MAGIC_LEN) != 0)
		return false;
	p += MAGIC_LEN;
	if (!parse_size(&p, end, &len) || (size_t)(end - p) < SUM_LEN + 1 ||
	    p[SUM_LEN] != ' ')
		return false;
	memcpy(hex, p, SUM_LEN);
	hex[SUM_LEN] = '\0';
	sum = strtoull(hex, &stop, 16);
	if (*stop != '\0')
		return false;
	p += SUM_LEN + 1;
	sp = memchr(p, ' ', (size_t)(end - p));
	if (sp == NULL || sp == p || (size_t)(sp - p) > JOURNAL_KEY_MAX)
		return false;
	rec->key = p;
	rec->keylen = (size_t)(sp - p);
	rec->data = sp + 1;
	rec->len = (size_t)(end - rec->data);
	return rec->len == len && record_sum(rec->key, rec->keylen, rec->data,
	    rec->len) == sum;
}

bool
journal_next(struct journal *j, struct journal_rec *rec)
{
	const char	*p, *end = j->data + j->len, *nl;

	while (j->pos < j->len) {
		p = j->data + j->pos;
		nl = memchr(p, '\n', (size_t)(end - p));
		/* No newline: a torn last record. */
		j->pos = nl != NULL ? (size_t)(nl + 1 - j->data) : j->len;
		if (nl != NULL && parse_line(p, nl, rec))
			return true;
		if (nl != p)
			j->damaged++;
	}
	return false;
}

int
journal_clear(struct journal *j, char **err)
{
	*err = NULL;
	if (j->fd < 0)
		return 0;
	if (ftruncate(j->fd, 0) < 0) {
		*err = xasprintf("cannot empty journal '%s': %s", j->path,
		    strerror(errno));
		return -1;
	}
	return 0;
}

void
journal_close(struct journal *j)
{
	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
	free(j->data);
	free(j->path);
	j->data = j->path = NULL;
}
