/*
 * cache_cond.c's entry points, for cache_rule.c: a rule's conditions and
 * message template to bytes and back.  The calls go one way, cache_rule.c
 * to cache_cond.c, and both write and read with the byte helpers of
 * cache_codec.h.  Not for other modules; the format is described in
 * cache_rule.h.
 */
#ifndef RR_CACHE_RULE_PRIV_H
#define RR_CACHE_RULE_PRIV_H

#include "cache_codec.h"
#include "cache_rule.h"

int	 cr_encode_cond(struct buf *, const struct cond *,
	     struct cache_regexes *, int depth);
int	 cr_encode_template(struct buf *, const struct template *, int depth);
struct cond *cr_decode_cond(struct dec *, int depth);
struct template *cr_decode_template(struct dec *, int depth);

/* cache_json.c: a json matcher's spec, for cache_cond.c. */
struct json_spec;
int	 cr_encode_json_spec(struct buf *, const struct json_spec *);
struct json_spec *cr_decode_json_spec(struct dec *);

#endif
