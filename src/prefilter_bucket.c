/*
 * One bucket of the prefilter index, written (its layout is described in
 * prefilter.c): the scanners of the fields its rules' literals are
 * searched in, the postings of each literal under the rules' anchors,
 * and the checks of their other clauses.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "litscan.h"
#include "prefilter.h"
#include "prefilter_priv.h"
#include "xmalloc.h"

/* One subject of a bucket being built: its scanner and postings. */
struct bsubject {
	enum rr_field	 field;
	const char	*key;		/* input.<key>, borrowed */
	struct litscan	*ls;
	struct posting {
		uint32_t	 rule;
		uint32_t	 check;		/* offset in the checks, or none */
	}		**post;		/* per literal id */
	size_t		*npost, *postcap, nlits, litcap;
};

#define CHECK_NONE	0xffffffffu

static size_t
bsubject_of(struct bsubject **subs, size_t *n, size_t *cap,
    const struct pf_atom *a)
{
	size_t	i;

	for (i = 0; i < *n; i++)
		if ((*subs)[i].field == a->field && (a->field != F_INPUT ||
		    strcmp((*subs)[i].key, a->key) == 0))
			return i;
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 4;
		*subs = xreallocarray(*subs, *cap, sizeof(**subs));
	}
	memset(&(*subs)[*n], 0, sizeof(**subs));
	(*subs)[*n].field = a->field;
	(*subs)[*n].key = a->field == F_INPUT ? a->key : NULL;
	(*subs)[*n].ls = litscan_new();
	return (*n)++;
}

/* Makes room for the postings of literal id (ids come in order). */
static void
bsubject_grow(struct bsubject *s, size_t id)
{
	size_t	i;

	if (id < s->nlits)
		return;
	if (id >= s->litcap) {
		s->litcap = s->litcap ? s->litcap * 2 : 16;
		if (s->litcap <= id)
			s->litcap = id + 1;
		s->post = xreallocarray(s->post, s->litcap, sizeof(*s->post));
		s->npost = xreallocarray(s->npost, s->litcap,
		    sizeof(*s->npost));
		s->postcap = xreallocarray(s->postcap, s->litcap,
		    sizeof(*s->postcap));
	}
	for (i = s->nlits; i <= id; i++) {
		s->post[i] = NULL;
		s->npost[i] = s->postcap[i] = 0;
	}
	s->nlits = id + 1;
}

static void
bsubject_post(struct bsubject *s, size_t id, size_t rule, uint32_t check)
{
	bsubject_grow(s, id);
	/* An anchor with one literal twice: one posting. */
	if (s->npost[id] > 0 && s->post[id][s->npost[id] - 1].rule == rule)
		return;
	if (s->npost[id] == s->postcap[id]) {
		s->postcap[id] = s->postcap[id] ? s->postcap[id] * 2 : 2;
		s->post[id] = xreallocarray(s->post[id], s->postcap[id],
		    sizeof(**s->post));
	}
	s->post[id][s->npost[id]].rule = (uint32_t)rule;
	s->post[id][s->npost[id]++].check = check;
}

static void
bsubject_free(struct bsubject *s)
{
	size_t	i;

	litscan_free(s->ls);
	for (i = 0; i < s->nlits; i++)
		free(s->post[i]);
	free(s->post);
	free(s->npost);
	free(s->postcap);
}

/*
 * The clause a rule is found by: the one whose shortest literal is the
 * longest (a clause is as rare as its commonest alternative: '.ts' is in
 * most paths, 'api_key_17' in few), then the one with fewer literals.
 */
static size_t
anchor_of(const struct pf_rule *p, size_t nc)
{
	size_t	c, j, best = 0, best_min = 0, min;

	for (c = 0; c < nc; c++) {
		for (min = SIZE_MAX, j = 0; j < p->c[c].n; j++)
			if (p->c[c].a[j].len < min)
				min = p->c[c].a[j].len;
		if (c == 0 || min > best_min || (min == best_min &&
		    p->c[c].n < p->c[best].n)) {
			best = c;
			best_min = min;
		}
	}
	return best;
}

static void
wr_u16_at(struct buf *b, size_t off, uint16_t v)
{
	memcpy(b->data + off, &v, sizeof(v));
}

static uint32_t
ld_u32(const struct buf *b, size_t off)
{
	uint32_t	v;

	memcpy(&v, b->data + off, sizeof(v));
	return v;
}

static void
pad4(struct buf *b)
{
	while (b->len % 4 != 0)
		buf_addc(b, 0);
}

/*
 * Writes the bucket of rules (ascending, with their clauses pr) into bk,
 * 4-byte aligned; fills its reference (offset in bk, length).  Each rule
 * with clauses is posted under the literals of its anchor clause; its
 * other clauses go to the checks, as (subject, literal id) alternatives.
 */
void
pf_emit_bucket(struct buf *bk, const size_t *rules, size_t n,
    const struct pf_rule *pr, uint32_t ref[2])
{
	struct bsubject		*subs = NULL, *s;
	const struct pf_rule	*p;
	struct buf		 checks;
	size_t			 nsubs = 0, subcap = 0, i, c, j, id, nc, k;
	size_t			 start, nalways = 0, sub_tab, off, total, anc;
	uint32_t		 check;

	if (n == 0) {
		ref[0] = ref[1] = 0;
		return;
	}
	buf_init(&checks);
	pad4(bk);
	start = bk->len;
	for (i = 0; i < n; i++) {
		p = &pr[rules[i]];
		nc = p->n > PF_MAX_CLAUSES ? PF_MAX_CLAUSES : p->n;
		if (nc == 0) {
			nalways++;
			continue;
		}
		anc = anchor_of(p, nc);
		check = CHECK_NONE;
		if (nc > 1) {
			check = (uint32_t)checks.len;
			wr_u16(&checks, (uint16_t)(nc - 1));
		}
		for (c = 0; c < nc; c++) {
			if (c != anc)
				wr_u16(&checks, (uint16_t)p->c[c].n);
			for (j = 0; j < p->c[c].n; j++) {
				k = bsubject_of(&subs, &nsubs, &subcap,
				    &p->c[c].a[j]);
				id = litscan_add(subs[k].ls, p->c[c].a[j].lit,
				    p->c[c].a[j].len, p->c[c].a[j].ci);
				if (c == anc)
					bsubject_post(&subs[k], id, rules[i],
					    check);
				else {
					bsubject_grow(&subs[k], id);
					wr_u16(&checks, (uint16_t)k);
					wr_u32(&checks, (uint32_t)id);
				}
			}
		}
	}
	wr_u32(bk, (uint32_t)n);
	wr_u32(bk, (uint32_t)nalways);
	wr_u32(bk, (uint32_t)nsubs);
	wr_u32(bk, 0);			/* the checks' offset, below */
	for (i = 0; i < n; i++)
		if (pr[rules[i]].n == 0)
			wr_u32(bk, (uint32_t)rules[i]);
	sub_tab = bk->len;
	for (i = 0; i < nsubs * PF_SUBJ; i++)
		wr_u8(bk, 0);
	for (k = 0; k < nsubs; k++) {
		s = &subs[k];
		off = sub_tab + k * PF_SUBJ;
		bk->data[off] = (char)s->field;
		if (s->key != NULL) {
			wr_u16_at(bk, off + 2, (uint16_t)strlen(s->key));
			wr_u32_at(bk, off + 4, (uint32_t)(bk->len - start));
			buf_adds(bk, s->key);
			pad4(bk);
		}
		wr_u32_at(bk, off + 8, (uint32_t)(bk->len - start));
		litscan_encode(s->ls, bk);
		wr_u32_at(bk, off + 12, (uint32_t)(bk->len - start -
		    (size_t)ld_u32(bk, off + 8)));
		wr_u32_at(bk, off + 16, (uint32_t)(bk->len - start));
		for (id = 0, total = 0; id <= litscan_count(s->ls); id++) {
			wr_u32(bk, (uint32_t)total);
			if (id < litscan_count(s->ls) && id < s->nlits)
				total += s->npost[id];
		}
		wr_u32_at(bk, off + 20, (uint32_t)(bk->len - start));
		for (id = 0; id < s->nlits; id++)
			for (j = 0; j < s->npost[id]; j++) {
				wr_u32(bk, s->post[id][j].rule);
				wr_u32(bk, s->post[id][j].check);
			}
		bsubject_free(s);
	}
	wr_u32_at(bk, start + 12, (uint32_t)(bk->len - start));
	buf_add(bk, checks.data, checks.len);
	pad4(bk);
	buf_release(&checks);
	free(subs);
	ref[0] = (uint32_t)start;
	ref[1] = (uint32_t)(bk->len - start);
}
