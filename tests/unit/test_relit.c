/*
 * Required-literal extraction: tricky patterns by hand, the case-folding
 * assumptions checked against PCRE2, and a randomized soundness check:
 * whenever PCRE2 matches a subject, the subject contains one of the
 * extracted literals.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "litscan.h"
#include "match_re.h"
#include "relit.h"
#include "randpat.h"
#include "tap.h"

/* "lit" or "lit/ci" per alternative, '|'-separated; "-" for none. */
static char *
show(const char *pat, bool ci)
{
	struct relit	r;
	struct buf	b;
	size_t		i;

	buf_init(&b);
	if (relit_regex(pat, strlen(pat), ci, &r) < 0)
		buf_adds(&b, "-");
	for (i = 0; i < r.n; i++)
		buf_printf(&b, "%s%s%s", i ? "|" : "", r.alts[i].s,
		    r.alts[i].ci ? "/ci" : "");
	relit_release(&r);
	return buf_detach(&b, NULL);
}

static void
re(const char *pat, bool ci, const char *want)
{
	char	*got = show(pat, ci);

	is_str(got, want, "regex %s%s -> %s", pat, ci ? " (i)" : "", want);
	free(got);
}

static void
gl(const char *glob, const char *want)
{
	struct relit	r;

	if (relit_glob(glob, strlen(glob), &r) < 0)
		is_str("-", want, "glob %s -> %s", glob, want);
	else
		is_str(r.alts[0].s, want, "glob %s -> %s", glob, want);
	relit_release(&r);
}

static void
fuzz_soundness(void)
{
	struct buf	 pat, subj;
	struct relit	 r;
	struct rr_regex	*rx;
	char		 err[128];
	size_t		 off, i, s, matched = 0, checked = 0, bad = 0;
	int		 iter;
	bool		 ci, any;

	buf_init(&pat);
	buf_init(&subj);
	for (iter = 0; iter < 4000; iter++) {
		buf_reset(&pat);
		rp_pattern(&pat);
		ci = rnd(2);
		rx = rr_regex_compile(pat.data, pat.len, ci ? RR_RE_IGNORE_CASE :
		    0, &off, err, sizeof(err));
		if (rx == NULL)
			continue;
		if (relit_regex(pat.data, pat.len, ci, &r) < 0) {
			rr_regex_free(rx);
			continue;
		}
		checked++;
		for (s = 0; s < 60; s++) {
			buf_reset(&subj);
			rp_text(&subj, 10);
			if (rr_regex_match(rx, subj.data, subj.len, NULL, NULL) !=
			    RR_MATCH_YES)
				continue;
			matched++;
			any = false;
			for (i = 0; i < r.n && !any; i++)
				any = lit_occurs(subj.data, subj.len,
				    r.alts[i].s, r.alts[i].len, r.alts[i].ci);
			if (!any && bad++ < 5)
				printf("# unsound: /%s/%s matched '%s'\n",
				    pat.data, ci ? "i" : "", subj.data);
		}
		relit_release(&r);
		rr_regex_free(rx);
	}
	ok(checked > 1000, "random patterns with a literal: %zu", checked);
	ok(matched > 1000, "subjects they matched: %zu", matched);
	is_int(bad, 0, "every match contains a required literal");
	buf_release(&pat);
	buf_release(&subj);
}

/* UTF-8 of code point u into o; returns its length. */
static size_t
utf8(unsigned u, char *o)
{
	if (u < 0x80) {
		o[0] = (char)u;
		return 1;
	}
	if (u < 0x800) {
		o[0] = (char)(0xc0 | u >> 6);
		o[1] = (char)(0x80 | (u & 63));
		return 2;
	}
	if (u < 0x10000) {
		o[0] = (char)(0xe0 | u >> 12);
		o[1] = (char)(0x80 | ((u >> 6) & 63));
		o[2] = (char)(0x80 | (u & 63));
		return 3;
	}
	o[0] = (char)(0xf0 | u >> 18);
	o[1] = (char)(0x80 | ((u >> 12) & 63));
	o[2] = (char)(0x80 | ((u >> 6) & 63));
	o[3] = (char)(0x80 | (u & 63));
	return 4;
}

/* Which non-ASCII characters does caseless PCRE2 fold onto ASCII? */
static void
case_folding(void)
{
	const char	*safe = "[a-jl-rt-zA-JL-RT-Z]", *unsafe = "[ksKS]";
	struct rr_regex	*rs, *ru;
	char		 err[128], s[4];
	size_t		 off, n, safe_hits = 0, unsafe_hits = 0;
	unsigned	 u, c;
	bool		 flags_ok = true;

	rs = rr_regex_compile(safe, strlen(safe), RR_RE_IGNORE_CASE |
	    RR_RE_ANCHORED_FULL, &off, err, sizeof(err));
	ru = rr_regex_compile(unsafe, strlen(unsafe), RR_RE_IGNORE_CASE |
	    RR_RE_ANCHORED_FULL, &off, err, sizeof(err));
	for (u = 0x80; u < 0x110000; u++) {
		if (u >= 0xd800 && u < 0xe000)
			continue;
		n = utf8(u, s);
		if (rr_regex_match(rs, s, n, NULL, NULL) == RR_MATCH_YES)
			safe_hits++;
		if (rr_regex_match(ru, s, n, NULL, NULL) == RR_MATCH_YES)
			unsafe_hits++;
	}
	is_int(safe_hits, 0, "caseless ASCII letters but k and s match no "
	    "non-ASCII character");
	is_int(unsafe_hits, 2, "k and s match U+212A and U+017F");
	for (c = 0; c < 128; c++)
		if (relit_ci_unsafe((unsigned char)c) != (c == 'k' ||
		    c == 'K' || c == 's' || c == 'S'))
			flags_ok = false;
	ok(flags_ok, "relit_ci_unsafe() is exactly k, K, s, S");
	rr_regex_free(rs);
	rr_regex_free(ru);
}

int
main(void)
{
	pcre2_code	*code;
	int		 err, jit;
	PCRE2_SIZE	 off;

	/*
	 * The build uses JIT wherever PCRE2's works (configure's probe): a
	 * header that shadowed config.h once compiled it out without a word.
	 */
	code = pcre2_compile((PCRE2_SPTR)"a+b", PCRE2_ZERO_TERMINATED, 0,
	    &err, &off, NULL);
	jit = code != NULL && pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
	pcre2_code_free(code);
	ok(rr_regex_jit_built() == jit, "JIT in this build: %d, works in "
	    "PCRE2: %d", rr_regex_jit_built(), jit);
	re("abc", false, "abc");
	re("a|b", false, "a|b");
	re("foo|", false, "-");
	re("", false, "-");
	re("ab?c", false, "a");
	re("ab+cd", false, "ab");
	re("xa*bcd", false, "bcd");
	re("a(bc)*d", false, "a");
	re("x(hello)+y", false, "hello");
	re("x(hello){0,3}y", false, "x");
	re("(?i)Hello", false, "Hello/ci");
	re("(?i)hello world", false, "hello world/ci");
	re("(?i)kiss", false, "i/ci");
	re("token\\(", true, "en(/ci");
	re("\\Qa.b*\\E", false, "a.b*");
	re("a\\Q\\E*bc", false, "bc");
	re("ab\\E?cd", false, "cd");
	re("[abc]def", false, "def");
	re("[]a]bc", false, "bc");
	re("[^]a]bc", false, "bc");
	re("[[:alpha:]]xyz", false, "xyz");
	re("[\\Q]\\E]x", false, "-");
	re("(?=abcd)x", false, "x");
	re("(?<!abcd)xy", false, "xy");
	re("(a)\\1", false, "-");
	re("(?x)abc", false, "-");
	re("(*ACCEPT)abc", false, "-");
	re("a(*ACCEPT)bcd", false, "-");
	re("\\x41bc", false, "-");
	re("\\pLabc", false, "-");
	re("\\p{Lu}abc", false, "-");
	re("\\d+foo", false, "foo");
	re("a{2}bcd", false, "bcd");
	re("a{,3}bc", false, "-");
	re("a{x}bc", false, "a{x}bc");
	re("\xc3\xa9+x", false, "\xc3\xa9");
	re("(?i)\xc3\xa9" "clair", false, "clair/ci");
	re("foo(?i)bar", false, "foo");
	re("(?i:ab)c", false, "ab/ci");
	re("(a|b)cd", false, "cd");
	re("((ab|cd)efg)", false, "efg");
	re("^rm\\s+-rf", false, "-rf");
	re("(^|[;&|]\\s*)rm\\s+-[a-zA-Z]*r[a-zA-Z]*f?\\s+(/|~)(\\s|$)",
	    false, "rm");
	re("(?<name>abc)", false, "abc");
	re("(?P<n>xyz)", false, "xyz");
	re("(?P<n>x)(?P=n)", false, "-");
	re("(?#comment)abc", false, "abc");
	re("a.bc", false, "bc");
	re("(?(1)a|b)", false, "-");
	re("a\\.b", false, "a.b");
	re("(?i)a|B", false, "a/ci|B/ci");
	re("a|(?i)b|c", false, "a|b/ci|c/ci");
	re("(?s).*abc", false, "abc");
	re("(?-i)abc", true, "abc");
	re("\\bword\\b", false, "word");
	re("a)", false, "-");
	re("abc\\", false, "-");
	re("(?|(abc)|(abd))x", false, "abc|abd");
	/* A group of branches that all have one: a set, when longer. */
	re("(^|/)(\\.envrc|\\.env(\\.(?!example)[^/]+)?)$", false,
	    ".envrc|.env");
	re("x(ab|cd)y(efg|hij)", false, "efg|hij");
	re("(ab|cd)+x", false, "ab|cd");
	re("(ab|cd)*x", false, "x");
	re("a(bc|de)?f", false, "a");
	re("(ab|c)x", false, "x");
	re("(a|(bb|cc))", false, "a|bb|cc");
	re("(?i)(abc|de)f", false, "abc/ci|de/ci");
	re("(?=abcd)(de|fg)", false, "de|fg");
	re("(a|b|c|d|e|f|g|h|i|j|k|l|m|n|o|p)|q", false, "-");
	re("a\\nb", false, "a\nb");
	re("(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((("
	    "(((((a)))))))))))))))))))))))))))))))))))))))))))))))))))))))))"
	    ")))))))))))))", false, "-");
	re("(?R)", false, "-");
	re("a(?1)", false, "-");
	re("\\N{U+41}bc", false, "-");
	re("a\\Kbc", false, "bc");
	re("(?i)ski", false, "i/ci");

	gl("**/*.ts", ".ts");
	gl("src/**/schema.prisma", "/schema.prisma");
	gl("./docs/a.md", "docs/a.md");
	gl("*", "-");
	gl("{a,bcd}x", "x");
	gl("{[}],x}abc", "abc");
	gl("a[bcdef]gh", "gh");
	gl("foo\\*bar", "foo*bar");
	gl("services/svc12/**/*.ts", "services/svc12/");
	gl("**/gen_3.{py,pyi}", "/gen_3.");

	case_folding();
	fuzz_soundness();
	return done_testing();
}
