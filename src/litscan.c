#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "checksum.h"
#include "litscan.h"
#include "xmalloc.h"

#define FILTER_BITS	16
#define WINDOW		4

struct lit {
	char	*s;
	size_t	 len;
	bool	 ci;
	size_t	 next;		/* next literal with the same window key + 1 */
	uint32_t key;		/* first WINDOW bytes, lowercased */
};

struct litscan {
	struct lit	*lits;
	size_t		 n, cap;
	size_t		*dedup;		/* open addressing: id + 1, 0 empty */
	size_t		 dedup_cap;
	enum litscan_strategy force;
};

static const unsigned char *
lower_table(void)
{
	static unsigned char	t[256];
	static bool		init;
	int			c;

	if (!init) {
		for (c = 0; c < 256; c++)
			t[c] = (unsigned char)(c >= 'A' && c <= 'Z' ?
			    c + 32 : c);
		init = true;
	}
	return t;
}

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
	const unsigned char	*low = lower_table();
	struct lit		*l;
	size_t			*slot, i;

	if (2 * (ls->n + 1) > ls->dedup_cap) {
		free(ls->dedup);
		ls->dedup_cap = ls->dedup_cap ? ls->dedup_cap * 2 : 64;
		ls->dedup = xcalloc(ls->dedup_cap, sizeof(*ls->dedup));
		for (i = 0; i < ls->n; i++)
			*dedup_slot(ls, ls->lits[i].s, ls->lits[i].len,
			    ls->lits[i].ci) = i + 1;
	}
	slot = dedup_slot(ls, s, len, ci);
	if (*slot != 0)
		return *slot - 1;
	if (ls->n == ls->cap) {
		ls->cap = ls->cap ? ls->cap * 2 : 16;
		ls->lits = xreallocarray(ls->lits, ls->cap, sizeof(*ls->lits));
	}
	l = &ls->lits[ls->n];
	l->s = xmemdup0(s, len);
	l->len = len;
	l->ci = ci;
	l->next = 0;
	l->key = 0;
	for (i = 0; i < WINDOW && i < len; i++)
		l->key = (l->key << 8) | low[(unsigned char)s[i]];
	*slot = ++ls->n;
	return ls->n - 1;
}

static bool
ci_equal(const unsigned char *a, const unsigned char *b, size_t n)
{
	const unsigned char	*low = lower_table();
	size_t			 i;

	for (i = 0; i < n; i++)
		if (low[a[i]] != low[b[i]])
			return false;
	return true;
}

/* Case-insensitive search: memchr for both cases of the first byte. */
static bool
ci_occurs(const unsigned char *t, size_t len, const unsigned char *s,
    size_t n)
{
	const unsigned char	*low = lower_table();
	unsigned char		 a = low[s[0]], b;
	const unsigned char	*p, *q, *r, *end = t + len - n + 1;

	b = (unsigned char)(a >= 'a' && a <= 'z' ? a - 32 : a);
	for (p = t; p < end; p = q + 1) {
		q = memchr(p, a, (size_t)(end - p));
		if (a != b && (r = memchr(p, b, q ? (size_t)(q - p) :
		    (size_t)(end - p))) != NULL)
			q = r;
		if (q == NULL)
			return false;
		if (ci_equal(q + 1, s + 1, n - 1))
			return true;
	}
	return false;
}

bool
lit_occurs(const char *text, size_t len, const char *s, size_t n, bool ci)
{
	if (n == 0)
		return true;
	if (n > len)
		return false;
	if (!ci)
		return memmem(text, len, s, n) != NULL;
	return ci_occurs((const unsigned char *)text, len,
	    (const unsigned char *)s, n);
}

/* Does literal l start at p (the text has room for it)? */
static bool
matches_at(const struct lit *l, const unsigned char *p)
{
	return l->ci ? ci_equal(p, (const unsigned char *)l->s, l->len) :
	    memcmp(p, l->s, l->len) == 0;
}

static inline uint32_t
window_hash(uint32_t key)
{
	return (key * 0x9e3779b1u) >> (32 - FILTER_BITS);
}

/* The one-pass strategy, for literals of WINDOW bytes or more. */
static size_t
run_window(struct litscan *ls, const unsigned char *t, size_t len,
    unsigned char *found, size_t remaining)
{
	const unsigned char	*low = lower_table();
	unsigned char		*filter;
	size_t			*heads, i, id, start;
	uint32_t		 w = 0, h;
	unsigned		 bits = 6;
	const struct lit	*l;

	/* The chains' table is sized to the literals, the filter is fixed. */
	while (bits < FILTER_BITS && ((size_t)1 << bits) < 2 * ls->n)
		bits++;
	filter = xcalloc(1u << (FILTER_BITS - 3), 1);
	heads = xcalloc((size_t)1 << bits, sizeof(*heads));
	for (i = 0; i < ls->n; i++) {
		l = &ls->lits[i];
		if (l->len < WINDOW || found[i])
			continue;
		h = window_hash(l->key);
		filter[h >> 3] |= (unsigned char)(1u << (h & 7));
		h >>= FILTER_BITS - bits;
		ls->lits[i].next = heads[h];
		heads[h] = i + 1;
	}
	for (i = 0; i < len && remaining > 0; i++) {
		w = (w << 8) | low[t[i]];
		if (i + 1 < WINDOW)
			continue;
		h = window_hash(w);
		if (!(filter[h >> 3] & (1u << (h & 7))))
			continue;
		start = i + 1 - WINDOW;
		for (id = heads[h >> (FILTER_BITS - bits)]; id != 0;
		    id = ls->lits[id - 1].next) {
			l = &ls->lits[id - 1];
			if (found[id - 1] || l->key != w ||
			    l->len > len - start)
				continue;
			if (matches_at(l, t + start)) {
				found[id - 1] = 1;
				remaining--;
			}
		}
	}
	free(filter);
	free(heads);
	return remaining;
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
	if (g->ci != l->ci || g->keylen != kl)
		return false;
	return g->ci ? ci_equal((const unsigned char *)g->key,
	    (const unsigned char *)l->s, kl) : memcmp(g->key, l->s, kl) == 0;
}

static size_t
key_hash(const struct lit *l, size_t kl)
{
	const unsigned char	*low = lower_table();
	unsigned char		 k[WINDOW];
	size_t			 i;

	for (i = 0; i < kl; i++)
		k[i] = l->ci ? low[(unsigned char)l->s[i]] :
		    (unsigned char)l->s[i];
	return (size_t)rr_checksum(k, kl) ^ l->ci;
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

/* Where the key of g next occurs in t[from..len), or NULL. */
static const unsigned char *
next_hit(const unsigned char *t, size_t len, size_t from, const struct group *g)
{
	const unsigned char	*low = lower_table(), *k;
	const unsigned char	*p, *q, *r, *end;
	unsigned char		 a, b;

	if (from + g->keylen > len)
		return NULL;
	if (!g->ci)
		return memmem(t + from, len - from, g->key, g->keylen);
	k = (const unsigned char *)g->key;
	a = low[k[0]];
	b = (unsigned char)(a >= 'a' && a <= 'z' ? a - 32 : a);
	end = t + len - g->keylen + 1;
	for (p = t + from; p < end; p = q + 1) {
		q = memchr(p, a, (size_t)(end - p));
		if (a != b && (r = memchr(p, b, q ? (size_t)(q - p) :
		    (size_t)(end - p))) != NULL)
			q = r;
		if (q == NULL)
			return NULL;
		if (ci_equal(q + 1, k + 1, g->keylen - 1))
			return q;
	}
	return NULL;
}

static size_t
run_each(struct litscan *ls, const unsigned char *t, size_t len,
    struct group *g, size_t ngroups, unsigned char *found, size_t remaining)
{
	const unsigned char	*hit;
	const struct lit	*l;
	size_t			 i, id, pos, left;

	for (i = 0; i < ngroups && remaining > 0; i++) {
		for (left = 0, id = g[i].first; id != 0;
		    id = ls->lits[id - 1].next)
			left++;
		for (pos = 0; left > 0 &&
		    (hit = next_hit(t, len, pos, &g[i])) != NULL;
		    pos = (size_t)(hit - t) + 1) {
			for (id = g[i].first; id != 0;
			    id = ls->lits[id - 1].next) {
				l = &ls->lits[id - 1];
				if (found[id - 1] ||
				    l->len > len - (size_t)(hit - t))
					continue;
				if (matches_at(l, hit)) {
					found[id - 1] = 1;
					remaining--;
					left--;
				}
			}
		}
	}
	return remaining;
}

void
litscan_run(struct litscan *ls, const char *text, size_t len,
    unsigned char *found)
{
	enum litscan_strategy	 s = ls->force;
	const unsigned char	*t = (const unsigned char *)text;
	struct group		*g = NULL;
	size_t			 i, remaining = ls->n, cost_each, cost_window;
	size_t			 ngroups;

	for (i = 0; i < ls->n; i++)
		if (found[i])
			remaining--;
	if (remaining == 0)
		return;
	ngroups = make_groups(ls, found, &g);
	if (s == LITSCAN_AUTO) {
		/* Rough nanoseconds: memmem streams, the window costs. */
		cost_each = ngroups * (20 + len / 16);
		cost_window = ls->n * 10 + len * 2 + 20000;
		s = cost_window < cost_each ? LITSCAN_WINDOW : LITSCAN_EACH;
	}
	if (s == LITSCAN_WINDOW) {
		remaining = run_window(ls, t, len, found, remaining);
		/* Shorter literals than the window: each on its own. */
		for (i = 0; i < ls->n && remaining > 0; i++) {
			if (found[i] || ls->lits[i].len >= WINDOW)
				continue;
			if (lit_occurs(text, len, ls->lits[i].s,
			    ls->lits[i].len, ls->lits[i].ci)) {
				found[i] = 1;
				remaining--;
			}
		}
	} else
		run_each(ls, t, len, g, ngroups, found, remaining);
	free(g);
}
