/* The evaluator: each condition form, combination and rule-level switch. */
#include "helpers.h"
#include "tap.h"

#define PRE(tool, input) \
	"{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/p\",\"session_id\":\"s\"," \
	"\"tool_name\":\"" tool "\",\"tool_input\":" input "}"
#define PROMPT(p) \
	"{\"hook_event_name\":\"UserPromptSubmit\",\"cwd\":\"/p\",\"prompt\":\"" p "\"}"

static struct ruleset	rs;
static struct diag_list	dl;

static void
use(const char *yaml)
{
	use_rules(&rs, &dl, yaml);
}

static void
expect(const char *event, const char *want, const char *what)
{
	char	*got = eval_summary(&rs, event);

	is_str(got, want, "%s", what);
	free(got);
}

/* What eval_event() told about its decision so far, one call a line. */
static void
record_decision(void *arg, const struct eval_outcome *so_far)
{
	struct buf	*b = arg;
	size_t		 i;

	for (i = 0; i < so_far->nfired; i++)
		buf_printf(b, "%s%s:%s", i ? " " : "",
		    action_names[so_far->fired[i].rule->action],
		    so_far->fired[i].rule->id);
	buf_addc(b, '\n');
}

static char *
decisions_told(const char *event)
{
	struct rr_event		ev;
	struct eval_outcome	out;
	struct eval_opts	eo;
	struct buf		b;
	char			*err = NULL;

	buf_init(&b);
	if (event_parse(&ev, event, strlen(event), "/p", &err) < 0) {
		free(err);
		return xstrdup("(parse error)");
	}
	memset(&eo, 0, sizeof(eo));
	eo.decided = record_decision;
	eo.decided_arg = &b;
	eval_outcome_init(&out);
	eval_event(&rs, &ev, &eo, &out);
	eval_outcome_release(&out);
	event_release(&ev);
	return buf_detach(&b, NULL);
}

/* Fired rules with their messages, the same with prefilters on and off. */
static void
fold_expect(const char *event, const char *want, const char *what)
{
	char	*fast = eval_fired_text(&rs, event, false);
	char	*full = eval_fired_text(&rs, event, true);

	if (!ok(strcmp(fast, want) == 0 && strcmp(full, want) == 0, "%s",
	    what))
		printf("#   got:  '%s'\n#   without the prefilter: '%s'\n"
		    "#   want: '%s'\n", fast, full, want);
	free(fast);
	free(full);
}

int
main(void)
{
	diag_list_init(&dl);
	ruleset_init(&rs);

	use("version: 1\nrules:\n"
	    "  - id: kw\n    on: UserPromptSubmit\n    when:\n"
	    "      prompt: {keywords: [api, 'pull request']}\n"
	    "    action: context\n    message: m\n"
	    "  - id: word\n    on: UserPromptSubmit\n    when:\n"
	    "      prompt: {keywords: [hack], word: true}\n"
	    "    action: context\n    message: m\n"
	    "  - id: eq\n    on: UserPromptSubmit\n    when:\n"
	    "      prompt: {equals: 'stop'}\n    action: context\n    message: m\n"
	    "  - id: cs\n    on: UserPromptSubmit\n    when:\n"
	    "      prompt: {contains: ['URGENT']}\n    action: context\n"
	    "    message: m\n");
	expect(PROMPT("Fix the API docs"), "context:kw", "keywords ignore case");
	expect(PROMPT("capital letters"), "context:kw",
	    "keywords are substrings (api in capital)");
	expect(PROMPT("open a Pull Request"), "context:kw", "multi-word keyword");
	expect(PROMPT("read Hacker News"), "", "word: true needs a whole word");
	expect(PROMPT("a quick hack, please"), "context:word", "whole word hits");
	expect(PROMPT("stop"), "context:eq", "equals");
	expect(PROMPT("stop now"), "", "equals is exact");
	expect(PROMPT("urgent"), "", "contains is case-sensitive");
	expect(PROMPT("URGENT fix"), "context:cs", "contains");

	use("version: 1\nrules:\n"
	    "  - id: both\n    on: PreToolUse\n    tools: [Write]\n    when:\n"
	    "      path: '*.sql'\n      content: 'DROP\\s+TABLE'\n"
	    "    action: deny\n    message: m\n"
	    "  - id: either\n    on: PreToolUse\n    tools: [Bash]\n    when:\n"
	    "      - command: '^sudo '\n      - command: {contains: ['| sh']}\n"
	    "    action: ask\n    message: m\n"
	    "  - id: nested\n    on: PreToolUse\n    tools: [Bash]\n    when:\n"
	    "      any:\n        - command: curl\n        - command: wget\n"
	    "      not: {command: '--dry-run'}\n"
	    "    unless:\n      command: localhost\n"
	    "    action: warn\n    message: m\n");
	expect(PRE("Write", "{\"file_path\":\"/p/db/x.sql\",\"content\":\"DROP  TABLE a\"}"),
	    "deny:both", "when: all keys hold");
	expect(PRE("Write", "{\"file_path\":\"/p/db/x.sql\",\"content\":\"SELECT 1\"}"),
	    "", "when: one key fails");
	expect(PRE("Write", "{\"file_path\":\"/p/db/x.txt\",\"content\":\"DROP TABLE a\"}"),
	    "", "when: the path fails");
	expect(PRE("Bash", "{\"command\":\"sudo ls\"}"), "ask:either",
	    "a list of maps is OR (first)");
	expect(PRE("Bash", "{\"command\":\"curl x | sh\"}"), "ask:either warn:nested",
	    "a list of maps is OR (second); any: holds");
	expect(PRE("Bash", "{\"command\":\"wget x\"}"), "warn:nested", "any: second");
	expect(PRE("Bash", "{\"command\":\"wget x --dry-run\"}"), "", "not: cancels");
	expect(PRE("Bash", "{\"command\":\"curl localhost\"}"), "", "unless cancels");
	expect(PRE("Write", "{\"file_path\":\"/p/x.sql\"}"), "",
	    "a missing field never matches");

	use("version: 1\nrules:\n"
	    "  - id: tasks\n    on: PreToolUse\n    tools: [Task]\n"
	    "    action: context\n    message: m\n"
	    "  - id: mcp\n    on: PreToolUse\n    tools: ['mcp__github__*']\n"
	    "    action: context\n    message: m\n"
	    "  - id: input\n    on: PreToolUse\n    when:\n"
	    "      input.edits.1.new_string: '^b$'\n    action: context\n"
	    "    message: m\n"
	    "  - id: off\n    on: PreToolUse\n    enabled: false\n"
	    "    action: context\n    message: m\n"
	    "  - id: env\n    on: PreToolUse\n    when:\n"
	    "      env: [RR_TEST_FLAG]\n    action: context\n    message: m\n");
	expect(PRE("Agent", "{\"prompt\":\"x\"}"), "context:tasks",
	    "Task rules also match the Agent tool");
	expect(PRE("mcp__github__create_issue", "{}"), "context:mcp",
	    "tool globs");
	expect(PRE("mcp__gitlab__x", "{}"), "", "tool globs do not overmatch");
	expect(PRE("MultiEdit", "{\"edits\":[{\"new_string\":\"a\"},{\"new_string\":\"b\"}]}"),
	    "context:input", "input.<dotted.path> with an array index");
	setenv("RR_TEST_FLAG", "1", 1);
	expect(PRE("Bash", "{}"), "context:env", "env: a set variable");
	setenv("RR_TEST_FLAG", "", 1);
	expect(PRE("Bash", "{}"), "", "env: an empty variable is unset");

	/* Priority, then file order. */
	use("version: 1\nrules:\n"
	    "  - id: low\n    on: Stop\n    priority: low\n    action: context\n"
	    "    message: m\n"
	    "  - id: crit\n    on: Stop\n    priority: critical\n"
	    "    action: context\n    message: m\n"
	    "  - id: med1\n    on: Stop\n    action: context\n    message: m\n"
	    "  - id: med2\n    on: Stop\n    action: deny\n    message: m\n"
	    "  - id: forced\n    on: Stop\n    action: deny\n"
	    "    ignore_stop_hook_active: true\n    message: m\n");
	expect("{\"hook_event_name\":\"Stop\",\"stop_hook_active\":false}",
	    "context:crit context:med1 deny:med2 deny:forced context:low",
	    "fired rules in priority, then file order");
	expect("{\"hook_event_name\":\"Stop\",\"stop_hook_active\":true}",
	    "context:crit context:med1 deny:forced context:low",
	    "stop_hook_active drops blocking rules unless forced");

	/*
	 * A caller is told each time the decision so far gets stronger, with
	 * the rules fired by then in priority order; once rules wait for the
	 * end, and nothing is told when nothing decides.
	 */
	use("version: 1\nrules:\n"
	    "  - id: ctx\n    on: PreToolUse\n    action: context\n"
	    "    message: m\n"
	    "  - id: ask1\n    on: PreToolUse\n    when: {command: a}\n"
	    "    action: ask\n    message: m\n"
	    "  - id: ask2\n    on: PreToolUse\n    when: {command: a}\n"
	    "    action: ask\n    message: m\n"
	    "  - id: oncedeny\n    on: PreToolUse\n    once: session\n"
	    "    when: {command: d}\n    action: deny\n    message: m\n"
	    "  - id: deny1\n    on: PreToolUse\n    when: {command: d}\n"
	    "    action: deny\n    message: m\n"
	    "  - id: crit\n    on: PreToolUse\n    priority: critical\n"
	    "    when: {command: d}\n    action: deny\n    message: m\n"
	    "  - id: ask3\n    on: PreToolUse\n    when: {command: d}\n"
	    "    action: ask\n    message: m\n");
	{
		char *told = decisions_told(PRE("Bash", "{\"command\":\"x\"}"));
		is_str(told, "", "no deny or ask: nobody is told");
		free(told);
		told = decisions_told(PRE("Bash", "{\"command\":\"a\"}"));
		is_str(told, "context:ctx ask:ask1\n",
		    "told once at the first ask, not again at an equal one");
		free(told);
		told = decisions_told(PRE("Bash", "{\"command\":\"ad\"}"));
		is_str(told, "context:ctx ask:ask1\n"
		    "context:ctx ask:ask1 ask:ask2 deny:deny1\n",
		    "told at the ask, then at the deny; the once deny waits");
		free(told);
		told = decisions_told(PRE("Bash", "{\"command\":\"d\"}"));
		is_str(told, "context:ctx deny:deny1\n",
		    "a deny first: told once, later denies and asks change nothing");
		free(told);
	}

	/*
	 * Case-insensitive literals fold across Unicode, as the prefilter
	 * does: prefilter on and off agree, and {{match}} is the prompt's
	 * own text.
	 */
	use("version: 1\nrules:\n"
	    "  - id: uber\n    on: UserPromptSubmit\n    when:\n"
	    "      prompt: {keywords: ['\xc3\xbc" "ber']}\n"
	    "    action: context\n    message: '[{{match}}]'\n"
	    "  - id: kelvin\n    on: UserPromptSubmit\n    when:\n"
	    "      prompt: {keywords: [kelvin]}\n"
	    "    action: context\n    message: '[{{match}}]'\n"
	    "  - id: sigma\n    on: UserPromptSubmit\n    when:\n"
	    "      prompt: {keywords: ['\xce\xbb\xcf\x8c\xce\xb3\xce\xbf"
	    "\xcf\x82']}\n"
	    "    action: context\n    message: '[{{match}}]'\n"
	    "  - id: eq\n    on: UserPromptSubmit\n    when:\n"
	    "      prompt: {equals: '\xc3\x96l und Gas', ignore_case: true}\n"
	    "    action: context\n    message: '[{{match}}]'\n"
	    "  - id: head\n    on: UserPromptSubmit\n    when:\n"
	    "      prompt: {starts_with: '## \xc3\xbc" "bersicht', line: true,"
	    " ignore_case: true}\n"
	    "    action: context\n    message: '[{{match}}]'\n"
	    "  - id: word\n    on: UserPromptSubmit\n    when:\n"
	    "      prompt: {keywords: ['\xc3\xa9t\xc3\xa9'], word: true}\n"
	    "    action: context\n    message: '[{{match}}]'\n"
	    "  - id: exact\n    on: UserPromptSubmit\n    when:\n"
	    "      prompt: {contains: ['\xc3\xbc" "ber']}\n"
	    "    action: context\n    message: '[{{match}}]'\n");
	fold_expect(PROMPT("\xc3\x9c" "BER alles"),
	    "context:uber:[\xc3\x9c" "BER]\n",
	    "keyword \xc3\xbc" "ber in \xc3\x9c" "BER alles; {{match}} as "
	    "written");
	fold_expect(PROMPT("the \xe2\x84\xaa" "ELVIN scale"),
	    "context:kelvin:[\xe2\x84\xaa" "ELVIN]\n",
	    "keyword kelvin in KELVIN SIGN + ELVIN (3 bytes for 1)");
	fold_expect(PROMPT("\xce\x9b\xce\x8c\xce\x93\xce\x9f\xce\xa3!"),
	    "context:sigma:[\xce\x9b\xce\x8c\xce\x93\xce\x9f\xce\xa3]\n",
	    "a keyword with a final sigma in capitals");
	fold_expect(PROMPT("\xc3\xb6L UND gas"),
	    "context:eq:[\xc3\xb6L UND gas]\n", "equals with ignore_case");
	fold_expect(PROMPT("\xc3\xb6L UND gase"), "",
	    "equals with ignore_case is still the whole field");
	fold_expect(PROMPT("intro\\n## \xc3\x9c" "BERSICHT der Teile"),
	    "context:uber:[\xc3\x9c" "BER]\n"
	    "context:head:[## \xc3\x9c" "BERSICHT]\n",
	    "starts_with per line with ignore_case");
	fold_expect(PROMPT("\xe2\x80\x9e\xc3\x89T\xc3\x89\xe2\x80\x9c"),
	    "context:word:[\xc3\x89T\xc3\x89]\n",
	    "a whole word between quotes that are not letters");
	fold_expect(PROMPT("l'\xc3\xa9t\xc3\xa9s"), "",
	    "a non-ASCII keyword is no word inside a longer one");
	fold_expect(PROMPT("\xc3\xbc" "ber"),
	    "context:uber:[\xc3\xbc" "ber]\ncontext:exact:[\xc3\xbc" "ber]\n",
	    "contains stays case-sensitive");
	fold_expect(PROMPT("stra\xc3\x9f" "e \xc4\xb0" "BER"), "",
	    "simple folding: no sharp s to ss, no dotted I to i");

	/* Regexes that backtrack forever stop at their limit. */
	use("version: 1\nrules:\n"
	    "  - id: evil\n    on: UserPromptSubmit\n    when:\n"
	    "      prompt: '^(a+)+$'\n    action: context\n    message: m\n"
	    "  - id: fine\n    on: UserPromptSubmit\n    when:\n"
	    "      prompt: 'a{5}'\n    action: context\n    message: m\n");
	{
		struct buf b;
		int i;
		buf_init(&b);
		buf_adds(&b, "{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"");
		for (i = 0; i < 100000; i++)
			buf_addc(&b, 'a');
		buf_adds(&b, "!\"}");
		expect(b.data, "context:fine",
		    "a catastrophic regex counts as no match; others still run");
		buf_release(&b);
	}

	/*
	 * A glob that reaches its limit (a '**' between segments of a very
	 * deep path) is reported and, in a file that fails closed, leaves
	 * its rule undecided, as a regex does: never a silent no match.
	 */
	use("version: 1\non_error: deny\nrules:\n"
	    "  - id: env\n    on: PreToolUse\n    when:\n"
	    "      path: 'a/**/x/.env'\n    action: deny\n    message: m\n");
	{
		struct rr_event ev;
		struct eval_outcome out;
		struct eval_opts eo;
		struct buf b;
		char *err = NULL;
		int i;

		buf_init(&b);
		buf_adds(&b, "{\"hook_event_name\":\"PreToolUse\",\"cwd\":"
		    "\"/p\",\"tool_name\":\"Write\",\"tool_input\":{"
		    "\"content\":\"x\",\"file_path\":\"/p/a/");
		for (i = 0; i < 2000000; i++)
			buf_adds(&b, "b/");
		buf_adds(&b, "x/.env\"}}");
		memset(&eo, 0, sizeof(eo));
		eval_outcome_init(&out);
		if (event_parse(&ev, b.data, b.len, "/p", &err) == 0)
			eval_event(&rs, &ev, &eo, &out);
		ok(out.nfired == 0 && out.undecided != NULL &&
		    strstr(out.notes.data, "glob hit its match limit on "
		    "path") != NULL && strcmp(out.undecided_why,
		    "a glob hit its limit") == 0,
		    "a glob at its limit: reported, and the rule undecided");
		eval_outcome_release(&out);
		event_release(&ev);
		free(err);
		buf_release(&b);
	}

	diag_list_release(&dl);
	ruleset_release(&rs);
	return done_testing();
}
