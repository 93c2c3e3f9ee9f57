/*
 * The compiled rule model.
 *
 * A struct ruleset owns everything: rules, conditions and strings live in
 * its arena; compiled regexes, globs and the JSON of rule tests are owned
 * through the ruleset's resource lists and freed by ruleset_release().
 * Nothing in a ruleset points into the YAML it was compiled from.
 *
 * The compiled cache stores this model: a new field of struct rule,
 * struct cond, struct matcher or struct pattern must be encoded and
 * decoded in cache_rule.c too (a new enum value will not build until it
 * is), and CACHE_FORMAT in cache.h bumped.
 */
#ifndef RR_RULE_H
#define RR_RULE_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "diag.h"
#include "event.h"
#include "template.h"

struct cJSON;
struct rr_regex;
struct rr_glob;
struct manifest;

enum rr_action {
	ACT_DENY,
	ACT_ASK,
	ACT_ALLOW,
	ACT_CONTEXT,
	ACT_SUGGEST,
	ACT_WARN,
	ACT_RECORD,
	ACT__COUNT,
	ACT_NONE = ACT__COUNT	/* tests: expect none */
};

enum rr_priority {
	PRI_CRITICAL,
	PRI_HIGH,
	PRI_MEDIUM,
	PRI_LOW,
	PRI__COUNT
};

enum rr_once {
	ONCE_NEVER,
	ONCE_SESSION,
	ONCE_SESSION_PATH
};

enum matcher_kind {
	M_REGEX,
	M_KEYWORDS,
	M_CONTAINS,
	M_EQUALS,
	M_GLOB
};

struct pattern {
	const char	*src;
	size_t		 len;
	struct rr_regex	*re;		/* M_REGEX */
	struct rr_glob	*glob;		/* M_GLOB */
	int		 line, col;	/* where the pattern was written */
};

struct matcher {
	enum matcher_kind kind;
	bool		 ignore_case;
	bool		 word;		/* keywords: whole words only */
	struct pattern	*pats;
	size_t		 npats;
};

enum cond_kind {
	C_ALL,
	C_ANY,
	C_NOT,
	C_TEXT,			/* a field against a matcher */
	C_FILE_CONTAINS,	/* literal markers in the file on disk */
	C_ENV			/* an environment variable set, non-empty */
};

struct cond {
	enum cond_kind	 kind;
	const char	*label;		/* "path", "input.url", "any", ... */
	int		 line, col;
	/* C_TEXT */
	enum rr_field	 field;
	const char	*input_key;	/* F_INPUT */
	struct matcher	 m;
	/* C_FILE_CONTAINS, C_ENV */
	const char	**strs;
	size_t		 nstrs;
	/* C_ALL, C_ANY, C_NOT (one kid) */
	struct cond	**kids;
	size_t		 nkids;
};

struct rule_test {
	struct cJSON	*event;		/* owned by the ruleset */
	enum rr_action	 expect;	/* ACT_NONE: the rule must not fire */
	const char	*name;
	int		 line, col;
};

struct rule {
	const char	*id;		/* "pack/id" when the file has a pack */
	const char	*description;
	unsigned	 events;	/* 1 << enum rr_event_kind */
	const char	**tools;	/* exact names or globs; NULL = any */
	struct rr_glob	**tool_globs;	/* parallel to tools; NULL if exact */
	size_t		 ntools;
	enum rr_priority priority;
	struct cond	*when;		/* NULL: always */
	struct cond	*unless;	/* NULL: never cancelled */
	enum rr_once	 once;
	enum rr_action	 action;
	struct template	*message;	/* NULL when none */
	const char	*skill;
	const char	**tags;
	size_t		 ntags;
	bool		 enabled;
	bool		 ignore_stop_hook_active;
	struct rule_test *tests;
	size_t		 ntests;
	const char	*file;
	int		 line, col;
	int		 layer;
	size_t		 order;		/* load order, for stable output */
};

struct ruleset {
	struct arena	 arena;
	struct rule	**rules;
	size_t		 n, cap;
	/* Owned resources outside the arena. */
	struct rr_regex	**regexes;
	size_t		 nregexes, regexes_cap;
	struct rr_glob	**globs;
	size_t		 nglobs, globs_cap;
	struct cJSON	**jsons;
	size_t		 njsons, jsons_cap;
	/* Rule ids -> index in rules[], open addressing; cap is a power of 2. */
	size_t		*id_index;
	size_t		 id_index_cap;
	/* Files that contributed rules, for messages and the cache. */
	const char	**files;
	size_t		 nfiles, files_cap;
	/* Prefilter index (prefilter.h), or NULL; freed if pf_owned. */
	const unsigned char *pf;
	size_t		 pflen;
	bool		 pf_owned;
	/* Rules decoded on demand (cache.c): rules[i] may be NULL. */
	struct ruleset_lazy *lazy;
	/* While compiling for the cache: every source read is logged. */
	struct manifest	*manifest;
};

/* A supplier of rules decoded on demand; ruleset_release() calls free. */
struct ruleset_lazy {
	struct rule	*(*rule)(struct ruleset_lazy *, size_t i);
	void		 (*free)(struct ruleset_lazy *);
};

extern const char *const action_names[ACT__COUNT];
extern const char *const priority_names[PRI__COUNT];

void	 ruleset_init(struct ruleset *);
void	 ruleset_release(struct ruleset *);
/*
 * Rule i (i < rs->n), decoding it first when the set comes from the
 * cache; NULL when it cannot be decoded (a corrupt cache).
 */
struct rule *ruleset_rule(const struct ruleset *, size_t i);

/*
 * Compiles one YAML rule file.  Every problem goes to diags; a rule with an
 * error is left out, the others are kept (a typo in one rule must not
 * disarm the rest).  A rule whose id was defined by an earlier layer
 * replaces it; the same id twice in one layer is an error.
 * Returns the number of errors added.
 */
size_t	 ruleset_add_yaml(struct ruleset *, const char *file, const char *text,
	     size_t len, int layer, struct diag_list *);
/* Reads a file, or every *.yaml / *.yml under a directory, sorted. */
size_t	 ruleset_add_path(struct ruleset *, const char *path, int layer,
	     struct diag_list *);
/* diet103 .claude/skills/skill-rules.json, read as is (skillrules.c). */
size_t	 ruleset_add_skill_rules(struct ruleset *, const char *file,
	     const char *text, size_t len, int layer, struct diag_list *);

/* Helpers shared by compile.c and skillrules.c. */
struct rule *ruleset_new_rule(struct ruleset *);
/* Adds r, or reports a duplicate id and returns -1. */
int	 ruleset_commit_rule(struct ruleset *, struct rule *, int layer,
	     struct diag_list *, const struct diag_loc *);
void	 ruleset_own_regex(struct ruleset *, struct rr_regex *);
void	 ruleset_own_glob(struct ruleset *, struct rr_glob *);
void	 ruleset_own_json(struct ruleset *, struct cJSON *);
const char *ruleset_intern_file(struct ruleset *, const char *);

#endif
