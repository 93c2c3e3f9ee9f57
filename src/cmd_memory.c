/*
 * reflexion-rules memory: the recorded observations, saved conversations
 * and session summaries, in the three layers of seed 001 (memory.h):
 * search and file list ids with one-line summaries, timeline shows the
 * rows around one, show prints whole rows; session lists a session (or
 * the recent ones).  Text for people, --format json for tools.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmdargs.h"
#include "db.h"
#include "jsonw.h"
#include "memory.h"
#include "places.h"
#include "textesc.h"
#include "userconf.h"
#include "xmalloc.h"

/* Commands are not hooks: they may wait longer for a lock. */
#define MEM_CMD_BUDGET_MS	10000
#define MEM_AROUND_DEFAULT	5

static int cmd_memory_exec(int, char **);

enum { M_LIMIT, M_FORMAT, M_SESSION, M_TIER, M_BEFORE, M_AFTER, M_ANY,
	M_PROJECT };

static const struct cmd_option search_options[] = {
	{ "limit", 0, "N", 0, M_LIMIT },
	{ "format", 0, "text|json", 0, M_FORMAT },
	{ "session", 0, "ID", 0, M_SESSION },
	{ "project", 0, "DIR", 0, M_PROJECT },
	{ "tier", 0, "summaries|conversations|observations", 0, M_TIER },
	{ "any", 0, NULL, 0, M_ANY },
	{ NULL, 0, NULL, 0, 0 }
};

static const struct cmd_option file_options[] = {
	{ "limit", 0, "N", 0, M_LIMIT },
	{ "format", 0, "text|json", 0, M_FORMAT },
	{ "session", 0, "ID", 0, M_SESSION },
	{ NULL, 0, NULL, 0, 0 }
};

static const struct cmd_option timeline_options[] = {
	{ "before", 0, "N", 0, M_BEFORE },
	{ "after", 0, "N", 0, M_AFTER },
	{ "format", 0, "text|json", 0, M_FORMAT },
	{ NULL, 0, NULL, 0, 0 }
};

static const struct cmd_option show_options[] = {
	{ "format", 0, "text|json", 0, M_FORMAT },
	{ NULL, 0, NULL, 0, 0 }
};

static const struct cmd_option session_options[] = {
	{ "limit", 0, "N", 0, M_LIMIT },
	{ "format", 0, "text|json", 0, M_FORMAT },
	{ NULL, 0, NULL, 0, 0 }
};

static const struct cmd_entry mem_search_verb = {
	.name = "memory search",
	.options = search_options,
	.args = "WORDS",
	.lower = 1,
	.upper = -1,
	.summary = "Search the memory for WORDS (each a prefix, every one "
	    "needed; --any: ranked, any one): session summaries first, then "
	    "conversations, then observations, 10 of each unless --limit "
	    "says otherwise.  Lists ids and one line each.  Exit 1 when "
	    "nothing is found.",
};

static const struct cmd_entry mem_file_verb = {
	.name = "memory file",
	.options = file_options,
	.args = "PATH",
	.lower = 1,
	.upper = 1,
	.summary = "List the recorded calls on a file, newest first: PATH "
	    "matches the end of the recorded path.  Exit 1 when there is "
	    "none.",
};

static const struct cmd_entry mem_timeline_verb = {
	.name = "memory timeline",
	.options = timeline_options,
	.args = "ID",
	.lower = 1,
	.upper = 1,
	.summary = "Show the observations of ID's session around it, 5 "
	    "before and 5 after unless --before and --after say otherwise.",
};

static const struct cmd_entry mem_show_verb = {
	.name = "memory show",
	.options = show_options,
	.args = "ID...",
	.lower = 1,
	.upper = -1,
	.summary = "Print the whole rows of the ids (s12, c7, e41) that "
	    "search, file and timeline list.",
};

static const struct cmd_entry mem_session_verb = {
	.name = "memory session",
	.options = session_options,
	.args = "[SESSION]",
	.upper = 1,
	.summary = "Print a session: its summary, then its conversation and "
	    "observations in order.  Without SESSION, list the recent "
	    "sessions, 10 unless --limit says otherwise.",
};

static const struct cmd_entry *const mem_verbs[] = {
	&mem_search_verb,
	&mem_file_verb,
	&mem_timeline_verb,
	&mem_session_verb,
	&mem_show_verb,
	NULL
};

const struct cmd_entry cmd_memory_entry = {
	.name = "memory",
	.args = "[OPTIONS] [ARGS]",
	.lower = 1,
	.verbs = mem_verbs,
	.summary = "Search and read the memory: the observations recorded "
	    "from tool calls, the conversations saved on Stop and the "
	    "summaries written at SessionEnd.",
	.exec = cmd_memory_exec,
};

struct mem_args {
	char		**pos;
	size_t		  npos;
	long		  limit, before, after;
	bool		  json, any;
	const char	 *session, *project;
	int		  tier;		/* -1: all */
};

static int
number(const struct cmd_args *ca, int id, const char *name, long *out,
    char **err)
{
	const char	*v = cmd_args_get(ca, id);
	char		*end;
	long		 n;

	if (v == NULL || *err != NULL)
		return 0;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || *end != '\0' || end == v || n < 0 || n > MEM_LIMIT_MAX) {
		*err = xasprintf("--%s needs a number from 0 to %d", name,
		    MEM_LIMIT_MAX);
		return -1;
	}
	*out = n;
	return 0;
}

static const char *const tier_names[MEM__COUNT] = {
	"summaries", "conversations", "observations"
};

/* -1 to run the verb, else the exit status. */
static int
mem_parse(const struct cmd_entry *verb, int argc, char **argv,
    struct cmd_args *ca, struct mem_args *a)
{
	const char	*v;
	char		*err = NULL;
	int		 i;

	memset(a, 0, sizeof(*a));
	a->limit = -1;
	a->before = a->after = MEM_AROUND_DEFAULT;
	a->tier = -1;
	if (cmd_args_parse(verb, argc, argv, ca, &err) < 0)
		return cmd_usage(verb, err);
	if (ca->help) {
		cmd_print_help(verb, stdout);
		cmd_args_release(ca);
		return RR_EXIT_OK;
	}
	number(ca, M_LIMIT, "limit", &a->limit, &err);
	number(ca, M_BEFORE, "before", &a->before, &err);
	number(ca, M_AFTER, "after", &a->after, &err);
	if ((v = cmd_args_get(ca, M_FORMAT)) != NULL && err == NULL) {
		if (strcmp(v, "json") == 0)
			a->json = true;
		else if (strcmp(v, "text") != 0)
			err = xasprintf("--format is text or json, not '%s'",
			    v);
	}
	if ((v = cmd_args_get(ca, M_TIER)) != NULL && err == NULL) {
		for (i = 0; i < MEM__COUNT; i++)
			if (strcmp(v, tier_names[i]) == 0)
				a->tier = i;
		if (a->tier < 0)
			err = xasprintf("--tier is summaries, conversations or "
			    "observations, not '%s'", v);
	}
	a->any = cmd_args_has(ca, M_ANY);
	a->session = cmd_args_get(ca, M_SESSION);
	a->project = cmd_args_get(ca, M_PROJECT);
	a->pos = ca->rest;
	a->npos = (size_t)ca->nrest;
	if (err != NULL) {
		cmd_args_release(ca);
		return cmd_usage(verb, err);
	}
	return -1;
}

/* ---- output ------------------------------------------------------------- */

static void
put_escaped(const char *s, enum textesc_mode mode)
{
	struct buf	b;

	buf_init(&b);
	if (s != NULL)
		textesc_add(&b, s, strlen(s), mode);
	fwrite(b.data, 1, b.len, stdout);
	buf_release(&b);
}

/* "2026-11-28T08:14:03.120Z" as "2026-11-28 08:14". */
static void
put_time(const char *ts)
{
	if (ts != NULL && strlen(ts) >= 16)
		printf("%.10s %.5s", ts, ts + 11);
	else
		printf("%-16s", ts ? ts : "?");
}

static void
put_row_line(const struct mem_row *r, bool mark)
{
	printf("%s%-6s ", mark ? "> " : "  ", r->id[0] ? r->id : "-");
	put_time(r->ts);
	printf("  %.8s  ", r->session ? r->session : "?");
	put_escaped(r->line, TEXTESC_LINE);
	putchar('\n');
}

static cJSON *
str_or_null(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static cJSON *
row_json(const struct mem_row *r, bool whole)
{
	cJSON	*o = cJSON_CreateObject(), *d;

	cJSON_AddItemToObject(o, "id", str_or_null(r->id[0] ? r->id : NULL));
	cJSON_AddStringToObject(o, "kind", mem_kind_names[r->kind]);
	cJSON_AddItemToObject(o, "type", str_or_null(r->type));
	cJSON_AddItemToObject(o, "ts", str_or_null(r->ts));
	cJSON_AddItemToObject(o, "session_id", str_or_null(r->session));
	if (r->project != NULL)
		cJSON_AddStringToObject(o, "project", r->project);
	if (r->tool != NULL)
		cJSON_AddStringToObject(o, "tool", r->tool);
	cJSON_AddItemToObject(o, "summary", str_or_null(r->line));
	if (!whole)
		return o;
	cJSON_AddItemToObject(o, "text", str_or_null(r->text));
	if (r->data != NULL && (d = cJSON_Parse(r->data)) != NULL)
		cJSON_AddItemToObject(o, "data", d);
	return o;
}

/* Prints j as one line of JSON and frees it. */
static void
put_json(cJSON *j)
{
	char	*s = cJSON_PrintUnformatted(j), *v;

	cJSON_Delete(j);
	if (s == NULL)
		out_of_memory(0);
	v = utf8_valid_dup(s, strlen(s));
	cJSON_free(s);
	printf("%s\n", v);
	free(v);
}

static cJSON *
rows_json(const struct mem_rows *rows, bool whole)
{
	cJSON	*a = cJSON_CreateArray();
	size_t	 i;

	for (i = 0; i < rows->n; i++)
		cJSON_AddItemToArray(a, row_json(&rows->v[i], whole));
	return a;
}

/* ---- the verbs ------------------------------------------------------------ */

static const char *mem_home;

static struct rr_db *
open_db(void)
{
	struct rr_db	*db;
	char		*path = db_default_path(mem_home);

	db = db_new(path);
	if (getenv("REFLEXION_DB_BUDGET_MS") == NULL)
		db->budget_ms = MEM_CMD_BUDGET_MS;
	db->migrate_limit = 0;
	free(path);
	return db;
}

static int
finish(struct rr_db *db, char *err, int status)
{
	fwrite(db->notes.data, 1, db->notes.len, stderr);
	if (err != NULL) {
		fprintf(stderr, "reflexion-rules memory: %s\n", err);
		free(err);
		status = RR_EXIT_USAGE;
	}
	db_close(db);
	return status;
}

static char *
joined(char **v, size_t n)
{
	struct buf	b;
	size_t		i;

	buf_init(&b);
	for (i = 0; i < n; i++)
		buf_printf(&b, "%s%s", i ? " " : "", v[i]);
	return buf_detach(&b, NULL);
}

static int
mem_do_search(const struct mem_args *a)
{
	struct rr_db		*db = open_db();
	struct mem_rows		 rows[MEM__COUNT];
	struct mem_query	 q;
	cJSON			*o = NULL;
	char			*err = NULL, *words = joined(a->pos, a->npos);
	char			*project = NULL;
	size_t			 found = 0;
	int			 k;

	memset(&q, 0, sizeof(q));
	q.words = words;
	q.any_word = a->any;
	q.session = a->session;
	if (a->project != NULL)
		q.project = project = config_real_path(a->project);
	q.limit = a->limit >= 0 ? (size_t)a->limit : MEM_LIMIT_DEFAULT;
	if (a->json)
		o = cJSON_CreateObject();
	for (k = 0; k < MEM__COUNT; k++) {
		mem_rows_init(&rows[k]);
		if (err == NULL && (a->tier < 0 || a->tier == k) &&
		    q.limit > 0)
			mem_search(db, (enum mem_kind)k, &q, &rows[k], &err);
		found += rows[k].n;
	}
	for (k = 0; err == NULL && k < MEM__COUNT; k++) {
		if (a->json) {
			cJSON_AddItemToObject(o, tier_names[k],
			    rows_json(&rows[k], false));
			continue;
		}
		if (rows[k].n > 0)
			printf("%s\n", tier_names[k]);
		for (size_t i = 0; i < rows[k].n; i++)
			put_row_line(&rows[k].v[i], false);
	}
	if (o != NULL && err == NULL)
		put_json(o);
	else
		cJSON_Delete(o);
	for (k = 0; k < MEM__COUNT; k++)
		mem_rows_release(&rows[k]);
	free(words);
	free(project);
	return finish(db, err, found ? RR_EXIT_OK : RR_EXIT_FAIL);
}

static int
mem_do_file(const struct mem_args *a)
{
	struct rr_db	*db = open_db();
	struct mem_rows	 rows;
	char		*err = NULL;
	size_t		 i;
	int		 status;

	mem_rows_init(&rows);
	mem_file(db, a->pos[0], a->session, a->limit >= 0 ? (size_t)a->limit :
	    MEM_LIMIT_DEFAULT, &rows, &err);
	if (err == NULL && a->json)
		put_json(rows_json(&rows, false));
	else if (err == NULL)
		for (i = 0; i < rows.n; i++)
			put_row_line(&rows.v[i], false);
	status = rows.n ? RR_EXIT_OK : RR_EXIT_FAIL;
	mem_rows_release(&rows);
	return finish(db, err, status);
}

static int
mem_do_timeline(const struct mem_args *a)
{
	struct rr_db	*db = open_db();
	struct mem_rows	 rows;
	char		*err = NULL;
	size_t		 i;
	int		 status;

	if (!mem_valid_id(a->pos[0])) {
		db_close(db);
		return cmd_usage(&mem_timeline_verb, xasprintf("'%s' is not "
		    "an id (s12, c7, e41)", a->pos[0]));
	}
	mem_rows_init(&rows);
	mem_timeline(db, a->pos[0], (size_t)a->before, (size_t)a->after,
	    &rows, &err);
	if (err == NULL && a->json)
		put_json(rows_json(&rows, false));
	else if (err == NULL)
		for (i = 0; i < rows.n; i++)
			put_row_line(&rows.v[i], strcmp(rows.v[i].id,
			    a->pos[0]) == 0);
	status = rows.n ? RR_EXIT_OK : RR_EXIT_FAIL;
	if (err == NULL && rows.n == 0)
		fprintf(stderr, "reflexion-rules memory: no observations "
		    "around '%s'\n", a->pos[0]);
	mem_rows_release(&rows);
	return finish(db, err, status);
}

static void
put_whole(const struct mem_row *r)
{
	printf("%s  %s  %s  ", r->id, mem_kind_names[r->kind],
	    r->type ? r->type : "");
	put_escaped(r->ts, TEXTESC_LINE);
	printf("  session ");
	put_escaped(r->session, TEXTESC_LINE);
	putchar('\n');
	if (r->project != NULL) {
		printf("project: ");
		put_escaped(r->project, TEXTESC_LINE);
		putchar('\n');
	}
	if (r->kind != MEM_OBSERVATION) {
		put_escaped(r->text, TEXTESC_KEEP_LF);
		putchar('\n');
	}
	if (r->data != NULL) {
		if (r->kind != MEM_OBSERVATION)
			printf("facts: ");
		put_escaped(r->data, TEXTESC_LINE);
		putchar('\n');
	}
}

static int
mem_do_show(const struct mem_args *a)
{
	struct rr_db	*db = open_db();
	struct mem_rows	 rows;
	char		*err = NULL;
	size_t		 i, asked = 0;

	mem_rows_init(&rows);
	for (i = 0; err == NULL && i < a->npos; i++) {
		if (!mem_valid_id(a->pos[i])) {
			fprintf(stderr, "reflexion-rules memory: '%s' is not "
			    "an id (s12, c7, e41)\n", a->pos[i]);
			continue;
		}
		asked++;
		mem_show(db, a->pos[i], &rows, &err);
	}
	if (err == NULL && a->json)
		put_json(rows_json(&rows, true));
	else if (err == NULL)
		for (i = 0; i < rows.n; i++) {
			if (i)
				putchar('\n');
			put_whole(&rows.v[i]);
		}
	i = rows.n;
	mem_rows_release(&rows);
	return finish(db, err, i == asked && i > 0 ? RR_EXIT_OK :
	    RR_EXIT_FAIL);
}

static int
mem_do_session(const struct mem_args *a)
{
	struct rr_db	*db = open_db();
	struct mem_rows	 rows;
	char		*err = NULL;
	size_t		 i;
	int		 status;

	mem_rows_init(&rows);
	mem_session(db, a->npos ? a->pos[0] : NULL, a->limit >= 0 ?
	    (size_t)a->limit : MEM_LIMIT_DEFAULT, &rows, &err);
	if (err == NULL && a->json)
		put_json(rows_json(&rows, a->npos > 0));
	else if (err == NULL && a->npos == 0)
		for (i = 0; i < rows.n; i++) {
			printf("%s  ", rows.v[i].session);
			put_time(rows.v[i].ts);
			printf("  %-6s ", rows.v[i].id[0] ? rows.v[i].id :
			    "-");
			put_escaped(rows.v[i].line, TEXTESC_LINE);
			putchar('\n');
		}
	else if (err == NULL)
		for (i = 0; i < rows.n; i++) {
			if (rows.v[i].kind == MEM_SUMMARY) {
				put_whole(&rows.v[i]);
				putchar('\n');
			} else
				put_row_line(&rows.v[i], false);
		}
	status = rows.n ? RR_EXIT_OK : RR_EXIT_FAIL;
	mem_rows_release(&rows);
	return finish(db, err, status);
}

static int
cmd_memory_exec(int argc, char **argv)
{
	struct cmd_args		 top, ca;
	struct mem_args		 a;
	const struct cmd_entry	*verb;
	struct rr_home		 home;
	char			*err, *note;
	int			 status;

	if (cmd_args_parse(&cmd_memory_entry, argc, argv, &top, &err) < 0)
		return cmd_usage(&cmd_memory_entry, err);
	if (top.help) {
		cmd_print_help(&cmd_memory_entry, stdout);
		cmd_args_release(&top);
		return RR_EXIT_OK;
	}
	if ((verb = cmd_find_verb(&cmd_memory_entry, top.rest[0])) == NULL) {
		err = xasprintf("unknown subcommand '%s'", top.rest[0]);
		cmd_args_release(&top);
		return cmd_usage(&cmd_memory_entry, err);
	}
	status = mem_parse(verb, top.nrest - 1, top.rest + 1, &ca, &a);
	if (status >= 0) {
		cmd_args_release(&top);
		return status;
	}
	home_find(&home);
	if ((mem_home = home.dir) == NULL) {
		/* Never a shared directory: no home, no memory. */
		note = home_note(&home);
		fprintf(stderr, "%s", note);
		free(note);
		status = RR_EXIT_USAGE;
	} else if (verb == &mem_search_verb)
		status = mem_do_search(&a);
	else if (verb == &mem_file_verb)
		status = mem_do_file(&a);
	else if (verb == &mem_timeline_verb)
		status = mem_do_timeline(&a);
	else if (verb == &mem_show_verb)
		status = mem_do_show(&a);
	else
		status = mem_do_session(&a);
	mem_home = NULL;
	home_release(&home);
	cmd_args_release(&ca);
	cmd_args_release(&top);
	return status;
}
