/*
 * The hook's answers that the rules do not give (see hook_priv.h): the
 * deny of a file that declares on_error: deny when something fails, and
 * what the watchdog answers if the deadline passes at each stage of a
 * call: before a decision, after a deny or ask was found, and once the
 * reply is made.
 */
#include <stdlib.h>
#include <string.h>

#include "hook_priv.h"
#include "watchdog.h"
#include "xmalloc.h"

/* Every load diagnostic, one line each, for stderr. */
void
hook_diag_lines(const struct diag_list *diags, struct buf *err)
{
	size_t	 i;
	char	*line;

	for (i = 0; i < diags->n; i++) {
		/* Warnings (a rule that can never fire) are lint's business. */
		if (diags->items[i].severity != DIAG_ERROR)
			continue;
		line = diag_format_short(&diags->items[i]);
		buf_printf(err, "reflexion-rules: %s\n", line);
		free(line);
	}
}

/* The stand-in rule behind a deny that an error, not a rule, decided. */
static const struct rule on_error_rule = {
	.id = "on_error",
	.action = ACT_DENY,
	.priority = PRI_CRITICAL,
	.enabled = true,
};

/* Appends a deny with reason (copied) to out, as if a rule had fired. */
void
hook_error_deny(struct eval_outcome *out, const char *reason)
{
	out->fired = xreallocarray(out->fired, out->nfired + 1,
	    sizeof(*out->fired));
	memset(&out->fired[out->nfired], 0, sizeof(out->fired[0]));
	out->fired[out->nfired].rule = &on_error_rule;
	out->fired[out->nfired].text = xstrdup(reason);
	out->fired[out->nfired].len = strlen(reason);
	out->nfired++;
}

/*
 * The fail-closed file that guards this event, or NULL: with broken set,
 * only one whose own rules failed to compile.  A Stop hook already
 * continuing (stop_hook_active) is never blocked by an error: that could
 * only loop.
 */
const struct fail_closed_file *
hook_guarding_file(const struct ruleset *rs, const struct rr_event *ev,
    bool broken)
{
	size_t	i;

	if (ev->stop_hook_active &&
	    (ev->kind == EV_STOP || ev->kind == EV_SUBAGENT_STOP))
		return NULL;
	for (i = 0; i < rs->nfc_files; i++) {
		if (!(rs->fc_files[i].events & (1u << ev->kind)))
			continue;
		if (!broken || rs->fc_files[i].errors > 0)
			return &rs->fc_files[i];
	}
	return NULL;
}

/*
 * The deny that an error gives instead of the rules, added to out: when a
 * fail-closed file guarding the event is broken, when part of the event
 * could not be read, or when a fail-closed deny or ask rule could not be
 * decided (a regex hit its limit).
 */
void
hook_error_denies(const struct ruleset *rs, const struct rr_event *ev,
    struct eval_outcome *out)
{
	const struct fail_closed_file	*fc;
	char				*why;

	if ((fc = hook_guarding_file(rs, ev, true)) != NULL)
		why = xasprintf("reflexion-rules: %s has errors and declares "
		    "on_error: deny; denying until it is fixed (run "
		    "'reflexion-rules lint %s')", fc->file, fc->file);
	else if (ev->note != NULL &&
	    (fc = hook_guarding_file(rs, ev, false)) != NULL)
		/* Part of the event could not be read: rules saw less. */
		why = xasprintf("reflexion-rules: %s; denying because %s "
		    "declares on_error: deny", ev->note, fc->file);
	else if (out->undecided != NULL &&
	    (out->undecided->action == ACT_DENY ||
	    out->undecided->action == ACT_ASK))
		why = xasprintf("reflexion-rules: rule '%s' (%s:%d) could not "
		    "be decided (%s) and its file declares on_error: deny",
		    out->undecided->id, out->undecided->file,
		    out->undecided->line, out->undecided_why != NULL ?
		    out->undecided_why : "a limit was reached");
	else
		return;
	hook_error_deny(out, why);
	free(why);
}

/*
 * What the agent gets if the deadline passes from here on, before any
 * decision: a deny when an on_error: deny file guards the event, else
 * an allow; either with the systemMessage about broken rule files.
 */
void
hook_hold_undecided(const struct hook_held *h, const struct ruleset *rs)
{
	const struct fail_closed_file	*fc;
	struct eval_outcome		 out;
	struct hook_reply		 r;
	char				*why = NULL;

	fc = hook_guarding_file(rs, h->ev, false);
	/* Without either, cmd_hook.c's allow stands as it is. */
	if (h->opts->deadline_ms == 0 || (fc == NULL && h->sysmsg == NULL))
		return;
	eval_outcome_init(&out);
	hook_reply_init(&r);
	buf_add(&r.err, h->reply->err.data, h->reply->err.len);
	hook_diag_lines(h->diags, &r.err);
	if (fc != NULL) {
		why = xasprintf("reflexion-rules: no decision within the "
		    "deadline of %lu ms; denying because %s declares "
		    "on_error: deny", h->opts->deadline_ms, fc->file);
		hook_error_deny(&out, why);
	}
	output_reply(&out, h->ev, h->sysmsg, h->opts->exit2, &r);
	if (why == NULL)
		buf_printf(&r.err, "reflexion-rules: no answer within the "
		    "deadline of %lu ms; allowing\n", h->opts->deadline_ms);
	else if (r.status != 2)	/* --exit2 has said it on stderr already */
		buf_printf(&r.err, "%s\n", why);
	watchdog_answer(r.out.data, r.out.len, r.err.data, r.err.len,
	    r.status);
	free(why);
	hook_reply_release(&r);
	eval_outcome_release(&out);
}

/* The decision so far as the answer at the deadline. */
static void
hold_decision(const struct hook_held *h, const struct eval_outcome *so_far)
{
	struct hook_reply	 r;
	size_t			 i;

	if (h->guarded) {
		for (i = 0; i < so_far->nfired; i++)
			if (so_far->fired[i].rule->action == ACT_DENY)
				break;
		if (i == so_far->nfired)
			return;
	}
	hook_reply_init(&r);
	buf_add(&r.err, h->reply->err.data, h->reply->err.len);
	hook_diag_lines(h->diags, &r.err);
	buf_add(&r.err, so_far->notes.data, so_far->notes.len);
	output_reply(so_far, h->ev, h->sysmsg, h->opts->exit2, &r);
	/* With --exit2, stderr of a block is the reason the model reads. */
	if (r.status != 2)
		buf_printf(&r.err, "reflexion-rules: the deadline of %lu ms "
		    "passed before every rule was evaluated; the decision "
		    "made by then stands\n", h->opts->deadline_ms);
	watchdog_answer(r.out.data, r.out.len, r.err.data, r.err.len,
	    r.status);
	hook_reply_release(&r);
}

/*
 * eval_event() found a deny or an ask before it was done: that decision
 * is the answer if the deadline passes during the rest of the rules.  An
 * ask does not replace the deny that a fail-closed file gives at the
 * deadline: a rule still to run might have denied.
 */
void
hook_hold_decision(void *arg, const struct eval_outcome *so_far)
{
	const struct hook_held	*h = arg;
	struct eval_outcome	 both;

	/* The files of a patch before this one count as much as it. */
	if (h->before != NULL && h->before->nfired > 0) {
		both = *so_far;
		both.nfired = h->before->nfired + so_far->nfired;
		both.fired = xreallocarray(NULL, both.nfired,
		    sizeof(*both.fired));
		memcpy(both.fired, h->before->fired, h->before->nfired *
		    sizeof(*both.fired));
		memcpy(both.fired + h->before->nfired, so_far->fired,
		    so_far->nfired * sizeof(*both.fired));
		hold_decision(h, &both);
		free(both.fired);	/* the texts stay theirs */
		return;
	}
	hold_decision(h, so_far);
}

/*
 * Makes the reply the answer at the deadline, before anything else runs:
 * recording and clean-up can delay a decision but never replace it.
 */
void
hook_hold_reply(const struct hook_reply *reply, const struct hook_opts *opts)
{
	struct buf	err;

	if (opts->deadline_ms == 0)
		return;
	buf_init(&err);
	buf_add(&err, reply->err.data, reply->err.len);
	/* With --exit2, stderr of a block is the reason the model reads. */
	if (reply->status != 2) {
		buf_adds(&err, "reflexion-rules: the deadline of ");
		buf_add_u64(&err, opts->deadline_ms, 0);
		buf_adds(&err, " ms passed after the decision was made; it "
		    "stands, and recording and clean-up were cut short\n");
	}
	watchdog_answer(reply->out.data, reply->out.len, err.data, err.len,
	    reply->status);
	buf_release(&err);
}

