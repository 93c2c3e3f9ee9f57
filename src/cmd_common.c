#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "cmd_common.h"

void
cmd_load_all_rules(const struct rule_sources *src, const char *home,
    const char *project, struct ruleset *rs, struct diag_list *diags)
{
	struct rules_request	 rq;
	struct rules_loaded	 how;
	char			*line;

	memset(&rq, 0, sizeof(rq));
	rq.sources = src;
	rq.home = home;
	rq.project = project;
	rq.all = true;
	rules_load(rs, diags, &rq, &how);
	if (cache_trace_enabled()) {
		line = rules_loaded_trace(&how, rs);
		fprintf(stderr, "%s\n", line);
		free(line);
	}
	rules_loaded_release(&how);
}
