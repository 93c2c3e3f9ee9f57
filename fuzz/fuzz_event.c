/*
 * libFuzzer: the hook's whole path for one event — the JSON reader, the
 * client recognised and its names mapped (agent.c: every file of a
 * patch), evaluation against a fixed rule set and the client's reply;
 * then the same as another client (by the input's size) sent it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "agent.h"
#include "applypatch.h"
#include "eval.h"
#include "event.h"
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

static int
patch_after(const void *arg, const char *disk, size_t len, struct buf *out)
{
	return patch_file_after(arg, disk, len, out);
}

static void
one(const struct ruleset *rs, const uint8_t *data, size_t size,
    enum rr_agent agent)
{
	struct agent_mapped	 m;
	struct rr_event		 ev;
	struct eval_outcome	 out, part;
	struct eval_opts	 eo;
	struct hook_reply	 reply;
	struct cJSON		*root;
	char			*err = NULL;
	size_t			 i;

	if ((root = event_json_parse((const char *)data, size, &err)) == NULL) {
		free(err);
		return;
	}
	agent_map(root, agent, size & 2 ? "preToolUse" : NULL, &m);
	eval_outcome_init(&out);
	memset(&eo, 0, sizeof(eo));
	for (i = 0; i < m.n; i++) {
		event_from_root(&ev, m.events[i], "/p", m.agent);
		m.events[i] = NULL;
		if (m.agent != AGENT_CLAUDE)
			event_set_client(&ev, m.client_event, m.client_tool);
		if (m.files[i] != NULL) {
			ev.file_after = patch_after;
			ev.file_after_arg = m.files[i];
		}
		eval_outcome_init(&part);
		eval_event(rs, &ev, &eo, &part);
		eval_outcome_append(&out, &part);
		if (i + 1 == m.n) {
			hook_reply_init(&reply);
			output_reply(&out, &ev, size & 4 ? "broken" : NULL,
			    size & 1, &reply);
			hook_reply_release(&reply);
		}
		event_release(&ev);
	}
	eval_outcome_release(&out);
	agent_mapped_release(&m);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ruleset	 rs;
	static int		 loaded;
	struct diag_list	 dl;

	if (!loaded) {
		ruleset_init(&rs);
		diag_list_init(&dl);
		ruleset_add_yaml(&rs, "fuzz.yaml", rules, strlen(rules), 1, &dl);
		if (dl.errors)
			abort();
		diag_list_release(&dl);
		loaded = 1;
	}
	one(&rs, data, size, AGENT_AUTO);
	one(&rs, data, size, (enum rr_agent)(AGENT_CLAUDE +
	    size % (AGENT__COUNT - AGENT_CLAUDE)));
	return 0;
}
