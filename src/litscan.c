/*
 * The multi-literal scanner, built and encoded (see litscan.h; an
 * encoding is mapped and run by litscan_map.c).  Case-insensitive
 * literals are stored folded.
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
#include "litscan_priv.h"
#include "xmalloc.h"

#define LITSCAN_SMALL	160	/* a ci literal up to this is folded on the stack */

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

bool
lit_occurs(const char *text, size_t len, const char *s, size_t n, bool ci)
{
	struct buf	ft, fs;
	bool		r;

	if (!ci)
		return ls_occurs(text, len, s, n);
	buf_init(&ft);
	buf_init(&fs);
	rr_fold(text, len, &ft);
	rr_fold(s, n, &fs);
	r = ls_occurs(ft.data, ft.len, fs.data, fs.len);
	buf_release(&ft);
	buf_release(&fs);
	return r;
}

/* ---- encoding ----------------------------------------------------------- */

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
struct egroup {
	uint32_t	 key;
	size_t		 keylen;
	bool		 ci;
	size_t		*ids;		/* its literals */
	size_t		 n, cap;
};

static const struct litscan *sort_ls;

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
