/*
 * The compiled cache's encoding of conditions, matchers, tagged-section
 * and blocks specs, related files and message templates (see
 * cache_rule.h); a json matcher's spec is cache_json.c's.  Every
 * switch over the model's enums is exhaustive and has no default: a new
 * kind does not build until it is encoded here.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cache_rule_priv.h"
#include "glob.h"
#include "jsoncheck.h"
#include "xmalloc.h"

#define COND_MAX_DEPTH	256
#define TPL_MAX_DEPTH	64

/* ---- writing ------------------------------------------------------------ */

static int
encode_pattern(struct buf *b, enum matcher_kind kind, const struct pattern *p,
    struct cache_regexes *res)
{
	const struct rr_regex *ci;
	struct buf	 rx;
	const char	*err;
	size_t		 off;
	bool		 base;

	cr_wr_mem(b, p->src, p->len);
	cr_wr_i32(b, p->line);
	cr_wr_i32(b, p->col);
	switch (kind) {
	case M_REGEX:
		wr_u32(b, cr_add_regex(res, p->re));
		wr_u32(b, rr_regex_flags(p->re));
		return 0;
	case M_GLOB:
		/* The translated regex, for when serialized code is not. */
		buf_init(&rx);
		if (glob_to_regex(p->src, p->len, &rx, &base, &err, &off) < 0) {
			buf_release(&rx);
			return -1;
		}
		wr_u32(b, cr_add_regex(res,
		    (struct rr_regex *)rr_glob_regex(p->glob)));
		wr_u32(b, rr_regex_flags(rr_glob_regex(p->glob)));
		/* The caseless twin, when the glob has one (glob.h). */
		ci = rr_glob_regex_ci(p->glob);
		wr_u8(b, ci != NULL);
		if (ci != NULL) {
			wr_u32(b, cr_add_regex(res, (struct rr_regex *)ci));
			wr_u32(b, rr_regex_flags(ci));
		}
		wr_u8(b, rr_glob_basename_only(p->glob));
		cr_wr_mem(b, rx.data, rx.len);
		buf_release(&rx);
		return 0;
	case M_KEYWORDS:
	case M_CONTAINS:
	case M_EQUALS:
	case M_STARTS_WITH:
	case M_ENDS_WITH:
	case M_JSON:
		return 0;
	}
	return -1;
}

static int
encode_matcher(struct buf *b, const struct matcher *m,
    struct cache_regexes *res)
{
	size_t	i;

	wr_u8(b, (uint8_t)m->kind);
	wr_u8(b, m->ignore_case);
	wr_u8(b, m->word);
	wr_u8(b, m->line);
	wr_u8(b, m->required);
	wr_u32(b, (uint32_t)m->npats);
	for (i = 0; i < m->npats; i++)
		if (encode_pattern(b, m->kind, &m->pats[i], res) < 0)
			return -1;
	wr_u8(b, m->json != NULL);
	if (m->json != NULL && cr_encode_json_spec(b, m->json) < 0)
		return -1;
	/* A path's outside and except (rule.h). */
	wr_u32(b, m->outside);
	wr_u32(b, (uint32_t)m->nexcept);
	for (i = 0; i < m->nexcept; i++)
		if (encode_pattern(b, M_GLOB, &m->except[i], res) < 0)
			return -1;
	return 0;
}

static int
encode_strs(struct buf *b, const char *const *strs, size_t n)
{
	size_t	i;

	wr_u32(b, (uint32_t)n);
	for (i = 0; i < n; i++)
		cr_wr_str(b, strs[i]);
	return 0;
}

/* A pattern of a blocks condition that may be absent. */
static int
encode_opt_pattern(struct buf *b, const struct pattern *p,
    struct cache_regexes *res)
{
	wr_u8(b, p != NULL);
	return p != NULL ? encode_pattern(b, M_REGEX, p, res) : 0;
}

static int
encode_opt_cond(struct buf *b, const struct cond *c, struct cache_regexes *res,
    int depth)
{
	wr_u8(b, c != NULL);
	return c != NULL ? cr_encode_cond(b, c, res, depth + 1) : 0;
}

static int
encode_blocks(struct buf *b, const struct blocks_spec *s,
    struct cache_regexes *res, int depth)
{
	wr_u8(b, (uint8_t)s->in);
	cr_wr_str(b, s->in_key);
	if (encode_opt_pattern(b, s->start, res) < 0 ||
	    encode_opt_pattern(b, s->separator, res) < 0 ||
	    encode_opt_pattern(b, s->end, res) < 0 ||
	    encode_opt_pattern(b, s->id, res) < 0)
		return -1;
	cr_wr_str(b, s->json);
	cr_wr_str(b, s->json_id);
	wr_u8(b, s->every);
	cr_wr_str(b, s->name);
	if (encode_opt_cond(b, s->when, res, depth) < 0 ||
	    encode_opt_cond(b, s->unless, res, depth) < 0 ||
	    encode_opt_cond(b, s->test, res, depth) < 0)
		return -1;
	return 0;
}

int
cr_encode_cond(struct buf *b, const struct cond *c, struct cache_regexes *res,
    int depth)
{
	const struct sections_spec *s;
	size_t	i;

	if (depth > COND_MAX_DEPTH)
		return -1;
	wr_u8(b, (uint8_t)c->kind);
	cr_wr_str(b, c->label);
	cr_wr_i32(b, c->line);
	cr_wr_i32(b, c->col);
	wr_u8(b, (uint8_t)c->field);
	cr_wr_str(b, c->input_key);
	switch (c->kind) {
	case C_TEXT:
		return encode_matcher(b, &c->m, res);
	case C_SH_TEXT:
		wr_u8(b, (uint8_t)c->sh_part);
		return encode_matcher(b, &c->m, res);
	case C_FILE_CONTAINS:
	case C_ENV:
	case C_SH_FLAGS:
		return encode_strs(b, c->strs, c->nstrs);
	case C_ALL:
	case C_ANY:
	case C_NOT:
	case C_SHELL:
		wr_u32(b, (uint32_t)c->nkids);
		for (i = 0; i < c->nkids; i++)
			if (cr_encode_cond(b, c->kids[i], res, depth + 1) < 0)
				return -1;
		return 0;
	case C_KB:
		switch (c->kb_query) {
		case KBQ_FILE_ERRORS:
		case KBQ_SESSION_ERROR:
			break;
		}
		wr_u8(b, (uint8_t)c->kb_query);
		wr_u32(b, (uint32_t)c->kb_limit);
		return 0;
	case C_BLOCKS:
		return encode_blocks(b, c->blocks, res, depth);
	case C_BLOCK_PART:
		switch (c->block_part) {
		case BP_TEXT:
		case BP_ID:
		case BP__COUNT:
			break;
		}
		wr_u8(b, (uint8_t)c->block_part);
		return encode_matcher(b, &c->m, res);
	case C_LISTED:
		return encode_matcher(b, &c->m, res);
	case C_RELATED:
		cr_wr_str(b, c->related->tpl);
		wr_u32(b, c->related->uses);
		wr_u8(b, c->related->exists);
		return c->related->exists ? 0 :
		    encode_matcher(b, &c->related->m, res);
	case C_MEMORY:
		switch (c->mem_query) {
		case MQ_SUMMARIES:
		case MQ_CONVERSATIONS:
		case MQ_OBSERVATIONS:
		case MQ_ROUTE:
		case MQ__COUNT:
			break;
		}
		wr_u8(b, (uint8_t)c->mem_query);
		wr_u32(b, (uint32_t)c->mem_limit);
		wr_u8(b, c->mem_all_projects);
		cr_wr_i32(b, c->mem_below);
		return 0;
	case C_ROUTER:
		return 0;
	case C_SECTIONS:
		s = c->sections;
		cr_wr_str(b, s->file);
		wr_u32(b, (uint32_t)s->ntags);
		for (i = 0; i < s->ntags; i++) {
			cr_wr_str(b, s->tags[i].name);
			wr_u8(b, s->tags[i].when != NULL);
			if (s->tags[i].when != NULL && cr_encode_cond(b,
			    s->tags[i].when, res, depth + 1) < 0)
				return -1;
		}
		return 0;
	}
	return -1;
}

int
cr_encode_template(struct buf *b, const struct template *t, int depth)
{
	const struct tpl_seg	*s;
	size_t			 i;

	if (depth > TPL_MAX_DEPTH)
		return -1;
	wr_u32(b, (uint32_t)t->n);
	for (i = 0; i < t->n; i++) {
		s = &t->segs[i];
		switch (s->kind) {
		case TPL_LITERAL:
		case TPL_VAR:
		case TPL_ROW:
		case TPL_MEMROW:
		case TPL_SECTION:
			break;
		}
		wr_u8(b, (uint8_t)s->kind);
		cr_wr_mem(b, s->text, s->len);
		wr_u32(b, (uint32_t)s->len);
		wr_u32(b, (uint32_t)s->var);
		wr_u8(b, (uint8_t)s->field);
		wr_u8(b, (uint8_t)s->mfield);
		wr_u8(b, (uint8_t)s->section);
		wr_u8(b, s->inverted);
		cr_wr_mem(b, s->sep, s->seplen);
		wr_u8(b, s->body != NULL);
		if (s->body != NULL &&
		    cr_encode_template(b, s->body, depth + 1) < 0)
			return -1;
	}
	cr_wr_str(b, t->src);
	wr_u8(b, t->uses_kb);
	wr_u8(b, t->uses_memory);
	return 0;
}

/* ---- reading ------------------------------------------------------------ */

static void
decode_pattern(struct dec *d, enum matcher_kind kind, struct pattern *p)
{
	struct rr_regex	*re, *ci;
	const char	*rx;
	size_t		 rxlen;
	uint32_t	 slot, flags, ci_slot = 0, ci_flags = 0;
	bool		 base, has_ci;

	p->src = cr_rd_mem(d, &p->len, NULL);
	if (p->src == NULL)
		d->r.bad = true;
	p->line = cr_rd_int(d);
	p->col = cr_rd_int(d);
	switch (kind) {
	case M_REGEX:
		if ((re = cr_rd_regex(d, p->src, p->len)) == NULL)
			break;
		ruleset_own_regex(d->cx->owner, re);
		p->re = re;
		return;
	case M_GLOB:
		slot = rd_u32(&d->r);
		flags = rd_u32(&d->r);
		if ((has_ci = rd_u8(&d->r) != 0)) {
			ci_slot = rd_u32(&d->r);
			ci_flags = rd_u32(&d->r);
		}
		base = rd_u8(&d->r) != 0;
		rx = cr_rd_mem(d, &rxlen, NULL);
		if (d->r.bad || rx == NULL || slot >= d->cx->nslots ||
		    (has_ci && ci_slot >= d->cx->nslots))
			break;
		/* Both are the same translation: only the flags differ. */
		re = rr_regex_lazy(rx, rxlen, flags, d->cx->regex_src, slot);
		ci = has_ci ? rr_regex_lazy(rx, rxlen, ci_flags,
		    d->cx->regex_src, ci_slot) : NULL;
		p->glob = rr_glob_wrap(re, ci, base);
		ruleset_own_glob(d->cx->owner, p->glob);
		return;
	case M_KEYWORDS:
	case M_CONTAINS:
	case M_EQUALS:
	case M_STARTS_WITH:
	case M_ENDS_WITH:
	case M_JSON:
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
	case M_STARTS_WITH:
	case M_ENDS_WITH:
	case M_JSON:
		return true;
	}
	return false;
}

static void
decode_matcher(struct dec *d, struct matcher *m)
{
	struct json_spec	*js;
	size_t			 i;
	uint8_t			 mk = rd_u8(&d->r);

	if (!valid_matcher(mk)) {
		d->r.bad = true;
		return;
	}
	m->kind = (enum matcher_kind)mk;
	m->ignore_case = rd_u8(&d->r) != 0;
	m->word = rd_u8(&d->r) != 0;
	m->line = rd_u8(&d->r) != 0;
	m->required = rd_u8(&d->r) != 0;
	m->npats = cr_rd_count(d, 12);
	m->pats = arena_alloc(d->a, (m->npats ? m->npats : 1) *
	    sizeof(*m->pats));
	for (i = 0; i < m->npats && !d->r.bad; i++)
		decode_pattern(d, m->kind, &m->pats[i]);
	if (rd_u8(&d->r) == 0) {
		if (m->kind == M_JSON)
			d->r.bad = true;
	} else {
		if ((js = cr_decode_json_spec(d)) == NULL)
			d->r.bad = true;
		m->json = js;
	}
	m->outside = rd_u32(&d->r);
	m->nexcept = cr_rd_count(d, 12);
	m->except = arena_alloc(d->a, (m->nexcept ? m->nexcept : 1) *
	    sizeof(*m->except));
	for (i = 0; i < m->nexcept && !d->r.bad; i++)
		decode_pattern(d, M_GLOB, &m->except[i]);
	/*
	 * What the compiler makes: places it knows, and no pattern only
	 * for a glob matcher that outside or except narrows.
	 */
	if ((m->outside & ~(unsigned)PLACE__ALL) != 0 || (m->npats == 0 &&
	    m->kind != M_JSON && (m->kind != M_GLOB || (m->outside == 0 &&
	    m->nexcept == 0))))
		d->r.bad = true;
}

static void
decode_strs(struct dec *d, struct cond *c)
{
	size_t	i;

	c->nstrs = cr_rd_count(d, 5);
	c->strs = arena_alloc(d->a, (c->nstrs ? c->nstrs : 1) *
	    sizeof(*c->strs));
	for (i = 0; i < c->nstrs; i++)
		c->strs[i] = cr_rd_str_nn(d);
}

static void
decode_sections(struct dec *d, struct cond *c, int depth)
{
	struct sections_spec	*s = arena_alloc(d->a, sizeof(*s));
	size_t			 i;

	s->file = cr_rd_str_nn(d);
	s->ntags = cr_rd_count(d, 5);
	s->tags = arena_alloc(d->a, (s->ntags ? s->ntags : 1) *
	    sizeof(*s->tags));
	for (i = 0; i < s->ntags && !d->r.bad; i++) {
		s->tags[i].name = cr_rd_str_nn(d);
		if (rd_u8(&d->r) != 0 &&
		    (s->tags[i].when = cr_decode_cond(d, depth + 1)) == NULL)
			d->r.bad = true;
	}
	c->sections = s;
}

static struct pattern *
decode_opt_pattern(struct dec *d)
{
	struct pattern	*p;

	if (rd_u8(&d->r) == 0)
		return NULL;
	p = arena_alloc(d->a, sizeof(*p));
	decode_pattern(d, M_REGEX, p);
	if (p->re == NULL)
		d->r.bad = true;
	return p;
}

static struct cond *
decode_opt_cond(struct dec *d, int depth)
{
	struct cond	*c;

	if (rd_u8(&d->r) == 0)
		return NULL;
	if ((c = cr_decode_cond(d, depth + 1)) == NULL)
		d->r.bad = true;
	return c;
}

static void
decode_blocks(struct dec *d, struct cond *c, int depth)
{
	struct blocks_spec	*s = arena_alloc(d->a, sizeof(*s));
	uint8_t			 f = rd_u8(&d->r);

	if (!valid_field(f) || f == F_PATH || f == F_READ_PATH) {
		d->r.bad = true;
		return;
	}
	s->in = (enum rr_field)f;
	s->in_key = cr_rd_str(d);
	s->start = decode_opt_pattern(d);
	s->separator = decode_opt_pattern(d);
	s->end = decode_opt_pattern(d);
	s->id = decode_opt_pattern(d);
	s->json = cr_rd_str(d);
	s->json_id = cr_rd_str(d);
	s->every = rd_u8(&d->r) != 0;
	s->name = cr_rd_str_nn(d);
	s->when = decode_opt_cond(d, depth);
	s->unless = decode_opt_cond(d, depth);
	s->test = decode_opt_cond(d, depth);
	/* What the evaluation relies on: one way to cut, a map to test. */
	if (s->test == NULL || (s->json == NULL) == (s->start == NULL &&
	    s->separator == NULL) || (s->start != NULL && s->separator !=
	    NULL) || (s->in == F_INPUT && s->in_key == NULL))
		d->r.bad = true;
	c->blocks = s;
}

static void
decode_related(struct dec *d, struct cond *c)
{
	struct related_spec	*r = arena_alloc(d->a, sizeof(*r));

	r->tpl = cr_rd_str_nn(d);
	r->uses = rd_u32(&d->r);
	r->exists = rd_u8(&d->r) != 0;
	if (!r->exists)
		decode_matcher(d, &r->m);
	c->related = r;
}

struct cond *
cr_decode_cond(struct dec *d, int depth)
{
	struct cond	*c;
	uint8_t		 k, f;
	size_t		 i;

	if (depth > COND_MAX_DEPTH) {
		d->r.bad = true;
		return NULL;
	}
	c = arena_alloc(d->a, sizeof(*c));
	k = rd_u8(&d->r);
	c->label = cr_rd_str(d);
	c->line = cr_rd_int(d);
	c->col = cr_rd_int(d);
	f = rd_u8(&d->r);
	if (!valid_field(f)) {
		d->r.bad = true;
		return NULL;
	}
	c->field = (enum rr_field)f;
	c->input_key = cr_rd_str(d);
	switch ((enum cond_kind)k) {
	case C_TEXT:
		c->kind = C_TEXT;
		if (c->field == F_INPUT && c->input_key == NULL)
			break;
		decode_matcher(d, &c->m);
		return d->r.bad ? NULL : c;
	case C_SH_TEXT:
		c->kind = C_SH_TEXT;
		f = rd_u8(&d->r);
		if (f >= SH__COUNT)
			break;
		c->sh_part = (enum sh_part)f;
		decode_matcher(d, &c->m);
		return d->r.bad ? NULL : c;
	case C_FILE_CONTAINS:
	case C_ENV:
	case C_SH_FLAGS:
		c->kind = (enum cond_kind)k;
		decode_strs(d, c);
		return d->r.bad ? NULL : c;
	case C_ALL:
	case C_ANY:
	case C_NOT:
	case C_SHELL:
		c->kind = (enum cond_kind)k;
		c->nkids = cr_rd_count(d, 13);
		if ((c->kind == C_NOT || c->kind == C_SHELL) && c->nkids != 1)
			break;
		c->kids = arena_alloc(d->a, (c->nkids ? c->nkids : 1) *
		    sizeof(*c->kids));
		for (i = 0; i < c->nkids && !d->r.bad; i++)
			c->kids[i] = cr_decode_cond(d, depth + 1);
		return d->r.bad ? NULL : c;
	case C_KB:
		c->kind = C_KB;
		f = rd_u8(&d->r);
		switch ((enum kb_query)f) {
		case KBQ_FILE_ERRORS:
		case KBQ_SESSION_ERROR:
			c->kb_query = (enum kb_query)f;
			c->kb_limit = rd_u32(&d->r);
			return d->r.bad ? NULL : c;
		}
		break;
	case C_SECTIONS:
		c->kind = C_SECTIONS;
		decode_sections(d, c, depth);
		return d->r.bad ? NULL : c;
	case C_BLOCKS:
		c->kind = C_BLOCKS;
		decode_blocks(d, c, depth);
		return d->r.bad ? NULL : c;
	case C_BLOCK_PART:
		c->kind = C_BLOCK_PART;
		f = rd_u8(&d->r);
		if (f >= BP__COUNT)
			break;
		c->block_part = (enum block_part)f;
		decode_matcher(d, &c->m);
		return d->r.bad ? NULL : c;
	case C_LISTED:
		c->kind = C_LISTED;
		decode_matcher(d, &c->m);
		if (c->m.kind != M_REGEX)
			break;
		return d->r.bad ? NULL : c;
	case C_RELATED:
		c->kind = C_RELATED;
		decode_related(d, c);
		return d->r.bad ? NULL : c;
	case C_MEMORY:
		c->kind = C_MEMORY;
		f = rd_u8(&d->r);
		if (f >= MQ__COUNT)
			break;
		c->mem_query = (enum mem_query_kind)f;
		c->mem_limit = rd_u32(&d->r);
		c->mem_all_projects = rd_u8(&d->r) != 0;
		c->mem_below = cr_rd_int(d);
		return d->r.bad ? NULL : c;
	case C_ROUTER:
		c->kind = C_ROUTER;
		return c;
	}
	d->r.bad = true;
	return NULL;
}

static bool
valid_seg(uint8_t k)
{
	switch ((enum tpl_seg_kind)k) {
	case TPL_LITERAL:
	case TPL_VAR:
	case TPL_ROW:
	case TPL_MEMROW:
	case TPL_SECTION:
		return true;
	}
	return false;
}

static bool
valid_section(uint8_t k)
{
	switch ((enum tpl_section_kind)k) {
	case SEC_VAR:
	case SEC_KB:
	case SEC_ROW:
	case SEC_MEMORY:
	case SEC_MEMROW:
		return true;
	}
	return false;
}

/* What a segment of its kind must have to render without surprises. */
static bool
seg_ok(const struct tpl_seg *s, uint32_t var, size_t textlen)
{
	if ((s->text != NULL && s->len != textlen) || var > V__COUNT ||
	    s->field > TF__COUNT || s->mfield > MF__COUNT)
		return false;
	switch (s->kind) {
	case TPL_LITERAL:
		return s->text != NULL;
	case TPL_VAR:
		return var != V__COUNT && !((var == V_INPUT || var == V_ENV ||
		    var == V_BLOCK_FIELD) && s->text == NULL);
	case TPL_ROW:
		return s->field != TF__COUNT &&
		    (s->field != TF_RESOLUTION_PATH || s->text != NULL);
	case TPL_MEMROW:
		return s->mfield != MF__COUNT;
	case TPL_SECTION:
		return s->body != NULL;
	}
	return false;
}

struct template *
cr_decode_template(struct dec *d, int depth)
{
	struct template	*t;
	struct tpl_seg	*s;
	size_t		 i, len;
	uint8_t		 k, f, mf, sec;
	uint32_t	 var;

	if (depth > TPL_MAX_DEPTH) {
		d->r.bad = true;
		return NULL;
	}
	t = arena_alloc(d->a, sizeof(*t));
	t->n = cr_rd_count(d, 22);
	t->segs = arena_alloc(d->a, (t->n ? t->n : 1) * sizeof(*t->segs));
	for (i = 0; i < t->n && !d->r.bad; i++) {
		s = &t->segs[i];
		k = rd_u8(&d->r);
		if (!valid_seg(k)) {
			d->r.bad = true;
			return NULL;
		}
		s->kind = (enum tpl_seg_kind)k;
		s->text = cr_rd_mem(d, &len, NULL);
		s->len = rd_u32(&d->r);
		var = rd_u32(&d->r);
		f = rd_u8(&d->r);
		mf = rd_u8(&d->r);
		sec = rd_u8(&d->r);
		s->inverted = rd_u8(&d->r) != 0;
		s->sep = cr_rd_mem(d, &s->seplen, NULL);
		if (!valid_section(sec)) {
			d->r.bad = true;
			return NULL;
		}
		s->var = (enum tpl_var)(var < V__COUNT ? var : V__COUNT);
		s->field = (enum tpl_row_field)(f < TF__COUNT ? f : TF__COUNT);
		s->mfield = (enum tpl_mem_field)(mf < MF__COUNT ? mf :
		    MF__COUNT);
		s->section = (enum tpl_section_kind)sec;
		if (rd_u8(&d->r) != 0 &&
		    (s->body = cr_decode_template(d, depth + 1)) == NULL)
			d->r.bad = true;
		if (!d->r.bad && !seg_ok(s, var, len))
			d->r.bad = true;
	}
	t->src = cr_rd_str(d);
	t->uses_kb = rd_u8(&d->r) != 0;
	t->uses_memory = rd_u8(&d->r) != 0;
	return d->r.bad ? NULL : t;
}
