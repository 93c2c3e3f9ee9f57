/*
 * Evaluation of the condition forms compile_ext.c compiles (shell,
 * sections), of the json and required matchers, and of the file_before /
 * file_after fields.  Each reads the event lazily: a command is parsed,
 * a file read or an edit applied only when a rule asks, once per event.
 * The sections file is read on every evaluation, never cached, so an
 * edited file counts at once.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "edits.h"
#include "eval_priv.h"
#include "fileio.h"
#include "jsoncheck.h"
#include "mdsections.h"
#include "shellwords.h"
#include "xmalloc.h"

#define explain(...)	eval_explain(__VA_ARGS__)

void
eval_ext_reset_rule(struct ectx *cx)
{
	buf_reset(&cx->missing);
	cx->sections = NULL;
	cx->keywords = NULL;
}

void
eval_ext_release(struct ectx *cx)
{
	if (cx->sh != NULL) {
		sh_release(cx->sh);
		free(cx->sh);
		cx->sh = NULL;
	}
	buf_release(&cx->missing);
	/* file_before pointed into file_text, which eval.c frees. */
	cx->ev->f[F_FILE_BEFORE].s = NULL;
	cx->ev->f[F_FILE_BEFORE].len = 0;
}

/* Adds one item to {{missing}}. */
static void
add_missing(struct ectx *cx, const char *s, size_t len)
{
	if (cx->missing.len)
		buf_adds(&cx->missing, ", ");
	buf_add(&cx->missing, s, len);
}

/* ---- shell ------------------------------------------------------------- */

bool
eval_shell(struct ectx *cx, const struct cond *c, bool in_when)
{
	struct rr_text		 cmd = cx->ev->f[F_COMMAND];
	const struct sh_cmd	*sc;
	size_t			 i;
	bool			 r;

	if (cmd.s == NULL) {
		explain(cx, "shell: no command in this event\n");
		return false;
	}
	if (cx->sh == NULL) {
		cx->sh = xcalloc(1, sizeof(*cx->sh));
		sh_parse(cx->sh, cmd.s, cmd.len);
	}
	for (i = 0; i < cx->sh->n; i++) {
		sc = &cx->sh->cmds[i];
		if (cx->opts->explain != NULL) {
			explain(cx, "shell: command %zu of %zu ", i + 1,
			    cx->sh->n);
			eval_snippet(cx->opts->explain, sc->text,
			    strlen(sc->text));
			buf_addc(cx->opts->explain, '\n');
		}
		cx->sh_cmd = sc;
		cx->depth++;
		r = eval_condition(cx, c->kids[0], false);
		cx->depth--;
		cx->sh_cmd = NULL;
		if (!r)
			continue;
		/* {{match}}: the whole simple command, as unquoted. */
		if (in_when && (cx->match == NULL || cx->match_is_glob)) {
			cx->match = sc->text;
			cx->match_len = strlen(sc->text);
			cx->match_is_glob = false;
		}
		return true;
	}
	explain(cx, "shell: none of %zu simple command%s matched%s\n",
	    cx->sh->n, cx->sh->n == 1 ? "" : "s", cx->sh->truncated ?
	    " (the command was too long or deep to parse whole)" : "");
	return false;
}

bool
eval_shell_part(struct ectx *cx, const struct cond *c)
{
	const struct sh_cmd	*sc = cx->sh_cmd;
	const char		**subjects, *one = NULL;
	size_t			*lens, n = 0, i;
	bool			 r;

	if (sc == NULL)
		return false;
	subjects = xcalloc(sc->argc + sc->nredirects + 1, sizeof(*subjects));
	lens = xcalloc(sc->argc + sc->nredirects + 1, sizeof(*lens));
	switch (c->sh_part) {
	case SH_PROGRAM:
		one = sc->program;
		break;
	case SH_SUBCOMMAND:
		one = sh_subcommand(sc);
		break;
	case SH_ARGS:
		for (i = 1; i < sc->argc; i++)
			subjects[n++] = sc->argv[i];
		break;
	case SH_DIR:
		one = sc->dir;
		break;
	case SH_REDIRECTS:
		for (i = 0; i < sc->nredirects; i++)
			subjects[n++] = sc->redirects[i];
		break;
	case SH_INPUT:
		one = sc->input;
		break;
	case SH__COUNT:
		break;
	}
	if (one != NULL)
		subjects[n++] = one;
	for (i = 0; i < n; i++)
		lens[i] = strlen(subjects[i]);
	r = eval_match_subjects(cx, c, subjects, lens, n, false);
	free(subjects);
	free(lens);
	return r;
}

bool
eval_shell_flags(struct ectx *cx, const struct cond *c)
{
	size_t	i;

	if (cx->sh_cmd == NULL)
		return false;
	for (i = 0; i < c->nstrs; i++)
		if (sh_has_flag(cx->sh_cmd, c->strs[i])) {
			explain(cx, "flags: %s is set\n", c->strs[i]);
			return true;
		}
	explain(cx, "flags: none of %zu is set\n", c->nstrs);
	return false;
}

/* ---- file_before, file_after ----------------------------------------------- */

void
eval_file_field(struct ectx *cx, enum rr_field f)
{
	struct rr_event	*ev = cx->ev;
	const cJSON	*input;
	struct buf	 b;

	eval_load_file(cx);
	if (f == F_FILE_BEFORE) {
		if (cx->file_state == 1) {
			ev->f[F_FILE_BEFORE].s = cx->file_text;
			ev->f[F_FILE_BEFORE].len = cx->file_len;
		}
		return;
	}
	if (f != F_FILE_AFTER || cx->after_state != 0)
		return;
	cx->after_state = -1;
	if (ev->kind == EV_POST_TOOL_USE) {
		/* The tool already ran: the file on disk is the result. */
		if (cx->file_state == 1) {
			ev->f[F_FILE_AFTER].s = arena_strndup(&ev->arena,
			    cx->file_text, cx->file_len);
			ev->f[F_FILE_AFTER].len = cx->file_len;
			cx->after_state = 1;
		}
		return;
	}
	input = cJSON_GetObjectItemCaseSensitive(ev->root, "tool_input");
	buf_init(&b);
	if (edit_result(ev->tool, input, cx->file_state == 1 ?
	    cx->file_text : NULL, cx->file_len, &b) == 0) {
		ev->f[F_FILE_AFTER].s = arena_strndup(&ev->arena, b.data,
		    b.len);
		ev->f[F_FILE_AFTER].len = b.len;
		cx->after_state = 1;
	}
	buf_release(&b);
}

/* ---- required, json -------------------------------------------------------- */

bool
eval_required(struct ectx *cx, const struct cond *c,
    const char *const *subjects, const size_t *lens, size_t n, bool in_when)
{
	const struct matcher	*m = &c->m;
	struct buf		 items;
	size_t			 i, k, start, end, nmissing = 0;
	bool			 found;

	buf_init(&items);
	for (i = 0; i < m->npats; i++) {
		for (found = false, k = 0; k < n && !found; k++)
			found = eval_pattern_hit(cx, c, i, subjects[k], lens[k],
			    &start, &end);
		if (found)
			continue;
		if (items.len)
			buf_adds(&items, ", ");
		buf_add(&items, m->pats[i].src, m->pats[i].len);
		nmissing++;
	}
	if (nmissing == 0)
		explain(cx, "%s: all %zu required found\n", c->label,
		    m->npats);
	else {
		explain(cx, "%s: %zu of %zu required missing: %s\n", c->label,
		    nmissing, m->npats, items.data);
		if (in_when)
			add_missing(cx, items.data, items.len);
	}
	buf_release(&items);
	return nmissing > 0;
}

bool
eval_json(struct ectx *cx, const struct cond *c, const char *const *subjects,
    const size_t *lens, size_t n, bool in_when)
{
	const struct json_spec	*spec = c->m.json;
	enum json_result	 r = JSON_NO_DOCUMENT;
	struct buf		 fails;
	const char		*why;
	size_t			 k;
	bool			 holds;

	buf_init(&fails);
	for (k = 0; k < n && r == JSON_NO_DOCUMENT; k++) {
		buf_reset(&fails);
		r = json_check_text(spec, subjects[k], lens[k], &fails);
	}
	if (!c->m.required) {
		holds = r == JSON_PASSES;
		explain(cx, "%s: json %s\n", c->label, r == JSON_PASSES ?
		    "document passes every check" : r == JSON_FAILS ?
		    "document fails a check" : "document not found");
		buf_release(&fails);
		return holds;
	}
	/* required: a check fails, or there is no document to check. */
	holds = r == JSON_FAILS || (r == JSON_NO_DOCUMENT && spec->nwhere == 0);
	why = r == JSON_FAILS ? fails.data : spec->find ?
	    "no JSON document" : "not valid JSON";
	if (!holds)
		explain(cx, "%s: json %s\n", c->label, r == JSON_PASSES ?
		    "document passes every check" :
		    "document not found (nothing to check)");
	else {
		explain(cx, "%s: json required: %s\n", c->label, why);
		if (in_when)
			add_missing(cx, why, strlen(why));
	}
	buf_release(&fails);
	return holds;
}

/* ---- sections -------------------------------------------------------------- */

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Reads the sections file; -1 with a note on stderr when it cannot. */
static int
read_sections_file(struct ectx *cx, const char *path, struct buf *out)
{
	struct stat		st;
	enum fd_read_result	rr;
	int			fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		err = errno;
	else if (fstat(fd, &st) < 0)
		err = errno;
	else if (!S_ISREG(st.st_mode))
		err = EINVAL;
	else if ((rr = fd_read_all(fd, MD_FILE_MAX, false, out)) ==
	    FD_READ_ERROR)
		err = errno;
	else if (rr == FD_READ_TOO_BIG)
		err = EFBIG;
	if (fd >= 0)
		close(fd);
	if (err == 0)
		return 0;
	buf_printf(&cx->out->notes, "reflexion-rules: %s:%d: rule '%s': "
	    "cannot read %s: %s\n", cx->rule->file, cx->rule->line,
	    cx->rule->id, path, err == EINVAL ? "not a regular file" :
	    err == EFBIG ? "larger than 4 MB" : strerror(err));
	return -1;
}

bool
eval_sections(struct ectx *cx, const struct cond *c, bool in_when)
{
	const struct sections_spec	*spec = c->sections;
	const char			**active, *dir = cx->ev->project_dir;
	struct buf			 text, titles, kw;
	char				*path;
	size_t				 n = 0, i, found;

	active = xcalloc(spec->ntags + 1, sizeof(*active));
	cx->depth++;
	for (i = 0; i < spec->ntags; i++)
		if (spec->tags[i].when == NULL ||
		    eval_condition(cx, spec->tags[i].when, false))
			active[n++] = spec->tags[i].name;
	cx->depth--;
	if (n == 0) {
		explain(cx, "sections: no keyword applies\n");
		free(active);
		return false;
	}
	qsort(active, n, sizeof(*active), name_cmp);
	buf_init(&kw);
	for (i = 0; i < n; i++)
		buf_printf(&kw, "%s%s", i ? ", " : "", active[i]);
	if (spec->file[0] == '/' || dir == NULL || *dir == '\0')
		path = xstrdup(spec->file);
	else
		path = xasprintf("%s/%s", dir, spec->file);
	buf_init(&text);
	buf_init(&titles);
	found = 0;
	if (read_sections_file(cx, path, &text) == 0)
		found = md_tagged_sections(text.data, text.len, active, n,
		    &titles);
	explain(cx, "sections: keywords %s: %zu tagged section%s in %s\n",
	    kw.data, found, found == 1 ? "" : "s", path);
	if (found > 0 && in_when) {
		cx->keywords = arena_strndup(&cx->ev->arena, kw.data, kw.len);
		cx->sections = arena_strndup(&cx->ev->arena, titles.data,
		    titles.len);
	}
	buf_release(&kw);
	buf_release(&text);
	buf_release(&titles);
	free(path);
	free(active);
	return found > 0;
}
