/*
 * The memory of a session besides its tool calls (record.h): the prompts
 * (user_prompt events), the conversation saved on Stop (chat_logs), the
 * routing log (route events) and the summary written at SessionEnd
 * (session_summary).  Every text is redacted before it is written.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "event.h"
#include "jsonw.h"
#include "record.h"
#include "record_priv.h"
#include "route.h"
#include "summary.h"
#include "xmalloc.h"

#define WRITING		"record the session"

/* Redacted and cut to max characters; NULL for an empty or blank text. */
static char *
kept_text(const struct record_opts *o, const char *s, size_t len)
{
	char	*red, *out;
	size_t	 i, n;

	if (s == NULL)
		return NULL;
	red = record_redacted(o, s, len);
	for (i = 0; red[i] == ' ' || red[i] == '\n' || red[i] == '\t' ||
	    red[i] == '\r'; i++)
		;
	if (red[i] == '\0') {
		free(red);
		return NULL;
	}
	n = strlen(red);
	if (utf8_count(red, n) <= o->max_chars)
		return red;
	out = xstrndup(red, utf8_prefix(red, n, o->max_chars));
	free(red);
	return out;
}

static int
insert_event(struct rr_db *db, const char *session, const char *type,
    struct buf *data, char **err)
{
	char	now[32];

	db_now(now);
	return record_insert_event(db, now, session, type, data->data, err);
}

int
record_prompt(struct rr_db *db, struct rr_event *ev,
    const struct record_opts *o, char **err)
{
	struct rr_text	 p = event_field(ev, F_PROMPT);
	struct buf	 data;
	char		*text;
	int		 rc;

	*err = NULL;
	if ((text = kept_text(o, p.s, p.len)) == NULL)
		return 0;
	buf_init(&data);
	buf_adds(&data, "{\"prompt\":");
	jsonw_cstring(&data, text);
	buf_addc(&data, '}');
	free(text);
	if (db_begin(db, err) < 0) {
		buf_release(&data);
		return -1;
	}
	rc = insert_event(db, ev->session_id, "user_prompt", &data, err);
	buf_release(&data);
	if (rc < 0 || record_prune(db, "events", o->retention_days, err) < 0) {
		db_rollback(db);
		return -1;
	}
	return db_commit(db, err);
}

/*
 * Stop: the turn (the prompt and the answer) as one chat_logs row, only
 * when both are there (seed 004).  The prompt is the transcript's; else
 * the session's last recorded one.  A turn that goes on after a Stop
 * hook kept the agent working has the same prompt: its row is replaced.
 */
static int
last_prompt(struct rr_db *db, const char *session, char **out, char **err)
{
	sqlite3_stmt	*st;

	*out = NULL;
	st = db_prepare(db, WRITING, err, "SELECT json_extract(data, "
	    "'$.prompt') FROM events WHERE session_id = ?1 AND type = "
	    "'user_prompt' ORDER BY id DESC LIMIT 1", "t", session);
	if (st == NULL)
		return -1;
	return db_text(db, st, WRITING, out, err);
}

static int
save_turn(struct rr_db *db, struct rr_event *ev, const char *user,
    const char *answer, const struct record_opts *o, char **err)
{
	sqlite3_stmt	*st;
	char		 now[32];

	db_now(now);
	st = db_prepare(db, WRITING, err, "DELETE FROM chat_logs WHERE id = "
	    "(SELECT max(id) FROM chat_logs WHERE session_id = ?1) AND "
	    "user_message = ?2", "tt", ev->session_id, user);
	if (st == NULL || db_run(db, st, WRITING, err) < 0)
		return -1;
	st = db_prepare(db, WRITING, err, "INSERT INTO chat_logs (ts, "
	    "session_id, project, user_message, assistant_message) VALUES "
	    "(?1, ?2, ?3, ?4, ?5)", "ttttt", now, ev->session_id,
	    ev->project_dir, user, answer);
	if (st == NULL || db_run(db, st, WRITING, err) < 0)
		return -1;
	return record_prune(db, "chat_logs", o->retention_days, err);
}

int
record_turn(struct rr_db *db, struct rr_event *ev,
    const struct record_opts *o, char **err)
{
	struct rr_text	 p = event_field(ev, F_PROMPT);
	char		*user, *answer, *from_db = NULL;
	int		 rc = 0;

	*err = NULL;
	answer = kept_text(o, ev->f[F_MESSAGE].s, ev->f[F_MESSAGE].len);
	if (answer == NULL)
		return 0;
	if (db_begin(db, err) < 0) {
		free(answer);
		return -1;
	}
	if (p.s == NULL && last_prompt(db, ev->session_id, &from_db,
	    err) < 0) {
		free(answer);
		db_rollback(db);
		return -1;
	}
	user = p.s != NULL ? kept_text(o, p.s, p.len) : from_db ?
	    kept_text(o, from_db, strlen(from_db)) : NULL;
	free(from_db);
	if (user != NULL)
		rc = save_turn(db, ev, user, answer, o, err);
	free(user);
	free(answer);
	if (rc < 0) {
		db_rollback(db);
		return -1;
	}
	return db_commit(db, err);
}

static void
key_text(struct buf *b, const char *key, const char *val)
{
	if (val == NULL)
		return;
	buf_printf(b, ",\"%s\":", key);
	jsonw_cstring(b, val);
}

int
record_route(struct rr_db *db, const struct rr_event *ev,
    const struct route_info *r, char **err)
{
	struct buf	data;
	int		rc;

	*err = NULL;
	if (db_conn(db, DB_WRITE, err) == NULL)
		return -1;
	buf_init(&data);
	buf_adds(&data, "{\"exec_type\":");
	jsonw_cstring(&data, r->exec_type);
	key_text(&data, "pipeline", r->pipeline);
	key_text(&data, "icon", r->icon);
	buf_printf(&data, ",\"confidence\":%d", r->confidence);
	key_text(&data, "reason", r->reason);
	key_text(&data, "source", r->source);
	key_text(&data, "rule", r->rule);
	buf_addc(&data, '}');
	rc = insert_event(db, ev->session_id, "route", &data, err);
	buf_release(&data);
	return rc;
}

/* ---- SessionEnd ------------------------------------------------------- */

static int
write_summary(struct rr_db *db, const char *session, const char *project,
    const char *summary, const char *source, const char *facts,
    const struct record_opts *o, char **err)
{
	sqlite3_stmt	*st;
	char		 now[32];

	if (db_begin(db, err) < 0)
		return -1;
	db_now(now);
	st = db_prepare(db, WRITING, err, "DELETE FROM session_summary WHERE "
	    "session_id = ?1", "t", session);
	if (st == NULL || db_run(db, st, WRITING, err) < 0)
		goto fail;
	st = db_prepare(db, WRITING, err, "INSERT INTO session_summary (ts, "
	    "session_id, project, summary, source, data) VALUES (?1, ?2, ?3, "
	    "?4, ?5, ?6)", "tttttt", now, session, project, summary, source,
	    facts);
	if (st == NULL || db_run(db, st, WRITING, err) < 0)
		goto fail;
	if (record_prune(db, "session_summary", o->retention_days, err) < 0)
		goto fail;
	return db_commit(db, err);
fail:
	db_rollback(db);
	return -1;
}

/* The summarizer's summary, or NULL with a note saying why not. */
static char *
summarize(const struct rr_command *cmd, const struct session_facts *f,
    const char *extractive, const char *reason,
    const struct record_opts *o, struct buf *notes)
{
	struct buf	 out;
	char		*input, *err = NULL, *text = NULL, *red, *what;

	input = summary_input_json(f, extractive, reason);
	buf_init(&out);
	if (extcmd_run(cmd, input, strlen(input), &out, &err) == 0)
		summary_from_output(out.data, out.len, &text, &err);
	free(input);
	buf_release(&out);
	if (text == NULL) {
		what = extcmd_describe(cmd);
		buf_printf(notes, "reflexion-rules: the summarizer (%s): %s; "
		    "the session's summary is the extractive one\n", what,
		    err);
		free(what);
		free(err);
		return NULL;
	}
	red = record_redacted(o, text, strlen(text));
	free(text);
	return red;
}

int
record_session_end(struct rr_db *db, struct rr_event *ev,
    const struct record_opts *o, const struct record_env *env, char **err)
{
	struct session_facts	 f;
	char			*text, *facts, *better = NULL;
	int			 rc;

	*err = NULL;
	if (summary_facts(db, ev->session_id, ev->project_dir, &f, err) < 0)
		return -1;
	if (!summary_has_facts(&f)) {
		summary_facts_release(&f);
		return 0;
	}
	text = summary_extractive(&f);
	facts = summary_facts_json(&f);
	/* The extractive summary first: it stays if the summarizer fails. */
	rc = write_summary(db, ev->session_id, ev->project_dir, text,
	    "extractive", facts, o, err);
	if (rc == 0 && env != NULL && env->summarizer != NULL) {
		if (env->before_command != NULL)
			env->before_command(env->arg,
			    env->summarizer->timeout_ms);
		better = summarize(env->summarizer, &f, text,
		    ev->f[F_REASON].s, o, env->notes);
		/* The wait spent the budget of the first transaction. */
		db_renew_budget(db);
		if (better != NULL)
			rc = write_summary(db, ev->session_id,
			    ev->project_dir, better, "summarizer", facts, o,
			    err);
	}
	free(better);
	free(text);
	free(facts);
	summary_facts_release(&f);
	return rc;
}
