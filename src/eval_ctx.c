/*
 * The per-event scratch of the evaluation stage (struct ectx, see
 * eval_priv.h) and its low helpers: the explain trace, the file the tool
 * touches (read once per event), the file_before / file_after fields made
 * from it, and the {{missing}} text.  It owns what the scratch holds
 * between rules and events and frees it.  Nothing here matches text or
 * evaluates a condition: the other eval*.c files build on this one, never
 * the other way round.
 */
#include <cjson/cJSON.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blocks.h"
#include "edits.h"
#include "eval_priv.h"
#include "fileio.h"
#include "jsoncheck.h"
#include "jsonw.h"
#include "kb.h"
#include "shellglob.h"
#include "pathtpl.h"
#include "shellwords.h"
#include "xmalloc.h"

#define EXPLAIN_SNIPPET		60
#define FILE_CONTAINS_MAX	(16u * 1024 * 1024)

/* ---- lifetime ------------------------------------------------------------ */

void
eval_ctx_init(struct ectx *cx, struct rr_event *ev,
    const struct eval_opts *opts, struct eval_outcome *out)
{
	memset(cx, 0, sizeof(*cx));
	cx->ev = ev;
	cx->opts = opts;
	cx->out = out;
	buf_init(&cx->missing);
}

/* Forgets what the previous rule found; the event's reads stay. */
void
eval_ctx_reset_rule(struct ectx *cx, const struct rule *r)
{
	cx->rule = r;
	cx->match = NULL;
	cx->match_len = 0;
	cx->match_is_glob = false;
	cx->depth = 0;
	kb_rows_release(&cx->rows);
	mem_rows_release(&cx->mem);
	buf_reset(&cx->missing);
	cx->sections = NULL;
	cx->keywords = NULL;
	cx->path_hit = NULL;
	cx->sh_path_hit = NULL;
	cx->nhits = 0;
	cx->block = NULL;
}

void
eval_ctx_release(struct ectx *cx)
{
	size_t	i;

	free(cx->file_text);
	cx->file_text = NULL;
	kb_rows_release(&cx->rows);
	mem_rows_release(&cx->mem);
	free(cx->paths.v[0]);
	free(cx->paths.v[1]);
	free(cx->paths.by_cmd[0]);
	free(cx->paths.by_cmd[1]);
	free(cx->paths.cmd_start[0]);
	free(cx->paths.cmd_start[1]);
	if (cx->paths.shell)
		sh_targets_release(&cx->paths.targets);
	memset(&cx->paths, 0, sizeof(cx->paths));
	if (cx->args != NULL) {
		for (i = 0; i < cx->sh->n; i++) {
			free(cx->args[i].v);
			free(cx->args[i].lens);
		}
		free(cx->args);
		cx->args = NULL;
	}
	if (cx->sh != NULL) {
		sh_release(cx->sh);
		free(cx->sh);
		cx->sh = NULL;
	}
	buf_release(&cx->missing);
	for (i = 0; i < cx->nlists; i++) {
		block_list_release(cx->lists[i]);
		free(cx->lists[i]);
	}
	free(cx->lists);
	free(cx->hits);
	free(cx->memo);
	free(cx->listed);
	for (i = 0; i < cx->nrfiles; i++) {
		free(cx->rfiles[i].path);
		free(cx->rfiles[i].text);
		cJSON_Delete(cx->rfiles[i].doc);
	}
	free(cx->rfiles);
	for (i = 0; i < cx->nrdirs; i++) {
		free(cx->rdirs[i].path);
		dir_names_free(cx->rdirs[i].names, cx->rdirs[i].n);
	}
	free(cx->rdirs);
	for (i = 0; i < cx->nparsed; i++)
		cJSON_Delete(cx->parsed[i].doc);
	for (i = 0; i < cx->njidx; i++)
		free(cx->jidx[i].slots);
	free(cx->jidx);
	/* file_before pointed into file_text, freed above. */
	cx->ev->f[F_FILE_BEFORE].s = NULL;
	cx->ev->f[F_FILE_BEFORE].len = 0;
}

/* ---- explain ------------------------------------------------------------- */

void
eval_snippet(struct buf *b, const char *s, size_t len)
{
	size_t	cut = utf8_prefix(s, len, EXPLAIN_SNIPPET), i;

	buf_addc(b, '\'');
	for (i = 0; i < cut; i++) {
		if (s[i] == '\n')
			buf_adds(b, "\\n");
		else if ((unsigned char)s[i] < 0x20)
			buf_addc(b, ' ');
		else
			buf_addc(b, s[i]);
	}
	buf_addc(b, '\'');
	if (cut < len)
		buf_adds(b, "...");
}

/* The trace of `explain`, indented to the current depth. */
void
eval_explain(struct ectx *cx, const char *fmt, ...)
{
	va_list	ap;
	int	i;

	if (cx->opts->explain == NULL)
		return;
	for (i = 0; i < cx->depth; i++)
		buf_adds(cx->opts->explain, "  ");
	va_start(ap, fmt);
	buf_vprintf(cx->opts->explain, fmt, ap);
	va_end(ap);
}

/* ---- {{missing}} --------------------------------------------------------- */

/* Adds one item to {{missing}}. */
void
eval_add_missing(struct ectx *cx, const char *s, size_t len)
{
	if (cx->missing.len)
		buf_adds(&cx->missing, ", ");
	buf_add(&cx->missing, s, len);
}

/* ---- the file on disk ---------------------------------------------------- */

static void
load_file(struct ectx *cx)
{
	struct stat	 st;
	struct buf	 b;
	int		 fd;

	cx->file_state = -1;
	if (cx->ev->abs_path == NULL)
		return;
	/* O_NONBLOCK: a FIFO planted at the path must not hang the hook. */
	fd = open(cx->ev->abs_path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return;
	}
	buf_init(&b);
	if (fd_read_all(fd, FILE_CONTAINS_MAX, false, &b) == FD_READ_OK) {
		cx->file_text = buf_detach(&b, &cx->file_len);
		cx->file_state = 1;
	} else
		buf_release(&b);
	close(fd);
}

void
eval_load_file(struct ectx *cx)
{
	if (cx->file_state == 0)
		load_file(cx);
}

/* ---- the command ----------------------------------------------------------- */

struct sh_script *
eval_command(struct ectx *cx)
{
	struct rr_text	cmd = cx->ev->f[F_COMMAND];

	if (cx->sh == NULL && cmd.s != NULL) {
		cx->sh = xcalloc(1, sizeof(*cx->sh));
		sh_parse(cx->sh, cmd.s, cmd.len);
	}
	return cx->sh;
}

bool
eval_programs_text(struct ectx *cx, enum rr_field f, struct rr_text *out)
{
	const struct sh_script	*sh;
	const char		*word;
	struct buf		 b;
	size_t			 i;

	if ((sh = eval_command(cx)) == NULL)
		return false;
	buf_init(&b);
	for (i = 0; i < sh->n; i++) {
		word = f == F_PROGRAMS ? sh->cmds[i].program :
		    sh_subcommand(&sh->cmds[i]);
		if (word != NULL) {
			buf_adds(&b, word);
			buf_addc(&b, '\n');
		}
	}
	out->s = arena_strndup(&cx->ev->arena, b.data ? b.data : "", b.len);
	out->len = b.len;
	buf_release(&b);
	return true;
}

/*
 * ~ and $HOME as the agent's shell expands them: the hook runs with the
 * agent's environment.  NULL unless absolute.
 */
static const char *
shell_home(void)
{
	const char	*home = getenv("HOME");

	return home != NULL && home[0] == '/' ? home : NULL;
}

/*
 * Where .. above ~ leads: from the home directory, or without one from
 * a home two levels deep, as nearly every home is (/home/NAME,
 * /Users/NAME): ~/../.. is / either way.
 */
#define HOME_UNKNOWN	"/home/user"

const struct eval_args *
eval_command_args(struct ectx *cx, size_t i)
{
	const struct sh_cmd	*sc = &cx->sh->cmds[i];
	struct eval_args	*a;
	const char		*home = shell_home(), *plain;
	struct buf		 path;
	size_t			 k, cap, g;

	if (cx->args == NULL)
		cx->args = xcalloc(cx->sh->n, sizeof(*cx->args));
	a = &cx->args[i];
	if (a->made)
		return a;
	a->made = true;
	cap = 2 * sc->argc + 1;
	a->v = xcalloc(cap, sizeof(*a->v));
	buf_init(&path);
	for (k = 1; k < sc->argc; k++) {
		a->v[a->n++] = plain = sc->argv[k];
		if (sh_arg_path(sc->argv[k], home ? home : HOME_UNKNOWN,
		    &path))
			a->v[a->n++] = plain = arena_strndup(&cx->ev->arena,
			    path.data, path.len);
		if (!sh_is_pattern(plain))
			continue;
		a->v = xreallocarray(a->v, cap + SH_GLOB_MAX,
		    sizeof(*a->v));
		cap += SH_GLOB_MAX;
		g = sh_arg_globs(plain, home, &cx->ev->arena, a->v + a->n,
		    SH_GLOB_MAX);
		a->n += g;
	}
	buf_release(&path);
	a->lens = xcalloc(a->n + 1, sizeof(*a->lens));
	for (k = 0; k < a->n; k++)
		a->lens[k] = strlen(a->v[k]);
	return a;
}

/* ---- file_before, file_after --------------------------------------------- */

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
	switch (ev->file_after != NULL ?
	    ev->file_after(ev->file_after_arg, cx->file_state == 1 ?
	    cx->file_text : NULL, cx->file_len, &b) :
	    edit_result(ev->tool, input, cx->file_state == 1 ?
	    cx->file_text : NULL, cx->file_len, &b)) {
	case EDIT_OK:
		ev->f[F_FILE_AFTER].s = arena_strndup(&ev->arena, b.data,
		    b.len);
		ev->f[F_FILE_AFTER].len = b.len;
		cx->after_state = 1;
		break;
	case EDIT_TOO_COSTLY:
		cx->after_state = -2;	/* not decided: see eval_priv.h */
		break;
	default:
		break;
	}
	buf_release(&b);
}

/* ---- blocks and related files --------------------------------------------- */

void
eval_keep_list(struct ectx *cx, struct block_list *l)
{
	if (cx->nlists == cx->lists_cap) {
		cx->lists_cap = cx->lists_cap ? cx->lists_cap * 2 : 4;
		cx->lists = xreallocarray(cx->lists, cx->lists_cap,
		    sizeof(*cx->lists));
	}
	cx->lists[cx->nlists++] = l;
}

void
eval_tpl_values(struct ectx *cx, const char *values[])
{
	struct rr_event	*ev = cx->ev;
	const char	*abs = ev->abs_path, *slash, *dot;
	size_t		 i;

	for (i = 0; i < PV__COUNT; i++)
		values[i] = NULL;
	if (abs != NULL && abs[0] == '/' && (slash = strrchr(abs, '/')) !=
	    NULL) {
		values[PV_DIR] = slash == abs ? "/" :
		    arena_strndup(&ev->arena, abs, (size_t)(slash - abs));
		values[PV_NAME] = slash + 1;
		/* ".env" is its own stem; "a.tar.gz" is "a.tar". */
		dot = strrchr(slash + 1, '.');
		values[PV_STEM] = dot == NULL || dot == slash + 1 ?
		    slash + 1 : arena_strndup(&ev->arena, slash + 1,
		    (size_t)(dot - slash - 1));
	}
	if (ev->project_dir != NULL && ev->project_dir[0] == '/')
		values[PV_PROJECT] = ev->project_dir;
	if (cx->block != NULL)
		values[PV_BLOCK] = cx->block->id;
}

/* A JSON key's template made for the current block (json_env). */
static const char *
expand_key(void *arg, const char *tpl)
{
	struct ectx	*cx = arg;
	const char	*values[PV__COUNT], *why;
	struct buf	 b;
	const char	*out = NULL;

	eval_tpl_values(cx, values);
	buf_init(&b);
	if (ptpl_expand(tpl, values, false, &b, &why) == 0)
		out = arena_strndup(&cx->ev->arena, b.data, b.len);
	buf_release(&b);
	return out;
}

/* Below this many members a scan is as cheap as an index. */
#define JSON_INDEX_MIN	32

static size_t
key_hash(const char *s)
{
	size_t	h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static struct json_index *
json_index_make(struct ectx *cx, const cJSON *box)
{
	struct json_index	*x;
	const cJSON		*m;
	size_t			 n = 0, h;

	cJSON_ArrayForEach(m, box)
		n++;
	if (cx->njidx == cx->jidx_cap) {
		cx->jidx_cap = cx->jidx_cap ? cx->jidx_cap * 2 : 4;
		cx->jidx = xreallocarray(cx->jidx, cx->jidx_cap,
		    sizeof(*cx->jidx));
	}
	x = &cx->jidx[cx->njidx++];
	memset(x, 0, sizeof(*x));
	x->box = box;
	x->n = n;
	if (cJSON_IsArray(box)) {
		x->slots = xcalloc(n + 1, sizeof(*x->slots));
		n = 0;
		cJSON_ArrayForEach(m, box)
			x->slots[n++] = m;
		return x;
	}
	for (x->cap = 64; x->cap < 2 * n; x->cap *= 2)
		;
	x->slots = xcalloc(x->cap, sizeof(*x->slots));
	cJSON_ArrayForEach(m, box) {
		if (m->string == NULL)
			continue;
		for (h = key_hash(m->string) & (x->cap - 1); x->slots[h] !=
		    NULL; h = (h + 1) & (x->cap - 1))
			if (strcmp(x->slots[h]->string, m->string) == 0)
				break;
		if (x->slots[h] == NULL)	/* the first of a key wins */
			x->slots[h] = m;
	}
	return x;
}

/* A member by key or index: an index the first time a big box is asked. */
static const cJSON *
member_of(void *arg, const cJSON *box, const char *key)
{
	struct ectx		*cx = arg;
	struct json_index	*x = NULL;
	const cJSON		*m;
	char			*end;
	size_t			 i, h, n = 0;
	long			 idx;

	if (!cJSON_IsObject(box) && !cJSON_IsArray(box))
		return NULL;
	for (i = 0; i < cx->njidx; i++)
		if (cx->jidx[i].box == box) {
			x = &cx->jidx[i];
			break;
		}
	if (x == NULL) {
		cJSON_ArrayForEach(m, box)
			if (++n >= JSON_INDEX_MIN)
				break;
		if (n >= JSON_INDEX_MIN)
			x = json_index_make(cx, box);
	}
	if (cJSON_IsArray(box)) {
		idx = strtol(key, &end, 10);
		if (*key < '0' || *key > '9' || *end != '\0' || idx < 0)
			return NULL;
		if (x != NULL)
			return (size_t)idx < x->n ? x->slots[idx] : NULL;
		return idx > 1000000 ? NULL : cJSON_GetArrayItem(box, (int)idx);
	}
	if (x == NULL) {
		cJSON_ArrayForEach(m, box)
			if (m->string != NULL && strcmp(m->string, key) == 0)
				return m;
		return NULL;
	}
	for (h = key_hash(key) & (x->cap - 1); x->slots[h] != NULL;
	    h = (h + 1) & (x->cap - 1))
		if (strcmp(x->slots[h]->string, key) == 0)
			return x->slots[h];
	return NULL;
}

void
eval_json_env(struct ectx *cx, struct json_env *env, bool indexed)
{
	env->expand = expand_key;
	env->member = indexed ? member_of : NULL;
	env->arg = cx;
}

cJSON *
eval_parsed(struct ectx *cx, const char *s, size_t len, bool *kept)
{
	struct parsed_text	*p;
	size_t			 i;

	for (i = 0; i < cx->nparsed; i++)
		if (cx->parsed[i].s == s && cx->parsed[i].len == len) {
			*kept = true;
			return cx->parsed[i].doc;
		}
	*kept = cx->nparsed < EVAL_PARSED;
	if (!*kept)
		return json_parse_whole(s, len);
	p = &cx->parsed[cx->nparsed++];
	p->s = s;
	p->len = len;
	p->doc = json_parse_whole(s, len);
	return p->doc;
}

void
eval_limit(struct ectx *cx, const struct cond *c, const char *what,
    const char *why)
{
	buf_printf(&cx->out->notes, "reflexion-rules: %s:%d:%d: rule '%s': "
	    "%s on %s; counted as no match\n", cx->rule->file, c->line,
	    c->col, cx->rule->id, what, c->label);
	if (cx->rule->fail_closed && cx->out->undecided == NULL) {
		cx->out->undecided = cx->rule;
		cx->out->undecided_why = why;
	}
}
