/* The compiler: every diagnostic, with its position; what compiles. */
#include "helpers.h"
#include "tap.h"
#include "glob.h"

#define HEAD "version: 1\nrules:\n"

static void
expect_diags(const char *yaml, const char *want, const char *what)
{
	struct ruleset		rs;
	struct diag_list	dl;
	char			*got;

	compile_text(&rs, &dl, yaml);
	got = diag_summary(&dl);
	is_str(got, want, "%s", what);
	free(got);
	diag_list_release(&dl);
	ruleset_release(&rs);
}

/*
 * $REFLEXION_DIRS with places pl: the path matcher of the only rule of
 * "path: $REFLEXION_DIRS" (or of a vars: list holding it) tested against
 * path.
 */
static int
places_match(const struct rule_places *pl, const char *yaml, const char *path)
{
	struct ruleset		 rs;
	struct diag_list	 dl;
	const struct cond	*c;
	const struct matcher	*m;
	size_t			 i;
	int			 hit = 0;

	ruleset_init(&rs);
	diag_list_init(&dl);
	rs.places = pl;
	ruleset_add_yaml(&rs, "t.yaml", yaml, strlen(yaml), 1, &dl);
	rs.places = NULL;
	if (dl.errors != 0 || rs.n != 1 || rs.rules[0]->when == NULL) {
		hit = -1;
		goto out;
	}
	c = rs.rules[0]->when;
	while (c->kind == C_ALL && c->nkids == 1)
		c = c->kids[0];
	if (c->kind != C_TEXT || c->field != F_PATH) {
		hit = -1;
		goto out;
	}
	m = &c->m;
	for (i = 0; i < m->npats; i++)
		if (rr_glob_match(m->pats[i].glob, path, strlen(path)))
			hit = 1;
out:
	diag_list_release(&dl);
	ruleset_release(&rs);
	return hit;
}

int
main(void)
{
	struct ruleset		 rs;
	struct diag_list	 dl;
	const struct rule	*r;
	const char		*layer_a = HEAD "  - id: x\n    on: Stop\n"
	    "    action: warn\n    message: one\n";
	const char		*layer_b = HEAD "  - id: x\n    on: Stop\n"
	    "    action: warn\n    message: two\n";

	/* The rule language's own example (README.md) compiles cleanly. */
	is_int(compile_text(&rs, &dl,
	    "version: 1\npack: team-db\nvars:\n  calls: ['prisma\\.', '\\.findMany\\(']\n"
	    "rules:\n"
	    "  - id: database-verification\n    on: PreToolUse\n"
	    "    tools: [Edit, Write, MultiEdit]\n    priority: critical\n"
	    "    when:\n      path: ['database/src/**/*.ts']\n"
	    "      content: { regex: $calls, ignore_case: true }\n"
	    "    unless:\n      path: ['**/*.test.ts']\n"
	    "      file_contains: ['@skip-validation']\n      env: [SKIP_DB]\n"
	    "    once: session\n    action: deny\n    message: 'File: {{path}}'\n"
	    "    tests:\n      - event: {tool_name: Edit}\n        expect: deny\n"), 0,
	    "the language example compiles");
	is_int(rs.n, 1, "one rule");
	r = rs.rules[0];
	is_str(r->id, "team-db/database-verification", "pack namespaces the id");
	is_int(r->priority, PRI_CRITICAL, "priority");
	is_int(r->once, ONCE_SESSION, "once");
	is_int(r->ntools, 3, "three tools");
	ok(r->when && r->when->kind == C_ALL && r->when->nkids == 2,
	    "when is an AND of two conditions");
	is_int(r->when->kids[1]->m.npats, 2, "$calls expanded to 2 regexes");
	ok(r->when->kids[1]->m.ignore_case, "ignore_case kept");
	ok(r->unless && r->unless->kind == C_ANY && r->unless->nkids == 3,
	    "unless is an OR of three conditions");
	is_int(r->ntests, 1, "one test");
	diag_list_release(&dl);
	ruleset_release(&rs);

	expect_diags(HEAD "  - id: a\n    on: PreToolUse\n    tool: [Bash]\n"
	    "    action: allow\n", "RR0101@5:5", "unknown rule key");
	expect_diags("version: 1\nrulez: []\n", "RR0103@1:1 RR0101@2:1",
	    "unknown top key, and rules missing");
	expect_diags(HEAD "  - id: a\n    on: PreToolUse\n    action: deny\n",
	    "RR0109@5:13", "deny without a message");
	expect_diags(HEAD "  - id: a\n    on: [PreToolUse, Stpo]\n"
	    "    action: warn\n    message: m\n", "RR0107@4:22", "unknown event");
	expect_diags(HEAD "  - id: a\n    on: Stop\n    action: block\n",
	    "RR0108@5:13", "unknown action");
	expect_diags(HEAD "  - id: a\n    on: Stop\n    action: warn\n"
	    "    message: m\n  - id: a\n    on: Stop\n    action: warn\n"
	    "    message: m\n", "RR0104@7:9", "duplicate id");
	expect_diags(HEAD "  - id: a\n    on: PreToolUse\n    when:\n"
	    "      command: 'ab(c'\n    action: warn\n    message: m\n",
	    "RR0201@6:21", "invalid regex points into the pattern");
	expect_diags(HEAD "  - id: a\n    on: PreToolUse\n    when:\n"
	    "      command: ab(c\n    action: warn\n    message: m\n",
	    "RR0201@6:20", "plain scalar: no quote to skip");
	expect_diags(HEAD "  - id: a\n    on: PreToolUse\n    when:\n"
	    "      path: 'src/[ab'\n    action: warn\n    message: m\n",
	    "RR0202@6:18", "invalid glob");
	expect_diags(HEAD "  - id: a\n    on: PreToolUse\n    when:\n"
	    "      comand: x\n    action: warn\n    message: m\n",
	    "RR0203@6:7", "unknown field");
	expect_diags(HEAD "  - id: a\n    on: Stop\n    action: warn\n"
	    "    message: 'x {{nope}}'\n", "RR0204@6:17",
	    "unknown template variable");
	expect_diags(HEAD "  - id: a\n    on: Stop\n    action: warn\n"
	    "    message: 'x {{path'\n", "RR0204@6:17", "unterminated template");
	expect_diags(HEAD "  - id: a\n    on: PreToolUse\n    when:\n"
	    "      command: $nope\n    action: warn\n    message: m\n",
	    "RR0110@6:16", "unknown $var");
	expect_diags(HEAD "  - id: 'a b'\n    on: Stop\n    action: warn\n"
	    "    message: m\n", "RR0111@3:9", "bad id");
	expect_diags(HEAD "  - id: a\n    on: UserPromptSubmit\n"
	    "    action: ask\n    message: m\n", "RR0112@5:13",
	    "ask on a prompt");
	expect_diags(HEAD "  - id: a\n    on: SessionStart\n"
	    "    action: deny\n    message: m\n", "RR0112@5:13",
	    "deny on SessionStart");
	expect_diags(HEAD "  - id: a\n    on: UserPromptSubmit\n    tools: [Bash]\n"
	    "    action: context\n    message: m\n", "RR0112@6:13",
	    "tools on a prompt rule");
	expect_diags(HEAD "  - id: a\n    on: Stop\n    action: suggest\n",
	    "RR0103@5:13", "suggest without a skill");
	expect_diags(HEAD "  - id: a\n    on: PreToolUse\n    when:\n"
	    "      command: {keywords: []}\n    action: warn\n    message: m\n",
	    "RR0205@6:27", "empty keyword list");
	expect_diags(HEAD "  - id: a\n    on: PreToolUse\n    when:\n"
	    "      command: {regex: x, contains: y}\n    action: warn\n"
	    "    message: m\n", "RR0106@6:16", "two matcher kinds");
	expect_diags(HEAD "  - id: a\n    on: PreToolUse\n    when:\n"
	    "      command: {regex: x, word: true}\n    action: warn\n"
	    "    message: m\n", "RR0106@6:33", "word on a regex");
	expect_diags(HEAD "  - id: a\n    on: PreToolUse\n    priority: urgent\n"
	    "    action: allow\n", "RR0106@5:15", "bad priority");
	expect_diags(HEAD "  - id: a\n    on: PreToolUse\n    once: always\n"
	    "    action: allow\n", "RR0106@5:11", "bad once");
	expect_diags(HEAD "  - id: a\n    on: PreToolUse\n    enabled: yes\n"
	    "    action: allow\n", "RR0102@5:14", "enabled must be a boolean");
	expect_diags(HEAD "  - id: a\n    on: PreToolUse\n    action: allow\n"
	    "    tests:\n      - event: {tool_name: Bash}\n        expect: maybe\n",
	    "RR0106@8:17", "bad expect");
	expect_diags("version: 2\nrules: []\n", "RR0106@1:10", "version 2");
	expect_diags("- a\n- b\n", "RR0102@1:1", "a list at the top");
	expect_diags("", "RR0103@0:0", "empty file");
	expect_diags(HEAD "  - id: a\n    on: PreToolUse\n    when:\n"
	    "      not: [x]\n    action: allow\n", "RR0102@6:12",
	    "not takes a map");
	expect_diags(HEAD "  - id: a\n    on: PreToolUse\n    when:\n"
	    "      kb: file_erors\n    action: allow\n", "RR0511@6:11",
	    "an unknown kb query");
	/* Several errors in one file are all reported, in order. */
	expect_diags(HEAD "  - id: a\n    on: Stpo\n    action: dney\n"
	    "  - id: b\n    on: PreToolUse\n    action: deny\n",
	    "RR0107@4:9 RR0108@5:13 RR0109@8:13", "every error, sorted");

	/* A broken rule is left out; its neighbours are kept. */
	compile_text(&rs, &dl, HEAD "  - id: good\n    on: Stop\n    action: warn\n"
	    "    message: m\n  - id: bad\n    on: Stop\n    action: warn\n");
	is_int(rs.n, 1, "the good rule survives a broken neighbour");
	diag_list_release(&dl);
	ruleset_release(&rs);

	/*
	 * A later layer of the same trust overrides by id (a user's rule
	 * redefines a pack's); the same layer may not.  Less trusted layers:
	 * test_layers.c.
	 */
	ruleset_init(&rs);
	diag_list_init(&dl);
	ruleset_add_yaml(&rs, "a.yaml", layer_a, strlen(layer_a), LAYER_PACK,
	    &dl);
	ruleset_add_yaml(&rs, "b.yaml", layer_b, strlen(layer_b), LAYER_USER,
	    &dl);
	ok(rs.n == 1 && dl.n == 0 && strcmp(rs.rules[0]->file, "b.yaml") == 0,
	    "a later layer replaces a rule by id");
	diag_list_release(&dl);
	ruleset_release(&rs);

	/*
	 * A rule left out for an error keeps its id: in another file of the
	 * same layer, a rule with that id is a duplicate; in a later layer
	 * of the same trust, it overrides as usual.
	 */
	{
		const char *broken = HEAD "  - id: x\n    on: Stop\n"
		    "    action: warn\n    message: '{{nosuch}}'\n";
		char *got;

		ruleset_init(&rs);
		diag_list_init(&dl);
		ruleset_add_yaml(&rs, "a.yaml", broken, strlen(broken),
		    LAYER_PACK, &dl);
		ruleset_add_yaml(&rs, "b.yaml", layer_b, strlen(layer_b),
		    LAYER_PACK, &dl);
		got = diag_summary(&dl);
		is_str(got, "RR0204@6:15 RR0104@3:9", "a duplicate of a "
		    "broken rule in another file of the layer is reported");
		ok(rs.n == 0 && strstr(dl.items[1].message, "a.yaml:3") != NULL,
		    "it names the first and is left out (%s)",
		    dl.items[1].message);
		free(got);
		ruleset_add_yaml(&rs, "c.yaml", layer_b, strlen(layer_b),
		    LAYER_USER, &dl);
		ok(rs.n == 1 && dl.errors == 2, "a later layer still overrides "
		    "a broken rule's id");
		diag_list_release(&dl);
		ruleset_release(&rs);
	}
	/* The built-in $REFLEXION_DIRS: the engine's directories as globs. */
	{
		static const char *const srcs[] = { "/srv/team rules[1]" };
		struct rule_places pl = { "/h/.reflexion", "/etc/rr",
		    "/usr/share/rr/rules", srcs, 1 };
		const char *y = HEAD "  - id: p\n    on: PreToolUse\n"
		    "    when: {path: $REFLEXION_DIRS}\n    action: deny\n"
		    "    message: m\n";
		const char *yv = "version: 1\nvars:\n  mine: [$REFLEXION_DIRS,"
		    " '**/x']\nrules:\n  - id: p\n    on: PreToolUse\n"
		    "    when: {path: $mine}\n    action: deny\n"
		    "    message: m\n";
		const char *yo = "version: 1\nvars:\n  REFLEXION_DIRS: '**/y'"
		    "\nrules:\n  - id: p\n    on: PreToolUse\n"
		    "    when: {path: $REFLEXION_DIRS}\n    action: deny\n"
		    "    message: m\n";

		is_int(places_match(&pl, y, "/h/.reflexion/config.yaml"), 1,
		    "$REFLEXION_DIRS: a file in the home");
		is_int(places_match(&pl, y, "/h/.reflexion"), 1,
		    "$REFLEXION_DIRS: the home itself");
		is_int(places_match(&pl, y, "/h/.reflexionx/a"), 0,
		    "$REFLEXION_DIRS: not a sibling that shares the prefix");
		is_int(places_match(&pl, y, "/etc/rr/rules/a.yaml"), 1,
		    "$REFLEXION_DIRS: the system directory");
		is_int(places_match(&pl, y, "/usr/share/rr/rules/x.yaml"), 1,
		    "$REFLEXION_DIRS: the packs");
		is_int(places_match(&pl, y, "/srv/team rules[1]/a.yaml"), 1,
		    "$REFLEXION_DIRS: a pinned source, glob characters escaped");
		is_int(places_match(&pl, y, "/srv/team rules1/a.yaml"), 0,
		    "$REFLEXION_DIRS: brackets are not a class");
		is_int(places_match(&pl, yv, "/etc/rr/config.yaml"), 1,
		    "$REFLEXION_DIRS inside a vars: list");
		is_int(places_match(&pl, yv, "a/x"), 1,
		    "... with the list's other items");
		is_int(places_match(&pl, yo, "/h/.reflexion/config.yaml"), 0,
		    "a file's own vars: entry of the name wins");
		is_int(places_match(NULL, y, "/h/.reflexion/config.yaml"), 0,
		    "$REFLEXION_DIRS without places is empty, not an error");
	}
	return done_testing();
}
