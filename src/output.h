/*
 * Output adapters: an eval_outcome in one agent's hook protocol.
 *
 * Claude Code (doc/claude-code-hooks.md §3, §4): nothing on stdout
 * when nothing fired, otherwise exactly one JSON object and a newline, exit
 * 0; with exit2, a blocking decision is the reason on stderr and exit 2
 * with an empty stdout.  Other agents get their own writer in
 * output_agents.c, behind output_reply().
 */
#ifndef RR_OUTPUT_H
#define RR_OUTPUT_H

#include <stdbool.h>

#include "buf.h"
#include "eval.h"
#include "event.h"

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
 * The texts of an outcome, gathered once for every client's writer
 * (output_agents.c): the deny texts of an event that can block (block;
 * on PreToolUse they are the decision's reason instead), the decision of
 * a PreToolUse and its reason, the context (with the skill banner) and
 * the warnings (with the system message).  Each writer caps what it
 * sends with reply_cap(), all of it within OUTPUT_TEXT_CAP characters.
 */
struct reply_texts {
	struct buf	 block;
	struct buf	 reason;
	const char	*decision;	/* "deny", "ask", "allow" or NULL */
	struct buf	 ctx;
	struct buf	 warn;
	size_t		 budget;	/* characters left to send */
};

void	 reply_texts_gather(struct reply_texts *, const struct eval_outcome *,
	     enum rr_event_kind, const char *system_message);
void	 reply_texts_release(struct reply_texts *);
/* Appends from to into after a blank line, and empties from. */
void	 reply_fold(struct buf *into, struct buf *from);
/* Cuts b to what is left of t's budget. */
void	 reply_cap(struct reply_texts *t, struct buf *b);
/* Appends ,"key":"v" (no comma when *first) to the JSON in o. */
void	 reply_key(struct buf *o, bool *first, const char *key,
	     const struct buf *v);
/* The --exit2 form of a block: why (capped) on stderr, exit 2. */
void	 reply_exit2(struct reply_texts *t, struct buf *why,
	     struct hook_reply *reply);

/*
 * Formats the outcome for Claude Code.  system_message, when not NULL, is
 * shown to the user besides any warn rules (broken rule files).
 */
void	 output_claude(const struct eval_outcome *, const struct rr_event *,
	     const char *system_message, bool exit2, struct hook_reply *);

/*
 * Formats the outcome for the event's client (ev->agent): Claude Code's
 * output_claude(), or the writer of output_agents.c for the others.
 */
void	 output_reply(const struct eval_outcome *, const struct rr_event *,
	     const char *system_message, bool exit2, struct hook_reply *);
/*
 * The deny of an event that could not be read, where a rule file says
 * on_error: deny: the reason on stderr and exit 2, which every client
 * takes as a block; Copilot CLI, which then drops the reason, gets its
 * JSON deny instead unless exit2 asks for the legacy form.
 */
void	 output_error_deny(enum rr_agent, const char *reason, bool exit2,
	     struct hook_reply *);

/*
 * The suggestion banner for the suggest rules that fired: the banner of
 * the first one's file, else output_default_banner, diet103's
 * skill-activation banner.
 */
void	 output_skill_banner(const struct eval_outcome *, struct buf *);
extern const char output_default_banner[];
/* output_default_banner compiled (written out in output.c). */
const struct template *output_default_banner_template(void);

#endif
