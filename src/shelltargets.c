/*
 * The files a shell command writes and reads (see shelltargets.h).
 *
 * Each program of the table (shelltargets_tab.c) is a kind (what its
 * operands are: all written, sources and a destination, a script then
 * files ...) and the options it knows: those that take a value (so that
 * the value is not taken for an operand) and those that mean something
 * here (a file read or written, a destination directory, in place, the
 * script given by an option).  An option the table does not list is a flag.  Options are
 * read GNU style, anywhere before "--": bundles (-rf), values attached
 * or in the next word (-n5, -n 5), --long=value and --long value, and a
 * long option abbreviated to a prefix of the listed name.
 *
 * Reads a finished struct sh_script only; calls nothing above it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shelltargets.h"
#include "shelltargets_priv.h"
#include "xmalloc.h"

/* ---- the list ------------------------------------------------------------ */

/* One simple command being read. */
struct walk {
	struct sh_targets	*out;
	const struct sh_cmd	*c;
	const struct prog	*p;
	size_t			 budget;	/* bytes joins may still make */
	const char		**ops;		/* operands, in order */
	size_t			 nops;
	size_t			 args_from;	/* operands from here: no files */
	size_t			 dashdash;	/* operands before "--" */
	const char		*dest_dir;	/* -t DIR */
	const char		*chdir;		/* git -C, tar -C, patch -d */
	const char		*archive;	/* tar -f */
	const char		*inplace;	/* how: "sed -i", or NULL */
	bool			 have_script;
	bool			 keep;
	bool			 all_write;
	int			 mode;		/* tar: 1 create, -1 extract */
};

static void
push(struct sh_targets *out, const struct sh_target *t)
{
	if (out->n == out->cap) {
		out->cap = out->cap ? out->cap * 2 : 16;
		out->v = xreallocarray(out->v, out->cap, sizeof(*out->v));
	}
	out->v[out->n++] = *t;
}

/* A word that names no file: "-" (standard input or output), <( ), >( ). */
static bool
no_file(const char *s)
{
	return s[0] == '\0' || strcmp(s, "-") == 0 ||
	    ((s[0] == '<' || s[0] == '>') && s[1] == '(');
}

/*
 * dir/name made in the targets' arena, charged to the budget; NULL when
 * the budget is spent (and the list is then truncated).
 */
static const char *
join(struct walk *w, const char *dir, const char *name)
{
	size_t	dl = strlen(dir), n;

	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	n = dl + strlen(name) + 2;
	if (n > w->budget) {
		w->out->truncated = true;
		w->budget = 0;
		return NULL;
	}
	w->budget -= n;
	return arena_printf(&w->out->arena, "%.*s/%s", (int)dl, dir, name);
}

static const char *
base_name(const char *s)
{
	const char	*slash;
	size_t		 len = strlen(s);

	/* "dir/" names dir. */
	while (len > 1 && s[len - 1] == '/')
		len--;
	for (slash = s + len; slash > s && slash[-1] != '/'; slash--)
		;
	return slash;
}

/* Adds file, named by `how`, read or written by the current command. */
static void
add(struct walk *w, const char *file, enum sh_access access, const char *how)
{
	struct sh_target	t;

	if (file == NULL || no_file(file))
		return;
	if (w->chdir != NULL && file[0] != '/' && file[0] != '~' &&
	    (file = join(w, w->chdir, file)) == NULL)
		return;
	memset(&t, 0, sizeof(t));
	t.file = file;
	t.wd = w->c->wd;
	t.how = how;
	t.cmd = w->c->text;
	t.access = access;
	push(w->out, &t);
}

/* ---- options --------------------------------------------------------------- */

/*
 * The option named name[0..len) ("-t", "--targ"): an exact long name, or
 * the first of which it is a prefix of at least 3 letters (getopt takes
 * unambiguous abbreviations; a guess at an ambiguous one errs on seeing
 * more).
 */
static const struct opt *
find_opt(const struct opt *opts, const char *name, size_t len)
{
	const struct opt	*o, *prefix = NULL;

	for (o = opts; o->name[0] != '\0'; o++) {
		if (strlen(o->name) == len && memcmp(o->name, name, len) == 0)
			return o;
		if (prefix == NULL && name[1] == '-' && len >= 5 &&
		    strncmp(o->name, name, len) == 0)
			prefix = o;
	}
	return prefix;
}

/* A file named in curl's -F NAME=@FILE;type=... or NAME=<FILE. */
static void
form_file(struct walk *w, const char *v, const char *how)
{
	const char	*eq = strchr(v, '=');
	size_t		 n;

	if (eq == NULL || (eq[1] != '@' && eq[1] != '<'))
		return;
	n = strcspn(eq + 2, ";");
	add(w, arena_strndup(&w->out->arena, eq + 2, n), SH_READ, how);
}

/* What an option with its value (or NULL) means for the command. */
static void
apply(struct walk *w, const struct opt *o, const char *v)
{
	const char	*at, *eq;

	switch (o->role) {
	case O_VALUE:
		break;
	case O_READ:
		add(w, v, SH_READ, o->name);
		break;
	case O_WRITE:
		add(w, v, SH_WRITE, o->name);
		break;
	case O_DIR:
		w->dest_dir = v;
		break;
	case O_PROG_FILE:
		add(w, v, SH_READ, o->name);
		/* FALLTHROUGH */
	case O_PROG:
		w->have_script = true;
		break;
	case O_INPLACE:
		w->inplace = arena_printf(&w->out->arena, "%s %s", w->p->name,
		    o->name);
		break;
	case O_INCLUDE:
		if (v != NULL && strcmp(v, "inplace") == 0)
			w->inplace = arena_printf(&w->out->arena,
			    "%s %s inplace", w->p->name, o->name);
		break;
	case O_KEEP:
		w->keep = true;
		break;
	case O_ALL_WRITE:
		w->all_write = true;
		break;
	case O_DATA:
		if (v == NULL)
			break;
		at = strchr(v, '@');
		eq = strchr(v, '=');
		if (at != NULL && (eq == NULL || at < eq))
			add(w, at + 1, SH_READ, o->name);
		break;
	case O_FORM:
		if (v != NULL)
			form_file(w, v, o->name);
		break;
	case O_ARGS:
		w->args_from = w->nops;
		break;
	case O_CHDIR:
		if (v != NULL)
			w->chdir = w->chdir != NULL && v[0] != '/' ?
			    join(w, w->chdir, v) : v;
		break;
	case O_CREATE:
		w->mode = 1;
		break;
	case O_EXTRACT:
		w->mode = -1;
		break;
	case O_ARCHIVE:
		w->archive = v;
		break;
	}
}

/* chmod's symbolic modes that look like options: -w, -rwx, -x,u+w. */
static bool
is_mode(const char *s)
{
	return (s[0] == '-' || s[0] == '+' || s[0] == '=') &&
	    s[1] != '\0' && strspn(s + 1, "rwxXstugoa+-=,0123456789") ==
	    strlen(s + 1);
}

/*
 * A bundle of short options at s (after the '-'); *i is the word's index
 * and moves past the values taken.  old: tar's first word, whose
 * options take their values from the next words in turn.
 */
static void
short_opts(struct walk *w, const char *s, size_t *i, bool old)
{
	const struct sh_cmd	*c = w->c;
	const struct opt	*o;
	char			 name[3] = { '-', 0, 0 };
	const char		*v;

	for (; *s; s++) {
		name[1] = *s;
		if ((o = find_opt(w->p->opts, name, 2)) == NULL)
			continue;			/* a flag */
		switch (o->arity) {
		case A_FLAG:
			apply(w, o, NULL);
			continue;
		case A_ATTACHED:
			apply(w, o, s + 1);
			return;
		case A_ONE:
			if (!old && s[1] != '\0') {
				apply(w, o, s + 1);
				return;
			}
			v = *i + 1 < c->argc ? c->argv[++*i] : NULL;
			apply(w, o, v);
			if (!old)
				return;
			continue;
		case A_TWO:
			if (*i + 2 < c->argc) {
				*i += 2;
				apply(w, o, c->argv[*i]);
			} else
				*i = c->argc;
			return;
		}
	}
}

/* A long option at s ("--name" or "--name=value"). */
static void
long_opt(struct walk *w, const char *s, size_t *i)
{
	const struct sh_cmd	*c = w->c;
	const struct opt	*o;
	const char		*eq = strchr(s, '=');
	size_t			 len = eq ? (size_t)(eq - s) : strlen(s);

	if ((o = find_opt(w->p->opts, s, len)) == NULL)
		return;
	switch (o->arity) {
	case A_FLAG:
		apply(w, o, NULL);
		break;
	case A_ATTACHED:
		apply(w, o, eq ? eq + 1 : NULL);
		break;
	case A_ONE:
		if (eq != NULL)
			apply(w, o, eq + 1);
		else
			apply(w, o, *i + 1 < c->argc ? c->argv[++*i] : NULL);
		break;
	case A_TWO:
		if (*i + 2 < c->argc) {
			*i += 2;
			apply(w, o, c->argv[*i]);
		} else
			*i = c->argc;
		break;
	}
}

/* Reads the options of the command and collects its operands. */
static void
read_words(struct walk *w)
{
	const struct sh_cmd	*c = w->c;
	const char		*s;
	size_t			 i;
	bool			 opts_done = false;

	w->ops = xcalloc(c->argc, sizeof(*w->ops));
	w->args_from = w->dashdash = c->argc;
	for (i = 1; i < c->argc; i++) {
		s = c->argv[i];
		if (!opts_done && strcmp(s, "--") == 0) {
			opts_done = true;
			w->dashdash = w->nops;
			continue;
		}
		if (!opts_done && i == 1 && (w->p->flags & P_OLD_BUNDLE) &&
		    s[0] != '-') {
			short_opts(w, s, &i, true);
			continue;
		}
		if (opts_done || s[0] != '-' || s[1] == '\0' ||
		    ((w->p->flags & P_MODES) && is_mode(s))) {
			if (!opts_done && s[0] == '+' && (w->p->flags & P_PLUS))
				continue;
			w->ops[w->nops++] = s;
			continue;
		}
		if (s[1] == '-')
			long_opt(w, s, &i);
		else
			short_opts(w, s + 1, &i, false);
	}
	if (w->args_from > w->nops)
		w->args_from = w->nops;
	if (w->dashdash > w->nops)
		w->dashdash = w->nops;
}

/* ---- programs ------------------------------------------------------------- */

/* A source of copy_like(): moved away (mv) or read (cp), not a link's. */
static void
add_source(struct walk *w, const char *src, enum kind kind, const char *how)
{
	if (kind == K_MOVE)
		add(w, src, SH_WRITE, how);
	else if (kind != K_LINK)
		add(w, src, SH_READ, how);
}

/*
 * cp, mv, install, ln (and git mv) on operands ops[from..n): the
 * destination written, and what each source becomes in it when it is a
 * directory (cp a b DIR: DIR/a, DIR/b); the sources read (cp, install),
 * or moved away (mv).  `dest` and `src` say so for explain.
 */
static void
copy_like(struct walk *w, size_t from, size_t n, enum kind kind,
    const char *dest_how, const char *src_how)
{
	const char	*dest = w->dest_dir, *f;
	size_t		 k;
	bool		 maybe;

	if (dest == NULL) {
		if (n <= from)
			return;
		if (n == from + 1) {
			/* ln TARGET: the link is made here, by its name. */
			if (kind == K_LINK)
				add(w, base_name(w->ops[from]), SH_WRITE,
				    dest_how);
			return;
		}
		dest = w->ops[--n];
	}
	add(w, dest, SH_WRITE, dest_how);
	/*
	 * Is dest a directory?  Certainly with -t, a trailing slash or
	 * several sources; else only the disk can tell (if_dir).
	 */
	maybe = w->dest_dir == NULL && n - from == 1 &&
	    dest[strlen(dest) - 1] != '/';
	for (k = from; k < n; k++) {
		if (no_file(w->ops[k]))
			continue;
		/*
		 * The source first when dest may be a file: a reason then
		 * names the file certainly touched (mv .env backup: .env,
		 * before backup/.env).
		 */
		if (maybe)
			add_source(w, w->ops[k], kind, src_how);
		if ((f = join(w, dest, base_name(w->ops[k]))) != NULL) {
			add(w, f, SH_WRITE, dest_how);
			if (maybe && w->out->n > 0 &&
			    w->out->v[w->out->n - 1].file == f)
				w->out->v[w->out->n - 1].if_dir = dest;
		}
		if (!maybe)
			add_source(w, w->ops[k], kind, src_how);
	}
}

/* A local path of scp or rsync: not HOST:PATH. */
static bool
is_local(const char *s)
{
	const char	*colon = strchr(s, ':'), *slash = strchr(s, '/');

	return colon == NULL || (slash != NULL && slash < colon);
}

/*
 * tar: with -c, -r, -u the archive is written and the files read; with
 * -x, -t, -d the archive is read (what -x writes is in the archive, out
 * of sight).  zip: the archive, then the files read.
 */
static void
archive(struct walk *w)
{
	const char	*dir;
	size_t		 k, from = 0, n = w->args_from;

	if (w->p->name[0] == 'z') {
		if (n == 0)
			return;
		add(w, w->ops[0], SH_WRITE, "zip archive");
		for (k = 1; k < n; k++)
			add(w, w->ops[k], SH_READ, "zip");
		return;
	}
	/* -C moves the files, not the archive: tar opens it first. */
	dir = w->chdir;
	w->chdir = NULL;
	add(w, w->archive, w->mode > 0 ? SH_WRITE : SH_READ, "tar -f");
	w->chdir = dir;
	if (w->mode > 0)
		for (k = from; k < n; k++)
			add(w, w->ops[k], SH_READ, "tar");
}

/*
 * git: restore and checkout write the paths they name (checkout's
 * operands after "--", or all of them without it: a branch name then
 * counts too), rm deletes them (not with --cached), mv moves them.
 * operand 0 is the subcommand.
 */
static void
git(struct walk *w)
{
	const char	*sub;
	size_t		 k, from = 1, n = w->args_from;

	if (n == 0)
		return;
	sub = w->ops[0];
	if (strcmp(sub, "restore") == 0) {
		if (w->keep && !w->all_write)
			return;			/* --staged: the index only */
	} else if (strcmp(sub, "checkout") == 0) {
		if (w->dashdash > 0 && w->dashdash < n)
			from = w->dashdash;
	} else if (strcmp(sub, "rm") == 0) {
		if (w->keep)
			return;			/* --cached */
	} else if (strcmp(sub, "mv") == 0) {
		copy_like(w, 1, n, K_MOVE, "git mv destination",
		    "git mv source");
		return;
	} else
		return;
	for (k = from; k < n; k++)
		add(w, w->ops[k], SH_WRITE, sub[0] == 'r' && sub[1] == 'm' ?
		    "git rm" : sub[0] == 'r' ? "git restore" : "git checkout");
}

/* openssl's one-dash options: -in FILE read, -out FILE written. */
static void
openssl(struct walk *w)
{
	static const char *const reads[] = {
		"-in", "-inkey", "-key", "-kfile", "-certfile", "-CAfile",
		"-signkey", "-keyfile", "-infiles", NULL
	};
	static const char *const writes[] = { "-out", "-keyout", NULL };
	const struct sh_cmd	*c = w->c;
	size_t			 i, k;

	for (i = 1; i + 1 < c->argc; i++) {
		for (k = 0; reads[k] != NULL; k++)
			if (strcmp(c->argv[i], reads[k]) == 0)
				add(w, c->argv[i + 1], SH_READ, reads[k]);
		for (k = 0; writes[k] != NULL; k++)
			if (strcmp(c->argv[i], writes[k]) == 0)
				add(w, c->argv[i + 1], SH_WRITE, writes[k]);
	}
}

/* The targets of the program of w->c, from its operands and options. */
static void
program(struct walk *w)
{
	const struct prog	*p = w->p;
	const char		*s, *how = p->name;
	size_t			 k, first, n;

	if (p->kind == K_OPENSSL) {
		openssl(w);
		return;
	}
	read_words(w);
	n = w->args_from;
	switch (p->kind) {
	case K_WRITE:
		for (k = 0; k < n; k++)
			add(w, w->ops[k], SH_WRITE, how);
		break;
	case K_READ:
		for (k = 0; k < n; k++)
			add(w, w->ops[k], SH_READ, how);
		break;
	case K_MODE_WRITE:
		/* chmod MODE FILE..., unless --reference gave the mode. */
		for (k = w->have_script ? 0 : 1; k < n; k++)
			add(w, w->ops[k], SH_WRITE, how);
		break;
	case K_COPY:
		if (w->all_write) {
			for (k = 0; k < n; k++)
				add(w, w->ops[k], SH_WRITE, "install -d");
			break;
		}
		if (p->name[0] == 'c')
			copy_like(w, 0, n, K_COPY, "cp destination",
			    "cp source");
		else
			copy_like(w, 0, n, K_COPY, "install destination",
			    "install source");
		break;
	case K_MOVE:
		copy_like(w, 0, n, K_MOVE, "mv destination", "mv source");
		break;
	case K_LINK:
		copy_like(w, 0, n, K_LINK, "ln link", NULL);
		break;
	case K_DD:
		for (k = 0; k < n; k++) {
			s = w->ops[k];
			if (strncmp(s, "of=", 3) == 0)
				add(w, s + 3, SH_WRITE, "dd of=");
			else if (strncmp(s, "if=", 3) == 0)
				add(w, s + 3, SH_READ, "dd if=");
		}
		break;
	case K_SCRIPT:
		for (k = w->have_script ? 0 : 1; k < n; k++) {
			s = w->ops[k];
			if ((p->flags & P_ASSIGN) && strchr(s, '=') != NULL &&
			    strchr(s, '/') == NULL)
				continue;
			if (w->inplace != NULL)
				add(w, s, SH_WRITE, w->inplace);
			else
				add(w, s, SH_READ, how);
		}
		break;
	case K_PERL:
		first = 0;
		if (!w->have_script && n > 0) {
			add(w, w->ops[0], SH_READ, "perl script");
			first = 1;
		}
		/* Without -e, the script's arguments mean what it makes them. */
		for (k = first; k < n; k++)
			if (w->inplace != NULL)
				add(w, w->ops[k], SH_WRITE, w->inplace);
			else if (w->have_script)
				add(w, w->ops[k], SH_READ, how);
		break;
	case K_SOURCE:
		if (n > 0)
			add(w, w->ops[0], SH_READ, how);
		break;
	case K_SHELL:
		if (!w->have_script && n > 0)
			add(w, w->ops[0], SH_READ, "shell script");
		break;
	case K_IN_OUT:
		if (n > 0)
			add(w, w->ops[0], SH_READ, how);
		if (n > 1)
			add(w, w->ops[1], SH_WRITE, how);
		break;
	case K_PATCH:
		if (n > 0)
			add(w, w->ops[0], SH_WRITE, how);
		if (n > 1)
			add(w, w->ops[1], SH_READ, "patch file");
		break;
	case K_COPY_REMOTE:
		if (n < 2)
			break;
		for (k = 0; k + 1 < n; k++)
			if (is_local(w->ops[k]))
				add(w, w->ops[k], SH_READ, how);
		if (is_local(w->ops[n - 1]))
			add(w, w->ops[n - 1], SH_WRITE, how);
		break;
	case K_ARCHIVE:
		archive(w);
		break;
	case K_UNZIP:
		if (n > 0)
			add(w, w->ops[0], SH_READ, how);
		break;
	case K_COMPRESS:
		for (k = 0; k < n; k++)
			add(w, w->ops[k], w->keep ? SH_READ : SH_WRITE, how);
		break;
	case K_GIT:
		git(w);
		break;
	case K_OPTIONS:
	case K_OPENSSL:
		break;
	}
	free(w->ops);
}

/* ---- the script -------------------------------------------------------- */

/* A redirection: < and <& read, <> both, the others write. */
static void
redirection(struct sh_targets *out, const char *target, const char *op,
    const char *wd, const char *cmd)
{
	struct sh_target	t;

	if (no_file(target))
		return;
	memset(&t, 0, sizeof(t));
	t.file = target;
	t.wd = wd;
	t.how = op;
	t.redirect = true;
	t.cmd = cmd;
	t.access = op[0] == '<' ? SH_READ : SH_WRITE;
	push(out, &t);
	if (strcmp(op, "<>") == 0) {
		t.access = SH_WRITE;
		push(out, &t);
	}
}

/*
 * What joins may make: as much as the tokenizer may (shellwords_priv.h,
 * SH_WORK_BASE and SH_WORK_PER_BYTE) for the text of the commands.
 */
#define TARGETS_WORK_BASE	(1u << 20)
#define TARGETS_WORK_PER_BYTE	8

void
sh_targets_collect(const struct sh_script *sc, struct sh_targets *out)
{
	const struct sh_cmd	*c;
	struct walk		 w;
	size_t			 i, k, text = 0;

	memset(out, 0, sizeof(*out));
	arena_init(&out->arena);
	for (i = 0; i < sc->n; i++)
		text += strlen(sc->cmds[i].text);
	memset(&w, 0, sizeof(w));
	w.budget = TARGETS_WORK_BASE + (text > (SIZE_MAX - TARGETS_WORK_BASE) /
	    TARGETS_WORK_PER_BYTE ? SIZE_MAX - TARGETS_WORK_BASE :
	    text * TARGETS_WORK_PER_BYTE);
	for (i = 0; i < sc->n; i++) {
		c = &sc->cmds[i];
		for (k = 0; k < c->nredirects; k++)
			redirection(out, c->redirects[k], c->redirect_ops[k],
			    c->wd, c->text);
		w.p = sh_prog_find(c->program);
		if (w.p == NULL)
			continue;
		w.out = out;
		w.c = c;
		w.ops = NULL;
		w.nops = 0;
		w.dest_dir = w.chdir = w.archive = w.inplace = NULL;
		w.have_script = w.keep = w.all_write = false;
		w.mode = 0;
		program(&w);
	}
	for (i = 0; i < sc->nloose; i++)
		redirection(out, sc->loose[i].target, sc->loose[i].op,
		    sc->loose[i].wd, NULL);
}

void
sh_targets_release(struct sh_targets *t)
{
	free(t->v);
	arena_release(&t->arena);
	memset(t, 0, sizeof(*t));
}
