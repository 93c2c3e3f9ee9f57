#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "eval.h"
#include "jsonw.h"
#include "kb.h"
#include "record.h"
#include "ruletest.h"
#include "xmalloc.h"

static int
first_event(unsigned events)
{
	int	k;

	for (k = 0; k < EV__COUNT; k++)
		if (events & (1u << k))
			return k;
	return EV_PRE_TOOL_USE;
}

static void
set_default(cJSON *ev, const char *key, cJSON *value)
{
	if (cJSON_GetObjectItemCaseSensitive(ev, key) == NULL)
		cJSON_AddItemToObject(ev, key, value);
	else
		cJSON_Delete(value);
}

/* A complete event for a test; owned JSON text. */
static char *
test_event_json(const struct rule *r, const struct rule_test *t)
{
	cJSON	*ev = cJSON_Duplicate(t->event, 1);
	char	*s;
	int	 k = first_event(r->events);
	size_t	 i;

	set_default(ev, "hook_event_name",
	    cJSON_CreateString(event_kind_names[k]));
	set_default(ev, "session_id", cJSON_CreateString("reflexion-test"));
	set_default(ev, "cwd", cJSON_CreateString(RULETEST_CWD));
	if (k == EV_PRE_TOOL_USE || k == EV_POST_TOOL_USE ||
	    k == EV_POST_TOOL_USE_FAILURE) {
		for (i = 0; i < r->ntools; i++)
			if (r->tool_globs[i] == NULL)
				break;
		if (i < r->ntools)
			set_default(ev, "tool_name",
			    cJSON_CreateString(r->tools[i]));
		set_default(ev, "tool_input", cJSON_CreateObject());
	}
	if (k == EV_STOP || k == EV_SUBAGENT_STOP)
		set_default(ev, "stop_hook_active", cJSON_CreateFalse());
	s = cJSON_PrintUnformatted(ev);
	cJSON_Delete(ev);
	return s;
}

/*
 * An in-memory knowledge base holding a test's kb: rows and tool_errors:
 * events (in the test's session unless an item names another).  NULL and
 * *err on a bad seed; NULL without *err when the test seeds nothing.
 */
static struct rr_db *
seed_db(const struct rule_test *t, const char *session, char **err)
{
	struct rr_db		*db;
	const cJSON		*it, *tool, *error, *sid;
	enum kb_put_result	 res;
	struct buf		 data;
	char			 now[32], *e = NULL;
	int			 i = 0;

	*err = NULL;
	if (t->kb_rows == NULL && t->tool_errors == NULL)
		return NULL;
	db = db_new(":memory:");
	if (db_conn(db, DB_WRITE, &e) == NULL)
		goto fail;
	cJSON_ArrayForEach(it, t->kb_rows) {
		i++;
		if (kb_import_entry(db, it, &res, &e) < 0) {
			*err = xasprintf("kb item %d: %s", i, e);
			free(e);
			db_close(db);
			return NULL;
		}
	}
	db_now(now);
	i = 0;
	cJSON_ArrayForEach(it, t->tool_errors) {
		i++;
		tool = cJSON_GetObjectItemCaseSensitive(it, "tool");
		error = cJSON_GetObjectItemCaseSensitive(it, "error");
		sid = cJSON_GetObjectItemCaseSensitive(it, "session_id");
		if (!cJSON_IsString(tool) || !cJSON_IsString(error)) {
			*err = xasprintf("tool_errors item %d needs 'tool' and "
			    "'error' strings", i);
			db_close(db);
			return NULL;
		}
		buf_init(&data);
		buf_adds(&data, "{\"tool\":");
		jsonw_cstring(&data, tool->valuestring);
		buf_adds(&data, ",\"success\":false,\"error\":");
		jsonw_cstring(&data, error->valuestring);
		buf_addc(&data, '}');
		if (record_insert_event(db, now, cJSON_IsString(sid) ?
		    sid->valuestring : session, "tool_error", data.data,
		    &e) < 0) {
			buf_release(&data);
			goto fail;
		}
		buf_release(&data);
	}
	return db;
fail:
	*err = xasprintf("cannot seed the knowledge base: %s", e);
	free(e);
	db_close(db);
	return NULL;
}

static const char *
expect_name(enum rr_action a)
{
	return a == ACT_NONE ? "none" : action_names[a];
}

void
ruletest_run(const struct ruleset *rs, FILE *fp, bool tap, size_t *passed,
    size_t *failed)
{
	const struct rule	*r;
	const struct rule_test	*t;
	struct rr_event		 ev;
	struct eval_outcome	 out;
	struct eval_opts	 eo;
	enum rr_action		 got;
	struct rr_db		*db;
	char			*json, *err = NULL;
	size_t			 i, j;

	for (i = 0; i < rs->n; i++) {
		r = rs->rules[i];
		for (j = 0; j < r->ntests; j++) {
			t = &r->tests[j];
			json = test_event_json(r, t);
			if (event_parse(&ev, json, strlen(json), RULETEST_CWD,
			    &err) < 0) {
				fprintf(fp, "%s%s:%d:%d: test %zu of rule '%s': "
				    "%s\n", tap ? "not ok - " : "", r->file,
				    t->line, t->col, j + 1, r->id, err);
				free(err);
				err = NULL;
				free(json);
				event_release(&ev);
				(*failed)++;
				continue;
			}
			db = seed_db(t, ev.session_id, &err);
			if (err != NULL) {
				fprintf(fp, "%s%s:%d:%d: test %zu of rule '%s': "
				    "%s\n", tap ? "not ok - " : "", r->file,
				    t->line, t->col, j + 1, r->id, err);
				free(err);
				err = NULL;
				free(json);
				event_release(&ev);
				(*failed)++;
				continue;
			}
			memset(&eo, 0, sizeof(eo));
			eo.only = r;
			eo.db = db;
			eval_outcome_init(&out);
			eval_event(rs, &ev, &eo, &out);
			db_close(db);
			got = out.nfired ? out.fired[0].rule->action : ACT_NONE;
			if (got == t->expect)
				(*passed)++;
			else
				(*failed)++;
			if (got != t->expect || tap) {
				if (tap)
					fprintf(fp, "%sok %zu - ", got == t->expect ?
					    "" : "not ", *passed + *failed);
				fprintf(fp, "%s:%d:%d: test ", r->file, t->line,
				    t->col);
				if (t->name)
					fprintf(fp, "'%s'", t->name);
				else
					fprintf(fp, "#%zu", j + 1);
				fprintf(fp, " of rule '%s': ", r->id);
				if (got == t->expect)
					fprintf(fp, "%s\n", expect_name(got));
				else
					fprintf(fp, "expected %s, got %s\n",
					    expect_name(t->expect),
					    expect_name(got));
			}
			fwrite(out.notes.data, 1, out.notes.len, stderr);
			eval_outcome_release(&out);
			event_release(&ev);
			free(json);
		}
	}
}
