/*
 * Where rules come from (SPEC.md §2): $REFLEXION_HOME/rules/, then the
 * project's .reflexion/rules/, then the project's diet103
 * .claude/skills/skill-rules.json; later layers override earlier rules by
 * id.  Any --rules PATH replaces all of them.
 */
#ifndef RR_SOURCES_H
#define RR_SOURCES_H

#include <stddef.h>

#include "diag.h"
#include "rule.h"

enum rr_layer {
	LAYER_USER = 1,
	LAYER_PROJECT = 2,
	LAYER_SKILL_RULES = 3,
	LAYER_CLI = 10
};

struct rule_sources {
	const char	**paths;	/* --rules, borrowed */
	size_t		  npaths;
};

/* $REFLEXION_HOME, else $HOME/.reflexion; owned. */
char	*reflexion_home(void);
/* $CLAUDE_PROJECT_DIR if set and non-empty, else cwd (may be ""). */
const char *project_dir(const char *event_cwd);

/*
 * Loads every rule source into rs.  Errors are in diags; returns the
 * number of rule files read.
 */
size_t	 sources_load(struct ruleset *, const struct rule_sources *,
	     const char *home, const char *project, struct diag_list *);

#endif
