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

#include "edits.h"
#include "eval_priv.h"
#include "fileio.h"
#include "jsonw.h"
#include "kb.h"
#include "shellglob.h"
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
