/*
 * The multi-literal scanner: each strategy agrees with lit_occurs(), and
 * each runs in time linear in the text, also on adversarial texts.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "litscan.h"
#include "tap.h"
#include "xmalloc.h"

static unsigned long rng = 99;

static unsigned
rnd(unsigned n)
{
	rng = rng * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)((rng >> 33) % n);
}

/* 63 'a': long runs, in which the first bytes of long literals recur. */
#define A8	"aaaaaaaa"
#define A63	A8 A8 A8 A8 A8 A8 A8 "aaaaaaa"

/*
 * n random bytes of alpha, or with alpha NULL of characters that fold
 * across lengths and scripts, and broken UTF-8 (the last one may be cut).
 */
static void
random_text(char *s, size_t n, const char *alpha)
{
	static const char *const pieces[] = {
		"a", "A", "k", "K", "\xe2\x84\xaa", "s", "S", "\xc5\xbf",
		"\xc3\xbc", "\xc3\x9c", "\xc3\x9f", "\xe1\xba\x9e", "\xc3",
		"\x80", " "
	};
	size_t	k, i, j;
	const char *p;

	if (alpha != NULL) {
		for (k = strlen(alpha), i = 0; i < n; i++)
			s[i] = alpha[rnd((unsigned)k)];
		return;
	}
	for (i = 0; i < n;) {
		p = pieces[rnd(sizeof(pieces) / sizeof(pieces[0]))];
		for (j = 0; p[j] != '\0' && i < n; j++)
			s[i++] = p[j];
	}
}

/* Is lit found in text by each strategy, as want says, and by lit_occurs? */
static bool
found_by_all(const char *text, const char *lit, bool ci, bool want)
{
	static const enum litscan_strategy strategies[] = {
		LITSCAN_AUTO, LITSCAN_EACH, LITSCAN_WINDOW
	};
	struct litscan	*ls;
	unsigned char	 found[2];
	size_t		 k, id;
	bool		 r = lit_occurs(text, strlen(text), lit, strlen(lit),
	    ci) == want;

	for (k = 0; k < 3; k++) {
		ls = litscan_new();
		litscan_force(ls, strategies[k]);
		litscan_add(ls, "\x01\x02\x03\x04\x05", 5, false);
		id = litscan_add(ls, lit, strlen(lit), ci);
		memset(found, 0, sizeof(found));
		litscan_run(ls, text, strlen(text), found);
		if ((found[id] != 0) != want)
			r = false;
		litscan_free(ls);
	}
	return r;
}

static void
unicode_cases(void)
{
	ok(found_by_all("\xc3\x9c" "BER alles", "\xc3\xbc" "ber", true, true) &&
	    found_by_all("\xc3\x9c" "BER alles", "\xc3\xbc" "ber", false, false) &&
	    found_by_all("\xc3\xbc" "ber", "\xc3\x9c" "BER", true, true),
	    "\xc3\x9c" "BER matches \xc3\xbc" "ber case-insensitively only");
	ok(found_by_all("\xe2\x84\xaa" "elvin", "kelvin", true, true) &&
	    found_by_all("\xe2\x84\xaa" "ELVIN", "KELVIN", true, true) &&
	    found_by_all("kelvin", "\xe2\x84\xaa" "elvin", true, true) &&
	    found_by_all("\xe2\x84\xaa" "elvin", "kelvin", false, false),
	    "KELVIN SIGN matches k, K (3 bytes against 1)");
	ok(found_by_all("ba\xc5\xbf" "e", "BASE", true, true) &&
	    found_by_all("s", "\xc5\xbf", true, true) &&
	    found_by_all("k", "\xe2\x84\xaa", true, true),
	    "LONG S matches s; a literal longer than the text in bytes");
	ok(found_by_all("\xce\xa3\xce\x9f\xce\xa6\xce\x99\xce\x91\xce\xa3",
	    "\xcf\x83\xce\xbf\xcf\x86\xce\xb9\xce\xb1\xcf\x82", true, true),
	    "Greek capitals match lower case with final sigma");
	ok(found_by_all("\xc4\xb0stanbul", "istanbul", true, false) &&
	    found_by_all("stra\xc3\x9f" "e", "STRASSE", true, false),
	    "no full folding: U+0130 is not i, sharp s is not ss");
	ok(found_by_all("\xff\xc3\xc3\x9c" "BER\x80", "\xc3\xbc" "ber", true, true) &&
	    found_by_all("\xff\xc3\xc3\x9c" "BER\x80", "\xc3\xc3\xbc", true, true) &&
	    found_by_all("\xff\xc3\xc3\x9c" "BER\x80", "\xff\xc3\xc3\x9c", false, true) &&
	    found_by_all("\xff\xc3\xc3\x9c" "BER\x80", "R\x80", true, true) &&
	    found_by_all("\xff\xc3\xc3\x9c" "BER\x80", "\xff\xc3", true, true) &&
	    found_by_all("\xff\xc3\xc3\x9c" "BER\x80", "\xc3\x9c" "BER\x80", true,
	    true),
	    "invalid UTF-8 around a match is kept byte for byte");
	ok(found_by_all(A63 "b" A63 "c", A63 "c", false, true) &&
	    found_by_all(A63 "b" A63 "c", A63 "C", true, true) &&
	    found_by_all(A63 "b" A63 "c", A63 "d", true, false) &&
	    found_by_all(A63 "b" A63 "c", "b" A63 "c", true, true),
	    "a long literal whose first bytes occur before it");
	ok(found_by_all("\xe2\x84" "K", "\xe2\x84" "k", true, true) &&
	    found_by_all("\xe2\x84\xaa", "\xe2\x84", true, false),
	    "a cut sequence is a byte string; a whole one folds");
}

/*
 * Runs one trial with each strategy, literals of 1 to maxlit bytes;
 * counts disagreements.
 */
static size_t
trial(size_t nlits, size_t tlen, const char *alpha, size_t maxlit,
    size_t *hits)
{
	static const enum litscan_strategy strategies[] = {
		LITSCAN_AUTO, LITSCAN_EACH, LITSCAN_WINDOW
	};
	char		*text = malloc(tlen + 1), lit[128];
	struct litscan	*ls[3];
	unsigned char	*found[3];
	size_t		 i, k, n, bad = 0, id;
	struct { char s[128]; size_t len; bool ci; } *lits;

	random_text(text, tlen, alpha);
	lits = calloc(nlits, sizeof(*lits));
	for (k = 0; k < 3; k++) {
		ls[k] = litscan_new();
		litscan_force(ls[k], strategies[k]);
	}
	for (i = 0; i < nlits; i++) {
		n = 1 + rnd((unsigned)maxlit);
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

/* ---- linear time -------------------------------------------------------- */

#define MB		((size_t)1 << 20)
#define SLOPE_MAX	16.0	/* 8 MB against 1 MB: linear ~8, quadratic ~64 */
#define FLOOR_MS	1.0	/* below it, timer and allocation noise */

enum shape { UPPER, ONE_LETTER, NEAR, UNICODE_UPPER };

static const char *const shape_names[] = {
	"all upper case ASCII", "all one letter, long near misses",
	"many near matches", "Unicode upper case"
};

/* Appends the repeating pieces of a shape to b until it holds n bytes. */
static void
shape_text(enum shape sh, struct buf *b, size_t n)
{
	static const char *const upper[] = {
		"THE ", "QUICK ", "BROWN ", "FOX ", "JUMPS ", "OVER ", "A ",
		"LAZY ", "DOG; ", "PASSWORD ", "SECRET ", "TOKEN\n", "KEY "
	};
	static const char *const near[] = {
		"secret_ke ", "SeCrEt_KeY ", "secret_keys ", "SECRET_KEY\n",
		"Secret-Key ", "api_toke ", "API_TOKEN ", "api_tokens "
	};
	static const char *const uni[] = {
		"\xc3\x9c" "BER ", "\xce\xa3\xce\x9f\xce\xa6\xce\x99\xce\x91 ",
		"\xd0\xa1\xd0\x9b\xd0\x9e\xd0\x92\xd0\x9e ", "KELVIN ",
		"\xe2\x84\xaa" "ELVIN ", "\xe1\xba\x9e" "TRASSE ", "ALLES ",
		"\xc3\x84\xc3\x96 ", "STRASSE\n"
	};

	buf_reset(b);
	while (b->len < n) {
		switch (sh) {
		case UPPER:
			buf_adds(b, upper[rnd(sizeof(upper) /
			    sizeof(upper[0]))]);
			break;
		case ONE_LETTER:
			buf_addc(b, 'a');
			break;
		case NEAR:
			buf_adds(b, near[rnd(sizeof(near) / sizeof(near[0]))]);
			break;
		case UNICODE_UPPER:
			buf_adds(b, uni[rnd(sizeof(uni) / sizeof(uni[0]))]);
			break;
		}
	}
	buf_truncate(b, n);
}

/* The literals of a shape: near misses that occur nowhere in its text. */
static struct litscan *
shape_literals(enum shape sh, enum litscan_strategy st, size_t longlen)
{
	static const char *const upper_ci[] = {
		"password=", "secret:", "token!", "key=", "a1", "dog!", "q1",
		"brown fox jumps over the lazy cat"
	};
	static const char *const upper_exact[] = {
		"PASSWORD=", "LAZY CAT", "A1", "fox"
	};
	static const char *const near_ci[] = {
		"secret_key=", "secret_key_id", "secret-keys", "api_token=",
		"api_tokens!", "secret_ke_"
	};
	static const char *const near_exact[] = {
		"secret_key ", "SECRET_KEYS", "api_token ", "Secret_Key"
	};
	static const char *const uni_ci[] = {
		"\xc3\xbc" "ber alles!", "\xcf\x83\xce\xbf\xcf\x86\xce\xb9\xce\xb1!",
		"\xd1\x81\xd0\xbb\xd0\xbe\xd0\xb2\xd0\xbe:", "kelvin=",
		"\xe2\x84\xaa" "elvin-", "stra\xc3\x9f" "e", "alles!", "s:"
	};
	static const char *const uni_exact[] = {
		"\xc3\x9c" "BER ALLES!", "KELVIN=", "\xd0\xa1\xd0\x9b\xd0\x9e\xd0\x92\xd0\x9e:"
	};
	struct litscan	*ls = litscan_new();
	struct buf	 b;
	size_t		 i;

	litscan_force(ls, st);
#define ADD(arr, ci)	for (i = 0; i < sizeof(arr) / sizeof(arr[0]); i++) \
		litscan_add(ls, arr[i], strlen(arr[i]), ci)
	switch (sh) {
	case UPPER:
		ADD(upper_ci, true);
		ADD(upper_exact, false);
		break;
	case ONE_LETTER:
		/* "aaa...ab", exact and in upper case ci, and shorter ones. */
		buf_init(&b);
		for (i = 0; i + 1 < longlen; i++)
			buf_addc(&b, 'a');
		buf_addc(&b, 'b');
		litscan_add(ls, b.data, b.len, false);
		for (i = 0; i < b.len; i++)
			b.data[i] = (char)(b.data[i] - 'a' + 'A');
		litscan_add(ls, b.data, b.len, true);
		litscan_add(ls, b.data + b.len - 20, 20, true);
		litscan_add(ls, b.data + b.len - 3, 3, true);
		litscan_add(ls, "aaab", 4, false);
		litscan_add(ls, "ab", 2, false);
		buf_release(&b);
		break;
	case NEAR:
		ADD(near_ci, true);
		ADD(near_exact, false);
		break;
	case UNICODE_UPPER:
		ADD(uni_ci, true);
		ADD(uni_exact, false);
		break;
	}
#undef ADD
	return ls;
}

static double
cpu_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/*
 * The CPU time of one litscan_run() over text, the best of 3; a run past
 * `hopeless` ms is not repeated (it fails whatever the others give).
 * Counts the literals found, which must be none.
 */
static double
time_run(struct litscan *ls, const char *text, size_t len, double hopeless,
    size_t *nfound)
{
	unsigned char	*found = xcalloc(litscan_count(ls) + 1, 1);
	double		 best = -1, t0, t;
	size_t		 k, i;

	for (k = 0; k < 3; k++) {
		memset(found, 0, litscan_count(ls));
		t0 = cpu_ms();
		litscan_run(ls, text, len, found);
		t = cpu_ms() - t0;
		if (best < 0 || t < best)
			best = t;
		for (i = 0; i < litscan_count(ls); i++)
			*nfound += found[i];
		if (t > hopeless)
			break;
	}
	free(found);
	return best;
}

/*
 * 1 MB and 8 MB of each shape with each strategy: the time may grow about
 * 8 times, never 64.  CPU time of the best of 3 runs shrugs off a busy
 * machine; a sanitizer slows both sizes alike.
 */
static void
linear_time(void)
{
	static const enum litscan_strategy strategies[] = {
		LITSCAN_EACH, LITSCAN_WINDOW, LITSCAN_AUTO
	};
	static const char *const snames[] = { "each", "window", "auto" };
	struct buf	 text;
	struct litscan	*ls;
	double		 t1, t8, tshort, tlong;
	size_t		 sh, k, nfound;

	buf_init(&text);
	for (sh = UPPER; sh <= UNICODE_UPPER; sh++) {
		shape_text((enum shape)sh, &text, 8 * MB);
		for (k = 0; k < 3; k++) {
			ls = shape_literals((enum shape)sh, strategies[k], 300);
			nfound = 0;
			t1 = time_run(ls, text.data, MB, 1e9, &nfound);
			if (t1 < FLOOR_MS)
				t1 = FLOOR_MS;
			t8 = time_run(ls, text.data, 8 * MB,
			    4 * SLOPE_MAX * t1, &nfound);
			printf("# %s, %s: 1 MB: %.1f ms, 8 MB: %.1f ms\n",
			    shape_names[sh], snames[k], t1, t8);
			ok(t8 <= SLOPE_MAX * t1 && nfound == 0,
			    "linear: %s, %s (x%.1f)", shape_names[sh],
			    snames[k], t8 / t1);
			litscan_free(ls);
		}
	}
	/*
	 * And in the literal's length: "aaa...ab" of 64 bytes and of 64 KB
	 * in 256 KB of 'a' cost about the same; comparing the literal at
	 * every 'a' would cost a thousand times more.
	 */
	shape_text(ONE_LETTER, &text, MB / 4);
	for (k = 0; k < 3; k++) {
		nfound = 0;
		ls = shape_literals(ONE_LETTER, strategies[k], 64);
		tshort = time_run(ls, text.data, text.len, 1e9, &nfound);
		litscan_free(ls);
		if (tshort < FLOOR_MS)
			tshort = FLOOR_MS;
		ls = shape_literals(ONE_LETTER, strategies[k], 64 * 1024);
		tlong = time_run(ls, text.data, text.len, 16 * tshort,
		    &nfound);
		litscan_free(ls);
		printf("# 256 KB of 'a', %s: 64-byte literal: %.1f ms, "
		    "64 KB: %.1f ms\n", snames[k], tshort, tlong);
		ok(tlong <= 4 * tshort && nfound == 0,
		    "linear in the literal's length: %s", snames[k]);
	}
	buf_release(&text);
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
	ok(lit_occurs("a\xc3\xa9", 3, "\xc3\x89", 2, true) &&
	    !lit_occurs("a\xc3\xa9", 3, "\xc3\x89", 2, false),
	    "lit_occurs folds non-ASCII");
	unicode_cases();

	for (t = 0; t < 300; t++)
		bad += trial(1 + rnd(40), rnd(3000), "abcAB \xc3", 8, &hits);
	for (t = 0; t < 300; t++)
		bad += trial(1 + rnd(40), rnd(3000), NULL, 8, &hits);
	/* Long literals, settled by memmem() where their prefix occurs. */
	for (t = 0; t < 100; t++)
		bad += trial(1 + rnd(40), rnd(3000), t % 2 ? A63 "B" : NULL,
		    100, &hits);
	for (t = 0; t < 20; t++)
		bad += trial(200 + rnd(400), 20000 + rnd(20000), "abcdefgh", 8,
		    &hits);
	is_int(bad, 0, "every strategy agrees with lit_occurs()");
	ok(hits > 1000, "the trials found literals (%zu)", hits);
	linear_time();
	return done_testing();
}
