/*
 * Pinned team sources (see pinned.h): a directory's rule files read
 * once, hashed as their canonical listing, and compiled from those bytes
 * when the digest is the one config.yaml pins.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compile.h"
#include "fileio.h"
#include "pinned.h"
#include "sha256.h"
#include "userconf.h"
#include "xmalloc.h"

/* As rule directories are read (compile_path.c). */
#define PINNED_FILE_MAX	(32u * 1024 * 1024)
#define PINNED_DEPTH	16

struct walk {
	struct pinned_dir	*pd;
	struct manifest		*mf;
	size_t			 top;	/* strlen of the directory */
	dev_t			 dev[PINNED_DEPTH + 1];
	ino_t			 ino[PINNED_DEPTH + 1];
	int			 depth;
	char			*err;
};

static int
fail(struct walk *w, const char *path, const char *why)
{
	if (w->err == NULL)
		w->err = xasprintf("%s: %s", path, why);
	return -1;
}

/* Reads one rule file; the manifest gets the stat from before the read. */
static int
read_file(struct walk *w, const char *path, const struct stat *st)
{
	struct pinned_file	*f;
	struct buf		 b;
	enum fd_read_result	 r;
	struct stat		 fst;
	int			 fd;

	/* O_NONBLOCK: a FIFO named *.yaml must not hang the hook. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0) {
		manifest_file(w->mf, path, st, NULL, 0);
		return fail(w, path, strerror(errno));
	}
	if (fstat(fd, &fst) < 0 || !S_ISREG(fst.st_mode)) {
		close(fd);
		manifest_file(w->mf, path, st, NULL, 0);
		return fail(w, path, "not a regular file");
	}
	buf_init(&b);
	r = fd_read_all(fd, PINNED_FILE_MAX, false, &b);
	close(fd);
	if (r != FD_READ_OK) {
		buf_release(&b);
		manifest_file(w->mf, path, st, NULL, 0);
		return fail(w, path, r == FD_READ_ERROR ? strerror(errno) :
		    "larger than 32 MiB");
	}
	manifest_file(w->mf, path, st, b.data, b.len);
	w->pd->files = xreallocarray(w->pd->files, w->pd->n + 1,
	    sizeof(*w->pd->files));
	f = &w->pd->files[w->pd->n++];
	f->path = xstrdup(path);
	f->rel = f->path + w->top + 1;
	f->text = buf_detach(&b, &f->len);
	return 0;
}

static int walk_dir(struct walk *, const char *, const struct stat *);

static int
walk_path(struct walk *w, const char *path)
{
	struct stat	st;
	int		i, rc;

	if (stat(path, &st) < 0) {
		manifest_absent(w->mf, path, errno);
		return fail(w, path, strerror(errno));
	}
	if (!S_ISDIR(st.st_mode)) {
		if (!str_has_suffix(path, ".yaml") &&
		    !str_has_suffix(path, ".yml"))
			return 0;
		return read_file(w, path, &st);
	}
	for (i = 0; i < w->depth; i++)
		if (w->dev[i] == st.st_dev && w->ino[i] == st.st_ino)
			return fail(w, path, "a symbolic link back to a "
			    "parent directory");
	if (w->depth >= PINNED_DEPTH)
		return fail(w, path, "directories nest too deep");
	w->dev[w->depth] = st.st_dev;
	w->ino[w->depth] = st.st_ino;
	w->depth++;
	rc = walk_dir(w, path, &st);
	w->depth--;
	return rc;
}

static int
walk_dir(struct walk *w, const char *path, const struct stat *st)
{
	char	**names, *full;
	size_t	  n, i;
	int	  rc = 0;

	if (dir_names(path, &names, &n) < 0)
		return fail(w, path, strerror(errno));
	manifest_dir(w->mf, path, st, names, n);
	for (i = 0; i < n && rc == 0; i++) {
		full = xasprintf("%s/%s", path, names[i]);
		rc = walk_path(w, full);
		free(full);
	}
	dir_names_free(names, n);
	return rc;
}

static int
rel_cmp(const void *a, const void *b)
{
	const struct pinned_file	*x = a, *y = b;

	return strcmp(x->rel, y->rel);
}

int
pinned_read(const char *dir, struct pinned_dir *pd, struct manifest *mf,
    char **err)
{
	struct sha256	 c;
	struct walk	 w;
	struct stat	 st;
	unsigned char	 md[SHA256_LEN];
	char		*top, size[32];
	size_t		 i, len;

	memset(pd, 0, sizeof(*pd));
	memset(&w, 0, sizeof(w));
	*err = NULL;
	/* Without a trailing '/', so that every rel is the path after it. */
	top = xstrdup(dir);
	for (len = strlen(top); len > 1 && top[len - 1] == '/'; len--)
		top[len - 1] = '\0';
	w.pd = pd;
	w.mf = mf;
	w.top = len;
	if (stat(top, &st) < 0) {
		manifest_absent(mf, top, errno);
		*err = xasprintf("%s: %s", top, strerror(errno));
		free(top);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		manifest_file(mf, top, &st, NULL, 0);
		*err = xasprintf("%s: not a directory", top);
		free(top);
		return -1;
	}
	if (walk_path(&w, top) < 0) {
		*err = w.err;
		free(top);
		return -1;
	}
	free(top);
	if (pd->n > 1)
		qsort(pd->files, pd->n, sizeof(*pd->files), rel_cmp);
	sha256_init(&c);
	for (i = 0; i < pd->n; i++) {
		sha256_update(&c, pd->files[i].rel, strlen(pd->files[i].rel) +
		    1);
		len = (size_t)snprintf(size, sizeof(size), "%zu",
		    pd->files[i].len);
		sha256_update(&c, size, len + 1);
		sha256_update(&c, pd->files[i].text, pd->files[i].len);
	}
	sha256_final(&c, md);
	sha256_to_hex(md, pd->sha256);
	return 0;
}

void
pinned_release(struct pinned_dir *pd)
{
	size_t	i;

	for (i = 0; i < pd->n; i++) {
		free(pd->files[i].path);
		free(pd->files[i].text);
	}
	free(pd->files);
	memset(pd, 0, sizeof(*pd));
}

size_t
pinned_load(struct ruleset *rs, const struct config_source *src,
    struct diag_list *diags)
{
	struct pinned_dir	 pd;
	struct diag		*d;
	char			*err;
	size_t			 i, errors = 0;

	if (pinned_read(src->path, &pd, rs->manifest, &err) < 0) {
		d = diag_add(diags, DIAG_ERROR, DIAG_pinned_source,
		    &src->at_path, "pinned source %s cannot be read (%s); its "
		    "rules are not loaded", src->path, err);
		diag_set_hint(d, "a pinned source is loaded only when every "
		    "rule file in it can be read and checked");
		free(err);
		pinned_release(&pd);
		return 1;
	}
	if (strcmp(pd.sha256, src->sha256) != 0) {
		d = diag_add(diags, DIAG_ERROR, DIAG_pinned_source,
		    &src->at_sha256, "pinned source %s has changed: its "
		    "digest is %s, config.yaml pins %s; its rules are not "
		    "loaded", src->path, pd.sha256, src->sha256);
		diag_set_hint(d, "review the change; to trust it, pin the "
		    "digest that 'reflexion-rules rules --digest %s' prints",
		    src->path);
		pinned_release(&pd);
		return 1;
	}
	for (i = 0; i < pd.n; i++)
		errors += ruleset_add_yaml(rs, pd.files[i].path,
		    pd.files[i].text, pd.files[i].len, LAYER_PINNED, diags);
	pinned_release(&pd);
	return errors;
}
