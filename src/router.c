/*
 * The configured router (router.h).
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "jsonw.h"
#include "router.h"
#include "xmalloc.h"

const char *const route_exec_types[] = {
	"direct", "tool", "master", "worker", "speckit", NULL
};

int
route_exec_type_valid(const char *s)
{
	size_t	i;

	for (i = 0; s != NULL && route_exec_types[i] != NULL; i++)
		if (strcmp(s, route_exec_types[i]) == 0)
			return 1;
	return 0;
}

/* Characters of a pipeline, icon or reason kept from an answer. */
#define ROUTER_TEXT_MAX	200

static const char *
arena_text(struct arena *a, const cJSON *o, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, key);
	char		*s;
	const char	*kept;

	if (!cJSON_IsString(v) || v->valuestring[0] == '\0')
		return NULL;
	s = utf8_valid_dup(v->valuestring, utf8_prefix(v->valuestring,
	    strlen(v->valuestring), ROUTER_TEXT_MAX));
	kept = arena_strdup(a, s);
	free(s);
	return kept;
}

int
router_parse(const char *out, size_t len, struct arena *a,
    struct route_info *r, char **err)
{
	const cJSON	*c;
	cJSON		*j;
	const char	*e;
	double		 conf = 0;

	memset(r, 0, sizeof(*r));
	j = cJSON_ParseWithLength(out, len);
	if (!cJSON_IsObject(j)) {
		cJSON_Delete(j);
		*err = xstrdup("its answer is not a JSON object");
		return -1;
	}
	e = arena_text(a, j, "exec_type");
	if (e == NULL || !route_exec_type_valid(e)) {
		cJSON_Delete(j);
		*err = xstrdup("its answer has no exec_type of " ROUTE_EXEC_TYPES);
		return -1;
	}
	c = cJSON_GetObjectItemCaseSensitive(j, "confidence");
	/* NaN fails both comparisons: !(x >= 0 && x <= 100). */
	if (c != NULL && (!cJSON_IsNumber(c) || !(c->valuedouble >= 0 &&
	    c->valuedouble <= 100))) {
		cJSON_Delete(j);
		*err = xstrdup("its confidence is not a number from 0 to 1 or a "
		    "percentage");
		return -1;
	}
	if (c != NULL)
		conf = c->valuedouble <= 1 ? c->valuedouble * 100 :
		    c->valuedouble;
	r->exec_type = e;
	r->pipeline = arena_text(a, j, "pipeline");
	r->icon = arena_text(a, j, "icon");
	r->reason = arena_text(a, j, "reason");
	r->confidence = (int)(conf + 0.5);
	r->source = "router";
	cJSON_Delete(j);
	return 0;
}

int
router_ask(const struct rr_command *cmd, struct rr_event *ev,
    struct arena *a, struct route_info *out, char **err)
{
	struct rr_text	 p = event_field(ev, F_PROMPT);
	struct buf	 in, answer;
	int		 rc;

	*err = NULL;
	buf_init(&in);
	buf_adds(&in, "{\"version\":1,\"prompt\":");
	jsonw_string(&in, p.s ? p.s : "", p.len);
	buf_adds(&in, ",\"session_id\":");
	jsonw_cstring(&in, ev->session_id);
	buf_adds(&in, ",\"cwd\":");
	jsonw_cstring(&in, ev->cwd);
	buf_adds(&in, ",\"project\":");
	jsonw_cstring(&in, ev->project_dir ? ev->project_dir : "");
	buf_adds(&in, ",\"exec_types\":[\"direct\",\"tool\",\"master\","
	    "\"worker\",\"speckit\"]}");
	buf_init(&answer);
	rc = extcmd_run(cmd, in.data, in.len, &answer, err);
	if (rc == 0)
		rc = router_parse(answer.data, answer.len, a, out, err);
	buf_release(&in);
	buf_release(&answer);
	return rc;
}
