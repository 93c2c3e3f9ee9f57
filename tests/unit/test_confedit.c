/*
 * config.yaml's trust: list edited as text (confedit.h): the entry
 * added or removed, every other byte as the user wrote it, a second run
 * a no-op, and what cannot be edited so left alone.
 */
#include <stdlib.h>

#include "confedit.h"
#include "tap.h"
#include "xmalloc.h"

/* The edited text, "=" when unchanged, or "error: WHY". */
static char *
edit(const char *text, const char *dir, bool remove)
{
	struct buf	 out;
	char		*err = NULL, *s;
	int		 rc;

	buf_init(&out);
	rc = confedit_trust(text, strlen(text), dir, remove, &out, &err);
	if (rc < 0)
		s = xasprintf("error: %s", err);
	else if (rc == 0)
		s = xstrdup("=");
	else
		s = buf_detach(&out, NULL);
	buf_release(&out);
	free(err);
	return s;
}

static void
check(const char *text, const char *dir, bool remove, const char *want,
    const char *what)
{
	char	*got = edit(text, dir, remove);

	is_str(got, want, "%s", what);
	free(got);
}

int
main(void)
{
	char	*s;

	setenv("HOME", "/home/u", 1);
	check("", "/p", false, "trust:\n  - /p\n", "an empty file");
	check("# mine\npacks: [a]  # the packs", "/p", false,
	    "# mine\npacks: [a]  # the packs\ntrust:\n  - /p\n",
	    "no trust: yet: appended, the comments kept");
	check("trust:\n  - /a   # first\n# between\n  - /b\npacks: []\n",
	    "/p", false,
	    "trust:\n  - /a   # first\n# between\n  - /b\n  - /p\npacks: []\n",
	    "a block list: a line like the last entry's");
	check("trust:\n- /a\n", "/p", false, "trust:\n- /a\n- /p\n",
	    "unindented");
	check("trust: [/a, '/b']  # c\n", "/p", false,
	    "trust: [/a, '/b', /p]  # c\n", "a flow list");
	check("trust: []\n", "/p", false, "trust: [/p]\n", "an empty one");
	check("trust: /a\n", "/p", false, "trust: [/a, /p]\n",
	    "one directory alone");
	check("trust:   # none yet\npacks: [a]\n", "/p", false,
	    "trust:   # none yet\n  - /p\npacks: [a]\n", "an empty key");
	check("trust: ~\n", "/p", false, "trust: [/p]\n", "a null");
	check("trust: [/a]\n", "/p q,r", false,
	    "trust: [/a, \"/p q,r\"]\n", "a directory that needs quotes");
	check("trust: [/p]\n", "/p", false, "=", "trusted already");
	check("trust: ['~/w']\n", "/home/u/w", false, "=",
	    "trusted already, as written with ~");

	check("trust:\n  - /a\n  - /p  # me\n  - /b\n", "/p", true,
	    "trust:\n  - /a\n  - /b\n", "removed from a block list");
	check("trust:\n  - /p\n", "/p", true, "trust:\n",
	    "the last one removed");
	check("trust: [/a, /p, /b]\n", "/p", true, "trust: [/a, /b]\n",
	    "removed from a flow list");
	check("trust: [/a, /p]\n", "/p", true, "trust: [/a]\n", "the last");
	check("trust: [/p, /a]\n", "/p", true, "trust: [/a]\n", "the first");
	check("trust: [/p, /p]\n", "/p", true, "trust: []\n", "every one");
	check("trust: /p\n", "/p", true, "trust: []\n", "alone");
	check("trust: [/a]\n", "/p", true, "=", "not there");
	check("packs: [a]\n", "/p", true, "=", "no trust: at all");

	s = edit("trust: {a: 1}\n", "/p", false);
	ok(strncmp(s, "error: ", 7) == 0, "a mapping is not edited: %s", s);
	free(s);
	s = edit("- a\n", "/p", false);
	ok(strncmp(s, "error: ", 7) == 0, "nor a file that is not a "
	    "mapping: %s", s);
	free(s);
	s = edit("trust: [/a\n", "/p", false);
	ok(strncmp(s, "error: ", 7) == 0, "nor one that is not YAML: %s", s);
	free(s);
	s = edit("trust:\n  - /a\n  - {x: 1}\n", "/p", false);
	ok(strncmp(s, "error: ", 7) == 0, "nor a list with an entry that is "
	    "not a directory: %s", s);
	free(s);
	return done_testing();
}
