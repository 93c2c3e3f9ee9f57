/*
 * Glob patterns in the words of a shell command, expanded as the shell
 * will expand them when it runs the command: `rm -rf /e?c` removes
 * /etc, and a star as the first segment names every top-level directory.  A
 * rule that compares the word as written cannot see that; it compares
 * the names the pattern expands to as well.
 *
 * Only the first segment that holds a pattern is expanded, against the
 * directory before it on this machine (where the agent's shell runs
 * too), and what follows it is kept as written (a star segment under
 * / followed by /x gives /bin/x, /etc/x ...).  The work is bounded whatever the directory holds: at most
 * SH_GLOB_SCAN entries are read and SH_GLOB_MAX names made.  The strings
 * made live in the arena the caller passes; nothing is kept between
 * calls.  This file calls only the helpers below it (arena, buf).
 */
#ifndef RR_SHELLGLOB_H
#define RR_SHELLGLOB_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"

#define SH_GLOB_SCAN	4096	/* directory entries read, at most */
#define SH_GLOB_MAX	64	/* names made, at most */

/* Whether word holds a character that makes it a pattern: * ? [ */
bool	 sh_is_pattern(const char *word);

/*
 * The names that path (a word rooted at /, ~ or $HOME, as
 * sh_arg_path() writes it) expands to, into out[0..max), written with
 * the same root as path (~/.ss? gives ~/.ssh).  home is the absolute
 * path ~ and $HOME stand for, or NULL (then only paths rooted at / are
 * expanded).  Returns how many; 0 when path holds no pattern, its
 * directory cannot be read, or nothing matches.
 */
size_t	 sh_arg_globs(const char *path, const char *home, struct arena *a,
	     const char **out, size_t max);

#endif
