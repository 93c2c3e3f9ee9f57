/*
 * config.yaml's trust: list edited as text (see confedit.h).  Positions
 * come from the YAML loader (lines, and columns in characters); the
 * edits are made on the bytes around them, and the result is parsed
 * again and checked before it is handed back.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "confedit.h"
#include "userconf.h"
#include "xmalloc.h"
#include "yamlload.h"

/* A part of the text to cut, [from, to). */
struct cut {
	size_t	from, to;
};

struct edit {
	const char	*text;
	size_t		 len;
	struct cut	*cuts;
	size_t		 ncuts;
};

/* The byte offset of line:col (1-based; col in characters), or SIZE_MAX. */
static size_t
offset_of(const char *text, size_t len, int line, int col)
{
	const char	*nl;
	size_t		 off = 0;
	int		 l, c;

	for (l = 1; l < line; l++) {
		if ((nl = memchr(text + off, '\n', len - off)) == NULL)
			return SIZE_MAX;
		off = (size_t)(nl - text) + 1;
	}
	for (c = 1; c < col; c++) {
		if (off >= len || text[off] == '\n')
			return SIZE_MAX;
		off++;
		while (off < len && ((unsigned char)text[off] & 0xc0) == 0x80)
			off++;
	}
	return off;
}

/* The offset just past line's newline, or len on a last line without. */
static size_t
after_line(const char *text, size_t len, int line)
{
	size_t		 off = offset_of(text, len, line, 1);
	const char	*nl;

	if (off == SIZE_MAX)
		return len;
	nl = memchr(text + off, '\n', len - off);
	return nl != NULL ? (size_t)(nl - text) + 1 : len;
}

/* A node's bytes, [*from, *to); -1 when its position is not in text. */
static int
span(const char *text, size_t len, const struct ynode *n, size_t *from,
    size_t *to)
{
	*from = offset_of(text, len, n->line, n->col);
	*to = offset_of(text, len, n->end_line, n->end_col);
	if (*from == SIZE_MAX || *to == SIZE_MAX || *to >= len ||
	    *to < *from)
		return -1;
	/* end_col is the node's last character: past it. */
	(*to)++;
	while (*to < len && ((unsigned char)text[*to] & 0xc0) == 0x80)
		(*to)++;
	return 0;
}

/* dir as a YAML scalar: plain when that is safe anywhere, else quoted. */
static void
add_scalar(struct buf *b, const char *s)
{
	const unsigned char	*p;

	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/._-+@", *p) != NULL))
			break;
	if (*p == '\0' && s[0] == '/') {
		buf_adds(b, s);
		return;
	}
	buf_addc(b, '"');
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			buf_printf(b, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			buf_printf(b, "\\x%02x", *p);
		else
			buf_addc(b, (char)*p);
	}
	buf_addc(b, '"');
}

/* The entries of trust: in doc, as nodes; -1 when it is not a list. */
static int
trust_items(const struct ynode *root, const struct ynode *const **items,
    size_t *n, const struct ynode **v)
{
	*items = NULL;
	*n = 0;
	*v = root != NULL ? ynode_get(root, "trust") : NULL;
	if (*v == NULL || ynode_is_null(*v))
		return 0;
	if ((*v)->type == YNODE_SEQ) {
		*items = (const struct ynode *const *)(*v)->items;
		*n = (*v)->n;
		return 0;
	}
	if ((*v)->type == YNODE_SCALAR) {
		*items = v;
		*n = 1;
		return 0;
	}
	return -1;
}

/* Whether an entry names dir (a real path), as written or resolved. */
static bool
names_dir(const struct ynode *e, const char *dir)
{
	char	*real;
	bool	 yes;

	if (e->type != YNODE_SCALAR)
		return false;
	if (strcmp(e->str, dir) == 0)
		return true;
	real = config_real_path(e->str);
	yes = strcmp(real, dir) == 0;
	free(real);
	return yes;
}

/* Whether text[from..to) holds only what a line may around one entry. */
static bool
only_dash(const char *text, size_t from, size_t to)
{
	for (; from < to; from++)
		if (text[from] != ' ' && text[from] != '-')
			return false;
	return true;
}

static void
add_cut(struct edit *e, size_t from, size_t to)
{
	e->cuts = xreallocarray(e->cuts, e->ncuts + 1, sizeof(*e->cuts));
	e->cuts[e->ncuts].from = from;
	e->cuts[e->ncuts].to = to;
	e->ncuts++;
}

static int
cut_cmp(const void *a, const void *b)
{
	const struct cut	*x = a, *y = b;

	return x->from < y->from ? -1 : x->from > y->from;
}

/* The text without its cuts (which may overlap), into out. */
static void
apply_cuts(struct edit *e, struct buf *out)
{
	size_t	i, at = 0;

	if (e->ncuts > 1)
		qsort(e->cuts, e->ncuts, sizeof(*e->cuts), cut_cmp);
	for (i = 0; i < e->ncuts; i++) {
		if (e->cuts[i].from > at)
			buf_add(out, e->text + at, e->cuts[i].from - at);
		if (e->cuts[i].to > at)
			at = e->cuts[i].to;
	}
	buf_add(out, e->text + at, e->len - at);
}

/* Cuts one entry of a flow list, with the comma that joins it. */
static int
cut_flow_item(struct edit *e, const struct ynode *it)
{
	size_t	from, to, p;

	if (span(e->text, e->len, it, &from, &to) < 0)
		return -1;
	for (p = to; p < e->len && (e->text[p] == ' ' || e->text[p] == '\t');
	    p++)
		;
	if (p < e->len && e->text[p] == ',') {
		for (p++; p < e->len && e->text[p] == ' '; p++)
			;
		to = p;
	} else {
		for (p = from; p > 0 && (e->text[p - 1] == ' ' ||
		    e->text[p - 1] == '\t'); p--)
			;
		if (p > 0 && e->text[p - 1] == ',')
			from = p - 1;
	}
	add_cut(e, from, to);
	return 0;
}

/* Cuts the lines of one entry of a block list: they hold it alone. */
static int
cut_block_item(struct edit *e, const struct ynode *it)
{
	size_t	line, from, to, p;

	line = offset_of(e->text, e->len, it->line, 1);
	if (line == SIZE_MAX || span(e->text, e->len, it, &from, &to) < 0 ||
	    !only_dash(e->text, line, from))
		return -1;
	for (p = to; p < e->len && e->text[p] == ' '; p++)
		;
	if (p < e->len && e->text[p] != '\n' && e->text[p] != '#')
		return -1;
	add_cut(e, line, after_line(e->text, e->len, it->end_line));
	return 0;
}

static bool
is_flow(const char *text, size_t len, const struct ynode *v)
{
	size_t	off = offset_of(text, len, v->line, v->col);

	return off != SIZE_MAX && off < len && text[off] == '[';
}

static int
remove_dir(const char *text, size_t len, const struct ynode *v,
    const struct ynode *const *items, size_t n, const char *dir,
    struct buf *out)
{
	struct edit	e;
	size_t		i, from, to;
	bool		flow;
	int		rc = 0;

	memset(&e, 0, sizeof(e));
	e.text = text;
	e.len = len;
	if (v->type == YNODE_SCALAR) {
		if (!names_dir(v, dir))
			return 0;
		if (span(text, len, v, &from, &to) < 0)
			return -1;
		buf_add(out, text, from);
		buf_adds(out, "[]");
		buf_add(out, text + to, len - to);
		return 1;
	}
	flow = is_flow(text, len, v);
	for (i = 0; i < n && rc >= 0; i++) {
		if (!names_dir(items[i], dir))
			continue;
		rc = flow ? cut_flow_item(&e, items[i]) :
		    cut_block_item(&e, items[i]);
	}
	if (rc == 0 && e.ncuts > 0)
		apply_cuts(&e, out);
	free(e.cuts);
	return rc < 0 ? -1 : e.ncuts > 0;
}

/* "trust:" and dir, at the end of the file. */
static void
append_key(const char *text, size_t len, const char *dir, struct buf *out)
{
	buf_add(out, text, len);
	if (len > 0 && text[len - 1] != '\n')
		buf_addc(out, '\n');
	buf_adds(out, "trust:\n  - ");
	add_scalar(out, dir);
	buf_addc(out, '\n');
}

static int
add_dir(const char *text, size_t len, const struct ynode *key,
    const struct ynode *v, const char *dir, struct buf *out)
{
	const struct ynode	*last;
	size_t			 from, to, at, line;
	int			 i;

	if (v->type == YNODE_SCALAR && ynode_is_null(v) && v->len == 0) {
		/* "trust:" and nothing: the entry on the next line. */
		at = after_line(text, len, key->line);
		buf_add(out, text, at);
		if (at > 0 && text[at - 1] != '\n')
			buf_addc(out, '\n');
		for (i = 1; i < key->col + 2; i++)
			buf_addc(out, ' ');
		buf_adds(out, "- ");
		add_scalar(out, dir);
		buf_addc(out, '\n');
		buf_add(out, text + at, len - at);
		return 1;
	}
	if (v->type == YNODE_SCALAR) {
		/* One entry, or an explicit null: a flow list of them. */
		if (span(text, len, v, &from, &to) < 0)
			return -1;
		buf_add(out, text, from);
		buf_addc(out, '[');
		if (!ynode_is_null(v)) {
			buf_add(out, text + from, to - from);
			buf_adds(out, ", ");
		}
		add_scalar(out, dir);
		buf_addc(out, ']');
		buf_add(out, text + to, len - to);
		return 1;
	}
	if (is_flow(text, len, v)) {
		at = offset_of(text, len, v->end_line, v->end_col);
		if (at == SIZE_MAX || at >= len || text[at] != ']')
			return -1;
		buf_add(out, text, at);
		if (v->n > 0)
			buf_adds(out, ", ");
		add_scalar(out, dir);
		buf_add(out, text + at, len - at);
		return 1;
	}
	/* A block list: a line like the last entry's, after it. */
	last = v->items[v->n - 1];
	line = offset_of(text, len, last->line, 1);
	from = offset_of(text, len, last->line, last->col);
	if (line == SIZE_MAX || from == SIZE_MAX ||
	    !only_dash(text, line, from))
		return -1;
	at = after_line(text, len, last->end_line);
	buf_add(out, text, at);
	if (at > 0 && text[at - 1] != '\n')
		buf_addc(out, '\n');
	buf_add(out, text + line, from - line);
	add_scalar(out, dir);
	buf_addc(out, '\n');
	buf_add(out, text + at, len - at);
	return 1;
}

/*
 * Whether out's trust: list is the old one with dir added, or with the
 * entries that name it removed: the edit did what it meant, and nothing
 * else of the list.
 */
static bool
edit_holds(const struct ynode *const *old, size_t nold, const char *dir,
    bool remove, const struct buf *out)
{
	const struct ynode	*const *items, *v;
	struct diag_list	 dl;
	struct ydoc		 doc;
	size_t			 n, i, j = 0;
	bool			 ok;

	diag_list_init(&dl);
	ok = ydoc_load(&doc, "config.yaml", out->data, out->len, &dl) == 0 &&
	    doc.root != NULL && doc.root->type == YNODE_MAP &&
	    trust_items(doc.root, &items, &n, &v) == 0;
	for (i = 0; ok && i < nold; i++) {
		if (remove && names_dir(old[i], dir))
			continue;
		ok = j < n && items[j]->type == YNODE_SCALAR &&
		    strcmp(items[j]->str, old[i]->str) == 0;
		j++;
	}
	if (ok && !remove) {
		ok = j < n && items[j]->type == YNODE_SCALAR &&
		    strcmp(items[j]->str, dir) == 0;
		j++;
	}
	ok = ok && j == n;
	ydoc_release(&doc);
	diag_list_release(&dl);
	return ok;
}

int
confedit_trust(const char *text, size_t len, const char *dir, bool remove,
    struct buf *out, char **err)
{
	const struct ynode	*const *items, *v;
	struct diag_list	 dl;
	struct ydoc		 doc;
	size_t			 n, i;
	int			 rc;

	*err = NULL;
	diag_list_init(&dl);
	if (ydoc_load(&doc, "config.yaml", text, len, &dl) < 0 ||
	    (doc.root != NULL && doc.root->type != YNODE_MAP)) {
		*err = xstrdup("config.yaml is not a YAML mapping ('reflexion-"
		    "rules lint' names the problem)");
		rc = -1;
		goto out;
	}
	if (trust_items(doc.root, &items, &n, &v) < 0) {
		*err = xstrdup("its 'trust' is not a list of directories");
		rc = -1;
		goto out;
	}
	for (i = 0; i < n && !names_dir(items[i], dir); i++)
		;
	buf_reset(out);
	if (remove)
		rc = v == NULL || ynode_is_null(v) ? 0 :
		    remove_dir(text, len, v, items, n, dir, out);
	else if (i < n)
		rc = 0;
	else if (v == NULL) {
		append_key(text, len, dir, out);
		rc = 1;
	} else
		rc = add_dir(text, len, ynode_get_key(doc.root, "trust"), v,
		    dir, out);
	if (rc == 1 && !edit_holds(items, n, dir, remove, out))
		rc = -1;
	if (rc < 0 && *err == NULL)
		*err = xstrdup("its 'trust' list is written in a way this "
		    "command does not edit; edit it by hand");
out:
	ydoc_release(&doc);
	diag_list_release(&dl);
	return rc;
}
