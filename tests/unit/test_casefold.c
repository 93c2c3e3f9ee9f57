/*
 * Case folding: spot checks, invalid UTF-8 kept byte for byte, offsets
 * mapped back, and the table against PCRE2's caseless matching for every
 * code point (the prefilter's folding must agree with the regexes').
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "casefold.h"
#include "match_re.h"
#include "tap.h"
#include "xmalloc.h"

#define MAXCP	0x110000u

static unsigned long rng = 7;

static unsigned
rnd(unsigned n)
{
	rng = rng * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)((rng >> 33) % n);
}

static bool
surrogate(uint32_t c)
{
	return c >= 0xd800 && c <= 0xdfff;
}

static size_t
enc(uint32_t c, char *o)
{
	unsigned char	*u = (unsigned char *)o;

	if (c < 0x80) {
		u[0] = (unsigned char)c;
		return 1;
	}
	if (c < 0x800) {
		u[0] = (unsigned char)(0xc0 | (c >> 6));
		u[1] = (unsigned char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		u[0] = (unsigned char)(0xe0 | (c >> 12));
		u[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
		u[2] = (unsigned char)(0x80 | (c & 0x3f));
		return 3;
	}
	u[0] = (unsigned char)(0xf0 | (c >> 18));
	u[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3f));
	u[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
	u[3] = (unsigned char)(0x80 | (c & 0x3f));
	return 4;
}

/* Does rr_fold() turn s[0..n) into exactly want[0..wn)? */
static bool
folds_to(const char *s, size_t n, const char *want, size_t wn)
{
	struct buf	b;
	bool		r;

	buf_init(&b);
	rr_fold(s, n, &b);
	r = b.len == wn && memcmp(b.data, want, wn) == 0;
	if (!r) {
		printf("#   folded to %zu bytes:", b.len);
		for (size_t i = 0; i < b.len; i++)
			printf(" %02x", (unsigned char)b.data[i]);
		printf("\n");
	}
	buf_release(&b);
	return r;
}

#define FOLDS(s, want, ...) \
	ok(folds_to(s, sizeof(s) - 1, want, sizeof(want) - 1), __VA_ARGS__)

static void
spot_checks(void)
{
	FOLDS("Hello, WORLD 09 @[`{", "hello, world 09 @[`{",
	    "ASCII letters fold, nothing else");
	FOLDS("\xc3\x9c" "BER alles", "\xc3\xbc" "ber alles",
	    "\xc3\x9c" "BER -> \xc3\xbc" "ber");
	FOLDS("\xe1\xba\x9e", "\xc3\x9f", "U+1E9E capital sharp s -> U+00DF");
	FOLDS("\xc3\x9f", "\xc3\x9f", "U+00DF has no simple folding");
	FOLDS("\xc5\xbf", "s", "U+017F long s -> s");
	FOLDS("\xcf\x82", "\xcf\x83", "final sigma -> sigma");
	FOLDS("\xce\xa3", "\xcf\x83", "capital sigma -> sigma");
	FOLDS("\xe2\x84\xaa", "k", "U+212A Kelvin sign -> k (3 bytes to 1)");
	FOLDS("\xe2\x84\xa6", "\xcf\x89", "U+2126 Ohm sign -> omega");
	FOLDS("\xcf\x90", "\xce\xb2", "U+03D0 beta symbol -> beta");
	FOLDS("\xc2\xb5", "\xce\xbc", "U+00B5 micro sign -> mu");
	FOLDS("\xc4\xb0", "\xc4\xb0", "U+0130 has no simple folding (C+S)");
	FOLDS("\xc4\xb1", "\xc4\xb1", "U+0131 dotless i stays");
	FOLDS("\xc8\xba", "\xe2\xb1\xa5", "U+023A -> U+2C65 (2 bytes to 3)");
	FOLDS("\xe1\xbe\x88", "\xe1\xbe\x80", "U+1F88 -> U+1F80 (S entry)");
	FOLDS("\xea\xad\xb0", "\xe1\x8e\xa0",
	    "Cherokee small U+AB70 -> capital U+13A0");
	FOLDS("\xf0\x90\x90\x80", "\xf0\x90\x90\xa8",
	    "U+10400 Deseret -> U+10428 (4 bytes)");
	FOLDS("\xf0\x9e\xa4\x80", "\xf0\x9e\xa4\xa2", "U+1E900 Adlam");
	FOLDS("", "", "empty text");
	ok(rr_fold_code('A') == 'a' && rr_fold_code(0x212a) == 'k' &&
	    rr_fold_code(0x10ffff) == 0x10ffff && rr_fold_code(0) == 0,
	    "rr_fold_code");
}

static void
invalid_utf8(void)
{
	FOLDS("A\xff" "B\xfe", "a\xff" "b\xfe", "bytes 0xFE, 0xFF kept");
	FOLDS("\x80\xbf" "A", "\x80\xbf" "a", "stray continuation bytes kept");
	FOLDS("\xc3" "A", "\xc3" "a", "a lead byte without continuation");
	FOLDS("X\xc3", "x\xc3", "a sequence cut by the end");
	FOLDS("\xe2\x84" "K", "\xe2\x84" "k", "three-byte sequence cut short");
	FOLDS("\xc0\x81\xc1\xbf", "\xc0\x81\xc1\xbf", "overlong forms kept");
	FOLDS("\xe0\x81\x81", "\xe0\x81\x81", "overlong three-byte kept");
	FOLDS("\xed\xa0\x80" "A", "\xed\xa0\x80" "a", "a surrogate kept");
	FOLDS("\xf4\x90\x80\x80", "\xf4\x90\x80\x80", "above U+10FFFF kept");
	FOLDS("\xc3\xc3\x9c", "\xc3\xc3\xbc",
	    "an invalid byte before a valid sequence: not merged");
	FOLDS("\xe2\x84\xe2\x84\xaa", "\xe2\x84k",
	    "a cut sequence before a Kelvin sign");
	FOLDS("a\0B", "a\0b", "NUL bytes kept");
}

/* Offsets of a text whose characters change length when folded. */
static void
offsets(void)
{
	/* a K(3) B A-stroke(2) Z \xff  ->  a k b U+2C65(3) z \xff */
	static const char s[] = "a\xe2\x84\xaa" "B\xc8\xba" "Z\xff";
	static const size_t starts[][2] = {
		{ 0, 0 }, { 1, 1 }, { 2, 4 }, { 3, 5 }, { 4, 5 }, { 5, 5 },
		{ 6, 7 }, { 7, 8 }, { 8, 9 }
	};
	static const size_t ends[][2] = {
		{ 0, 0 }, { 1, 1 }, { 2, 4 }, { 3, 5 }, { 4, 7 }, { 5, 7 },
		{ 6, 7 }, { 7, 8 }, { 8, 9 }
	};
	size_t	i, bad = 0, n = sizeof(s) - 1;

	ok(folds_to(s, n, "akb\xe2\xb1\xa5z\xff", 8), "the text folds");
	for (i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
		if (rr_fold_offset(s, n, starts[i][0], false) != starts[i][1]) {
			printf("#   start %zu -> %zu\n", starts[i][0],
			    rr_fold_offset(s, n, starts[i][0], false));
			bad++;
		}
		if (rr_fold_offset(s, n, ends[i][0], true) != ends[i][1]) {
			printf("#   end %zu -> %zu\n", ends[i][0],
			    rr_fold_offset(s, n, ends[i][0], true));
			bad++;
		}
	}
	is_int(bad, 0, "offsets map back; inside a character: its bounds");

	/*
	 * The ASCII prefix taken in one step: offsets within it, at its
	 * end (the first character that is not ASCII), past the text.
	 */
	ok(rr_fold_offset("abcd", 4, 2, false) == 2 &&
	    rr_fold_offset("abcd", 4, 2, true) == 2 &&
	    rr_fold_offset("abcd", 4, 9, false) == 4 &&
	    rr_fold_offset("abcd", 4, 9, true) == 4 &&
	    rr_fold_offset("ab\xe2\x84\xaa" "c", 6, 2, false) == 2 &&
	    rr_fold_offset("ab\xe2\x84\xaa" "c", 6, 3, false) == 5 &&
	    rr_fold_offset("ab\xe2\x84\xaa" "c", 6, 3, true) == 5 &&
	    rr_fold_offset("ab\xe2\x84\xaa" "c", 6, 4, false) == 6 &&
	    rr_fold_offset("ab\xe2\x84\xaa" "c", 6, 5, true) == 6,
	    "offsets over an ASCII prefix, at its end and past the text");
}

/*
 * Random texts of pieces that cannot merge with their neighbours (ASCII,
 * characters, broken sequences): folding is idempotent, folding up to a
 * piece boundary gives a prefix of the whole folding, and the boundary
 * maps back to itself both ways.
 */
static void
random_texts(void)
{
	static const char *const pieces[] = {
		"A", "z", " ", "\xc3\x9c", "\xe2\x84\xaa", "\xc8\xba", "\xc5\xbf",
		"\xf0\x90\x90\x80", "\xff", "\x80", "\xc3!", "\xe2\x84Q",
		"\xed\xa0\x80", "\xce\xa3", "\xc4\xb0", "\xc0\xaf"
	};
	struct buf	s, f, g, pre;
	size_t		t, i, np, bad_idem = 0, bad_off = 0, bound[41];

	buf_init(&s);
	buf_init(&f);
	buf_init(&g);
	buf_init(&pre);
	for (t = 0; t < 2000; t++) {
		buf_reset(&s);
		buf_reset(&f);
		buf_reset(&g);
		np = 1 + rnd(40);
		bound[0] = 0;
		for (i = 0; i < np; i++) {
			buf_adds(&s, pieces[rnd(sizeof(pieces) /
			    sizeof(pieces[0]))]);
			bound[i + 1] = s.len;
		}
		rr_fold(s.data, s.len, &f);
		rr_fold(f.data, f.len, &g);
		if (g.len != f.len || memcmp(g.data, f.data, f.len) != 0)
			bad_idem++;
		for (i = 0; i <= np; i++) {
			buf_reset(&pre);
			rr_fold(s.data, bound[i], &pre);
			if (pre.len > f.len ||
			    memcmp(pre.data, f.data, pre.len) != 0 ||
			    rr_fold_offset(s.data, s.len, pre.len, false) !=
			    bound[i] ||
			    rr_fold_offset(s.data, s.len, pre.len, true) !=
			    bound[i])
				bad_off++;
		}
	}
	is_int(bad_idem, 0, "folding folded text changes nothing");
	is_int(bad_off, 0, "character boundaries map back to themselves");
	buf_release(&s);
	buf_release(&f);
	buf_release(&g);
	buf_release(&pre);
}

/* /\x{c}/i, compiled the way the engine compiles a rule's regex. */
static struct rr_regex *
caseless(uint32_t c, unsigned flags)
{
	char	pat[32], err[128];
	size_t	off;

	snprintf(pat, sizeof(pat), "\\x{%X}", (unsigned)c);
	return rr_regex_compile(pat, strlen(pat), flags, &off, err,
	    sizeof(err));
}

static bool
matches_char(const struct rr_regex *re, uint32_t c)
{
	char	s[4];

	return rr_regex_match(re, s, enc(c, s), NULL, NULL) == RR_MATCH_YES;
}

/* Do a[0..an) and b[0..bn) fold to the same text? */
static bool
same_folding(const char *a, size_t an, const char *b, size_t bn)
{
	struct buf	fa, fb;
	bool		r;

	buf_init(&fa);
	buf_init(&fb);
	rr_fold(a, an, &fa);
	rr_fold(b, bn, &fb);
	r = fa.len == fb.len && memcmp(fa.data, fb.data, fa.len) == 0;
	buf_release(&fa);
	buf_release(&fb);
	return r;
}

/*
 * The table against PCRE2 (PCRE2_UTF|PCRE2_CASELESS), which must agree on
 * which characters are equal up to case:
 *  - PCRE2's cased characters (Cased, Changes_When_Casemapped or
 *    _Casefolded) form the set S; every other character folds to itself
 *    (so /fold(c)/i is /c/i and trivially matches c);
 *  - for each c in S, /c/i is searched in a text of all of S: it must
 *    match exactly the characters that fold like c.  For f = fold(c),
 *    /f/i therefore matches c, and a table that folds two characters
 *    PCRE2 keeps apart, or keeps apart two it joins, fails here.
 * Each pattern is compiled once.
 */
static void
against_pcre2(void)
{
	struct rr_regex	*cased, *re;
	struct buf	 subj;
	unsigned char	*inset, *classsize;
	uint32_t	 c, f;
	size_t		 nset = 0, nfold = 0, bad_idem = 0, bad_uncased = 0;
	size_t		 bad_class = 0, bad_compile = 0, from, st, en, n;
	char		 cs[4], err[128];
	bool		 wrong;
	static const char set[] = "[\\p{Cased}\\p{CWCM}\\p{CWCF}]";

	cased = rr_regex_compile(set, sizeof(set) - 1, 0, &from, err,
	    sizeof(err));
	if (cased == NULL) {
		ok(0, "PCRE2 knows the properties Cased, CWCM, CWCF");
		return;
	}
	inset = xcalloc(MAXCP, 1);
	classsize = xcalloc(MAXCP, 1);
	buf_init(&subj);
	for (c = 0; c < MAXCP; c++) {
		if (surrogate(c))
			continue;
		f = rr_fold_code(c);
		if (rr_fold_code(f) != f)
			bad_idem++;
		if (f != c)
			nfold++;
		if (!matches_char(cased, c)) {
			if (f != c && bad_uncased++ < 5)
				printf("#   U+%04X folds, PCRE2: uncased\n",
				    (unsigned)c);
			continue;
		}
		inset[c] = 1;
		nset++;
		classsize[f]++;
		buf_add(&subj, cs, enc(c, cs));
	}
	for (c = 0; c < MAXCP; c++) {
		if (!inset[c])
			continue;
		if ((re = caseless(c, RR_RE_IGNORE_CASE)) == NULL) {
			bad_compile++;
			continue;
		}
		f = rr_fold_code(c);
		n = 0;
		wrong = false;
		for (from = 0; rr_regex_match_from(re, subj.data, subj.len,
		    from, &st, &en) == RR_MATCH_YES; from = en) {
			n++;
			if (!same_folding(subj.data + st, en - st, cs,
			    enc(c, cs)))
				wrong = true;
		}
		if ((wrong || n != classsize[f]) && bad_class++ < 5)
			printf("#   /\\x{%X}/i matches %zu characters (%s), "
			    "%u fold to U+%04X\n", (unsigned)c, n,
			    wrong ? "some fold otherwise" : "all fold alike",
			    (unsigned)classsize[f], (unsigned)f);
		rr_regex_free(re);
	}
	printf("# Unicode table %s; PCRE2 %s: %zu cased, %zu folding\n",
	    "14.0", rr_regex_version(), nset, nfold);
	is_int(bad_idem, 0, "fold(fold(c)) == fold(c) for every code point");
	is_int(bad_uncased, 0, "only characters PCRE2 calls cased fold");
	is_int(bad_compile, 0, "every /\\x{c}/i compiles");
	is_int(bad_class, 0,
	    "/c/i matches exactly the characters that fold like c");
	ok(nfold > 1400 && nset > 4000, "the table and the set are whole");
	rr_regex_free(cased);
	buf_release(&subj);
	free(inset);
	free(classsize);
}

int
main(void)
{
	spot_checks();
	invalid_utf8();
	offsets();
	random_texts();
	against_pcre2();
	return done_testing();
}
