/*
 * The prefilter index (see prefilter.h).  Layout, native-endian:
 *
 *   header   u32 magic, version, total length, directory length;
 *            u64 directory checksum; 8 bytes reserved
 *   dir      per event kind: bucket `any`, bucket `glob` (16 bytes each:
 *            u32 offset, u32 length, u64 checksum), u32 number of tool
 *            slots (a power of two, or 0), u32 offset of the slots;
 *            then the slots (u32 name offset, u32 name length + 1 or 0
 *            for an empty slot, bucket);
 *            then the tool names
 *   buckets  u32 count, then entries in ascending rule order:
 *            u32 rule, u16 clauses; per clause u16 atoms; per atom
 *            u8 field, u8 ci, u16 key length, u16 literal length, key
 *            (input.<key> only), literal
 */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "checksum.h"
#include "litscan.h"
#include "prefilter.h"
#include "relit.h"
#include "xmalloc.h"

#define PF_MAGIC	0x31584650u	/* "PFX1" */
#define PF_VERSION	1
#define PF_HEADER	32
#define PF_BREF		16
#define PF_KIND		(2 * PF_BREF + 8)
#define PF_SLOT		(8 + PF_BREF)
#define PF_MAX_CLAUSES	4
#define PF_MAX_ATOMS	32
#define PF_MAX_LIT	32
#define PF_MAX_DEPTH	64

/* ---- clauses of a rule -------------------------------------------------- */

struct pf_atom {
	enum rr_field	 field;
	const char	*key;		/* input.<key>, borrowed */
	char		*lit;		/* owned */
	size_t		 len;
	bool		 ci;
};

struct pf_clause {
	struct pf_atom	*a;
	size_t		 n, cap;
};

struct pf_rule {
	struct pf_clause *c;
	size_t		 n, cap;
};

static void
clause_free(struct pf_clause *cl)
{
	size_t	i;

	for (i = 0; i < cl->n; i++)
		free(cl->a[i].lit);
	free(cl->a);
	memset(cl, 0, sizeof(*cl));
}

static void
pfrule_free(struct pf_rule *pr)
{
	size_t	i;

	for (i = 0; i < pr->n; i++)
		clause_free(&pr->c[i]);
	free(pr->c);
	memset(pr, 0, sizeof(*pr));
}

static void
clause_add(struct pf_clause *cl, const struct cond *c, const char *lit,
    size_t len, bool ci)
{
	struct pf_atom	*a;

	if (cl->n == cl->cap) {
		cl->cap = cl->cap ? cl->cap * 2 : 4;
		cl->a = xreallocarray(cl->a, cl->cap, sizeof(*cl->a));
	}
	a = &cl->a[cl->n++];
	a->field = c->field;
	a->key = c->field == F_INPUT ? c->input_key : NULL;
	/* A prefix of a required literal is required too. */
	a->len = len > PF_MAX_LIT ? PF_MAX_LIT : len;
	a->lit = xmemdup0(lit, a->len);
	a->ci = ci;
}

static void
pfrule_push(struct pf_rule *pr, struct pf_clause *cl)
{
	if (pr->n == pr->cap) {
		pr->cap = pr->cap ? pr->cap * 2 : 4;
		pr->c = xreallocarray(pr->c, pr->cap, sizeof(*pr->c));
	}
	pr->c[pr->n++] = *cl;
	memset(cl, 0, sizeof(*cl));
}

/* The clause of a text condition: one atom per literal alternative. */
static int
text_clause(const struct cond *c, struct pf_clause *cl)
{
	const struct matcher	*m = &c->m;
	const struct pattern	*p;
	struct relit		 r;
	size_t			 i, j;

	if (c->field == F_INPUT && strlen(c->input_key) > 0xffff)
		return -1;
	for (i = 0; i < m->npats; i++) {
		p = &m->pats[i];
		switch (m->kind) {
		case M_REGEX:
			if (relit_regex(p->src, p->len, m->ignore_case, &r) < 0)
				return -1;
			break;
		case M_GLOB:
			if (relit_glob(p->src, p->len, &r) < 0)
				return -1;
			break;
		case M_KEYWORDS:
		case M_CONTAINS:
		case M_EQUALS:
			/* An empty keyword is found in any text. */
			if (p->len == 0)
				return -1;
			clause_add(cl, c, p->src, p->len, m->ignore_case);
			continue;
		}
		for (j = 0; j < r.n; j++)
			clause_add(cl, c, r.alts[j].s, r.alts[j].len,
			    r.alts[j].ci);
		relit_release(&r);
	}
	return cl->n > 0 && cl->n <= PF_MAX_ATOMS ? 0 : -1;
}

/* Appends to pr clauses that must hold for c to hold. */
static void
cond_clauses(const struct cond *c, struct pf_rule *pr, int depth)
{
	struct pf_clause	 cl, u;
	struct pf_rule		 kid;
	size_t			 i, j;

	if (depth > PF_MAX_DEPTH)
		return;
	memset(&cl, 0, sizeof(cl));
	switch (c->kind) {
	case C_TEXT:
		if (text_clause(c, &cl) == 0)
			pfrule_push(pr, &cl);
		else
			clause_free(&cl);
		return;
	case C_ALL:
		for (i = 0; i < c->nkids; i++)
			cond_clauses(c->kids[i], pr, depth + 1);
		return;
	case C_ANY:
		if (c->nkids == 1) {
			cond_clauses(c->kids[0], pr, depth + 1);
			return;
		}
		/* One of the kids holds: the union of a clause of each. */
		memset(&u, 0, sizeof(u));
		for (i = 0; i < c->nkids; i++) {
			memset(&kid, 0, sizeof(kid));
			cond_clauses(c->kids[i], &kid, depth + 1);
			if (kid.n == 0 || u.n + kid.c[0].n > PF_MAX_ATOMS) {
				pfrule_free(&kid);
				clause_free(&u);
				return;
			}
			for (j = 0; j < kid.c[0].n; j++) {
				if (u.n == u.cap) {
					u.cap = u.cap ? u.cap * 2 : 4;
					u.a = xreallocarray(u.a, u.cap,
					    sizeof(*u.a));
				}
				u.a[u.n++] = kid.c[0].a[j];
			}
			kid.c[0].n = 0;
			pfrule_free(&kid);
		}
		pfrule_push(pr, &u);
		return;
	case C_NOT:
	case C_ENV:
	case C_FILE_CONTAINS:
		return;
	}
}

static void
encode_entry(struct buf *b, size_t rule, const struct pf_rule *pr)
{
	const struct pf_atom	*a;
	size_t			 i, j, n = pr->n > PF_MAX_CLAUSES ?
	    PF_MAX_CLAUSES : pr->n, keylen;

	wr_u32(b, (uint32_t)rule);
	wr_u16(b, (uint16_t)n);
	for (i = 0; i < n; i++) {
		wr_u16(b, (uint16_t)pr->c[i].n);
		for (j = 0; j < pr->c[i].n; j++) {
			a = &pr->c[i].a[j];
			keylen = a->key ? strlen(a->key) : 0;
			wr_u8(b, (uint8_t)a->field);
			wr_u8(b, a->ci);
			wr_u16(b, (uint16_t)keylen);
			wr_u16(b, (uint16_t)a->len);
			buf_add(b, a->key, keylen);
			buf_add(b, a->lit, a->len);
		}
	}
}

/* ---- building the index ------------------------------------------------- */

struct tool_ref {
	int		 kind;
	const char	*name;
	size_t		 rule;
};

struct rlist {
	size_t	*v;
	size_t	 n, cap;
};

static void
rlist_add(struct rlist *l, size_t rule)
{
	if (l->n > 0 && l->v[l->n - 1] == rule)
		return;
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->v = xreallocarray(l->v, l->cap, sizeof(*l->v));
	}
	l->v[l->n++] = rule;
}

static int
tool_ref_cmp(const void *x, const void *y)
{
	const struct tool_ref	*a = x, *b = y;
	int			 c;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if ((c = strcmp(a->name, b->name)) != 0)
		return c;
	return a->rule < b->rule ? -1 : a->rule > b->rule;
}

/* Writes a bucket of rules into bk; fills its reference. */
static void
emit_bucket(struct buf *bk, const size_t *rules, size_t n,
    struct buf *entries, uint32_t ref[2])
{
	size_t	i, start = bk->len;

	if (n == 0) {
		ref[0] = ref[1] = 0;
		return;
	}
	wr_u32(bk, (uint32_t)n);
	for (i = 0; i < n; i++)
		buf_add(bk, entries[rules[i]].data, entries[rules[i]].len);
	ref[0] = (uint32_t)start;
	ref[1] = (uint32_t)(bk->len - start);
}

static void
write_bref(struct buf *out, const struct buf *bk, size_t base,
    const uint32_t ref[2])
{
	wr_u32(out, ref[1] ? (uint32_t)(base + ref[0]) : 0);
	wr_u32(out, ref[1]);
	wr_u64(out, ref[1] ? rr_checksum(bk->data + ref[0], ref[1]) : 0);
}

void
pf_build(const struct ruleset *rs, struct buf *out)
{
	struct buf		*entries, bk, names;
	struct rlist		 any[EV__COUNT], glob[EV__COUNT];
	struct tool_ref		*refs = NULL;
	struct pf_rule		 pr;
	const struct rule	*r;
	size_t			 nrefs = 0, refcap = 0, i, j, t, k, start;
	size_t			 ntools[EV__COUNT], nslots[EV__COUNT];
	size_t			 slots_off[EV__COUNT], dir_len, base, h, head;
	uint32_t		 any_ref[EV__COUNT][2], glob_ref[EV__COUNT][2];
	uint32_t		(*tool_refs)[2], (*slot_tab)[4];
	const char		*name;

	memset(any, 0, sizeof(any));
	memset(glob, 0, sizeof(glob));
	entries = xcalloc(rs->n ? rs->n : 1, sizeof(*entries));
	for (i = 0; i < rs->n; i++) {
		r = rs->rules[i];
		buf_init(&entries[i]);
		if (r == NULL || !r->enabled)
			continue;
		memset(&pr, 0, sizeof(pr));
		if (r->when != NULL)
			cond_clauses(r->when, &pr, 0);
		encode_entry(&entries[i], i, &pr);
		pfrule_free(&pr);
		for (k = 0; k < EV__COUNT; k++) {
			if (!(r->events & (1u << k)))
				continue;
			if (r->ntools == 0)
				rlist_add(&any[k], i);
			for (t = 0; t < r->ntools; t++) {
				if (r->tool_globs[t] != NULL) {
					rlist_add(&glob[k], i);
					continue;
				}
				/* Claude Code 2.1.63 renamed Task to Agent. */
				for (j = 0; j < 2; j++) {
					name = r->tools[t];
					if (j == 1 && strcmp(name, "Task") == 0)
						name = "Agent";
					else if (j == 1 &&
					    strcmp(name, "Agent") == 0)
						name = "Task";
					else if (j == 1)
						break;
					if (nrefs == refcap) {
						refcap = refcap ? refcap * 2 : 64;
						refs = xreallocarray(refs, refcap,
						    sizeof(*refs));
					}
					refs[nrefs].kind = (int)k;
					refs[nrefs].name = name;
					refs[nrefs++].rule = i;
				}
			}
		}
	}
	if (nrefs > 1)
		qsort(refs, nrefs, sizeof(*refs), tool_ref_cmp);

	/* Buckets, positions relative to their own buffer for now. */
	buf_init(&bk);
	buf_init(&names);
	tool_refs = xcalloc(nrefs ? nrefs : 1, sizeof(*tool_refs));
	memset(ntools, 0, sizeof(ntools));
	for (k = 0; k < EV__COUNT; k++) {
		emit_bucket(&bk, any[k].v, any[k].n, entries, any_ref[k]);
		emit_bucket(&bk, glob[k].v, glob[k].n, entries, glob_ref[k]);
	}
	for (i = 0; i < nrefs; i = j) {
		struct rlist l;
		memset(&l, 0, sizeof(l));
		for (j = i; j < nrefs && refs[j].kind == refs[i].kind &&
		    strcmp(refs[j].name, refs[i].name) == 0; j++)
			rlist_add(&l, refs[j].rule);
		emit_bucket(&bk, l.v, l.n, entries, tool_refs[i]);
		ntools[refs[i].kind]++;
		free(l.v);
	}

	/* The directory: kinds, then slot tables, then names. */
	dir_len = EV__COUNT * PF_KIND;
	for (k = 0; k < EV__COUNT; k++) {
		nslots[k] = 0;
		if (ntools[k] > 0)
			for (nslots[k] = 4; nslots[k] < 2 * ntools[k];)
				nslots[k] *= 2;
		slots_off[k] = PF_HEADER + dir_len;
		dir_len += nslots[k] * PF_SLOT;
	}
	for (i = 0; i < nrefs; i++)
		if (i == 0 || refs[i].kind != refs[i - 1].kind ||
		    strcmp(refs[i].name, refs[i - 1].name) != 0)
			dir_len += strlen(refs[i].name);
	base = PF_HEADER + dir_len;

	start = out->len;
	wr_u32(out, PF_MAGIC);
	wr_u32(out, PF_VERSION);
	wr_u32(out, (uint32_t)(base + bk.len));
	wr_u32(out, (uint32_t)dir_len);
	wr_u64(out, 0);
	wr_u64(out, 0);
	for (k = 0; k < EV__COUNT; k++) {
		write_bref(out, &bk, base, any_ref[k]);
		write_bref(out, &bk, base, glob_ref[k]);
		wr_u32(out, (uint32_t)nslots[k]);
		wr_u32(out, (uint32_t)slots_off[k]);
	}
	/* Slot tables: name offset, name length, bucket (open addressing). */
	head = PF_HEADER + dir_len;
	for (i = 0; i < nrefs; i++)
		if (i == 0 || refs[i].kind != refs[i - 1].kind ||
		    strcmp(refs[i].name, refs[i - 1].name) != 0)
			head -= strlen(refs[i].name);
	for (k = 0; k < EV__COUNT; k++) {
		slot_tab = xcalloc(nslots[k] ? nslots[k] : 1,
		    sizeof(*slot_tab));
		for (i = 0; i < nrefs; i++) {
			if (refs[i].kind != (int)k || (i > 0 &&
			    refs[i - 1].kind == refs[i].kind &&
			    strcmp(refs[i].name, refs[i - 1].name) == 0))
				continue;
			t = strlen(refs[i].name);
			h = rr_checksum(refs[i].name, t) & (nslots[k] - 1);
			while (slot_tab[h][1] != 0)
				h = (h + 1) & (nslots[k] - 1);
			/* Length + 1, so that an empty slot is 0. */
			slot_tab[h][0] = (uint32_t)(head + names.len);
			slot_tab[h][1] = (uint32_t)t + 1;
			slot_tab[h][2] = tool_refs[i][0];
			slot_tab[h][3] = tool_refs[i][1];
			buf_add(&names, refs[i].name, t);
		}
		for (h = 0; h < nslots[k]; h++) {
			wr_u32(out, slot_tab[h][0]);
			wr_u32(out, slot_tab[h][1]);
			write_bref(out, &bk, base, &slot_tab[h][2]);
		}
		free(slot_tab);
	}
	buf_add(out, names.data, names.len);
	wr_u64_at(out, start + 16, rr_checksum(out->data + start + PF_HEADER,
	    dir_len));
	buf_add(out, bk.data, bk.len);

	for (k = 0; k < EV__COUNT; k++) {
		free(any[k].v);
		free(glob[k].v);
	}
	for (i = 0; i < rs->n; i++)
		buf_release(&entries[i]);
	free(entries);
	free(refs);
	free(tool_refs);
	buf_release(&bk);
	buf_release(&names);
}

void
ruleset_index(struct ruleset *rs)
{
	struct buf	b;

	if (rs->pf_owned)
		free((void *)rs->pf);
	buf_init(&b);
	pf_build(rs, &b);
	rs->pf = (const unsigned char *)buf_detach(&b, &rs->pflen);
	rs->pf_owned = true;
}

/* ---- selecting candidates ------------------------------------------------ */

struct entry {
	size_t			 rule;
	const unsigned char	*clauses;	/* after the rule number */
	size_t			 len;
	bool			 pass;
};

struct elist {
	struct entry	*v;
	size_t		 n, cap;
};

/* A bucket reference at r: checks bounds and checksum. */
static int
bucket_at(const unsigned char *pf, size_t len, size_t data_start,
    struct rd *r, struct rd *bucket)
{
	uint32_t	off = rd_u32(r), blen = rd_u32(r);
	uint64_t	sum = rd_u64(r);

	if (r->bad)
		return -1;
	if (blen == 0) {
		rd_init(bucket, pf, 0);
		return 0;
	}
	if (off < data_start || off > len || blen > len - off ||
	    rr_checksum(pf + off, blen) != sum)
		return -1;
	rd_init(bucket, pf + off, blen);
	return 0;
}

/* Skips one entry's clauses; false if malformed. */
static bool
skip_clauses(struct rd *r)
{
	uint16_t	nc = rd_u16(r), na, i, j;

	for (i = 0; i < nc && !r->bad; i++) {
		na = rd_u16(r);
		for (j = 0; j < na && !r->bad; j++) {
			rd_u8(r);
			rd_u8(r);
			uint16_t kl = rd_u16(r), ll = rd_u16(r);
			rd_bytes(r, (size_t)kl + ll);
		}
	}
	return !r->bad;
}

static int
read_bucket(struct rd *b, size_t nrules_max, struct elist *out)
{
	uint32_t	 count, i;
	struct entry	*e;
	const unsigned char *start;

	if (b->p == b->end)
		return 0;
	count = rd_u32(b);
	if (b->bad || count > (size_t)(b->end - b->p) / 6 ||
	    count > nrules_max)
		return -1;
	out->v = xreallocarray(NULL, count ? count : 1, sizeof(*out->v));
	out->cap = count;
	for (i = 0; i < count; i++) {
		e = &out->v[out->n];
		e->rule = rd_u32(b);
		start = b->p;
		if (!skip_clauses(b) || (out->n > 0 &&
		    e->rule <= out->v[out->n - 1].rule))
			return -1;
		e->clauses = start;
		e->len = (size_t)(b->p - start);
		e->pass = true;
		out->n++;
	}
	return b->p == b->end ? 0 : -1;
}

/* Finds the bucket of tool in kind k's slot table. */
static int
tool_bucket(const unsigned char *pf, size_t len, size_t dir_end,
    uint32_t nslots, uint32_t slots_off, const char *tool, struct rd *bucket)
{
	struct rd	 r;
	size_t		 tl = strlen(tool), h, probes;
	uint32_t	 noff, nlen;

	rd_init(bucket, pf, 0);
	if (nslots == 0)
		return 0;
	if ((nslots & (nslots - 1)) != 0 || slots_off < PF_HEADER ||
	    slots_off > dir_end || nslots > (dir_end - slots_off) / PF_SLOT)
		return -1;
	h = rr_checksum(tool, tl) & (nslots - 1);
	for (probes = 0; probes < nslots; probes++, h = (h + 1) & (nslots - 1)) {
		rd_init(&r, pf + slots_off + h * PF_SLOT, PF_SLOT);
		noff = rd_u32(&r);
		nlen = rd_u32(&r);
		if (nlen-- == 0)
			return 0;
		if (noff < PF_HEADER || noff > dir_end || nlen > dir_end - noff)
			return -1;
		if (nlen == tl && memcmp(pf + noff, tool, tl) == 0)
			return bucket_at(pf, len, dir_end, &r, bucket);
	}
	return 0;
}

/* Merges ascending lists a and b into out (dropping duplicates). */
static void
merge(struct elist *a, struct elist *b, struct elist *out)
{
	size_t	i = 0, j = 0;

	out->n = 0;
	out->cap = a->n + b->n;
	out->v = xreallocarray(NULL, out->cap ? out->cap : 1,
	    sizeof(*out->v));
	while (i < a->n || j < b->n) {
		if (j >= b->n || (i < a->n && a->v[i].rule < b->v[j].rule))
			out->v[out->n++] = a->v[i++];
		else if (i >= a->n || b->v[j].rule < a->v[i].rule)
			out->v[out->n++] = b->v[j++];
		else {
			out->v[out->n++] = a->v[i++];
			j++;
		}
	}
	free(a->v);
	free(b->v);
	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
}

/* One field (or input.<key>) the literals of the candidates look at. */
struct subject {
	enum rr_field		 field;
	const unsigned char	*key;
	size_t			 keylen;
	struct litscan		*ls;
	unsigned char		*found;
};

struct atom_ref {
	size_t	subject, id;
};

static size_t
subject_of(struct subject **subs, size_t *nsubs, size_t *cap,
    enum rr_field f, const unsigned char *key, size_t keylen)
{
	size_t	i;

	for (i = 0; i < *nsubs; i++)
		if ((*subs)[i].field == f && (f != F_INPUT ||
		    ((*subs)[i].keylen == keylen &&
		    memcmp((*subs)[i].key, key, keylen) == 0)))
			return i;
	if (*nsubs == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		*subs = xreallocarray(*subs, *cap, sizeof(**subs));
	}
	(*subs)[*nsubs].field = f;
	(*subs)[*nsubs].key = key;
	(*subs)[*nsubs].keylen = keylen;
	(*subs)[*nsubs].ls = litscan_new();
	(*subs)[*nsubs].found = NULL;
	return (*nsubs)++;
}

static struct rr_text
subject_text(struct rr_event *ev, const struct subject *s)
{
	struct rr_text	t = { NULL, 0 };
	char		*key;

	switch (s->field) {
	case F_PATH:
		/* The relative path is a suffix of the absolute one. */
		if (ev->abs_path != NULL) {
			t.s = ev->abs_path;
			t.len = strlen(t.s);
		}
		return t;
	case F_INPUT:
		key = xmemdup0(s->key, s->keylen);
		t = event_input(ev, key);
		free(key);
		return t;
	case F_CONTENT: case F_OLD_CONTENT: case F_COMMAND: case F_PROMPT:
	case F_RESPONSE: case F_ERROR: case F_MESSAGE: case F_TOOL:
	case F_EVENT: case F_CWD:
		return ev->f[s->field];
	}
	return t;
}

/* Drops the entries whose literal clauses cannot all hold. */
static int
filter_literals(struct rr_event *ev, struct elist *l)
{
	struct subject		*subs = NULL;
	struct atom_ref		*atoms = NULL;
	struct rr_text		 t;
	struct rd		 r;
	size_t			 nsubs = 0, subcap = 0, natoms = 0, atomcap = 0;
	size_t			 i, s, a;
	uint16_t		 nc, na, c, j, kl, ll;
	uint8_t			 field, ci;
	const unsigned char	*key, *lit;
	bool			 hit;

	/* Pass 1: every literal into its subject's scanner. */
	for (i = 0; i < l->n; i++) {
		rd_init(&r, l->v[i].clauses, l->v[i].len);
		nc = rd_u16(&r);
		for (c = 0; c < nc; c++) {
			na = rd_u16(&r);
			for (j = 0; j < na; j++) {
				field = rd_u8(&r);
				ci = rd_u8(&r);
				kl = rd_u16(&r);
				ll = rd_u16(&r);
				key = rd_bytes(&r, kl);
				lit = rd_bytes(&r, ll);
				if (r.bad || field > F_INPUT || ll == 0 ||
				    (field == F_INPUT) != (kl > 0))
					goto bad;
				s = subject_of(&subs, &nsubs, &subcap,
				    (enum rr_field)field, key, kl);
				if (natoms == atomcap) {
					atomcap = atomcap ? atomcap * 2 : 64;
					atoms = xreallocarray(atoms, atomcap,
					    sizeof(*atoms));
				}
				atoms[natoms].subject = s;
				atoms[natoms++].id = litscan_add(subs[s].ls,
				    (const char *)lit, ll, ci != 0);
			}
		}
	}
	/* Pass 2: one scan per subject. */
	for (s = 0; s < nsubs; s++) {
		subs[s].found = xcalloc(litscan_count(subs[s].ls) + 1, 1);
		t = subject_text(ev, &subs[s]);
		if (t.s != NULL)
			litscan_run(subs[s].ls, t.s, t.len, subs[s].found);
	}
	/* Pass 3: every clause needs one of its literals. */
	for (i = 0, a = 0; i < l->n; i++) {
		rd_init(&r, l->v[i].clauses, l->v[i].len);
		nc = rd_u16(&r);
		for (c = 0; c < nc; c++) {
			na = rd_u16(&r);
			for (j = 0, hit = false; j < na; j++, a++) {
				rd_u8(&r);
				rd_u8(&r);
				kl = rd_u16(&r);
				ll = rd_u16(&r);
				rd_bytes(&r, (size_t)kl + ll);
				if (subs[atoms[a].subject].found[atoms[a].id])
					hit = true;
			}
			if (!hit)
				l->v[i].pass = false;
		}
	}
	for (s = 0; s < nsubs; s++) {
		litscan_free(subs[s].ls);
		free(subs[s].found);
	}
	free(subs);
	free(atoms);
	return 0;
bad:
	for (s = 0; s < nsubs; s++)
		litscan_free(subs[s].ls);
	free(subs);
	free(atoms);
	return -1;
}

int
pf_select(const unsigned char *pf, size_t len, struct rr_event *ev,
    struct pf_candidates *out)
{
	struct rd	 r, b_any, b_tool, b_glob;
	struct elist	 l_any, l_tool, l_glob, tmp, all;
	uint32_t	 magic, version, total, dir_len, nslots, slots_off;
	uint64_t	 dir_sum;
	size_t		 dir_end, i;
	int		 rc = -1;

	memset(out, 0, sizeof(*out));
	memset(&l_any, 0, sizeof(l_any));
	memset(&l_tool, 0, sizeof(l_tool));
	memset(&l_glob, 0, sizeof(l_glob));
	memset(&tmp, 0, sizeof(tmp));
	memset(&all, 0, sizeof(all));
	rd_init(&r, pf, len);
	magic = rd_u32(&r);
	version = rd_u32(&r);
	total = rd_u32(&r);
	dir_len = rd_u32(&r);
	dir_sum = rd_u64(&r);
	if (r.bad || magic != PF_MAGIC || version != PF_VERSION ||
	    total != len || dir_len < EV__COUNT * PF_KIND ||
	    dir_len > len - PF_HEADER ||
	    rr_checksum(pf + PF_HEADER, dir_len) != dir_sum)
		return -1;
	if (ev->kind >= EV__COUNT)
		return 0;
	dir_end = PF_HEADER + (size_t)dir_len;
	rd_init(&r, pf + PF_HEADER + ev->kind * PF_KIND, PF_KIND);
	if (bucket_at(pf, len, dir_end, &r, &b_any) < 0 ||
	    bucket_at(pf, len, dir_end, &r, &b_glob) < 0)
		return -1;
	nslots = rd_u32(&r);
	slots_off = rd_u32(&r);
	rd_init(&b_tool, pf, 0);
	if (ev->tool == NULL)
		rd_init(&b_glob, pf, 0);	/* tool rules need a tool */
	else if (tool_bucket(pf, len, dir_end, nslots, slots_off, ev->tool,
	    &b_tool) < 0)
		return -1;
	/* Rule numbers are bounded by the bytes an entry takes. */
	if (read_bucket(&b_any, len, &l_any) < 0 ||
	    read_bucket(&b_tool, len, &l_tool) < 0 ||
	    read_bucket(&b_glob, len, &l_glob) < 0)
		goto out;
	merge(&l_any, &l_tool, &tmp);
	merge(&tmp, &l_glob, &all);
	if (filter_literals(ev, &all) < 0)
		goto out;
	out->rules = xcalloc(all.n ? all.n : 1, sizeof(*out->rules));
	for (i = 0; i < all.n; i++)
		if (all.v[i].pass)
			out->rules[out->n++] = all.v[i].rule;
	rc = 0;
out:
	free(l_any.v);
	free(l_tool.v);
	free(l_glob.v);
	free(tmp.v);
	free(all.v);
	return rc;
}

void
pf_candidates_release(struct pf_candidates *c)
{
	free(c->rules);
	memset(c, 0, sizeof(*c));
}
