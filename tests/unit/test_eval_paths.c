/*
 * Path rules compare files, not text (reflexion-rules(5), Path
 * matching): every name of a file (normalized, real, in the project and
 * absolute), case folded where the file system folds it or a glob says
 * ignore_case, the paths of MCP tools, with and without the prefilter,
 * and what explain says of them.
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
static char		 top[] = "/tmp/rr-evalpaths-test.XXXXXX";
static char		*proj;

static const char rules[] =
    "version: 1\n"
    "rules:\n"
    "  - id: env\n    on: PreToolUse\n"
    "    tools: [Write, Edit, 'mcp__*', 'mcp_*']\n"
    "    when: {path: '.env'}\n    action: deny\n    message: m\n"
    "  - id: secrets\n    on: PreToolUse\n"
    "    tools: [Write, Edit, 'mcp__*', 'mcp_*']\n"
    "    when: {path: 'secrets/**'}\n    action: deny\n    message: m\n"
    "  - id: make\n    on: PreToolUse\n    tools: [Write]\n"
    "    when: {path: '**/Makefile'}\n    action: ask\n    message: m\n"
    "  - id: keys\n    on: PreToolUse\n    tools: [Write]\n"
    "    when: {path: {glob: '*.KEY', ignore_case: true}}\n"
    "    action: deny\n    message: m\n"
    "  - id: lit\n    on: PreToolUse\n    tools: [Write]\n"
    "    when: {path: {ends_with: '.npmrc'}}\n    action: deny\n"
    "    message: m\n"
    "  - id: mcp-content\n    on: PreToolUse\n    tools: ['mcp__*']\n"
    "    when: {content: 'BEGIN PRIVATE KEY'}\n    action: deny\n"
    "    message: m\n"
    "  - id: mcp-old\n    on: PreToolUse\n    tools: ['mcp__*']\n"
    "    when: {old_content: 'KEEP ME'}\n    action: ask\n"
    "    message: m\n";

/* The fired rules for event, the same with and without the prefilter. */
static char *
run(const char *event)
{
	char	*a, *b, *c;

	a = eval_format(&rs, event, proj, false, line_action_id);
	b = eval_format(&rs, event, proj, true, line_action_id);
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
expect(const char *tool, const char *cwd, const char *input,
    const char *want, const char *what)
{
	char	*ev, *got;

	ev = xasprintf("{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"%s\","
	    "\"session_id\":\"s\",\"tool_name\":\"%s\",\"tool_input\":%s}",
	    cwd, tool, input);
	got = run(ev);
	is_str(got, want, "%s", what);
	free(got);
	free(ev);
}

/* {"file_path":"P","content":"x"} */
static char *
fp(const char *p)
{
	return xasprintf("{\"file_path\":\"%s\",\"content\":\"x\"}", p);
}

static void
write_to(const char *cwd, const char *path, const char *want,
    const char *what)
{
	char	*in = fp(path);

	expect("Write", cwd, in, want, what);
	free(in);
}

static void
mk(const char *kind, const char *rel, const char *target)
{
	char	*p = xasprintf("%s/%s", top, rel);
	FILE	*f;

	if (strcmp(kind, "dir") == 0)
		mkdir(p, 0700);
	else if (strcmp(kind, "file") == 0) {
		if ((f = fopen(p, "w")) != NULL)
			fclose(f);
	} else if (symlink(target, p) < 0)
		printf("# symlink %s: %s\n", p, strerror(errno));
	free(p);
}

static char *
explain_of(const char *event)
{
	struct rr_event		ev;
	struct eval_outcome	out;
	struct eval_opts	eo;
	struct buf		trace;
	char			*err = NULL;

	buf_init(&trace);
	if (event_parse(&ev, event, strlen(event), proj, &err) < 0) {
		free(err);
		return buf_detach(&trace, NULL);
	}
	memset(&eo, 0, sizeof(eo));
	eo.explain = &trace;
	eval_outcome_init(&out);
	eval_event(&rs, &ev, &eo, &out);
	eval_outcome_release(&out);
	event_release(&ev);
	return buf_detach(&trace, NULL);
}

int
main(void)
{
	char	*link, *elsewhere, *p, *in, *t;
	struct buf b;

	unsetenv("REFLEXION_PATH_CASE");
	if (mkdtemp(top) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	buf_init(&b);
	path_resolve(top, &b);
	strcpy(top, b.data);
	buf_release(&b);
	mk("dir", "p", NULL);
	mk("dir", "p/secrets", NULL);
	mk("dir", "p/sub", NULL);
	mk("file", "p/.env", NULL);
	mk("file", "p/secrets/k", NULL);
	mk("link", "p/notes.txt", ".env");
	mk("link", "p/keys", "secrets");
	mk("link", "p/sub/cfg", "../.env");
	mk("dir", "elsewhere", NULL);
	mk("link", "link-to-p", "p");
	proj = xasprintf("%s/p", top);
	link = xasprintf("%s/link-to-p", top);
	elsewhere = xasprintf("%s/elsewhere", top);
	use_rules(&rs, &dl, rules);
	ruleset_index(&rs);	/* the prefilter, as the cache has it */
	is_int((int)dl.errors, 0, "the rules compile ({glob, ignore_case})");

	/* ---- the text, normalized ---- */
	write_to(proj, "./secrets/../.env", "deny:env", "./secrets/../.env");
	write_to(proj, "a//.env", "deny:env", "a//.env");
	write_to(proj, "sub/../.env", "deny:env", "sub/../.env");
	write_to(proj, "secrets//./k", "deny:secrets", "secrets//./k");
	write_to(elsewhere, "../p/secrets/k", "deny:secrets",
	    "a relative path from a cwd elsewhere");

	/* ---- the file, through links ---- */
	write_to(proj, "notes.txt", "deny:env",
	    "a link in the project to .env");
	write_to(proj, "sub/cfg", "deny:env", "a link with '..' to .env");
	write_to(proj, "keys/k", "deny:secrets",
	    "a directory link into secrets/");
	write_to(proj, "keys/new-file", "deny:secrets",
	    "a new file through a directory link into secrets/");
	p = xasprintf("%s/secrets/k", link);
	write_to(link, p, "deny:secrets",
	    "the project through a link: cwd and file_path through it");
	free(p);
	p = xasprintf("%s/p/secrets/k", top);
	write_to(link, p, "deny:secrets",
	    "cwd through a link, file_path by its real path");
	free(p);

	/* explain names the forms compared: the link and its file. */
	p = xasprintf("{\"hook_event_name\":\"PreToolUse\",\"cwd\":"
	    "\"%s\",\"tool_name\":\"Write\",\"tool_input\":"
	    "{\"file_path\":\"notes.txt\"}}", proj);
	t = explain_of(p);
	free(p);
	p = xasprintf("path: compared as 'notes.txt' (normalized), "
	    "'%s/notes.txt' (normalized, absolute), '.env' (real), "
	    "'%s/.env' (real, absolute)\n", proj, proj);
	ok(strstr(t, p) != NULL, "explain names the normalized and real "
	    "forms of a path");
	if (strstr(t, p) == NULL)
		printf("# %s", t);
	free(p);
	free(t);

	/* ---- controls ---- */
	write_to(proj, "src/main.c", "", "an ordinary file passes");
	write_to(proj, ".env.example", "", ".env.example is not .env");
	write_to(proj, "x.env.md", "", "x.env.md is not .env");
	write_to(proj, "docs/secrets.md", "", "docs/secrets.md is not in "
	    "secrets/");
	write_to(proj, "secretsauce/x", "", "secretsauce/x is not in "
	    "secrets/");

	/* ---- case ---- */
	write_to(proj, ".ENV", "", "a file system that keeps case: .ENV is "
	    "another file");
	write_to(proj, "id.key", "deny:keys", "{glob, ignore_case: true} "
	    "matches id.key for *.KEY, whatever the file system");
	setenv("REFLEXION_PATH_CASE", "insensitive", 1);
	write_to(proj, ".ENV", "deny:env", "a file system that folds case: "
	    ".ENV is .env");
	write_to(proj, "SECRETS/x", "deny:secrets", "SECRETS/x is in "
	    "secrets/");
	write_to(proj, "Secrets/../.Env", "deny:env", "Secrets/../.Env");
	write_to(proj, "src/MAKEFILE", "ask:make", "MAKEFILE is Makefile "
	    "(a glob with a caseless twin)");
	write_to(proj, ".NPMRC", "deny:lit", "a literal path matcher folds "
	    "too");
	write_to(proj, "x.ENV.md", "", "x.ENV.md is still not .env");
	write_to(proj, "\\u212a.key", "deny:keys", "Unicode folding: the "
	    "Kelvin sign");
	t = explain_of("{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/w\","
	    "\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":"
	    "\"/w/.ENV\"}}");
	ok(strstr(t, "matched '/w/.ENV' at 0..7, case folded") != NULL,
	    "explain says the path was matched case folded");
	ok(strstr(t, "path: compared as '/w/.ENV' (normalized, absolute); "
	    "case folded\n") != NULL, "explain names the forms, case folded");
	free(t);
	setenv("REFLEXION_PATH_CASE", "sensitive", 1);
	write_to(proj, ".ENV", "", "REFLEXION_PATH_CASE=sensitive: .ENV is "
	    "not .env");
	unsetenv("REFLEXION_PATH_CASE");

	/* ---- MCP tools ---- */
	expect("mcp__filesystem__write_file", proj,
	    "{\"path\":\".env\",\"content\":\"x\"}", "deny:env",
	    "mcp__filesystem__write_file {path}");
	p = xasprintf("{\"path\":\"%s/keys/k\",\"edits\":[{\"oldText\":"
	    "\"a\",\"newText\":\"b\"}],\"dryRun\":false}", proj);
	expect("mcp__fs__edit_file", proj, p, "deny:secrets",
	    "mcp__fs__edit_file {path, edits} through a link");
	free(p);
	expect("mcp__filesystem__move_file", proj,
	    "{\"source\":\"draft.txt\",\"destination\":\"notes.txt\"}",
	    "deny:env", "move_file: the destination, the second path, "
	    "through a link");
	expect("mcp__filesystem__read_multiple_files", proj,
	    "{\"paths\":[\"a.txt\",\"b.txt\",\"secrets/k\"]}", "deny:secrets",
	    "read_multiple_files: the last of its paths");
	in = xasprintf("{\"uri\":\"file://%s/%%2Eenv\"}", proj);
	expect("mcp__fs__read_resource", proj, in, "deny:env",
	    "a file: URI, percent-decoded");
	free(in);
	in = xasprintf("{\"uri\":\"file://localhost%s/secrets/k?x#y\"}",
	    proj);
	expect("mcp__fs__read_resource", proj, in, "deny:secrets",
	    "file://localhost/..., query and fragment dropped");
	free(in);
	expect("mcp__notes__save", proj, "{\"notePath\":\"secrets/n.md\"}",
	    "deny:secrets", "a field named *Path");
	expect("mcp_fs_write_file", proj, "{\"file_path\":\".env\"}",
	    "deny:env", "Gemini's MCP naming: mcp_SERVER_TOOL");
	expect("mcp__web__fetch", proj, "{\"url\":\"https://x.example/.env\"}",
	    "", "control: an https URL is not a file");
	expect("mcp__fs__read_resource", proj,
	    "{\"uri\":\"file://server/share/.env\"}", "",
	    "control: a file: URI of another host is not a local file");
	expect("mcp__filesystem__write_file", proj,
	    "{\"path\":\"ok.txt\",\"content\":\"-----BEGIN PRIVATE KEY-----\"}",
	    "deny:mcp-content", "MCP content: write_file's content");
	expect("mcp__fs__edit_file", proj,
	    "{\"path\":\"ok.txt\",\"edits\":[{\"oldText\":\"KEEP ME\","
	    "\"newText\":\"BEGIN PRIVATE KEY\"}]}",
	    "deny:mcp-content ask:mcp-old",
	    "MCP content: edit_file's newText and oldText");
	expect("Write", proj, "{\"file_path\":\"ok.txt\",\"path\":\".env\"}",
	    "", "control: the agent's own tools keep their fields (no "
	    "'path' for Write)");

	diag_list_release(&dl);
	ruleset_release(&rs);
	p = xasprintf("rm -rf '%s'", top);
	if (system(p) != 0)
		printf("# could not remove %s\n", top);
	free(p);
	free(proj);
	free(link);
	free(elsewhere);
	return done_testing();
}
