/* Globs: minimatch-like semantics with {dot: true, matchBase: true}. */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "casefold.h"
#include "glob.h"
#include "helpers.h"
#include "tap.h"

/* As the cache gives it (glob_as_cached()); -1: it would not build. */
static int
m_lazy(const char *glob, const char *path)
{
	struct rr_glob	*g;
	struct buf	 rx;
	int		 r = -1;

	buf_init(&rx);
	if ((g = glob_as_cached(glob, &rx)) != NULL) {
		r = rr_glob_match(g, path, strlen(path));
		rr_glob_free(g);
	}
	buf_release(&rx);
	return r;
}

/*
 * Whether the glob matches the path, compiled and as the cache gives it
 * (m_lazy()): 2 when the two answers differ, which no case expects.
 */
static int
m(const char *glob, const char *path)
{
	struct rr_glob	*g;
	const char	*err;
	size_t		 off;
	int		 r;

	g = rr_glob_compile(glob, strlen(glob), &err, &off);
	if (g == NULL)
		return -1;
	r = rr_glob_match(g, path, strlen(path));
	rr_glob_free(g);
	return m_lazy(glob, path) == r ? r : 2;
}

/* m() ignoring case, the path folded as eval_match.c folds it. */
static int
mci(const char *glob, const char *path)
{
	struct rr_glob	*g;
	struct buf	 f;
	const char	*err;
	size_t		 off;
	int		 r;

	g = rr_glob_compile(glob, strlen(glob), &err, &off);
	if (g == NULL)
		return -1;
	buf_init(&f);
	rr_fold(path, strlen(path), &f);
	r = rr_glob_test_ci(g, path, strlen(path), f.data, f.len) ==
	    RR_MATCH_YES;
	buf_release(&f);
	rr_glob_free(g);
	return r;
}

#define CI_YES(g, p) is_int(mci(g, p), 1, "'%s' matches '%s' ignoring case", \
	g, p)
#define CI_NO(g, p) is_int(mci(g, p), 0, "'%s' does not match '%s' " \
	"ignoring case", g, p)

/* Whether a glob has a caseless twin (glob.h): folding changes it. */
static int
has_twin(const char *glob)
{
	struct rr_glob	*g;
	const char	*err;
	size_t		 off;
	int		 r;

	if ((g = rr_glob_compile(glob, strlen(glob), &err, &off)) == NULL)
		return -1;
	r = rr_glob_regex_ci(g) != NULL;
	rr_glob_free(g);
	return r;
}

#define YES(g, p) is_int(m(g, p), 1, "'%s' matches '%s'", g, p)
#define NO(g, p) is_int(m(g, p), 0, "'%s' does not match '%s'", g, p)

static void
bad(const char *glob, const char *want, size_t want_off)
{
	const char	*err = NULL;
	size_t		 off = 99;

	ok(rr_glob_compile(glob, strlen(glob), &err, &off) == NULL &&
	    err != NULL && strcmp(err, want) == 0 && off == want_off,
	    "'%s' is refused: %s at %zu (got %s at %zu)", glob, want,
	    want_off, err ? err : "nothing", off);
}

int
main(void)
{
	struct buf	 b;
	const char	*err;
	size_t		 off;
	bool		 base;
	int		 i;

	/*
	 * The leading literal text of a glob decides alone when the path
	 * lacks it (m() also checks each answer against the regex's).
	 */
	YES("/etc/**", "/etc/passwd");
	NO("/etc/**", "/etcx/passwd");
	NO("/etc/**", "/et");
	NO("/etc/**", "");
	YES("/etc", "/etc");
	NO("/etc", "/etc/");
	YES("**/.cache/**", "/home/u/.cache/pip/x");
	YES("**/.cache/**", ".cache/x");
	NO("**/.cache/**", "/home/u/.cachex");
	NO("**/.cache/**", "/home/u/cache/x");
	NO("**/.cache/**", "/home/u/x.cache/y");
	YES("**/go/pkg/mod/cache/**", "/root/go/pkg/mod/cache/a");
	NO("**/go/pkg/mod/cache/**", "/root/go/pkg/mod/a");
	YES("a.b*", "a.bc");
	NO("a.b*", "axbc");
	YES("a+b(c)", "a+b(c)");
	NO("a+b(c)", "a+b(d)");
	YES("{a,b}/x", "b/x");
	YES("[ab]c/**", "bc/d");
	YES("?ab", "xab");
	YES("\\*lit", "*lit");
	NO("\\*lit", "xlit");
	YES("x{1..3}y", "x2y");
	NO("x{1..3}y", "x4y");
	YES("결제/**", "결제/a");
	NO("결제/**", "결과/a");
	YES("**/결제_*", "docs/결제_v1");
	NO("**/결제_*", "docs/결과_v1");
	YES("database/src/**/*.ts", "database/src/user.ts");
	YES("database/src/**/*.ts", "database/src/a/b/user.ts");
	NO("database/src/**/*.ts", "database/user.ts");
	NO("database/src/**/*.ts", "database/src/user.tsx");
	YES("**/schema.prisma", "schema.prisma");
	YES("**/schema.prisma", "prisma/db/schema.prisma");
	YES("**/*.test.ts", "database/src/user.test.ts");
	YES("**/migrations/**/*.sql", "db/migrations/2024/01/a.sql");
	YES("**/migrations/**/*.sql", "migrations/a.sql");
	NO("**/migrations/**/*.sql", "db/migration/a.sql");
	YES("src/**", "src/a");
	YES("src/**", "src/a/b/c");
	NO("src/**", "srcx/a");
	YES("**", "any/thing/at/all");
	/* matchBase: no '/' in the glob tests the basename. */
	YES("*.md", "docs/a/README.md");
	YES("*.md", "README.md");
	NO("*.md", "docs/a/README.mdx");
	/* dot: true */
	YES("*.env", "config/.env");
	YES(".env*", "config/.env.local");
	YES("**/.github/**", ".github/workflows/ci.yml");
	YES("src/*", "src/.hidden");
	/* '*' and '?' stay inside one segment */
	NO("src/*.ts", "src/a/b.ts");
	YES("src/?.ts", "src/a.ts");
	NO("src/?.ts", "src/ab.ts");
	YES("src/?.ts", "src/한.ts");
	NO("a?b", "a/b");
	/* tool names */
	YES("mcp__github__*", "mcp__github__create_issue");
	NO("mcp__github__*", "mcp__gitlab__x");
	/* non-ASCII */
	YES("*_테스트시트_*", "docs/결제_테스트시트_v1.md");
	NO("*_테스트시트_*", "docs/결제_테스트결과_v1.md");
	/* classes */
	YES("file[0-9].txt", "file7.txt");
	NO("file[0-9].txt", "filex.txt");
	YES("file[!0-9].txt", "filex.txt");
	NO("file[!0-9].txt", "file7.txt");
	YES("file[^0-9].txt", "filex.txt");
	NO("a[/]b", "a/b");
	NO("a[!x]b", "a/b");
	YES("[]]x", "]x");
	YES("[[:alpha:]]1", "q1");
	/* braces */
	YES("*.{ts,tsx}", "a/b.tsx");
	NO("*.{ts,tsx}", "a/b.js");
	YES("{src,lib}/**/*.{c,h}", "lib/x/y.h");
	YES("a{,.bak}", "a.bak");
	YES("a{,.bak}", "a");
	YES("{a,{b,c}}x", "cx");
	YES("x{1..3}", "x2");
	NO("x{1..3}", "x4");
	YES("x{01..10}", "x07");
	YES("{a..c}z", "bz");
	YES("{a}", "{a}");
	NO("{a}", "a");
	/* escapes and metacharacters */
	YES("a+b(1).txt", "a+b(1).txt");
	NO("a+b(1).txt", "aab1.txt");
	YES("file\\[1\\].txt", "file[1].txt");
	YES("\\*", "*");
	NO("\\*", "x");
	YES("a.b", "a.b");
	NO("a.b", "axb");
	YES("./src/*.c", "src/x.c");
	YES("$HOME^x|y", "$HOME^x|y");
	/* errors */
	bad("src/[ab", "unterminated character class", 4);
	bad("src/{a,b", "unterminated brace", 4);
	bad("a\\", "trailing backslash", 1);
	bad("x{1..100000}", "numeric range too large", 1);
	bad("a\xff", "glob is not valid UTF-8", 1);

	/* The translation itself, so a regression shows as a diff. */
	buf_init(&b);
	ok(glob_to_regex("src/**/*.{ts,js}", 16, &b, &base, &err, &off) == 0 &&
	    !base, "translates a path glob");
	is_str(b.data, "src/(?:[^/]*/)*[^/]*\\.(?:ts|js)", "translation");
	buf_reset(&b);
	ok(glob_to_regex("*.md", 4, &b, &base, &err, &off) == 0 && base,
	    "a glob without '/' matches basenames");
	buf_release(&b);

	/* Thousands of braces stay linear, and match quickly. */
	buf_init(&b);
	for (i = 0; i < 5000; i++)
		buf_adds(&b, "{a,b}");
	{
		struct buf r, p;
		buf_init(&r);
		buf_init(&p);
		ok(glob_to_regex(b.data, b.len, &r, &base, &err, &off) == 0 &&
		    r.len < 20 * b.len, "5,000 brace groups: %zu regex bytes",
		    r.len);
		for (i = 0; i < 5000; i++)
			buf_addc(&p, i % 2 ? 'a' : 'b');
		is_int(m(b.data, p.data), 1, "and the glob matches");
		buf_release(&r);
		buf_release(&p);
	}
	buf_release(&b);

	/* A 100 KB path. */
	buf_init(&b);
	for (i = 0; i < 10000; i++)
		buf_adds(&b, "dir12345/");
	buf_adds(&b, "x.ts");
	is_int(m("**/*.ts", b.data), 1, "a 100 KB path matches");
	buf_release(&b);

	/*
	 * "**" + "/" + a name: the name against the basename, the same
	 * answers, and a path of two million segments is no limit to reach.
	 */
	buf_init(&b);
	ok(glob_to_regex("**/*.env", 8, &b, &base, &err, &off) == 0 && base &&
	    strcmp(b.data, "[^/]*\\.env") == 0,
	    "'**/' + a name: the name, on the basename");
	buf_reset(&b);
	ok(glob_to_regex("**/a/*.env", 10, &b, &base, &err, &off) == 0 &&
	    !base && glob_to_regex("**/**", 5, &b, &base, &err, &off) == 0 &&
	    !base, "not when the rest has a '/' or a '**'");
	buf_reset(&b);
	YES("**/.env", ".env");
	YES("**/.env", "a/b/.env");
	NO("**/.env", "a/.env/x");
	NO("**/.env", "a/x.env");
	YES("./**/*.{pem,key}", "k/id.key");
	YES("**/*", "a/");
	NO("**/?", "a/");
	for (i = 0; i < 2000000; i++)
		buf_adds(&b, "a/");
	buf_adds(&b, ".env");
	is_int(m("**/.env", b.data), 1, "a 4 MB path of 2,000,000 segments");
	{
		struct rr_glob *g = rr_glob_compile("a/**/x/.env", 11, &err,
		    &off);
		ok(g != NULL && rr_glob_test(g, b.data, b.len) ==
		    RR_MATCH_LIMIT, "a '**' between segments there reaches "
		    "the match limit, and says so");
		rr_glob_free(g);
	}
	buf_release(&b);
	/* Ignoring case: Unicode simple folding, either side's case. */
	CI_YES(".env", "/p/.ENV");
	CI_YES(".env", ".Env");
	CI_YES("secrets/**", "SECRETS/x");
	CI_YES("secrets/**", "Secrets/Deep/KEY");
	CI_YES("**/Makefile", "src/MAKEFILE");
	CI_YES("**/Makefile", "src/makefile");
	CI_YES("*.PEM", "server.pem");
	CI_YES("[A-Z]*.md", "readme.md");
	CI_YES("[[:upper:]]*.md", "readme.md");
	CI_YES("\u00fcber/*", "\u00dcBER/x");
	CI_YES("kelvin", "\u212aelvin");
	CI_YES("{.env,.npmrc}", ".NPMRC");
	CI_NO(".env", ".env.example");
	CI_NO(".env", "x.env.md");
	CI_NO("secrets/**", "SECRETSAUCE/x");
	NO(".env", ".ENV");
	NO("**/Makefile", "src/MAKEFILE");
	is_int(has_twin(".env"), 0, "'.env' folds to itself: no twin");
	is_int(has_twin("secrets/**"), 0, "'secrets/**': no twin");
	is_int(has_twin("**/Makefile"), 1, "'**/Makefile': a caseless twin");
	is_int(has_twin("[[:lower:]]"), 1, "a POSIX class: a caseless twin");
	return done_testing();
}
