/*
 * Shared by cache_rule.c (rules, tests, record options) and cache_cond.c
 * (conditions, matchers, JSON checks, sections, templates): the byte
 * helpers of the rule encoding and the decoder's state.  Not for other
 * modules; the format is described in cache_rule.h.
 */
#ifndef RR_CACHE_RULE_PRIV_H
#define RR_CACHE_RULE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bytes.h"
#include "cache_rule.h"

#define NO_STRING	0xffffffffu
#define LIST_MAX	(1u << 24)

struct dec {
	struct rd		 r;
	struct cache_decode_ctx	*cx;
	struct arena		*a;
};

/* Writing: bytes with a length and a NUL after them; NULL is a marker. */
void	 cr_wr_mem(struct buf *, const char *, size_t);
void	 cr_wr_str(struct buf *, const char *);
void	 cr_wr_i32(struct buf *, int);
/* Prints j (NULL allowed) as JSON text; -1 when cJSON cannot. */
int	 cr_wr_json(struct buf *, const struct cJSON *);
uint32_t cr_add_regex(struct cache_regexes *, struct rr_regex *);

/* Reading: pointers into the bytes; `bad` set on any inconsistency. */
const char *cr_rd_mem(struct dec *, size_t *lenp, bool *bad_null);
const char *cr_rd_str(struct dec *);
const char *cr_rd_str_nn(struct dec *);
size_t	 cr_rd_count(struct dec *, size_t min);
int	 cr_rd_int(struct dec *);
/* JSON written by cr_wr_json: owned by the ruleset, or NULL. */
struct cJSON *cr_rd_json(struct dec *);
/* A lazy regex of slot (its pattern borrowed from the bytes). */
struct rr_regex *cr_rd_regex(struct dec *, const char *pattern, size_t len);

/* cache_cond.c */
int	 cr_encode_cond(struct buf *, const struct cond *,
	     struct cache_regexes *, int depth);
int	 cr_encode_template(struct buf *, const struct template *, int depth);
struct cond *cr_decode_cond(struct dec *, int depth);
struct template *cr_decode_template(struct dec *, int depth);

#endif
