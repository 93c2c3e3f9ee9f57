/*
 * Which fields of the rule language an event carries, by its kind and
 * its tool: what lint needs to tell a rule that can never fire.  The
 * tools are those of tools.def; everything here is static and read-only.
 */
#ifndef RR_TOOLINFO_H
#define RR_TOOLINFO_H

#include <stdbool.h>
#include <stddef.h>

#include "event.h"

/* A field as a bit: 1u << enum rr_field, F_INPUT included. */
#define FB(f)	(1u << (f))

enum tool_agent {
	AG_CLAUDE = 1,
	AG_GEMINI = 2,
	AG_CODEX = 4,
	AG_COPILOT = 8,
	AG_CURSOR = 16
};
#define AG_ALL	(AG_CLAUDE | AG_GEMINI | AG_CODEX | AG_COPILOT | AG_CURSOR)

struct known_tool {
	const char	*name;
	unsigned	 agents;	/* enum tool_agent bits */
	unsigned	 fields;	/* FB() of what its input gives */
	bool		 closed;	/* no file path unless fields say so */
};

/* Every tool of tools.def, in its order, and how many. */
extern const struct known_tool known_tools[];
extern const size_t nknown_tools;
/* Their names, NULL-terminated (for closest_word()). */
extern const char *const known_tool_names[];

/* The tool of that exact name, or NULL. */
const struct known_tool *toolinfo_find(const char *name);
/* What any MCP tool gives (mcp_ and mcp__ names; not in the table). */
extern const struct known_tool toolinfo_mcp;
/* The tool of that name, toolinfo_mcp for an MCP tool, or NULL. */
const struct known_tool *toolinfo_for(const char *name);
/* Whether events of kind k name a tool (tool_name, tool_input). */
bool	 toolinfo_has_tool(enum rr_event_kind k);
/*
 * The fields (FB bits) an event of kind k can carry when its tool is t;
 * t NULL stands for a tool this table does not know.  Events without a
 * tool ignore t.
 */
unsigned toolinfo_fields(enum rr_event_kind k, const struct known_tool *t);

#endif
