/*
 * What the subcommands that read rules share.  Their arguments are
 * parsed by cmdargs.c.
 */
#ifndef RR_CMD_COMMON_H
#define RR_CMD_COMMON_H

#include <stdbool.h>
#include <stdio.h>

#include "cmd.h"
#include "sources.h"

/*
 * Loads every rule of the sources (through the compiled cache), for the
 * commands that look at all of them (explain, test); with
 * REFLEXION_CACHE_TRACE, says on stderr what the cache did.  rs and
 * diags are initialized here.
 */
void	 cmd_load_all_rules(const struct rule_sources *, const char *home,
	     const char *project, struct ruleset *, struct diag_list *);

#endif
