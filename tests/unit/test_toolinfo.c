/*
 * The tool table (tools.def, toolinfo.c) against what the engine does:
 * the fields event.c fills for each tool, the files edits.c can compute,
 * and the fields of each event kind.  Lint's "never fires" warnings are
 * only as true as this table, so it must say what the code does.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edits.h"
#include "event.h"
#include "tap.h"
#include "toolinfo.h"
#include "xmalloc.h"

/* Every input key event.c or edits.c reads, for any tool. */
#define ALL_KEYS "{\"file_path\":\"/p/a\",\"notebook_path\":\"/p/n\"," \
	"\"command\":\"c\",\"content\":\"x\",\"new_string\":\"n\"," \
	"\"old_string\":\"o\",\"edits\":[{\"old_string\":\"o\"," \
	"\"new_string\":\"n\",\"oldText\":\"o\",\"newText\":\"n\"}]," \
	"\"new_source\":\"s\"}"

static void
check_tool(const char *name, unsigned want, const char *what)
{
	struct rr_event	 ev;
	struct buf	 b;
	char		*json, *err = NULL;
	unsigned	 got = 0;
	int		 f;

	json = xasprintf("{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/p\","
	    "\"tool_name\":\"%s\",\"tool_input\":" ALL_KEYS "}", name);
	if (event_parse(&ev, json, strlen(json), "/p", &err) < 0) {
		ok(0, "%s: event parses: %s", name, err);
		free(err);
		free(json);
		return;
	}
	for (f = F_CONTENT; f <= F_COMMAND; f++)
		if (ev.f[f].s != NULL)
			got |= FB(f);
	buf_init(&b);
	if (edit_result(name, cJSON_GetObjectItemCaseSensitive(ev.root,
	    "tool_input"), "o", 1, &b) == 0)
		got |= FB(F_FILE_AFTER);
	buf_release(&b);
	want &= FB(F_CONTENT) | FB(F_OLD_CONTENT) | FB(F_COMMAND) |
	    FB(F_FILE_AFTER);
	ok(got == want, "%s %s: content, old_content, command, file_after as "
	    "the table says (%#x, table %#x)", what, name, got, want);
	event_release(&ev);
	free(json);
}

int
main(void)
{
	size_t		 i;
	unsigned	 f;
	int		 k;

	for (i = 0; i < nknown_tools; i++)
		check_tool(known_tools[i].name, known_tools[i].fields, "tool");
	/* A tool the table does not know gets none of them from event.c. */
	check_tool("bash_tool", 0, "unknown tool");
	/* An MCP tool, whatever its name, what toolinfo_mcp says. */
	check_tool("mcp__x__Bash", toolinfo_mcp.fields, "MCP tool");
	check_tool("mcp_fs_write_file", toolinfo_mcp.fields, "MCP tool");
	ok(toolinfo_for("mcp__fs__edit_file") == &toolinfo_mcp &&
	    toolinfo_for("Write") == toolinfo_find("Write") &&
	    toolinfo_for("bash_tool") == NULL, "toolinfo_for: MCP tools, "
	    "the table's, unknown");

	for (i = 0; known_tool_names[i] != NULL; i++)
		;
	is_int(i, nknown_tools, "one name per tool, NULL-terminated");
	for (i = 0; i < nknown_tools; i++)
		if (toolinfo_find(known_tools[i].name) != &known_tools[i])
			break;
	is_int(i, nknown_tools, "every tool found by its own name, once");
	ok(toolinfo_find("write") == NULL && toolinfo_find("Write") != NULL,
	    "names are case-sensitive");

	/* Events: what event.c reads for each kind. */
	ok(toolinfo_fields(EV_USER_PROMPT_SUBMIT, NULL) ==
	    (FB(F_EVENT) | FB(F_CWD) | FB(F_PROMPT)), "UserPromptSubmit: "
	    "prompt, event, cwd");
	ok(toolinfo_fields(EV_STOP, NULL) == (FB(F_EVENT) | FB(F_CWD) |
	    FB(F_MESSAGE) | FB(F_PROMPT)) && toolinfo_fields(EV_SUBAGENT_STOP,
	    NULL) == toolinfo_fields(EV_STOP, NULL), "Stop, SubagentStop: "
	    "message, and the prompt of the turn");
	ok(toolinfo_fields(EV_SESSION_END, toolinfo_find("Bash")) ==
	    (FB(F_EVENT) | FB(F_CWD) | FB(F_REASON)), "SessionEnd: its "
	    "reason, no tool fields");
	ok(toolinfo_fields(EV_SESSION_START, toolinfo_find("Bash")) ==
	    (FB(F_EVENT) | FB(F_CWD)), "SessionStart: no tool fields, "
	    "whatever the tool");
	f = toolinfo_fields(EV_PRE_TOOL_USE, toolinfo_find("Bash"));
	ok(f == (FB(F_EVENT) | FB(F_CWD) | FB(F_TOOL) | FB(F_INPUT) |
	    FB(F_COMMAND) | FB(F_PATH) | FB(F_READ_PATH)), "PreToolUse Bash: "
	    "command, tool, input, and the files it writes and reads; no "
	    "file_before");
	f = toolinfo_fields(EV_POST_TOOL_USE, toolinfo_find("Bash"));
	ok((f & FB(F_PATH)) && !(f & (FB(F_FILE_BEFORE) | FB(F_FILE_AFTER))),
	    "PostToolUse Bash: path, no file_after");
	f = toolinfo_fields(EV_PRE_TOOL_USE, toolinfo_find("PowerShell"));
	ok(!(f & (FB(F_PATH) | FB(F_READ_PATH))), "PowerShell's command is "
	    "not read for files");
	f = toolinfo_fields(EV_PRE_TOOL_USE, toolinfo_find("Read"));
	ok((f & FB(F_READ_PATH)) && !(toolinfo_fields(EV_PRE_TOOL_USE,
	    toolinfo_find("Write")) & FB(F_READ_PATH)), "Read has a read_path, "
	    "Write none");
	f = toolinfo_fields(EV_PRE_TOOL_USE, NULL);
	ok(!(f & FB(F_READ_PATH)), "an unknown tool has no read_path");
	f = toolinfo_fields(EV_PRE_TOOL_USE, NULL);
	ok((f & FB(F_PATH)) && (f & FB(F_FILE_BEFORE)) && !(f & (FB(F_COMMAND)
	    | FB(F_CONTENT) | FB(F_FILE_AFTER))), "an unknown tool may send "
	    "a path, never a command or content");
	f = toolinfo_fields(EV_POST_TOOL_USE, toolinfo_find("Read"));
	ok((f & FB(F_RESPONSE)) && (f & FB(F_FILE_AFTER)) &&
	    !(f & FB(F_CONTENT)), "PostToolUse Read: response, and the file "
	    "after is the file on disk");
	f = toolinfo_fields(EV_PRE_TOOL_USE, toolinfo_find("Read"));
	ok(!(f & FB(F_FILE_AFTER)) && (f & FB(F_PATH)),
	    "PreToolUse Read: a path, no file after");
	ok(toolinfo_fields(EV_POST_TOOL_USE_FAILURE, toolinfo_find("Bash")) &
	    FB(F_ERROR), "PostToolUseFailure: error");
	for (k = 0; k < EV__COUNT; k++)
		if (!toolinfo_has_tool((enum rr_event_kind)k) &&
		    (toolinfo_fields((enum rr_event_kind)k, NULL) &
		    (FB(F_TOOL) | FB(F_INPUT) | FB(F_PATH))))
			break;
	is_int(k, EV__COUNT, "no tool, input or path without a tool event");
	return done_testing();
}
