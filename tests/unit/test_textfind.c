/*
 * One literal in one text: text_find() against a plain reference on
 * random texts, whole words decided on code points, and the word
 * characters checked against PCRE2's \w under PCRE2_UCP.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "textfind.h"

static unsigned long rng = 7;

static unsigned
rnd(unsigned n)
{
	rng = rng * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)((rng >> 33) % n);
}

static long
find(const char *h, const char *n, bool word)
{
	return text_find(h, strlen(h), n, strlen(n), word);
}

/* ---- the reference ------------------------------------------------------ */

/*
 * The code point at s[i], or -1 for a byte of no valid sequence, by the
 * table of well-formed sequences of RFC 3629 (section 4).
 */
static long
ref_decode(const unsigned char *s, size_t len, size_t i, size_t *k)
{
	static const struct {
		unsigned char lo[4], hi[4];
		size_t n;
	} forms[] = {
		{ { 0xc2, 0x80 }, { 0xdf, 0xbf }, 2 },
		{ { 0xe0, 0xa0, 0x80 }, { 0xe0, 0xbf, 0xbf }, 3 },
		{ { 0xe1, 0x80, 0x80 }, { 0xec, 0xbf, 0xbf }, 3 },
		{ { 0xed, 0x80, 0x80 }, { 0xed, 0x9f, 0xbf }, 3 },
		{ { 0xee, 0x80, 0x80 }, { 0xef, 0xbf, 0xbf }, 3 },
		{ { 0xf0, 0x90, 0x80, 0x80 }, { 0xf0, 0xbf, 0xbf, 0xbf }, 4 },
		{ { 0xf1, 0x80, 0x80, 0x80 }, { 0xf3, 0xbf, 0xbf, 0xbf }, 4 },
		{ { 0xf4, 0x80, 0x80, 0x80 }, { 0xf4, 0x8f, 0xbf, 0xbf }, 4 }
	};
	size_t	f, j;
	long	c;

	*k = 1;
	if (s[i] < 0x80)
		return s[i];
	for (f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		if (i + forms[f].n > len)
			continue;
		for (j = 0; j < forms[f].n; j++)
			if (s[i + j] < forms[f].lo[j] ||
			    s[i + j] > forms[f].hi[j])
				break;
		if (j < forms[f].n)
			continue;
		*k = forms[f].n;
		c = s[i] & (*k == 2 ? 0x1f : *k == 3 ? 0x0f : 0x07);
		for (j = 1; j < *k; j++)
			c = (c << 6) | (s[i + j] & 0x3f);
		return c;
	}
	return -1;
}

static bool
ref_word(long c)
{
	return c < 0 || text_word_char((uint32_t)c);
}

/*
 * Every occurrence, in order, with its neighbours found by decoding the
 * text from its start: slow and plainly right.
 */
static long
ref_find(const unsigned char *h, size_t hl, const unsigned char *n, size_t nl,
    bool word)
{
	long	 prev, next, first, last;
	size_t	 i, j, k;

	if (nl == 0)
		return word ? -1 : 0;
	/* The needle's first and last characters. */
	first = ref_decode(n, nl, 0, &k);
	for (last = -1, j = 0; j < nl; j += k)
		last = ref_decode(n, nl, j, &k);
	for (i = 0; i + nl <= hl; i++) {
		if (memcmp(h + i, n, nl) != 0)
			continue;
		if (!word)
			return (long)i;
		/* The character that ends right at i, if one does. */
		prev = -2;
		for (j = 0; j < i; j += k) {
			prev = ref_decode(h, hl, j, &k);
			if (j + k > i) {	/* i splits it: the byte */
				prev = h[i - 1] < 0x80 ? h[i - 1] : -1;
				break;
			}
		}
		next = i + nl < hl ? ref_decode(h, hl, i + nl, &k) : -2;
		if (prev != -2 && ref_word(first) && ref_word(prev))
			continue;
		if (next != -2 && ref_word(last) && ref_word(next))
			continue;
		return (long)i;
	}
	return -1;
}

/* ---- cases -------------------------------------------------------------- */

static void
plain_cases(void)
{
	ok(find("abc", "", false) == 0 && find("abc", "", true) == -1,
	    "an empty needle: at 0, never a word");
	ok(find("ab", "abc", false) == -1 && find("xabcx", "abc", false) == 1,
	    "longer than the text; in the middle");
	ok(find("a quick hack", "hack", true) == 8 &&
	    find("read Hacker News", "Hack", true) == -1 &&
	    find("hackhack hack", "hack", true) == 9,
	    "whole words: after rejected ones");
	ok(find("rm -rf /", "-rf", true) == 3 &&
	    find("x-rfx", "-rf", true) == -1 && find("x-rf", "-rf", true) == 1,
	    "a needle that starts with a non-word character");
	ok(find("caf\xc3\xa9hack", "hack", true) == -1 &&
	    find("\xc3\xbc" "ber", "ber", true) == -1,
	    "a non-ASCII letter is a word character");
	ok(find("\xe2\x80\x9e\xc3\xbc" "ber\xe2\x80\x9c", "\xc3\xbc" "ber",
	    true) == 3 &&
	    find("a\xe2\x80\x94hack\xe2\x80\x94" "b", "hack", true) == 4 &&
	    find("\xe3\x80\x8chack\xe3\x80\x8d", "hack", true) == 3 &&
	    find("\xc2\xa0hack\xc2\xa0", "hack", true) == 2,
	    "quotes, dashes, CJK brackets and NBSP are not");
	ok(find("\xff" "hack", "hack", true) == -1 &&
	    find("hack\x80", "hack", true) == -1 &&
	    find("\xc3" "hack", "hack", true) == -1,
	    "a stray byte of broken UTF-8 counts as a word character");
	ok(find("\xc3\xbc" "ber", "\xbc" "ber", true) == -1 &&
	    find("\xc3\xbc" "ber", "\xbc" "ber", false) == 1,
	    "a needle cut in a character is found as bytes, not as a word");
	ok(find("a_hack", "hack", true) == -1 &&
	    find("a\xe2\x80\xbfhack", "hack", true) == -1,
	    "underscore and connector punctuation join words");
}

/* Random texts over characters that make and break words. */
static void
random_cases(void)
{
	static const char *const pieces[] = {
		"a", "b", "ab", " ", "_", "-", "\xc3\xbc", "\xe2\x80\x94",
		"\xe3\x80\x82", "\xc3", "\x80", "\xbc", "\xc2\xa0", "\n"
	};
	const size_t	 np = sizeof(pieces) / sizeof(pieces[0]);
	char		 h[96], n[16];
	size_t		 t, hl, nl, bad = 0, hits = 0;
	const char	*p;
	long		 got, want;
	bool		 word;

	for (t = 0; t < 20000; t++) {
		for (hl = 0; hl < sizeof(h) - 8;) {
			p = pieces[rnd((unsigned)np)];
			memcpy(h + hl, p, strlen(p));
			hl += strlen(p);
			if (rnd(12) == 0)
				break;
		}
		for (nl = 0; nl < sizeof(n) - 8;) {
			p = pieces[rnd((unsigned)np)];
			memcpy(n + nl, p, strlen(p));
			nl += strlen(p);
			if (rnd(3) == 0)
				break;
		}
		if (rnd(2) && hl > 4) {	/* a needle taken from the text */
			nl = 1 + rnd(4);
			memcpy(n, h + rnd((unsigned)(hl - nl)), nl);
		}
		word = rnd(4) != 0;
		got = text_find(h, hl, n, nl, word);
		want = ref_find((unsigned char *)h, hl, (unsigned char *)n,
		    nl, word);
		hits += want >= 0;
		if (got != want && bad++ < 5) {
			printf("# word %d: got %ld, want %ld in '", word, got,
			    want);
			for (size_t q = 0; q < hl; q++)
				printf("\\x%02x", (unsigned char)h[q]);
			printf("' for '");
			for (size_t q = 0; q < nl; q++)
				printf("\\x%02x", (unsigned char)n[q]);
			printf("'\n");
		}
	}
	ok(bad == 0 && hits > 2000, "20000 random searches agree with the "
	    "reference (%zu found)", hits);
}

/* Each code point the table calls a non-word character is \W in PCRE2. */
static void
pcre2_agrees(void)
{
	pcre2_code	*nw, *w;
	pcre2_match_data *md;
	unsigned char	 s[4];
	uint32_t	 c;
	size_t		 n, bad = 0, nonword = 0;
	int		 err;
	PCRE2_SIZE	 off;

	nw = pcre2_compile((PCRE2_SPTR)"^\\W$", PCRE2_ZERO_TERMINATED,
	    PCRE2_UTF | PCRE2_UCP, &err, &off, NULL);
	w = pcre2_compile((PCRE2_SPTR)"^\\w$", PCRE2_ZERO_TERMINATED,
	    PCRE2_UTF | PCRE2_UCP, &err, &off, NULL);
	md = pcre2_match_data_create(1, NULL);
	for (c = 0; c < 0x10000; c++) {
		if (c >= 0xd800 && c <= 0xdfff)
			continue;
		if (c < 0x80) {
			s[0] = (unsigned char)c;
			n = 1;
		} else if (c < 0x800) {
			s[0] = (unsigned char)(0xc0 | (c >> 6));
			s[1] = (unsigned char)(0x80 | (c & 0x3f));
			n = 2;
		} else {
			s[0] = (unsigned char)(0xe0 | (c >> 12));
			s[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
			s[2] = (unsigned char)(0x80 | (c & 0x3f));
			n = 3;
		}
		if (text_word_char(c)) {
			/* ASCII: exactly \w; beyond it, only the table's. */
			if (c < 0x80 &&
			    pcre2_match(w, s, n, 0, 0, md, NULL) < 0)
				bad++;
			continue;
		}
		nonword++;
		if (pcre2_match(nw, s, n, 0, 0, md, NULL) < 0 && bad++ < 5)
			printf("# U+%04X is \\w in PCRE2\n", (unsigned)c);
	}
	ok(bad == 0 && nonword > 300, "every non-word character is \\W in "
	    "PCRE2 UCP (%zu of them)", nonword);
	pcre2_match_data_free(md);
	pcre2_code_free(nw);
	pcre2_code_free(w);
}

int
main(void)
{
	plain_cases();
	random_cases();
	pcre2_agrees();
	return done_testing();
}
