/*
 * Where and how each client registers a hook command (init): its file
 * for each scope, the shape of its hooks object, its event names, the
 * key and the unit of its timeout (agent-protocols.md; reflexion-rules(1),
 * AGENT PROTOCOLS).  Data, the path of each file (init writes them,
 * doctor reads them), and what tells our entries from others.
 */
#ifndef RR_HOOKREG_H
#define RR_HOOKREG_H

#include <stdbool.h>
#include <stddef.h>

#include "agent.h"

enum reg_scope {
	SCOPE_PROJECT,	/* shared through the repository */
	SCOPE_LOCAL,	/* the project's, not committed */
	SCOPE_USER,	/* every project of this user */
	SCOPE__COUNT
};

extern const char *const reg_scope_names[SCOPE__COUNT];

enum reg_shape {
	/* "hooks": {EVENT: [{"matcher": M, "hooks": [HANDLER]}]} */
	REG_NESTED,
	/* "hooks": {EVENT: [HANDLER]} (Copilot CLI, Cursor) */
	REG_FLAT
};

/*
 * One event we register: the client's name, and its matcher ("": no
 * matcher key).  Arrays, not pointers: every pointer of a table is a
 * relocation the loader does on each hook call.  The list ends with "".
 */
struct reg_event {
	char		 name[24];
	char		 matcher[20];
};

/* A client's file for one scope. */
struct reg_file {
	/*
	 * Relative to the project root, or to the home directory when it
	 * starts with "~/"; NULL when the client has no such scope.
	 */
	const char	*path;
	/* When set and not empty, this variable is the directory instead. */
	const char	*dir_env;
	/* A file of ours alone: removed when our entries were all it had. */
	bool		 own;
	/* The file wants a top-level "version": 1 (Cursor's hooks.json). */
	bool		 version;
};

struct reg_client {
	enum rr_agent		 agent;
	enum reg_shape		 shape;
	struct reg_file		 files[SCOPE__COUNT];
	const struct reg_event	*events;
	/* What the handler says: its command key, type, name, timeout. */
	const char		*command_key;
	const char		*type;		/* "command", or NULL: no key */
	const char		*name;		/* a "name", or NULL */
	const char		*timeout_key;
	long			 timeout;	/* in the client's own unit */
	/* Our arguments after `hook`: "" or "--agent NAME". */
	const char		*args;
	/* Copilot's camelCase payloads do not name their event. */
	bool			 event_arg;
	/* What the user must still do for the client to run it, or NULL. */
	const char		*next;
};

/* The registration of agent (not AGENT_AUTO). */
const struct reg_client *hookreg_client(enum rr_agent);

/*
 * The file where client c keeps its hooks for scope: f->path under the
 * project root (root NULL, "" or ".": relative, as it is printed), or
 * under $HOME, or in the client's own directory variable.  NULL with
 * *err when the client has no such scope or HOME is not set.  Owned.
 */
char	*hookreg_file(const struct reg_client *c, enum reg_scope scope,
	     const char *root, char **err);

/*
 * Whether command runs this engine's hook: its program is named
 * reflexion-rules (any directory, quoted or not) and its first argument
 * is `hook`.  What init does not duplicate and --uninstall removes.
 */
bool	 hookreg_is_ours(const char *command);
/* The same for another command of ours: `statusline`. */
bool	 hookreg_runs_ours(const char *command, const char *verb);

#endif
