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
 *   buckets  4-byte aligned, offsets from the bucket's start:
 *            u32 rules, u32 rules without literal clauses (`always`),
 *            u32 subjects, u32 offset of the checks; the `always` rule
 *            numbers, ascending; per subject (the field, or
 *            input.<key>, that literals are searched in) 24 bytes: u8
 *            field, u8 0, u16 key length, u32 key offset, u32 scanner
 *            offset, u32 scanner length, u32 postings index offset, u32
 *            postings offset; then each subject's key, its literal
 *            scanner (litscan.h's encoding), its postings index (u32 per
 *            literal + 1: where the literal's postings start) and its
 *            postings (u32 rule, u32 offset of the rule's other clauses
 *            in the checks, or 0xffffffff); then the checks: per rule
 *            u16 clauses, per clause u16 literals, per literal u16
 *            subject and u32 literal id
 *
 * A rule can fire only if every one of its clauses has a literal found.
 * It is posted under the literals of one clause, its anchor (the rarest
 * by the length of its shortest literal); a call runs the scanners of
 * its buckets, reads the postings of the literals found, and checks the
 * other clauses of the rules they name against what the scanners found.
 * So it reads nothing per rule of the bucket but the rules that need no
 * literal, and the rules whose anchor is found.
 */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "casefold.h"
#include "checksum.h"
#include "litscan.h"
#include "prefilter.h"
#include "prefilter_priv.h"
#include "relit.h"
#include "xmalloc.h"

#define PF_MAX_ATOMS	128
#define PF_MAX_LIT	32
#define PF_MAX_DEPTH	64

/* ---- clauses of a rule -------------------------------------------------- */

static void
clause_free(struct pf_clause *cl)
{
	size_t	i;

	for (i = 0; i < cl->n; i++)
		free(cl->a[i].lit);
	free(cl->a);
	memset(cl, 0, sizeof(*cl));
}

void
pf_rule_free(struct pf_rule *pr)
{
	size_t	i;

	for (i = 0; i < pr->n; i++)
		clause_free(&pr->c[i]);
	free(pr->c);
	memset(pr, 0, sizeof(*pr));
}

static void
clause_add(struct pf_clause *cl, const struct cond *c, enum rr_field field,
    const char *lit, size_t len, bool ci)
{
	struct pf_atom	*a;

	if (cl->n == cl->cap) {
		cl->cap = cl->cap ? cl->cap * 2 : 4;
		cl->a = xreallocarray(cl->a, cl->cap, sizeof(*cl->a));
	}
	a = &cl->a[cl->n++];
	a->field = field;
	a->key = field == F_INPUT ? c->input_key : NULL;
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

/*
 * Whether an atom of a path rule must be found ignoring case.  A path
 * may be compared ignoring case (the file system folds it, which only
 * the hook can tell); then the path's text holds its folding too
 * (event_path_text()), where an atom that folds to itself is found as
 * it is.  Only the others ('Makefile') are searched ignoring case, which
 * costs a folding per atom at every call.
 */
static bool
path_atom_ci(const char *s, size_t len)
{
	struct buf	f;
	bool		same;

	buf_init(&f);
	rr_fold(s, len, &f);
	same = f.len == len && memcmp(f.data, s, len) == 0;
	buf_release(&f);
	return !same;
}

/*
 * The clause of a text condition on field (its own, or F_PROGRAMS for a
 * shell map's program): one atom per literal alternative.
 */
static int
text_clause(const struct cond *c, enum rr_field field, struct pf_clause *cl)
{
	const struct matcher	*m = &c->m;
	const struct pattern	*p;
	struct relit		 r;
	size_t			 i, j;
	bool			 path;

	if (field == F_INPUT && strlen(c->input_key) > 0xffff)
		return -1;
	/*
	 * A required pattern holds when it is missing, and JSON checks and
	 * the file fields (read from disk during evaluation, not in the
	 * event) give no literal the event must contain.
	 */
	if (m->required || m->kind == M_JSON || field == F_FILE_BEFORE ||
	    field == F_FILE_AFTER)
		return -1;
	/*
	 * A glob or literal on path or read_path ignores case where the
	 * file system folds it (eval_match.c's ignores_case()); a regex on
	 * a path is matched as written.
	 */
	path = (field == F_PATH || field == F_READ_PATH) &&
	    m->kind != M_REGEX;
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
		case M_STARTS_WITH:
		case M_ENDS_WITH:
			/* An empty keyword is found in any text. */
			if (p->len == 0)
				return -1;
			clause_add(cl, c, field, p->src, p->len,
			    m->ignore_case ||
			    (path && path_atom_ci(p->src, p->len)));
			continue;
		case M_JSON:
			return -1;
		}
		for (j = 0; j < r.n; j++)
			clause_add(cl, c, field, r.alts[j].s, r.alts[j].len,
			    r.alts[j].ci || (m->kind == M_GLOB &&
			    (m->ignore_case || (path &&
			    path_atom_ci(r.alts[j].s, r.alts[j].len)))));
		relit_release(&r);
	}
	return cl->n > 0 && cl->n <= PF_MAX_ATOMS ? 0 : -1;
}

/*
 * Appends to pr clauses that must hold for c to hold.  in_shell: c is
 * (in) the condition of a shell map, which holds when it holds for one
 * of the simple commands the reader finds in the command; there only a
 * `program` or `subcommand` gives a clause, on the programs (subcommands)
 * of them all (F_PROGRAMS, F_SUBCOMMANDS, made by eval_ctx.c from the
 * same parse): the names the map compares, after the reader's unwrapping
 * (sudo, env, bash -c, aliases ...), not words of the command's text.
 */
static void
cond_clauses(const struct cond *c, struct pf_rule *pr, int depth,
    bool in_shell)
{
	struct pf_clause	 cl, u;
	struct pf_rule		 kid;
	size_t			 i, j;

	if (depth > PF_MAX_DEPTH)
		return;
	memset(&cl, 0, sizeof(cl));
	switch (c->kind) {
	case C_TEXT:
		/*
		 * In a shell map, a path matches the files of one simple
		 * command: a part of the files of them all, the text of
		 * path and read_path (eval_paths.c).
		 */
		if ((!in_shell || c->field == F_PATH ||
		    c->field == F_READ_PATH) &&
		    text_clause(c, c->field, &cl) == 0)
			pfrule_push(pr, &cl);
		else
			clause_free(&cl);
		return;
	case C_ALL:
		for (i = 0; i < c->nkids; i++)
			cond_clauses(c->kids[i], pr, depth + 1, in_shell);
		return;
	case C_ANY:
		if (c->nkids == 1) {
			cond_clauses(c->kids[0], pr, depth + 1, in_shell);
			return;
		}
		/* One of the kids holds: the union of a clause of each. */
		memset(&u, 0, sizeof(u));
		for (i = 0; i < c->nkids; i++) {
			memset(&kid, 0, sizeof(kid));
			cond_clauses(c->kids[i], &kid, depth + 1, in_shell);
			if (kid.n == 0 || u.n + kid.c[0].n > PF_MAX_ATOMS) {
				pf_rule_free(&kid);
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
			pf_rule_free(&kid);
		}
		pfrule_push(pr, &u);
		return;
	case C_NOT:
	case C_ENV:
	case C_FILE_CONTAINS:
	case C_KB:
	case C_MEMORY:
	case C_ROUTER:
	case C_SECTIONS:
		return;
	case C_BLOCKS:
	case C_BLOCK_PART:
	case C_LISTED:
	case C_RELATED:
		/*
		 * A block's text, a listed id, a file beside: none of them
		 * is a field the prefilter scans, and a blocks condition
		 * may hold with `every` over no block at all.  No clause.
		 */
		return;
	case C_SHELL:
		/*
		 * The words a shell condition tests are the command unquoted
		 * and unescaped (r''m is rm): no literal of them needs to be
		 * in the command's text, only its program among the programs
		 * the reader found.
		 */
		if (!in_shell && c->nkids == 1)
			cond_clauses(c->kids[0], pr, depth + 1, true);
		return;
	case C_SH_TEXT:
		if (in_shell && (c->sh_part == SH_PROGRAM ||
		    c->sh_part == SH_SUBCOMMAND) && text_clause(c,
		    c->sh_part == SH_PROGRAM ? F_PROGRAMS : F_SUBCOMMANDS,
		    &cl) == 0)
			pfrule_push(pr, &cl);
		else
			clause_free(&cl);
		return;
	case C_SH_FLAGS:
		return;
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

static void
add_tool_ref(struct tool_ref **refs, size_t *n, size_t *cap, int kind,
    const char *name, size_t rule)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*refs = xreallocarray(*refs, *cap, sizeof(**refs));
	}
	(*refs)[*n].kind = kind;
	(*refs)[*n].name = name;
	(*refs)[(*n)++].rule = rule;
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
	struct pf_rule		*prs;
	struct buf		 bk, names;
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
	prs = xcalloc(rs->n ? rs->n : 1, sizeof(*prs));
	for (i = 0; i < rs->n; i++) {
		r = rs->rules[i];
		if (r == NULL || !r->enabled)
			continue;
		memset(&pr, 0, sizeof(pr));
		if (r->when != NULL)
			cond_clauses(r->when, &pr, 0, false);
		prs[i] = pr;
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
				add_tool_ref(&refs, &nrefs, &refcap, (int)k,
				    r->tools[t], i);
				/* Claude Code 2.1.63 renamed Task to Agent. */
				name = NULL;
				if (strcmp(r->tools[t], "Task") == 0)
					name = "Agent";
				else if (strcmp(r->tools[t], "Agent") == 0)
					name = "Task";
				if (name != NULL)
					add_tool_ref(&refs, &nrefs, &refcap,
					    (int)k, name, i);
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
		pf_emit_bucket(&bk, any[k].v, any[k].n, prs, any_ref[k]);
		pf_emit_bucket(&bk, glob[k].v, glob[k].n, prs, glob_ref[k]);
	}
	for (i = 0; i < nrefs; i = j) {
		struct rlist l;
		memset(&l, 0, sizeof(l));
		for (j = i; j < nrefs && refs[j].kind == refs[i].kind &&
		    strcmp(refs[j].name, refs[i].name) == 0; j++)
			rlist_add(&l, refs[j].rule);
		pf_emit_bucket(&bk, l.v, l.n, prs, tool_refs[i]);
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
		pf_rule_free(&prs[i]);
	free(prs);
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
	rs->pf_intact = true;
}
