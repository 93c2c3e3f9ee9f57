/*
 * The self-test of an installation (reflexion-rules doctor): each check
 * looks at one thing the hook needs (this program on PATH, each agent's
 * registration and its scope, the client's version against the client
 * bugs reflexion-rules(1) lists, config.yaml, the packs, the rules, the
 * compiled cache, the database, the state directory) and says what it
 * found, and for a problem the command that fixes it.  The checks only
 * look, except that a stale cache is rebuilt as the next hook would.
 *
 * A struct doctor_report owns its findings and their strings.
 */
#ifndef RR_DOCTOR_H
#define RR_DOCTOR_H

#include <stdbool.h>
#include <stddef.h>

#include "agent.h"

enum doctor_level {
	DOCTOR_OK,
	DOCTOR_NOTE,		/* worth knowing; nothing is broken */
	DOCTOR_PROBLEM		/* the hook cannot do its job as it should */
};

struct doctor_finding {
	enum doctor_level	 level;
	char			*check;		/* "program", "Claude Code", ... */
	char			*text;		/* one line */
	char			*fix;		/* a command, or NULL */
};

struct doctor_report {
	struct doctor_finding	*items;
	size_t			 n, cap;
	size_t			 problems;
};

struct doctor_opts {
	/*
	 * The agents to check; none: every agent that is registered
	 * anywhere or whose client is on PATH, and Claude Code.
	 */
	bool		 agents[AGENT__COUNT];
	bool		 any_agent;
	/* How long a client's --version may take, in milliseconds. */
	long		 client_timeout_ms;
};

void	 doctor_report_init(struct doctor_report *);
void	 doctor_report_release(struct doctor_report *);

/* Runs every check for the project around the current directory. */
void	 doctor_run(const struct doctor_opts *, struct doctor_report *);

#endif
