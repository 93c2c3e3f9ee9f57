/*
 * The names of a file (pathid.h): text normalization, resolution through
 * links as the kernel walks a path (in a scratch tree of real links),
 * the project root through a link, and the probe of case folding.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pathid.h"
#include "tap.h"
#include "xmalloc.h"

static char	 top[] = "/tmp/rr-pathid-test.XXXXXX";
static struct arena a;

static const char *
norm(const char *p)
{
	static struct buf	b;

	if (b.data == NULL)
		buf_init(&b);
	path_normalize(&b, p, strlen(p));
	return b.data;
}

/* The real path of top/rel, as text relative to top ("" when it fails). */
static char *
real(const char *rel)
{
	struct buf	 b;
	char		*p = xasprintf("%s/%s", top, rel), *r;
	size_t		 n = strlen(top);

	buf_init(&b);
	if (path_resolve(p, &b) < 0)
		r = xstrdup("(fails)");
	else if (strncmp(b.data, top, n) == 0)
		r = xstrdup(b.data[n] == '/' ? b.data + n + 1 : b.data + n);
	else
		r = xstrdup(b.data);
	buf_release(&b);
	free(p);
	return r;
}

static void
is_real(const char *rel, const char *want, const char *what)
{
	char	*got = real(rel);

	is_str(got, want, "%s: %s", what, rel);
	free(got);
}

static void
mk(const char *kind, const char *rel, const char *target)
{
	char	*p = xasprintf("%s/%s", top, rel);
	FILE	*fp;

	if (strcmp(kind, "dir") == 0)
		mkdir(p, 0700);
	else if (strcmp(kind, "file") == 0) {
		if ((fp = fopen(p, "w")) != NULL)
			fclose(fp);
	} else if (symlink(target, p) < 0)
		printf("# symlink %s: %s\n", p, strerror(errno));
	free(p);
}

/* "kind:name kind:name ..." of path_forms_list(), for one comparison. */
static char *
forms(const struct path_forms *f)
{
	const char		*v[PATH_FORMS_MAX];
	size_t			 lens[PATH_FORMS_MAX], n, i;
	enum path_form_kind	 k[PATH_FORMS_MAX];
	struct buf		 b;
	size_t			 tl = strlen(top);

	buf_init(&b);
	n = path_forms_list(f, v, lens, k);
	for (i = 0; i < n; i++)
		buf_printf(&b, "%s%s=%s", i ? " " : "",
		    k[i] == PF_REL ? "rel" : k[i] == PF_ABS ? "abs" :
		    k[i] == PF_REAL_REL ? "real_rel" : "real",
		    strncmp(v[i], top, tl) == 0 ? v[i] + tl : v[i]);
	return buf_detach(&b, NULL);
}

static void
is_forms(struct path_root *r, const char *cwd, const char *raw,
    const char *want, const char *what)
{
	struct path_forms	 f;
	char			*got;

	path_identity(&f, &a, r, cwd, raw, strlen(raw));
	got = forms(&f);
	is_str(got, want, "%s", what);
	free(got);
}

int
main(void)
{
	struct path_root	 r;
	struct stat		 s1, s2;
	char			*cwd, *dir, *alt, *p;
	bool			 folds;
	int			 i;

	arena_init(&a);
	if (mkdtemp(top) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	/* The scratch directory's own real path (macOS: /private/tmp). */
	{
		struct buf b;

		buf_init(&b);
		path_resolve(top, &b);
		strcpy(top, b.data);
		buf_release(&b);
	}

	/* ---- text ---- */
	is_str(norm("/p/./secrets/../.env"), "/p/.env", "'.' and '..'");
	is_str(norm("/p/a//.env"), "/p/a/.env", "'//'");
	is_str(norm("/p/sub/../.env"), "/p/.env", "'..' after a name");
	is_str(norm("/../../etc/passwd"), "/etc/passwd",
	    "'..' never goes above '/'");
	is_str(norm("/"), "/", "'/' stays");
	is_str(norm("a/b/../../../.env"), ".env",
	    "a relative path: a leading '..' is dropped");
	is_str(norm("/p/x/"), "/p/x", "a trailing '/' goes");
	ok(path_under("/p/a", "/p") != NULL &&
	    strcmp(path_under("/p/a", "/p"), "a") == 0, "/p/a is a under /p");
	ok(path_under("/pa/b", "/p") == NULL && path_under("/p", "/p") ==
	    NULL && path_under("/etc/x", "/") == NULL,
	    "/pa/b and /p are not under /p; nothing is under '/'");

	/* ---- links, as the kernel walks them ---- */
	mk("dir", "p", NULL);
	mk("dir", "p/secrets", NULL);
	mk("file", "p/secrets/k", NULL);
	mk("file", "p/.env", NULL);
	mk("dir", "p/sub", NULL);
	mk("link", "p/notes.txt", ".env");		/* relative, to .env */
	mk("link", "p/keys", "secrets");		/* a directory */
	mk("link", "p/sub/up", "../secrets");
	mk("link", "p/new.txt", "brand-new.env");	/* dangling */
	mk("link", "p/loop1", "loop2");
	mk("link", "p/loop2", "loop1");
	p = xasprintf("%s/p/secrets", top);
	mk("link", "p/abs", p);				/* absolute */
	free(p);
	mk("dir", "elsewhere", NULL);
	mk("dir", "elsewhere/deep", NULL);
	mk("link", "p/far", "../elsewhere/deep");
	mk("link", "link-to-p", "p");

	is_real("p/notes.txt", "p/.env", "a link to .env");
	is_real("p/keys/k", "p/secrets/k", "a directory link into secrets");
	is_real("p/sub/up/k", "p/secrets/k", "a relative link with '..'");
	is_real("p/abs/k", "p/secrets/k", "an absolute link");
	is_real("p/new.txt", "p/brand-new.env",
	    "a dangling link: the file the write would create");
	is_real("p/keys/new/deeper/x", "p/secrets/new/deeper/x",
	    "a file to create: the existing prefix resolved, the rest as "
	    "text");
	is_real("p/far/../.env", "elsewhere/.env",
	    "'..' after a link is the target's parent, not the link's");
	is_real("link-to-p/secrets/k", "p/secrets/k",
	    "the project through a link");
	is_real("p/./secrets//k", "p/secrets/k", "'.' and '//' on the way");
	is_real("p/loop1", "(fails)", "a loop of links: ELOOP");
	is_real("p/.env", "p/.env", "no link: the same path");
	/* Forty links in a chain resolve, as in the kernel; the 41st not. */
	for (i = 1; i <= 41; i++) {
		char name[32], target[32];

		snprintf(name, sizeof(name), "p/c%d", i);
		snprintf(target, sizeof(target), i == 1 ? ".env" : "c%d",
		    i - 1);
		mk("link", name, target);
	}
	is_real("p/c40", "p/.env", "a chain of 40 links resolves");
	is_real("p/c41", "(fails)", "41 links are a loop to the kernel");
	{
		struct buf	b;
		char		*longp;

		buf_init(&b);
		longp = xcalloc(PATHID_MAX_LEN + 2, 1);
		longp[0] = '/';
		memset(longp + 1, 'a', PATHID_MAX_LEN);
		ok(path_resolve(longp, &b) < 0, "a path past PATH_MAX is not "
		    "resolved");
		ok(path_resolve("relative/x", &b) < 0, "nor a relative one");
		free(longp);
		buf_release(&b);
	}

	/* ---- every name of a file ---- */
	dir = xasprintf("%s/p", top);
	path_root_set(&r, &a, dir);
	is_forms(&r, dir, "./secrets/../.env", "rel=.env abs=/p/.env",
	    "a relative path against cwd, normalized");
	is_forms(&r, dir, "notes.txt",
	    "rel=notes.txt abs=/p/notes.txt real_rel=.env real=/p/.env",
	    "a link in the project: its name and the real one");
	cwd = xasprintf("%s/elsewhere", top);
	is_forms(&r, cwd, "../p/keys/k", "rel=keys/k abs=/p/keys/k "
	    "real_rel=secrets/k real=/p/secrets/k",
	    "a relative path from a cwd elsewhere");
	is_forms(&r, cwd, "deep/x", "abs=/elsewhere/deep/x",
	    "outside the project: absolute only");
	free(cwd);
	is_forms(&r, dir, "C:\\x\\..\\.env", "rel=C:/.env abs=/p/C:/.env",
	    "backslashes are '/'");
	free(dir);
	/* The project named through a link, the file through either. */
	dir = xasprintf("%s/link-to-p", top);
	path_root_set(&r, &a, dir);
	p = xasprintf("%s/p/secrets/k", top);
	is_forms(&r, dir, p, "abs=/p/secrets/k real_rel=secrets/k",
	    "project through a link, file by its real path");
	free(p);
	is_forms(&r, dir, "keys/k", "rel=keys/k abs=/link-to-p/keys/k "
	    "real_rel=secrets/k real=/p/secrets/k",
	    "project and file through links");
	free(dir);
	path_root_set(&r, &a, NULL);
	is_forms(&r, NULL, "a/../.env", "abs=.env",
	    "no cwd, no project: the text alone");

	/* ---- case ---- */
	mk("dir", "Probe", NULL);
	dir = xasprintf("%s/Probe", top);
	alt = xasprintf("%s/pROBE", top);
	folds = stat(dir, &s1) == 0 && stat(alt, &s2) == 0 &&
	    s1.st_ino == s2.st_ino && s1.st_dev == s2.st_dev;
	unsetenv("REFLEXION_PATH_CASE");
	path_root_set(&r, &a, dir);
	ok(path_root_folds(&r) == folds, "the probe tells this file "
	    "system (%s)", folds ? "folds case" : "keeps case");
	setenv("REFLEXION_PATH_CASE", "insensitive", 1);
	path_root_set(&r, &a, dir);
	ok(path_root_folds(&r), "REFLEXION_PATH_CASE=insensitive");
	setenv("REFLEXION_PATH_CASE", "sensitive", 1);
	path_root_set(&r, &a, dir);
	ok(!path_root_folds(&r), "REFLEXION_PATH_CASE=sensitive");
	unsetenv("REFLEXION_PATH_CASE");
	path_root_set(&r, &a, "/");
	ok(!path_root_folds(&r), "a root without a letter: no probe, no "
	    "folding");
	free(dir);
	free(alt);

	arena_release(&a);
	p = xasprintf("rm -rf '%s'", top);
	if (system(p) != 0)
		printf("# could not remove %s\n", top);
	free(p);
	return done_testing();
}
