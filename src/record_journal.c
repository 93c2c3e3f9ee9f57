/*
 * Tool calls through the journal (journal.h, record.h): what a hook
 * appends instead of opening SQLite, and the fold that writes it later.
 *
 * A record's payload is one JSON object:
 *
 *	{"v":1,"ts":TIME,"session":ID,"resolved_by":TEXT,"error_red":TEXT,
 *	 "project_dir":DIR,"home":DIR,"collapse":BOOL,"retention":DAYS,
 *	 "call":DATA}
 *
 * where DATA is the events row's data as record_call_json() makes it,
 * without its normalized error: the fold makes it from error_red (the
 * redacted error), project_dir and home, as the hook would have (errnorm.h
 * compiles its table of expressions, a third of a failed call's cost).
 * TIME is the moment of the call (the row's ts).  Everything in it was
 * redacted by record_prepare_call() before it was written.
 *
 * The last folded key lives in rr_journal_folded (one row), written in the
 * fold's transaction: a fold that finds that key in the journal skips it
 * and everything before it (a crash came between COMMIT and emptying).
 */
#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "envflag.h"
#include "journal.h"
#include "jsonw.h"
#include "monoclock.h"
#include "record.h"
#include "record_priv.h"
#include "xmalloc.h"

#define FOLDING		"fold the journal"
#define PAYLOAD_VERSION	1

static bool
journal_off(void)
{
	return env_on("REFLEXION_NO_JOURNAL") ||
	    env_on("REFLEXION_DB_READONLY");
}

static long long
deadline(struct rr_db *db)
{
	if (db->deadline_ms == 0)
		db->deadline_ms = monoclock_ms() + db->budget_ms;
	return db->deadline_ms;
}

int
record_journal_call(struct rr_db *db, const struct call *c,
    const struct record_opts *o, char **err)
{
	struct buf	 b;
	char		 now[32], key[JOURNAL_KEY_MAX + 1], *data, *jp;
	int		 rc;

	*err = NULL;
	if (journal_off() || (db->conn != NULL && !db->failed) ||
	    strcmp(db->path, ":memory:") == 0)
		return 1;
	/* A failed open spent the budget: the journal's lock gets its own. */
	if (db->failed)
		db->deadline_ms = monoclock_ms() + DB_FOLD_WAIT_MS;
	db_now(now);
	data = record_call_json(c, 1, NULL);
	buf_init(&b);
	buf_printf(&b, "{\"v\":%d,\"ts\":", PAYLOAD_VERSION);
	jsonw_cstring(&b, now);
	buf_adds(&b, ",\"session\":");
	jsonw_cstring(&b, c->session);
	if (c->resolved_by != NULL) {
		buf_adds(&b, ",\"resolved_by\":");
		jsonw_cstring(&b, c->resolved_by);
	}
	/* Normalized by the fold: redacted already, as everything here. */
	if (c->error == NULL && c->error_red != NULL) {
		buf_adds(&b, ",\"error_red\":");
		jsonw_cstring(&b, c->error_red);
		if (c->project_dir != NULL) {
			buf_adds(&b, ",\"project_dir\":");
			jsonw_cstring(&b, c->project_dir);
		}
		if (c->home != NULL) {
			buf_adds(&b, ",\"home\":");
			jsonw_cstring(&b, c->home);
		}
	}
	buf_printf(&b, ",\"collapse\":%s,\"retention\":%d,\"call\":%s}",
	    o->collapse_reads ? "true" : "false", o->retention_days, data);
	free(data);
	journal_key(key);
	jp = journal_path(db->path);
	rc = journal_append(jp, key, b.data, b.len, JOURNAL_MAX_BYTES,
	    deadline(db), err);
	free(jp);
	buf_release(&b);
	return rc;
}

/* ---- the fold ------------------------------------------------------------ */

static const char *
jstr(const cJSON *obj, const char *key)
{
	const cJSON	*it = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(it) && it->valuestring ? it->valuestring : NULL;
}

static char *
jdup(const cJSON *obj, const char *key)
{
	const char	*s = jstr(obj, key);

	return s != NULL ? xstrdup(s) : NULL;
}

/*
 * A payload back into a call (pointing into root) and its options;
 * false when it is not one of ours.
 */
static bool
decode(const cJSON *root, struct call *c, struct record_opts *o,
    const char **ts)
{
	const cJSON	*call, *v, *it;
	const char	*out;

	memset(c, 0, sizeof(*c));
	buf_init(&c->output);
	v = cJSON_GetObjectItemCaseSensitive(root, "v");
	call = cJSON_GetObjectItemCaseSensitive(root, "call");
	*ts = jstr(root, "ts");
	if (!cJSON_IsNumber(v) || v->valueint != PAYLOAD_VERSION ||
	    !cJSON_IsObject(call) || *ts == NULL ||
	    (c->session = jstr(root, "session")) == NULL ||
	    (c->tool = jstr(call, "tool")) == NULL)
		return false;
	record_opts_default(o);
	o->collapse_reads = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root,
	    "collapse"));
	it = cJSON_GetObjectItemCaseSensitive(root, "retention");
	o->retention_days = cJSON_IsNumber(it) ? it->valueint : 0;
	c->success = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(call,
	    "success"));
	c->is_read = strcmp(c->tool, "Read") == 0;
	c->file = jdup(call, "file");
	c->command = jdup(call, "command");
	c->target = c->file ? c->file : c->command;
	c->resolved_by = jdup(root, "resolved_by");
	if ((out = jstr(call, "output")) != NULL)
		buf_adds(&c->output, out);
	c->error = jdup(call, "error");
	c->error_raw = jdup(call, "error_raw");
	c->error_red = jdup(root, "error_red");
	c->project_dir = jstr(root, "project_dir");
	c->home = jstr(root, "home");
	record_call_normalize(c);
	c->detected = jstr(call, "detected");
	c->summary = jdup(call, "summary");
	c->pattern = jdup(call, "pattern");
	c->tool_use_id = jstr(call, "tool_use_id");
	c->conversation_id = jstr(call, "conversation_id");
	c->started_at = jstr(call, "started_at");
	c->ended_at = jstr(call, "ended_at");
	it = cJSON_GetObjectItemCaseSensitive(call, "duration_ms");
	if (cJSON_IsNumber(it)) {
		c->duration_ms = it->valuedouble;
		c->has_duration = true;
	}
	return true;
}

/* The key the last fold ended with, owned, or NULL. */
static int
last_key(struct rr_db *db, char **key, char **err)
{
	sqlite3_stmt	*st;

	*key = NULL;
	if (db_exec(db, "CREATE TABLE IF NOT EXISTS rr_journal_folded (id "
	    "INTEGER PRIMARY KEY CHECK (id = 1), key TEXT NOT NULL)", err) < 0)
		return -1;
	st = db_prepare(db, FOLDING, err, "SELECT key FROM rr_journal_folded "
	    "WHERE id = 1", "");
	if (st == NULL)
		return -1;
	return db_text(db, st, FOLDING, key, err);
}

static bool
key_is(const struct journal_rec *r, const char *key)
{
	return key != NULL && strlen(key) == r->keylen &&
	    memcmp(r->key, key, r->keylen) == 0;
}

/* One record's rows; a payload that is not a call is counted, not fatal. */
static int
fold_one(struct rr_db *db, const struct journal_rec *r, size_t *bad,
    char **err)
{
	struct call		c;
	struct record_opts	o;
	cJSON			*root;
	const char		*ts;
	int			 rc = 0;

	root = cJSON_ParseWithLength(r->data, r->len);
	if (root == NULL || !decode(root, &c, &o, &ts))
		(*bad)++;
	else
		rc = record_call_rows(db, &c, &o, ts, err);
	if (root != NULL) {
		record_call_release(&c);
		cJSON_Delete(root);
	}
	return rc;
}

/*
 * The records after the last folded one (max at most, 0: all), inside
 * the caller's transaction, and the last one's key; *more when some are
 * left for another fold.
 */
static int
fold_records(struct rr_db *db, struct journal *j, size_t max, size_t *bad,
    bool *more, char **err)
{
	struct journal_rec	 r;
	char			*done, *key = NULL;
	size_t			 start = 0, n = 0;
	sqlite3_stmt		*st;
	int			 rc = -1;

	*bad = 0;
	if (last_key(db, &done, err) < 0)
		return -1;
	/* Where the last fold ended, if its records are still here. */
	j->pos = 0;
	while (journal_next(j, &r))
		if (key_is(&r, done))
			start = j->pos;
	j->pos = start;
	j->damaged = 0;
	*more = false;
	while (journal_next(j, &r)) {
		if (max > 0 && n == max) {
			*more = true;
			break;
		}
		if (fold_one(db, &r, bad, err) < 0)
			goto out;
		free(key);
		key = xstrndup(r.key, r.keylen);
		n++;
	}
	if (key != NULL) {
		st = db_prepare(db, FOLDING, err, "INSERT OR REPLACE INTO "
		    "rr_journal_folded (id, key) VALUES (1, ?1)", "t", key);
		if (st == NULL || db_run(db, st, FOLDING, err) < 0)
			goto out;
	}
	rc = 0;
out:
	free(done);
	free(key);
	return rc;
}

static int	fold_locked(struct rr_db *, const char *, size_t, size_t *,
		    size_t *, bool *, char **);

/*
 * One fold: the write transaction first, then the journal's lock, so
 * that appenders never wait while a fold waits for the database.
 */
static int
fold_once(struct rr_db *db, const char *jp, size_t max, size_t *bad,
    size_t *damaged, bool *more, char **err)
{
	int	rc;

	*more = false;
	if (db_begin(db, err) < 0)
		return -1;
	db_cache(db, true);
	rc = fold_locked(db, jp, max, bad, damaged, more, err);
	db_cache(db, false);
	return rc;
}

/* fold_once() in its transaction, its statements kept. */
static int
fold_locked(struct rr_db *db, const char *jp, size_t max, size_t *bad,
    size_t *damaged, bool *more, char **err)
{
	struct journal	j;
	int		rc;

	if (journal_open(&j, jp, deadline(db), err) < 0) {
		db_rollback(db);
		return -1;
	}
	if (j.fd < 0 || j.len == 0) {
		journal_close(&j);
		db_rollback(db);
		return 0;
	}
	rc = fold_records(db, &j, max, bad, more, err);
	if (rc == 0)
		rc = db_commit(db, err);
	else
		db_rollback(db);
	*damaged = j.damaged;
	/*
	 * Committed and all folded: emptied (a crash before this is what the
	 * key is for).  Folded in part: the key says where the next starts.
	 */
	if (rc == 0 && !*more)
		rc = journal_clear(&j, err);
	/* Emptied and still locked: the markers' prune can be exact. */
	if (rc == 0 && !*more)
		record_prune_marks(db);
	db->prune_marks = 0;
	journal_close(&j);
	return rc;
}

int
record_fold(struct rr_db *db, size_t max, bool *more, char **err)
{
	char	*jp;
	size_t	 bad = 0, damaged = 0;
	int	 rc;

	*more = false;
	*err = NULL;
	if (db->folding || db->conn == NULL || db->readonly)
		return 0;
	jp = journal_path(db->path);
	if (!journal_pending(jp)) {
		free(jp);
		return 0;
	}
	db->folding = true;
	rc = fold_once(db, jp, max, &bad, &damaged, more, err);
	/* A damaged index fails the triggers: mended, once more. */
	if (rc < 0 && db_repaired_for_retry(db, err))
		rc = fold_once(db, jp, max, &bad, &damaged, more, err);
	db->folding = false;
	if (rc == 0 && (damaged > 0 || bad > 0))
		buf_printf(&db->notes, "reflexion-rules: journal '%s': %zu "
		    "damaged record(s) skipped\n", jp, damaged + bad);
	free(jp);
	return rc;
}
