/*
 * The compiler's entry points: rule files (YAML, or diet103's
 * skill-rules.json) added to a struct ruleset (rule.h).  Diagnostics go to
 * the caller's diag_list; nothing is printed.
 */
#ifndef RR_COMPILE_H
#define RR_COMPILE_H

#include <stddef.h>

#include "diag.h"
#include "rule.h"

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

#endif
