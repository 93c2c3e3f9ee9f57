/*
 * The condition forms beyond plain text matching: shell, the required
 * form, starts_with / ends_with / line, json, file_before / file_after and
 * sections, with the template variables they fill.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "edits.h"
#include "helpers.h"
#include "jsoncheck.h"
#include "jsonw.h"
#include "tap.h"

static struct ruleset	rs;
static struct diag_list	dl;
static char		tmp[] = "/tmp/rr-evalforms.XXXXXX";

static void
use(const char *yaml)
{
	use_rules(&rs, &dl, yaml);
}

static void
line_id_text(struct buf *b, size_t i, const struct fired_rule *f)
{
	buf_printf(b, "%s%s=%s", i ? " | " : "", f->rule->id,
	    f->text ? f->text : "");
}

/* "id=message" of every fired rule, joined by " | ". */
static char *
fired(const char *event_json)
{
	return eval_format(&rs, event_json, tmp, false, line_id_text);
}

/* A TAP description on one line. */
static const char *
oneline(const char *s)
{
	static char	out[256];
	size_t		i = 0;

	for (; *s && i < sizeof(out) - 3; s++) {
		if (*s == '\n') {
			out[i++] = '\\';
			out[i++] = 'n';
		} else
			out[i++] = *s;
	}
	out[i] = '\0';
	return out;
}

static void
expect(const char *event, const char *want, const char *what)
{
	char	*got = fired(event);

	is_str(got, want, "%s", oneline(what));
	free(got);
}

static char *
bash(const char *cmd)
{
	struct buf	b;

	buf_init(&b);
	buf_adds(&b, "{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/p\","
	    "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":");
	jsonw_cstring(&b, cmd);
	buf_adds(&b, "}}");
	return buf_detach(&b, NULL);
}

static void
expect_bash(const char *cmd, const char *want)
{
	char	*ev = bash(cmd);

	expect(ev, want, cmd);
	free(ev);
}

static void
write_file(const char *name, const char *text)
{
	char	*path = xasprintf("%s/%s", tmp, name);
	FILE	*fp = fopen(path, "w");

	if (fp != NULL) {
		fputs(text, fp);
		fclose(fp);
	}
	free(path);
}

static char *
file_event(const char *tool, const char *name, const char *input_rest)
{
	return xasprintf("{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"%s\","
	    "\"tool_name\":\"%s\",\"tool_input\":{\"file_path\":\"%s/%s\"%s}}",
	    tmp, tool, tmp, name, input_rest);
}

static void
test_shell(void)
{
	use("version: 1\nrules:\n"
	    "  - id: rm\n    on: PreToolUse\n    tools: [Bash]\n    when:\n"
	    "      shell:\n        program: rm\n"
	    "        flags: [-r, -R, --recursive]\n"
	    "        any:\n          - args: '^(/|~|\\$HOME)/?\\*?$'\n"
	    "          - all: [{args: '^\\.?/?\\*?$'}, {dir: '^(/|~)$'}]\n"
	    "    action: deny\n    message: 'blocked: {{match}}'\n"
	    "  - id: push\n    on: PreToolUse\n    tools: [Bash]\n    when:\n"
	    "      shell:\n        program: git\n        subcommand: push\n"
	    "        any: [{flags: [-f, --force]}, {args: '^\\+'}]\n"
	    "    action: ask\n    message: 'force: {{match}}'\n"
	    "  - id: mkfs\n    on: PreToolUse\n    tools: [Bash]\n    when:\n"
	    "      shell: {program: ['mkfs', 'mkfs.*', mke2fs]}\n"
	    "    action: deny\n    message: m\n"
	    "  - id: dev\n    on: PreToolUse\n    tools: [Bash]\n    when:\n"
	    "      shell: {redirects: '^/dev/sd'}\n"
	    "    action: deny\n    message: dev\n"
	    "  - id: psql\n    on: PreToolUse\n    tools: [Bash]\n    when:\n"
	    "      shell:\n        program: psql\n"
	    "        any: [{args: '(?i)drop\\s+database'}, "
	    "{input: '(?i)drop\\s+database'}]\n"
	    "        not: {flags: [--dry-run]}\n"
	    "    action: deny\n    message: db\n");
	expect_bash("rm -rf /", "rm=blocked: rm -rf /");
	expect_bash("rm -r -f ~", "rm=blocked: rm -r -f ~");
	expect_bash("rm --recursive --force \"$HOME\"",
	    "rm=blocked: rm --recursive --force $HOME");
	expect_bash("sudo /bin/rm -fr /*", "rm=blocked: sudo /bin/rm -fr /*");
	expect_bash("cd / && rm -rf .", "rm=blocked: rm -rf .");
	expect_bash("bash -c 'r\"m\" -rf ~/'", "rm=blocked: rm -rf ~/");
	expect_bash("rm -rf ./build /tmp/x", "");
	expect_bash("cd /tmp && rm -rf .", "");
	expect_bash("echo rm -rf /", "");
	expect_bash("git commit -m 'rm -rf /'", "");
	expect_bash("git push -f origin main", "push=force: git push -f "
	    "origin main");
	expect_bash("git -C repo push origin +main",
	    "push=force: git -C repo push origin +main");
	expect_bash("git push --force-with-lease", "");
	expect_bash("git pull -f", "");
	expect_bash("mkfs.ext4 /dev/sda1", "mkfs=m");
	expect_bash("sudo mke2fs /dev/sdb", "mkfs=m");
	expect_bash("cat img > /dev/sda", "dev=dev");
	expect_bash("psql -c 'DROP DATABASE prod'", "psql=db");
	expect_bash("psql <<EOF\ndrop database prod;\nEOF", "psql=db");
	expect_bash("psql --dry-run -c 'DROP DATABASE prod'", "");
	expect_bash("psql -c 'SELECT 1'", "");
	expect("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
	    "\"tool_input\":{}}", "", "no command: no match");
}

static void
test_literal_kinds(void)
{
	use("version: 1\nrules:\n"
	    "  - id: sw\n    on: UserPromptSubmit\n    when:\n"
	    "      prompt: {starts_with: ['/deploy']}\n"
	    "    action: context\n    message: sw\n"
	    "  - id: ew\n    on: UserPromptSubmit\n    when:\n"
	    "      prompt: {ends_with: ['?'], ignore_case: true}\n"
	    "    action: context\n    message: ew\n"
	    "  - id: line\n    on: UserPromptSubmit\n    when:\n"
	    "      prompt: {equals: pass, line: true}\n"
	    "    action: context\n    message: line\n"
	    "  - id: heading\n    on: UserPromptSubmit\n    when:\n"
	    "      prompt: {starts_with: ['## A', '## B'], line: true}\n"
	    "    action: context\n    message: heading\n");
	expect("{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":"
	    "\"/deploy now\"}", "sw=sw", "starts_with");
	expect("{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":"
	    "\"x /deploy\"}", "", "starts_with anchors at the start");
	expect("{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":"
	    "\"why?\"}", "ew=ew", "ends_with");
	expect("{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":"
	    "\"a\\npass\\r\\nb\"}", "line=line", "a line equals, CR dropped");
	expect("{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":"
	    "\"bypass\"}", "", "line equals is the whole line");
	expect("{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":"
	    "\"x\\n## B two\"}", "heading=heading", "a line starts with");
	expect("{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":"
	    "\"x ## B\"}", "", "line starts_with is at a line start");
}

static void
test_required(void)
{
	use("version: 1\nrules:\n"
	    "  - id: sheet\n    on: PreToolUse\n    tools: [Write]\n"
	    "    when:\n      path: '*_sheet_*'\n"
	    "      content:\n        starts_with: ['## 0. Baseline', "
	    "'### 0.1', '### 0.2']\n        line: true\n"
	    "        required: true\n"
	    "    action: deny\n    message: 'missing: {{missing}}'\n"
	    "  - id: words\n    on: UserPromptSubmit\n"
	    "    when:\n      prompt: {keywords: [alpha, beta], "
	    "required: true}\n    unless:\n      prompt: {contains: [skip], "
	    "required: true}\n"
	    "    action: context\n    message: '{{missing}}'\n");
	expect("{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/p\","
	    "\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":"
	    "\"a_sheet_1.md\",\"content\":\"# T\\n### 0.2 x\\n\"}}",
	    "sheet=missing: ## 0. Baseline, ### 0.1",
	    "required lists every missing item");
	expect("{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/p\","
	    "\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":"
	    "\"a_sheet_1.md\",\"content\":\"## 0. Baseline\\n### 0.1\\n"
	    "### 0.2\\n\"}}", "", "nothing missing: no fire");
	expect("{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/p\","
	    "\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":"
	    "\"a_sheet_1.md\"}}", "", "no content: nothing to check");
	expect("{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":"
	    "\"ALPHA only, skip\"}", "words=beta",
	    "unless does not add to {{missing}}");
	expect("{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":"
	    "\"alpha beta\"}", "", "all keywords present");
}

/* A Write of content to x_map.json, as an event (owned). */
static char *
map_event(const char *content)
{
	struct buf	b;

	buf_init(&b);
	buf_adds(&b, "{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/p\","
	    "\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":"
	    "\"x_map.json\",\"content\":");
	jsonw_cstring(&b, content);
	buf_adds(&b, "}}");
	return buf_detach(&b, NULL);
}

static void
expect_map(const char *content, const char *want, const char *what)
{
	char	*ev = map_event(content);

	expect(ev, want, what);
	free(ev);
}

/* json each: checks of every member that fits its own where. */
static void
test_json_each(void)
{
	use("version: 1\nrules:\n"
	    "  - id: map\n    on: PreToolUse\n    tools: [Write]\n"
	    "    when:\n      path: '*_map.json'\n"
	    "      content:\n        json:\n"
	    "          keys: [mappings]\n"
	    "          each:\n"
	    "            - in: mappings\n"
	    "              where: {status: MAPPED}\n"
	    "              keys: [check.verdict, check.method]\n"
	    "              types: {check.conditions: array}\n"
	    "            - in: mappings\n"
	    "              where: {status: NOT_FOUND}\n"
	    "              keys: [reason]\n"
	    "            - in: list\n"
	    "              equals: {ok: true}\n"
	    "              each: {in: parts, keys: [id]}\n"
	    "        required: true\n"
	    "    action: deny\n    message: 'bad: {{missing}}'\n");
	expect_map("{\"mappings\":{\"TC-1\":{\"status\":\"MAPPED\",\"check\":"
	    "{\"verdict\":\"PASS\",\"method\":\"m\",\"conditions\":[]}},"
	    "\"TC-2\":{\"status\":\"NOT_FOUND\",\"reason\":\"r\"},"
	    "\"TC-3\":{\"status\":\"SKIPPED\"}},\"list\":[]}", "",
	    "every member passes; a member no where fits is not checked");
	expect_map("{\"mappings\":{\"TC-1\":{\"status\":\"MAPPED\",\"check\":"
	    "{\"verdict\":\"PASS\",\"conditions\":\"x\"}},"
	    "\"TC-2\":{\"status\":\"NOT_FOUND\"}},\"list\":[]}",
	    "map=bad: mappings.TC-1.check.method, mappings.TC-1.check."
	    "conditions (must be an array), mappings.TC-2.reason",
	    "failures are named by member");
	expect_map("{\"mappings\":{},\"list\":[{\"ok\":true,\"parts\":[{\"id\":1},"
	    "{}]},{\"ok\":false}]}",
	    "map=bad: list.0.parts.1.id, list.1.ok (must be true, is false), "
	    "list.1.parts (must be an object or an array)",
	    "array members by index, each inside each");
	expect_map("{\"mappings\":[],\"list\":{}}", "",
	    "an empty container passes");
	expect_map("{\"mappings\":3}", "map=bad: mappings (must be an object "
	    "or an array), list (must be an object or an array)",
	    "each of something else fails");
	expect_map("{}", "map=bad: mappings, list (must be an object or an "
	    "array)", "a missing container listed by keys is named once");

	/* 20,000 failing members: the list stops near JSON_FAILURES_MAX. */
	{
		struct buf	doc;
		char		*ev, *got;
		int		 i;

		buf_init(&doc);
		buf_adds(&doc, "{\"list\":[],\"mappings\":{");
		for (i = 0; i < 20000; i++)
			buf_printf(&doc, "%s\"TC-%d\":{\"status\":"
			    "\"NOT_FOUND\"}", i ? "," : "", i);
		buf_adds(&doc, "}}");
		ev = map_event(doc.data);
		got = fired(ev);
		ok(strncmp(got, "map=bad: mappings.TC-0.reason, mappings.TC-1."
		    "reason, ", 46) == 0 && strlen(got) < JSON_FAILURES_MAX +
		    100 && strcmp(got + strlen(got) - 5, ", ...") == 0,
		    "20,000 failing members: %zu bytes of failures, ending "
		    "in \", ...\"", strlen(got));
		free(got);
		free(ev);
		buf_release(&doc);
	}
}

static void
test_json(void)
{
	use("version: 1\nrules:\n"
	    "  - id: map\n    on: PreToolUse\n    tools: [Write]\n"
	    "    when:\n      path: '*_map.json'\n"
	    "      content:\n        json:\n"
	    "          keys: [sheet_version, created_at, mappings]\n"
	    "          types: {mappings: object}\n"
	    "        required: true\n"
	    "    action: deny\n    message: 'bad: {{missing}}'\n"
	    "  - id: report\n    on: PostToolUse\n    tools: [Task]\n"
	    "    when:\n      response:\n        json:\n          find: true\n"
	    "          where: {$schema: harness-agent-report-v1}\n"
	    "          keys: [task_summary, findings]\n"
	    "          types: {findings: array}\n"
	    "        required: true\n"
	    "    action: context\n    message: 'report: {{missing}}'\n"
	    "  - id: failed\n    on: PostToolUse\n    tools: [Task]\n"
	    "    when:\n      response:\n        json:\n          find: true\n"
	    "          where: {$schema: harness-agent-report-v1}\n"
	    "          equals: {verification.result: fail, n: 2, ok: false}\n"
	    "    action: context\n    message: failed\n");
#define MAPEV(content) "{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/p\"," \
	"\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"x_map.json\"," \
	"\"content\":" content "}}"
	expect(MAPEV("\"{}\""), "map=bad: sheet_version, created_at, mappings",
	    "json keys missing");
	expect(MAPEV("\"{not json\""), "map=bad: not valid JSON",
	    "invalid JSON fails a required json");
	expect(MAPEV("\"{\\\"sheet_version\\\":1,\\\"created_at\\\":\\\"d\\\","
	    "\\\"mappings\\\":[]}\""), "map=bad: mappings (must be an object)",
	    "json type check");
	expect(MAPEV("\" {\\\"sheet_version\\\":1,\\\"created_at\\\":\\\"d\\\","
	    "\\\"mappings\\\":{}}\\n\""), "", "a good document passes");
	expect(MAPEV("\"{\\\"sheet_version\\\":1,\\\"created_at\\\":\\\"d\\\","
	    "\\\"mappings\\\":{}} trailing\""), "map=bad: not valid JSON",
	    "trailing text is not JSON");
#define TASKEV(text) "{\"hook_event_name\":\"PostToolUse\",\"cwd\":\"/p\"," \
	"\"tool_name\":\"Agent\",\"tool_input\":{\"prompt\":\"x\"}," \
	"\"tool_response\":{\"content\":[{\"type\":\"text\",\"text\":" text "}]}}"
	expect(TASKEV("\"Done.\\n```json\\n{\\\"$schema\\\":"
	    "\\\"harness-agent-report-v1\\\",\\\"findings\\\":{}}\\n```\""),
	    "report=report: task_summary, findings (must be an array)",
	    "an embedded report is found and checked");
	expect(TASKEV("\"no report here {\\\"a\\\":1}\""), "",
	    "without the schema marker nothing is checked");
	expect(TASKEV("\"{\\\"x\\\":1} then {\\\"$schema\\\":"
	    "\\\"harness-agent-report-v1\\\",\\\"task_summary\\\":\\\"t\\\","
	    "\\\"findings\\\":[],\\\"verification\\\":{\\\"result\\\":"
	    "\\\"fail\\\"},\\\"n\\\":2,\\\"ok\\\":false}\""), "failed=failed",
	    "where skips documents; equals on a dotted path, number, bool");
	expect(TASKEV("\"see [1, 2, {\\\"$schema\\\":"
	    "\\\"harness-agent-report-v1\\\",\\\"task_summary\\\":\\\"t\\\","
	    "\\\"findings\\\":[],\\\"verification\\\":{\\\"result\\\":"
	    "\\\"fail\\\"},\\\"n\\\":2,\\\"ok\\\":false} and more\""),
	    "failed=failed", "a report inside an array never closed is found");
	{
		/*
		 * Arrays opened and never closed: each try reads to the end.
		 * The search stops at its work limit instead of reading the
		 * text 64 times, and says so.
		 */
		struct json_spec find = { .find = true };
		const struct json_spec *spec = &find;
		struct buf t;
		size_t i;
		enum json_result r;

		buf_init(&t);
		for (i = 0; i < 100; i++)
			buf_addc(&t, '[');
		while (t.len < 1024 * 1024)
			buf_adds(&t, "1,");
		r = json_check_text(spec, t.data, t.len, NULL, NULL);
		is_int(r, JSON_LIMIT, "unclosed arrays: the work limit");
		buf_reset(&t);
		buf_adds(&t, "[x [y {z ");
		r = json_check_text(spec, t.data, t.len, NULL, NULL);
		is_int(r, JSON_NO_DOCUMENT, "braces in prose: no document");
		/* 64 documents that do not fit hide the 65th: undecided. */
		buf_reset(&t);
		for (i = 0; i < JSON_FIND_TRIES; i++)
			buf_adds(&t, "{} ");
		buf_adds(&t, "{\"x\":1}");
		find.where = NULL;
		r = json_check_text(spec, t.data, t.len, NULL, NULL);
		is_int(r, JSON_PASSES, "64 documents that fit: the first passes");
		buf_reset(&t);
		for (i = 0; i < JSON_FIND_TRIES; i++)
			buf_adds(&t, "{x ");
		buf_adds(&t, "{\"x\":1}");
		r = json_check_text(spec, t.data, t.len, NULL, NULL);
		is_int(r, JSON_LIMIT, "64 decoys before the document: the limit, "
		    "not 'no document'");
		buf_release(&t);
	}
}

static void
test_files(void)
{
	char	*ev;

	use("version: 1\nrules:\n"
	    "  - id: after\n    on: PreToolUse\n    tools: [Write, Edit, "
	    "MultiEdit]\n    when:\n"
	    "      file_after: {starts_with: ['## 0.'], line: true, "
	    "required: true}\n"
	    "    action: deny\n    message: 'missing {{missing}}'\n"
	    "  - id: before\n    on: PreToolUse\n    tools: [Edit]\n"
	    "    when:\n      file_before: 'LOCKED'\n"
	    "    action: deny\n    message: locked\n");
	write_file("s.md", "# Sheet\n## 0. Base\nold line\n");
	ev = file_event("Edit", "s.md", ",\"old_string\":\"old\","
	    "\"new_string\":\"new\"");
	expect(ev, "", "Edit keeps the heading: the file after passes");
	free(ev);
	ev = file_event("Edit", "s.md", ",\"old_string\":\"## 0. Base\","
	    "\"new_string\":\"## Base\"");
	expect(ev, "after=missing ## 0.", "Edit that drops the heading");
	free(ev);
	ev = file_event("Edit", "s.md", ",\"old_string\":\"absent\","
	    "\"new_string\":\"x\"");
	expect(ev, "", "Edit whose old_string is missing: unknown, no fire");
	free(ev);
	write_file("d.md", "## 0. A\nx\nx\n");
	ev = file_event("Edit", "d.md", ",\"old_string\":\"## 0. A\\nx\","
	    "\"new_string\":\"y\"");
	expect(ev, "after=missing ## 0.", "Edit applied once");
	free(ev);
	ev = file_event("Edit", "d.md", ",\"old_string\":\"x\","
	    "\"new_string\":\"y\"");
	expect(ev, "", "ambiguous old_string: the edit would fail");
	free(ev);
	ev = file_event("MultiEdit", "d.md", ",\"edits\":[{\"old_string\":"
	    "\"x\",\"new_string\":\"y\",\"replace_all\":true},{\"old_string\":"
	    "\"## 0. A\",\"new_string\":\"z\"}]");
	expect(ev, "after=missing ## 0.", "MultiEdit in order");
	free(ev);
	ev = file_event("Write", "new.md", ",\"content\":\"## 0. x\"");
	expect(ev, "", "Write: the content is the file after");
	free(ev);
	write_file("l.txt", "LOCKED\n");
	ev = file_event("Edit", "l.txt", ",\"old_string\":\"LOCKED\","
	    "\"new_string\":\"open\"");
	expect(ev, "after=missing ## 0. | before=locked",
	    "file_before is the file on disk");
	free(ev);
}

static void
test_sections(void)
{
	char	*ev, *sub;

	sub = xasprintf("%s/notes", tmp);
	mkdir(sub, 0700);
	free(sub);
	use("version: 1\nrules:\n"
	    "  - id: caution\n    on: PostToolUse\n"
	    "    tools: ['mcp__postgres_*']\n    when:\n"
	    "      sections:\n        file: notes/c.md\n        keywords:\n"
	    "          mcp_postgres: true\n"
	    "          join: {input.sql: '(?i)\\bjoin\\b'}\n"
	    "          null: {input.sql: '(?i)\\bis\\s+null\\b'}\n"
	    "          limit: {not: {input.sql: '(?i)\\blimit\\b'}}\n"
	    "    action: context\n"
	    "    message: \"[Caution] ({{keywords}}):\\n{{sections}}\"\n");
	write_file("notes/c.md", "# Cautions\n\n<!-- keywords: join, null -->"
	    "\n## Pattern 1: JOIN drops rows\ntext\n\n"
	    "<!-- Keywords: STATE , enum -->\n## Pattern 5: enum state\n\n"
	    "```\n<!-- keywords: join -->\n## not a section\n```\n"
	    "<!-- keywords: limit -->\nno heading here\n"
	    "<!-- keywords: mcp_postgres -->\n\n### Pattern 9: always\n");
	ev = xasprintf("{\"hook_event_name\":\"PostToolUse\",\"cwd\":\"%s\","
	    "\"tool_name\":\"mcp__postgres_a__query\",\"tool_input\":"
	    "{\"sql\":\"SELECT * FROM a JOIN b ON x LIMIT 1\"},"
	    "\"tool_response\":{}}", tmp);
	expect(ev, "caution=[Caution] (join, mcp_postgres):\n"
	    "  - Pattern 1: JOIN drops rows\n  - Pattern 9: always",
	    "tagged sections of the active keywords, sorted keywords");
	/* Edited file: read again, no restart. */
	write_file("notes/c.md", "<!-- keywords: join -->\n# New title\n");
	expect(ev, "caution=[Caution] (join, mcp_postgres):\n  - New title",
	    "an edited file is read afresh");
	write_file("notes/c.md", "<!-- keywords: state -->\n# S\n");
	expect(ev, "", "no section for the keywords: no fire");
	free(ev);
	ev = xasprintf("{\"hook_event_name\":\"PostToolUse\",\"cwd\":\"%s/x\","
	    "\"tool_name\":\"mcp__postgres_a__query\",\"tool_input\":"
	    "{\"sql\":\"SELECT 1\"}}", tmp);
	/* The project dir given to event_parse is tmp, not the cwd. */
	write_file("notes/c.md", "<!-- keywords: limit -->\n# L\n");
	expect(ev, "caution=[Caution] (limit, mcp_postgres):\n  - L",
	    "the file is found relative to the project");
	free(ev);
}

/* A MultiEdit of n edits (markers M%06zu to N%06zu), as tool_input. */
static cJSON *
marker_edits(size_t n)
{
	cJSON	*in = cJSON_CreateObject(), *edits, *e;
	char	 o[16], w[16];
	size_t	 i;

	edits = cJSON_AddArrayToObject(in, "edits");
	for (i = 0; i < n; i++) {
		snprintf(o, sizeof(o), "M%06zu", i);
		snprintf(w, sizeof(w), "N%06zu", i);
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "old_string", o);
		cJSON_AddStringToObject(e, "new_string", w);
		cJSON_AddItemToArray(edits, e);
	}
	return in;
}

/*
 * The edits' work budget: a dozen edits are computed on any file; 200
 * edits of a megabyte, or a replace_all that would write a gigabyte, are
 * not decided, and a rule on file_after in a fail-closed file says so.
 */
static void
test_edit_budget(void)
{
	struct buf	 disk, out, want;
	cJSON		*in;
	char		 m[16];
	size_t		 i;
	int		 r;

	buf_init(&disk);
	buf_init(&out);
	buf_init(&want);
	for (i = 0; i < 200; i++) {
		while (disk.len < (i + 1) * 5000)
			buf_adds(&disk, "aaaaaaaaa\n");
		snprintf(m, sizeof(m), "M%06zu", i);
		buf_adds(&disk, m);
	}
	in = marker_edits(12);
	r = edit_result("MultiEdit", in, disk.data, disk.len, &out);
	buf_add(&want, disk.data, disk.len);
	for (i = 0; i < 12; i++) {
		snprintf(m, sizeof(m), "M%06zu", i);
		memcpy(strstr(want.data, m), "N", 1);
	}
	ok(r == EDIT_OK && out.len == want.len &&
	    memcmp(out.data, want.data, out.len) == 0,
	    "12 edits of a 1 MB file: computed");
	cJSON_Delete(in);
	in = marker_edits(200);
	r = edit_result("MultiEdit", in, disk.data, disk.len, &out);
	is_int(r, EDIT_TOO_COSTLY, "200 edits of a 1 MB file: past the budget");
	cJSON_Delete(in);
	in = cJSON_CreateObject();
	buf_reset(&want);
	for (i = 0; i < 1024; i++)
		buf_addc(&want, 'b');
	cJSON_AddStringToObject(in, "old_string", "a");
	cJSON_AddStringToObject(in, "new_string", want.data);
	cJSON_AddTrueToObject(in, "replace_all");
	r = edit_result("Edit", in, disk.data, disk.len, &out);
	is_int(r, EDIT_TOO_COSTLY,
	    "a replace_all that would write a gigabyte: past the budget");
	cJSON_Delete(in);

	/* Through eval: reported, and undecided in a fail-closed file. */
	use("version: 1\non_error: deny\nrules:\n"
	    "  - id: after\n    on: PreToolUse\n    tools: [MultiEdit]\n"
	    "    when:\n      file_after: {contains: [SECRET]}\n"
	    "    action: deny\n    message: m\n");
	{
		FILE *fp;
		char *path = xasprintf("%s/big.txt", tmp), *js, *ev;
		struct rr_event e;
		struct eval_outcome o;
		struct eval_opts eo;
		char *err = NULL;

		if ((fp = fopen(path, "w")) != NULL) {
			fwrite(disk.data, 1, disk.len, fp);
			fclose(fp);
		}
		in = marker_edits(200);
		cJSON_AddStringToObject(in, "file_path", path);
		js = cJSON_PrintUnformatted(in);
		ev = xasprintf("{\"hook_event_name\":\"PreToolUse\","
		    "\"cwd\":\"%s\",\"tool_name\":\"MultiEdit\","
		    "\"tool_input\":%s}", tmp, js);
		memset(&eo, 0, sizeof(eo));
		eval_outcome_init(&o);
		if (event_parse(&e, ev, strlen(ev), tmp, &err) == 0)
			eval_event(&rs, &e, &eo, &o);
		ok(o.nfired == 0 && o.undecided != NULL &&
		    strstr(o.notes.data, "file_after: the edits hit their "
		    "work limit") != NULL,
		    "file_after past the budget: reported, rule undecided");
		eval_outcome_release(&o);
		event_release(&e);
		cJSON_Delete(in);
		free(err);
		free(js);
		free(ev);
		free(path);
	}
	buf_release(&disk);
	buf_release(&out);
	buf_release(&want);
}

int
main(void)
{
	char	*p;

	diag_list_init(&dl);
	ruleset_init(&rs);
	if (mkdtemp(tmp) == NULL) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	test_shell();
	test_literal_kinds();
	test_required();
	test_json();
	test_json_each();
	test_files();
	test_edit_budget();
	test_sections();
	diag_list_release(&dl);
	ruleset_release(&rs);
	p = xasprintf("rm -rf '%s'", tmp);
	if (system(p) != 0)
		printf("# could not remove %s\n", tmp);
	free(p);
	return done_testing();
}
