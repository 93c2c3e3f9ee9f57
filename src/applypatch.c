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

/*
 * The lines between the patch's first and last, read one at a time:
 * nothing is kept per line, so a text of empty lines costs no more
 * memory than any other.  Lines are split as Rust's str::lines() splits
 * them (LF, and a CR before it dropped).
 */
struct cursor {
	const char	*p;	/* the next line */
	const char	*next;	/* the one after it, once peeked */
	const char	*end;	/* where the last line starts */
	size_t		 line;	/* the next line's number */
};

/* The next line, not consumed; false when there is none. */
static bool
peek(struct cursor *c, struct line *l)
{
	const char	*nl;

	if (c->p >= c->end)
		return false;
	if ((nl = memchr(c->p, '\n', (size_t)(c->end - c->p))) == NULL)
		nl = c->end;
	l->s = c->p;
	l->len = (size_t)(nl - c->p);
	if (l->len > 0 && nl[-1] == '\r')
		l->len--;
	c->next = nl < c->end ? nl + 1 : c->end;
	return true;
}

/* Consumes the line peek() gave. */
static void
advance(struct cursor *c)
{
	c->p = c->next;
	c->line++;
}

/* The line that starts at p, within [p, end). */
static struct line
line_at(const char *p, const char *end)
{
	struct line	 l = { p, 0 };
	const char	*nl = memchr(p, '\n', (size_t)(end - p));

	l.len = (size_t)((nl != NULL ? nl : end) - p);
	if (l.len > 0 && p[l.len - 1] == '\r')
		l.len--;
	return l;
}

/* Where the line before the one at p starts (p > start, after a '\n'). */
static const char *
line_before(const char *start, const char *p)
{
	const char	*q = p - 1;	/* its '\n' */

	while (q > start && q[-1] != '\n')
		q--;
	return q;
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

/* The growing lists of a parse, and its scratch buffers. */
struct parse {
	struct patch	*p;
	size_t		 fcap;
	struct patch_chunk *chunks;	/* of the file being read */
	size_t		 nchunks, ccap;
	struct buf	 old, new;	/* a chunk's lines, reused */
	struct buf	 added, removed;	/* a file's, reused */
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
 * One chunk of an Update File at c; first says whether it may do without
 * its "@@" line.  Returns 0, or -1 with ps->err.
 */
static int
read_chunk(struct parse *ps, struct cursor *c, bool first,
    struct buf *added, struct buf *removed)
{
	struct patch_chunk	 ch;
	struct buf		*o = &ps->old, *n = &ps->new;
	struct line		 x, rest;
	size_t			 parsed = 0, at = c->line;

	memset(&ch, 0, sizeof(ch));
	peek(c, &x);
	if (is(x, "@@"))
		advance(c);
	else if (starts(x, "@@ ", &rest)) {
		ch.context = arena_line(&ps->p->arena, rest);
		advance(c);
	} else if (!first) {
		ps->err = xasprintf("line %zu: an update chunk must start "
		    "with '@@'", at);
		return -1;
	}
	if (!peek(c, &x)) {
		ps->err = xasprintf("line %zu: an update chunk has no lines",
		    at);
		return -1;
	}
	buf_reset(o);
	buf_reset(n);
	for (; peek(c, &x); advance(c), parsed++) {
		if (is(x, EOF_MARKER)) {
			if (parsed == 0)
				break;
			ch.eof = true;
			advance(c);
			break;
		}
		if (x.len == 0) {
			add_line(o, "", 0);
			add_line(n, "", 0);
		} else if (x.s[0] == ' ') {
			add_line(o, x.s + 1, x.len - 1);
			add_line(n, x.s + 1, x.len - 1);
		} else if (x.s[0] == '+') {
			add_line(n, x.s + 1, x.len - 1);
			add_line(added, x.s + 1, x.len - 1);
		} else if (x.s[0] == '-') {
			add_line(o, x.s + 1, x.len - 1);
			add_line(removed, x.s + 1, x.len - 1);
		} else
			break;	/* the next chunk or hunk */
	}
	if (parsed == 0) {
		ps->err = xasprintf("line %zu: an update chunk has no lines "
		    "starting with ' ', '+' or '-'", c->line);
		return -1;
	}
	ch.old_lines = arena_text(&ps->p->arena, o);
	ch.new_lines = arena_text(&ps->p->arena, n);
	if (ps->nchunks == ps->ccap) {
		ps->ccap = ps->ccap ? ps->ccap * 2 : 8;
		ps->chunks = xreallocarray(ps->chunks, ps->ccap,
		    sizeof(*ps->chunks));
	}
	ps->chunks[ps->nchunks++] = ch;
	return 0;
}

/* An Update File hunk, its header consumed (on line header). */
static int
read_update(struct parse *ps, struct cursor *c, struct line path,
    size_t header)
{
	struct patch_file	*f;
	struct buf		*added = &ps->added, *removed = &ps->removed;
	struct line		 x, rest;
	int			 rc = 0;

	f = new_file(ps, PATCH_UPDATE, path);
	if (peek(c, &x) && starts(x, MOVE_MARKER, &rest)) {
		f->move_to = arena_line(&ps->p->arena, rest);
		advance(c);
	}
	buf_reset(added);
	buf_reset(removed);
	ps->nchunks = 0;
	while (peek(c, &x)) {
		if (trimmed(x).len == 0) {
			advance(c);
			continue;
		}
		if (x.s[0] == '*')
			break;
		if ((rc = read_chunk(ps, c, ps->nchunks == 0, added,
		    removed)) < 0)
			break;
	}
	if (rc == 0 && ps->nchunks == 0) {
		ps->err = xasprintf("line %zu: the update of '%s' has no "
		    "chunks", header, f->path.s);
		rc = -1;
	}
	if (rc == 0) {
		f->added = arena_text(&ps->p->arena, added);
		f->removed = arena_text(&ps->p->arena, removed);
		/* The file takes the list over (patch_release() frees it). */
		f->chunks = ps->chunks;
		f->nchunks = ps->nchunks;
		ps->chunks = NULL;
		ps->ccap = 0;
	}
	return rc;
}

/* The hunks, up to the last line. */
static int
read_hunks(struct parse *ps, struct cursor *c)
{
	struct patch_file	*f;
	struct buf		*content = &ps->added;
	struct line		 x, head, path;
	size_t			 at;

	while (peek(c, &x)) {
		head = trimmed(x);
		at = c->line;
		advance(c);
		if (starts(head, ADD_MARKER, &path)) {
			f = new_file(ps, PATCH_ADD, path);
			buf_reset(content);
			for (; peek(c, &x) && x.len > 0 && x.s[0] == '+';
			    advance(c))
				add_line(content, x.s + 1, x.len - 1);
			f->added = arena_text(&ps->p->arena, content);
		} else if (starts(head, DELETE_MARKER, &path))
			new_file(ps, PATCH_DELETE, path);
		else if (starts(head, UPDATE_MARKER, &path)) {
			if (read_update(ps, c, path, at) < 0)
				return -1;
		} else {
			ps->err = xasprintf("line %zu: '%.*s' is not '*** Add "
			    "File: ', '*** Delete File: ' or '*** Update "
			    "File: '", at, (int)(head.len > 80 ? 80 :
			    head.len), head.s);
			return -1;
		}
	}
	return 0;
}

/*
 * Whether the lines from the one at first to the one at last (its
 * start; last > first) are a patch between its markers; *c then reads
 * the lines between them, the first of which is line number lineno.
 */
static bool
bounded(const char *first, const char *last, const char *end,
    size_t lineno, struct cursor *c)
{
	if (last <= first ||
	    !is(trimmed(line_at(first, end)), BEGIN_MARKER) ||
	    !is(trimmed(line_at(last, end)), END_MARKER))
		return false;
	c->p = (const char *)memchr(first, '\n', (size_t)(end - first)) + 1;
	c->end = last;
	c->next = c->p;
	c->line = lineno;
	return true;
}

int
patch_parse(struct patch *p, const char *text, size_t len, char **err)
{
	struct parse	 ps;
	struct cursor	 c;
	struct line	 all = { text, len }, first;
	const char	*end, *last, *last2;
	int		 rc = -1;

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
	buf_init(&ps.old);
	buf_init(&ps.new);
	buf_init(&ps.added);
	buf_init(&ps.removed);
	all = trimmed(all);
	end = all.s + all.len;
	/* The last line starts after the last '\n'. */
	if ((last = memrchr(all.s, '\n', all.len)) != NULL)
		last++;
	else
		last = all.s;
	if (!bounded(all.s, last, end, 2, &c)) {
		/* gpt-4.1 wraps the patch in a heredoc: Codex allows it. */
		first = line_at(all.s, end);
		last2 = last > all.s ? line_before(all.s, last) : all.s;
		if (!((is(first, "<<EOF") || is(first, "<<'EOF'") ||
		    is(first, "<<\"EOF\"")) && last2 > all.s &&
		    line_at(last, end).len >= 3 &&
		    memcmp(line_at(last, end).s + line_at(last, end).len - 3,
		    "EOF", 3) == 0 &&
		    bounded(all.s + first.len + 1 + (first.s[first.len] ==
		    '\r'), last2, end, 3, &c))) {
			*err = xstrdup(!is(trimmed(line_at(all.s, end)),
			    BEGIN_MARKER) ? "the first line of the patch is "
			    "not '*** Begin Patch'" : "the last line of the "
			    "patch is not '*** End Patch'");
			goto out;
		}
	}
	if (read_hunks(&ps, &c) < 0) {
		*err = ps.err;
		goto out;
	}
	rc = 0;
out:
	buf_release(&ps.old);
	buf_release(&ps.new);
	buf_release(&ps.added);
	buf_release(&ps.removed);
	free(ps.chunks);
	return rc;
}

void
patch_release(struct patch *p)
{
	size_t	i;

	for (i = 0; i < p->n; i++)
		free(p->files[i].chunks);
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
