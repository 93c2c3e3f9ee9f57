/*
 * diet103 skill-rules.json -> struct d103_rule (diet103.h): the one
 * mapping of the file, with its checks and their messages.  Nothing here
 * builds a struct rule or writes YAML; skillrules.c and import_diet103.c
 * do, from what this leaves in the set.
 */
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "diet103.h"
#include "glob.h"
#include "match_re.h"
#include "xmalloc.h"

/* The tools a guard denies: the ones that write a file. */
static const char *const guard_tools[] = { "Edit", "Write", "MultiEdit" };

/* What the items of a list must be. */
enum list_check {
	L_TEXT,
	L_REGEX,
	L_GLOB
};

/* The mapping of one file, at one skill. */
struct mctx {
	struct d103_set		*set;
	struct diag_list	*diags;
	enum diag_code		 code;
	int			 line, col;	/* of the skill's key */
	size_t			 search_from;	/* of the next key */
};

static void
merr(struct mctx *mx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Line and column (in characters) of at, inside text. */
static void
position(const char *text, const char *at, int *line, int *col)
{
	const char	*p;

	*line = *col = 1;
	for (p = text; p < at; p++) {
		if (*p == '\n') {
			(*line)++;
			*col = 1;
		} else if (((unsigned char)*p & 0xc0) != 0x80)
			(*col)++;
	}
}

static void
loc_at(const struct d103_set *set, int line, int col, struct diag_loc *loc)
{
	memset(loc, 0, sizeof(*loc));
	loc->file = set->file;
	loc->line = line;
	loc->col = col;
	loc->text = set->text;
	loc->text_len = set->len;
}

void
d103_loc(const struct d103_set *set, const struct d103_rule *d,
    struct diag_loc *loc)
{
	loc_at(set, d->line, d->col, loc);
}

/* A problem of the current skill, reported at its key. */
static void
merr(struct mctx *mx, const char *fmt, ...)
{
	struct diag_loc	loc;
	va_list		ap;

	loc_at(mx->set, mx->line, mx->col, &loc);
	va_start(ap, fmt);
	diag_vadd(mx->diags, DIAG_ERROR, mx->code, &loc, fmt, ap);
	va_end(ap);
	mx->set->errors++;
}

/* Where "name" first appears, so errors point at the skill's key. */
static void
locate_key(struct mctx *mx, const char *name)
{
	const struct d103_set	*set = mx->set;
	char			*needle = xasprintf("\"%s\"", name);
	const char		*p, *q, *end = set->text + set->len;

	/* Skills come in document order, so a repeated name is found anew. */
	for (p = set->text + mx->search_from;
	    (p = memmem(p, set->len - (size_t)(p - set->text), needle,
	    strlen(needle))) != NULL; p++) {
		/* A key, not a value that happens to spell the name. */
		q = p + strlen(needle);
		while (q < end && strchr(" \t\r\n", *q) != NULL)
			q++;
		if (q < end && *q == ':')
			break;
	}
	free(needle);
	mx->line = mx->col = 0;
	if (p == NULL)
		return;
	mx->search_from = (size_t)(p - set->text) + 1;
	position(set->text, p, &mx->line, &mx->col);
}

static void
list_free(struct d103_list *l)
{
	size_t	i;

	for (i = 0; i < l->n; i++) {
		if (l->re != NULL && l->re[i] != NULL)
			rr_regex_free(l->re[i]);
		if (l->glob != NULL && l->glob[i] != NULL)
			rr_glob_free(l->glob[i]);
	}
	memset(l, 0, sizeof(*l));
}

/* The compiled patterns a rule still owns. */
static void
rule_free(struct d103_rule *d)
{
	list_free(&d->keywords);
	list_free(&d->intents);
	list_free(&d->paths);
	list_free(&d->content);
	list_free(&d->exclusions);
	list_free(&d->markers);
	list_free(&d->env);
}

/*
 * The strings of the JSON array a (skills.NAME.what) into l, compiled as
 * check says.  Every bad pattern is reported; returns -1 after any.
 */
static int
string_list(struct mctx *mx, const cJSON *a, const char *skill,
    const char *what, enum list_check check, struct d103_list *l)
{
	struct arena	*ar = &mx->set->arena;
	const cJSON	*it;
	const char	*gerr;
	char		 errbuf[256];
	size_t		 i = 0, off, cap;
	int		 rc = 0;

	memset(l, 0, sizeof(*l));
	if (!cJSON_IsArray(a)) {
		merr(mx, "skills.%s.%s must be a list of strings", skill, what);
		return -1;
	}
	cJSON_ArrayForEach(it, a) {
		if (!cJSON_IsString(it)) {
			merr(mx, "skills.%s.%s[%zu] must be a string", skill,
			    what, i);
			return -1;
		}
		i++;
	}
	cap = (size_t)cJSON_GetArraySize(a) + 1;
	l->v = arena_alloc(ar, cap * sizeof(*l->v));
	if (check == L_REGEX)
		l->re = arena_alloc(ar, cap * sizeof(*l->re));
	else if (check == L_GLOB)
		l->glob = arena_alloc(ar, cap * sizeof(*l->glob));
	cJSON_ArrayForEach(it, a) {
		i = l->n++;
		l->v[i] = arena_strdup(ar, it->valuestring);
		if (check == L_REGEX) {
			l->re[i] = rr_regex_compile(l->v[i], strlen(l->v[i]),
			    RR_RE_IGNORE_CASE, &off, errbuf, sizeof(errbuf));
			if (l->re[i] == NULL) {
				merr(mx, "skills.%s.%s[%zu]: invalid regex: %s "
				    "at offset %zu", skill, what, i, errbuf,
				    off);
				rc = -1;
			}
		} else if (check == L_GLOB) {
			l->glob[i] = rr_glob_compile(l->v[i], strlen(l->v[i]),
			    &gerr, &off);
			if (l->glob[i] == NULL) {
				merr(mx, "skills.%s.%s[%zu]: invalid glob: %s "
				    "at offset %zu", skill, what, i, gerr, off);
				rc = -1;
			}
		}
	}
	if (rc < 0)
		list_free(l);
	return rc;
}

static enum rr_priority
priority_of(struct mctx *mx, const cJSON *skill, const char *name)
{
	const cJSON	*p = cJSON_GetObjectItemCaseSensitive(skill,
	    "priority");
	int		 i;

	if (p == NULL)
		return PRI_MEDIUM;
	if (cJSON_IsString(p))
		for (i = 0; i < PRI__COUNT; i++)
			if (strcmp(p->valuestring, priority_names[i]) == 0)
				return (enum rr_priority)i;
	merr(mx, "skills.%s.priority must be critical, high, medium or low",
	    name);
	return PRI_MEDIUM;
}

/* What every rule of a skill has. */
static void
rule_head(struct mctx *mx, struct d103_rule *d, const cJSON *skill,
    const char *name)
{
	const cJSON	*desc = cJSON_GetObjectItemCaseSensitive(skill,
	    "description");

	d->skill = arena_strdup(&mx->set->arena, name);
	if (cJSON_IsString(desc))
		d->description = arena_strdup(&mx->set->arena,
		    desc->valuestring);
	d->once = ONCE_NEVER;
	d->line = mx->line;
	d->col = mx->col;
}

/* Keeps d when nothing was reported since `before`, else frees it. */
static void
keep_rule(struct mctx *mx, struct d103_rule *d, size_t before, bool matches)
{
	if (mx->set->errors != before || !matches) {
		rule_free(d);
		return;
	}
	mx->set->rules[mx->set->n++] = *d;
}

static void
add_suggest(struct mctx *mx, const cJSON *skill, const char *name)
{
	const cJSON		*pt = cJSON_GetObjectItemCaseSensitive(skill,
	    "promptTriggers");
	const cJSON		*kw, *ip;
	struct d103_rule	 d;
	size_t			 before = mx->set->errors;

	if (pt == NULL)
		return;
	if (!cJSON_IsObject(pt)) {
		merr(mx, "skills.%s.promptTriggers must be an object", name);
		return;
	}
	memset(&d, 0, sizeof(d));
	d.kind = D103_SUGGEST;
	d.id = arena_strdup(&mx->set->arena, name);
	rule_head(mx, &d, skill, name);
	d.event = EV_USER_PROMPT_SUBMIT;
	d.action = ACT_SUGGEST;
	d.priority = priority_of(mx, skill, name);
	kw = cJSON_GetObjectItemCaseSensitive(pt, "keywords");
	ip = cJSON_GetObjectItemCaseSensitive(pt, "intentPatterns");
	if (kw != NULL)
		string_list(mx, kw, name, "promptTriggers.keywords", L_TEXT,
		    &d.keywords);
	if (ip != NULL)
		string_list(mx, ip, name, "promptTriggers.intentPatterns",
		    L_REGEX, &d.intents);
	keep_rule(mx, &d, before, d.keywords.n + d.intents.n > 0);
}

static void
seg(struct d103_rule *d, const char *text, size_t len, enum tpl_var var)
{
	struct d103_seg	*s = &d->message[d->nmessage++];

	s->text = text;
	s->len = len;
	s->var = var;
}

/* blockMessage, or diet103's own message when there is none. */
static void
block_message(struct mctx *mx, struct d103_rule *d, const cJSON *skill,
    const char *name)
{
	const cJSON	*bm = cJSON_GetObjectItemCaseSensitive(skill,
	    "blockMessage");
	const char	*msg, *at;

	if (cJSON_IsString(bm)) {
		/* JS String.replace with a string: the first one only. */
		msg = arena_strdup(&mx->set->arena, bm->valuestring);
		at = strstr(msg, "{file_path}");
		if (at == NULL)
			seg(d, msg, strlen(msg), V__COUNT);
		else {
			seg(d, msg, (size_t)(at - msg), V__COUNT);
			seg(d, NULL, 0, V_PATH);
			at += strlen("{file_path}");
			seg(d, at, strlen(at), V__COUNT);
		}
		return;
	}
	if (bm != NULL)
		merr(mx, "skills.%s.blockMessage must be a string", name);
	msg = "\xe2\x9a\xa0\xef\xb8\x8f BLOCKED - ";
	seg(d, msg, strlen(msg), V__COUNT);
	seg(d, NULL, 0, V_SKILL);
	seg(d, " required", strlen(" required"), V__COUNT);
}

static void
add_guard(struct mctx *mx, const cJSON *skill, const char *name)
{
	const cJSON		*ft, *sk, *v;
	struct d103_rule	 d;
	size_t			 before = mx->set->errors;

	ft = cJSON_GetObjectItemCaseSensitive(skill, "fileTriggers");
	if (!cJSON_IsObject(ft)) {
		merr(mx, "skills.%s: a blocking guardrail needs fileTriggers",
		    name);
		return;
	}
	memset(&d, 0, sizeof(d));
	d.kind = D103_GUARD;
	d.id = arena_printf(&mx->set->arena, "%s/guard", name);
	rule_head(mx, &d, skill, name);
	d.event = EV_PRE_TOOL_USE;
	d.tools = guard_tools;
	d.ntools = sizeof(guard_tools) / sizeof(guard_tools[0]);
	d.action = ACT_DENY;
	d.priority = priority_of(mx, skill, name);

	v = cJSON_GetObjectItemCaseSensitive(ft, "pathPatterns");
	if (v == NULL)
		merr(mx, "skills.%s.fileTriggers.pathPatterns is required",
		    name);
	else
		string_list(mx, v, name, "fileTriggers.pathPatterns", L_GLOB,
		    &d.paths);
	v = cJSON_GetObjectItemCaseSensitive(ft, "contentPatterns");
	if (v != NULL)
		string_list(mx, v, name, "fileTriggers.contentPatterns",
		    L_REGEX, &d.content);
	v = cJSON_GetObjectItemCaseSensitive(ft, "pathExclusions");
	if (v != NULL)
		string_list(mx, v, name, "fileTriggers.pathExclusions",
		    L_GLOB, &d.exclusions);
	sk = cJSON_GetObjectItemCaseSensitive(skill, "skipConditions");
	if (sk != NULL && !cJSON_IsObject(sk))
		merr(mx, "skills.%s.skipConditions must be an object", name);
	else if (sk != NULL) {
		v = cJSON_GetObjectItemCaseSensitive(sk, "fileMarkers");
		if (v != NULL)
			string_list(mx, v, name, "skipConditions.fileMarkers",
			    L_TEXT, &d.markers);
		v = cJSON_GetObjectItemCaseSensitive(sk, "envOverride");
		if (v != NULL && !cJSON_IsString(v))
			merr(mx, "skills.%s.skipConditions.envOverride must "
			    "be a string", name);
		else if (v != NULL) {
			d.env.v = arena_alloc(&mx->set->arena,
			    sizeof(*d.env.v));
			d.env.v[d.env.n++] = arena_strdup(&mx->set->arena,
			    v->valuestring);
		}
		v = cJSON_GetObjectItemCaseSensitive(sk, "sessionSkillUsed");
		if (cJSON_IsTrue(v))
			d.once = ONCE_SESSION;
	}
	block_message(mx, &d, skill, name);
	/* No path pattern matches no file: diet103 never blocks then. */
	keep_rule(mx, &d, before, d.paths.n > 0);
}

enum d103_status
d103_read(struct d103_set *set, const char *file, const char *text,
    size_t len, enum diag_code code, struct diag_list *diags)
{
	struct mctx	 mx;
	cJSON		*root;
	const cJSON	*skills, *skill, *type, *enf;
	const char	*at;

	memset(set, 0, sizeof(*set));
	arena_init(&set->arena);
	set->file = file;
	set->text = text;
	set->len = len;
	memset(&mx, 0, sizeof(mx));
	mx.set = set;
	mx.diags = diags;
	mx.code = code;
	root = cJSON_ParseWithLength(text, len);
	if (root == NULL) {
		at = cJSON_GetErrorPtr();
		if (at != NULL && at >= text && at <= text + len)
			position(text, at, &set->json_line, &set->json_col);
		return D103_NOT_JSON;
	}
	skills = cJSON_GetObjectItemCaseSensitive(root, "skills");
	if (!cJSON_IsObject(skills)) {
		merr(&mx, "skill-rules.json needs a \"skills\" object");
		cJSON_Delete(root);
		return D103_NO_SKILLS;
	}
	/* A skill makes two rules at most. */
	set->rules = arena_alloc(&set->arena, 2 *
	    ((size_t)cJSON_GetArraySize(skills) + 1) * sizeof(*set->rules));
	cJSON_ArrayForEach(skill, skills) {
		locate_key(&mx, skill->string);
		if (!cJSON_IsObject(skill)) {
			merr(&mx, "skills.%s must be an object", skill->string);
			continue;
		}
		add_suggest(&mx, skill, skill->string);
		type = cJSON_GetObjectItemCaseSensitive(skill, "type");
		enf = cJSON_GetObjectItemCaseSensitive(skill, "enforcement");
		if (cJSON_IsString(type) && cJSON_IsString(enf) &&
		    strcmp(type->valuestring, "guardrail") == 0 &&
		    strcmp(enf->valuestring, "block") == 0)
			add_guard(&mx, skill, skill->string);
	}
	cJSON_Delete(root);
	return D103_OK;
}

void
d103_release(struct d103_set *set)
{
	size_t	i;

	for (i = 0; i < set->n; i++)
		rule_free(&set->rules[i]);
	arena_release(&set->arena);
	memset(set, 0, sizeof(*set));
}
