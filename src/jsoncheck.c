#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jsoncheck.h"

static const char *const type_names[] = {
	"object", "array", "string", "number", "integer", "boolean", "null"
};
static const char *const articles[] = {
	"an ", "an ", "a ", "a ", "an ", "a ", ""
};

int
json_type_from_name(const char *name)
{
	size_t	i;

	for (i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
		if (strcmp(name, type_names[i]) == 0)
			return 1 << i;
	return -1;
}

void
json_types_describe(unsigned types, struct buf *b)
{
	size_t	i, n = 0;

	for (i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++) {
		if (!(types & (1u << i)))
			continue;
		if (n++)
			buf_adds(b, " or ");
		buf_printf(b, "%s%s", articles[i], type_names[i]);
	}
}

static unsigned
type_of(const cJSON *v)
{
	if (cJSON_IsObject(v))
		return JT_OBJECT;
	if (cJSON_IsArray(v))
		return JT_ARRAY;
	if (cJSON_IsString(v))
		return JT_STRING;
	if (cJSON_IsBool(v))
		return JT_BOOLEAN;
	if (cJSON_IsNull(v))
		return JT_NULL;
	if (cJSON_IsNumber(v))
		return JT_NUMBER | (isfinite(v->valuedouble) &&
		    v->valuedouble == floor(v->valuedouble) ? JT_INTEGER : 0);
	return 0;
}

/* The value at a dotted path, or NULL. */
static const cJSON *
at_path(const cJSON *doc, const char *path)
{
	const cJSON	*v = doc;
	const char	*p = path, *dot;
	char		 part[256];
	size_t		 n;

	while (v != NULL && *p) {
		dot = strchr(p, '.');
		n = dot ? (size_t)(dot - p) : strlen(p);
		if (n >= sizeof(part))
			return NULL;
		memcpy(part, p, n);
		part[n] = '\0';
		if (cJSON_IsArray(v) && n > 0 && strspn(part, "0123456789") == n)
			v = cJSON_GetArrayItem(v, atoi(part));
		else if (cJSON_IsObject(v))
			v = cJSON_GetObjectItemCaseSensitive(v, part);
		else
			v = NULL;
		p = dot ? dot + 1 : p + n;
	}
	return v;
}

static bool
check_holds(const struct json_check *c, const cJSON *doc)
{
	const cJSON	*v = at_path(doc, c->path);

	if (v == NULL)
		return false;
	switch (c->kind) {
	case JC_KEY:
		return true;
	case JC_TYPE:
		return (type_of(v) & c->types) != 0;
	case JC_EQUALS:
		/* cJSON_Compare has no const interface; it does not write. */
		return cJSON_Compare(v, (cJSON *)(uintptr_t)c->value, 1) != 0;
	case JC_EACH:
		return cJSON_IsObject(v) || cJSON_IsArray(v);
	}
	return false;
}

static bool
where_holds(const struct json_spec *s, const cJSON *doc)
{
	size_t	i;

	for (i = 0; i < s->nwhere; i++)
		if (!check_holds(&s->where[i], doc))
			return false;
	return true;
}

/* The whole text as one JSON value, blanks around it allowed. */
static cJSON *
parse_whole(const char *text, size_t len)
{
	const char	*end = NULL;
	cJSON		*doc;
	size_t		 rest;

	doc = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	if (doc == NULL)
		return NULL;
	rest = (size_t)(end - text);
	for (; rest < len; rest++)
		if (!strchr(" \t\r\n", text[rest]))
			break;
	if (rest < len) {
		cJSON_Delete(doc);
		return NULL;
	}
	return doc;
}

/*
 * The first object or array embedded in text that satisfies `where`.  A
 * document that parses but does not fit is skipped whole.  Each try may
 * read what is left of the work (jsoncheck.h); a try cut short by it
 * sets *limit.
 */
static cJSON *
find_embedded(const struct json_spec *s, const char *text, size_t len,
    bool *limit)
{
	const char	*p = text, *end, *stop = text + len;
	cJSON		*doc;
	size_t		 left = len + JSON_FIND_SLACK, cap, used;
	int		 tries = 0;

	while (p < stop && tries < JSON_FIND_TRIES) {
		while (p < stop && *p != '{' && *p != '[')
			p++;
		if (p == stop)
			break;
		tries++;
		cap = (size_t)(stop - p) < left ? (size_t)(stop - p) : left;
		end = NULL;
		doc = cap > 0 ? cJSON_ParseWithLengthOpts(p, cap, &end, 0) :
		    NULL;
		/* Read: to its end, or to where it failed. */
		used = end != NULL && end >= p ? (size_t)(end - p) + 1 : 1;
		left -= used < left ? used : left;
		if (doc == NULL) {
			if (cap < (size_t)(stop - p) && used >= cap) {
				*limit = true;
				return NULL;
			}
			p++;
			continue;
		}
		if (where_holds(s, doc))
			return doc;
		cJSON_Delete(doc);
		p = end > p ? end : p + 1;
	}
	/*
	 * Out of tries with a candidate left: undecided, never a silent
	 * "no document", or 64 decoys would hide the one that counts.
	 */
	while (p < stop && *p != '{' && *p != '[')
		p++;
	if (p < stop)
		*limit = true;
	return NULL;
}

/*
 * A failure already listed: a missing path by an earlier keys check, a
 * container that is none by an earlier `each` on the same path.
 */
static bool
reported_before(const struct json_spec *s, size_t i, const cJSON *doc)
{
	const struct json_check	*c = &s->checks[i];
	bool			 missing = at_path(doc, c->path) == NULL;
	size_t			 k;

	for (k = 0; k < i; k++) {
		if (strcmp(s->checks[k].path, c->path) != 0)
			continue;
		if ((missing && s->checks[k].kind == JC_KEY) ||
		    (c->kind == JC_EACH && s->checks[k].kind == JC_EACH))
			return true;
	}
	return false;
}

static void
describe_failure(const struct json_check *c, const char *prefix,
    struct buf *b)
{
	static const char	 more[] = ", ...";
	char			*v;

	/* Thousands of failing members: the first ones tell the story. */
	if (b->len >= JSON_FAILURES_MAX) {
		if (b->len < sizeof(more) - 1 || strcmp(b->data + b->len -
		    (sizeof(more) - 1), more) != 0)
			buf_adds(b, more);
		return;
	}
	if (b->len)
		buf_adds(b, ", ");
	buf_printf(b, "%s%s", prefix, c->path);
	switch (c->kind) {
	case JC_KEY:
		break;
	case JC_TYPE:
		buf_adds(b, " (must be ");
		json_types_describe(c->types, b);
		buf_addc(b, ')');
		break;
	case JC_EQUALS:
		v = cJSON_PrintUnformatted((cJSON *)(uintptr_t)c->value);
		buf_printf(b, " (must be %s)", v ? v : "?");
		free(v);
		break;
	case JC_EACH:
		buf_adds(b, " (must be an object or an array)");
		break;
	}
}

static bool run_checks(const struct json_spec *, const cJSON *,
    const char *prefix, int depth, struct buf *);

/*
 * The members of the container at c->path that fit c->each's where, each
 * through c->each's checks, named prefix + path + "." + key (or index).
 */
static bool
each_holds(const struct json_check *c, const cJSON *doc, const char *prefix,
    int depth, struct buf *failures)
{
	const cJSON	*box = at_path(doc, c->path), *m;
	struct buf	 name;
	bool		 pass = true;
	int		 idx = 0;

	buf_init(&name);
	cJSON_ArrayForEach(m, box) {
		if (where_holds(c->each, m)) {
			buf_truncate(&name, 0);
			if (cJSON_IsObject(box))
				buf_printf(&name, "%s%s.%s.", prefix, c->path,
				    m->string ? m->string : "");
			else
				buf_printf(&name, "%s%s.%d.", prefix, c->path,
				    idx);
			if (!run_checks(c->each, m, name.data, depth + 1,
			    failures))
				pass = false;
		}
		idx++;
	}
	buf_release(&name);
	return pass;
}

/* Every check of s on doc; failures (if wanted) named after prefix. */
static bool
run_checks(const struct json_spec *s, const cJSON *doc, const char *prefix,
    int depth, struct buf *failures)
{
	const struct json_check	*c;
	size_t			 i;
	bool			 pass = true;

	for (i = 0; i < s->nchecks; i++) {
		c = &s->checks[i];
		if (check_holds(c, doc)) {
			if (c->kind != JC_EACH || depth >= JSON_EACH_DEPTH ||
			    each_holds(c, doc, prefix, depth, failures))
				continue;
			pass = false;
			continue;
		}
		pass = false;
		if (failures != NULL && !reported_before(s, i, doc))
			describe_failure(c, prefix, failures);
	}
	return pass;
}

enum json_result
json_check_text(const struct json_spec *s, const char *text, size_t len,
    struct buf *failures)
{
	cJSON		*doc;
	enum json_result r;
	bool		 limit = false;

	if (text == NULL || len > JSON_TEXT_MAX)
		return JSON_NO_DOCUMENT;
	if (s->find)
		doc = find_embedded(s, text, len, &limit);
	else if ((doc = parse_whole(text, len)) != NULL && !where_holds(s, doc)) {
		cJSON_Delete(doc);
		doc = NULL;
	}
	if (doc == NULL)
		return limit ? JSON_LIMIT : JSON_NO_DOCUMENT;
	r = run_checks(s, doc, "", 0, failures) ? JSON_PASSES : JSON_FAILS;
	cJSON_Delete(doc);
	return r;
}
