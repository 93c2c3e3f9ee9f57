/*
 * reflexion-rules rules [--event E] [--tool T] [--digest DIR]: the rules
 * the hook of this project would load, one per line, with the layer and
 * file each comes from, and what was refused: overrides a layer may not
 * make, pinned sources that changed.  --digest prints the entry that
 * pins a directory in config.yaml's sources: (pinned.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "cmd_check.h"
#include "cmdargs.h"
#include "eval.h"
#include "pinned.h"
#include "places.h"
#include "sources.h"
#include "userconf.h"
#include "xmalloc.h"

static int cmd_rules_exec(int, char **);

/* skill-rules.json there, but replaced by its import (sources.h). */
static void
skill_rules_note(const struct ruleset *rs, const char *project)
{
	struct stat	 st;
	char		*json;

	if (*project == '\0' || !imported_skill_rules(rs))
		return;
	json = xasprintf("%s/.claude/skills/skill-rules.json", project);
	if (stat(json, &st) == 0)
		printf("%s: not read: the project's rules hold pack "
		    SKILL_RULES_PACK ", its import, which replaces it\n", json);
	free(json);
}

enum { RULES_EVENT, RULES_TOOL, RULES_DIGEST };

static const struct cmd_option rules_options[] = {
	{ "event", 0, "EVENT", 0, RULES_EVENT },
	{ "tool", 0, "TOOL", 0, RULES_TOOL },
	{ "digest", 0, "DIR", 0, RULES_DIGEST },
	{ NULL, 0, NULL, 0, 0 }
};

const struct cmd_entry cmd_rules_entry = {
	.name = "rules",
	.options = rules_options,
	.summary = "List the rules the hook would load here, with their "
	    "layers, and the overrides and sources that were refused; "
	    "--digest DIR prints the entry that pins DIR in config.yaml.",
	.exec = cmd_rules_exec,
};

/* The line of config.yaml's sources: that pins dir as it is now. */
static int
print_digest(const char *arg)
{
	struct pinned_dir	 pd;
	char			*dir = config_real_path(arg), *err;
	int			 status = RR_EXIT_OK;

	if (pinned_read(dir, &pd, NULL, &err) < 0) {
		fprintf(stderr, "reflexion-rules rules: %s\n", err);
		free(err);
		status = RR_EXIT_FAIL;
	} else
		printf("  - {path: %s, sha256: %s}\n", dir, pd.sha256);
	pinned_release(&pd);
	free(dir);
	return status;
}

/* Whether r applies to kind (EV_OTHER: any) and tool (NULL: any). */
static bool
shown(const struct rule *r, enum rr_event_kind kind, const char *tool)
{
	struct rr_event	ev;
	int		k;

	if (kind != EV_OTHER && !(r->events & (1u << kind)))
		return false;
	if (tool == NULL)
		return true;
	memset(&ev, 0, sizeof(ev));
	ev.tool = tool;
	for (k = 0; k < EV__COUNT; k++) {
		if (kind != EV_OTHER && k != (int)kind)
			continue;
		ev.kind = (enum rr_event_kind)k;
		if (rule_applies(r, &ev))
			return true;
	}
	return false;
}

static void
events_text(const struct rule *r, struct buf *b)
{
	int	k;

	buf_reset(b);
	if (r->check_only) {
		buf_adds(b, "Check");
		return;
	}
	for (k = 0; k < EV__COUNT; k++)
		if (r->events & (1u << k))
			buf_printf(b, "%s%s", b->len ? "," : "",
			    event_kind_names[k]);
	if (b->len == 0)
		buf_adds(b, "-");
}

static void
print_rules(const struct ruleset *rs, enum rr_event_kind kind,
    const char *tool)
{
	const struct rule	*r;
	struct buf		 ev;
	size_t			 i;
	int			 wid = 0, wev = 0, w;

	buf_init(&ev);
	for (i = 0; i < rs->n; i++) {
		r = rs->rules[i];
		if (!shown(r, kind, tool))
			continue;
		if ((w = (int)strlen(r->id)) > wid)
			wid = w;
		events_text(r, &ev);
		if ((w = (int)ev.len) > wev)
			wev = w;
	}
	for (i = 0; i < rs->n; i++) {
		r = rs->rules[i];
		if (!shown(r, kind, tool))
			continue;
		events_text(r, &ev);
		printf("%-*s  %-7s  %-*s  %-11s  %s:%d%s%s%s\n", wid, r->id,
		    r->action < ACT__COUNT ? action_names[r->action] : "-",
		    wev, ev.data, layer_name(r->layer), r->file, r->line,
		    r->locked ? "  locked" : "",
		    r->overridable ? "  overridable" : "",
		    r->enabled ? "" : "  disabled");
	}
	buf_release(&ev);
}

/* The diagnostics of one code, under a heading; how many. */
static size_t
print_refusals(const struct diag_list *diags, enum diag_code code,
    const char *heading)
{
	size_t	 i, n = 0;
	char	*line;

	for (i = 0; i < diags->n; i++) {
		if (diags->items[i].code != code)
			continue;
		if (n++ == 0)
			printf("%s:\n", heading);
		line = diag_format_short(&diags->items[i]);
		printf("  %s\n", line);
		free(line);
	}
	return n;
}

static int
cmd_rules_exec(int argc, char **argv)
{
	struct cmd_args		 a;
	struct check_set	 cs;
	struct rule_sources	 src;
	enum rr_event_kind	 kind = EV_OTHER;
	const char		*e, *tool;
	char			*err, *project;
	size_t			 other;
	int			 status;

	if (cmd_args_parse(&cmd_rules_entry, argc, argv, &a, &err) < 0)
		return cmd_usage(&cmd_rules_entry, err);
	if (a.help) {
		cmd_print_help(&cmd_rules_entry, stdout);
		cmd_args_release(&a);
		return RR_EXIT_OK;
	}
	if ((e = cmd_args_get(&a, RULES_DIGEST)) != NULL) {
		status = print_digest(e);
		cmd_args_release(&a);
		return status;
	}
	if ((e = cmd_args_get(&a, RULES_EVENT)) != NULL &&
	    (kind = event_kind_from_name(e)) == EV_OTHER) {
		err = xasprintf("unknown event '%s'", e);
		cmd_args_release(&a);
		return cmd_usage(&cmd_rules_entry, err);
	}
	tool = cmd_args_get(&a, RULES_TOOL);
	memset(&src, 0, sizeof(src));
	/* Every rule decoded: all are listed. */
	check_load("rules", &src, LOAD_CACHED, true, &cs);
	print_rules(&cs.rs, kind, tool);
	other = cs.diags.errors;
	other -= print_refusals(&cs.diags, DIAG_refused_override,
	    "refused overrides (the more trusted rule stays in force)");
	other -= print_refusals(&cs.diags, DIAG_pinned_source,
	    "disabled sources");
	if (other > 0)
		printf("%zu other error%s in rule files: run 'reflexion-rules "
		    "lint'\n", other, other == 1 ? "" : "s");
	project = project_root(NULL);
	skill_rules_note(&cs.rs, project);
	printf("project %s: %s\n", *project ? project : "(none)",
	    cs.rs.project_trusted ? "trusted (its allow rules count)" :
	    "not trusted (its allow rules count as no decision)");
	free(project);
	check_release(&cs);
	cmd_args_release(&a);
	return RR_EXIT_OK;
}
