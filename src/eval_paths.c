/*
 * `path` and `read_path` when the evaluation makes them (see struct
 * eval_paths in eval_priv.h): for a shell command, path is every file
 * the command would write or delete and read_path every file it would
 * read (shelltargets.h), each relative to the project and absolute, as
 * a file tool's path is, and a pattern also as the files it expands to
 * (shellglob.h); for a tool that reads its path (Read), that
 * path is also read_path.  Which tools are which is tools.def's: a tool
 * with `command` and `path` is a shell whose command is read for files.
 *
 * Made once per event, when a condition or the prefilter first asks.
 *
 * Inside a shell map, path and read_path are the files of the simple
 * command the map tests: a target belongs to the command whose text it
 * names (sh_target.cmd is that sh_cmd's text, the same pointer), looked
 * up through an index made once.  The `outside` and `except` of a path
 * matcher leave files out one by one (eval_path_counts()): where the
 * project and the temporary directories are is known only now.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "eval_priv.h"
#include "event.h"
#include "shellglob.h"
#include "toolinfo.h"
#include "xmalloc.h"

/* The directory a file of a shell command runs in, or NULL: unknown. */
static const char *
target_base(struct rr_event *ev, const char *wd)
{
	if (wd == NULL)
		return ev->cwd[0] == '/' ? ev->cwd : NULL;
	if (wd == sh_unknown_dir || (wd[0] != '/' && ev->cwd[0] != '/'))
		return NULL;
	if (wd[0] == '~' || wd[0] == '$')
		return NULL;		/* made absolute by the caller */
	if (wd[0] == '/')
		return wd;
	return arena_printf(&ev->arena, "%s/%s", ev->cwd, wd);
}

/*
 * ~/x and $HOME/x as the shell makes them: the agent's shell and this
 * hook run for the same user, with the same HOME.  Other unknown
 * variables stay as written (no guessing).
 */
static const char *
home_path(struct rr_event *ev, const char *s)
{
	const char	*home = getenv("HOME"), *rest;

	if (home == NULL || home[0] != '/')
		return s;
	if (s[0] == '~' && (s[1] == '/' || s[1] == '\0'))
		rest = s + 1;
	else if (strncmp(s, "$HOME", 5) == 0 && (s[5] == '/' || s[5] == '\0'))
		rest = s + 5;
	else
		return s;
	return arena_printf(&ev->arena, "%s%s", home, rest);
}

/*
 * THE call site of path identity for the files of a shell command: the
 * word made absolute against the command's working directory (the
 * event's cwd and the cds before it), then given every name a file
 * tool's path has (pathid.h: normalized, real through symbolic links,
 * each relative to the project too), in this one place, for every
 * target.  Case is the matcher's (eval_match.c), as for a file tool.
 */
static void
resolve_target(struct rr_event *ev, const struct sh_target *t,
    const char **abs, const char **rel, struct path_forms *forms)
{
	const char	*file = home_path(ev, t->file), *base = NULL;
	const char	*wd = t->wd;

	if (file[0] != '/') {
		if (wd != NULL && wd != sh_unknown_dir)
			wd = home_path(ev, wd);
		base = target_base(ev, wd);
	}
	event_path_pair(ev, base, file, abs, rel);
	event_path_identity(ev, *abs, strlen(*abs), forms);
}

/*
 * The files the commands of a line write (not a DEST/NAME of cp), made
 * absolute and sorted, for target_is_dir(): made once, on the first
 * destination that is not on disk, so that a line of many copies stays
 * linear.
 */
struct written {
	struct {
		const char	*abs;
		const char	*cmd;	/* the sh_target's */
	}		*v;
	size_t		 n;
	bool		 made;
};

static int
written_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void
written_make(struct rr_event *ev, const struct sh_targets *targets,
    struct written *w)
{
	const struct sh_target	*e;
	const char		*rel;
	struct path_forms	 forms;
	size_t			 k;

	w->made = true;
	for (k = 0; k < targets->n; k++) {
		e = &targets->v[k];
		if (e->access != SH_WRITE || e->if_dir != NULL)
			continue;
		if (w->v == NULL)
			w->v = xreallocarray(NULL, targets->n, sizeof(*w->v));
		resolve_target(ev, e, &w->v[w->n].abs, &rel, &forms);
		w->v[w->n++].cmd = e->cmd;
	}
	if (w->n > 1)
		qsort(w->v, w->n, sizeof(*w->v), written_cmp);
}

/*
 * Whether targets->v[i]'s if_dir may name a directory when its command
 * runs, made absolute as its file is: one on disk, or one that does not
 * exist yet and that another command of the line writes (`mkdir -p
 * ~/.aws && cp credentials ~/.aws`: mkdir, install -d, cp -r, mv may
 * make it one; one after the cp only adds a file to see).  A path that
 * cannot be placed counts as one (more is seen); `cp f f.bak` alone does
 * not make f.bak/f.
 */
static bool
target_is_dir(struct rr_event *ev, const struct sh_targets *targets,
    size_t i, struct written *w)
{
	const struct sh_target	*t = &targets->v[i];
	struct sh_target	 d = *t;
	struct stat		 st;
	const char		*abs, *rel;
	struct path_forms	 forms;
	size_t			 lo, hi, mid;

	d.file = t->if_dir;
	resolve_target(ev, &d, &abs, &rel, &forms);
	if (abs[0] != '/')
		return true;
	if (stat(abs, &st) == 0)
		return S_ISDIR(st.st_mode);
	if (!w->made)
		written_make(ev, targets, w);
	/* The first entry not below abs; then the entries equal to it. */
	for (lo = 0, hi = w->n; lo < hi;) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(w->v[mid].abs, abs) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* The cp writes its DEST itself once: the next entry is another's. */
	for (; lo < w->n && strcmp(w->v[lo].abs, abs) == 0; lo++)
		if (w->v[lo].cmd != t->cmd)
			return true;
	return false;
}

/* A new, zeroed entry at the end of ps->v[a], which grows. */
static struct eval_path *
add_path(struct eval_paths *ps, size_t a, size_t *cap)
{
	if (ps->n[a] == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		ps->v[a] = xreallocarray(ps->v[a], *cap, sizeof(*ps->v[a]));
	}
	memset(&ps->v[a][ps->n[a]], 0, sizeof(ps->v[a][0]));
	return &ps->v[a][ps->n[a]++];
}

static void
make_paths(struct ectx *cx)
{
	struct eval_paths	*ps = &cx->paths;
	struct rr_event		*ev = cx->ev;
	const struct known_tool	*t;
	struct sh_script	*sh;
	struct eval_path	*p;
	const struct sh_target	*from;
	const char		*globs[SH_GLOB_MAX];
	struct buf		 b;
	struct written		 written = { NULL, 0, false };
	size_t			 i, a, k, n, cap[2] = { 0, 0 };

	ps->made = true;
	t = ev->tool != NULL ? toolinfo_find(ev->tool) : NULL;
	if (t == NULL || !toolinfo_has_tool(ev->kind))
		return;
	if ((t->fields & FB(F_COMMAND)) && (t->fields & FB(F_PATH))) {
		if ((sh = eval_command(cx)) == NULL)
			return;
		ps->shell = true;
		sh_targets_collect(sh, &ps->targets);
	} else {
		ps->reads_path = (t->fields & FB(F_READ_PATH)) != 0;
		return;
	}
	for (i = 0; i < ps->targets.n; i++) {
		a = ps->targets.v[i].access;
		if (ps->targets.v[i].if_dir != NULL &&
		    !target_is_dir(ev, &ps->targets, i, &written))
			continue;	/* cp a b: b is no directory */
		p = add_path(ps, a, &cap[a]);
		p->from = &ps->targets.v[i];
		resolve_target(ev, p->from, &p->abs, &p->rel, &p->forms);
		/*
		 * A pattern names the files the shell expands it to: rm -rf
		 * ~/.refl* deletes ~/.reflexion.  Each is a file of its own.
		 */
		if (!sh_is_pattern(p->abs) || p->abs[0] != '/')
			continue;
		n = sh_arg_globs(p->abs, NULL, &ev->arena, globs, SH_GLOB_MAX);
		from = p->from;
		for (k = 0; k < n; k++) {
			p = add_path(ps, a, &cap[a]);
			p->from = from;
			event_path_pair(ev, NULL, globs[k], &p->abs, &p->rel);
			event_path_identity(ev, p->abs, strlen(p->abs),
			    &p->forms);
		}
	}
	free(written.v);
	/*
	 * The prefilter's text: every name (the relative ones are suffixes
	 * of the absolute), then their folding where case folds, as for a
	 * file tool's path (event_path_text).
	 */
	buf_init(&b);
	for (a = 0; a < 2; a++) {
		buf_reset(&b);
		for (k = 0; k < ps->n[a]; k++)
			event_names_add(&b, &ps->v[a][k].forms);
		ps->joined[a] = event_names_text(ev, &b);
	}
	buf_release(&b);
}

/*
 * The index of the files of each simple command (struct eval_paths):
 * each target's command found by its text's address in a table of the
 * commands' texts, then a counting sort.  Linear in commands and files.
 */
static void
index_by_cmd(struct ectx *cx)
{
	struct eval_paths	*ps = &cx->paths;
	const struct sh_script	*sh = cx->sh;
	const char		**keys;
	size_t			*vals, *of, *pos, cap = 16, h, i, k, a, none;
	uintptr_t		 p;

	ps->by_cmd_made = true;
	while (cap < 2 * sh->n)
		cap *= 2;
	keys = xcalloc(cap, sizeof(*keys));
	vals = xcalloc(cap, sizeof(*vals));
	for (i = 0; i < sh->n; i++) {
		p = (uintptr_t)sh->cmds[i].text;
		for (h = (p >> 4) * 0x9e3779b9u & (cap - 1); keys[h] != NULL &&
		    keys[h] != sh->cmds[i].text; h = (h + 1) & (cap - 1))
			;
		if (keys[h] == NULL) {
			keys[h] = sh->cmds[i].text;
			vals[h] = i;
		}
	}
	none = sh->n;		/* a redirection of no command */
	for (a = 0; a < 2; a++) {
		of = xcalloc(ps->n[a] + 1, sizeof(*of));
		ps->cmd_start[a] = xcalloc(sh->n + 2, sizeof(size_t));
		ps->by_cmd[a] = xcalloc(ps->n[a] + 1, sizeof(size_t));
		for (k = 0; k < ps->n[a]; k++) {
			of[k] = none;
			if ((p = (uintptr_t)ps->v[a][k].from->cmd) == 0)
				continue;
			for (h = (p >> 4) * 0x9e3779b9u & (cap - 1);
			    keys[h] != NULL; h = (h + 1) & (cap - 1))
				if ((uintptr_t)keys[h] == p) {
					of[k] = vals[h];
					break;
				}
		}
		for (k = 0; k < ps->n[a]; k++)
			ps->cmd_start[a][of[k] + 1]++;
		for (i = 0; i <= sh->n; i++)
			ps->cmd_start[a][i + 1] += ps->cmd_start[a][i];
		pos = xcalloc(sh->n + 1, sizeof(*pos));
		memcpy(pos, ps->cmd_start[a], (sh->n + 1) * sizeof(*pos));
		for (k = 0; k < ps->n[a]; k++)
			ps->by_cmd[a][pos[of[k]]++] = k;
		free(pos);
		free(of);
	}
	free(keys);
	free(vals);
}

/* ---- outside and except ------------------------------------------------- */

/*
 * The temporary directories of `outside: temp`: the system's (Linux,
 * and macOS's under /private, where /tmp and /var lead) and $TMPDIR,
 * unless that is / or holds the home directory, which would make every
 * file of the user's temporary.
 */
static const char *const temp_dirs[] = {
	"/tmp", "/var/tmp", "/dev/shm", "/private/tmp", "/private/var/tmp",
	"/var/folders", "/private/var/folders", NULL
};

static void
make_temps(struct ectx *cx)
{
	struct eval_paths	*ps = &cx->paths;
	const char		*t = getenv("TMPDIR"), *home = getenv("HOME");
	struct buf		 b, h;
	size_t			 i;

	ps->temps_made = true;
	for (i = 0; temp_dirs[i] != NULL; i++)
		ps->temps[ps->ntemps++] = temp_dirs[i];
	if (t == NULL || t[0] != '/')
		return;
	buf_init(&b);
	buf_init(&h);
	path_normalize(&b, t, strlen(t));
	if (home != NULL && home[0] == '/')
		path_normalize(&h, home, strlen(home));
	if (b.len > 1 && !(h.len > 0 && (strcmp(h.data, b.data) == 0 ||
	    path_under(h.data, b.data) != NULL)))
		ps->temps[ps->ntemps++] = arena_strndup(&cx->ev->arena,
		    b.data, b.len);
	buf_release(&b);
	buf_release(&h);
}

/*
 * The devices that keep nothing written to them (2>/dev/null, >&
 * /dev/stderr): no file is written there, so they are inside every
 * place rather than outside the project.
 */
static bool
is_sink(const char *name)
{
	static const char *const sinks[] = {
		"/dev/null", "/dev/zero", "/dev/full", "/dev/random",
		"/dev/urandom", "/dev/stdin", "/dev/stdout", "/dev/stderr",
		"/dev/tty", NULL
	};
	size_t	i;

	if (strncmp(name, "/dev/fd/", 8) == 0 ||
	    strncmp(name, "/proc/self/fd/", 14) == 0)
		return true;
	for (i = 0; sinks[i] != NULL; i++)
		if (strcmp(name, sinks[i]) == 0)
			return true;
	return false;
}

/*
 * The place of `places` a file is inside, or NULL: outside them all.
 * The file is where the kernel would reach it: its real path decides (a
 * link in the project to ~/Documents is outside, /tmp is /private/tmp
 * on macOS), against the project named either way, real or as given.
 */
static const char *
place_of(struct ectx *cx, unsigned places, const struct path_forms *f)
{
	struct eval_paths	*ps = &cx->paths;
	const struct path_root	*root = &cx->ev->paths_root;
	const char		*name = f->real != NULL ? f->real : f->abs;
	size_t			 i;

	/* No working directory: where it is cannot be told. */
	if (name[0] != '/')
		return "an unknown directory";
	if (is_sink(f->abs) || is_sink(name))
		return "no file (a device that keeps nothing)";
	if ((places & PLACE_PROJECT) && cx->ev->paths_root_set &&
	    ((root->real != NULL && path_under(name, root->real) != NULL) ||
	    (root->dir != NULL && path_under(name, root->dir) != NULL)))
		return "the project";
	if (!(places & PLACE_TEMP))
		return NULL;
	if (!ps->temps_made)
		make_temps(cx);
	for (i = 0; i < ps->ntemps; i++)
		if (path_under(name, ps->temps[i]) != NULL)
			return "a temporary directory";
	return NULL;
}

bool
eval_path_counts(struct ectx *cx, const struct cond *c,
    const struct path_forms *f, const char *const *names, const size_t *lens,
    size_t n)
{
	struct buf	*x = cx->opts->explain;
	const char	*where = NULL;
	size_t		 which = 0;

	if (c->m.outside != 0)
		where = place_of(cx, c->m.outside, f);
	if (where == NULL && (c->m.nexcept == 0 ||
	    !eval_match_except(cx, c, names, lens, n, &which)))
		return true;
	if (x != NULL) {
		explain(cx, "%s: ", c->label);
		eval_snippet(x, f->real != NULL ? f->real : f->abs,
		    strlen(f->real != NULL ? f->real : f->abs));
		if (where != NULL)
			buf_printf(x, " is inside %s: left out\n", where);
		else {
			buf_adds(x, " matches except ");
			eval_snippet(x, c->m.except[which].src,
			    c->m.except[which].len);
			buf_adds(x, ": left out\n");
		}
	}
	return false;
}

/* explain: which word of the command named the file that matched. */
static void
explain_from(struct ectx *cx, const struct cond *c, const struct eval_path *p)
{
	const struct sh_target	*t = p->from;
	struct buf		*x = cx->opts->explain;

	if (x == NULL)
		return;
	explain(cx, "%s: %s (from: %s %s", c->label, p->rel, t->how, t->file);
	if (t->cmd != NULL) {
		buf_adds(x, " in ");
		eval_snippet(x, t->cmd, strlen(t->cmd));
	} else
		buf_adds(x, ", a redirection of no command");
	buf_adds(x, ")\n");
}

static bool
shell_cond(struct ectx *cx, const struct cond *c, bool in_when)
{
	struct eval_paths	*ps = &cx->paths;
	enum sh_access		 a = c->field == F_PATH ? SH_WRITE : SH_READ;
	const struct eval_path	*v = ps->v[a], *p;
	const struct eval_path	**owner;
	const char		**subjects;
	const size_t		*pick = NULL;
	size_t			*lens, n = 0, i, k, hit = 0, from = 0;
	size_t			 to = ps->n[a];
	bool			 r, narrow;

	/* In a shell map: the files of the simple command it tests. */
	if (cx->sh_cmd != NULL) {
		if (!ps->by_cmd_made)
			index_by_cmd(cx);
		i = (size_t)(cx->sh_cmd - cx->sh->cmds);
		from = ps->cmd_start[a][i];
		to = ps->cmd_start[a][i + 1];
		pick = ps->by_cmd[a];
	}
	if (to == from) {
		explain(cx, "%s: the command names no file it %s%s\n",
		    c->label, a == SH_WRITE ? "writes" : "reads",
		    ps->targets.truncated || cx->sh->truncated ?
		    " (it was too long or deep to read whole)" : "");
		return false;
	}
	narrow = c->m.outside != 0 || c->m.nexcept > 0;
	subjects = xcalloc(PATH_FORMS_MAX * (to - from), sizeof(*subjects));
	lens = xcalloc(PATH_FORMS_MAX * (to - from), sizeof(*lens));
	owner = xcalloc(PATH_FORMS_MAX * (to - from), sizeof(*owner));
	/* Every name of each file: relative, absolute, then real. */
	for (i = from; i < to; i++) {
		p = &v[pick != NULL ? pick[i] : i];
		k = path_forms_list(&p->forms, subjects + n, lens + n, NULL);
		if (narrow && !eval_path_counts(cx, c, &p->forms, subjects + n,
		    lens + n, k))
			continue;
		while (k-- > 0)
			owner[n++] = p;
	}
	if (n == 0) {
		explain(cx, "%s: none of its files is left\n", c->label);
		r = false;
	} else
		r = eval_match_subjects(cx, c, subjects, lens, n, in_when,
		    &hit);
	if (r) {
		explain_from(cx, c, owner[hit]);
		if (cx->sh_cmd != NULL)
			cx->sh_path_hit = owner[hit];
		else if (in_when && cx->path_hit == NULL)
			cx->path_hit = owner[hit];
	}
	free(subjects);
	free(lens);
	free(owner);
	return r;
}

bool
eval_paths_cond(struct ectx *cx, const struct cond *c, bool in_when,
    bool *holds)
{
	const struct path_forms	*f;
	const char		*subjects[PATH_FORMS_MAX];
	size_t			 lens[PATH_FORMS_MAX], n;

	if (!cx->paths.made)
		make_paths(cx);
	if (cx->paths.shell) {
		*holds = shell_cond(cx, c, in_when);
		return true;
	}
	/* A shell map of a command that is not read for files. */
	if (cx->sh_cmd != NULL) {
		explain(cx, "%s: this tool's command is not read for files\n",
		    c->label);
		*holds = false;
		return true;
	}
	if (c->field != F_READ_PATH || !cx->paths.reads_path ||
	    event_paths(cx->ev, &f) == 0)
		return false;
	/* A tool that reads its path: read_path is that path, every name. */
	n = path_forms_list(&f[0], subjects, lens, NULL);
	if ((c->m.outside != 0 || c->m.nexcept > 0) &&
	    !eval_path_counts(cx, c, &f[0], subjects, lens, n))
		*holds = false;
	else
		*holds = eval_match_subjects(cx, c, subjects, lens, n,
		    in_when, NULL);
	return true;
}

bool
eval_paths_text(void *arg, enum rr_field f, struct rr_text *out)
{
	struct ectx	*cx = arg;

	if (f == F_PROGRAMS || f == F_SUBCOMMANDS)
		return eval_programs_text(cx, f, out);
	if (!cx->paths.made)
		make_paths(cx);
	if (cx->paths.shell) {
		*out = cx->paths.joined[f == F_PATH ? SH_WRITE : SH_READ];
		return true;
	}
	if (f == F_READ_PATH && cx->paths.reads_path) {
		*out = event_path_text(cx->ev);
		return out->s != NULL;
	}
	return false;
}
