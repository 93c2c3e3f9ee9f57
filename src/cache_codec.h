/*
 * The byte helpers of the compiled cache's rule encoding, below both of
 * its halves (cache_rule.c: rules, tests, record options; cache_cond.c:
 * conditions, matchers, JSON checks, sections, templates): strings, ints
 * and JSON text to bytes and back, the writer's list of regexes and the
 * decoder's state.  The format is described in cache_rule.h; bytes.h
 * holds the integers underneath.  The two structs are also the rule
 * encoding's interface (cache_rule.h: cache_write.c fills a list of
 * regexes, cache.c a decoder context); the functions are for
 * cache_rule.c and cache_cond.c only.
 */
#ifndef RR_CACHE_CODEC_H
#define RR_CACHE_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "bytes.h"
#include "match_re.h"
#include "rule.h"

#define NO_STRING	0xffffffffu
#define LIST_MAX	(1u << 24)

/* The writer's list of regexes, in slot order (borrowed). */
struct cache_regexes {
	struct rr_regex	**v;
	size_t		  n, cap;
};

/* What the decoder of a cache file needs (filled in by cache.c). */
struct cache_decode_ctx {
	struct ruleset	*owner;		/* arena and owned objects */
	const char	**files;
	size_t		 nfiles;
	struct rr_regex_source *regex_src;
	size_t		 nslots;
	bool		 skip_tests;	/* leave rules' tests: out */
};

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

#endif
