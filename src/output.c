#include <stdlib.h>
#include <string.h>

#include "jsonw.h"
#include "output.h"
#include "template.h"
#include "xmalloc.h"

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
 * The default banner: byte for byte what diet103's
 * skill-activation-prompt.ts builds (its console.log adds one more
 * newline, which Claude Code trims anyway).  A rule file replaces it with
 * its own `banner:` (reflexion-rules(5)); the wording is a template, not
 * code.
 */
#define BANNER_RULE \
	"\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81" \
	"\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81" \
	"\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81" \
	"\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81" \
	"\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81" \
	"\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81" \
	"\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81" \
	"\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\n"
#define BANNER_ARROW	"\n  \xe2\x86\x92 "
#define BANNER_GROUP(name, head) \
	"{{#" name "}}" head BANNER_ARROW "{{" name " | join: " \
	"\"\\n  \xe2\x86\x92 \"}}\n\n{{/" name "}}"
#define BANNER_HEAD \
	BANNER_RULE \
	"\xf0\x9f\x8e\xaf SKILL ACTIVATION CHECK\n" \
	BANNER_RULE \
	"\n"
#define BANNER_CRITICAL	"\xe2\x9a\xa0\xef\xb8\x8f CRITICAL SKILLS (REQUIRED):"
#define BANNER_HIGH	"\xf0\x9f\x93\x9a RECOMMENDED SKILLS:"
#define BANNER_MEDIUM	"\xf0\x9f\x92\xa1 SUGGESTED SKILLS:"
#define BANNER_LOW	"\xf0\x9f\x93\x8c OPTIONAL SKILLS:"
#define BANNER_TAIL \
	"ACTION: Use Skill tool BEFORE responding\n" \
	BANNER_RULE

const char output_default_banner[] =
	BANNER_HEAD
	BANNER_GROUP("critical", BANNER_CRITICAL)
	BANNER_GROUP("high", BANNER_HIGH)
	BANNER_GROUP("medium", BANNER_MEDIUM)
	BANNER_GROUP("low", BANNER_LOW)
	BANNER_TAIL;

/*
 * The default banner as tpl_compile_banner() makes it from the text
 * above, put together from the same pieces: compiling it cost every call
 * that suggests a skill ~20 K instructions (a tenth of what the hook
 * spends above the floor).  Filled in by code on first use, not written
 * as initialized data: pointers in data are relocated at every start,
 * and the page they land on is copied for every call.  test_output.c
 * checks that the two agree, segment by segment.
 */
static struct tpl_seg	banner_segs[6];
static struct tpl_seg	banner_group_segs[4][3];
static struct template	banner_groups[4];
static struct template	banner_compiled;

static void
banner_text(struct tpl_seg *seg, const char *text, size_t len)
{
	seg->kind = TPL_LITERAL;
	seg->text = text;
	seg->len = len;
	seg->var = V__COUNT;
}

/* Group i: {{#v}}HEAD -> {{v | join: "\n  -> "}}\n\n{{/v}}. */
static void
banner_group(int i, enum tpl_var v, const char *head, size_t len)
{
	struct tpl_seg	*body = banner_group_segs[i];

	banner_text(&body[0], head, len);
	body[1].kind = TPL_VAR;
	body[1].var = v;
	body[1].section = SEC_VAR;
	body[1].sep = BANNER_ARROW;
	body[1].seplen = sizeof(BANNER_ARROW) - 1;
	banner_text(&body[2], "\n\n", 2);
	banner_groups[i].segs = body;
	banner_groups[i].n = 3;
	banner_groups[i].src = output_default_banner;
	banner_segs[1 + i].kind = TPL_SECTION;
	banner_segs[1 + i].var = v;
	banner_segs[1 + i].section = SEC_VAR;
	banner_segs[1 + i].body = &banner_groups[i];
}

#define BANNER_GROUP_SEGS(i, v, head) \
	banner_group(i, v, head BANNER_ARROW, sizeof(head BANNER_ARROW) - 1)

const struct template *
output_default_banner_template(void)
{
	if (banner_compiled.segs != NULL)
		return &banner_compiled;
	banner_text(&banner_segs[0], BANNER_HEAD, sizeof(BANNER_HEAD) - 1);
	BANNER_GROUP_SEGS(0, V_CRITICAL, BANNER_CRITICAL);
	BANNER_GROUP_SEGS(1, V_HIGH, BANNER_HIGH);
	BANNER_GROUP_SEGS(2, V_MEDIUM, BANNER_MEDIUM);
	BANNER_GROUP_SEGS(3, V_LOW, BANNER_LOW);
	banner_text(&banner_segs[5], BANNER_TAIL, sizeof(BANNER_TAIL) - 1);
	banner_compiled.n = 6;
	banner_compiled.src = output_default_banner;
	banner_compiled.segs = banner_segs;
	return &banner_compiled;
}

void
output_skill_banner(const struct eval_outcome *o, struct buf *b)
{
	const struct template	*banner = NULL;
	const struct rule	*r;
	struct tpl_ctx		 tc;
	const char		**names[PRI__COUNT];
	size_t			 i, j, n[PRI__COUNT];
	bool			 seen;
	int			 p;

	if (!any_fired(o, ACT_SUGGEST))
		return;
	memset(&tc, 0, sizeof(tc));
	for (p = 0; p < PRI__COUNT; p++) {
		names[p] = xcalloc(o->nfired, sizeof(*names[p]));
		n[p] = 0;
	}
	for (i = 0; i < o->nfired; i++) {
		r = o->fired[i].rule;
		if (r->action != ACT_SUGGEST)
			continue;
		/* The first suggestion's file says how the banner reads. */
		if (banner == NULL)
			banner = r->banner ? rule_text_for(r->banner, r->banners,
			    r->nbanners, o->lang) :
			    output_default_banner_template();
		/* One line per skill, even if several rules name it. */
		seen = false;
		for (p = 0; p < PRI__COUNT && !seen; p++)
			for (j = 0; j < n[p] && !seen; j++)
				seen = strcmp(names[p][j], r->skill) == 0;
		p = (int)r->priority;
		if (!seen)
			names[p][n[p]++] = r->skill;
	}
	for (p = 0; p < PRI__COUNT && p < TPL_BANNER_LISTS; p++) {
		tc.skills[p] = names[p];
		tc.nskills[p] = n[p];
	}
	tpl_render(banner, &tc, b);
	for (p = 0; p < PRI__COUNT; p++)
		free(names[p]);
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
reply_texts_gather(struct reply_texts *t, const struct eval_outcome *o,
    enum rr_event_kind k, const char *system_message)
{
	bool	can_block;

	buf_init(&t->block);
	buf_init(&t->reason);
	buf_init(&t->ctx);
	buf_init(&t->warn);
	t->decision = NULL;
	t->budget = OUTPUT_TEXT_CAP;
	join_texts(o, ACT_DENY, &t->block);
	join_texts(o, ACT_CONTEXT, &t->ctx);
	if (any_fired(o, ACT_SUGGEST)) {
		if (t->ctx.len)
			add_blank_line(&t->ctx);
		output_skill_banner(o, &t->ctx);
	}
	join_texts(o, ACT_WARN, &t->warn);
	if (system_message != NULL) {
		if (t->warn.len)
			add_blank_line(&t->warn);
		buf_adds(&t->warn, system_message);
	}
	can_block = k == EV_PRE_TOOL_USE || k == EV_POST_TOOL_USE ||
	    k == EV_USER_PROMPT_SUBMIT || k == EV_STOP || k == EV_SUBAGENT_STOP;
	if (!can_block)
		buf_reset(&t->block);
	if (k == EV_PRE_TOOL_USE) {
		if (any_fired(o, ACT_DENY)) {
			t->decision = "deny";
			buf_add(&t->reason, t->block.data, t->block.len);
		} else if (any_fired(o, ACT_ASK)) {
			t->decision = "ask";
			join_texts(o, ACT_ASK, &t->reason);
		} else if (any_fired(o, ACT_ALLOW)) {
			t->decision = "allow";
			join_texts(o, ACT_ALLOW, &t->reason);
		}
		buf_reset(&t->block);
	}
}

void
reply_texts_release(struct reply_texts *t)
{
	buf_release(&t->block);
	buf_release(&t->reason);
	buf_release(&t->ctx);
	buf_release(&t->warn);
}

void
reply_fold(struct buf *into, struct buf *from)
{
	if (!from->len)
		return;
	if (into->len)
		add_blank_line(into);
	buf_add(into, from->data, from->len);
	buf_reset(from);
}

void
reply_cap(struct reply_texts *t, struct buf *b)
{
	cap_text(b, &t->budget);
}

void
reply_key(struct buf *o, bool *first, const char *key, const struct buf *v)
{
	key_string(o, first, key, v);
}

void
reply_exit2(struct reply_texts *t, struct buf *why, struct hook_reply *reply)
{
	cap_text(why, &t->budget);
	buf_add(&reply->err, why->data, why->len);
	/* One line end: a message that has one (a YAML block) gets no more. */
	if (why->len == 0 || why->data[why->len - 1] != '\n')
		buf_addc(&reply->err, '\n');
	reply->status = 2;
}

void
output_claude(const struct eval_outcome *o, const struct rr_event *ev,
    const char *system_message, bool exit2, struct hook_reply *reply)
{
	struct reply_texts	 t;
	struct buf		 j;
	bool			 first = true, first_hso = true;
	enum rr_event_kind	 k = ev->kind;

	reply_texts_gather(&t, o, k, system_message);
	buf_init(&j);
	if (t.block.len && (k == EV_STOP || k == EV_SUBAGENT_STOP))
		/* Older clients reject hookSpecificOutput on Stop: fold it in. */
		reply_fold(&t.block, &t.ctx);
	if (t.block.len && k == EV_USER_PROMPT_SUBMIT)
		buf_reset(&t.ctx);	/* the prompt is erased; context is moot */

	if (exit2 && (t.block.len || (t.decision &&
	    !strcmp(t.decision, "deny")))) {
		reply_exit2(&t, t.block.len ? &t.block : &t.reason, reply);
		goto out;
	}

	cap_text(&t.block, &t.budget);
	cap_text(&t.reason, &t.budget);
	cap_text(&t.ctx, &t.budget);
	cap_text(&t.warn, &t.budget);
	if (!t.block.len && !t.decision && !t.ctx.len && !t.warn.len)
		goto out;

	buf_addc(&j, '{');
	if (t.block.len) {
		buf_adds(&j, "\"decision\":\"block\",\"reason\":");
		jsonw_string(&j, t.block.data, t.block.len);
		first = false;
	}
	if (t.decision || t.ctx.len) {
		if (!first)
			buf_addc(&j, ',');
		first = false;
		buf_adds(&j, "\"hookSpecificOutput\":{\"hookEventName\":");
		jsonw_cstring(&j, ev->event_name);
		first_hso = false;
		if (t.decision) {
			buf_adds(&j, ",\"permissionDecision\":\"");
			buf_adds(&j, t.decision);
			buf_addc(&j, '"');
			if (t.reason.len)
				key_string(&j, &first_hso,
				    "permissionDecisionReason", &t.reason);
		}
		if (t.ctx.len)
			key_string(&j, &first_hso, "additionalContext", &t.ctx);
		buf_addc(&j, '}');
	}
	if (t.warn.len)
		key_string(&j, &first, "systemMessage", &t.warn);
	buf_adds(&j, "}\n");
	buf_add(&reply->out, j.data, j.len);
out:
	reply_texts_release(&t);
	buf_release(&j);
}
