/*
 * Output adapters: an eval_outcome in one agent's hook protocol.
 *
 * Claude Code (doc/claude-code-hooks.md §3, §4): nothing on stdout
 * when nothing fired, otherwise exactly one JSON object and a newline, exit
 * 0; with exit2, a blocking decision is the reason on stderr and exit 2
 * with an empty stdout.  Other agents get their own output_* function.
 */
#ifndef RR_OUTPUT_H
#define RR_OUTPUT_H

#include <stdbool.h>

#include "buf.h"
#include "eval.h"

/* Everything Claude Code reads of a hook, at most about this many chars. */
#define OUTPUT_TEXT_CAP	10000

struct hook_reply {
	struct buf	out;	/* stdout */
	struct buf	err;	/* stderr */
	int		status;	/* exit status */
};

void	 hook_reply_init(struct hook_reply *);
void	 hook_reply_release(struct hook_reply *);

/*
 * Formats the outcome for Claude Code.  system_message, when not NULL, is
 * shown to the user besides any warn rules (broken rule files).
 */
void	 output_claude(const struct eval_outcome *, const struct rr_event *,
	     const char *system_message, bool exit2, struct hook_reply *);

/* The diet103 skill-activation banner for the suggest rules that fired. */
void	 output_skill_banner(const struct eval_outcome *, struct buf *);

#endif
