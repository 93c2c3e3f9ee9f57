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
	K_OPEN,		/* open(P, MODE): writes if MODE has w a x + */
	K_COPY,		/* copies its first argument to its second: cp */
	K_MOVE		/* moves it: mv */
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

/*
 * The state of one scan of a program (shellinterp.c), and what the
 * value reader (shellinterp_value.c) keeps in it.
 */
#define MAX_CALL_ARGS	64	/* words of one list form */
#define MAX_VARS	16	/* literal assignments remembered */
#define MAX_ALIASES	16	/* other names of modules and calls */
#define MAX_NAME	128	/* bytes of a dotted name looked up */
#define ORIGIN_MAX	80	/* bytes of the call shown in explain */
#define MAX_CODE_DEPTH	4	/* eval("eval(\"...\")") */


struct scan {
	struct frame	*f;
	enum lang	 lang;
	const char	*prog;		/* the interpreter's name */
	const char	*start, *end;	/* the program text */
	/* The text on the program's standard input (a here-document or
	   here-string) when the program is not read from it; or NULL. */
	const char	*input;
	int		 depth;		/* of exec and eval strings */
	/* NAME = "literal" earlier in the program: the call's argument. */
	struct {
		const char	*name, *value;	/* the arena */
		size_t		 nlen, vlen;
	}		 vars[MAX_VARS];
	size_t		 nvars;
	/*
	 * Names that stand for another (from os import system as run,
	 * import subprocess as sp, const {execSync: x} = require(...),
	 * run = os.system): the call is looked up by what they stand for.
	 */
	struct {
		const char	*name, *target;	/* the arena */
		size_t		 nlen;
	}		 aliases[MAX_ALIASES];
	size_t		 naliases;
	/* awk: where the expression of the current print starts, or NULL;
	   the last string literal and where it was (for | getline). */
	const char	*awk_print;
	const char	*awk_last, *awk_last_at;
};

/* shellinterp_value.c */
bool		 ip_is_ident(char c);
const char	*ip_skip_blanks(const char *p, const char *end);
/*
 * A string literal at *pp into out, unescaped; *pp moves past it.  False
 * (and *pp unmoved) when there is none, or when it is computed.
 */
bool		 ip_literal(struct scan *, const char **pp, struct buf *out);
/*
 * Whether prog, in lang, holds an expression that reads its standard
 * input whole (stdin_value()): worth a second reading once the input is
 * known.
 */
bool		 ip_reads_stdin(enum lang, const char *prog, size_t len);
/* The value of a name assigned one, into out (shellinterp_value.c). */
bool		 ip_var(struct scan *, const char *name, size_t len,
		     struct buf *out);
/*
 * A value computed from literals alone at *pp, into out: a literal, a
 * name assigned one, or a path function of such values (depth: of
 * nested calls so far, 0 at the top).
 */
bool		 ip_value(struct scan *, const char **pp, struct buf *out,
		     int depth);
/* Past a python keyword argument's name (path="/"), if p is at one. */
const char	*ip_keyword(const char *p, const char *end);
/* The end of a dotted name at p (a.b.c), or p when there is none. */
const char	*ip_dotted_end(const struct scan *, const char *p);
/*
 * name[0..len) with its first part replaced by what an alias stands
 * for, into out; false when its first part is no alias.
 */
bool		 ip_resolve_alias(const struct scan *, const char *name,
		     size_t len, struct buf *out);
/* Python's import and from ... import, p after the keyword. */
const char	*ip_python_import(struct scan *, bool from, const char *p);
/* JavaScript's { a: b } = require("m"), p at the '{'. */
const char	*ip_node_destructure(struct scan *, const char *p);
/*
 * NAME = VALUE at name (len bytes), p after the name: a value or an
 * alias remembered.  Returns where the scan goes on.
 */
const char	*ip_assignment(struct scan *, const char *name, size_t len,
		     const char *p);

#endif
