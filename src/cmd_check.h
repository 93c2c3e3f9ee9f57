/*
 * What the commands that check rule files (lint, test) look at, loaded
 * the same way for both: the PATH arguments, or else the sources the hook
 * of the project around the current directory would load, with a line
 * on stderr saying which project and where the rules were looked for.
 * A check that finds no rule file at all fails: a CI job must never pass
 * by checking nothing.
 *
 * struct check_set owns its rule set, diagnostics and text.
 */
#ifndef RR_CMD_CHECK_H
#define RR_CMD_CHECK_H

#include <stdbool.h>

#include "diag.h"
#include "load.h"
#include "rule.h"
#include "sources.h"

struct check_set {
	struct ruleset		 rs;
	struct diag_list	 diags;
	char			*where;		/* the places looked in */
	/* The user's rules and files: the built-in pack's aside. */
	size_t			 nrules, nfiles;
};

/*
 * Loads the rules of src (its paths, or the defaults) for the command
 * name with mode (load.h); all decodes every rule now.  The load's notes
 * (no data directory; the REFLEXION_CACHE_TRACE line) go to stderr.
 */
void	 check_load(const char *name, const struct rule_sources *src,
	     enum load_mode mode, bool all, struct check_set *);
/*
 * status, or RR_EXIT_FAIL with a line on stderr naming the places looked
 * in when no rule file was found.
 */
int	 check_found(const char *name, const struct check_set *, int status);
void	 check_release(struct check_set *);

#endif
