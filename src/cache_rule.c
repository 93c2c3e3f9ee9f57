#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "cache_rule.h"
#include "glob.h"
#include "xmalloc.h"

#define RULE_MAGIC	0x454c5552u	/* "RULE" */
#define NO_STRING	0xffffffffu
#define COND_MAX_DEPTH	256
#define LIST_MAX	(1u << 24)

/* ---- writing ------------------------------------------------------------ */

/* Bytes with a length and a NUL after them; NULL is a marker. */
static void
wr_mem(struct buf *b, const char *s, size_t len)
{
	if (s == NULL) {
		wr_u32(b, NO_STRING);
		return;
	}
	wr_u32(b, (uint32_t)len);
	buf_add(b, s, len);
	wr_u8(b, 0);
}

static void
wr_str(struct buf *b, const char *s)
{
	wr_mem(b, s, s ? strlen(s) : 0);
}

static void
wr_i32(struct buf *b, int v)
{
	wr_u32(b, (uint32_t)v);
}

static uint32_t
add_regex(struct cache_regexes *res, struct rr_regex *re)
{
	if (res->n == res->cap) {
		res->cap = res->cap ? res->cap * 2 : 64;
		res->v = xreallocarray(res->v, res->cap, sizeof(*res->v));
	}
	res->v[res->n] = re;
	return (uint32_t)res->n++;
}

static int
encode_pattern(struct buf *b, enum matcher_kind kind, const struct pattern *p,
    struct cache_regexes *res)
{
	struct buf	 rx;
	const char	*err;
	size_t		 off;
	bool		 base;

	wr_mem(b, p->src, p->len);
	wr_i32(b, p->line);
	wr_i32(b, p->col);
	switch (kind) {
	case M_REGEX:
		wr_u32(b, add_regex(res, p->re));
		wr_u32(b, rr_regex_flags(p->re));
		return 0;
	case M_GLOB:
		/* The translated regex, for when serialized code is not. */
		buf_init(&rx);
		if (glob_to_regex(p->src, p->len, &rx, &base, &err, &off) < 0) {
			buf_release(&rx);
			return -1;
		}
		wr_u32(b, add_regex(res,
		    (struct rr_regex *)rr_glob_regex(p->glob)));
		wr_u32(b, rr_regex_flags(rr_glob_regex(p->glob)));
		wr_u8(b, rr_glob_basename_only(p->glob));
		wr_mem(b, rx.data, rx.len);
		buf_release(&rx);
		return 0;
	case M_KEYWORDS:
	case M_CONTAINS:
	case M_EQUALS:
		return 0;
	}
	return -1;
}

static int
encode_cond(struct buf *b, const struct cond *c, struct cache_regexes *res,
    int depth)
{
	size_t	i;

	if (depth > COND_MAX_DEPTH)
		return -1;
	wr_u8(b, (uint8_t)c->kind);
	wr_str(b, c->label);
	wr_i32(b, c->line);
	wr_i32(b, c->col);
	switch (c->kind) {
	case C_TEXT:
		wr_u8(b, (uint8_t)c->field);
		wr_str(b, c->input_key);
		wr_u8(b, (uint8_t)c->m.kind);
		wr_u8(b, c->m.ignore_case);
		wr_u8(b, c->m.word);
		wr_u32(b, (uint32_t)c->m.npats);
		for (i = 0; i < c->m.npats; i++)
			if (encode_pattern(b, c->m.kind, &c->m.pats[i],
			    res) < 0)
				return -1;
		return 0;
	case C_FILE_CONTAINS:
	case C_ENV:
		wr_u32(b, (uint32_t)c->nstrs);
		for (i = 0; i < c->nstrs; i++)
			wr_str(b, c->strs[i]);
		return 0;
	case C_ALL:
	case C_ANY:
	case C_NOT:
		wr_u32(b, (uint32_t)c->nkids);
		for (i = 0; i < c->nkids; i++)
			if (encode_cond(b, c->kids[i], res, depth + 1) < 0)
				return -1;
		return 0;
	}
	return -1;
}

static int
encode_template(struct buf *b, const struct template *t)
{
	size_t	i;

	wr_u32(b, (uint32_t)t->n);
	for (i = 0; i < t->n; i++) {
		switch (t->segs[i].kind) {
		case TPL_LITERAL:
		case TPL_VAR:
			break;
		}
		wr_u8(b, (uint8_t)t->segs[i].kind);
		wr_mem(b, t->segs[i].text, t->segs[i].len);
		wr_u32(b, (uint32_t)t->segs[i].len);
		wr_u32(b, (uint32_t)t->segs[i].var);
	}
	wr_str(b, t->src);
	return 0;
}

int
cache_rule_encode(struct buf *b, const struct rule *r, uint32_t index,
    uint32_t file, struct cache_regexes *res)
{
	char	*json;
	size_t	 i;

	wr_u32(b, RULE_MAGIC);
	wr_u32(b, index);
	wr_str(b, r->id);
	wr_str(b, r->description);
	wr_u32(b, r->events);
	wr_u32(b, (uint32_t)r->ntools);
	for (i = 0; i < r->ntools; i++) {
		wr_str(b, r->tools[i]);
		wr_u8(b, r->tool_globs[i] != NULL);
	}
	wr_u8(b, (uint8_t)r->priority);
	wr_u8(b, (uint8_t)r->once);
	wr_u8(b, (uint8_t)r->action);
	wr_u8(b, r->enabled);
	wr_u8(b, r->ignore_stop_hook_active);
	wr_u8(b, r->when != NULL);
	if (r->when != NULL && encode_cond(b, r->when, res, 0) < 0)
		return -1;
	wr_u8(b, r->unless != NULL);
	if (r->unless != NULL && encode_cond(b, r->unless, res, 0) < 0)
		return -1;
	wr_u8(b, r->message != NULL);
	if (r->message != NULL && encode_template(b, r->message) < 0)
		return -1;
	wr_str(b, r->skill);
	wr_u32(b, (uint32_t)r->ntags);
	for (i = 0; i < r->ntags; i++)
		wr_str(b, r->tags[i]);
	wr_u32(b, (uint32_t)r->ntests);
	for (i = 0; i < r->ntests; i++) {
		/* cJSON prints numbers so that they parse back exactly. */
		json = cJSON_PrintUnformatted(r->tests[i].event);
		if (json == NULL)
			return -1;
		wr_str(b, json);
		free(json);
		wr_u8(b, (uint8_t)r->tests[i].expect);
		wr_str(b, r->tests[i].name);
		wr_i32(b, r->tests[i].line);
		wr_i32(b, r->tests[i].col);
	}
	wr_u32(b, file);
	wr_i32(b, r->line);
	wr_i32(b, r->col);
	wr_i32(b, r->layer);
	wr_u64(b, (uint64_t)r->order);
	return 0;
}

/* ---- reading ------------------------------------------------------------ */

struct dec {
	struct rd		 r;
	struct cache_decode_ctx	*cx;
	struct arena		*a;
};

/* Bytes written by wr_mem(): a pointer into the input, or NULL. */
static const char *
rd_mem(struct dec *d, size_t *lenp, bool *bad_null)
{
	uint32_t		 len = rd_u32(&d->r);
	const unsigned char	*p;

	*lenp = 0;
	if (len == NO_STRING) {
		if (bad_null != NULL)
			*bad_null = true;
		return NULL;
	}
	p = rd_bytes(&d->r, (size_t)len + 1);
	if (p == NULL || p[len] != '\0') {
		d->r.bad = true;
		return NULL;
	}
	*lenp = len;
	return (const char *)p;
}

static const char *
rd_str(struct dec *d)
{
	size_t	len;

	return rd_mem(d, &len, NULL);
}

/* A string that may not be NULL. */
static const char *
rd_str_nn(struct dec *d)
{
	size_t		 len;
	bool		 isnull = false;
	const char	*s = rd_mem(d, &len, &isnull);

	if (isnull)
		d->r.bad = true;
	return s;
}

/* A count of items that take at least `min` bytes each. */
static size_t
rd_count(struct dec *d, size_t min)
{
	uint32_t	n = rd_u32(&d->r);

	if (n > LIST_MAX || (size_t)n * min > (size_t)(d->r.end - d->r.p)) {
		d->r.bad = true;
		return 0;
	}
	return n;
}

static int
rd_int(struct dec *d)
{
	return (int)rd_u32(&d->r);
}

static void
decode_pattern(struct dec *d, enum matcher_kind kind, struct pattern *p)
{
	struct rr_regex	*re;
	const char	*rx;
	size_t		 rxlen;
	uint32_t	 slot, flags;
	bool		 base;

	p->src = rd_mem(d, &p->len, NULL);
	if (p->src == NULL)
		d->r.bad = true;
	p->line = rd_int(d);
	p->col = rd_int(d);
	switch (kind) {
	case M_REGEX:
		slot = rd_u32(&d->r);
		flags = rd_u32(&d->r);
		if (d->r.bad || slot >= d->cx->nslots)
			break;
		re = rr_regex_lazy(p->src, p->len, flags, d->cx->regex_src,
		    slot);
		ruleset_own_regex(d->cx->owner, re);
		p->re = re;
		return;
	case M_GLOB:
		slot = rd_u32(&d->r);
		flags = rd_u32(&d->r);
		base = rd_u8(&d->r) != 0;
		rx = rd_mem(d, &rxlen, NULL);
		if (d->r.bad || rx == NULL || slot >= d->cx->nslots)
			break;
		re = rr_regex_lazy(rx, rxlen, flags, d->cx->regex_src, slot);
		p->glob = rr_glob_wrap(re, base);
		ruleset_own_glob(d->cx->owner, p->glob);
		return;
	case M_KEYWORDS:
	case M_CONTAINS:
	case M_EQUALS:
		return;
	}
	d->r.bad = true;
}

static bool
valid_field(uint8_t f)
{
	return f <= F_INPUT;
}

static bool
valid_matcher(uint8_t k)
{
	switch ((enum matcher_kind)k) {
	case M_REGEX:
	case M_KEYWORDS:
	case M_CONTAINS:
	case M_EQUALS:
	case M_GLOB:
		return true;
	}
	return false;
}

static bool
valid_seg(uint8_t k)
{
	switch ((enum tpl_seg_kind)k) {
	case TPL_LITERAL:
	case TPL_VAR:
		return true;
	}
	return false;
}

static struct cond *
decode_cond(struct dec *d, int depth)
{
	struct cond	*c;
	uint8_t		 k, mk;
	size_t		 i;

	if (depth > COND_MAX_DEPTH) {
		d->r.bad = true;
		return NULL;
	}
	c = arena_alloc(d->a, sizeof(*c));
	k = rd_u8(&d->r);
	c->label = rd_str(d);
	c->line = rd_int(d);
	c->col = rd_int(d);
	switch ((enum cond_kind)k) {
	case C_TEXT:
		c->kind = C_TEXT;
		k = rd_u8(&d->r);
		if (!valid_field(k))
			break;
		c->field = (enum rr_field)k;
		c->input_key = rd_str(d);
		if (c->field == F_INPUT && c->input_key == NULL)
			break;
		mk = rd_u8(&d->r);
		if (!valid_matcher(mk))
			break;
		c->m.kind = (enum matcher_kind)mk;
		c->m.ignore_case = rd_u8(&d->r) != 0;
		c->m.word = rd_u8(&d->r) != 0;
		c->m.npats = rd_count(d, 12);
		c->m.pats = arena_alloc(d->a, (c->m.npats ? c->m.npats : 1) *
		    sizeof(*c->m.pats));
		for (i = 0; i < c->m.npats && !d->r.bad; i++)
			decode_pattern(d, c->m.kind, &c->m.pats[i]);
		return d->r.bad ? NULL : c;
	case C_FILE_CONTAINS:
	case C_ENV:
		c->kind = (enum cond_kind)k;
		c->nstrs = rd_count(d, 5);
		c->strs = arena_alloc(d->a, (c->nstrs ? c->nstrs : 1) *
		    sizeof(*c->strs));
		for (i = 0; i < c->nstrs; i++)
			c->strs[i] = rd_str_nn(d);
		return d->r.bad ? NULL : c;
	case C_ALL:
	case C_ANY:
	case C_NOT:
		c->kind = (enum cond_kind)k;
		c->nkids = rd_count(d, 13);
		if (c->kind == C_NOT && c->nkids != 1)
			break;
		c->kids = arena_alloc(d->a, (c->nkids ? c->nkids : 1) *
		    sizeof(*c->kids));
		for (i = 0; i < c->nkids && !d->r.bad; i++)
			c->kids[i] = decode_cond(d, depth + 1);
		return d->r.bad ? NULL : c;
	}
	d->r.bad = true;
	return NULL;
}

static struct template *
decode_template(struct dec *d)
{
	struct template	*t = arena_alloc(d->a, sizeof(*t));
	struct tpl_seg	*s;
	size_t		 i, len;
	uint8_t		 k;
	uint32_t	 var;

	t->n = rd_count(d, 13);
	t->segs = arena_alloc(d->a, (t->n ? t->n : 1) * sizeof(*t->segs));
	for (i = 0; i < t->n && !d->r.bad; i++) {
		s = &t->segs[i];
		k = rd_u8(&d->r);
		if (!valid_seg(k)) {
			d->r.bad = true;
			return NULL;
		}
		s->kind = (enum tpl_seg_kind)k;
		s->text = rd_mem(d, &len, NULL);
		s->len = rd_u32(&d->r);
		var = rd_u32(&d->r);
		if ((s->text != NULL && s->len != len) || var > V__COUNT ||
		    (s->kind == TPL_LITERAL && s->text == NULL) ||
		    (s->kind == TPL_VAR && var == V__COUNT) ||
		    (s->kind == TPL_VAR && (var == V_INPUT || var == V_ENV) &&
		    s->text == NULL))
			d->r.bad = true;
		s->var = (enum tpl_var)var;
	}
	t->src = rd_str(d);
	return d->r.bad ? NULL : t;
}

static bool
valid_action(uint8_t a, bool allow_none)
{
	switch ((enum rr_action)a) {
	case ACT_DENY:
	case ACT_ASK:
	case ACT_ALLOW:
	case ACT_CONTEXT:
	case ACT_SUGGEST:
	case ACT_WARN:
	case ACT_RECORD:
		return true;
	case ACT__COUNT:	/* == ACT_NONE */
		return allow_none;
	}
	return false;
}

static bool
valid_once(uint8_t o)
{
	switch ((enum rr_once)o) {
	case ONCE_NEVER:
	case ONCE_SESSION:
	case ONCE_SESSION_PATH:
		return true;
	}
	return false;
}

static void
decode_tools(struct dec *d, struct rule *r)
{
	struct rr_glob	*g;
	const char	*err;
	size_t		 i, off;

	r->ntools = rd_count(d, 6);
	r->tools = arena_alloc(d->a, (r->ntools ? r->ntools : 1) *
	    sizeof(*r->tools));
	r->tool_globs = arena_alloc(d->a, (r->ntools ? r->ntools : 1) *
	    sizeof(*r->tool_globs));
	for (i = 0; i < r->ntools && !d->r.bad; i++) {
		r->tools[i] = rd_str_nn(d);
		if (rd_u8(&d->r) == 0 || d->r.bad)
			continue;
		/* Tool globs are rare and small: compiled again. */
		g = rr_glob_compile(r->tools[i], strlen(r->tools[i]), &err,
		    &off);
		if (g == NULL) {
			d->r.bad = true;
			return;
		}
		ruleset_own_glob(d->cx->owner, g);
		r->tool_globs[i] = g;
	}
}

static void
decode_tests(struct dec *d, struct rule *r)
{
	struct rule_test	*t;
	const char		*json;
	size_t			 i;
	uint8_t			 expect;

	r->ntests = rd_count(d, 18);
	r->tests = arena_alloc(d->a, (r->ntests ? r->ntests : 1) *
	    sizeof(*r->tests));
	for (i = 0; i < r->ntests && !d->r.bad; i++) {
		t = &r->tests[i];
		json = rd_str_nn(d);
		expect = rd_u8(&d->r);
		t->name = rd_str(d);
		t->line = rd_int(d);
		t->col = rd_int(d);
		if (d->r.bad || !valid_action(expect, true))
			break;
		t->expect = (enum rr_action)expect;
		t->event = cJSON_Parse(json);
		if (t->event == NULL) {
			d->r.bad = true;
			return;
		}
		ruleset_own_json(d->cx->owner, t->event);
	}
	if (i < r->ntests)
		d->r.bad = true;
}

struct rule *
cache_rule_decode(const unsigned char *p, size_t len, uint32_t index,
    struct cache_decode_ctx *cx)
{
	struct dec	 d;
	struct rule	*r;
	uint8_t		 pri, once, act;
	uint32_t	 file;
	size_t		 i;

	rd_init(&d.r, p, len);
	d.cx = cx;
	d.a = &cx->owner->arena;
	if (rd_u32(&d.r) != RULE_MAGIC || rd_u32(&d.r) != index)
		return NULL;
	r = arena_alloc(d.a, sizeof(*r));
	r->id = rd_str_nn(&d);
	r->description = rd_str(&d);
	r->events = rd_u32(&d.r);
	decode_tools(&d, r);
	pri = rd_u8(&d.r);
	once = rd_u8(&d.r);
	act = rd_u8(&d.r);
	r->enabled = rd_u8(&d.r) != 0;
	r->ignore_stop_hook_active = rd_u8(&d.r) != 0;
	if (d.r.bad || pri >= PRI__COUNT || !valid_once(once) ||
	    !valid_action(act, false) || (r->events >> EV__COUNT) != 0)
		return NULL;
	r->priority = (enum rr_priority)pri;
	r->once = (enum rr_once)once;
	r->action = (enum rr_action)act;
	if (rd_u8(&d.r) && (r->when = decode_cond(&d, 0)) == NULL)
		return NULL;
	if (rd_u8(&d.r) && (r->unless = decode_cond(&d, 0)) == NULL)
		return NULL;
	if (rd_u8(&d.r) && (r->message = decode_template(&d)) == NULL)
		return NULL;
	r->skill = rd_str(&d);
	r->ntags = rd_count(&d, 5);
	r->tags = arena_alloc(d.a, (r->ntags ? r->ntags : 1) *
	    sizeof(*r->tags));
	for (i = 0; i < r->ntags; i++)
		r->tags[i] = rd_str_nn(&d);
	decode_tests(&d, r);
	file = rd_u32(&d.r);
	r->line = rd_int(&d);
	r->col = rd_int(&d);
	r->layer = rd_int(&d);
	r->order = (size_t)rd_u64(&d.r);
	if (d.r.bad || d.r.p != d.r.end || file >= cx->nfiles)
		return NULL;
	r->file = cx->files[file];
	return r;
}
