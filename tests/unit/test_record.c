/*
 * The recorder: error normalization, redaction, output compression, error
 * detection, and what record_event() writes for a session's calls.
 */
#include <cjson/cJSON.h>
#include <signal.h>
#include <sqlite3.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "db.h"
#include "errclass.h"
#include "errnorm.h"
#include "event.h"
#include "kb.h"
#include "match_re.h"
#include "record.h"
#include "redact.h"
#include "tap.h"
#include "xmalloc.h"

static void
norm(const char *in, const char *want, const char *what)
{
	char	*got = errnorm(in, strlen(in), "/home/dev/shop", "/home/dev");

	is_str(got, want, "normalize: %s", what);
	free(got);
}

static void
test_errnorm(void)
{
	char	*s, *t;

	norm("Exit code 1\r\nError: Cannot find module '/home/dev/shop/src/a.js'"
	    "  \n\n", "Exit code 1\nError: Cannot find module "
	    "'<project>/src/a.js'", "CR LF, trailing blanks, project dir");
	norm("/home/dev/shopping/x and /home/dev/.npmrc",
	    "~/shopping/x and ~/.npmrc", "a longer name is not the project");
	norm("src/index.ts:12:5 - error TS2322", "src/index.ts:<n>:<n> - error "
	    "TS2322", "file:line:col");
	norm("  File \"/home/dev/shop/app.py\", line 42, in main",
	    "  File \"<project>/app.py\", line <n>, in main", "Python frames");
	norm("at Object.<anonymous> (/home/dev/shop/t.js:10:15)",
	    "at Object.<anonymous> (<project>/t.js:<n>:<n>)", "node frames");
	norm("src/a.ts(12,5): error", "src/a.ts(<n>,<n>): error", "tsc");
	norm("at 2026-02-07T12:34:56.789Z and 12:34:56 on 2026-02-07",
	    "at <time> and <time> on <date>", "times and dates");
	norm("req 123e4567-e89b-12d3-a456-426614174000 at 0x7ffd5e8c3a10",
	    "req <uuid> at 0x<addr>", "uuid and address");
	norm("commit 9fceb02d0ae598e95dc970b74767f19372d61af8 toolu_01Kp2Wq8Rm",
	    "commit <hex> <id>", "hex ids and tool ids");
	norm("done in 4187ms (1.25s), pid 1234567", "done in <duration> "
	    "(<duration>), pid <n>", "durations and big numbers");
	norm("/tmp/pytest-of-dev/pytest-3/test_a0/x.py: bad",
	    "<tmp>: bad", "temporary paths");
	norm("HTTP 404 Not Found; Exit code 127", "HTTP 404 Not Found; Exit "
	    "code 127", "statuses and exit codes stay");
	norm("bad \xff byte", "bad \xef\xbf\xbd byte", "invalid UTF-8");
	s = xmalloc(5000);
	memset(s, 'a', 4999);
	s[4999] = '\0';
	t = errnorm(s, 4999, NULL, NULL);
	is_int(strlen(t), ERRNORM_MAX_CHARS, "cut to %d characters",
	    ERRNORM_MAX_CHARS);
	free(t);
	free(s);
	s = errnorm("x", 1, NULL, NULL);
	is_str(s, "x", "no project, no home");
	free(s);
}

static void
red(const char *in, const char *want, const char *what)
{
	struct redact_opts	o = { true, NULL, 0 };
	struct buf		b;

	buf_init(&b);
	redact_text(&o, in, strlen(in), &b);
	is_str(b.data, want, "redact: %s", what);
	buf_release(&b);
}

/* in redacted with every pattern applied, and as the gates choose. */
static bool
same_as_ungated(const char *in)
{
	struct redact_opts	o = { true, NULL, 0 };
	struct buf		a, b;
	bool			same;

	buf_init(&a);
	buf_init(&b);
	redact_force_all(true);
	redact_text(&o, in, strlen(in), &a);
	redact_force_all(false);
	redact_text(&o, in, strlen(in), &b);
	same = a.len == b.len && memcmp(a.data, b.data, a.len) == 0;
	if (!same)
		printf("# %s\n#  all: %s\n#  gated: %s\n", in, a.data, b.data);
	buf_release(&a);
	buf_release(&b);
	return same;
}

/*
 * A pattern is skipped when the text lacks every literal its matches
 * hold: never one that would have masked something.  The texts are the
 * secrets of the tests above in other cases and with characters PCRE2
 * folds to ASCII (KELVIN SIGN for k, LONG S for s), pieces of them, and
 * random mixtures.
 */
static void
test_redact_gates(void)
{
	static const char *const pieces[] = {
		"Authorization: Bearer abcdef123456789", "bearer ",
		"AKIAIOSFODNN7EXAMPLE", "ASIAABCDEFGHIJKLMNOP",
		"ghp_abcdefghijklmnopqrstuvwxyz0123456789",
		"github_pat_ABCDEFGHIJKLMNOPQRSTUVW", "xoxb-1234567890-abc",
		"sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "AIza",
		"AIzaSyA1234567890abcdefghijklmnopqrstu",
		"eyJhbGciOi.eyJzdWIiOi.abcdefgh", "postgres://app:hunter2@db/x",
		"--password=pw", "-token hunter2", "API_KEY=s3cr3tvalue",
		"DB_PASSWORD=\"pw 1\"", "client_secret\": \"abc\"",
		"access-key: x", "PRIVATE_KEY=y", "credential=z", "apikey: q",
		"api_\xe2\x84\xaa" "ey=kelvin", "\xc5\xbf" "ecret=longs",
		"pa\xc5\xbf" "sword: p", "to\xe2\x84\xaa" "en=t",
		"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE "
		"KEY-----", "MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM\n-----END EC "
		"PRIVATE KEY-----", "PWD=/home/dev", "tokens=2", " ", "=", ":",
		"\n", "x", "\"", "key", "KEY", "Secret", "TOKEN", "Passwd",
	};
	struct buf	t;
	size_t		i, k, n, bad = 0, runs = 0;
	unsigned long	r = 7;

	for (i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++, runs++)
		bad += !same_as_ungated(pieces[i]);
	buf_init(&t);
	for (i = 0; i < 400; i++, runs++) {
		buf_reset(&t);
		for (k = 0, n = 1 + i % 5; k < n; k++) {
			r = r * 6364136223846793005UL + 1442695040888963407UL;
			buf_adds(&t, pieces[(r >> 33) % (sizeof(pieces) /
			    sizeof(pieces[0]))]);
			if ((r >> 20) % 3 == 0)
				buf_addc(&t, (r >> 40) % 2 ? ' ' : '\n');
		}
		/* Flip the case of some ASCII letters. */
		for (k = 0; k < t.len; k++)
			if (((r >> (k % 50)) & 1) && isalpha((unsigned char)
			    t.data[k]))
				t.data[k] ^= 0x20;
		bad += !same_as_ungated(t.data);
	}
	buf_release(&t);
	is_int(bad, 0, "the patterns a text is spared give what all of them "
	    "give, on %zu texts", runs);
}

/*
 * The corpus of secret shapes (tests/fixtures/secrets/corpus.tsv, which
 * tests/redact-test.sh also records through the hook): each secret gone
 * from its redacted text, and the gates give what every pattern gives.
 */
static void
test_redact_corpus(void)
{
	struct redact_opts	 o = { true, NULL, 0 };
	const char		*dir = getenv("SRCDIR");
	char			*path, line[4096], *label, *text, *secret, *p;
	struct buf		 b, t;
	FILE			*f;
	size_t			 n = 0, leaks = 0, differ = 0;

	path = xasprintf("%s/tests/fixtures/secrets/corpus.tsv", dir ? dir :
	    ".");
	if ((f = fopen(path, "r")) == NULL) {
		ok(0, "cannot read %s", path);
		free(path);
		return;
	}
	buf_init(&t);
	while (fgets(line, sizeof(line), f) != NULL) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		line[strcspn(line, "\n")] = '\0';
		label = line;
		if ((text = strchr(label, '\t')) == NULL ||
		    (secret = strchr(text + 1, '\t')) == NULL)
			continue;
		*text++ = '\0';
		*secret++ = '\0';
		buf_reset(&t);
		for (p = text; *p; p++) {
			if (p[0] == '\\' && p[1] == 'n') {
				buf_addc(&t, '\n');
				p++;
			} else
				buf_addc(&t, *p);
		}
		buf_init(&b);
		redact_text(&o, t.data, t.len, &b);
		if (strstr(b.data, secret) != NULL) {
			printf("# %s: %s\n", label, b.data);
			leaks++;
		}
		differ += !same_as_ungated(t.data);
		buf_release(&b);
		n++;
	}
	fclose(f);
	buf_release(&t);
	free(path);
	ok(n >= 50, "the corpus has %zu shapes (50 at least)", n);
	is_int(leaks, 0, "no secret of the corpus survives redaction");
	is_int(differ, 0, "the gates give what every pattern gives on it");
}

static void
test_redact(void)
{
	struct redact_opts	o = { false, NULL, 0 };
	struct rr_regex		*extra[1];
	struct buf		b;
	char			errbuf[64];
	size_t			off;

	red("curl -H 'Authorization: Bearer abcdef123456789'",
	    "curl -H 'Authorization: Bearer [REDACTED]'", "Authorization");
	red("token: Bearer eyJhbGciOi.abc", "token: [REDACTED] [REDACTED]",
	    "bearer after a token name");
	red("key AKIAIOSFODNN7EXAMPLE here", "key [REDACTED] here", "AWS");
	red("gh ghp_abcdefghijklmnopqrstuvwxyz0123456789",
	    "gh [REDACTED]", "GitHub");
	red("sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "[REDACTED]",
	    "Anthropic key");
	red("postgres://app:hunter2@db/x", "postgres://app:[REDACTED]@db/x",
	    "password in a URL");
	red("export API_KEY=s3cr3tvalue; DB_PASSWORD=\"pw 1\"",
	    "export API_KEY=[REDACTED]; DB_PASSWORD=\"[REDACTED] 1\"",
	    "secret-named variables");
	red("{\"client_secret\": \"abc\", \"name\": \"x\"}",
	    "{\"client_secret\": \"[REDACTED]\", \"name\": \"x\"}", "JSON");
	red("mysql --password=pw -u root", "mysql --password=[REDACTED] -u "
	    "root", "a password flag");
	red("a\n-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE "
	    "KEY-----\nb", "a\n[REDACTED PRIVATE KEY]\nb", "private key");
	red("-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl (cut)",
	    "[REDACTED PRIVATE KEY]", "a key cut short");
	red("... [80 lines omitted] ...\nMIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM\n"
	    "9Q2m4pQkRi8mJ2WYbUvN0zR4aPq1xX8sFdE2\n-----END RSA PRIVATE KEY-----"
	    "\nok", "... [80 lines omitted] ...\n[REDACTED PRIVATE KEY]\nok",
	    "the end of a key whose start was cut");
	red("keep <private>secret stuff</private> this <PRIVATE>x",
	    "keep  this ", "private spans, an open one to the end");
	red("PWD=/home/dev/shop tokens=2", "PWD=/home/dev/shop tokens=[REDACTED]",
	    "PWD is not a password");
	setenv("MY_SERVICE_TOKEN", "zz-very-long-value-42", 1);
	red("echo zz-very-long-value-42", "echo [REDACTED]", "an environment "
	    "secret's value");
	unsetenv("MY_SERVICE_TOKEN");

	extra[0] = rr_regex_compile("ACME-[0-9]+", 11, 0, &off, errbuf,
	    sizeof(errbuf));
	o.extra = extra;
	o.nextra = 1;
	buf_init(&b);
	redact_text(&o, "id ACME-1234 ok", 15, &b);
	is_str(b.data, "id [REDACTED] ok", "a rule's own pattern");
	buf_release(&b);
	rr_regex_free(extra[0]);

	/* A pattern that hits the match limit: nothing is kept. */
	extra[0] = rr_regex_compile("(a+)+$", 6, 0, &off, errbuf,
	    sizeof(errbuf));
	rr_regex_set_match_limit(1000);
	buf_init(&b);
	redact_text(&o, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", 32, &b);
	is_str(b.data, REDACT_FAILED, "a limit hit keeps nothing");
	buf_release(&b);
	rr_regex_set_match_limit(1000000);
	rr_regex_free(extra[0]);
}

static void
test_compress(void)
{
	struct record_opts	o;
	struct buf		in, out;
	char			*e;
	int			i;

	record_opts_default(&o);
	buf_init(&in);
	for (i = 1; i <= 300; i++)
		buf_printf(&in, "line %d\n", i);
	buf_init(&out);
	record_compress(in.data, in.len, &o, &out);
	ok(strncmp(out.data, "line 1\n", 7) == 0 && strstr(out.data,
	    "line 50\n... [200 lines omitted] ...\nline 251\n") &&
	    strstr(out.data, "line 300\n") && !strstr(out.data, "line 51\n"),
	    "head 50 + tail 50 lines");
	buf_release(&out);
	buf_reset(&in);
	for (i = 0; i < 20000; i++)
		buf_adds(&in, "\xed\x95\x9c");	/* one 60 KB line */
	buf_init(&out);
	record_compress(in.data, in.len, &o, &out);
	ok(out.len <= RECORD_MAX_OUTPUT && strstr(out.data, "bytes omitted"),
	    "a 60 KB line is cut to 10 KB (%zu bytes)", out.len);
	e = out.data;
	for (i = 0; (size_t)i < out.len; i++)
		if ((unsigned char)e[i] >= 0x80 && ((unsigned char)e[i] & 0xc0)
		    != 0x80 && (unsigned char)e[i] != 0xed)
			break;
	ok((size_t)i == out.len && (unsigned char)out.data[out.len - 1] == 0x9c,
	    "cut on character boundaries");
	buf_release(&out);
	buf_release(&in);
}

static void
detect(const char *tool, const char *out, long status, const char *want,
    const char *what)
{
	char	*got = errclass_detect(tool, out, strlen(out), status,
		    "Not Found");

	if (want == NULL)
		ok(got == NULL, "detect: %s (got '%s')", what, got ? got : "");
	else
		is_str(got, want, "detect: %s", what);
	free(got);
}

static void
test_detect(void)
{
	detect("Bash", "start\nTraceback (most recent call last):\n  File "
	    "\"a.py\", line 3, in <module>\n    f()\nValueError: bad\nafter",
	    0, "Traceback (most recent call last):\n  File \"a.py\", line 3, "
	    "in <module>\n    f()\nValueError: bad", "a Python traceback");
	detect("Bash", "< HTTP/1.1 503 Service Unavailable\n<", 0,
	    "HTTP/1.1 503 Service Unavailable", "an HTTP status line");
	detect("Bash", "curl: (22) The requested URL returned error: 404", 0,
	    "curl: (22) The requested URL returned error: 404", "curl -f");
	detect("Bash", "building\n  TypeError: x is undefined\n", 0,
	    "TypeError: x is undefined", "an Error: line");
	detect("Bash", "0 errors, HTTP/1.1 200 OK", 0, NULL, "a clean output");
	detect("WebFetch", "page", 404, "HTTP 404 Not Found", "WebFetch code");
	detect("WebFetch", "page", 200, NULL, "WebFetch 200");
	detect("WebFetch", "{\"status\": 503, \"error\": \"busy\"}", 200,
	    "{\"status\": 503, \"error\": \"busy\"}", "a JSON status in a "
	    "page");
	detect("Bash", "{\n  \"statusCode\": 500,\n  \"message\": \"x\"\n}", 0,
	    "\"statusCode\": 500,", "a JSON statusCode line");
	detect("Bash", "status=404 for /x", 0, "status=404 for /x",
	    "a key=value status");
	detect("Bash", "LISTEN 0 4096 *:4040", 0, NULL, "a port is no status");
	detect("Read", "Traceback (most recent call last):", 0, NULL,
	    "a Read's output is not read");
}

static struct rr_event		 ev;
static const struct record_opts	*popts;	/* for post(); NULL: defaults */

static void
post(struct rr_db *db, const char *json, const char *what)
{
	char	*err = NULL;

	if (event_parse(&ev, json, strlen(json), "/p", &err) < 0) {
		ok(0, "%s: %s", what, err);
		free(err);
		event_release(&ev);
		return;
	}
	if (record_event(db, &ev, popts, NULL, &err) < 0) {
		ok(0, "%s: %s", what, err);
		free(err);
	} else
		ok(1, "recorded: %s", what);
	event_release(&ev);
}

static char *
query(struct rr_db *db, const char *sql)
{
	sqlite3_stmt	*st;
	struct buf	 b;
	int		 i, n = 0;

	buf_init(&b);
	if (sqlite3_prepare_v2(db->conn, sql, -1, &st, NULL) != SQLITE_OK) {
		buf_printf(&b, "error: %s", sqlite3_errmsg(db->conn));
		return buf_detach(&b, NULL);
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (n++)
			buf_addc(&b, '\n');
		for (i = 0; i < sqlite3_column_count(st); i++)
			buf_printf(&b, "%s%s", i ? "|" : "",
			    sqlite3_column_text(st, i) ?
			    (const char *)sqlite3_column_text(st, i) : "NULL");
	}
	sqlite3_finalize(st);
	return buf_detach(&b, NULL);
}

#define EV(kind, tool, rest) \
	"{\"session_id\":\"s\",\"hook_event_name\":\"" kind "\",\"cwd\":\"/p\"," \
	"\"tool_name\":\"" tool "\"," rest "}"

static void
test_record_flow(void)
{
	struct rr_db		*db = db_new(":memory:");
	struct record_opts	 small;
	char			*s, *err = NULL;
	size_t			 k;

	db_conn(db, DB_WRITE, &err);
	post(db, EV("PostToolUseFailure", "Bash", "\"tool_input\":{\"command\":"
	    "\"npm test\"},\"error\":\"Exit code 1\\nError: boom at /p/x.js:3:4"
	    " token=abc123\",\"tool_use_id\":\"toolu_1\",\"duration_ms\":41"),
	    "a failed Bash call");
	s = query(db, "SELECT type, json_extract(data, '$.error'), "
	    "json_extract(data, '$.error_raw'), json_extract(data, "
	    "'$.success'), json_extract(data, '$.duration_ms') FROM events");
	is_str(s, "tool_error|Exit code 1\nError: boom at <project>/x.js:<n>:<n> "
	    "token=[REDACTED]|Exit code 1\nError: boom at /p/x.js:3:4 "
	    "token=[REDACTED]|0|41", "a tool_error row, normalized and redacted");
	free(s);
	post(db, EV("PostToolUse", "Read", "\"tool_input\":{\"file_path\":"
	    "\"/p/x.js\"},\"tool_response\":{\"file\":{\"content\":\"a\"}}"),
	    "a Read");
	post(db, EV("PostToolUse", "Read", "\"tool_input\":{\"file_path\":"
	    "\"/p/x.js\"},\"tool_response\":{\"file\":{\"content\":\"b\"}}"),
	    "the same Read again");
	s = query(db, "SELECT count(*), json_extract(data, '$.count'), "
	    "json_extract(data, '$.output') FROM events WHERE data LIKE "
	    "'%\"Read\"%'");
	is_str(s, "1|2|b", "consecutive Reads of one file are one row");
	free(s);
	post(db, EV("PostToolUse", "Edit", "\"tool_input\":{\"file_path\":"
	    "\"/p/x.js\",\"old_string\":\"a\",\"new_string\":\"b\"},"
	    "\"tool_response\":{\"structuredPatch\":[{\"lines\":[\"-a\","
	    "\"+b\"]}],\"originalFile\":\"huge\"}"), "an Edit");
	s = query(db, "SELECT count(*) FROM error_kb");
	is_str(s, "0", "an Edit of another target resolves nothing");
	free(s);
	post(db, EV("PostToolUse", "Bash", "\"tool_input\":{\"command\":"
	    "\"npm test\"},\"tool_response\":{\"stdout\":\"ok\",\"stderr\":"
	    "\"\"}"), "the same command, now passing");
	s = query(db, "SELECT error_normalized, resolution, use_count FROM "
	    "error_kb");
	is_str(s, "Exit code 1\nError: boom at <project>/x.js:<n>:<n> "
	    "token=[REDACTED]|{\"resolvedBy\":\"npm test\",\"tool\":\"Bash\","
	    "\"toolSequence\":[\"Read\",\"Edit\",\"Bash\"]}|1",
	    "the error is resolved into the KB");
	free(s);
	post(db, EV("PostToolUse", "Bash", "\"tool_input\":{\"command\":"
	    "\"npm test\"},\"tool_response\":{\"stdout\":\"ok\"}"),
	    "passing again");
	s = query(db, "SELECT use_count FROM error_kb");
	is_str(s, "1", "a resolved error is not resolved twice");
	free(s);

	post(db, EV("PostToolUse", "Bash", "\"tool_input\":{\"command\":"
	    "\"python a.py\"},\"tool_response\":{\"stdout\":\"Traceback (most "
	    "recent call last):\\n  File \\\"a.py\\\", line 9\\nKeyError: "
	    "'k'\\n\"}"), "a Bash call with a traceback");
	s = query(db, "SELECT type, json_extract(data, '$.detected'), "
	    "json_extract(data, '$.error') FROM events ORDER BY id DESC "
	    "LIMIT 1");
	is_str(s, "tool_error|output|Traceback (most recent call last):\n  "
	    "File \"a.py\", line <n>\nKeyError: 'k'", "is an error anyway");
	free(s);
	record_opts_default(&small);
	small.head_lines = small.tail_lines = 2;
	popts = &small;
	post(db, EV("PostToolUse", "Bash", "\"tool_input\":{\"command\":"
	    "\"gen\"},\"tool_response\":{\"stdout\":\"x\\n<private>a\\nb"
	    "\\nc\\nd\\ne\\nf</private>y\\n1\\n2\\n3\\n4\\n\"}"),
	    "a long output with a private span, 2 + 2 lines kept");
	popts = NULL;
	s = query(db, "SELECT json_extract(data, '$.output') FROM events "
	    "ORDER BY id DESC LIMIT 1");
	is_str(s, "x\ny\n... [2 lines omitted] ...\n3\n4\n",
	    "private spans go before lines are cut");
	free(s);
	post(db, EV("PostToolUse", "Grep", "\"tool_input\":{\"pattern\":\"x\"},"
	    "\"tool_response\":{\"mode\":\"content\",\"content\":\"/p/a.c:1:x\\n"
	    "/p/a.c:2:x\\n/p/b.c:9:x\"}"), "a Grep");
	s = query(db, "SELECT json_extract(data, '$.output') FROM events "
	    "ORDER BY id DESC LIMIT 1");
	is_str(s, "/p/a.c\n/p/b.c", "Grep keeps the file list only");
	free(s);

	post(db, EV("PostToolUseFailure", "Edit", "\"tool_input\":{\"file_path\":"
	    "\"/p/y.ts\"},\"error\":\"old_string not found in y.ts\""),
	    "a failed Edit");
	post(db, EV("PostToolUse", "Read", "\"tool_input\":{\"file_path\":"
	    "\"/p/y.ts\"},\"tool_response\":{\"file\":{\"content\":\"a\"}}"),
	    "a Read of that file");
	s = query(db, "SELECT count(*) FROM error_kb WHERE error_normalized "
	    "LIKE '%y.ts'");
	is_str(s, "0", "a Read that works fixes no failed Edit");
	free(s);
	post(db, EV("PostToolUse", "Write", "\"tool_input\":{\"file_path\":"
	    "\"/p/y.ts\",\"content\":\"b\"},\"tool_response\":{}"),
	    "a Write of it");
	s = query(db, "SELECT resolution FROM error_kb WHERE error_normalized "
	    "LIKE '%y.ts'");
	is_str(s, "{\"resolvedBy\":\"y.ts\",\"tool\":\"Write\","
	    "\"toolSequence\":[\"Read\",\"Write\"]}", "a Write resolves it");
	free(s);

	/*
	 * Events past the retention go (once in RECORD_PRUNE_EVERY calls,
	 * with the event whose id is a multiple of it); others stay.
	 */
	record_insert_event(db, "2000-01-01T00:00:00.000Z", "old", "tool_use",
	    "{\"tool\":\"Bash\"}", &err);
	s = query(db, "SELECT max(id) FROM events");
	for (k = (size_t)atol(s) + 1; k % RECORD_PRUNE_EVERY != 0; k++)
		record_insert_event(db, "2999-01-01T00:00:00.000Z", "new",
		    "tool_use", "{\"tool\":\"Bash\"}", &err);
	free(s);
	s = query(db, "SELECT count(*) FROM events WHERE session_id = 'old'");
	is_str(s, "1", "an expired event waits for a pruning call");
	free(s);
	post(db, EV("PostToolUse", "Glob", "\"tool_input\":{\"pattern\":\"*\"},"
	    "\"tool_response\":{\"filenames\":[\"/p/a\",\"/p/b\"]}"), "a Glob");
	s = query(db, "SELECT count(*) FROM events WHERE session_id = 'old'");
	is_str(s, "0", "events older than 30 days are pruned");
	free(s);
	s = query(db, "SELECT json_extract(data, '$.output') FROM events "
	    "ORDER BY id DESC LIMIT 1");
	is_str(s, "/p/a\n/p/b", "Glob keeps the file list");
	free(s);
	db_close(db);
}

/*
 * The built-in tables (errnorm, redaction, detectors) compile through
 * rr_regex_compile_table(); a pattern that does not is a BUG().
 */
static void
test_regex_table(void)
{
	static const char *const good[][2] = {
		{ "a+", "first" },
		{ "(?i)b", "second" },
	};
	static const char *const bad[] = { "ok", "(unclosed" };
	struct rr_regex		*out[2];
	struct rlimit		 nocore = { 0, 0 };
	char			 msg[512];
	ssize_t			 n;
	size_t			 st, en, got = 0;
	pid_t			 pid;
	int			 fds[2], status = 0;

	rr_regex_compile_table("test row", good, 2, sizeof(good[0]), out);
	ok(rr_regex_match(out[0], "xaa", 3, &st, &en) == RR_MATCH_YES &&
	    st == 1 && en == 3 && rr_regex_match(out[1], "B", 1, NULL,
	    NULL) == RR_MATCH_YES, "a two-column table compiles row by row");
	rr_regex_free(out[0]);
	rr_regex_free(out[1]);

	if (pipe(fds) < 0 || (pid = fork()) < 0) {
		skip("cannot fork");
		return;
	}
	if (pid == 0) {
		setrlimit(RLIMIT_CORE, &nocore);
		dup2(fds[1], 2);
		close(fds[0]);
		rr_regex_compile_table("test row", bad, 2, sizeof(bad[0]), out);
		_exit(0);
	}
	close(fds[1]);
	while (got < sizeof(msg) - 1 &&
	    (n = read(fds[0], msg + got, sizeof(msg) - 1 - got)) > 0)
		got += (size_t)n;
	msg[got] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
	    "a bad built-in pattern aborts");
	ok(strncmp(msg, "reflexion-rules: BUG: ", 22) == 0 &&
	    strstr(msg, "match_re.c:") != NULL &&
	    strstr(msg, ": test row 1: ") != NULL, "and says it is a BUG: %.*s",
	    (int)strcspn(msg, "\n"), msg);
}

int
main(void)
{
	test_errnorm();
	test_redact();
	test_redact_gates();
	test_redact_corpus();
	test_compress();
	test_detect();
	test_regex_table();
	test_record_flow();
	return done_testing();
}
