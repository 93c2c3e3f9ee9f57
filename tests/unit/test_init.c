/* reflexion-rules init: the settings.json merge and the command itself. */
#define _XOPEN_SOURCE 700	/* mkdtemp(), setenv(), nftw(), symlink() */

#include <cjson/cJSON.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "hookreg.h"
#include "settings_merge.h"
#include "files.h"
#include "tap.h"
#include "xmalloc.h"

#define CMD	SETTINGS_DEFAULT_COMMAND
#define NEXT	"reflexion-rules: next: turn rule packs on in " \
	"~/.reflexion/config.yaml (packs: [dangerous-commands]), or write " \
	"rules in .reflexion/rules/ (reflexion-rules(5)); then " \
	"'reflexion-rules doctor' checks it all\n"

#define HANDLER(cmd, ind)						\
	ind "{\n"							\
	ind "  \"type\": \"command\",\n"				\
	ind "  \"command\": \"" cmd "\",\n"				\
	ind "  \"timeout\": 10\n"					\
	ind "}\n"
#define TOOL_GROUP(ev)							\
	"    \"" ev "\": [\n"						\
	"      {\n"							\
	"        \"matcher\": \"*\",\n"					\
	"        \"hooks\": [\n"					\
	HANDLER(CMD, "          ")					\
	"        ]\n"							\
	"      }\n"							\
	"    ]"
#define GROUP(ev)							\
	"    \"" ev "\": [\n"						\
	"      {\n"							\
	"        \"hooks\": [\n"					\
	HANDLER(CMD, "          ")					\
	"        ]\n"							\
	"      }\n"							\
	"    ]"

static const char empty_result[] =
	"{\n"
	"  \"hooks\": {\n"
	TOOL_GROUP("PreToolUse") ",\n"
	TOOL_GROUP("PostToolUse") ",\n"
	TOOL_GROUP("PostToolUseFailure") ",\n"
	GROUP("UserPromptSubmit") ",\n"
	GROUP("Stop") ",\n"
	GROUP("SubagentStop") ",\n"
	GROUP("SessionStart") ",\n"
	GROUP("SessionEnd") "\n"
	"  }\n"
	"}\n";

static char	*out, *err;
static int	 changed;

static int
merge(const char *in, const char *cmd)
{
	free(out);
	free(err);
	return settings_merge("settings.json", in, strlen(in), cmd, &out,
	    &changed, &err);
}

/* Offset of needle in out, or -1. */
static long
at(const char *needle)
{
	const char	*p = out ? strstr(out, needle) : NULL;

	return p ? (long)(p - out) : -1;
}

/* How many of our events have a handler running cmd, in json. */
static int
events_with(const char *json, const char *cmd)
{
	cJSON		*root, *hooks, *g, *h, *c;
	size_t		 i;
	int		 n = 0, found;

	if ((root = cJSON_Parse(json)) == NULL)
		return -1;
	hooks = cJSON_GetObjectItemCaseSensitive(root, "hooks");
	for (i = 0; i < settings_nevents; i++) {
		found = 0;
		cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(hooks,
		    settings_events[i]))
			cJSON_ArrayForEach(h,
			    cJSON_GetObjectItemCaseSensitive(g, "hooks")) {
				c = cJSON_GetObjectItemCaseSensitive(h,
				    "command");
				if (cJSON_IsString(c) &&
				    strcmp(c->valuestring, cmd) == 0)
					found = 1;
			}
		n += found;
	}
	cJSON_Delete(root);
	return n;
}

/* Number of groups in hooks[ev] of json. */
static int
ngroups(const char *json, const char *ev)
{
	cJSON	*root;
	int	 n;

	if ((root = cJSON_Parse(json)) == NULL)
		return -1;
	n = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(root, "hooks"), ev));
	cJSON_Delete(root);
	return n;
}

/* The first handler's command in group idx of hooks[ev]; static. */
static const char *
group_cmd(const char *json, const char *ev, int idx)
{
	static char	 cmd[256];
	cJSON		*root, *c;

	cmd[0] = '\0';
	if ((root = cJSON_Parse(json)) == NULL)
		return "(invalid)";
	c = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(
	    cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(
	    cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
	    root, "hooks"), ev), idx), "hooks"), 0), "command");
	if (cJSON_IsString(c))
		snprintf(cmd, sizeof(cmd), "%s", c->valuestring);
	cJSON_Delete(root);
	return cmd;
}

/* Do a and b parse to equal JSON? */
static int
same_json(const char *a, const char *b)
{
	cJSON	*ja = cJSON_Parse(a), *jb = cJSON_Parse(b);
	int	 r;

	r = ja != NULL && jb != NULL && cJSON_Compare(ja, jb, 1);
	cJSON_Delete(ja);
	cJSON_Delete(jb);
	return r;
}

/*
 * A number is written back exactly as it was read, whatever a double
 * would make of it: an overflow, a negative zero, a trailing ".0", more
 * digits than a double holds, an exponent in capitals.
 */
static void
test_numbers_kept(void)
{
	static const char *const nums[] = { "1e400", "-0", "1.0",
	    "12345678901234567890", "1E+2", "0.1", "-1.50e-0010", "007" };
	static const char in[] =
	    "{\"n\":{\"a\":1e400,\"b\":-0,\"c\":1.0,\"d\":12345678901234567890,"
	    "\"e\":1E+2,\"f\":0.1,\"g\":[-1.50e-0010,{\"1e5\":\"-2 and 3.0\"}]},"
	    "\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\","
	    "\"command\":\"x\",\"timeout\":30.0}]}]},\"z\":007}";
	char	*first, comma[64], last[64];
	size_t	 i;

	/* cJSON reads "007"; JSON.parse would not, but it must survive. */
	ok(merge(in, CMD) == 0 && changed == 8, "odd numbers parse");
	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		snprintf(comma, sizeof(comma), " %s,\n", nums[i]);
		snprintf(last, sizeof(last), " %s\n", nums[i]);
		ok(at(comma) > 0 || at(last) > 0, "%s survives init byte for "
		    "byte", nums[i]);
	}
	ok(at("\"timeout\": 30.0\n") > 0 && at("\"timeout\": 10\n") > 0,
	    "a foreign timeout keeps its text; ours is written as 10");
	ok(at("\"1e5\": \"-2 and 3.0\"") > 0,
	    "digits in keys and strings are not numbers");
	first = xstrdup(out);
	ok(merge(first, CMD) == 0 && changed == 0 && strcmp(out, first) == 0,
	    "a second init changes nothing");
	free(first);
	/* Duplicate keys: every member is printed, the last one merged. */
	ok(merge("{\"hooks\":{\"Stop\":[1.0]},\"x\":1e400,\"hooks\":"
	    "{\"Stop\":[2.50]},\"x\":-0}", CMD) == 0 &&
	    at("\"Stop\": [\n      1.0\n    ]\n  },\n  \"x\": 1e400,") > 0 &&
	    at("\"Stop\": [\n      2.50,\n      {") > 0 &&
	    at("\"x\": -0\n}") > 0,
	    "duplicate keys: numbers kept, the last \"hooks\" merged into");
}

static void
test_is_ours(void)
{
	ok(hookreg_is_ours("reflexion-rules hook"), "the bare name");
	ok(hookreg_is_ours("  /usr/bin/reflexion-rules hook --agent codex"),
	    "a full path, arguments");
	ok(hookreg_is_ours("\"$CLAUDE_PROJECT_DIR\"/bin/reflexion-rules hook"),
	    "a quoted variable in the directory");
	ok(hookreg_is_ours("'/opt/my dir/reflexion-rules' hook"),
	    "a quoted path with a space");
	ok(hookreg_is_ours("reflexion-rules\thook"), "a tab between");
	ok(!hookreg_is_ours("reflexion-rules lint"), "another subcommand");
	ok(!hookreg_is_ours("reflexion-rules hooks"), "a longer word");
	ok(!hookreg_is_ours("not-reflexion-rules hook"), "another program");
	ok(!hookreg_is_ours("reflexion-rules"), "no subcommand");
	ok(!hookreg_is_ours(""), "nothing");
	ok(!hookreg_is_ours("echo reflexion-rules hook"),
	    "our name as an argument of another program");
}

static void
test_merge(void)
{
	char	*first;

	ok(merge("", CMD) == 0 && changed == 8, "empty input: 8 events added");
	is_str(out, empty_result, "empty input: JSON.stringify layout");
	ok(merge(" \n\t\r\n", CMD) == 0 && changed == 8 &&
	    strcmp(out, empty_result) == 0, "blank input counts as {}");
	ok(merge("{}", CMD) == 0 && strcmp(out, empty_result) == 0,
	    "{} gives the same result");
	ok(events_with(out, CMD) == 8, "all 8 events run the command");

	/* Other keys keep their order and value; hooks stays where it was. */
	ok(merge("{\"permissions\":{\"allow\":[\"Bash(ls)\"],\"deny\":[]},"
	    "\"hooks\":{},\"model\":\"opus\",\"env\":{}}", CMD) == 0 &&
	    changed == 8, "settings with other keys merge");
	ok(at("\"permissions\"") == 4 && at("\"permissions\"") <
	    at("\"hooks\"") && at("\"hooks\"") < at("\"model\"") &&
	    at("\"model\"") < at("\"env\""), "key order kept");
	ok(at("    \"allow\": [\n      \"Bash(ls)\"\n    ],\n"
	    "    \"deny\": []\n") > 0 && at("  \"env\": {}\n}\n") > 0,
	    "other values kept, empty containers as [] and {}");

	/* Existing hooks for other commands stay first; ours come after. */
	ok(merge("{\"hooks\":{\"Notification\":[{\"hooks\":[{\"type\":"
	    "\"command\",\"command\":\"notify\"}]}],\"PreToolUse\":[{"
	    "\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\","
	    "\"command\":\"guard\",\"timeout\":5}]}],\"Stop\":[{\"hooks\":"
	    "[{\"type\":\"command\",\"command\":\"other\"}]}]}}", CMD) == 0 &&
	    changed == 8, "existing foreign hooks: 8 events added");
	ok(ngroups(out, "PreToolUse") == 2 && ngroups(out, "Stop") == 2 &&
	    ngroups(out, "Notification") == 1 &&
	    ngroups(out, "SessionStart") == 1, "our groups are appended");
	is_str(group_cmd(out, "PreToolUse", 0), "guard",
	    "PreToolUse: the foreign group stays first");
	is_str(group_cmd(out, "PreToolUse", 1), CMD,
	    "PreToolUse: ours comes second");
	is_str(group_cmd(out, "Stop", 1), CMD, "Stop: ours comes second");
	ok(at("\"Notification\"") < at("\"PreToolUse\"") &&
	    at("\"PreToolUse\"") < at("\"Stop\"") && at("\"Stop\"") <
	    at("\"PostToolUse\""), "existing events keep their place, new "
	    "ones follow");
	ok(at("\"timeout\": 5") > 0, "foreign timeout kept");

	/* Idempotence. */
	first = xstrdup(out);
	ok(merge(first, CMD) == 0 && changed == 0,
	    "merging the result again changes nothing");
	is_str(out, first, "and prints the same bytes");
	free(first);

	/* Our command anywhere in an event counts, whatever the matcher. */
	ok(merge("{\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash|Edit\","
	    "\"hooks\":[{\"type\":\"command\",\"command\":\"x\"},{\"type\":"
	    "\"command\",\"command\":\"" CMD "\"}]}]}}", CMD) == 0 &&
	    changed == 7 && ngroups(out, "PreToolUse") == 1,
	    "our handler in a non-standard group counts");
	/* Any registration of our hook counts: no duplicate of a full path. */
	ok(merge("{\"hooks\":{\"Stop\":[{\"hooks\":[{\"command\":"
	    "\"'/opt/rr dir/bin/reflexion-rules'  hook --agent claude\"}]}]}}",
	    CMD) == 0 && changed == 7 && ngroups(out, "Stop") == 1,
	    "a full-path registration of ours is not duplicated");
	ok(merge("{\"hooks\":{\"Stop\":[{\"hooks\":[{\"command\":"
	    "\"reflexion-rules hooks\"}]}]}}", CMD) == 0 && changed == 8 &&
	    ngroups(out, "Stop") == 2, "another subcommand is not ours");
	ok(merge("{}", "rr2 hook") == 0 && changed == 8 &&
	    events_with(out, "rr2 hook") == 8, "another program is registered");
	first = xstrdup(out);
	ok(merge(first, CMD) == 0 && changed == 8 &&
	    events_with(out, "rr2 hook") == 8 && events_with(out, CMD) == 8,
	    "and ours is added beside it");
	free(first);
	ok(merge(empty_result, "/usr/local/bin/reflexion-rules hook") == 0 &&
	    changed == 0, "a full path of ours is not added beside the name");
	ok(merge("{\"hooks\":{\"Stop\":[5,{\"hooks\":7},{\"x\":1},{\"hooks\":"
	    "[null,\"s\",{\"command\":3}]}]}}", CMD) == 0 && changed == 8 &&
	    ngroups(out, "Stop") == 5, "odd entries are kept and skipped");

	/* Claude Code (JSON.parse) uses the last of duplicate keys. */
	ok(merge("{\"hooks\":{\"Stop\":[]},\"hooks\":{}}", CMD) == 0 &&
	    at("\"hooks\": {\n    \"Stop\": []\n  },") > 0,
	    "duplicate \"hooks\": the last one is merged into");

	/* Errors leave nothing behind and name the file. */
	ok(merge("{\"a\":1,}", CMD) < 0 && out == NULL && err != NULL &&
	    strncmp(err, "'settings.json' is not valid JSON (line 1, column ",
	    49) == 0 && strstr(err, "); fix or move it first") != NULL,
	    "invalid JSON: error with position");
	ok(merge("{\"a\":\"x\\u0000y\"}", CMD) < 0 && strstr(err,
	    "\\u0000") != NULL, "a \\u0000 escape is refused, not truncated");
	ok(merge("{\"a\":\"x\\\\u0000y\"}", CMD) == 0 &&
	    at("\"x\\\\u0000y\"") > 0, "an escaped backslash before u0000 "
	    "is fine");
	ok(merge("{\n  \"a\": 1\n}\n// comment\n", CMD) < 0 &&
	    strstr(err, "line 4, column 1") != NULL,
	    "trailing text is invalid JSON");
	ok(merge("[{\"hooks\":{}}]", CMD) < 0 && strcmp(err,
	    "'settings.json' is not a JSON object; fix or move it first") == 0,
	    "a JSON array is an error");
	ok(merge("\"str\"", CMD) < 0 && strstr(err, "not a JSON object"),
	    "a JSON string is an error");
	ok(merge("{\"hooks\":5}", CMD) < 0 && strstr(err,
	    "\"hooks\" is not an object") != NULL, "\"hooks\": 5 is an error");
	ok(merge("{\"hooks\":null}", CMD) < 0 && out == NULL,
	    "\"hooks\": null is an error");
	ok(merge("{\"hooks\":{\"Stop\":[],\"PreToolUse\":{}}}", CMD) < 0 &&
	    strstr(err, "\"hooks.PreToolUse\" is not an array") != NULL,
	    "hooks.PreToolUse not an array is an error");

	/* Strings and numbers survive a round trip. */
	ok(merge("{\"s\":\"caf\\u00e9 \xe2\x98\x83 \\ud83d\\ude00 \xf0\x9f\x98"
	    "\x80 \\\"q\\\" \\\\ \\/ \\n\\t\\u0001\\u001f \\b\\f\\r\","
	    "\"k\\u00e9\\\"y\":true,\"n\":null,\"f\":false}", CMD) == 0,
	    "escapes and unicode parse");
	ok(at("\"s\": \"caf\xc3\xa9 \xe2\x98\x83 \xf0\x9f\x98\x80 \xf0\x9f\x98"
	    "\x80 \\\"q\\\" \\\\ / \\n\\t\\u0001\\u001f \\b\\f\\r\",\n") > 0 &&
	    at("\"k\xc3\xa9\\\"y\": true,\n  \"n\": null,\n  \"f\": false") > 0,
	    "strings are written as JSON.stringify writes them");
	first = xstrdup(out);
	ok(merge(first, CMD) == 0 && strcmp(out, first) == 0,
	    "string round trip is stable");
	free(first);
	ok(merge("{\"a\":10,\"b\":1.5,\"c\":-3,\"d\":0,\"e\":-0.25,"
	    "\"f\":1e21,\"g\":123456789012,\"h\":0.1,\"i\":1e-7,\"j\":2.5E3,"
	    "\"k\":0.000001,\"l\":[1,2.75]}", CMD) == 0, "numbers parse");
	ok(at("\"a\": 10,\n  \"b\": 1.5,\n  \"c\": -3,\n  \"d\": 0,\n"
	    "  \"e\": -0.25,\n  \"f\": 1e21,\n  \"g\": 123456789012,\n"
	    "  \"h\": 0.1,\n  \"i\": 1e-7,\n  \"j\": 2.5E3,\n"
	    "  \"k\": 0.000001,\n  \"l\": [\n    1,\n    2.75\n  ],\n") > 0,
	    "numbers are written as they were read");
	first = xstrdup(out);
	ok(merge(first, CMD) == 0 && strcmp(out, first) == 0 &&
	    same_json(first, out), "number round trip is stable");
	free(first);
	test_numbers_kept();
}

/* Everything in path, or NULL. */

static void
spew(const char *path, const char *s)
{
	FILE	*fp = fopen(path, "wb");

	if (fp == NULL) {
		printf("# cannot write %s\n", path);
		return;
	}
	fputs(s, fp);
	fclose(fp);
}

static int
exists(const char *path)
{
	struct stat	st;

	return lstat(path, &st) == 0;
}

static char	*run_out, *run_err, *capdir;

/* Runs "init ARGS..." with stdout and stderr captured. */
static int
run(const char *arg, ...)
{
	char		*argv[16], *po, *pe;
	const char	*a;
	va_list		 ap;
	int		 argc = 0, so, se, fo, fe, rc;

	va_start(ap, arg);
	for (a = arg; a != NULL && argc < 15; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	po = xasprintf("%s/out", capdir);
	pe = xasprintf("%s/err", capdir);
	fflush(stdout);
	fflush(stderr);
	so = dup(1);
	se = dup(2);
	fo = open(po, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	fe = open(pe, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fo, 1);
	dup2(fe, 2);
	rc = cmd_init_entry.exec(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	close(fo);
	close(fe);
	free(run_out);
	free(run_err);
	run_out = file_slurp(po);
	run_err = file_slurp(pe);
	free(po);
	free(pe);
	return rc;
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void
rm_rf(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void
test_command(void)
{
	char		 tmpl[] = "/tmp/rr-init-XXXXXX", cwd[4096];
	char		*top, *proj, *path, *bak, *want, *before, *s, *real;
	struct stat	 st1, st2;

	if ((top = mkdtemp(tmpl)) == NULL) {
		ok(0, "mkdtemp");
		return;
	}
	capdir = top;
	/* reflexion-rules on PATH: the bare name is registered. */
	path = xasprintf("%s/bin", top);
	mkdir(path, 0755);
	bak = xasprintf("%s/reflexion-rules", path);
	spew(bak, "#!/bin/sh\n");
	chmod(bak, 0755);
	free(bak);
	setenv("PATH", path, 1);
	free(path);
	proj = xasprintf("%s/p1", top);
	mkdir(proj, 0755);
	path = xasprintf("%s/.claude/settings.json", proj);
	bak = xasprintf("%s.bak", path);
	unsetenv("CLAUDE_PROJECT_DIR");

	/* A first run creates the directory and the file. */
	ok(run("--project-dir", proj, NULL) == 0, "init: exit 0");
	want = xasprintf("reflexion-rules: registered hooks for 8 events in "
	    "%s\n" NEXT, path);
	is_str(run_out, want, "init: says what it did, no backup, and what "
	    "next");
	ok(strstr(run_err, "the clients will run ") != NULL &&
	    strstr(run_err, "the first reflexion-rules on PATH, which is not "
	    "this program") != NULL, "init: says that PATH has another "
	    "program");
	free(want);
	s = file_slurp(path);
	ok(s != NULL && events_with(s, CMD) == 8,
	    "settings.json has all 8 events");
	is_str(s, empty_result, "and is laid out as expected");
	ok(!exists(bak), "no backup when there was no file");
	stat(path, &st1);
	ok((st1.st_mode & 07777) == (0666 & ~(mode_t)022) ||
	    (st1.st_mode & 0600) == 0600, "new file is readable");

	/* A second run sees it done and writes nothing. */
	ok(run("--project-dir", proj, "--agent", "claude", NULL) == 0,
	    "init again: exit 0");
	want = xasprintf("reflexion-rules: hooks already registered in %s\n",
	    path);
	is_str(run_out, want, "init again: already registered");
	free(want);
	before = s;
	s = file_slurp(path);
	stat(path, &st2);
	ok(s != NULL && strcmp(s, before) == 0 && st1.st_ino == st2.st_ino &&
	    st1.st_mtime == st2.st_mtime, "init again: file untouched");
	ok(!exists(bak), "init again: no backup");
	free(before);
	free(s);

	/* Over an existing file: the old bytes go to .bak, the mode stays. */
	spew(path, "{\"model\": \"opus\",   \"hooks\": {}}");
	chmod(path, 0640);
	ok(run("--project-dir=", NULL) == 2, "empty --project-dir: exit 2");
	want = xasprintf("%s/", proj);
	ok(run("--project-dir", want, NULL) == 0, "init over a file: exit 0");
	free(want);
	want = xasprintf("reflexion-rules: registered hooks for 8 events in "
	    "%s (backup: %s)\n" NEXT, path, bak);
	is_str(run_out, want, "init over a file: names the backup");
	free(want);
	s = file_slurp(bak);
	is_str(s, "{\"model\": \"opus\",   \"hooks\": {}}",
	    ".bak holds the old bytes");
	free(s);
	s = file_slurp(path);
	ok(s != NULL && strncmp(s, "{\n  \"model\": \"opus\",\n  \"hooks\": {\n",
	    33) == 0 && events_with(s, CMD) == 8, "old keys kept, hooks added");
	stat(path, &st1);
	ok((st1.st_mode & 07777) == 0640, "file mode kept");

	/* Another command: the .bak is overwritten with the previous file. */
	ok(run("--project-dir", proj, "--command", "rr2 hook", NULL) == 0,
	    "init --command: exit 0");
	before = file_slurp(bak);
	is_str(before, s, ".bak overwritten with the previous content");
	free(before);
	free(s);
	s = file_slurp(path);
	ok(s != NULL && events_with(s, "rr2 hook") == 8 &&
	    events_with(s, CMD) == 8, "both commands registered");
	free(s);

	/* A broken file is left alone. */
	spew(path, "{\"hooks\": [}");
	remove(bak);
	ok(run("--project-dir", proj, NULL) == 2, "invalid JSON: exit 2");
	want = xasprintf("reflexion-rules init: '%s' is not valid JSON "
	    "(line 1, column 12); fix or move it first\n", path);
	is_str(run_err, want, "invalid JSON: one line on stderr");
	free(want);
	s = file_slurp(path);
	ok(s != NULL && strcmp(s, "{\"hooks\": [}") == 0 && !exists(bak),
	    "invalid JSON: file untouched, no backup");
	free(s);
	spew(path, "[]");
	ok(run("--project-dir", proj, NULL) == 2 &&
	    strstr(run_err, "is not a JSON object") != NULL,
	    "array: exit 2");

	/* A write failure: the backup cannot replace a directory. */
	spew(path, "{}");
	mkdir(bak, 0755);
	ok(run("--project-dir", proj, NULL) == 2 && strncmp(run_err,
	    "reflexion-rules init: cannot replace ", 37) == 0,
	    "write failure: exit 2 and a message");
	s = file_slurp(path);
	ok(s != NULL && strcmp(s, "{}") == 0, "write failure: file untouched");
	free(s);
	rmdir(bak);
	free(path);
	free(bak);
	free(proj);

	/* --dry-run prints the result and writes nothing. */
	proj = xasprintf("%s/p2", top);
	mkdir(proj, 0755);
	path = xasprintf("%s/.claude", proj);
	ok(run("--dry-run", "--project-dir", proj, NULL) == 0,
	    "--dry-run: exit 0");
	is_str(run_out, empty_result, "--dry-run: prints the JSON");
	ok(!exists(path), "--dry-run: writes nothing");

	/* $CLAUDE_PROJECT_DIR, then the current directory. */
	setenv("CLAUDE_PROJECT_DIR", proj, 1);
	ok(run(NULL) == 0 && exists(path), "$CLAUDE_PROJECT_DIR is used");
	unsetenv("CLAUDE_PROJECT_DIR");
	free(path);
	free(proj);
	proj = xasprintf("%s/p3", top);
	mkdir(proj, 0755);
	if (getcwd(cwd, sizeof(cwd)) != NULL && chdir(proj) == 0) {
		ok(run(NULL) == 0 && strcmp(run_out, "reflexion-rules: "
		    "registered hooks for 8 events in .claude/settings.json\n"
		    NEXT) == 0, "default: the current directory");
		if (chdir(cwd) != 0)
			printf("# cannot go back to %s\n", cwd);
	} else
		ok(0, "chdir");
	free(proj);

	/* A symlinked settings.json stays a symlink. */
	proj = xasprintf("%s/p4", top);
	path = xasprintf("%s/.claude", proj);
	mkdir(proj, 0755);
	mkdir(path, 0755);
	free(path);
	real = xasprintf("%s/real.json", top);
	spew(real, "{\"model\":\"x\"}");
	path = xasprintf("%s/.claude/settings.json", proj);
	ok(symlink(real, path) == 0 && run("--project-dir", proj, NULL) == 0,
	    "symlinked settings: exit 0");
	stat(path, &st1);
	lstat(path, &st2);
	s = file_slurp(real);
	ok(S_ISLNK(st2.st_mode) && s != NULL && events_with(s, CMD) == 8,
	    "symlinked settings: the target is updated");
	free(s);
	free(real);
	free(path);
	free(proj);

	/* Without reflexion-rules on PATH: this program's full path. */
	proj = xasprintf("%s/p5", top);
	mkdir(proj, 0755);
	path = xasprintf("%s/.claude/settings.json", proj);
	real = realpath("/proc/self/exe", NULL);
	before = getenv("PATH") ? xstrdup(getenv("PATH")) : xstrdup("");
	setenv("PATH", "/nonexistent", 1);
	ok(run("--project-dir", proj, NULL) == 0, "not on PATH: exit 0");
	want = xasprintf("%s hook", real);
	s = file_slurp(path);
	ok(s != NULL && real != NULL && strchr(real, ' ') == NULL &&
	    events_with(s, want) == 8, "not on PATH: the full path registered");
	free(s);
	ok(strstr(run_err, "reflexion-rules is not on PATH: registered this "
	    "program by its full path") != NULL && strstr(run_err, real) !=
	    NULL, "not on PATH: said on stderr");
	setenv("PATH", before, 1);
	/*
	 * This test program is not named reflexion-rules, so its path is
	 * not ours by name (merge() tests that one of ours is): --command
	 * names it for --uninstall.
	 */
	ok(run("--project-dir", proj, "--uninstall", "--command", want,
	    NULL) == 0 && strstr(run_out, "removed the hooks for 8 events")
	    != NULL, "--uninstall --command removes that registration");
	s = file_slurp(path);
	is_str(s, "{}\n", "... leaving an empty object");
	free(s);
	free(want);
	free(before);
	free(real);
	free(path);
	free(proj);

	/* Arguments. */
	ok(run("--agent", "vim", NULL) == 2 && strcmp(run_err,
	    "reflexion-rules init: unknown agent 'vim' (claude, gemini, "
	    "codex, copilot or cursor)\n") == 0, "--agent vim: exit 2");
	ok(run("--scope", "global", NULL) == 2 && strcmp(run_err,
	    "reflexion-rules init: unknown scope 'global' (project, local "
	    "or user)\n") == 0, "--scope global: exit 2");
	ok(run("--x", NULL) == 2 && strncmp(run_err, "reflexion-rules init: "
	    "unknown option '--x'\nusage: reflexion-rules init ", 63) == 0,
	    "unknown option: exit 2 and usage");
	ok(run("--project-dir", NULL) == 2 && strstr(run_err,
	    "option '--project-dir' needs a value") != NULL,
	    "missing value: exit 2");
	ok(run("stray", NULL) == 2 && strstr(run_err,
	    "unexpected argument 'stray'") != NULL, "positional: exit 2");
	ok(run("--command", "", NULL) == 2, "empty --command: exit 2");
	ok(run("--help", NULL) == 0 && strncmp(run_out,
	    "usage: reflexion-rules init [--agent claude|", 44) == 0,
	    "--help: usage on stdout");
	ok(run("-h", "--agent", "gemini", NULL) == 0, "-h wins");

	free(run_out);
	free(run_err);
	rm_rf(top);
}

/* --statusline: Claude Code's statusLine, ours added, others' left. */
/* A string literal and its length. */
#define IN(s)	(s), strlen(s)

static void
test_statusline(void)
{
	struct settings_edit	 ed;
	char			*json = NULL, *e = NULL;
	int			 n, done;
	bool			 empty;

	memset(&ed, 0, sizeof(ed));
	ed.client = hookreg_client(AGENT_CLAUDE);
	ed.command = CMD;
	ed.statusline = "reflexion-rules statusline";
	ed.statusline_done = &done;
	ok(settings_edit("s.json", IN("{}"), &ed, &json, &n, &empty, &e) ==
	    0 && done == 1 && n == 9 && strstr(json, "\"statusLine\": {\n"
	    "    \"type\": \"command\",\n    \"command\": \"reflexion-rules "
	    "statusline\"\n  }") != NULL, "the status line is added beside "
	    "the hooks");
	free(json);
	ok(settings_edit("s.json", IN("{\"statusLine\":{\"type\":\"command\","
	    "\"command\":\"/opt/bin/reflexion-rules statusline\"}}"), &ed,
	    &json, &n, &empty, &e) == 0 && done == 0 && n == 8,
	    "a status line of ours is kept as it is");
	free(json);
	ok(settings_edit("s.json", IN("{\"statusLine\":{\"type\":\"command\","
	    "\"command\":\"~/bin/mine.sh\"}}"), &ed, &json, &n, &empty,
	    &e) == 0 && done == -1 && strstr(json, "mine.sh") != NULL &&
	    strstr(json, "reflexion-rules statusline") == NULL,
	    "another status line is left, and said");
	free(json);
	ed.uninstall = true;
	ok(settings_edit("s.json", IN("{\"statusLine\":{\"type\":\"command\","
	    "\"command\":\"reflexion-rules statusline\"},\"model\":\"x\"}"),
	    &ed, &json, &n, &empty, &e) == 0 && done == 1 && n == 1 &&
	    strstr(json, "statusLine") == NULL && strstr(json, "model") !=
	    NULL, "--uninstall removes ours, and only it");
	free(json);
	ok(settings_edit("s.json", IN("{\"statusLine\":{\"type\":\"command\","
	    "\"command\":\"mine statusline\"}}"), &ed, &json, &n, &empty,
	    &e) == 0 && done == 0 && strstr(json, "mine statusline") != NULL,
	    "--uninstall leaves another's");
	free(json);
	free(e);
}

int
main(void)
{
	test_is_ours();
	test_merge();
	free(out);
	free(err);
	test_command();
	test_statusline();
	return done_testing();
}
