/*
 * What the reader of interpreter one-liners (shellinterp.c) knows of
 * each language: how an interpreter is given its program, and the calls
 * that run a shell or delete (shellinterp_tab.c).  Not for other
 * modules.  Everything here is static data or borrows from its caller.
 */
#ifndef RR_SHELLINTERP_PRIV_H
#define RR_SHELLINTERP_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "shellwords.h"

struct buf;

enum lang { L_PYTHON, L_NODE, L_RUBY, L_PERL, L_PHP, L_AWK, L_OSA };

#define LB(l)	(1u << (l))
#define L_ALL	0x3fu	/* all but AppleScript, which has one call */

/* How each interpreter is given its program on the command line. */
struct interp {
	const char	*name;		/* name, or prefix with "*" */
	enum lang	 lang;
	const char	*prog_short;	/* letters followed by code */
	const char *const *prog_long;	/* long options followed by code */
	const char	*val_short;	/* letters taking the next word */
	const char	*rest_short;	/* letters taking the rest */
	bool		 first_arg;	/* awk: first operand is code */
};

enum kind {
	K_SHELL,	/* a string is a shell command, strings are words */
	K_ARGV,		/* strings are words; one string is a command only
			   with shell=True (python's subprocess), else
			   the program's name */
	K_RMRF,		/* deletes a tree */
	K_RM,		/* deletes a file (a tree when told "recursive") */
	K_RMDIR,	/* deletes an empty directory (likewise) */
	K_CODE,		/* a string is more code: exec, eval */
	K_EXECV,	/* os.execvp(FILE, [ARGV]): the words after FILE */
	K_WRITE,	/* writes its file: read as tee P */
	K_READ,		/* reads its file: read as cat P */
	K_OPEN		/* open(P, MODE): writes if MODE has w a x + */
};

struct call {
	const char	*name;		/* last part of a dotted name */
	const char	*prefix;	/* required before it, or NULL */
	unsigned	 langs;
	enum kind	 kind;
};

/*
 * The functions that compute a path from their arguments alone, so that
 * a call given one is read as if given the path (shutil.rmtree(
 * os.path.expanduser("~")) deletes ~).
 */
enum pathfn {
	PF_SAME,	/* its one argument: expanduser(P), Path(P) */
	PF_JOIN,	/* its arguments joined by '/': os.path.join */
	PF_HOME,	/* the home directory, ~: Path.home(), os.homedir() */
	PF_ENV		/* the variable its argument or key names: getenv */
};

struct pathfn_entry {
	const char	*name;		/* last part of a dotted name */
	const char	*prefix;	/* required before it, or NULL */
	unsigned	 langs;
	enum pathfn	 kind;
};

/* The interpreter c->program names, or NULL. */
const struct interp *sh_find_interp(const char *prog);
/*
 * The program text of c, every -e joined by newlines, into out.  Whether
 * there is one (a script file, -f progfile or python -m is none);
 * *from_stdin when there is none because it reads it from its input (no
 * script file, or "-").
 */
bool	 sh_program_text(const struct interp *, const struct sh_cmd *c,
	     struct buf *out, bool *from_stdin);
/*
 * The call named name[0..len) (a dotted name: its last part, and the
 * prefix some need) in lang, or NULL.
 */
const struct call *sh_find_call(enum lang, const char *name, size_t len);
/* Likewise for the path functions. */
const struct pathfn_entry *sh_find_pathfn(enum lang, const char *name,
	    size_t len);

#endif
