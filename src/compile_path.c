/*
 * Rule files and directories on disk: ruleset_add_path() (compile.h)
 * reads a file, or every *.yaml / *.yml under a directory in name order,
 * notes what it read in the ruleset's manifest (manifest.h) for the
 * cache, and hands each text to ruleset_add_yaml() (compile_rule.c) or,
 * for skill-rules.json, to ruleset_add_skill_rules() (skillrules.c).
 * The top of the compile stage: nothing in it calls this file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compile.h"
#include "fileio.h"
#include "manifest.h"
#include "xmalloc.h"

#define RULE_FILE_MAX	(32u * 1024 * 1024)
#define RULE_DIR_DEPTH	16

/* Reads a whole regular file, capped; -1 and a diagnostic on error. */
static int
read_rule_file(const char *path, char **text, size_t *len,
    struct diag_list *diags)
{
	struct diag_loc	 loc;
	struct stat	 st;
	struct buf	 b;
	enum fd_read_result r;
	int		 fd;

	memset(&loc, 0, sizeof(loc));
	loc.file = path;
	/* O_NONBLOCK: a FIFO named *.yaml must not hang the hook. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		diag_add(diags, DIAG_ERROR, DIAG_io, &loc, "cannot open: %s",
		    strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		diag_add(diags, DIAG_ERROR, DIAG_io, &loc,
		    "not a regular file; skipped");
		close(fd);
		return -1;
	}
	if (fstat(fd, &st) == 0 && st.st_size > (off_t)RULE_FILE_MAX) {
		diag_add(diags, DIAG_ERROR, DIAG_yaml_limit, &loc,
		    "rule file is larger than %u bytes", RULE_FILE_MAX);
		close(fd);
		return -1;
	}
	buf_init(&b);
	r = fd_read_all(fd, RULE_FILE_MAX, false, &b);
	if (r != FD_READ_OK) {
		if (r == FD_READ_ERROR)
			diag_add(diags, DIAG_ERROR, DIAG_io, &loc,
			    "cannot read: %s", strerror(errno));
		else
			diag_add(diags, DIAG_ERROR, DIAG_yaml_limit, &loc,
			    "rule file is larger than %u bytes", RULE_FILE_MAX);
		buf_release(&b);
		close(fd);
		return -1;
	}
	close(fd);
	*text = buf_detach(&b, len);
	return 0;
}

struct visited {
	dev_t	dev[RULE_DIR_DEPTH + 1];
	ino_t	ino[RULE_DIR_DEPTH + 1];
	int	n;
};

static size_t add_path_rec(struct ruleset *, const char *, int,
	    struct diag_list *, struct visited *, bool top);

static size_t
add_dir(struct ruleset *rs, const char *path, const struct stat *st,
    int layer, struct diag_list *diags, struct visited *vis)
{
	struct diag_loc	 loc;
	char		**names, *full;
	size_t		 n, i, errs = 0;

	memset(&loc, 0, sizeof(loc));
	loc.file = path;
	if (dir_names(path, &names, &n) < 0) {
		diag_add(diags, DIAG_ERROR, DIAG_io, &loc,
		    "cannot open directory: %s", strerror(errno));
		return 1;
	}
	manifest_dir(rs->manifest, path, st, names, n);
	for (i = 0; i < n; i++) {
		full = xasprintf("%s%s%s", path,
		    str_has_suffix(path, "/") ? "" : "/", names[i]);
		errs += add_path_rec(rs, full, layer, diags, vis, false);
		free(full);
	}
	dir_names_free(names, n);
	return errs;
}

static size_t
add_path_rec(struct ruleset *rs, const char *path, int layer,
    struct diag_list *diags, struct visited *vis, bool top)
{
	struct diag_loc	 loc;
	struct stat	 st;
	char		*text;
	size_t		 len, errs;
	int		 i;

	memset(&loc, 0, sizeof(loc));
	loc.file = path;
	if (stat(path, &st) < 0) {
		manifest_absent(rs->manifest, path, errno);
		/* A dangling symlink inside a directory is skipped, loudly. */
		diag_add(diags, DIAG_ERROR, DIAG_io, &loc, "cannot read: %s",
		    strerror(errno));
		return 1;
	}
	if (S_ISDIR(st.st_mode)) {
		for (i = 0; i < vis->n; i++)
			if (vis->dev[i] == st.st_dev && vis->ino[i] == st.st_ino) {
				diag_add(diags, DIAG_ERROR, DIAG_io, &loc,
				    "directory loop (symlink back to a parent); "
				    "skipped");
				return 1;
			}
		if (vis->n >= RULE_DIR_DEPTH) {
			diag_add(diags, DIAG_ERROR, DIAG_io, &loc,
			    "rule directories nest deeper than %d levels; "
			    "skipped", RULE_DIR_DEPTH);
			return 1;
		}
		vis->dev[vis->n] = st.st_dev;
		vis->ino[vis->n] = st.st_ino;
		vis->n++;
		errs = add_dir(rs, path, &st, layer, diags, vis);
		vis->n--;
		return errs;
	}
	/* In a directory only YAML files are rules; a named file always is. */
	if (!top && !str_has_suffix(path, ".yaml") && !str_has_suffix(path, ".yml"))
		return 0;
	/*
	 * The cache's manifest gets the stat from before the read: a change
	 * in between shows as a newer mtime, and the cache is rebuilt.
	 */
	if (read_rule_file(path, &text, &len, diags) < 0) {
		manifest_file(rs->manifest, path, &st, NULL, 0);
		return 1;
	}
	manifest_file(rs->manifest, path, &st, text, len);
	if (str_has_suffix(path, "skill-rules.json")) {
		errs = ruleset_add_skill_rules(rs, path, text, len, layer,
		    diags);
		free(text);
		return errs;
	}
	errs = ruleset_add_yaml(rs, path, text, len, layer, diags);
	free(text);
	return errs;
}

size_t
ruleset_add_path(struct ruleset *rs, const char *path, int layer,
    struct diag_list *diags)
{
	struct visited	vis;

	vis.n = 0;
	return add_path_rec(rs, path, layer, diags, &vis, true);
}
