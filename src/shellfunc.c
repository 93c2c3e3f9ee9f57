/*
 * The shell functions of the command reader (shellwords_priv.h): which
 * function a command name runs, in which shell.  The reader keeps a
 * struct sh_funcs in its state; this file owns what a definition, an
 * export, a subshell and a new shell do to it, so that a body is read
 * where bash would run it and not where bash would say "command not
 * found":
 *
 *   - a function defined inside ( ), $( ), `` or <( ) is gone after it
 *     (a subshell's definitions die with it);
 *   - a new shell (sh -c, bash SCRIPT, a shell on a here-document, what
 *     parallel, watch or a git alias runs through sh -c) sees only the
 *     functions exported (export -f, declare -fx, typeset -fx).  bash
 *     imports them; dash does not, but sh is bash on macOS, so any
 *     shell counts as one that does.
 *
 * Only these two narrow what the reader sees; everything else (a name
 * written by an expansion, an alias) keeps the body visible.  The
 * strings are the script's arena.
 */
#include <string.h>

#include "shellwords_priv.h"

/* Whether entry i can be called in the shell being read. */
static bool
visible(const struct sh_funcs *fs, size_t i)
{
	return i >= fs->floor || fs->v[i].exported;
}

static long
find(const struct sh_funcs *fs, const char *name)
{
	size_t	i;

	for (i = fs->n; i > 0; i--)
		if (strcmp(fs->v[i - 1].name, name) == 0 && visible(fs, i - 1))
			return (long)(i - 1);
	return -1;
}

bool
sh_func_define(struct parser *ps, struct sh_funcs *fs, const char *name,
    const char *body, size_t len)
{
	struct arena	*a = &ps->sc->arena;

	if (fs->n == SH_MAX_FUNCS || !sh_charge(ps, len))
		return false;
	fs->v[fs->n].name = arena_strdup(a, name);
	fs->v[fs->n].body = arena_strndup(a, body, len);
	fs->v[fs->n].exported = false;
	fs->n++;
	return true;
}

const char *
sh_func_body(const struct sh_funcs *fs, const char *name)
{
	long	i = find(fs, name);

	return i < 0 ? NULL : fs->v[i].body;
}

bool
sh_func_hidden(const struct sh_funcs *fs, const char *name)
{
	size_t	i;

	if (find(fs, name) >= 0)
		return false;
	for (i = 0; i < fs->n; i++)
		if (strcmp(fs->v[i].name, name) == 0)
			return true;
	return false;
}

/*
 * Whether the options of declare/typeset (argv[1..]) ask for exported
 * functions: -f and -x, in one word or apart (-fx, -f -x, -xf).
 */
static bool
declares_exported(const struct sh_cmd *c, size_t *first)
{
	bool	fn = false, x = false;
	size_t	k;

	for (k = 1; k < c->argc && c->argv[k][0] == '-'; k++) {
		if (strcmp(c->argv[k], "--") == 0) {
			k++;
			break;
		}
		fn = fn || strchr(c->argv[k] + 1, 'f') != NULL;
		x = x || strchr(c->argv[k] + 1, 'x') != NULL;
	}
	*first = k;
	return fn && x;
}

void
sh_func_export(struct sh_funcs *fs, const struct sh_cmd *c)
{
	size_t	k, first;
	long	i;

	if (strcmp(c->program, "export") == 0) {
		/* export -f NAME...: -f anywhere before the names. */
		for (k = 1; k < c->argc && c->argv[k][0] == '-'; k++)
			if (strchr(c->argv[k] + 1, 'f') != NULL)
				break;
		if (k == c->argc || c->argv[k][0] != '-')
			return;
		for (; k < c->argc && c->argv[k][0] == '-'; k++)
			;
		first = k;
	} else if (strcmp(c->program, "declare") == 0 ||
	    strcmp(c->program, "typeset") == 0) {
		if (!declares_exported(c, &first))
			return;
	} else
		return;
	/*
	 * A copy marked exported rather than the entry itself: an export
	 * inside a subshell or a new shell ends with it, as the copy does
	 * when sh_func_leave() cuts the table back.
	 */
	for (k = first; k < c->argc && fs->n < SH_MAX_FUNCS; k++) {
		if ((i = find(fs, c->argv[k])) < 0)
			continue;
		fs->v[fs->n] = fs->v[i];
		fs->v[fs->n].exported = true;
		fs->n++;
	}
}

struct sh_func_scope
sh_func_enter(struct sh_funcs *fs, bool new_shell)
{
	struct sh_func_scope	s = { fs->n, fs->floor };

	if (new_shell)
		fs->floor = fs->n;
	return s;
}

void
sh_func_leave(struct sh_funcs *fs, struct sh_func_scope s)
{
	if (s.n < fs->n)
		fs->n = s.n;
	fs->floor = s.floor;
}
