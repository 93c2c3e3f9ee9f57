/*
 * Shell command lines split into simple commands, for rules that must not
 * be bypassed by rewording (reflexion-rules(5), the `shell` condition).
 *
 * sh_parse() reads a POSIX/bash command line the way a shell would split
 * it, without running or expanding anything it cannot know:
 *
 *   - lists and pipelines are cut on ; & && || | |& newlines, ( ) groups;
 *     $( ), backquotes, <( ) and >( ) are parsed as commands of their own,
 *     also inside $(( )); a $( ) of echo, printf or cat <<EOF is the text
 *     they write;
 *   - quotes and backslashes are removed ('r''m', "rm", \rm all give rm),
 *     $'..' escapes are decoded, brace groups {a,b} are expanded;
 *   - $name and ${name} take the value of an earlier literal assignment
 *     in the same line (x=rm; $x ...); unknown ones stay as written, with
 *     ${HOME} written $HOME; in the script of sh -c, $0..$9, $@ and $*
 *     take the arguments after it; unquoted ones are split on blanks, or
 *     on a literal $IFS;
 *   - leading NAME=value words, redirections and here-documents are taken
 *     out of argv (kept in their own fields), comments are dropped;
 *   - wrappers are unwrapped: sudo, doas, env, command, builtin, exec,
 *     nohup, nice, ionice, time, timeout, stdbuf, setsid, xargs, busybox,
 *     pkexec, flock, chroot, taskset, chrt, fakeroot, strace..., with
 *     their options; reserved words (if, then, do, !, { ...) too;
 *   - sh -c, bash -c (any shell, $SHELL too; not with -n), su -c, eval,
 *     env -S, find -exec and a shell fed a here-document or here-string,
 *     or known text on a pipe (echo, printf, cat <<EOF), have their
 *     script parsed as commands one level deeper; so do the commands
 *     that parallel, watch, ssh HOST, trap, git aliases and
 *     command-valued variables (GIT_SSH_COMMAND=...) run (shellforms.c);
 *   - the calls of an interpreter one-liner (python -c, node -e, ruby -e,
 *     perl -e, php -r, awk) that run a shell or delete files with literal
 *     arguments are read as the shell commands they amount to, one level
 *     deeper, with sh_cmd.origin saying so;
 *   - in `for NAME in WORDS`, a later word starting with $NAME stands for
 *     each of WORDS;
 *   - a literal `cd DIR` is remembered for the commands after it in the
 *     same list (`dir` when it is absolute, `wd` in every case);
 *   - `alias NAME=VALUE` makes a later command NAME ARGS run VALUE ARGS,
 *     parsed one level deeper (never NAME inside its own value).
 *
 * Everything lives in the script's arena and is freed by sh_release().
 * Parsing never fails: input it cannot make sense of (an unterminated
 * quote, say) is read as the shell would read as much of it as possible,
 * and limits on nesting, size and work (text parsed again or produced by
 * expansions) set `truncated` instead of recursing or growing without
 * bound.
 */
#ifndef RR_SHELLWORDS_H
#define RR_SHELLWORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"

struct sh_cmd {
	const char	**argv;		/* unquoted words, wrappers removed */
	size_t		  argc;		/* >= 1 */
	const char	 *program;	/* basename of argv[0], no .exe */
	const char	 *text;		/* the words as written, unquoted,
					   wrappers kept, joined by spaces */
	const char	**redirects;	/* targets of < > >> &> ... */
	const char	**redirect_ops;	/* the operator of each (static):
					   < > >> >| <> &> &>> >& <& */
	size_t		  nredirects;
	const char	 *input;	/* here-document or here-string, or NULL */
	const char	 *dir;		/* absolute directory (or one under ~
					   or $NAME) from an earlier cd, or
					   NULL */
	const char	 *wd;		/* see below */
	int		  depth;	/* 0 top level; +1 per sh -c, eval, $() */
	const char	 *via;		/* the text of the command that runs
					   this one (sh -c, parallel, a git
					   alias...), or NULL */
	const char	 *origin;	/* how the text became this command
					   when not as a shell reads it
					   ("python3: os.system(...)"),
					   or NULL */
	const char	 *note;		/* why a function of its name was
					   not run, for explain, or NULL */
};

/*
 * wd, the working directory the cds before a command left, lexically
 * resolved as cd -L does: NULL where the command line started; a path
 * relative to that ("sub", "../x"), absolute, or under ~ or $NAME; or
 * sh_unknown_dir when no one can tell (cd -, popd, cd $(...)).
 */
extern const char sh_unknown_dir[];

/*
 * A redirection that belongs to no simple command: `> f` alone, after
 * assignments only (`x=1 > f`), or after a group or loop
 * (`{ ...; } > f`, `(...) > f`, `done < f`).  Its target is used all the
 * same.
 */
struct sh_redirect {
	const char	*target;
	const char	*op;		/* as in sh_cmd.redirect_ops */
	const char	*wd;		/* as in sh_cmd.wd */
	int		 depth;
};

struct sh_script {
	struct arena	 arena;
	struct sh_cmd	*cmds;
	size_t		 n, cap;
	struct sh_redirect *loose;	/* see struct sh_redirect */
	size_t		 nloose, loosecap;
	bool		 truncated;	/* a limit stopped the parse early */
};

/* Limits: nesting of scripts in scripts, commands, words per command. */
#define SH_MAX_DEPTH	8
#define SH_MAX_CMDS	16384
#define SH_MAX_WORDS	4096

/* Parses text[0..len) (need not be NUL-terminated) into sc. */
void	 sh_parse(struct sh_script *sc, const char *text, size_t len);
void	 sh_release(struct sh_script *sc);

/*
 * The subcommand of cmd: its first argument that is not an option, after
 * the global options of a few known programs that take a value (git -C
 * DIR, docker -H HOST, kubectl -n NS).  NULL when there is none.
 */
const char *sh_subcommand(const struct sh_cmd *cmd);

/*
 * Whether cmd has the option `flag` before any "--": "-r" is a short
 * option, found in bundles (-rf, -fr); "--force" a long one, compared up
 * to '=' (so --force-with-lease is not --force); "-delete" (one dash,
 * several letters) a whole word.
 */
bool	 sh_has_flag(const struct sh_cmd *cmd, const char *flag);

struct buf;
/*
 * The path an argument names, written plainly, into out: for a word
 * rooted at /, ~ or $NAME, "." segments and repeated or trailing slashes
 * dropped, ".." dropping the segment before it (lexically, as cd -L
 * does: /tmp/../etc is /etc, /./ is /), and a leading ${NAME:?...},
 * ${NAME:-...} or ${NAME:=...}, which is $NAME when NAME is set, written
 * $NAME.  When ".." climbs above ~, ~NAME or $HOME, they stand for the
 * directory home names (~NAME: NAME beside it), and the path is written
 * absolute ($HOME/.. is /home when home is /home/dev).  False when the
 * word is not such a path, is written plainly already, or ".." climbs
 * above a root it cannot place (another $NAME, or no absolute home).
 */
bool	 sh_arg_path(const char *arg, const char *home, struct buf *out);

#endif
