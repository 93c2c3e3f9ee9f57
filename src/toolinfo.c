#include <string.h>

#include "toolinfo.h"

const struct known_tool known_tools[] = {
#define X(name, agents, fields, closed) { name, agents, fields, closed },
#include "tools.def"
#undef X
};

const size_t nknown_tools = sizeof(known_tools) / sizeof(known_tools[0]);

const char *const known_tool_names[] = {
#define X(name, agents, fields, closed) name,
#include "tools.def"
#undef X
	NULL
};

const struct known_tool *
toolinfo_find(const char *name)
{
	size_t	i;

	for (i = 0; i < nknown_tools; i++)
		if (strcmp(known_tools[i].name, name) == 0)
			return &known_tools[i];
	return NULL;
}

/*
 * Every MCP tool, Claude Code's mcp__SERVER__TOOL and Gemini's
 * mcp_SERVER_TOOL: event.c takes its path-like fields as paths, and a
 * `content` or the edits of the filesystem server's edit_file as the new
 * and old text.  Not closed: what a server takes is its own.
 */
const struct known_tool toolinfo_mcp = {
	"mcp__SERVER__TOOL", AG_CLAUDE | AG_GEMINI,
	FB(F_PATH) | FB(F_CONTENT) | FB(F_OLD_CONTENT), false
};

const struct known_tool *
toolinfo_for(const char *name)
{
	if (strncmp(name, "mcp_", 4) == 0)
		return &toolinfo_mcp;
	return toolinfo_find(name);
}

bool
toolinfo_has_tool(enum rr_event_kind k)
{
	return k == EV_PRE_TOOL_USE || k == EV_POST_TOOL_USE ||
	    k == EV_POST_TOOL_USE_FAILURE;
}

/*
 * What event.c reads for each kind (doc/claude-code-hooks.md §2): the
 * prompt of UserPromptSubmit, the answer of Stop, the response of
 * PostToolUse, the error of PostToolUseFailure (and, for clients that
 * send one, of PostToolUse).
 */
static unsigned
event_fields(enum rr_event_kind k)
{
	unsigned	f = FB(F_EVENT) | FB(F_CWD);

	switch (k) {
	case EV_USER_PROMPT_SUBMIT:
		return f | FB(F_PROMPT);
	case EV_STOP:
	case EV_SUBAGENT_STOP:
		/* The prompt of the turn, from the transcript. */
		return f | FB(F_MESSAGE) | FB(F_PROMPT);
	case EV_SESSION_END:
		return f | FB(F_REASON);
	case EV_POST_TOOL_USE:
		return f | FB(F_RESPONSE) | FB(F_ERROR);
	case EV_POST_TOOL_USE_FAILURE:
		return f | FB(F_ERROR);
	case EV_PRE_TOOL_USE:
	case EV_SESSION_START:
	case EV_OTHER:
		break;
	}
	return f;
}

unsigned
toolinfo_fields(enum rr_event_kind k, const struct known_tool *t)
{
	unsigned	f = event_fields(k);
	bool		path, one_file;

	if (!toolinfo_has_tool(k))
		return f;
	f |= FB(F_TOOL) | FB(F_INPUT);
	path = t == NULL || !t->closed || (t->fields & FB(F_PATH));
	/* A shell's path is its command's files: none is "the" file. */
	one_file = path && (t == NULL || !(t->fields & FB(F_COMMAND)));
	if (t != NULL)
		f |= t->fields & (FB(F_CONTENT) | FB(F_OLD_CONTENT) |
		    FB(F_COMMAND) | FB(F_READ_PATH));
	if (path)
		f |= FB(F_PATH);
	if (one_file)
		f |= FB(F_FILE_BEFORE);
	/* After the tool ran, file_after is the file on disk. */
	if (k == EV_POST_TOOL_USE ? one_file : t != NULL &&
	    (t->fields & FB(F_FILE_AFTER)))
		f |= FB(F_FILE_AFTER);
	return f;
}
