/*
 * `reflexion-rules import`: third-party rule files as reflexion-rules
 * YAML (reflexion-rules(1), import).
 *
 *   import_skill_rules()  diet103 .claude/skills/skill-rules.json, into
 *                         the rules diet103.c maps it to, the ones
 *                         skillrules.c builds when it reads the file as is
 *                         (the same decisions, the same messages)
 *   import_hookify()      one hookify .claude/hookify.NAME.local.md rule,
 *                         with hookify's known bugs fixed
 *
 * Each appends rule entries ("  - id: ..." blocks, a `rules:` list item
 * each) to `out` and returns how many, or -1 when the file cannot be
 * imported at all; problems are diagnostics (RR0602) with the file's
 * position where there is one.  Names already used are tracked in `ids`
 * so that every imported id is unique.
 */
#ifndef RR_IMPORT_H
#define RR_IMPORT_H

#include <stddef.h>

#include "buf.h"
#include "diag.h"

struct import_ids {
	char	**ids;
	size_t	  n;
};

int	 import_skill_rules(const char *file, const char *text, size_t len,
	     struct import_ids *, struct buf *out, struct diag_list *);
int	 import_hookify(const char *file, const char *text, size_t len,
	     struct import_ids *, struct buf *out, struct diag_list *);
void	 import_ids_release(struct import_ids *);

/* Shared by the importers (import_util in import_hookify.c). */
/* A rule id from a name: characters ids cannot hold become '-'. Owned. */
char	*import_unique_id(struct import_ids *, const char *name);
/*
 * text[0..len) as a message template: each "{{" written {{lbraces}}.
 * Owned; *outlen (may be NULL) is its length, NUL bytes included.
 */
char	*import_template_text(const char *text, size_t len, size_t *outlen);

#endif
