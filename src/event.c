#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "buf.h"
#include "errclass.h"
#include "event_priv.h"
#include "transcript.h"
#include "xmalloc.h"

const char *const event_kind_names[EV__COUNT] = {
	[EV_PRE_TOOL_USE] = "PreToolUse",
	[EV_POST_TOOL_USE] = "PostToolUse",
	[EV_POST_TOOL_USE_FAILURE] = "PostToolUseFailure",
	[EV_USER_PROMPT_SUBMIT] = "UserPromptSubmit",
	[EV_STOP] = "Stop",
	[EV_SUBAGENT_STOP] = "SubagentStop",
	[EV_SESSION_START] = "SessionStart",
	[EV_SESSION_END] = "SessionEnd",
};

const char *const rr_field_names[F_SUBCOMMANDS + 1] = {
	[F_PATH] = "path", [F_CONTENT] = "content",
	[F_OLD_CONTENT] = "old_content", [F_COMMAND] = "command",
	[F_PROMPT] = "prompt", [F_RESPONSE] = "response",
	[F_ERROR] = "error", [F_MESSAGE] = "message", [F_TOOL] = "tool",
	[F_EVENT] = "event", [F_CWD] = "cwd", [F_REASON] = "reason",
	[F_FILE_BEFORE] = "file_before", [F_FILE_AFTER] = "file_after",
	[F_READ_PATH] = "read_path", [F_INPUT] = "input",
	[F_PROGRAMS] = "(programs)", [F_SUBCOMMANDS] = "(subcommands)",
};

enum rr_event_kind
event_kind_from_name(const char *name)
{
	int	i;

	for (i = 0; i < EV__COUNT; i++)
		if (strcmp(event_kind_names[i], name) == 0)
			return (enum rr_event_kind)i;
	return EV_OTHER;
}

/* The 16-bit value of a \uXXXX escape starting at p (p[0] == '\\'), or -1. */
static long
u_escape(const char *p, size_t avail)
{
	long	v = 0;
	int	i, h;

	if (avail < 6 || p[0] != '\\' || p[1] != 'u')
		return -1;
	for (i = 2; i < 6; i++) {
		if ((h = ascii_hex_value(p[i])) < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

/*
 * Strings are crossed with memchr(), not byte by byte: a 10 MB Write is
 * mostly one long string.  The position of the closing quote is kept
 * until the scan passes it, so many escapes in one string cost no
 * rescans.
 */
void
json_fix_escapes(char *s, size_t len)
{
	char	*q, *b;
	size_t	 i = 0, quote = 0;
	int	 in_string = 0, have_quote = 0;
	long	 v, lo;

	while (i < len) {
		if (!in_string) {
			if ((q = memchr(s + i, '"', len - i)) == NULL)
				break;
			i = (size_t)(q - s) + 1;
			in_string = 1;
			continue;
		}
		if (!have_quote || quote < i) {
			q = memchr(s + i, '"', len - i);
			quote = q != NULL ? (size_t)(q - s) : len;
			have_quote = 1;
		}
		if ((b = memchr(s + i, '\\', quote - i)) == NULL) {
			if (quote >= len)
				break;
			in_string = 0;
			i = quote + 1;
			continue;
		}
		i = (size_t)(b - s);
		if (i + 1 >= len)
			break;
		if (s[i + 1] != 'u') {
			i += 2;
			continue;
		}
		v = u_escape(s + i, len - i);
		if (v < 0) {
			i += 2;
			continue;
		}
		if (v == 0) {
			memcpy(s + i + 2, "2400", 4);
		} else if (v >= 0xd800 && v <= 0xdbff) {
			lo = u_escape(s + i + 6, len - i - 6);
			if (lo >= 0xdc00 && lo <= 0xdfff) {
				i += 12;
				continue;
			}
			memcpy(s + i + 2, "fffd", 4);
		} else if (v >= 0xdc00 && v <= 0xdfff)
			memcpy(s + i + 2, "fffd", 4);
		i += 6;
	}
}

static const char *
get_string(const cJSON *obj, const char *key)
{
	const cJSON	*it = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(it) && it->valuestring ? it->valuestring : NULL;
}

static void
set_text(struct rr_text *t, const char *s)
{
	t->s = s;
	t->len = s ? strlen(s) : 0;
}

/*
 * Appends every string leaf of v (depth first, in document order) and the
 * text of numbers and booleans, one per line: a response object becomes the
 * text a person would read, so line-anchored regexes work on it.
 */
static void
flatten(struct buf *b, const cJSON *v, int depth)
{
	const cJSON	*c;
	char		 num[64];

	if (depth > 64)
		return;
	if (cJSON_IsString(v) && v->valuestring) {
		if (b->len)
			buf_addc(b, '\n');
		buf_adds(b, v->valuestring);
	} else if (cJSON_IsNumber(v)) {
		if (b->len)
			buf_addc(b, '\n');
		/* Only doubles inside long long's range may be cast to it. */
		if (v->valuedouble > -9.2e18 && v->valuedouble < 9.2e18 &&
		    v->valuedouble == (double)(long long)v->valuedouble)
			buf_add_i64(b, (long long)v->valuedouble);
		else {
			snprintf(num, sizeof(num), "%.17g", v->valuedouble);
			buf_adds(b, num);
		}
	} else if (cJSON_IsBool(v)) {
		if (b->len)
			buf_addc(b, '\n');
		buf_adds(b, cJSON_IsTrue(v) ? "true" : "false");
	} else if (cJSON_IsArray(v) || cJSON_IsObject(v)) {
		cJSON_ArrayForEach(c, v)
			flatten(b, c, depth + 1);
	}
}

static const char *
arena_buf(struct arena *a, struct buf *b)
{
	const char	*s = arena_strndup(a, b->data, b->len);

	buf_release(b);
	return s;
}

/* Joins edits[].<key> with '\n' (MultiEdit). */
static const char *
join_edits(struct arena *a, const cJSON *edits, const char *key)
{
	const cJSON	*e;
	const char	*s;
	struct buf	 b;
	int		 first = 1;

	if (!cJSON_IsArray(edits))
		return NULL;
	buf_init(&b);
	cJSON_ArrayForEach(e, edits) {
		s = get_string(e, key);
		if (s == NULL)
			continue;
		if (!first)
			buf_addc(&b, '\n');
		buf_adds(&b, s);
		first = 0;
	}
	if (first) {
		buf_release(&b);
		return NULL;
	}
	return arena_buf(a, &b);
}

static void
map_tool_fields(struct rr_event *ev, const cJSON *input)
{
	struct arena	*a = &ev->arena;
	const char	*t = ev->tool;
	const cJSON	*edits;

	if (!cJSON_IsObject(input))
		return;
	event_collect_paths(ev, input);
	if (strcmp(t, "Bash") == 0 || strcmp(t, "PowerShell") == 0)
		set_text(&ev->f[F_COMMAND], get_string(input, "command"));
	if (strcmp(t, "Write") == 0)
		set_text(&ev->f[F_CONTENT], get_string(input, "content"));
	else if (strcmp(t, "Edit") == 0) {
		set_text(&ev->f[F_CONTENT], get_string(input, "new_string"));
		set_text(&ev->f[F_OLD_CONTENT], get_string(input, "old_string"));
	} else if (strcmp(t, "MultiEdit") == 0) {
		edits = cJSON_GetObjectItemCaseSensitive(input, "edits");
		set_text(&ev->f[F_CONTENT], join_edits(a, edits, "new_string"));
		set_text(&ev->f[F_OLD_CONTENT],
		    join_edits(a, edits, "old_string"));
	} else if (strcmp(t, "NotebookEdit") == 0)
		set_text(&ev->f[F_CONTENT], get_string(input, "new_source"));
	else if (strncmp(t, "mcp_", 4) == 0) {
		/* The filesystem server's write_file and edit_file. */
		set_text(&ev->f[F_CONTENT], get_string(input, "content"));
		edits = cJSON_GetObjectItemCaseSensitive(input, "edits");
		if (ev->f[F_CONTENT].s == NULL)
			set_text(&ev->f[F_CONTENT],
			    join_edits(a, edits, "newText"));
		set_text(&ev->f[F_OLD_CONTENT],
		    join_edits(a, edits, "oldText"));
	}
}

/* The Stop message of an old client, from its transcript. */
static void
message_from_transcript(struct rr_event *ev)
{
	char	*text, *why;
	size_t	 len;

	if (transcript_last_assistant_text(ev->transcript_path, &text, &len,
	    &why) == 0) {
		ev->f[F_MESSAGE].s = arena_strndup(&ev->arena, text, len);
		ev->f[F_MESSAGE].len = len;
		free(text);
	} else if (why != NULL) {
		ev->note = arena_strndup(&ev->arena, why, strlen(why));
		free(why);
	}
}

/*
 * An event without hook_event_name (a hand-made test, a client that does
 * not send it): the kind its fields say, and why.  The seed 003 test
 * commands send a tool call alone, and the response of a finished one
 * as tool_result.
 */
static void
guess_kind(struct rr_event *ev)
{
	const cJSON	*root = ev->root;
	bool		 response;

	response = cJSON_GetObjectItemCaseSensitive(root, "tool_response") !=
	    NULL || cJSON_GetObjectItemCaseSensitive(root, "tool_result") !=
	    NULL;
	if (get_string(root, "tool_name") != NULL) {
		ev->kind = response ? EV_POST_TOOL_USE : EV_PRE_TOOL_USE;
		ev->guessed = response ? "it has tool_name and a response" :
		    "it has tool_name and no response";
	} else if (get_string(root, "prompt") != NULL) {
		ev->kind = EV_USER_PROMPT_SUBMIT;
		ev->guessed = "it has a prompt";
	} else if (get_string(root, "last_assistant_message") != NULL) {
		ev->kind = EV_STOP;
		ev->guessed = "it has last_assistant_message";
	} else {
		ev->guessed = "nothing in it tells which";
		return;
	}
	ev->event_name = event_kind_names[ev->kind];
}

struct cJSON *
event_json_parse(const char *json, size_t len, char **err)
{
	cJSON	*root;
	char	*copy;

	*err = NULL;
	copy = xmemdup0(json, len);
	json_fix_escapes(copy, len);
	root = cJSON_ParseWithLength(copy, len);
	free(copy);
	if (root == NULL) {
		*err = xstrdup(len == 0 ? "the event on stdin is empty" :
		    "the event on stdin is not valid JSON");
		return NULL;
	}
	if (!cJSON_IsObject(root)) {
		*err = xstrdup("the event on stdin is not a JSON object");
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

void
event_from_root(struct rr_event *ev, cJSON *root, const char *project_dir,
    enum rr_agent agent)
{
	const cJSON	*input, *resp, *sha;
	const char	*s;
	struct buf	 b;

	memset(ev, 0, sizeof(*ev));
	arena_init(&ev->arena);
	ev->kind = EV_OTHER;
	ev->event_name = ev->session_id = ev->cwd = "";
	ev->agent = agent == AGENT_AUTO ? AGENT_CLAUDE : agent;
	ev->root = root;
	if ((s = get_string(ev->root, "hook_event_name")) != NULL) {
		ev->event_name = s;
		ev->kind = event_kind_from_name(s);
	} else
		guess_kind(ev);
	ev->client_event = ev->event_name;
	if ((s = get_string(ev->root, "session_id")) != NULL)
		ev->session_id = s;
	if ((s = get_string(ev->root, "cwd")) != NULL)
		ev->cwd = s;
	ev->transcript_path = get_string(ev->root, "transcript_path");
	ev->project_dir = project_dir && *project_dir ? project_dir : ev->cwd;
	sha = cJSON_GetObjectItemCaseSensitive(ev->root, "stop_hook_active");
	ev->stop_hook_active = cJSON_IsTrue(sha);
	ev->tool = ev->client_tool = get_string(ev->root, "tool_name");

	set_text(&ev->f[F_EVENT], ev->event_name);
	set_text(&ev->f[F_CWD], ev->cwd);
	if (ev->tool != NULL) {
		set_text(&ev->f[F_TOOL], ev->tool);
		input = cJSON_GetObjectItemCaseSensitive(ev->root, "tool_input");
		map_tool_fields(ev, input);
	}
	/* A Stop's prompt: a client's (Gemini's AfterAgent), else later. */
	if (ev->kind == EV_USER_PROMPT_SUBMIT || ev->kind == EV_STOP ||
	    ev->kind == EV_SUBAGENT_STOP)
		set_text(&ev->f[F_PROMPT], get_string(ev->root, "prompt"));
	resp = cJSON_GetObjectItemCaseSensitive(ev->root, "tool_response");
	/*
	 * Seed 001's own name for it, tool_output, and seed 003's hooks',
	 * tool_result.
	 */
	if (resp == NULL || cJSON_IsNull(resp))
		resp = cJSON_GetObjectItemCaseSensitive(ev->root,
		    "tool_output");
	if (resp == NULL)
		resp = cJSON_GetObjectItemCaseSensitive(ev->root,
		    "tool_result");
	if (resp != NULL && !cJSON_IsNull(resp)) {
		buf_init(&b);
		flatten(&b, resp, 0);
		ev->f[F_RESPONSE].len = b.len;
		ev->f[F_RESPONSE].s = arena_buf(&ev->arena, &b);
	}
	set_text(&ev->f[F_ERROR], get_string(ev->root, "error"));
	if (ev->f[F_ERROR].s == NULL && (s = get_string(ev->root,
	    "tool_error")) != NULL && *s != '\0') {
		set_text(&ev->f[F_ERROR], s);
		ev->failed = ev->kind == EV_POST_TOOL_USE ||
		    ev->kind == EV_POST_TOOL_USE_FAILURE;
	}
	if (ev->kind == EV_POST_TOOL_USE_FAILURE)
		ev->failed = true;
	if (ev->kind == EV_SESSION_END)
		set_text(&ev->f[F_REASON], get_string(ev->root, "reason"));
	if (ev->kind == EV_STOP || ev->kind == EV_SUBAGENT_STOP) {
		set_text(&ev->f[F_MESSAGE],
		    get_string(ev->root, "last_assistant_message"));
		/*
		 * Claude Code before 2.1.47 sends no last_assistant_message;
		 * other clients' transcripts are in other formats.
		 */
		if (ev->f[F_MESSAGE].s == NULL && ev->transcript_path != NULL &&
		    ev->agent == AGENT_CLAUDE)
			message_from_transcript(ev);
	}
	event_derive_paths(ev);
}

int
event_parse(struct rr_event *ev, const char *json, size_t len,
    const char *project_dir, char **err)
{
	cJSON	*root;

	if ((root = event_json_parse(json, len, err)) == NULL) {
		memset(ev, 0, sizeof(*ev));
		arena_init(&ev->arena);
		ev->kind = EV_OTHER;
		ev->event_name = ev->session_id = ev->cwd = "";
		return -1;
	}
	event_from_root(ev, root, project_dir, AGENT_CLAUDE);
	return 0;
}

void
event_set_client(struct rr_event *ev, const char *client_event,
    const char *client_tool)
{
	if (client_event != NULL && *client_event != '\0')
		ev->client_event = arena_strdup(&ev->arena, client_event);
	ev->client_tool = client_tool != NULL ?
	    arena_strdup(&ev->arena, client_tool) : NULL;
}

void
event_release(struct rr_event *ev)
{
	if (ev->root != NULL)
		cJSON_Delete(ev->root);
	arena_release(&ev->arena);
	memset(ev, 0, sizeof(*ev));
}

void
event_set_project(struct rr_event *ev, const char *dir)
{
	ev->project_dir = arena_strdup(&ev->arena, dir);
	event_derive_paths(ev);
}

/* The status a tool reports beside its output (WebFetch's code). */
static long
response_status(const cJSON *resp, const char **text)
{
	const cJSON	*code = cJSON_GetObjectItemCaseSensitive(resp, "code");

	*text = get_string(resp, "codeText");
	return cJSON_IsNumber(code) && code->valuedouble >= 0 &&
	    code->valuedouble < 1000 ? (long)code->valuedouble : 0;
}

struct rr_text
event_error(struct rr_event *ev)
{
	const cJSON	*resp;
	const char	*text;
	char		*found;
	long		 status;

	if (ev->error_made || ev->kind != EV_POST_TOOL_USE ||
	    ev->f[F_ERROR].s != NULL || !errclass_reads(ev->tool)) {
		ev->error_made = true;
		return ev->f[F_ERROR];
	}
	ev->error_made = true;
	resp = cJSON_GetObjectItemCaseSensitive(ev->root, "tool_response");
	status = response_status(resp, &text);
	found = errclass_detect(ev->tool, ev->f[F_RESPONSE].s,
	    ev->f[F_RESPONSE].len, status, text);
	if (found != NULL) {
		set_text(&ev->f[F_ERROR], arena_strdup(&ev->arena, found));
		ev->error_detected = true;
		free(found);
	}
	return ev->f[F_ERROR];
}

/* A Stop's prompt: the last one of its transcript. */
static void
prompt_from_transcript(struct rr_event *ev)
{
	char	*user, *answer, *why;

	if (ev->transcript_path == NULL || ev->agent != AGENT_CLAUDE)
		return;
	if (transcript_last_turn(ev->transcript_path, &user, &answer,
	    &why) == 0) {
		if (user != NULL)
			set_text(&ev->f[F_PROMPT], arena_strdup(&ev->arena,
			    user));
		free(user);
		free(answer);
	} else if (why != NULL) {
		if (ev->note == NULL)
			ev->note = arena_strdup(&ev->arena, why);
		free(why);
	}
}

struct rr_text
event_field(struct rr_event *ev, enum rr_field f)
{
	if (f == F_ERROR)
		return event_error(ev);
	if (f == F_PROMPT && !ev->prompt_made) {
		ev->prompt_made = true;
		if (ev->f[F_PROMPT].s == NULL && (ev->kind == EV_STOP ||
		    ev->kind == EV_SUBAGENT_STOP))
			prompt_from_transcript(ev);
	}
	return ev->f[f];
}

struct rr_text
event_input(struct rr_event *ev, const char *key)
{
	struct rr_text	 t = { NULL, 0 };
	const cJSON	*v;
	const char	*p, *dot;
	char		 part[256];
	size_t		 n;
	struct buf	 b;

	v = cJSON_GetObjectItemCaseSensitive(ev->root, "tool_input");
	for (p = key; v != NULL && *p; p = *dot ? dot + 1 : dot) {
		dot = strchr(p, '.');
		if (dot == NULL)
			dot = p + strlen(p);
		n = (size_t)(dot - p);
		if (n >= sizeof(part))
			return t;
		memcpy(part, p, n);
		part[n] = '\0';
		if (cJSON_IsArray(v) && part[0] >= '0' && part[0] <= '9')
			v = cJSON_GetArrayItem(v, atoi(part));
		else
			v = cJSON_GetObjectItemCaseSensitive(v, part);
	}
	if (v == NULL || cJSON_IsNull(v))
		return t;
	if (cJSON_IsString(v)) {
		t.s = v->valuestring;
		t.len = strlen(t.s);
		return t;
	}
	buf_init(&b);
	flatten(&b, v, 0);
	t.len = b.len;
	t.s = arena_buf(&ev->arena, &b);
	return t;
}

/*
 * The paths of a shell command's files, made as derive_paths() makes the
 * event's own: the same lexical normalization and the same test of being
 * under the project directory.
 */
void
event_path_pair(struct rr_event *ev, const char *base, const char *path,
    const char **abs, const char **rel)
{
	struct buf	 b, n;
	const char	*dir = ev->project_dir, *p;
	size_t		 dlen;

	buf_init(&b);
	buf_init(&n);
	if (path[0] != '/' && path[0] != '\\' && base != NULL &&
	    base[0] != '\0')
		buf_printf(&b, "%s/", base);
	for (p = path; *p; p++)
		buf_addc(&b, *p == '\\' ? '/' : *p);
	path_normalize(&n, b.data, b.len);
	if (n.len == 0)
		buf_addc(&n, '.');
	*abs = *rel = arena_strndup(&ev->arena, n.data, n.len);
	if (dir != NULL && dir[0] == '/' && (*abs)[0] == '/') {
		path_normalize(&b, dir, strlen(dir));
		dlen = b.len;
		while (dlen > 1 && b.data[dlen - 1] == '/')
			dlen--;
		if (strncmp(*abs, b.data, dlen) == 0 && (*abs)[dlen] == '/')
			*rel = *abs + dlen + 1;
	}
	buf_release(&b);
	buf_release(&n);
}
