/*
 * Shared between compile.c (values, matchers, conditions) and
 * compile_rule.c (rules, files, directories).  Not for other modules.
 */
#ifndef RR_COMPILE_PRIV_H
#define RR_COMPILE_PRIV_H

#include <stdbool.h>

#include "diag.h"
#include "compile.h"
#include "yamlload.h"

struct cJSON;

/* The state of compiling one file. */
struct cctx {
	struct ruleset		*rs;
	struct ydoc		*doc;
	struct diag_list	*diags;
	const char		*file;		/* interned in rs */
	const char		*pack;		/* or NULL */
	const struct ynode	*vars;		/* or NULL */
	size_t			 errors;	/* errors so far in this file */
	bool			 fail_closed;	/* on_error: deny */
	unsigned		 guarded;	/* events of deny/ask rules */
	bool			 in_shell;	/* inside a `shell:` map */
};

struct strlist_item {
	const struct ynode	*node;	/* where it was written */
	const char		*s;	/* arena copy */
	size_t			 len;
};

struct strlist {
	struct strlist_item	*items;
	size_t			 n, cap;
};

struct diag *cx_error(struct cctx *, const struct ynode *, enum diag_code,
	     const char *, ...) __attribute__((format(printf, 4, 5)));
struct diag *cx_error_at(struct cctx *, const struct ynode *, size_t off,
	     enum diag_code, const char *, ...)
	     __attribute__((format(printf, 5, 6)));
void	 cx_unknown_key(struct cctx *, const struct ynode *key,
	     const char *where, const char *const *known);
const char *closest_word(const char *, const char *const *);
bool	 is_string(const struct ynode *);
int	 strlist_from(struct cctx *, const struct ynode *, struct strlist *,
	     bool expand_vars, const char *what);
void	 strlist_push(struct cctx *, struct strlist *, const struct ynode *,
	     const char *, size_t);
struct cond *compile_when(struct cctx *, const struct ynode *key,
	     const struct ynode *v, bool is_unless);
void	 compile_check_keys(struct cctx *, const struct ynode *map,
	     const char *where, const char *const *known);
int	 read_rule_file(const char *path, char **text, size_t *len,
	     struct diag_list *);
struct cJSON *ynode_to_json(const struct ynode *, int depth);

/* compile_kb.c */
struct cond *compile_kb_cond(struct cctx *, const struct ynode *key,
	     const struct ynode *v);
const struct record_opts *compile_record(struct cctx *, const struct ynode *);
struct cJSON *compile_test_seed(struct cctx *, const struct ynode *,
	     const char *key);

extern const char *const compile_kb_keys[];
extern const char *const compile_record_keys[];
/* compile_match.c */
int	 compile_text_matcher(struct cctx *, const struct ynode *, bool is_path,
	     struct matcher *, const char *label);
/* compile.c, for compile_ext.c */
struct cond *compile_condition_map(struct cctx *, const struct ynode *map,
	     const char *label);

/* compile_ext.c: shell, sections and json (reflexion-rules(5)). */
struct cond *compile_shell(struct cctx *, const struct ynode *key,
	     const struct ynode *v);
struct cond *compile_shell_part(struct cctx *, const struct ynode *key,
	     const struct ynode *v);
struct cond *compile_sections(struct cctx *, const struct ynode *key,
	     const struct ynode *v);
int	 compile_json_spec(struct cctx *, const struct ynode *v,
	     struct json_spec **out);

extern const char *const compile_rule_keys[];
extern const char *const compile_top_keys[];
extern const char *const compile_test_keys[];

#endif
