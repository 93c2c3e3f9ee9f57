/*
 * The compiled rule cache: a store of rule sets as they are after
 * compiling, on disk under $REFLEXION_HOME/cache/, so that a hook call
 * reads no YAML.  It opens, validates and maps a cache file, writes one
 * (cache_write.c), and names them; what to load, when to compile and
 * what to say about it is the loader's (load.h).
 *
 * One file per key, named by a hash of it.  The key is this store's
 * identity (the cache format, the engine version and binary, the PCRE2
 * version, the word size) followed by the loader's text for the rule
 * sources, which the store takes as is; the whole key is stored inside
 * and compared.  The file is built for load speed: it is mapped, not
 * read; offsets, not pointers; only the header, the identity, the
 * source manifest (manifest.h), the file names, the stored diagnostics
 * and the parts of the prefilter index an event needs (prefilter.h) are
 * touched on every call.  Rules are decoded one by one when an event
 * reaches them (cache_rule.h); their PCRE2 patterns are stored
 * serialized in chunks of CACHE_CHUNK and decoded when a rule first
 * runs them.
 *
 * Nothing in the file is trusted: every section and every rule has a
 * checksum and every offset is bounds-checked; a missing, truncated,
 * corrupted, foreign or stale file is refused (cache_open() says why),
 * for the loader to compile and write again.  Files are replaced
 * atomically (temporary file, then rename()).  Our writers never
 * truncate a cache file in place; another program doing so while a hook
 * has it mapped could make that hook fault (SIGBUS).
 */
#ifndef RR_CACHE_H
#define RR_CACHE_H

#include "diag.h"
#include "manifest.h"
#include "rule.h"

/*
 * Bump whenever the encoding changes: cache.c and cache_write.c, or the
 * rule encoding (cache_rule.c, cache_cond.c, cache_codec.c).
 */
#define CACHE_FORMAT	10
/*
 * Patterns per serialized chunk.  Each chunk repeats PCRE2's 1 KB of
 * character tables, and a rule's first regex decodes its whole chunk: 8
 * keeps the file small and a call's decoding near what it runs (a Bash
 * event of dangerous-commands decoded 128 patterns at 32, for 38 used).
 * The reader takes the size from the header.
 */
#define CACHE_CHUNK	8

struct cache_identity {
	const char	*engine;	/* PACKAGE_VERSION */
	const char	*pcre2;		/* rr_regex_version() */
};

const struct cache_identity *cache_identity_current(void);
/*
 * The key of a rule set: the store's identity (id, the format, the word
 * size, this binary), then request, the loader's text for the sources.
 * Owned.
 */
char	*cache_key(const char *request, const struct cache_identity *);
/* The file of key under home; owned. */
char	*cache_file(const char *home, const char *key);

/*
 * Writes rs (with its index), diags and manifest as the cache of key, by
 * way of a temporary file and rename().  Returns 0, or -1 with *err.
 */
int	 cache_write(const char *path, const char *key,
	     const struct cache_identity *, const struct ruleset *,
	     const struct diag_list *, const struct manifest *, char **err);
/*
 * Opens path as the cache of key: fills rs (lazy) and diags, both
 * initialized here.  Returns 0, or -1 with *why (owned) and rs, diags
 * empty.
 */
int	 cache_open(struct ruleset *, struct diag_list *, const char *path,
	     const char *key, const struct cache_identity *, char **why);
/*
 * Rules of rs decoded from now on leave out their tests: blocks (what a
 * hook call needs not: parsing their events' JSON cost more than the
 * rest of a rule).  Nothing when rs does not come from the cache.
 */
void	 cache_skip_tests(struct ruleset *);

#endif
