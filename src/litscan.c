/*
 * The multi-literal scanner (see litscan.h).  Case-insensitive literals are
 * stored folded and searched in the text folded once per run; exact ones
 * in the text as it is.  Every path is linear in the text: memmem() is
 * (glibc's two-way and its short-needle search), and where a literal's
 * first bytes occur, at most PREFIX of its bytes are compared in place;
 * a longer literal whose PREFIX bytes match is settled there for the rest
 * of the text by one memmem(), so "aaa...ab" in "aaaa..." costs one pass
 * and not one comparison of its length per byte of text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "casefold.h"
#include "checksum.h"
#include "litscan.h"
#include "xmalloc.h"

#define FILTER_BITS	16
#define WINDOW		4
#define PREFIX		32	/* compared in place; a longer literal: memmem */
#define LITSCAN_SMALL	160	/* a ci literal up to this is folded on the stack */

struct lit {
	char	*s;		/* folded if ci */
	size_t	 len;
	bool	 ci;
	size_t	 next;		/* next literal with the same window key + 1 */
	uint32_t key;		/* first WINDOW bytes */
};

struct litscan {
	struct lit	*lits;
	size_t		 n, cap;
	size_t		*dedup;		/* open addressing: id + 1, 0 empty */
	size_t		 dedup_cap;
	enum litscan_strategy force;
};

/*
 * One run: the text for each kind of literal (index ci: the text, its
 * folding), and what is settled.  A literal is settled when found or, if
 * long, when known to occur nowhere (gone).
 */
struct scan {
	struct litscan		*ls;
	const unsigned char	*t[2];
	size_t			 len[2];
	unsigned char		*found;
	unsigned char		*gone;
	size_t			 remaining;	/* not settled */
};

struct litscan *
litscan_new(void)
{
	return xcalloc(1, sizeof(struct litscan));
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
	l->next = 0;
	l->key = 0;
	for (i = 0; i < WINDOW && i < len; i++)
		l->key = (l->key << 8) | (unsigned char)l->s[i];
	*slot = ++ls->n;
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

static bool
settled(const struct scan *sc, size_t id)
{
	return sc->found[id] || sc->gone[id];
}

/*
 * Does literal id start at offset pos of its text (which has room for
 * it)?  Returns true when that settles the literal: it is found there, or
 * it is long, its first PREFIX bytes are there, and memmem() says whether
 * it occurs from there on (the caller's positions only grow, so it was
 * not found before).
 */
static bool
settle_at(struct scan *sc, size_t id, size_t pos)
{
	const struct lit	*l = &sc->ls->lits[id];
	const unsigned char	*t = sc->t[l->ci];
	size_t			 len = sc->len[l->ci];

	if (l->len <= PREFIX) {
		if (memcmp(t + pos, l->s, l->len) != 0)
			return false;
		sc->found[id] = 1;
	} else {
		if (memcmp(t + pos, l->s, PREFIX) != 0)
			return false;
		if (occurs(t + pos, len - pos, l->s, l->len))
			sc->found[id] = 1;
		else
			sc->gone[id] = 1;
	}
	sc->remaining--;
	return true;
}

static inline uint32_t
window_hash(uint32_t key)
{
	return (key * 0x9e3779b1u) >> (32 - FILTER_BITS);
}

/*
 * The one-pass strategy over the text of one kind (ci or not), for its
 * literals of WINDOW bytes or more; a settled literal leaves its chain.
 */
static void
run_window(struct scan *sc, bool ci)
{
	struct litscan		*ls = sc->ls;
	const unsigned char	*t = sc->t[ci];
	unsigned char		*filter;
	size_t			*heads, *link, i, id, start, open = 0;
	size_t			 len = sc->len[ci];
	uint32_t		 w = 0, h;
	unsigned		 bits = 6;
	struct lit		*l;

	/* The chains' table is sized to the literals, the filter is fixed. */
	while (bits < FILTER_BITS && ((size_t)1 << bits) < 2 * ls->n)
		bits++;
	filter = xcalloc(1u << (FILTER_BITS - 3), 1);
	heads = xcalloc((size_t)1 << bits, sizeof(*heads));
	for (i = 0; i < ls->n; i++) {
		l = &ls->lits[i];
		if (l->ci != ci || l->len < WINDOW || settled(sc, i) ||
		    l->len > len)
			continue;
		h = window_hash(l->key);
		filter[h >> 3] |= (unsigned char)(1u << (h & 7));
		h >>= FILTER_BITS - bits;
		l->next = heads[h];
		heads[h] = i + 1;
		open++;
	}
	for (i = 0; i < len && open > 0; i++) {
		w = (w << 8) | t[i];
		if (i + 1 < WINDOW)
			continue;
		h = window_hash(w);
		if (!(filter[h >> 3] & (1u << (h & 7))))
			continue;
		start = i + 1 - WINDOW;
		for (link = &heads[h >> (FILTER_BITS - bits)];
		    (id = *link) != 0;) {
			l = &ls->lits[id - 1];
			if (l->key == w && l->len <= len - start &&
			    settle_at(sc, id - 1, start)) {
				*link = l->next;
				open--;
			} else
				link = &l->next;
		}
	}
	free(filter);
	free(heads);
}

/*
 * Literals sharing their first WINDOW bytes (and case folding) form a
 * group, searched once: a hundred rules' "forbidden_call_N" cost one
 * memmem() of "forb", then a comparison per literal where it occurs.
 */
struct group {
	size_t		 first;		/* head of the chain through next */
	const char	*key;		/* the first literal's first bytes */
	size_t		 keylen;
	bool		 ci;
};

static bool
same_key(const struct group *g, const struct lit *l, size_t kl)
{
	return g->ci == l->ci && g->keylen == kl &&
	    memcmp(g->key, l->s, kl) == 0;
}

static size_t
key_hash(const struct lit *l, size_t kl)
{
	return (size_t)rr_checksum(l->s, kl) ^ l->ci;
}

/* Groups the literals not found yet; a hash table finds each one's group. */
static size_t
make_groups(struct litscan *ls, const unsigned char *found,
    struct group **out)
{
	struct group	*g;
	size_t		*slot, cap = 16, mask, n = 0, i, h, kl;

	while (cap < 2 * ls->n)
		cap *= 2;
	mask = cap - 1;
	slot = xcalloc(cap, sizeof(*slot));
	g = xcalloc(ls->n ? ls->n : 1, sizeof(*g));
	for (i = 0; i < ls->n; i++) {
		if (found[i])
			continue;
		kl = ls->lits[i].len < WINDOW ? ls->lits[i].len : WINDOW;
		for (h = key_hash(&ls->lits[i], kl) & mask; slot[h] != 0 &&
		    !same_key(&g[slot[h] - 1], &ls->lits[i], kl);
		    h = (h + 1) & mask)
			;
		if (slot[h] == 0) {
			g[n].first = 0;
			g[n].key = ls->lits[i].s;
			g[n].keylen = kl;
			g[n].ci = ls->lits[i].ci;
			slot[h] = ++n;
		}
		ls->lits[i].next = g[slot[h] - 1].first;
		g[slot[h] - 1].first = i + 1;
	}
	free(slot);
	*out = g;
	return n;
}

/*
 * Where the key of g next occurs in t[pos..len), or NULL.  memmem() is
 * given a window that starts small and doubles while the key is not in
 * it: AddressSanitizer checks the whole haystack of every call, so one
 * call per hit over the rest of the text would be quadratic under it.
 */
static const unsigned char *
next_hit(const unsigned char *t, size_t len, size_t pos, const struct group *g)
{
	const unsigned char	*hit;
	size_t			 win = 256, n;

	while (g->keylen <= len - pos) {
		n = len - pos < win ? len - pos : win;
		if ((hit = memmem(t + pos, n, g->key, g->keylen)) != NULL)
			return hit;
		/* The next window overlaps this one by keylen - 1 bytes. */
		pos += n - g->keylen + 1;
		if (win < len)
			win *= 2;
	}
	return NULL;
}

static void
run_each(struct scan *sc, const struct group *g, size_t ngroups)
{
	const struct lit	*l;
	const unsigned char	*t, *hit;
	size_t			 i, id, pos, left, len;

	for (i = 0; i < ngroups && sc->remaining > 0; i++) {
		t = sc->t[g[i].ci];
		len = sc->len[g[i].ci];
		for (left = 0, id = g[i].first; id != 0;
		    id = sc->ls->lits[id - 1].next)
			left++;
		for (pos = 0; left > 0 &&
		    (hit = next_hit(t, len, pos, &g[i])) != NULL;
		    pos = (size_t)(hit - t) + 1) {
			for (id = g[i].first; id != 0;
			    id = sc->ls->lits[id - 1].next) {
				l = &sc->ls->lits[id - 1];
				if (settled(sc, id - 1) ||
				    l->len > len - (size_t)(hit - t))
					continue;
				if (settle_at(sc, id - 1, (size_t)(hit - t)))
					left--;
			}
		}
	}
}

void
litscan_run(struct litscan *ls, const char *text, size_t len,
    unsigned char *found)
{
	enum litscan_strategy	 s = ls->force;
	struct scan		 sc;
	struct group		*g = NULL;
	struct buf		 folded;
	size_t			 i, cost_each, cost_window, ngroups;
	bool			 kinds[2] = { false, false };

	sc.ls = ls;
	sc.found = found;
	sc.remaining = 0;
	for (i = 0; i < ls->n; i++)
		if (!found[i]) {
			sc.remaining++;
			kinds[ls->lits[i].ci] = true;
		}
	if (sc.remaining == 0)
		return;
	/* Folded once for all the case-insensitive literals. */
	buf_init(&folded);
	if (kinds[true])
		rr_fold(text, len, &folded);
	sc.t[false] = (const unsigned char *)text;
	sc.len[false] = len;
	sc.t[true] = (const unsigned char *)folded.data;
	sc.len[true] = folded.len;
	sc.gone = xcalloc(ls->n, 1);
	ngroups = make_groups(ls, found, &g);
	if (s == LITSCAN_AUTO) {
		/* Rough nanoseconds: memmem streams, the window costs. */
		cost_each = ngroups * (20 + len / 16);
		cost_window = ls->n * 10 + (kinds[false] + kinds[true]) *
		    len * 2 + 20000;
		s = cost_window < cost_each ? LITSCAN_WINDOW : LITSCAN_EACH;
	}
	if (s == LITSCAN_WINDOW) {
		if (kinds[false])
			run_window(&sc, false);
		if (kinds[true])
			run_window(&sc, true);
		/* Shorter literals than the window: each on its own. */
		for (i = 0; i < ls->n && sc.remaining > 0; i++) {
			if (settled(&sc, i) || ls->lits[i].len >= WINDOW)
				continue;
			if (occurs(sc.t[ls->lits[i].ci],
			    sc.len[ls->lits[i].ci], ls->lits[i].s,
			    ls->lits[i].len)) {
				found[i] = 1;
				sc.remaining--;
			}
		}
	} else
		run_each(&sc, g, ngroups);
	free(g);
	free(sc.gone);
	buf_release(&folded);
}
