/*
 * Where rules come from (reflexion-rules(1), RULE SOURCES): the installed packs named in
 * $REFLEXION_HOME/config.yaml (userconf.h), $REFLEXION_HOME/rules/, then
 * the project's .reflexion/rules/, then the project's diet103
 * .claude/skills/skill-rules.json; later layers override earlier rules by
 * id.  Any --rules PATH replaces all of them.  sources_list() enumerates
 * them from (home, project, config) alone; sources_load() reads them for
 * the loader (load.h), logging an absent one in the cache's manifest.
 */
#ifndef RR_SOURCES_H
#define RR_SOURCES_H

#include <stddef.h>

#include "diag.h"
#include "rule.h"

struct rr_config;

enum rr_layer {
	LAYER_PACK = 0,
	LAYER_USER = 1,
	LAYER_PROJECT = 2,
	LAYER_SKILL_RULES = 3,
	LAYER_CLI = 10
};

struct rule_sources {
	const char	**paths;	/* --rules, borrowed */
	size_t		  npaths;
};

/* One rule source: a file or a directory, which may not exist. */
struct rule_source {
	char	*path;		/* owned */
	int	 layer;		/* enum rr_layer */
};

struct source_list {
	struct rule_source	*items;
	size_t			 n;
};

/*
 * The default sources in load order, whether they exist or not: the
 * config's packs, home/rules, project/.reflexion/rules and
 * project/.claude/skills/skill-rules.json (home may be NULL, project
 * NULL or "": places.h).
 */
void	 sources_list(const char *home, const char *project,
	     const struct rr_config *, struct source_list *out);
void	 source_list_release(struct source_list *);
/*
 * Where rules are looked for, for a message: the paths of src when it
 * has any, else "HOME/config.yaml (packs), HOME/rules, PROJECT/
 * .reflexion/rules, PROJECT/.claude/skills/skill-rules.json" without
 * what a NULL home or project lacks; owned.
 */
char	*sources_where(const struct rule_sources *, const char *home,
	     const char *project);

/*
 * Loads every rule source into rs: the --rules paths when there are any,
 * else cfg's packs (the loader has read config.yaml; cfg may be NULL)
 * and the default sources that exist.  Errors are in diags; returns the
 * number of sources read.
 */
size_t	 sources_load(struct ruleset *, const struct rule_sources *,
	     const char *home, const char *project, const struct rr_config *,
	     struct diag_list *);

#endif
