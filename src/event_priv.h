/*
 * Private to the event reader (event.c, event_paths.c), not for other
 * modules.  event.c maps the JSON; event_paths.c knows which of its
 * fields name files and what those names are (pathid.h).
 */
#ifndef RR_EVENT_PRIV_H
#define RR_EVENT_PRIV_H

#include "event.h"

struct cJSON;

/*
 * Takes the files tool_input names: file_path, else notebook_path, for
 * the agents' own tools; every path-like field for an MCP tool.  Sets
 * F_PATH to the first.
 */
void	 event_collect_paths(struct rr_event *, const struct cJSON *input);
/* The lexical names of every path against project_dir and cwd. */
void	 event_derive_paths(struct rr_event *);

#endif
