/*
 * The prefilter property: for seeded random rule sets and events, the
 * rules that fire and their rendered messages are the same with every
 * prefilter on (index by event and tool, literal clauses, cheap
 * conditions first) as with them off, and the same again when the rule
 * set comes back from the compiled cache.
 */
#include <stdio.h>
#include <unistd.h>

#include "cache.h"
#include "helpers.h"
#include "jsonw.h"
#include "prefilter.h"
#include "randpat.h"
#include "tap.h"
#include "yamlw.h"

#define RULESETS	300
#define EVENTS		40

static const char *const events[] = {
	"PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit",
	"Stop", "SessionStart"
};
static const char *const tools[] = {
	"Bash", "Write", "Edit", "Task", "Agent", "mcp__gh__issue", "Read", ""
};

static void
yq_pattern(struct buf *b)
{
	struct buf	p;

	buf_init(&p);
	rp_pattern(&p);
	yamlw_scalar(b, p.data, p.len);
	buf_release(&p);
}

static void
yq_text(struct buf *b, unsigned max)
{
	struct buf	p;

	buf_init(&p);
	rp_text(&p, max);
	yamlw_scalar(b, p.data, p.len);
	buf_release(&p);
}

static void
yq_glob(struct buf *b)
{
	static const char *const parts[] = {
		"*", "**/", "?", "{a,b}", "[ab]", "a", "b", "s", "k", ".",
		"/", "\xc3\xa9", "-"
	};
	struct buf	p;
	unsigned	i;

	buf_init(&p);
	for (i = 1 + rnd(5); i > 0; i--)
		buf_adds(&p, parts[rnd(13)]);
	yamlw_scalar(b, p.data, p.len);
	buf_release(&p);
}

static void
list(struct buf *b, void (*item)(struct buf *), unsigned max)
{
	unsigned	i, n = 1 + rnd(max);

	buf_addc(b, '[');
	for (i = 0; i < n; i++) {
		if (i)
			buf_adds(b, ", ");
		item(b);
	}
	buf_addc(b, ']');
}

static void
short_text(struct buf *b)
{
	yq_text(b, 3);
}

static void
cond_map(struct buf *b, int depth);

static void
cond_value(struct buf *b, const char *key, int depth)
{
	bool	is_path = strcmp(key, "path") == 0;

	if (strcmp(key, "env") == 0) {
		buf_adds(b, rnd(2) ? "[RR_PF_SET]" : "[RR_PF_UNSET, RR_PF_SET]");
		return;
	}
	if (strcmp(key, "file_contains") == 0) {
		buf_adds(b, "[marker]");
		return;
	}
	if (strcmp(key, "not") == 0) {
		cond_map(b, depth + 1);
		return;
	}
	if (strcmp(key, "blocks") == 0) {
		/*
		 * A block's text is no field the prefilter scans, and every
		 * holds over no block at all: never ruled out by a literal.
		 */
		buf_printf(b, "{in: %s, %s: '(\\S+)', %s: {block: ",
		    (const char *[]){ "content", "command", "prompt",
		    "response", "file_after" }[rnd(5)], rnd(2) ? "start" :
		    "separator", rnd(3) ? "some" : "every");
		yq_pattern(b);
		if (rnd(2)) {
			buf_adds(b, ", content: ");
			yq_pattern(b);
		}
		buf_adds(b, rnd(3) ? "}}" : "}, unless: {block_id: x}}");
		return;
	}
	if (strcmp(key, "file_exists") == 0) {
		buf_adds(b, rnd(2) ? "'{{dir}}/none-{{name}}'" : "'/'");
		return;
	}
	if (strcmp(key, "json_file") == 0) {
		buf_adds(b, "{file: '{{dir}}/*.json', keys: [a], required: ");
		buf_adds(b, rnd(2) ? "true}" : "false}");
		return;
	}
	if (strcmp(key, "shell") == 0) {
		/* The words a shell map tests are not the text's literals. */
		buf_adds(b, "{program: ");
		buf_adds(b, (const char *[]){ "rm", "'g*'", "ls", "sudo",
		    "[rm, git]", "{regex: '^r'}", "{equals: RM, ignore_case: "
		    "true}", "python3", "sh", "git", "[git, hub]" }[rnd(11)]);
		if (rnd(2)) {
			buf_adds(b, ", args: ");
			yq_pattern(b);
		}
		if (rnd(2))
			buf_adds(b, ", flags: [-r]");
		if (rnd(3) == 0)
			buf_adds(b, (const char *[]){ ", subcommand: push",
			    ", subcommand: [status, rm]", ", subcommand: 'p*'",
			    ", subcommand: {regex: '^-'}" }[rnd(4)]);
		buf_addc(b, '}');
		return;
	}
	if (strcmp(key, "any") == 0 || strcmp(key, "all") == 0) {
		unsigned i, n = 1 + rnd(3);
		buf_addc(b, '[');
		for (i = 0; i < n; i++) {
			if (i)
				buf_adds(b, ", ");
			cond_map(b, depth + 1);
		}
		buf_addc(b, ']');
		return;
	}
	switch (rnd(5)) {
	case 0:
		/* Forms that hold when a pattern is missing, or test JSON. */
		if (is_path)
			break;
		buf_adds(b, rnd(2) ? "{contains: " : "{regex: ");
		list(b, rnd(2) ? short_text : yq_pattern, 2);
		buf_adds(b, ", required: true}");
		return;
	case 1:
		buf_adds(b, rnd(2) ? "{starts_with: " : "{ends_with: ");
		list(b, short_text, 2);
		buf_adds(b, rnd(2) ? ", ignore_case: true" : "");
		buf_adds(b, rnd(2) ? ", line: true}" : "}");
		return;
	case 2:
		if (!is_path) {
			buf_adds(b, rnd(2) ? "{json: {keys: [a]}}" :
			    "{json: {find: true, equals: {a: 1}}}");
			return;
		}
		break;
	default:
		break;
	}
	switch (rnd(is_path ? 7 : 6)) {
	case 0:
		if (is_path)
			list(b, yq_glob, 2);
		else
			yq_pattern(b);
		break;
	case 1:
		buf_adds(b, "{regex: ");
		list(b, yq_pattern, 3);
		buf_adds(b, rnd(2) ? ", ignore_case: true}" : "}");
		break;
	case 2:
		buf_adds(b, "{keywords: ");
		list(b, short_text, 3);
		buf_adds(b, rnd(2) ? ", word: true}" : "}");
		break;
	case 3:
		buf_adds(b, "{contains: ");
		list(b, short_text, 3);
		buf_adds(b, rnd(2) ? ", ignore_case: true}" : "}");
		break;
	case 4:
		buf_adds(b, "{equals: ");
		yq_text(b, 3);
		buf_adds(b, rnd(2) ? ", ignore_case: true}" : "}");
		break;
	case 5:
		yq_pattern(b);
		break;
	default:
		buf_adds(b, "{glob: ");
		list(b, yq_glob, 2);
		buf_adds(b, "}");
		break;
	}
}

static void
cond_map(struct buf *b, int depth)
{
	static const char *const keys[] = {
		"path", "content", "command", "prompt", "message", "error",
		"response", "tool", "input.command", "input.file_path",
		"old_content", "env", "file_contains", "shell", "file_after",
		"blocks", "file_exists", "json_file", "any", "all", "not"
	};
	unsigned	used = 0, i, k, n = 1 + rnd(3);

	buf_addc(b, '{');
	for (i = 0; i < n; i++) {
		k = rnd(depth < 2 ? 21 : 18);
		if (used & (1u << k))
			continue;
		if (used)
			buf_adds(b, ", ");
		used |= 1u << k;
		buf_adds(b, keys[k]);
		buf_adds(b, ": ");
		cond_value(b, keys[k], depth);
	}
	buf_addc(b, '}');
}

static void
gen_rules(struct buf *b, unsigned n)
{
	unsigned	i, ev, nev, j;
	bool		tool_events;

	buf_adds(b, "version: 1\nrules:\n");
	for (i = 0; i < n; i++) {
		buf_printf(b, "  - id: r%u\n    on: [", i);
		nev = 1 + rnd(2);
		tool_events = true;
		for (j = 0; j < nev; j++) {
			ev = rnd(6);
			if (ev >= 3)
				tool_events = false;
			buf_printf(b, "%s%s", j ? ", " : "", events[ev]);
		}
		buf_adds(b, "]\n");
		if (tool_events && rnd(3)) {
			buf_adds(b, "    tools: [");
			for (j = 0; j < 1 + rnd(2); j++)
				buf_printf(b, "%s'%s'", j ? ", " : "",
				    rnd(5) ? tools[rnd(7)] : "mcp__gh__*");
			buf_adds(b, "]\n");
		}
		if (rnd(6)) {
			buf_adds(b, "    when: ");
			if (rnd(5) == 0) {
				buf_addc(b, '[');
				cond_map(b, 1);
				buf_adds(b, ", ");
				cond_map(b, 1);
				buf_addc(b, ']');
			} else
				cond_map(b, 0);
			buf_addc(b, '\n');
		}
		if (rnd(4) == 0) {
			buf_adds(b, "    unless: ");
			cond_map(b, 1);
			buf_addc(b, '\n');
		}
		if (rnd(10) == 0)
			buf_adds(b, "    enabled: false\n");
		buf_printf(b, "    priority: %s\n", (const char *[]){ "critical",
		    "high", "medium", "low" }[rnd(4)]);
		buf_printf(b, "    action: %s\n    message: '%u {{rule}} "
		    "[{{match}}]'\n", rnd(2) ? "context" : "warn", i);
	}
}

static void
json_field(struct buf *b, const char *key, bool *first)
{
	struct buf	t;

	buf_init(&t);
	rp_text(&t, 8);
	buf_printf(b, "%s\"%s\":", *first ? "" : ",", key);
	jsonw_string(b, t.data, t.len);
	*first = false;
	buf_release(&t);
}

/*
 * A command of simple commands whose programs the reader finds only by
 * unwrapping, unquoting or aliasing, for the rules' shell maps: the
 * prefilter's programs must be the ones the map compares.
 */
static const char *const shell_parts[] = {
	"rm -r x", "sudo rm -rf /", "bash -c 'ls -la'", "r''m -r a",
	"\\rm b", "alias x=rm; x -r y", "echo rm", "env -i ls", "git status",
	"g\\it push -f", "ls | xargs rm", "find . -delete",
	"\"$(echo rm)\" -r z", "python3 -c 'import shutil; shutil.rmtree(\"/\")'",
	"/bin/rm -r c", "RM=rm; $RM -r d", "sh -c \"sudo ls\"",
	"eval 'rm -r e'", "echo 'rm -r f' | sh", "gsutil rm x", "command rm g",
	"LS", "Rm -r h", "xargs -I{} rm {}", "parallel rm ::: a b",
	"f() { rm -r \"$1\"; }; f i", "ssh host 'rm -r j'", "timeout 5 ls",
	"git -c alias.x='!rm -r k' x", "perl -e 'unlink \"l\"'",
	"git -C /p push -f", "git -c alias.p=push p", "sudo git rm -r m",
	"hub push", "git --no-pager status", "ls -- push", "git -- rm",
	"cp a ~/.ssh/id_rsa", "cat /etc/passwd > /tmp/x", "tee /etc/hosts",
	"chmod 600 ~/.ssh/config", "echo k > .env", "cd ~/.ssh && cat id_x",
	"sudo cp .env /etc/x1", "dd if=a of=/dev/sda",
};

static void
shell_field(struct buf *b, bool *first)
{
	struct buf	t;
	unsigned	i, n = 1 + rnd(3);

	buf_init(&t);
	for (i = 0; i < n; i++) {
		if (i)
			buf_adds(&t, (const char *[]){ " && ", "; ", " | ",
			    "\n" }[rnd(4)]);
		buf_adds(&t, shell_parts[rnd(sizeof(shell_parts) /
		    sizeof(shell_parts[0]))]);
	}
	buf_printf(b, "%s\"command\":", *first ? "" : ",");
	jsonw_string(b, t.data, t.len);
	*first = false;
	buf_release(&t);
}

static void
gen_event(struct buf *b)
{
	bool	first = true;
	int	t = (int)rnd(9);

	buf_printf(b, "{\"hook_event_name\":\"%s\",\"cwd\":\"/p\","
	    "\"session_id\":\"s\"", events[rnd(6)]);
	if (t < 8)
		buf_printf(b, ",\"tool_name\":\"%s\"", tools[t]);
	buf_adds(b, ",\"tool_input\":{");
	if (rnd(2))
		shell_field(b, &first);
	else if (rnd(2))
		json_field(b, "command", &first);
	if (rnd(3)) {
		struct buf	p;
		buf_init(&p);
		buf_adds(&p, rnd(2) ? "/p/" : "");
		rp_text(&p, 6);
		buf_printf(b, "%s\"file_path\":", first ? "" : ",");
		jsonw_string(b, p.data, p.len);
		first = false;
		buf_release(&p);
	}
	if (rnd(2))
		json_field(b, "content", &first);
	if (rnd(2))
		json_field(b, "new_string", &first);
	if (rnd(2))
		json_field(b, "old_string", &first);
	buf_addc(b, '}');
	first = false;
	if (rnd(2))
		json_field(b, "prompt", &first);
	if (rnd(2))
		json_field(b, "last_assistant_message", &first);
	if (rnd(2))
		json_field(b, "error", &first);
	if (rnd(2))
		json_field(b, "tool_response", &first);
	buf_addc(b, '}');
}

/* rs through the cache file path, decoded lazily; -1 if refused. */
static int
round_trip(const struct ruleset *rs, const struct diag_list *dl,
    const char *path, struct ruleset *rc, struct diag_list *dc)
{
	const struct cache_identity *id = cache_identity_current();
	struct manifest	 mf;
	char		*err = NULL;
	int		 rc_;

	manifest_init(&mf);
	rc_ = cache_write(path, "k", id, rs, dl, &mf, &err);
	manifest_release(&mf);
	if (rc_ == 0)
		rc_ = cache_open(rc, dc, path, "k", id, &err);
	if (rc_ < 0)
		printf("# cache: %s\n", err);
	free(err);
	return rc_;
}

struct batch {
	size_t	evs, fired, rules, diff, cdiff, refused, errors;
};

/* nsets random rule sets, EVENTS events each, with the current alphabet. */
static void
run_batch(size_t nsets, const char *path, struct batch *bt)
{
	struct ruleset		rs, rc;
	struct diag_list	dl, dc;
	struct buf		yaml, ev;
	char			*on, *off, *cached;
	size_t			sets;

	memset(bt, 0, sizeof(*bt));
	buf_init(&yaml);
	buf_init(&ev);
	for (sets = 0; sets < nsets; sets++) {
		buf_reset(&yaml);
		gen_rules(&yaml, 1 + rnd(30));
		compile_text(&rs, &dl, yaml.data);
		/*
		 * rp_pattern() may repeat a group name: PCRE2 says no.  Random
		 * fields on random tools draw lint's warnings: not errors.
		 */
		for (size_t d = 0; d < dl.n; d++)
			if (dl.items[d].severity == DIAG_ERROR &&
			    dl.items[d].code != DIAG_invalid_regex &&
			    bt->errors++ < 3) {
				char *sum = diag_summary(&dl);
				printf("# compile errors %s in:\n%s", sum,
				    yaml.data);
				free(sum);
			}
		ruleset_index(&rs);
		bt->rules += rs.n;
		if (round_trip(&rs, &dl, path, &rc, &dc) < 0)
			bt->refused++;
		for (size_t e = 0; e < EVENTS; e++, bt->evs++) {
			buf_reset(&ev);
			gen_event(&ev);
			on = eval_fired_text(&rs, ev.data, false);
			off = eval_fired_text(&rs, ev.data, true);
			cached = eval_fired_text(&rc, ev.data, false);
			if (strcmp(on, off) != 0 && bt->diff++ < 3)
				printf("# differs on %s\n# rules:\n%s"
				    "# with: %s# without: %s", ev.data,
				    yaml.data, on, off);
			if (strcmp(cached, off) != 0 && bt->cdiff++ < 3)
				printf("# cache differs on %s\n# rules:\n%s"
				    "# cached: %s# fresh: %s", ev.data,
				    yaml.data, cached, off);
			bt->fired += strchr(off, ':') != NULL;
			free(on);
			free(off);
			free(cached);
		}
		diag_list_release(&dc);
		ruleset_release(&rc);
		diag_list_release(&dl);
		ruleset_release(&rs);
	}
	buf_release(&yaml);
	buf_release(&ev);
}

/*
 * Characters whose simple case foldings meet across lengths and scripts:
 * literals with ignore_case and caseless regexes match them in eval, and
 * the prefilter's literals must never rule such a match out.
 */
static const char *const unicode_chars[] = {
	"\xc3\xbc", "\xc3\x9c",			/* u, U with diaeresis */
	"\xcf\x83", "\xcf\x82", "\xce\xa3",	/* sigma, final, capital */
	"\xc3\x9f", "\xe1\xba\x9e",		/* sharp s, capital */
	"\xc2\xb5", "\xce\xbc", "\xce\x9c",		/* micro, mu, Mu */
	"\xc4\xb0", "i", "I",			/* dotted I */
	"\xe2\x84\xaa", "k", "K", "\xc5\xbf", "s", "S", " "
};

/* The candidates of ev in the index as text, or "refused". */
static char *
candidates(const unsigned char *pf, size_t len, bool verify, const char *json)
{
	struct rr_event		 ev;
	struct pf_candidates	 c;
	struct buf		 b;
	char			*err = NULL;
	size_t			 i;

	buf_init(&b);
	if (event_parse(&ev, json, strlen(json), NULL, &err) < 0) {
		free(err);
		buf_adds(&b, "bad event");
		return buf_detach(&b, NULL);
	}
	if (pf_select(pf, len, verify, &ev, NULL, &c) < 0)
		buf_adds(&b, "refused");
	else {
		for (i = 0; i < c.n; i++)
			buf_printf(&b, "%zu ", c.rules[i]);
		pf_candidates_release(&c);
	}
	event_release(&ev);
	return buf_detach(&b, NULL);
}

/*
 * Shell maps of every program and subcommand form against every command
 * of shell_parts and every pair of them: the prefilter's programs and
 * subcommands of a command must be those the maps compare, simple
 * command by simple command (a pair puts the one that matters second).
 */
static void
shell_differential(void)
{
	static const char *const programs[] = {
		"rm", "git", "[git, hub]", "ls", "sudo", "sh", "python3",
		"find", "xargs", "'g*'", "{regex: '^r'}", "perl",
		"{equals: RM, ignore_case: true}",
	};
	static const char *const subcommands[] = {
		"", ", subcommand: push", ", subcommand: [status, rm]",
		", subcommand: 'p*'", ", subcommand: '-r'",
	};
	/* The files of a simple command, in a map and beside it. */
	static const char *const paths[] = {
		"{shell: {path: '**/.ssh/*'}}",
		"{shell: {read_path: {regex: '(^|/)(\\.env|passwd)$'}}}",
		"{shell: {path: {glob: '/etc/**', outside: [project]}, not: "
		"{program: chmod}}}",
		"{any: [{shell: {path: '**/.ssh/*'}}, {shell: {program: dd}}]}",
		"{all: [{not: {tool: Bash}}, {path: '**/id_*'}]}",
		"{shell: {all: [{program: [cp, tee]}, {path: '**/x*'}]}}",
	};
	struct ruleset		 rs;
	struct diag_list	 dl;
	struct buf		 yaml, ev, cmd;
	char			*on, *off;
	size_t			 i, j, n = 0, diff = 0, fired = 0;
	size_t			 np = sizeof(shell_parts) / sizeof(shell_parts[0]);

	buf_init(&yaml);
	buf_adds(&yaml, "version: 1\nrules:\n");
	for (i = 0; i < sizeof(programs) / sizeof(programs[0]); i++)
		for (j = 0; j < sizeof(subcommands) / sizeof(subcommands[0]);
		    j++)
			buf_printf(&yaml, "- {id: r%zu-%zu, on: PreToolUse, "
			    "action: ask, message: m, when: {shell: {program: "
			    "%s%s}}}\n", i, j, programs[i], subcommands[j]);
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		buf_printf(&yaml, "- {id: p%zu, on: PreToolUse, action: ask, "
		    "message: m, when: %s}\n", i, paths[i]);
	if (compile_text(&rs, &dl, yaml.data) != 0) {
		ok(0, "the shell maps compile");
		buf_release(&yaml);
		diag_list_release(&dl);
		return;
	}
	ruleset_index(&rs);
	buf_init(&ev);
	buf_init(&cmd);
	for (i = 0; i < np; i++)
		for (j = 0; j <= np; j++, n++) {
			buf_reset(&cmd);
			buf_adds(&cmd, shell_parts[i]);
			if (j < np) {
				buf_adds(&cmd, " && ");
				buf_adds(&cmd, shell_parts[j]);
			}
			buf_reset(&ev);
			buf_adds(&ev, "{\"hook_event_name\":\"PreToolUse\","
			    "\"cwd\":\"/p\",\"tool_name\":\"Bash\","
			    "\"tool_input\":{\"command\":");
			jsonw_string(&ev, cmd.data, cmd.len);
			buf_adds(&ev, "}}");
			on = eval_fired_text(&rs, ev.data, false);
			off = eval_fired_text(&rs, ev.data, true);
			if (strcmp(on, off) != 0 && diff++ < 3)
				printf("# differs on %s\n# with: %s# without:"
				    " %s", cmd.data, on, off);
			fired += strchr(off, ':') != NULL;
			free(on);
			free(off);
		}
	ok(fired > n / 2, "%zu of %zu commands fired a shell map", fired, n);
	is_int(diff, 0, "shell maps: prefilters on and off agree on %zu "
	    "commands", n);
	buf_release(&cmd);
	buf_release(&ev);
	buf_release(&yaml);
	diag_list_release(&dl);
	ruleset_release(&rs);
}

/*
 * Where the file system folds case (macOS, Windows), a path glob holds
 * whatever the case of the file's name: the prefilter's literals of
 * path and read_path, in a shell map or not, must be found so too.
 */
static void
path_case(void)
{
	static const char yaml[] =
	    "version: 1\nrules:\n"
	    "- {id: read-upper, on: PreToolUse, action: deny, message: m,\n"
	    "   when: {read_path: '**/.SSH/Id_*'}}\n"
	    "- {id: write-upper, on: PreToolUse, action: deny, message: m,\n"
	    "   when: {path: '**/MakeFile'}}\n"
	    "- {id: map-read-upper, on: PreToolUse, action: ask, message: m,\n"
	    "   when: {shell: {read_path: '**/Secrets/*'}}}\n";
	static const char *const evs[] = {
		"{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/p\","
		"\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":"
		"\"/p/.ssh/id_rsa\"}}",
		"{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/p\","
		"\"tool_name\":\"Bash\",\"tool_input\":{\"command\":"
		"\"cat .ssh/id_rsa secrets/a\"}}",
		"{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/p\","
		"\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":"
		"\"/p/makefile\",\"content\":\"x\"}}",
		"{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/p\","
		"\"tool_name\":\"Bash\",\"tool_input\":{\"command\":"
		"\"cp a makefile\"}}",
	};
	struct ruleset		 rs;
	struct diag_list	 dl;
	char			*on, *off;
	size_t			 i;

	if (compile_text(&rs, &dl, yaml) != 0) {
		ok(0, "the path rules compile");
		diag_list_release(&dl);
		return;
	}
	ruleset_index(&rs);
	setenv("REFLEXION_PATH_CASE", "insensitive", 1);
	for (i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		on = eval_fired_text(&rs, evs[i], false);
		off = eval_fired_text(&rs, evs[i], true);
		ok(strchr(off, ':') != NULL && strcmp(on, off) == 0,
		    "a file system that folds case: event %zu fires the same "
		    "rule with the prefilter (%.*s) and without (%.*s)", i,
		    (int)strcspn(on, "\n"), on, (int)strcspn(off, "\n"), off);
		free(on);
		free(off);
	}
	unsetenv("REFLEXION_PATH_CASE");
	diag_list_release(&dl);
	ruleset_release(&rs);
}

/*
 * The programs and subcommands a test says the reader found, as
 * eval_ctx.c gives them.
 */
struct found_words {
	const char	*programs, *subcommands, *want;
};

static bool
fixed_programs(void *arg, enum rr_field f, struct rr_text *out)
{
	const struct found_words	*w = arg;

	if (f != F_PROGRAMS && f != F_SUBCOMMANDS)
		return false;
	out->s = f == F_PROGRAMS ? w->programs : w->subcommands;
	out->len = strlen(out->s);
	return true;
}

/*
 * A shell map's program (subcommand) is a clause on the programs
 * (subcommands) the reader found: a Bash event reaches the maps of its
 * programs (in any case a rule folds), those of no program, and no
 * other; not the words of its text.
 */
static void
shell_programs(void)
{
	static const char yaml[] =
	    "version: 1\nrules:\n"
	    "- {id: rm, on: PreToolUse, tools: [Bash], action: deny, message: m,\n"
	    "   when: {shell: {program: rm, flags: [-r]}}}\n"
	    "- {id: git, on: PreToolUse, tools: [Bash], action: deny, message: m,\n"
	    "   when: {shell: {program: [git, hub], subcommand: push}}}\n"
	    "- {id: any-program, on: PreToolUse, tools: [Bash], action: ask, message: m,\n"
	    "   when: {shell: {args: '^/etc/'}}}\n"
	    "- {id: one-or-other, on: PreToolUse, tools: [Bash], action: ask, message: m,\n"
	    "   when: {any: [{shell: {program: dd}}, {command: mkfs}]}}\n"
	    "- {id: not-rm, on: PreToolUse, tools: [Bash], action: ask, message: m,\n"
	    "   when: {shell: {not: {program: rm}}}}\n"
	    "- {id: folded, on: PreToolUse, tools: [Bash], action: ask, message: m,\n"
	    "   when: {shell: {program: {equals: DEL, ignore_case: true}}}}\n";
	static const char ev[] = "{\"hook_event_name\":\"PreToolUse\","
	    "\"cwd\":\"/p\",\"tool_name\":\"Bash\",\"tool_input\":"
	    "{\"command\":\"echo rm git dd\"}}";
	static const struct found_words cases[] = {
		{ "echo\n", "rm\n", "2 4 " },
		{ "sudo\nrm\n", "rm\n-rf\n", "0 2 4 " },
		{ "ls\ngit\n", "status\n", "2 4 " },
		{ "ls\ngit\n", "-la\npush\n", "1 2 4 " },
		{ "hub\n", "push\n", "1 2 4 " },
		{ "dd\n", "", "2 3 4 " },
		{ "del\n", "", "2 4 5 " },
		{ "", "", "2 4 " },
	};
	struct ruleset		 rs;
	struct diag_list	 dl;
	struct rr_event		 e;
	struct pf_candidates	 c;
	struct pf_lazy		 lazy = { fixed_programs, NULL };
	struct buf		 got;
	char			*err = NULL;
	size_t			 i, k;

	if (compile_text(&rs, &dl, yaml) != 0 || rs.n != 6) {
		ok(0, "the shell map rules compile");
		diag_list_release(&dl);
		return;
	}
	ruleset_index(&rs);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (event_parse(&e, ev, strlen(ev), NULL, &err) < 0) {
			ok(0, "the event parses: %s", err);
			free(err);
			break;
		}
		lazy.arg = (void *)&cases[i];
		buf_init(&got);
		if (pf_select(rs.pf, rs.pflen, true, &e, &lazy, &c) < 0)
			buf_adds(&got, "refused");
		else {
			for (k = 0; k < c.n; k++)
				buf_printf(&got, "%zu ", c.rules[k]);
			pf_candidates_release(&c);
		}
		buf_addc(&got, '\0');
		is_str(got.data, cases[i].want, "programs '%.*s', "
		    "subcommands '%.*s': the maps of those, of none, and no "
		    "other", (int)strcspn(cases[i].programs, "\n"),
		    cases[i].programs, (int)strcspn(cases[i].subcommands,
		    "\n"), cases[i].subcommands);
		buf_release(&got);
		event_release(&e);
	}
	diag_list_release(&dl);
	ruleset_release(&rs);
}

/*
 * Every byte of an index changed in turn: read with its checksums, each
 * change is refused or gives the same candidates; read without them (a
 * cache file whose stamp holds), it never crashes (the sanitizer builds
 * run this), whatever candidates it gives.
 */
static void
corrupt_index(void)
{
	static const char *const evs[] = {
		"{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/p\","
		"\"tool_name\":\"Bash\",\"tool_input\":{\"command\":"
		"\"git push --force origin && rm -rf build\"}}",
		"{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/p\","
		"\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":"
		"\"/p/src/.env\",\"content\":\"API_KEY=1 password: x\"}}",
		"{\"hook_event_name\":\"UserPromptSubmit\",\"cwd\":\"/p\","
		"\"prompt\":\"deploy the backend database\"}",
		"{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/p\","
		"\"tool_name\":\"mcp__gh__issue\",\"tool_input\":{}}",
	};
	struct ruleset		 rs;
	struct diag_list	 dl;
	struct buf		 yaml;
	unsigned char		*copy;
	char			*want[4], *got;
	size_t			 off, e, changed = 0, wrong = 0, runs = 0;

	buf_init(&yaml);
	rp_seed(7);
	gen_rules(&yaml, 40);
	compile_text(&rs, &dl, yaml.data);
	ruleset_index(&rs);
	for (e = 0; e < 4; e++)
		want[e] = candidates(rs.pf, rs.pflen, true, evs[e]);
	copy = xmalloc(rs.pflen);
	for (off = 0; off < rs.pflen; off++) {
		memcpy(copy, rs.pf, rs.pflen);
		copy[off] ^= (unsigned char)(0x01 << (off % 8)) | 0x80;
		for (e = 0; e < 4; e++, runs++) {
			got = candidates(copy, rs.pflen, true, evs[e]);
			if (strcmp(got, "refused") != 0 &&
			    strcmp(got, want[e]) != 0 && wrong++ < 3)
				printf("# checked, byte %zu: %s, not %s\n", off,
				    got, want[e]);
			free(got);
			got = candidates(copy, rs.pflen, false, evs[e]);
			changed += strcmp(got, want[e]) != 0;
			free(got);
		}
	}
	ok(rs.pflen > 1000, "an index of %zu bytes", rs.pflen);
	is_int(wrong, 0, "each byte changed, read with checksums: refused or "
	    "the same candidates (%zu reads)", runs);
	ok(1, "read without them: no crash (%zu of %zu reads differ)",
	    changed, runs);
	for (e = 0; e < 4; e++)
		free(want[e]);
	free(copy);
	buf_release(&yaml);
	diag_list_release(&dl);
	ruleset_release(&rs);
}

int
main(void)
{
	struct batch	 bt;
	char		*path, dir[] = "/tmp/rr-pf.XXXXXX";

	setenv("RR_PF_SET", "1", 1);
	unsetenv("RR_PF_UNSET");
	unsetenv("REFLEXION_NO_PREFILTER");
	if (mkdtemp(dir) == NULL)
		return 1;
	path = xasprintf("%s/c.rrc", dir);
	rp_seed(2026);
	run_batch(RULESETS, path, &bt);
	ok(bt.rules > 2000, "compiled %zu random rules", bt.rules);
	is_int(bt.errors, 0, "the random rules compile (bar invalid regexes)");
	ok(bt.fired > bt.evs / 4, "%zu of %zu events fired a rule", bt.fired,
	    bt.evs);
	is_int(bt.diff, 0, "prefilters on and off agree on %zu events",
	    bt.evs);
	is_int(bt.refused, 0, "every random rule set went through the cache");
	is_int(bt.cdiff, 0, "the cache agrees with a fresh compile on %zu "
	    "events", bt.evs);

	/* A file system that folds case: paths match whatever their case. */
	setenv("REFLEXION_PATH_CASE", "insensitive", 1);
	rp_seed(2029);
	run_batch(RULESETS / 3, path, &bt);
	is_int(bt.diff, 0, "a file system that folds case: prefilters on and "
	    "off agree on %zu events", bt.evs);
	is_int(bt.cdiff, 0, "a file system that folds case: the cache agrees "
	    "on %zu events", bt.evs);
	unsetenv("REFLEXION_PATH_CASE");

	rp_seed(2027);
	rp_alphabet(unicode_chars, sizeof(unicode_chars) /
	    sizeof(unicode_chars[0]));
	run_batch(RULESETS / 3, path, &bt);
	is_int(bt.errors, 0, "non-ASCII: the random rules compile");
	ok(bt.fired > bt.evs / 4, "non-ASCII: %zu of %zu events fired a rule",
	    bt.fired, bt.evs);
	is_int(bt.diff, 0, "non-ASCII: prefilters on and off agree on %zu "
	    "events", bt.evs);
	is_int(bt.cdiff, 0, "non-ASCII: the cache agrees on %zu events",
	    bt.evs);
	unlink(path);
	rmdir(dir);
	free(path);
	shell_programs();
	shell_differential();
	path_case();
	rp_seed(2028);
	rp_alphabet(rp_chars, RP_NCHARS);
	corrupt_index();
	return done_testing();
}
