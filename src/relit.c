/*
 * Required-literal extraction (see relit.h).  A recursive-descent walk of
 * the pattern that understands exactly the constructs it needs and gives
 * up on everything else.
 *
 * Within a branch, consecutive literal characters form a run; each run is
 * required when the branch matches.  A quantifier ends the run: with a
 * minimum of 0 it also removes its atom, with a minimum of 1 or more the
 * atom stays (it occurs at least once, right after the run).  Anything
 * that is not a plain character (a class, '.', an assertion, a group)
 * ends the run too.  A group without alternation that must occur offers
 * its own best literal.  The branch's best literal is its longest run;
 * the pattern's result is the best literal of every top-level branch.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "relit.h"
#include "xmalloc.h"

#define RELIT_MAX_DEPTH	64

/*
 * The required literal of a branch: one string (b), or, from a group of
 * several branches each with one (`(\.envrc|\.env)`), a set of them of
 * which a text must contain at least one (set, nset > 0; b empty).
 */
struct lit {
	struct buf	 b;
	bool		 ci;
	struct relit_alt *set;		/* owned, NULL: b */
	size_t		 nset;
};

struct rp {
	const unsigned char	*p, *end;
	bool			 bad;	/* give up: no literal */
	int			 depth;
};

/* The result of one branch or alternation. */
struct branches {
	struct lit	best[RELIT_MAX_ALTS];
	size_t		n;		/* branches seen */
	bool		all_have;	/* every branch has a literal */
};

bool
relit_ci_unsafe(unsigned char c)
{
	return c == 'k' || c == 'K' || c == 's' || c == 'S';
}

static bool
is_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z');
}

static bool
is_letter(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static void
lit_init(struct lit *l)
{
	buf_init(&l->b);
	l->ci = false;
	l->set = NULL;
	l->nset = 0;
}

static void
lit_free_set(struct lit *l)
{
	size_t	i;

	for (i = 0; i < l->nset; i++)
		free(l->set[i].s);
	free(l->set);
	l->set = NULL;
	l->nset = 0;
}

static void
lit_release(struct lit *l)
{
	buf_release(&l->b);
	lit_free_set(l);
}

/* What a literal is worth: its length, a set's shortest (0: none). */
static size_t
lit_quality(const struct lit *l)
{
	size_t	i, q;

	if (l->nset == 0)
		return l->b.len;
	for (q = l->set[0].len, i = 1; i < l->nset; i++)
		if (l->set[i].len < q)
			q = l->set[i].len;
	return q;
}

/* Keeps cand as best when it is longer (than a set: no shorter). */
static void
offer(struct lit *best, const char *s, size_t len, bool ci)
{
	size_t	q = lit_quality(best);

	if (len == 0 || len < q || (len == q && best->nset == 0))
		return;
	lit_free_set(best);
	buf_reset(&best->b);
	buf_add(&best->b, s, len);
	best->ci = ci;
}

/*
 * Offers what a group that must match requires: its one branch's
 * literal, or with several branches that all have one, the set of them
 * (a text the group matches holds one of them), when no longer.
 */
static void
offer_group(struct lit *best, const struct branches *in)
{
	struct relit_alt	 set[RELIT_MAX_ALTS];
	struct lit		 cand = { .set = NULL };
	size_t			 i, j, n = 0;

	if (!in->all_have || in->n == 0 || in->n > RELIT_MAX_ALTS)
		return;
	if (in->n == 1 && in->best[0].nset == 0) {
		offer(best, in->best[0].b.data, in->best[0].b.len,
		    in->best[0].ci);
		return;
	}
	for (i = 0; i < in->n; i++) {
		if (in->best[i].nset == 0) {
			if (n == RELIT_MAX_ALTS)
				return;
			set[n].s = in->best[i].b.data;
			set[n].len = in->best[i].b.len;
			set[n++].ci = in->best[i].ci;
			continue;
		}
		for (j = 0; j < in->best[i].nset; j++) {
			if (n == RELIT_MAX_ALTS)
				return;
			set[n++] = in->best[i].set[j];
		}
	}
	cand.set = set;
	cand.nset = n;
	if (lit_quality(&cand) <= lit_quality(best))
		return;
	lit_free_set(best);
	buf_reset(&best->b);
	best->set = xcalloc(n, sizeof(*best->set));
	for (i = 0; i < n; i++) {
		best->set[i].s = xmemdup0(set[i].s, set[i].len);
		best->set[i].len = set[i].len;
		best->set[i].ci = set[i].ci;
	}
	best->nset = n;
}

/* Length of a UTF-8 sequence starting with c (1 for ASCII or junk). */
static size_t
seqlen(unsigned char c)
{
	if (c >= 0xf0)
		return 4;
	if (c >= 0xe0)
		return 3;
	if (c >= 0xc0)
		return 2;
	return 1;
}

/*
 * Parses a quantifier at rp->p, if any: sets *min and consumes it (with
 * a lazy or possessive suffix).  Returns false when there is none.  A
 * brace that might be a quantifier in some PCRE2 version but is not a
 * plain {n}, {n,} or {n,m} makes the pattern unusable.
 */
static bool
quantifier(struct rp *rp, unsigned long *min)
{
	const unsigned char	*q = rp->p, *start;
	unsigned long		 n = 0;

	if (q >= rp->end)
		return false;
	if (*q == '*' || *q == '?') {
		*min = 0;
		q++;
	} else if (*q == '+') {
		*min = 1;
		q++;
	} else if (*q == '{') {
		start = ++q;
		while (q < rp->end && *q >= '0' && *q <= '9') {
			if (n < 100000)
				n = n * 10 + (unsigned long)(*q - '0');
			q++;
		}
		if (q > start && q < rp->end && *q == '}') {
			q++;
		} else if (q > start && q < rp->end && *q == ',') {
			q++;
			while (q < rp->end && *q >= '0' && *q <= '9')
				q++;
			if (q >= rp->end || *q != '}') {
				rp->bad = true;
				return false;
			}
			q++;
		} else {
			/* Not {n...}: a literal '{', unless it looks close. */
			for (q = start; q < rp->end && *q != '}'; q++)
				if (!((*q >= '0' && *q <= '9') || *q == ',' ||
				    *q == ' '))
					return false;
			rp->bad = true;
			return false;
		}
		*min = n;
	} else
		return false;
	if (q < rp->end && (*q == '?' || *q == '+'))
		q++;
	rp->p = q;
	return true;
}

static void parse_alternation(struct rp *, bool *ci, struct branches *);

static void
branches_release(struct branches *br)
{
	size_t	i;

	for (i = 0; i < RELIT_MAX_ALTS; i++)
		lit_release(&br->best[i]);
}

/* Skips a character class starting at '['; false if malformed. */
static bool
skip_class(struct rp *rp)
{
	const unsigned char	*q = rp->p + 1;

	if (q < rp->end && *q == '^')
		q++;
	if (q < rp->end && *q == ']')
		q++;
	while (q < rp->end && *q != ']') {
		if (*q == '\\') {
			if (q + 1 < rp->end && q[1] == 'Q')
				return false;
			q += 2;
			continue;
		}
		if (*q == '[' && q + 1 < rp->end && (q[1] == ':' ||
		    q[1] == '.' || q[1] == '=')) {
			const unsigned char *e;
			for (e = q + 2; e + 1 < rp->end; e++)
				if (e[0] == q[1] && e[1] == ']')
					break;
			if (e + 1 >= rp->end)
				return false;
			q = e + 2;
			continue;
		}
		q++;
	}
	if (q >= rp->end)
		return false;
	rp->p = q + 1;
	return true;
}

/*
 * Option letters after "(?": applies i / -i / ^ to *ci.  Returns the
 * character that ended them (')' or ':'), or 0 to give up.
 */
static unsigned char
options(struct rp *rp, bool *ci)
{
	bool	neg = false;

	for (; rp->p < rp->end; rp->p++) {
		switch (*rp->p) {
		case ')':
		case ':':
			return *rp->p++;
		case '-':
			neg = true;
			break;
		case '^':
			*ci = false;
			break;
		case 'i':
			*ci = !neg;
			break;
		case 'm': case 'n': case 's': case 'U': case 'J':
			break;
		default:
			/* x (extended) and anything unknown. */
			return 0;
		}
	}
	return 0;
}

/*
 * One branch, up to '|' or ')' or the end.  ci is the option state; it
 * may change inside the branch and the change carries on to later
 * branches of the same group, as in PCRE2.
 */
struct run {
	struct buf	 b;
	bool		 ci;
	size_t		 last;		/* start of the last literal atom */
	bool		 have_last;	/* the run ends with a literal atom */
	bool		 any;		/* the branch has had an atom */
	struct lit	*best;
};

static void
run_end(struct run *r, bool ci)
{
	offer(r->best, r->b.data, r->b.len, r->ci);
	buf_reset(&r->b);
	r->ci = ci;
	r->have_last = false;
}

/* Appends one literal character (n bytes) in option state ci. */
static void
run_add(struct run *r, const unsigned char *s, size_t n, bool ci)
{
	r->any = true;
	if (ci && (s[0] >= 0x80 || relit_ci_unsafe(s[0]))) {
		/* Not searchable with ASCII folding: a gap in the run. */
		run_end(r, ci);
		return;
	}
	if (r->ci != ci)
		run_end(r, ci);
	r->last = r->b.len;
	r->have_last = true;
	buf_add(&r->b, s, n);
}

/* A non-literal atom (class, '.', assertion, group): ends the run. */
static void
run_gap(struct run *r, bool ci)
{
	r->any = true;
	run_end(r, ci);
}

/* Group flavours after "(". */
enum group_kind {
	G_PLAIN,		/* capturing, (?:, (?|, (?>, named */
	G_LOOKAROUND,		/* contributes nothing */
	G_OPTIONS,		/* (?i) and friends: no group at all */
	G_COMMENT
};

/* Reads what follows "(" up to the group body; may change *ci. */
static enum group_kind
group_open(struct rp *rp, bool *ci)
{
	unsigned char	c, end;

	if (rp->p < rp->end && *rp->p == '*') {
		rp->bad = true;		/* verbs: (*ACCEPT), (*UTF), ... */
		return G_PLAIN;
	}
	if (rp->p >= rp->end || *rp->p != '?')
		return G_PLAIN;
	if (++rp->p >= rp->end) {
		rp->bad = true;
		return G_PLAIN;
	}
	c = *rp->p;
	if (c == ':' || c == '|' || c == '>') {
		rp->p++;
		return G_PLAIN;
	}
	if (c == '=' || c == '!') {
		rp->p++;
		return G_LOOKAROUND;
	}
	if (c == '<' && rp->p + 1 < rp->end &&
	    (rp->p[1] == '=' || rp->p[1] == '!')) {
		rp->p += 2;
		return G_LOOKAROUND;
	}
	if (c == '<' || c == '\'' || (c == 'P' && rp->p + 1 < rp->end &&
	    rp->p[1] == '<')) {
		end = c == '\'' ? '\'' : '>';
		while (rp->p < rp->end && *rp->p != end)
			rp->p++;
		if (rp->p >= rp->end)
			rp->bad = true;
		else
			rp->p++;
		return G_PLAIN;
	}
	if (c == '#') {
		while (rp->p < rp->end && *rp->p != ')')
			rp->p++;
		if (rp->p >= rp->end)
			rp->bad = true;
		else
			rp->p++;
		return G_COMMENT;
	}
	if (is_letter(c) || c == '-' || c == '^' || c == ')') {
		end = options(rp, ci);
		if (end == 0)
			rp->bad = true;
		return end == ')' ? G_OPTIONS : G_PLAIN;
	}
	/* Conditionals, recursion, subroutine calls, callouts. */
	rp->bad = true;
	return G_PLAIN;
}

/* A backslash escape; rp->p is past the backslash. */
static void
escape(struct rp *rp, struct run *r, bool ci)
{
	const unsigned char	*e;
	unsigned char		 c;
	size_t			 k;

	if (rp->p >= rp->end) {
		rp->bad = true;
		return;
	}
	c = *rp->p++;
	switch (c) {
	case 'Q':
		/* Each quoted character is a literal atom. */
		for (e = rp->p; e < rp->end && !(e[0] == '\\' &&
		    e + 1 < rp->end && e[1] == 'E'); e++)
			;
		for (; rp->p < e; rp->p += k) {
			k = seqlen(*rp->p);
			if (rp->p + k > e)
				k = (size_t)(e - rp->p);
			run_add(r, rp->p, k, ci);
		}
		rp->p = e < rp->end ? e + 2 : e;
		return;
	case 'E':
		return;		/* a lone \E is ignored */
	case 'n': c = '\n'; break;
	case 't': c = '\t'; break;
	case 'r': c = '\r'; break;
	case 'f': c = '\f'; break;
	case 'e': c = 0x1b; break;
	case 'a': c = 0x07; break;
	case 'd': case 'D': case 'w': case 'W': case 's': case 'S':
	case 'h': case 'H': case 'v': case 'V': case 'R': case 'X':
	case 'b': case 'B': case 'A': case 'z': case 'Z': case 'G':
	case 'K': case 'C':
		run_gap(r, ci);
		return;
	case 'N':
		if (rp->p < rp->end && *rp->p == '{')
			rp->bad = true;		/* \N{U+...} */
		run_gap(r, ci);
		return;
	default:
		/* \x \o \c \p \g \k, digits, \u ...: give up. */
		if (is_alnum(c) || c >= 0x80) {
			rp->bad = true;
			return;
		}
		break;		/* an escaped punctuation character */
	}
	run_add(r, &c, 1, ci);
}

static void
parse_branch(struct rp *rp, bool *ci, struct lit *best)
{
	struct run	 r;
	struct branches	 inner;
	enum group_kind	 gk;
	unsigned long	 min;
	unsigned char	 c;
	size_t		 k;
	bool		 saved;

	memset(&r, 0, sizeof(r));
	buf_init(&r.b);
	r.ci = *ci;
	r.best = best;
	while (!rp->bad && rp->p < rp->end && *rp->p != '|' &&
	    *rp->p != ')') {
		if (quantifier(rp, &min)) {
			/* It repeats the atom just before it. */
			if (!r.any) {
				rp->bad = true;
				break;
			}
			if (r.have_last && min == 0)
				buf_truncate(&r.b, r.last);
			run_end(&r, *ci);
			continue;
		}
		if (rp->bad)
			break;
		c = *rp->p;
		if (c == '\\') {
			rp->p++;
			escape(rp, &r, *ci);
		} else if (c == '[') {
			if (!skip_class(rp))
				rp->bad = true;
			run_gap(&r, *ci);
		} else if (c == '.' || c == '^' || c == '$') {
			rp->p++;
			run_gap(&r, *ci);
		} else if (c == '(') {
			run_gap(&r, *ci);
			rp->p++;
			saved = *ci;
			gk = group_open(rp, ci);
			if (rp->bad)
				break;
			if (gk == G_OPTIONS || gk == G_COMMENT) {
				/* (?i) lasts to the end of the group. */
				r.ci = *ci;
				r.any = false;	/* nothing to repeat here */
				continue;
			}
			if (++rp->depth > RELIT_MAX_DEPTH) {
				rp->bad = true;
				break;
			}
			memset(&inner, 0, sizeof(inner));
			parse_alternation(rp, ci, &inner);
			rp->depth--;
			*ci = saved;
			r.ci = *ci;
			if (rp->bad || rp->p >= rp->end || *rp->p != ')') {
				rp->bad = true;
				branches_release(&inner);
				break;
			}
			rp->p++;
			if (!quantifier(rp, &min))
				min = 1;
			if (!rp->bad && gk == G_PLAIN && min >= 1)
				offer_group(best, &inner);
			branches_release(&inner);
		} else {
			/* A plain character, possibly multibyte. */
			k = seqlen(c);
			if (rp->p + k > rp->end)
				k = (size_t)(rp->end - rp->p);
			run_add(&r, rp->p, k, *ci);
			rp->p += k;
		}
	}
	if (!rp->bad)
		run_end(&r, *ci);
	buf_release(&r.b);
}

static void
parse_alternation(struct rp *rp, bool *ci, struct branches *br)
{
	struct lit	best;

	br->n = 0;
	br->all_have = true;
	for (;;) {
		lit_init(&best);
		parse_branch(rp, ci, &best);
		if (rp->bad) {
			lit_release(&best);
			return;
		}
		if (lit_quality(&best) == 0)
			br->all_have = false;
		if (br->n < RELIT_MAX_ALTS) {
			lit_release(&br->best[br->n]);
			br->best[br->n] = best;
		} else {
			br->all_have = false;
			lit_release(&best);
		}
		br->n++;
		if (rp->p < rp->end && *rp->p == '|') {
			rp->p++;
			continue;
		}
		return;
	}
}

int
relit_regex(const char *pat, size_t len, bool ci, struct relit *out)
{
	struct rp	 rp;
	struct branches	 br;
	size_t		 i, j, n;

	memset(out, 0, sizeof(*out));
	memset(&br, 0, sizeof(br));
	rp.p = (const unsigned char *)pat;
	rp.end = rp.p + len;
	rp.bad = false;
	rp.depth = 0;
	parse_alternation(&rp, &ci, &br);
	if (rp.bad || rp.p != rp.end || !br.all_have || br.n == 0 ||
	    br.n > RELIT_MAX_ALTS) {
		branches_release(&br);
		return -1;
	}
	/* A set of a branch counts as that many alternatives. */
	for (n = 0, i = 0; i < br.n; i++)
		n += br.best[i].nset ? br.best[i].nset : 1;
	if (n > RELIT_MAX_ALTS) {
		branches_release(&br);
		return -1;
	}
	for (n = 0, i = 0; i < br.n; i++) {
		if (br.best[i].nset == 0) {
			out->alts[n].s = buf_detach(&br.best[i].b,
			    &out->alts[n].len);
			out->alts[n++].ci = br.best[i].ci;
			continue;
		}
		for (j = 0; j < br.best[i].nset; j++) {
			out->alts[n++] = br.best[i].set[j];
			br.best[i].set[j].s = NULL;
		}
	}
	out->n = n;
	branches_release(&br);
	return 0;
}

/* Index of the ']' closing the glob class at g[i] (as glob.c reads it). */
static size_t
glob_class_end(const unsigned char *g, size_t len, size_t i)
{
	const unsigned char	*e;

	i++;
	if (i < len && (g[i] == '!' || g[i] == '^'))
		i++;
	if (i < len && g[i] == ']')
		i++;
	for (; i < len && g[i] != ']'; i++) {
		if (g[i] == '\\')
			i++;
		else if (g[i] == '[' && i + 1 < len && g[i + 1] == ':' &&
		    (e = memmem(g + i + 2, len - i - 2, ":]", 2)) != NULL)
			i = (size_t)(e - g) + 1;
	}
	return i;
}

int
relit_glob(const char *glob, size_t len, struct relit *out)
{
	const unsigned char	*g = (const unsigned char *)glob;
	struct lit		 best;
	struct buf		 run;
	size_t			 i = 0, depth;

	memset(out, 0, sizeof(*out));
	lit_init(&best);
	buf_init(&run);
	if (len >= 2 && g[0] == '.' && g[1] == '/')
		i = 2;
	for (; i < len; i++) {
		if (g[i] == '\\') {
			if (i + 1 < len)
				buf_addc(&run, (char)g[++i]);
			continue;
		}
		if (g[i] != '*' && g[i] != '?' && g[i] != '[' && g[i] != '{' &&
		    g[i] != '}' && g[i] != ',') {
			buf_addc(&run, (char)g[i]);
			continue;
		}
		/*
		 * Wildcards, classes and brace groups are gaps; a stray '}'
		 * or ',' is literal to glob.c but a gap costs nothing here.
		 */
		offer(&best, run.data, run.len, false);
		buf_reset(&run);
		if (g[i] == '[')
			i = glob_class_end(g, len, i);
		else if (g[i] == '{') {
			for (depth = 0; i < len; i++) {
				if (g[i] == '\\')
					i++;
				else if (g[i] == '[')
					i = glob_class_end(g, len, i);
				else if (g[i] == '{')
					depth++;
				else if (g[i] == '}' && --depth == 0)
					break;
			}
		}
	}
	offer(&best, run.data, run.len, false);
	buf_release(&run);
	if (best.b.len == 0) {
		lit_release(&best);
		return -1;
	}
	out->alts[0].s = buf_detach(&best.b, &out->alts[0].len);
	out->alts[0].ci = false;
	out->n = 1;
	return 0;
}

void
relit_release(struct relit *r)
{
	size_t	i;

	for (i = 0; i < r->n; i++)
		free(r->alts[i].s);
	memset(r, 0, sizeof(*r));
}
