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
struct json_spec;
struct manifest;
struct rule_places;

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

/*
 * Where a rule comes from (reflexion-rules(5), LAYERS AND TRUST): the
 * sources in load order.  Each source is a layer of its own for ids (the
 * same id twice in one is a duplicate); its trust, rr_trust, decides what
 * it may do to a rule of an earlier source with the same id.
 */
enum rr_layer {
	LAYER_SYSTEM = 0,	/* REFLEXION_SYSTEM_DIR/rules */
	LAYER_PACK = 1,		/* config.yaml's packs */
	LAYER_PINNED = 2,	/* config.yaml's sources, digest pinned */
	LAYER_USER = 3,		/* $REFLEXION_HOME/rules */
	LAYER_PROJECT = 4,	/* .reflexion/rules */
	LAYER_SKILL_RULES = 5,	/* .claude/skills/skill-rules.json */
	LAYER_LOCAL = 6,	/* .reflexion/rules.local */
	LAYER_CLI = 10		/* --rules: replaces every other */
};

/*
 * The trust of a layer, most trusted first.  A layer may replace or
 * disable a rule of a more trusted one only when that rule says
 * `overridable: true` and is not locked; the layers of one trust replace
 * each other's rules by id (a user's rule redefines a pack's).  An allow
 * of the project or local trust counts only in a trusted project.
 */
enum rr_trust {
	TRUST_SYSTEM,
	TRUST_USER,		/* packs, pinned sources, the user's rules */
	TRUST_PROJECT,		/* the project's rules, skill-rules.json */
	TRUST_LOCAL
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
	M_GLOB,
	M_STARTS_WITH,
	M_ENDS_WITH,
	M_JSON		/* the text parsed as JSON, checked by json_spec */
};

struct pattern {
	const char	*src;
	size_t		 len;
	struct rr_regex	*re;		/* M_REGEX */
	struct rr_glob	*glob;		/* M_GLOB */
	int		 line, col;	/* where the pattern was written */
};

/*
 * The places a path matcher's `outside` names (reflexion-rules(5), Path
 * matching): a file inside one of them does not count.  Where they are
 * is known only when an event comes (eval_paths.c).
 */
enum rr_place {
	PLACE_PROJECT = 1 << 0,	/* under the project directory */
	PLACE_TEMP = 1 << 1,	/* under a temporary directory */
	PLACE__ALL = (1 << 2) - 1
};

struct matcher {
	enum matcher_kind kind;
	bool		 ignore_case;
	bool		 word;		/* keywords: whole words only */
	struct pattern	*pats;
	size_t		 npats;		/* 0 only for a path matcher with
					   outside or except: every file */
	bool		 line;		/* equals/starts_with/ends_with per line */
	bool		 required;	/* holds when a pattern is missing */
	struct json_spec *json;		/* M_JSON, in the ruleset's arena */
	/*
	 * path and read_path only, decided per file: a file counts when
	 * it is inside none of the places of `outside` (enum rr_place
	 * bits) and none of its names matches a glob of `except`.
	 */
	unsigned	 outside;
	struct pattern	*except;	/* globs (their glob set) */
	size_t		 nexcept;
};

enum cond_kind {
	C_ALL,
	C_ANY,
	C_NOT,
	C_TEXT,			/* a field against a matcher */
	C_FILE_CONTAINS,	/* literal markers in the file on disk */
	C_ENV,			/* an environment variable set, non-empty */
	C_KB,			/* a knowledge-base lookup returns rows */
	C_SHELL,		/* kids[0] holds for one simple command */
	C_SH_TEXT,		/* in a shell map: a part of the command */
	C_SH_FLAGS,		/* in a shell map: one of strs is an option */
	C_SECTIONS,		/* tagged sections of a Markdown file */
	C_BLOCKS,		/* the blocks of a text, each against a map */
	C_BLOCK_PART,		/* in a blocks map: the block's text or id */
	C_LISTED,		/* in a blocks map: the text lists its id */
	C_RELATED,		/* a file beside the one the tool touches */
	C_MEMORY,		/* a lookup in the memory returns rows */
	C_ROUTER		/* the configured router routes the prompt */
};

/* What a C_BLOCK_PART tests. */
enum block_part {
	BP_TEXT,		/* `block`: the block's text */
	BP_ID,			/* `block_id`: its id */
	BP__COUNT
};

/* The lookups of the `kb` condition (kb.h). */
enum kb_query {
	KBQ_FILE_ERRORS,	/* rows naming the event's file */
	KBQ_SESSION_ERROR	/* the session's last error of this tool */
};

/* The lookups of the `memory` condition (memory.h). */
enum mem_query_kind {
	MQ_SUMMARIES,		/* past sessions' summaries, then turns */
	MQ_CONVERSATIONS,	/* past turns */
	MQ_OBSERVATIONS,	/* recorded calls on the event's file */
	MQ_ROUTE,		/* this session's latest route */
	MQ__COUNT
};

/* The parts of a simple command a shell condition tests (C_SH_TEXT). */
enum sh_part {
	SH_PROGRAM,		/* basename of the program */
	SH_SUBCOMMAND,		/* first argument that is not an option */
	SH_ARGS,		/* any word after the program */
	SH_DIR,			/* directory from an earlier cd */
	SH_REDIRECTS,		/* any redirection target */
	SH_INPUT,		/* here-document or here-string */
	SH__COUNT
};

/* sections: keyword tags whose conditions decide which sections apply. */
struct section_tag {
	const char	*name;
	struct cond	*when;		/* NULL: always */
};

struct sections_spec {
	const char	*file;		/* relative to the project, or absolute */
	struct section_tag *tags;
	size_t		 ntags;
};

/*
 * blocks: how a text is cut (blocks.h), and the condition map each block
 * is tested against.  A text is cut by the line patterns (start or
 * separator, end, id), a JSON document into the members at `json`.
 */
struct blocks_spec {
	enum rr_field	 in;		/* the text cut */
	const char	*in_key;	/* F_INPUT */
	struct pattern	*start, *separator, *end, *id;	/* each or NULL */
	const char	*json;		/* key path of the members, or NULL */
	const char	*json_id;	/* JSON: key path of an item's id */
	bool		 every;		/* every block must hold; else some */
	struct cond	*when;		/* the blocks that count; NULL: all */
	struct cond	*unless;	/* the blocks that do not; NULL */
	struct cond	*test;		/* some: / every: */
	const char	*name;		/* an id's name in check's report */
};

/*
 * A related file (file_exists, file_contains: {file: ...}, json_file):
 * a path template (pathtpl.h) relative to the directory of the file the
 * tool touches, whose last name may hold '*' and '?'.
 */
struct related_spec {
	const char	*tpl;
	unsigned	 uses;		/* the variables it names (PV_BIT) */
	bool		 exists;	/* file_exists: no matcher */
	struct matcher	 m;		/* file_contains, json_file */
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
	/* C_ALL, C_ANY, C_NOT (one kid), C_SHELL (one kid) */
	struct cond	**kids;
	size_t		 nkids;
	/* C_KB */
	enum kb_query	 kb_query;
	size_t		 kb_limit;
	/* C_SH_TEXT (with m); C_SH_FLAGS uses strs */
	enum sh_part	 sh_part;
	/* C_SECTIONS */
	struct sections_spec *sections;
	/* C_BLOCKS; C_BLOCK_PART (with m); C_LISTED (m: its regexes) */
	struct blocks_spec *blocks;
	enum block_part	 block_part;
	/* C_RELATED */
	struct related_spec *related;
	/*
	 * It depends on the block being checked (cond_mark): within a
	 * blocks map, a condition that does not is decided once.
	 */
	bool		 per_block;
	/* C_MEMORY */
	enum mem_query_kind mem_query;
	size_t		 mem_limit;
	bool		 mem_all_projects;	/* not only this project's */
	int		 mem_below;	/* route: confidence under it; 0: any */
};

/*
 * A rule's `route:` (route.h): its own values, or, from_router, those of
 * the router condition that made it fire.
 */
struct rule_route {
	const char	*exec_type;
	const char	*pipeline;	/* or NULL */
	const char	*icon;		/* or NULL */
	const char	*reason;	/* or NULL */
	int		 confidence;
	bool		 from_router;
};

/*
 * The `record:` map of a rule (reflexion-rules(5)): how record.c writes
 * the tool call.  Part of the model, so that the compiler and the cache
 * need nothing of the recorder.
 */
struct record_opts {
	int		 retention_days;	/* 0: keep forever */
	size_t		 max_output;		/* bytes of output kept */
	size_t		 head_lines, tail_lines;
	bool		 redact_defaults;
	struct rr_regex	**redact;		/* owned by the ruleset */
	const char	**redact_src;		/* their patterns (the cache) */
	size_t		 *redact_len;
	size_t		 nredact;
	bool		 detect_errors;
	bool		 collapse_reads;
	/* Characters of a prompt or a message kept (seed 004: 10,000). */
	size_t		 max_chars;
};

/* The defaults of a rule that says `action: record` without `record:`. */
#define RECORD_RETENTION_DAYS	30
#define RECORD_MAX_OUTPUT	10240
#define RECORD_HEAD_LINES	50
#define RECORD_TAIL_LINES	50
#define RECORD_MAX_CHARS	10000

struct rule_test {
	struct cJSON	*event;		/* owned by the ruleset */
	enum rr_action	 expect;	/* ACT_NONE: the rule must not fire */
	const char	*name;
	int		 line, col;
	struct cJSON	*kb_rows;	/* kb: rows to seed, or NULL */
	struct cJSON	*tool_errors;	/* tool_errors: to seed, or NULL */
	bool		 known_gap;	/* expect documents a miss to fix */
	const char	**file_names;	/* files: relative to the project */
	const char	**file_texts;
	size_t		 nfiles;
	const char	**says;		/* message_contains */
	size_t		 nsays;
	const char	*lang;		/* of the message; NULL: default */
};

/* One language of a message written as {en: ..., ko: ...}. */
struct rule_message {
	const char	*lang;		/* "en", "ko", "pt-BR" */
	struct template	*tpl;
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
	struct template	*message;	/* NULL when none; the default */
	/* Its languages, when written as a mapping (the default among). */
	struct rule_message *messages;
	size_t		 nmessages;
	const char	*skill;
	const char	**tags;
	size_t		 ntags;
	bool		 enabled;
	bool		 ignore_stop_hook_active;
	bool		 fail_closed;	/* its file says on_error: deny */
	/* A less trusted layer may replace or disable it (enum rr_trust). */
	bool		 overridable;
	bool		 locked;	/* it, or its file: not even that */
	/*
	 * `on: Check`: it runs only under `reflexion-rules check`, on the
	 * Write of each file checked (events holds PreToolUse).
	 */
	bool		 check_only;
	struct rule_test *tests;
	size_t		 ntests;
	const struct record_opts *record;	/* record:, or NULL */
	const struct rule_route *route;		/* route:, or NULL */
	/*
	 * The suggestion banner of its file (`banner:`), for a suggest
	 * rule; NULL: the default, diet103's (output.h).  Its languages,
	 * when written as a mapping (the default among them).
	 */
	struct template	*banner;
	struct rule_message *banners;
	size_t		 nbanners;
	const char	*file;
	int		 line, col;
	int		 layer;		/* enum rr_layer */
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
	/*
	 * Rules left out for an error (ruleset_leave_out), so that a later
	 * rule with the same id is still a duplicate; indexed likewise.
	 */
	struct rule	**left_out;
	size_t		 nleft_out, left_out_cap;
	size_t		*left_index;
	size_t		 left_index_cap;
	/* Files that contributed rules, for messages and the cache. */
	const char	**files;
	size_t		 nfiles, files_cap;
	/*
	 * The project is one config.yaml trusts: allows of its rules count
	 * (rr_trust).  Known when the default sources are loaded.
	 */
	bool		 project_trusted;
	/* Files that declare on_error: deny, in load order. */
	struct fail_closed_file *fc_files;
	size_t		 nfc_files, fc_files_cap;
	/*
	 * config.yaml's `lang:`, the language of messages written in
	 * several, or NULL (then the locale's; eval.h).
	 */
	const char	*lang;
	/*
	 * Prefilter index (prefilter.h), or NULL; freed if pf_owned.
	 * pf_intact: known as built (in memory, or a cache file whose
	 * identity is as written), so its checksums need not be checked.
	 */
	const unsigned char *pf;
	size_t		 pflen;
	bool		 pf_owned, pf_intact;
	/* Rules decoded on demand (cache.c): rules[i] may be NULL. */
	struct ruleset_lazy *lazy;
	/* rules is anonymous memory of cap entries (munmap, not free). */
	bool		 rules_mapped;
	/* While compiling for the cache: every source read is logged. */
	struct manifest	*manifest;
	/* While compiling: the engine's own directories (compile_places.c). */
	const struct rule_places *places;
};

/*
 * The directories this engine reads its rules and keeps its data in, as
 * the built-in variable $REFLEXION_DIRS names them to rule files: set by
 * the loader (sources.c) for the time of compiling, borrowed.  Any may
 * be NULL.  The compiled globs, not these, are what the cache keeps: its
 * key holds the home and the project, its manifest the config that names
 * the sources.
 */
struct rule_places {
	const char		 *home;		/* $REFLEXION_HOME */
	const char		 *system;	/* the system layer's directory */
	const char		 *packs;	/* the installed packs */
	const char *const	 *sources;	/* pinned team directories */
	size_t			  nsources;
};

/*
 * A rule file that declares `on_error: deny`.  It guards the events its
 * deny and ask rules are written for (read even from rules that failed to
 * compile), so that an error there denies instead of allowing.
 */
struct fail_closed_file {
	const char	*file;		/* interned in the ruleset */
	unsigned	 events;	/* 1 << enum rr_event_kind */
	size_t		 errors;	/* compile errors in this file */
};

/* A supplier of rules decoded on demand; ruleset_release() calls free. */
struct ruleset_lazy {
	struct rule	*(*rule)(struct ruleset_lazy *, size_t i);
	void		 (*free)(struct ruleset_lazy *);
};

extern const char *const action_names[ACT__COUNT];
extern const char *const priority_names[PRI__COUNT];

void	 record_opts_default(struct record_opts *);
/*
 * The template of a text written in several languages (messages,
 * banners) for lang: its own, else the one of the same primary language
 * (ko for ko-KR, and the other way), else the default, def.
 */
const struct template *rule_text_for(const struct template *def,
	     const struct rule_message *v, size_t n, const char *lang);
/*
 * Sets per_block in c and every condition inside it: the compiler and
 * the cache call it on each `when` and `unless` they make.
 */
void	 cond_mark(struct cond *);

void	 ruleset_init(struct ruleset *);
void	 ruleset_release(struct ruleset *);
/*
 * Rule i (i < rs->n), decoding it first when the set comes from the
 * cache; NULL when it cannot be decoded (a corrupt cache).
 */
struct rule *ruleset_rule(const struct ruleset *, size_t i);

/* For the builders of rule sets: the compiler, skillrules.c, the cache. */
struct rule *ruleset_new_rule(struct ruleset *);
/*
 * Adds r, of layer, and returns 0; or reports at loc why it cannot be
 * added and returns -1:
 *  - a rule of the same layer has its id, added or left out for an
 *    error: a duplicate;
 *  - a rule of a more trusted layer has its id (added, or left out for an
 *    error) and is not overridable, or is locked: the override is
 *    refused, and that rule stays in force.
 * Otherwise a rule of an earlier layer with r's id is replaced by r, in
 * its place in the load order.
 */
int	 ruleset_commit_rule(struct ruleset *, struct rule *, int layer,
	     struct diag_list *, const struct diag_loc *);
/* The rule of that layer, added or left out, that has r's id, or NULL. */
const struct rule *ruleset_same_id(const struct ruleset *,
	     const struct rule *r, int layer);
/* The rule that has id now (added, else left out), or NULL. */
const struct rule *ruleset_find(const struct ruleset *, const char *id);
/* The trust of a layer (enum rr_layer): --rules counts as the user's. */
enum rr_trust layer_trust(int layer);
/* "system", "pack", "pinned", "user", "project", ...: static. */
const char *layer_name(int layer);
/* "the system's", "the user's", "the project's", "the local": static. */
const char *trust_name(enum rr_trust);
/*
 * Remembers a rule with an error, which is not added, so that a later
 * rule with its id is still a duplicate.  r stays in the ruleset's arena.
 */
void	 ruleset_leave_out(struct ruleset *, struct rule *, int layer);
void	 ruleset_own_regex(struct ruleset *, struct rr_regex *);
void	 ruleset_own_glob(struct ruleset *, struct rr_glob *);
void	 ruleset_own_json(struct ruleset *, struct cJSON *);
const char *ruleset_intern_file(struct ruleset *, const char *);
void	 ruleset_add_fail_closed(struct ruleset *, const char *file,
	     unsigned events, size_t errors);

#endif
