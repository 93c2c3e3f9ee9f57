/*
 * The command reader of the shell tokenizer (see shellwords.h), the upper
 * layer (shellwords_priv.h): sh_parse() runs the lexer with this file's
 * hooks, and each word list the lexer reads becomes a struct sh_cmd once
 * assignments, reserved words and wrappers are off its front; then the
 * scripts it runs (sh -c, eval, su -c, find -exec) are parsed one level
 * deeper, and a cd is remembered.  The variables and aliases defined on
 * the way are this file's own state.  The queries rules make of a
 * command are in shellquery.c.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "shellwords_priv.h"
#include "strset.h"
#include "xmalloc.h"

#define SH_MAX_VARS	64
#define SH_MAX_ALIASES	32
#define SH_MAX_UNWRAP	16

struct sh_var {
	const char	*name;
	const char	*value;
};

struct sh_alias {
	const char	*name;
	const char	*value;
	bool		 active;	/* being expanded: not again inside */
};

/*
 * The reader's state for one sh_parse(), the lexer's parser.ctx: what
 * earlier commands defined, for the commands after them.
 */
struct reader {
	struct sh_var		 vars[SH_MAX_VARS];
	size_t			 nvars;
	struct sh_alias		 aliases[SH_MAX_ALIASES];
	size_t			 naliases;
	struct sh_params	 params;	/* $0, $1 ..., $@ */
	struct sh_funcs		 funcs;
};

static void emit_words(struct frame *, struct sh_word *, size_t, int);

static const char *
base_name(const char *s)
{
	const char	*slash = strrchr(s, '/');

	return slash && slash[1] ? slash + 1 : s;
}

/*
 * The program a lookup of its path names: $(which NAME), $(command -v
 * NAME), $(type -P NAME) or the same in backquotes run NAME.  NULL for
 * another word.
 */
static const char *
looked_up(struct arena *a, const char *word)
{
	static const char *const finders[] = {
		"which ", "command -v ", "type -P ", "type -p ", NULL
	};
	const char *const	*fi;
	const char		*p, *end;
	char			 close;
	size_t			 n;

	if (word[0] == '$' && word[1] == '(') {
		p = word + 2;
		close = ')';
	} else if (word[0] == '`') {
		p = word + 1;
		close = '`';
	} else
		return NULL;
	for (fi = finders; *fi != NULL; fi++)
		if (strncmp(p, *fi, strlen(*fi)) == 0)
			break;
	if (*fi == NULL)
		return NULL;
	p += strlen(*fi);
	n = strcspn(p, " \t)`$;|&<>");
	end = p + n;
	if (n == 0 || *end != close || end[1] != '\0')
		return NULL;
	return arena_strndup(a, p, n);
}

/*
 * The program a command word names: its base name, without the ".exe" of
 * a Windows program run from WSL or Git Bash (git.exe, GIT.EXE are git:
 * Windows file names ignore case).
 */
static const char *
program_name(struct arena *a, const char *word)
{
	const char	*b, *found;
	char		*p;
	size_t		 n, k;

	/* $(which rm) -rf / runs rm. */
	if ((found = looked_up(a, word)) != NULL)
		word = found;
	b = base_name(word);
	n = strlen(b);

	if (n <= 4 || b[n - 4] != '.' || (b[n - 3] | 0x20) != 'e' ||
	    (b[n - 2] | 0x20) != 'x' || (b[n - 1] | 0x20) != 'e')
		return b;
	p = arena_strndup(a, b, n - 4);
	for (k = 0; p[k]; k++)
		if (p[k] >= 'A' && p[k] <= 'Z')
			p[k] |= 0x20;
	return p;
}

/*
 * git-reset ARGS, /usr/libexec/git-core/git-push ARGS: the programs git
 * runs for its subcommands (and git-lfs and the like, which `git lfs`
 * runs) are git with that subcommand: argv becomes git SUB ARGS.
 */
static void
dashed_git(struct arena *a, struct sh_cmd *c)
{
	const char	**argv = arena_alloc(a, (c->argc + 2) * sizeof(*argv));

	argv[0] = "git";
	argv[1] = c->program + 4;
	memcpy(argv + 2, c->argv + 1, (c->argc - 1) * sizeof(*argv));
	c->argv = argv;
	c->argc++;
	c->program = "git";
}

/* The lexer's lookup_var hook. */
static const char *
lookup_var(const struct parser *ps, const char *name, size_t len)
{
	const struct reader	*r = ps->ctx;
	size_t			 i;

	if (len == 1 && ((name[0] >= '0' && name[0] <= '9') ||
	    name[0] == '@' || name[0] == '*'))
		return sh_param(&r->params, name[0]);
	for (i = r->nvars; i > 0; i--)
		if (strlen(r->vars[i - 1].name) == len &&
		    memcmp(r->vars[i - 1].name, name, len) == 0)
			return r->vars[i - 1].value;
	return NULL;
}

static void
set_var(struct parser *ps, const char *word)
{
	struct reader	*r = ps->ctx;
	const char	*eq = strchr(word, '=');
	struct arena	*a = &ps->sc->arena;

	if (eq == NULL || r->nvars == SH_MAX_VARS)
		return;
	r->vars[r->nvars].name = arena_strndup(a, word, (size_t)(eq - word));
	r->vars[r->nvars].value = arena_strdup(a, eq + 1);
	r->nvars++;
}

/*
 * alias NAME=VALUE: remembered for the rest of the line.  A shell that
 * expands aliases only in later lines, or not at all when not
 * interactive, runs less than this assumes; a guard may see more.
 */
static void
set_aliases(struct parser *ps, const struct sh_cmd *c)
{
	struct reader	*r = ps->ctx;
	struct arena	*a = &ps->sc->arena;
	const char	*eq;
	size_t		 k;

	for (k = 1; k < c->argc && r->naliases < SH_MAX_ALIASES; k++) {
		eq = strchr(c->argv[k], '=');
		if (eq == NULL || eq == c->argv[k])
			continue;
		r->aliases[r->naliases].name = arena_strndup(a, c->argv[k],
		    (size_t)(eq - c->argv[k]));
		r->aliases[r->naliases].value = arena_strdup(a, eq + 1);
		r->aliases[r->naliases].active = false;
		r->naliases++;
	}
}

static struct sh_alias *
find_alias(struct parser *ps, const char *name)
{
	struct reader	*r = ps->ctx;
	size_t		 i;

	for (i = r->naliases; i > 0; i--)
		if (strcmp(r->aliases[i - 1].name, name) == 0)
			return &r->aliases[i - 1];
	return NULL;
}

/*
 * Runs an alias: its value, then the command's other words quoted so
 * that none is read as shell syntax, parsed one level deeper.  The alias
 * is not expanded again inside its own value (alias rm='rm -i').
 */
static void
expand_alias(struct frame *f, struct sh_alias *al, const struct sh_word *w,
    size_t n)
{
	struct buf	 text;
	size_t		 k;

	buf_init(&text);
	buf_adds(&text, al->value);
	for (k = 1; k < n; k++) {
		buf_addc(&text, ' ');
		/* Quoted as written: del '~' is a name, del ~ home. */
		if (w[k].literal_head) {
			buf_addc(&text, '\\');
			buf_addc(&text, w[k].s[0]);
			sh_add_quoted(&text, w[k].s + 1, w[k].len - 1);
		} else
			sh_add_quoted(&text, w[k].s, w[k].len);
	}
	al->active = true;
	sh_parse_nested(f, text.data, text.len);
	al->active = false;
	buf_release(&text);
}

/* ---- simple commands ------------------------------------------------------ */

static const char *const reserved_words[] = {
	"!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done",
	"while", "until", "esac", "function", NULL
};

static const char *const shells[] = {
	"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "rbash",
	"fish", NULL
};

const char sh_unknown_dir[] = "?";

/* Whether a wd names its own root: /, ~ or $NAME. */
static bool
is_rooted(const char *wd)
{
	return wd[0] == '/' || wd[0] == '~' || wd[0] == '$';
}

/*
 * The wd after cd to target from wd, resolved lexically as cd -L does:
 * ".." drops the segment before it; above a relative start it stays
 * (../x), above / it is /, above ~ or $NAME no one can tell.  The text
 * is charged to the work budget: a long line of cds must not copy a
 * growing path at each one.
 */
static const char *
join_wd(struct parser *ps, const char *wd, const char *target)
{
	struct arena	*a = &ps->sc->arena;
	struct buf	 b;
	const char	*p, *seg, *r;
	size_t		 seglen, cut, floor;

	if (!is_rooted(target) && wd == sh_unknown_dir)
		return sh_unknown_dir;
	buf_init(&b);
	if (!is_rooted(target) && wd != NULL)
		buf_printf(&b, "%s/%s", wd, target);
	else
		buf_adds(&b, target);
	if (!sh_charge(ps, b.len)) {
		buf_release(&b);
		return sh_unknown_dir;
	}
	p = arena_strndup(a, b.data, b.len);
	buf_reset(&b);
	if (*p == '/')
		buf_addc(&b, '/');
	else if (*p == '~' || *p == '$') {
		for (seg = p; *p && *p != '/'; p++)
			;
		buf_add(&b, seg, (size_t)(p - seg));
	}
	/* What ".." cannot drop: the root, or a relative path's "../..". */
	floor = b.len;
	while (*p) {
		while (*p == '/')
			p++;
		for (seg = p; *p && *p != '/'; p++)
			;
		seglen = (size_t)(p - seg);
		if (seglen == 0 || (seglen == 1 && seg[0] == '.'))
			continue;
		if (seglen == 2 && seg[0] == '.' && seg[1] == '.') {
			if (b.len > floor) {
				for (cut = b.len; cut > floor &&
				    b.data[cut - 1] != '/'; cut--)
					;
				/* The '/' before the segment, unless "/". */
				if (cut > 1 && b.data[cut - 1] == '/')
					cut--;
				buf_truncate(&b, cut < floor ? floor : cut);
			} else if (b.len > 0 && b.data[0] == '/')
				;			/* /.. is / */
			else if (b.len > 0 && b.data[0] != '.') {
				buf_release(&b);	/* above ~ or $NAME */
				return sh_unknown_dir;
			} else {
				buf_adds(&b, b.len ? "/.." : "..");
				floor = b.len;
			}
			continue;
		}
		if (b.len > 0 && b.data[b.len - 1] != '/')
			buf_addc(&b, '/');
		buf_add(&b, seg, seglen);
	}
	/* cd './~' (a literal ~ made ./~) is a directory here, not home. */
	if (b.len > 0 && (b.data[0] == '~' || b.data[0] == '$') &&
	    floor == 0)
		r = arena_printf(a, "./%.*s", (int)b.len, b.data);
	else
		r = b.len == 0 ? NULL : arena_strndup(a, b.data, b.len);
	buf_release(&b);
	return r;
}

/* The wd after `cd ARGS` run in wd. */
static const char *
cd_target(struct parser *ps, const struct sh_cmd *c, const char *wd)
{
	size_t	i;

	for (i = 1; i < c->argc && c->argv[i][0] == '-' && c->argv[i][1] &&
	    strcmp(c->argv[i], "--") != 0; i++)
		;
	if (i < c->argc && strcmp(c->argv[i], "--") == 0)
		i++;
	if (i >= c->argc)
		return "~";
	if (strcmp(c->argv[i], "-") == 0 || strchr(c->argv[i], '`') ||
	    strstr(c->argv[i], "$("))
		return sh_unknown_dir;
	return join_wd(ps, wd, c->argv[i]);
}

/* Word splitting of unquoted expansions and {a,b} groups, into out. */
static void
expand_word(struct parser *ps, const struct sh_word *w, struct wordvec *out)
{
	struct arena	*a = &ps->sc->arena;
	struct sh_word	 nw;
	const char	*s = w->s, *p, *q, *ifs = sh_ifs(ps);
	size_t		 k, from, to;
	struct buf	 b;

	if (out->n + SH_MAX_BRACE + 1 > out->cap) {
		out->cap = out->cap * 2 + SH_MAX_BRACE + 1;
		out->v = xreallocarray(out->v, out->cap, sizeof(*out->v));
	}
	memset(&nw, 0, sizeof(nw));
	nw.open = -1;
	nw.quoted = w->quoted;
	if (w->split && !w->assign) {
		for (p = s; *p; p = q) {
			p += strspn(p, ifs);
			q = p + strcspn(p, ifs);
			if (q == p)
				break;
			if (out->n == out->cap) {
				out->cap *= 2;
				out->v = xreallocarray(out->v, out->cap,
				    sizeof(*out->v));
			}
			nw.s = arena_strndup(a, p, (size_t)(q - p));
			nw.len = (size_t)(q - p);
			out->v[out->n++] = nw;
		}
		return;
	}
	if (w->open < 0 || !sh_charge(ps, (w->ncommas + 1) * w->len)) {
		out->v[out->n++] = *w;
		return;
	}
	buf_init(&b);
	for (k = 0; k <= w->ncommas; k++) {
		from = k == 0 ? (size_t)w->open + 1 : w->commas[k - 1] + 1;
		to = k == w->ncommas ? (size_t)w->close : w->commas[k];
		buf_reset(&b);
		buf_add(&b, s, (size_t)w->open);
		buf_add(&b, s + from, to - from);
		buf_adds(&b, s + w->close + 1);
		nw.s = arena_strndup(a, b.data, b.len);
		nw.len = b.len;
		out->v[out->n++] = nw;
	}
	buf_release(&b);
}

/* A shell, or the user's shell by its variable ($SHELL -c ...). */
static bool
is_shell(const char *prog)
{
	return str_in_set(prog, shells) || strcmp(prog, "$SHELL") == 0 ||
	    strcmp(prog, "$BASH") == 0 || strncmp(prog, "${SHELL:", 8) == 0 ||
	    strncmp(prog, "${SHELL-", 8) == 0;
}

/*
 * The script a shell runs from its arguments (sh -c SCRIPT), or NULL.
 * *reads_stdin is set when it runs no script file and no -c (so a
 * here-document or here-string is its script).  With -n (noexec) a
 * shell only checks the syntax: it runs nothing.
 */
static const char *
shell_script(const struct sh_cmd *c, bool *reads_stdin, size_t *at)
{
	const char	*s;
	bool		 has_c = false, noexec = false, stdin_script = false;
	size_t		 i;

	*reads_stdin = false;
	for (i = 1; i < c->argc; i++) {
		s = c->argv[i];
		if (strcmp(s, "--") == 0 || strcmp(s, "-") == 0) {
			i++;
			break;
		}
		if ((s[0] == '-' || s[0] == '+') && (s[1] == 'o' ||
		    s[1] == 'O') && s[2] == '\0') {
			i++;
			continue;
		}
		if (s[0] == '-' && s[1] == '-') {
			if (strcmp(s, "--rcfile") == 0 ||
			    strcmp(s, "--init-file") == 0)
				i++;
			continue;
		}
		if (s[0] == '-' || s[0] == '+') {
			if (s[0] == '-' && strchr(s + 1, 'c') != NULL)
				has_c = true;
			/* -n reads the script and runs nothing. */
			if (s[0] == '-' && strchr(s + 1, 'n') != NULL)
				noexec = true;
			/* -s: the script is the input, the words arguments */
			if (s[0] == '-' && strchr(s + 1, 's') != NULL &&
			    s[1] != '-')
				stdin_script = true;
			continue;
		}
		break;
	}
	*at = i;
	if (noexec)
		return NULL;
	if (stdin_script && !has_c) {
		*reads_stdin = true;
		return NULL;
	}
	if (i < c->argc)
		return has_c ? c->argv[i] : NULL;
	*reads_stdin = !has_c;
	return NULL;
}

/* The lexer's define hook. */
static void
define_function(struct frame *f, const char *name, const char *body,
    size_t len)
{
	sh_func_define(f->ps, &((struct reader *)f->ps->ctx)->funcs, name,
	    body, len);
}

struct sh_funcs *
sh_reader_funcs(struct parser *ps)
{
	return &((struct reader *)ps->ctx)->funcs;
}

/* The lexer's scope hooks: a subshell's functions end with it. */
static size_t
scope_open(struct parser *ps)
{
	return sh_func_enter(&((struct reader *)ps->ctx)->funcs, false).n;
}

static void
scope_close(struct parser *ps, size_t mark)
{
	struct sh_funcs		*fs = &((struct reader *)ps->ctx)->funcs;
	struct sh_func_scope	 s = { mark, fs->floor };

	sh_func_leave(fs, s);
}

/* A new shell starts: it sees the exported functions only. */
static struct sh_func_scope
new_shell(struct frame *f)
{
	return sh_func_enter(&((struct reader *)f->ps->ctx)->funcs, true);
}

static void
end_shell(struct frame *f, struct sh_func_scope s)
{
	sh_func_leave(&((struct reader *)f->ps->ctx)->funcs, s);
}

/*
 * The body of the function c calls, or NULL; origin says which, for
 * explain.  A program that execs c (exec_only: env, sudo, xargs, command
 * ..., /usr/bin/time) runs a file of that name, never a function.
 */
static const char *
function_body(struct frame *f, const struct sh_cmd *c, bool exec_only,
    struct buf *origin)
{
	struct sh_funcs	*fs = &((struct reader *)f->ps->ctx)->funcs;
	const char	*body;

	if (c->argv[0][0] == '\0')
		return NULL;
	body = sh_func_body(fs, c->argv[0]);
	/* Why not, for explain: c is the last command made. */
	if (body != NULL && exec_only)
		f->ps->sc->cmds[f->ps->sc->n - 1].note = arena_printf(
		    &f->ps->sc->arena, "function %s not run: a program that "
		    "executes its command finds none", c->argv[0]);
	else if (body == NULL && sh_func_hidden(fs, c->argv[0]))
		f->ps->sc->cmds[f->ps->sc->n - 1].note = arena_printf(
		    &f->ps->sc->arena, "function %s not run: not exported to "
		    "this shell", c->argv[0]);
	if (exec_only || body == NULL)
		return NULL;
	buf_reset(origin);
	buf_printf(origin, "function %s", c->argv[0]);
	return body;
}

/* bash --rcfile FILE, --init-file FILE: FILE is sourced first. */
static void
shell_rcfiles(struct frame *f, const struct sh_cmd *c)
{
	size_t	i;

	for (i = 1; i + 1 < c->argc; i++) {
		if (strcmp(c->argv[i], "--") == 0 || c->argv[i][0] != '-')
			break;
		if (strcmp(c->argv[i], "--rcfile") == 0 ||
		    strcmp(c->argv[i], "--init-file") == 0)
			sh_source_word(f, c->argv[++i]);
	}
}

/* The lexer's runs_input hook: a here-document fed to sh is its script. */
static bool
runs_input(const struct sh_cmd *c)
{
	bool	reads_stdin;
	size_t	at;

	if (!is_shell(c->program))
		return false;
	return shell_script(c, &reads_stdin, &at) == NULL && reads_stdin;
}

/* Programs whose -c (--command) is a shell command, as su's. */
static const char *const runs_c[] = {
	"su", "runuser", "flock", "sg", "script", NULL
};

/*
 * Nested scripts run by the command just emitted.  Whether the program
 * is one this reads (a shell, an interpreter, eval, su -c, find ...).
 */
static bool
run_nested(struct frame *f, const struct sh_cmd *c, struct sh_word *w,
    size_t n, bool exec_only)
{
	struct buf		 b;
	const char		*script;
	bool			 reads_stdin;
	size_t			 i, j;
	struct sh_func_scope	 scope;

	buf_init(&b);
	if ((script = function_body(f, c, exec_only, &b)) != NULL) {
		/* A function defined earlier: its body runs here. */
		sh_parse_from(f, script, strlen(script), b.data);
		buf_release(&b);
		return true;
	}
	buf_release(&b);
	if (is_shell(c->program)) {
		scope = new_shell(f);
		script = shell_script(c, &reads_stdin, &i);
		if (script != NULL)
			sh_parse_with_args(f, &((struct reader *)
			    f->ps->ctx)->params, script, c, i + 1);
		else if (reads_stdin && c->input != NULL)
			sh_parse_nested(f, c->input, strlen(c->input));
		else if (i < c->argc)	/* bash FILE: a <( ) */
			sh_source_word(f, c->argv[i]);
		shell_rcfiles(f, c);
		end_shell(f, scope);
	} else if ((strcmp(c->program, "source") == 0 ||
	    strcmp(c->program, ".") == 0) && c->argc > 1) {
		sh_source_word(f, c->argv[1]);
	} else if (strchr(c->argv[0], '/') != NULL &&
	    sh_written_text(f->ps, c->argv[0]) != NULL) {
		sh_source_word(f, c->argv[0]);	/* ./s.sh, written above */
	} else if (sh_interp(f, c)) {
		/* An interpreter: its program's calls were read. */
	} else if (strcmp(c->program, "eval") == 0 && c->argc > 1) {
		buf_init(&b);
		for (i = 1; i < c->argc; i++) {
			if (i > 1)
				buf_addc(&b, ' ');
			buf_adds(&b, c->argv[i]);
		}
		sh_parse_nested(f, arena_strndup(&f->ps->sc->arena, b.data,
		    b.len), b.len);
		buf_release(&b);
	} else if (str_in_set(c->program, runs_c)) {
		/* su -c, flock -c ...: through a new shell. */
		scope = new_shell(f);
		for (i = 1; i < c->argc; i++) {
			const char *s = c->argv[i];
			if ((strcmp(s, "-c") == 0 ||
			    strcmp(s, "--command") == 0) && i + 1 < c->argc) {
				sh_parse_nested(f, c->argv[i + 1],
				    strlen(c->argv[i + 1]));
				break;
			}
			if (strncmp(s, "--command=", 10) == 0 ||
			    (strncmp(s, "-c", 2) == 0 && s[2])) {
				s += s[1] == 'c' ? 2 : 10;
				sh_parse_nested(f, s, strlen(s));
				break;
			}
		}
		end_shell(f, scope);
	} else if (strcmp(c->program, "find") == 0 &&
	    f->depth + 1 <= SH_MAX_DEPTH) {
		/* find -exec CMD ARGS ; (or +): the words up to ; or + */
		for (i = 0; i < n; i++) {
			if (strcmp(w[i].s, "-exec") && strcmp(w[i].s, "-execdir") &&
			    strcmp(w[i].s, "-ok") && strcmp(w[i].s, "-okdir"))
				continue;
			for (j = i + 1; j < n && strcmp(w[j].s, ";") &&
			    strcmp(w[j].s, "+"); j++)
				;
			if (j > i + 1) {
				/* find execs the program: no function. */
				f->ps->exec_next = true;
				emit_words(f, w + i + 1, j - i - 1,
				    f->depth + 1);
				f->ps->exec_next = false;
			}
			i = j;
		}
	} else
		return false;
	return true;
}

/*
 * Whether the wrapper at w[i], whose command is w[cmd], is bash's time
 * keyword, which runs a function as it runs any command: `time` unquoted
 * as the command's first word (first), then only unquoted -p and --.
 * `X=1 time f`, `"time" f` and `time -f FMT f` are /usr/bin/time, and
 * `time "--" f` times a command named "--".
 */
static bool
time_keyword(const struct sh_word *w, size_t i, size_t n, size_t cmd,
    bool first)
{
	size_t	k;

	if (!first || w[i].quoted || strcmp(w[i].s, "time") != 0)
		return false;
	for (k = i + 1; k < n && !w[k].quoted && (strcmp(w[k].s, "-p") == 0 ||
	    strcmp(w[k].s, "--") == 0); k++)
		;
	return k == cmd;
}

/*
 * Programs whose arguments are files and never a script that is read
 * again: there an argument written '~/x', "~", '$HOME' or \$HOME is a
 * file of that name here (bash expands neither), and becomes ./~/x,
 * ./$HOME so that no rule or target takes it for home.  Elsewhere the
 * word stays as written (sh -c '$1', perl -e '$x=...' are scripts).
 */
static const char *const file_programs[] = {
	"rm", "rmdir", "unlink", "shred", "srm", "trash", "trash-put", "cp",
	"mv", "ln", "install", "tee", "touch", "truncate", "mkdir", "chmod",
	"chown", "chgrp", "chattr", "setfacl", "cat", "head", "tail", "less",
	"more", "cd", "pushd", "ls", "stat", "wc", "du", NULL
};

static const char *const declarers[] = {
	"export", "declare", "typeset", "local", "readonly", NULL
};

/*
 * Turns words into a simple command at `depth`: assignments, reserved
 * words and wrappers off the front; the command is appended to the
 * script, then the scripts it runs are parsed.  The lexer's emit_words
 * hook, and run_nested()'s for find -exec.
 */
static void
emit_words(struct frame *f, struct sh_word *words, size_t nwords, int depth)
{
	struct sh_script	*sc = f->ps->sc;
	struct arena		*a = &sc->arena;
	struct reader		*r = f->ps->ctx;
	struct wordvec		 x;
	struct sh_cmd		*c;
	const struct wrapper	*wr;
	struct sh_alias		*al;
	struct buf		 text;
	const char		*s, *chdir = NULL;
	size_t			 i, k, unwraps = 0;
	bool			 bare = true;	/* nothing but assignments */
	bool			 assigned = false;
	/* Whether the command is exec'd: it cannot be a function. */
	bool			 exec_only = f->ps->exec_next;

	f->ps->exec_next = false;
	memset(&x, 0, sizeof(x));
	for (i = 0; i < nwords; i++)
		expand_word(f->ps, &words[i], &x);
	sh_expand_loops(f, &x);
	i = 0;
	for (;;) {
		while (i < x.n && x.v[i].assign) {
			assigned = true;
			i++;
		}
		if (i == x.n) {
			/* A line of assignments only: remember the values. */
			for (k = 0; bare && k < x.n; k++) {
				set_var(f->ps, x.v[k].s);
				sh_command_var(f, x.v[k].s);
			}
			free(x.v);
			return;
		}
		bare = false;
		if (!x.v[i].quoted && str_in_set(x.v[i].s, reserved_words)) {
			/*
			 * After an assignment a reserved word is a command's
			 * name (`X=1 ! f` runs a program named "!"): what
			 * follows is its argument, read on for safety, but
			 * no function.
			 */
			if (assigned)
				exec_only = true;
			/* function NAME { body: the body's first command. */
			if (strcmp(x.v[i].s, "function") == 0 && i + 2 < x.n &&
			    strcmp(x.v[i + 2].s, "{") == 0 && !x.v[i + 2].quoted)
				i += 2;
			i++;
			continue;
		}
		if (unwraps == 0 && !x.v[i].quoted &&
		    (al = find_alias(f->ps, x.v[i].s)) != NULL && !al->active) {
			expand_alias(f, al, x.v + i, x.n - i);
			free(x.v);
			return;
		}
		wr = sh_find_wrapper(base_name(x.v[i].s));
		/*
		 * sudo() { ...; }; sudo ls: the function runs, not sudo.
		 * Its body is read, and the wrapper's command all the same
		 * (the function may run its arguments).
		 */
		if (wr != NULL && !exec_only &&
		    (s = sh_func_body(&r->funcs, x.v[i].s)) != NULL) {
			buf_init(&text);
			buf_printf(&text, "function %s", x.v[i].s);
			sh_parse_from(f, s, strlen(s), text.data);
			buf_release(&text);
		}
		/* command -v NAME, -V: says what NAME is, runs nothing. */
		if (wr != NULL && strcmp(wr->name, "command") == 0 &&
		    i + 1 < x.n && x.v[i + 1].s[0] == '-' &&
		    strpbrk(x.v[i + 1].s + 1, "vV") != NULL)
			break;
		if (wr != NULL && unwraps < SH_MAX_UNWRAP) {
			k = sh_skip_wrapper(f, wr, x.v, i, x.n);
			/*
			 * Only bash's time keyword runs a function: `time`
			 * first and unquoted, with -p or -- after it;
			 * other wrappers exec a program of that name.
			 */
			if (!time_keyword(x.v, i, x.n, k, unwraps == 0 &&
			    !assigned))
				exec_only = true;
			unwraps++;
			if ((s = sh_wrapper_chdir(wr, x.v, i, k)) != NULL)
				chdir = s;
			if (k >= x.n && strcmp(wr->name, "env") != 0 &&
			    strcmp(wr->name, "time") != 0 &&
			    strcmp(wr->name, "command") != 0)
				break;	/* a wrapper with nothing to run */
			i = k;
			continue;
		}
		break;
	}
	if (i >= x.n) {
		free(x.v);
		return;
	}
	if (sc->n >= SH_MAX_CMDS) {
		sc->truncated = true;
		free(x.v);
		return;
	}
	if (sc->n == sc->cap) {
		sc->cap = sc->cap ? sc->cap * 2 : 16;
		sc->cmds = xreallocarray(sc->cmds, sc->cap, sizeof(*sc->cmds));
	}
	c = &sc->cmds[sc->n++];
	memset(c, 0, sizeof(*c));
	c->depth = depth;
	c->dir = f->dir;
	c->wd = f->wd;
	if (chdir != NULL) {
		/* env -C DIR: this command only runs there. */
		c->wd = strchr(chdir, '`') || strstr(chdir, "$(") ?
		    sh_unknown_dir : join_wd(f->ps, f->wd, chdir);
		c->dir = c->wd != NULL && c->wd != sh_unknown_dir &&
		    is_rooted(c->wd) ? c->wd : NULL;
	}
	c->input = f->input;
	c->argc = x.n - i;
	c->argv = arena_alloc(a, (c->argc + 1) * sizeof(*c->argv));
	for (k = 0; k < c->argc; k++)
		c->argv[k] = x.v[i + k].s;
	c->program = program_name(a, c->argv[0]);
	if (str_in_set(c->program, file_programs))
		for (k = 1; k < c->argc; k++)
			if (x.v[i + k].literal_head)
				c->argv[k] = arena_printf(a, "./%s",
				    c->argv[k]);
	if (strncmp(c->program, "git-", 4) == 0 && c->program[4] >= 'a' &&
	    c->program[4] <= 'z')
		dashed_git(a, c);
	buf_init(&text);
	for (k = 0; k < x.n; k++) {
		if (k)
			buf_addc(&text, ' ');
		buf_adds(&text, x.v[k].s);
	}
	c->text = arena_strndup(a, text.data, text.len);
	buf_release(&text);

	if (strcmp(c->program, "alias") == 0)
		set_aliases(f->ps, c);
	/* What a for loop or git config sets, for the commands after it. */
	if (!x.v[i].quoted && (s = sh_form_var(f, c)) != NULL)
		set_var(f->ps, s);
	if (strcmp(c->program, "set") == 0)
		sh_set_builtin(f->ps, &((struct reader *)f->ps->ctx)->params,
		    c);
	if (str_in_set(c->program, declarers))
		for (k = i + 1; k < x.n; k++)
			if (x.v[k].assign)
				set_var(f->ps, x.v[k].s);
	if (depth == f->depth && (strcmp(c->program, "cd") == 0 ||
	    strcmp(c->program, "pushd") == 0 ||
	    strcmp(c->program, "popd") == 0)) {
		f->wd = strcmp(c->program, "popd") == 0 ? sh_unknown_dir :
		    cd_target(f->ps, c, f->wd);
		f->dir = f->wd != NULL && f->wd != sh_unknown_dir &&
		    is_rooted(f->wd) ? f->wd : NULL;
	}
	/* c may move when nested commands grow the array: pass a copy. */
	{
		struct sh_cmd copy = *c;
		size_t first = sc->n;
		bool known, trap;

		struct sh_func_scope scope;

		sh_func_export(&r->funcs, &copy);
		known = run_nested(f, &copy, x.v + i, x.n - i, exec_only);
		/*
		 * What parallel, watch, git aliases and the runners run
		 * goes through a new shell or another machine; trap's
		 * command runs in this one.
		 */
		trap = strcmp(copy.program, "trap") == 0;
		if (!trap)
			scope = sh_func_enter(&r->funcs, true);
		known = sh_run_forms(f, &copy, x.v, i) || known;
		sh_runner_forms(f, &copy, known);
		if (!trap)
			sh_func_leave(&r->funcs, scope);
		for (k = 0; k < x.n; k++)
			if (x.v[k].assign && (k < i ||
			    str_in_set(copy.program, declarers)))
				sh_command_var(f, x.v[k].s);
		/*
		 * What it ran, for explain; deeper ones already name the
		 * command that ran them (at most SH_MAX_DEPTH visits each).
		 */
		for (k = first; k < sc->n; k++)
			if (sc->cmds[k].via == NULL)
				sc->cmds[k].via = copy.text;
	}
	free(x.v);
}

static const struct sh_hooks reader_hooks = {
	.emit_words = emit_words,
	.lookup_var = lookup_var,
	.runs_input = runs_input,
	.pipe_input = sh_pipe_input,
	.output = sh_literal_output,
	.written = sh_record_written,
	.set_var = set_var,
	.define = define_function,
	.scope_open = scope_open,
	.scope_close = scope_close
};

void
sh_parse(struct sh_script *sc, const char *text, size_t len)
{
	struct reader	*r;

	memset(sc, 0, sizeof(*sc));
	arena_init(&sc->arena);
	r = xcalloc(1, sizeof(*r));
	sh_lex(sc, text, len, &reader_hooks, r);
	free(r);
}

void
sh_release(struct sh_script *sc)
{
	free(sc->cmds);
	free(sc->loose);
	arena_release(&sc->arena);
	memset(sc, 0, sizeof(*sc));
}
