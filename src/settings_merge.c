/*
 * Merging our hook registrations into a Claude Code settings.json (see
 * settings_merge.h and doc/claude-code-hooks.md §1).  cJSON parses the file and
 * keeps members in document order; the printer below writes the tree back
 * the way Claude Code's JSON.stringify(x, null, 2) does, except that every
 * number of the file is written exactly as it was read (keep_numbers()).
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "jsonw.h"
#include "hookreg.h"
#include "settings_merge.h"
#include "xmalloc.h"

/* The events of Claude Code's settings, for settings_merge(). */
const char *const settings_events[] = {
	"PreToolUse",
	"PostToolUse",
	"PostToolUseFailure",
	"UserPromptSubmit",
	"Stop",
	"SubagentStop",
	"SessionStart",
	"SessionEnd",
};
const size_t settings_nevents =
    sizeof(settings_events) / sizeof(settings_events[0]);

/* cJSON reports allocation failure as NULL; treat it as xmalloc() does. */
static cJSON *
must(cJSON *item)
{
	if (item == NULL)
		out_of_memory(0);
	return item;
}

/* Keys are string literals, so the CS variant spares a copy. */
static void
add_member(cJSON *obj, const char *key, cJSON *item)
{
	if (!cJSON_AddItemToObjectCS(obj, key, item))
		out_of_memory(0);
}

/*
 * JSON.parse, and so Claude Code, keeps the last of duplicate keys; cJSON's
 * own lookup returns the first.
 */
static cJSON *
member(const cJSON *obj, const char *key)
{
	cJSON	*it, *found = NULL;

	if (!cJSON_IsObject(obj))
		return NULL;
	cJSON_ArrayForEach(it, obj)
		if (it->string != NULL && strcmp(it->string, key) == 0)
			found = it;
	return found;
}

static int
blank(const char *s, size_t len)
{
	size_t	i;

	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' &&
		    s[i] != '\r')
			return 0;
	return 1;
}

/*
 * A number as JavaScript's Number.prototype.toString writes it: the
 * shortest digits that read back to the same double, integers below 1e21
 * in full, exponents outside [1e-7, 1e21).  So 10 stays 10 and 1.5 stays
 * 1.5, whatever cJSON did to valueint.
 */
static void
put_number(struct buf *b, double d)
{
	char	 s[48], digits[24], *p;
	int	 prec, k = 0, n, i;

	/* JSON has no NaN or infinity (cJSON reads 1e999 as inf). */
	if (d != d || d - d != 0) {
		buf_adds(b, "null");
		return;
	}
	if (d == 0) {
		buf_addc(b, '0');	/* -0 too, as JavaScript does */
		return;
	}
	/* 17 significant digits always round-trip, so this stops. */
	for (prec = 0; prec < 16; prec++) {
		snprintf(s, sizeof(s), "%.*e", prec, d);
		if (strtod(s, NULL) == d)
			break;
	}
	snprintf(s, sizeof(s), "%.*e", prec, d);
	p = s;
	if (*p == '-') {
		buf_addc(b, '-');
		p++;
	}
	for (; *p != 'e' && *p != '\0'; p++)
		if (*p != '.')
			digits[k++] = *p;
	digits[k] = '\0';
	/* n: where the decimal point goes, counted from the first digit. */
	n = (*p == 'e' ? atoi(p + 1) : 0) + 1;
	if (k <= n && n <= 21) {
		buf_add(b, digits, (size_t)k);
		for (i = k; i < n; i++)
			buf_addc(b, '0');
	} else if (n > 0 && n <= 21) {
		buf_add(b, digits, (size_t)n);
		buf_addc(b, '.');
		buf_add(b, digits + n, (size_t)(k - n));
	} else if (n > -6 && n <= 0) {
		buf_add(b, "0.", 2);
		for (i = n; i < 0; i++)
			buf_addc(b, '0');
		buf_add(b, digits, (size_t)k);
	} else {
		buf_addc(b, digits[0]);
		if (k > 1) {
			buf_addc(b, '.');
			buf_add(b, digits + 1, (size_t)(k - 1));
		}
		buf_printf(b, "e%c%d", n - 1 < 0 ? '-' : '+',
		    n - 1 < 0 ? 1 - n : n - 1);
	}
}

/*
 * The number tokens of a JSON text, in document order: a run of number
 * characters that starts outside a string with '-' or a digit.  That is
 * the run cJSON's parse_number() reads, so in a text cJSON accepted each
 * token is exactly one number node, in the order of its tree.
 */
struct numtoks {
	const char	**s;
	size_t		 *len;
	size_t		  n, cap;
};

static void
scan_numbers(const char *s, size_t len, struct numtoks *t)
{
	size_t	i = 0, start;

	while (i < len) {
		if (s[i] == '"') {
			for (i++; i < len && s[i] != '"'; i++)
				if (s[i] == '\\')
					i++;
			i++;
		} else if (s[i] == '-' || (s[i] >= '0' && s[i] <= '9')) {
			for (start = i; i < len && s[i] != '\0' &&
			    strchr("0123456789+-.eE", s[i]) != NULL; i++)
				;
			if (t->n == t->cap) {
				t->cap = t->cap ? t->cap * 2 : 16;
				t->s = xreallocarray(t->s, t->cap,
				    sizeof(*t->s));
				t->len = xreallocarray(t->len, t->cap,
				    sizeof(*t->len));
			}
			t->s[t->n] = s + start;
			t->len[t->n++] = i - start;
		} else
			i++;
	}
}

/*
 * Turns every number node under item, in document order, into a raw node
 * holding its source text: cJSON keeps only a double, which cannot give
 * back 1e400, -0, 1.0 or 12345678901234567890.  Returns -1 if the tokens
 * and the nodes do not pair up, which a text cJSON accepted cannot do.
 */
static int
keep_numbers(cJSON *item, const struct numtoks *t, size_t *k)
{
	cJSON	*c, *raw;
	char	*text;

	if (cJSON_IsNumber(item)) {
		if (*k >= t->n)
			return -1;
		text = xmemdup0(t->s[*k], t->len[*k]);
		(*k)++;
		raw = must(cJSON_CreateRaw(text));
		free(text);
		/* Take raw's copy; item keeps its key and its place. */
		item->type = cJSON_Raw | (item->type & cJSON_StringIsConst);
		item->valuestring = raw->valuestring;
		raw->valuestring = NULL;
		cJSON_Delete(raw);
		return 0;
	}
	for (c = item->child; c != NULL; c = c->next)
		if (keep_numbers(c, t, k) < 0)
			return -1;
	return 0;
}

static void
indent(struct buf *b, int depth)
{
	int	i;

	for (i = 0; i < depth; i++)
		buf_add(b, "  ", 2);
}

static void
print_value(struct buf *b, const cJSON *item, int depth)
{
	const cJSON	*c;
	int		 obj;

	if (cJSON_IsFalse(item))
		buf_adds(b, "false");
	else if (cJSON_IsTrue(item))
		buf_adds(b, "true");
	else if (cJSON_IsNumber(item))
		put_number(b, item->valuedouble);
	else if (cJSON_IsRaw(item))
		buf_adds(b, item->valuestring);	/* a number as it was read */
	else if (cJSON_IsString(item))
		jsonw_cstring(b, item->valuestring ? item->valuestring : "");
	else if (cJSON_IsArray(item) || cJSON_IsObject(item)) {
		obj = cJSON_IsObject(item);
		if (item->child == NULL) {
			buf_adds(b, obj ? "{}" : "[]");
			return;
		}
		buf_addc(b, obj ? '{' : '[');
		for (c = item->child; c != NULL; c = c->next) {
			buf_addc(b, '\n');
			indent(b, depth + 1);
			if (obj) {
				jsonw_cstring(b, c->string ? c->string : "");
				buf_add(b, ": ", 2);
			}
			print_value(b, c, depth + 1);
			if (c->next != NULL)
				buf_addc(b, ',');
		}
		buf_addc(b, '\n');
		indent(b, depth);
		buf_addc(b, obj ? '}' : ']');
	} else
		buf_adds(b, "null");
}

/* 1-based line and column (in bytes) of `at` within s. */
static void
position(const char *s, const char *at, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (; s < at; s++) {
		if (*s == '\n') {
			(*line)++;
			*col = 1;
		} else
			(*col)++;
	}
}

/*
 * cJSON keeps strings NUL-terminated, so a "\u0000" escape would silently
 * cut the string short on output.  Find one (an escape, not an escaped
 * backslash before "u0000") so the caller can refuse.
 */
static int
has_nul_escape(const char *s, size_t len)
{
	size_t	i, j;

	for (i = 0; i + 6 <= len; i++) {
		if (s[i] != '\\' || s[i + 1] != 'u' ||
		    strncmp(s + i + 2, "0000", 4) != 0)
			continue;
		for (j = i; j > 0 && s[j - 1] == '\\'; j--)
			;
		if ((i - j) % 2 == 0)
			return 1;
	}
	return 0;
}

/* keep_numbers() over all of text; 0, or -1 if the numbers do not pair. */
static int
keep_source_numbers(cJSON *root, const char *text, size_t len)
{
	struct numtoks	t;
	size_t		k = 0;
	int		rc;

	memset(&t, 0, sizeof(t));
	scan_numbers(text, len, &t);
	rc = keep_numbers(root, &t, &k);
	if (k != t.n)
		rc = -1;
	free(t.s);
	free(t.len);
	return rc;
}

static cJSON *
parse(const char *name, const char *text, size_t len, char **err)
{
	cJSON		*root;
	const char	*end = NULL;
	char		*copy;
	size_t		 off;
	int		 line, col;

	/* cJSON wants the terminating NUL inside the length it is given. */
	copy = xmemdup0(text, len);
	root = cJSON_ParseWithLengthOpts(copy, len + 1, &end, 0);
	if (root != NULL) {
		/* Trailing text that is not blank is an error, as in JSON.parse. */
		off = end != NULL ? (size_t)(end - copy) : len;
		while (off < len && blank(copy + off, 1))
			off++;
		if (off >= len && has_nul_escape(copy, len)) {
			*err = xasprintf("'%s' has a \\u0000 in a string, which "
			    "would be lost; edit it by hand", name);
			cJSON_Delete(root);
			free(copy);
			return NULL;
		}
		if (off >= len && keep_source_numbers(root, copy, len) < 0) {
			*err = xasprintf("'%s' has a number that cannot be "
			    "kept as written; edit it by hand", name);
			cJSON_Delete(root);
			free(copy);
			return NULL;
		}
		if (off >= len) {
			free(copy);
			return root;
		}
		end = copy + off;
		cJSON_Delete(root);
	}
	if (end == NULL || end < copy || end > copy + len)
		end = copy + len;
	position(copy, end, &line, &col);
	*err = xasprintf("'%s' is not valid JSON (line %d, column %d); fix or "
	    "move it first", name, line, col);
	free(copy);
	return NULL;
}

/* The command of a handler, under any key a client reads it from. */
static const char *
handler_command(const cJSON *h, const struct reg_client *c)
{
	static const char *const keys[] = { "command", "bash" };
	const cJSON	*v;
	size_t		 i;

	if ((v = member(h, c->command_key)) != NULL && cJSON_IsString(v) &&
	    v->valuestring != NULL)
		return v->valuestring;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if ((v = member(h, keys[i])) != NULL && cJSON_IsString(v) &&
		    v->valuestring != NULL)
			return v->valuestring;
	return NULL;
}

/*
 * Whether handler h runs command, or, when command is our hook, any
 * registration of our hook (the same program by a full path, say).
 */
static bool
is_ours(const cJSON *h, const struct reg_client *c, const char *command)
{
	const char	*cmd = handler_command(h, c);

	return cmd != NULL && (strcmp(cmd, command) == 0 ||
	    (hookreg_is_ours(command) && hookreg_is_ours(cmd)));
}

/* The handlers of an event's array: each group's, or the array's own. */
static bool
event_has(const cJSON *groups, const struct reg_client *c,
    const char *command)
{
	const cJSON	*g, *h, *hs;

	cJSON_ArrayForEach(g, groups) {
		if (c->shape == REG_FLAT) {
			if (is_ours(g, c, command))
				return true;
			continue;
		}
		/* Entries of an unexpected shape are the client's business. */
		if (!cJSON_IsArray(hs = member(g, "hooks")))
			continue;
		cJSON_ArrayForEach(h, hs)
			if (is_ours(h, c, command))
				return true;
	}
	return false;
}

static cJSON *
new_handler(const struct reg_client *c, const struct reg_event *e,
    const char *command)
{
	cJSON	*h = must(cJSON_CreateObject());

	if (c->type != NULL)
		add_member(h, "type", must(cJSON_CreateString(c->type)));
	if (c->name != NULL)
		add_member(h, "name", must(cJSON_CreateString(c->name)));
	add_member(h, c->command_key, must(cJSON_CreateString(command)));
	if (c->shape == REG_FLAT && e->matcher[0] != '\0')
		add_member(h, "matcher", must(cJSON_CreateString(e->matcher)));
	add_member(h, c->timeout_key, must(cJSON_CreateNumber(
	    (double)c->timeout)));
	return h;
}

static cJSON *
new_entry(const struct reg_client *c, const struct reg_event *e,
    const char *command)
{
	cJSON	*g, *hs;

	if (c->shape == REG_FLAT)
		return new_handler(c, e, command);
	g = must(cJSON_CreateObject());
	if (e->matcher[0] != '\0')
		add_member(g, "matcher", must(cJSON_CreateString(e->matcher)));
	hs = must(cJSON_CreateArray());
	cJSON_AddItemToArray(hs, new_handler(c, e, command));
	add_member(g, "hooks", hs);
	return g;
}

/* The command registered for one event. */
static char *
event_command(const struct settings_edit *ed, const struct reg_event *e)
{
	return xasprintf("%s%s%s%s", ed->command, ed->client->args,
	    ed->client->event_arg ? " --event " : "",
	    ed->client->event_arg ? e->name : "");
}

/* Adds our entry to every event that has none; the number added. */
static int
add_entries(const char *name, cJSON *hooks, const struct settings_edit *ed,
    char **err)
{
	const struct reg_event	*e;
	cJSON			*groups;
	char			*cmd;
	int			 added = 0;

	for (e = ed->client->events; e->name[0] != '\0'; e++) {
		if ((groups = member(hooks, e->name)) == NULL) {
			groups = must(cJSON_CreateArray());
			add_member(hooks, e->name, groups);
		} else if (!cJSON_IsArray(groups)) {
			*err = xasprintf("'%s': \"hooks.%s\" is not an array; "
			    "fix or move it first", name, e->name);
			return -1;
		}
		cmd = event_command(ed, e);
		if (!event_has(groups, ed->client, cmd)) {
			cJSON_AddItemToArray(groups, new_entry(ed->client, e,
			    cmd));
			added++;
		}
		free(cmd);
	}
	return added;
}

static bool
drop_handler(const cJSON *h, const struct settings_edit *ed)
{
	const char	*cmd = handler_command(h, ed->client);

	return cmd != NULL && (hookreg_is_ours(cmd) ||
	    strncmp(cmd, ed->command, strlen(ed->command)) == 0);
}

/* Deletes arr's handlers of ours; how many. */
static int
drop_handlers(cJSON *arr, const struct settings_edit *ed)
{
	cJSON	*it, *next;
	int	 n = 0;

	for (it = arr->child; it != NULL; it = next) {
		next = it->next;
		if (drop_handler(it, ed)) {
			cJSON_Delete(cJSON_DetachItemViaPointer(arr, it));
			n++;
		}
	}
	return n;
}

/*
 * Deletes the handlers of ours in each group of arr, and each group
 * that had no other; how many handlers.
 */
static int
drop_in_groups(cJSON *arr, const struct settings_edit *ed)
{
	cJSON	*g, *next, *hs;
	int	 n = 0, k;

	for (g = arr->child; g != NULL; g = next) {
		next = g->next;
		if (!cJSON_IsArray(hs = member(g, "hooks")) ||
		    (k = drop_handlers(hs, ed)) == 0)
			continue;
		n += k;
		if (hs->child == NULL)
			cJSON_Delete(cJSON_DetachItemViaPointer(arr, g));
	}
	return n;
}

/* Removes our entries from every event; the number of events changed. */
static int
remove_entries(cJSON *hooks, const struct settings_edit *ed)
{
	cJSON	*groups, *next;
	int	 changed = 0, n;

	for (groups = hooks->child; groups != NULL; groups = next) {
		next = groups->next;
		if (!cJSON_IsArray(groups))
			continue;
		n = ed->client->shape == REG_FLAT ? drop_handlers(groups, ed) :
		    drop_in_groups(groups, ed);
		if (n == 0)
			continue;
		changed++;
		/* An event emptied by us goes; one that was empty stays. */
		if (groups->child == NULL)
			cJSON_Delete(cJSON_DetachItemViaPointer(hooks, groups));
	}
	return changed;
}

/*
 * Adds or removes our status line (settings_edit.statusline); the number
 * of changes (0 or 1), *done as settings_merge.h says.
 */
static int
edit_statusline(cJSON *root, const struct settings_edit *ed, int *done)
{
	cJSON		*sl = member(root, "statusLine"), *v;
	const char	*cmd = NULL;

	*done = 0;
	if (sl != NULL && (v = member(sl, "command")) != NULL &&
	    cJSON_IsString(v))
		cmd = v->valuestring;
	if (ed->uninstall) {
		if (sl == NULL || cmd == NULL ||
		    !hookreg_runs_ours(cmd, "statusline"))
			return 0;
		cJSON_Delete(cJSON_DetachItemViaPointer(root, sl));
		*done = 1;
		return 1;
	}
	if (sl != NULL) {
		if (cmd == NULL || !hookreg_runs_ours(cmd, "statusline"))
			*done = -1;
		return 0;
	}
	sl = must(cJSON_CreateObject());
	add_member(sl, "type", must(cJSON_CreateString("command")));
	add_member(sl, "command", must(cJSON_CreateString(ed->statusline)));
	add_member(root, "statusLine", sl);
	*done = 1;
	return 1;
}

int
settings_edit(const char *name, const char *old_json, size_t len,
    const struct settings_edit *ed, char **out_json, int *changed,
    bool *empty, char **err)
{
	cJSON		*root, *hooks, *v;
	struct buf	 b;
	int		 n, sl_done = 0;

	*out_json = NULL;
	*changed = 0;
	*empty = false;
	*err = NULL;
	if (name == NULL)
		name = "settings.json";
	if (blank(old_json, len))
		root = must(cJSON_CreateObject());
	else if ((root = parse(name, old_json, len, err)) == NULL)
		return -1;
	if (!cJSON_IsObject(root)) {
		*err = xasprintf("'%s' is not a JSON object; fix or move it "
		    "first", name);
		goto fail;
	}
	if ((hooks = member(root, "hooks")) != NULL && !cJSON_IsObject(hooks)) {
		*err = xasprintf("'%s': \"hooks\" is not an object; fix or "
		    "move it first", name);
		goto fail;
	}
	if (ed->uninstall) {
		n = hooks != NULL ? remove_entries(hooks, ed) : 0;
		if (n > 0 && hooks->child == NULL)
			cJSON_Delete(cJSON_DetachItemViaPointer(root, hooks));
		if (ed->statusline != NULL)
			n += edit_statusline(root, ed, &sl_done);
		/* Nothing but what we wrote: {} or {"version": 1}. */
		v = member(root, "version");
		*empty = root->child == NULL || (root->child == v &&
		    v->next == NULL);
	} else {
		if (ed->version && member(root, "version") == NULL) {
			/* Cursor's file is invalid without it: first. */
			v = must(cJSON_CreateNumber(1));
			v->string = xstrdup("version");
			if (!cJSON_InsertItemInArray(root, 0, v))
				out_of_memory(0);
		}
		if (hooks == NULL) {
			hooks = must(cJSON_CreateObject());
			add_member(root, "hooks", hooks);
		}
		if ((n = add_entries(name, hooks, ed, err)) < 0)
			goto fail;
		if (ed->statusline != NULL)
			n += edit_statusline(root, ed, &sl_done);
	}
	if (ed->statusline_done != NULL)
		*ed->statusline_done = sl_done;
	buf_init(&b);
	print_value(&b, root, 0);
	buf_addc(&b, '\n');
	cJSON_Delete(root);
	*out_json = buf_detach(&b, NULL);
	*changed = n;
	return 0;

fail:
	cJSON_Delete(root);
	return -1;
}

int
settings_merge(const char *name, const char *old_json, size_t len,
    const char *command, char **out_json, int *changed, char **err)
{
	struct settings_edit	ed;
	bool			empty;

	memset(&ed, 0, sizeof(ed));
	ed.client = hookreg_client(AGENT_CLAUDE);
	ed.command = command;
	return settings_edit(name, old_json, len, &ed, out_json, changed,
	    &empty, err);
}
