/*
 * Where programs are: the file PATH would run for a name, and this
 * program's own file.  init registers the bare name only when it is on
 * PATH; doctor checks that what the clients will run is there.
 */
#ifndef RR_PROGPATH_H
#define RR_PROGPATH_H

/*
 * The file of name in $PATH that could be run (a regular, executable
 * file), or NULL; an empty entry of PATH is the current directory.
 * Owned.
 */
char	*progpath_find(const char *name);

/* This program's file, its real path; NULL when it cannot be told. */
char	*progpath_self(void);

#endif
