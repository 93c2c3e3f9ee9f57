/*
 * libFuzzer: the hook's whole path for one event — the JSON reader, the
 * field mapping, evaluation against a fixed rule set and the Claude reply.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "output.h"
#include "compile.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char rules[] =
    "version: 1\nrules:\n"
    "  - id: d\n    on: [PreToolUse, PostToolUse, UserPromptSubmit, Stop]\n"
    "    when:\n      any:\n        - command: 'rm\\s+-rf'\n"
    "        - path: '**/*.{ts,env}'\n        - prompt: {keywords: [deploy], word: true}\n"
    "        - message: 'TODO'\n        - input.url: '^http://'\n"
    "    action: deny\n    message: '{{rule}} {{path}} {{match}} {{command}} {{input.url}}'\n"
    "  - id: c\n    on: [PreToolUse, PostToolUse, PostToolUseFailure, SessionStart, UserPromptSubmit]\n"
    "    when:\n      not: {response: '^$'}\n    action: context\n    message: '{{error}}{{prompt}}'\n"
    "  - id: s\n    on: UserPromptSubmit\n    skill: x\n    action: suggest\n"
    "  - id: o\n    on: PreToolUse\n    once: session+path\n    action: warn\n    message: w\n"
    "  - id: x\n    on: [PreToolUse, PostToolUse]\n    when:\n      any:\n"
    "        - shell: {program: rm, flags: [-r], any: [{args: '^/'}, {dir: '^/$'}]}\n"
    "        - content: {json: {find: true, where: {a: 1}, keys: [b], types: {c: object}}, required: true}\n"
    "        - file_after: {starts_with: ['## 0.'], line: true, required: true}\n"
    "        - sections: {file: notes.md, keywords: {k: true}}\n"
    "    action: deny\n    message: '{{missing}} {{match}} {{sections}} {{lbraces}}'\n";

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ruleset	 rs;
	static int		 loaded;
	struct diag_list	 dl;
	struct rr_event		 ev;
	struct eval_outcome	 out;
	struct eval_opts	 eo;
	struct hook_reply	 reply;
	char			*err = NULL;

	if (!loaded) {
		ruleset_init(&rs);
		diag_list_init(&dl);
		ruleset_add_yaml(&rs, "fuzz.yaml", rules, strlen(rules), 1, &dl);
		if (dl.errors)
			abort();
		diag_list_release(&dl);
		loaded = 1;
	}
	if (event_parse(&ev, (const char *)data, size, "/p", &err) == 0) {
		memset(&eo, 0, sizeof(eo));
		eval_outcome_init(&out);
		eval_event(&rs, &ev, &eo, &out);
		hook_reply_init(&reply);
		output_claude(&out, &ev, NULL, size & 1, &reply);
		hook_reply_release(&reply);
		eval_outcome_release(&out);
	}
	free(err);
	event_release(&ev);
	return 0;
}
