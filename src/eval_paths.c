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
 */
#include <stdlib.h>
#include <string.h>

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
	const struct eval_path	*v = ps->v[a];
	const struct eval_path	**owner;
	const char		**subjects;
	size_t			*lens, n = 0, i, k, hit = 0;
	bool			 r;

	if (ps->n[a] == 0) {
		explain(cx, "%s: the command names no file it %s%s\n",
		    c->label, a == SH_WRITE ? "writes" : "reads",
		    ps->targets.truncated || cx->sh->truncated ?
		    " (it was too long or deep to read whole)" : "");
		return false;
	}
	subjects = xcalloc(PATH_FORMS_MAX * ps->n[a], sizeof(*subjects));
	lens = xcalloc(PATH_FORMS_MAX * ps->n[a], sizeof(*lens));
	owner = xcalloc(PATH_FORMS_MAX * ps->n[a], sizeof(*owner));
	/* Every name of each file: relative, absolute, then real. */
	for (i = 0; i < ps->n[a]; i++) {
		k = path_forms_list(&v[i].forms, subjects + n, lens + n, NULL);
		while (k-- > 0)
			owner[n++] = &v[i];
	}
	r = eval_match_subjects(cx, c, subjects, lens, n, in_when, &hit);
	if (r) {
		explain_from(cx, c, owner[hit]);
		if (in_when && cx->path_hit == NULL)
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
	if (c->field != F_READ_PATH || !cx->paths.reads_path ||
	    event_paths(cx->ev, &f) == 0)
		return false;
	/* A tool that reads its path: read_path is that path, every name. */
	n = path_forms_list(&f[0], subjects, lens, NULL);
	*holds = eval_match_subjects(cx, c, subjects, lens, n, in_when, NULL);
	return true;
}

bool
eval_paths_text(void *arg, enum rr_field f, struct rr_text *out)
{
	struct ectx	*cx = arg;

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
