/*
 * One rule to bytes and back, for the compiled cache: cache_write.c
 * encodes, cache.c decodes.  cache_rule.c owns the rule itself (tests,
 * record options); cache_cond.c what a rule holds (conditions,
 * matchers, templates); cache_codec.h the byte helpers under both.
 *
 * The encoding covers the whole struct rule: conditions, matchers,
 * patterns, templates, tests' events (as JSON text), tools, tags, and
 * every flag.  Every switch over the model's enums is exhaustive and has
 * no default, so a new condition, matcher, template or action kind does
 * not build until it is encoded here.  A new field of struct rule or
 * struct cond must be added by hand to both directions; the cache
 * equivalence tests (tests/cache-test.sh, tests/unit/test_cache.c)
 * compare every decision and explain trace fresh and from the cache.
 *
 * Decoding trusts nothing: every length is bounds-checked, every enum
 * value checked, and nesting limited; a decoded string points into the
 * bytes (NUL-terminated there), which must outlive the rule.  Regexes
 * are created lazy: their code comes from the cache's serialized
 * patterns (slot numbers) when first matched.
 */
#ifndef RR_CACHE_RULE_H
#define RR_CACHE_RULE_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "cache_codec.h"
#include "match_re.h"
#include "rule.h"

/*
 * Appends rule r (number index, from file number file) to out; its
 * regexes are appended to res and referred to by slot.  Returns 0, or -1
 * when the rule holds something that cannot be encoded.
 */
int	 cache_rule_encode(struct buf *out, const struct rule *, uint32_t index,
	     uint32_t file, struct cache_regexes *res);

/* Decodes rule number index; NULL when the bytes are not one. */
struct rule *cache_rule_decode(const unsigned char *, size_t, uint32_t index,
	     struct cache_decode_ctx *);

#endif
