/*
 * Conditions: eval_condition() decides one by its kind.  A text condition
 * picks its subjects (a field of the event, a part of a shell command)
 * and leaves matching them to eval_match.c; env, file_contains and kb are
 * decided here.  all / any / not, shell maps and sections evaluate the
 * conditions inside them, and this is the only file that recurses: the
 * files below it evaluate no condition.
 *
 * Each reads the event lazily: a command is parsed or a file read only
 * when a rule asks, once per event.  The sections file is read on every
 * evaluation, never cached, so an edited file counts at once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blocks.h"
#include "eval_priv.h"
#include "fileio.h"
#include "kb.h"
#include "mdsections.h"
#include "shellwords.h"
#include "textfind.h"
#include "xmalloc.h"

static bool eval_cond(struct ectx *, const struct cond *, bool in_when);
static bool eval_cond_kind(struct ectx *, const struct cond *, bool in_when);

/* ---- text, kb ----------------------------------------------------------- */

/*
 * For explain: the names a path condition compares (pathid.h) and
 * whether case is folded, so that a match through a link or in another
 * case can be told from one of the text the agent wrote.
 */
static void
explain_path_forms(struct ectx *cx, const struct cond *c,
    const char *const *subjects, const size_t *lens,
    const enum path_form_kind *kinds, size_t nsub)
{
	struct buf	*x = cx->opts->explain;
	size_t		 k;

	if (x == NULL || nsub == 0)
		return;
	explain(cx, "%s: compared as ", c->label);
	for (k = 0; k < nsub; k++) {
		buf_adds(x, k ? ", " : "");
		eval_snippet(x, subjects[k], lens[k]);
		buf_printf(x, " (%s)", path_form_names[kinds[k]]);
	}
	buf_printf(x, "%s\n", c->m.kind != M_REGEX &&
	    (c->m.ignore_case || event_paths_fold_case(cx->ev)) ?
	    "; case folded" : "");
}

/*
 * A path condition: every name of every file the event names (pathid.h),
 * each relative to the project first, then absolute, then the real ones.
 */
static bool
eval_path(struct ectx *cx, const struct cond *c, bool in_when)
{
	const struct path_forms	*f;
	const char		*one[PATH_FORMS_MAX], **subjects = one;
	size_t			 ones[PATH_FORMS_MAX], *lens = ones;
	enum path_form_kind	 onek[PATH_FORMS_MAX], *kinds = onek;
	size_t			 n, i, k, nsub = 0;
	bool			 r;

	n = event_paths(cx->ev, &f);
	if (n > 1) {
		subjects = xcalloc(n * PATH_FORMS_MAX, sizeof(*subjects));
		lens = xcalloc(n * PATH_FORMS_MAX, sizeof(*lens));
		kinds = xcalloc(n * PATH_FORMS_MAX, sizeof(*kinds));
	}
	for (i = 0; i < n; i++) {
		k = path_forms_list(&f[i], subjects + nsub, lens + nsub,
		    kinds + nsub);
		/* outside and except leave files out, one by one. */
		if ((c->m.outside == 0 && c->m.nexcept == 0) ||
		    eval_path_counts(cx, c, &f[i], subjects + nsub,
		    lens + nsub, k))
			nsub += k;
	}
	explain_path_forms(cx, c, subjects, lens, kinds, nsub);
	if (nsub == 0 && n > 0) {
		explain(cx, "%s: none of its files is left\n", c->label);
		r = false;
	} else
		r = eval_match_subjects(cx, c, subjects, lens, nsub, in_when,
		    NULL);
	if (subjects != one) {
		free(subjects);
		free(lens);
		free(kinds);
	}
	return r;
}

static bool
eval_text(struct ectx *cx, const struct cond *c, bool in_when)
{
	struct rr_event	*ev = cx->ev;
	struct rr_text	 t;
	const char	*subjects[1];
	size_t		 lens[1], nsub = 0;
	bool		 holds;

	if (c->field == F_FILE_BEFORE || c->field == F_FILE_AFTER)
		eval_file_field(cx, c->field);
	if (c->field == F_FILE_AFTER && cx->after_state == -2) {
		/* Not decided, as a regex at its limit: never silent. */
		buf_printf(&cx->out->notes, "reflexion-rules: %s:%d:%d: rule "
		    "'%s': file_after: the edits hit their work limit; "
		    "counted as absent\n", cx->rule->file, c->line, c->col,
		    cx->rule->id);
		explain(cx, "%s: the edits hit their work limit\n", c->label);
		if (cx->rule->fail_closed && cx->out->undecided == NULL) {
			cx->out->undecided = cx->rule;
			cx->out->undecided_why =
			    "file_after hit its work limit";
		}
		return false;
	}
	/* A shell command's files, or a reading tool's read_path. */
	if ((c->field == F_PATH || c->field == F_READ_PATH) &&
	    eval_paths_cond(cx, c, in_when, &holds))
		return holds;
	/* A file tool's path, by every name of its file. */
	if (c->field == F_PATH)
		return eval_path(cx, c, in_when);
	if (c->field == F_INPUT)
		t = event_input(ev, c->input_key);
	else if (c->field == F_READ_PATH)
		t.s = NULL;		/* only a tool that reads has one */
	else
		t = event_field(ev, c->field);
	if (t.s != NULL) {
		subjects[nsub] = t.s;
		lens[nsub++] = t.len;
	}
	return eval_match_subjects(cx, c, subjects, lens, nsub, in_when, NULL);
}

/* The file name seed 000 looks up: file_path.split('/').pop(). */
static const char *
kb_file_name(const struct rr_event *ev)
{
	const char	*p = ev->f[F_PATH].s, *slash;

	if (p == NULL || ev->f[F_PATH].len == 0)
		return NULL;
	slash = strrchr(p, '/');
	return slash ? slash + 1 : p;
}

static bool
eval_kb(struct ectx *cx, const struct cond *c, bool in_when)
{
	struct rr_event	*ev = cx->ev;
	struct kb_rows	 rows;
	const char	*name = NULL, *what = "kb";
	char		*err = NULL;
	int		 rc = 0;

	if (cx->opts->db == NULL) {
		explain(cx, "kb: no knowledge base here\n");
		return false;
	}
	kb_rows_init(&rows);
	switch (c->kb_query) {
	case KBQ_FILE_ERRORS:
		what = "file_errors";
		if ((name = kb_file_name(ev)) == NULL) {
			explain(cx, "kb: file_errors: the event has no file "
			    "path\n");
			return false;
		}
		rc = kb_file_errors(cx->opts->db, name, c->kb_limit, 0, &rows,
		    &err);
		break;
	case KBQ_SESSION_ERROR:
		what = "session_error";
		if ((name = ev->tool) == NULL) {
			explain(cx, "kb: session_error: the event has no "
			    "tool\n");
			return false;
		}
		rc = kb_session_error(cx->opts->db, ev->session_id, name,
		    c->kb_limit, &rows, &err);
		break;
	}
	if (rc < 0) {
		if (!cx->kb_failed)
			buf_printf(&cx->out->notes, "reflexion-rules: %s; kb "
			    "conditions do not hold\n", err);
		cx->kb_failed = true;
		explain(cx, "kb: %s: %s\n", what, err);
		free(err);
		return false;
	}
	explain(cx, "kb: %s for '%s': %zu row%s\n", what, name, rows.n,
	    rows.n == 1 ? "" : "s");
	if (rows.n == 0)
		return false;
	if (in_when)
		kb_rows_take(&cx->rows, &rows);
	kb_rows_release(&rows);
	return true;
}

/* ---- shell maps --------------------------------------------------------- */

static bool
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
	eval_command(cx);
	for (i = 0; i < cx->sh->n; i++) {
		sc = &cx->sh->cmds[i];
		if (cx->opts->explain != NULL) {
			explain(cx, "shell: command %zu of %zu ", i + 1,
			    cx->sh->n);
			eval_snippet(cx->opts->explain, sc->text,
			    strlen(sc->text));
			if (sc->via != NULL) {
				buf_adds(cx->opts->explain, ", run by ");
				eval_snippet(cx->opts->explain, sc->via,
				    strlen(sc->via));
			}
			if (sc->origin != NULL) {
				buf_adds(cx->opts->explain, ", read from ");
				eval_snippet(cx->opts->explain, sc->origin,
				    strlen(sc->origin));
			}
			if (sc->note != NULL) {
				buf_adds(cx->opts->explain, ", ");
				buf_adds(cx->opts->explain, sc->note);
			}
			buf_addc(cx->opts->explain, '\n');
		}
		cx->sh_cmd = sc;
		cx->sh_path_hit = NULL;
		cx->depth++;
		r = eval_condition(cx, c->kids[0], false);
		cx->depth--;
		cx->sh_cmd = NULL;
		if (!r)
			continue;
		/* {{path}}: the file a path of the map matched in it. */
		if (in_when && cx->path_hit == NULL)
			cx->path_hit = cx->sh_path_hit;
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

static bool
eval_shell_part(struct ectx *cx, const struct cond *c)
{
	const struct sh_cmd	*sc = cx->sh_cmd;
	const char		**subjects, *one = NULL;
	const struct eval_args	*args;
	size_t			*lens, n = 0, i;
	bool			 r;

	if (sc == NULL)
		return false;
	if (c->sh_part == SH_ARGS) {
		/* Each word, its path written plainly, what it expands to. */
		args = eval_command_args(cx, (size_t)(sc - cx->sh->cmds));
		return eval_match_subjects(cx, c, args->v, args->lens, args->n,
		    false, NULL);
	}
	subjects = xcalloc(sc->nredirects + 1, sizeof(*subjects));
	lens = xcalloc(sc->nredirects + 1, sizeof(*lens));
	switch (c->sh_part) {
	case SH_PROGRAM:
		one = sc->program;
		break;
	case SH_SUBCOMMAND:
		one = sh_subcommand(sc);
		break;
	case SH_ARGS:	/* above */
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
	r = eval_match_subjects(cx, c, subjects, lens, n, false, NULL);
	free(subjects);
	free(lens);
	return r;
}

static bool
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

/* ---- sections ----------------------------------------------------------- */

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Reads the sections file; -1 with a note on stderr when it cannot. */
static int
read_sections_file(struct ectx *cx, const char *path, struct buf *out)
{
	int	err;

	if ((err = file_read_regular(path, MD_FILE_MAX, out)) == 0)
		return 0;
	buf_printf(&cx->out->notes, "reflexion-rules: %s:%d: rule '%s': "
	    "cannot read %s: %s\n", cx->rule->file, cx->rule->line,
	    cx->rule->id, path, err == EINVAL ? "not a regular file" :
	    err == EFBIG ? "larger than 4 MB" : strerror(err));
	return -1;
}

static bool
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

/* ---- blocks --------------------------------------------------------------- */

/*
 * Within a blocks condition, a condition that does not depend on the
 * block (cond.per_block) is decided for the first block and remembered:
 * a document-wide test inside a blocks map costs one test, not one per
 * block, and the blocks stay linear in the text.
 */
static bool
memo_find(struct ectx *cx, const struct cond *c, bool *holds)
{
	size_t	i;

	for (i = 0; i < cx->nmemo; i++)
		if (cx->memo[i].c == c) {
			*holds = cx->memo[i].holds;
			return true;
		}
	return false;
}

static void
memo_add(struct ectx *cx, const struct cond *c, bool holds)
{
	if (cx->nmemo == cx->memo_cap) {
		cx->memo_cap = cx->memo_cap ? cx->memo_cap * 2 : 8;
		cx->memo = xreallocarray(cx->memo, cx->memo_cap,
		    sizeof(*cx->memo));
	}
	cx->memo[cx->nmemo].c = c;
	cx->memo[cx->nmemo++].holds = holds;
}

/* What a remembered condition is called: its one key, not a wrapper's. */
static const char *
memo_label(const struct cond *c)
{
	while ((c->kind == C_ALL || c->kind == C_ANY) && c->nkids == 1)
		c = c->kids[0];
	return c->label;
}

static void
add_hit(struct ectx *cx, const struct blocks_spec *b, const struct block *bl,
    const struct buf *missing)
{
	struct block_hit	*h;

	if (cx->nhits == cx->hits_cap) {
		cx->hits_cap = cx->hits_cap ? cx->hits_cap * 2 : 8;
		cx->hits = xreallocarray(cx->hits, cx->hits_cap,
		    sizeof(*cx->hits));
	}
	h = &cx->hits[cx->nhits++];
	h->id = bl->id;
	h->line = bl->line;
	h->index = bl->index;
	h->name = b->name;
	h->member = bl->member;
	h->missing = missing->len ? arena_strndup(&cx->ev->arena,
	    missing->data, missing->len) : NULL;
}

/*
 * Whether block bl counts (its when holds, its unless does not) and
 * then whether it passes the test.  Its {{missing}} goes to `missing`.
 */
static bool
block_holds(struct ectx *cx, const struct blocks_spec *b, bool in_when,
    struct buf *missing, bool *counts)
{
	struct buf	 outer;
	const char	*match = cx->match;
	size_t		 match_len = cx->match_len;
	bool		 glob = cx->match_is_glob, r;

	*counts = false;
	if (b->when != NULL && !eval_cond(cx, b->when, false)) {
		explain(cx, "not counted: its when does not hold\n");
		return false;
	}
	if (b->unless != NULL && eval_cond(cx, b->unless, false)) {
		explain(cx, "not counted: its unless holds\n");
		return false;
	}
	*counts = true;
	/* The rule's {{missing}} and {{match}} are not the block's. */
	outer = cx->missing;
	cx->missing = *missing;
	r = eval_cond(cx, b->test, in_when);
	*missing = cx->missing;
	cx->missing = outer;
	cx->match = match;
	cx->match_len = match_len;
	cx->match_is_glob = glob;
	return r;
}

/*
 * blocks: some block that counts passes its test, or every one does.
 * In a `when` every block is looked at, and those that made it hold are
 * the rule's hits ({{block}}, {{blocks}}, check's results).
 */
static bool
eval_blocks(struct ectx *cx, const struct cond *c, bool in_when)
{
	const struct blocks_spec	*b = c->blocks;
	struct block_list		*l;
	struct buf			 missing;
	size_t				 i, first = cx->nhits, counted = 0;
	size_t				 passed = 0;
	bool				 counts, r;

	if (eval_blocks_cut(cx, c, &l) != 0)
		return false;
	explain(cx, "blocks: %zu block%s; %s:\n", l->n, l->n == 1 ? "" : "s",
	    b->every ? "every one that counts must hold" :
	    "one that counts must hold");
	cx->nmemo = 0;
	cx->nlisted = 0;
	buf_init(&missing);
	cx->depth++;
	for (i = 0; i < l->n; i++) {
		cx->block = &l->v[i];
		cx->block_text = NULL;
		if (cx->opts->explain != NULL) {
			explain(cx, "block '%s'", l->v[i].id);
			if (l->v[i].line)
				buf_printf(cx->opts->explain, " (line %zu)",
				    l->v[i].line);
			buf_adds(cx->opts->explain, ":\n");
		}
		cx->depth++;
		buf_reset(&missing);
		r = block_holds(cx, b, in_when, &missing, &counts);
		cx->depth--;
		if (!counts)
			continue;
		counted++;
		if (r)
			passed++;
		if (r && in_when)
			add_hit(cx, b, &l->v[i], &missing);
		/* Decided: one fails every, or (nothing to collect) one
		   passes some. */
		if (b->every ? !r : !in_when && r)
			break;
	}
	cx->depth--;
	cx->block = NULL;
	cx->block_text = NULL;
	cx->nmemo = 0;
	cx->nlisted = 0;
	r = b->every ? passed == counted : passed > 0;
	buf_release(&missing);
	if (!r)
		cx->nhits = first;
	explain(cx, "blocks: %zu of %zu counted block%s held: %s\n", passed,
	    counted, counted == 1 ? "" : "s", r ? "holds" : "does not hold");
	return r;
}

/* ---- the dispatcher ----------------------------------------------------- */


/*
 * The entry to conditions: eval.c decides `when` and `unless` with it,
 * and the shell maps and sections above the conditions they hold.
 */
bool
eval_condition(struct ectx *cx, const struct cond *c, bool in_when)
{
	return eval_cond(cx, c, in_when);
}

static bool
eval_cond(struct ectx *cx, const struct cond *c, bool in_when)
{
	bool	r;

	if (cx->block != NULL && !c->per_block) {
		/* Within a blocks map: decided once (see memo_find). */
		if (memo_find(cx, c, &r)) {
			explain(cx, "%s: %s, as for the first block\n",
			    memo_label(c), r ? "holds" : "does not hold");
			return r;
		}
		r = eval_cond_kind(cx, c, false);
		memo_add(cx, c, r);
		return r;
	}
	return eval_cond_kind(cx, c, in_when);
}

static bool
eval_cond_kind(struct ectx *cx, const struct cond *c, bool in_when)
{
	const struct eval_path	*hit;
	size_t			 i;
	bool			 r;

	switch (c->kind) {
	case C_TEXT:
		return eval_text(cx, c, in_when);
	case C_ENV:
		for (i = 0; i < c->nstrs; i++) {
			const char *v = getenv(c->strs[i]);
			if (v != NULL && *v != '\0') {
				explain(cx, "env: %s is set\n", c->strs[i]);
				return true;
			}
		}
		explain(cx, "env: none of %zu variables is set\n", c->nstrs);
		return false;
	case C_FILE_CONTAINS:
		eval_load_file(cx);
		if (cx->file_state < 0) {
			explain(cx, "file_contains: no readable file on disk\n");
			return false;
		}
		for (i = 0; i < c->nstrs; i++)
			if (text_find(cx->file_text, cx->file_len,
			    c->strs[i], strlen(c->strs[i]), false) >= 0) {
				explain(cx, "file_contains: '%s' found in %s\n",
				    c->strs[i], cx->ev->abs_path);
				return true;
			}
		explain(cx, "file_contains: no marker found in %s\n",
		    cx->ev->abs_path);
		return false;
	case C_ALL:
	case C_ANY:
		if (c->kind == C_ANY && c->nkids > 1)
			explain(cx, "any of:\n");
		else if (c->kind == C_ALL && c->nkids > 1 &&
		    cx->depth > 1)
			explain(cx, "all of:\n");
		cx->depth++;
		for (i = 0; i < c->nkids; i++) {
			r = eval_cond(cx, c->kids[i], in_when);
			if (c->kind == C_ALL && !r) {
				cx->depth--;
				return false;
			}
			if (c->kind == C_ANY && r) {
				cx->depth--;
				return true;
			}
		}
		cx->depth--;
		return c->kind == C_ALL;
	case C_NOT:
		explain(cx, "not:\n");
		/* A file that matched under not: is not the rule's {{path}}. */
		hit = cx->sh_path_hit;
		cx->depth++;
		r = !eval_cond(cx, c->kids[0], false);
		cx->depth--;
		cx->sh_path_hit = hit;
		return r;
	case C_KB:
		return eval_kb(cx, c, in_when);
	case C_SHELL:
		return eval_shell(cx, c, in_when);
	case C_SH_TEXT:
		return eval_shell_part(cx, c);
	case C_SH_FLAGS:
		return eval_shell_flags(cx, c);
	case C_SECTIONS:
		return eval_sections(cx, c, in_when);
	case C_BLOCKS:
		return eval_blocks(cx, c, in_when);
	case C_BLOCK_PART:
		return eval_block_part(cx, c, in_when);
	case C_LISTED:
		return eval_listed(cx, c);
	case C_RELATED:
		return eval_related(cx, c, in_when);
	case C_MEMORY:
		return eval_memory(cx, c, in_when);
	case C_ROUTER:
		return eval_router(cx);
	}
	return false;
}
