/* The event reader: field mapping per tool, paths, hostile JSON. */
#include "event.h"
#include "helpers.h"
#include "tap.h"

static struct rr_event ev;

static int
parse(const char *json, const char *project)
{
	char	*err = NULL;
	int	 rc;

	event_release(&ev);
	rc = event_parse(&ev, json, strlen(json), project, &err);
	free(err);
	return rc;
}

static const char *
field(enum rr_field f)
{
	return ev.f[f].s ? ev.f[f].s : "(absent)";
}

/* The byte-at-a-time json_fix_escapes() that memchr() replaced. */
static long
ref_u_escape(const char *p, size_t avail)
{
	long	v = 0;
	int	i, h;

	if (avail < 6 || p[0] != '\\' || p[1] != 'u')
		return -1;
	for (i = 2; i < 6; i++) {
		h = p[i] >= '0' && p[i] <= '9' ? p[i] - '0' :
		    p[i] >= 'a' && p[i] <= 'f' ? p[i] - 'a' + 10 :
		    p[i] >= 'A' && p[i] <= 'F' ? p[i] - 'A' + 10 : -1;
		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

static void
ref_fix_escapes(char *s, size_t len)
{
	size_t	i = 0;
	int	in_string = 0;
	long	v, lo;

	while (i < len) {
		if (!in_string) {
			if (s[i] == '"')
				in_string = 1;
			i++;
			continue;
		}
		if (s[i] == '"') {
			in_string = 0;
			i++;
			continue;
		}
		if (s[i] != '\\') {
			i++;
			continue;
		}
		if (i + 1 >= len)
			break;
		if (s[i + 1] != 'u') {
			i += 2;
			continue;
		}
		v = ref_u_escape(s + i, len - i);
		if (v < 0) {
			i += 2;
			continue;
		}
		if (v == 0)
			memcpy(s + i + 2, "2400", 4);
		else if (v >= 0xd800 && v <= 0xdbff) {
			lo = ref_u_escape(s + i + 6, len - i - 6);
			if (lo >= 0xdc00 && lo <= 0xdfff) {
				i += 12;
				continue;
			}
			memcpy(s + i + 2, "fffd", 4);
		} else if (v >= 0xdc00 && v <= 0xdfff)
			memcpy(s + i + 2, "fffd", 4);
		i += 6;
	}
}

/* Random texts of quotes, backslashes and \u escapes: same rewrite. */
static void
fix_escapes_like_reference(void)
{
	static const char *const parts[] = {
		"\"", "\\", "\\u0000", "\\ud800", "\\udc00", "\\ud83d\\ude00",
		"\\u12", "\\\"", "a", "{", ":", "\\u00zz", "\\\\", "x y"
	};
	unsigned long	 seed = 7;
	char		 a[256], b[256];
	size_t		 n, t, k, bad = 0;

	for (t = 0; t < 20000; t++) {
		n = 0;
		for (k = 0; k < 12; k++) {
			seed = seed * 6364136223846793005UL + 1;
			const char *p = parts[(seed >> 33) % 14];
			if (n + strlen(p) >= sizeof(a))
				break;
			memcpy(a + n, p, strlen(p));
			n += strlen(p);
		}
		memcpy(b, a, n);
		json_fix_escapes(a, n);
		ref_fix_escapes(b, n);
		if (memcmp(a, b, n) != 0)
			bad++;
	}
	is_int(bad, 0, "json_fix_escapes() rewrites 20,000 random texts as "
	    "the byte-at-a-time version did");
}

int
main(void)
{
	char	 buf[64];

	memset(&ev, 0, sizeof(ev));
	ok(parse("{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/home/dev/shop\","
	    "\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":"
	    "\"/home/dev/shop/src/a.ts\",\"content\":\"x\"}}", NULL) == 0,
	    "parses a Write");
	is_int(ev.kind, EV_PRE_TOOL_USE, "kind");
	is_str(field(F_CONTENT), "x", "Write content");
	is_str(ev.rel_path, "src/a.ts", "path relative to cwd when no project dir");
	is_str(ev.abs_path, "/home/dev/shop/src/a.ts", "absolute path");

	parse("{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/w/sub\",\"tool_name\":"
	    "\"Edit\",\"tool_input\":{\"file_path\":\"../x/./y.ts\",\"old_string\":"
	    "\"a\",\"new_string\":\"b\"}}", "/w");
	is_str(ev.abs_path, "/w/x/y.ts", "relative file_path resolved against cwd");
	is_str(ev.rel_path, "x/y.ts", "and made relative to the project");
	is_str(field(F_CONTENT), "b", "Edit new_string");
	is_str(field(F_OLD_CONTENT), "a", "Edit old_string");

	parse("{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"C:\\\\p\",\"tool_name\":"
	    "\"Write\",\"tool_input\":{\"file_path\":\"C:\\\\p\\\\src\\\\a.ts\"}}", NULL);
	ok(ev.rel_path && strstr(ev.rel_path, "src/a.ts") != NULL,
	    "Windows backslashes become slashes");

	parse("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"MultiEdit\","
	    "\"tool_input\":{\"file_path\":\"/p/a\",\"edits\":[{\"old_string\":\"1\","
	    "\"new_string\":\"one\"},{\"old_string\":\"2\",\"new_string\":\"two\"}]}}",
	    "/p");
	is_str(field(F_CONTENT), "one\ntwo", "MultiEdit new_strings joined by \\n");
	is_str(field(F_OLD_CONTENT), "1\n2", "MultiEdit old_strings");

	parse("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"NotebookEdit\","
	    "\"tool_input\":{\"notebook_path\":\"/p/n.ipynb\",\"new_source\":\"import os\"}}",
	    "/p");
	is_str(ev.rel_path, "n.ipynb", "NotebookEdit notebook_path is the path");
	is_str(field(F_CONTENT), "import os", "NotebookEdit new_source");

	parse("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"PowerShell\","
	    "\"tool_input\":{\"command\":\"Remove-Item -Recurse C:\\\\\"}}", "/p");
	is_str(field(F_COMMAND), "Remove-Item -Recurse C:\\", "PowerShell command");
	parse("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Grep\","
	    "\"tool_input\":{\"pattern\":\"x\",\"path\":\"src\"}}", "/p");
	is_str(field(F_COMMAND), "(absent)", "Grep has no command");
	is_str(event_input(&ev, "pattern").s, "x", "input.pattern");
	ok(event_input(&ev, "nope.deeper").s == NULL, "missing input key");

	parse("{\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Bash\","
	    "\"tool_input\":{\"command\":\"ls\"},\"tool_response\":{\"stdout\":"
	    "\"a\\nb\",\"stderr\":\"\",\"interrupted\":false,\"n\":3}}", "/p");
	is_str(field(F_RESPONSE), "a\nb\n\nfalse\n3", "response flattened to text");

	parse("{\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Bash\","
	    "\"tool_response\":{\"a\":1.26667e+105,\"b\":-1e300,\"c\":0.5}}", "/p");
	is_str(field(F_RESPONSE), "1.26667e+105\n-1.0000000000000001e+300\n0.5",
	    "numbers out of long long's range print as doubles (found by fuzzing)");

	parse("{\"hook_event_name\":\"PostToolUseFailure\",\"tool_name\":\"Bash\","
	    "\"error\":\"Exit code 1\"}", "/p");
	is_str(field(F_ERROR), "Exit code 1", "PostToolUseFailure error");
	parse("{\"hook_event_name\":\"Stop\",\"stop_hook_active\":true,"
	    "\"last_assistant_message\":\"done\"}", "/p");
	ok(ev.stop_hook_active, "stop_hook_active read");
	is_str(field(F_MESSAGE), "done", "last_assistant_message");
	parse("{\"hook_event_name\":\"Stop\",\"stop_hook_active\":\"yes\"}", "/p");
	ok(!ev.stop_hook_active, "a non-boolean stop_hook_active is false");

	parse("{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":42}", "/p");
	is_str(field(F_PROMPT), "(absent)", "wrong-typed fields are absent");
	parse("{\"hook_event_name\":\"Bogus\"}", "/p");
	is_int(ev.kind, EV_OTHER, "unknown events are EV_OTHER");

	ok(parse("", "/p") < 0, "empty input is an error");
	ok(parse("[1]", "/p") < 0, "an array is an error");
	ok(parse("\"x\"", "/p") < 0, "a string is an error");
	ok(parse("{\"a\":", "/p") < 0, "truncated JSON is an error");

	/* \u0000 and lone surrogates. */
	parse("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
	    "\"tool_input\":{\"command\":\"echo\\u0000; rm -rf /\"}}", "/p");
	is_str(field(F_COMMAND), "echo\xe2\x90\x80; rm -rf /",
	    "\\u0000 becomes U+2400 and hides nothing");
	ok(parse("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
	    "\"tool_input\":{\"command\":\"a\\ud800b\\udc00c\\ud83d\\ude00\"}}",
	    "/p") == 0, "lone surrogates do not make the event unreadable");
	is_str(field(F_COMMAND), "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c\xf0\x9f\x98\x80",
	    "lone surrogates become U+FFFD; a pair survives");
	strcpy(buf, "{\"k\":\"\\\\u0000\"}");
	json_fix_escapes(buf, strlen(buf));
	is_str(buf, "{\"k\":\"\\\\u0000\"}", "an escaped backslash is not an escape");

	fix_escapes_like_reference();
	event_release(&ev);
	return done_testing();
}
