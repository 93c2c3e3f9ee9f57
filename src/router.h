/*
 * The configured router (seed 004's model-based routing; reflexion-rules(5),
 * CONFIGURED COMMANDS): a command that reads a prompt and answers a route.
 *
 * It reads on stdin
 *   {"version": 1, "prompt": ..., "session_id": ..., "cwd": ...,
 *    "project": ..., "exec_types": ["direct", "tool", "master", "worker",
 *    "speckit"]}
 * and writes one JSON object on stdout:
 *   {"exec_type": "master", "pipeline": "rag", "confidence": 0.9,
 *    "reason": "...", "icon": "📚"}
 * exec_type is required and one of exec_types; pipeline, reason and icon
 * are optional strings; confidence a number from 0 to 1 (a fraction) or
 * above 1 up to 100 (a percentage), 0 when missing.
 */
#ifndef RR_ROUTER_H
#define RR_ROUTER_H

#include "arena.h"
#include "buf.h"
#include "extcmd.h"
#include "route.h"

struct rr_event;

/*
 * Asks cmd to route ev's prompt.  Returns 0 and fills *out (strings in
 * arena a, source "router"), or -1 with *err (owned): the command failed
 * or its answer is not a route.
 */
int	 router_ask(const struct rr_command *, struct rr_event *,
	     struct arena *a, struct route_info *out, char **err);
/* The answer text out[0..len) as a route; 0, or -1 with *err. */
int	 router_parse(const char *out, size_t len, struct arena *a,
	     struct route_info *r, char **err);

#endif
