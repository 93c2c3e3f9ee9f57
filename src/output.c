#include <string.h>

#include "jsonw.h"
#include "output.h"

#define TRUNCATED_NOTE	"\n[truncated by reflexion-rules]"

void
hook_reply_init(struct hook_reply *r)
{
	buf_init(&r->out);
	buf_init(&r->err);
	r->status = 0;
}

void
hook_reply_release(struct hook_reply *r)
{
	buf_release(&r->out);
	buf_release(&r->err);
}

/*
 * Ends b with one blank line before the next text: a message that already
 * ends in a newline (a YAML block scalar) does not get two blank lines.
 */
static void
add_blank_line(struct buf *b)
{
	size_t	nl = 0;

	while (nl < 2 && nl < b->len && b->data[b->len - 1 - nl] == '\n')
		nl++;
	buf_add(b, "\n\n", 2 - nl);
}

/* Joins the texts of fired rules with one action, blank line between. */
static void
join_texts(const struct eval_outcome *o, enum rr_action act, struct buf *b)
{
	size_t	i;

	for (i = 0; i < o->nfired; i++) {
		if (o->fired[i].rule->action != act || o->fired[i].text == NULL)
			continue;
		if (b->len)
			add_blank_line(b);
		buf_add(b, o->fired[i].text, o->fired[i].len);
	}
}

static bool
any_fired(const struct eval_outcome *o, enum rr_action act)
{
	size_t	i;

	for (i = 0; i < o->nfired; i++)
		if (o->fired[i].rule->action == act)
			return true;
	return false;
}

/*
 * Byte for byte what diet103's skill-activation-prompt.ts builds (its
 * console.log adds one more newline, which Claude Code trims anyway).
 */
void
output_skill_banner(const struct eval_outcome *o, struct buf *b)
{
	static const char *const heads[PRI__COUNT] = {
		"\xe2\x9a\xa0\xef\xb8\x8f CRITICAL SKILLS (REQUIRED):\n",
		"\xf0\x9f\x93\x9a RECOMMENDED SKILLS:\n",
		"\xf0\x9f\x92\xa1 SUGGESTED SKILLS:\n",
		"\xf0\x9f\x93\x8c OPTIONAL SKILLS:\n",
	};
	static const char rule_line[] =
	    "\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81"
	    "\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81"
	    "\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81"
	    "\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81"
	    "\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81"
	    "\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81"
	    "\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81"
	    "\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\n";
	const struct rule	*r;
	size_t			 i, j;
	int			 p, any = 0, seen;

	if (!any_fired(o, ACT_SUGGEST))
		return;
	buf_adds(b, rule_line);
	buf_adds(b, "\xf0\x9f\x8e\xaf SKILL ACTIVATION CHECK\n");
	buf_adds(b, rule_line);
	buf_addc(b, '\n');
	for (p = 0; p < PRI__COUNT; p++) {
		any = 0;
		for (i = 0; i < o->nfired; i++) {
			r = o->fired[i].rule;
			if (r->action != ACT_SUGGEST || (int)r->priority != p)
				continue;
			/* One line per skill, even if several rules name it. */
			for (seen = 0, j = 0; j < i && !seen; j++)
				seen = o->fired[j].rule->action == ACT_SUGGEST &&
				    strcmp(o->fired[j].rule->skill, r->skill) == 0;
			if (seen)
				continue;
			if (!any)
				buf_adds(b, heads[p]);
			any = 1;
			buf_adds(b, "  \xe2\x86\x92 ");
			buf_adds(b, r->skill);
			buf_addc(b, '\n');
		}
		if (any)
			buf_addc(b, '\n');
	}
	buf_adds(b, "ACTION: Use Skill tool BEFORE responding\n");
	buf_adds(b, rule_line);
}

/* Cuts b to what is left of the budget, on a character boundary. */
static void
cap_text(struct buf *b, size_t *budget)
{
	size_t	chars = utf8_count(b->data, b->len), note, keep;

	if (chars <= *budget) {
		*budget -= chars;
		return;
	}
	note = strlen(TRUNCATED_NOTE);
	keep = *budget > note ? *budget - note : 0;
	buf_truncate(b, utf8_prefix(b->data, b->len, keep));
	if (*budget > note)
		buf_adds(b, TRUNCATED_NOTE);
	*budget = 0;
}

static void
key_string(struct buf *o, bool *first, const char *key, const struct buf *v)
{
	if (!*first)
		buf_addc(o, ',');
	*first = false;
	jsonw_cstring(o, key);
	buf_addc(o, ':');
	jsonw_string(o, v->data, v->len);
}

void
output_claude(const struct eval_outcome *o, const struct rr_event *ev,
    const char *system_message, bool exit2, struct hook_reply *reply)
{
	struct buf	 block, ctx, warn, decision_reason, j;
	const char	*decision = NULL;
	bool		 first = true, first_hso = true, can_block;
	size_t		 budget = OUTPUT_TEXT_CAP;
	enum rr_event_kind k = ev->kind;

	buf_init(&block);
	buf_init(&ctx);
	buf_init(&warn);
	buf_init(&decision_reason);
	buf_init(&j);

	join_texts(o, ACT_DENY, &block);
	join_texts(o, ACT_CONTEXT, &ctx);
	if (any_fired(o, ACT_SUGGEST)) {
		if (ctx.len)
			add_blank_line(&ctx);
		output_skill_banner(o, &ctx);
	}
	join_texts(o, ACT_WARN, &warn);
	if (system_message != NULL) {
		if (warn.len)
			add_blank_line(&warn);
		buf_adds(&warn, system_message);
	}
	can_block = k == EV_PRE_TOOL_USE || k == EV_POST_TOOL_USE ||
	    k == EV_USER_PROMPT_SUBMIT || k == EV_STOP || k == EV_SUBAGENT_STOP;
	if (!can_block)
		buf_reset(&block);

	if (k == EV_PRE_TOOL_USE) {
		if (any_fired(o, ACT_DENY)) {
			decision = "deny";
			buf_add(&decision_reason, block.data, block.len);
		} else if (any_fired(o, ACT_ASK)) {
			decision = "ask";
			join_texts(o, ACT_ASK, &decision_reason);
		} else if (any_fired(o, ACT_ALLOW)) {
			decision = "allow";
			join_texts(o, ACT_ALLOW, &decision_reason);
		}
		buf_reset(&block);
	}
	if (block.len && (k == EV_STOP || k == EV_SUBAGENT_STOP) && ctx.len) {
		/* Older clients reject hookSpecificOutput on Stop: fold it in. */
		add_blank_line(&block);
		buf_add(&block, ctx.data, ctx.len);
		buf_reset(&ctx);
	}
	if (block.len && k == EV_USER_PROMPT_SUBMIT)
		buf_reset(&ctx);	/* the prompt is erased; context is moot */

	if (exit2 && (block.len || (decision && !strcmp(decision, "deny")))) {
		struct buf *why = block.len ? &block : &decision_reason;
		cap_text(why, &budget);
		buf_add(&reply->err, why->data, why->len);
		buf_addc(&reply->err, '\n');
		reply->status = 2;
		goto out;
	}

	cap_text(&block, &budget);
	cap_text(&decision_reason, &budget);
	cap_text(&ctx, &budget);
	cap_text(&warn, &budget);
	if (!block.len && !decision && !ctx.len && !warn.len)
		goto out;

	buf_addc(&j, '{');
	if (block.len) {
		buf_adds(&j, "\"decision\":\"block\",\"reason\":");
		jsonw_string(&j, block.data, block.len);
		first = false;
	}
	if (decision || ctx.len) {
		if (!first)
			buf_addc(&j, ',');
		first = false;
		buf_adds(&j, "\"hookSpecificOutput\":{\"hookEventName\":");
		jsonw_cstring(&j, ev->event_name);
		first_hso = false;
		if (decision) {
			buf_adds(&j, ",\"permissionDecision\":\"");
			buf_adds(&j, decision);
			buf_addc(&j, '"');
			if (decision_reason.len)
				key_string(&j, &first_hso,
				    "permissionDecisionReason",
				    &decision_reason);
		}
		if (ctx.len)
			key_string(&j, &first_hso, "additionalContext", &ctx);
		buf_addc(&j, '}');
	}
	if (warn.len)
		key_string(&j, &first, "systemMessage", &warn);
	buf_adds(&j, "}\n");
	buf_add(&reply->out, j.data, j.len);
out:
	buf_release(&block);
	buf_release(&ctx);
	buf_release(&warn);
	buf_release(&decision_reason);
	buf_release(&j);
}
