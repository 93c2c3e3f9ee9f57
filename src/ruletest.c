#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db.h"
#include "errmark.h"
#include "eval.h"
#include "jsonw.h"
#include "kb.h"
#include "record.h"
#include "fileio.h"
#include "output.h"
#include "ruletest.h"
#include "selfprot.h"
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

/* A complete event for a test, run in cwd; owned JSON text. */
static char *
test_event_json(const struct rule *r, const struct rule_test *t,
    const char *cwd)
{
	cJSON	*ev = cJSON_Duplicate(t->event, 1);
	char	*s;
	int	 k = first_event(r->events);
	size_t	 i;

	set_default(ev, "hook_event_name",
	    cJSON_CreateString(event_kind_names[k]));
	set_default(ev, "session_id", cJSON_CreateString("reflexion-test"));
	set_default(ev, "cwd", cJSON_CreateString(cwd));
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
		/*
		 * Every writer of a tool_error row notes it first
		 * (errmark.h); a no-op for this in-memory database, whose
		 * lookups always ask SQLite, kept so that the rule holds.
		 */
		if (errmark_note(db->path, cJSON_IsString(sid) ?
		    sid->valuestring : session, tool->valuestring, &e) != 0)
			goto fail;
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

static int
remove_one(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);	/* what cannot go stays; the walk goes on */
	return 0;
}

static void
remove_tree(const char *dir)
{
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Creates the parent directories of dir/name. */
static int
make_parents(const char *dir, const char *name)
{
	char	*path = xasprintf("%s/%s", dir, name), *slash;
	size_t	 base = strlen(dir) + 1;
	int	 rc = 0;

	for (slash = strchr(path + base, '/'); slash != NULL;
	    slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST)
			rc = -1;
		*slash = '/';
	}
	free(path);
	return rc;
}

/*
 * A fresh project directory holding the test's files; owned path, or
 * NULL with *err (owned).
 */
static char *
make_project(const struct rule_test *t, char **err)
{
	const char	*tmp = getenv("TMPDIR");
	char		*dir, *path;
	size_t		 i;
	int		 fd, ok;

	dir = xasprintf("%s/reflexion-test.XXXXXX", tmp && *tmp ? tmp :
	    "/tmp");
	if (mkdtemp(dir) == NULL) {
		*err = xasprintf("cannot create a test project in %s: %s",
		    tmp && *tmp ? tmp : "/tmp", strerror(errno));
		free(dir);
		return NULL;
	}
	for (i = 0; i < t->nfiles; i++) {
		path = xasprintf("%s/%s", dir, t->file_names[i]);
		ok = make_parents(dir, t->file_names[i]) == 0 &&
		    (fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		    0600)) >= 0;
		if (ok) {
			ok = fd_write_all(fd, t->file_texts[i],
			    strlen(t->file_texts[i])) == 0;
			close(fd);
		}
		if (!ok) {
			*err = xasprintf("cannot write test file %s: %s",
			    t->file_names[i], strerror(errno));
			free(path);
			remove_tree(dir);
			free(dir);
			return NULL;
		}
		free(path);
	}
	return dir;
}

/* Runs test t of r; fills why (the failure) and returns the verdict. */
static enum ruletest_verdict
run_one(const struct ruleset *rs, FILE *errfp, const struct rule *r,
    const struct rule_test *t, struct buf *why)
{
	struct rr_event		 ev;
	struct eval_outcome	 out;
	struct eval_opts	 eo;
	enum rr_action		 got;
	enum ruletest_verdict		 v = V_FAIL;
	struct rr_db		*db;
	char			*json = NULL, *err = NULL, *project = NULL;
	const char		*text;
	struct buf		 banner;
	size_t			 k;
	bool			 same;

	memset(&ev, 0, sizeof(ev));
	if (t->nfiles > 0 && (project = make_project(t, &err)) == NULL)
		goto fail;
	json = test_event_json(r, t, project ? project : RULETEST_CWD);
	if (event_parse(&ev, json, strlen(json), project ? project :
	    RULETEST_CWD, &err) < 0)
		goto fail;
	db = seed_db(t, ev.session_id, &err);
	if (err != NULL)
		goto fail;
	memset(&eo, 0, sizeof(eo));
	eo.only = r;
	eo.db = db;
	/* The default message unless the test names its language. */
	eo.lang = t->lang != NULL ? t->lang : "";
	/* A rule on: Check is tested as reflexion-rules check runs it. */
	eo.check = r->check_only;
	eval_outcome_init(&out);
	eval_event(rs, &ev, &eo, &out);
	db_close(db);
	got = out.nfired ? out.fired[0].rule->action : ACT_NONE;
	text = out.nfired && out.fired[0].text ? out.fired[0].text : "";
	/* A suggestion's text is the banner it makes. */
	buf_init(&banner);
	if (got == ACT_SUGGEST) {
		output_skill_banner(&out, &banner);
		text = banner.data ? banner.data : "";
	}
	same = got == t->expect;
	if (!same)
		buf_printf(why, "expected %s, got %s", expect_name(t->expect),
		    expect_name(got));
	for (k = 0; same && k < t->nsays; k++)
		if (strstr(text, t->says[k]) == NULL) {
			same = false;
			buf_printf(why, "the message does not contain '%s'; "
			    "it is '%s'", t->says[k], text);
		}
	fwrite(out.notes.data, 1, out.notes.len, errfp);
	buf_release(&banner);
	eval_outcome_release(&out);
	if (t->known_gap)
		v = same ? V_GAP : V_GAP_CLOSED;
	else
		v = same ? V_PASS : V_FAIL;
fail:
	if (err != NULL) {
		buf_adds(why, err);
		free(err);
	}
	event_release(&ev);
	free(json);
	if (project != NULL) {
		remove_tree(project);
		free(project);
	}
	return v;
}

void
ruletest_run_each(const struct ruleset *rs, FILE *errfp,
    ruletest_report_fn report, void *arg, struct ruletest_counts *n)
{
	struct ruletest_result	 res;
	const struct rule	*r;
	struct buf		 why;
	size_t			 i, j;

	buf_init(&why);
	for (i = 0; i < rs->n; i++) {
		r = rs->rules[i];
		/* The program's own pack: its tests are the program's. */
		if (r->file != NULL && strcmp(r->file, SELFPROT_FILE) == 0)
			continue;
		for (j = 0; j < r->ntests; j++) {
			buf_reset(&why);
			memset(&res, 0, sizeof(res));
			res.rule = r;
			res.test = &r->tests[j];
			res.index = j;
			res.verdict = run_one(rs, errfp, r, res.test, &why);
			switch (res.verdict) {
			case V_PASS:
				n->passed++;
				break;
			case V_FAIL:
			case V_GAP_CLOSED:
				n->failed++;
				break;
			case V_GAP:
				n->gaps++;
				break;
			}
			res.why = why.len ? why.data : "";
			res.expected = expect_name(res.test->expect);
			report(arg, &res, n);
		}
	}
	buf_release(&why);
}

struct print_to {
	FILE	*fp;
	bool	 tap;
};

/* One line per failure, or with TAP one per test. */
static void
print_result(void *arg, const struct ruletest_result *res,
    const struct ruletest_counts *n)
{
	const struct print_to	*pt = arg;
	const struct rule	*r = res->rule;
	const struct rule_test	*t = res->test;
	enum ruletest_verdict	 v = res->verdict;
	FILE			*fp = pt->fp;

	if ((v == V_PASS || v == V_GAP) && !pt->tap)
		return;
	/*
	 * TAP: a known gap is a TODO test of the fix, failing while the gap
	 * is there; a closed one passes, which the harness reports (XPASS)
	 * until the test changes.
	 */
	if (pt->tap)
		fprintf(fp, "%sok %zu - ", v == V_PASS || v == V_GAP_CLOSED ?
		    "" : "not ", n->passed + n->failed + n->gaps);
	fprintf(fp, "%s:%d:%d: test ", r->file, t->line, t->col);
	if (t->name)
		fprintf(fp, "'%s'", t->name);
	else
		fprintf(fp, "#%zu", res->index + 1);
	fprintf(fp, " of rule '%s': ", r->id);
	switch (v) {
	case V_PASS:
		fprintf(fp, "%s\n", res->expected);
		break;
	case V_FAIL:
		fprintf(fp, "%s\n", res->why);
		break;
	case V_GAP:
		fprintf(fp, "%s # TODO known gap\n", res->expected);
		break;
	case V_GAP_CLOSED:
		fprintf(fp, "known gap closed (%s): make it an ordinary "
		    "test%s\n", res->why, pt->tap ? " # TODO known gap" : "");
		break;
	}
}

void
ruletest_run(const struct ruleset *rs, FILE *fp, FILE *errfp, bool tap,
    struct ruletest_counts *n)
{
	struct print_to	pt = { fp, tap };

	ruletest_run_each(rs, errfp, print_result, &pt, n);
}
