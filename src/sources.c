#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "manifest.h"
#include "sources.h"
#include "xmalloc.h"

char *
reflexion_home(void)
{
	const char	*h = getenv("REFLEXION_HOME");

	if (h != NULL && *h != '\0')
		return xstrdup(h);
	h = getenv("HOME");
	if (h == NULL || *h == '\0')
		h = "/tmp";
	return xasprintf("%s/.reflexion", h);
}

const char *
project_dir(const char *event_cwd)
{
	const char	*p = getenv("CLAUDE_PROJECT_DIR");

	if (p != NULL && *p != '\0')
		return p;
	return event_cwd ? event_cwd : "";
}

/* An absent source is logged too: creating it invalidates the cache. */
static size_t
load_if_present(struct ruleset *rs, const char *path, int layer,
    struct diag_list *diags)
{
	struct stat	st;

	if (stat(path, &st) < 0) {
		manifest_absent(rs->manifest, path, errno);
		return 0;
	}
	ruleset_add_path(rs, path, layer, diags);
	return 1;
}

size_t
sources_load(struct ruleset *rs, const struct rule_sources *src,
    const char *home, const char *project, struct diag_list *diags)
{
	char	*p;
	size_t	 i, n = 0;

	if (src != NULL && src->npaths > 0) {
		for (i = 0; i < src->npaths; i++) {
			ruleset_add_path(rs, src->paths[i], LAYER_CLI, diags);
			n++;
		}
		return n;
	}
	p = xasprintf("%s/rules", home);
	n += load_if_present(rs, p, LAYER_USER, diags);
	free(p);
	if (project != NULL && *project != '\0') {
		p = xasprintf("%s/.reflexion/rules", project);
		n += load_if_present(rs, p, LAYER_PROJECT, diags);
		free(p);
		p = xasprintf("%s/.claude/skills/skill-rules.json", project);
		n += load_if_present(rs, p, LAYER_SKILL_RULES, diags);
		free(p);
	}
	return n;
}
