/*
 * A routing decision for one prompt (seed 004's BrainAgent): what kind of
 * execution the prompt needs and which pipeline serves it.  Rules give
 * their own (`route:`, reflexion-rules(5)); the `router` condition gets
 * one from the configured router command.  The hook records the first
 * route of an event's fired rules as a `route` event: the routing log,
 * which `statusline` and `memory` read.
 *
 * A struct route_info borrows its strings (from the ruleset, or from the
 * event's arena for a router's answer).
 */
#ifndef RR_ROUTE_H
#define RR_ROUTE_H

/* exec_type values, seed 004's table. */
#define ROUTE_EXEC_TYPES	"direct, tool, master, worker or speckit"

struct route_info {
	const char	*exec_type;	/* one of ROUTE_EXEC_TYPES */
	const char	*pipeline;	/* rag, jira, ...; or NULL: none */
	const char	*icon;		/* for the status line, or NULL */
	const char	*reason;	/* or NULL */
	int		 confidence;	/* 0 to 100 */
	const char	*source;	/* "rules" or "router" */
	const char	*rule;		/* the rule that gave it */
};

/* The exec_types, NULL-terminated, and whether s is one (router.c). */
extern const char *const route_exec_types[];
int	 route_exec_type_valid(const char *s);

#endif
