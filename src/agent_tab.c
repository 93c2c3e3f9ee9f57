/*
 * Each client's events, tools and fields, and their canonical names
 * (agent_priv.h): the whole of what agent.c knows of the clients, read
 * from their own code (agent-protocols.md in the project's reference
 * notes; reflexion-rules(1), AGENT PROTOCOLS).  Claude Code's names are the
 * canonical ones: its table is empty.
 */
#include <stddef.h>

#include "agent_priv.h"

/* ---- Gemini CLI -------------------------------------------------------- */

static const struct agent_key gemini_stop_fields[] = {
	{ "prompt_response", "last_assistant_message" },
	{ NULL, NULL }
};

static const struct agent_event gemini_events[] = {
	{ "BeforeTool", "PreToolUse", NULL, NULL, NULL, 0 },
	{ "AfterTool", "PostToolUse", NULL, NULL, NULL, 0 },
	{ "BeforeAgent", "UserPromptSubmit", NULL, NULL, NULL, 0 },
	{ "AfterAgent", "Stop", NULL, NULL, gemini_stop_fields, 0 },
	{ "SessionStart", "SessionStart", NULL, NULL, NULL, 0 },
	{ "SessionEnd", "SessionEnd", NULL, NULL, NULL, 0 },
	{ "Notification", "Notification", NULL, NULL, NULL, 0 },
	{ "PreCompress", "PreCompact", NULL, NULL, NULL, 0 },
	{ NULL, NULL, NULL, NULL, NULL, 0 }
};

static const struct agent_key gemini_replace_keys[] = {
	{ "allow_multiple", "replace_all" },
	{ NULL, NULL }
};

static const struct agent_key gemini_ls_keys[] = {
	{ "dir_path", "path" },
	{ NULL, NULL }
};

static const struct agent_tool gemini_tools[] = {
	{ "run_shell_command", "Bash", NULL },
	{ "write_file", "Write", NULL },
	{ "replace", "Edit", gemini_replace_keys },
	{ "read_file", "Read", NULL },
	{ "list_directory", "LS", gemini_ls_keys },
	{ "glob", "Glob", NULL },
	{ "grep_search", "Grep", NULL },
	{ "search_file_content", "Grep", NULL },
	{ "web_fetch", "WebFetch", NULL },
	{ "google_web_search", "WebSearch", NULL },
	{ "write_todos", "TodoWrite", NULL },
	{ NULL, NULL, NULL }
};

/* ---- Codex ------------------------------------------------------------- */

static const struct agent_event codex_events[] = {
	{ "PreToolUse", "PreToolUse", NULL, NULL, NULL, 0 },
	{ "PostToolUse", "PostToolUse", NULL, NULL, NULL, 0 },
	{ "UserPromptSubmit", "UserPromptSubmit", NULL, NULL, NULL, 0 },
	{ "Stop", "Stop", NULL, NULL, NULL, 0 },
	{ "SubagentStop", "SubagentStop", NULL, NULL, NULL, 0 },
	{ "SessionStart", "SessionStart", NULL, NULL, NULL, 0 },
	{ "SessionEnd", "SessionEnd", NULL, NULL, NULL, 0 },
	{ NULL, NULL, NULL, NULL, NULL, 0 }
};

static const struct agent_key codex_exec_keys[] = {
	{ "cmd", "command" },
	{ NULL, NULL }
};

/* A canonical name of NULL: a patch, one event per file (applypatch.h). */
static const struct agent_tool codex_tools[] = {
	{ "apply_patch", NULL, NULL },
	{ "exec_command", "Bash", codex_exec_keys },
	{ NULL, NULL, NULL }
};

/* ---- Copilot CLI ------------------------------------------------------- */

/*
 * camelCase payloads name their fields so; PascalCase ones as Claude's.
 * Its transcriptPath is not taken: it is not a transcript in Claude
 * Code's format, the only one transcript.c reads.
 */
static const struct agent_key copilot_fields[] = {
	{ "sessionId", "session_id" },
	{ "toolName", "tool_name" },
	{ "toolArgs", "tool_input" },
	{ "toolResult", "tool_response" },
	{ "stopHookActive", "stop_hook_active" },
	{ NULL, NULL }
};

static const struct agent_event copilot_events[] = {
	{ "preToolUse", "PreToolUse", NULL, NULL, NULL, 0 },
	{ "postToolUse", "PostToolUse", NULL, NULL, NULL, 0 },
	{ "postToolUseFailure", "PostToolUseFailure", NULL, NULL, NULL, 0 },
	{ "userPromptSubmitted", "UserPromptSubmit", NULL, NULL, NULL, 0 },
	{ "agentStop", "Stop", NULL, NULL, NULL, 0 },
	{ "subagentStop", "SubagentStop", NULL, NULL, NULL, 0 },
	{ "sessionStart", "SessionStart", NULL, NULL, NULL, 0 },
	{ "sessionEnd", "SessionEnd", NULL, NULL, NULL, 0 },
	{ "preCompact", "PreCompact", NULL, NULL, NULL, 0 },
	{ "PreToolUse", "PreToolUse", NULL, NULL, NULL, 0 },
	{ "PostToolUse", "PostToolUse", NULL, NULL, NULL, 0 },
	{ "PostToolUseFailure", "PostToolUseFailure", NULL, NULL, NULL, 0 },
	{ "UserPromptSubmit", "UserPromptSubmit", NULL, NULL, NULL, 0 },
	{ "Stop", "Stop", NULL, NULL, NULL, 0 },
	{ "SubagentStop", "SubagentStop", NULL, NULL, NULL, 0 },
	{ "SessionStart", "SessionStart", NULL, NULL, NULL, 0 },
	{ "SessionEnd", "SessionEnd", NULL, NULL, NULL, 0 },
	{ "PreCompact", "PreCompact", NULL, NULL, NULL, 0 },
	{ NULL, NULL, NULL, NULL, NULL, 0 }
};

/* In this order: a postToolUse also has toolName. */
static const struct agent_key copilot_marks[] = {
	{ "toolResult", "postToolUse" },
	{ "toolName", "preToolUse" },
	{ "prompt", "userPromptSubmitted" },
	{ "stopReason", "agentStop" },
	{ "stop_hook_active", "agentStop" },
	{ "initialPrompt", "sessionStart" },
	{ "source", "sessionStart" },
	{ "reason", "sessionEnd" },
	{ NULL, NULL }
};

static const struct agent_key copilot_create_keys[] = {
	{ "path", "file_path" },
	{ "file_text", "content" },
	{ NULL, NULL }
};

static const struct agent_key copilot_edit_keys[] = {
	{ "path", "file_path" },
	{ "old_str", "old_string" },
	{ "new_str", "new_string" },
	{ NULL, NULL }
};

static const struct agent_key copilot_view_keys[] = {
	{ "path", "file_path" },
	{ NULL, NULL }
};

/*
 * The PascalCase payloads give Claude Code's tool names with Copilot's
 * fields (Write with path and file_text): the same keys are added.
 */
static const struct agent_tool copilot_tools[] = {
	{ "bash", "Bash", NULL },
	{ "powershell", "PowerShell", NULL },
	{ "create", "Write", copilot_create_keys },
	{ "edit", "Edit", copilot_edit_keys },
	{ "str_replace", "Edit", copilot_edit_keys },
	{ "view", "Read", copilot_view_keys },
	{ "glob", "Glob", NULL },
	{ "grep", "Grep", NULL },
	{ "web_fetch", "WebFetch", NULL },
	{ "Write", "Write", copilot_create_keys },
	{ "Edit", "Edit", copilot_edit_keys },
	{ "Read", "Read", copilot_view_keys },
	{ NULL, NULL, NULL }
};

/* ---- Cursor ------------------------------------------------------------ */

static const struct agent_key cursor_shell_input[] = {
	{ "command", "command" },
	{ "cwd", "cwd" },
	{ NULL, NULL }
};

static const struct agent_key cursor_read_input[] = {
	{ "file_path", "file_path" },
	{ NULL, NULL }
};

static const struct agent_key cursor_edit_input[] = {
	{ "file_path", "file_path" },
	{ "edits", "edits" },
	{ NULL, NULL }
};

static const struct agent_key cursor_post_fields[] = {
	{ "tool_output", "tool_response" },
	{ NULL, NULL }
};

static const struct agent_key cursor_failure_fields[] = {
	{ "error_message", "error" },
	{ NULL, NULL }
};

static const struct agent_key cursor_shell_fields[] = {
	{ "output", "tool_response" },
	{ NULL, NULL }
};

static const struct agent_key cursor_mcp_fields[] = {
	{ "result_json", "tool_response" },
	{ NULL, NULL }
};

static const struct agent_event cursor_events[] = {
	{ "preToolUse", "PreToolUse", NULL, NULL, NULL, 0 },
	{ "postToolUse", "PostToolUse", NULL, NULL, cursor_post_fields, 0 },
	{ "postToolUseFailure", "PostToolUseFailure", NULL, NULL,
	    cursor_failure_fields, 0 },
	{ "beforeShellExecution", "PreToolUse", "Bash", cursor_shell_input,
	    NULL, 0 },
	{ "afterShellExecution", "PostToolUse", "Bash", cursor_shell_input,
	    cursor_shell_fields, 0 },
	{ "beforeMCPExecution", "PreToolUse", NULL, NULL, NULL, AEV_BARE_MCP },
	{ "afterMCPExecution", "PostToolUse", NULL, NULL, cursor_mcp_fields,
	    AEV_BARE_MCP },
	{ "beforeReadFile", "PreToolUse", "Read", cursor_read_input, NULL, 0 },
	{ "afterFileEdit", "PostToolUse", "MultiEdit", cursor_edit_input,
	    NULL, 0 },
	{ "beforeSubmitPrompt", "UserPromptSubmit", NULL, NULL, NULL, 0 },
	{ "stop", "Stop", NULL, NULL, NULL, 0 },
	{ "subagentStop", "SubagentStop", NULL, NULL, NULL, 0 },
	{ "sessionStart", "SessionStart", NULL, NULL, NULL, 0 },
	{ "sessionEnd", "SessionEnd", NULL, NULL, NULL, 0 },
	{ "preCompact", "PreCompact", NULL, NULL, NULL, 0 },
	{ NULL, NULL, NULL, NULL, NULL, 0 }
};

static const struct agent_key cursor_list_keys[] = {
	{ "file_path", "path" },
	{ NULL, NULL }
};

static const struct agent_tool cursor_tools[] = {
	{ "Shell", "Bash", NULL },
	{ "Write", "Write", NULL },
	{ "Read", "Read", NULL },
	{ "Delete", "Delete", NULL },
	{ "Grep", "Grep", NULL },
	{ "List", "LS", cursor_list_keys },
	{ "Fetch", "WebFetch", NULL },
	{ NULL, NULL, NULL }
};

/* ---- all of them ------------------------------------------------------- */

static const struct agent_event no_events[] = {
	{ NULL, NULL, NULL, NULL, NULL, 0 }
};
static const struct agent_key no_keys[] = { { NULL, NULL } };
static const struct agent_tool no_tools[] = { { NULL, NULL, NULL } };

const struct agent_table agent_tables[AGENT__COUNT] = {
	[AGENT_AUTO] = { no_events, no_keys, no_tools, no_keys,
	    MCP_CANONICAL, NULL, 0 },
	[AGENT_CLAUDE] = { no_events, no_keys, no_tools, no_keys,
	    MCP_CANONICAL, NULL, 0 },
	[AGENT_GEMINI] = { gemini_events, no_keys, gemini_tools, no_keys,
	    MCP_GEMINI, NULL, 0 },
	[AGENT_CODEX] = { codex_events, no_keys, codex_tools, no_keys,
	    MCP_CANONICAL, NULL, 0 },
	[AGENT_COPILOT] = { copilot_events, copilot_fields, copilot_tools,
	    copilot_marks, MCP_CANONICAL, NULL, 0 },
	[AGENT_CURSOR] = { cursor_events, no_keys, cursor_tools, no_keys,
	    MCP_CURSOR, "cursor", AT_ROOTS_CWD | AT_LOOP_COUNT },
};
