/*
 * The memory of seeds 001 and 004: summary lines of tool calls (seed 001
 * §3.2's formats), the three layers of lookups, two-tier search, session
 * summaries (extractive and the summarizer's contract), configured
 * commands (time limit, failure), the router's answer and the status
 * line's format.
 */
#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "event.h"
#include "extcmd.h"
#include "memory.h"
#include "record.h"
#include "router.h"
#include "statusline.h"
#include "summary.h"
#include "tap.h"
#include "toolsum.h"
#include "xmalloc.h"

/* ---- summary lines ----------------------------------------------------- */

static void
sum(const char *tool, const char *path, const char *command,
    const char *output, const char *error, const char *input,
    const char *response, const char *want, const char *what)
{
	struct toolsum_call	 c;
	cJSON			*in = input ? cJSON_Parse(input) : NULL;
	cJSON			*resp = response ? cJSON_Parse(response) : NULL;
	char			*got;

	memset(&c, 0, sizeof(c));
	c.tool = tool;
	c.path = path;
	c.command = command;
	c.output = output;
	c.output_len = output ? strlen(output) : 0;
	c.error = error;
	c.input = in;
	c.response = resp;
	got = toolsum(&c);
	is_str(got, want, "summary: %s", what);
	free(got);
	cJSON_Delete(in);
	cJSON_Delete(resp);
}

static void
test_toolsum(void)
{
	/* Seed 001 §3.2, row by row. */
	sum("Read", "src/app.ts", NULL, "\nimport x from 'y';\nmore\n", NULL,
	    NULL, NULL, "Read src/app.ts: import x from 'y';...",
	    "Read {path}: {first_line}...");
	sum("Write", "README.md", NULL, NULL, NULL,
	    "{\"file_path\":\"README.md\",\"content\":\"a\\nb\\nc\\n\"}", NULL,
	    "Wrote 3 lines to README.md", "Wrote {lines} lines to {path}");
	sum("Bash", NULL, "npm test", "ok", NULL, NULL,
	    "{\"stdout\":\"ok\",\"interrupted\":false}", "Ran `npm test`: exit 0",
	    "Ran `{cmd}`: {status}, a success");
	sum("Bash", NULL, "npm test", NULL, "Exit code 2\nfail", NULL, NULL,
	    "Ran `npm test`: exit 2", "a failure's exit code");
	sum("Bash", NULL, "python3 a.py", NULL, "Traceback (most recent call "
	    "last):\n  File x\nKeyError: 1", NULL, NULL, "Ran `python3 a.py`: "
	    "error: Traceback (most recent call last):", "an error found in "
	    "its output");
	sum("Bash", NULL, "sleep 100", NULL, NULL, NULL,
	    "{\"interrupted\":true}", "Ran `sleep 100`: interrupted",
	    "interrupted");
	sum("Grep", NULL, NULL, "a.ts\nb.ts", NULL, "{\"pattern\":\"retry\"}",
	    "{\"mode\":\"files_with_matches\",\"numFiles\":2}",
	    "Found 2 matches for retry", "Found {n} matches for {pattern}");
	sum("Grep", NULL, NULL, "a.ts:1:x\na.ts:9:x\nb.ts:3:x", NULL,
	    "{\"pattern\":\"x\"}", "{\"mode\":\"content\",\"numMatches\":3}",
	    "Found 3 matches for x", "Grep's content mode counts matches");
	sum("Glob", NULL, NULL, "a\nb\nc", NULL, "{\"pattern\":\"**/*.ts\"}",
	    "{\"filenames\":[\"a\",\"b\",\"c\"]}", "Found 3 files for **/*.ts",
	    "Glob");
	sum("Edit", "src/a.ts", NULL, NULL, NULL,
	    "{\"old_string\":\"a\",\"new_string\":\"b\\nc\"}", NULL,
	    "Edited src/a.ts (+2 -1 lines)", "Edit");
	sum("WebFetch", NULL, NULL, NULL, "HTTP 503 Service Unavailable",
	    "{\"url\":\"https://x.example/api\"}", "{\"code\":503,\"codeText\":"
	    "\"Service Unavailable\"}", "Fetched https://x.example/api: 503 "
	    "Service Unavailable", "WebFetch's status");
	sum("mcp__db__query", NULL, NULL, NULL, "boom\nmore",
	    "{\"sql\":\"select 1\"}", NULL, "mcp__db__query select 1 (failed: "
	    "boom)", "another tool, failed");
	sum("Bash", NULL, "echo a\nb\tc", NULL, NULL, NULL, NULL,
	    "Ran `echo a b c`: exit 0", "one line, whatever the command");
}

/* ---- the memory, seeded -------------------------------------------------- */

static struct rr_db *
fresh_db(char **dir)
{
	char		 tmpl[] = "/tmp/rr-mem-XXXXXX", *path, *err = NULL;
	struct rr_db	*db;

	*dir = xstrdup(mkdtemp(tmpl));
	path = xasprintf("%s/m.db", *dir);
	db = db_new(path);
	free(path);
	if (db_conn(db, DB_WRITE, &err) == NULL)
		printf("# %s\n", err);
	free(err);
	return db;
}

static void
post(struct rr_db *db, const char *json)
{
	struct rr_event	 ev;
	char		*err = NULL;

	if (event_parse(&ev, json, strlen(json), "/p", &err) == 0 &&
	    record_event(db, &ev, NULL, NULL, &err) < 0)
		printf("# record: %s\n", err);
	free(err);
	event_release(&ev);
}

static const char *const session_one[] = {
	"{\"hook_event_name\":\"UserPromptSubmit\",\"session_id\":\"s1\","
	"\"cwd\":\"/p\",\"prompt\":\"결제 웹훅 테스트가 가끔 실패해, fix the "
	"flaky webhook test\"}",
	"{\"hook_event_name\":\"PostToolUse\",\"session_id\":\"s1\",\"cwd\":"
	"\"/p\",\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":"
	"\"/p/test/pay.test.ts\"},\"tool_response\":{\"file\":{\"content\":"
	"\"describe('webhook')\\n\"}}}",
	"{\"hook_event_name\":\"PostToolUseFailure\",\"session_id\":\"s1\","
	"\"cwd\":\"/p\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":"
	"\"npm test\"},\"error\":\"Exit code 1\\nAssertionError: expected 200\"}",
	"{\"hook_event_name\":\"PostToolUse\",\"session_id\":\"s1\",\"cwd\":"
	"\"/p\",\"tool_name\":\"Edit\",\"tool_input\":{\"file_path\":"
	"\"/p/src/pay.ts\",\"old_string\":\"a\",\"new_string\":\"b\"},"
	"\"tool_response\":{}}",
	"{\"hook_event_name\":\"PostToolUse\",\"session_id\":\"s1\",\"cwd\":"
	"\"/p\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"npm test\"},"
	"\"tool_response\":{\"stdout\":\"12 passing\",\"stderr\":\"\"}}",
	"{\"hook_event_name\":\"Stop\",\"session_id\":\"s1\",\"cwd\":\"/p\","
	"\"prompt\":\"결제 웹훅 테스트가 가끔 실패해, fix the flaky webhook "
	"test\",\"last_assistant_message\":\"Fixed: the webhook retries once.\"}",
	"{\"hook_event_name\":\"UserPromptSubmit\",\"session_id\":\"s1\","
	"\"cwd\":\"/p\",\"prompt\":\"commit it\"}",
	NULL
};

static void
test_layers(void)
{
	struct mem_rows		 rows;
	struct mem_query	 q;
	struct session_facts	 f;
	struct rr_event		 ev;
	struct mem_row		 route;
	struct rr_db		*db;
	char			*dir, *err = NULL, *text, *in;
	const char		*end;
	bool			 found;
	size_t			 i;

	db = fresh_db(&dir);
	for (i = 0; session_one[i] != NULL; i++)
		post(db, session_one[i]);
	/* The summary, as SessionEnd writes it. */
	end = "{\"hook_event_name\":\"SessionEnd\",\"session_id\":\"s1\","
	    "\"cwd\":\"/p\",\"reason\":\"exit\"}";
	post(db, end);

	mem_rows_init(&rows);
	memset(&q, 0, sizeof(q));
	q.words = "webhook";
	ok(mem_search(db, MEM_SUMMARY, &q, &rows, &err) == 0 && rows.n == 1 &&
	    strcmp(rows.v[0].id, "s1") == 0, "tier 1: the summary, by a word "
	    "of the prompt (%zu rows)", rows.n);
	mem_rows_release(&rows);
	ok(mem_search(db, MEM_CONVERSATION, &q, &rows, &err) == 0 && rows.n ==
	    1 && strncmp(rows.v[0].line, "user: ", 6) == 0, "tier 2: the saved "
	    "turn");
	mem_rows_release(&rows);
	q.words = "웹훅";
	ok(mem_search(db, MEM_SUMMARY, &q, &rows, &err) == 0 && rows.n == 1,
	    "a Korean word finds the summary");
	mem_rows_release(&rows);
	q.words = "결제";
	ok(mem_search(db, MEM_OBSERVATION, &q, &rows, &err) == 0 && rows.n ==
	    1 && strcmp(rows.v[0].type, "user_prompt") == 0, "and the prompt "
	    "among the observations");
	mem_rows_release(&rows);
	q.words = "webh";
	ok(mem_search(db, MEM_SUMMARY, &q, &rows, &err) == 0 && rows.n == 1,
	    "each word is a prefix");
	mem_rows_release(&rows);
	q.words = "webhook nosuchword";
	ok(mem_search(db, MEM_SUMMARY, &q, &rows, &err) == 0 && rows.n == 0,
	    "every word must be there");
	mem_rows_release(&rows);
	q.any_word = true;
	ok(mem_search(db, MEM_SUMMARY, &q, &rows, &err) == 0 && rows.n == 1,
	    "or any one, ranked");
	mem_rows_release(&rows);
	q.any_word = false;
	q.words = "npm";
	ok(mem_search(db, MEM_OBSERVATION, &q, &rows, &err) == 0 && rows.n ==
	    2 && strcmp(rows.v[0].line, "Ran `npm test`: exit 0") == 0 &&
	    strcmp(rows.v[1].line, "Ran `npm test`: exit 1") == 0, "layer 1: "
	    "ids and summary lines, newest first among equals");
	q.words = "\"; DROP TABLE events; --";
	mem_rows_release(&rows);
	ok(mem_search(db, MEM_OBSERVATION, &q, &rows, &err) == 0 && rows.n ==
	    0, "a query's text is never query syntax");
	mem_rows_release(&rows);
	q.words = "webhook";
	q.not_session = "s1";
	ok(mem_search(db, MEM_SUMMARY, &q, &rows, &err) == 0 && rows.n == 0,
	    "a session can be left out (the current one)");
	mem_rows_release(&rows);

	ok(mem_file(db, "src/pay.ts", NULL, 10, &rows, &err) == 0 && rows.n ==
	    1 && strcmp(rows.v[0].tool, "Edit") == 0, "getToolsForFile: the "
	    "calls on a file, by its end");
	mem_rows_release(&rows);
	ok(mem_file(db, "pay.ts", NULL, 10, &rows, &err) == 0 && rows.n == 1,
	    "on a '/' boundary: pay.ts is not pay.test.ts");
	mem_rows_release(&rows);

	ok(mem_timeline(db, "e3", 1, 1, &rows, &err) == 0 && rows.n == 3 &&
	    strcmp(rows.v[1].id, "e3") == 0 && strcmp(rows.v[0].id, "e2") ==
	    0, "layer 2: the rows around one (%zu)", rows.n);
	mem_rows_release(&rows);
	ok(mem_timeline(db, "s1", 2, 2, &rows, &err) == 0 && rows.n >= 3,
	    "around a summary: around its time");
	mem_rows_release(&rows);
	ok(mem_timeline(db, "e999", 2, 2, &rows, &err) == 0 && rows.n == 0,
	    "an unknown id: nothing");
	mem_rows_release(&rows);
	ok(mem_show(db, "e3", &rows, &err) == 0 && rows.n == 1 &&
	    strstr(rows.v[0].data, "\"error\":\"Exit code 1\\nAssertionError: "
	    "expected 200\"") != NULL, "layer 3: the whole row");
	mem_rows_release(&rows);
	ok(mem_show(db, "x3", &rows, &err) == 0 && rows.n == 0 &&
	    !mem_valid_id("e3; drop") && mem_valid_id("c12"), "ids are checked");
	ok(mem_session(db, "s1", 0, &rows, &err) == 0 && rows.n >= 7 &&
	    rows.v[0].kind == MEM_SUMMARY, "a session: its summary first, then "
	    "its rows (%zu)", rows.n);
	mem_rows_release(&rows);
	ok(mem_session(db, NULL, 10, &rows, &err) == 0 && rows.n == 1 &&
	    strcmp(rows.v[0].session, "s1") == 0, "the recent sessions");
	mem_rows_release(&rows);

	/* The summary's facts. */
	ok(summary_facts(db, "s1", "/p", &f, &err) == 0, "facts read");
	text = summary_extractive(&f);
	if (!ok(strstr(text, "First request: 결제 웹훅 테스트가 가끔 실패해, fix the "
	    "flaky webhook test\nLast request: commit it\n") != NULL &&
	    strstr(text, "Files touched: test/pay.test.ts (read), src/pay.ts "
	    "(edited)\n") != NULL && strstr(text, "Commands run: npm test "
	    "(failed, then ok) x2\n") != NULL && strstr(text, "Errors: "
	    "AssertionError: expected 200 (Bash: npm test), resolved by npm "
	    "test (Bash)") != NULL, "extractive: requests, files, commands, "
	    "errors and their resolution"))
		printf("# %s\n", text);
	in = summary_input_json(&f, text, "exit");
	ok(strstr(in, "\"version\":1") && strstr(in, "\"reason\":\"exit\"") &&
	    strstr(in, "\"conversation\":[{\"ts\":") && strstr(in,
	    "\"assistant\":\"Fixed: the webhook retries once.\""),
	    "the summarizer's input");
	free(in);
	free(text);
	summary_facts_release(&f);

	/* A session with nothing recorded gets no summary. */
	end = "{\"hook_event_name\":\"SessionEnd\",\"session_id\":\"empty\","
	    "\"reason\":\"exit\"}";
	event_parse(&ev, end, strlen(end), "/p", &err);
	ok(record_event(db, &ev, NULL, NULL, &err) == 0, "an empty session "
	    "ends");
	event_release(&ev);
	mem_rows_release(&rows);
	q.words = NULL;
	q.not_session = NULL;
	q.session = "empty";
	ok(mem_search(db, MEM_SUMMARY, &q, &rows, &err) == 0 && rows.n == 0,
	    "with no summary");
	mem_rows_release(&rows);

	ok(mem_last_route(db, "s1", &route, &found, &err) == 0 && !found,
	    "no route recorded");
	mem_row_release(&route);
	db_close(db);
	free(dir);
	free(err);
}

/* A string literal and its length. */
#define SL(s)	(s), strlen(s)

/* ---- the summarizer's output, configured commands, the router -------------- */

static void
test_contracts(void)
{
	struct rr_command	 c;
	struct route_info	 r;
	struct arena		 a;
	struct buf		 out;
	char			*s = NULL, *err = NULL, *argv[3];

	ok(summary_from_output("  A summary.\n", 13, &s, &err) == 0 &&
	    strcmp(s, "A summary.") == 0, "a summary as text");
	free(s);
	ok(summary_from_output("{\"summary\":\"From JSON\"}", 23, &s, &err) ==
	    0 && strcmp(s, "From JSON") == 0, "or as JSON");
	free(s);
	ok(summary_from_output("{\"text\":1}", 10, &s, &err) < 0 && s == NULL,
	    "JSON without a summary: refused (%s)", err);
	free(err);
	err = NULL;
	ok(summary_from_output(" \n", 2, &s, &err) < 0, "an empty answer: "
	    "refused");
	free(err);
	err = NULL;

	memset(&c, 0, sizeof(c));
	c.shell = xstrdup("read x; echo \"got $x\"; echo oops >&2");
	c.timeout_ms = 5000;
	buf_init(&out);
	ok(extcmd_run(&c, "hello\n", 6, &out, &err) == 0 && out.len == 10 &&
	    memcmp(out.data, "got hello\n", 10) == 0, "a command reads stdin, "
	    "writes stdout");
	free(c.shell);
	c.shell = xstrdup("echo partial; echo 'the model is down' >&2; exit 3");
	buf_reset(&out);
	ok(extcmd_run(&c, "", 0, &out, &err) < 0 && strcmp(err, "it failed "
	    "(exit status 3): the model is down") == 0, "a failure says its "
	    "status and stderr (%s)", err);
	free(err);
	err = NULL;
	free(c.shell);
	c.shell = xstrdup("sleep 30");
	c.timeout_ms = 300;
	buf_reset(&out);
	ok(extcmd_run(&c, "x", 1, &out, &err) < 0 && strcmp(err, "it ran past "
	    "its time limit of 300 ms") == 0, "a time limit: %s", err);
	free(err);
	err = NULL;
	free(c.shell);
	c.shell = NULL;
	argv[0] = xstrdup("/nonexistent/summarizer");
	argv[1] = NULL;
	c.argv = argv;
	c.timeout_ms = 2000;
	buf_reset(&out);
	ok(extcmd_run(&c, "{}", 2, &out, &err) < 0 && strstr(err, "exit "
	    "status 127") != NULL, "a command that cannot run (%s)", err);
	free(err);
	err = NULL;
	free(argv[0]);
	buf_release(&out);

	arena_init(&a);
	ok(router_parse(SL("{\"exec_type\":\"master\",\"pipeline\":\"rag\","
	    "\"confidence\":0.9,\"reason\":\"지식베이스 검색 필요\"}"), &a, &r,
	    &err) == 0 && strcmp(r.exec_type, "master") == 0 &&
	    r.confidence == 90 && strcmp(r.pipeline, "rag") == 0 &&
	    strcmp(r.source, "router") == 0, "a router's answer: a fraction is "
	    "a percentage");
	ok(router_parse(SL("{\"exec_type\":\"tool\",\"confidence\":75}"), &a,
	    &r, &err) == 0 && r.confidence == 75 && r.pipeline == NULL,
	    "a percentage as it is");
	ok(router_parse(SL("{\"exec_type\":\"rocket\"}"), &a, &r, &err) < 0,
	    "an unknown exec_type: refused");
	free(err);
	err = NULL;
	ok(router_parse(SL("{\"exec_type\":\"tool\",\"confidence\":\"high\"}"),
	    &a, &r, &err) < 0, "a confidence that is no number: refused");
	free(err);
	err = NULL;
	ok(router_parse(SL("not json"), &a, &r, &err) < 0, "not JSON: refused");
	free(err);
	arena_release(&a);
}

static void
test_statusline(void)
{
	struct statusline_facts	 f;
	char			*s;

	memset(&f, 0, sizeof(f));
	f.time = "08:14";
	f.session = "670db96e-1234-5678";
	f.model_id = "claude-opus-4-1-20250805";
	f.model_name = "Opus";
	f.dir = "/home/me/work";
	f.route_exec_type = "master";
	f.route_pipeline = "rag";
	f.route_icon = "\xf0\x9f\x93\x9a";
	f.rules = f.denied = -1;
	s = statusline_format(&f);
	is_str(s, "\xf0\x9f\x93\x8a [08:14\xc2\xb7" "670db96] | claude/opus | "
	    "work | \xf0\x9f\x93\x9a" "rag", "seed 004's status line, byte for "
	    "byte");
	free(s);
	f.model_name = NULL;
	f.model_id = "claude-3-5-sonnet-20241022";
	f.route_exec_type = NULL;
	f.rules = 42;
	f.denied = 1;
	f.dir = "/srv/app/";
	s = statusline_format(&f);
	is_str(s, "\xf0\x9f\x93\x8a [08:14\xc2\xb7" "670db96] | claude/sonnet | "
	    "app | \xf0\x9f\x92\xac" "direct | \xf0\x9f\x9b\xa1 42 rules \xc2\xb7 "
	    "1 denied", "the family from the id, direct, the engine's facts");
	free(s);
	f.session = "a\nb\x1b[31m";
	f.model_id = NULL;
	f.dir = NULL;
	s = statusline_format(&f);
	ok(strchr(s, '\n') == NULL && strchr(s, '\x1b') == NULL &&
	    strstr(s, "claude/?") != NULL && strstr(s, "| ? |") != NULL,
	    "the input is shown as data: %s", s);
	free(s);
}

int
main(void)
{
	test_toolsum();
	test_layers();
	test_contracts();
	test_statusline();
	return done_testing();
}
