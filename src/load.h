/*
 * Loading the rules: the one front door through which the hook and the
 * commands get a rule set.  It owns the policy around the compiled cache
 * (cache.h, a store that knows nothing of sources or compiling): which
 * sources a request means (its --rules paths, else the default sources
 * of home and project; sources.h lists and reads them), what the cache
 * of those sources is keyed by, whether the cached rule set is used or
 * the sources are compiled and the result saved, and what is said about
 * it: the REFLEXION_CACHE_TRACE line and the note that the cache cannot
 * be saved.  That text goes back to the caller (the hook collects its
 * stderr in a buffer, the commands print it), so no caller words it.
 *
 * REFLEXION_NO_CACHE (any value but "" or "0") turns the cache off;
 * REFLEXION_CACHE_TRACE (likewise) asks for one line per load.
 */
#ifndef RR_LOAD_H
#define RR_LOAD_H

#include <stdbool.h>

#include "diag.h"
#include "places.h"
#include "rule.h"
#include "sources.h"

/* How a load uses the cache. */
enum load_mode {
	LOAD_CACHED,		/* the cache when valid, else compile and save */
	LOAD_REBUILD,		/* compile and save, even if the cache is valid */
	LOAD_FRESH		/* compile only: no cache read or written */
};

/* What a load says for the caller's stderr (rules_loaded.notes). */
enum load_say {
	SAY_NOTHING,		/* the caller reports the load itself */
	SAY_TRACE,		/* the REFLEXION_CACHE_TRACE line */
	SAY_TRACE_OR_UNSAVED	/* that, or else a cache that cannot be saved */
};

struct rules_request {
	const struct rule_sources *sources;	/* NULL or none: defaults */
	const char	*home;		/* data directory, or NULL: none */
	const struct rr_home *home_info; /* why home is NULL, or NULL */
	const char	*project;	/* project directory, or NULL / "" */
	enum load_mode	 mode;
	enum load_say	 say;
	bool		 all;		/* decode every rule now */
	/*
	 * Compile a miss in a child process that saves the cache even if
	 * the caller ends first (the hook, at its deadline): see load.c.
	 */
	bool		 apart;
	/* The rules' tests: blocks are not wanted (cache.h, the hook). */
	bool		 skip_tests;
};

enum load_status {
	LOADED_HIT,		/* loaded from the cache */
	LOADED_BUILT,		/* compiled, and the cache written */
	LOADED_UNSAVED,		/* compiled; the cache could not be written */
	LOADED_OFF,		/* compiled; REFLEXION_NO_CACHE is set */
	LOADED_NO_HOME,		/* compiled; no home to keep a cache in */
	LOADED_FRESH		/* compiled, as LOAD_FRESH asked */
};

struct rules_loaded {
	enum load_status status;
	char		*path;		/* the cache file, or NULL; owned */
	char		*why;		/* why it was rebuilt / not saved */
	char		*notes;		/* for stderr, or NULL; owned */
};

/*
 * Fills rs and diags (both initialized here) with the rule set of the
 * request: from the cache when it is valid, else compiled from the
 * sources and saved.  Without a home there is no cache: the rules are
 * compiled in memory; a home that was refused (places.h) is an error in
 * diags when the default sources are loaded, since the user's rules are
 * then missing, and else a line in the notes.  rs always has its prefilter index.  Never fails;
 * how it went is in *how (release with rules_loaded_release()), and what
 * the caller is to say on stderr, as rq->say asks, in how->notes: whole
 * lines, each ending in a newline.
 */
void	 rules_load(struct ruleset *, struct diag_list *,
	     const struct rules_request *, struct rules_loaded *how);
void	 rules_loaded_release(struct rules_loaded *);
/* REFLEXION_NO_CACHE is set: nothing is read from or written to a cache. */
bool	 rules_cache_off(void);

#endif
