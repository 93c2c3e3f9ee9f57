/*
 * Glob patterns in a shell command's words (shellglob.c): what they
 * expand to on a directory tree made here, as bash without dotglob
 * expands them, and the bounds that hold whatever the directory holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena.h"
#include "shellglob.h"
#include "tap.h"

static char	 root[] = "/tmp/rr-glob-XXXXXX";
static struct arena a;

/* The names path expands to, sorted, joined by spaces, root cut to R. */
static char *
expand(const char *path, const char *home, size_t max)
{
	const char	*out[SH_GLOB_MAX];
	static char	 joined[8192];
	size_t		 n, i, k, rl = strlen(root);
	const char	*t;

	n = sh_arg_globs(path, home, &a, out, max);
	for (i = 1; i < n; i++)		/* readdir order is the disk's */
		for (k = i; k > 0 && strcmp(out[k - 1], out[k]) > 0; k--)
			t = out[k], out[k] = out[k - 1], out[k - 1] = t;
	joined[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i > 0)
			strcat(joined, " ");
		if (strncmp(out[i], root, rl) == 0) {
			strcat(joined, "R");
			strcat(joined, out[i] + rl);
		} else
			strcat(joined, out[i]);
	}
	return joined;
}

static void
mk(const char *rel)
{
	char	path[256];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	ok(mkdir(path, 0700) == 0, "made %s", rel);
}

int
main(void)
{
	char	pat[256], home[256], many[64];
	int	i;

	arena_init(&a);
	if (mkdtemp(root) == NULL) {
		ok(0, "mkdtemp");
		return done_testing();
	}
	mk("etc");
	mk("etc/ssh");
	mk("usr");
	mk(".hidden");
	mk("home");
	mk("home/dev");
	mk("home/dev/.ssh");
	mk("home/dev/.aws");
	mk("big");
	for (i = 0; i < SH_GLOB_SCAN + 10; i++) {
		snprintf(many, sizeof(many), "big/f%05d", i);
		snprintf(pat, sizeof(pat), "%s/%s", root, many);
		if (mkdir(pat, 0700) != 0)
			break;
	}

	snprintf(pat, sizeof(pat), "%s/e?c", root);
	is_str(expand(pat, NULL, SH_GLOB_MAX), "R/etc", "? matches one character");
	snprintf(pat, sizeof(pat), "%s/[e]tc", root);
	is_str(expand(pat, NULL, SH_GLOB_MAX), "R/etc", "a bracket expression");
	snprintf(pat, sizeof(pat), "%s/e*c/", root);
	is_str(expand(pat, NULL, SH_GLOB_MAX), "R/etc/", "the rest is kept");
	snprintf(pat, sizeof(pat), "%s/*/*", root);
	is_str(expand(pat, NULL, SH_GLOB_MAX), "R/big/* R/etc/* R/home/* R/usr/*",
	    "* skips dot names and keeps the later pattern as written");
	snprintf(pat, sizeof(pat), "%s/**", root);
	is_str(expand(pat, NULL, SH_GLOB_MAX), "R/big R/etc R/home R/usr",
	    "** is * (no globstar)");
	snprintf(pat, sizeof(pat), "%s/.*", root);
	is_str(expand(pat, NULL, SH_GLOB_MAX), "R/.hidden",
	    "a written dot matches dot names, never . or ..");
	snprintf(pat, sizeof(pat), "%s/etc/s?h", root);
	is_str(expand(pat, NULL, SH_GLOB_MAX), "R/etc/ssh",
	    "the first pattern deeper down");
	snprintf(pat, sizeof(pat), "%s/nothing*", root);
	is_str(expand(pat, NULL, SH_GLOB_MAX), "", "no match: nothing");
	snprintf(pat, sizeof(pat), "%s/missing/*", root);
	is_str(expand(pat, NULL, SH_GLOB_MAX), "", "no directory: nothing");
	snprintf(pat, sizeof(pat), "%s/etc", root);
	is_str(expand(pat, NULL, SH_GLOB_MAX), "", "no pattern: nothing");
	is_str(expand("rel/*", NULL, SH_GLOB_MAX), "", "a relative word: nothing");

	/* ~ and $HOME: expanded in home, written as they were. */
	snprintf(home, sizeof(home), "%s/home/dev", root);
	is_str(expand("~/.ss?", home, SH_GLOB_MAX), "~/.ssh", "~ is home");
	is_str(expand("~/.[as]*", home, SH_GLOB_MAX), "~/.aws ~/.ssh",
	    "~ keeps its form");
	is_str(expand("$HOME/.a*", home, SH_GLOB_MAX), "$HOME/.aws", "$HOME too");
	is_str(expand("~/.ss?", NULL, SH_GLOB_MAX), "", "no home: nothing");
	is_str(expand("~/.ss?", "relative", SH_GLOB_MAX), "",
	    "a relative home: nothing");
	is_str(expand("~ops/*", home, SH_GLOB_MAX), "", "~NAME is not expanded");

	/* Bounds: names made, entries read. */
	snprintf(pat, sizeof(pat), "%s/big/*", root);
	ok(sh_arg_globs(pat, NULL, &a, (const char *[SH_GLOB_MAX]){0},
	    SH_GLOB_MAX) == SH_GLOB_MAX, "at most SH_GLOB_MAX names");
	is_str(expand(pat, NULL, 0), "", "max 0: nothing");

	arena_release(&a);
	snprintf(pat, sizeof(pat), "rm -rf %s", root);
	if (system(pat) != 0)
		ok(0, "clean up %s", root);
	return done_testing();
}
