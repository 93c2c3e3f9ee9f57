/*
 * The two places everything else is found from (reflexion-rules(1),
 * RULE SOURCES, ENVIRONMENT, SECURITY): the user's data directory, which
 * holds the user's rules, config.yaml, the cache, the session state and
 * the database; and the project root, which holds the project's rules.
 * Every command finds them here, so the hook and the commands that check
 * or compile its rules never disagree about where they are.
 */
#ifndef RR_PLACES_H
#define RR_PLACES_H

/*
 * The data directory, or why there is none.  Owns its strings.
 *
 * It is $REFLEXION_HOME, a leading "~" or "~/" expanded with $HOME, else
 * $HOME/.reflexion.  There is none when neither is set (or both are
 * empty): never a shared directory such as /tmp, which another local
 * user could create first.  A home that is named but cannot be trusted
 * is refused: a relative path (relative to what? the hook's directory
 * changes with every call), or a home, or its config.yaml, rules/,
 * cache/, state/ or data/, that is not owned by this user or that others
 * can write (its group too, unless it is the user's own primary group,
 * as with a umask of 002).  Without a home there are no user rules, no
 * packs, no cache and no memory; project rules and --rules still work.
 */
struct rr_home {
	char	*dir;		/* absolute; NULL when there is none */
	char	*refused;	/* a path named but refused, or NULL */
	char	*why;		/* dir NULL: why, one line without a prefix */
};

void	 home_find(struct rr_home *);
void	 home_release(struct rr_home *);
/*
 * home->why as one line for stderr: "reflexion-rules: [REFUSED: ]WHY\n";
 * owned.  NULL when there is a home.
 */
char	*home_note(const struct rr_home *);

/*
 * The project root of a directory: $CLAUDE_PROJECT_DIR if set and not
 * empty; else the git work tree that holds dir (the nearest directory,
 * from dir upwards, with a ".git" entry: a directory, or a file for a
 * worktree or submodule; git is not run); else dir itself.  dir is the
 * event's cwd for the hook and explain; NULL, "" or a relative path
 * means the current directory.  A ".git" that this user does not own,
 * or in a directory this user does not own, is not a project: anyone
 * can create /tmp/.git.  Owned; "" only when no directory is known.
 */
char	*project_root(const char *dir);

#endif
