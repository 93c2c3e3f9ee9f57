/*
 * Session summaries (summary.h).
 */
#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "jsonw.h"
#include "summary.h"
#include "xmalloc.h"

#define READING		"read the session's memory"
/* Events of one session read, at most (a session of 30 days of calls). */
#define SUMMARY_EVENTS_MAX	20000
/* Characters of a request, a command or an error in the summary. */
#define PART_MAX	200

static char *
col(sqlite3_stmt *st, int i)
{
	const unsigned char	*t;

	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return NULL;
	t = sqlite3_column_text(st, i);
	return t ? xmemdup0(t, (size_t)sqlite3_column_bytes(st, i)) : NULL;
}

/* The first line of s that is not blank, cut to max characters; owned. */
static char *
one_line(const char *s, size_t max)
{
	const char	*p = s, *e;
	size_t		 n;

	if (s == NULL)
		return NULL;
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	e = p + strcspn(p, "\r\n");
	while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (e == p)
		return NULL;
	n = utf8_prefix(p, (size_t)(e - p), max);
	return n < (size_t)(e - p) ? xasprintf("%.*s...", (int)n, p) :
	    xstrndup(p, n);
}

static const char *
shown_path(const char *file, const char *project)
{
	size_t	n = project ? strlen(project) : 0;

	while (n > 1 && project[n - 1] == '/')
		n--;
	if (file != NULL && n > 0 && strncmp(file, project, n) == 0 &&
	    file[n] == '/')
		return file + n + 1;
	return file;
}

static int
action_rank(const char *a)
{
	return strcmp(a, "written") == 0 ? 3 : strcmp(a, "edited") == 0 ? 2 :
	    strcmp(a, "touched") == 0 ? 1 : 0;
}

static const char *
action_of(const char *tool)
{
	if (strcmp(tool, "Write") == 0)
		return "written";
	if (strcmp(tool, "Edit") == 0 || strcmp(tool, "MultiEdit") == 0 ||
	    strcmp(tool, "NotebookEdit") == 0)
		return "edited";
	if (strcmp(tool, "Read") == 0)
		return "read";
	return "touched";
}

static void
add_file(struct session_facts *f, const char *path, const char *tool)
{
	const char	*a = action_of(tool);
	size_t		 i;

	for (i = 0; i < f->nfiles; i++)
		if (strcmp(f->files[i].path, path) == 0) {
			if (action_rank(a) > action_rank(f->files[i].action))
				f->files[i].action = a;
			return;
		}
	if (f->nfiles == SUMMARY_FILES_MAX) {
		f->more_files++;
		return;
	}
	f->files = xreallocarray(f->files, f->nfiles + 1, sizeof(*f->files));
	f->files[f->nfiles].path = xstrdup(path);
	f->files[f->nfiles++].action = a;
}

static void
add_command(struct session_facts *f, const char *command, bool failed)
{
	struct sf_command	*c;
	char			*line = one_line(command, PART_MAX);
	size_t			 i;

	if (line == NULL)
		return;
	for (i = 0; i < f->ncommands; i++)
		if (strcmp(f->commands[i].command, line) == 0)
			break;
	if (i == f->ncommands) {
		if (f->ncommands == SUMMARY_COMMANDS_MAX) {
			f->more_commands++;
			free(line);
			return;
		}
		f->commands = xreallocarray(f->commands, f->ncommands + 1,
		    sizeof(*f->commands));
		memset(&f->commands[i], 0, sizeof(f->commands[i]));
		f->commands[f->ncommands++].command = line;
	} else
		free(line);
	c = &f->commands[i];
	c->runs++;
	c->failures += failed;
	c->last_failed = failed;
}

static void
add_error(struct session_facts *f, long long id, const char *error,
    const char *tool, const char *target)
{
	struct sf_error	*e;

	if (f->nerrors == SUMMARY_ERRORS_MAX) {
		f->more_errors++;
		return;
	}
	f->errors = xreallocarray(f->errors, f->nerrors + 1,
	    sizeof(*f->errors));
	e = &f->errors[f->nerrors++];
	memset(e, 0, sizeof(*e));
	e->id = id;
	/* "Exit code 1" says less than the line after it. */
	if (error != NULL && strncmp(error, "Exit code ", 10) == 0 &&
	    strchr(error, '\n') != NULL)
		e->error = one_line(strchr(error, '\n') + 1, PART_MAX);
	if (e->error == NULL)
		e->error = one_line(error, PART_MAX);
	if (e->error == NULL)
		e->error = xstrdup("(no message)");
	e->tool = xstrdup(tool);
	e->target = one_line(target, PART_MAX);
}

static void
set_request(struct session_facts *f, const char *text)
{
	char	*line = one_line(text, PART_MAX);

	if (line == NULL)
		return;
	if (f->first_request == NULL)
		f->first_request = xstrdup(line);
	free(f->last_request);
	f->last_request = line;
}

static void
span(struct session_facts *f, const char *ts)
{
	if (ts == NULL)
		return;
	if (f->started == NULL || strcmp(ts, f->started) < 0) {
		free(f->started);
		f->started = xstrdup(ts);
	}
	if (f->ended == NULL || strcmp(ts, f->ended) > 0) {
		free(f->ended);
		f->ended = xstrdup(ts);
	}
}

/* One tool_use or tool_error row. */
static void
read_call(struct session_facts *f, long long id, const char *type,
    const cJSON *d, const char *project)
{
	const cJSON	*t = cJSON_GetObjectItemCaseSensitive(d, "tool");
	const cJSON	*file = cJSON_GetObjectItemCaseSensitive(d, "file");
	const cJSON	*cmd = cJSON_GetObjectItemCaseSensitive(d, "command");
	const cJSON	*e;
	const char	*tool = cJSON_IsString(t) ? t->valuestring : "?";
	const char	*target = NULL;
	bool		 failed = strcmp(type, "tool_error") == 0;

	f->tool_calls++;
	if (cJSON_IsString(file)) {
		target = shown_path(file->valuestring, project);
		add_file(f, target, tool);
	}
	if (cJSON_IsString(cmd)) {
		target = cmd->valuestring;
		add_command(f, cmd->valuestring, failed);
	}
	if (!failed)
		return;
	e = cJSON_GetObjectItemCaseSensitive(d, "error_raw");
	if (!cJSON_IsString(e))
		e = cJSON_GetObjectItemCaseSensitive(d, "error");
	add_error(f, id, cJSON_IsString(e) ? e->valuestring : NULL, tool,
	    target);
}

static int
read_events(struct rr_db *db, struct session_facts *f, char **err)
{
	sqlite3_stmt	*st;
	cJSON		*d, *p;
	char		*ts, *type, *data;
	long long	 id;
	int		 rc;

	st = db_prepare(db, READING, err, "SELECT id, ts, type, data FROM "
	    "events WHERE session_id = ?1 AND type IN ('tool_use', "
	    "'tool_error', 'user_prompt') ORDER BY id LIMIT ?2", "ti",
	    f->session_id, (long long)SUMMARY_EVENTS_MAX);
	if (st == NULL)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		ts = col(st, 1);
		type = col(st, 2);
		data = col(st, 3);
		span(f, ts);
		d = data ? cJSON_Parse(data) : NULL;
		if (type != NULL && strcmp(type, "user_prompt") == 0) {
			p = cJSON_GetObjectItemCaseSensitive(d, "prompt");
			if (cJSON_IsString(p))
				set_request(f, p->valuestring);
		} else if (type != NULL && cJSON_IsObject(d))
			read_call(f, id, type, d, f->project);
		cJSON_Delete(d);
		free(ts);
		free(type);
		free(data);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	*err = db_fail(db, rc, READING);
	return -1;
}

/* What resolved each error: the knowledge the resolution became. */
static int
read_resolutions(struct rr_db *db, struct session_facts *f, char **err)
{
	sqlite3_stmt	*st;
	long long	 id;
	size_t		 i;
	int		 rc;

	if (f->nerrors == 0)
		return 0;
	st = db_prepare(db, READING, err, "SELECT json_extract(r.data, "
	    "'$.error_id'), json_extract(k.resolution, '$.resolvedBy'), "
	    "json_extract(r.data, '$.tool') FROM events AS r LEFT JOIN "
	    "error_kb AS k ON k.id = json_extract(r.data, '$.kb_id') AND "
	    "json_valid(k.resolution) WHERE r.session_id = ?1 AND r.type = "
	    "'error_resolved'", "t", f->session_id);
	if (st == NULL)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		for (i = 0; i < f->nerrors; i++) {
			if (f->errors[i].id != id ||
			    f->errors[i].resolved_tool != NULL)
				continue;
			f->errors[i].resolved_by = col(st, 1);
			f->errors[i].resolved_tool = col(st, 2);
			if (f->errors[i].resolved_tool == NULL)
				f->errors[i].resolved_tool = xstrdup("?");
		}
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	*err = db_fail(db, rc, READING);
	return -1;
}

static int
read_turns(struct rr_db *db, struct session_facts *f, bool requests,
    char **err)
{
	sqlite3_stmt	*st;
	struct sf_turn	*t;
	int		 rc;

	st = db_prepare(db, READING, err, "SELECT ts, user_message, "
	    "assistant_message FROM chat_logs WHERE session_id = ?1 ORDER BY "
	    "id", "t", f->session_id);
	if (st == NULL)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		f->turns = xreallocarray(f->turns, f->nturns + 1,
		    sizeof(*f->turns));
		t = &f->turns[f->nturns++];
		t->ts = col(st, 0);
		t->user = col(st, 1);
		t->assistant = col(st, 2);
		span(f, t->ts);
		if (requests)
			set_request(f, t->user);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	*err = db_fail(db, rc, READING);
	return -1;
}

int
summary_facts(struct rr_db *db, const char *session_id, const char *project,
    struct session_facts *f, char **err)
{
	*err = NULL;
	memset(f, 0, sizeof(*f));
	f->session_id = xstrdup(session_id);
	f->project = project && *project ? xstrdup(project) : NULL;
	if (read_events(db, f, err) < 0 || read_resolutions(db, f, err) < 0)
		return -1;
	/* The prompts, when they were not recorded themselves. */
	return read_turns(db, f, f->first_request == NULL, err);
}

void
summary_facts_release(struct session_facts *f)
{
	size_t	i;

	for (i = 0; i < f->nfiles; i++)
		free(f->files[i].path);
	for (i = 0; i < f->ncommands; i++)
		free(f->commands[i].command);
	for (i = 0; i < f->nerrors; i++) {
		free(f->errors[i].error);
		free(f->errors[i].tool);
		free(f->errors[i].target);
		free(f->errors[i].resolved_by);
		free(f->errors[i].resolved_tool);
	}
	for (i = 0; i < f->nturns; i++) {
		free(f->turns[i].ts);
		free(f->turns[i].user);
		free(f->turns[i].assistant);
	}
	free(f->files);
	free(f->commands);
	free(f->errors);
	free(f->turns);
	free(f->session_id);
	free(f->project);
	free(f->started);
	free(f->ended);
	free(f->first_request);
	free(f->last_request);
	memset(f, 0, sizeof(*f));
}

bool
summary_has_facts(const struct session_facts *f)
{
	return f->tool_calls > 0 || f->nturns > 0 || f->first_request != NULL;
}

/* "2026-11-28T08:14:03.120Z" as "2026-11-28 08:14"; the time only when
 * the day is the one already said. */
static void
add_time(struct buf *b, const char *ts, const char *same_day)
{
	if (ts == NULL || strlen(ts) < 16) {
		buf_adds(b, ts ? ts : "?");
		return;
	}
	if (same_day == NULL || strncmp(ts, same_day, 10) != 0)
		buf_printf(b, "%.10s ", ts);
	buf_printf(b, "%.5s", ts + 11);
}

static void
add_commands(struct buf *b, const struct session_facts *f)
{
	const struct sf_command	*c;
	size_t			 i;

	buf_adds(b, "\nCommands run: ");
	for (i = 0; i < f->ncommands; i++) {
		c = &f->commands[i];
		buf_printf(b, "%s%s", i ? "; " : "", c->command);
		if (c->last_failed)
			buf_adds(b, " (failed)");
		else if (c->failures > 0)
			buf_adds(b, " (failed, then ok)");
		if (c->runs > 1)
			buf_printf(b, " x%lld", c->runs);
	}
	if (f->more_commands)
		buf_printf(b, "; and %zu more", f->more_commands);
}

static void
add_errors(struct buf *b, const struct session_facts *f)
{
	const struct sf_error	*e;
	size_t			 i;

	buf_adds(b, "\nErrors: ");
	for (i = 0; i < f->nerrors; i++) {
		e = &f->errors[i];
		buf_printf(b, "%s%s (%s%s%s), ", i ? "; " : "", e->error,
		    e->tool, e->target ? ": " : "", e->target ? e->target : "");
		if (e->resolved_tool != NULL)
			buf_printf(b, "resolved by %s (%s)", e->resolved_by ?
			    e->resolved_by : "a later call", e->resolved_tool);
		else
			buf_adds(b, "not resolved");
	}
	if (f->more_errors)
		buf_printf(b, "; and %zu more", f->more_errors);
}

char *
summary_extractive(const struct session_facts *f)
{
	struct buf	 b;
	const char	*name = f->project ? strrchr(f->project, '/') : NULL;
	size_t		 i;

	buf_init(&b);
	buf_printf(&b, "Session %.8s", f->session_id);
	if (name != NULL && name[1] != '\0')
		buf_printf(&b, " (%s)", name + 1);
	buf_adds(&b, ", ");
	add_time(&b, f->started, NULL);
	buf_adds(&b, " to ");
	add_time(&b, f->ended, f->started);
	buf_printf(&b, " UTC, %lld tool call%s.", f->tool_calls,
	    f->tool_calls == 1 ? "" : "s");
	if (f->first_request != NULL)
		buf_printf(&b, "\nFirst request: %s", f->first_request);
	if (f->last_request != NULL && (f->first_request == NULL ||
	    strcmp(f->first_request, f->last_request) != 0))
		buf_printf(&b, "\nLast request: %s", f->last_request);
	if (f->nfiles > 0) {
		buf_adds(&b, "\nFiles touched: ");
		for (i = 0; i < f->nfiles; i++)
			buf_printf(&b, "%s%s (%s)", i ? ", " : "",
			    f->files[i].path, f->files[i].action);
		if (f->more_files)
			buf_printf(&b, ", and %zu more", f->more_files);
	}
	if (f->ncommands > 0)
		add_commands(&b, f);
	if (f->nerrors > 0)
		add_errors(&b, f);
	return buf_detach(&b, NULL);
}

static cJSON *
str_or_null(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static cJSON *
facts_object(const struct session_facts *f)
{
	cJSON	*o = cJSON_CreateObject(), *a, *e;
	size_t	 i;

	cJSON_AddNumberToObject(o, "tool_calls", (double)f->tool_calls);
	cJSON_AddItemToObject(o, "first_request", str_or_null(f->first_request));
	cJSON_AddItemToObject(o, "last_request", str_or_null(f->last_request));
	a = cJSON_AddArrayToObject(o, "files");
	for (i = 0; i < f->nfiles; i++) {
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "path", f->files[i].path);
		cJSON_AddStringToObject(e, "action", f->files[i].action);
		cJSON_AddItemToArray(a, e);
	}
	a = cJSON_AddArrayToObject(o, "commands");
	for (i = 0; i < f->ncommands; i++) {
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "command", f->commands[i].command);
		cJSON_AddNumberToObject(e, "runs", (double)f->commands[i].runs);
		cJSON_AddNumberToObject(e, "failures",
		    (double)f->commands[i].failures);
		cJSON_AddBoolToObject(e, "last_failed",
		    f->commands[i].last_failed);
		cJSON_AddItemToArray(a, e);
	}
	a = cJSON_AddArrayToObject(o, "errors");
	for (i = 0; i < f->nerrors; i++) {
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "error", f->errors[i].error);
		cJSON_AddStringToObject(e, "tool", f->errors[i].tool);
		cJSON_AddItemToObject(e, "target",
		    str_or_null(f->errors[i].target));
		cJSON_AddItemToObject(e, "resolved_by", f->errors[i].
		    resolved_tool ? str_or_null(f->errors[i].resolved_by ?
		    f->errors[i].resolved_by : f->errors[i].resolved_tool) :
		    cJSON_CreateNull());
		cJSON_AddItemToArray(a, e);
	}
	return o;
}

/* cJSON's text, made valid UTF-8 and owned by the caller's free(). */
static char *
print_json(cJSON *j)
{
	char	*s = cJSON_PrintUnformatted(j), *v;

	cJSON_Delete(j);
	if (s == NULL)
		out_of_memory(0);
	v = utf8_valid_dup(s, strlen(s));
	cJSON_free(s);
	return v;
}

char *
summary_facts_json(const struct session_facts *f)
{
	return print_json(facts_object(f));
}

char *
summary_input_json(const struct session_facts *f, const char *extractive,
    const char *reason)
{
	cJSON	*o = cJSON_CreateObject(), *a, *t;
	size_t	 i, first = 0, total = 0, n;

	cJSON_AddNumberToObject(o, "version", 1);
	cJSON_AddStringToObject(o, "session_id", f->session_id);
	cJSON_AddItemToObject(o, "project", str_or_null(f->project));
	cJSON_AddItemToObject(o, "reason", str_or_null(reason));
	cJSON_AddItemToObject(o, "started", str_or_null(f->started));
	cJSON_AddItemToObject(o, "ended", str_or_null(f->ended));
	cJSON_AddStringToObject(o, "extractive", extractive);
	cJSON_AddItemToObject(o, "facts", facts_object(f));
	/* The newest turns that fit. */
	for (i = f->nturns; i > 0; i--) {
		n = utf8_count(f->turns[i - 1].user, strlen(f->turns[i - 1].
		    user)) + utf8_count(f->turns[i - 1].assistant,
		    strlen(f->turns[i - 1].assistant));
		if (total + n > SUMMARY_INPUT_CHARS)
			break;
		total += n;
		first = i - 1;
	}
	if (i > 0)
		first = i;
	a = cJSON_AddArrayToObject(o, "conversation");
	for (i = first; i < f->nturns; i++) {
		t = cJSON_CreateObject();
		cJSON_AddItemToObject(t, "ts", str_or_null(f->turns[i].ts));
		cJSON_AddStringToObject(t, "user", f->turns[i].user);
		cJSON_AddStringToObject(t, "assistant", f->turns[i].assistant);
		cJSON_AddItemToArray(a, t);
	}
	return print_json(o);
}

int
summary_from_output(const char *out, size_t len, char **summary, char **err)
{
	cJSON		*j;
	const cJSON	*s;
	const char	*p = out, *e = out + len;
	char		*text;

	*summary = NULL;
	while (p < e && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
		p++;
	while (e > p && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '\r' ||
	    e[-1] == '\t'))
		e--;
	text = xstrndup(p, (size_t)(e - p));
	if (*text == '{' && (j = cJSON_Parse(text)) != NULL) {
		s = cJSON_GetObjectItemCaseSensitive(j, "summary");
		free(text);
		text = cJSON_IsString(s) ? xstrdup(s->valuestring) : NULL;
		cJSON_Delete(j);
		if (text == NULL) {
			*err = xstrdup("its JSON has no \"summary\" string");
			return -1;
		}
	}
	if (*text == '\0') {
		free(text);
		*err = xstrdup("it wrote no summary");
		return -1;
	}
	*summary = utf8_valid_dup(text, utf8_prefix(text, strlen(text),
	    SUMMARY_MAX_CHARS));
	free(text);
	return 0;
}
