/*
 * The identity of a file a path rule looks at (reflexion-rules(5),
 * Path matching): the names under which one file can be reached, so
 * that a rule compares files, not the text an agent chose to write.
 *
 *	abs	 the path made absolute against the event's cwd, with '.',
 *		 '..' and '//' resolved as text (backslashes are '/')
 *	rel	 abs inside the project root, relative to it
 *	real	 the file the kernel would reach: every symbolic link on the
 *		 way followed, '..' taken after the link it follows; a file
 *		 that does not exist yet is its longest existing prefix,
 *		 resolved, and the rest as text
 *	real_rel the real path inside the project's real root
 *
 * A rule matches when it matches any of them.  Resolution is bounded as
 * the kernel bounds it (40 links, PATH_MAX per path and link target):
 * past that the kernel would refuse the path too, and only the names
 * known by then are compared.
 *
 * Whether the file system folds case (macOS, Windows) is told by the
 * project root itself: path_root_folds() looks the root up again with the
 * case of a letter of its name changed, once.  REFLEXION_PATH_CASE
 * (insensitive or sensitive) says it instead (tests, and file systems
 * the probe cannot tell).
 *
 * Nothing here keeps state between calls: a link can change between two
 * hooks.  Every string is in the arena the caller passes and lives as
 * long as it.  This file calls only the helpers below it (buf, arena).
 */
#ifndef RR_PATHID_H
#define RR_PATHID_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "buf.h"

/* Linux's MAXSYMLINKS: a longer chain is ELOOP to the kernel too. */
#define PATHID_MAX_LINKS	40
/* What one path may hold: the kernel's PATH_MAX. */
#define PATHID_MAX_LEN		4096
/* Names of one file: rel, abs, real_rel, real. */
#define PATH_FORMS_MAX		4

/* The project root, as path rules see it. */
struct path_root {
	const char	*dir;		/* normalized, absolute; NULL: none */
	const char	*real;		/* dir resolved; NULL: not yet, or none */
	bool		 resolved;	/* real was looked for */
	int		 folds;		/* -1 not known yet, 0 no, 1 yes */
};

struct path_forms {
	const char	*abs;		/* relative only when no cwd is known */
	const char	*rel;		/* NULL: outside the project */
	const char	*real;		/* NULL: same as abs, or unresolvable */
	const char	*real_rel;	/* NULL: outside, or same as rel */
	const char	*joined;	/* cwd + path as given, for resolving */
	bool		 resolved;	/* real and real_rel were looked for */
};

/* What a name in a list of forms is (explain says it). */
enum path_form_kind {
	PF_REL,
	PF_ABS,
	PF_REAL_REL,
	PF_REAL
};
extern const char *const path_form_names[PATH_FORMS_MAX];

/*
 * Resolves '.', '..' and runs of '/' in path[0..len) as text, into out
 * (reset first).  '..' never goes above '/'; in a relative path a
 * leading '..' is dropped.
 */
void	 path_normalize(struct buf *out, const char *path, size_t len);
/*
 * The part of path inside dir (both normalized), or NULL: "/p/a" under
 * "/p" is "a"; "/p" and "/pa/b" are not under "/p".
 */
const char *path_under(const char *path, const char *dir);
/*
 * The real path of an absolute path, as the kernel would walk it (see
 * above), into out.  Returns 0, or -1 when path is not absolute, too long
 * or loops (ELOOP): then out is not to be used.
 */
int	 path_resolve(const char *path, struct buf *out);

/* The root of dir (NULL or "" for none), lexically; nothing is read. */
void	 path_root_set(struct path_root *, struct arena *, const char *dir);
/* Looks up the root's real path, the first time only. */
void	 path_root_resolve(struct path_root *, struct arena *);
/* Whether the root's file system folds case; probed the first time. */
bool	 path_root_folds(struct path_root *);

/*
 * The lexical names of raw[0..len) (abs, rel), relative paths against cwd
 * (NULL or "" for none).  Nothing is read from the file system.
 */
void	 path_lexical(struct path_forms *, struct arena *,
	     const struct path_root *, const char *cwd, const char *raw,
	     size_t len);
/* Adds the real names (real, real_rel), the first time only. */
void	 path_physical(struct path_forms *, struct arena *,
	     struct path_root *);
/* path_lexical() then path_physical(): every name of raw. */
void	 path_identity(struct path_forms *, struct arena *,
	     struct path_root *, const char *cwd, const char *raw,
	     size_t len);
/*
 * The distinct names of f, in the order rel, abs, real_rel, real, into
 * v[0..PATH_FORMS_MAX) with their lengths and, if kinds is not NULL,
 * what each is.  Returns how many.
 */
size_t	 path_forms_list(const struct path_forms *f, const char **v,
	     size_t *lens, enum path_form_kind *kinds);

#endif
