/*
 * One hookify rule (.claude/hookify.NAME.local.md, doc/compatibility.md
 * §2) as a reflexion-rules rule.
 *
 * The front matter is read as hookify's own line parser reads it
 * (key: value at column 0, quotes stripped, true/false, lists of
 * "- field: ..." items continued by indented "key: value" lines).  Then
 * the rule is what hookify would decide, with its known bugs fixed:
 *
 *   - new_text / content cover Write's content (hookify read only
 *     new_string, so Write never matched);
 *   - prompt rules read the prompt (hookify read user_prompt), and a
 *     simple pattern of a stop or prompt rule tests the last answer or
 *     the prompt (hookify tested a field that never exists);
 *   - block is a deny the model is told why about (permissionDecisionReason,
 *     or decision: block with a reason), also on UserPromptSubmit; warn
 *     becomes context, which the model sees (hookify's systemMessage
 *     reached only the user);
 *   - a rule runs on its own events only (hookify ran every rule on tools
 *     it did not map, and file and bash rules on PostToolUse too);
 *   - the front matter ends at a "---" line, not at any "---", and an
 *     inline "- field: x, operator: y, pattern: a,b" keeps the comma in
 *     its pattern.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "import.h"
#include "match_re.h"
#include "strset.h"
#include "xmalloc.h"
#include "yamlw.h"

#define HK_MAX_CONDS	64

struct hk_cond {
	char	*field, *op, *pattern;
	int	 line;
};

struct hk_rule {
	char		*name, *event, *pattern, *field, *action, *matcher;
	bool		 enabled;
	bool		 has_conditions;
	struct hk_cond	 conds[HK_MAX_CONDS];
	size_t		 nconds;
	const char	*body;
	size_t		 body_len;
};

struct hctx {
	const char		*file;
	const char		*text;
	size_t			 len;
	struct diag_list	*diags;
	size_t			 errors;
};

static void
herr(struct hctx *hx, int line, enum diag_severity sev, const char *fmt,
    const char *arg)
{
	struct diag_loc	loc;

	memset(&loc, 0, sizeof(loc));
	loc.file = hx->file;
	loc.line = line;
	loc.col = line ? 1 : 0;
	loc.text = hx->text;
	loc.text_len = hx->len;
	diag_add(hx->diags, sev, DIAG_import, &loc, fmt, arg);
	if (sev == DIAG_ERROR)
		hx->errors++;
}

/* Python's str.strip() set. */
static bool
py_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	    c == '\v';
}

static char *
strip(const char *s, size_t len)
{
	while (len > 0 && py_space(*s)) {
		s++;
		len--;
	}
	while (len > 0 && py_space(s[len - 1]))
		len--;
	return xstrndup(s, len);
}

/* value.strip('"').strip("'"), in place. */
static char *
strip_quotes(char *v)
{
	size_t	n;
	char	q;
	int	pass;

	for (pass = 0; pass < 2; pass++) {
		q = pass == 0 ? '"' : '\'';
		n = strlen(v);
		while (n > 0 && v[n - 1] == q)
			v[--n] = '\0';
		n = strspn(v, pass == 0 ? "\"" : "'");
		memmove(v, v + n, strlen(v + n) + 1);
	}
	return v;
}

/* "k: v" into *key and *value (owned, stripped); false without ':'. */
static bool
split_kv(const char *s, char **key, char **value)
{
	const char	*colon = strchr(s, ':');

	if (colon == NULL)
		return false;
	*key = strip(s, (size_t)(colon - s));
	*value = strip(colon + 1, strlen(colon + 1));
	return true;
}

static void
cond_set(struct hk_cond *c, const char *k, char *v)
{
	if (strcmp(k, "field") == 0) {
		free(c->field);
		c->field = v;
	} else if (strcmp(k, "operator") == 0) {
		free(c->op);
		c->op = v;
	} else if (strcmp(k, "pattern") == 0 ||
	    (strcmp(k, "value") == 0 && c->pattern == NULL)) {
		free(c->pattern);
		c->pattern = v;
	} else
		free(v);
}

/* Whether q (after a comma) starts "KEY:" for a condition key. */
static bool
starts_key(const char *q)
{
	static const char *const keys[] = {
		"field", "operator", "pattern", "value", NULL
	};
	size_t	i, n;

	q += strspn(q, " \t");
	for (i = 0; keys[i]; i++) {
		n = strlen(keys[i]);
		if (strncmp(q, keys[i], n) == 0 && q[n + strspn(q + n, " \t")] ==
		    ':')
			return true;
	}
	return false;
}

/*
 * "- field: command, operator: regex_match, pattern: a,b": split before
 * each ", KEY:" where KEY is a condition key, so that commas inside a
 * pattern stay (hookify split on every comma).
 */
static void
inline_dict(struct hk_cond *c, const char *item)
{
	const char	*p = item, *next;
	char		*k, *v, *part;

	while (*p) {
		for (next = strchr(p, ','); next != NULL && !starts_key(next + 1);
		    next = strchr(next + 1, ','))
			;
		part = xstrndup(p, next ? (size_t)(next - p) : strlen(p));
		if (split_kv(part, &k, &v)) {
			cond_set(c, k, strip_quotes(v));
			free(k);
		}
		free(part);
		p = next ? next + 1 : p + strlen(p);
	}
}

static void
set_top(struct hk_rule *r, const char *k, char *v)
{
	char	**slot = NULL;

	if (strcmp(k, "name") == 0)
		slot = &r->name;
	else if (strcmp(k, "event") == 0)
		slot = &r->event;
	else if (strcmp(k, "pattern") == 0)
		slot = &r->pattern;
	else if (strcmp(k, "field") == 0)
		slot = &r->field;
	else if (strcmp(k, "action") == 0)
		slot = &r->action;
	else if (strcmp(k, "tool_matcher") == 0)
		slot = &r->matcher;
	else if (strcmp(k, "enabled") == 0)
		r->enabled = strcasecmp(v, "false") != 0 && *v != '\0';
	if (slot != NULL) {
		free(*slot);
		*slot = v;
	} else
		free(v);
}

/* Reads the front matter lines [fm, fm_end); line numbers from line0. */
static void
parse_front_matter(struct hctx *hx, struct hk_rule *r, const char *fm,
    const char *fm_end, int line0)
{
	const char	*p = fm, *eol;
	char		*line, *stripped, *k, *v, *item;
	char		*list_key = NULL;
	struct hk_cond	*cur = NULL;
	size_t		 indent;
	int		 ln = line0;

	for (; p < fm_end; p = eol + 1, ln++) {
		eol = memchr(p, '\n', (size_t)(fm_end - p));
		if (eol == NULL)
			eol = fm_end;
		line = xstrndup(p, (size_t)(eol - p));
		stripped = strip(line, strlen(line));
		for (indent = 0; line[indent] && py_space(line[indent]);
		    indent++)
			;
		if (*stripped == '\0' || *stripped == '#') {
			free(line);
			free(stripped);
			if (eol == fm_end)
				break;
			continue;
		}
		if (indent == 0 && strchr(line, ':') && *stripped != '-') {
			cur = NULL;
			free(list_key);
			list_key = NULL;
			split_kv(line, &k, &v);
			if (*v == '\0') {
				list_key = k;
				free(v);
				if (strcmp(list_key, "conditions") == 0)
					r->has_conditions = true;
			} else {
				set_top(r, k, strip_quotes(v));
				free(k);
			}
		} else if (*stripped == '-' && list_key != NULL) {
			cur = NULL;
			item = strip(stripped + 1, strlen(stripped + 1));
			if (strcmp(list_key, "conditions") != 0)
				;	/* a list hookify does not read */
			else if (r->nconds == HK_MAX_CONDS)
				herr(hx, ln, DIAG_ERROR, "more than %s "
				    "conditions", "64");
			else if (strchr(item, ':') != NULL) {
				cur = &r->conds[r->nconds++];
				cur->line = ln;
				if (strchr(item, ',') != NULL) {
					inline_dict(cur, item);
					cur = NULL;
				} else if (split_kv(item, &k, &v)) {
					cond_set(cur, k, strip_quotes(v));
					free(k);
				}
			} else
				herr(hx, ln, DIAG_WARNING, "a condition must be "
				    "\"- field: ...\"; '%s' is ignored", item);
			free(item);
		} else if (indent > 2 && cur != NULL && strchr(line, ':') &&
		    split_kv(stripped, &k, &v)) {
			cond_set(cur, k, strip_quotes(v));
			free(k);
		} else
			herr(hx, ln, DIAG_WARNING, "hookify ignores this line: %s",
			    stripped);
		free(line);
		free(stripped);
		if (eol == fm_end)
			break;
	}
	free(list_key);
}

static void
rule_release(struct hk_rule *r)
{
	size_t	i;

	free(r->name);
	free(r->event);
	free(r->pattern);
	free(r->field);
	free(r->action);
	free(r->matcher);
	for (i = 0; i < r->nconds; i++) {
		free(r->conds[i].field);
		free(r->conds[i].op);
		free(r->conds[i].pattern);
	}
}

/*
 * The reflexion-rules field for a hookify field, or NULL.  Other names
 * are tool_input keys (input.NAME); a name that cannot be one (a dot
 * would nest, a blank or a control character no tool sends, and YAML
 * keys stop at 1024 characters) is NULL too.
 */
static char *
map_field(const char *f)
{
	size_t	n;

	if (f == NULL || *f == '\0')
		return NULL;
	if (strcmp(f, "command") == 0)
		return xstrdup("command");
	if (strcmp(f, "new_text") == 0 || strcmp(f, "new_string") == 0 ||
	    strcmp(f, "content") == 0)
		return xstrdup("content");
	if (strcmp(f, "old_text") == 0 || strcmp(f, "old_string") == 0)
		return xstrdup("old_content");
	if (strcmp(f, "user_prompt") == 0 || strcmp(f, "prompt") == 0)
		return xstrdup("prompt");
	/* Stop: the answer (hookify's reason and transcript never held it). */
	if (strcmp(f, "reason") == 0 || strcmp(f, "transcript") == 0)
		return xstrdup("message");
	n = strspn(f, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789_-");
	if (f[n] != '\0' || n > 128)
		return NULL;
	return xasprintf("input.%s", f);
}

/* Writes one condition as a list item at `indent`; false if unusable. */
static bool
write_cond(struct hctx *hx, struct buf *b, int indent, const char *field,
    const char *op, const char *pat, int line)
{
	char		 errbuf[256];
	size_t		 off;
	struct rr_regex	*re;
	bool		 negate, is_regex;

	negate = strcmp(op, "not_contains") == 0 ||
	    strcmp(op, "not_regex_match") == 0;
	is_regex = strcmp(op, "regex_match") == 0 ||
	    strcmp(op, "not_regex_match") == 0;
	if (!is_regex && !negate && strcmp(op, "contains") &&
	    strcmp(op, "equals") && strcmp(op, "starts_with") &&
	    strcmp(op, "ends_with")) {
		herr(hx, line, DIAG_ERROR, "unknown operator '%s': hookify "
		    "never matches it", op);
		return false;
	}
	if (is_regex) {
		re = rr_regex_compile(pat, strlen(pat), RR_RE_IGNORE_CASE, &off,
		    errbuf, sizeof(errbuf));
		if (re == NULL) {
			herr(hx, line, DIAG_ERROR, "invalid regex (hookify "
			    "never matches it): %s", errbuf);
			return false;
		}
		rr_regex_free(re);
	}
	if (negate) {
		/* hookify: a field the event lacks makes the condition false. */
		buf_printf(b, "%*s- ", indent, "");
		yamlw_cstr(b, field);
		buf_adds(b, ": '^'    # present\n");
		buf_printf(b, "%*s- not: {", indent, "");
		yamlw_cstr(b, field);
		buf_adds(b, ": {");
	} else {
		buf_printf(b, "%*s- ", indent, "");
		yamlw_cstr(b, field);
		buf_adds(b, ": {");
	}
	if (is_regex) {
		buf_adds(b, "regex: ");
		yamlw_cstr(b, pat);
		buf_adds(b, ", ignore_case: true}");
	} else {
		buf_printf(b, "%s: ", strcmp(op, "not_contains") == 0 ?
		    "contains" : op);
		yamlw_cstr(b, pat);
		buf_addc(b, '}');
	}
	buf_adds(b, negate ? "}\n" : "\n");
	return true;
}

static void
add_tool(struct buf *tools, size_t *n, const char *t)
{
	buf_adds(tools, (*n)++ ? ", " : "[");
	yamlw_cstr(tools, t);
}

/*
 * The events (*on) and tools (a flow list in `tools`, or nothing) of a
 * rule from its event and tool_matcher; false when no event of the rule
 * can have a tool the matcher names (hookify never fires it then).
 */
static bool
events_and_tools(const struct hk_rule *r, const char **on, struct buf *tools)
{
	static const char *const bash_tools[] = { "Bash", NULL };
	static const char *const file_tools[] = {
		"Edit", "Write", "MultiEdit", NULL
	};
	static const char *const read_tools[] = {
		"Read", "Glob", "Grep", "LS", NULL
	};
	const char *const	*base = NULL;
	const char		*ev = r->event ? r->event : "all", *p, *bar;
	char			*t;
	size_t			 n = 0;
	bool			 any = r->matcher == NULL ||
	    strcmp(r->matcher, "*") == 0;

	if (strcmp(ev, "bash") == 0)
		base = bash_tools;
	else if (strcmp(ev, "file") == 0)
		base = file_tools;
	else if (strcmp(ev, "read") == 0)
		base = read_tools;
	if (base != NULL)
		*on = "PreToolUse";
	else if (strcmp(ev, "stop") == 0)
		*on = "Stop";
	else if (strcmp(ev, "prompt") == 0)
		*on = "UserPromptSubmit";
	else if (strcmp(ev, "all") == 0)
		*on = any ? "[PreToolUse, UserPromptSubmit, Stop]" :
		    "PreToolUse";
	else
		return false;
	if (any) {
		for (; base != NULL && *base; base++)
			add_tool(tools, &n, *base);
		if (n)
			buf_addc(tools, ']');
		return true;
	}
	if (base == NULL && strcmp(ev, "all") != 0)
		return false;		/* Stop and prompts have no tool */
	for (p = r->matcher; p != NULL; p = bar ? bar + 1 : NULL) {
		bar = strchr(p, '|');
		t = strip(p, bar ? (size_t)(bar - p) : strlen(p));
		/*
		 * hookify compares names exactly: one with other characters
		 * than a tool name's (a '*', a brace) names no tool.
		 */
		if (*t != '\0' && t[strspn(t, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")] == '\0' &&
		    (base == NULL || str_in_set(t, base)))
			add_tool(tools, &n, t);
		free(t);
	}
	if (n)
		buf_addc(tools, ']');
	return n > 0;
}

/* The whole rule; false when hookify could never fire it. */
static bool
write_rule(struct hctx *hx, struct import_ids *ids, struct hk_rule *r,
    struct buf *out)
{
	static const char *const all_fields[] = {
		"command", "content", "prompt", "message"
	};
	const char	*on = NULL, *ev = r->event ? r->event : "all";
	struct buf	 tools, when, msg;
	char		*id, *f;
	size_t		 i, ok = 0, total, flen;
	bool		 fires, any_form = false;

	buf_init(&tools);
	buf_init(&when);
	buf_init(&msg);
	fires = events_and_tools(r, &on, &tools);
	if (on == NULL) {
		herr(hx, 0, DIAG_ERROR, "unknown event '%s'", ev);
		goto fail;
	}
	if (r->nconds > 0) {
		for (i = 0; i < r->nconds; i++) {
			f = map_field(r->conds[i].field);
			if (f == NULL) {
				herr(hx, r->conds[i].line, DIAG_ERROR,
				    "condition field '%s' names no field an "
				    "event has: hookify never matches it",
				    r->conds[i].field ? r->conds[i].field : "");
				goto fail;
			}
			if (write_cond(hx, &when, 8, f, r->conds[i].op ?
			    r->conds[i].op : "regex_match",
			    r->conds[i].pattern ? r->conds[i].pattern : "",
			    r->conds[i].line))
				ok++;
			free(f);
		}
		total = r->nconds;
	} else if (r->pattern != NULL && *r->pattern != '\0') {
		/* A simple pattern: the field the event implies. */
		total = 1;
		if (r->field != NULL)
			f = map_field(r->field);
		else if (strcmp(ev, "bash") == 0)
			f = xstrdup("command");
		else if (strcmp(ev, "file") == 0)
			f = xstrdup("content");
		else if (strcmp(ev, "prompt") == 0)
			f = xstrdup("prompt");
		else if (strcmp(ev, "stop") == 0)
			f = xstrdup("message");
		else if (strcmp(ev, "read") == 0)
			f = xstrdup("path");
		else
			f = NULL;
		if (f != NULL) {
			if (strcmp(f, "path") == 0) {
				free(f);
				f = xstrdup("input.file_path");
			}
			ok += write_cond(hx, &when, 8, f, "regex_match",
			    r->pattern, 0);
			free(f);
		} else {
			/* event all: whichever field the event has. */
			any_form = true;
			for (i = 0; i < 4; i++)
				if (write_cond(hx, &when, 8, all_fields[i],
				    "regex_match", r->pattern, 0))
					ok++;
			ok = ok == 4;
		}
	} else {
		herr(hx, 0, DIAG_ERROR, "no pattern and no conditions: hookify "
		    "never matches it%s", "");
		goto fail;
	}
	if (ok != total)
		goto fail;
	id = import_unique_id(ids, r->name ? r->name : "unnamed");
	buf_adds(out, "\n  - id: ");
	yamlw_cstr(out, id);
	buf_adds(out, "\n    description: ");
	yamlw_cstr(out, hx->file);
	buf_printf(out, "\n    on: %s\n", on);
	if (tools.len)
		buf_printf(out, "    tools: %s\n", tools.data);
	if (!r->enabled || !fires)
		buf_printf(out, "    enabled: false%s\n", fires ? "" :
		    "    # its tool_matcher names no tool of its event");
	buf_adds(out, "    when:\n");
	if (memchr(when.data, '\n', when.len) == when.data + when.len - 1)
		/* One condition on one line: a map, not a list of one. */
		buf_printf(out, "      %s", when.data + 10);
	else {
		buf_adds(out, any_form ? "      any:\n" : "      all:\n");
		buf_add(out, when.data, when.len);
	}
	buf_printf(out, "    action: %s\n", r->action &&
	    strcmp(r->action, "block") == 0 ? "deny" : "context");
	/* hookify's message: "**[name]**", a newline, the body. */
	buf_printf(&msg, "**[%s]**\n", r->name ? r->name : "unnamed");
	buf_add(&msg, r->body, r->body_len);
	f = import_template_text(msg.data, msg.len, &flen);
	buf_adds(out, "    message:");
	yamlw_text(out, f, flen, 4);
	free(f);
	free(id);
	buf_release(&tools);
	buf_release(&when);
	buf_release(&msg);
	return true;
fail:
	buf_release(&tools);
	buf_release(&when);
	buf_release(&msg);
	return false;
}

int
import_hookify(const char *file, const char *text, size_t len,
    struct import_ids *ids, struct buf *out, struct diag_list *diags)
{
	struct hctx	 hx;
	struct hk_rule	 r;
	const char	*p, *eol, *fm, *end = text + len, *body;
	char		*b;
	int		 line = 2, rc;

	memset(&hx, 0, sizeof(hx));
	hx.file = file;
	hx.text = text;
	hx.len = len;
	hx.diags = diags;
	if (len < 3 || memcmp(text, "---", 3) != 0) {
		herr(&hx, 1, DIAG_ERROR, "no front matter: a hookify rule "
		    "starts with a '---' line%s", "");
		return -1;
	}
	/* The front matter: from the line after "---" to a "---" line. */
	fm = memchr(text, '\n', len);
	fm = fm ? fm + 1 : end;
	for (p = fm; p < end; p = eol + 1, line++) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (eol == NULL)
			eol = end;
		b = strip(p, (size_t)(eol - p));
		rc = strcmp(b, "---") == 0;
		free(b);
		if (rc)
			break;
		if (eol == end) {
			p = end;
			break;
		}
	}
	if (p >= end) {
		herr(&hx, 1, DIAG_ERROR, "the front matter has no closing "
		    "'---' line%s", "");
		return -1;
	}
	memset(&r, 0, sizeof(r));
	r.enabled = true;
	parse_front_matter(&hx, &r, fm, p, 2);
	body = eol < end ? eol + 1 : end;
	while (body < end && py_space(*body))
		body++;
	r.body = body;
	r.body_len = (size_t)(end - body);
	while (r.body_len > 0 && py_space(r.body[r.body_len - 1]))
		r.body_len--;
	/* The body may hold NUL bytes: copy all of it. */
	b = xmemdup0(r.body, r.body_len);
	r.body = b;
	rc = write_rule(&hx, ids, &r, out) ? 1 : -1;
	free(b);
	rule_release(&r);
	return rc;
}
