/*
 * Layers and trust (reflexion-rules(5), LAYERS AND TRUST), below the
 * CLI: what a rule of a less trusted layer may do to one of a more
 * trusted layer with its id (nothing, unless that rule is overridable
 * and not locked), a rule that only disables another, the warnings
 * about locks and allows that approve everything, an allow of an
 * untrusted project counting as no decision, and the digest of a pinned
 * source.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "helpers.h"
#include "pinned.h"
#include "sha256.h"
#include "tap.h"

#define HEAD	"version: 1\nrules:\n"
#define GUARD	"  - id: guard\n    on: PreToolUse\n    tools: [Bash]\n" \
		"    when: {command: 'git push --force'}\n    action: deny\n" \
		"    message: no force push\n"
#define PUSH	"{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/p\"," \
		"\"tool_name\":\"Bash\",\"tool_input\":{\"command\":" \
		"\"git push --force origin main\"}}"
#define LS	"{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/p\"," \
		"\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}"

struct layer_file {
	const char	*name;
	int		 layer;
	const char	*yaml;
};

/* Compiles the files in order into rs; "code@line:col" of each diag. */
static char *
load(struct ruleset *rs, struct diag_list *dl, const struct layer_file *f,
    size_t n)
{
	size_t	i;

	ruleset_init(rs);
	diag_list_init(dl);
	for (i = 0; i < n; i++)
		ruleset_add_yaml(rs, f[i].name, f[i].yaml, strlen(f[i].yaml),
		    f[i].layer, dl);
	diag_sort(dl);
	return diag_summary(dl);
}

/* The summary of loading f, then what PUSH gives, as "diags | fired". */
static char *
outcome(const struct layer_file *f, size_t n, bool trusted)
{
	struct ruleset		 rs;
	struct diag_list	 dl;
	char			*d, *e, *s;

	d = load(&rs, &dl, f, n);
	rs.project_trusted = trusted;
	e = eval_summary(&rs, PUSH);
	s = xasprintf("%s | %s", d, e);
	free(d);
	free(e);
	diag_list_release(&dl);
	ruleset_release(&rs);
	return s;
}

static void
overrides(void)
{
	struct layer_file	 f[3];
	struct ruleset		 rs;
	struct diag_list	 dl;
	char			*s;

	f[0] = (struct layer_file){ "user.yaml", LAYER_USER, HEAD GUARD };
	f[1] = (struct layer_file){ "p.yaml", LAYER_PROJECT, HEAD
	    "  - id: guard\n    enabled: false\n" };
	s = outcome(f, 2, false);
	is_str(s, "RR0701@3:9 | deny:guard", "a project's 'enabled: false' "
	    "of a user's rule is refused at its id; the guard holds");
	free(s);
	s = load(&rs, &dl, f, 2);
	ok(dl.n == 1 && strstr(dl.items[0].message, "user.yaml:3") != NULL &&
	    strstr(dl.items[0].message, "not overridable") != NULL &&
	    strcmp(dl.items[0].file, "p.yaml") == 0,
	    "the error is in the project's file and names the trusted rule's "
	    "file and line: %s", dl.items[0].message);
	ok(dl.items[0].source_line != NULL &&
	    strstr(dl.items[0].source_line, "id: guard") != NULL,
	    "with the line of the id, for the caret");
	free(s);
	diag_list_release(&dl);
	ruleset_release(&rs);

	f[1].yaml = HEAD "  - id: guard\n    on: PreToolUse\n"
	    "    action: context\n    message: weaker\n";
	s = outcome(f, 2, false);
	is_str(s, "RR0701@3:9 | deny:guard", "a weaker rule of the same id "
	    "is refused");
	free(s);
	f[1].layer = LAYER_LOCAL;
	s = outcome(f, 2, true);
	is_str(s, "RR0701@3:9 | deny:guard", "from the local rules too");
	free(s);
	f[1].layer = LAYER_SKILL_RULES;
	s = outcome(f, 2, true);
	is_str(s, "RR0701@3:9 | deny:guard", "and from skill-rules.json's "
	    "layer");
	free(s);

	/* Same trust: the user customizes a pack's rule. */
	f[0].layer = LAYER_PACK;
	f[1] = (struct layer_file){ "u.yaml", LAYER_USER, HEAD
	    "  - id: guard\n    enabled: false\n" };
	s = outcome(f, 2, false);
	is_str(s, " | ", "the user's rules disable a pack's rule by its id");
	free(s);
	f[1].layer = LAYER_PINNED;
	s = outcome(f, 2, false);
	is_str(s, " | ", "so do pinned sources, of the user's trust");
	free(s);
	f[0].layer = LAYER_SYSTEM;
	f[1].layer = LAYER_USER;
	s = outcome(f, 2, false);
	is_str(s, "RR0701@3:9 | deny:guard", "the system's rules are beyond "
	    "the user's");
	free(s);

	/* overridable: true lets less trusted layers replace or disable. */
	f[0] = (struct layer_file){ "user.yaml", LAYER_USER, HEAD GUARD
	    "    overridable: true\n" };
	f[1] = (struct layer_file){ "p.yaml", LAYER_PROJECT, HEAD
	    "  - id: guard\n    enabled: false\n" };
	s = outcome(f, 2, false);
	is_str(s, " | ", "'enabled: false' alone disables an overridable "
	    "rule");
	free(s);
	s = load(&rs, &dl, f, 2);
	ok(rs.n == 1 && !rs.rules[0]->enabled && rs.rules[0]->action ==
	    ACT_DENY && strcmp(rs.rules[0]->file, "p.yaml") == 0 &&
	    rs.rules[0]->layer == LAYER_PROJECT && rs.rules[0]->ntests == 0,
	    "it is that rule, disabled, from the project's file");
	free(s);
	diag_list_release(&dl);
	ruleset_release(&rs);
	f[1].yaml = HEAD "  - id: guard\n    on: PreToolUse\n    tools: [Bash]\n"
	    "    action: warn\n    message: replaced\n";
	s = outcome(f, 2, false);
	is_str(s, " | warn:guard", "and a whole rule replaces it");
	free(s);
	/* A third layer: the project's replacement is its own to open. */
	f[2] = (struct layer_file){ "l.yaml", LAYER_LOCAL, HEAD
	    "  - id: guard\n    enabled: false\n" };
	s = outcome(f, 3, false);
	is_str(s, "RR0701@3:9 | warn:guard", "a replacement that is not "
	    "overridable itself holds against the local rules");
	free(s);

	/* locked beats overridable, on a rule or a whole file. */
	f[0].yaml = HEAD GUARD "    overridable: true\n    locked: true\n";
	f[1].yaml = HEAD "  - id: guard\n    enabled: false\n";
	s = outcome(f, 2, false);
	is_str(s, "RR0701@3:9 RR0704@9:5 | deny:guard", "a locked rule that "
	    "says overridable: warned about, and refused");
	free(s);
	f[0].yaml = "version: 1\nlocked: true\nrules:\n" GUARD
	    "    overridable: true\n";
	s = outcome(f, 2, false);
	is_str(s, "RR0701@3:9 RR0704@10:5 | deny:guard", "a locked file "
	    "locks its rules, overridable or not");
	free(s);
	f[0].yaml = "version: 1\nlocked: true\nrules:\n" GUARD
	    "    locked: false\n";
	s = outcome(f, 2, false);
	is_str(s, "RR0701@3:9 RR0704@10:13 | deny:guard", "'locked: false' "
	    "in a locked file: warned about, still locked");
	free(s);
	s = load(&rs, &dl, f, 1);
	ok(rs.n == 1 && rs.rules[0]->locked && !rs.rules[0]->overridable,
	    "the rule is locked");
	free(s);
	diag_list_release(&dl);
	ruleset_release(&rs);
}

static void
stubs_and_broken(void)
{
	struct layer_file	 f[2];
	char			*s;

	f[0] = (struct layer_file){ "user.yaml", LAYER_USER, HEAD GUARD };
	f[1] = (struct layer_file){ "p.yaml", LAYER_PROJECT, HEAD
	    "  - id: nothing\n    enabled: false\n" };
	s = outcome(f, 2, false);
	is_str(s, "RR0705@3:9 | deny:guard", "disabling an id no earlier "
	    "source has: a warning, nothing added");
	free(s);
	f[1].yaml = HEAD "  - id: guard\n    enabled: false\n"
	    "    when: {command: x}\n";
	s = outcome(f, 2, false);
	is_str(s, "RR0101@5:5 | deny:guard", "a rule that only disables "
	    "takes no conditions");
	free(s);
	f[0].yaml = HEAD GUARD "    overridable: true\n";
	f[1].yaml = HEAD "  - id: guard\n    enabled: false\n"
	    "  - id: guard\n    enabled: false\n";
	s = outcome(f, 2, false);
	is_str(s, "RR0104@5:9 | ", "the same id twice in one file is a "
	    "duplicate, disabling or not");
	free(s);
	/* A trusted rule with an error is left out; its id stays guarded. */
	f[0].yaml = HEAD GUARD "    bogus: 1\n";
	f[1].yaml = HEAD "  - id: guard\n    on: PreToolUse\n"
	    "    action: allow\n    when: {command: git}\n";
	s = outcome(f, 2, true);
	is_str(s, "RR0701@3:9 RR0101@9:5 | ", "the id of a broken trusted "
	    "rule cannot be taken over either");
	free(s);
	/* --rules is one layer: the same id twice is a duplicate. */
	f[0] = (struct layer_file){ "a.yaml", LAYER_CLI, HEAD GUARD };
	f[1] = (struct layer_file){ "b.yaml", LAYER_CLI, HEAD
	    "  - id: guard\n    enabled: false\n" };
	s = outcome(f, 2, false);
	is_str(s, "RR0104@3:9 | deny:guard", "--rules: a duplicate");
	free(s);
}

static void
allows(void)
{
	struct layer_file	 f[2];
	struct ruleset		 rs;
	struct diag_list	 dl;
	struct rr_event		 ev;
	struct eval_outcome	 out;
	struct eval_opts	 eo;
	struct buf		 trace;
	char			*s, *err = NULL;

	f[0] = (struct layer_file){ "user.yaml", LAYER_USER, HEAD GUARD };
	f[1] = (struct layer_file){ "p.yaml", LAYER_PROJECT, HEAD
	    "  - id: yes\n    on: PreToolUse\n    action: allow\n" };
	s = load(&rs, &dl, f, 2);
	is_str(s, "RR0703@5:13", "an allow without 'when' is warned about");
	ok(dl.n == 1 && dl.items[0].severity == DIAG_WARNING &&
	    strstr(dl.items[0].message, "project's") != NULL,
	    "a warning, louder for the project: %s", dl.items[0].message);
	free(s);
	free(eval_summary(&rs, LS));
	s = eval_summary(&rs, LS);
	is_str(s, "", "an untrusted project's allow is no decision");
	free(s);
	s = eval_summary(&rs, PUSH);
	is_str(s, "deny:guard", "the user's deny holds");
	free(s);
	/* The note on stderr and the explain line. */
	event_parse(&ev, LS, strlen(LS), "/p", &err);
	memset(&eo, 0, sizeof(eo));
	buf_init(&trace);
	eo.explain = &trace;
	eval_outcome_init(&out);
	eval_event(&rs, &ev, &eo, &out);
	ok(out.nfired == 0 && out.notes.data != NULL &&
	    strstr(out.notes.data, "rule 'yes' (p.yaml:3) allows, but the "
	    "project /p is not trusted: no decision") != NULL,
	    "stderr says why: %s", out.notes.data ? out.notes.data : "");
	ok(trace.data != NULL && strstr(trace.data, "rule yes: not fired: "
	    "an allow of the project's rules counts only in a trusted "
	    "project") != NULL, "and explain");
	eval_outcome_release(&out);
	event_release(&ev);
	buf_release(&trace);
	rs.project_trusted = true;
	s = eval_summary(&rs, LS);
	is_str(s, "allow:yes", "a trusted project's allow allows");
	free(s);
	s = eval_summary(&rs, PUSH);
	is_str(s, "deny:guard allow:yes", "and deny still beats it (the "
	    "reply is the deny: test_output)");
	free(s);
	diag_list_release(&dl);
	ruleset_release(&rs);

	f[1].layer = LAYER_USER;
	f[1].name = "mine.yaml";
	s = load(&rs, &dl, f, 2);
	ok(dl.n == 1 && strstr(dl.items[0].message, "project's") == NULL,
	    "the user's allow-everything is warned about too: %s",
	    dl.items[0].message);
	free(s);
	s = eval_summary(&rs, LS);
	is_str(s, "allow:yes", "and allows in any project");
	free(s);
	diag_list_release(&dl);
	ruleset_release(&rs);
}

static void
pinned_digest(void)
{
	char		 dir[] = "/tmp/rr-layers-test.XXXXXX", *p;
	struct pinned_dir pd;
	struct buf	 listing;
	char		 want[65], *err = NULL;

	if (mkdtemp(dir) == NULL) {
		ok(0, "mkdtemp");
		return;
	}
	p = xasprintf("%s/sub", dir);
	mkdir(p, 0700);
	free(p);
	p = xasprintf("%s/b.yaml", dir);
	file_spit(p, "b\n");
	free(p);
	p = xasprintf("%s/sub/a.yml", dir);
	file_spit(p, "aa\n");
	free(p);
	p = xasprintf("%s/notes.txt", dir);
	file_spit(p, "not a rule file\n");
	free(p);
	p = xasprintf("%s/.hidden.yaml", dir);
	file_spit(p, "skipped\n");
	free(p);
	/* "b.yaml" sorts before "sub/a.yml". */
	buf_init(&listing);
	buf_add(&listing, "b.yaml\0" "2\0" "b\n", 11);
	buf_add(&listing, "sub/a.yml\0" "3\0" "aa\n", 15);
	sha256_hex(listing.data, listing.len, want);
	buf_release(&listing);
	ok(pinned_read(dir, &pd, NULL, &err) == 0 && pd.n == 2,
	    "a directory's rule files are read");
	is_str(pd.sha256, want, "the digest is that of the canonical "
	    "listing: path, NUL, size, NUL, contents, sorted by path");
	pinned_release(&pd);
	p = xasprintf("%s/sub/a.yml", dir);
	file_spit(p, "ab\n");
	ok(pinned_read(dir, &pd, NULL, &err) == 0 &&
	    strcmp(pd.sha256, want) != 0, "a changed byte changes it");
	pinned_release(&pd);
	unlink(p);
	free(p);
	ok(pinned_read(dir, &pd, NULL, &err) == 0 && pd.n == 1 &&
	    strcmp(pd.sha256, want) != 0, "so does a file removed");
	pinned_release(&pd);
	p = xasprintf("%s/notes.txt", dir);
	unlink(p);
	free(p);
	p = xasprintf("%s/.hidden.yaml", dir);
	unlink(p);
	free(p);
	p = xasprintf("%s/b.yaml", dir);
	unlink(p);
	free(p);
	p = xasprintf("%s/sub", dir);
	rmdir(p);
	free(p);
	rmdir(dir);
	ok(pinned_read(dir, &pd, NULL, &err) < 0 && err != NULL,
	    "a missing directory has no digest: %s", err ? err : "");
	free(err);
	pinned_release(&pd);
}

int
main(void)
{
	overrides();
	stubs_and_broken();
	allows();
	pinned_digest();
	return done_testing();
}
