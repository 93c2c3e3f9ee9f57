/*
 * The compiled cache, below the CLI: every rule file of the repository
 * gives the same diagnostics, decisions, messages, explain traces and
 * rule-test results from the cache as compiled fresh; a cache of another
 * engine, PCRE2 or key is refused; and a bit flipped at every offset of
 * a cache file, or any truncation, is refused or gives the very same
 * answers, never a crash.  A file written to after it was made is
 * refused by its stamp (the identity it was written with); one that
 * claims no stamp has everything it reads checksummed; and one whose
 * stamp is forged after a change never crashes either.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "cache.h"
#include "checksum.h"
#include "fileio.h"
#include "match_re.h"
#include "helpers.h"
#include "prefilter.h"
#include "ruletest.h"
#include "sources.h"
#include "tap.h"
#include "userconf.h"

/* Where the header keeps the rule table's offset (cache.c's layout). */
#define SECTION_RULES_OFF	(64 + 5 * 16)
#define SECTION_INDEX_OFF	(64 + 4 * 16)
/* The header's length and checksum, and the stamp (cache.c). */
#define HEADER_LEN		256
#define HEADER_SUM_OFF		32
#define STAMP_OFF		192

static const char *srcdir;
static char	   tmpdir[] = "/tmp/rr-cache-test.XXXXXX";
static char	 **events;
static size_t	   nevents;

static char *
slurp(const char *path, size_t *len)
{
	FILE		*fp = fopen(path, "rb");
	struct buf	 b;
	char		 chunk[4096];
	size_t		 n;

	buf_init(&b);
	if (fp == NULL)
		return buf_detach(&b, len);
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		buf_add(&b, chunk, n);
	fclose(fp);
	return buf_detach(&b, len);
}

static void spit(const char *, const char *, size_t);

static void
spit_text(const char *path, const char *text)
{
	spit(path, text, strlen(text));
}

static void
spit(const char *path, const char *data, size_t len)
{
	FILE	*fp = fopen(path, "wb");

	fwrite(data, 1, len, fp);
	fclose(fp);
	chmod(path, 0600);	/* whatever the umask: a cache is private */
}

/* The events every rule set is evaluated against. */
static void
load_events(void)
{
	static const char *const extra[] = {
		"{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/project\","
		"\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":"
		"\"database/src/user.ts\",\"content\":\"prisma.user.findMany()\"}}",
		"{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/project\","
		"\"tool_name\":\"Edit\",\"tool_input\":{\"file_path\":\"/project/"
		".env\",\"new_string\":\"API_KEY=1\"}}",
		"{\"hook_event_name\":\"UserPromptSubmit\",\"cwd\":\"/project\","
		"\"prompt\":\"add a backend controller and an API route\"}",
		"{\"hook_event_name\":\"Stop\",\"cwd\":\"/project\","
		"\"last_assistant_message\":\"TODO: rm -rf / later; DROP TABLE\"}",
		/* Globs ignoring case: the caseless twins must be cached. */
		"{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/project\","
		"\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":"
		"\"a/SECRETS/k\",\"content\":\"x\"}}",
		"{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/project\","
		"\"tool_name\":\"mcp__fs__move_file\",\"tool_input\":{"
		"\"source\":\"a\",\"destination\":\"k/x.pem\"}}",
	};
	char		*dir = xasprintf("%s/tests/events", srcdir), *p;
	struct dirent	*de;
	DIR		*d = opendir(dir);
	size_t		 i, len;

	events = xcalloc(64, sizeof(*events));
	while (d != NULL && (de = readdir(d)) != NULL && nevents < 50) {
		if (!str_has_suffix(de->d_name, ".json"))
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		events[nevents++] = slurp(p, &len);
		free(p);
	}
	if (d != NULL)
		closedir(d);
	for (i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
		events[nevents++] = xstrdup(extra[i]);
	free(dir);
}

/* Everything observable about rs: diagnostics, decisions, traces, tests. */
static char *
observe(const struct ruleset *rs, const struct diag_list *dl, int *failed)
{
	struct buf		 b, trace;
	struct rr_event		 ev;
	struct eval_outcome	 out;
	struct eval_opts	 eo;
	char			*err = NULL, *s, *mem = NULL;
	struct ruletest_counts	 counts;
	size_t			 i, j, memlen = 0;
	FILE			*fp;
	int			 pass;

	buf_init(&b);
	*failed = 0;
	for (i = 0; i < dl->n; i++) {
		s = diag_format_short(&dl->items[i]);
		buf_printf(&b, "diag %s | %s | %s\n", s, dl->items[i].hint ?
		    dl->items[i].hint : "", dl->items[i].source_line ?
		    dl->items[i].source_line : "");
		free(s);
	}
	buf_printf(&b, "rules %zu files %zu trusted %d\n", rs->n, rs->nfiles,
	    rs->project_trusted);
	/* What the layers decide by (rule.h), which no event shows. */
	for (i = 0; i < rs->n; i++)
		buf_printf(&b, "rule %s layer %d%s%s%s\n",
		    ruleset_rule(rs, i)->id, ruleset_rule(rs, i)->layer,
		    ruleset_rule(rs, i)->enabled ? "" : " disabled",
		    ruleset_rule(rs, i)->overridable ? " overridable" : "",
		    ruleset_rule(rs, i)->locked ? " locked" : "");
	for (i = 0; i < nevents; i++) {
		for (pass = 0; pass < 2; pass++) {
			if (event_parse(&ev, events[i], strlen(events[i]),
			    "/project", &err) < 0) {
				free(err);
				err = NULL;
				event_release(&ev);
				continue;
			}
			buf_init(&trace);
			memset(&eo, 0, sizeof(eo));
			if (pass == 1)
				eo.explain = &trace;
			eval_outcome_init(&out);
			if (eval_event(rs, &ev, &eo, &out) < 0)
				*failed = 1;
			buf_printf(&b, "event %zu/%d:\n", i, pass);
			for (j = 0; j < out.nfired; j++)
				buf_printf(&b, "  %s %s %.*s\n",
				    action_names[out.fired[j].rule->action],
				    out.fired[j].rule->id, (int)out.fired[j].len,
				    out.fired[j].text ? out.fired[j].text : "");
			buf_add(&b, out.notes.data, out.notes.len);
			buf_add(&b, trace.data, trace.len);
			buf_release(&trace);
			eval_outcome_release(&out);
			event_release(&ev);
		}
	}
	fp = open_memstream(&mem, &memlen);
	memset(&counts, 0, sizeof(counts));
	ruletest_run(rs, fp, stderr, true, &counts);
	fclose(fp);
	buf_printf(&b, "tests %zu passed %zu failed %zu gaps\n%s",
	    counts.passed, counts.failed, counts.gaps, mem);
	free(mem);
	return buf_detach(&b, NULL);
}

static void
fresh(const char *const *paths, size_t n, struct ruleset *rs,
    struct diag_list *dl)
{
	struct rule_sources	src = { (const char **)paths, n };

	ruleset_init(rs);
	diag_list_init(dl);
	sources_load(rs, &src, "/nonexistent", "", NULL, dl);
	diag_sort(dl);
	ruleset_index(rs);
}

/* Opens path and decodes every rule; -1 if refused anywhere. */
static int
open_all(const char *path, const char *key,
    const struct cache_identity *id, struct ruleset *rs,
    struct diag_list *dl, char **why)
{
	size_t	i;

	if (cache_open(rs, dl, path, key, id, why) < 0)
		return -1;
	for (i = 0; i < rs->n; i++)
		if (ruleset_rule(rs, i) == NULL) {
			ruleset_release(rs);
			diag_list_release(dl);
			*why = xstrdup("a rule would not decode");
			return -1;
		}
	return 0;
}

/* The cache of a fresh rule set (released here) gives the same. */
static void
same_as_cached(const char *what, struct ruleset *rs, struct diag_list *dl)
{
	const struct cache_identity *id = cache_identity_current();
	struct ruleset		 rc;
	struct diag_list	 dc;
	struct manifest		 mf;
	char			*path, *err = NULL, *a, *b;
	int			 fa, fb;

	manifest_init(&mf);
	path = xasprintf("%s/same.rrc", tmpdir);
	if (cache_write(path, "key", id, rs, dl, &mf, &err) < 0 ||
	    open_all(path, "key", id, &rc, &dc, &err) < 0) {
		ok(0, "%s: cache written and read (%s)", what, err);
		free(err);
	} else {
		a = observe(rs, dl, &fa);
		b = observe(&rc, &dc, &fb);
		is_int(rc.n, rs->n, "%s: %zu rules from the cache", what,
		    rs->n);
		ok(strcmp(a, b) == 0 && !fa && !fb, "%s: diagnostics, "
		    "decisions, messages, explain and tests as fresh", what);
		if (strcmp(a, b) != 0)
			printf("# fresh:\n%s# cached:\n%s", a, b);
		free(a);
		free(b);
		ruleset_release(&rc);
		diag_list_release(&dc);
	}
	manifest_release(&mf);
	free(path);
	ruleset_release(rs);
	diag_list_release(dl);
}

/* Fresh and cached agree on the rule files at paths. */
static void
same_as_fresh(const char *what, const char *const *paths, size_t n)
{
	struct ruleset		 rs;
	struct diag_list	 dl;

	fresh(paths, n, &rs, &dl);
	same_as_cached(what, &rs, &dl);
}

/*
 * The default sources of a home and a project, layered: refused and
 * allowed overrides, a rule that only disables another, locks, allows of
 * a project trusted or not, and a pinned source that has changed.
 */
static void
layered(bool trusted)
{
	struct rule_sources	 none = { NULL, 0 };
	struct rr_config	 cfg;
	struct ruleset		 rs;
	struct diag_list	 dl;
	char			*home, *proj, *p, *t;

	home = xasprintf("%s/lh", tmpdir);
	proj = xasprintf("%s/lp", tmpdir);
	p = xasprintf("%s/rules", home);
	mkdir(home, 0700);
	mkdir(p, 0700);
	free(p);
	p = xasprintf("%s/rules/u.yaml", home);
	spit_text(p, "version: 1\nlocked: false\nrules:\n"
	    "  - id: guard\n    on: PreToolUse\n    tools: [Bash]\n"
	    "    when: {command: rm}\n    action: deny\n    message: no\n"
	    "  - id: open\n    on: PreToolUse\n    action: context\n"
	    "    message: opened\n    overridable: true\n"
	    "  - id: shut\n    on: UserPromptSubmit\n    action: context\n"
	    "    message: shut\n    locked: true\n");
	free(p);
	p = xasprintf("%s/.reflexion", proj);
	mkdir(proj, 0700);
	mkdir(p, 0700);
	free(p);
	p = xasprintf("%s/.reflexion/rules", proj);
	mkdir(p, 0700);
	free(p);
	p = xasprintf("%s/.reflexion/rules/p.yaml", proj);
	spit_text(p, "version: 1\nrules:\n"
	    "  - id: guard\n    enabled: false\n"
	    "  - id: open\n    enabled: false\n"
	    "  - id: shut\n    on: Stop\n    action: warn\n    message: x\n"
	    "  - id: yes\n    on: PreToolUse\n    action: allow\n");
	free(p);
	p = xasprintf("%s/config.yaml", home);
	t = trusted ? xasprintf("trust: [%s]\n", proj) :
	    xstrdup("sources: [{path: /nonexistent, sha256: 000000000000000"
	    "0000000000000000000000000000000000000000000000000}]\n");
	spit_text(p, t);
	free(t);
	free(p);
	ruleset_init(&rs);
	diag_list_init(&dl);
	config_load(&cfg, home, "/nonexistent", NULL, &dl);
	sources_load(&rs, &none, home, proj, &cfg, &dl);
	config_release(&cfg);
	diag_sort(&dl);
	ruleset_index(&rs);
	ok(rs.project_trusted == trusted && dl.errors == (trusted ? 2 : 3),
	    "layered sources (%s): %zu errors", trusted ? "trusted" :
	    "untrusted", dl.errors);
	same_as_cached(trusted ? "layered, trusted" : "layered, untrusted",
	    &rs, &dl);
	free(home);
	free(proj);
}

static void
repository_rules(void)
{
	char		*p[8], *dir;
	struct dirent	*de;
	DIR		*d;
	size_t		 i, n = 0;

	p[0] = xasprintf("%s/rules", srcdir);
	p[1] = xasprintf("%s/tests/rules", srcdir);
	p[2] = xasprintf("%s/tests/fixtures/protocol.yaml", srcdir);
	p[3] = xasprintf("%s/tests/fixtures/skillproj/.claude/skills/"
	    "skill-rules.json", srcdir);
	same_as_fresh("shipped rules", (const char *const *)p, 1);
	same_as_fresh("tests/rules", (const char *const *)p + 1, 1);
	same_as_fresh("protocol fixture", (const char *const *)p + 2, 1);
	same_as_fresh("skill-rules.json fixture", (const char *const *)p + 3,
	    1);
	same_as_fresh("all of them at once", (const char *const *)p, 4);
	layered(false);
	layered(true);
	/* Every lint fixture, broken ones too: diagnostics are cached. */
	dir = xasprintf("%s/tests/lint", srcdir);
	if ((d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (!str_has_suffix(de->d_name, ".yaml") &&
			    !str_has_suffix(de->d_name, ".json"))
				continue;
			p[4] = xasprintf("%s/%s", dir, de->d_name);
			same_as_fresh(de->d_name, (const char *const *)p + 4, 1);
			free(p[4]);
			n++;
		}
		closedir(d);
	}
	ok(n >= 20, "went through %zu lint fixtures", n);
	free(dir);
	for (i = 0; i < 4; i++)
		free(p[i]);
}

static void
identity(void)
{
	struct cache_identity	 other = *cache_identity_current();
	const struct cache_identity *id = cache_identity_current();
	struct ruleset		 rs, rc;
	struct diag_list	 dl, dc;
	struct manifest		 mf;
	char			*rules = xasprintf("%s/rules", srcdir);
	const char		*paths[1] = { rules };
	char			*path = xasprintf("%s/id.rrc", tmpdir), *why;
	int			 rc_;

	fresh(paths, 1, &rs, &dl);
	manifest_init(&mf);
	other.engine = "9.9.9";
	cache_write(path, "key", &other, &rs, &dl, &mf, &why);
	rc_ = cache_open(&rc, &dc, path, "key", id, &why);
	ok(rc_ < 0 && strstr(why, "reflexion-rules 9.9.9") != NULL,
	    "another engine version is refused: %s", why);
	free(why);
	other = *id;
	other.pcre2 = "10.99 2099-01-01";
	cache_write(path, "key", &other, &rs, &dl, &mf, &why);
	rc_ = cache_open(&rc, &dc, path, "key", id, &why);
	ok(rc_ < 0 && strstr(why, "PCRE2 10.99") != NULL,
	    "another PCRE2 version is refused: %s", why);
	free(why);
	cache_write(path, "key", id, &rs, &dl, &mf, &why);
	rc_ = cache_open(&rc, &dc, path, "other key", id, &why);
	ok(rc_ < 0 && strstr(why, "other rule sources") != NULL,
	    "another key is refused: %s", why);
	free(why);
	ok(cache_open(&rc, &dc, path, "key", id, &why) == 0 && rc.n == rs.n,
	    "the right identity is accepted");
	ruleset_release(&rc);
	diag_list_release(&dc);
	/* The hook's decode leaves tests out; decisions are the same. */
	{
		size_t	i, with = 0, without = 0, same = 0;
		char	*a, *b;
		int	fa, fb;

		cache_open(&rc, &dc, path, "key", id, &why);
		cache_skip_tests(&rc);
		for (i = 0; i < rs.n; i++) {
			with += rs.rules[i]->ntests;
			if (ruleset_rule(&rc, i) != NULL)
				without += rc.rules[i]->ntests;
		}
		a = observe(&rs, &dl, &fa);
		b = observe(&rc, &dc, &fb);
		/* observe() runs the rules' tests last: compare the rest. */
		same = strstr(a, "\ntests ") != NULL &&
		    strstr(b, "\ntests ") != NULL &&
		    strstr(a, "\ntests ") - a == strstr(b, "\ntests ") - b &&
		    strncmp(a, b, (size_t)(strstr(a, "\ntests ") - a)) == 0;
		ok(with > 100 && without == 0 && same, "rules decoded without "
		    "their %zu tests: (the hook) decide the same", with);
		free(a);
		free(b);
		ruleset_release(&rc);
		diag_list_release(&dc);
	}
	manifest_release(&mf);
	ruleset_release(&rs);
	diag_list_release(&dl);
	free(rules);
	free(path);
}

/* path is refused as a cache, with a reason that says `because`. */
static void
refuses(const char *path, const char *because, const char *what)
{
	const struct cache_identity *id = cache_identity_current();
	struct ruleset		 rc;
	struct diag_list	 dc;
	char			*why = NULL;
	int			 rc_;

	rc_ = open_all(path, "key", id, &rc, &dc, &why);
	if (rc_ == 0) {
		ruleset_release(&rc);
		diag_list_release(&dc);
	}
	ok(rc_ < 0 && why != NULL && strstr(why, because) != NULL,
	    "%s: refused (%s)", what, why ? why : "accepted");
	free(why);
}

/* Clears the stamp of a cache image, as a file system without one. */
static void
unstamp(char *data)
{
	uint64_t	sum;

	memset(data + STAMP_OFF, 0, 24);
	memset(data + HEADER_SUM_OFF, 0, 8);
	sum = rr_checksum(data, HEADER_LEN);
	memcpy(data + HEADER_SUM_OFF, &sum, 8);
}

/*
 * Writes data over the file at path in place (the same inode), then puts
 * back the modification time its header's stamp names: a change the
 * stamp cannot see (bits rotting under the file system, or a forgery).
 */
static void
overwrite_keep_stamp(const char *path, const char *data, size_t len)
{
	struct timespec	ts[2];
	int64_t		sec;
	uint32_t	nsec;
	int		fd = open(path, O_WRONLY);

	if (fd < 0)
		return;
	if (pwrite(fd, data, len, 0) != (ssize_t)len)
		printf("# short write\n");
	memcpy(&sec, data + STAMP_OFF + 8, 8);
	memcpy(&nsec, data + STAMP_OFF + 16, 4);
	ts[0].tv_sec = 0;
	ts[0].tv_nsec = UTIME_OMIT;
	ts[1].tv_sec = (time_t)sec;
	ts[1].tv_nsec = (long)nsec;
	futimens(fd, ts);
	close(fd);
}

/*
 * The stamp: a cache file written to after it was made is refused; one
 * without a stamp is read with every checksum checked; the same holds
 * for the index as the evaluator reads it.
 */
static void
stamps(void)
{
	const struct cache_identity *id = cache_identity_current();
	struct ruleset		 rs, rc;
	struct diag_list	 dl, dc;
	struct manifest		 mf;
	struct timespec		 ts[2];
	struct stat		 st;
	char			*rules = xasprintf("%s/rules", srcdir);
	const char		*paths[1] = { rules };
	char			*path = xasprintf("%s/stamp.rrc", tmpdir);
	char			*why = NULL, *data, *a, *b, *other, *odata;
	uint32_t		 stamped, idx;
	size_t			 len, olen;
	struct stat		 ost;
	int			 rc_, fa, fb, fd;

	fresh(paths, 1, &rs, &dl);
	manifest_init(&mf);
	rc_ = cache_write(path, "key", id, &rs, &dl, &mf, &why);
	data = slurp(path, &len);
	memcpy(&stamped, data + STAMP_OFF + 20, 4);
	stat(path, &st);
	if (rc_ < 0 || stamped != 1) {
		ok(1, "# SKIP stamps: this file system keeps no nanoseconds");
		goto out;
	}
	ok(cache_open(&rc, &dc, path, "key", id, &why) == 0 && rc.pf_intact,
	    "a cache as written: its stamp holds, its index is trusted");
	ruleset_release(&rc);
	diag_list_release(&dc);

	/* touch(1): the same bytes, but written to as far as anyone knows. */
	ts[0].tv_sec = 0;
	ts[0].tv_nsec = UTIME_OMIT;
	ts[1].tv_sec = st.st_mtim.tv_sec + 5;
	ts[1].tv_nsec = st.st_mtim.tv_nsec;
	utimensat(AT_FDCWD, path, ts, 0);
	refuses(path, "written to since", "a cache touched after it was made");
	/*
	 * Another cache copied over it as cp -p does (written in place, its
	 * time set to the other's): the stamp names the other inode.
	 */
	other = xasprintf("%s/other.rrc", tmpdir);
	cache_write(other, "key", id, &rs, &dl, &mf, &why);
	odata = slurp(other, &olen);
	stat(other, &ost);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd >= 0 && write(fd, odata, olen) == (ssize_t)olen) {
		ts[1] = ost.st_mtim;
		futimens(fd, ts);
	}
	if (fd >= 0)
		close(fd);
	refuses(path, "written to since", "another cache copied over it "
	    "with its times");
	unlink(other);
	free(other);
	free(odata);

	/* Without a stamp: every checksum read is checked. */
	unstamp(data);
	spit(path, data, len);
	rc_ = cache_open(&rc, &dc, path, "key", id, &why);
	ok(rc_ == 0 && !rc.pf_intact, "a cache without a stamp opens, its "
	    "index checked as read");
	if (rc_ == 0) {
		a = observe(&rs, &dl, &fa);
		b = observe(&rc, &dc, &fb);
		ok(strcmp(a, b) == 0 && !fa && !fb,
		    "and answers as the rules compiled fresh");
		free(a);
		free(b);
		ruleset_release(&rc);
		diag_list_release(&dc);
	} else
		free(why);
	/* A flipped byte of its index is found by the evaluator. */
	memcpy(&idx, data + SECTION_INDEX_OFF, 4);
	data[idx + 40] ^= 0x10;
	spit(path, data, len);
	if (cache_open(&rc, &dc, path, "key", id, &why) == 0) {
		a = observe(&rc, &dc, &fa);
		ok(fa, "a flipped byte in the index of a cache without a "
		    "stamp: found when read");
		free(a);
		ruleset_release(&rc);
		diag_list_release(&dc);
	} else {
		ok(0, "a cache without a stamp, flipped index: %s", why);
		free(why);
	}
out:
	free(data);
	manifest_release(&mf);
	ruleset_release(&rs);
	diag_list_release(&dl);
	unlink(path);
	free(path);
	free(rules);
}

/* Bit flips at every offset, and truncations: refused or identical. */
static void
corruption(void)
{
	const struct cache_identity *id = cache_identity_current();
	struct ruleset		 rs, rc;
	struct diag_list	 dl, dc;
	struct manifest		 mf;
	char			*p[3], *path, *bad, *data, *copy, *want, *got;
	char			*why = NULL;
	size_t			 len, off, refused = 0, same = 0, differ = 0;
	size_t			 table_step, body_step;
	uint32_t		 first_body;
	int			 f;

	p[0] = xasprintf("%s/rules", srcdir);
	p[1] = xasprintf("%s/tests/rules", srcdir);
	p[2] = xasprintf("%s/tests/fixtures/skillproj/.claude/skills/"
	    "skill-rules.json", srcdir);
	fresh((const char *const *)p, 3, &rs, &dl);
	want = observe(&rs, &dl, &f);
	manifest_init(&mf);
	path = xasprintf("%s/flip.rrc", tmpdir);
	bad = xasprintf("%s/bad.rrc", tmpdir);
	cache_write(path, "key", id, &rs, &dl, &mf, &why);
	data = slurp(path, &len);
	copy = xmalloc(len);
	/*
	 * Every byte of the first 512 (header, section table), then about
	 * 1,000 spread evenly over the rest of the tables and 1,000 over the
	 * rule bodies: each flip reads the whole file, so flipping every
	 * byte costs the square of its size, which grows with the shipped
	 * packs.  The steps are odd, so that the flips land on every byte
	 * position of a word in turn.
	 */
	memcpy(&first_body, data + SECTION_RULES_OFF, 4);
	memcpy(&first_body, data + first_body, 4);
	table_step = (first_body > 512 ? (first_body - 512) / 1000 : 0) | 1;
	body_step = ((len - first_body) / 1000) | 1;
	if (body_step < 7)
		body_step = 7;
	for (off = 0; off < len; off += off < 512 ? 1 :
	    off < first_body ? table_step : body_step) {
		memcpy(copy, data, len);
		copy[off] ^= (char)(1 << (off * 7 % 8));
		spit(bad, copy, len);
		if (open_all(bad, "key", id, &rc, &dc, &why) < 0) {
			free(why);
			refused++;
			continue;
		}
		got = observe(&rc, &dc, &f);
		if (f)
			refused++;	/* found while evaluating */
		else if (strcmp(got, want) == 0)
			same++;
		else if (differ++ < 3)
			printf("# flip at %zu changes the answers\n", off);
		free(got);
		ruleset_release(&rc);
		diag_list_release(&dc);
	}
	ok(len > 4000 && first_body > 1000 && first_body < len,
	    "a cache file of %zu bytes, bodies from %u", len, first_body);
	is_int(differ, 0, "a bit flipped at %zu offsets: %zu refused, %zu "
	    "harmless, none changes an answer", refused + same + differ,
	    refused, same);
	ok(refused > (refused + same) / 2, "most flips are refused outright");

	/*
	 * The same flips in a file that claims no stamp: found by the
	 * checksums of what is read, as the evaluator reads it.
	 */
	unstamp(data);
	for (off = 0, refused = same = differ = 0; off < len;
	    off += off < 512 ? 3 : off < first_body ? table_step :
	    body_step) {
		memcpy(copy, data, len);
		copy[off] ^= (char)(1 << (off * 7 % 8));
		spit(bad, copy, len);
		if (open_all(bad, "key", id, &rc, &dc, &why) < 0) {
			free(why);
			refused++;
			continue;
		}
		got = observe(&rc, &dc, &f);
		if (f)
			refused++;
		else if (strcmp(got, want) == 0)
			same++;
		else if (differ++ < 3)
			printf("# unstamped: flip at %zu changes the answers\n",
			    off);
		free(got);
		ruleset_release(&rc);
		diag_list_release(&dc);
	}
	is_int(differ, 0, "without a stamp, a bit flipped at %zu offsets: "
	    "%zu refused, %zu harmless, none changes an answer",
	    refused + same + differ, refused, same);

	/*
	 * Flips the stamp cannot see (the file written in place, its time
	 * put back): all but the prefilter index is still checksummed as
	 * read; a flip in the index may change an answer, as an edit of the
	 * rules would, but never crashes the reader (the sanitizer builds
	 * run this too).
	 */
	free(data);
	cache_write(path, "key", id, &rs, &dl, &mf, &why);
	data = slurp(path, &len);
	{
		size_t	body_differ = 0, stamped_runs = 0;
		uint32_t stamped, idx_off, idx_len;

		memcpy(&stamped, data + STAMP_OFF + 20, 4);
		memcpy(&idx_off, data + SECTION_INDEX_OFF, 4);
		memcpy(&idx_len, data + SECTION_INDEX_OFF + 4, 4);
		for (off = 0, refused = same = differ = 0;
		    stamped == 1 && off < len;
		    off += off < 512 ? 5 : off < first_body ? table_step :
		    body_step) {
			memcpy(copy, data, len);
			copy[off] ^= (char)(1 << (off * 7 % 8));
			overwrite_keep_stamp(path, copy, len);
			stamped_runs++;
			if (open_all(path, "key", id, &rc, &dc, &why) < 0) {
				free(why);
				refused++;
				continue;
			}
			got = observe(&rc, &dc, &f);
			if (f)
				refused++;
			else if (strcmp(got, want) == 0)
				same++;
			else {
				differ++;
				if (off < idx_off || off >= idx_off + idx_len)
					body_differ++;
			}
			free(got);
			ruleset_release(&rc);
			diag_list_release(&dc);
		}
		if (stamped != 1)
			ok(1, "# SKIP forged stamps: no stamp on this file "
			    "system");
		else
			ok(stamped_runs == refused + same + differ &&
			    body_differ == 0, "a flip under a forged stamp, at "
			    "%zu offsets: no crash; %zu refused, %zu harmless, "
			    "%zu change an answer, all in the prefilter "
			    "index", stamped_runs, refused, same, differ);
	}

	for (off = 0, differ = 0; off < len; off += off < 300 ? 1 : 97) {
		spit(bad, data, off);
		if (open_all(bad, "key", id, &rc, &dc, &why) == 0) {
			differ++;
			ruleset_release(&rc);
			diag_list_release(&dc);
		} else
			free(why);
	}
	is_int(differ, 0, "every truncation is refused");
	spit(bad, data, len);
	chmod(bad, 0622);
	refuses(bad, "writable by others", "a cache others can write");
	chmod(bad, 0600);
	if (chown(bad, geteuid() + 1, (gid_t)-1) == 0)
		refuses(bad, "not owned", "another user's cache");
	else
		ok(1, "# SKIP another user's cache: cannot chown");
	unlink(bad);
	spit(bad, "version: 1\nrules: []\n", 21);
	refuses(bad, "not a cache", "another format");
	unlink(bad);
	mkdir(bad, 0700);
	refuses(bad, "not a regular file", "a directory");
	rmdir(bad);
	symlink(path, bad);
	refuses(bad, "symbolic links", "a symlink");
	unlink(bad);
	unlink(path);
	free(data);
	free(copy);
	free(want);
	free(path);
	free(bad);
	manifest_release(&mf);
	ruleset_release(&rs);
	diag_list_release(&dl);
	for (off = 0; off < 3; off++)
		free(p[off]);
}

/* The PCRE2 version of the cache key, whether asked of PCRE2 or not. */
static void
version(void)
{
	char	v[64];

	if (pcre2_config(PCRE2_CONFIG_VERSION, v) < 0)
		v[0] = '\0';
	is_str(rr_regex_version(), v, "the PCRE2 version as PCRE2 says it");
}

static void
cleanup_dir(const char *dir)
{
	struct dirent	*de;
	DIR		*d = opendir(dir);
	char		*p;

	while (d != NULL && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		unlink(p);
		free(p);
	}
	if (d != NULL)
		closedir(d);
	rmdir(dir);
}

static enum manifest_state
check(struct manifest *m, int64_t now, char **why)
{
	struct buf		b;
	enum manifest_state	st;

	buf_init(&b);
	manifest_encode(m, &b);
	st = manifest_check((const unsigned char *)b.data, b.len, now, why);
	buf_release(&b);
	return st;
}

/*
 * Racily clean sources: a stat that matches proves nothing when the file
 * changed within the same timestamp as the compile; the content decides.
 */
static void
racy(void)
{
	struct manifest		 m;
	struct stat		 st;
	enum manifest_state	 r;
	char			*d = xasprintf("%s/d", tmpdir);
	char			*f = xasprintf("%s/d/r.yaml", tmpdir), *why = NULL;
	char			*names[1] = { (char *)"r.yaml" }, *other[1] = {
	    (char *)"s.yaml" };
	int64_t			 mt;

	mkdir(d, 0700);
	spit(f, "new!", 4);
	stat(f, &st);
	mt = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	manifest_init(&m);
	m.start_ns = mt;
	manifest_file(&m, f, &st, "new!", 4);
	r = check(&m, mt + 1000000000LL, &why);
	ok(r == MANIFEST_FRESH, "racily clean, same content: fresh");
	free(why);
	r = check(&m, mt + 3000000000LL, &why);
	ok(r == MANIFEST_STALE && strstr(why, "refreshing") != NULL,
	    "racily clean and settled: refreshed once (%s)", why);
	free(why);
	manifest_release(&m);

	/* We compiled "old!", the file now says "new!", stat is identical. */
	manifest_init(&m);
	m.start_ns = mt;
	manifest_file(&m, f, &st, "old!", 4);
	r = check(&m, mt, &why);
	ok(r == MANIFEST_STALE, "racily clean, other content with the same "
	    "stat: stale (%s)", why);
	free(why);
	m.start_ns = mt + 10000000000LL;
	r = check(&m, m.start_ns, &why);
	ok(r == MANIFEST_FRESH,
	    "the same entry compiled long after the change: stat decides");
	free(why);
	manifest_release(&m);

	/* A directory listed with other names than it has. */
	stat(d, &st);
	mt = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	manifest_init(&m);
	m.start_ns = mt;
	manifest_dir(&m, d, &st, other, 1);
	r = check(&m, mt, &why);
	ok(r == MANIFEST_STALE,
	    "racily clean directory with another listing: stale (%s)", why);
	free(why);
	manifest_release(&m);
	manifest_init(&m);
	m.start_ns = mt;
	manifest_dir(&m, d, &st, names, 1);
	r = check(&m, mt, &why);
	ok(r == MANIFEST_FRESH,
	    "racily clean directory with the same listing: fresh");
	free(why);
	manifest_release(&m);
	unlink(f);
	rmdir(d);
	free(f);
	free(d);
}

int
main(void)
{
	srcdir = getenv("SRCDIR");
	if (srcdir == NULL)
		srcdir = ".";
	if (mkdtemp(tmpdir) == NULL) {
		ok(0, "mkdtemp");
		return done_testing();
	}
	load_events();
	repository_rules();
	identity();
	stamps();
	corruption();
	version();
	racy();
	cleanup_dir(tmpdir);
	while (nevents > 0)
		free(events[--nevents]);
	free(events);
	return done_testing();
}
