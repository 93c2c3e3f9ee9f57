/*
 * Related files (reflexion-rules(5), Related files): file_exists,
 * file_contains with a file and json_file, on a path made from a
 * template (pathtpl.h) relative to the directory of the file the tool
 * touches, whose last name may hold '*' and '?'.
 *
 * A file is read as every other file the engine reads for a rule: only a
 * regular file (a FIFO, a device or a directory planted there is not
 * opened at all), checked again once open to be the file that was looked
 * at, without blocking, up to 16 MB; a symbolic link is followed as the
 * kernel follows it, and a loop of them is a file that is not there.
 * Each file and each directory listed is read once per event, whatever
 * the number of blocks that name it, within budgets (RELATED_*): past
 * one, the condition is not decided, as at a regular expression's limit.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eval_priv.h"
#include "fileio.h"
#include "jsoncheck.h"
#include "pathtpl.h"
#include "xmalloc.h"

#define RELATED_FILE_MAX	(16u * 1024 * 1024)	/* one file */
#define RELATED_BYTES_MAX	(64u * 1024 * 1024)	/* all, per event */
#define RELATED_FILES_MAX	256	/* files read, per event */
#define RELATED_DIRS_MAX	64	/* directories listed, per event */
#define RELATED_MATCHES_MAX	64	/* names one pattern may match */

/* ---- reading -------------------------------------------------------------- */

/*
 * Whether path is a regular file, as stat(2) says; *st filled.  What
 * else is there (a FIFO, a device, a loop of links) counts as nothing.
 */
static bool
regular(const char *path, struct stat *st)
{
	return stat(path, st) == 0 && S_ISREG(st->st_mode);
}

/*
 * Reads a regular file into f: opened only once stat() says it is one,
 * then checked to be that same file (a FIFO swapped in between is not
 * read), without blocking.
 */
static void
read_regular(struct ectx *cx, struct related_file *f)
{
	struct stat	 before, st;
	struct buf	 b;
	int		 fd;

	f->state = -1;
	if (!regular(f->path, &before))
		return;
	if (before.st_size > (off_t)RELATED_FILE_MAX ||
	    cx->rbytes + (size_t)before.st_size > RELATED_BYTES_MAX) {
		f->state = -2;
		return;
	}
	fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_dev != before.st_dev || st.st_ino != before.st_ino) {
		close(fd);
		return;
	}
	buf_init(&b);
	switch (fd_read_all(fd, RELATED_FILE_MAX, false, &b)) {
	case FD_READ_OK:
		f->len = b.len;
		f->text = buf_detach(&b, &f->len);
		f->state = 1;
		cx->rbytes += f->len;
		break;
	case FD_READ_TOO_BIG:
		f->state = -2;
		buf_release(&b);
		break;
	case FD_READ_ERROR:
		buf_release(&b);
		break;
	}
	close(fd);
}

/* The file at path, read once per event; NULL past the budget. */
static struct related_file *
related_file(struct ectx *cx, const char *path)
{
	struct related_file	*f;
	size_t			 i;

	for (i = 0; i < cx->nrfiles; i++)
		if (strcmp(cx->rfiles[i].path, path) == 0)
			return &cx->rfiles[i];
	if (cx->nrfiles >= RELATED_FILES_MAX)
		return NULL;
	if (cx->nrfiles == cx->rfiles_cap) {
		cx->rfiles_cap = cx->rfiles_cap ? cx->rfiles_cap * 2 : 8;
		cx->rfiles = xreallocarray(cx->rfiles, cx->rfiles_cap,
		    sizeof(*cx->rfiles));
	}
	f = &cx->rfiles[cx->nrfiles++];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	read_regular(cx, f);
	return f;
}

/* The names in dir, listed once per event; NULL past the budget. */
static struct related_dir *
related_dir(struct ectx *cx, const char *dir)
{
	struct related_dir	*d;
	size_t			 i;

	for (i = 0; i < cx->nrdirs; i++)
		if (strcmp(cx->rdirs[i].path, dir) == 0)
			return &cx->rdirs[i];
	if (cx->nrdirs >= RELATED_DIRS_MAX)
		return NULL;
	if (cx->nrdirs == cx->rdirs_cap) {
		cx->rdirs_cap = cx->rdirs_cap ? cx->rdirs_cap * 2 : 4;
		cx->rdirs = xreallocarray(cx->rdirs, cx->rdirs_cap,
		    sizeof(*cx->rdirs));
	}
	d = &cx->rdirs[cx->nrdirs++];
	memset(d, 0, sizeof(*d));
	d->path = xstrdup(dir);
	if (dir_names(dir, &d->names, &d->n) < 0) {
		d->names = NULL;
		d->n = 0;
	}
	return d;
}

/* ---- the files a template names ------------------------------------------- */

/* What the template of a condition stands for in this event. */
struct named {
	const char	*paths[RELATED_MATCHES_MAX];
	size_t		 n;
	const char	*shown;		/* the path made, for explain */
	bool		 limit;		/* too many, or a budget */
};

/*
 * The files c's template names: one path, or the names of a directory
 * that its last name's pattern matches, in name order.  False (explained)
 * when the template cannot be made here.
 */
static bool
named_files(struct ectx *cx, const struct cond *c, struct named *nf)
{
	const char		*values[PV__COUNT], *why, *tpl, *slash;
	const char		*abs, *rel;
	struct related_dir	*d;
	struct buf		 dir, name;
	char			*dt;
	size_t			 i;
	bool			 wild, ok = false;

	memset(nf, 0, sizeof(*nf));
	eval_tpl_values(cx, values);
	tpl = c->related->tpl;
	slash = strrchr(tpl, '/');
	buf_init(&dir);
	buf_init(&name);
	/* The directory and the file's name are made apart: a value's
	   '*' escaped for the name's pattern is no path separator. */
	if (slash != NULL) {
		dt = xmemdup0(tpl, slash == tpl ? 1 : (size_t)(slash - tpl));
		if (ptpl_expand(dt, values, false, &dir, &why) < 0) {
			free(dt);
			goto cannot;
		}
		free(dt);
	}
	wild = ptpl_has_wildcard(slash ? slash + 1 : tpl,
	    strlen(slash ? slash + 1 : tpl));
	if (ptpl_expand(slash ? slash + 1 : tpl, values, wild, &name,
	    &why) < 0)
		goto cannot;
	if (values[PV_DIR] == NULL && (dir.len == 0 || dir.data[0] != '/')) {
		why = "the event has no file to find it from";
		goto cannot;
	}
	event_path_pair(cx->ev, values[PV_DIR], dir.len ? dir.data : ".",
	    &abs, &rel);
	if (!wild) {
		nf->paths[0] = arena_printf(&cx->ev->arena, "%s%s%s", abs,
		    strcmp(abs, "/") == 0 ? "" : "/", name.data);
		nf->n = 1;
		nf->shown = nf->paths[0];
		ok = true;
		goto done;
	}
	nf->shown = arena_printf(&cx->ev->arena, "%s%s%s", abs,
	    strcmp(abs, "/") == 0 ? "" : "/", name.data);
	if ((d = related_dir(cx, abs)) == NULL) {
		nf->limit = true;
		goto done;
	}
	for (i = 0; i < d->n; i++) {
		if (!ptpl_name_match(name.data, d->names[i]))
			continue;
		if (nf->n == RELATED_MATCHES_MAX) {
			nf->limit = true;
			break;
		}
		nf->paths[nf->n++] = arena_printf(&cx->ev->arena, "%s%s%s",
		    abs, strcmp(abs, "/") == 0 ? "" : "/", d->names[i]);
	}
	ok = true;
	goto done;
cannot:
	explain(cx, "%s: '%s' names no file here: %s\n", c->label, tpl, why);
done:
	buf_release(&dir);
	buf_release(&name);
	return ok && !nf->limit;
}

/* ---- the conditions ------------------------------------------------------- */

static bool
one_file(struct ectx *cx, const struct cond *c, struct related_file *f,
    bool in_when)
{
	const struct related_spec	*r = c->related;
	struct cond			 view = *c;
	const char			*subject[1];
	size_t				 len[1];

	/* The matcher is the spec's: the matching code reads c->m. */
	view.m = r->m;
	if (r->m.kind == M_JSON) {
		if (!f->parsed) {
			f->parsed = true;
			f->doc = json_parse_whole(f->text, f->len);
		}
		return eval_json_doc(cx, &view, f->doc, in_when);
	}
	subject[0] = f->text;
	len[0] = f->len;
	return eval_match_subjects(cx, &view, subject, len, 1, in_when, NULL);
}

bool
eval_related(struct ectx *cx, const struct cond *c, bool in_when)
{
	struct related_file	*f;
	struct named		 nf;
	struct stat		 st;
	size_t			 i;

	if (!named_files(cx, c, &nf)) {
		if (nf.limit) {
			eval_limit(cx, c, "more files than it may read",
			    "a related file pattern hit its limit");
			explain(cx, "%s: '%s': more files than it may read\n",
			    c->label, nf.shown);
		}
		return false;
	}
	if (nf.n == 0) {
		explain(cx, "%s: no file matches '%s'\n", c->label, nf.shown);
		return false;
	}
	for (i = 0; i < nf.n; i++) {
		if (c->related->exists) {
			if (regular(nf.paths[i], &st)) {
				explain(cx, "%s: '%s' exists\n", c->label,
				    nf.paths[i]);
				return true;
			}
			continue;
		}
		if ((f = related_file(cx, nf.paths[i])) == NULL) {
			eval_limit(cx, c, "more files than it may read",
			    "a related file hit its limit");
			return false;
		}
		if (f->state == -2) {
			eval_limit(cx, c, "a file past 16 MB (or the 64 MB "
			    "read for an event)", "a related file is too big");
			explain(cx, "%s: '%s' is too big to read\n", c->label,
			    f->path);
			continue;
		}
		if (f->state != 1) {
			explain(cx, "%s: '%s' is not a regular file\n",
			    c->label, f->path);
			continue;
		}
		explain(cx, "%s: in '%s':\n", c->label, f->path);
		cx->depth++;
		if (one_file(cx, c, f, in_when)) {
			cx->depth--;
			return true;
		}
		cx->depth--;
	}
	if (c->related->exists)
		explain(cx, "%s: no regular file '%s'\n", c->label, nf.shown);
	return false;
}
