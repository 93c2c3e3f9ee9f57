/*
 * diet103 skill-rules.json as YAML: the rules diet103.c maps the file to
 * (see diet103.h for the mapping), the same ones skillrules.c builds when
 * it reads the file as is, written out as `rules:` entries.  Only the
 * writing is here: a suggest rule's patterns go under `when: any`, a
 * guard's under `when` and `unless`, and the message becomes a template.
 *
 * A skill with a problem is reported by diet103.c, as for the reader,
 * and what it affects is left out of the YAML.
 */
#include <stdlib.h>
#include <string.h>

#include "diet103.h"
#include "import.h"
#include "xmalloc.h"
#include "yamlw.h"

/* "    key: [a, b]\n" */
static void
list_line(struct buf *b, int indent, const char *key,
    const struct d103_list *l)
{
	buf_printf(b, "%*s%s: ", indent, "", key);
	yamlw_flow_list(b, l->v, l->n);
	buf_addc(b, '\n');
}

/*
 * The message as a template: literal text with each "{{" written
 * {{lbraces}}, the variables as tags.  An odd run of '{' just before a
 * tag ends in {{lbrace}}: a bare '{' there would make "{{{path}}", a tag
 * named "{path".
 */
static char *
message_template(const struct d103_rule *d)
{
	const struct d103_seg	*s;
	struct buf		 b;
	char			*t;
	size_t			 i, len, tlen, run;

	buf_init(&b);
	for (i = 0; i < d->nmessage; i++) {
		s = &d->message[i];
		if (s->var != V__COUNT) {
			buf_printf(&b, "{{%s}}", tpl_var_names[s->var]);
			continue;
		}
		len = s->len;
		run = 0;
		if (i + 1 < d->nmessage && d->message[i + 1].var != V__COUNT)
			while (run < len && s->text[len - run - 1] == '{')
				run++;
		if (run % 2 == 1)
			len--;
		t = import_template_text(s->text, len, &tlen);
		buf_add(&b, t, tlen);
		free(t);
		if (run % 2 == 1)
			buf_adds(&b, "{{lbrace}}");
	}
	return buf_detach(&b, NULL);
}

static void
write_when(struct buf *b, const struct d103_rule *d)
{
	buf_adds(b, "    when:\n");
	if (d->kind == D103_SUGGEST) {
		buf_adds(b, "      any:\n");
		if (d->keywords.n > 0) {
			buf_adds(b, "        - prompt:\n");
			list_line(b, 12, "keywords", &d->keywords);
		}
		if (d->intents.n > 0) {
			buf_adds(b, "        - prompt:\n");
			list_line(b, 12, "regex", &d->intents);
			buf_adds(b, "            ignore_case: true\n");
		}
		return;
	}
	list_line(b, 6, "path", &d->paths);
	if (d->content.n > 0) {
		buf_adds(b, "      content:\n");
		list_line(b, 8, "regex", &d->content);
		buf_adds(b, "        ignore_case: true\n");
	}
	if (d->exclusions.n + d->markers.n + d->env.n == 0)
		return;
	buf_adds(b, "    unless:\n");
	if (d->exclusions.n > 0)
		list_line(b, 6, "path", &d->exclusions);
	if (d->markers.n > 0)
		list_line(b, 6, "file_contains", &d->markers);
	if (d->env.n > 0)
		list_line(b, 6, "env", &d->env);
}

static void
write_rule(struct buf *b, struct import_ids *ids, const struct d103_rule *d)
{
	/* Under pack skill-rules; the '/' of NAME/guard becomes '-'. */
	char	*id = import_unique_id(ids, d->id), *msg;

	buf_adds(b, "\n  - id: ");
	yamlw_cstr(b, id);
	buf_addc(b, '\n');
	free(id);
	if (d->description != NULL) {
		buf_adds(b, "    description:");
		yamlw_text(b, d->description, strlen(d->description), 4);
	}
	buf_adds(b, "    skill: ");
	yamlw_cstr(b, d->skill);
	buf_printf(b, "\n    on: %s\n", event_kind_names[d->event]);
	if (d->ntools > 0) {
		buf_adds(b, "    tools: ");
		yamlw_flow_list(b, d->tools, d->ntools);
		buf_addc(b, '\n');
	}
	buf_printf(b, "    priority: %s\n", priority_names[d->priority]);
	write_when(b, d);
	if (d->once == ONCE_SESSION)
		buf_adds(b, "    once: session\n");
	buf_printf(b, "    action: %s\n", action_names[d->action]);
	if (d->nmessage > 0) {
		msg = message_template(d);
		buf_adds(b, "    message:");
		yamlw_text(b, msg, strlen(msg), 4);
		free(msg);
	}
}

int
import_skill_rules(const char *file, const char *text, size_t len,
    struct import_ids *ids, struct buf *out, struct diag_list *diags)
{
	struct d103_set	 set;
	struct diag_loc	 loc;
	size_t		 i, first = diags->n;
	int		 n = -1;

	switch (d103_read(&set, file, text, len, DIAG_import, diags)) {
	case D103_NOT_JSON:
		memset(&loc, 0, sizeof(loc));
		loc.file = file;
		diag_add(diags, DIAG_ERROR, DIAG_import, &loc,
		    "not valid JSON");
		break;
	case D103_NO_SKILLS:
		break;
	case D103_OK:
		for (i = first; i < diags->n; i++)
			diag_set_hint(&diags->items[i], "left out of the YAML");
		for (i = 0; i < set.n; i++)
			write_rule(out, ids, &set.rules[i]);
		n = (int)set.n;
		break;
	}
	d103_release(&set);
	return n;
}
