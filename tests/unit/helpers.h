/*
 * Shared by the engine's unit tests: compile YAML text, evaluate a JSON
 * event, render the Claude reply.  Everything returned is owned by the
 * caller (free()).
 */
#ifndef RR_TEST_HELPERS_H
#define RR_TEST_HELPERS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "eval.h"
#include "glob.h"
#include "match_re.h"
#include "output.h"
#include "compile.h"
#include "xmalloc.h"

/*
 * A glob as the cache gives it (cache_cond.c): glob_to_regex()'s text in
 * a lazy, anchored regex that keeps it, which lets glob.c answer by the
 * text's leading literals before any regex runs.  The text is written to
 * rx, which must outlive the glob; NULL when the glob is refused.
 */
static inline struct rr_glob *
glob_as_cached(const char *glob, struct buf *rx)
{
	const char	*err;
	size_t		 off;
	bool		 base;

	buf_reset(rx);
	if (glob_to_regex(glob, strlen(glob), rx, &base, &err, &off) < 0)
		return NULL;
	return rr_glob_wrap(rr_regex_lazy(rx->data, rx->len,
	    RR_RE_ANCHORED_FULL, NULL, 0), NULL, base);
}

/* Compiles yaml into rs (initialized here); returns the number of errors. */
static inline size_t
compile_text(struct ruleset *rs, struct diag_list *dl, const char *yaml)
{
	ruleset_init(rs);
	diag_list_init(dl);
	ruleset_add_yaml(rs, "t.yaml", yaml, strlen(yaml), 1, dl);
	diag_sort(dl);
	return dl->errors;
}

/* "code@line:col" of every diagnostic, space separated. */
static inline char *
diag_summary(const struct diag_list *dl)
{
	struct buf	b;
	char		code[8];
	size_t		i;

	buf_init(&b);
	for (i = 0; i < dl->n; i++) {
		diag_code_str(dl->items[i].code, code);
		buf_printf(&b, "%s%s@%d:%d", i ? " " : "", code,
		    dl->items[i].line, dl->items[i].col);
	}
	return buf_detach(&b, NULL);
}

/*
 * Recompiles rs from yaml (rs and dl released first, so a test can switch
 * rule sets); a rule set that does not compile is said as a TAP comment.
 */
static inline void
use_rules(struct ruleset *rs, struct diag_list *dl, const char *yaml)
{
	char	*s;

	diag_list_release(dl);
	ruleset_release(rs);
	if (compile_text(rs, dl, yaml) != 0) {
		s = diag_summary(dl);
		printf("# rules do not compile: %s\n", s);
		free(s);
	}
}

/* Writes fired rule number i of an outcome into b. */
typedef void eval_line_fn(struct buf *b, size_t i, const struct fired_rule *);

/*
 * Evaluates event_json (project directory cwd) against rs and writes each
 * fired rule, in outcome order, with `line`.  A failed parse or
 * evaluation is said in the text.
 */
static inline char *
eval_format(const struct ruleset *rs, const char *event_json,
    const char *cwd, bool no_prefilter, eval_line_fn *line)
{
	struct rr_event		ev;
	struct eval_outcome	out;
	struct eval_opts	eo;
	struct buf		b;
	char			*err = NULL;
	size_t			i;

	buf_init(&b);
	if (event_parse(&ev, event_json, strlen(event_json), cwd, &err) < 0) {
		buf_printf(&b, "error: %s", err);
		free(err);
		event_release(&ev);
		return buf_detach(&b, NULL);
	}
	memset(&eo, 0, sizeof(eo));
	eo.no_prefilter = no_prefilter;
	eval_outcome_init(&out);
	if (eval_event(rs, &ev, &eo, &out) < 0)
		buf_adds(&b, "eval failed\n");
	for (i = 0; i < out.nfired; i++)
		line(&b, i, &out.fired[i]);
	eval_outcome_release(&out);
	event_release(&ev);
	return buf_detach(&b, NULL);
}

static inline void
line_action_id(struct buf *b, size_t i, const struct fired_rule *f)
{
	buf_printf(b, "%s%s:%s", i ? " " : "", action_names[f->rule->action],
	    f->rule->id);
}

/* "action:id" of every fired rule in outcome order, space separated. */
static inline char *
eval_summary(const struct ruleset *rs, const char *event_json)
{
	return eval_format(rs, event_json, "/p", false, line_action_id);
}

static inline void
line_action_id_text(struct buf *b, size_t i, const struct fired_rule *f)
{
	(void)i;
	buf_printf(b, "%s:%s:%.*s\n", action_names[f->rule->action],
	    f->rule->id, (int)f->len, f->text ? f->text : "");
}

/*
 * "action:id:message" per fired rule, one a line, with prefilters on or
 * off: what two ways of evaluating one event must agree on (the prefilter
 * property test, the cache fuzzer).
 */
static inline char *
eval_fired_text(const struct ruleset *rs, const char *event_json,
    bool no_prefilter)
{
	return eval_format(rs, event_json, "/p", no_prefilter,
	    line_action_id_text);
}

/* The hook's stdout for event_json against rs (no state). */
static inline char *
reply_for(const struct ruleset *rs, const char *event_json, bool exit2,
    int *status, char **err_out)
{
	struct rr_event		ev;
	struct eval_outcome	out;
	struct eval_opts	eo;
	struct hook_reply	r;
	char			*err = NULL, *s;

	hook_reply_init(&r);
	if (event_parse(&ev, event_json, strlen(event_json), "/p", &err) < 0) {
		free(err);
		event_release(&ev);
		return xstrdup("(parse error)");
	}
	memset(&eo, 0, sizeof(eo));
	eval_outcome_init(&out);
	eval_event(rs, &ev, &eo, &out);
	output_claude(&out, &ev, NULL, exit2, &r);
	if (status)
		*status = r.status;
	if (err_out)
		*err_out = buf_detach(&r.err, NULL);
	s = buf_detach(&r.out, NULL);
	hook_reply_release(&r);
	eval_outcome_release(&out);
	event_release(&ev);
	return s;
}

#endif
