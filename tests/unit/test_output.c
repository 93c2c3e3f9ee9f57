/* Reply bytes for Claude Code, per event, as doc/claude-code-hooks.md §4 says. */
#include "helpers.h"
#include "jsonw.h"
#include "tap.h"
#include "template.h"

static struct ruleset	rs;
static struct diag_list	dl;

static void
use(const char *yaml)
{
	use_rules(&rs, &dl, yaml);
}

static void
reply_is(const char *event, const char *want, const char *what)
{
	char	*got = reply_for(&rs, event, false, NULL, NULL);

	is_str(got, want, "%s", what);
	free(got);
}

/* Whether two compiled templates are the same, segment by segment. */
static bool
same_template(const struct template *a, const struct template *b)
{
	const struct tpl_seg	*x, *y;
	size_t			 i;

	if (a->n != b->n || a->uses_kb != b->uses_kb ||
	    a->uses_memory != b->uses_memory || strcmp(a->src, b->src) != 0)
		return false;
	for (i = 0; i < a->n; i++) {
		x = &a->segs[i];
		y = &b->segs[i];
		if (x->kind != y->kind || x->len != y->len ||
		    x->var != y->var || x->field != y->field ||
		    x->mfield != y->mfield || x->section != y->section ||
		    x->inverted != y->inverted || x->seplen != y->seplen ||
		    (x->text == NULL) != (y->text == NULL) ||
		    (x->text && memcmp(x->text, y->text, x->len) != 0) ||
		    (x->sep == NULL) != (y->sep == NULL) ||
		    (x->sep && memcmp(x->sep, y->sep, x->seplen) != 0) ||
		    (x->body == NULL) != (y->body == NULL) ||
		    (x->body && !same_template(x->body, y->body)))
			return false;
	}
	return true;
}

/*
 * The default banner written out in output.c is what its text compiles
 * to, and renders the same for lists empty, one and many long.
 */
static void
default_banner(void)
{
	static const char *const one[] = { "alpha" };
	static const char *const many[] = { "b1", "b2", "b3" };
	const struct template	*pre = output_default_banner_template();
	struct template		 t;
	struct arena		 a;
	struct tpl_ctx		 tc;
	struct buf		 x, y;
	char			*err = NULL;
	size_t			 off, k;
	int			 m;

	arena_init(&a);
	ok(tpl_compile_banner(&a, output_default_banner,
	    strlen(output_default_banner), &t, &err, &off) == 0,
	    "the default banner compiles");
	ok(same_template(pre, &t), "the default banner written out is the "
	    "compiled one");
	for (m = 0, k = 0; m < 16; m++) {
		memset(&tc, 0, sizeof(tc));
		tc.skills[0] = (m & 1) ? one : NULL;
		tc.nskills[0] = (m & 1) ? 1 : 0;
		tc.skills[1] = (m & 2) ? many : NULL;
		tc.nskills[1] = (m & 2) ? 3 : 0;
		tc.skills[2] = (m & 4) ? one : NULL;
		tc.nskills[2] = (m & 4) ? 1 : 0;
		tc.skills[3] = (m & 8) ? many : NULL;
		tc.nskills[3] = (m & 8) ? 3 : 0;
		buf_init(&x);
		buf_init(&y);
		tpl_render(pre, &tc, &x);
		tpl_render(&t, &tc, &y);
		k += x.len == y.len && memcmp(x.data, y.data, x.len) == 0;
		buf_release(&x);
		buf_release(&y);
	}
	is_int(k, 16, "both render alike for every mix of lists");
	arena_release(&a);
}

int
main(void)
{
	char	*out, *err;
	int	 status, i;
	struct buf b;

	diag_list_init(&dl);
	ruleset_init(&rs);
	use("version: 1\nrules:\n"
	    "  - id: d\n    on: [PreToolUse, UserPromptSubmit, PostToolUse, Stop, SubagentStop]\n"
	    "    when: {tool: '^Bash$'}\n    action: deny\n    message: 'no \"{{tool}}\"'\n"
	    "  - id: p\n    on: [UserPromptSubmit, Stop, SubagentStop]\n"
	    "    when: [{prompt: block}, {message: block}]\n"
	    "    action: deny\n    message: 'stop: {{match}}'\n"
	    "  - id: c\n    on: [PreToolUse, PostToolUse, PostToolUseFailure, SessionStart, UserPromptSubmit]\n"
	    "    when: {cwd: ctx}\n    action: context\n    message: \"ctx\\n\\ttab\"\n"
	    "  - id: a\n    on: PreToolUse\n    when: {tool: Read}\n    action: ask\n"
	    "    message: sure?\n"
	    "  - id: al\n    on: PreToolUse\n    when: {tool: Grep}\n    action: allow\n"
	    "  - id: w\n    on: [PreToolUse, SessionStart]\n    when: {cwd: warn}\n"
	    "    action: warn\n    message: careful\n");
	reply_is("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{}}",
	    "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
	    "\"permissionDecision\":\"deny\",\"permissionDecisionReason\":"
	    "\"no \\\"Bash\\\"\"}}\n", "PreToolUse deny");
	reply_is("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Read\",\"tool_input\":{}}",
	    "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
	    "\"permissionDecision\":\"ask\",\"permissionDecisionReason\":"
	    "\"sure?\"}}\n", "PreToolUse ask");
	reply_is("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Grep\",\"tool_input\":{}}",
	    "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
	    "\"permissionDecision\":\"allow\"}}\n", "PreToolUse allow, no reason");
	reply_is("{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/ctx\",\"tool_name\":\"Edit\",\"tool_input\":{}}",
	    "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
	    "\"additionalContext\":\"ctx\\n\\ttab\"}}\n", "PreToolUse context only");
	reply_is("{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/ctx\",\"tool_name\":\"Bash\",\"tool_input\":{}}",
	    "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
	    "\"permissionDecision\":\"deny\",\"permissionDecisionReason\":"
	    "\"no \\\"Bash\\\"\",\"additionalContext\":\"ctx\\n\\ttab\"}}\n",
	    "PreToolUse deny with context");
	reply_is("{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/warn\",\"tool_name\":\"Edit\",\"tool_input\":{}}",
	    "{\"systemMessage\":\"careful\"}\n", "warn is a systemMessage");
	reply_is("{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"please block\"}",
	    "{\"decision\":\"block\",\"reason\":\"stop: block\"}\n",
	    "UserPromptSubmit block");
	reply_is("{\"hook_event_name\":\"UserPromptSubmit\",\"cwd\":\"/ctx\",\"prompt\":\"hi\"}",
	    "{\"hookSpecificOutput\":{\"hookEventName\":\"UserPromptSubmit\","
	    "\"additionalContext\":\"ctx\\n\\ttab\"}}\n", "UserPromptSubmit context");
	reply_is("{\"hook_event_name\":\"PostToolUse\",\"cwd\":\"/ctx\",\"tool_name\":\"Bash\",\"tool_input\":{},\"tool_response\":{}}",
	    "{\"decision\":\"block\",\"reason\":\"no \\\"Bash\\\"\","
	    "\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\","
	    "\"additionalContext\":\"ctx\\n\\ttab\"}}\n",
	    "PostToolUse feedback and context");
	reply_is("{\"hook_event_name\":\"PostToolUseFailure\",\"cwd\":\"/ctx\",\"tool_name\":\"Bash\",\"error\":\"x\"}",
	    "{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUseFailure\","
	    "\"additionalContext\":\"ctx\\n\\ttab\"}}\n", "PostToolUseFailure context");
	reply_is("{\"hook_event_name\":\"Stop\",\"last_assistant_message\":\"will block\"}",
	    "{\"decision\":\"block\",\"reason\":\"stop: block\"}\n", "Stop block");
	reply_is("{\"hook_event_name\":\"SubagentStop\",\"last_assistant_message\":\"block\"}",
	    "{\"decision\":\"block\",\"reason\":\"stop: block\"}\n", "SubagentStop block");
	reply_is("{\"hook_event_name\":\"Stop\",\"stop_hook_active\":true,\"last_assistant_message\":\"block\"}",
	    "", "Stop with stop_hook_active: nothing");
	reply_is("{\"hook_event_name\":\"SessionStart\",\"cwd\":\"/ctx/warn\"}",
	    "{\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\","
	    "\"additionalContext\":\"ctx\\n\\ttab\"},\"systemMessage\":\"careful\"}\n",
	    "SessionStart context and warning");
	reply_is("{\"hook_event_name\":\"Notification\",\"cwd\":\"/ctx\"}", "",
	    "events that rules do not see: nothing");
	reply_is("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Edit\",\"tool_input\":{}}",
	    "", "nothing fired: nothing printed");

	out = reply_for(&rs, "{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/ctx\","
	    "\"tool_name\":\"Bash\",\"tool_input\":{}}", true, &status, &err);
	ok(status == 2 && out[0] == '\0' && strcmp(err, "no \"Bash\"\n") == 0,
	    "--exit2: the reason on stderr, exit 2, empty stdout");
	free(out);
	free(err);
	out = reply_for(&rs, "{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/ctx\","
	    "\"tool_name\":\"Edit\",\"tool_input\":{}}", true, &status, &err);
	ok(status == 0 && strstr(out, "additionalContext") && err[0] == '\0',
	    "--exit2 without a block: the usual JSON, exit 0");
	free(out);
	free(err);

	/*
	 * Texts of several rules: one blank line between them, also when a
	 * message (a YAML block scalar) already ends in newlines.
	 */
	use("version: 1\nrules:\n"
	    "  - id: one\n    on: PreToolUse\n    action: deny\n"
	    "    message: |\n      first\n"
	    "  - id: two\n    on: PreToolUse\n    action: deny\n"
	    "    message: \"second\\n\\n\"\n"
	    "  - id: three\n    on: PreToolUse\n    action: deny\n"
	    "    message: third\n"
	    "  - id: c1\n    on: PreToolUse\n    action: context\n"
	    "    message: |\n      ctx one\n"
	    "  - id: c2\n    on: PreToolUse\n    action: context\n"
	    "    message: ctx two\n");
	reply_is("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{}}",
	    "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
	    "\"permissionDecision\":\"deny\",\"permissionDecisionReason\":"
	    "\"first\\n\\nsecond\\n\\nthird\",\"additionalContext\":"
	    "\"ctx one\\n\\nctx two\"}}\n",
	    "one blank line between texts, whatever newlines they end in");

	/*
	 * Invalid UTF-8 and control bytes come out as valid JSON: from the
	 * event, escaped as data by the template first; in the rule's own
	 * text, escaped by the JSON writer.
	 */
	use("version: 1\nrules:\n  - id: e\n    on: UserPromptSubmit\n"
	    "    action: context\n    message: \"{{prompt}}\\x01\"\n");
	reply_is("{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"a\xff\\u0001\xc3\xa9\"}",
	    "{\"hookSpecificOutput\":{\"hookEventName\":\"UserPromptSubmit\","
	    "\"additionalContext\":\"a\\\\xff\\\\x01\xc3\xa9\\u0001\"}}\n",
	    "invalid UTF-8 and controls come out escaped, as valid JSON");

	/* The JSON writer on its own: whatever bytes it gets. */
	buf_init(&b);
	jsonw_string(&b, "a\xff\x01\xc3\xa9\"\\", 7);
	is_str(b.data, "\"a\\ufffd\\u0001\xc3\xa9\\\"\\\\\"", "jsonw: invalid "
	    "UTF-8 becomes U+FFFD, controls, quotes and backslashes escaped");
	buf_release(&b);

	/*
	 * Sequences at the edges of UTF-8: overlongs (C0, E0 80, F0 80),
	 * surrogates (ED A0), past U+10FFFF (F4 90), a lead without its
	 * continuation or cut short by the end; the smallest and largest
	 * valid ones of each length copied as they are.  Each invalid byte
	 * is one U+FFFD and one character.
	 */
	buf_init(&b);
	jsonw_string(&b, "\xc0\xaf|\xe0\x80\xaf|\xf0\x80\x80\xaf|"
	    "\xed\xa0\x80|\xf4\x90\x80\x80|\xc3x|\xc2\x80\xdf\xbf"
	    "\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf"
	    "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\x7f|\xe2\x94", 52);
	is_str(b.data, "\"\\ufffd\\ufffd|\\ufffd\\ufffd\\ufffd|"
	    "\\ufffd\\ufffd\\ufffd\\ufffd|\\ufffd\\ufffd\\ufffd|"
	    "\\ufffd\\ufffd\\ufffd\\ufffd|\\ufffdx|\xc2\x80\xdf\xbf"
	    "\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf"
	    "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\x7f|\\ufffd\\ufffd\"",
	    "jsonw: overlongs, surrogates, past U+10FFFF and cut sequences "
	    "are U+FFFD byte by byte; the edges of valid UTF-8 are copied");
	ok(utf8_count(b.data + 1, b.len - 2) == b.len - 2 - 16,
	    "utf8_count: one character per sequence");
	buf_release(&b);
	ok(utf8_count("\xc0\xaf\xe2\x94\x81" "a\xf0\x9f", 8) == 6,
	    "utf8_count: an invalid byte is a character of its own");

	/* The 10,000-character cap, counted in characters. */
	buf_init(&b);
	buf_adds(&b, "{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"");
	for (i = 0; i < 20000; i++)
		buf_adds(&b, "\xc3\xa9");
	buf_adds(&b, "\"}");
	out = reply_for(&rs, b.data, false, NULL, NULL);
	ok(strstr(out, "[truncated by reflexion-rules]\"}}\n") != NULL,
	    "long context is truncated with a note");
	{
		const char *s = strstr(out, "Context\":\"") + 10;
		size_t chars = 0;
		for (; *s && !(s[0] == '"' && s[1] == '}'); s++)
			if (((unsigned char)*s & 0xc0) != 0x80)
				chars++;
		/* "\n" is two bytes of JSON but one character of text. */
		ok(chars - 1 == 10000, "exactly 10,000 characters survive");
	}
	free(out);
	buf_release(&b);

	default_banner();

	diag_list_release(&dl);
	ruleset_release(&rs);
	return done_testing();
}
