/*
 * Which client sent an event, and the event in canonical names (see
 * agent.h).  What each client calls things is in agent_tab.c; this file
 * only applies those tables, and splits a Codex patch into its files.
 *
 * Names are added beside the client's, never in its place, except the
 * event and the tool: hook_event_name and tool_name become canonical
 * (rules test them), and the client's names are kept in agent_mapped.
 * A key is added as a reference to the client's value, so a 10 MB
 * content is not copied.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "agent_priv.h"
#include "applypatch.h"
#include "xmalloc.h"

const char *const agent_names[AGENT__COUNT] = {
	[AGENT_AUTO] = "auto",
	[AGENT_CLAUDE] = "claude",
	[AGENT_GEMINI] = "gemini",
	[AGENT_CODEX] = "codex",
	[AGENT_COPILOT] = "copilot",
	[AGENT_CURSOR] = "cursor",
};

const char *const agent_titles[AGENT__COUNT] = {
	[AGENT_AUTO] = "the client of the event",
	[AGENT_CLAUDE] = "Claude Code",
	[AGENT_GEMINI] = "Gemini CLI",
	[AGENT_CODEX] = "Codex",
	[AGENT_COPILOT] = "Copilot CLI",
	[AGENT_CURSOR] = "Cursor",
};

int
agent_from_name(const char *name)
{
	int	i;

	for (i = 0; i < AGENT__COUNT; i++)
		if (strcmp(agent_names[i], name) == 0)
			return i;
	return -1;
}

const char *
agent_canonical_tool(const char *name, enum rr_agent *agent)
{
	const struct agent_tool	*tt;
	int			 a;

	for (a = AGENT_CLAUDE; a < AGENT__COUNT; a++)
		for (tt = agent_tables[a].tools; tt->client != NULL; tt++)
			if (tt->canon != NULL &&
			    strcmp(tt->canon, tt->client) != 0 &&
			    strcmp(tt->client, name) == 0) {
				*agent = (enum rr_agent)a;
				return tt->canon;
			}
	return NULL;
}

static cJSON *
must(cJSON *item)
{
	if (item == NULL)
		out_of_memory(0);
	return item;
}

static const char *
get_string(const cJSON *obj, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(v) && v->valuestring != NULL ? v->valuestring :
	    NULL;
}

/* Gemini's own event names; SessionStart and the like it shares. */
static bool
gemini_only(const char *ev)
{
	static const char *const names[] = {
		"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent",
		"BeforeModel", "AfterModel", "BeforeToolSelection",
		"PreCompress", NULL
	};
	size_t	i;

	for (i = 0; names[i] != NULL; i++)
		if (strcmp(names[i], ev) == 0)
			return true;
	return false;
}

static const struct agent_event *
find_event(const struct agent_table *t, const char *name)
{
	const struct agent_event	*e;

	for (e = t->events; e->client != NULL; e++)
		if (strcmp(e->client, name) == 0)
			return e;
	return NULL;
}

/*
 * The marks, tried in this order (reflexion-rules(1), AGENT PROTOCOLS):
 * cursor_version or workspace_roots: Cursor; no hook_event_name but
 * camelCase fields: Copilot; one of Gemini's own event names: Gemini; a
 * camelCase event name: Cursor; turn_id, or an apply_patch: Codex; an
 * ISO timestamp: Copilot's PascalCase payloads (Gemini's on the session
 * events it shares with them, which carry a transcript_path); anything
 * else: Claude Code.  One pass over the top-level keys.
 */
enum rr_agent
agent_detect(const cJSON *root, const char **why)
{
	const cJSON	*m, *ts = NULL;
	const char	*ev = NULL, *tool = NULL, *k;
	bool		 cursor = false, camel = false, turn = false;
	bool		 transcript = false;

	/* On the hot path: one strcmp per key at most, mostly none. */
	cJSON_ArrayForEach(m, root) {
		if ((k = m->string) == NULL)
			continue;
		switch (k[0]) {
		case 'c':
			cursor |= strcmp(k, "cursor_version") == 0;
			break;
		case 'h':
			if (strcmp(k, "hook_event_name") == 0 &&
			    cJSON_IsString(m))
				ev = m->valuestring;
			break;
		case 's':
			camel |= strcmp(k, "sessionId") == 0;
			break;
		case 't':
			if (k[1] == 'o' && strcmp(k, "tool_name") == 0 &&
			    cJSON_IsString(m))
				tool = m->valuestring;
			else if (k[1] == 'o')
				camel |= strcmp(k, "toolName") == 0 ||
				    strcmp(k, "toolArgs") == 0;
			else if (k[1] == 'i' && strcmp(k, "timestamp") == 0)
				ts = m;
			else if (k[1] == 'r')
				transcript |= strcmp(k, "transcript_path") == 0;
			else if (k[1] == 'u')
				turn |= strcmp(k, "turn_id") == 0;
			break;
		case 'w':
			cursor |= strcmp(k, "workspace_roots") == 0;
			break;
		default:
			break;
		}
	}
	if (cursor) {
		*why = "cursor_version or workspace_roots";
		return AGENT_CURSOR;
	}
	if (ev == NULL) {
		*why = camel ? "sessionId, toolName or toolArgs" :
		    "no hook_event_name and no mark of another client";
		return camel ? AGENT_COPILOT : AGENT_CLAUDE;
	}
	if (gemini_only(ev)) {
		*why = "a Gemini CLI event name";
		return AGENT_GEMINI;
	}
	if (ev[0] >= 'a' && ev[0] <= 'z' &&
	    find_event(&agent_tables[AGENT_CURSOR], ev) != NULL) {
		*why = "a Cursor event name";
		return AGENT_CURSOR;
	}
	if (turn || (tool != NULL && strcmp(tool, "apply_patch") == 0)) {
		*why = turn ? "turn_id" : "the apply_patch tool";
		return AGENT_CODEX;
	}
	if (cJSON_IsString(ts)) {
		if (transcript && (strcmp(ev, "SessionStart") == 0 ||
		    strcmp(ev, "SessionEnd") == 0 ||
		    strcmp(ev, "Notification") == 0)) {
			*why = "a timestamp and a transcript_path";
			return AGENT_GEMINI;
		}
		*why = "an ISO timestamp with a Claude Code event name";
		return AGENT_COPILOT;
	}
	*why = "no mark of another client";
	return AGENT_CLAUDE;
}

static void
said(struct agent_mapped *out, const char *what, const char *from,
    const char *to)
{
	buf_printf(&out->renamed, "%s%s%s -> %s\n", what, *what ? " " : "",
	    from, to);
}

/*
 * Adds to dst, under `to`, the value of src's `from`, unless `to` is
 * there already: a reference, not a copy, for strings and containers.
 */
static bool
alias_into(cJSON *dst, const cJSON *src, const char *from, const char *to)
{
	const cJSON	*v;
	cJSON		*ref;

	if ((dst == src && strcmp(from, to) == 0) ||
	    (v = cJSON_GetObjectItemCaseSensitive(src, from)) == NULL ||
	    cJSON_GetObjectItemCaseSensitive(dst, to) != NULL)
		return false;
	if (cJSON_IsString(v) && v->valuestring != NULL)
		ref = cJSON_CreateStringReference(v->valuestring);
	else if (cJSON_IsObject(v))
		ref = cJSON_CreateObjectReference(v->child);
	else if (cJSON_IsArray(v))
		ref = cJSON_CreateArrayReference(v->child);
	else
		ref = cJSON_Duplicate(v, false);
	if (!cJSON_AddItemToObject(dst, to, must(ref)))
		out_of_memory(0);
	return true;
}

/* Every key of k aliased in obj; prefix names obj in explain's lines. */
static void
alias_all(struct agent_mapped *out, cJSON *obj, const struct agent_key *k,
    const char *prefix)
{
	for (; k != NULL && k->from != NULL; k++)
		if (alias_into(obj, obj, k->from, k->to))
			buf_printf(&out->renamed, "%s%s -> %s%s\n", prefix,
			    k->from, prefix, k->to);
}

/* The tool_input of an event that implies its tool, from its fields. */
static void
implied_input(cJSON *root, const struct agent_key *k,
    struct agent_mapped *out)
{
	cJSON	*in;
	char	*to;

	if (cJSON_GetObjectItemCaseSensitive(root, "tool_input") != NULL)
		return;
	in = must(cJSON_AddObjectToObject(root, "tool_input"));
	for (; k->from != NULL; k++) {
		if (!alias_into(in, root, k->from, k->to))
			continue;
		to = xasprintf("tool_input.%s", k->to);
		said(out, "", k->from, to);
		free(to);
	}
}

/* Sets obj[key] to the string s (copied), in place of any value. */
static void
set_string(cJSON *obj, const char *key, const char *s)
{
	cJSON	*v = must(cJSON_CreateString(s));

	if (cJSON_GetObjectItemCaseSensitive(obj, key) != NULL)
		cJSON_ReplaceItemInObjectCaseSensitive(obj, key, v);
	else if (!cJSON_AddItemToObject(obj, key, v))
		out_of_memory(0);
}

/* The client's event name: the payload's, --event's, or its marks'. */
static const char *
client_event(const cJSON *root, const struct agent_table *t,
    const char *given)
{
	const struct agent_key	*k;
	const char		*s;

	if ((s = get_string(root, "hook_event_name")) != NULL)
		return s;
	if (given != NULL)
		return given;
	for (k = t->marks; k != NULL && k->from != NULL; k++)
		if (cJSON_GetObjectItemCaseSensitive(root, k->from) != NULL)
			return k->to;
	return NULL;
}

/*
 * A tool_input sent as JSON text (Copilot's toolArgs before 1.0.102,
 * Cursor's MCP calls) becomes the object it holds.
 */
static void
input_object(cJSON *root, struct agent_mapped *out)
{
	cJSON	*in = cJSON_GetObjectItemCaseSensitive(root, "tool_input");
	cJSON	*obj;

	if (!cJSON_IsString(in) || in->valuestring == NULL)
		return;
	obj = cJSON_Parse(in->valuestring);
	if (!cJSON_IsObject(obj)) {
		cJSON_Delete(obj);
		if (out->note == NULL)
			out->note = xstrdup("the tool's arguments are a string "
			    "that is not a JSON object; rules see none of "
			    "them");
		return;
	}
	cJSON_ReplaceItemInObjectCaseSensitive(root, "tool_input", obj);
	buf_adds(&out->renamed, "tool_input (JSON text) -> tool_input\n");
}

/* mcp__SERVER__TOOL of a client's MCP tool name, or NULL (owned). */
static char *
mcp_name(const struct agent_table *t, const struct agent_event *e,
    const cJSON *root, const char *tool)
{
	const cJSON	*ctx;
	const char	*srv, *name, *sep;

	if (e != NULL && (e->flags & AEV_BARE_MCP))
		return xasprintf("mcp__%s__%s", t->mcp_server, tool);
	switch (t->mcp) {
	case MCP_GEMINI:
		if (strncmp(tool, "mcp_", 4) != 0 || tool[4] == '_')
			return NULL;
		ctx = cJSON_GetObjectItemCaseSensitive(root, "mcp_context");
		srv = get_string(ctx, "server_name");
		name = get_string(ctx, "tool_name");
		if (srv != NULL && name != NULL)
			return xasprintf("mcp__%s__%s", srv, name);
		/* Without mcp_context, the server is up to the next '_'. */
		if ((sep = strchr(tool + 4, '_')) == NULL || sep == tool + 4)
			return NULL;
		return xasprintf("mcp__%.*s__%s", (int)(sep - tool - 4),
		    tool + 4, sep + 1);
	case MCP_CURSOR:
		if (strncmp(tool, "MCP:", 4) != 0)
			return NULL;
		return xasprintf("mcp__%s__%s", t->mcp_server, tool + 4);
	case MCP_CANONICAL:
		break;
	}
	return NULL;
}

/* The fields Cursor leaves out: cwd, stop_hook_active. */
static void
table_flags(const struct agent_table *t, cJSON *root,
    struct agent_mapped *out)
{
	const cJSON	*v;

	if ((t->flags & AT_ROOTS_CWD) && get_string(root, "cwd") == NULL) {
		v = cJSON_GetObjectItemCaseSensitive(root, "workspace_roots");
		if (cJSON_IsArray(v) && (v = cJSON_GetArrayItem(v, 0)) !=
		    NULL && cJSON_IsString(v) && v->valuestring != NULL) {
			set_string(root, "cwd", v->valuestring);
			buf_adds(&out->renamed, "workspace_roots[0] -> cwd\n");
		}
	}
	if ((t->flags & AT_LOOP_COUNT) &&
	    cJSON_GetObjectItemCaseSensitive(root, "stop_hook_active") ==
	    NULL) {
		v = cJSON_GetObjectItemCaseSensitive(root, "loop_count");
		if (cJSON_IsNumber(v)) {
			cJSON_AddBoolToObject(root, "stop_hook_active",
			    v->valuedouble > 0);
			buf_adds(&out->renamed,
			    "loop_count -> stop_hook_active\n");
		}
	}
}

/* A copy of root's fields but the tool's, for one file of a patch. */
static cJSON *
file_event(const cJSON *root, const char *tool, const char *path,
    const struct patch_text *content, const struct patch_text *old)
{
	cJSON		*ev = must(cJSON_CreateObject()), *in;
	const cJSON	*m;

	cJSON_ArrayForEach(m, root) {
		if (m->string == NULL || strcmp(m->string, "tool_name") == 0 ||
		    strcmp(m->string, "tool_input") == 0)
			continue;
		if (!cJSON_AddItemToObject(ev, m->string,
		    must(cJSON_Duplicate(m, true))))
			out_of_memory(0);
	}
	set_string(ev, "tool_name", tool);
	in = must(cJSON_AddObjectToObject(ev, "tool_input"));
	set_string(in, "file_path", path);
	if (content != NULL)
		set_string(in, strcmp(tool, "Write") == 0 ? "content" :
		    "new_string", content->s);
	if (old != NULL)
		set_string(in, "old_string", old->s);
	return ev;
}

static void
push(struct agent_mapped *out, cJSON *ev, const struct patch_file *f)
{
	out->events = xreallocarray(out->events, out->n + 1,
	    sizeof(*out->events));
	out->files = xreallocarray(out->files, out->n + 1,
	    sizeof(*out->files));
	out->events[out->n] = ev;
	out->files[out->n++] = f;
}

/*
 * A Codex apply_patch: one event per file (a moved file is a Delete of
 * its old name and an Edit of its new one).  Returns false, with
 * out->note, when the patch cannot be read: the call stays one event.
 */
static bool
split_patch(cJSON *root, struct agent_mapped *out)
{
	const cJSON		*in, *cmd;
	const struct patch_file	*f;
	const char		*text = NULL;
	char			*err;
	size_t			 i;

	/* A patch sent as the whole input is no JSON text: no note of it. */
	free(out->note);
	out->note = NULL;
	in = cJSON_GetObjectItemCaseSensitive(root, "tool_input");
	if (cJSON_IsString(in))
		text = in->valuestring;
	else if ((cmd = cJSON_GetObjectItemCaseSensitive(in, "command")) !=
	    NULL && cJSON_IsString(cmd))
		text = cmd->valuestring;
	else if ((cmd = cJSON_GetObjectItemCaseSensitive(in, "input")) !=
	    NULL && cJSON_IsString(cmd))
		text = cmd->valuestring;
	if (text == NULL) {
		out->note = xstrdup("the apply_patch call has no patch text; "
		    "the files it writes are not known");
		return false;
	}
	out->patch = xmalloc(sizeof(*out->patch));
	if (patch_parse(out->patch, text, strlen(text), &err) < 0) {
		out->note = xasprintf("the apply_patch text is not a patch "
		    "Codex would apply (%s); the files it writes are not "
		    "known", err);
		free(err);
		return false;
	}
	if (out->patch->n == 0)
		return false;
	for (i = 0; i < out->patch->n; i++) {
		f = &out->patch->files[i];
		switch (f->op) {
		case PATCH_ADD:
			push(out, file_event(root, "Write", f->path.s,
			    &f->added, NULL), f);
			break;
		case PATCH_DELETE:
			push(out, file_event(root, "Delete", f->path.s, NULL,
			    NULL), f);
			break;
		case PATCH_UPDATE:
			if (f->move_to.s != NULL)
				push(out, file_event(root, "Delete",
				    f->path.s, NULL, NULL), NULL);
			push(out, file_event(root, "Edit", f->move_to.s != NULL ?
			    f->move_to.s : f->path.s, &f->added, &f->removed),
			    f);
			break;
		}
	}
	buf_printf(&out->renamed, "apply_patch -> %zu event%s, one per "
	    "file\n", out->n, out->n == 1 ? "" : "s");
	cJSON_Delete(root);
	return true;
}

/* The tool of the call, renamed, its fields added; or a patch split. */
static bool
map_tool(cJSON *root, const struct agent_table *t,
    const struct agent_event *e, struct agent_mapped *out)
{
	const struct agent_tool	*tt;
	cJSON			*in;
	char			*mcp;

	if (out->client_tool == NULL)
		return false;
	if ((mcp = mcp_name(t, e, root, out->client_tool)) != NULL) {
		set_string(root, "tool_name", mcp);
		said(out, "tool", out->client_tool, mcp);
		free(mcp);
		return false;
	}
	for (tt = t->tools; tt->client != NULL; tt++)
		if (strcmp(tt->client, out->client_tool) == 0)
			break;
	if (tt->client == NULL)
		return false;
	if (tt->canon == NULL)
		return split_patch(root, out);
	if (strcmp(tt->canon, out->client_tool) != 0) {
		set_string(root, "tool_name", tt->canon);
		said(out, "tool", out->client_tool, tt->canon);
	}
	in = cJSON_GetObjectItemCaseSensitive(root, "tool_input");
	if (cJSON_IsObject(in))
		alias_all(out, in, tt->keys, "tool_input.");
	return false;
}

void
agent_map(cJSON *root, enum rr_agent agent, const char *event_name,
    struct agent_mapped *out)
{
	const struct agent_table	*t;
	const struct agent_event	*e = NULL;
	const char			*ev, *tool;

	memset(out, 0, sizeof(*out));
	buf_init(&out->renamed);
	out->why = "--agent";
	if (agent <= AGENT_AUTO || agent >= AGENT__COUNT)
		agent = agent_detect(root, &out->why);
	out->agent = agent;
	t = &agent_tables[agent];
	if (agent == AGENT_CLAUDE) {
		/* The canonical names already: nothing to map. */
		if (event_name != NULL &&
		    get_string(root, "hook_event_name") == NULL)
			set_string(root, "hook_event_name", event_name);
		push(out, root, NULL);
		return;
	}

	alias_all(out, root, t->fields, "");
	ev = client_event(root, t, event_name);
	out->client_event = xstrdup(ev != NULL ? ev : "");
	if (ev != NULL && (e = find_event(t, ev)) != NULL) {
		if (get_string(root, "hook_event_name") == NULL ||
		    strcmp(e->canon, ev) != 0) {
			set_string(root, "hook_event_name", e->canon);
			if (strcmp(e->canon, out->client_event) != 0)
				said(out, "event", out->client_event,
				    e->canon);
		}
		alias_all(out, root, e->fields, "");
		if (e->tool != NULL &&
		    cJSON_GetObjectItemCaseSensitive(root, "tool_name") ==
		    NULL) {
			set_string(root, "tool_name", e->tool);
			said(out, "tool of", out->client_event, e->tool);
		}
		if (e->input != NULL)
			implied_input(root, e->input, out);
	} else if (ev != NULL && get_string(root, "hook_event_name") == NULL)
		set_string(root, "hook_event_name", ev);
	if (agent != AGENT_CLAUDE) {
		table_flags(t, root, out);
		input_object(root, out);
	}
	if ((tool = get_string(root, "tool_name")) != NULL)
		out->client_tool = xstrdup(tool);
	if (map_tool(root, t, e, out))
		return;
	push(out, root, NULL);
}

void
agent_mapped_release(struct agent_mapped *m)
{
	size_t	i;

	for (i = 0; i < m->n; i++)
		cJSON_Delete(m->events[i]);
	free(m->events);
	free(m->files);
	if (m->patch != NULL) {
		patch_release(m->patch);
		free(m->patch);
	}
	free(m->client_event);
	free(m->client_tool);
	free(m->note);
	buf_release(&m->renamed);
	memset(m, 0, sizeof(*m));
}
