/*
 * The clients the hook speaks to, and their events mapped onto the
 * canonical ones that rules name (reflexion-rules(5), EVENTS and TOOLS):
 * Claude Code's events and tools are the canonical ones; Gemini CLI,
 * Codex, Copilot CLI and Cursor each have a table in agent_tab.c that
 * says what their events, tools and fields are called canonically.
 *
 * agent_map() takes the parsed JSON of one hook call and gives the
 * canonical events it stands for: one, or for a Codex apply_patch one
 * per file of the patch (applypatch.h).  The mapping adds the canonical
 * names beside the client's own (a Copilot `path` stays, `file_path` is
 * added), so `input.<key>` rules see both.
 */
#ifndef RR_AGENT_H
#define RR_AGENT_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

struct cJSON;
struct patch;
struct patch_file;

enum rr_agent {
	AGENT_AUTO,	/* recognised from the event's shape */
	AGENT_CLAUDE,
	AGENT_GEMINI,
	AGENT_CODEX,
	AGENT_COPILOT,
	AGENT_CURSOR,
	AGENT__COUNT
};

/* "auto", "claude", "gemini", "codex", "copilot", "cursor". */
extern const char *const agent_names[AGENT__COUNT];
/* Their product names, for messages: "Claude Code", "Gemini CLI", ... */
extern const char *const agent_titles[AGENT__COUNT];

/* The agent of that name, or -1. */
int	 agent_from_name(const char *);

/*
 * The client that sent root, from its shape (see agent.c for the marks
 * and the order they are tried in); never AGENT_AUTO.  *why (static
 * text) says which mark told.
 */
enum rr_agent agent_detect(const struct cJSON *root, const char **why);

/*
 * The canonical name of a tool that some client calls `name` (Gemini
 * CLI's run_shell_command: Bash), with *agent that client; NULL when no
 * client's table renames it.
 */
const char *agent_canonical_tool(const char *name, enum rr_agent *agent);

/* One hook call, mapped.  Everything is owned; agent_mapped_release(). */
struct agent_mapped {
	enum rr_agent	  agent;
	const char	 *why;		/* "--agent", or the mark (static) */
	/* The event and tool as the client named them (NULL: Claude Code). */
	char		 *client_event;
	char		 *client_tool;
	/*
	 * The canonical events, each a JSON object as Claude Code would
	 * send it; events[0] is the call's own tree, rewritten.  A patch
	 * gives one per file, in the patch's order (never none).
	 */
	struct cJSON	**events;
	size_t		  n;
	struct patch	 *patch;	/* the parsed patch, or NULL */
	/* With a patch, the file of each event (applypatch.h), else NULL. */
	const struct patch_file **files;
	/* Why part of the call could not be mapped (for stderr), or NULL. */
	char		 *note;
	/* What was renamed, one "client -> canonical" per line (explain). */
	struct buf	  renamed;
};

/*
 * Maps root (taken: it becomes events[0] or is freed with out) as sent
 * by agent (AGENT_AUTO: agent_detect()).  event_name, when not NULL,
 * names the client's event when the payload does not (Copilot's
 * camelCase payloads, registered with --event).  Never fails: what
 * cannot be mapped stays as it was, and out->note says why.
 */
void	 agent_map(struct cJSON *root, enum rr_agent agent,
	     const char *event_name, struct agent_mapped *out);
void	 agent_mapped_release(struct agent_mapped *);

#endif
