/*
 * The byte helpers of the rule encoding (see cache_codec.h): what
 * cache_rule.c and cache_cond.c write and read strings, ints, JSON text
 * and regex slots with.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cache_codec.h"
#include "xmalloc.h"

/* ---- writing ------------------------------------------------------------ */

void
cr_wr_mem(struct buf *b, const char *s, size_t len)
{
	if (s == NULL) {
		wr_u32(b, NO_STRING);
		return;
	}
	wr_u32(b, (uint32_t)len);
	buf_add(b, s, len);
	wr_u8(b, 0);
}

void
cr_wr_str(struct buf *b, const char *s)
{
	cr_wr_mem(b, s, s ? strlen(s) : 0);
}

void
cr_wr_i32(struct buf *b, int v)
{
	wr_u32(b, (uint32_t)v);
}

int
cr_wr_json(struct buf *b, const struct cJSON *j)
{
	char	*json;

	if (j == NULL) {
		cr_wr_str(b, NULL);
		return 0;
	}
	/* cJSON prints numbers so that they parse back exactly. */
	if ((json = cJSON_PrintUnformatted(j)) == NULL)
		return -1;
	cr_wr_str(b, json);
	free(json);
	return 0;
}

uint32_t
cr_add_regex(struct cache_regexes *res, struct rr_regex *re)
{
	if (res->n == res->cap) {
		res->cap = res->cap ? res->cap * 2 : 64;
		res->v = xreallocarray(res->v, res->cap, sizeof(*res->v));
	}
	res->v[res->n] = re;
	return (uint32_t)res->n++;
}

/* ---- reading ------------------------------------------------------------ */

/* Bytes written by cr_wr_mem(): a pointer into the input, or NULL. */
const char *
cr_rd_mem(struct dec *d, size_t *lenp, bool *bad_null)
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

const char *
cr_rd_str(struct dec *d)
{
	size_t	len;

	return cr_rd_mem(d, &len, NULL);
}

/* A string that may not be NULL. */
const char *
cr_rd_str_nn(struct dec *d)
{
	size_t		 len;
	bool		 isnull = false;
	const char	*s = cr_rd_mem(d, &len, &isnull);

	if (isnull)
		d->r.bad = true;
	return s;
}

/* A count of items that take at least `min` bytes each. */
size_t
cr_rd_count(struct dec *d, size_t min)
{
	uint32_t	n = rd_u32(&d->r);

	if (n > LIST_MAX || (size_t)n * min > (size_t)(d->r.end - d->r.p)) {
		d->r.bad = true;
		return 0;
	}
	return n;
}

int
cr_rd_int(struct dec *d)
{
	return (int)rd_u32(&d->r);
}

struct cJSON *
cr_rd_json(struct dec *d)
{
	const char	*text = cr_rd_str(d);
	cJSON		*j;

	if (text == NULL || d->r.bad)
		return NULL;
	if ((j = cJSON_Parse(text)) == NULL) {
		d->r.bad = true;
		return NULL;
	}
	ruleset_own_json(d->cx->owner, j);
	return j;
}

struct rr_regex *
cr_rd_regex(struct dec *d, const char *pattern, size_t len)
{
	uint32_t	slot = rd_u32(&d->r), flags = rd_u32(&d->r);

	if (d->r.bad || pattern == NULL || slot >= d->cx->nslots) {
		d->r.bad = true;
		return NULL;
	}
	return rr_regex_lazy(pattern, len, flags, d->cx->regex_src, slot);
}
