/*
 * Where rules come from (reflexion-rules(1), RULE SOURCES; the layers
 * and what each may do, reflexion-rules(5), LAYERS AND TRUST), in load
 * order, most trusted first:
 *
 *   system    $REFLEXION_SYSTEM_DIR/rules/ (/etc/reflexion-rules/rules/)
 *   user      the packs config.yaml names (userconf.h), its pinned
 *             sources (pinned.h), then $REFLEXION_HOME/rules/
 *   project   .reflexion/rules/, then .claude/skills/skill-rules.json
 *   local     .reflexion/rules.local/
 *
 * Any --rules PATH replaces all of them, as one layer.  A later source
 * replaces a rule of the same id of an earlier one of the same trust;
 * of a more trusted one only when that rule is overridable (rule.h).
 * sources_list() enumerates the sources that are paths from (home,
 * project, config) alone; sources_load() reads them all for the loader
 * (load.h), logging an absent one in the cache's manifest.
 */
#ifndef RR_SOURCES_H
#define RR_SOURCES_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "rule.h"

struct rr_config;

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
 * The system layer's directory: REFLEXION_SYSTEM_DIR when set and not
 * empty, else /etc/reflexion-rules (RR_SYSTEM_DIR); its rules are in
 * rules/ under it.  Owned.
 */
char	*system_dir(void);

/*
 * The default sources that are paths, in load order, whether they exist
 * or not: the system's rules, the config's packs, home/rules,
 * project/.reflexion/rules, project/.claude/skills/skill-rules.json and
 * project/.reflexion/rules.local (home may be NULL, project NULL or "":
 * places.h).  The pinned sources are config.yaml's (userconf.h).
 */
void	 sources_list(const char *home, const char *project,
	     const struct rr_config *, struct source_list *out);
void	 source_list_release(struct source_list *);
/*
 * Where rules are looked for, for a message: the paths of src when it
 * has any, else "SYSTEM/rules, HOME/config.yaml (packs, sources),
 * HOME/rules, PROJECT/.reflexion/rules, ..." without what a NULL home or
 * project lacks; owned.
 */
char	*sources_where(const struct rule_sources *, const char *home,
	     const char *project);

/*
 * The pack diet103's skill-rules.json is read as, and that `import`
 * writes it as.  Once the project's .reflexion/rules/ holds a rule of
 * that pack (an import of the file), the file itself is not read: one
 * skill would otherwise be two rules with two ids, and each of its
 * denies said twice.
 */
#define SKILL_RULES_PACK	"skill-rules"
bool	 imported_skill_rules(const struct ruleset *);

/*
 * Loads every rule source into rs: the --rules paths when there are any,
 * else the default sources that exist, with cfg's packs and pinned
 * sources (the loader has read config.yaml; cfg may be NULL), and notes
 * in rs whether cfg trusts the project.  Errors are in diags; returns the
 * number of sources read.
 */
size_t	 sources_load(struct ruleset *, const struct rule_sources *,
	     const char *home, const char *project, const struct rr_config *,
	     struct diag_list *);

#endif
