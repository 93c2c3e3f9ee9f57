/*
 * The rules of the prefilter index that can fire on an event (see
 * prefilter.h; the layout is described in prefilter.c).  A call reads
 * the directory entry of its event kind and tool, the header of up to
 * three buckets, runs each bucket's prebuilt scanners on the fields they
 * search, and reads the postings of the literals found: nothing per rule
 * of the bucket but the rules that need no literal.
 *
 * The bytes may come from a file: every offset is bounds-checked, and
 * unless the caller knows the bytes intact (a cache file whose identity
 * is as it was written, or an index built in memory), the directory and
 * each bucket read are checksummed first.
 */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "checksum.h"
#include "litscan.h"
#include "prefilter.h"
#include "prefilter_priv.h"
#include "xmalloc.h"

static inline uint32_t
ld32(const unsigned char *p)
{
	uint32_t	v;

	memcpy(&v, p, 4);
	return v;
}

/* A bucket reference at r: checks bounds and, if verify, checksum. */
static int
bucket_at(const unsigned char *pf, size_t len, size_t data_start,
    bool verify, struct rd *r, struct rd *bucket)
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
	    (verify && rr_checksum(pf + off, blen) != sum))
		return -1;
	rd_init(bucket, pf + off, blen);
	return 0;
}

/* Finds the bucket of tool in kind k's slot table. */
static int
tool_bucket(const unsigned char *pf, size_t len, size_t dir_end,
    uint32_t nslots, uint32_t slots_off, const char *tool, bool verify,
    struct rd *bucket)
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
			return bucket_at(pf, len, dir_end, verify, &r, bucket);
	}
	return 0;
}

/* One field (or input.<key>) the literals of the candidates look at. */
struct subject {
	enum rr_field		 field;
	const unsigned char	*key;
	size_t			 keylen;
	struct litscan_text	 text;
	bool			 have_text;
};

/* The subjects of this call, shared by its buckets (texts made once). */
struct subjects {
	struct subject	*v;
	size_t		 n, cap;
};

static struct rr_text
subject_text(struct rr_event *ev, const struct pf_lazy *lazy,
    const struct subject *s)
{
	struct rr_text	t = { NULL, 0 };
	char		*key;

	switch (s->field) {
	case F_READ_PATH:
	case F_PROGRAMS:
	case F_SUBCOMMANDS:
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
	case F_PROMPT: case F_ERROR:
		return event_field(ev, s->field);
	case F_CONTENT: case F_OLD_CONTENT: case F_COMMAND:
	case F_RESPONSE: case F_MESSAGE: case F_TOOL:
	case F_EVENT: case F_CWD: case F_REASON:
		return ev->f[s->field];
	case F_FILE_BEFORE: case F_FILE_AFTER:
		/* Never indexed: read from disk during evaluation. */
		break;
	}
	return t;
}

/* The subject's text, made on first need. */
static struct litscan_text *
subject_get(struct subjects *ss, struct rr_event *ev,
    const struct pf_lazy *lazy, enum rr_field f, const unsigned char *key,
    size_t keylen)
{
	struct subject	*s;
	struct rr_text	 t;
	size_t		 i;

	for (i = 0; i < ss->n; i++)
		if (ss->v[i].field == f && (f != F_INPUT ||
		    (ss->v[i].keylen == keylen &&
		    memcmp(ss->v[i].key, key, keylen) == 0)))
			return &ss->v[i].text;
	if (ss->n == ss->cap) {
		ss->cap = ss->cap ? ss->cap * 2 : 8;
		ss->v = xreallocarray(ss->v, ss->cap, sizeof(*ss->v));
	}
	s = &ss->v[ss->n++];
	memset(s, 0, sizeof(*s));
	s->field = f;
	s->key = key;
	s->keylen = keylen;
	t = subject_text(ev, lazy, s);
	litscan_text_init(&s->text, t.s, t.len);
	return &s->text;
}

static void
subjects_release(struct subjects *ss)
{
	size_t	i;

	for (i = 0; i < ss->n; i++)
		litscan_text_release(&ss->v[i].text);
	free(ss->v);
	memset(ss, 0, sizeof(*ss));
}

static void
push_rule(struct pf_candidates *out, size_t *cap, size_t rule)
{
	if (out->n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		out->rules = xreallocarray(out->rules, *cap,
		    sizeof(*out->rules));
	}
	out->rules[out->n++] = rule;
}

static int
size_cmp(const void *x, const void *y)
{
	size_t	a = *(const size_t *)x, b = *(const size_t *)y;

	return a < b ? -1 : a > b;
}

/* What the scanners of one bucket found, per subject. */
struct found {
	unsigned char	**lits;		/* per subject: per literal id */
	uint32_t	 *nlits;
	size_t		  n;
};

/*
 * Whether the other clauses of a rule (its checks at off) each have a
 * literal found: 1, 0, or -1 when the bytes are bad.
 */
static int
check_clauses(const unsigned char *ck, size_t cklen, uint32_t off,
    const struct found *f)
{
	struct rd	r;
	uint16_t	nc, na, c, j, sub;
	uint32_t	id;
	bool		hit;

	if (off > cklen)
		return -1;
	rd_init(&r, ck + off, cklen - off);
	nc = rd_u16(&r);
	for (c = 0; c < nc; c++) {
		na = rd_u16(&r);
		for (j = 0, hit = false; j < na; j++) {
			sub = rd_u16(&r);
			id = rd_u32(&r);
			if (r.bad || sub >= f->n || id >= f->nlits[sub])
				return -1;
			if (f->lits[sub][id])
				hit = true;
		}
		if (!hit)
			return 0;
	}
	return r.bad ? -1 : 1;
}

/*
 * Adds the rules of one bucket that can fire to out: its rules without
 * clauses, and those whose anchor has a literal found and whose other
 * clauses each have one too.
 */
static int
select_bucket(const struct rd *bk, struct rr_event *ev,
    const struct pf_lazy *lazy, struct subjects *ss,
    struct pf_candidates *out, size_t *cap)
{
	const unsigned char	*b = bk->p, *sp, *key, *pp;
	size_t			 blen = (size_t)(bk->end - bk->p), i, h;
	uint32_t		 nrules, nalways, nsubs, f, keylen, keyoff;
	uint32_t		 soff, slen, index, posts, id, from, to, k;
	uint32_t		 ckoff, check;
	struct litscan_map	 m;
	struct litscan_text	*tx;
	struct litscan_hits	*hits = NULL;
	struct found		 fd = { NULL, NULL, 0 };
	int			 rc = -1, ok;

	if (blen == 0)
		return 0;
	if (blen < PF_BUCKET)
		return -1;
	nrules = ld32(b);
	nalways = ld32(b + 4);
	nsubs = ld32(b + 8);
	ckoff = ld32(b + 12);
	if (nalways > nrules || (uint64_t)nalways * 4 > blen - PF_BUCKET ||
	    (uint64_t)nsubs * PF_SUBJ > blen - PF_BUCKET - nalways * 4 ||
	    ckoff > blen)
		return -1;
	for (i = 0; i < nalways; i++)
		push_rule(out, cap, ld32(b + PF_BUCKET + 4 * i));
	fd.lits = xcalloc(nsubs + 1, sizeof(*fd.lits));
	fd.nlits = xcalloc(nsubs + 1, sizeof(*fd.nlits));
	hits = xcalloc(nsubs + 1, sizeof(*hits));
	/* Every subject's scanner: the anchors, and what the checks read. */
	for (i = 0; i < nsubs; i++, fd.n++) {
		sp = b + PF_BUCKET + 4 * (size_t)nalways + i * PF_SUBJ;
		f = sp[0];
		memcpy(&keylen, sp + 2, 2);
		keylen &= 0xffff;
		keyoff = ld32(sp + 4);
		soff = ld32(sp + 8);
		slen = ld32(sp + 12);
		/* The builder never indexes the file fields. */
		if (f > F_SUBCOMMANDS || f == F_FILE_BEFORE || f == F_FILE_AFTER ||
		    (f == F_INPUT) != (keylen > 0) || keyoff > blen ||
		    keylen > blen - keyoff || soff > blen ||
		    slen > blen - soff ||
		    litscan_map(&m, b + soff, slen) < 0)
			goto out;
		key = b + keyoff;
		tx = subject_get(ss, ev, lazy, (enum rr_field)f, key, keylen);
		fd.nlits[i] = litscan_map_count(&m);
		fd.lits[i] = xcalloc(fd.nlits[i] + 1, 1);
		if (litscan_map_run(&m, tx, LITSCAN_AUTO, fd.lits[i],
		    &hits[i]) < 0)
			goto out;
	}
	/* The postings of the literals found: anchors, then the checks. */
	for (i = 0; i < nsubs; i++) {
		sp = b + PF_BUCKET + 4 * (size_t)nalways + i * PF_SUBJ;
		index = ld32(sp + 16);
		posts = ld32(sp + 20);
		if (index > blen || ((uint64_t)fd.nlits[i] + 1) * 4 >
		    blen - index || posts > blen)
			goto out;
		for (h = 0; h < hits[i].n; h++) {
			id = hits[i].v[h];
			from = ld32(b + index + 4 * (size_t)id);
			to = ld32(b + index + 4 * ((size_t)id + 1));
			if (from > to || (uint64_t)to * PF_POST > blen - posts)
				goto out;
			for (k = from; k < to; k++) {
				pp = b + posts + (size_t)k * PF_POST;
				check = ld32(pp + 4);
				ok = check == 0xffffffffu ? 1 :
				    check_clauses(b + ckoff, blen - ckoff,
				    check, &fd);
				if (ok < 0)
					goto out;
				if (ok)
					push_rule(out, cap, ld32(pp));
			}
		}
	}
	rc = 0;
out:
	for (i = 0; i < nsubs; i++) {
		free(fd.lits[i]);
		free(hits[i].v);
	}
	free(fd.lits);
	free(fd.nlits);
	free(hits);
	return rc;
}

int
pf_select(const unsigned char *pf, size_t len, bool verify,
    struct rr_event *ev, const struct pf_lazy *lazy,
    struct pf_candidates *out)
{
	struct rd	 r, b_any, b_tool, b_glob;
	struct subjects	 ss;
	uint32_t	 magic, version, total, dir_len, nslots, slots_off;
	uint64_t	 dir_sum;
	size_t		 dir_end, cap = 0, i, n;
	int		 rc = -1;

	memset(out, 0, sizeof(*out));
	memset(&ss, 0, sizeof(ss));
	rd_init(&r, pf, len);
	magic = rd_u32(&r);
	version = rd_u32(&r);
	total = rd_u32(&r);
	dir_len = rd_u32(&r);
	dir_sum = rd_u64(&r);
	if (r.bad || magic != PF_MAGIC || version != PF_VERSION ||
	    total != len || dir_len < EV__COUNT * PF_KIND ||
	    dir_len > len - PF_HEADER ||
	    (verify && rr_checksum(pf + PF_HEADER, dir_len) != dir_sum))
		return -1;
	if (ev->kind >= EV__COUNT)
		return 0;
	dir_end = PF_HEADER + (size_t)dir_len;
	rd_init(&r, pf + PF_HEADER + ev->kind * PF_KIND, PF_KIND);
	if (bucket_at(pf, len, dir_end, verify, &r, &b_any) < 0 ||
	    bucket_at(pf, len, dir_end, verify, &r, &b_glob) < 0)
		return -1;
	nslots = rd_u32(&r);
	slots_off = rd_u32(&r);
	rd_init(&b_tool, pf, 0);
	if (ev->tool == NULL)
		rd_init(&b_glob, pf, 0);	/* tool rules need a tool */
	else if (tool_bucket(pf, len, dir_end, nslots, slots_off, ev->tool,
	    verify, &b_tool) < 0)
		return -1;
	if (select_bucket(&b_any, ev, lazy, &ss, out, &cap) < 0 ||
	    select_bucket(&b_tool, ev, lazy, &ss, out, &cap) < 0 ||
	    select_bucket(&b_glob, ev, lazy, &ss, out, &cap) < 0)
		goto out;
	/* In rule order, once each (a rule may be in two buckets). */
	if (out->n > 1)
		qsort(out->rules, out->n, sizeof(*out->rules), size_cmp);
	for (i = 0, n = 0; i < out->n; i++)
		if (n == 0 || out->rules[n - 1] != out->rules[i])
			out->rules[n++] = out->rules[i];
	out->n = n;
	rc = 0;
out:
	subjects_release(&ss);
	if (rc < 0)
		pf_candidates_release(out);
	return rc;
}

void
pf_candidates_release(struct pf_candidates *c)
{
	free(c->rules);
	memset(c, 0, sizeof(*c));
}
