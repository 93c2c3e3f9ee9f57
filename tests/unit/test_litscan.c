/* The multi-literal scanner: each strategy agrees with lit_occurs(). */
#include <stdlib.h>
#include <string.h>

#include "litscan.h"
#include "tap.h"

static unsigned long rng = 99;

static unsigned
rnd(unsigned n)
{
	rng = rng * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)((rng >> 33) % n);
}

static void
random_text(char *s, size_t n, const char *alpha)
{
	size_t	k = strlen(alpha), i;

	for (i = 0; i < n; i++)
		s[i] = alpha[rnd((unsigned)k)];
}

/* Runs one trial with each strategy; counts disagreements. */
static size_t
trial(size_t nlits, size_t tlen, const char *alpha, size_t *hits)
{
	static const enum litscan_strategy strategies[] = {
		LITSCAN_AUTO, LITSCAN_EACH, LITSCAN_WINDOW
	};
	char		*text = malloc(tlen + 1), lit[16];
	struct litscan	*ls[3];
	unsigned char	*found[3];
	size_t		 i, k, n, bad = 0, id;
	struct { char s[16]; size_t len; bool ci; } *lits;

	random_text(text, tlen, alpha);
	lits = calloc(nlits, sizeof(*lits));
	for (k = 0; k < 3; k++) {
		ls[k] = litscan_new();
		litscan_force(ls[k], strategies[k]);
	}
	for (i = 0; i < nlits; i++) {
		n = 1 + rnd(8);
		if (tlen > n && rnd(2))
			memcpy(lit, text + rnd((unsigned)(tlen - n)), n);
		else
			random_text(lit, n, alpha);
		if (rnd(2))
			lit[0] = (char)(lit[0] ^ 0x20);	/* flip the case */
		memcpy(lits[i].s, lit, n);
		lits[i].len = n;
		lits[i].ci = rnd(2);
		for (k = 0; k < 3; k++)
			id = litscan_add(ls[k], lit, n, lits[i].ci);
		(void)id;
	}
	for (k = 0; k < 3; k++) {
		found[k] = calloc(litscan_count(ls[k]) + 1, 1);
		litscan_run(ls[k], text, tlen, found[k]);
	}
	for (i = 0; i < nlits; i++) {
		bool want = lit_occurs(text, tlen, lits[i].s, lits[i].len,
		    lits[i].ci);
		*hits += want;
		for (k = 0; k < 3; k++) {
			id = litscan_add(ls[k], lits[i].s, lits[i].len,
			    lits[i].ci);
			if (id >= litscan_count(ls[k]) ||
			    (found[k][id] != 0) != want)
				bad++;
		}
	}
	for (k = 0; k < 3; k++) {
		litscan_free(ls[k]);
		free(found[k]);
	}
	free(lits);
	free(text);
	return bad;
}

int
main(void)
{
	size_t	bad = 0, hits = 0, t;
	struct litscan *ls = litscan_new();
	unsigned char f[4] = { 0 };

	ok(litscan_add(ls, "abc", 3, false) == 0 &&
	    litscan_add(ls, "abc", 3, true) == 1 &&
	    litscan_add(ls, "abc", 3, false) == 0 && litscan_count(ls) == 2,
	    "identical literals share an id; case-folding is part of identity");
	litscan_run(ls, "xxABCxx", 7, f);
	ok(f[0] == 0 && f[1] == 1, "ci literal found in other case, exact not");
	litscan_free(ls);
	ok(lit_occurs("aXbC", 4, "xBc", 3, true), "lit_occurs folds ASCII");
	ok(!lit_occurs("a\xc3\xa9", 3, "\xc3\x89", 2, true),
	    "lit_occurs does not fold non-ASCII");

	for (t = 0; t < 300; t++)
		bad += trial(1 + rnd(40), rnd(3000), "abcAB \xc3", &hits);
	for (t = 0; t < 20; t++)
		bad += trial(200 + rnd(400), 20000 + rnd(20000), "abcdefgh",
		    &hits);
	is_int(bad, 0, "every strategy agrees with lit_occurs()");
	ok(hits > 1000, "the trials found literals (%zu)", hits);
	return done_testing();
}
