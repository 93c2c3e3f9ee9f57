/*
 * Document checks: blocks (blocks.h and the blocks condition), related
 * files (pathtpl.h and file_exists / file_contains / json_file, hostile
 * ones included: FIFOs, links in a loop, huge files, ids that would leave
 * the directory), JSON comparisons (jsoncheck.h), messages by language
 * and the results per block that `check` gets.
 */
#include <cjson/cJSON.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "blocks.h"
#include "helpers.h"
#include "jsoncheck.h"
#include "match_re.h"
#include "pathtpl.h"
#include "tap.h"

static char	dir[] = "/tmp/rr-docs.XXXXXX";

/* ---- helpers -------------------------------------------------------------- */

static struct rr_regex *
re(const char *p)
{
	char		 eb[128];
	size_t		 off;

	return rr_regex_compile(p, strlen(p), 0, &off, eb, sizeof(eb));
}

/* "id@line" of every block, space separated; owned. */
static char *
cut(const char *start, const char *sep, const char *end, const char *id,
    const char *text)
{
	struct block_cut	 how;
	struct block_list	 l;
	struct arena		 a;
	struct buf		 b;
	size_t			 i;

	memset(&how, 0, sizeof(how));
	how.start = start ? re(start) : NULL;
	how.separator = sep ? re(sep) : NULL;
	how.end = end ? re(end) : NULL;
	how.id = id ? re(id) : NULL;
	arena_init(&a);
	block_list_init(&l);
	buf_init(&b);
	if (blocks_cut_text(&how, text, strlen(text), &a, &l) != BLOCKS_OK)
		buf_adds(&b, "limit");
	for (i = 0; i < l.n; i++)
		buf_printf(&b, "%s%s@%zu[%.*s]", i ? " " : "", l.v[i].id,
		    l.v[i].line, (int)l.v[i].len, l.v[i].text);
	block_list_release(&l);
	arena_release(&a);
	rr_regex_free((struct rr_regex *)how.start);
	rr_regex_free((struct rr_regex *)how.separator);
	rr_regex_free((struct rr_regex *)how.end);
	rr_regex_free((struct rr_regex *)how.id);
	return buf_detach(&b, NULL);
}

static void
write_file(const char *rel, const char *text)
{
	char	*p = xasprintf("%s/%s", dir, rel), *slash;
	FILE	*fp;

	for (slash = strchr(p + strlen(dir) + 1, '/'); slash;
	    slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(p, 0700);
		*slash = '/';
	}
	if ((fp = fopen(p, "w")) != NULL) {
		fputs(text, fp);
		fclose(fp);
	}
	free(p);
}

/*
 * Evaluates a Write of file_path (relative to dir) with content against
 * rs: "action:id:message" of each fired rule, with check's block and
 * line; lang as eval_opts.lang.  With trace, the explain trace after
 * "--".  Owned.
 */
static char *
run(const struct ruleset *rs, const char *file_path, const char *content,
    bool check, const char *lang, bool trace)
{
	struct rr_event		 ev;
	struct eval_outcome	 out;
	struct eval_opts	 eo;
	struct buf		 b, x;
	cJSON			*j, *in;
	char			*json, *err = NULL;
	size_t			 i;

	j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "hook_event_name", "PreToolUse");
	cJSON_AddStringToObject(j, "session_id", "s");
	cJSON_AddStringToObject(j, "cwd", dir);
	cJSON_AddStringToObject(j, "tool_name", "Write");
	in = cJSON_AddObjectToObject(j, "tool_input");
	cJSON_AddStringToObject(in, "file_path", file_path);
	cJSON_AddStringToObject(in, "content", content);
	json = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	buf_init(&b);
	buf_init(&x);
	if (event_parse(&ev, json, strlen(json), dir, &err) < 0) {
		buf_printf(&b, "error: %s", err);
		free(err);
	} else {
		memset(&eo, 0, sizeof(eo));
		eo.check = check;
		eo.lang = lang;
		eo.explain = trace ? &x : NULL;
		eval_outcome_init(&out);
		eval_event(rs, &ev, &eo, &out);
		for (i = 0; i < out.nfired; i++) {
			buf_printf(&b, "%s%s:%s:%.*s", i ? " | " : "",
			    action_names[out.fired[i].rule->action],
			    out.fired[i].rule->id, (int)out.fired[i].len,
			    out.fired[i].text ? out.fired[i].text : "");
			if (out.fired[i].block != NULL)
				buf_printf(&b, "@%s:%zu:%s", out.fired[i].block,
				    out.fired[i].block_line,
				    out.fired[i].block_name);
		}
		if (out.notes.len)
			buf_printf(&b, " ! %.*s", (int)out.notes.len,
			    out.notes.data);
		eval_outcome_release(&out);
		if (trace)
			buf_printf(&b, "--%.*s", (int)x.len, x.data);
	}
	event_release(&ev);
	buf_release(&x);
	free(json);
	return buf_detach(&b, NULL);
}

#define RULE(when, msg) \
	"version: 1\nrules:\n  - id: r\n    on: PreToolUse\n" \
	"    when: " when "\n    action: deny\n    message: '" msg "'\n"

static void
expect(const char *yaml, const char *path, const char *content, bool check,
    const char *want, const char *what)
{
	struct ruleset		 rs;
	struct diag_list	 dl;
	char			*got, *s;

	if (compile_text(&rs, &dl, yaml) != 0) {
		s = diag_summary(&dl);
		printf("# does not compile: %s\n", s);
		free(s);
	}
	got = run(&rs, path, content, check, "", false);
	is_str(got, want, "%s", what);
	free(got);
	diag_list_release(&dl);
	ruleset_release(&rs);
}

/* ---- blocks.h --------------------------------------------------------------- */

static void
cutting(void)
{
	char	*s;

	s = cut("^## (TC-[0-9.]+)", NULL, "^# ", NULL,
	    "intro\n## TC-1\na\n## TC-2 x\nb\n# end\nc\n## TC-3\n");
	is_str(s, "TC-1@2[## TC-1\na\n] TC-2@4[## TC-2 x\nb\n] "
	    "TC-3@8[## TC-3\n]", "start, end: before the first and after an "
	    "end, no block");
	free(s);
	s = cut(NULL, "^---$", NULL, NULL, "a\n---\n\n---\nb\r\nc\n---");
	is_str(s, "1@1[a\n] 2@5[b\r\nc\n]", "separator: blank blocks "
	    "dropped, numbered as kept");
	free(s);
	s = cut(NULL, "^---\r?$", NULL, "^id: (\\S+)", "x\r\n---\r\nid: k2\r\n");
	is_str(s, "1@1[x\r\n] k2@3[id: k2\r\n]", "id: the group of the first "
	    "line that matches, CRLF lines");
	free(s);
	s = cut("^## (.*)", NULL, NULL, NULL, "## \n## a b  \n");
	is_str(s, "1@1[## \n] a b@2[## a b  \n]", "an empty id is the line "
	    "number; blanks around an id dropped");
	free(s);
	s = cut("^## (x)", NULL, NULL, NULL, "nothing");
	is_str(s, "", "no heading, no block");
	free(s);
}

static void
long_id(void)
{
	struct buf	 t;
	char		*s;

	buf_init(&t);
	buf_adds(&t, "## ");
	while (t.len < 400)
		buf_adds(&t, "\xea\xb0\x80");	/* 가 */
	buf_addc(&t, '\n');
	s = cut("^## (.+)", NULL, NULL, NULL, t.data);
	/* 255 bytes: 85 characters of 3 bytes, never a broken one. */
	ok(strncmp(s, "\xea\xb0\x80", 3) == 0 && strchr(s, '@') - s == 255,
	    "an id is cut at 256 bytes, at a character boundary");
	free(s);
	buf_release(&t);
}

static void
json_members(void)
{
	struct block_list	 l;
	struct arena		 a;
	const char		*doc = "{\"m\":{\"TC-1\":{\"v\":1},\"TC-2\":2},"
				    "\"a\":[{\"id\":\"x\"},{\"id\":7},{}]}";

	arena_init(&a);
	block_list_init(&l);
	ok(blocks_cut_json(doc, strlen(doc), "m", NULL, &a, &l) == BLOCKS_OK &&
	    l.n == 2 && strcmp(l.v[0].id, "TC-1") == 0 &&
	    strcmp(l.v[1].id, "TC-2") == 0 && cJSON_IsObject(l.v[0].member),
	    "an object's members by key");
	block_list_release(&l);
	ok(blocks_cut_json(doc, strlen(doc), "a", "id", &a, &l) == BLOCKS_OK &&
	    l.n == 3 && strcmp(l.v[0].id, "x") == 0 &&
	    strcmp(l.v[1].id, "7") == 0 && strcmp(l.v[2].id, "2") == 0,
	    "an array's items by their id, else their index");
	block_list_release(&l);
	ok(blocks_cut_json(doc, strlen(doc), ".", NULL, &a, &l) == BLOCKS_OK &&
	    l.n == 2, "'.' is the document");
	block_list_release(&l);
	ok(blocks_cut_json(doc, strlen(doc), "m.TC-2", NULL, &a, &l) ==
	    BLOCKS_NOT_JSON && l.n == 0, "a number has no members");
	block_list_release(&l);
	ok(blocks_cut_json("{\"m\":", 5, "m", NULL, &a, &l) ==
	    BLOCKS_NOT_JSON && l.n == 0, "not JSON");
	block_list_release(&l);
	arena_release(&a);
}

static void
listed(void)
{
	struct rr_regex	*r = re("\\| (TC-[0-9]+) \\|[^|]*\\| ACTIVE"), *w;
	struct id_set	 s;
	struct arena	 a;
	const char	*t = "| TC-2 | x | ACTIVE |\n| TC-1 | y | ACTIVE |"
			    "\n| TC-3 | z | OFF |\n| TC-2 | again | ACTIVE |";

	arena_init(&a);
	ok(blocks_listed(r, t, strlen(t), &a, &s) == BLOCKS_OK && s.n == 2 &&
	    strcmp(s.v[0], "TC-1") == 0 && strcmp(s.v[1], "TC-2") == 0 &&
	    id_set_has(&s, "TC-2") && !id_set_has(&s, "TC-3"),
	    "listed: the ids a pattern captures, sorted, once each");
	w = re("TC-[0-9]");
	ok(blocks_listed(w, "TC-1, TC-2 TC-1", 15, &a, &s) == BLOCKS_OK &&
	    s.n == 2, "without a group the whole match; every match of a "
	    "line");
	rr_regex_free(r);
	rr_regex_free(w);
	arena_release(&a);
}

/* ---- pathtpl.h -------------------------------------------------------------- */

static void
templates(void)
{
	const char	*v[PV__COUNT] = { "/p/d", "f.json", "f", "/p", NULL };
	const char	*msg, *why;
	struct buf	 b;
	size_t		 off;
	unsigned	 uses;

	ok(ptpl_check("{{dir}}/x/{{block}}.json", 24, PV_ALL_VARS, &uses,
	    &msg, &off) == 0 && uses == (PV_BIT(PV_DIR) | PV_BIT(PV_BLOCK)),
	    "check: the variables named");
	ok(ptpl_check("a{{dir}}{{nope}}", 16, PV_ALL_VARS, &uses, &msg,
	    &off) < 0 && off == 8, "check: an unknown one, at its offset");
	ok(ptpl_check("{{dir}}", 7, PV_KEY_VARS, &uses, &msg, &off) < 0 &&
	    off == 0, "check: a key may not name the directory");
	ok(ptpl_check("x{{block", 8, PV_ALL_VARS, &uses, &msg, &off) < 0 &&
	    off == 1, "check: unterminated");
	buf_init(&b);
	v[PV_BLOCK] = "TC-1.2";
	ok(ptpl_expand("{{dir}}/r/{{block}}_s.json", v, false, &b, &why) ==
	    0 && strcmp(b.data, "/p/d/r/TC-1.2_s.json") == 0, "expand");
	buf_reset(&b);
	v[PV_BLOCK] = "a*b?c\\";
	ok(ptpl_expand("{{block}}*", v, true, &b, &why) < 0,
	    "a backslash is no file name");
	buf_reset(&b);
	v[PV_BLOCK] = "a*b?c";
	ok(ptpl_expand("{{block}}*", v, true, &b, &why) == 0 &&
	    strcmp(b.data, "a\\*b\\?c*") == 0, "a value's wildcards are "
	    "escaped in a pattern");
	ok(ptpl_name_match(b.data, "a*b?c.json") &&
	    !ptpl_name_match(b.data, "axbyc.json"),
	    "and match only themselves");
	buf_reset(&b);
	v[PV_BLOCK] = NULL;
	ok(ptpl_expand("{{block}}", v, false, &b, &why) < 0,
	    "no block: no file");
	ok(!ptpl_is_name("") && !ptpl_is_name(".") && !ptpl_is_name("..") &&
	    !ptpl_is_name("../x") && !ptpl_is_name("a/b") &&
	    !ptpl_is_name("a\\b") && !ptpl_is_name("a\nb") &&
	    !ptpl_is_name("a\x7f") && ptpl_is_name("...") &&
	    ptpl_is_name("TC-1.2") && ptpl_is_name("테스트"),
	    "a file name: not empty, . or .., no /, \\ or control");
	ok(ptpl_name_match("*_\xeb\x8d\xb0.json", "ARG-1_\xeb\x8d\xb0.json") &&
	    ptpl_name_match("?.md", "\xea\xb0\x80.md") &&
	    !ptpl_name_match("?.md", "ab.md") &&
	    ptpl_name_match("*a*a*b", "aaaaaaaaab") &&
	    !ptpl_name_match("*a*a*b", "aaaaaaaaaa") &&
	    ptpl_name_match("\\*", "*") && !ptpl_name_match("\\*", "x"),
	    "name patterns: * any run, ? one character, \\x itself");
	ok(ptpl_has_wildcard("a*", 2) && !ptpl_has_wildcard("a\\*", 3) &&
	    !ptpl_has_wildcard("abc", 3), "wildcards, escaped or not");
	buf_release(&b);
}

/* ---- jsoncheck.h ------------------------------------------------------------ */

static void
comparisons(void)
{
	static const char *y = RULE("{content: {json: {compare: ["
	    "{sum: [a, b, c], equals: total}, "
	    "{count: items, at_least: 2}, "
	    "{count: {in: items, where: {ok: true}}, equals: {value: oks}}, "
	    "{value: a, less_than: 10}]}, required: true}}", "{{missing}}");

	expect(y, "x.json", "{\"a\":1,\"b\":2,\"total\":3,\"items\":[{\"ok\":"
	    "true},{\"ok\":false}],\"oks\":1}", false, "",
	    "every comparison holds; c missing counts 0 in a sum");
	expect(y, "x.json", "{\"a\":1,\"b\":2,\"c\":1,\"total\":3,\"items\":"
	    "[1],\"oks\":1}", false, "deny:r:a + b + c (4) must equal total "
	    "(3), count(items) (1) must be at least 2, count(items) (0) must "
	    "equal oks (1)", "failures say both numbers");
	expect(y, "x.json", "{\"a\":\"1\",\"total\":1,\"items\":{\"x\":{"
	    "\"ok\":true},\"y\":{\"ok\":true}},\"oks\":2}", false,
	    "deny:r:a is not a number (\"1\"), a is not a number (\"1\")",
	    "a value that is no number");
	expect(y, "x.json", "{\"a\":1,\"b\":2,\"total\":3,\"items\":7,"
	    "\"oks\":0}", false, "deny:r:items is not an object or an array, "
	    "items is not an object or an array", "count of no container");
	expect(RULE("{content: {json: {compare: [{value: a, not_equals: 1}, "
	    "{value: a, at_most: 1}, {value: a, greater_than: 0.5}, {sum: [a], "
	    "less_than: {sum: [b, b]}}, {value: a, less_than: b}]}, required: "
	    "true}}", "{{missing}}"),
	    "x.json", "{\"a\":1.5,\"b\":1}", false, "deny:r:a (1.5) must be at "
	    "most 1, a (1.5) must be less than b (1)",
	    "every operator; fractions");
	expect(RULE("{content: {json: {compare: {value: a, equals: b}}, "
	    "required: true}}", "{{missing}}"), "x.json", "{\"a\":1}", false,
	    "deny:r:b is missing", "a missing value fails");
	expect(RULE("{content: {json: {each: {in: m, has: [v], equals: {v: "
	    "ok}}}, required: true}}", "{{missing}}"), "x.json",
	    "{\"m\":{\"a\":{\"v\":\"no\"},\"b\":{},\"c\":{\"v\":\"ok\"}}}",
	    false, "deny:r:m.a.v (must be \"ok\", is \"no\")",
	    "has: members without it are not checked; equals says what is");
	expect(RULE("{content: {json: {each: {in: m, key: '{{stem}}', "
	    "equals: {v: 1}}}, required: true}}", "{{missing}}"),
	    "TC-1.2.json", "{\"m\":{\"TC-1.2\":{\"v\":2},\"TC-1\":{\"v\":3}}}",
	    false, "deny:r:m.TC-1.2.v (must be 1, is 2)",
	    "key: the member named after the file, dots and all");
	expect(RULE("{content: {json: {each: {in: m, key: '{{block}}', "
	    "keys: [v]}}, required: true}}", "{{missing}}"), "x.json",
	    "{\"m\":{\"a\":{}}}", false, "", "no block: no member has the key");
}

/* ---- blocks ------------------------------------------------------------------ */

static const char *const sheet =
    "| TC-1 | a | ACTIVE |\n"
    "## TC-1\nreason: x\nSTIM\n"
    "## TC-2\nnothing\n"
    "## TC-3 [skip]\nnothing\n"
    "# Appendix\nreason: y\n";

static void
block_conditions(void)
{
	expect(RULE("{blocks: {start: '^## (TC-\\d+)', end: '^# ', some: "
	    "{block: {contains: [reason], required: true}}}}",
	    "{{block}}/{{blocks}}/{{missing}}"), "a.md", sheet, false,
	    "deny:r:TC-2/TC-2, TC-3/TC-2 (reason), TC-3 (reason)",
	    "some: every failing block, and what each lacks");
	expect(RULE("{blocks: {start: '^## (TC-\\d+)', end: '^# ', unless: "
	    "{block: '\\[skip\\]'}, some: {not: {block: reason}}}}",
	    "{{blocks}}"), "a.md", sheet, false, "deny:r:TC-2",
	    "unless: a block that does not count");
	expect(RULE("{blocks: {start: '^## (TC-\\d+)', some: {not: {block: "
	    "STIM}}, when: {any: [{not: {content: '(?m)^\\| TC-\\d+ \\|'}}, "
	    "{listed: '^\\| (TC-\\d+) \\|.*ACTIVE'}]}}}", "{{blocks}}"),
	    "a.md", sheet, false, "", "when + listed: only the ACTIVE test "
	    "case counts, and it has its block");
	expect(RULE("{blocks: {start: '^## (TC-\\d+)', some: {not: {block: "
	    "STIM}}, when: {any: [{not: {content: '(?m)^\\| TC-\\d+ \\|'}}, "
	    "{listed: '^\\| (TC-\\d+) \\|.*ACTIVE'}]}}}", "{{blocks}}"),
	    "a.md", "## TC-1\n## TC-2\nSTIM\n", false, "deny:r:TC-1",
	    "no marker row: every test case counts");
	expect(RULE("{blocks: {start: '^## (TC-\\d+)', every: {block: "
	    "reason}}}", "all {{blocks}}"), "a.md", "## TC-1\nreason\n## "
	    "TC-2\nreason\n", false, "deny:r:all TC-1, TC-2",
	    "every: holds when each block does, all of them the message's");
	expect(RULE("{blocks: {start: '^## (TC-\\d+)', every: {block: "
	    "reason}}}", "x"), "a.md", "## TC-1\nreason\n## TC-2\n", false,
	    "", "every: one block fails it");
	expect(RULE("{blocks: {start: '^## (TC-\\d+)', every: {block: "
	    "reason}}}", "vacuous"), "a.md", "no blocks\n", false,
	    "deny:r:vacuous", "every over no block holds");
	expect(RULE("{blocks: {in: input.notes, start: '^## (.+)', some: "
	    "{block: x}}}", "x"), "a.md", "## a\nx\n", false, "",
	    "a field the event does not have: no blocks, no hold");
	expect(RULE("{blocks: {json: m, some: {block: {json: {equals: {v: "
	    "bad}}}}}}", "{{block}}={{block.v}}/{{block.w.0}}"), "a.json",
	    "{\"m\":{\"k1\":{\"v\":\"ok\"},\"k2\":{\"v\":\"bad\",\"w\":[3]}}}",
	    false, "deny:r:k2=bad/3", "JSON members as blocks; "
	    "{{block.path}}");
	expect(RULE("{blocks: {json: m, some: {block: '\"v\":\"bad\"'}}}",
	    "{{block}}"), "a.json", "{\"m\":[{\"v\":\"ok\"},{\"v\":\"bad\"}]}",
	    false, "deny:r:1", "a JSON block's text is its member, compact");
	expect(RULE("{blocks: {start: '^## (.+)', some: {block_id: {"
	    "starts_with: [TC-9]}}}}", "{{block}}"), "a.md", "## TC-1\n## "
	    "TC-9.1\n", false, "deny:r:TC-9.1", "block_id");
	expect(RULE("{blocks: {start: '^## (.+)', some: {block: x}}}",
	    "{{block}}"), "a.md", "## a\nx\n## b\nx\n", true,
	    "deny:r:a@a:1:id | deny:r:b@b:3:id", "check: one result per block");
}

/* Whether the trace shows a condition decided once for many blocks. */
static void
decided_once(void)
{
	struct ruleset		 rs;
	struct diag_list	 dl;
	char			*got;

	compile_text(&rs, &dl, RULE("{blocks: {start: '^## (.+)', some: "
	    "{all: [{content: DOC}, {block: x}]}}}", "{{blocks}}"));
	got = run(&rs, "a.md", "DOC\n## a\nx\n## b\n## c\nx\n", false, "",
	    true);
	ok(strncmp(got, "deny:r:a, c--", 13) == 0 &&
	    strstr(got, "content: holds, as for the first block") != NULL &&
	    strstr(strstr(got, "content: regex") + 1, "content: regex") ==
	    NULL, "a condition of the whole text is decided once");
	if (!(strncmp(got, "deny:r:a, c--", 13) == 0 &&
	    strstr(got, "content: holds, as for the first block") != NULL))
		printf("# %s\n", got);
	free(got);
	diag_list_release(&dl);
	ruleset_release(&rs);
}

/* ---- related files ------------------------------------------------------------ */

static void
related(void)
{
	static const char *y = RULE("{blocks: {start: '^## (.+)', some: "
	    "{not: {file_exists: '{{dir}}/ev/{{block}}.json'}}}}", "{{blocks}}");
	char	*p, *q;
	int	 fd;

	write_file("w/ev/TC-1.json", "{}");
	expect(y, "w/r.md", "## TC-1\n## TC-2\n", false, "deny:r:TC-2",
	    "file_exists, named after the block");
	/* ids that would leave the directory name no file */
	write_file("w/secret.json", "{}");
	write_file("w/ev/sub/x.json", "{}");
	expect(y, "w/r.md", "## ../secret\n## sub/x\n## .\n## ..\n", false,
	    "deny:r:../secret, sub/x, ., ..",
	    "an id with a / or . or .. names no file");
	expect(RULE("{blocks: {start: '^## (.+)', some: {file_exists: "
	    "'{{dir}}/ev/{{block}}*'}}}", "{{blocks}}"), "w/r.md",
	    "## *\n## TC-\n## ?C-1.json\n", false, "deny:r:TC-",
	    "an id's * and ? are no wildcards");
	/* not regular: a directory, a FIFO, a loop of links */
	p = xasprintf("%s/w/ev/TC-3.json", dir);
	mkdir(p, 0700);
	free(p);
	p = xasprintf("%s/w/ev/TC-4.json", dir);
	mkfifo(p, 0600);
	free(p);
	p = xasprintf("%s/w/ev/TC-5.json", dir);
	q = xasprintf("%s/w/ev/TC-6.json", dir);
	symlink(q, p);
	symlink(p, q);
	free(p);
	free(q);
	p = xasprintf("%s/w/ev/TC-7.json", dir);
	symlink("TC-1.json", p);
	free(p);
	expect(y, "w/r.md", "## TC-3\n## TC-4\n## TC-5\n## TC-7\n", false,
	    "deny:r:TC-3, TC-4, TC-5", "a directory, a FIFO, a loop of links "
	    "are not files; a link to one is");
	expect(RULE("{file_contains: {file: '{{dir}}/ev/TC-4.json', "
	    "contains: [x]}}", "fifo"), "w/r.md", "x", false, "",
	    "a FIFO is never opened (no hang)");
	/* a huge file: not read, said, and undecided */
	p = xasprintf("%s/w/big.txt", dir);
	if ((fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600)) >= 0) {
		if (ftruncate(fd, 17 * 1024 * 1024) < 0)
			perror("ftruncate");
		close(fd);
	}
	free(p);
	expect(RULE("{file_contains: {file: big.txt, contains: [x]}}", "big"),
	    "w/r.md", "x", false, " ! reflexion-rules: t.yaml:5:12: rule 'r': "
	    "a file past 16 MB (or the 64 MB read for an event) on "
	    "file_contains; counted as no match\n", "a file past 16 MB is not "
	    "read, and said");
	write_file("w/notes.md", "reviewed by ana\n");
	expect(RULE("{file_contains: {file: notes.md, regex: 'reviewed by "
	    "\\w+'}}", "ok"), "w/r.md", "x", false, "deny:r:ok",
	    "file_contains with a file, relative to the file's directory");
	write_file("m/A_map.json", "{\"s\":{\"total\":2,\"a\":1}}");
	write_file("m/B_map.json", "{\"s\":{\"total\":1,\"a\":1}}");
	expect(RULE("{json_file: {file: '{{dir}}/../*_map.json', compare: "
	    "{sum: [s.a], equals: s.total}}}", "ok"), "m/out/TC-1.json", "{}",
	    false, "deny:r:ok", "json_file: one of the files a pattern "
	    "matches passes");
	expect(RULE("{json_file: {file: '{{dir}}/../*_map.json', compare: "
	    "{sum: [s.a], equals: s.total}, required: true}}", "{{missing}}"),
	    "m/out/TC-1.json", "{}", false, "deny:r:s.a (1) must equal s.total "
	    "(2)", "required: the first that fails, in name order");
	write_file("m/C_map.json", "{not json");
	expect(RULE("{json_file: {file: '{{dir}}/C_map.json', required: true}}",
	    "{{missing}}"), "m/x.json", "{}", false, "deny:r:not valid JSON",
	    "a related file that is not JSON");
	expect(RULE("{file_exists: '{{dir}}/nothing*'}", "x"), "m/x.json",
	    "{}", false, "", "a pattern that matches nothing");
}

/* More than 64 files match a pattern: not decided, and said. */
static void
many_matches(void)
{
	char	name[32];
	int	i;

	for (i = 0; i < 70; i++) {
		snprintf(name, sizeof(name), "many/f%02d.txt", i);
		write_file(name, "x");
	}
	expect(RULE("{file_contains: {file: '*.txt', contains: [y]}}", "x"),
	    "many/r.md", "x", false, " ! reflexion-rules: t.yaml:5:12: rule "
	    "'r': more files than it may read on file_contains; counted as no "
	    "match\n", "past 64 files, undecided and said");
}

/* ---- languages, Check ------------------------------------------------------ */

static void
languages(void)
{
	static const char *y = "version: 1\nrules:\n  - id: r\n"
	    "    on: PreToolUse\n    action: deny\n"
	    "    message: {ko: '차단', en: blocked, pt-BR: bloqueado}\n";
	struct ruleset		 rs;
	struct diag_list	 dl;
	char			*got;
	size_t			 i;
	static const char *const want[][2] = {
		{ "", "deny:r:blocked" }, { "ko", "deny:r:차단" },
		{ "ko-KR", "deny:r:차단" }, { "pt", "deny:r:bloqueado" },
		{ "de", "deny:r:blocked" },
	};

	compile_text(&rs, &dl, y);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		got = run(&rs, "a", "x", false, want[i][0], false);
		is_str(got, want[i][1], "message in '%s'", want[i][0]);
		free(got);
	}
	diag_list_release(&dl);
	ruleset_release(&rs);
	/* NULL: the locale's */
	compile_text(&rs, &dl, y);
	setenv("LC_ALL", "ko_KR.UTF-8", 1);
	got = run(&rs, "a", "x", false, NULL, false);
	is_str(got, "deny:r:차단", "the locale picks, LC_ALL first");
	free(got);
	setenv("LC_ALL", "C", 1);
	got = run(&rs, "a", "x", false, NULL, false);
	is_str(got, "deny:r:blocked", "C: the default");
	free(got);
	rs.lang = "pt-BR";
	setenv("LC_ALL", "ko_KR.UTF-8", 1);
	got = run(&rs, "a", "x", false, NULL, false);
	is_str(got, "deny:r:bloqueado", "config.yaml's lang before the locale");
	free(got);
	setenv("LC_ALL", "C", 1);
	rs.lang = NULL;
	diag_list_release(&dl);
	ruleset_release(&rs);
}

static void
check_rules(void)
{
	static const char *y = "version: 1\nrules:\n  - id: r\n"
	    "    on: Check\n    action: deny\n    message: m\n";

	expect(y, "a", "x", false, "", "on: Check does not fire in the hook");
	expect(y, "a", "x", true, "deny:r:m", "on: Check fires under check");
}

int
main(void)
{
	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	setenv("LC_ALL", "C", 1);
	cutting();
	long_id();
	json_members();
	listed();
	templates();
	comparisons();
	block_conditions();
	decided_once();
	related();
	many_matches();
	languages();
	check_rules();
	{
		char *cmd = xasprintf("rm -rf '%s'", dir);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", dir);
		free(cmd);
	}
	return done_testing();
}
