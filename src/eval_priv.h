/*
 * Shared by eval.c (rules, conditions, text matching) and eval_ext.c (the
 * shell, sections, json and required forms, and the file fields).  Not for
 * other modules.  Texts made for templates ({{missing}}, {{sections}},
 * {{keywords}}) live in the event's arena or in `missing`.
 */
#ifndef RR_EVAL_PRIV_H
#define RR_EVAL_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "eval.h"
#include "kb.h"

#define FILE_CONTAINS_MAX	(16u * 1024 * 1024)

struct sh_script;
struct sh_cmd;

/* Per-event scratch shared by every rule. */
struct ectx {
	struct rr_event		*ev;
	const struct eval_opts	*opts;
	struct eval_outcome	*out;
	const struct rule	*rule;
	/* The first text a `when` condition matched, for {{match}}. */
	const char		*match;
	size_t			 match_len;
	bool			 match_is_glob;
	/* The file on disk, read once for file_contains. */
	int			 file_state;	/* 0 unread, 1 read, -1 none */
	char			*file_text;
	size_t			 file_len;
	int			 depth;		/* of explain indentation */
	bool			 fast;		/* prefilters on */
	/* Rows the rule's kb conditions found, for its message. */
	struct kb_rows		 rows;
	bool			 kb_failed;	/* reported once per event */
	/* eval_ext.c */
	struct sh_script	*sh;		/* `command` parsed, once */
	const struct sh_cmd	*sh_cmd;	/* the one a shell map tests */
	int			 after_state;	/* file_after: 0 unread, 1, -1 */
	struct buf		 missing;	/* {{missing}} of this rule */
	const char		*sections;	/* {{sections}} of this rule */
	const char		*keywords;	/* {{keywords}} of this rule */
};

/* eval.c */
void	 eval_explain(struct ectx *, const char *fmt, ...)
	     __attribute__((format(printf, 2, 3)));
void	 eval_snippet(struct buf *, const char *, size_t);
bool	 eval_condition(struct ectx *, const struct cond *, bool in_when);
bool	 eval_match_subjects(struct ectx *, const struct cond *,
	     const char *const *subjects, const size_t *lens, size_t n,
	     bool in_when);
bool	 eval_pattern_hit(struct ectx *, const struct cond *, size_t pi,
	     const char *s, size_t len, size_t *start, size_t *end);
/* Reads the file the tool touches into file_text, once per event. */
void	 eval_load_file(struct ectx *);

/* eval_ext.c */
bool	 eval_shell(struct ectx *, const struct cond *, bool in_when);
bool	 eval_shell_part(struct ectx *, const struct cond *);
bool	 eval_shell_flags(struct ectx *, const struct cond *);
bool	 eval_sections(struct ectx *, const struct cond *, bool in_when);
bool	 eval_json(struct ectx *, const struct cond *,
	     const char *const *subjects, const size_t *lens, size_t n,
	     bool in_when);
bool	 eval_required(struct ectx *, const struct cond *,
	     const char *const *subjects, const size_t *lens, size_t n,
	     bool in_when);
/* Fills ev->f[F_FILE_BEFORE] or [F_FILE_AFTER] the first time. */
void	 eval_file_field(struct ectx *, enum rr_field);
void	 eval_ext_reset_rule(struct ectx *);
void	 eval_ext_release(struct ectx *);

#endif
