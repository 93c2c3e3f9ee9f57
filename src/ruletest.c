#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
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
			memset(&eo, 0, sizeof(eo));
			eo.only = r;
			eval_outcome_init(&out);
			eval_event(rs, &ev, &eo, &out);
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
