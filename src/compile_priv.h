/*
 * The compile stage's private header: YAML rule files to a struct ruleset
 * (rule.h).  Not for other modules; they use compile.h.
 *
 * The compiler walks the tree from yamlload.c and reports every problem it
 * finds, with the node's position, instead of stopping at the first: lint
 * is only useful if one run shows everything.  A rule with any error is not
 * added, so a broken rule never half-works.
 *
 * Its files, each calling only the ones below it:
 *
 *   compile_path.c   rule files and directories on disk
 *   compile_rule.c   a rule file's YAML and its rules
 *   compile_layer.c  overridable, locked, rules that disable others
 *   compile_message.c a rule's message, in one language or several
 *   compile_reach.c  warnings: unknown tools, conditions that never hold
 *   compile_cond.c   conditions: when/unless, any/all/not, shell, sections,
 *                    blocks
 *   compile_docs.c   how blocks cut a text, block, listed, related files
 *   compile_match.c  text matchers
 *   compile_json.c   a json matcher's spec
 *   compile_kb.c     the kb condition, record: options, test seeds
 *   compile_ctx.c    the context of one file: errors, keys, string lists
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
	struct template		*banner;	/* banner:, or NULL */
	struct rule_message	*banners;	/* its languages */
	size_t			 nbanners;
	const struct ynode	*vars;		/* or NULL */
	size_t			 errors;	/* errors so far in this file */
	bool			 fail_closed;	/* on_error: deny */
	bool			 locked;	/* locked: true, every rule */
	unsigned		 guarded;	/* events of deny/ask rules */
	bool			 in_shell;	/* inside a `shell:` map */
	bool			 in_blocks;	/* inside a `blocks:` map */
	struct diag_cursor	 cursor;	/* of doc's text, for diags */
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

/*
 * compile_places.c: 1 when name is a built-in variable, with its globs
 * in *globs[0..*n) (the caller frees each and the array); else 0.
 */
int	 place_var(const struct rule_places *, const char *name,
	     char ***globs, size_t *n);

/* compile_ctx.c */
struct diag *cx_error(struct cctx *, const struct ynode *, enum diag_code,
	     const char *, ...) __attribute__((format(printf, 4, 5)));
struct diag *cx_error_at(struct cctx *, const struct ynode *, size_t off,
	     enum diag_code, const char *, ...)
	     __attribute__((format(printf, 5, 6)));
struct diag *cx_warning(struct cctx *, const struct ynode *, enum diag_code,
	     const char *, ...) __attribute__((format(printf, 4, 5)));
struct diag *cx_warning_key(struct cctx *, int line, int col,
	     const char *label, enum diag_code, const char *, ...)
	     __attribute__((format(printf, 6, 7)));
void	 cx_unknown_key(struct cctx *, const struct ynode *key,
	     const char *where, const char *const *known);
const char *closest_word(const char *, const char *const *);
bool	 is_string(const struct ynode *);
int	 strlist_from(struct cctx *, const struct ynode *, struct strlist *,
	     bool expand_vars, const char *what);
void	 strlist_push(struct cctx *, struct strlist *, const struct ynode *,
	     const char *, size_t);
void	 compile_check_keys(struct cctx *, const struct ynode *map,
	     const char *where, const char *const *known);
struct cJSON *ynode_to_json(const struct ynode *, int depth);

/* compile_json.c */
int	 compile_json_spec(struct cctx *, const struct ynode *v,
	     struct json_spec **out);

/* compile_kb.c */
struct cond *compile_kb_cond(struct cctx *, const struct ynode *key,
	     const struct ynode *v);
const struct record_opts *compile_record(struct cctx *, const struct ynode *);
/* compile_memory.c */
struct cond *compile_memory_cond(struct cctx *, const struct ynode *key,
	     const struct ynode *);
struct cond *compile_router_cond(struct cctx *, const struct ynode *key,
	     const struct ynode *);
const struct rule_route *compile_route(struct cctx *, const struct ynode *);
void	 compile_banner(struct cctx *, const struct ynode *);
struct cJSON *compile_test_seed(struct cctx *, const struct ynode *,
	     const char *key);

/* compile_docs.c */
int	 compile_block_cut(struct cctx *, const struct ynode *v,
	     struct blocks_spec *);
struct cond *compile_block_part(struct cctx *, const struct ynode *key,
	     const struct ynode *v);
struct cond *compile_listed(struct cctx *, const struct ynode *key,
	     const struct ynode *v);
struct cond *compile_related(struct cctx *, const struct ynode *key,
	     const struct ynode *v);

/* compile_match.c */
/* What a text matcher is for: its plain strings, and its extra keys. */
enum text_use {
	TU_TEXT,	/* plain strings are regexes */
	TU_NAMES,	/* globs: a shell command's program and subcommand */
	TU_PATH		/* globs, and outside / except: path, read_path */
};
int	 compile_text_matcher(struct cctx *, const struct ynode *,
	     enum text_use, struct matcher *, const char *label);

/* compile_cond.c */
struct cond *compile_when(struct cctx *, const struct ynode *key,
	     const struct ynode *v, bool is_unless);

/* compile_message.c */
void	 compile_message(struct cctx *, struct rule *, const struct ynode *);
/* Whether a message of r (any language) lists kb rows. */
bool	 message_uses_kb(const struct rule *);
bool	 message_uses_memory(const struct rule *);
/* A language tag: "ko", "en", "pt-BR", "zh-Hant". */
bool	 compile_valid_lang(const char *);

/* compile_layer.c */
void	 layer_rule_keys(struct cctx *, struct rule *, const struct ynode *);
bool	 layer_is_stub(const struct ynode *);
struct rule *layer_stub(struct cctx *, struct rule *, const struct ynode *,
	     int layer);
void	 layer_check_allow(struct cctx *, const struct rule *,
	     const struct ynode *action, int layer);

/* compile_reach.c */
void	 reach_check_tool(struct cctx *, const struct rule *,
	     const struct ynode *, const char *name);
void	 reach_check_tool_events(struct cctx *, const struct rule *,
	     const struct ynode *on);
void	 reach_check_rule(struct cctx *, const struct rule *);

#endif
