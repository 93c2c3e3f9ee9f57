/*
 * A rule's message (reflexion-rules(5), message): a template, or a
 * mapping of language to template, { en: "...", ko: "..." }, whose `en`
 * (else its first) is the default.  The evaluation picks the one of the
 * language that config.yaml's `lang:` or the environment's locale names
 * (eval.h).  Templates are compiled here, their errors pointed at.
 */
#include <stdlib.h>
#include <string.h>

#include "compile_priv.h"

bool
compile_valid_lang(const char *s)
{
	size_t	i, n = 0;

	for (i = 0; s[i] >= 'a' && s[i] <= 'z'; i++)
		n++;
	if (n < 2 || n > 3)
		return false;
	if (s[i] == '\0')
		return true;
	if (s[i] != '-' || s[i + 1] == '\0')
		return false;
	for (i++; s[i]; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' &&
		    s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

static struct template *
one_template(struct cctx *cx, const struct ynode *v)
{
	struct template	*t;
	struct diag	*d;
	char		*err = NULL;
	size_t		 off = 0;
	int		 rc;

	if (!is_string(v)) {
		cx_error(cx, v, DIAG_wrong_type,
		    "'message' must be a string, not %s", ynode_type_name(v));
		return NULL;
	}
	t = arena_alloc(&cx->rs->arena, sizeof(*t));
	if ((rc = tpl_compile(&cx->rs->arena, v->str, v->len, t, &err,
	    &off)) == 0)
		return t;
	d = cx_error_at(cx, v, off, DIAG_unknown_template, "%s", err);
	diag_set_hint(d, "variables are path, file_path, abs_path, command, "
	    "tool, event, rule, skill, description, match, prompt, message, "
	    "error, cwd, session_id, input.<key>, env.<NAME>, missing, "
	    "sections, keywords, block, blocks, block.<key>, lbraces (a "
	    "literal {{), lbrace (a literal {)");
	/* Sections, filters and kb rows have their own code and hint. */
	if (rc == -2) {
		d->code = DIAG_template_section;
		free(d->hint);
		d->hint = NULL;
	} else if (strstr(err, "'kb.") != NULL)
		diag_set_hint(d, "the fields of a kb row are kb.error, "
		    "kb.resolution, kb.parsed, kb.last_used, kb.uses, kb.id and "
		    "kb.resolution.<key>");
	free(err);
	return NULL;
}

void
compile_message(struct cctx *cx, struct rule *r, const struct ynode *v)
{
	const struct ynode	*k;
	struct rule_message	*m;
	struct template		*t;
	struct diag		*d;
	size_t			 i, before = cx->errors, def = 0;

	if (v->type != YNODE_MAP) {
		r->message = one_template(cx, v);
		return;
	}
	if (v->n == 0) {
		cx_error(cx, v, DIAG_empty_condition, "'message' has no "
		    "language");
		return;
	}
	r->messages = arena_alloc(&cx->rs->arena, v->n * sizeof(*r->messages));
	for (i = 0; i < v->n; i++) {
		k = v->items[2 * i];
		if (!is_string(k) || !compile_valid_lang(k->str)) {
			d = cx_error(cx, k, DIAG_invalid_value,
			    "a message's key is a language, such as en or ko");
			diag_set_hint(d, "message: {en: 'Blocked: ...', ko: "
			    "'차단: ...'}: en (else the first) is the default");
			continue;
		}
		if ((t = one_template(cx, v->items[2 * i + 1])) == NULL)
			continue;
		m = &r->messages[r->nmessages++];
		m->lang = arena_strdup(&cx->rs->arena, k->str);
		m->tpl = t;
		if (strcmp(k->str, "en") == 0)
			def = r->nmessages - 1;
	}
	if (cx->errors != before) {
		r->messages = NULL;
		r->nmessages = 0;
		return;
	}
	r->message = r->messages[def].tpl;
}

bool
message_uses_memory(const struct rule *r)
{
	size_t	i;

	if (r->message != NULL && r->message->uses_memory)
		return true;
	for (i = 0; i < r->nmessages; i++)
		if (r->messages[i].tpl->uses_memory)
			return true;
	return false;
}

bool
message_uses_kb(const struct rule *r)
{
	size_t	i;

	if (r->message != NULL && r->message->uses_kb)
		return true;
	for (i = 0; i < r->nmessages; i++)
		if (r->messages[i].tpl->uses_kb)
			return true;
	return false;
}
