/*
 * Codex's apply_patch text read as files (applypatch.h).  The parser
 * walks the lines once, as codex-rs/apply-patch/src/parser.rs does in
 * its lenient mode, and joins each file's lines into arena strings as it
 * goes; patch_file_after() applies an Update File's chunks to a file
 * with one forward search per chunk.
 */
#include <stdlib.h>
#include <string.h>

#include "applypatch.h"
#include "edits.h"
#include "xmalloc.h"

#define BEGIN_MARKER	"*** Begin Patch"
#define END_MARKER	"*** End Patch"
#define ADD_MARKER	"*** Add File: "
#define DELETE_MARKER	"*** Delete File: "
#define UPDATE_MARKER	"*** Update File: "
#define MOVE_MARKER	"*** Move to: "
#define EOF_MARKER	"*** End of File"

/* One line of the patch: s[0..len), without its LF or a CR before it. */
struct line {
	const char	*s;
	size_t		 len;
};

struct lines {
	struct line	*v;
	size_t		 n;
};

static bool
space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    c == '\v' || c == '\f';
}

/* l without the white space around it. */
static struct line
trimmed(struct line l)
{
	while (l.len > 0 && space(l.s[0])) {
		l.s++;
		l.len--;
	}
	while (l.len > 0 && space(l.s[l.len - 1]))
		l.len--;
	return l;
}

static bool
is(struct line l, const char *word)
{
	return l.len == strlen(word) && memcmp(l.s, word, l.len) == 0;
}

/* Whether l starts with prefix; *rest is what follows. */
static bool
starts(struct line l, const char *prefix, struct line *rest)
{
	size_t	n = strlen(prefix);

	if (l.len < n || memcmp(l.s, prefix, n) != 0)
		return false;
	rest->s = l.s + n;
	rest->len = l.len - n;
	return true;
}

/* The text trimmed, split as Rust's str::lines() splits it. */
static void
split_lines(const char *text, size_t len, struct lines *out)
{
	struct line	 all = { text, len };
	const char	*p, *end, *nl;
	size_t		 cap = 0;

	all = trimmed(all);
	out->v = NULL;
	out->n = 0;
	for (p = all.s, end = all.s + all.len; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if (out->n == cap) {
			cap = cap ? cap * 2 : 64;
			out->v = xreallocarray(out->v, cap, sizeof(*out->v));
		}
		out->v[out->n].s = p;
		out->v[out->n].len = (size_t)(nl - p);
		if (out->v[out->n].len > 0 && nl[-1] == '\r')
			out->v[out->n].len--;
		out->n++;
	}
}

static struct patch_text
arena_text(struct arena *a, const struct buf *b)
{
	struct patch_text	t;

	t.s = arena_strndup(a, b->data, b->len);
	t.len = b->len;
	return t;
}

static struct patch_text
arena_line(struct arena *a, struct line l)
{
	struct patch_text	t;

	t.s = arena_strndup(a, l.s, l.len);
	t.len = l.len;
	return t;
}

static void
add_line(struct buf *b, const char *s, size_t len)
{
	buf_add(b, s, len);
	buf_addc(b, '\n');
}

/* The growing lists of a parse. */
struct parse {
	struct patch	*p;
	size_t		 fcap;
	struct patch_chunk *chunks;	/* of the file being read */
	size_t		 nchunks, ccap;
	char		*err;
};

static struct patch_file *
new_file(struct parse *ps, enum patch_op op, struct line path)
{
	struct patch_file	*f;

	if (ps->p->n == ps->fcap) {
		ps->fcap = ps->fcap ? ps->fcap * 2 : 8;
		ps->p->files = xreallocarray(ps->p->files, ps->fcap,
		    sizeof(*ps->p->files));
	}
	f = &ps->p->files[ps->p->n++];
	memset(f, 0, sizeof(*f));
	f->op = op;
	f->path = arena_line(&ps->p->arena, path);
	f->added.s = f->removed.s = "";
	return f;
}

/*
 * One chunk of an Update File from l[*i]; first says whether it may do
 * without its "@@" line.  Returns 0, or -1 with ps->err.
 */
static int
read_chunk(struct parse *ps, const struct lines *l, size_t *i, bool first,
    struct buf *added, struct buf *removed)
{
	struct patch_chunk	 c;
	struct buf		 o, n;
	struct line		 x, rest;
	size_t			 k = *i, parsed = 0, at = *i + 1;

	memset(&c, 0, sizeof(c));
	x = l->v[k];
	if (is(x, "@@"))
		k++;
	else if (starts(x, "@@ ", &rest)) {
		c.context = arena_line(&ps->p->arena, rest);
		k++;
	} else if (!first) {
		ps->err = xasprintf("line %zu: an update chunk must start "
		    "with '@@'", at);
		return -1;
	}
	if (k >= l->n - 1) {
		ps->err = xasprintf("line %zu: an update chunk has no lines",
		    at);
		return -1;
	}
	buf_init(&o);
	buf_init(&n);
	for (; k < l->n - 1; k++, parsed++) {
		x = l->v[k];
		if (is(x, EOF_MARKER)) {
			if (parsed == 0)
				break;
			c.eof = true;
			k++;
			break;
		}
		if (x.len == 0) {
			add_line(&o, "", 0);
			add_line(&n, "", 0);
		} else if (x.s[0] == ' ') {
			add_line(&o, x.s + 1, x.len - 1);
			add_line(&n, x.s + 1, x.len - 1);
		} else if (x.s[0] == '+') {
			add_line(&n, x.s + 1, x.len - 1);
			add_line(added, x.s + 1, x.len - 1);
		} else if (x.s[0] == '-') {
			add_line(&o, x.s + 1, x.len - 1);
			add_line(removed, x.s + 1, x.len - 1);
		} else
			break;	/* the next chunk or hunk */
	}
	if (parsed == 0) {
		buf_release(&o);
		buf_release(&n);
		ps->err = xasprintf("line %zu: an update chunk has no lines "
		    "starting with ' ', '+' or '-'", k + 1);
		return -1;
	}
	c.old_lines = arena_text(&ps->p->arena, &o);
	c.new_lines = arena_text(&ps->p->arena, &n);
	buf_release(&o);
	buf_release(&n);
	if (ps->nchunks == ps->ccap) {
		ps->ccap = ps->ccap ? ps->ccap * 2 : 8;
		ps->chunks = xreallocarray(ps->chunks, ps->ccap,
		    sizeof(*ps->chunks));
	}
	ps->chunks[ps->nchunks++] = c;
	*i = k;
	return 0;
}

/* An Update File hunk from l[*i] (its header line). */
static int
read_update(struct parse *ps, const struct lines *l, size_t *i,
    struct line path)
{
	struct patch_file	*f;
	struct buf		 added, removed;
	struct line		 rest;
	size_t			 k = *i + 1, header = *i + 1;
	int			 rc = 0;

	f = new_file(ps, PATCH_UPDATE, path);
	if (k < l->n - 1 && starts(l->v[k], MOVE_MARKER, &rest)) {
		f->move_to = arena_line(&ps->p->arena, rest);
		k++;
	}
	buf_init(&added);
	buf_init(&removed);
	ps->nchunks = 0;
	while (k < l->n - 1) {
		if (trimmed(l->v[k]).len == 0) {
			k++;
			continue;
		}
		if (l->v[k].s[0] == '*')
			break;
		if ((rc = read_chunk(ps, l, &k, ps->nchunks == 0, &added,
		    &removed)) < 0)
			break;
	}
	if (rc == 0 && ps->nchunks == 0) {
		ps->err = xasprintf("line %zu: the update of '%s' has no "
		    "chunks", header, f->path.s);
		rc = -1;
	}
	if (rc == 0) {
		f->added = arena_text(&ps->p->arena, &added);
		f->removed = arena_text(&ps->p->arena, &removed);
		f->chunks = arena_alloc(&ps->p->arena,
		    ps->nchunks * sizeof(*f->chunks));
		memcpy(f->chunks, ps->chunks, ps->nchunks * sizeof(*f->chunks));
		f->nchunks = ps->nchunks;
	}
	buf_release(&added);
	buf_release(&removed);
	*i = k;
	return rc;
}

/* The hunks of l[1..n-1). */
static int
read_hunks(struct parse *ps, const struct lines *l)
{
	struct patch_file	*f;
	struct buf		 content;
	struct line		 head, path;
	size_t			 i = 1;

	while (i < l->n - 1) {
		head = trimmed(l->v[i]);
		if (starts(head, ADD_MARKER, &path)) {
			f = new_file(ps, PATCH_ADD, path);
			buf_init(&content);
			for (i++; i < l->n - 1 && l->v[i].len > 0 &&
			    l->v[i].s[0] == '+'; i++)
				add_line(&content, l->v[i].s + 1,
				    l->v[i].len - 1);
			f->added = arena_text(&ps->p->arena, &content);
			buf_release(&content);
		} else if (starts(head, DELETE_MARKER, &path)) {
			new_file(ps, PATCH_DELETE, path);
			i++;
		} else if (starts(head, UPDATE_MARKER, &path)) {
			if (read_update(ps, l, &i, path) < 0)
				return -1;
		} else {
			ps->err = xasprintf("line %zu: '%.*s' is not '*** Add "
			    "File: ', '*** Delete File: ' or '*** Update "
			    "File: '", i + 1, (int)(head.len > 80 ? 80 :
			    head.len), head.s);
			return -1;
		}
	}
	return 0;
}

/* Whether l is a patch between its markers, as a whole. */
static bool
bounded(const struct lines *l, size_t from, size_t to)
{
	return to - from >= 2 && is(trimmed(l->v[from]), BEGIN_MARKER) &&
	    is(trimmed(l->v[to - 1]), END_MARKER);
}

int
patch_parse(struct patch *p, const char *text, size_t len, char **err)
{
	struct parse	ps;
	struct lines	l, inner;
	size_t		last;
	int		rc = -1;

	memset(p, 0, sizeof(*p));
	arena_init(&p->arena);
	*err = NULL;
	if (len > PATCH_TEXT_MAX) {
		*err = xasprintf("the patch is larger than %zu bytes",
		    PATCH_TEXT_MAX);
		return -1;
	}
	memset(&ps, 0, sizeof(ps));
	ps.p = p;
	split_lines(text, len, &l);
	inner = l;
	if (!bounded(&l, 0, l.n)) {
		/* gpt-4.1 wraps the patch in a heredoc: Codex allows it. */
		last = l.n - 1;
		if (l.n >= 4 && (is(l.v[0], "<<EOF") ||
		    is(l.v[0], "<<'EOF'") || is(l.v[0], "<<\"EOF\"")) &&
		    l.v[last].len >= 3 &&
		    memcmp(l.v[last].s + l.v[last].len - 3, "EOF", 3) == 0 &&
		    bounded(&l, 1, last)) {
			inner.v = l.v + 1;
			inner.n = l.n - 2;
		} else {
			*err = xstrdup(l.n == 0 || !is(trimmed(l.v[0]),
			    BEGIN_MARKER) ? "the first line of the patch is "
			    "not '*** Begin Patch'" : "the last line of the "
			    "patch is not '*** End Patch'");
			goto out;
		}
	}
	if (read_hunks(&ps, &inner) < 0) {
		*err = ps.err;
		goto out;
	}
	rc = 0;
out:
	free(ps.chunks);
	free(l.v);
	return rc;
}

void
patch_release(struct patch *p)
{
	free(p->files);
	arena_release(&p->arena);
	memset(p, 0, sizeof(*p));
}

/*
 * Where the lines want[0..wlen) (each ending in '\n') start in t[0..len),
 * at a line start at or after pos (itself a line start); -1 if nowhere.
 * nl_want is the same text after a '\n'.  One scan from pos.
 */
static long
find_lines(const char *t, size_t len, size_t pos, const char *nl_want,
    size_t wlen)
{
	const char	*q;

	if (pos > len || wlen > len - pos)
		return -1;
	if (memcmp(t + pos, nl_want + 1, wlen) == 0)
		return (long)pos;
	if (pos == 0)
		q = memmem(t, len, nl_want, wlen + 1);
	else
		q = memmem(t + pos - 1, len - pos + 1, nl_want, wlen + 1);
	return q != NULL ? (long)(q - t) + 1 : -1;
}

/* "\n" and s[0..len), owned by the caller. */
static char *
after_newline(const char *s, size_t len)
{
	char	*d = xmalloc(len + 2);

	d[0] = '\n';
	memcpy(d + 1, s, len);
	d[len + 1] = '\0';
	return d;
}

/*
 * Where chunk c's old lines are in t, at or after pos: -1 if nowhere.
 * Codex forgives a last empty line that is not there, so *olen may be
 * one less than the chunk's.
 */
static long
find_old(const char *t, size_t len, size_t pos, const struct patch_chunk *c,
    size_t *olen)
{
	char	*nl;
	long	 at = -1;
	size_t	 n = c->old_lines.len, start;
	int	 try;

	for (try = 0; try < 2 && at < 0; try++) {
		if (try == 1) {
			/* Without a last empty line ("\n\n" at the end). */
			if (n < 2 || c->old_lines.s[n - 2] != '\n')
				break;
			n--;
		}
		if (c->eof) {
			/* Only at the very end, as Codex seeks it. */
			start = len >= n ? len - n : 0;
			if (len >= n && start >= pos && (start == 0 ||
			    t[start - 1] == '\n') &&
			    memcmp(t + start, c->old_lines.s, n) == 0)
				at = (long)start;
			continue;
		}
		nl = after_newline(c->old_lines.s, n);
		at = find_lines(t, len, pos, nl, n);
		free(nl);
	}
	*olen = n;
	return at;
}

int
patch_file_after(const struct patch_file *f, const char *disk,
    size_t disk_len, struct buf *out)
{
	struct buf	 t, tail;
	char		*nl;
	size_t		 pos = 0, copied = 0, i, olen;
	long		 at;
	int		 rc = EDIT_UNKNOWN;

	buf_reset(out);
	/* A moved file's text comes from its old name, not this one. */
	if (f->op != PATCH_UPDATE || f->move_to.s != NULL || disk == NULL)
		return EDIT_UNKNOWN;
	/* Codex works on lines, and writes every one with its '\n'. */
	buf_init(&t);
	buf_add(&t, disk, disk_len);
	if (t.len > 0 && t.data[t.len - 1] != '\n')
		buf_addc(&t, '\n');
	buf_init(&tail);
	for (i = 0; i < f->nchunks; i++) {
		const struct patch_chunk *c = &f->chunks[i];

		if (c->context.s != NULL) {
			nl = after_newline(c->context.s, c->context.len + 1);
			nl[c->context.len + 1] = '\n';
			at = find_lines(t.data, t.len, pos, nl,
			    c->context.len + 1);
			free(nl);
			if (at < 0)
				goto out;
			pos = (size_t)at + c->context.len + 1;
		}
		if (c->old_lines.len == 0) {
			/* Only new lines: they go at the end of the file. */
			buf_add(&tail, c->new_lines.s, c->new_lines.len);
			continue;
		}
		if ((at = find_old(t.data, t.len, pos, c, &olen)) < 0)
			goto out;
		buf_add(out, t.data + copied, (size_t)at - copied);
		buf_add(out, c->new_lines.s, c->new_lines.len);
		copied = pos = (size_t)at + olen;
	}
	buf_add(out, t.data + copied, t.len - copied);
	buf_add(out, tail.data, tail.len);
	rc = EDIT_OK;
out:
	if (rc != EDIT_OK)
		buf_reset(out);
	buf_release(&t);
	buf_release(&tail);
	return rc;
}
