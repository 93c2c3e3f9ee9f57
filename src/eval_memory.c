/*
 * The conditions that read the memory and ask the router (rule.h C_MEMORY,
 * C_ROUTER): what they found is kept for the rule's message ({{#memory}},
 * {{route.*}}).  A failed lookup is a note on stderr, once per event, and
 * the condition does not hold.
 */
#include <stdlib.h>
#include <string.h>

#include "eval_priv.h"
#include "memory.h"
#include "router.h"
#include "xmalloc.h"

static const char *const query_names[MQ__COUNT] = {
	"summaries", "conversations", "observations", "route"
};

/* The words a lookup searches for: the prompt of the event, if any. */
static const char *
words_of(struct ectx *cx)
{
	struct rr_text	p;

	if (cx->ev->kind != EV_USER_PROMPT_SUBMIT && cx->ev->kind != EV_STOP &&
	    cx->ev->kind != EV_SUBAGENT_STOP)
		return NULL;
	p = event_field(cx->ev, F_PROMPT);
	return p.s;
}

static int
lookup(struct ectx *cx, const struct cond *c, struct mem_rows *rows,
    char **err)
{
	struct rr_event		*ev = cx->ev;
	struct mem_query	 q;
	struct mem_row		 r;
	bool			 found;

	memset(&q, 0, sizeof(q));
	q.limit = c->mem_limit;
	q.any_word = true;
	q.not_session = ev->session_id;
	if (!c->mem_all_projects && ev->project_dir != NULL &&
	    *ev->project_dir != '\0')
		q.project = ev->project_dir;
	switch (c->mem_query) {
	case MQ_SUMMARIES:
		q.words = words_of(cx);
		if (mem_search(cx->opts->db, MEM_SUMMARY, &q, rows, err) < 0)
			return -1;
		/* Two tiers: the conversations when no summary is found. */
		if (rows->n > 0 || q.words == NULL)
			return 0;
		return mem_search(cx->opts->db, MEM_CONVERSATION, &q, rows,
		    err);
	case MQ_CONVERSATIONS:
		q.words = words_of(cx);
		return mem_search(cx->opts->db, MEM_CONVERSATION, &q, rows,
		    err);
	case MQ_OBSERVATIONS:
		if (ev->abs_path != NULL)
			return mem_file(cx->opts->db, ev->abs_path, NULL,
			    c->mem_limit, rows, err);
		if ((q.words = words_of(cx)) == NULL)
			return 0;
		q.project = NULL;
		return mem_search(cx->opts->db, MEM_OBSERVATION, &q, rows,
		    err);
	case MQ_ROUTE:
		if (mem_last_route(cx->opts->db, ev->session_id, &r, &found,
		    err) < 0)
			return -1;
		if (!found)
			return 0;
		if (c->mem_below > 0 && r.confidence >= c->mem_below) {
			mem_row_release(&r);
			return 0;
		}
		if (rows->n == rows->cap) {
			rows->cap = rows->cap ? rows->cap * 2 : 4;
			rows->v = xreallocarray(rows->v, rows->cap,
			    sizeof(*rows->v));
		}
		rows->v[rows->n++] = r;
		return 0;
	case MQ__COUNT:
		break;
	}
	return 0;
}

bool
eval_memory(struct ectx *cx, const struct cond *c, bool in_when)
{
	struct mem_rows	 rows;
	char		*err = NULL;
	size_t		 i;

	if (cx->opts->db == NULL) {
		explain(cx, "memory: no memory here\n");
		return false;
	}
	mem_rows_init(&rows);
	if (lookup(cx, c, &rows, &err) < 0) {
		if (!cx->mem_failed)
			buf_printf(&cx->out->notes, "reflexion-rules: %s; "
			    "memory conditions do not hold\n", err);
		cx->mem_failed = true;
		explain(cx, "memory: %s: %s\n", query_names[c->mem_query],
		    err);
		free(err);
		mem_rows_release(&rows);
		return false;
	}
	explain(cx, "memory: %s: %zu row%s\n", query_names[c->mem_query],
	    rows.n, rows.n == 1 ? "" : "s");
	if (rows.n == 0)
		return false;
	if (in_when)
		for (i = 0; i < rows.n; i++) {
			if (cx->mem.n == cx->mem.cap) {
				cx->mem.cap = cx->mem.cap ? cx->mem.cap * 2 : 4;
				cx->mem.v = xreallocarray(cx->mem.v,
				    cx->mem.cap, sizeof(*cx->mem.v));
			}
			cx->mem.v[cx->mem.n++] = rows.v[i];
			memset(&rows.v[i], 0, sizeof(rows.v[i]));
		}
	mem_rows_release(&rows);
	return true;
}

bool
eval_router(struct ectx *cx)
{
	const struct rr_command	*cmd;
	char			*err = NULL, *what;

	if (cx->routed != 0) {
		explain(cx, "router: %s\n", cx->routed > 0 ? "routed" :
		    "no route");
		return cx->routed > 0;
	}
	cx->routed = -1;
	if (cx->ev->kind != EV_USER_PROMPT_SUBMIT) {
		explain(cx, "router: only a prompt is routed\n");
		return false;
	}
	cmd = cx->opts->router != NULL ?
	    cx->opts->router(cx->opts->router_arg) : NULL;
	if (cmd == NULL) {
		explain(cx, "router: none is configured (config.yaml's "
		    "router:)\n");
		return false;
	}
	if (router_ask(cmd, cx->ev, &cx->ev->arena, &cx->router_route,
	    &err) < 0) {
		what = extcmd_describe(cmd);
		buf_printf(&cx->out->notes, "reflexion-rules: the router (%s): "
		    "%s; the prompt is not routed by it\n", what, err);
		explain(cx, "router: %s\n", err);
		free(what);
		free(err);
		return false;
	}
	cx->routed = 1;
	explain(cx, "router: %s%s%s, %d%%\n", cx->router_route.exec_type,
	    cx->router_route.pipeline ? ", " : "",
	    cx->router_route.pipeline ? cx->router_route.pipeline : "",
	    cx->router_route.confidence);
	return true;
}
