/*
 * The multi-literal scanner (see litscan.h).  Case-insensitive literals are
 * stored folded and searched in the text folded once per run; exact ones
 * in the text as it is.  Every path is linear in the text: memmem() is
 * (glibc's two-way and its short-needle search), and where a group's key
 * occurs, at most PREFIX bytes of a literal are compared in place per
 * length class; a longer literal whose PREFIX bytes match is settled
 * there for the rest of the text by one memmem(), so "aaa...ab" in
 * "aaaa..." costs one pass and not one comparison of its length per byte
 * of text.
 *
 * The encoding, native-endian u32 unless said, offsets from its start:
 *
 *   header   magic, literals, groups, window groups (the first ones:
 *            keys of WINDOW bytes), flags (exact / ci / long literals),
 *            group table offset, class table offset, classes, literal
 *            table offset, text offset and length, window table bits and
 *            offset, filter bits and offset, 0
 *   groups   u32 key (its bytes, first in the high byte), u8 key length,
 *            u8 ci, u16 classes, u32 first class, u32 literals
 *   classes  u32 length compared (a literal's length, at most PREFIX),
 *            u32 first literal, u32 count; a group's in ascending length
 *   literals u32 text offset, u32 length, u32 id; a class's sorted by
 *            their first `length` bytes
 *   table    1 << bits u32: window group + 1, or 0 (open addressing)
 *   filter   1 << bits bits: a window key may be in the table
 *   text     the literals' bytes (folded if ci)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "bytes.h"
#include "casefold.h"
#include "checksum.h"
#include "litscan.h"
#include "xmalloc.h"

#define WINDOW		4
#define PREFIX		32	/* compared in place; a longer literal: memmem */
#define LITSCAN_SMALL	160	/* a ci literal up to this is folded on the stack */

#define LS_MAGIC	0x314e4353u	/* "SCN1" */
#define LS_HEADER	64
#define LS_GROUP	16
#define LS_CLASS	12
#define LS_LIT		12
#define LS_MAX_BITS	24

#define F_EXACT		0x1u
#define F_CI		0x2u
#define F_LONG		0x4u

struct lit {
	char	*s;		/* folded if ci */
	size_t	 len;
	bool	 ci;
};

struct litscan {
	struct lit	*lits;
	size_t		 n, cap;
	size_t		*dedup;		/* open addressing: id + 1, 0 empty */
	size_t		 dedup_cap;
	enum litscan_strategy force;
	struct buf	 enc;		/* litscan_run()'s encoding, or empty */
};

struct litscan *
litscan_new(void)
{
	struct litscan	*ls = xcalloc(1, sizeof(struct litscan));

	buf_init(&ls->enc);
	return ls;
}

void
litscan_free(struct litscan *ls)
{
	size_t	i;

	if (ls == NULL)
		return;
	for (i = 0; i < ls->n; i++)
		free(ls->lits[i].s);
	free(ls->lits);
	free(ls->dedup);
	buf_release(&ls->enc);
	free(ls);
}

size_t
litscan_count(const struct litscan *ls)
{
	return ls->n;
}

void
litscan_force(struct litscan *ls, enum litscan_strategy s)
{
	ls->force = s;
}

static size_t
lit_hash(const char *s, size_t len, bool ci)
{
	return (size_t)(rr_checksum(s, len) ^ (ci ? 0x5bd1e995u : 0));
}

static size_t *
dedup_slot(struct litscan *ls, const char *s, size_t len, bool ci)
{
	size_t		 mask = ls->dedup_cap - 1, i;
	const struct lit *l;

	for (i = lit_hash(s, len, ci) & mask; ls->dedup[i] != 0;
	    i = (i + 1) & mask) {
		l = &ls->lits[ls->dedup[i] - 1];
		if (l->len == len && l->ci == ci && memcmp(l->s, s, len) == 0)
			break;
	}
	return &ls->dedup[i];
}

size_t
litscan_add(struct litscan *ls, const char *s, size_t len, bool ci)
{
	struct lit	*l;
	struct buf	 folded;
	char		 small[RR_FOLD_ROOM(LITSCAN_SMALL)];
	size_t		*slot, i;

	/* Most literals are short: folded on the stack, copied if new. */
	buf_init(&folded);
	if (ci && len <= LITSCAN_SMALL) {
		len = rr_fold_mem(s, len, small);
		s = small;
	} else if (ci) {
		rr_fold(s, len, &folded);
		s = folded.data;
		len = folded.len;
	}
	if (2 * (ls->n + 1) > ls->dedup_cap) {
		free(ls->dedup);
		ls->dedup_cap = ls->dedup_cap ? ls->dedup_cap * 2 : 64;
		ls->dedup = xcalloc(ls->dedup_cap, sizeof(*ls->dedup));
		for (i = 0; i < ls->n; i++)
			*dedup_slot(ls, ls->lits[i].s, ls->lits[i].len,
			    ls->lits[i].ci) = i + 1;
	}
	slot = dedup_slot(ls, s, len, ci);
	if (*slot != 0) {
		buf_release(&folded);
		return *slot - 1;
	}
	if (ls->n == ls->cap) {
		ls->cap = ls->cap ? ls->cap * 2 : 16;
		ls->lits = xreallocarray(ls->lits, ls->cap, sizeof(*ls->lits));
	}
	l = &ls->lits[ls->n];
	l->s = folded.len ? buf_detach(&folded, NULL) : xmemdup0(s, len);
	l->len = len;
	l->ci = ci;
	*slot = ++ls->n;
	buf_reset(&ls->enc);
	return ls->n - 1;
}

static bool
occurs(const void *text, size_t len, const void *s, size_t n)
{
	return n == 0 || (n <= len && memmem(text, len, s, n) != NULL);
}

bool
lit_occurs(const char *text, size_t len, const char *s, size_t n, bool ci)
{
	struct buf	ft, fs;
	bool		r;

	if (!ci)
		return occurs(text, len, s, n);
	buf_init(&ft);
	buf_init(&fs);
	rr_fold(text, len, &ft);
	rr_fold(s, n, &fs);
	r = occurs(ft.data, ft.len, fs.data, fs.len);
	buf_release(&ft);
	buf_release(&fs);
	return r;
}

/* ---- encoding ----------------------------------------------------------- */

static inline uint32_t
ld32(const unsigned char *p)
{
	uint32_t	v;

	memcpy(&v, p, 4);
	return v;
}

static inline void
st32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static uint32_t
pack_key(const char *s, size_t n)
{
	uint32_t	k = 0;
	size_t		i;

	for (i = 0; i < n; i++)
		k = (k << 8) | (unsigned char)s[i];
	return k;
}

/* The window hash: one multiplication, its top bits index. */
static inline uint32_t
key_hash(uint32_t key, bool ci)
{
	return (key ^ (ci ? 0x5bd1e995u : 0)) * 0x9e3779b1u;
}

struct egroup {
	uint32_t	 key;
	size_t		 keylen;
	bool		 ci;
	size_t		*ids;		/* its literals */
	size_t		 n, cap;
};

static const struct litscan *sort_ls;

static size_t
class_len(size_t len)
{
	return len < PREFIX ? len : PREFIX;
}

/* By class, then the class's bytes, then the whole literal. */
static int
lit_cmp(const void *x, const void *y)
{
	const struct lit	*a = &sort_ls->lits[*(const size_t *)x];
	const struct lit	*b = &sort_ls->lits[*(const size_t *)y];
	size_t			 ca = class_len(a->len), cb = class_len(b->len);
	int			 c;

	if (ca != cb)
		return ca < cb ? -1 : 1;
	if ((c = memcmp(a->s, b->s, ca)) != 0)
		return c;
	if ((c = memcmp(a->s, b->s, a->len < b->len ? a->len : b->len)) != 0)
		return c;
	return a->len < b->len ? -1 : a->len > b->len;
}

static unsigned
bits_for(size_t n, unsigned lo, unsigned hi)
{
	unsigned	b = lo;

	while (b < hi && ((size_t)1 << b) < n)
		b++;
	return b;
}

static void
pad4(struct buf *b)
{
	while (b->len % 4 != 0)
		buf_addc(b, 0);
}

void
litscan_encode(const struct litscan *ls, struct buf *out)
{
	struct egroup	*g = NULL;
	size_t		 ng = 0, gcap = 0, *slot, scap = 16, i, j, k, kl;
	size_t		 nwin = 0, start = out->len, nclasses = 0, cls, text;
	size_t		 h, *order, norder = 0;
	unsigned	 tbits = 0, fbits = 0;
	uint32_t	 flags = 0, key, hh;
	unsigned char	*p;
	const struct lit *l;

	/* Groups by (first bytes, ci), in order of first appearance. */
	while (scap < 2 * ls->n)
		scap *= 2;
	slot = xcalloc(scap, sizeof(*slot));
	for (i = 0; i < ls->n; i++) {
		l = &ls->lits[i];
		flags |= l->ci ? F_CI : F_EXACT;
		if (l->len > PREFIX)
			flags |= F_LONG;
		kl = l->len < WINDOW ? l->len : WINDOW;
		key = pack_key(l->s, kl);
		for (h = (key_hash(key, l->ci) ^ kl) & (scap - 1);
		    slot[h] != 0; h = (h + 1) & (scap - 1)) {
			j = slot[h] - 1;
			if (g[j].key == key && g[j].keylen == kl &&
			    g[j].ci == l->ci)
				break;
		}
		if (slot[h] == 0) {
			if (ng == gcap) {
				gcap = gcap ? gcap * 2 : 16;
				g = xreallocarray(g, gcap, sizeof(*g));
			}
			memset(&g[ng], 0, sizeof(g[ng]));
			g[ng].key = key;
			g[ng].keylen = kl;
			g[ng].ci = l->ci;
			slot[h] = ++ng;
		}
		j = slot[h] - 1;
		if (g[j].n == g[j].cap) {
			g[j].cap = g[j].cap ? g[j].cap * 2 : 4;
			g[j].ids = xreallocarray(g[j].ids, g[j].cap,
			    sizeof(*g[j].ids));
		}
		g[j].ids[g[j].n++] = i;
	}
	free(slot);
	/* Window groups first, each one's literals sorted. */
	order = xcalloc(ng + 1, sizeof(*order));
	for (i = 0; i < ng; i++)
		if (g[i].keylen == WINDOW)
			order[norder++] = i;
	nwin = norder;
	for (i = 0; i < ng; i++)
		if (g[i].keylen != WINDOW)
			order[norder++] = i;
	sort_ls = ls;
	for (i = 0; i < ng; i++) {
		qsort(g[i].ids, g[i].n, sizeof(*g[i].ids), lit_cmp);
		for (j = 0; j < g[i].n; j++)
			if (j == 0 || class_len(ls->lits[g[i].ids[j]].len) !=
			    class_len(ls->lits[g[i].ids[j - 1]].len))
				nclasses++;
	}
	sort_ls = NULL;
	if (nwin > 0) {
		tbits = bits_for(2 * nwin, 4, LS_MAX_BITS);
		fbits = bits_for(16 * nwin, 9, 19);
	}

	/* Header, then the tables, laid out in this order. */
	wr_u32(out, LS_MAGIC);
	wr_u32(out, (uint32_t)ls->n);
	wr_u32(out, (uint32_t)ng);
	wr_u32(out, (uint32_t)nwin);
	wr_u32(out, flags);
	for (i = 5; i < LS_HEADER / 4; i++)
		wr_u32(out, 0);
	st32((unsigned char *)out->data + start + 20, LS_HEADER);
	st32((unsigned char *)out->data + start + 24,
	    (uint32_t)(LS_HEADER + ng * LS_GROUP));
	st32((unsigned char *)out->data + start + 28, (uint32_t)nclasses);
	st32((unsigned char *)out->data + start + 32, (uint32_t)(LS_HEADER +
	    ng * LS_GROUP + nclasses * LS_CLASS));
	buf_grow(out, ng * LS_GROUP + nclasses * LS_CLASS + ls->n * LS_LIT);
	/* Groups and classes; literal positions are known as we go. */
	cls = 0;
	k = 0;
	for (i = 0; i < ng; i++) {
		const struct egroup *e = &g[order[i]];
		size_t ncl = 0, first_cls = cls;

		for (j = 0; j < e->n; j++)
			if (j == 0 || class_len(ls->lits[e->ids[j]].len) !=
			    class_len(ls->lits[e->ids[j - 1]].len))
				ncl++;
		wr_u32(out, e->key);
		wr_u8(out, (uint8_t)e->keylen);
		wr_u8(out, e->ci);
		wr_u16(out, (uint16_t)ncl);
		wr_u32(out, (uint32_t)first_cls);
		wr_u32(out, (uint32_t)e->n);
		cls += ncl;
	}
	k = 0;
	for (i = 0; i < ng; i++) {
		const struct egroup *e = &g[order[i]];

		for (j = 0; j < e->n; j++) {
			size_t c = class_len(ls->lits[e->ids[j]].len), n = 1;

			if (j > 0 && class_len(ls->lits[e->ids[j - 1]].len) == c)
				continue;
			while (j + n < e->n &&
			    class_len(ls->lits[e->ids[j + n]].len) == c)
				n++;
			wr_u32(out, (uint32_t)c);
			wr_u32(out, (uint32_t)(k + j));
			wr_u32(out, (uint32_t)n);
		}
		k += e->n;
	}
	/* Literals: their bytes follow the tables. */
	text = 0;
	for (i = 0; i < ng; i++) {
		const struct egroup *e = &g[order[i]];

		for (j = 0; j < e->n; j++) {
			wr_u32(out, (uint32_t)text);
			wr_u32(out, (uint32_t)ls->lits[e->ids[j]].len);
			wr_u32(out, (uint32_t)e->ids[j]);
			text += ls->lits[e->ids[j]].len;
		}
	}
	if (nwin > 0) {
		st32((unsigned char *)out->data + start + 44, tbits);
		st32((unsigned char *)out->data + start + 48,
		    (uint32_t)(out->len - start));
		buf_grow(out, ((size_t)4 << tbits) + ((size_t)1 << fbits) / 8);
		p = (unsigned char *)out->data + out->len;
		memset(p, 0, ((size_t)4 << tbits) + ((size_t)1 << fbits) / 8);
		for (i = 0; i < nwin; i++) {
			hh = key_hash(g[order[i]].key, g[order[i]].ci);
			for (h = hh >> (32 - tbits); ld32(p + 4 * h) != 0;
			    h = (h + 1) & (((size_t)1 << tbits) - 1))
				;
			st32(p + 4 * h, (uint32_t)(i + 1));
			h = hh >> (32 - fbits);
			p[((size_t)4 << tbits) + h / 8] |=
			    (unsigned char)(1u << (h % 8));
		}
		st32((unsigned char *)out->data + start + 52, fbits);
		st32((unsigned char *)out->data + start + 56,
		    (uint32_t)(out->len - start + ((size_t)4 << tbits)));
		out->len += ((size_t)4 << tbits) + ((size_t)1 << fbits) / 8;
	}
	st32((unsigned char *)out->data + start + 36,
	    (uint32_t)(out->len - start));
	st32((unsigned char *)out->data + start + 40, (uint32_t)text);
	for (i = 0; i < ng; i++) {
		const struct egroup *e = &g[order[i]];

		for (j = 0; j < e->n; j++)
			buf_add(out, ls->lits[e->ids[j]].s,
			    ls->lits[e->ids[j]].len);
	}
	pad4(out);
	for (i = 0; i < ng; i++)
		free(g[i].ids);
	free(g);
	free(order);
}

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

/* The literals of group g not settled yet (computed on first need). */
static uint32_t *
group_left(struct run *r, uint32_t gi, const struct group *g)
{
	const unsigned char	*p;
	uint32_t		 c, i, first, count, n = 0, len, id;

	if (r->left == NULL)
		r->left = xcalloc(r->m->ngroups, sizeof(*r->left));
	if (r->left[gi] != 0)
		return &r->left[gi];
	for (c = 0; c < g->nclasses; c++) {
		p = r->m->p + r->m->classes + (size_t)(g->class_first + c) *
		    LS_CLASS;
		first = ld32(p + 4);
		count = ld32(p + 8);
		if (first > r->m->nlits || count > r->m->nlits - first) {
			r->bad = true;
			return &r->left[gi];
		}
		for (i = first; i < first + count; i++) {
			if (read_lit(r, i, &len, &id) == NULL)
				return &r->left[gi];
			n += !settled(r, id);
		}
	}
	r->left[gi] = n + 1;
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
			else if (len <= rest && occurs(t + pos, rest, s, len))
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

void
litscan_run(struct litscan *ls, const char *text, size_t len,
    unsigned char *found)
{
	struct litscan_map	m;
	struct litscan_text	t;

	if (ls->n == 0)
		return;
	if (ls->enc.len == 0)
		litscan_encode(ls, &ls->enc);
	if (litscan_map(&m, ls->enc.data, ls->enc.len) < 0)
		BUG("litscan: an encoding of ours does not map");
	litscan_text_init(&t, text, len);
	if (litscan_map_run(&m, &t, ls->force, found, NULL) < 0)
		BUG("litscan: an encoding of ours is corrupt");
	litscan_text_release(&t);
}
