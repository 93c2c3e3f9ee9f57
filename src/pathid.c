/*
 * The names of a file (see pathid.h): text normalization, resolution
 * through symbolic links as the kernel walks a path, the project root's
 * real path and whether its file system folds case.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pathid.h"
#include "xmalloc.h"

const char *const path_form_names[PATH_FORMS_MAX] = {
	[PF_REL] = "normalized",
	[PF_ABS] = "normalized, absolute",
	[PF_REAL_REL] = "real",
	[PF_REAL] = "real, absolute",
};

/* Drops the last component of b ("/a/b" is "/a", "/a" is "/"). */
static void
pop_component(struct buf *b)
{
	size_t	cut = b->len;

	while (cut > 0 && b->data[cut - 1] != '/')
		cut--;
	/* "/a" keeps its '/'; "a" becomes "". */
	if (cut > 1)
		cut--;
	buf_truncate(b, cut);
}

/* Appends one component, with a '/' unless b is empty or ends in one. */
static void
push_component(struct buf *b, const char *seg, size_t len)
{
	if (b->len > 0 && b->data[b->len - 1] != '/')
		buf_addc(b, '/');
	buf_add(b, seg, len);
}

static bool
is_dot(const char *seg, size_t len)
{
	return len == 1 && seg[0] == '.';
}

static bool
is_dotdot(const char *seg, size_t len)
{
	return len == 2 && seg[0] == '.' && seg[1] == '.';
}

void
path_normalize(struct buf *b, const char *path, size_t len)
{
	const char	*p = path, *end = path + len, *seg;
	size_t		 seglen;

	buf_reset(b);
	if (len > 0 && *p == '/')
		buf_addc(b, '/');
	while (p < end) {
		while (p < end && *p == '/')
			p++;
		seg = p;
		while (p < end && *p != '/')
			p++;
		seglen = (size_t)(p - seg);
		if (seglen == 0 || is_dot(seg, seglen))
			continue;
		if (is_dotdot(seg, seglen)) {
			if (b->len > 0 && !(b->len == 1 && b->data[0] == '/'))
				pop_component(b);
			continue;
		}
		push_component(b, seg, seglen);
	}
}

const char *
path_under(const char *path, const char *dir)
{
	size_t	dlen = strlen(dir);

	/* Under "/" everything is: no project is the whole disk. */
	if (dlen <= 1 || strncmp(path, dir, dlen) != 0 || path[dlen] != '/' ||
	    path[dlen + 1] == '\0')
		return NULL;
	return path + dlen + 1;
}

/*
 * Replaces what is left to walk, rest[*pos..], by target + "/" + that
 * rest: the walk goes on through the link's target.
 */
static void
splice_target(struct buf *rest, size_t *pos, const char *target, size_t tlen)
{
	struct buf	 n;

	buf_init(&n);
	buf_add(&n, target, tlen);
	buf_addc(&n, '/');
	buf_add(&n, rest->data + *pos, rest->len - *pos);
	buf_release(rest);
	*rest = n;
	*pos = 0;
}

int
path_resolve(const char *path, struct buf *out)
{
	struct buf	 rest;
	struct stat	 st;
	char		 target[PATHID_MAX_LEN];
	const char	*seg;
	size_t		 pos = 0, seglen;
	ssize_t		 n;
	int		 links = 0, rc = -1;
	bool		 exists = true;

	buf_reset(out);
	if (path[0] != '/' || strlen(path) >= PATHID_MAX_LEN)
		return -1;
	buf_addc(out, '/');
	buf_init(&rest);
	buf_adds(&rest, path);
	while (pos < rest.len) {
		while (pos < rest.len && rest.data[pos] == '/')
			pos++;
		seg = rest.data + pos;
		while (pos < rest.len && rest.data[pos] != '/')
			pos++;
		seglen = (size_t)(rest.data + pos - seg);
		if (seglen == 0 || is_dot(seg, seglen))
			continue;
		/*
		 * What is resolved so far holds no link, so its parent is
		 * its text's; past a missing name, the rest is text anyway.
		 */
		if (is_dotdot(seg, seglen)) {
			pop_component(out);
			continue;
		}
		push_component(out, seg, seglen);
		if (!exists)
			continue;
		if (lstat(out->data, &st) < 0) {
			/* Missing (a file to create), or not reachable. */
			exists = false;
			continue;
		}
		if (!S_ISLNK(st.st_mode))
			continue;
		if (++links > PATHID_MAX_LINKS)
			goto done;	/* ELOOP */
		n = readlink(out->data, target, sizeof(target));
		if (n < 0 || (size_t)n >= sizeof(target))
			goto done;
		pop_component(out);
		if (n > 0 && target[0] == '/')
			buf_truncate(out, 1);
		splice_target(&rest, &pos, target, (size_t)n);
	}
	rc = 0;
done:
	buf_release(&rest);
	return rc;
}

void
path_root_set(struct path_root *r, struct arena *a, const char *dir)
{
	struct buf	b;

	memset(r, 0, sizeof(*r));
	r->folds = -1;
	if (dir == NULL || dir[0] != '/')
		return;
	buf_init(&b);
	path_normalize(&b, dir, strlen(dir));
	r->dir = arena_strndup(a, b.data, b.len);
	buf_release(&b);
}

void
path_root_resolve(struct path_root *r, struct arena *a)
{
	struct buf	b;

	if (r->resolved)
		return;
	r->resolved = true;
	if (r->dir == NULL)
		return;
	buf_init(&b);
	if (path_resolve(r->dir, &b) == 0 && strcmp(b.data, r->dir) != 0)
		r->real = arena_strndup(a, b.data, b.len);
	buf_release(&b);
}

static bool
ascii_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/*
 * Whether dir is found again with the case of its last name that has a
 * letter changed, as the same directory: a file system that folds case.
 */
static bool
probe_folds(const char *dir)
{
	struct stat	 a, b;
	char		*alt;
	size_t		 end = strlen(dir), start, i;
	bool		 found = false, folds;

	while (end > 0 && !found) {
		for (start = end; start > 0 && dir[start - 1] != '/'; start--)
			;
		for (i = start; i < end && !found; i++)
			found = ascii_letter(dir[i]);
		if (!found)
			end = start > 0 ? start - 1 : 0;
	}
	if (!found)
		return false;
	alt = xstrdup(dir);
	for (i = start; i < end; i++)
		if (ascii_letter(alt[i]))
			alt[i] ^= 0x20;
	folds = stat(dir, &a) == 0 && stat(alt, &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino;
	free(alt);
	return folds;
}

bool
path_root_folds(struct path_root *r)
{
	const char	*env;

	if (r->folds >= 0)
		return r->folds == 1;
	env = getenv("REFLEXION_PATH_CASE");
	if (env != NULL && strcmp(env, "insensitive") == 0)
		r->folds = 1;
	else if (env != NULL && strcmp(env, "sensitive") == 0)
		r->folds = 0;
	else
		r->folds = r->dir != NULL &&
		    probe_folds(r->real ? r->real : r->dir);
	return r->folds == 1;
}

void
path_lexical(struct path_forms *f, struct arena *a,
    const struct path_root *r, const char *cwd, const char *raw, size_t len)
{
	struct buf	 j, n;
	size_t		 i;

	memset(f, 0, sizeof(*f));
	buf_init(&j);
	buf_init(&n);
	/* Windows clients send backslashes; globs are written with '/'. */
	if ((len == 0 || (raw[0] != '/' && raw[0] != '\\')) &&
	    cwd != NULL && cwd[0] != '\0') {
		buf_adds(&j, cwd);
		buf_addc(&j, '/');
	}
	for (i = 0; i < len; i++)
		buf_addc(&j, raw[i] == '\\' ? '/' : raw[i]);
	path_normalize(&n, j.data, j.len);
	f->abs = arena_strndup(a, n.data, n.len);
	f->joined = arena_strndup(a, j.data, j.len);
	if (r->dir != NULL)
		f->rel = path_under(f->abs, r->dir);
	buf_release(&j);
	buf_release(&n);
}

void
path_physical(struct path_forms *f, struct arena *a, struct path_root *r)
{
	struct buf	 b;
	const char	*real, *rr = NULL;

	if (f->resolved)
		return;
	f->resolved = true;
	buf_init(&b);
	if (path_resolve(f->joined, &b) == 0 && strcmp(b.data, f->abs) != 0)
		f->real = arena_strndup(a, b.data, b.len);
	buf_release(&b);
	/*
	 * The project may be named through a link and the file by its
	 * real path, or the other way round: the real path is looked for
	 * under the root's real path, then under the root as named.
	 */
	path_root_resolve(r, a);
	real = f->real != NULL ? f->real : f->abs;
	if (r->real != NULL)
		rr = path_under(real, r->real);
	if (rr == NULL && r->dir != NULL)
		rr = path_under(real, r->dir);
	if (rr != NULL && f->rel != NULL && strcmp(rr, f->rel) == 0)
		rr = NULL;
	f->real_rel = rr;
}

void
path_identity(struct path_forms *f, struct arena *a, struct path_root *r,
    const char *cwd, const char *raw, size_t len)
{
	path_lexical(f, a, r, cwd, raw, len);
	path_physical(f, a, r);
}

size_t
path_forms_list(const struct path_forms *f, const char **v, size_t *lens,
    enum path_form_kind *kinds)
{
	const char	*all[PATH_FORMS_MAX];
	size_t		 n = 0, i, k;

	all[PF_REL] = f->rel;
	all[PF_ABS] = f->abs;
	all[PF_REAL_REL] = f->real_rel;
	all[PF_REAL] = f->real;
	for (i = 0; i < PATH_FORMS_MAX; i++) {
		if (all[i] == NULL)
			continue;
		for (k = 0; k < n && strcmp(v[k], all[i]) != 0; k++)
			;
		if (k < n)
			continue;
		v[n] = all[i];
		lens[n] = strlen(all[i]);
		if (kinds != NULL)
			kinds[n] = (enum path_form_kind)i;
		n++;
	}
	return n;
}
