/*
 * The importers' corner cases: messages with "{{" or NUL bytes, hookify's
 * parser quirks, unique ids; the YAML they print always compiles.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "import.h"
#include "tap.h"

/* Imports text (hookify when hk), compiles the result; returns the YAML. */
static char *
imp(bool hk, const char *text, size_t len, int *n, size_t *compile_errors)
{
	struct import_ids	ids;
	struct diag_list	dl;
	struct ruleset		rs;
	struct diag_list	dl2;
	struct buf		out, doc;

	memset(&ids, 0, sizeof(ids));
	diag_list_init(&dl);
	buf_init(&out);
	*n = hk ? import_hookify("hookify.t.local.md", text, len, &ids, &out,
	    &dl) : import_skill_rules("skill-rules.json", text, len, &ids, &out,
	    &dl);
	buf_init(&doc);
	buf_adds(&doc, "version: 1\npack: p\nrules:\n");
	buf_add(&doc, out.data, out.len);
	ruleset_init(&rs);
	diag_list_init(&dl2);
	ruleset_add_yaml(&rs, "out.yaml", doc.data, doc.len, 1, &dl2);
	*compile_errors = dl2.errors;
	diag_list_release(&dl2);
	ruleset_release(&rs);
	diag_list_release(&dl);
	import_ids_release(&ids);
	buf_release(&out);
	return buf_detach(&doc, NULL);
}

static char *
imps(bool hk, const char *text, int *n, size_t *compile_errors)
{
	return imp(hk, text, strlen(text), n, compile_errors);
}

int
main(void)
{
	static const char nul_body[] = "---\nname: n\nevent: bash\npattern: x\n"
	    "---\nbody\0with a NUL\n";
	size_t	errs;
	char	*y;
	int	n;

	y = imp(true, nul_body, sizeof(nul_body) - 1, &n, &errs);
	ok(n == 1 && errs == 0 && strstr(y, "\\x00with a NUL") != NULL,
	    "a NUL byte in a hookify body is kept, escaped");
	free(y);

	y = imps(true, "---\nname: a\nevent: bash\npattern: x\n---\n{{x}} {{{\n",
	    &n, &errs);
	ok(n == 1 && errs == 0 &&
	    strstr(y, "{{lbraces}}x}} {{lbraces}}{") != NULL,
	    "'{{' in a message is written {{lbraces}}");
	free(y);

	y = imps(true, "---\nname: a b/c\nevent: bash\nconditions:\n"
	    "  - field: command, operator: contains, pattern: a,b, c\n---\nm",
	    &n, &errs);
	ok(n == 1 && errs == 0 && strstr(y, "id: a-b-c") != NULL &&
	    strstr(y, "{contains: 'a,b, c'}") != NULL,
	    "a name becomes an id; an inline pattern keeps its commas");
	free(y);

	y = imps(true, "---\nname: x\nevent: bash\npattern: \"'q'\"\n---\nm",
	    &n, &errs);
	ok(n == 1 && errs == 0 && strstr(y, "regex: q,") != NULL,
	    "quotes are stripped the way hookify strips them");
	free(y);

	y = imps(false, "{\"skills\":{\"a b\":{\"type\":\"guardrail\","
	    "\"enforcement\":\"block\",\"fileTriggers\":{\"pathPatterns\":"
	    "[\"*.x\"]},\"blockMessage\":\"{file_path} {{ {file_path}\","
	    "\"promptTriggers\":{\"keywords\":[\"k\"]}}}}", &n, &errs);
	ok(n == 2 && errs == 0 && strstr(y, "id: a-b\n") != NULL &&
	    strstr(y, "id: a-b-guard") != NULL &&
	    strstr(y, "'{{path}} {{lbraces}} {file_path}'") != NULL,
	    "diet103: ids, the first {file_path}, a literal '{{'");
	free(y);

	/* Fuzz: field names of invalid UTF-8, or over YAML's key limit. */
	y = imps(true, "---\nname: f\nevent: file\nconditions:\n"
	    "  - field: new\377_text\n    operator: contains\n"
	    "    pattern: K\n---\nm", &n, &errs);
	ok(n == -1 && errs == 0 && strstr(y, "input.new") == NULL,
	    "a field name no event has: the rule is left out");
	free(y);

	{
		char *f = xasprintf("---\nname: f\nevent: file\nconditions:\n"
		    "  - field: %01100d\n    operator: contains\n"
		    "    pattern: K\n---\nm", 0);
		y = imps(true, f, &n, &errs);
		ok(n == -1 && errs == 0, "a 1100-byte field name: left out");
		free(y);
		free(f);
	}
	y = imps(true, "---\nname: f\nevent: bash\nconditions:\n"
	    "  - field: url\n    operator: equals\n    pattern: x\n---\nm",
	    &n, &errs);
	ok(n == 1 && errs == 0 && strstr(y, "input.url: {equals: x}") != NULL,
	    "another tool_input key is input.KEY");
	free(y);

	/* Fuzz: tool_matcher names that would read as globs. */
	y = imps(true, "---\nname: t\ntool_matcher: Writ{e|Bash|mcp__a*\n"
	    "pattern: x\n---\nm", &n, &errs);
	ok(n == 1 && errs == 0 && strstr(y, "tools: [Bash]\n") != NULL,
	    "tool_matcher keeps exact tool names only");
	free(y);

	y = imps(false, "{\"skills\":{\"s\":{\"promptTriggers\":"
	    "{\"intentPatterns\":[\"(unclosed\"]}}}}", &n, &errs);
	ok(n == 0 && errs == 0, "an invalid intent pattern: the rule is left "
	    "out");
	free(y);
	return done_testing();
}
