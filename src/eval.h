/*
 * Evaluating a rule set against one event.
 *
 * eval_event() decides which rules fire and renders their messages; it
 * does not format any agent's protocol (output.c does).  The outcome owns
 * its rendered texts; eval_outcome_release() frees them.  Rules are
 * borrowed from the ruleset, which must outlive the outcome.
 */
#ifndef RR_EVAL_H
#define RR_EVAL_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "rule.h"

struct rr_db;
struct route_info;
struct rr_command;
struct eval_outcome;

/*
 * Told during eval_event() each time the decision of the rules fired so
 * far gets stronger: the first ask, the first deny.  so_far holds those
 * rules in priority order, their texts and the notes so far, borrowed
 * for the call; `once` rules are left out, since only the end of the
 * evaluation knows whether they fire again.  A caller with a deadline
 * makes it the answer there, so that a slow rule after a deny cannot
 * turn the deny into a timeout.
 */
typedef void eval_decided_fn(void *arg, const struct eval_outcome *so_far);

struct eval_opts {
	const char	*state_dir;	/* NULL: `once` rules always fire */
	/* No place to keep state (no home): `once` as when it fails. */
	bool		 no_state;
	bool		 state_dry_run;	/* check `once` without claiming */
	const struct rule *only;	/* evaluate just this rule (tests) */
	struct buf	*explain;	/* non-NULL: append a trace */
	struct rr_db	*db;		/* kb lookups; NULL: kb is false */
	bool		 no_prefilter;	/* evaluate every rule in full */
	/*
	 * The configured router (extcmd.h), asked for when a router
	 * condition is first evaluated (config.yaml is read then); NULL,
	 * or returning NULL: the router condition does not hold.
	 */
	const struct rr_command *(*router)(void *arg);
	void		*router_arg;
	/*
	 * `reflexion-rules check`: the rules `on: Check` run too, and a
	 * rule whose blocks conditions found blocks fires once per block,
	 * its message made for that block.
	 */
	bool		 check;
	eval_decided_fn	*decided;	/* NULL: nobody is told */
	/*
	 * The language of messages written in several (message: {en: ...,
	 * ko: ...}): NULL for config.yaml's `lang:` (ruleset.lang), else
	 * the locale's (LC_ALL, LC_MESSAGES, LANG: ko_KR.UTF-8 is ko); ""
	 * for each rule's default (rule tests, unless they name one).
	 */
	const char	*lang;
	void		*decided_arg;
};

struct fired_rule {
	const struct rule *rule;
	char		*text;		/* rendered message, owned; or NULL */
	size_t		 len;
	/*
	 * The file of a shell command that its `when` matched (absolute,
	 * in the event's arena), or NULL: the event's own path is meant.
	 */
	const char	*path;
	/*
	 * Its route (route.h): the rule's own, or the router's answer (in
	 * the event's arena); NULL when it gives none.
	 */
	const struct route_info *route;
	/*
	 * With eval_opts.check, the block it fired for (in the event's
	 * arena), its line (0: none) and the name of its id; else NULL.
	 */
	const char	*block;
	size_t		 block_line;
	size_t		 block_index;	/* its place among the blocks */
	const char	*block_name;
};

struct eval_outcome {
	struct fired_rule *fired;	/* in priority, then load order */
	size_t		 nfired, cap;
	struct buf	 notes;		/* lines for stderr (limits, state) */
	/* The first on_error: deny rule that a limit kept from deciding. */
	const struct rule *undecided;
	const char	*undecided_why;	/* static: "a regex hit its limit" */
	/* The language its texts were made in (eval_opts.lang), borrowed. */
	const char	*lang;
};

void	 eval_outcome_init(struct eval_outcome *);
void	 eval_outcome_release(struct eval_outcome *);
/*
 * Moves what src fired (after dst's), its notes and its undecided rule
 * (unless dst has one) into dst, and releases src: the outcome of an
 * event made of several (the files of a patch).
 */
void	 eval_outcome_append(struct eval_outcome *dst,
	     struct eval_outcome *src);

/*
 * Returns 0; problems that do not stop evaluation go to out->notes.
 * Returns -1 when a rule of a cached set cannot be decoded (a corrupt
 * cache): nothing has been claimed, and the outcome must be discarded.
 *
 * Prefilters (prefilter.h, and cheap conditions of a rule tried before
 * its regexes) leave out rules that cannot fire; they are off with
 * opts->no_prefilter, under explain (which shows every rule), and when
 * REFLEXION_NO_PREFILTER is set to anything but "" or "0".
 */
int	 eval_event(const struct ruleset *, struct rr_event *,
	     const struct eval_opts *, struct eval_outcome *);

/* True when the rule applies to the event's kind and tool at all. */
bool	 rule_applies(const struct rule *, const struct rr_event *);

#endif
