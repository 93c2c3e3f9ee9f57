/*
 * Private to the agent mapping (agent.c reads the tables that
 * agent_tab.c holds, one per client), not for other modules.
 */
#ifndef RR_AGENT_PRIV_H
#define RR_AGENT_PRIV_H

#include "agent.h"

/* A field renamed: the client's key and the canonical one. */
struct agent_key {
	const char	*from;
	const char	*to;
};

/* How a client names MCP tools. */
enum agent_mcp {
	MCP_CANONICAL,	/* mcp__SERVER__TOOL already (Claude Code, Codex) */
	MCP_GEMINI,	/* mcp_SERVER_TOOL, and mcp_context names both */
	MCP_CURSOR	/* MCP:TOOL; the server is not named */
};

/* An event of one client, and the canonical event it is. */
struct agent_event {
	const char		*client;
	const char		*canon;
	/*
	 * For events that are about one tool without naming it (Cursor's
	 * beforeShellExecution): the canonical tool, and the top-level
	 * fields that make its tool_input.
	 */
	const char		*tool;
	const struct agent_key	*input;
	/* Top-level fields renamed for this event only (NULL-ended). */
	const struct agent_key	*fields;
	unsigned		 flags;
};

/* tool_name is an MCP tool's own name (Cursor's beforeMCPExecution). */
#define AEV_BARE_MCP	0x1

/* A tool of one client: its canonical name and its input's fields. */
struct agent_tool {
	const char		*client;
	const char		*canon;
	const struct agent_key	*keys;	/* NULL-ended, or NULL */
};

struct agent_table {
	const struct agent_event *events;	/* NULL-ended */
	const struct agent_key	*fields;	/* top-level renames */
	const struct agent_tool	*tools;		/* NULL-ended */
	/*
	 * For payloads that do not name their event (Copilot's camelCase
	 * ones, when the registration gave no --event): the first of these
	 * keys that is present names it.
	 */
	const struct agent_key	*marks;
	enum agent_mcp		 mcp;
	/* The MCP server name Cursor does not give. */
	const char		*mcp_server;
	unsigned		 flags;
};

/* No cwd: the first of workspace_roots (Cursor's file events). */
#define AT_ROOTS_CWD	0x1
/* loop_count > 0 is stop_hook_active (Cursor's stop). */
#define AT_LOOP_COUNT	0x2

extern const struct agent_table agent_tables[AGENT__COUNT];

#endif
