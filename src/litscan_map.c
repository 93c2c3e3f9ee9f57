/*
 * Mapping and running an encoded literal scanner (see litscan.h; the
 * layout is described in litscan.c).  Every offset the run follows is
 * checked against the bytes; a bad one stops the run with -1.
 *
 * Case-insensitive literals are searched in the text folded once per
 * run, exact ones in the text as it is.  Every path is linear in the
 * text: memmem() is (glibc's two-way and its short-needle search), and
 * where a group's key occurs, at most PREFIX bytes of a literal are
 * compared in place per length class; a longer literal whose PREFIX
 * bytes match is settled there for the rest of the text by one memmem(),
 * so "aaa...ab" in "aaaa..." costs one pass and not one comparison of
 * its length per byte of text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "casefold.h"
#include "litscan.h"
#include "litscan_priv.h"
#include "xmalloc.h"

/* ---- mapping ------------------------------------------------------------ */

static bool
fits(size_t len, uint64_t off, uint64_t n)
{
	return off <= len && n <= len - off;
}

int
litscan_map(struct litscan_map *m, const void *p, size_t len)
{
	const unsigned char	*b = p;

	memset(m, 0, sizeof(*m));
	if (len < LS_HEADER || ld32(b) != LS_MAGIC)
		return -1;
	m->p = b;
	m->len = len;
	m->nlits = ld32(b + 4);
	m->ngroups = ld32(b + 8);
	m->nwin = ld32(b + 12);
	m->flags = ld32(b + 16);
	m->groups = ld32(b + 20);
	m->classes = ld32(b + 24);
	m->nclasses = ld32(b + 28);
	m->lits = ld32(b + 32);
	m->text = ld32(b + 36);
	m->text_len = ld32(b + 40);
	m->table_bits = ld32(b + 44);
	m->table = ld32(b + 48);
	m->filter_bits = ld32(b + 52);
	m->filter = ld32(b + 56);
	if (m->nwin > m->ngroups ||
	    !fits(len, m->groups, (uint64_t)m->ngroups * LS_GROUP) ||
	    !fits(len, m->classes, (uint64_t)m->nclasses * LS_CLASS) ||
	    !fits(len, m->lits, (uint64_t)m->nlits * LS_LIT) ||
	    !fits(len, m->text, m->text_len))
		return -1;
	if (m->nwin > 0 && (m->table_bits < 1 ||
	    m->table_bits > LS_MAX_BITS || m->filter_bits < 3 ||
	    m->filter_bits > LS_MAX_BITS ||
	    ((uint64_t)1 << m->table_bits) <= m->nwin ||
	    !fits(len, m->table, (uint64_t)4 << m->table_bits) ||
	    !fits(len, m->filter, ((uint64_t)1 << m->filter_bits) / 8)))
		return -1;
	return 0;
}

/* ---- running ------------------------------------------------------------ */

void
litscan_text_init(struct litscan_text *t, const char *s, size_t len)
{
	t->s = s != NULL ? s : "";
	t->len = s != NULL ? len : 0;
	buf_init(&t->folded);
	t->have_folded = false;
}

void
litscan_text_release(struct litscan_text *t)
{
	buf_release(&t->folded);
	t->have_folded = false;
}

struct group {
	uint32_t	key, keylen, ci, nclasses, class_first, nlits;
};

/* One run: the text of each kind (index ci), what is settled so far. */
struct run {
	const struct litscan_map	*m;
	const unsigned char		*t[2];
	size_t				 len[2];
	unsigned char			*found;
	unsigned char			*gone;	/* long literals known absent */
	uint32_t			*left;	/* per group: unsettled + 1 */
	struct litscan_hits		*hits;
	bool				 bad;
};

static bool
read_group(struct run *r, uint32_t i, struct group *g)
{
	const unsigned char	*p = r->m->p + r->m->groups + (size_t)i *
				    LS_GROUP;
	uint16_t		 nc;

	g->key = ld32(p);
	g->keylen = p[4];
	g->ci = p[5];
	memcpy(&nc, p + 6, 2);
	g->nclasses = nc;
	g->class_first = ld32(p + 8);
	g->nlits = ld32(p + 12);
	if (g->keylen < 1 || g->keylen > WINDOW || g->ci > 1 ||
	    g->class_first > r->m->nclasses ||
	    g->nclasses > r->m->nclasses - g->class_first) {
		r->bad = true;
		return false;
	}
	return true;
}

/* Literal i of the table: its bytes, length and id, checked. */
static const unsigned char *
read_lit(struct run *r, uint32_t i, uint32_t *len, uint32_t *id)
{
	const unsigned char	*p = r->m->p + r->m->lits + (size_t)i * LS_LIT;
	uint32_t		 off = ld32(p);

	*len = ld32(p + 4);
	*id = ld32(p + 8);
	if (*len == 0 || *id >= r->m->nlits || off > r->m->text_len ||
	    *len > r->m->text_len - off) {
		r->bad = true;
		return NULL;
	}
	return r->m->p + r->m->text + off;
}

static bool
settled(const struct run *r, uint32_t id)
{
	return r->found[id] || (r->gone != NULL && r->gone[id]);
}

static void
set_found(struct run *r, uint32_t id)
{
	r->found[id] = 1;
	if (r->hits == NULL)
		return;
	if (r->hits->n == r->hits->cap) {
		r->hits->cap = r->hits->cap ? r->hits->cap * 2 : 16;
		r->hits->v = xreallocarray(r->hits->v, r->hits->cap,
		    sizeof(*r->hits->v));
	}
	r->hits->v[r->hits->n++] = id;
}

/*
 * The literals of group g not settled yet, + 1; counted from the group's
 * size on its first hit (found[] comes zeroed: a literal the caller had
 * already set keeps its group from stopping early, nothing worse).
 */
static uint32_t *
group_left(struct run *r, uint32_t gi, const struct group *g)
{
	if (r->left == NULL)
		r->left = xcalloc(r->m->ngroups, sizeof(*r->left));
	if (r->left[gi] == 0)
		r->left[gi] = g->nlits < UINT32_MAX ? g->nlits + 1 : g->nlits;
	return &r->left[gi];
}

/*
 * The literals of group g that start at pos of its kind's text (where
 * its key occurs): per class, the range of literals whose first bytes
 * are the text's, by binary search.
 */
static void
match_at(struct run *r, uint32_t gi, const struct group *g, size_t pos)
{
	const unsigned char	*t = r->t[g->ci], *cp, *s;
	size_t			 rest = r->len[g->ci] - pos;
	uint32_t		 c, clen, first, count, lo, hi, mid, len, id;
	uint32_t		*left = group_left(r, gi, g);

	for (c = 0; c < g->nclasses && *left > 1 && !r->bad; c++) {
		cp = r->m->p + r->m->classes + (size_t)(g->class_first + c) *
		    LS_CLASS;
		clen = ld32(cp);
		first = ld32(cp + 4);
		count = ld32(cp + 8);
		if (clen < g->keylen || clen > PREFIX || first > r->m->nlits ||
		    count > r->m->nlits - first) {
			r->bad = true;
			return;
		}
		if (clen > rest)
			break;		/* classes ascend in length */
		/* The first literal whose bytes are >= the text's. */
		for (lo = first, hi = first + count; lo < hi;) {
			mid = lo + (hi - lo) / 2;
			if ((s = read_lit(r, mid, &len, &id)) == NULL)
				return;
			if (len < clen) {
				r->bad = true;
				return;
			}
			if (memcmp(s, t + pos, clen) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < first + count; lo++) {
			if ((s = read_lit(r, lo, &len, &id)) == NULL)
				return;
			if (len < clen || memcmp(s, t + pos, clen) != 0)
				break;
			if (settled(r, id))
				continue;
			if (len == clen)
				set_found(r, id);
			else if (len <= rest && ls_occurs(t + pos, rest, s, len))
				set_found(r, id);
			else if (r->gone != NULL)
				r->gone[id] = 1;
			else {
				r->bad = true;	/* a long one, unflagged */
				return;
			}
			(*left)--;
		}
	}
}

/*
 * Where the key next occurs in t[pos..len), or NULL.  memmem() is given a
 * window that starts small and doubles while the key is not in it:
 * AddressSanitizer checks the whole haystack of every call, so one call
 * per hit over the rest of the text would be quadratic under it.
 */
static const unsigned char *
next_hit(const unsigned char *t, size_t len, size_t pos,
    const unsigned char *key, size_t keylen)
{
	const unsigned char	*hit;
	size_t			 win = 256, n;

	while (keylen <= len - pos) {
		n = len - pos < win ? len - pos : win;
		if ((hit = memmem(t + pos, n, key, keylen)) != NULL)
			return hit;
		/* The next window overlaps this one by keylen - 1 bytes. */
		pos += n - keylen + 1;
		if (win < len)
			win *= 2;
	}
	return NULL;
}

/* memmem() of a group's key over its text, matching at every hit. */
static void
run_group(struct run *r, uint32_t gi)
{
	struct group		 g;
	const unsigned char	*t, *hit;
	unsigned char		 key[WINDOW];
	uint32_t		 i, *left;
	size_t			 pos, len;

	if (!read_group(r, gi, &g))
		return;
	for (i = 0; i < g.keylen; i++)
		key[i] = (unsigned char)(g.key >> (8 * (g.keylen - 1 - i)));
	t = r->t[g.ci];
	len = r->len[g.ci];
	/* What is left of the group is counted at its first hit. */
	for (pos = 0, left = NULL; (left == NULL || *left > 1) && !r->bad &&
	    (hit = next_hit(t, len, pos, key, g.keylen)) != NULL;
	    pos = (size_t)(hit - t) + 1) {
		match_at(r, gi, &g, (size_t)(hit - t));
		left = &r->left[gi];
	}
}

/* One hashed pass over the text of one kind for the window groups. */
static void
run_window(struct run *r, bool ci)
{
	const struct litscan_map *m = r->m;
	const unsigned char	*t = r->t[ci], *table = m->p + m->table;
	const unsigned char	*filter = m->p + m->filter;
	struct group		 g;
	size_t			 len = r->len[ci], i, h, probes;
	size_t			 tmask = ((size_t)1 << m->table_bits) - 1;
	uint32_t		 w = 0, hh, slot;
	unsigned		 tshift = 32 - m->table_bits;
	unsigned		 fshift = 32 - m->filter_bits;

	for (i = 0; i < len && !r->bad; i++) {
		w = (w << 8) | t[i];
		if (i + 1 < WINDOW)
			continue;
		hh = key_hash(w, ci);
		h = hh >> fshift;
		if (!(filter[h / 8] & (1u << (h % 8))))
			continue;
		for (h = hh >> tshift, probes = 0; probes <= tmask;
		    probes++, h = (h + 1) & tmask) {
			if ((slot = ld32(table + 4 * h)) == 0)
				break;
			if (slot > m->nwin) {
				r->bad = true;
				return;
			}
			if (!read_group(r, slot - 1, &g))
				return;
			if (g.key == w && g.ci == (uint32_t)ci &&
			    g.keylen == WINDOW) {
				match_at(r, slot - 1, &g, i + 1 - WINDOW);
				break;
			}
		}
	}
}

int
litscan_map_run(const struct litscan_map *m, struct litscan_text *tx,
    enum litscan_strategy s, unsigned char *found, struct litscan_hits *hits)
{
	struct run	r;
	size_t		cost_each, cost_window, nkinds;
	uint32_t	i;

	if (m->nlits == 0 || m->ngroups == 0)
		return 0;
	memset(&r, 0, sizeof(r));
	r.m = m;
	r.found = found;
	r.hits = hits;
	r.t[false] = (const unsigned char *)tx->s;
	r.len[false] = tx->len;
	if (m->flags & F_CI) {
		if (!tx->have_folded) {
			rr_fold(tx->s, tx->len, &tx->folded);
			tx->have_folded = true;
		}
		r.t[true] = (const unsigned char *)(tx->folded.data ?
		    tx->folded.data : "");
		r.len[true] = tx->folded.len;
	} else {
		r.t[true] = (const unsigned char *)"";
		r.len[true] = 0;
	}
	if (m->flags & F_LONG)
		r.gone = xcalloc(m->nlits, 1);
	if (s == LITSCAN_AUTO) {
		/* Rough nanoseconds: memmem streams, the window hashes. */
		nkinds = !!(m->flags & F_EXACT) + !!(m->flags & F_CI);
		cost_each = m->ngroups * (20 + tx->len / 16);
		cost_window = nkinds * (2 * tx->len + 20) +
		    (m->ngroups - m->nwin) * (20 + tx->len / 16);
		s = cost_window < cost_each ? LITSCAN_WINDOW : LITSCAN_EACH;
	}
	if (s == LITSCAN_WINDOW && m->nwin > 0) {
		if (m->flags & F_EXACT)
			run_window(&r, false);
		if (m->flags & F_CI)
			run_window(&r, true);
		for (i = m->nwin; i < m->ngroups && !r.bad; i++)
			run_group(&r, i);
	} else
		for (i = 0; i < m->ngroups && !r.bad; i++)
			run_group(&r, i);
	free(r.gone);
	free(r.left);
	return r.bad ? -1 : 0;
}
