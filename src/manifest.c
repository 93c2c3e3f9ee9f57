#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bytes.h"
#include "checksum.h"
#include "fileio.h"
#include "manifest.h"
#include "xmalloc.h"

#define MANIFEST_FILE_MAX	(32u * 1024 * 1024)

int64_t
manifest_now_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t
ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

void
manifest_init(struct manifest *m)
{
	memset(m, 0, sizeof(*m));
	m->start_ns = manifest_now_ns();
}

void
manifest_release(struct manifest *m)
{
	size_t	i;

	for (i = 0; i < m->n; i++)
		free(m->v[i].path);
	free(m->v);
	memset(m, 0, sizeof(*m));
}

static struct manifest_entry *
add(struct manifest *m, enum manifest_kind kind, const char *path)
{
	struct manifest_entry	*e;

	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 16;
		m->v = xreallocarray(m->v, m->cap, sizeof(*m->v));
	}
	e = &m->v[m->n++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->path = xstrdup(path);
	return e;
}

static void
set_stat(struct manifest_entry *e, const struct stat *st)
{
	e->dev = (uint64_t)st->st_dev;
	e->ino = (uint64_t)st->st_ino;
	e->size = (uint64_t)st->st_size;
	e->mtime_ns = ts_ns(&st->st_mtim);
	e->ctime_ns = ts_ns(&st->st_ctim);
	e->mode = (uint32_t)st->st_mode;
}

void
manifest_file(struct manifest *m, const char *path, const struct stat *st,
    const char *text, size_t len)
{
	struct manifest_entry	*e;

	if (m == NULL)
		return;
	e = add(m, MF_FILE, path);
	set_stat(e, st);
	if (text != NULL) {
		e->has_hash = true;
		e->hash = rr_checksum(text, len);
	}
}

uint64_t
manifest_names_hash(char *const *names, size_t n)
{
	struct buf	b;
	uint64_t	h;
	size_t		i;

	buf_init(&b);
	for (i = 0; i < n; i++)
		buf_add(&b, names[i], strlen(names[i]) + 1);
	h = rr_checksum(b.data, b.len);
	buf_release(&b);
	return h;
}

void
manifest_dir(struct manifest *m, const char *path, const struct stat *st,
    char *const *names, size_t n)
{
	struct manifest_entry	*e;

	if (m == NULL)
		return;
	e = add(m, MF_DIR, path);
	set_stat(e, st);
	e->has_hash = true;
	e->hash = manifest_names_hash(names, n);
}

void
manifest_absent(struct manifest *m, const char *path, int err)
{
	if (m == NULL)
		return;
	add(m, MF_ABSENT, path)->err = err;
}

void
manifest_encode(const struct manifest *m, struct buf *out)
{
	const struct manifest_entry	*e;
	size_t				 i, len;

	wr_u32(out, (uint32_t)m->n);
	wr_i64(out, m->start_ns);
	for (i = 0; i < m->n; i++) {
		e = &m->v[i];
		wr_u8(out, (uint8_t)e->kind);
		wr_u8(out, e->has_hash);
		wr_u32(out, (uint32_t)e->err);
		wr_u64(out, e->dev);
		wr_u64(out, e->ino);
		wr_u64(out, e->size);
		wr_i64(out, e->mtime_ns);
		wr_i64(out, e->ctime_ns);
		wr_u32(out, e->mode);
		wr_u64(out, e->hash);
		len = strlen(e->path);
		wr_u32(out, (uint32_t)len);
		buf_add(out, e->path, len);
	}
}

/* The hash of what is at path now; false if it cannot be read. */
static bool
content_hash(const struct manifest_entry *e, uint64_t *h)
{
	struct buf	 b;
	struct stat	 st;
	char		**names;
	size_t		 n;
	int		 fd;
	bool		 ok = false;

	if (e->kind == MF_DIR) {
		if (dir_names(e->path, &names, &n) < 0)
			return false;
		*h = manifest_names_hash(names, n);
		dir_names_free(names, n);
		return true;
	}
	/* O_NONBLOCK: a FIFO planted at the path must not hang the hook. */
	fd = open(e->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	buf_init(&b);
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    fd_read_all(fd, MANIFEST_FILE_MAX, false, &b) == FD_READ_OK) {
		*h = rr_checksum(b.data, b.len);
		ok = true;
	}
	buf_release(&b);
	close(fd);
	return ok;
}

enum manifest_state
manifest_check(const unsigned char *p, size_t len, int64_t now_ns,
    char **why)
{
	struct manifest_entry	 e;
	struct stat		 st;
	struct rd		 r;
	uint32_t		 n, i, plen;
	int64_t			 start, newest_racy = INT64_MIN, t;
	uint64_t		 h;
	const unsigned char	*path;
	char			*pathz;
	int			 rc, err;
	enum manifest_state	 state = MANIFEST_FRESH;

	*why = NULL;
	rd_init(&r, p, len);
	n = rd_u32(&r);
	start = rd_i64(&r);
	for (i = 0; i < n && state == MANIFEST_FRESH; i++) {
		memset(&e, 0, sizeof(e));
		e.kind = rd_u8(&r);
		e.has_hash = rd_u8(&r) != 0;
		e.err = (int)rd_u32(&r);
		e.dev = rd_u64(&r);
		e.ino = rd_u64(&r);
		e.size = rd_u64(&r);
		e.mtime_ns = rd_i64(&r);
		e.ctime_ns = rd_i64(&r);
		e.mode = rd_u32(&r);
		e.hash = rd_u64(&r);
		plen = rd_u32(&r);
		path = rd_bytes(&r, plen);
		if (r.bad || e.kind > MF_ABSENT || plen == 0 ||
		    memchr(path, '\0', plen) != NULL)
			return MANIFEST_CORRUPT;
		pathz = xmemdup0(path, plen);
		e.path = pathz;
		rc = stat(pathz, &st);
		err = rc < 0 ? errno : 0;
		switch (e.kind) {
		case MF_ABSENT:
			if (rc == 0 || err != e.err)
				state = MANIFEST_STALE;
			break;
		case MF_FILE:
		case MF_DIR:
			if (rc < 0 || (uint64_t)st.st_dev != e.dev ||
			    (uint64_t)st.st_ino != e.ino ||
			    (uint64_t)st.st_size != e.size ||
			    ts_ns(&st.st_mtim) != e.mtime_ns ||
			    ts_ns(&st.st_ctim) != e.ctime_ns ||
			    (uint32_t)st.st_mode != e.mode) {
				state = MANIFEST_STALE;
				break;
			}
			t = e.mtime_ns > e.ctime_ns ? e.mtime_ns : e.ctime_ns;
			if (t < start - MANIFEST_RACY_NS)
				break;
			/* Racily clean: same stat, maybe not same content. */
			if (!e.has_hash || !content_hash(&e, &h) || h != e.hash)
				state = MANIFEST_STALE;
			else if (t > newest_racy)
				newest_racy = t;
			break;
		}
		if (state == MANIFEST_STALE)
			*why = xasprintf("%s changed", pathz);
		free(pathz);
	}
	if (state != MANIFEST_FRESH)
		return state;
	if (r.p != r.end)
		return MANIFEST_CORRUPT;
	/* Settled since: rebuild once so later calls need only stat(). */
	if (newest_racy != INT64_MIN &&
	    now_ns - MANIFEST_RACY_NS > newest_racy) {
		*why = xstrdup("sources were changed just before the cache "
		    "was built; refreshing it");
		return MANIFEST_STALE;
	}
	return MANIFEST_FRESH;
}
