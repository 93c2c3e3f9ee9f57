/*
 * The compiled cache's encoding of a json matcher's spec (jsoncheck.h):
 * its checks, the members `each` and `count` pick (where, key, has) and
 * the comparisons, to bytes and back, for cache_cond.c.  Every switch
 * over the model's enums is exhaustive and has no default: a new kind
 * does not build until it is encoded here.
 */
#include <cjson/cJSON.h>
#include <string.h>

#include "cache_rule_priv.h"
#include "jsoncheck.h"

/* ---- writing ------------------------------------------------------------ */

static int encode_checks(struct buf *, const struct json_check *, size_t,
    int depth);

/* What picks members: where, key, has. */
static int
encode_fit(struct buf *b, const struct json_spec *s, int depth)
{
	size_t	i;

	if (encode_checks(b, s->where, s->nwhere, depth) < 0)
		return -1;
	cr_wr_str(b, s->key);
	wr_u32(b, (uint32_t)s->nhas);
	for (i = 0; i < s->nhas; i++)
		cr_wr_str(b, s->has[i]);
	return 0;
}

static int
encode_num(struct buf *b, const struct json_num *n, int depth)
{
	uint64_t	bits;
	size_t		i;

	switch (n->kind) {
	case JN_VALUE:
	case JN_SUM:
	case JN_COUNT:
	case JN_CONST:
		break;
	}
	wr_u8(b, (uint8_t)n->kind);
	wr_u32(b, (uint32_t)n->npaths);
	for (i = 0; i < n->npaths; i++)
		cr_wr_str(b, n->paths[i]);
	memcpy(&bits, &n->value, sizeof(bits));
	wr_u64(b, bits);
	wr_u8(b, n->fit != NULL);
	return n->fit != NULL ? encode_fit(b, n->fit, depth + 1) : 0;
}

static int
encode_checks(struct buf *b, const struct json_check *v, size_t n, int depth)
{
	size_t	i;

	if (depth > JSON_EACH_DEPTH + 2)
		return -1;
	wr_u32(b, (uint32_t)n);
	for (i = 0; i < n; i++) {
		switch (v[i].kind) {
		case JC_KEY:
		case JC_TYPE:
		case JC_EQUALS:
		case JC_EACH:
		case JC_COMPARE:
			break;
		}
		wr_u8(b, (uint8_t)v[i].kind);
		cr_wr_str(b, v[i].path);
		wr_u32(b, v[i].types);
		if (cr_wr_json(b, v[i].value) < 0)
			return -1;
		if (v[i].kind == JC_COMPARE) {
			if (v[i].cmp == NULL)
				return -1;
			wr_u8(b, (uint8_t)v[i].cmp->op);
			if (encode_num(b, &v[i].cmp->left, depth) < 0 ||
			    encode_num(b, &v[i].cmp->right, depth) < 0)
				return -1;
		}
		/* JC_EACH: the member spec, nested no deeper than compiled. */
		if (v[i].kind == JC_EACH && (v[i].each == NULL ||
		    encode_fit(b, v[i].each, depth + 1) < 0 ||
		    encode_checks(b, v[i].each->checks, v[i].each->nchecks,
		    depth + 1) < 0))
			return -1;
	}
	return 0;
}

int
cr_encode_json_spec(struct buf *b, const struct json_spec *s)
{
	wr_u8(b, s->find);
	if (encode_checks(b, s->where, s->nwhere, 0) < 0 ||
	    encode_checks(b, s->checks, s->nchecks, 0) < 0)
		return -1;
	return 0;
}

/* ---- reading ------------------------------------------------------------ */

static bool
valid_check(uint8_t k)
{
	switch ((enum json_check_kind)k) {
	case JC_KEY:
	case JC_TYPE:
	case JC_EQUALS:
	case JC_EACH:
	case JC_COMPARE:
		return true;
	}
	return false;
}

static bool
valid_num(uint8_t k)
{
	switch ((enum json_num_kind)k) {
	case JN_VALUE:
	case JN_SUM:
	case JN_COUNT:
	case JN_CONST:
		return true;
	}
	return false;
}

static struct json_check *decode_checks(struct dec *, size_t *, int depth);

static void
decode_fit(struct dec *d, struct json_spec *s, int depth)
{
	size_t	i;

	s->where = decode_checks(d, &s->nwhere, depth);
	s->key = cr_rd_str(d);
	s->nhas = cr_rd_count(d, 5);
	s->has = arena_alloc(d->a, (s->nhas ? s->nhas : 1) * sizeof(*s->has));
	for (i = 0; i < s->nhas; i++)
		s->has[i] = cr_rd_str_nn(d);
}

static void
decode_num(struct dec *d, struct json_num *n, int depth)
{
	struct json_spec	*fit;
	uint64_t		 bits;
	size_t			 i;
	uint8_t			 k = rd_u8(&d->r);

	if (!valid_num(k)) {
		d->r.bad = true;
		return;
	}
	n->kind = (enum json_num_kind)k;
	n->npaths = cr_rd_count(d, 5);
	n->paths = arena_alloc(d->a, (n->npaths ? n->npaths : 1) *
	    sizeof(*n->paths));
	for (i = 0; i < n->npaths; i++)
		n->paths[i] = cr_rd_str_nn(d);
	bits = rd_u64(&d->r);
	memcpy(&n->value, &bits, sizeof(bits));
	if (rd_u8(&d->r) != 0) {
		fit = arena_alloc(d->a, sizeof(*fit));
		decode_fit(d, fit, depth + 1);
		n->fit = fit;
	}
	/* What compare_holds() relies on: paths where it reads them. */
	if (n->kind != JN_CONST && n->npaths == 0)
		d->r.bad = true;
	if ((n->kind == JN_VALUE || n->kind == JN_COUNT) && n->npaths != 1)
		d->r.bad = true;
	if (n->fit != NULL && n->kind != JN_COUNT)
		d->r.bad = true;
}

static struct json_check *
decode_checks(struct dec *d, size_t *np, int depth)
{
	struct json_check	*v;
	struct json_spec	*each;
	struct json_compare	*cmp;
	size_t			 i, n = cr_rd_count(d, 14);
	uint8_t			 k;

	v = arena_alloc(d->a, (n ? n : 1) * sizeof(*v));
	if (depth > JSON_EACH_DEPTH + 2) {
		d->r.bad = true;
		*np = 0;
		return v;
	}
	for (i = 0; i < n && !d->r.bad; i++) {
		k = rd_u8(&d->r);
		if (!valid_check(k)) {
			d->r.bad = true;
			break;
		}
		v[i].kind = (enum json_check_kind)k;
		v[i].path = v[i].kind == JC_COMPARE ? cr_rd_str(d) :
		    cr_rd_str_nn(d);
		v[i].types = rd_u32(&d->r);
		v[i].value = cr_rd_json(d);
		v[i].each = NULL;
		v[i].cmp = NULL;
		if (v[i].kind == JC_EQUALS && v[i].value == NULL)
			d->r.bad = true;
		if (v[i].kind == JC_COMPARE && !d->r.bad) {
			cmp = arena_alloc(d->a, sizeof(*cmp));
			k = rd_u8(&d->r);
			if (k >= JCMP__COUNT) {
				d->r.bad = true;
				break;
			}
			cmp->op = (enum json_cmp_op)k;
			decode_num(d, &cmp->left, depth);
			decode_num(d, &cmp->right, depth);
			v[i].cmp = cmp;
			continue;
		}
		if (v[i].kind != JC_EACH || d->r.bad)
			continue;
		if (depth >= JSON_EACH_DEPTH) {
			d->r.bad = true;
			break;
		}
		each = arena_alloc(d->a, sizeof(*each));
		decode_fit(d, each, depth + 1);
		each->checks = decode_checks(d, &each->nchecks, depth + 1);
		v[i].each = each;
	}
	*np = d->r.bad ? 0 : n;
	return v;
}

struct json_spec *
cr_decode_json_spec(struct dec *d)
{
	struct json_spec	*js = arena_alloc(d->a, sizeof(*js));

	js->find = rd_u8(&d->r) != 0;
	js->where = decode_checks(d, &js->nwhere, 0);
	js->checks = decode_checks(d, &js->nchecks, 0);
	return d->r.bad ? NULL : js;
}
