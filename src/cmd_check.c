/*
 * The rule set a check looks at (see cmd_check.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_check.h"
#include "places.h"
#include "selfprot.h"

/*
 * The rule files found, the built-in self-protection pack aside: it is
 * always there, and must not make a check of nothing look like one.
 */
static size_t
user_files(const struct ruleset *rs)
{
	size_t	i, n = 0;

	for (i = 0; i < rs->nfiles; i++)
		if (strcmp(rs->files[i], SELFPROT_FILE) != 0)
			n++;
	return n;
}

static size_t
user_rules(const struct ruleset *rs)
{
	const struct rule	*r;
	size_t			 i, n = 0;

	for (i = 0; i < rs->n; i++)
		if ((r = ruleset_rule(rs, i)) == NULL ||
		    strcmp(r->file, SELFPROT_FILE) != 0)
			n++;
	return n;
}

void
check_load(const char *name, const struct rule_sources *src,
    enum load_mode mode, bool all, struct check_set *cs)
{
	struct rules_request	 rq;
	struct rules_loaded	 how;
	struct rr_home		 home;
	char			*project;

	home_find(&home);
	/* Without a PATH, the rules the hook of this project would load. */
	project = project_root(NULL);
	memset(&rq, 0, sizeof(rq));
	rq.sources = src;
	rq.home = home.dir;
	rq.home_info = &home;
	rq.project = project;
	rq.mode = mode;
	/* The missing home, and with REFLEXION_CACHE_TRACE the cache. */
	rq.say = SAY_TRACE;
	rq.all = all;
	rules_load(&cs->rs, &cs->diags, &rq, &how);
	if (how.notes != NULL)
		fputs(how.notes, stderr);
	rules_loaded_release(&how);
	cs->where = sources_where(src, home.dir, project);
	cs->nrules = user_rules(&cs->rs);
	cs->nfiles = user_files(&cs->rs);
	if (src->npaths == 0 && cs->nfiles > 0)
		fprintf(stderr, "reflexion-rules %s: project %s; rules looked "
		    "for in %s\n", name, *project ? project : "(none)",
		    cs->where);
	home_release(&home);
	free(project);
}

int
check_found(const char *name, const struct check_set *cs, int status)
{
	if (cs->nfiles > 0)
		return status;
	fprintf(stderr, "reflexion-rules %s: no rule file found; looked in "
	    "%s\n", name, cs->where);
	return RR_EXIT_FAIL;
}

void
check_release(struct check_set *cs)
{
	free(cs->where);
	diag_list_release(&cs->diags);
	ruleset_release(&cs->rs);
	memset(cs, 0, sizeof(*cs));
}
