/*
 * Each client's events in canonical names (agent.c, agent_tab.c): the
 * client recognised from the payloads the clients really send
 * (agent-protocols.md, captured end to end), and their events, tools and
 * fields mapped, the client's own names kept beside.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>

#include "agent.h"
#include "applypatch.h"
#include "tap.h"
#include "xmalloc.h"

/* Captured payloads, shortened. */
#define GEMINI_BASH "{\"session_id\":\"4d4a\",\"transcript_path\":\"/t/s.jsonl\"," \
	"\"cwd\":\"/w\",\"hook_event_name\":\"BeforeTool\",\"timestamp\":" \
	"\"2026-11-23T19:54:50.297Z\",\"tool_name\":\"run_shell_command\"," \
	"\"tool_input\":{\"command\":\"touch /tmp/c\",\"description\":\"d\"}}"
#define CODEX_BASH "{\"session_id\":\"01a2\",\"turn_id\":\"01a2\"," \
	"\"transcript_path\":null,\"cwd\":\"/w\",\"hook_event_name\":" \
	"\"PreToolUse\",\"model\":\"gpt-5.5\",\"permission_mode\":" \
	"\"bypassPermissions\",\"tool_name\":\"Bash\",\"tool_input\":" \
	"{\"command\":\"touch /tmp/c\"},\"tool_use_id\":\"call_d0\"}"
#define COPILOT_CAMEL "{\"sessionId\":\"3664\",\"timestamp\":1795463761805," \
	"\"cwd\":\"/w\",\"toolName\":\"create\",\"toolArgs\":{\"path\":" \
	"\"/w/c.txt\",\"file_text\":\"canary\\n\"}}"
#define COPILOT_PASCAL "{\"hook_event_name\":\"PreToolUse\",\"session_id\":" \
	"\"15e2\",\"timestamp\":\"2026-11-23T19:56:39.951Z\",\"cwd\":\"/w\"," \
	"\"tool_name\":\"Write\",\"tool_input\":{\"path\":\"/w/c.txt\"," \
	"\"file_text\":\"canary\\n\"}}"
#define CURSOR_PRE "{\"session_id\":\"c1\",\"conversation_id\":\"c1\"," \
	"\"generation_id\":\"g\",\"hook_event_name\":\"preToolUse\"," \
	"\"cursor_version\":\"1.0\",\"workspace_roots\":[\"/w\"]," \
	"\"tool_name\":\"Shell\",\"tool_input\":{\"command\":\"ls\",\"cwd\":" \
	"\"/w\"},\"tool_use_id\":\"t\",\"cwd\":\"/w\"}"
#define CLAUDE_BASH "{\"session_id\":\"9f1c\",\"transcript_path\":\"/t.jsonl\"," \
	"\"cwd\":\"/w\",\"permission_mode\":\"default\",\"hook_event_name\":" \
	"\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":" \
	"\"ls\"},\"tool_use_id\":\"toolu_01\"}"

static cJSON *
parse(const char *json)
{
	cJSON	*root = cJSON_Parse(json);

	if (root == NULL)
		printf("# bad test JSON: %s\n", json);
	return root;
}

static const char *
detect(const char *json, const char **why)
{
	cJSON		*root = parse(json);
	enum rr_agent	 a = agent_detect(root, why);

	cJSON_Delete(root);
	return agent_names[a];
}

/* The value at a dotted path of an event, as text ("(none)" if absent). */
static const char *
at(const cJSON *v, const char *path)
{
	static char	 num[64];
	char		 part[128];
	const char	*p, *dot;
	size_t		 n;

	for (p = path; v != NULL && *p; p = *dot ? dot + 1 : dot) {
		dot = strchr(p, '.');
		if (dot == NULL)
			dot = p + strlen(p);
		n = (size_t)(dot - p);
		memcpy(part, p, n);
		part[n] = '\0';
		v = cJSON_GetObjectItemCaseSensitive(v, part);
	}
	if (v == NULL)
		return "(none)";
	if (cJSON_IsString(v))
		return v->valuestring;
	if (cJSON_IsTrue(v))
		return "true";
	if (cJSON_IsFalse(v))
		return "false";
	if (cJSON_IsNumber(v)) {
		snprintf(num, sizeof(num), "%g", v->valuedouble);
		return num;
	}
	return cJSON_IsObject(v) ? "{object}" : "(other)";
}

static void
map(struct agent_mapped *m, const char *json, enum rr_agent a,
    const char *event)
{
	agent_map(parse(json), a, event, m);
}

static void
test_detect(void)
{
	const char	*why;

	is_str(detect(GEMINI_BASH, &why), "gemini", "Gemini: its event name");
	is_str(why, "a Gemini CLI event name", "... and says so");
	is_str(detect(CODEX_BASH, &why), "codex", "Codex: turn_id");
	is_str(detect(COPILOT_CAMEL, &why), "copilot",
	    "Copilot camelCase: sessionId, toolName");
	is_str(detect(COPILOT_PASCAL, &why), "copilot",
	    "Copilot PascalCase: an ISO timestamp with PreToolUse");
	is_str(detect(CURSOR_PRE, &why), "cursor", "Cursor: cursor_version");
	is_str(detect(CLAUDE_BASH, &why), "claude", "Claude Code");
	is_str(why, "no mark of another client", "... by elimination");
	is_str(detect("{\"hook_event_name\":\"beforeShellExecution\","
	    "\"command\":\"ls\"}", &why), "cursor",
	    "Cursor: a camelCase event name, even without its other fields");
	is_str(detect("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":"
	    "\"apply_patch\",\"tool_input\":{}}", &why), "codex",
	    "Codex: an apply_patch without turn_id");
	is_str(detect("{\"hook_event_name\":\"SessionStart\",\"timestamp\":"
	    "\"2026-01-01T00:00:00Z\",\"transcript_path\":\"\",\"source\":"
	    "\"startup\"}", &why), "gemini",
	    "ambiguous SessionStart with a timestamp and a transcript_path: "
	    "Gemini");
	is_str(detect("{\"hook_event_name\":\"SessionStart\",\"timestamp\":"
	    "\"2026-01-01T00:00:00Z\",\"source\":\"startup\"}", &why),
	    "copilot", "... without a transcript_path: Copilot PascalCase");
	is_str(detect("{\"sessionId\":\"s\",\"timestamp\":1,\"prompt\":\"hi\"}",
	    &why), "copilot", "Copilot camelCase prompt: sessionId");
	is_str(detect("{}", &why), "claude", "nothing at all: Claude Code");
	is_str(detect("{\"hook_event_name\":7,\"toolName\":\"bash\"}", &why),
	    "copilot", "a hook_event_name that is not a string is not one");
}

static void
test_gemini(void)
{
	struct agent_mapped	m;
	cJSON			*e;

	map(&m, GEMINI_BASH, AGENT_AUTO, NULL);
	e = m.events[0];
	is_int(m.n, 1, "Gemini: one event");
	is_str(at(e, "hook_event_name"), "PreToolUse", "BeforeTool is PreToolUse");
	is_str(at(e, "tool_name"), "Bash", "run_shell_command is Bash");
	is_str(at(e, "tool_input.command"), "touch /tmp/c", "command as is");
	is_str(m.client_event, "BeforeTool", "the client's event kept");
	is_str(m.client_tool, "run_shell_command", "the client's tool kept");
	ok(strstr(m.renamed.data, "event BeforeTool -> PreToolUse\n") &&
	    strstr(m.renamed.data, "tool run_shell_command -> Bash\n"),
	    "explain's lines say what was renamed");
	agent_mapped_release(&m);

	map(&m, "{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"replace\","
	    "\"tool_input\":{\"file_path\":\"a.c\",\"old_string\":\"x\","
	    "\"new_string\":\"y\",\"allow_multiple\":true}}", AGENT_GEMINI,
	    NULL);
	e = m.events[0];
	is_str(at(e, "tool_name"), "Edit", "replace is Edit");
	is_str(at(e, "tool_input.replace_all"), "true",
	    "allow_multiple is replace_all");
	is_str(at(e, "tool_input.allow_multiple"), "true",
	    "and the client's key stays");
	agent_mapped_release(&m);

	map(&m, "{\"hook_event_name\":\"BeforeTool\",\"tool_name\":"
	    "\"mcp_github_create_issue\",\"mcp_context\":{\"server_name\":"
	    "\"git_hub\",\"tool_name\":\"create_issue\"},\"tool_input\":{}}",
	    AGENT_GEMINI, NULL);
	is_str(at(m.events[0], "tool_name"), "mcp__git_hub__create_issue",
	    "an MCP tool: its server and tool from mcp_context");
	agent_mapped_release(&m);
	map(&m, "{\"hook_event_name\":\"AfterTool\",\"tool_name\":"
	    "\"mcp_fs_write_file\",\"tool_input\":{}}", AGENT_GEMINI, NULL);
	is_str(at(m.events[0], "tool_name"), "mcp__fs__write_file",
	    "without mcp_context: the server is up to the next '_'");
	is_str(at(m.events[0], "hook_event_name"), "PostToolUse",
	    "AfterTool is PostToolUse");
	agent_mapped_release(&m);
	map(&m, "{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"mcp_\"}",
	    AGENT_GEMINI, NULL);
	is_str(at(m.events[0], "tool_name"), "mcp_",
	    "a name that is only the prefix stays as it is");
	agent_mapped_release(&m);

	map(&m, "{\"hook_event_name\":\"AfterAgent\",\"prompt\":\"p\","
	    "\"prompt_response\":\"MOCK-FINAL\",\"stop_hook_active\":false}",
	    AGENT_GEMINI, NULL);
	is_str(at(m.events[0], "hook_event_name"), "Stop", "AfterAgent is Stop");
	is_str(at(m.events[0], "last_assistant_message"), "MOCK-FINAL",
	    "prompt_response is the last assistant message");
	agent_mapped_release(&m);
	map(&m, "{\"hook_event_name\":\"BeforeAgent\",\"prompt\":\"p\"}",
	    AGENT_GEMINI, NULL);
	is_str(at(m.events[0], "hook_event_name"), "UserPromptSubmit",
	    "BeforeAgent is UserPromptSubmit");
	agent_mapped_release(&m);
	map(&m, "{\"hook_event_name\":\"BeforeModel\"}", AGENT_GEMINI, NULL);
	is_str(at(m.events[0], "hook_event_name"), "BeforeModel",
	    "an event with no canonical name keeps its own");
	agent_mapped_release(&m);
}

static void
test_copilot(void)
{
	struct agent_mapped	m;
	cJSON			*e;

	map(&m, COPILOT_CAMEL, AGENT_AUTO, NULL);
	e = m.events[0];
	is_str(at(e, "hook_event_name"), "PreToolUse",
	    "camelCase without an event name: toolName makes it preToolUse");
	is_str(m.client_event, "preToolUse", "... the client's name for it");
	is_str(at(e, "session_id"), "3664", "sessionId is session_id");
	is_str(at(e, "tool_name"), "Write", "create is Write");
	is_str(at(e, "tool_input.file_path"), "/w/c.txt", "path is file_path");
	is_str(at(e, "tool_input.content"), "canary\n", "file_text is content");
	is_str(at(e, "tool_input.path"), "/w/c.txt", "the client's key stays");
	agent_mapped_release(&m);

	map(&m, "{\"sessionId\":\"s\",\"toolName\":\"bash\",\"toolArgs\":"
	    "\"{\\\"command\\\":\\\"ls -la\\\"}\"}", AGENT_COPILOT, NULL);
	is_str(at(m.events[0], "tool_input.command"), "ls -la",
	    "toolArgs as a JSON string (before 1.0.102) is read as its object");
	ok(m.note == NULL, "... and is no problem");
	agent_mapped_release(&m);
	map(&m, "{\"sessionId\":\"s\",\"toolName\":\"bash\",\"toolArgs\":"
	    "\"not json\"}", AGENT_COPILOT, NULL);
	ok(m.note != NULL && strstr(m.note, "not a JSON object"),
	    "toolArgs that is not JSON: a note, not a failure");
	is_str(at(m.events[0], "tool_name"), "Bash", "the tool is still known");
	agent_mapped_release(&m);

	map(&m, "{\"sessionId\":\"s\",\"toolName\":\"bash\",\"toolArgs\":{},"
	    "\"toolResult\":{\"resultType\":\"success\"}}", AGENT_COPILOT,
	    NULL);
	is_str(at(m.events[0], "hook_event_name"), "PostToolUse",
	    "toolResult makes it postToolUse");
	is_str(at(m.events[0], "tool_response.resultType"), "success",
	    "toolResult is tool_response");
	agent_mapped_release(&m);
	map(&m, "{\"sessionId\":\"s\",\"toolName\":\"bash\",\"toolArgs\":{},"
	    "\"toolResult\":{}}", AGENT_COPILOT, "postToolUseFailure");
	is_str(at(m.events[0], "hook_event_name"), "PostToolUseFailure",
	    "--event names the event when the payload does not");
	agent_mapped_release(&m);
	map(&m, "{\"hook_event_name\":\"Stop\",\"sessionId\":\"s\"}",
	    AGENT_COPILOT, "preToolUse");
	is_str(at(m.events[0], "hook_event_name"), "Stop",
	    "the payload's own event name wins over --event");
	agent_mapped_release(&m);
	map(&m, "{\"sessionId\":\"s\",\"prompt\":\"hi\"}", AGENT_COPILOT, NULL);
	is_str(at(m.events[0], "hook_event_name"), "UserPromptSubmit",
	    "prompt makes it userPromptSubmitted");
	agent_mapped_release(&m);
	map(&m, "{\"sessionId\":\"s\",\"stopReason\":\"end_turn\","
	    "\"stop_hook_active\":true,\"transcriptPath\":\"/x\"}",
	    AGENT_COPILOT, NULL);
	is_str(at(m.events[0], "hook_event_name"), "Stop", "agentStop is Stop");
	is_str(at(m.events[0], "stop_hook_active"), "true",
	    "stop_hook_active as sent");
	is_str(at(m.events[0], "transcript_path"), "(none)",
	    "transcriptPath is not taken: not Claude Code's format");
	agent_mapped_release(&m);

	map(&m, COPILOT_PASCAL, AGENT_AUTO, NULL);
	e = m.events[0];
	is_str(at(e, "tool_name"), "Write", "PascalCase Write stays Write");
	is_str(at(e, "tool_input.file_path"), "/w/c.txt",
	    "... with Copilot's path as file_path");
	is_str(at(e, "tool_input.content"), "canary\n",
	    "... and file_text as content");
	agent_mapped_release(&m);
	map(&m, "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"edit\","
	    "\"tool_input\":{\"path\":\"a\",\"old_str\":\"x\",\"new_str\":"
	    "\"y\"}}", AGENT_COPILOT, NULL);
	is_str(at(m.events[0], "tool_name"), "Edit", "edit is Edit");
	is_str(at(m.events[0], "tool_input.old_string"), "x", "old_str");
	is_str(at(m.events[0], "tool_input.new_string"), "y", "new_str");
	agent_mapped_release(&m);
	map(&m, "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"view\","
	    "\"tool_input\":{\"path\":\".env\"}}", AGENT_COPILOT, NULL);
	is_str(at(m.events[0], "tool_name"), "Read", "view is Read");
	agent_mapped_release(&m);
}

static void
test_cursor(void)
{
	struct agent_mapped	m;
	cJSON			*e;

	map(&m, CURSOR_PRE, AGENT_AUTO, NULL);
	is_str(at(m.events[0], "tool_name"), "Bash", "Shell is Bash");
	is_str(at(m.events[0], "hook_event_name"), "PreToolUse",
	    "preToolUse is PreToolUse");
	agent_mapped_release(&m);
	map(&m, "{\"hook_event_name\":\"beforeShellExecution\",\"command\":"
	    "\"git push -f\",\"workspace_roots\":[\"/w\"],\"session_id\":\"s\"}",
	    AGENT_CURSOR, NULL);
	e = m.events[0];
	is_str(at(e, "hook_event_name"), "PreToolUse",
	    "beforeShellExecution is a PreToolUse");
	is_str(at(e, "tool_name"), "Bash", "... of Bash");
	is_str(at(e, "tool_input.command"), "git push -f",
	    "... whose command is the event's");
	is_str(at(e, "cwd"), "/w", "no cwd: the first workspace root");
	is_str(m.client_event, "beforeShellExecution", "the client's event");
	agent_mapped_release(&m);
	map(&m, "{\"hook_event_name\":\"beforeReadFile\",\"file_path\":"
	    "\"/w/.env\",\"content\":\"K=v\",\"cwd\":\"/elsewhere\"}",
	    AGENT_CURSOR, NULL);
	e = m.events[0];
	is_str(at(e, "tool_name"), "Read", "beforeReadFile is a Read");
	is_str(at(e, "tool_input.file_path"), "/w/.env", "... of its file");
	is_str(at(e, "cwd"), "/elsewhere", "a cwd given is kept");
	agent_mapped_release(&m);
	map(&m, "{\"hook_event_name\":\"beforeMCPExecution\",\"tool_name\":"
	    "\"write_file\",\"tool_input\":\"{\\\"path\\\":\\\"a\\\"}\"}",
	    AGENT_CURSOR, NULL);
	e = m.events[0];
	is_str(at(e, "tool_name"), "mcp__cursor__write_file",
	    "beforeMCPExecution: mcp__cursor__TOOL (Cursor names no server)");
	is_str(at(e, "tool_input.path"), "a", "its JSON-text input read");
	agent_mapped_release(&m);
	map(&m, "{\"hook_event_name\":\"preToolUse\",\"tool_name\":"
	    "\"MCP:delete_repo\",\"tool_input\":{}}", AGENT_CURSOR, NULL);
	is_str(at(m.events[0], "tool_name"), "mcp__cursor__delete_repo",
	    "MCP:TOOL likewise");
	agent_mapped_release(&m);
	map(&m, "{\"hook_event_name\":\"afterFileEdit\",\"file_path\":\"a\","
	    "\"edits\":[{\"old_string\":\"x\",\"new_string\":\"y\"}]}",
	    AGENT_CURSOR, NULL);
	is_str(at(m.events[0], "hook_event_name"), "PostToolUse",
	    "afterFileEdit is a PostToolUse");
	is_str(at(m.events[0], "tool_name"), "MultiEdit", "... of a MultiEdit");
	agent_mapped_release(&m);
	map(&m, "{\"hook_event_name\":\"stop\",\"status\":\"completed\","
	    "\"loop_count\":2}", AGENT_CURSOR, NULL);
	is_str(at(m.events[0], "hook_event_name"), "Stop", "stop is Stop");
	is_str(at(m.events[0], "stop_hook_active"), "true",
	    "loop_count > 0 is stop_hook_active");
	agent_mapped_release(&m);
	map(&m, "{\"hook_event_name\":\"stop\",\"loop_count\":0}",
	    AGENT_CURSOR, NULL);
	is_str(at(m.events[0], "stop_hook_active"), "false",
	    "loop_count 0 is not");
	agent_mapped_release(&m);
	map(&m, "{\"hook_event_name\":\"postToolUseFailure\",\"tool_name\":"
	    "\"Shell\",\"error_message\":\"boom\",\"tool_input\":{}}",
	    AGENT_CURSOR, NULL);
	is_str(at(m.events[0], "error"), "boom", "error_message is error");
	agent_mapped_release(&m);
}

static void
test_codex(void)
{
	struct agent_mapped	m;

	map(&m, CODEX_BASH, AGENT_AUTO, NULL);
	is_str(at(m.events[0], "tool_name"), "Bash", "Codex Bash stays Bash");
	is_int(m.renamed.len, 0, "... nothing renamed");
	agent_mapped_release(&m);
	map(&m, "{\"turn_id\":\"t\",\"hook_event_name\":\"PreToolUse\","
	    "\"tool_name\":\"exec_command\",\"tool_input\":{\"cmd\":\"ls\"}}",
	    AGENT_AUTO, NULL);
	is_str(at(m.events[0], "tool_input.command"), "ls",
	    "exec_command's cmd is Bash's command");
	agent_mapped_release(&m);

	map(&m, "{\"turn_id\":\"t\",\"session_id\":\"s\",\"cwd\":\"/w\","
	    "\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"apply_patch\","
	    "\"tool_use_id\":\"c\",\"tool_input\":{\"command\":"
	    "\"*** Begin Patch\\n*** Add File: a.txt\\n+one\\n+two\\n"
	    "*** Delete File: b.txt\\n*** Update File: c.txt\\n"
	    "*** Move to: d.txt\\n@@\\n-old\\n+new\\n*** Update File: e.txt\\n"
	    "@@ ctx\\n keep\\n-gone\\n+here\\n*** End Patch\\n\"}}",
	    AGENT_AUTO, NULL);
	is_int(m.n, 5, "a patch of four files, one moved: five events");
	if (m.n == 5) {
		is_str(at(m.events[0], "tool_name"), "Write", "Add File: Write");
		is_str(at(m.events[0], "tool_input.file_path"), "a.txt", "its path");
		is_str(at(m.events[0], "tool_input.content"), "one\ntwo\n",
		    "its content");
		is_str(at(m.events[0], "session_id"), "s",
		    "the call's own fields kept");
		is_str(at(m.events[0], "tool_use_id"), "c", "... all of them");
		is_str(at(m.events[1], "tool_name"), "Delete",
		    "Delete File: Delete");
		is_str(at(m.events[2], "tool_name"), "Delete",
		    "a move deletes the old name");
		is_str(at(m.events[2], "tool_input.file_path"), "c.txt", "c.txt");
		is_str(at(m.events[3], "tool_name"), "Edit",
		    "... and edits the new one");
		is_str(at(m.events[3], "tool_input.file_path"), "d.txt", "d.txt");
		is_str(at(m.events[4], "tool_input.new_string"), "here\n",
		    "an update's added lines are its new text (no context)");
		is_str(at(m.events[4], "tool_input.old_string"), "gone\n",
		    "its removed lines the old text");
		ok(m.files[0] != NULL && m.files[2] == NULL &&
		    m.files[4] != NULL, "each file's patch kept for file_after");
	}
	agent_mapped_release(&m);

	map(&m, "{\"turn_id\":\"t\",\"hook_event_name\":\"PreToolUse\","
	    "\"tool_name\":\"apply_patch\",\"tool_input\":{\"command\":"
	    "\"*** Begin Patch\\n*** Frobnicate: x\\n*** End Patch\"}}",
	    AGENT_AUTO, NULL);
	is_int(m.n, 1, "a patch Codex would refuse stays one event");
	is_str(at(m.events[0], "tool_name"), "apply_patch", "... apply_patch");
	ok(m.note != NULL && strstr(m.note, "line 2"),
	    "... with a note that says where it is wrong");
	agent_mapped_release(&m);
	map(&m, "{\"turn_id\":\"t\",\"hook_event_name\":\"PreToolUse\","
	    "\"tool_name\":\"apply_patch\",\"tool_input\":\"garbage\"}",
	    AGENT_AUTO, NULL);
	ok(m.note != NULL && strstr(m.note, "not a patch") != NULL,
	    "a patch string that is neither JSON nor a patch: one note, "
	    "the patch's (found by fuzzing: two leaked)");
	agent_mapped_release(&m);
	map(&m, "{\"turn_id\":\"t\",\"hook_event_name\":\"PreToolUse\","
	    "\"tool_name\":\"apply_patch\",\"tool_input\":{}}", AGENT_AUTO, NULL);
	ok(m.note != NULL && strstr(m.note, "no patch text"),
	    "an apply_patch without text: a note");
	agent_mapped_release(&m);
	map(&m, "{\"turn_id\":\"t\",\"hook_event_name\":\"PreToolUse\","
	    "\"tool_name\":\"apply_patch\",\"tool_input\":"
	    "\"*** Begin Patch\\n*** Delete File: x\\n*** End Patch\"}",
	    AGENT_AUTO, NULL);
	is_str(at(m.events[0], "tool_name"), "Delete",
	    "a patch as the whole input (a custom tool call)");
	ok(m.note == NULL, "... which is no JSON text to complain of");
	agent_mapped_release(&m);
}

static void
test_claude(void)
{
	struct agent_mapped	m;

	map(&m, CLAUDE_BASH, AGENT_AUTO, NULL);
	is_str(at(m.events[0], "tool_name"), "Bash", "Claude Code: as it is");
	ok(m.client_event == NULL && m.renamed.len == 0,
	    "... nothing mapped, nothing copied");
	agent_mapped_release(&m);
	map(&m, "{\"tool_name\":\"Bash\"}", AGENT_CLAUDE, "PreToolUse");
	is_str(at(m.events[0], "hook_event_name"), "PreToolUse",
	    "--event fills in a missing event name for Claude Code too");
	agent_mapped_release(&m);
	map(&m, GEMINI_BASH, AGENT_CLAUDE, NULL);
	is_str(at(m.events[0], "tool_name"), "run_shell_command",
	    "--agent claude maps nothing, whatever the shape");
	agent_mapped_release(&m);
}

static void
test_names(void)
{
	enum rr_agent	a;

	is_int(agent_from_name("codex"), AGENT_CODEX, "agent_from_name");
	is_int(agent_from_name("Codex"), -1, "names are case-sensitive");
	is_str(agent_canonical_tool("run_shell_command", &a), "Bash",
	    "run_shell_command's canonical name");
	is_int(a, AGENT_GEMINI, "... Gemini CLI's");
	ok(agent_canonical_tool("Bash", &a) == NULL,
	    "a canonical name is nobody's rename");
	ok(agent_canonical_tool("Write", &a) == NULL,
	    "nor a name a client keeps (Copilot's PascalCase Write)");
	ok(agent_canonical_tool("apply_patch", &a) == NULL,
	    "nor a patch, which is split, not renamed");
}

int
main(void)
{
	test_detect();
	test_gemini();
	test_copilot();
	test_cursor();
	test_codex();
	test_claude();
	test_names();
	return done_testing();
}
