/*
 * The blocks of a document and the ids a pattern lists (see blocks.h).
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "buf.h"
#include "jsoncheck.h"
#include "match_re.h"
#include "xmalloc.h"

void
block_list_init(struct block_list *l)
{
	memset(l, 0, sizeof(*l));
}

void
block_list_release(struct block_list *l)
{
	free(l->v);
	cJSON_Delete(l->doc);
	memset(l, 0, sizeof(*l));
}

static struct block *
push(struct block_list *l)
{
	struct block	*b;

	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->v = xreallocarray(l->v, l->cap, sizeof(*l->v));
	}
	b = &l->v[l->n];
	memset(b, 0, sizeof(*b));
	b->index = l->n++;
	return b;
}

/* An id: blanks around it dropped, cut to BLOCK_ID_MAX bytes. */
static const char *
make_id(struct arena *a, const char *s, size_t len)
{
	while (len > 0 && (*s == ' ' || *s == '\t'))
		s++, len--;
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t' ||
	    s[len - 1] == '\r'))
		len--;
	if (len > BLOCK_ID_MAX) {
		len = BLOCK_ID_MAX;
		/* Not in the middle of a UTF-8 sequence. */
		while (len > 0 && ((unsigned char)s[len] & 0xc0) == 0x80)
			len--;
	}
	return arena_strndup(a, s, len);
}

/* Whether a text is blank (spaces, tabs, line ends). */
static bool
blank(const char *s, size_t len)
{
	size_t	i;

	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' &&
		    s[i] != '\n')
			return false;
	return true;
}

/* One pattern against one line; the line without its CR. */
static enum rr_match_result
line_match(const struct rr_regex *re, const char *l, size_t ll,
    size_t *gs, size_t *ge)
{
	size_t	s, e;

	if (re == NULL)
		return RR_MATCH_NO;
	if (ll > 0 && l[ll - 1] == '\r')
		ll--;
	return rr_regex_match_group(re, l, ll, 0, &s, &e, gs, ge);
}

/* The state of a cut: the open block, where it started. */
struct cut {
	const struct block_cut	*how;
	const char		*text;
	struct arena		*a;
	struct block_list	*out;
	bool			 open;
	size_t			 from, line;	/* of the open block */
	const char		*id;		/* from its start line */
	size_t			 ordinal;	/* separator blocks kept */
};

/* Closes the open block at offset `to` (its end, exclusive). */
static enum blocks_result
close_block(struct cut *c, size_t to)
{
	const char	*t = c->text + c->from, *l, *eol, *stop;
	struct block	*b;
	size_t		 len = to - c->from, gs, ge;
	char		 num[32];
	enum rr_match_result r;

	if (!c->open)
		return BLOCKS_OK;
	c->open = false;
	if (c->how->start == NULL && blank(t, len))
		return BLOCKS_OK;	/* nothing between two separators */
	b = push(c->out);
	b->text = t;
	b->len = len;
	b->line = c->line;
	b->id = c->id;
	if (c->how->start == NULL) {
		snprintf(num, sizeof(num), "%zu", ++c->ordinal);
		b->id = arena_strdup(c->a, num);
	}
	for (l = t, stop = t + len; c->how->id != NULL && l < stop;
	    l = eol + 1) {
		eol = memchr(l, '\n', (size_t)(stop - l));
		if (eol == NULL)
			eol = stop;
		r = line_match(c->how->id, l, (size_t)(eol - l), &gs, &ge);
		if (r == RR_MATCH_LIMIT)
			return BLOCKS_LIMIT;
		if (r == RR_MATCH_YES && ge > gs) {
			b->id = make_id(c->a, l + gs, ge - gs);
			break;
		}
		if (eol == stop)
			break;
	}
	return BLOCKS_OK;
}

enum blocks_result
blocks_cut_text(const struct block_cut *how, const char *text, size_t len,
    struct arena *a, struct block_list *out)
{
	struct cut		 c;
	const char		*l = text, *eol, *stop = text + len;
	size_t			 line = 1, ll, gs, ge, at;
	enum rr_match_result	 r;

	memset(&c, 0, sizeof(c));
	c.how = how;
	c.text = text;
	c.a = a;
	c.out = out;
	out->n = 0;
	if (text == NULL)
		return BLOCKS_OK;
	if (how->start == NULL) {
		/* Separator blocks: the first one begins the text. */
		c.open = true;
		c.from = 0;
		c.line = 1;
	}
	for (; l <= stop; l = eol + 1, line++) {
		eol = memchr(l, '\n', (size_t)(stop - l));
		if (eol == NULL)
			eol = stop;
		ll = (size_t)(eol - l);
		at = (size_t)(l - text);
		if (how->start != NULL) {
			if ((r = line_match(how->start, l, ll, &gs, &ge)) ==
			    RR_MATCH_LIMIT)
				return BLOCKS_LIMIT;
			if (r == RR_MATCH_YES) {
				if (close_block(&c, at) != BLOCKS_OK)
					return BLOCKS_LIMIT;
				c.open = true;
				c.from = at;
				c.line = line;
				c.id = make_id(a, l + gs, ge - gs);
				if (*c.id == '\0')
					c.id = arena_printf(a, "%zu", line);
				goto next;
			}
		} else {
			if ((r = line_match(how->separator, l, ll, &gs,
			    &ge)) == RR_MATCH_LIMIT)
				return BLOCKS_LIMIT;
			if (r == RR_MATCH_YES) {
				if (close_block(&c, at) != BLOCKS_OK)
					return BLOCKS_LIMIT;
				c.open = true;
				c.from = eol < stop ? at + ll + 1 : len;
				c.line = line + 1;
				goto next;
			}
		}
		if ((r = line_match(how->end, l, ll, &gs, &ge)) ==
		    RR_MATCH_LIMIT)
			return BLOCKS_LIMIT;
		if (r == RR_MATCH_YES && close_block(&c, at) != BLOCKS_OK)
			return BLOCKS_LIMIT;
next:
		if (eol == stop)
			break;
	}
	return close_block(&c, len);
}

enum blocks_result
blocks_cut_json(const char *text, size_t len, const char *path,
    const char *id_path, struct arena *a, struct block_list *out)
{
	const cJSON	*box, *m, *idv;
	struct block	*b;
	size_t		 idx = 0;

	out->n = 0;
	if (text == NULL || (out->doc = json_parse_whole(text, len)) == NULL)
		return BLOCKS_NOT_JSON;
	box = strcmp(path, ".") == 0 ? out->doc : json_at_path(out->doc, path);
	if (!cJSON_IsObject(box) && !cJSON_IsArray(box))
		return BLOCKS_NOT_JSON;
	cJSON_ArrayForEach(m, box) {
		b = push(out);
		b->member = m;
		idv = id_path != NULL ? json_at_path(m, id_path) : NULL;
		if (cJSON_IsObject(box))
			b->id = make_id(a, m->string ? m->string : "",
			    m->string ? strlen(m->string) : 0);
		else if (cJSON_IsString(idv))
			b->id = make_id(a, idv->valuestring,
			    strlen(idv->valuestring));
		else if (cJSON_IsNumber(idv))
			b->id = arena_printf(a, "%.15g", idv->valuedouble);
		else
			b->id = arena_printf(a, "%zu", idx);
		idx++;
	}
	return BLOCKS_OK;
}

static int
id_cmp(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

enum blocks_result
blocks_listed(const struct rr_regex *re, const char *text, size_t len,
    struct arena *a, struct id_set *out)
{
	const char		*l = text, *eol, *stop = text + len;
	const char		**v = NULL;
	size_t			 n = 0, cap = 0, ll, from, s, e, gs, ge, i;
	enum rr_match_result	 r;

	out->v = NULL;
	out->n = 0;
	if (text == NULL)
		return BLOCKS_OK;
	for (; l <= stop; l = eol + 1) {
		eol = memchr(l, '\n', (size_t)(stop - l));
		if (eol == NULL)
			eol = stop;
		ll = (size_t)(eol - l);
		if (ll > 0 && l[ll - 1] == '\r')
			ll--;
		for (from = 0; from <= ll; from = e > s ? e : e + 1) {
			r = rr_regex_match_group(re, l, ll, from, &s, &e, &gs,
			    &ge);
			if (r == RR_MATCH_LIMIT) {
				free(v);
				return BLOCKS_LIMIT;
			}
			if (r == RR_MATCH_NO)
				break;
			if (ge > gs) {
				if (n == cap) {
					cap = cap ? cap * 2 : 16;
					v = xreallocarray(v, cap, sizeof(*v));
				}
				v[n++] = make_id(a, l + gs, ge - gs);
			}
		}
		if (eol == stop)
			break;
	}
	out->v = arena_alloc(a, (n ? n : 1) * sizeof(*out->v));
	for (i = 0; i < n; i++)
		out->v[i] = v[i];
	out->n = n;
	free(v);
	id_set_sort(out);
	return BLOCKS_OK;
}

void
id_set_sort(struct id_set *s)
{
	size_t	i, k;

	if (s->n > 1)
		qsort(s->v, s->n, sizeof(*s->v), id_cmp);
	for (i = 0, k = 0; i < s->n; i++)
		if (k == 0 || strcmp(s->v[k - 1], s->v[i]) != 0)
			s->v[k++] = s->v[i];
	s->n = k;
}

bool
id_set_has(const struct id_set *s, const char *id)
{
	return s->n > 0 && bsearch(&id, s->v, s->n, sizeof(*s->v), id_cmp) !=
	    NULL;
}
