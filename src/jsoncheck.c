#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsoncheck.h"

const char *const json_cmp_names[JCMP__COUNT] = {
	[JCMP_EQ] = "equals", [JCMP_NE] = "not_equals",
	[JCMP_LT] = "less_than", [JCMP_LE] = "at_most",
	[JCMP_GT] = "greater_than", [JCMP_GE] = "at_least",
};

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

const cJSON *
json_at_path(const cJSON *doc, const char *path)
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
	const cJSON	*v = json_at_path(doc, c->path);

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
	case JC_COMPARE:
		return true;	/* decided by compare_holds() */
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

cJSON *
json_parse_whole(const char *text, size_t len)
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
	bool			 missing = json_at_path(doc, c->path) == NULL;
	size_t			 k;

	for (k = 0; k < i; k++) {
		if (s->checks[k].kind == JC_COMPARE ||
		    strcmp(s->checks[k].path, c->path) != 0)
			continue;
		if ((missing && s->checks[k].kind == JC_KEY) ||
		    (c->kind == JC_EACH && s->checks[k].kind == JC_EACH))
			return true;
	}
	return false;
}

/* Room for one more failure: false (and ", ..." once) when full. */
static bool
failure_room(struct buf *b)
{
	static const char	 more[] = ", ...";

	/* Thousands of failing members: the first ones tell the story. */
	if (b->len >= JSON_FAILURES_MAX) {
		if (b->len < sizeof(more) - 1 || strcmp(b->data + b->len -
		    (sizeof(more) - 1), more) != 0)
			buf_adds(b, more);
		return false;
	}
	if (b->len)
		buf_adds(b, ", ");
	return true;
}

/* A value as compact JSON, cut after 64 bytes. */
static void
add_value(struct buf *b, const cJSON *v)
{
	char	*t = cJSON_PrintUnformatted((cJSON *)(uintptr_t)v);
	size_t	 n;

	if (t == NULL) {
		buf_addc(b, '?');
		return;
	}
	n = strlen(t);
	if (n > 64) {
		n = 64;
		while (n > 0 && ((unsigned char)t[n] & 0xc0) == 0x80)
			n--;
		buf_add(b, t, n);
		buf_adds(b, "...");
	} else
		buf_add(b, t, n);
	free(t);
}

static void
describe_failure(const struct json_check *c, const char *prefix,
    const cJSON *doc, struct buf *b)
{
	const cJSON	*v;

	if (!failure_room(b))
		return;
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
		buf_adds(b, " (must be ");
		add_value(b, c->value);
		/* What it is: the message can say what to fix. */
		if ((v = json_at_path(doc, c->path)) != NULL) {
			buf_adds(b, ", is ");
			add_value(b, v);
		}
		buf_addc(b, ')');
		break;
	case JC_EACH:
		buf_adds(b, " (must be an object or an array)");
		break;
	case JC_COMPARE:
		break;
	}
}

/* ---- members -------------------------------------------------------------- */

/* Whether member m has what fit's where and has ask for. */
static bool
member_has(const struct json_spec *fit, const cJSON *m)
{
	size_t	i;

	if (fit == NULL)
		return true;
	if (!where_holds(fit, m))
		return false;
	for (i = 0; i < fit->nhas; i++)
		if (json_at_path(m, fit->has[i]) == NULL)
			return false;
	return true;
}

/*
 * The one member that fit's key names (*key: the key made), or NULL:
 * through the env's index when it has one (a lookup per block must not
 * scan a big object each time), else by a scan.  *keyed is false when
 * fit names no key.
 */
static const cJSON *
keyed_member(const struct json_spec *fit, const cJSON *box,
    const struct json_env *env, bool *keyed, const char **key)
{
	const char	*want;
	const cJSON	*m;
	char		*end;
	long		 idx;

	*keyed = fit != NULL && fit->key != NULL;
	*key = NULL;
	if (!*keyed)
		return NULL;
	want = fit->key;
	if (strstr(want, "{{") != NULL &&
	    (env == NULL || (want = env->expand(env->arg, want)) == NULL))
		return NULL;
	*key = want;
	if (env != NULL && env->member != NULL)
		return env->member(env->arg, box, want);
	if (cJSON_IsObject(box)) {
		cJSON_ArrayForEach(m, box)
			if (m->string != NULL && strcmp(m->string, want) == 0)
				return m;
		return NULL;
	}
	idx = strtol(want, &end, 10);
	if (*want < '0' || *want > '9' || *end != '\0' || idx > INT32_MAX)
		return NULL;
	return cJSON_GetArrayItem(box, (int)idx);
}

/* ---- comparisons ---------------------------------------------------------- */

/* A number as rules write it: 3, 2.5, -1e+30. */
static void
add_number(struct buf *b, double d)
{
	if (d > -9.2e18 && d < 9.2e18 && d == (double)(long long)d)
		buf_printf(b, "%lld", (long long)d);
	else
		buf_printf(b, "%.15g", d);
}

static void
describe_num(const struct json_num *n, const char *prefix, struct buf *b)
{
	size_t	i;

	switch (n->kind) {
	case JN_VALUE:
		buf_printf(b, "%s%s", prefix, n->paths[0]);
		break;
	case JN_SUM:
		for (i = 0; i < n->npaths; i++)
			buf_printf(b, "%s%s%s", i ? " + " : "", prefix,
			    n->paths[i]);
		break;
	case JN_COUNT:
		buf_printf(b, "count(%s%s)", prefix, n->paths[0]);
		break;
	case JN_CONST:
		add_number(b, n->value);
		break;
	}
}

/*
 * The number a side stands for, into *out; or -1 with why (the path that
 * is missing or not a number) appended to `why`.
 */
static int
num_value(const struct json_num *n, const cJSON *doc, const char *prefix,
    const struct json_env *env, double *out, struct buf *why)
{
	const cJSON	*v, *m;
	const char	*key;
	size_t		 i;
	bool		 keyed;

	*out = 0;
	switch (n->kind) {
	case JN_CONST:
		*out = n->value;
		return 0;
	case JN_VALUE:
	case JN_SUM:
		for (i = 0; i < n->npaths; i++) {
			v = json_at_path(doc, n->paths[i]);
			if (v == NULL && n->kind == JN_SUM)
				continue;	/* not there: counts 0 */
			if (v == NULL || !cJSON_IsNumber(v)) {
				buf_printf(why, "%s%s %s", prefix, n->paths[i],
				    v == NULL ? "is missing" :
				    "is not a number (");
				if (v != NULL) {
					add_value(why, v);
					buf_addc(why, ')');
				}
				return -1;
			}
			*out += v->valuedouble;
		}
		return 0;
	case JN_COUNT:
		v = json_at_path(doc, n->paths[0]);
		if (v == NULL)
			return 0;
		if (!cJSON_IsObject(v) && !cJSON_IsArray(v)) {
			buf_printf(why, "%s%s is not an object or an array",
			    prefix, n->paths[0]);
			return -1;
		}
		if ((m = keyed_member(n->fit, v, env, &keyed, &key)) !=
		    NULL || keyed) {
			*out = m != NULL && member_has(n->fit, m) ? 1 : 0;
			return 0;
		}
		cJSON_ArrayForEach(m, v)
			if (member_has(n->fit, m))
				*out += 1;
		return 0;
	}
	return -1;
}

static bool
compare_holds(const struct json_check *c, const cJSON *doc,
    const char *prefix, const struct json_env *env, struct buf *failures)
{
	static const char *const says[JCMP__COUNT] = {
		[JCMP_EQ] = "must equal", [JCMP_NE] = "must not equal",
		[JCMP_LT] = "must be less than", [JCMP_LE] = "must be at most",
		[JCMP_GT] = "must be greater than",
		[JCMP_GE] = "must be at least",
	};
	const struct json_compare	*cmp = c->cmp;
	struct buf			 why;
	double				 l, r;
	bool				 holds = false;

	buf_init(&why);
	if (num_value(&cmp->left, doc, prefix, env, &l, &why) == 0 &&
	    num_value(&cmp->right, doc, prefix, env, &r, &why) == 0) {
		switch (cmp->op) {
		case JCMP_EQ:	holds = l == r; break;
		case JCMP_NE:	holds = l != r; break;
		case JCMP_LT:	holds = l < r; break;
		case JCMP_LE:	holds = l <= r; break;
		case JCMP_GT:	holds = l > r; break;
		case JCMP_GE:	holds = l >= r; break;
		case JCMP__COUNT: break;
		}
		if (!holds && failures != NULL && failure_room(failures)) {
			/* Both numbers: the message shows what to fix. */
			describe_num(&cmp->left, prefix, failures);
			if (cmp->left.kind != JN_CONST) {
				buf_adds(failures, " (");
				add_number(failures, l);
				buf_addc(failures, ')');
			}
			buf_printf(failures, " %s ", says[cmp->op]);
			describe_num(&cmp->right, prefix, failures);
			if (cmp->right.kind != JN_CONST) {
				buf_adds(failures, " (");
				add_number(failures, r);
				buf_addc(failures, ')');
			}
		}
	} else if (failures != NULL && failure_room(failures))
		buf_add(failures, why.data, why.len);
	buf_release(&why);
	return holds;
}

/* ---- checks --------------------------------------------------------------- */

static bool run_checks(const struct json_spec *, const cJSON *,
    const char *prefix, int depth, struct buf *, const struct json_env *);

/* Member m, named prefix + path + "." + key, through each's checks. */
static bool
member_checks(const struct json_check *c, const cJSON *m, const char *key,
    const char *prefix, int depth, struct buf *failures,
    const struct json_env *env)
{
	struct buf	 name;
	bool		 pass;

	buf_init(&name);
	buf_printf(&name, "%s%s.%s.", prefix, c->path, key);
	pass = run_checks(c->each, m, name.data, depth + 1, failures, env);
	buf_release(&name);
	return pass;
}

/*
 * The members of the container at c->path that fit c->each (its key,
 * where and has), each through c->each's checks.
 */
static bool
each_holds(const struct json_check *c, const cJSON *doc, const char *prefix,
    int depth, struct buf *failures, const struct json_env *env)
{
	const cJSON	*box = json_at_path(doc, c->path), *m;
	const char	*key;
	char		 num[32];
	bool		 pass = true, keyed;
	int		 idx = 0;

	/* A key names one member: no scan of the others. */
	m = keyed_member(c->each, box, env, &keyed, &key);
	if (keyed)
		return m == NULL || !member_has(c->each, m) ||
		    member_checks(c, m, key, prefix, depth, failures, env);
	cJSON_ArrayForEach(m, box) {
		snprintf(num, sizeof(num), "%d", idx++);
		if (member_has(c->each, m) && !member_checks(c, m,
		    cJSON_IsObject(box) ? (m->string ? m->string : "") : num,
		    prefix, depth, failures, env))
			pass = false;
	}
	return pass;
}

/* Every check of s on doc; failures (if wanted) named after prefix. */
static bool
run_checks(const struct json_spec *s, const cJSON *doc, const char *prefix,
    int depth, struct buf *failures, const struct json_env *env)
{
	const struct json_check	*c;
	size_t			 i;
	bool			 pass = true;

	for (i = 0; i < s->nchecks; i++) {
		c = &s->checks[i];
		if (c->kind == JC_COMPARE) {
			if (!compare_holds(c, doc, prefix, env, failures))
				pass = false;
			continue;
		}
		if (check_holds(c, doc)) {
			if (c->kind != JC_EACH || depth >= JSON_EACH_DEPTH ||
			    each_holds(c, doc, prefix, depth, failures, env))
				continue;
			pass = false;
			continue;
		}
		pass = false;
		if (failures != NULL && !reported_before(s, i, doc))
			describe_failure(c, prefix, doc, failures);
	}
	return pass;
}

enum json_result
json_check_doc(const struct json_spec *s, const cJSON *doc,
    struct buf *failures, const struct json_env *env)
{
	if (doc == NULL || !where_holds(s, doc))
		return JSON_NO_DOCUMENT;
	return run_checks(s, doc, "", 0, failures, env) ? JSON_PASSES :
	    JSON_FAILS;
}

enum json_result
json_check_text(const struct json_spec *s, const char *text, size_t len,
    struct buf *failures, const struct json_env *env)
{
	cJSON		*doc;
	enum json_result r;
	bool		 limit = false;

	if (text == NULL || len > JSON_TEXT_MAX)
		return JSON_NO_DOCUMENT;
	if (s->find)
		doc = find_embedded(s, text, len, &limit);
	else if ((doc = json_parse_whole(text, len)) != NULL &&
	    !where_holds(s, doc)) {
		cJSON_Delete(doc);
		doc = NULL;
	}
	if (doc == NULL)
		return limit ? JSON_LIMIT : JSON_NO_DOCUMENT;
	r = run_checks(s, doc, "", 0, failures, env) ? JSON_PASSES :
	    JSON_FAILS;
	cJSON_Delete(doc);
	return r;
}

static bool
spec_uses(const struct json_spec *s, const char *tag, int depth)
{
	const struct json_num	*sides[2];
	size_t			 i, k;

	if (s == NULL || depth > JSON_EACH_DEPTH + 1)
		return false;
	if (s->key != NULL && strstr(s->key, tag) != NULL)
		return true;
	for (i = 0; i < s->nchecks; i++) {
		if (s->checks[i].kind == JC_EACH &&
		    spec_uses(s->checks[i].each, tag, depth + 1))
			return true;
		if (s->checks[i].kind != JC_COMPARE)
			continue;
		sides[0] = &s->checks[i].cmp->left;
		sides[1] = &s->checks[i].cmp->right;
		for (k = 0; k < 2; k++)
			if (sides[k]->kind == JN_COUNT &&
			    spec_uses(sides[k]->fit, tag, depth + 1))
				return true;
	}
	return false;
}

bool
json_spec_uses(const struct json_spec *s, const char *var)
{
	char	tag[64];

	snprintf(tag, sizeof(tag), "{{%s}}", var);
	return spec_uses(s, tag, 0);
}
