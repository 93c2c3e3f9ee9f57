/*
 * Private to the evaluation stage (eval*.c), not for other modules.  The
 * stage is layered; each file calls only the ones below it:
 *
 *	eval.c		rules and the event (eval.h)
 *	eval_cond.c	conditions; the only file that recurses into them
 *	eval_paths.c	path and read_path of a shell command: its files
 *	eval_match.c	text matching of a condition's subjects
 *	eval_ctx.c	the per-event scratch below and its low helpers
 *
 * Texts made for templates ({{missing}}, {{sections}}, {{keywords}}) live
 * in the event's arena or in `missing`.
 */
#ifndef RR_EVAL_PRIV_H
#define RR_EVAL_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "eval.h"
#include "pathid.h"
#include "kb.h"
#include "memory.h"
#include "route.h"
#include "shelltargets.h"

struct sh_script;
struct sh_cmd;

/* A file a shell command writes or reads, as path conditions see it. */
struct eval_path {
	const char		*rel;	/* relative to the project, else abs */
	const char		*abs;
	struct path_forms	 forms;	/* every name of the file (pathid.h) */
	const struct sh_target	*from;	/* in eval_paths.targets */
};

/*
 * `path` and `read_path` of the event when the evaluation makes them
 * (eval_paths.c), once per event: the files of a shell command, indexed
 * by enum sh_access; or, for a tool that reads its path, read_path is
 * that path.  Owned by the ectx; the texts live in the event's arena.
 */
struct eval_paths {
	bool			 made;
	bool			 shell;		/* a shell command's files */
	bool			 reads_path;	/* read_path is the path */
	struct sh_targets	 targets;
	struct eval_path	*v[2];
	size_t			 n[2];
	struct rr_text		 joined[2];	/* every name, one per line,
						   and their folding where
						   case folds: the
						   prefilter's text */
};

/*
 * A subject of a case-insensitive literal, folded (casefold.h) once per
 * event: s is the subject's text (the event's, or the parsed command's,
 * which live as long as the event), fold its folding in the event's
 * arena.  The first EVAL_FOLDS subjects are kept; others are folded at
 * each use.
 */
#define EVAL_FOLDS	16
struct eval_fold {
	const char	*s;
	size_t		 len;
	const char	*fold;
	size_t		 flen;
};

/*
 * What an `args` condition compares for one simple command, made once
 * per event: each word, the path it names written plainly
 * (sh_arg_path()), and the names a pattern in it expands to
 * (shellglob.h).  Arrays owned by the ectx, texts in the event's arena.
 */
struct eval_args {
	const char	**v;
	size_t		 *lens;
	size_t		  n;
	bool		  made;
};

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
	/* The file on disk, read once: file_contains, file_before, after. */
	int			 file_state;	/* 0 unread, 1 read, -1 none */
	char			*file_text;
	size_t			 file_len;
	int			 depth;		/* of explain indentation */
	bool			 fast;		/* prefilters on */
	/* Rows the rule's kb conditions found, for its message. */
	struct kb_rows		 rows;
	bool			 kb_failed;	/* reported once per event */
	/* Rows the rule's memory conditions found, for its message. */
	struct mem_rows		 mem;
	bool			 mem_failed;	/* reported once per event */
	/* The router's answer, asked for once per event. */
	int			 routed;	/* 0 not asked, 1 routed, -1 not */
	struct route_info	 router_route;
	struct sh_script	*sh;		/* `command` parsed, once */
	struct eval_args	*args;		/* per command of sh, or NULL */
	struct eval_paths	 paths;		/* see above */
	/* The file of a shell command a `when` path matched: {{path}}. */
	const struct eval_path	*path_hit;
	const struct sh_cmd	*sh_cmd;	/* the one a shell map tests */
	/*
	 * file_after: 0 not made yet, 1 made, -1 none (the tool would
	 * fail, another tool), -2 past the edits' work budget (edits.h):
	 * a rule on it could not be decided, as at a regex's limit.
	 */
	int			 after_state;
	struct buf		 missing;	/* {{missing}} of this rule */
	const char		*sections;	/* {{sections}} of this rule */
	const char		*keywords;	/* {{keywords}} of this rule */
	struct eval_fold	 folds[EVAL_FOLDS];	/* see above */
	size_t			 nfolds;
};

/* eval_memory.c: the memory and router conditions. */
bool	 eval_memory(struct ectx *, const struct cond *, bool in_when);
bool	 eval_router(struct ectx *);

/* eval_ctx.c */
void	 eval_ctx_init(struct ectx *, struct rr_event *,
	     const struct eval_opts *, struct eval_outcome *);
void	 eval_ctx_reset_rule(struct ectx *, const struct rule *);
void	 eval_ctx_release(struct ectx *);
void	 eval_explain(struct ectx *, const char *fmt, ...)
	     __attribute__((format(printf, 2, 3)));
/* Shorter to read in every eval*.c file. */
#define explain(...)	eval_explain(__VA_ARGS__)
void	 eval_snippet(struct buf *, const char *, size_t);
void	 eval_add_missing(struct ectx *, const char *, size_t);
/* Reads the file the tool touches into file_text, once per event. */
void	 eval_load_file(struct ectx *);
/* Fills ev->f[F_FILE_BEFORE] or [F_FILE_AFTER] the first time. */
void	 eval_file_field(struct ectx *, enum rr_field);
/* The event's command parsed (shellwords.h), once; NULL without one. */
struct sh_script *eval_command(struct ectx *);
/* The subjects of `args` for cx->sh->cmds[i] (struct eval_args). */
const struct eval_args *eval_command_args(struct ectx *, size_t i);

/* eval_match.c */
/* *hit (may be NULL) is set to the index of the subject that matched. */
bool	 eval_match_subjects(struct ectx *, const struct cond *,
	     const char *const *subjects, const size_t *lens, size_t n,
	     bool in_when, size_t *hit);

/* eval_paths.c */
/*
 * Decides a `path` or `read_path` condition when the evaluation makes
 * the field (see struct eval_paths): returns true with the answer in
 * *holds, or false when the field is the event's own.
 */
bool	 eval_paths_cond(struct ectx *, const struct cond *, bool in_when,
	     bool *holds);
/* The prefilter's text of path or read_path (struct pf_lazy). */
bool	 eval_paths_text(void *ectx, enum rr_field, struct rr_text *);

/* eval_cond.c */
bool	 eval_condition(struct ectx *, const struct cond *, bool in_when);

#endif
