/*
 * The rules of the prefilter index that can fire on an event (see
 * prefilter.h; the layout is described in prefilter.c).  The bytes may
 * come from a file: every offset is bounds-checked, and the directory
 * and each bucket read are checksummed first.
 */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "checksum.h"
#include "litscan.h"
#include "prefilter.h"
#include "prefilter_priv.h"
#include "xmalloc.h"

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
	for (probes = 0; probes < nslots;
	    probes++, h = (h + 1) & (nslots - 1)) {
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
subject_text(struct rr_event *ev, const struct pf_lazy *lazy,
    const struct subject *s)
{
	struct rr_text	t = { NULL, 0 };
	char		*key;

	switch (s->field) {
	case F_READ_PATH:
		if (lazy != NULL)
			lazy->text(lazy->arg, s->field, &t);
		return t;
	case F_PATH:
		/* A shell command's files, from the evaluator. */
		if (lazy != NULL && lazy->text(lazy->arg, s->field, &t))
			return t;
		/* Every name of every file, relative ones as suffixes. */
		return event_path_text(ev);
	case F_INPUT:
		key = xmemdup0(s->key, s->keylen);
		t = event_input(ev, key);
		free(key);
		return t;
	case F_CONTENT: case F_OLD_CONTENT: case F_COMMAND: case F_PROMPT:
	case F_RESPONSE: case F_ERROR: case F_MESSAGE: case F_TOOL:
	case F_EVENT: case F_CWD:
		return ev->f[s->field];
	case F_FILE_BEFORE: case F_FILE_AFTER:
		/* Never indexed (read from disk later): see filter_literals. */
		break;
	}
	return t;
}

/* Drops the entries whose literal clauses cannot all hold. */
static int
filter_literals(struct rr_event *ev, const struct pf_lazy *lazy,
    struct elist *l)
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
				/* The builder never indexes the file fields. */
				if (r.bad || field > F_INPUT || ll == 0 ||
				    (field == F_INPUT) != (kl > 0) ||
				    field == F_FILE_BEFORE ||
				    field == F_FILE_AFTER)
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
		t = subject_text(ev, lazy, &subs[s]);
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
    const struct pf_lazy *lazy, struct pf_candidates *out)
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
	if (filter_literals(ev, lazy, &all) < 0)
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
