/*
 * The files a shell command would write or delete, and the files it
 * would read (reflexion-rules(5), `path` and `read_path` of a shell
 * command), from a parsed script (shellwords.h):
 *
 *   - redirections: > >> >| &> &>> >&FILE write, < <&FILE read, <> both,
 *     those of no command (`> f`, `{ ...; } > f`) too; here-documents
 *     and here-strings are no files;
 *   - the arguments of the programs of the table in shelltargets.c: per
 *     program, which operands it writes, deletes or reads, past its
 *     options (and the values of the options that take one), with the
 *     files some options name (cp -t DIR, sort -o FILE, grep -f FILE,
 *     curl -d @FILE ...).
 *
 * The words are taken as the tokenizer left them (quotes removed,
 * variables set in the line expanded); an unknown expansion stays as
 * written, nothing is guessed.  "-" (standard input or output) and the
 * words of <( ) and >( ) are no files: the commands inside are read as
 * commands of their own.
 *
 * Nothing here touches the file system: a target is the word and the
 * working directory the command runs in (sh_cmd.wd), made absolute by
 * the caller.  Work is linear in the command: what a destination
 * directory and its sources make together (cp a b DIR gives DIR/a and
 * DIR/b) is charged to a budget, past which `truncated` is set.
 *
 * struct sh_targets owns its array and an arena for the texts it makes;
 * `file`, `wd` and `cmd` may also point into the script's arena, so the
 * script must outlive the targets.
 */
#ifndef RR_SHELLTARGETS_H
#define RR_SHELLTARGETS_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "shellwords.h"

enum sh_access {
	SH_READ,
	SH_WRITE	/* written, created, moved away or deleted */
};

struct sh_target {
	const char	*file;		/* the file as the command names it */
	const char	*wd;		/* where it runs (sh_cmd.wd) */
	/*
	 * What names it, for explain: a redirection's operator ("> ")
	 * when `redirect`, else the program and the role of the word
	 * ("cp destination", "tee", "sed -i").
	 */
	const char	*how;
	bool		 redirect;
	/*
	 * The file is DIR/NAME for a destination DIR that may be a file
	 * too (cp a b: b, or b/a when b is a directory): if_dir is that
	 * DIR, and the file counts unless DIR is on disk and no
	 * directory (eval_paths.c looks); NULL: it counts.
	 */
	const char	*if_dir;
	const char	*cmd;		/* the simple command's text, or NULL
					   for a redirection of no command */
	enum sh_access	 access;
};

struct sh_targets {
	struct arena	 arena;
	struct sh_target *v;
	size_t		 n, cap;
	bool		 truncated;	/* the budget cut the list short */
};

/* Fills out (initialised here) with the targets of every command of sc. */
void	 sh_targets_collect(const struct sh_script *sc,
	     struct sh_targets *out);
void	 sh_targets_release(struct sh_targets *);

/*
 * The i-th program whose arguments are understood, in sorted order, or
 * NULL past the last: for the manual's list and its test.
 */
const char *sh_target_program(size_t i);

#endif
