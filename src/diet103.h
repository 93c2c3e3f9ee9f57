/*
 * diet103's .claude/skills/skill-rules.json (doc/compatibility.md §1),
 * mapped to the rules it means.  This file owns the
 * mapping: which skill makes which rule, from which fields, with which
 * patterns, and the problems that leave a rule out.  Its users only
 * translate the description: skillrules.c builds struct rule from it
 * (the file read as is), import_diet103.c prints it as YAML
 * (`reflexion-rules import`), so both readings give the same rules.
 *
 *   promptTriggers      -> NAME: suggest on UserPromptSubmit when any of
 *                          keywords (substrings, case-insensitive) or
 *                          intentPatterns (regexes, case-insensitive)
 *                          matches the prompt
 *   guardrail + block   -> NAME/guard: deny on PreToolUse of Edit, Write
 *                          and MultiEdit when fileTriggers.pathPatterns
 *                          (globs) and contentPatterns (regexes,
 *                          case-insensitive) match, unless pathExclusions
 *                          (globs), skipConditions.fileMarkers (text in
 *                          the file) or envOverride (a variable set) say
 *                          so; sessionSkillUsed is once: session; the
 *                          message is blockMessage with its first
 *                          "{file_path}" the project-relative path
 *
 * cJSON keeps no positions, so problems are reported at the skill's key,
 * found in the text, and worded with the path inside the document
 * (skills.NAME.FIELD).  A rule with a problem is left out; the others
 * are kept.
 */
#ifndef RR_DIET103_H
#define RR_DIET103_H

#include <stddef.h>

#include "arena.h"
#include "diag.h"
#include "rule.h"

struct rr_regex;
struct rr_glob;

/*
 * The strings of one JSON list.  Regexes and globs are compiled here, so
 * that both users reject the same patterns: re[i] (regexes, compiled
 * case-insensitive) or glob[i] is v[i] compiled, the other array NULL.
 * The set owns them until a user takes one and sets its slot to NULL.
 */
struct d103_list {
	const char	**v;
	size_t		  n;
	struct rr_regex	**re;
	struct rr_glob	**glob;
};

/* A part of the message: literal text, or a variable of the event. */
struct d103_seg {
	const char	*text;
	size_t		 len;
	enum tpl_var	 var;		/* V__COUNT: literal text */
};

enum d103_kind {
	D103_SUGGEST,
	D103_GUARD
};

/*
 * One rule.  id is the rule's name in pack skill-rules: the reader makes
 * it skill-rules/NAME[/guard], the importer a YAML id (its '/' a '-').
 * The message is literal text and variables: blockMessage around its
 * first {file_path} (V_PATH), or diet103's own "... BLOCKED - {{skill}}
 * required" without one.
 */
struct d103_rule {
	enum d103_kind	 kind;
	const char	*id;		/* NAME, or NAME/guard */
	const char	*skill;		/* the skill's name */
	const char	*description;	/* or NULL */
	enum rr_event_kind event;
	const char *const *tools;	/* exact names; NULL = any */
	size_t		 ntools;
	enum rr_priority priority;
	/* D103_SUGGEST: the prompt matches any of these (one at least). */
	struct d103_list keywords;	/* substrings, case-insensitive */
	struct d103_list intents;	/* regexes */
	/* D103_GUARD: the path (one glob at least) and the content match, */
	struct d103_list paths;		/* globs */
	struct d103_list content;	/* regexes; none: any content */
	/* unless any of these holds. */
	struct d103_list exclusions;	/* globs on the path */
	struct d103_list markers;	/* texts in the file on disk */
	struct d103_list env;		/* variables set and not empty */
	enum rr_once	 once;
	enum rr_action	 action;
	struct d103_seg	 message[3];	/* D103_GUARD */
	size_t		 nmessage;
	int		 line, col;	/* of the skill's key */
};

/*
 * The rules of one file.  Strings and arrays live in its arena; the
 * compiled patterns no user took are freed by d103_release().
 */
struct d103_set {
	struct arena	  arena;
	struct d103_rule *rules;
	size_t		  n;
	size_t		  errors;	/* problems reported */
	const char	 *file;		/* borrowed, for d103_loc() */
	const char	 *text;
	size_t		  len;
	/* D103_NOT_JSON: where the text stops being JSON, or 0. */
	int		  json_line, json_col;
};

/*
 * A text that is not JSON is not reported here: the reader points at the
 * place, `import` names the file only.
 */
enum d103_status {
	D103_OK,
	D103_NOT_JSON,
	D103_NO_SKILLS		/* no "skills" object; reported */
};

/*
 * Maps text (the file named file) into set, which d103_release() frees
 * in every case.  Problems are errors of the given code in diags; the
 * set holds the rules without any.
 */
enum d103_status d103_read(struct d103_set *, const char *file,
	     const char *text, size_t len, enum diag_code,
	     struct diag_list *);
/* Where a rule comes from, for the users' own diagnostics. */
void	 d103_loc(const struct d103_set *, const struct d103_rule *,
	     struct diag_loc *);
void	 d103_release(struct d103_set *);

#endif
