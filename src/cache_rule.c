/*
 * A rule to bytes and back (see cache_rule.h): its header, flags, tools,
 * tags, tests and record options here; its conditions and message
 * template by way of cache_cond.c.
 */
#include <string.h>

#include "cache_rule_priv.h"
#include "glob.h"
#include "rule.h"

#define RULE_MAGIC	0x454c5552u	/* "RULE" */

/* ---- writing ------------------------------------------------------------ */

static void
encode_record(struct buf *b, const struct record_opts *o,
    struct cache_regexes *res)
{
	size_t	i;

	cr_wr_i32(b, o->retention_days);
	wr_u64(b, (uint64_t)o->max_output);
	wr_u64(b, (uint64_t)o->head_lines);
	wr_u64(b, (uint64_t)o->tail_lines);
	wr_u8(b, o->redact_defaults);
	wr_u8(b, o->detect_errors);
	wr_u8(b, o->collapse_reads);
	wr_u64(b, (uint64_t)o->max_chars);
	wr_u32(b, (uint32_t)o->nredact);
	for (i = 0; i < o->nredact; i++) {
		cr_wr_mem(b, o->redact_src[i], o->redact_len[i]);
		wr_u32(b, cr_add_regex(res, o->redact[i]));
		wr_u32(b, rr_regex_flags(o->redact[i]));
	}
}

static int
encode_test(struct buf *b, const struct rule_test *t)
{
	size_t	i;

	if (cr_wr_json(b, t->event) < 0)
		return -1;
	wr_u8(b, (uint8_t)t->expect);
	cr_wr_str(b, t->name);
	cr_wr_i32(b, t->line);
	cr_wr_i32(b, t->col);
	if (cr_wr_json(b, t->kb_rows) < 0 ||
	    cr_wr_json(b, t->tool_errors) < 0)
		return -1;
	wr_u8(b, t->known_gap);
	wr_u32(b, (uint32_t)t->nfiles);
	for (i = 0; i < t->nfiles; i++) {
		cr_wr_str(b, t->file_names[i]);
		cr_wr_str(b, t->file_texts[i]);
	}
	wr_u32(b, (uint32_t)t->nsays);
	for (i = 0; i < t->nsays; i++)
		cr_wr_str(b, t->says[i]);
	cr_wr_str(b, t->lang);
	return 0;
}

int
cache_rule_encode(struct buf *b, const struct rule *r, uint32_t index,
    uint32_t file, struct cache_regexes *res)
{
	size_t	 i, tests_at;

	wr_u32(b, RULE_MAGIC);
	wr_u32(b, index);
	cr_wr_str(b, r->id);
	cr_wr_str(b, r->description);
	wr_u32(b, r->events);
	wr_u32(b, (uint32_t)r->ntools);
	for (i = 0; i < r->ntools; i++) {
		cr_wr_str(b, r->tools[i]);
		wr_u8(b, r->tool_globs[i] != NULL);
	}
	wr_u8(b, (uint8_t)r->priority);
	wr_u8(b, (uint8_t)r->once);
	wr_u8(b, (uint8_t)r->action);
	wr_u8(b, r->enabled);
	wr_u8(b, r->ignore_stop_hook_active);
	wr_u8(b, r->fail_closed);
	wr_u8(b, r->overridable);
	wr_u8(b, r->locked);
	wr_u8(b, r->check_only);
	wr_u8(b, r->when != NULL);
	if (r->when != NULL && cr_encode_cond(b, r->when, res, 0) < 0)
		return -1;
	wr_u8(b, r->unless != NULL);
	if (r->unless != NULL && cr_encode_cond(b, r->unless, res, 0) < 0)
		return -1;
	wr_u8(b, r->message != NULL);
	if (r->message != NULL && cr_encode_template(b, r->message, 0) < 0)
		return -1;
	wr_u32(b, (uint32_t)r->nmessages);
	for (i = 0; i < r->nmessages; i++) {
		cr_wr_str(b, r->messages[i].lang);
		if (cr_encode_template(b, r->messages[i].tpl, 0) < 0)
			return -1;
	}
	cr_wr_str(b, r->skill);
	wr_u32(b, (uint32_t)r->ntags);
	for (i = 0; i < r->ntags; i++)
		cr_wr_str(b, r->tags[i]);
	/* The tests' length first: a hook call skips them (their JSON). */
	tests_at = b->len;
	wr_u32(b, 0);
	wr_u32(b, (uint32_t)r->ntests);
	for (i = 0; i < r->ntests; i++)
		if (encode_test(b, &r->tests[i]) < 0)
			return -1;
	wr_u32_at(b, tests_at, (uint32_t)(b->len - tests_at - 4));
	wr_u8(b, r->record != NULL);
	if (r->record != NULL)
		encode_record(b, r->record, res);
	wr_u8(b, r->route != NULL);
	if (r->route != NULL) {
		wr_u8(b, r->route->from_router);
		cr_wr_str(b, r->route->exec_type);
		cr_wr_str(b, r->route->pipeline);
		cr_wr_str(b, r->route->icon);
		cr_wr_str(b, r->route->reason);
		cr_wr_i32(b, r->route->confidence);
	}
	wr_u8(b, r->banner != NULL);
	if (r->banner != NULL && cr_encode_template(b, r->banner, 0) < 0)
		return -1;
	wr_u32(b, (uint32_t)r->nbanners);
	for (i = 0; i < r->nbanners; i++) {
		cr_wr_str(b, r->banners[i].lang);
		if (cr_encode_template(b, r->banners[i].tpl, 0) < 0)
			return -1;
	}
	wr_u32(b, file);
	cr_wr_i32(b, r->line);
	cr_wr_i32(b, r->col);
	cr_wr_i32(b, r->layer);
	wr_u64(b, (uint64_t)r->order);
	return 0;
}

/* ---- reading ------------------------------------------------------------ */

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

	r->ntools = cr_rd_count(d, 6);
	r->tools = arena_alloc(d->a, (r->ntools ? r->ntools : 1) *
	    sizeof(*r->tools));
	r->tool_globs = arena_alloc(d->a, (r->ntools ? r->ntools : 1) *
	    sizeof(*r->tool_globs));
	for (i = 0; i < r->ntools && !d->r.bad; i++) {
		r->tools[i] = cr_rd_str_nn(d);
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

/* The strings of a list written by encode_test; arena array. */
static const char **
decode_strlist(struct dec *d, size_t n)
{
	const char	**v = arena_alloc(d->a, (n ? n : 1) * sizeof(*v));
	size_t		  i;

	for (i = 0; i < n; i++)
		v[i] = cr_rd_str_nn(d);
	return v;
}

static void
decode_test(struct dec *d, struct rule_test *t)
{
	uint8_t	expect;
	size_t	i;

	t->event = cr_rd_json(d);
	expect = rd_u8(&d->r);
	t->name = cr_rd_str(d);
	t->line = cr_rd_int(d);
	t->col = cr_rd_int(d);
	if (d->r.bad || t->event == NULL || !valid_action(expect, true)) {
		d->r.bad = true;
		return;
	}
	t->expect = (enum rr_action)expect;
	t->kb_rows = cr_rd_json(d);
	t->tool_errors = cr_rd_json(d);
	t->known_gap = rd_u8(&d->r) != 0;
	t->nfiles = cr_rd_count(d, 10);
	t->file_names = arena_alloc(d->a, (t->nfiles ? t->nfiles : 1) *
	    sizeof(*t->file_names));
	t->file_texts = arena_alloc(d->a, (t->nfiles ? t->nfiles : 1) *
	    sizeof(*t->file_texts));
	for (i = 0; i < t->nfiles; i++) {
		t->file_names[i] = cr_rd_str_nn(d);
		t->file_texts[i] = cr_rd_str_nn(d);
	}
	t->nsays = cr_rd_count(d, 5);
	t->says = decode_strlist(d, t->nsays);
	t->lang = cr_rd_str(d);
}

static void
decode_tests(struct dec *d, struct rule *r)
{
	const unsigned char	*end;
	uint32_t		 len = rd_u32(&d->r);
	size_t			 i;

	if (d->r.bad || len > (size_t)(d->r.end - d->r.p)) {
		d->r.bad = true;
		return;
	}
	end = d->r.p + len;
	if (d->cx->skip_tests) {
		rd_bytes(&d->r, len);
		r->ntests = 0;
		r->tests = arena_alloc(d->a, sizeof(*r->tests));
		return;
	}
	r->ntests = cr_rd_count(d, 27);
	r->tests = arena_alloc(d->a, (r->ntests ? r->ntests : 1) *
	    sizeof(*r->tests));
	for (i = 0; i < r->ntests && !d->r.bad; i++)
		decode_test(d, &r->tests[i]);
	if (d->r.p != end)
		d->r.bad = true;
}

static const struct record_opts *
decode_record(struct dec *d)
{
	struct record_opts	*o = arena_alloc(d->a, sizeof(*o));
	size_t			 i, len;

	o->retention_days = cr_rd_int(d);
	o->max_output = (size_t)rd_u64(&d->r);
	o->head_lines = (size_t)rd_u64(&d->r);
	o->tail_lines = (size_t)rd_u64(&d->r);
	o->redact_defaults = rd_u8(&d->r) != 0;
	o->detect_errors = rd_u8(&d->r) != 0;
	o->collapse_reads = rd_u8(&d->r) != 0;
	o->max_chars = (size_t)rd_u64(&d->r);
	o->nredact = cr_rd_count(d, 13);
	o->redact = arena_alloc(d->a, (o->nredact ? o->nredact : 1) *
	    sizeof(*o->redact));
	o->redact_src = arena_alloc(d->a, (o->nredact ? o->nredact : 1) *
	    sizeof(*o->redact_src));
	o->redact_len = arena_alloc(d->a, (o->nredact ? o->nredact : 1) *
	    sizeof(*o->redact_len));
	for (i = 0; i < o->nredact && !d->r.bad; i++) {
		o->redact_src[i] = cr_rd_mem(d, &len, NULL);
		o->redact_len[i] = len;
		if ((o->redact[i] = cr_rd_regex(d, o->redact_src[i],
		    len)) == NULL)
			break;
		ruleset_own_regex(d->cx->owner, o->redact[i]);
	}
	return d->r.bad ? NULL : o;
}

static const struct rule_route *
decode_route(struct dec *d)
{
	struct rule_route	*r = arena_alloc(d->a, sizeof(*r));

	r->from_router = rd_u8(&d->r) != 0;
	r->exec_type = cr_rd_str(d);
	r->pipeline = cr_rd_str(d);
	r->icon = cr_rd_str(d);
	r->reason = cr_rd_str(d);
	r->confidence = cr_rd_int(d);
	/* A route of its own names its exec_type. */
	if (d->r.bad || (!r->from_router && r->exec_type == NULL) ||
	    r->confidence < 0 || r->confidence > 100)
		return NULL;
	return r;
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
	r->id = cr_rd_str_nn(&d);
	r->description = cr_rd_str(&d);
	r->events = rd_u32(&d.r);
	decode_tools(&d, r);
	pri = rd_u8(&d.r);
	once = rd_u8(&d.r);
	act = rd_u8(&d.r);
	r->enabled = rd_u8(&d.r) != 0;
	r->ignore_stop_hook_active = rd_u8(&d.r) != 0;
	r->fail_closed = rd_u8(&d.r) != 0;
	r->overridable = rd_u8(&d.r) != 0;
	r->locked = rd_u8(&d.r) != 0;
	r->check_only = rd_u8(&d.r) != 0;
	if (d.r.bad || pri >= PRI__COUNT || !valid_once(once) ||
	    !valid_action(act, false) || (r->events >> EV__COUNT) != 0)
		return NULL;
	r->priority = (enum rr_priority)pri;
	r->once = (enum rr_once)once;
	r->action = (enum rr_action)act;
	if (rd_u8(&d.r) && (r->when = cr_decode_cond(&d, 0)) == NULL)
		return NULL;
	if (rd_u8(&d.r) && (r->unless = cr_decode_cond(&d, 0)) == NULL)
		return NULL;
	/* Derived, not stored: what depends on a block (rule.h). */
	cond_mark(r->when);
	cond_mark(r->unless);
	if (rd_u8(&d.r) && (r->message = cr_decode_template(&d, 0)) == NULL)
		return NULL;
	r->nmessages = cr_rd_count(&d, 9);
	r->messages = arena_alloc(d.a, (r->nmessages ? r->nmessages : 1) *
	    sizeof(*r->messages));
	for (i = 0; i < r->nmessages; i++) {
		r->messages[i].lang = cr_rd_str_nn(&d);
		if ((r->messages[i].tpl = cr_decode_template(&d, 0)) == NULL)
			return NULL;
	}
	if (r->nmessages > 0 && r->message == NULL)
		return NULL;
	r->skill = cr_rd_str(&d);
	r->ntags = cr_rd_count(&d, 5);
	r->tags = arena_alloc(d.a, (r->ntags ? r->ntags : 1) *
	    sizeof(*r->tags));
	for (i = 0; i < r->ntags; i++)
		r->tags[i] = cr_rd_str_nn(&d);
	decode_tests(&d, r);
	if (rd_u8(&d.r) && (r->record = decode_record(&d)) == NULL)
		return NULL;
	if (rd_u8(&d.r) && (r->route = decode_route(&d)) == NULL)
		return NULL;
	if (rd_u8(&d.r) && (r->banner = cr_decode_template(&d, 0)) == NULL)
		return NULL;
	r->nbanners = cr_rd_count(&d, 9);
	r->banners = arena_alloc(d.a, (r->nbanners ? r->nbanners : 1) *
	    sizeof(*r->banners));
	for (i = 0; i < r->nbanners; i++) {
		r->banners[i].lang = cr_rd_str_nn(&d);
		if ((r->banners[i].tpl = cr_decode_template(&d, 0)) == NULL)
			return NULL;
	}
	if (r->nbanners > 0 && r->banner == NULL)
		return NULL;
	file = rd_u32(&d.r);
	r->line = cr_rd_int(&d);
	r->col = cr_rd_int(&d);
	r->layer = cr_rd_int(&d);
	r->order = (size_t)rd_u64(&d.r);
	if (d.r.bad || d.r.p != d.r.end || file >= cx->nfiles)
		return NULL;
	r->file = cx->files[file];
	return r;
}
