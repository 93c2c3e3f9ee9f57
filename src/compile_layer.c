/*
 * What a rule says about the layers below it (reflexion-rules(5), LAYERS
 * AND TRUST): `overridable` and `locked` on a rule, `locked` at the top
 * of a file (compile_rule.c reads it into the context); the rule that
 * only switches another off, written as `id` and `enabled: false`; and
 * the warning about an allow that approves every call.  Whether an
 * override is allowed is decided when the rule is committed (rule.c),
 * where the rule it would replace is known.
 */
#include <string.h>

#include "compile_priv.h"

static int
flag(struct cctx *cx, const struct ynode *n, const char *key, bool *out)
{
	const struct ynode	*v = ynode_get(n, key);
	int			 b;

	if (v == NULL)
		return 0;
	if ((b = ynode_bool(v)) < 0) {
		cx_error(cx, v, DIAG_wrong_type, "'%s' must be true or false",
		    key);
		return 0;
	}
	*out = b;
	return 1;
}

void
layer_rule_keys(struct cctx *cx, struct rule *r, const struct ynode *n)
{
	const struct ynode	*v;
	struct diag		*d;
	bool			 locked = false;

	flag(cx, n, "overridable", &r->overridable);
	if (flag(cx, n, "locked", &locked) && !locked && cx->locked) {
		d = cx_warning(cx, ynode_get(n, "locked"),
		    DIAG_locked_overridable, "rule '%s' says 'locked: false' in a file that says "
		    "'locked: true': it stays locked", r->id ? r->id : "?");
		diag_set_hint(d, "a file's lock holds for all its rules");
	}
	r->locked = locked || cx->locked;
	if (r->locked && r->overridable) {
		v = ynode_get_key(n, "overridable");
		d = cx_warning(cx, v, DIAG_locked_overridable, "rule '%s' is "
		    "locked%s: 'overridable: true' has no effect", r->id ?
		    r->id : "?", locked ? "" : " by its file");
		diag_set_hint(d, "locked beats overridable: no less trusted "
		    "source may replace or disable it");
		r->overridable = false;
	}
}

bool
layer_is_stub(const struct ynode *n)
{
	const struct ynode	*v = ynode_get(n, "enabled");

	return v != NULL && ynode_bool(v) == 0 && ynode_get(n, "on") == NULL &&
	    ynode_get(n, "action") == NULL;
}

/*
 * A rule written as `id` and `enabled: false` alone switches off the rule
 * of an earlier source with that id: it becomes that rule, disabled, from
 * this file (without its tests, which it would fail).  Whether this layer
 * may do that is the commit's to decide.  NULL when there is nothing to
 * commit.
 */
struct rule *
layer_stub(struct cctx *cx, struct rule *r, const struct ynode *n,
    int layer)
{
	const struct rule	*was;
	struct rule		*c;
	struct diag		*d;
	size_t			 i, before = cx->errors;

	for (i = 0; i < n->n; i++) {
		const struct ynode *k = n->items[2 * i];

		if (k->type != YNODE_SCALAR) {
			cx_error(cx, k, DIAG_wrong_type, "a key in a rule must "
			    "be a string");
			continue;
		}
		if (strcmp(k->str, "id") == 0 ||
		    strcmp(k->str, "enabled") == 0 ||
		    strcmp(k->str, "description") == 0)
			continue;
		d = cx_error(cx, k, DIAG_unknown_key, "a rule without 'on' "
		    "and 'action' only disables the rule of its id: '%s' "
		    "has no place in it", k->str);
		diag_set_hint(d, "write just 'id' and 'enabled: false' (and "
		    "a 'description'), or a whole rule with 'on' and "
		    "'action'");
	}
	if (r->id == NULL || cx->errors != before)
		return NULL;
	if ((was = ruleset_find(cx->rs, r->id)) == NULL ||
	    was->layer == layer) {
		if (was != NULL)	/* the commit reports the duplicate */
			return r;
		d = cx_warning(cx, ynode_get(n, "id"), DIAG_disables_nothing,
		    "rule '%s' only disables a rule, but no earlier source "
		    "has that id", r->id);
		diag_set_hint(d, "ids of packs are PACK/ID: write 'pack: "
		    "PACK' at the top of this file and the rule's own id");
		return NULL;
	}
	c = ruleset_new_rule(cx->rs);
	*c = *was;
	c->enabled = false;
	c->tests = NULL;
	c->ntests = 0;
	c->description = r->description != NULL ? r->description :
	    was->description;
	c->file = r->file;
	c->line = r->line;
	c->col = r->col;
	c->fail_closed = cx->fail_closed;
	return c;
}

void
layer_check_allow(struct cctx *cx, const struct rule *r,
    const struct ynode *actn, int layer)
{
	struct diag	*d;
	const char	*calls;

	if (r->action != ACT_ALLOW || r->when != NULL || !r->enabled)
		return;
	calls = r->ntools > 0 ? "every call of its tools" : "every tool call";
	if (layer_trust(layer) >= TRUST_PROJECT) {
		d = cx_warning(cx, actn, DIAG_allow_all, "rule '%s' of the "
		    "project's rules allows %s without a 'when': it approves "
		    "whatever the agent does, past the agent's own permission "
		    "prompt", r->id, calls);
		diag_set_hint(d, "a project's allow counts only in projects "
		    "the user trusts ('reflexion-rules trust'); say in 'when' "
		    "what it allows");
	} else {
		d = cx_warning(cx, actn, DIAG_allow_all, "rule '%s' allows %s "
		    "without a 'when': it approves them all, past the agent's "
		    "own permission prompt", r->id, calls);
		diag_set_hint(d, "say in 'when' what it allows");
	}
}
