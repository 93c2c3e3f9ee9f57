/*
 * Private to the hook: hook.c runs a call and calls into hook_answer.c,
 * which gives the answers the rules do not (fail-closed denies, the
 * deadline's answers); hook_answer.c calls nothing in hook.c.
 */
#ifndef RR_HOOK_PRIV_H
#define RR_HOOK_PRIV_H

#include <stdbool.h>

#include "diag.h"
#include "eval.h"
#include "event.h"
#include "hook.h"
#include "output.h"
#include "rule.h"

/* What hook_hold_decision() needs besides the decision. */
struct hook_held {
	const struct hook_opts	*opts;
	const struct rr_event	*ev;
	const struct diag_list	*diags;
	const struct hook_reply	*reply;		/* its stderr so far */
	const char		*sysmsg;
	bool			 guarded;	/* by an on_error: deny file */
	/*
	 * What the files of a patch evaluated before this one fired: the
	 * decision so far is theirs and this one's together.
	 */
	const struct eval_outcome *before;
};

/* Every load diagnostic, one line each, appended to err. */
void	 hook_diag_lines(const struct diag_list *, struct buf *err);
/* Appends a deny with reason (copied) to out, as if a rule had fired. */
void	 hook_error_deny(struct eval_outcome *out, const char *reason);
/*
 * The fail-closed file that guards this event, or NULL: with broken set,
 * only one whose own rules failed to compile.  A Stop hook already
 * continuing (stop_hook_active) is never blocked by an error: that could
 * only loop.
 */
const struct fail_closed_file *hook_guarding_file(const struct ruleset *,
	     const struct rr_event *, bool broken);
/*
 * Adds to out the deny an error gives instead of the rules, if any: a
 * broken fail-closed file, part of the event unread, a fail-closed rule
 * that could not decide.
 */
void	 hook_error_denies(const struct ruleset *, const struct rr_event *,
	     struct eval_outcome *out);
/*
 * The deadline's answer once the rules are known and before any
 * decision: a deny when an on_error: deny file guards the event, else
 * the allow that cmd_hook.c set; with h->sysmsg when there is one.
 */
void	 hook_hold_undecided(const struct hook_held *h,
	     const struct ruleset *);
/* An eval_decided_fn (eval.h); arg is a struct hook_held. */
void	 hook_hold_decision(void *arg, const struct eval_outcome *so_far);
/* The reply, final: the deadline's answer before recording and clean-up. */
void	 hook_hold_reply(const struct hook_reply *, const struct hook_opts *);

#endif
