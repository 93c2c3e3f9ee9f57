/*
 * The two layers of the shell tokenizer (shellwords.h), and what passes
 * between them.  Not for other modules.  Every string lives in the
 * script's arena.
 *
 *   shellcmd.c    the command reader, upper layer: sh_parse() and
 *                 sh_release(); the words of a simple command become a
 *                 struct sh_cmd (assignments, variables, aliases,
 *                 wrappers, cd) and the scripts it runs (sh -c, eval,
 *                 su -c, env -S, find -exec) are parsed one level deeper.
 *                 It knows which programs are shells.
 *   shellwrap.c   part of the reader: the wrappers (sudo, env, timeout,
 *                 xargs ...) taken off a command's front; env -S.
 *   shellforms.c  part of the reader: the commands that other commands
 *                 run written differently (git aliases, parallel, watch,
 *                 ssh, trap, variables that hold a command).
 *   shellfunc.c   the reader's shell functions: which body a name runs,
 *                 in which shell (subshells, new shells, export -f).
 *   shellparams.c the reader's positional parameters ($1, "$@") of
 *                 sh -c and set --; it calls the lexer.
 *   shellinterp.c interpreter one-liners (python -c, node -e ...): the
 *                 reader hands it each command; it calls the lexer and
 *                 shellinterp_value.c (literals, names, path functions).
 *   shellrunners.c what uv run, docker exec, kubectl exec --, tmux ...
 *                 run, and an unknown program's arguments; it calls the
 *                 lexer.
 *   shellpipe.c   text fed to a shell on a pipe, and what echo, printf
 *                 and cat <<EOF write: the reader's pipe_input and
 *                 output hooks; it calls the lexer and shellinterp.c.
 *   shellwords.c  the lexer, lower layer: text becomes the words of each
 *                 simple command (quotes, expansions, lists, redirections,
 *                 here-documents), within the limits and the work budget.
 *                 It knows no program: it gives the reader the words and
 *                 hangs redirections and input on the first command the
 *                 reader made of them.
 *
 * The reader calls down: sh_lex(), sh_parse_nested(), sh_charge().  The
 * lexer names nothing of the reader; it calls up only through the struct
 * sh_hooks that the reader hands sh_lex(), with the reader's own state
 * (variables, aliases) in parser.ctx.  So the recursion of nested scripts
 * (a word list -> the reader -> sh -c's script -> the lexer -> ...) runs
 * through the hooks, bounded by SH_MAX_DEPTH, SH_MAX_NEST and the budget.
 * shellquery.c reads finished commands only and needs neither.
 */
#ifndef RR_SHELLWORDS_PRIV_H
#define RR_SHELLWORDS_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "shellwords.h"

struct buf;

#define SH_MAX_NEST	64	/* ( ), $( ), `` and nested scripts */
#define SH_MAX_BRACE	64	/* alternatives of one {a,b,...} */
#define SH_MAX_HEREDOCS	16
#define SH_MAX_BRACES	8	/* { } groups open in one list, tracked */
/*
 * Work, in bytes parsed again (sh -c, eval, aliases, backquotes) or
 * produced by an expansion ($var, {a,b}): at most this much plus so many
 * times the command's length.  Without it `c=$c$c` repeated, or scripts
 * evaluated inside evaluated scripts, grow exponentially.
 */
#define SH_WORK_BASE	(1u << 20)
#define SH_WORK_PER_BYTE 8

struct sh_word {
	const char	*s;		/* arena */
	size_t		 len;
	bool		 quoted;	/* some part was quoted or escaped */
	bool		 assign;	/* NAME=value with an unquoted NAME */
	bool		 split;		/* an unquoted expansion held blanks */
	bool		 redirect;	/* the target of a redirection */
	/*
	 * It starts with a quoted or escaped ~ or $ ('~/x', "~", '$HOME',
	 * \$HOME): a name, which bash neither makes home nor expands.
	 */
	bool		 literal_head;
	const char	*redir_op;	/* its operator (static), if so */
	/* One unquoted {a,b} group, as offsets in s; open < 0: none. */
	long		 open, close;
	size_t		*commas;	/* arena */
	size_t		 ncommas;
};

struct wordvec {
	struct sh_word	*v;
	size_t		 n, cap;
};

struct heredoc {
	const char	*delim;
	bool		 strip_tabs;
	bool		 quoted;	/* the delimiter was: no expansion */
	long		 cmd;		/* index in sc->cmds; -1 not yet, -2 none */
	long		 pipe_to;	/* the command cmd pipes into, or -1 */
};

/* State shared by every level of one sh_parse(). */
struct parser {
	struct sh_script	*sc;
	size_t			 work_left;	/* see SH_WORK_BASE */
	const struct sh_hooks	*hooks;
	void			*ctx;		/* the reader's state */
	/*
	 * The next command the reader makes is exec'd by a program (find
	 * -exec, xargs), which cannot call a shell function.
	 */
	bool			 exec_next;
};

/* One list being read: a script, a ( ) group or a $( ). */
struct frame {
	struct parser	*ps;
	const char	*end;
	int		 depth;		/* script nesting (sh -c, $()) */
	int		 nest;		/* C recursion */
	const char	*dir;		/* see struct sh_cmd */
	const char	*wd;		/* likewise */
	struct wordvec	 words;
	int		 redir;		/* the next word is a redirection target */
	const char	*redir_op;	/* and its operator */
	const char	*input;		/* here-string of the current command */
	long		 pipe_from;	/* the command piped into the current
					   one (`a | b`), or -1 */
	/*
	 * A group piped into the current command (`{ a; b; } | c`,
	 * `( a; b ) | c`): its commands sc->cmds[group_from..group_to),
	 * those at this frame's depth writing in turn; from == to: none.
	 * The group just read is last_from..last_to, and brace_starts
	 * holds where the { } groups being read began.
	 */
	size_t		 group_from, group_to;
	size_t		 last_from, last_to;
	size_t		 brace_starts[SH_MAX_BRACES];
	size_t		 nbraces;
	struct heredoc	 docs[SH_MAX_HEREDOCS];
	size_t		 ndocs;
};

/*
 * What the lexer asks of the command reader, which sets them.  The reader
 * finds its own state in parser.ctx.
 */
struct sh_hooks {
	/*
	 * The words of one simple command, read in f, at `depth`: they
	 * become commands in sc->cmds, and a cd sets f->dir and f->wd.
	 */
	void		 (*emit_words)(struct frame *f, struct sh_word *,
			     size_t n, int depth);
	/*
	 * The value of $name, or NULL when it is not known; also of the
	 * positional parameters "0".."9", "@" and "*" (len 1).
	 */
	const char	*(*lookup_var)(const struct parser *ps,
			     const char *name, size_t len);
	/*
	 * Whether c runs its standard input as its script (a shell with no
	 * -c and no script file), so that a here-document is parsed.
	 */
	bool		 (*runs_input)(const struct sh_cmd *c);
	/*
	 * sc->cmds[from] writes to the standard input of sc->cmds[to]
	 * (`from | to`), called once from's here-document, if any, is read;
	 * from == to when to's own here-document has just been read.
	 */
	void		 (*pipe_input)(struct frame *f, size_t from, size_t to);
	/* What c writes, into out, when its words tell; else false. */
	bool		 (*output)(struct parser *ps, const struct sh_cmd *c,
			     struct buf *out);
	/*
	 * sc->cmds[i]'s redirections and input are final (its
	 * here-documents read): the files it writes are known.
	 */
	void		 (*written)(struct frame *f, size_t i);
	/* Keeps NAME=VALUE (a name no shell variable has) for later. */
	void		 (*set_var)(struct parser *ps, const char *word);
	/*
	 * The function name is defined with body[0..len), which runs where
	 * it is called, not here.
	 */
	void		 (*define)(struct frame *f, const char *name,
			     const char *body, size_t len);
	/*
	 * A subshell (( ), $( ), ``, <( )) starts: what it defines ends
	 * with it.  The value is handed back to scope_close() at its end.
	 */
	size_t		 (*scope_open)(struct parser *ps);
	void		 (*scope_close)(struct parser *ps, size_t mark);
};

/*
 * The lexer (shellwords.c), called by the reader.
 *
 * Reads text[0..len) into sc, which the caller has initialised, as the
 * top-level script, with a work budget for its length.
 */
void	 sh_lex(struct sh_script *sc, const char *text, size_t len,
	     const struct sh_hooks *hooks, void *ctx);
/*
 * Takes n bytes off the work left; false, with the script truncated, when
 * there is not that much left (the caller then does not do that work).
 */
bool	 sh_charge(struct parser *, size_t n);
/*
 * Appends s[0..len) single-quoted, so that the lexer reads it back as one
 * word whatever it holds: how the reader writes words into text that it
 * parses again.  A leading ~ or $ stays outside the quotes: the lexer
 * reads it back as home or a name, not a literal (literal_head).
 */
void	 sh_add_quoted(struct buf *b, const char *s, size_t len);
/*
 * The text of the file that a word made by a process substitution names
 * (`<(echo 'rm -rf ~')` is the file "rm -rf ~\n"... as the lexer writes
 * a <( ) whose output it knows; otherwise the command inside, which runs
 * there all the same), into *len; NULL when word is not a <( ).
 */
const char *sh_proc_sub(const char *word, size_t *len);
/* The characters that split an unquoted expansion: $IFS when known. */
const char *sh_ifs(const struct parser *);
/* Parses text as a script one level deeper than f, within the limits. */
void	 sh_parse_nested(struct frame *f, const char *text, size_t len);
/*
 * Likewise, the commands it makes marked with origin (copied to the
 * arena), for text that a shell would not read as written.
 */
void	 sh_parse_from(struct frame *f, const char *text, size_t len,
	     const char *origin);

/*
 * The reader's pipe_input hook (shellpipe.c): when `from` writes known
 * text (echo, printf, cat of a here-document) and `to` is a shell that
 * runs its input, the text is parsed one level deeper.
 */
void	 sh_pipe_input(struct frame *f, size_t from, size_t to);
/*
 * The reader's written hook (shellpipe.c): a file that sc->cmds[i]
 * writes with known text (echo ... > f, cat > f <<EOF, tee f <<EOF) is
 * remembered, so that a shell that later runs or sources it in the same
 * command line is read (sh_source_word()).
 */
void	 sh_record_written(struct frame *f, size_t i);
/*
 * The text a file written earlier in the line holds (sh_record_written),
 * or NULL: word as a shell names it (./s.sh is s.sh).
 */
const char *sh_written_text(struct parser *ps, const char *word);
/*
 * The reader's output hook (shellpipe.c): echo, printf, cat <<EOF, and
 * cat or tee of a known input.
 */
bool	 sh_literal_output(struct parser *ps, const struct sh_cmd *c,
	     struct buf *out);

/*
 * The positional parameters (shellparams.c), in the reader's state:
 * $0..$9, then $@ (and $*) the ones after $0 joined by the first
 * character of $IFS when they were set; all NULL outside sh -c.
 */
#define SH_NPARAMS	11
struct sh_params {
	const char	*pos[SH_NPARAMS];
};
/* The value of $name (0..9, @, *), or NULL when no one can tell. */
const char *sh_param(const struct sh_params *, char name);
/* set -- ARGS: the parameters from then on. */
void	 sh_set_builtin(struct parser *, struct sh_params *,
	     const struct sh_cmd *c);
/*
 * sh -c SCRIPT ARGS: the script parsed one level deeper with $0 ... from
 * c->argv[first] on, the parameters around it put back after.
 */
void	 sh_parse_with_args(struct frame *f, struct sh_params *,
	     const char *script, const struct sh_cmd *c, size_t first);

/*
 * The shell functions (shellfunc.c), in the reader's state: each
 * definition in order, a later one of the same name hiding the earlier;
 * those below floor were defined in a shell that started the one being
 * read, which sees them only when exported.
 */
#define SH_MAX_FUNCS	64
struct sh_func {
	const char	*name;
	const char	*body;
	bool		 exported;
};
struct sh_funcs {
	struct sh_func	 v[SH_MAX_FUNCS];
	size_t		 n, floor;
};
/* What sh_func_leave() restores. */
struct sh_func_scope {
	size_t		 n, floor;
};
/* NAME() { BODY }: false when the table or the work budget is full. */
bool	 sh_func_define(struct parser *, struct sh_funcs *, const char *name,
	     const char *body, size_t len);
/* The body a command named name runs in this shell, or NULL. */
const char *sh_func_body(const struct sh_funcs *, const char *name);
/* Whether a function name was defined but is not seen in this shell. */
bool	 sh_func_hidden(const struct sh_funcs *, const char *name);
/* export -f NAMES, declare -fx NAMES, typeset -fx NAMES; else nothing. */
void	 sh_func_export(struct sh_funcs *, const struct sh_cmd *c);
/*
 * A subshell or, with new_shell, a new shell starts; sh_func_leave()
 * at its end forgets what it defined or exported.
 */
struct sh_func_scope sh_func_enter(struct sh_funcs *, bool new_shell);
void	 sh_func_leave(struct sh_funcs *, struct sh_func_scope);
/* The reader's functions (shellcmd.c), for the modules it calls. */
struct sh_funcs *sh_reader_funcs(struct parser *);

/*
 * Interpreter one-liners (shellinterp.c), called by the reader: when c
 * is python -c, node -e, ruby -e, perl -e, php -r or awk, the calls in
 * its program that run a shell or delete files are parsed one level
 * deeper as shell commands.  Returns whether c is such an interpreter.
 */
bool	 sh_interp(struct frame *f, const struct sh_cmd *c);
/*
 * Likewise for text an interpreter c reads as its program on its input
 * (python3 - <<EOF, echo ... | node).  Whether c reads it so.
 */
bool	 sh_interp_stdin(struct frame *f, const struct sh_cmd *c,
	     const char *text, size_t len);

/*
 * The wrappers (shellwrap.c): programs that run the command after their
 * own options (sudo, env, nohup, timeout, xargs ...), which the reader
 * takes off a command's front.
 */
struct wrapper {
	const char	*name;
	const char	*short_args;	/* option letters that take a value */
	const char *const *long_args;	/* long options that take a value */
	int		 positional;	/* arguments before the command */
};
/* The wrapper a program name is, or NULL. */
const struct wrapper *sh_find_wrapper(const char *name);
/*
 * Index of the command the wrapper at w[i] runs: past its options and
 * their values, its positional arguments and, for env, assignments; env
 * -S STRING's string read as more of env's arguments, one level deeper.
 */
size_t	 sh_skip_wrapper(struct frame *f, const struct wrapper *wr,
	     struct sh_word *w, size_t i, size_t n);
/*
 * The directory a wrapper at w[i] runs its command in (env -C DIR, sudo
 * -D DIR, --chdir DIR), from its words up to its command w[end], or NULL.
 */
const char *sh_wrapper_chdir(const struct wrapper *wr,
	     const struct sh_word *w, size_t i, size_t end);

/*
 * The forms of the reader (shellforms.c), called by shellcmd.c.
 *
 * Parses what the simple command c runs written differently (git
 * aliases, parallel, watch, ssh, trap), one level deeper than f; pre[0..
 * npre) are the words before c's program, its assignments among them.
 * Whether c is one of those programs.
 */
bool	 sh_run_forms(struct frame *f, const struct sh_cmd *c,
	     const struct sh_word *pre, size_t npre);
/*
 * The runners (shellrunners.c), called by shellcmd.c after the forms:
 * what uv run, docker exec, kubectl exec --, tmux and the like run, one
 * level deeper; and, unless known (a program the reader read already),
 * the arguments of a program nobody here knows when they start with a
 * program the packs judge.
 */
void	 sh_runner_forms(struct frame *f, const struct sh_cmd *c, bool known);
/*
 * Its here-document just read, a runner's command is read again with it
 * as input (uv run python - <<EOF); called by shellpipe.c.
 */
void	 sh_runner_stdin(struct frame *f, const struct sh_cmd *c);
/*
 * An assignment NAME=VALUE: VALUE parsed when NAME holds a command, or
 * the file it names when NAME holds a file a shell sources (BASH_ENV).
 */
void	 sh_command_var(struct frame *f, const char *word);
/*
 * A word that names a file a shell sources or runs (source W, bash
 * --rcfile W, bash W): when it is a process substitution (sh_proc_sub()),
 * its text is parsed one level deeper.
 */
void	 sh_source_word(struct frame *f, const char *word);
/*
 * What the simple command c sets for the commands after it, as a
 * variable NAME=VALUE that the reader keeps (NAME no shell variable can
 * have): `for NAME in WORDS` the WORDS, `git config KEY VALUE` the VALUE;
 * NULL for other commands.  Arena.
 */
const char *sh_form_var(struct frame *f, const struct sh_cmd *c);
/*
 * Words that start with a for loop's $NAME become one word per value of
 * the loop (rm -rf "$d" over / /home is read as rm -rf / /home).
 */
void	 sh_expand_loops(struct frame *f, struct wordvec *x);

static inline bool
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static inline bool
is_name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline bool
is_name_char(char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9');
}

#endif
