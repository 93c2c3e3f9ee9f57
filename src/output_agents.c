/*
 * The reply in each client's own protocol (reflexion-rules(1), AGENT PROTOCOLS),
 * from the texts output.c gathers.  Each writer sends only the keys its
 * client documents: Codex fails a hook that sends any other key and then
 * runs the tool, and Cursor denies a permission step whose output is not
 * one JSON object.  Where a client cannot ask (Codex; Gemini CLI, whose
 * ask hangs a headless run; Cursor but on its shell and MCP steps), an
 * ask is a deny whose reason says so.
 */
#include <string.h>

#include "jsonw.h"
#include "output.h"

#define ASK_AS_DENY	"(reflexion-rules: this rule asks for confirmation, " \
	"which %s cannot do here; denied instead)"
/* The reason when the deny rules said none: some clients need one. */
#define DENY_REASON	"Blocked by reflexion-rules"

/* An ask turned deny: its reason and a line that says so. */
static void
ask_to_deny(struct reply_texts *t, enum rr_agent agent)
{
	if (t->reason.len)
		buf_adds(&t->reason, "\n\n");
	buf_printf(&t->reason, ASK_AS_DENY, agent_titles[agent]);
	t->decision = "deny";
}

/* A deny's reason, never empty. */
static void
some_reason(struct buf *b)
{
	if (b->len == 0)
		buf_adds(b, DENY_REASON);
}

static bool
is_stop(enum rr_event_kind k)
{
	return k == EV_STOP || k == EV_SUBAGENT_STOP;
}

/* {"hookSpecificOutput":{"hookEventName":E,"additionalContext":C}} part. */
static void
hso_context(struct buf *j, bool *first, const char *event,
    const struct buf *ctx)
{
	bool	first_hso = false;

	if (!*first)
		buf_addc(j, ',');
	*first = false;
	buf_adds(j, "\"hookSpecificOutput\":{\"hookEventName\":");
	jsonw_cstring(j, event);
	reply_key(j, &first_hso, "additionalContext", ctx);
	buf_addc(j, '}');
}

/*
 * Warnings a client has no field for (or not beside a deny) go to
 * stderr, where its log keeps them: never lost.
 */
static void
warn_to_stderr(struct reply_texts *t, struct hook_reply *reply)
{
	if (t->warn.len == 0)
		return;
	buf_adds(&reply->err, "reflexion-rules: ");
	buf_add(&reply->err, t->warn.data, t->warn.len);
	if (t->warn.data[t->warn.len - 1] != '\n')
		buf_addc(&reply->err, '\n');
	buf_reset(&t->warn);
}

static void
emit(struct buf *j, struct hook_reply *reply)
{
	buf_adds(j, "}\n");
	buf_add(&reply->out, j->data, j->len);
}

/*
 * Gemini CLI: {"decision":"deny","reason":R} blocks a tool, a prompt,
 * and at AfterAgent keeps the agent going with R as its next prompt;
 * context in hookSpecificOutput; warnings as systemMessage.  Its
 * BeforeTool ignores context today (sent anyway: it is allowed).
 */
static void
output_gemini(struct reply_texts *t, const struct rr_event *ev,
    bool exit2, struct hook_reply *reply)
{
	struct buf	 j;
	bool		 first = true;
	enum rr_event_kind k = ev->kind;

	if (t->decision != NULL && strcmp(t->decision, "ask") == 0)
		ask_to_deny(t, AGENT_GEMINI);
	if (t->decision != NULL && strcmp(t->decision, "deny") == 0) {
		buf_add(&t->block, t->reason.data, t->reason.len);
		some_reason(&t->block);
	}
	if (t->block.len && is_stop(k))
		reply_fold(&t->block, &t->ctx);
	if (t->block.len && k == EV_USER_PROMPT_SUBMIT)
		buf_reset(&t->ctx);
	if (exit2 && t->block.len) {
		reply_exit2(t, &t->block, reply);
		return;
	}
	reply_cap(t, &t->block);
	reply_cap(t, &t->ctx);
	reply_cap(t, &t->warn);
	if (!t->block.len && !t->ctx.len && !t->warn.len)
		return;
	buf_init(&j);
	buf_addc(&j, '{');
	if (t->block.len) {
		buf_adds(&j, "\"decision\":\"deny\"");
		first = false;
		reply_key(&j, &first, "reason", &t->block);
	}
	if (t->ctx.len)
		hso_context(&j, &first, ev->client_event, &t->ctx);
	if (t->warn.len)
		reply_key(&j, &first, "systemMessage", &t->warn);
	emit(&j, reply);
	buf_release(&j);
}

/*
 * Codex: Claude Code's shapes with none of its extras.  PreToolUse
 * takes only deny (with a reason that is not empty) and context: an
 * allow without updatedInput or an ask fails the hook.  Stop takes
 * decision and reason only.  A systemMessage never goes with a deny.
 */
static void
output_codex(struct reply_texts *t, const struct rr_event *ev, bool exit2,
    struct hook_reply *reply)
{
	struct buf	 j;
	bool		 first = true, first_hso = true, deny;
	enum rr_event_kind k = ev->kind;

	if (t->decision != NULL && strcmp(t->decision, "ask") == 0)
		ask_to_deny(t, AGENT_CODEX);
	if (t->decision != NULL && strcmp(t->decision, "allow") == 0) {
		t->decision = NULL;	/* allowing is what happens anyway */
		buf_reset(&t->reason);
	}
	deny = t->decision != NULL;
	if (deny)
		some_reason(&t->reason);
	if (t->block.len && is_stop(k))
		reply_fold(&t->block, &t->ctx);
	if (is_stop(k))
		buf_reset(&t->ctx);	/* Stop has no context field */
	if (t->block.len && k == EV_USER_PROMPT_SUBMIT)
		buf_reset(&t->ctx);
	if (exit2 && (t->block.len || deny)) {
		reply_exit2(t, deny ? &t->reason : &t->block, reply);
		return;
	}
	if (k == EV_POST_TOOL_USE_FAILURE) {
		/* Codex has no such event: nothing it would accept. */
		return;
	}
	reply_cap(t, &t->block);
	reply_cap(t, &t->reason);
	reply_cap(t, &t->ctx);
	reply_cap(t, &t->warn);
	if (deny || t->block.len)
		warn_to_stderr(t, reply);
	if (!t->block.len && !deny && !t->ctx.len && !t->warn.len)
		return;
	buf_init(&j);
	buf_addc(&j, '{');
	if (t->block.len) {
		buf_adds(&j, "\"decision\":\"block\"");
		first = false;
		reply_key(&j, &first, "reason", &t->block);
	}
	if (deny || t->ctx.len) {
		if (!first)
			buf_addc(&j, ',');
		first = false;
		buf_adds(&j, "\"hookSpecificOutput\":{\"hookEventName\":");
		jsonw_cstring(&j, ev->event_name);
		first_hso = false;
		if (deny) {
			buf_adds(&j, ",\"permissionDecision\":\"deny\"");
			reply_key(&j, &first_hso, "permissionDecisionReason",
			    &t->reason);
		}
		if (t->ctx.len)
			reply_key(&j, &first_hso, "additionalContext",
			    &t->ctx);
		buf_addc(&j, '}');
	}
	if (t->warn.len)
		reply_key(&j, &first, "systemMessage", &t->warn);
	emit(&j, reply);
	buf_release(&j);
}

/*
 * Copilot CLI, both payload styles: top-level permissionDecision (allow,
 * deny, ask: it denies an ask itself when nobody can answer) and
 * additionalContext; a Stop block as decision and reason.  A tool that
 * has run cannot be blocked: a deny there is context.  A prompt cannot
 * be blocked either: a deny answers it (responseContent), so that it
 * never reaches the model.  Warnings have no field: stderr has them.
 */
static void
output_copilot(struct reply_texts *t, const struct rr_event *ev,
    bool exit2, struct hook_reply *reply)
{
	struct buf	 j;
	bool		 first = true;
	enum rr_event_kind k = ev->kind;

	if (t->decision != NULL && strcmp(t->decision, "allow") != 0)
		some_reason(&t->reason);
	if (t->block.len && is_stop(k))
		reply_fold(&t->block, &t->ctx);
	if (t->block.len && k == EV_USER_PROMPT_SUBMIT)
		buf_reset(&t->ctx);
	if (exit2 && (t->block.len || (t->decision != NULL &&
	    strcmp(t->decision, "deny") == 0))) {
		/* Copilot tells the model "hook exited with code 2" only. */
		reply_exit2(t, t->block.len ? &t->block : &t->reason, reply);
		return;
	}
	if (t->block.len && (k == EV_POST_TOOL_USE ||
	    k == EV_POST_TOOL_USE_FAILURE)) {
		reply_fold(&t->block, &t->ctx);
		buf_add(&t->ctx, t->block.data, t->block.len);
		buf_reset(&t->block);
	}
	warn_to_stderr(t, reply);
	reply_cap(t, &t->block);
	reply_cap(t, &t->reason);
	reply_cap(t, &t->ctx);
	if (!t->block.len && t->decision == NULL && !t->ctx.len)
		return;
	buf_init(&j);
	buf_addc(&j, '{');
	if (t->decision != NULL) {
		buf_printf(&j, "\"permissionDecision\":\"%s\"", t->decision);
		first = false;
		if (t->reason.len)
			reply_key(&j, &first, "permissionDecisionReason",
			    &t->reason);
	}
	if (t->block.len && is_stop(k)) {
		buf_adds(&j, "\"decision\":\"block\"");
		first = false;
		reply_key(&j, &first, "reason", &t->block);
	} else if (t->block.len)
		reply_key(&j, &first, "responseContent", &t->block);
	if (t->ctx.len)
		reply_key(&j, &first, "additionalContext", &t->ctx);
	emit(&j, reply);
	buf_release(&j);
}

/* Cursor's steps that decide on a permission, and those that can ask. */
static bool
cursor_permission(const char *ev)
{
	return strcmp(ev, "preToolUse") == 0 ||
	    strcmp(ev, "beforeShellExecution") == 0 ||
	    strcmp(ev, "beforeMCPExecution") == 0 ||
	    strcmp(ev, "beforeReadFile") == 0;
}

static bool
cursor_can_ask(const char *ev)
{
	return strcmp(ev, "beforeShellExecution") == 0 ||
	    strcmp(ev, "beforeMCPExecution") == 0;
}

/*
 * Cursor: a permission step always gets one JSON object, {} when the
 * rules have no word (empty output is a failed hook, a deny where the
 * registration says failClosed); permission with user_message and
 * agent_message; additional_context; beforeSubmitPrompt stops with
 * continue: false; stop keeps going with followup_message.
 */
static void
output_cursor(struct reply_texts *t, const struct rr_event *ev, bool exit2,
    struct hook_reply *reply)
{
	struct buf	 j;
	bool		 first = true, permission;
	enum rr_event_kind k = ev->kind;

	permission = cursor_permission(ev->client_event);
	if (t->decision != NULL && strcmp(t->decision, "ask") == 0 &&
	    !cursor_can_ask(ev->client_event))
		ask_to_deny(t, AGENT_CURSOR);
	if (t->decision != NULL && strcmp(t->decision, "allow") != 0)
		some_reason(&t->reason);
	if (is_stop(k)) {
		/* Context alone must not keep the agent going. */
		if (t->block.len)
			reply_fold(&t->block, &t->ctx);
		buf_reset(&t->ctx);
		/* Its exit 2 does nothing at a stop: followup_message. */
		exit2 = false;
	}
	if (t->block.len && k == EV_USER_PROMPT_SUBMIT)
		buf_reset(&t->ctx);
	if (exit2 && (t->block.len || (t->decision != NULL &&
	    strcmp(t->decision, "deny") == 0))) {
		reply_exit2(t, t->block.len ? &t->block : &t->reason, reply);
		return;
	}
	if (t->block.len && !is_stop(k) && k != EV_USER_PROMPT_SUBMIT) {
		/* After the tool: the model reads it as context. */
		reply_fold(&t->block, &t->ctx);
		buf_add(&t->ctx, t->block.data, t->block.len);
		buf_reset(&t->block);
	}
	warn_to_stderr(t, reply);
	reply_cap(t, &t->block);
	reply_cap(t, &t->reason);
	reply_cap(t, &t->ctx);
	if (!permission && !t->block.len && !t->ctx.len)
		return;
	buf_init(&j);
	buf_addc(&j, '{');
	if (permission && t->decision != NULL) {
		buf_printf(&j, "\"permission\":\"%s\"", t->decision);
		first = false;
		if (strcmp(t->decision, "allow") != 0) {
			reply_key(&j, &first, "user_message", &t->reason);
			reply_key(&j, &first, "agent_message", &t->reason);
		}
	}
	if (t->block.len && is_stop(k))
		reply_key(&j, &first, "followup_message", &t->block);
	else if (t->block.len) {
		buf_adds(&j, first ? "" : ",");
		buf_adds(&j, "\"continue\":false");
		first = false;
		reply_key(&j, &first, "user_message", &t->block);
	}
	if (t->ctx.len && strcmp(ev->client_event, "beforeReadFile") != 0)
		reply_key(&j, &first, "additional_context", &t->ctx);
	emit(&j, reply);
	buf_release(&j);
}

void
output_reply(const struct eval_outcome *o, const struct rr_event *ev,
    const char *system_message, bool exit2, struct hook_reply *reply)
{
	struct reply_texts	t;

	if (ev->agent == AGENT_CLAUDE || ev->agent == AGENT_AUTO) {
		output_claude(o, ev, system_message, exit2, reply);
		return;
	}
	reply_texts_gather(&t, o, ev->kind, system_message);
	switch (ev->agent) {
	case AGENT_GEMINI:
		output_gemini(&t, ev, exit2, reply);
		break;
	case AGENT_CODEX:
		output_codex(&t, ev, exit2, reply);
		break;
	case AGENT_COPILOT:
		output_copilot(&t, ev, exit2, reply);
		break;
	case AGENT_CURSOR:
		output_cursor(&t, ev, exit2, reply);
		break;
	default:
		break;
	}
	reply_texts_release(&t);
}

void
output_error_deny(enum rr_agent agent, const char *reason, bool exit2,
    struct hook_reply *reply)
{
	struct buf	j;

	if (agent != AGENT_COPILOT || exit2) {
		buf_printf(&reply->err, "%s\n", reason);
		reply->status = 2;
		return;
	}
	buf_init(&j);
	buf_adds(&j, "{\"permissionDecision\":\"deny\","
	    "\"permissionDecisionReason\":");
	jsonw_cstring(&j, reason);
	buf_adds(&j, "}\n");
	buf_add(&reply->out, j.data, j.len);
	buf_release(&j);
	/* The user's log says it too, as with every other client. */
	buf_printf(&reply->err, "%s\n", reason);
}
