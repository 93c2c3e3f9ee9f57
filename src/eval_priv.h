/*
 * Private to the evaluation stage (eval*.c), not for other modules.  The
 * stage is layered; each file calls only the ones below it:
 *
 *	eval.c		rules and the event (eval.h)
 *	eval_cond.c	conditions; the only file that recurses into them
 *	eval_paths.c	path and read_path of a shell command: its files
 *	eval_blocks.c	the blocks of a text, block, block_id, listed
 *	eval_related.c	files beside the event's (file_exists, ...)
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
struct block;
struct block_list;
struct cJSON;
struct id_set;

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
	/*
	 * The files of each simple command, for path and read_path in a
	 * shell map: command i's are v[a][by_cmd[a][k]] for k from
	 * cmd_start[a][i] to cmd_start[a][i + 1].  Made when first asked.
	 */
	bool			 by_cmd_made;
	size_t			*by_cmd[2];
	size_t			*cmd_start[2];
	/* The temporary directories of `outside: temp`, made once. */
	bool			 temps_made;
	const char		*temps[16];
	size_t			 ntemps;
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

/*
 * A block that made a blocks condition of the rule hold: {{block}},
 * {{blocks}}, and check's results per block.  Texts in the event's
 * arena; member in a block list the ectx keeps until the event's end.
 */
struct block_hit {
	const char		*id;
	size_t			 line;		/* 0: none */
	size_t			 index;		/* among its blocks */
	const char		*name;		/* the id's name in reports */
	const char		*missing;	/* its {{missing}}, or NULL */
	const struct cJSON	*member;	/* a JSON block's, or NULL */
};

/* A condition decided once within a blocks condition (cond.per_block). */
struct cond_memo {
	const struct cond	*c;
	bool			 holds;
};

/* The ids a `listed` condition found, once per blocks condition. */
struct listed_memo {
	const struct cond	*c;
	struct id_set		*ids;		/* in the event's arena */
	bool			 limit;		/* a pattern hit its limit */
};

/* A file beside the event's, read once per event (eval_related.c). */
struct related_file {
	char			*path;
	int			 state;		/* 1 read, -1 none, -2 too big */
	char			*text;
	size_t			 len;
	struct cJSON		*doc;		/* parsed on demand */
	bool			 parsed;	/* doc tried */
};

/* A directory listed for a file name pattern, once per event. */
struct related_dir {
	char			*path;
	char			**names;	/* sorted; NULL: unreadable */
	size_t			 n;
};

/*
 * A text parsed as JSON once per event, whatever the number of rules and
 * blocks that check it (doc NULL: not JSON).
 */
struct parsed_text {
	const char	*s;
	size_t		 len;
	struct cJSON	*doc;
};
#define EVAL_PARSED	16

/*
 * The members of a big object or array of a document the ectx keeps,
 * indexed the first time a key is looked up in it: by key (open
 * addressing), or by position.
 */
struct json_index {
	const struct cJSON	*box;
	const struct cJSON	**slots;
	size_t			 cap;		/* a power of 2; 0: an array */
	size_t			 n;
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
	/*
	 * The file a path in a shell map matched, for the simple command
	 * being tested: {{path}} when the map holds for it.
	 */
	const struct eval_path	*sh_path_hit;
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
	const char		*lang;		/* of messages, or NULL */
	/* The block a blocks map is testing, and the text it was cut of. */
	const struct block	*block;
	const char		*block_text;	/* a JSON block's, printed */
	size_t			 block_text_len;
	const char		*cut_text;
	size_t			 cut_len;
	/* Within a blocks condition: what does not depend on the block. */
	struct cond_memo	*memo;
	size_t			 nmemo, memo_cap;
	struct listed_memo	*listed;
	size_t			 nlisted, listed_cap;
	/* The rule's block hits (see above), and the lists they point in. */
	struct block_hit	*hits;
	size_t			 nhits, hits_cap;
	struct block_list	**lists;
	size_t			 nlists, lists_cap;
	/* Files beside the event's and directories listed, this event. */
	struct related_file	*rfiles;
	size_t			 nrfiles, rfiles_cap;
	size_t			 rbytes;	/* read so far */
	struct related_dir	*rdirs;
	size_t			 nrdirs, rdirs_cap;
	struct parsed_text	 parsed[EVAL_PARSED];	/* see above */
	size_t			 nparsed;
	struct json_index	*jidx;
	size_t			 njidx, jidx_cap;
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
/*
 * F_PROGRAMS (F_SUBCOMMANDS), the prefilter's text of a shell map's
 * `program` (`subcommand`): the program (sh_subcommand()) of each simple
 * command of eval_command(), one per line, in the event's arena.  False
 * without a command.
 */
bool	 eval_programs_text(struct ectx *, enum rr_field,
	     struct rr_text *);
/* The subjects of `args` for cx->sh->cmds[i] (struct eval_args). */
const struct eval_args *eval_command_args(struct ectx *, size_t i);
/*
 * The values of the variables of a related file's path or a JSON key
 * (pathtpl.h) for this event and block: strings in the event's arena, a
 * NULL for what the event has not.
 */
void	 eval_tpl_values(struct ectx *, const char *values[]);
/*
 * A json_env (jsoncheck.h) whose keys name the current block; with
 * indexed, it looks keys up in an index of the document's members, which
 * must then live until the event's end (a related file's, a block's, one
 * of eval_parsed()).
 */
struct json_env;
void	 eval_json_env(struct ectx *, struct json_env *, bool indexed);
/*
 * The text s[0..len) parsed as one JSON value, once per event (NULL: not
 * JSON); *kept false when it could not be remembered (the caller frees).
 */
struct cJSON *eval_parsed(struct ectx *, const char *s, size_t len,
	     bool *kept);
/* A limit reached by a rule's condition: noted, and undecided if fail-closed. */
void	 eval_limit(struct ectx *, const struct cond *, const char *what,
	     const char *why);
/* Keeps a block list until the event's end (it owns the hits' members). */
void	 eval_keep_list(struct ectx *, struct block_list *);

/* eval_match.c */
/*
 * *hit (may be NULL) is set to the index of the subject that matched.  A
 * path matcher without patterns (only outside or except) matches every
 * subject.
 */
bool	 eval_match_subjects(struct ectx *, const struct cond *,
	     const char *const *subjects, const size_t *lens, size_t n,
	     bool in_when, size_t *hit);
/* Whether one of the subjects matches a glob of c's `except`: *which. */
bool	 eval_match_except(struct ectx *, const struct cond *c,
	     const char *const *subjects, const size_t *lens, size_t n,
	     size_t *which);

/*
 * A json matcher (c->m) on a document already parsed (a JSON block's
 * member, a related file): as eval_match_subjects() on its text.
 */
bool	 eval_json_doc(struct ectx *, const struct cond *,
	     const struct cJSON *doc, bool in_when);

/* eval_blocks.c */
/*
 * The blocks of c (a C_BLOCKS) in the event: 0 with *out (kept by the
 * ectx), 1 when the event has no such text, -1 at a limit (noted).
 */
int	 eval_blocks_cut(struct ectx *, const struct cond *,
	     struct block_list **out);
bool	 eval_block_part(struct ectx *, const struct cond *, bool in_when);
bool	 eval_listed(struct ectx *, const struct cond *);

/* eval_related.c */
bool	 eval_related(struct ectx *, const struct cond *, bool in_when);

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
/*
 * Whether a file counts for a path condition c: inside none of the
 * places of c's `outside` and none of its names (names[0..n), from
 * path_forms_list()) matched by c's `except`.  Explains why not.
 */
bool	 eval_path_counts(struct ectx *, const struct cond *c,
	     const struct path_forms *, const char *const *names,
	     const size_t *lens, size_t n);

/* eval_cond.c */
bool	 eval_condition(struct ectx *, const struct cond *, bool in_when);

#endif
