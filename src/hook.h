/*
 * The hook's main job, apart from process plumbing so tests can call it:
 * one event in, the agent's reply (stdout, stderr, status) out.
 */
#ifndef RR_HOOK_H
#define RR_HOOK_H

#include <stdbool.h>
#include <stddef.h>

#include "agent.h"
#include "output.h"
#include "places.h"
#include "sources.h"

struct hook_opts {
	struct rule_sources	 sources;
	const char		*home;		/* data directory, or NULL */
	const struct rr_home	*home_info;	/* why NULL (places.h) */
	bool			 exit2;
	unsigned long		 deadline_ms;	/* 0: none (see watchdog.h) */
	enum rr_agent		 agent;		/* AGENT_AUTO: from the event */
	/* The client's event, for payloads that do not name it; or NULL. */
	const char		*event;
	/*
	 * The process exits after the reply: what the call built is left to
	 * the exit, not freed (hook.c says when it still is).
	 */
	bool			 exiting;
};

/*
 * The prefix of the keys of a session's state (state.h) that count the
 * calls denied in it: not a rule's key (rule ids have no space).
 */
#define HOOK_DENY_KEY	"denied "

/*
 * Never fails: any problem becomes a line on stderr and an allow, or a
 * deny where a rule file declares on_error: deny for the event.  When a
 * watchdog is armed, updates its deadline answer once the rules are known.
 */
void	hook_run(const char *input, size_t len, const struct hook_opts *,
	    struct hook_reply *);

/*
 * Summarizes rule-loading errors for the user (systemMessage), naming the
 * first few files and lines; NULL when there were none.  Owned.
 */
char	*hook_load_errors_message(const struct diag_list *);

#endif
