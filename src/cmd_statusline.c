/*
 * reflexion-rules statusline: one line for Claude Code's statusLine
 * setting (statusline.h), from the JSON it sends on stdin: the session,
 * its model and directory, the session's latest route from the memory,
 * the active rules (the compiled cache) and the calls denied in the
 * session (its state).  Whatever is missing or broken is left out: a
 * status line never fails, it prints what it knows and exits 0.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "cmdargs.h"
#include "db.h"
#include "fileio.h"
#include "hook.h"
#include "load.h"
#include "memory.h"
#include "places.h"
#include "state.h"
#include "statusline.h"
#include "xmalloc.h"

#define STATUSLINE_STDIN_MAX	(1024u * 1024)
/* A status line is drawn often: the memory gets a short budget. */
#define STATUSLINE_DB_BUDGET_MS	200

static int cmd_statusline_exec(int, char **);

const struct cmd_entry cmd_statusline_entry = {
	.name = "statusline",
	.args = "< status.json",
	.summary = "Print one status line for Claude Code's statusLine "
	    "setting from the JSON it sends on stdin: time and session, "
	    "model, directory, the session's route, the active rules and "
	    "the calls denied in the session.",
	.exec = cmd_statusline_exec,
};

static const char *
jstr(const cJSON *o, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) && v->valuestring[0] ? v->valuestring : NULL;
}

/* The active rules of the project: enabled, decodable. */
static long
count_rules(const struct rr_home *home, const char *dir)
{
	struct rule_sources	 src;
	struct rules_request	 rq;
	struct rules_loaded	 how;
	struct ruleset		 rs;
	struct diag_list	 diags;
	const struct rule	*r;
	char			*project = project_root(dir);
	size_t			 i;
	long			 n = 0;

	memset(&src, 0, sizeof(src));
	memset(&rq, 0, sizeof(rq));
	rq.sources = &src;
	rq.home = home->dir;
	rq.home_info = home;
	rq.project = project;
	rq.mode = LOAD_CACHED;
	rq.say = SAY_NOTHING;
	rq.skip_tests = true;
	rules_load(&rs, &diags, &rq, &how);
	for (i = 0; i < rs.n; i++)
		if ((r = ruleset_rule(&rs, i)) != NULL && r->enabled)
			n++;
	rules_loaded_release(&how);
	diag_list_release(&diags);
	ruleset_release(&rs);
	free(project);
	return n;
}

static int
cmd_statusline_exec(int argc, char **argv)
{
	struct statusline_facts	 f;
	struct cmd_args		 a;
	struct rr_home		 home;
	struct mem_row		 route;
	struct rr_db		*db = NULL;
	struct buf		 in;
	cJSON			*root = NULL;
	const cJSON		*m, *ws;
	char			 now[8], *err = NULL, *path, *state, *line;
	time_t			 t = time(NULL);
	struct tm		 tm;
	size_t			 denied;
	bool			 found = false;

	if (cmd_args_parse(&cmd_statusline_entry, argc, argv, &a, &err) < 0)
		return cmd_usage(&cmd_statusline_entry, err);
	if (a.help) {
		cmd_print_help(&cmd_statusline_entry, stdout);
		cmd_args_release(&a);
		return RR_EXIT_OK;
	}
	cmd_args_release(&a);
	buf_init(&in);
	if (fd_read_all(0, STATUSLINE_STDIN_MAX, true, &in) == FD_READ_OK)
		root = cJSON_ParseWithLength(in.data ? in.data : "", in.len);
	buf_release(&in);
	memset(&f, 0, sizeof(f));
	localtime_r(&t, &tm);
	strftime(now, sizeof(now), "%H:%M", &tm);
	f.time = now;
	f.rules = f.denied = -1;
	f.session = jstr(root, "session_id");
	m = cJSON_GetObjectItemCaseSensitive(root, "model");
	f.model_id = jstr(m, "id");
	f.model_name = jstr(m, "display_name");
	ws = cJSON_GetObjectItemCaseSensitive(root, "workspace");
	if ((f.dir = jstr(ws, "current_dir")) == NULL)
		f.dir = jstr(root, "cwd");
	memset(&route, 0, sizeof(route));
	home_find(&home);
	if (home.dir != NULL && f.session != NULL) {
		path = db_default_path(home.dir);
		db = db_new(path);
		free(path);
		if (getenv("REFLEXION_DB_BUDGET_MS") == NULL)
			db->budget_ms = STATUSLINE_DB_BUDGET_MS;
		db->bound_queries = true;
		if (mem_last_route(db, f.session, &route, &found, &err) < 0)
			free(err);
		if (found) {
			f.route_exec_type = route.exec_type;
			f.route_pipeline = route.pipeline;
			f.route_icon = route.icon;
		}
		state = xasprintf("%s/state", home.dir);
		if (state_count(state, f.session, HOOK_DENY_KEY, &denied,
		    &err) == 0)
			f.denied = (long)denied;
		else
			free(err);
		free(state);
	}
	f.rules = count_rules(&home, jstr(ws, "project_dir") ?
	    jstr(ws, "project_dir") : f.dir);
	line = statusline_format(&f);
	printf("%s\n", line);
	free(line);
	mem_row_release(&route);
	db_close(db);
	home_release(&home);
	cJSON_Delete(root);
	return RR_EXIT_OK;
}
