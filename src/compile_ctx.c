/*
 * The bottom of the compile stage: the context of compiling one file
 * (struct cctx, compile_priv.h) and the helpers every part of the compiler
 * uses on it.  Errors with their positions and "did you mean" hints, key
 * checks, string lists with $vars, and YAML values as JSON.  Nothing here
 * knows a rule, a condition or a matcher: the other compile_*.c files
 * build on this one, never the other way round.
 */
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compile_priv.h"
#include "jsonw.h"
#include "strset.h"

/*
 * Every diagnostic of the compiler goes through here, at loc.  The
 * functions below are its printf-style fronts, alike on purpose: they
 * differ in severity and location only, and a va_list can be passed on
 * but not made.
 */
static struct diag *
cx_vdiag(struct cctx *cx, enum diag_severity sev, const struct diag_loc *loc,
    enum diag_code code, const char *fmt, va_list ap)
{
	if (sev == DIAG_ERROR)
		cx->errors++;
	return diag_vadd_at(cx->diags, sev, code, loc, &cx->cursor, fmt, ap);
}

struct diag *
cx_error(struct cctx *cx, const struct ynode *n, enum diag_code code,
    const char *fmt, ...)
{
	struct diag_loc	 loc;
	struct diag	*d;
	va_list		 ap;

	ydoc_loc(cx->doc, n, &loc);
	va_start(ap, fmt);
	d = cx_vdiag(cx, DIAG_ERROR, &loc, code, fmt, ap);
	va_end(ap);
	return d;
}

/* Points inside a scalar: the column of byte `off` of its text. */
struct diag *
cx_error_at(struct cctx *cx, const struct ynode *n, size_t off,
    enum diag_code code, const char *fmt, ...)
{
	struct diag_loc	 loc;
	struct diag	*d;
	va_list		 ap;
	size_t		 i;
	int		 col = n->col, line = n->line;

	ydoc_loc(cx->doc, n, &loc);
	/*
	 * Only a scalar written on one line maps offsets to columns exactly
	 * (escapes in quoted scalars aside); otherwise point at the scalar.
	 */
	if (n->type == YNODE_SCALAR && n->end_line == n->line &&
	    (n->style == YSTYLE_PLAIN || n->style == YSTYLE_SINGLE ||
	    n->style == YSTYLE_DOUBLE) && off <= n->len) {
		if (n->style != YSTYLE_PLAIN)
			col++;
		for (i = 0; i < off; i++)
			if (((unsigned char)n->str[i] & 0xc0) != 0x80)
				col++;
		loc.line = line;
		loc.col = col;
		loc.end_line = line;
		loc.end_col = col;
	}
	va_start(ap, fmt);
	d = cx_vdiag(cx, DIAG_ERROR, &loc, code, fmt, ap);
	va_end(ap);
	return d;
}

/*
 * A warning: it does not leave the rule out (cx->errors is unchanged),
 * and only lint and the commands that list diagnostics show it.
 */
struct diag *
cx_warning(struct cctx *cx, const struct ynode *n, enum diag_code code,
    const char *fmt, ...)
{
	struct diag_loc	 loc;
	struct diag	*d;
	va_list		 ap;

	ydoc_loc(cx->doc, n, &loc);
	va_start(ap, fmt);
	d = cx_vdiag(cx, DIAG_WARNING, &loc, code, fmt, ap);
	va_end(ap);
	return d;
}

/*
 * A warning at the key `label` written at line:col (a compiled condition
 * keeps no node): the caret underlines the key, and its quotes if it has
 * them.
 */
struct diag *
cx_warning_key(struct cctx *cx, int line, int col, const char *label,
    enum diag_code code, const char *fmt, ...)
{
	struct diag_loc	 loc;
	struct diag	*d;
	va_list		 ap;
	const char	*s;
	size_t		 off;

	ydoc_loc(cx->doc, NULL, &loc);
	loc.line = loc.end_line = line;
	loc.col = col;
	loc.end_col = col + (int)utf8_count(label, strlen(label)) - 1;
	va_start(ap, fmt);
	d = diag_vadd_at(cx->diags, DIAG_WARNING, code, &loc, &cx->cursor,
	    fmt, ap);
	va_end(ap);
	if ((s = d->source_line) != NULL && col > 0) {
		off = utf8_prefix(s, strlen(s), (size_t)col - 1);
		if (s[off] == '\'' || s[off] == '"')
			d->end_col += 2;
	}
	return d;
}

static size_t
edit_distance(const char *a, const char *b)
{
	size_t	la = strlen(a), lb = strlen(b), i, j, prev, tmp, best;
	size_t	row[64];

	if (la >= 63 || lb >= 63)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			best = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

const char *
closest_word(const char *word, const char *const *list)
{
	const char	*best = NULL;
	size_t		 d, bestd = 99, limit;

	limit = strlen(word) <= 4 ? 1 : 2;
	for (; *list; list++) {
		d = edit_distance(word, *list);
		if (d < bestd) {
			bestd = d;
			best = *list;
		}
	}
	return bestd <= limit ? best : NULL;
}

void
cx_unknown_key(struct cctx *cx, const struct ynode *key, const char *where,
    const char *const *known)
{
	struct diag	*d;
	const char	*near = closest_word(key->str, known);

	d = cx_error(cx, key, DIAG_unknown_key, "unknown key '%s' in %s",
	    key->str, where);
	if (near != NULL)
		diag_set_hint(d, "did you mean '%s'?", near);
}

/* Checks every key of map against known; reports the others. */
void
compile_check_keys(struct cctx *cx, const struct ynode *map, const char *where,
    const char *const *known)
{
	size_t	i;

	for (i = 0; i < map->n; i++) {
		const struct ynode *k = map->items[2 * i];
		if (k->type != YNODE_SCALAR) {
			cx_error(cx, k, DIAG_wrong_type,
			    "a key in %s must be a string", where);
			continue;
		}
		if (!str_in_set(k->str, known))
			cx_unknown_key(cx, k, where, known);
	}
}

bool
is_string(const struct ynode *n)
{
	return n != NULL && n->type == YNODE_SCALAR && !ynode_is_null(n);
}

/* ---- string lists and $vars ------------------------------------------- */

/*
 * A "string or list of strings" value, with $name items expanded from
 * vars:.  Results are arena strings; positions are kept for diagnostics.
 */
void
strlist_push(struct cctx *cx, struct strlist *l, const struct ynode *n,
    const char *s, size_t len)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		struct strlist_item *items = arena_alloc(&cx->rs->arena,
		    cap * sizeof(*items));
		if (l->n)
			memcpy(items, l->items, l->n * sizeof(*items));
		l->items = items;
		l->cap = cap;
	}
	l->items[l->n].node = n;
	l->items[l->n].s = arena_strndup(&cx->rs->arena, s, len);
	l->items[l->n].len = len;
	l->n++;
}

/* A built-in variable (compile_places.c) into l: 1, or 0 if name is not. */
static int
builtin_var(struct cctx *cx, struct strlist *l, const struct ynode *n,
    const char *name)
{
	char	**globs;
	size_t	  i, ng;

	if (!place_var(cx->rs->places, name, &globs, &ng))
		return 0;
	for (i = 0; i < ng; i++) {
		strlist_push(cx, l, n, globs[i], strlen(globs[i]));
		free(globs[i]);
	}
	free(globs);
	return 1;
}

static void
strlist_add_scalar(struct cctx *cx, struct strlist *l, const struct ynode *n,
    bool expand_vars, const char *what)
{
	const struct ynode	*v;
	size_t			 i;

	if (!is_string(n)) {
		cx_error(cx, n, DIAG_wrong_type, "%s must be a string, not %s",
		    what, ynode_type_name(n));
		return;
	}
	if (expand_vars && n->style == YSTYLE_PLAIN && n->str[0] == '$' &&
	    n->len > 1) {
		v = ynode_get(cx->vars, n->str + 1);
		if (v == NULL && builtin_var(cx, l, n, n->str + 1))
			return;
		if (v == NULL) {
			struct diag *d = cx_error(cx, n, DIAG_unknown_var,
			    "unknown variable '%s'", n->str);
			if (cx->vars == NULL)
				diag_set_hint(d, "define it under 'vars:' at "
				    "the top of the file");
			return;
		}
		if (v->type == YNODE_SCALAR) {
			strlist_push(cx, l, n, v->str, v->len);
			return;
		}
		if (v->type == YNODE_SEQ) {
			for (i = 0; i < v->n; i++) {
				const struct ynode *it = v->items[i];

				if (!is_string(it))
					continue;
				/* A built-in inside a list of vars:. */
				if (it->style == YSTYLE_PLAIN &&
				    it->str[0] == '$' &&
				    builtin_var(cx, l, n, it->str + 1))
					continue;
				strlist_push(cx, l, n, it->str, it->len);
			}
			return;
		}
		cx_error(cx, n, DIAG_wrong_type,
		    "variable '%s' must be a string or a list", n->str);
		return;
	}
	strlist_push(cx, l, n, n->str, n->len);
}

int
strlist_from(struct cctx *cx, const struct ynode *n, struct strlist *l,
    bool expand_vars, const char *what)
{
	size_t	i, before = cx->errors;

	memset(l, 0, sizeof(*l));
	if (n->type == YNODE_SEQ) {
		for (i = 0; i < n->n; i++)
			strlist_add_scalar(cx, l, n->items[i], expand_vars,
			    what);
	} else if (n->type == YNODE_SCALAR && !ynode_is_null(n)) {
		strlist_add_scalar(cx, l, n, expand_vars, what);
	} else {
		cx_error(cx, n, DIAG_wrong_type,
		    "%s must be a string or a list of strings, not %s", what,
		    ynode_type_name(n));
	}
	return cx->errors == before ? 0 : -1;
}

/* ---- YAML values to JSON (rule tests) ----------------------------------- */

static cJSON *
scalar_to_json(const struct ynode *n)
{
	char	*end;
	double	 d;
	int	 b;

	if (n->style != YSTYLE_PLAIN || n->tag != NULL)
		return cJSON_CreateString(n->str);
	if (ynode_is_null(n))
		return cJSON_CreateNull();
	if ((b = ynode_bool(n)) >= 0)
		return cJSON_CreateBool(b);
	if (n->len > 0 && strchr("0123456789-+.", n->str[0]) != NULL) {
		d = strtod(n->str, &end);
		if (*end == '\0')
			return cJSON_CreateNumber(d);
	}
	return cJSON_CreateString(n->str);
}

cJSON *
ynode_to_json(const struct ynode *n, int depth)
{
	cJSON	*j, *item;
	size_t	 i;

	if (depth > 64)
		return cJSON_CreateNull();
	switch (n->type) {
	case YNODE_SCALAR:
		return scalar_to_json(n);
	case YNODE_SEQ:
		j = cJSON_CreateArray();
		for (i = 0; i < n->n; i++) {
			item = ynode_to_json(n->items[i], depth + 1);
			cJSON_AddItemToArray(j, item);
		}
		return j;
	case YNODE_MAP:
		j = cJSON_CreateObject();
		for (i = 0; i < n->n; i++) {
			const struct ynode *k = n->items[2 * i];
			if (k->type != YNODE_SCALAR)
				continue;
			item = ynode_to_json(n->items[2 * i + 1], depth + 1);
			cJSON_AddItemToObject(j, k->str, item);
		}
		return j;
	}
	return cJSON_CreateNull();
}
