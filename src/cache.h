/*
 * The compiled rule cache: a rule set as it is after compiling, on disk
 * under $REFLEXION_HOME/cache/, so that a hook call reads no YAML.
 *
 * One file per rule-source configuration, named by a hash of its key:
 * the sources (the --rules paths, absolute and as given, or the home and
 * project directories of the default sources), the engine version, the
 * cache format and the PCRE2 version; the key is stored inside and
 * compared.  The file is built for load speed: it is mapped, not read;
 * offsets, not pointers; only the header, the identity, the source
 * manifest (manifest.h), the file names, the stored diagnostics and the
 * parts of the prefilter index an event needs (prefilter.h) are touched
 * on every call.  Rules are decoded one by one when an event reaches
 * them (cache_rule.h); their PCRE2 patterns are stored serialized in
 * chunks of CACHE_CHUNK and decoded when a rule first runs them.
 *
 * Nothing in the file is trusted: every section and every rule has a
 * checksum and every offset is bounds-checked; a missing, truncated,
 * corrupted, foreign or stale file is rebuilt, and a file that cannot be
 * written leaves the decisions correct (compiled in memory each call).
 * Files are replaced atomically (temporary file, then rename()).  Our
 * writers never truncate a cache file in place; another program doing so
 * while a hook has it mapped could make that hook fault (SIGBUS).
 *
 * REFLEXION_NO_CACHE (any value but "" or "0") turns the cache off;
 * REFLEXION_CACHE_TRACE prints one line per load on stderr.
 */
#ifndef RR_CACHE_H
#define RR_CACHE_H

#include <stdbool.h>

#include "diag.h"
#include "manifest.h"
#include "rule.h"
#include "sources.h"

/*
 * Bump whenever the encoding changes: cache.c and cache_write.c, or the
 * rule encoding (cache_rule.c, cache_cond.c, cache_codec.c).
 */
#define CACHE_FORMAT	3
#define CACHE_CHUNK	32

enum cache_status {
	CACHE_HIT,		/* loaded from the cache */
	CACHE_BUILT,		/* compiled, and the cache written */
	CACHE_UNSAVED,		/* compiled; the cache could not be written */
	CACHE_OFF		/* compiled; caching is off */
};

struct rules_request {
	const struct rule_sources *sources;	/* NULL or none: defaults */
	const char	*home;		/* $REFLEXION_HOME */
	const char	*project;	/* project directory, or NULL / "" */
	bool		 all;		/* decode every rule now */
	bool		 rebuild;	/* compile even if the cache is valid */
};

struct rules_loaded {
	enum cache_status status;
	char		*path;		/* the cache file, or NULL; owned */
	char		*why;		/* why it was rebuilt / not saved */
};

/*
 * Fills rs and diags (both initialized here) with the rule set of the
 * request: from the cache when it is valid, else compiled from the
 * sources and saved.  rs always has its prefilter index.  Never fails;
 * how it went is in *how (release with rules_loaded_release()).
 */
void	 rules_load(struct ruleset *, struct diag_list *,
	     const struct rules_request *, struct rules_loaded *how);
void	 rules_loaded_release(struct rules_loaded *);
/* "reflexion-rules: cache: hit PATH (N rules)" and the like; owned. */
char	*rules_loaded_trace(const struct rules_loaded *,
	     const struct ruleset *);
bool	 cache_trace_enabled(void);
bool	 cache_disabled(void);

/* ---- lower level (tests) ---------------------------------------------- */

struct cache_identity {
	const char	*engine;	/* PACKAGE_VERSION */
	const char	*pcre2;		/* rr_regex_version() */
};

const struct cache_identity *cache_identity_current(void);
/* The key and the file of a request; owned. */
char	*cache_key(const struct rules_request *,
	     const struct cache_identity *);
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

#endif
