/*
 * diet103 .claude/skills/skill-rules.json, read as is (SPEC.md §4;
 * reference/peers.md §2.1), compiled into ordinary rules:
 *
 *   promptTriggers      -> UserPromptSubmit suggest: keywords (substring,
 *                          case-insensitive) or intentPatterns (regex, i)
 *   guardrail + block   -> PreToolUse deny on Edit/Write/MultiEdit:
 *                          fileTriggers.pathPatterns (globs) and
 *                          contentPatterns (regex, i) in `when`;
 *                          pathExclusions, skipConditions.fileMarkers and
 *                          envOverride in `unless`; sessionSkillUsed is
 *                          once: session.  blockMessage's first
 *                          "{file_path}" is the project-relative path.
 *
 * JSON has no positions in cJSON, so problems are reported with the path
 * inside the document (skills.<name>.<field>) rather than a column.
 */
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "glob.h"
#include "match_re.h"
#include "compile.h"
#include "xmalloc.h"

struct sctx {
	struct ruleset		*rs;
	struct diag_list	*diags;
	const char		*file;
	const char		*text;
	size_t			 len;
	size_t			 errors;
	int			 line, col;	/* of the skill's key */
	size_t			 search_from;	/* keys are found in order */
};

static void
serr(struct sctx *sx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Where the current skill's key is, for diagnostics. */
static void
skill_loc(const struct sctx *sx, struct diag_loc *loc)
{
	memset(loc, 0, sizeof(*loc));
	loc->file = sx->file;
	loc->line = sx->line;
	loc->col = sx->col;
	loc->text = sx->text;
	loc->text_len = sx->len;
}

static void
serr(struct sctx *sx, const char *fmt, ...)
{
	struct diag_loc	loc;
	va_list		ap;

	skill_loc(sx, &loc);
	va_start(ap, fmt);
	diag_vadd(sx->diags, DIAG_ERROR, DIAG_skill_rules, &loc, fmt, ap);
	va_end(ap);
	sx->errors++;
}

/* Where "name" first appears, so errors point at the skill's key. */
static void
locate_key(struct sctx *sx, const char *name)
{
	char		*needle = xasprintf("\"%s\"", name);
	const char	*p, *q;

	/* Skills come in document order, so a repeated name is found anew. */
	for (p = sx->text + sx->search_from;
	    (p = memmem(p, sx->len - (size_t)(p - sx->text), needle,
	    strlen(needle))) != NULL; p++) {
		/* A key, not a value that happens to spell the name. */
		q = p + strlen(needle);
		while (q < sx->text + sx->len && strchr(" \t\r\n", *q) != NULL)
			q++;
		if (q < sx->text + sx->len && *q == ':')
			break;
	}
	free(needle);
	sx->line = sx->col = 0;
	if (p == NULL)
		return;
	sx->search_from = (size_t)(p - sx->text) + 1;
	sx->line = sx->col = 1;
	for (q = sx->text; q < p; q++) {
		if (*q == '\n') {
			sx->line++;
			sx->col = 1;
		} else if (((unsigned char)*q & 0xc0) != 0x80)
			sx->col++;
	}
}

static struct cond *
new_cond(struct sctx *sx, enum cond_kind kind, const char *label)
{
	struct cond	*c = arena_alloc(&sx->rs->arena, sizeof(*c));

	c->kind = kind;
	c->label = label;
	c->line = sx->line;
	c->col = 1;
	return c;
}

static void
add_kid(struct sctx *sx, struct cond *parent, struct cond *kid)
{
	struct cond	**kids = arena_alloc(&sx->rs->arena,
	    (parent->nkids + 1) * sizeof(*kids));

	if (parent->nkids)
		memcpy(kids, parent->kids, parent->nkids * sizeof(*kids));
	kids[parent->nkids++] = kid;
	parent->kids = kids;
}

/* Returns the strings of a JSON array, or -1 when it is not one of strings. */
static int
string_array(struct sctx *sx, const cJSON *a, const char *skill,
    const char *what, const cJSON ***out, size_t *n)
{
	const cJSON	*it;
	size_t		 i = 0;

	*n = 0;
	if (!cJSON_IsArray(a)) {
		serr(sx, "skills.%s.%s must be a list of strings", skill, what);
		return -1;
	}
	*out = arena_alloc(&sx->rs->arena, ((size_t)cJSON_GetArraySize(a) + 1) *
	    sizeof(**out));
	cJSON_ArrayForEach(it, a) {
		if (!cJSON_IsString(it)) {
			serr(sx, "skills.%s.%s[%zu] must be a string", skill,
			    what, i);
			return -1;
		}
		(*out)[(*n)++] = it;
		i++;
	}
	return 0;
}

/* A text condition with one pattern per array item. */
static struct cond *
text_cond(struct sctx *sx, enum rr_field field, const char *label,
    enum matcher_kind kind, const cJSON *arr, const char *skill,
    const char *what)
{
	const cJSON	**items;
	struct cond	 *c;
	struct pattern	 *p;
	char		  errbuf[256];
	const char	 *gerr;
	size_t		  n, i, off;

	if (string_array(sx, arr, skill, what, &items, &n) < 0 || n == 0)
		return NULL;
	c = new_cond(sx, C_TEXT, label);
	c->field = field;
	c->m.kind = kind;
	c->m.ignore_case = kind != M_GLOB;
	c->m.pats = arena_alloc(&sx->rs->arena, n * sizeof(*c->m.pats));
	for (i = 0; i < n; i++) {
		p = &c->m.pats[c->m.npats];
		p->src = arena_strdup(&sx->rs->arena, items[i]->valuestring);
		p->len = strlen(p->src);
		p->line = sx->line;
		p->col = 1;
		if (kind == M_REGEX) {
			p->re = rr_regex_compile(p->src, p->len,
			    RR_RE_IGNORE_CASE, &off, errbuf, sizeof(errbuf));
			if (p->re == NULL) {
				serr(sx, "skills.%s.%s[%zu]: invalid regex: %s "
				    "at offset %zu", skill, what, i, errbuf, off);
				continue;
			}
			ruleset_own_regex(sx->rs, p->re);
		} else if (kind == M_GLOB) {
			p->glob = rr_glob_compile(p->src, p->len, &gerr, &off);
			if (p->glob == NULL) {
				serr(sx, "skills.%s.%s[%zu]: invalid glob: %s "
				    "at offset %zu", skill, what, i, gerr, off);
				continue;
			}
			ruleset_own_glob(sx->rs, p->glob);
		}
		c->m.npats++;
	}
	return c;
}

static enum rr_priority
priority_of(struct sctx *sx, const cJSON *skill, const char *name)
{
	const cJSON	*p = cJSON_GetObjectItemCaseSensitive(skill, "priority");
	int		 i;

	if (p == NULL)
		return PRI_MEDIUM;
	if (cJSON_IsString(p))
		for (i = 0; i < PRI__COUNT; i++)
			if (strcmp(p->valuestring, priority_names[i]) == 0)
				return (enum rr_priority)i;
	serr(sx, "skills.%s.priority must be critical, high, medium or low",
	    name);
	return PRI_MEDIUM;
}

/* The skill's description, when it has one, describes its rules. */
static const char *
description_of(struct sctx *sx, const cJSON *skill)
{
	const cJSON	*d = cJSON_GetObjectItemCaseSensitive(skill,
	    "description");

	return cJSON_IsString(d) ? arena_strdup(&sx->rs->arena,
	    d->valuestring) : NULL;
}

static void
add_suggest(struct sctx *sx, const cJSON *skill, const char *name,
    int layer)
{
	const cJSON	*pt = cJSON_GetObjectItemCaseSensitive(skill,
	    "promptTriggers");
	const cJSON	*kw, *ip;
	struct rule	*r;
	struct cond	*any, *c;
	struct diag_loc	 loc;
	size_t		 before = sx->errors;

	if (pt == NULL)
		return;
	if (!cJSON_IsObject(pt)) {
		serr(sx, "skills.%s.promptTriggers must be an object", name);
		return;
	}
	r = ruleset_new_rule(sx->rs);
	r->id = arena_printf(&sx->rs->arena, "skill-rules/%s", name);
	r->file = sx->file;
	r->line = sx->line;
	r->col = 1;
	r->events = 1u << EV_USER_PROMPT_SUBMIT;
	r->action = ACT_SUGGEST;
	r->skill = arena_strdup(&sx->rs->arena, name);
	r->description = description_of(sx, skill);
	r->priority = priority_of(sx, skill, name);
	any = new_cond(sx, C_ANY, "promptTriggers");
	kw = cJSON_GetObjectItemCaseSensitive(pt, "keywords");
	ip = cJSON_GetObjectItemCaseSensitive(pt, "intentPatterns");
	if (kw != NULL && (c = text_cond(sx, F_PROMPT, "prompt", M_CONTAINS,
	    kw, name, "promptTriggers.keywords")) != NULL)
		add_kid(sx, any, c);
	if (ip != NULL && (c = text_cond(sx, F_PROMPT, "prompt", M_REGEX, ip,
	    name, "promptTriggers.intentPatterns")) != NULL)
		add_kid(sx, any, c);
	if (sx->errors != before || any->nkids == 0)
		return;
	r->when = any;
	skill_loc(sx, &loc);
	if (ruleset_commit_rule(sx->rs, r, layer, sx->diags, &loc) < 0)
		sx->errors++;
}

static void
add_guard(struct sctx *sx, const cJSON *skill, const char *name, int layer)
{
	static const char *const tools[] = { "Edit", "Write", "MultiEdit" };
	struct arena	*a = &sx->rs->arena;
	const cJSON	*ft, *sk, *v, *bm;
	struct rule	*r;
	struct cond	*when, *unless, *c;
	struct diag_loc	 loc;
	const char	*msg, *at;
	size_t		 before = sx->errors, paths;

	ft = cJSON_GetObjectItemCaseSensitive(skill, "fileTriggers");
	if (!cJSON_IsObject(ft)) {
		serr(sx, "skills.%s: a blocking guardrail needs fileTriggers",
		    name);
		return;
	}
	r = ruleset_new_rule(sx->rs);
	r->id = arena_printf(a, "skill-rules/%s/guard", name);
	r->file = sx->file;
	r->line = sx->line;
	r->col = 1;
	r->events = 1u << EV_PRE_TOOL_USE;
	r->action = ACT_DENY;
	r->skill = arena_strdup(a, name);
	r->description = description_of(sx, skill);
	r->priority = priority_of(sx, skill, name);
	r->tools = (const char **)tools;
	r->tool_globs = arena_alloc(a, 3 * sizeof(*r->tool_globs));
	r->ntools = 3;

	when = new_cond(sx, C_ALL, "fileTriggers");
	v = cJSON_GetObjectItemCaseSensitive(ft, "pathPatterns");
	if (v == NULL)
		serr(sx, "skills.%s.fileTriggers.pathPatterns is required",
		    name);
	else if ((c = text_cond(sx, F_PATH, "path", M_GLOB, v, name,
	    "fileTriggers.pathPatterns")) != NULL)
		add_kid(sx, when, c);
	paths = when->nkids;
	v = cJSON_GetObjectItemCaseSensitive(ft, "contentPatterns");
	if (v != NULL && (c = text_cond(sx, F_CONTENT, "content", M_REGEX, v,
	    name, "fileTriggers.contentPatterns")) != NULL)
		add_kid(sx, when, c);

	unless = new_cond(sx, C_ANY, "skipConditions");
	v = cJSON_GetObjectItemCaseSensitive(ft, "pathExclusions");
	if (v != NULL && (c = text_cond(sx, F_PATH, "path", M_GLOB, v, name,
	    "fileTriggers.pathExclusions")) != NULL)
		add_kid(sx, unless, c);
	sk = cJSON_GetObjectItemCaseSensitive(skill, "skipConditions");
	if (sk != NULL && !cJSON_IsObject(sk))
		serr(sx, "skills.%s.skipConditions must be an object", name);
	else if (sk != NULL) {
		const cJSON **items;
		size_t n, i;
		v = cJSON_GetObjectItemCaseSensitive(sk, "fileMarkers");
		if (v != NULL && string_array(sx, v, name,
		    "skipConditions.fileMarkers", &items, &n) == 0 && n > 0) {
			c = new_cond(sx, C_FILE_CONTAINS, "file_contains");
			c->strs = arena_alloc(a, n * sizeof(*c->strs));
			for (i = 0; i < n; i++)
				c->strs[c->nstrs++] = arena_strdup(a,
				    items[i]->valuestring);
			add_kid(sx, unless, c);
		}
		v = cJSON_GetObjectItemCaseSensitive(sk, "envOverride");
		if (v != NULL && !cJSON_IsString(v))
			serr(sx, "skills.%s.skipConditions.envOverride must be "
			    "a string", name);
		else if (v != NULL) {
			c = new_cond(sx, C_ENV, "env");
			c->strs = arena_alloc(a, sizeof(*c->strs));
			c->strs[c->nstrs++] = arena_strdup(a, v->valuestring);
			add_kid(sx, unless, c);
		}
		v = cJSON_GetObjectItemCaseSensitive(sk, "sessionSkillUsed");
		if (cJSON_IsTrue(v))
			r->once = ONCE_SESSION;
	}
	bm = cJSON_GetObjectItemCaseSensitive(skill, "blockMessage");
	r->message = arena_alloc(a, sizeof(*r->message));
	if (cJSON_IsString(bm)) {
		/* JS String.replace with a string: the first occurrence only. */
		msg = bm->valuestring;
		at = strstr(msg, "{file_path}");
		if (at == NULL)
			tpl_add_literal(a, r->message, msg, strlen(msg));
		else {
			tpl_add_literal(a, r->message, msg, (size_t)(at - msg));
			tpl_add_var(a, r->message, V_PATH);
			at += strlen("{file_path}");
			tpl_add_literal(a, r->message, at, strlen(at));
		}
	} else {
		if (bm != NULL)
			serr(sx, "skills.%s.blockMessage must be a string",
			    name);
		msg = "\xe2\x9a\xa0\xef\xb8\x8f BLOCKED - ";
		tpl_add_literal(a, r->message, msg, strlen(msg));
		tpl_add_var(a, r->message, V_SKILL);
		tpl_add_literal(a, r->message, " required", 9);
	}
	/* No path pattern matches no file: diet103 never blocks then. */
	if (sx->errors != before || paths == 0)
		return;
	r->when = when;
	r->unless = unless->nkids ? unless : NULL;
	skill_loc(sx, &loc);
	if (ruleset_commit_rule(sx->rs, r, layer, sx->diags, &loc) < 0)
		sx->errors++;
}

/* cJSON's error pointer, turned into a line and column. */
static void
json_error(struct sctx *sx)
{
	const char	*at = cJSON_GetErrorPtr(), *p;
	struct diag_loc	 loc;
	int		 line = 1, col = 1;

	memset(&loc, 0, sizeof(loc));
	loc.file = sx->file;
	loc.text = sx->text;
	loc.text_len = sx->len;
	if (at != NULL && at >= sx->text && at <= sx->text + sx->len) {
		for (p = sx->text; p < at; p++) {
			if (*p == '\n') {
				line++;
				col = 1;
			} else if (((unsigned char)*p & 0xc0) != 0x80)
				col++;
		}
		loc.line = line;
		loc.col = col;
	}
	diag_add(sx->diags, DIAG_ERROR, DIAG_skill_rules, &loc,
	    "skill-rules.json is not valid JSON");
	sx->errors++;
}

size_t
ruleset_add_skill_rules(struct ruleset *rs, const char *file,
    const char *text, size_t len, int layer, struct diag_list *diags)
{
	struct sctx	 sx;
	cJSON		*root;
	const cJSON	*skills, *skill, *type, *enf;

	memset(&sx, 0, sizeof(sx));
	sx.rs = rs;
	sx.diags = diags;
	sx.file = ruleset_intern_file(rs, file);
	sx.text = text;
	sx.len = len;
	root = cJSON_ParseWithLength(text, len);
	if (root == NULL) {
		json_error(&sx);
		return sx.errors;
	}
	skills = cJSON_GetObjectItemCaseSensitive(root, "skills");
	if (!cJSON_IsObject(skills)) {
		serr(&sx, "skill-rules.json needs a \"skills\" object");
		cJSON_Delete(root);
		return sx.errors;
	}
	cJSON_ArrayForEach(skill, skills) {
		locate_key(&sx, skill->string);
		if (!cJSON_IsObject(skill)) {
			serr(&sx, "skills.%s must be an object", skill->string);
			continue;
		}
		add_suggest(&sx, skill, skill->string, layer);
		type = cJSON_GetObjectItemCaseSensitive(skill, "type");
		enf = cJSON_GetObjectItemCaseSensitive(skill, "enforcement");
		if (cJSON_IsString(type) && cJSON_IsString(enf) &&
		    strcmp(type->valuestring, "guardrail") == 0 &&
		    strcmp(enf->valuestring, "block") == 0)
			add_guard(&sx, skill, skill->string, layer);
	}
	cJSON_Delete(root);
	return sx.errors;
}
