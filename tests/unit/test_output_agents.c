/*
 * Each client's reply (output_agents.c): the bytes for the shapes the
 * clients were seen to honour (agent-protocols.md), and, for every
 * combination of what rules can fire on every event, that a reply is
 * nothing or one JSON object with only the keys that client documents.
 * Codex fails a hook that sends any other key and then runs the tool;
 * Cursor denies a permission step whose output is not one JSON object.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>

#include "agent.h"
#include "event.h"
#include "output.h"
#include "tap.h"
#include "xmalloc.h"

static const struct rule r_deny = { .id = "d", .action = ACT_DENY,
	.enabled = true };
static const struct rule r_ask = { .id = "a", .action = ACT_ASK,
	.enabled = true };
static const struct rule r_allow = { .id = "al", .action = ACT_ALLOW,
	.enabled = true };
static const struct rule r_ctx = { .id = "c", .action = ACT_CONTEXT,
	.enabled = true };
static const struct rule r_warn = { .id = "w", .action = ACT_WARN,
	.enabled = true };
static const struct rule r_suggest = { .id = "s", .action = ACT_SUGGEST,
	.skill = "sk", .enabled = true };

static const struct rule *const all_rules[] = {
	&r_deny, &r_ask, &r_allow, &r_ctx, &r_warn, &r_suggest
};
#define NRULES	(sizeof(all_rules) / sizeof(all_rules[0]))

/* An outcome of the rules whose bits are set in mask, texts "T<id>". */
static void
outcome(struct eval_outcome *o, unsigned mask, bool empty_texts)
{
	size_t	i;
	char	*t;

	eval_outcome_init(o);
	for (i = 0; i < NRULES; i++) {
		if (!(mask & (1u << i)))
			continue;
		o->fired = xreallocarray(o->fired, o->nfired + 1,
		    sizeof(*o->fired));
		t = empty_texts ? NULL : xasprintf("T%s", all_rules[i]->id);
		o->fired[o->nfired].rule = all_rules[i];
		o->fired[o->nfired].text = t;
		o->fired[o->nfired].len = t ? strlen(t) : 0;
		o->fired[o->nfired].path = NULL;
		o->nfired++;
	}
}

/* The event of json as agent's hook reads it (one, not a patch). */
static void
event_of(struct rr_event *ev, struct agent_mapped *m, const char *json,
    enum rr_agent agent, const char *event)
{
	agent_map(cJSON_Parse(json), agent, event, m);
	event_from_root(ev, m->events[0], "/p", m->agent);
	m->events[0] = NULL;
	if (m->agent != AGENT_CLAUDE)
		event_set_client(ev, m->client_event, m->client_tool);
}

struct got {
	char	*out, *err;
	int	 status;
};

static void
reply(struct got *g, const char *json, enum rr_agent agent,
    const char *event, unsigned mask, bool exit2, const char *sysmsg)
{
	struct agent_mapped	 m;
	struct rr_event		 ev;
	struct eval_outcome	 o;
	struct hook_reply	 r;

	event_of(&ev, &m, json, agent, event);
	outcome(&o, mask, false);
	hook_reply_init(&r);
	output_reply(&o, &ev, sysmsg, exit2, &r);
	g->out = buf_detach(&r.out, NULL);
	g->err = buf_detach(&r.err, NULL);
	g->status = r.status;
	hook_reply_release(&r);
	eval_outcome_release(&o);
	event_release(&ev);
	agent_mapped_release(&m);
}

static void
got_release(struct got *g)
{
	free(g->out);
	free(g->err);
}

#define M(r)	(1u << (r))
enum { DENY, ASK, ALLOW, CTX, WARN, SUGGEST };

static void
out_is(const char *json, enum rr_agent agent, const char *event,
    unsigned mask, const char *want, const char *what)
{
	struct got	g;

	reply(&g, json, agent, event, mask, false, NULL);
	is_str(g.out, want, "%s", what);
	got_release(&g);
}

#define G_PRE	"{\"hook_event_name\":\"BeforeTool\",\"tool_name\":" \
	"\"run_shell_command\",\"tool_input\":{\"command\":\"ls\"}}"
#define G_POST	"{\"hook_event_name\":\"AfterTool\",\"tool_name\":" \
	"\"run_shell_command\",\"tool_input\":{}}"
#define G_PROMPT "{\"hook_event_name\":\"BeforeAgent\",\"prompt\":\"p\"}"
#define G_STOP	"{\"hook_event_name\":\"AfterAgent\",\"prompt_response\":\"r\"}"
#define G_START	"{\"hook_event_name\":\"SessionStart\",\"source\":\"startup\"}"

static void
test_gemini(void)
{
	struct got	g;

	out_is(G_PRE, AGENT_GEMINI, NULL, M(DENY),
	    "{\"decision\":\"deny\",\"reason\":\"Td\"}\n",
	    "Gemini BeforeTool deny");
	out_is(G_PRE, AGENT_GEMINI, NULL, M(ASK),
	    "{\"decision\":\"deny\",\"reason\":\"Ta\\n\\n(reflexion-rules: this "
	    "rule asks for confirmation, which Gemini CLI cannot do here; "
	    "denied instead)\"}\n", "Gemini: ask is a deny that says so "
	    "(its ask hangs a -p run)");
	out_is(G_PRE, AGENT_GEMINI, NULL, M(ALLOW), "",
	    "Gemini: allow is what happens anyway: nothing");
	out_is(G_POST, AGENT_GEMINI, NULL, M(CTX),
	    "{\"hookSpecificOutput\":{\"hookEventName\":\"AfterTool\","
	    "\"additionalContext\":\"Tc\"}}\n",
	    "Gemini AfterTool context, under its own event name");
	out_is(G_PROMPT, AGENT_GEMINI, NULL, M(CTX) | M(WARN),
	    "{\"hookSpecificOutput\":{\"hookEventName\":\"BeforeAgent\","
	    "\"additionalContext\":\"Tc\"},\"systemMessage\":\"Tw\"}\n",
	    "Gemini BeforeAgent context and a warning");
	out_is(G_PROMPT, AGENT_GEMINI, NULL, M(DENY) | M(CTX),
	    "{\"decision\":\"deny\",\"reason\":\"Td\"}\n",
	    "Gemini BeforeAgent deny: the prompt is dropped, context moot");
	out_is(G_STOP, AGENT_GEMINI, NULL, M(DENY) | M(CTX),
	    "{\"decision\":\"deny\",\"reason\":\"Td\\n\\nTc\"}\n",
	    "Gemini AfterAgent: keep going with decision deny");
	out_is(G_START, AGENT_GEMINI, NULL, M(CTX),
	    "{\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\","
	    "\"additionalContext\":\"Tc\"}}\n", "Gemini SessionStart context");
	reply(&g, G_PRE, AGENT_GEMINI, NULL, M(DENY), true, NULL);
	ok(g.out[0] == '\0' && strcmp(g.err, "Td\n") == 0 && g.status == 2,
	    "Gemini --exit2: the reason on stderr, exit 2, nothing on stdout");
	got_release(&g);
}

#define C_PRE	"{\"turn_id\":\"t\",\"hook_event_name\":\"PreToolUse\"," \
	"\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}"
#define C_STOP	"{\"turn_id\":\"t\",\"hook_event_name\":\"Stop\"}"

static void
test_codex(void)
{
	struct got	g;

	out_is(C_PRE, AGENT_CODEX, NULL, M(DENY),
	    "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
	    "\"permissionDecision\":\"deny\",\"permissionDecisionReason\":"
	    "\"Td\"}}\n", "Codex PreToolUse deny, exactly as seen to work");
	out_is(C_PRE, AGENT_CODEX, NULL, M(ALLOW), "",
	    "Codex: an allow without updatedInput would fail the hook: nothing");
	out_is(C_PRE, AGENT_CODEX, NULL, M(ASK),
	    "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
	    "\"permissionDecision\":\"deny\",\"permissionDecisionReason\":"
	    "\"Ta\\n\\n(reflexion-rules: this rule asks for confirmation, "
	    "which Codex cannot do here; denied instead)\"}}\n",
	    "Codex: ask (unsupported) is a deny that says so");
	reply(&g, C_PRE, AGENT_CODEX, NULL, M(DENY) | M(WARN), false, NULL);
	ok(strcmp(g.out, "{\"hookSpecificOutput\":{\"hookEventName\":"
	    "\"PreToolUse\",\"permissionDecision\":\"deny\","
	    "\"permissionDecisionReason\":\"Td\"}}\n") == 0 &&
	    strcmp(g.err, "reflexion-rules: Tw\n") == 0,
	    "Codex: no systemMessage beside a deny; the warning on stderr");
	got_release(&g);
	out_is(C_PRE, AGENT_CODEX, NULL, M(WARN),
	    "{\"systemMessage\":\"Tw\"}\n", "Codex: a warning alone");
	out_is(C_STOP, AGENT_CODEX, NULL, M(DENY) | M(CTX),
	    "{\"decision\":\"block\",\"reason\":\"Td\\n\\nTc\"}\n",
	    "Codex Stop block");
	out_is(C_STOP, AGENT_CODEX, NULL, M(CTX), "",
	    "Codex Stop has no context field: nothing");
	reply(&g, C_PRE, AGENT_CODEX, NULL, M(DENY), true, NULL);
	ok(g.out[0] == '\0' && strcmp(g.err, "Td\n") == 0 && g.status == 2,
	    "Codex --exit2: the reason on stderr, exit 2");
	got_release(&g);
}

#define P_CAMEL	"{\"sessionId\":\"s\",\"toolName\":\"bash\",\"toolArgs\":{}}"
#define P_STOP	"{\"sessionId\":\"s\",\"stopReason\":\"end_turn\"}"
#define P_PROMPT "{\"sessionId\":\"s\",\"prompt\":\"p\"}"
#define P_POST	"{\"sessionId\":\"s\",\"toolName\":\"bash\",\"toolArgs\":{}," \
	"\"toolResult\":{}}"

static void
test_copilot(void)
{
	struct got	g;

	out_is(P_CAMEL, AGENT_COPILOT, NULL, M(DENY),
	    "{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":"
	    "\"Td\"}\n", "Copilot preToolUse deny: top-level keys");
	out_is(P_CAMEL, AGENT_COPILOT, NULL, M(ASK),
	    "{\"permissionDecision\":\"ask\",\"permissionDecisionReason\":"
	    "\"Ta\"}\n", "Copilot can ask (and denies by itself in -p)");
	out_is(P_CAMEL, AGENT_COPILOT, NULL, M(ALLOW),
	    "{\"permissionDecision\":\"allow\",\"permissionDecisionReason\":"
	    "\"Tal\"}\n", "Copilot allow, with its rule's message");
	out_is(P_PROMPT, AGENT_COPILOT, NULL, M(CTX),
	    "{\"additionalContext\":\"Tc\"}\n",
	    "Copilot prompt context: top-level additionalContext");
	out_is(P_PROMPT, AGENT_COPILOT, NULL, M(DENY),
	    "{\"responseContent\":\"Td\"}\n",
	    "Copilot prompt deny: answered, never sent to the model");
	out_is(P_STOP, AGENT_COPILOT, NULL, M(DENY),
	    "{\"decision\":\"block\",\"reason\":\"Td\"}\n", "Copilot agentStop");
	out_is(P_POST, AGENT_COPILOT, NULL, M(DENY) | M(CTX),
	    "{\"additionalContext\":\"Td\\n\\nTc\"}\n",
	    "Copilot postToolUse: a deny cannot undo the tool: context");
	reply(&g, P_CAMEL, AGENT_COPILOT, NULL, M(WARN), false, "broken");
	ok(g.out[0] == '\0' && strcmp(g.err, "reflexion-rules: Tw\n\n"
	    "broken\n") == 0, "Copilot has no field for warnings: stderr "
	    "has them");
	got_release(&g);
	reply(&g, P_CAMEL, AGENT_COPILOT, NULL, M(DENY), true, NULL);
	ok(g.out[0] == '\0' && strcmp(g.err, "Td\n") == 0 && g.status == 2,
	    "Copilot --exit2: exit 2 (Copilot then drops the reason)");
	got_release(&g);
}

#define U_PRE	"{\"hook_event_name\":\"preToolUse\",\"workspace_roots\":[\"/p\"]," \
	"\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"a\"}}"
#define U_SHELL	"{\"hook_event_name\":\"beforeShellExecution\"," \
	"\"workspace_roots\":[\"/p\"],\"command\":\"ls\"}"
#define U_READ	"{\"hook_event_name\":\"beforeReadFile\"," \
	"\"workspace_roots\":[\"/p\"],\"file_path\":\"a\"}"
#define U_PROMPT "{\"hook_event_name\":\"beforeSubmitPrompt\"," \
	"\"workspace_roots\":[\"/p\"],\"prompt\":\"p\"}"
#define U_STOP	"{\"hook_event_name\":\"stop\",\"workspace_roots\":[\"/p\"]," \
	"\"loop_count\":0}"

static void
test_cursor(void)
{
	struct got	g;

	out_is(U_PRE, AGENT_CURSOR, NULL, 0, "{}\n",
	    "Cursor permission step, no rule: {} (never empty, never text)");
	out_is(U_PRE, AGENT_CURSOR, NULL, M(DENY),
	    "{\"permission\":\"deny\",\"user_message\":\"Td\","
	    "\"agent_message\":\"Td\"}\n", "Cursor preToolUse deny");
	out_is(U_PRE, AGENT_CURSOR, NULL, M(ALLOW),
	    "{\"permission\":\"allow\"}\n", "Cursor allow");
	out_is(U_SHELL, AGENT_CURSOR, NULL, M(ASK),
	    "{\"permission\":\"ask\",\"user_message\":\"Ta\","
	    "\"agent_message\":\"Ta\"}\n",
	    "Cursor beforeShellExecution can ask");
	reply(&g, U_PRE, AGENT_CURSOR, NULL, M(ASK), false, NULL);
	ok(strncmp(g.out, "{\"permission\":\"deny\"", 20) == 0 &&
	    strstr(g.out, "which Cursor cannot do here") != NULL,
	    "Cursor preToolUse cannot: a deny that says so");
	got_release(&g);
	out_is(U_PRE, AGENT_CURSOR, NULL, M(CTX),
	    "{\"additional_context\":\"Tc\"}\n", "Cursor preToolUse context");
	out_is(U_READ, AGENT_CURSOR, NULL, M(CTX), "{}\n",
	    "Cursor beforeReadFile takes no context");
	out_is(U_PROMPT, AGENT_CURSOR, NULL, M(DENY),
	    "{\"continue\":false,\"user_message\":\"Td\"}\n",
	    "Cursor beforeSubmitPrompt deny");
	out_is(U_STOP, AGENT_CURSOR, NULL, M(DENY),
	    "{\"followup_message\":\"Td\"}\n", "Cursor stop keeps going");
	out_is(U_STOP, AGENT_CURSOR, NULL, M(CTX), "",
	    "Cursor stop: context alone never keeps the agent going");
	reply(&g, U_STOP, AGENT_CURSOR, NULL, M(DENY), true, NULL);
	ok(strcmp(g.out, "{\"followup_message\":\"Td\"}\n") == 0 &&
	    g.status == 0, "Cursor --exit2 at a stop: JSON (exit 2 does "
	    "nothing there)");
	got_release(&g);
	reply(&g, U_SHELL, AGENT_CURSOR, NULL, M(DENY), true, NULL);
	ok(g.out[0] == '\0' && g.status == 2, "Cursor --exit2 elsewhere: "
	    "exit 2, nothing on stdout");
	got_release(&g);
}

/* ---- every combination ------------------------------------------------- */

/* Whether every key of obj is in keys (NULL-ended); says the first other. */
static bool
keys_in(const cJSON *obj, const char *const *keys, const char **bad)
{
	const cJSON	*m;
	size_t		 i;

	cJSON_ArrayForEach(m, obj) {
		for (i = 0; keys[i] != NULL; i++)
			if (strcmp(m->string, keys[i]) == 0)
				break;
		if (keys[i] == NULL) {
			*bad = m->string;
			return false;
		}
	}
	return true;
}

static const char *
str(const cJSON *o, const char *k)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/*
 * What the client accepts of out (NULL: fine; else why not), for an
 * event whose client name is ev.
 */
typedef const char *check_fn(const cJSON *out, const char *ev);

static const char *
codex_check(const cJSON *o, const char *ev)
{
	static const char *const pre[] = { "hookSpecificOutput",
		"systemMessage", NULL };
	static const char *const post[] = { "decision", "reason",
		"hookSpecificOutput", "systemMessage", NULL };
	static const char *const stop[] = { "decision", "reason",
		"systemMessage", NULL };
	static const char *const start[] = { "hookSpecificOutput",
		"systemMessage", NULL };
	static const char *const hso_pre[] = { "hookEventName",
		"permissionDecision", "permissionDecisionReason",
		"additionalContext", NULL };
	static const char *const hso[] = { "hookEventName",
		"additionalContext", NULL };
	const cJSON	*h = cJSON_GetObjectItemCaseSensitive(o, "hookSpecificOutput");
	const char	*bad, *s;
	bool		 is_pre = strcmp(ev, "PreToolUse") == 0;

	if (!keys_in(o, is_pre ? pre : strcmp(ev, "Stop") == 0 ||
	    strcmp(ev, "SubagentStop") == 0 ? stop : strcmp(ev,
	    "SessionStart") == 0 ? start : post, &bad))
		return bad;
	if (h != NULL && (!keys_in(h, is_pre ? hso_pre : hso, &bad) ||
	    (s = str(h, "hookEventName")) == NULL || strcmp(s, ev) != 0))
		return "hookSpecificOutput";
	if (h != NULL && (s = str(h, "permissionDecision")) != NULL &&
	    (strcmp(s, "deny") != 0 || (s = str(h,
	    "permissionDecisionReason")) == NULL || *s == '\0'))
		return "permissionDecision other than deny, or no reason";
	if ((s = str(o, "decision")) != NULL && (strcmp(s, "block") != 0 ||
	    (s = str(o, "reason")) == NULL || *s == '\0'))
		return "decision other than block, or no reason";
	if (str(o, "reason") != NULL && str(o, "decision") == NULL)
		return "reason without decision";
	if (is_pre && str(o, "systemMessage") != NULL && h != NULL &&
	    str(h, "permissionDecision") != NULL)
		return "systemMessage beside a deny";
	return NULL;
}

static const char *
gemini_check(const cJSON *o, const char *ev)
{
	static const char *const top[] = { "decision", "reason",
		"hookSpecificOutput", "systemMessage", NULL };
	static const char *const hso[] = { "hookEventName",
		"additionalContext", NULL };
	const cJSON	*h = cJSON_GetObjectItemCaseSensitive(o, "hookSpecificOutput");
	const char	*bad, *s;

	(void)ev;
	if (!keys_in(o, top, &bad))
		return bad;
	if (h != NULL && !keys_in(h, hso, &bad))
		return bad;
	if ((s = str(o, "decision")) != NULL && strcmp(s, "deny") != 0)
		return "a decision other than deny (ask hangs a -p run)";
	return NULL;
}

static const char *
copilot_check(const cJSON *o, const char *ev)
{
	static const char *const top[] = { "permissionDecision",
		"permissionDecisionReason", "additionalContext", "decision",
		"reason", "responseContent", NULL };
	const char	*bad;

	(void)ev;
	if (!keys_in(o, top, &bad))
		return bad;
	if (str(o, "decision") != NULL && strcmp(str(o, "decision"),
	    "block") != 0)
		return "decision other than block";
	return NULL;
}

static const char *
cursor_check(const cJSON *o, const char *ev)
{
	static const char *const perm[] = { "permission", "user_message",
		"agent_message", "additional_context", NULL };
	static const char *const prompt[] = { "continue", "user_message",
		"additional_context", NULL };
	static const char *const stop[] = { "followup_message", NULL };
	static const char *const other[] = { "additional_context", NULL };
	const char	*bad, *s;

	if (!keys_in(o, strcmp(ev, "preToolUse") == 0 ||
	    strcmp(ev, "beforeShellExecution") == 0 ||
	    strcmp(ev, "beforeReadFile") == 0 ? perm :
	    strcmp(ev, "beforeSubmitPrompt") == 0 ? prompt :
	    strcmp(ev, "stop") == 0 ? stop : other, &bad))
		return bad;
	if ((s = str(o, "permission")) != NULL && strcmp(s, "allow") != 0 &&
	    strcmp(s, "deny") != 0 && (strcmp(s, "ask") != 0 ||
	    strcmp(ev, "beforeShellExecution") != 0))
		return "a permission this step cannot take";
	return NULL;
}

struct client_case {
	enum rr_agent	 agent;
	const char	*json;
	const char	*event;		/* the client's name */
	bool		 always;	/* a JSON object every time */
	check_fn	*check;
};

static const struct client_case cases[] = {
	{ AGENT_CODEX, C_PRE, "PreToolUse", false, codex_check },
	{ AGENT_CODEX, "{\"turn_id\":\"t\",\"hook_event_name\":\"PostToolUse\","
	    "\"tool_name\":\"Bash\",\"tool_input\":{}}", "PostToolUse", false,
	    codex_check },
	{ AGENT_CODEX, "{\"turn_id\":\"t\",\"hook_event_name\":"
	    "\"UserPromptSubmit\",\"prompt\":\"p\"}", "UserPromptSubmit", false,
	    codex_check },
	{ AGENT_CODEX, C_STOP, "Stop", false, codex_check },
	{ AGENT_CODEX, "{\"turn_id\":\"t\",\"hook_event_name\":"
	    "\"SubagentStop\"}", "SubagentStop", false, codex_check },
	{ AGENT_CODEX, "{\"turn_id\":\"t\",\"hook_event_name\":"
	    "\"SessionStart\"}", "SessionStart", false, codex_check },
	{ AGENT_GEMINI, G_PRE, "BeforeTool", false, gemini_check },
	{ AGENT_GEMINI, G_POST, "AfterTool", false, gemini_check },
	{ AGENT_GEMINI, G_PROMPT, "BeforeAgent", false, gemini_check },
	{ AGENT_GEMINI, G_STOP, "AfterAgent", false, gemini_check },
	{ AGENT_GEMINI, G_START, "SessionStart", false, gemini_check },
	{ AGENT_COPILOT, P_CAMEL, "preToolUse", false, copilot_check },
	{ AGENT_COPILOT, P_POST, "postToolUse", false, copilot_check },
	{ AGENT_COPILOT, P_PROMPT, "userPromptSubmitted", false,
	    copilot_check },
	{ AGENT_COPILOT, P_STOP, "agentStop", false, copilot_check },
	{ AGENT_CURSOR, U_PRE, "preToolUse", true, cursor_check },
	{ AGENT_CURSOR, U_SHELL, "beforeShellExecution", true, cursor_check },
	{ AGENT_CURSOR, U_READ, "beforeReadFile", true, cursor_check },
	{ AGENT_CURSOR, U_PROMPT, "beforeSubmitPrompt", false, cursor_check },
	{ AGENT_CURSOR, U_STOP, "stop", false, cursor_check },
};

/* Every mask of fired rules, texts or none, a system message or none. */
static void
test_every_combination(void)
{
	struct agent_mapped	 m;
	struct rr_event		 ev;
	struct eval_outcome	 o;
	struct hook_reply	 r;
	const struct client_case *c;
	cJSON			*j;
	const char		*why, *end;
	size_t			 i, n, bad;
	unsigned		 mask;
	int			 texts, sys;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		c = &cases[i];
		bad = n = 0;
		why = NULL;
		for (mask = 0; mask < (1u << NRULES); mask++)
		for (texts = 0; texts < 2; texts++)
		for (sys = 0; sys < 2; sys++) {
			event_of(&ev, &m, c->json, c->agent, NULL);
			outcome(&o, mask, texts == 0);
			hook_reply_init(&r);
			output_reply(&o, &ev, sys ? "broken rules" : NULL,
			    false, &r);
			n++;
			if (r.out.len == 0) {
				if (c->always) {
					bad++;
					why = "empty on a permission step";
				}
			} else if ((j = cJSON_ParseWithOpts(r.out.data, &end,
			    0)) == NULL || !cJSON_IsObject(j) ||
			    strcmp(end, "\n") != 0) {
				bad++;
				why = "not one JSON object and a newline";
				cJSON_Delete(j);
			} else {
				const char *w = c->check(j, c->event);
				if (w != NULL) {
					bad++;
					why = w;
				}
				cJSON_Delete(j);
			}
			if (r.status != 0) {
				bad++;
				why = "exit status not 0";
			}
			hook_reply_release(&r);
			eval_outcome_release(&o);
			event_release(&ev);
			agent_mapped_release(&m);
		}
		ok(bad == 0, "%s %s: %zu replies, each nothing or one object of "
		    "the keys it documents%s%s", agent_names[c->agent],
		    c->event, n, why ? "; not: " : "", why ? why : "");
	}
}

int
main(void)
{
	test_gemini();
	test_codex();
	test_copilot();
	test_cursor();
	test_every_combination();
	return done_testing();
}
