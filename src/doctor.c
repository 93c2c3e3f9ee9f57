/*
 * The doctor's checks of the installation (doctor.h): this program on
 * PATH, the data directory, config.yaml, the packs and the schema, the
 * rules the hook of this project loads and their compiled cache, the
 * database and the state directory.  The agents' checks are in
 * doctor_agents.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "datadir.h"
#include "db.h"
#include "doctor_priv.h"
#include "fileio.h"
#include "journal.h"
#include "load.h"
#include "monoclock.h"
#include "places.h"
#include "progpath.h"
#include "selfprot.h"
#include "userconf.h"
#include "xmalloc.h"

/* The pack a new user turns on first (README, Quick start). */
#define FIRST_PACK	"dangerous-commands"

/*
 * The program the clients start: a registration by the bare name needs
 * it on PATH (the PATH of this shell; a client started elsewhere may
 * have another).
 */
static void
check_program(struct doctor_report *r, bool bare)
{
	char	*self = progpath_self(), *found, *real;

	found = progpath_find("reflexion-rules");
	real = found != NULL ? realpath(found, NULL) : NULL;
	if (found != NULL && (self == NULL || real == NULL ||
	    strcmp(self, real) == 0))
		doctor_add(r, DOCTOR_OK, "program", NULL, "%s, the "
		    "reflexion-rules on PATH", found);
	else if (found != NULL)
		doctor_add(r, DOCTOR_NOTE, "program", NULL, "the reflexion-rules "
		    "on PATH is %s, not this program (%s): the clients run "
		    "that one", found, self);
	else if (bare)
		doctor_add(r, DOCTOR_PROBLEM, "program", "make install (or "
		    "reflexion-rules init --uninstall, then reflexion-rules "
		    "init: it registers this program's full path)",
		    "reflexion-rules is not on PATH, and a registration runs "
		    "it by that name: the hook cannot start (the clients "
		    "ignore the failure, and nothing is guarded)");
	else
		doctor_add(r, DOCTOR_NOTE, "program", "make install",
		    "reflexion-rules is not on PATH; the registrations run "
		    "%s by its full path", self != NULL ? self :
		    "this program");
	free(real);
	free(found);
	free(self);
}

/* The data directory; 0 with home->dir, or -1 (reported). */
static int
check_home(struct doctor_report *r, struct rr_home *home)
{
	char	*fix = NULL;

	home_find(home);
	if (home->dir != NULL) {
		doctor_add(r, DOCTOR_OK, "data", NULL, "%s", home->dir);
		return 0;
	}
	if (home->refused != NULL && strstr(home->why, "chmod go-w") != NULL)
		fix = xasprintf("chmod go-w %s", home->refused);
	else if (home->refused == NULL)
		fix = xstrdup("export HOME=/home/$(id -un)");
	if (home->refused != NULL)
		doctor_add(r, DOCTOR_PROBLEM, "data", fix, "%s: %s: no user "
		    "rules, packs, cache or memory", home->refused, home->why);
	else
		doctor_add(r, DOCTOR_PROBLEM, "data", fix, "%s", home->why);
	free(fix);
	return -1;
}

/* Returns whether config.yaml names a pack that is not installed. */
static bool
check_config(struct doctor_report *r, const char *home, const char *packs,
    struct rr_config *cfg)
{
	bool			 unknown = false;
	struct diag_list	 diags;
	struct stat		 st;
	char			*file = xasprintf("%s/config.yaml", home), *fix;
	size_t			 i;

	diag_list_init(&diags);
	config_load(cfg, home, packs, NULL, &diags);
	if (diags.errors > 0) {
		for (i = diags.n; i-- > 0; )
			if (diags.items[i].code == DIAG_unknown_pack)
				unknown = true;
		for (i = 0; i < diags.n; i++)
			if (diags.items[i].severity == DIAG_ERROR)
				break;
		doctor_add(r, DOCTOR_PROBLEM, "config", "reflexion-rules lint",
		    "%s has %zu error%s (line %d: %s)", file, diags.errors,
		    diags.errors == 1 ? "" : "s", diags.items[i].line,
		    diags.items[i].message);
	} else if (stat(file, &st) < 0) {
		fix = xasprintf("echo 'packs: [" FIRST_PACK "]' >> %s", file);
		doctor_add(r, DOCTOR_NOTE, "config", fix, "no %s: no pack is "
		    "enabled", file);
		free(fix);
	} else
		doctor_add(r, DOCTOR_OK, "config", NULL, "%s: %zu pack%s "
		    "enabled, %zu pinned source%s, %zu trusted project%s", file,
		    cfg->npacks, cfg->npacks == 1 ? "" : "s", cfg->nsources,
		    cfg->nsources == 1 ? "" : "s", cfg->ntrust,
		    cfg->ntrust == 1 ? "" : "s");
	diag_list_release(&diags);
	free(file);
	return unknown;
}

/*
 * The packs directory, and the schema installed beside it; needed says
 * that config.yaml names packs that are not there.
 */
static void
check_packs(struct doctor_report *r, const char *packs,
    const struct rr_config *cfg, bool needed)
{
	struct stat	 st;
	char		**names, *schema, *parent, *slash, *data;
	const char	*how = getenv("REFLEXION_PACKS_DIR") != NULL &&
			    *getenv("REFLEXION_PACKS_DIR") != '\0' ?
			    " (REFLEXION_PACKS_DIR)" : "";
	size_t		 n, i, yaml = 0;

	if (dir_names(packs, &names, &n) < 0) {
		doctor_add(r, needed || cfg->npacks > 0 ? DOCTOR_PROBLEM :
		    DOCTOR_NOTE,
		    "packs", "make install", "%s%s: %s: no pack can be "
		    "enabled", packs, how, strerror(errno));
	} else {
		for (i = 0; i < n; i++)
			if (str_has_suffix(names[i], ".yaml"))
				yaml++;
		dir_names_free(names, n);
		doctor_add(r, yaml > 0 ? DOCTOR_OK : needed ? DOCTOR_PROBLEM :
		    DOCTOR_NOTE, "packs",
		    yaml > 0 ? NULL : "make install", "%s%s: %zu pack%s", packs,
		    how, yaml, yaml == 1 ? "" : "s");
	}
	/* The schema is installed beside the packs (cmd_import.c). */
	parent = xstrdup(packs);
	if ((slash = strrchr(parent, '/')) != NULL && slash != parent)
		*slash = '\0';
	schema = xasprintf("%s/schemas/rules.schema.json", parent);
	if (stat(schema, &st) != 0) {
		free(schema);
		data = datadir_path("schemas");
		schema = xasprintf("%s/rules.schema.json", data);
		free(data);
	}
	if (stat(schema, &st) == 0 && S_ISREG(st.st_mode))
		doctor_add(r, DOCTOR_OK, "schema", NULL, "%s (for editors: "
		    "# yaml-language-server: $schema=%s)", schema, schema);
	else
		doctor_add(r, DOCTOR_NOTE, "schema", "make install", "%s is not "
		    "there: editors cannot check rule files", schema);
	free(schema);
	free(parent);
}

/* The rules the hook of this project loads, and their cache. */
static void
check_rules(struct doctor_report *r, const struct rr_home *home,
    const char *project, const char *home_dir)
{
	struct rules_request	 rq;
	struct rules_loaded	 how;
	struct ruleset		 rs;
	struct diag_list	 diags;
	const struct rule	*ru;
	char			*fix;
	size_t			 i, mine = 0, warnings = 0;

	memset(&rq, 0, sizeof(rq));
	rq.home = home->dir;
	rq.home_info = home;
	rq.project = project;
	rq.mode = LOAD_CACHED;
	rq.say = SAY_NOTHING;
	rq.all = true;
	rules_load(&rs, &diags, &rq, &how);
	for (i = 0; i < rs.n; i++)
		if ((ru = ruleset_rule(&rs, i)) != NULL &&
		    strcmp(ru->file, SELFPROT_FILE) != 0 && ru->enabled)
			mine++;
	for (i = 0; i < diags.n; i++)
		if (diags.items[i].severity == DIAG_WARNING)
			warnings++;
	if (diags.errors > 0)
		doctor_add(r, DOCTOR_PROBLEM, "rules", "reflexion-rules lint",
		    "%zu error%s in rule files: the broken rules are not "
		    "active", diags.errors, diags.errors == 1 ? "" : "s");
	if (mine == 0) {
		fix = home_dir != NULL ? xasprintf("echo 'packs: [" FIRST_PACK
		    "]' >> %s/config.yaml", home_dir) : NULL;
		doctor_add(r, DOCTOR_PROBLEM, "rules", fix, "no rule is active "
		    "in %s but the built-in self-protection: nothing guards "
		    "the agent", *project ? project : "this directory");
		free(fix);
	} else
		doctor_add(r, DOCTOR_OK, "rules", NULL, "%zu rule%s active in "
		    "%s ('reflexion-rules rules' lists them)", mine,
		    mine == 1 ? "" : "s", *project ? project :
		    "this directory");
	if (warnings > 0)
		doctor_add(r, DOCTOR_NOTE, "rules", "reflexion-rules lint",
		    "%zu warning%s: rules that can never fire", warnings,
		    warnings == 1 ? "" : "s");
	switch (how.status) {
	case LOADED_HIT:
		doctor_add(r, DOCTOR_OK, "cache", NULL, "%s is up to date",
		    how.path);
		break;
	case LOADED_BUILT:
		doctor_add(r, DOCTOR_OK, "cache", NULL, "%s: built now (%s), "
		    "for the next hook call", how.path, how.why != NULL ?
		    how.why : "it was stale");
		break;
	case LOADED_UNSAVED:
		fix = home_dir != NULL ? xasprintf("chmod u+rwx %s/cache", home_dir) :
		    NULL;
		doctor_add(r, DOCTOR_PROBLEM, "cache", fix, "the compiled cache "
		    "cannot be written (%s): every hook call compiles the "
		    "rules", how.why != NULL ? how.why : "?");
		free(fix);
		break;
	case LOADED_OFF:
		doctor_add(r, DOCTOR_NOTE, "cache", "unset REFLEXION_NO_CACHE",
		    "REFLEXION_NO_CACHE is set: every hook call compiles the "
		    "rules");
		break;
	case LOADED_NO_HOME:
	case LOADED_FRESH:
		break;
	}
	rules_loaded_release(&how);
	diag_list_release(&diags);
	ruleset_release(&rs);
}

/* Opens the database read-only and asks SQLite whether it is whole. */
static void
check_database(struct doctor_report *r, const char *home)
{
	sqlite3		*c = NULL;
	sqlite3_stmt	*st = NULL;
	struct stat	 sb;
	char		*path = db_default_path(home), *fix;
	const char	*verdict = NULL;
	long long	 entries = -1;
	int		 rc;

	if (stat(path, &sb) < 0 && errno == ENOENT) {
		doctor_add(r, DOCTOR_OK, "database", NULL, "%s: not made yet "
		    "(the first rule that records or looks up makes it)",
		    path);
		free(path);
		return;
	}
	fix = xasprintf("reflexion-rules kb export > kb.jsonl && mv %s "
	    "%s.damaged && reflexion-rules kb import kb.jsonl", path, path);
	rc = sqlite3_open_v2(path, &c, SQLITE_OPEN_READONLY, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(c, 2000);
		rc = sqlite3_prepare_v2(c, "PRAGMA quick_check(1)", -1, &st,
		    NULL);
	}
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
		verdict = (const char *)sqlite3_column_text(st, 0);
	if (verdict == NULL) {
		/* Nothing to export from a file SQLite cannot read. */
		free(fix);
		fix = xasprintf("mv %s %s.damaged (the next hook starts a new "
		    "one)", path, path);
		doctor_add(r, DOCTOR_PROBLEM, "database", fix, "%s cannot be "
		    "read: %s", path, c != NULL ? sqlite3_errmsg(c) :
		    sqlite3_errstr(rc));
	} else if (strcmp(verdict, "ok") != 0)
		doctor_add(r, DOCTOR_PROBLEM, "database", fix, "%s is damaged: "
		    "%s", path, verdict);
	else {
		sqlite3_finalize(st);
		st = NULL;
		if (sqlite3_prepare_v2(c, "SELECT count(*) FROM error_kb", -1,
		    &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
			entries = sqlite3_column_int64(st, 0);
		if (entries >= 0)
			doctor_add(r, DOCTOR_OK, "database", NULL, "%s: whole, "
			    "%lld knowledge-base entr%s", path, entries,
			    entries == 1 ? "y" : "ies");
		else
			doctor_add(r, DOCTOR_OK, "database", NULL, "%s: whole",
			    path);
	}
	sqlite3_finalize(st);
	sqlite3_close(c);
	free(fix);
	free(path);
}

/*
 * The journal of recorded calls (journal.h): how many wait to be folded,
 * and whether some lines are damaged (the fold skips them).  Read under
 * its lock; nothing is folded or changed.
 */
static void
check_journal(struct doctor_report *r, const char *home)
{
	struct journal		 j;
	struct journal_rec	 rec;
	char			*db = db_default_path(home), *path, *err = NULL;
	size_t			 n = 0;

	path = journal_path(db);
	free(db);
	if (!journal_pending(path)) {
		free(path);
		return;
	}
	if (journal_open(&j, path, monoclock_ms() + 2000, &err) < 0) {
		doctor_add(r, DOCTOR_PROBLEM, "journal", NULL, "%s", err);
		free(err);
		free(path);
		return;
	}
	while (j.fd >= 0 && journal_next(&j, &rec))
		n++;
	if (j.damaged > 0)
		doctor_add(r, DOCTOR_NOTE, "journal", NULL, "%s: %zu damaged "
		    "line(s), skipped when it is folded (a hook killed while "
		    "writing)", path, j.damaged);
	doctor_add(r, DOCTOR_OK, "journal", NULL, "%s: %zu recorded call(s) "
	    "wait to be folded into the database (any memory or kb command "
	    "does it)", path, n);
	journal_close(&j);
	free(path);
}

/* The state directory: there and writable, or can be made. */
static void
check_state(struct doctor_report *r, const char *home)
{
	struct stat	 st;
	char		*dir = xasprintf("%s/state", home), *tmp, *fix;
	int		 fd;

	if (stat(dir, &st) < 0) {
		if (access(home, W_OK) == 0 || (errno == ENOENT &&
		    stat(home, &st) < 0))
			doctor_add(r, DOCTOR_OK, "state", NULL, "%s: made on "
			    "first use", dir);
		else {
			fix = xasprintf("chmod u+rwx %s", home);
			doctor_add(r, DOCTOR_PROBLEM, "state", fix, "%s cannot "
			    "be made: %s is not writable", dir, home);
			free(fix);
		}
		free(dir);
		return;
	}
	tmp = xasprintf("%s/.doctor.XXXXXX", dir);
	if (S_ISDIR(st.st_mode) && (fd = mkstemp(tmp)) >= 0) {
		close(fd);
		unlink(tmp);
		doctor_add(r, DOCTOR_OK, "state", NULL, "%s: writable", dir);
	} else {
		fix = xasprintf("rm -rf %s (it holds only per-session state)",
		    dir);
		doctor_add(r, DOCTOR_PROBLEM, "state", fix, "%s is not a "
		    "writable directory: %s (once rules and per-path warnings "
		    "repeat)", dir, S_ISDIR(st.st_mode) ? strerror(errno) :
		    "not a directory");
		free(fix);
	}
	free(tmp);
	free(dir);
}

void
doctor_run(const struct doctor_opts *o, struct doctor_report *r)
{
	struct doctor_report	 agents;
	struct rr_home		 home;
	struct rr_config	 cfg;
	char			*project, *packs;
	bool			 bare = false, needed = false;

	project = project_root(NULL);
	doctor_report_init(&agents);
	doctor_agents(o, project, &agents, &bare);
	check_program(r, bare);
	doctor_report_take(r, &agents);
	packs = packs_dir();
	memset(&cfg, 0, sizeof(cfg));
	if (check_home(r, &home) == 0)
		needed = check_config(r, home.dir, packs, &cfg);
	check_packs(r, packs, &cfg, needed);
	check_rules(r, &home, project, home.dir);
	if (home.dir != NULL) {
		check_database(r, home.dir);
		check_journal(r, home.dir);
		check_state(r, home.dir);
	}
	config_release(&cfg);
	free(packs);
	free(project);
	home_release(&home);
}
