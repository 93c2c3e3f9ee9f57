/*
 * Private to the agent mapping (agent.c reads the tables that
 * agent_tab.c holds, one per client), not for other modules.
 *
 * Names are arrays, not pointers: a pointer in a table is one more
 * relocation for the dynamic loader on every hook call.  A list ends
 * with an entry whose first name is "".
 */
#ifndef RR_AGENT_PRIV_H
#define RR_AGENT_PRIV_H

#include "agent.h"

/* A field renamed: the client's key and the canonical one. */
struct agent_key {
	char		 from[28];
	char		 to[28];
};

/* How a client names MCP tools. */
enum agent_mcp {
	MCP_CANONICAL,	/* mcp__SERVER__TOOL already (Claude Code, Codex) */
	MCP_GEMINI,	/* mcp_SERVER_TOOL, and mcp_context names both */
	MCP_CURSOR	/* MCP:TOOL; the server is not named */
};

/* An event of one client, and the canonical event it is. */
struct agent_event {
	char			 client[24];
	char			 canon[24];
	/*
	 * For events that are about one tool without naming it (Cursor's
	 * beforeShellExecution): the canonical tool ("" if none), and the
	 * top-level fields that make its tool_input.
	 */
	char			 tool[12];
	const struct agent_key	*input;
	/* Top-level fields renamed for this event only. */
	const struct agent_key	*fields;
	unsigned		 flags;
};

/* tool_name is an MCP tool's own name (Cursor's beforeMCPExecution). */
#define AEV_BARE_MCP	0x1

/* A tool of one client: its canonical name and its input's fields. */
struct agent_tool {
	char			 client[24];
	char			 canon[12];	/* "": a patch, split */
	const struct agent_key	*keys;	/* or NULL */
};

struct agent_table {
	const struct agent_event *events;
	const struct agent_key	*fields;	/* top-level renames */
	const struct agent_tool	*tools;
	/*
	 * For payloads that do not name their event (Copilot's camelCase
	 * ones, when the registration gave no --event): the first of these
	 * keys that is present names it.
	 */
	const struct agent_key	*marks;
	enum agent_mcp		 mcp;
	/* The MCP server name Cursor does not give. */
	char			 mcp_server[8];
	unsigned		 flags;
};

/* No cwd: the first of workspace_roots (Cursor's file events). */
#define AT_ROOTS_CWD	0x1
/* loop_count > 0 is stop_hook_active (Cursor's stop). */
#define AT_LOOP_COUNT	0x2

extern const struct agent_table agent_tables[AGENT__COUNT];

#endif
