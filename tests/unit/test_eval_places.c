/*
 * The places of a path matcher's `outside` and the globs of its `except`
 * (reflexion-rules(5), Path matching): decided per file, by the file's
 * real path, against the project (named either way) and the temporary
 * directories, $TMPDIR among them unless it is / or holds the home
 * directory; the same with and without the prefilter, and what explain
 * says of the files left out.  The rules' tests (tests/rules/
 * features.yaml) show the language; this shows what needs the file
 * system and the environment.
 */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "pathid.h"
#include "prefilter.h"
#include "tap.h"

static struct ruleset	 rs;
static struct diag_list	 dl;
static char		 top[] = "/tmp/rr-evalplaces-test.XXXXXX";

static const char rules[] =
    "version: 1\n"
    "rules:\n"
    "  - id: out\n    on: PreToolUse\n"
    "    when: {path: {outside: [project, temp]}}\n"
    "    action: ask\n    message: '{{path}}'\n"
    "  - id: not-in-project\n    on: PreToolUse\n"
    "    when: {path: {glob: '**/*.conf', outside: project,"
    " except: '**/local/**'}}\n"
    "    action: deny\n    message: '{{path}}'\n"
    "  - id: rm-out\n    on: PreToolUse\n    tools: [Bash]\n"
    "    when:\n      shell: {program: rm, path: {outside: [project]}}\n"
    "    action: warn\n    message: '{{path}}'\n";

/* The fired rules, the same with and without the prefilter. */
static char *
run(const char *cwd, const char *proj, const char *tool, const char *input)
{
	char	*ev, *a, *b, *c;

	ev = xasprintf("{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"%s\","
	    "\"session_id\":\"s\",\"tool_name\":\"%s\",\"tool_input\":%s}",
	    cwd, tool, input);
	a = eval_format(&rs, ev, proj, false, line_action_id);
	b = eval_format(&rs, ev, proj, true, line_action_id);
	free(ev);
	if (strcmp(a, b) != 0) {
		c = xasprintf("prefilter '%s' != full '%s'", a, b);
		free(a);
		free(b);
		return c;
	}
	free(b);
	return a;
}

static void
write_to(const char *proj, const char *path, const char *want,
    const char *what)
{
	char	*in, *got;

	in = xasprintf("{\"file_path\":\"%s\",\"content\":\"x\"}", path);
	got = run(proj, proj, "Write", in);
	is_str(got, want, "%s", what);
	free(got);
	free(in);
}

static void
bash(const char *cwd, const char *proj, const char *cmd, const char *want,
    const char *what)
{
	char	*in, *got;

	in = xasprintf("{\"command\":\"%s\"}", cmd);
	got = run(cwd, proj, "Bash", in);
	is_str(got, want, "%s", what);
	free(got);
	free(in);
}

static void
mk(const char *kind, const char *rel, const char *target)
{
	char	*p = xasprintf("%s/%s", top, rel);

	if (strcmp(kind, "dir") == 0)
		mkdir(p, 0700);
	else if (symlink(target, p) < 0)
		printf("# symlink %s: %s\n", p, strerror(errno));
	free(p);
}

static char *
explain_of(const char *proj, const char *tool, const char *input)
{
	struct rr_event		ev;
	struct eval_outcome	out;
	struct eval_opts	eo;
	struct buf		trace;
	char			*err = NULL, *json;

	json = xasprintf("{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"%s\","
	    "\"tool_name\":\"%s\",\"tool_input\":%s}", proj, tool, input);
	buf_init(&trace);
	if (event_parse(&ev, json, strlen(json), proj, &err) == 0) {
		memset(&eo, 0, sizeof(eo));
		eo.explain = &trace;
		eval_outcome_init(&out);
		eval_event(&rs, &ev, &eo, &out);
		eval_outcome_release(&out);
	}
	free(err);
	event_release(&ev);
	free(json);
	return buf_detach(&trace, NULL);
}

static void
has(const char *text, const char *want, const char *what)
{
	ok(strstr(text, want) != NULL, "%s", what);
	if (strstr(text, want) == NULL)
		printf("# want '%s' in:\n# %s\n", want, text);
}

int
main(void)
{
	const char	*ws;
	char		*p, *in, *t;
	struct buf	 b;

	unsetenv("REFLEXION_PATH_CASE");
	unsetenv("TMPDIR");
	setenv("HOME", "/home/dev", 1);
	use_rules(&rs, &dl, rules);
	ruleset_index(&rs);	/* the prefilter, as the cache has it */
	is_int((int)dl.errors, 0, "the rules compile (outside, except)");

	/* ---- the places, by name (/home/dev/shop need not exist) ---- */
	ws = "/home/dev/shop";
	write_to(ws, "src/a.c", "", "a file in the project");
	write_to(ws, "/home/dev/other/a.c", "ask:out", "a file beside it");
	write_to(ws, "/home/dev/shop", "ask:out",
	    "the project directory itself is not inside it");
	write_to(ws, "/tmp/x/y", "", "/tmp");
	write_to(ws, "/var/tmp/y", "", "/var/tmp");
	write_to(ws, "/dev/shm/y", "", "/dev/shm");
	write_to(ws, "/private/tmp/y", "", "macOS's /private/tmp");
	write_to(ws, "/var/folders/ab/T/y", "", "macOS's temporary folders");
	write_to(ws, "/tmpfoo/y", "ask:out", "/tmpfoo is not /tmp");
	write_to(ws, "/dev/null", "", "/dev/null keeps nothing: no file");
	write_to(ws, "/dev/fd/3", "", "nor does a descriptor");
	write_to(ws, "/dev/kvm", "ask:out", "another device is outside");
	write_to(ws, "/etc/app.conf", "ask:out deny:not-in-project",
	    "a glob that outside narrows: /etc/app.conf");
	write_to(ws, "app.conf", "", "the glob's file in the project");
	write_to(ws, "/etc/local/app.conf", "ask:out", "except leaves a "
	    "file out of one rule, not the other");

	/* ---- $TMPDIR ---- */
	write_to(ws, "/scratch/me/y", "ask:out", "no TMPDIR: /scratch");
	setenv("TMPDIR", "/scratch/me/", 1);
	write_to(ws, "/scratch/me/y", "", "TMPDIR is a temporary directory");
	write_to(ws, "/scratch/other", "ask:out", "only TMPDIR");
	setenv("TMPDIR", "/", 1);
	write_to(ws, "/srv/y", "ask:out", "a TMPDIR of / is none");
	setenv("TMPDIR", "/home", 1);
	write_to(ws, "/home/dev/notes/y", "ask:out",
	    "a TMPDIR that holds the home directory is none");
	setenv("TMPDIR", "/home/dev", 1);
	write_to(ws, "/home/dev/notes/y", "ask:out",
	    "a TMPDIR that is the home directory is none");
	setenv("TMPDIR", "scratch", 1);
	write_to(ws, "/srv/scratch/y", "ask:out", "a relative TMPDIR is none");
	unsetenv("TMPDIR");

	/* ---- a shell map: only its command's files ---- */
	bash(ws, ws, "rm -f build.o && cp a /srv/b", "ask:out",
	    "path outside the map sees every command's files");
	bash(ws, ws, "rm -f /srv/c", "ask:out warn:rm-out",
	    "the rm's own file");
	bash(ws, ws, "cp a /srv/b; touch x; rm -f y; ls /", "ask:out",
	    "another command's file is not the rm's");
	bash(ws, ws, "rm -f y; cd ..; rm -f y", "ask:out warn:rm-out",
	    "the second rm, after cd ..");

	/* ---- the real path decides ---- */
	if (mkdtemp(top) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	buf_init(&b);
	path_resolve(top, &b);
	strcpy(top, b.data);
	buf_release(&b);
	mk("dir", "p", NULL);
	mk("dir", "p/sub", NULL);
	mk("dir", "elsewhere", NULL);
	mk("link", "link-to-p", "p");
	mk("link", "p/out", "../elsewhere");
	mk("link", "elsewhere/in", "../p/sub");
	/* The tree is under /tmp: only `project` tells these apart. */
	p = xasprintf("%s/p", top);
	t = xasprintf("%s/link-to-p/sub/x.conf", top);
	write_to(p, t, "", "a file of the project named through a link to it");
	free(t);
	t = xasprintf("%s/elsewhere/in/x.conf", top);
	write_to(p, t, "", "a link elsewhere into the project");
	free(t);
	write_to(p, "out/x.conf", "deny:not-in-project",
	    "a link in the project to elsewhere: the file is outside");
	write_to(p, "sub/x.conf", "", "a file of the project");
	free(p);

	/* ---- explain says which file was left out, and why ---- */
	in = xasprintf("{\"command\":\"%s\"}",
	    "rm -rf build /tmp/t /etc/local/a.conf /srv/z");
	t = explain_of(ws, "Bash", in);
	has(t, "path: '/home/dev/shop/build' is inside the project: left out",
	    "explain: a file inside the project");
	has(t, "path: '/tmp/t' is inside a temporary directory: left out",
	    "explain: a file in /tmp");
	has(t, "path: '/etc/local/a.conf' matches except '**/local/**': "
	    "left out", "explain: a file that except names");
	has(t, "path: any file: '/etc/local/a.conf'",
	    "explain: the first file that counts");
	free(t);
	free(in);

	ruleset_release(&rs);
	diag_list_release(&dl);
	p = xasprintf("rm -rf '%s'", top);
	if (system(p) != 0)
		printf("# could not remove %s\n", top);
	free(p);
	return done_testing();
}
