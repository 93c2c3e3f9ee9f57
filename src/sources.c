/*
 * The rule sources and their layers (see sources.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "compile.h"
#include "manifest.h"
#include "pinned.h"
#include "selfprot.h"
#include "sources.h"
#include "userconf.h"
#include "xmalloc.h"

#ifndef RR_SYSTEM_DIR
#define RR_SYSTEM_DIR	"/etc/reflexion-rules"
#endif

char *
system_dir(void)
{
	const char	*d = getenv("REFLEXION_SYSTEM_DIR");

	return xstrdup(d != NULL && *d != '\0' ? d : RR_SYSTEM_DIR);
}

/* An absent source is logged too: creating it invalidates the cache. */
static size_t
load_if_present(struct ruleset *rs, const char *path, int layer,
    struct diag_list *diags, struct stat *seen, size_t *nseen)
{
	struct stat	st;
	size_t		i;

	if (stat(path, &st) < 0) {
		manifest_absent(rs->manifest, path, errno);
		return 0;
	}
	/*
	 * One file or directory reached as two sources (the agent works in
	 * the home directory, whose .reflexion/ is both the data directory
	 * and the project's): read once, by the more trusted layer, not
	 * refused against itself.
	 */
	for (i = 0; i < *nseen; i++)
		if (seen[i].st_dev == st.st_dev && seen[i].st_ino == st.st_ino)
			return 0;
	seen[(*nseen)++] = st;
	ruleset_add_path(rs, path, layer, diags);
	return 1;
}

/* The built-in self-protection pack, unless the user turned it off. */
static size_t
load_selfprot(struct ruleset *rs, const struct rr_config *cfg,
    struct diag_list *diags)
{
	struct diag_list	 mine;
	size_t			 i;

	if (cfg != NULL && cfg->self_protection_off)
		return 0;
	/*
	 * Its warnings are the program's to fix, not the user's (the test
	 * suite lints the pack's file); an error, which would leave a rule
	 * out, is everyone's.
	 */
	diag_list_init(&mine);
	ruleset_add_yaml(rs, SELFPROT_FILE, selfprot_text, selfprot_len,
	    LAYER_PACK, &mine);
	for (i = 0; i < mine.n; i++)
		if (mine.items[i].severity == DIAG_ERROR)
			diag_add(diags, DIAG_ERROR, mine.items[i].code,
			    &(struct diag_loc){ .file = SELFPROT_FILE,
			    .line = mine.items[i].line,
			    .col = mine.items[i].col }, "%s",
			    mine.items[i].message);
	diag_list_release(&mine);
	return 1;
}

static void
push_source(struct source_list *l, char *path, int layer)
{
	l->items = xreallocarray(l->items, l->n + 1, sizeof(*l->items));
	l->items[l->n].path = path;
	l->items[l->n].layer = layer;
	l->n++;
}

void
sources_list(const char *home, const char *project,
    const struct rr_config *cfg, struct source_list *out)
{
	char	*sys = system_dir();
	size_t	 i;

	memset(out, 0, sizeof(*out));
	push_source(out, xasprintf("%s/rules", sys), LAYER_SYSTEM);
	free(sys);
	for (i = 0; cfg != NULL && i < cfg->npacks; i++)
		push_source(out, xstrdup(cfg->packs[i].path), LAYER_PACK);
	if (home != NULL)
		push_source(out, xasprintf("%s/rules", home), LAYER_USER);
	if (project != NULL && *project != '\0') {
		push_source(out, xasprintf("%s/.reflexion/rules", project),
		    LAYER_PROJECT);
		push_source(out, xasprintf("%s/.claude/skills/skill-rules.json",
		    project), LAYER_SKILL_RULES);
		push_source(out, xasprintf("%s/.reflexion/rules.local",
		    project), LAYER_LOCAL);
	}
}

void
source_list_release(struct source_list *l)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		free(l->items[i].path);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

char *
sources_where(const struct rule_sources *src, const char *home,
    const char *project)
{
	struct source_list	 l;
	struct buf		 b;
	size_t			 i;

	buf_init(&b);
	if (src != NULL && src->npaths > 0) {
		for (i = 0; i < src->npaths; i++)
			buf_printf(&b, "%s%s", i ? ", " : "", src->paths[i]);
		return buf_detach(&b, NULL);
	}
	sources_list(home, project, NULL, &l);
	for (i = 0; i < l.n; i++) {
		buf_printf(&b, "%s%s", b.len ? ", " : "", l.items[i].path);
		/* The packs and pinned sources load before home/rules. */
		if (l.items[i].layer == LAYER_SYSTEM && home != NULL)
			buf_printf(&b, ", %s/config.yaml (packs, sources)",
			    home);
	}
	source_list_release(&l);
	return buf_detach(&b, NULL);
}

bool
imported_skill_rules(const struct ruleset *rs)
{
	const struct rule	*r;
	size_t			 i;

	for (i = 0; i < rs->n; i++)
		if ((r = rs->rules[i]) != NULL && r->layer == LAYER_PROJECT &&
		    strncmp(r->id, SKILL_RULES_PACK "/",
		    strlen(SKILL_RULES_PACK) + 1) == 0)
			return true;
	return false;
}

/* config.yaml's pinned sources; the number of them. */
static size_t
load_pinned(struct ruleset *rs, const struct rr_config *cfg,
    struct diag_list *diags)
{
	size_t	i;

	for (i = 0; cfg != NULL && i < cfg->nsources; i++)
		pinned_load(rs, &cfg->sources[i], diags);
	return cfg != NULL ? cfg->nsources : 0;
}

size_t
sources_load(struct ruleset *rs, const struct rule_sources *src,
    const char *home, const char *project, const struct rr_config *cfg,
    struct diag_list *diags)
{
	struct source_list	l;
	size_t			i, n = 0;
	bool			pinned = false, selfprot = false;
	struct stat		*seen;
	size_t			 nseen = 0;

	if (src != NULL && src->npaths > 0) {
		for (i = 0; i < src->npaths; i++) {
			ruleset_add_path(rs, src->paths[i], LAYER_CLI, diags);
			n++;
		}
		return n;
	}
	rs->project_trusted = config_trusts(cfg, project);
	if (cfg != NULL && cfg->lang != NULL)
		rs->lang = arena_strdup(&rs->arena, cfg->lang);
	sources_list(home, project, cfg, &l);
	seen = xreallocarray(NULL, l.n + 1, sizeof(*seen));
	for (i = 0; i < l.n; i++) {
		/* Self-protection: the first of the packs (selfprot.h). */
		if (!selfprot && l.items[i].layer >= LAYER_PACK) {
			n += load_selfprot(rs, cfg, diags);
			selfprot = true;
		}
		/* The pinned sources: after the packs, before home/rules. */
		if (!pinned && l.items[i].layer > LAYER_PINNED) {
			n += load_pinned(rs, cfg, diags);
			pinned = true;
		}
		/* An import of skill-rules.json replaces it (sources.h). */
		if (l.items[i].layer == LAYER_SKILL_RULES &&
		    imported_skill_rules(rs))
			continue;
		n += load_if_present(rs, l.items[i].path, l.items[i].layer,
		    diags, seen, &nseen);
	}
	if (!selfprot)
		n += load_selfprot(rs, cfg, diags);
	if (!pinned)
		n += load_pinned(rs, cfg, diags);
	source_list_release(&l);
	free(seen);
	return n;
}
