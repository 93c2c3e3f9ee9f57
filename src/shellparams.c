/*
 * The positional parameters of the shell reader (shellwords_priv.h): the
 * arguments after the script of sh -c, and those of set --, that $1,
 * "$@" and $* stand for while the script is read.  The reader keeps a
 * struct sh_params in its state; the strings are the script's (its
 * arena or its commands' words).
 */
#include <string.h>

#include "buf.h"
#include "shellwords_priv.h"

const char *
sh_param(const struct sh_params *r, char name)
{
	if (name >= '0' && name <= '9')
		return r->pos[name - '0'] != NULL ? r->pos[name - '0'] :
		    r->pos[10] != NULL ? "" : NULL;
	return r->pos[10];
}

/* $1 ... from argv[first] on, and $@ they make. */
static void
set_params(struct parser *ps, struct sh_params *r, const struct sh_cmd *c,
    size_t first)
{
	struct buf	 all;
	size_t		 k;
	/* Joined so that "$@" splits back into its words on $IFS. */
	char		 sep = *sh_ifs(ps) ? *sh_ifs(ps) : ' ';

	memset(r->pos + 1, 0, 9 * sizeof(r->pos[0]));
	buf_init(&all);
	for (k = first; k < c->argc; k++) {
		if (k - first < 9)
			r->pos[k - first + 1] = c->argv[k];
		if (k > first)
			buf_addc(&all, sep);
		buf_adds(&all, c->argv[k]);
	}
	r->pos[10] = all.len > 0 && sh_charge(ps, all.len) ?
	    arena_strndup(&ps->sc->arena, all.data, all.len) : "";
	buf_release(&all);
}

/*
 * set -- ARGS (or set ARGS that are no options): the positional
 * parameters from then on, so that set -- rm -rf /; "$@" runs them.
 */
void
sh_set_builtin(struct parser *ps, struct sh_params *r,
    const struct sh_cmd *c)
{
	size_t	i = 1;
	bool	dashdash = false;

	while (i < c->argc && (c->argv[i][0] == '-' || c->argv[i][0] == '+')) {
		if (strcmp(c->argv[i], "--") == 0 ||
		    strcmp(c->argv[i], "-") == 0) {
			dashdash = true;
			i++;
			break;
		}
		i += (c->argv[i][1] == 'o' && c->argv[i][2] == '\0') ? 2 : 1;
	}
	if (dashdash || i < c->argc)
		set_params(ps, r, c, i);
}

/*
 * sh -c SCRIPT ARGS: the script parsed with $0, $1 ... from ARGS (from
 * argv[first] on), so that `sh -c '"$@"' _ rm -rf /` is rm -rf /.  The
 * parameters of an enclosing sh -c are put back after.
 */
void
sh_parse_with_args(struct frame *f, struct sh_params *r, const char *script,
    const struct sh_cmd *c, size_t first)
{
	const char	*saved[SH_NPARAMS];

	memcpy(saved, r->pos, sizeof(saved));
	r->pos[0] = first < c->argc ? c->argv[first] : c->argv[0];
	set_params(f->ps, r, c, first + 1);
	sh_parse_nested(f, script, strlen(script));
	memcpy(r->pos, saved, sizeof(saved));
}

