/*
 * Shared by shellwords.c (the lexer: words, quotes, expansions, lists)
 * and shellcmd.c (simple commands: wrappers, nested scripts, cd).  Not
 * for other modules.  Every string lives in the script's arena.
 */
#ifndef RR_SHELLWORDS_PRIV_H
#define RR_SHELLWORDS_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "shellwords.h"

#define SH_MAX_NEST	64	/* ( ), $( ), `` and nested scripts */
#define SH_MAX_VARS	64
#define SH_MAX_BRACE	64	/* alternatives of one {a,b,...} */
#define SH_MAX_HEREDOCS	16
#define SH_MAX_UNWRAP	16
#define SH_MAX_ALIASES	32
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
	/* One unquoted {a,b} group, as offsets in s; open < 0: none. */
	long		 open, close;
	size_t		*commas;	/* arena */
	size_t		 ncommas;
};

struct wordvec {
	struct sh_word	*v;
	size_t		 n, cap;
};

struct sh_var {
	const char	*name;
	const char	*value;
};

struct heredoc {
	const char	*delim;
	bool		 strip_tabs;
	long		 cmd;		/* index in sc->cmds; -1 not yet, -2 none */
};

struct sh_alias {
	const char	*name;
	const char	*value;
	bool		 active;	/* being expanded: not again inside */
};

/* State shared by every level of one sh_parse(). */
struct parser {
	struct sh_script	*sc;
	struct sh_var		 vars[SH_MAX_VARS];
	size_t			 nvars;
	struct sh_alias		 aliases[SH_MAX_ALIASES];
	size_t			 naliases;
	size_t			 work_left;	/* see SH_WORK_BASE */
};

/* One list being read: a script, a ( ) group or a $( ). */
struct frame {
	struct parser	*ps;
	const char	*end;
	int		 depth;		/* script nesting (sh -c, $()) */
	int		 nest;		/* C recursion */
	const char	*dir;
	struct wordvec	 words;
	int		 redir;		/* the next word is a redirection target */
	const char	*input;		/* here-string of the current command */
	struct heredoc	 docs[SH_MAX_HEREDOCS];
	size_t		 ndocs;
};

/* The lexer (shellwords.c). */
const char *sh_parse_list(struct parser *, const char *p, const char *end,
	     int depth, int nest, bool in_paren, const char *dir);
/*
 * Takes n bytes off the work left; false, with the script truncated, when
 * there is not that much left (the caller then does not do that work).
 */
bool	 sh_charge(struct parser *, size_t n);
/* Parses text as a script one level deeper than f, within the limits. */
void	 sh_parse_nested(struct frame *f, const char *text, size_t len);

/* Simple commands (shellcmd.c). */
void	 sh_emit_words(struct frame *, struct sh_word *, size_t n, int depth);
const char *sh_lookup_var(const struct parser *, const char *name,
	     size_t len);
bool	 sh_is_shell(const char *program);
/* The script of sh -c SCRIPT, or NULL; *reads_stdin: no script, no -c. */
const char *sh_shell_script(const struct sh_cmd *, bool *reads_stdin);

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
