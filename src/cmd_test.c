/*
 * reflexion-rules test: run the tests: blocks of rule files, print one line
 * per failure and a final "N passed, N failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cmd_check.h"
#include "cmdargs.h"
#include "color.h"
#include "ruletest.h"
#include "textesc.h"
#include "xmalloc.h"

static int cmd_test_exec(int, char **);

enum { TEST_TAP, TEST_FORMAT };

static const struct cmd_option test_options[] = {
	{ "format", 0, "text|tap|junit", 0, TEST_FORMAT },
	{ "tap", 0, NULL, 0, TEST_TAP },
	{ NULL, 0, NULL, 0, 0 }
};

const struct cmd_entry cmd_test_entry = {
	.name = "test",
	.options = test_options,
	.args = "[PATH...]",
	.upper = -1,
	.summary = "Run the tests: of every rule and report failures (--format "
	    "tap: a TAP line per test, junit: JUnit XML); exit 1 if any test "
	    "fails or a rule file has errors.",
	.exec = cmd_test_exec,
};

/* A test's outcome kept for the JUnit report, which groups by file. */
struct junit_case {
	const char		*file;		/* borrowed from the rule set */
	char			*name;
	int			 line;
	enum ruletest_verdict	 verdict;
	char			*why;
};

struct junit {
	struct junit_case	*v;
	size_t			 n, cap;
};

static void
junit_add(struct junit *j, const char *file, char *name, int line,
    enum ruletest_verdict v, const char *why)
{
	if (j->n == j->cap) {
		j->cap = j->cap ? j->cap * 2 : 64;
		j->v = xreallocarray(j->v, j->cap, sizeof(*j->v));
	}
	j->v[j->n].file = file;
	j->v[j->n].name = name;
	j->v[j->n].line = line;
	j->v[j->n].verdict = v;
	j->v[j->n].why = xstrdup(why);
	j->n++;
}

static void
junit_result(void *arg, const struct ruletest_result *res,
    const struct ruletest_counts *n)
{
	const struct rule_test	*t = res->test;
	char			*name;

	(void)n;
	if (t->name != NULL)
		name = xasprintf("%s: %s", res->rule->id, t->name);
	else
		name = xasprintf("%s: test #%zu", res->rule->id,
		    res->index + 1);
	junit_add(arg, res->rule->file, name, t->line, res->verdict,
	    res->verdict == V_GAP ? res->expected : res->why);
}

/* s as XML character data or an attribute value: escaped, one line. */
static void
xml_text(struct buf *b, const char *s)
{
	struct buf	 e;
	const char	*p;

	buf_init(&e);
	/* Controls and invalid UTF-8 cannot be in XML 1.0: shown as \xNN. */
	textesc_add(&e, s, strlen(s), TEXTESC_LINE);
	buf_addc(&e, '\0');
	for (p = e.data; *p; p++) {
		switch (*p) {
		case '&':	buf_adds(b, "&amp;"); break;
		case '<':	buf_adds(b, "&lt;"); break;
		case '>':	buf_adds(b, "&gt;"); break;
		case '"':	buf_adds(b, "&quot;"); break;
		case '\'':	buf_adds(b, "&apos;"); break;
		default:	buf_addc(b, *p); break;
		}
	}
	buf_release(&e);
}

/*
 * JUnit XML as CI servers read it: one testsuite per rule file, one
 * testcase per test; a failing test has a failure, a known gap is
 * skipped, and an error in a rule file is a testcase with an error.
 */
static void
junit_print(FILE *fp, const struct junit *j, const struct diag_list *diags)
{
	struct buf	 b;
	const char	*file;
	size_t		 i, k, tests, fail, skip, err, all[4] = { 0 };
	bool		*done = xcalloc(j->n + 1, sizeof(*done));
	bool		*ddone = xcalloc(diags->n + 1, sizeof(*ddone));
	char		*line;

	for (i = 0; i < j->n; i++)
		all[j->v[i].verdict]++;
	buf_init(&b);
	buf_printf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<testsuites name=\"reflexion-rules test\" tests=\"%zu\" "
	    "failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\">\n",
	    j->n + diags->errors, all[V_FAIL] + all[V_GAP_CLOSED],
	    diags->errors, all[V_GAP]);
	for (i = 0; i < j->n + diags->n; i++) {
		file = i < j->n ? j->v[i].file : diags->items[i - j->n].file;
		if (i < j->n ? done[i] : ddone[i - j->n])
			continue;
		if (i >= j->n && diags->items[i - j->n].severity != DIAG_ERROR)
			continue;
		tests = fail = skip = err = 0;
		for (k = i < j->n ? i : j->n; k < j->n; k++)
			if (strcmp(j->v[k].file, file) == 0) {
				tests++;
				fail += j->v[k].verdict == V_FAIL ||
				    j->v[k].verdict == V_GAP_CLOSED;
				skip += j->v[k].verdict == V_GAP;
			}
		for (k = 0; k < diags->n; k++)
			if (diags->items[k].severity == DIAG_ERROR &&
			    strcmp(diags->items[k].file, file) == 0) {
				tests++;
				err++;
			}
		buf_adds(&b, "  <testsuite name=\"");
		xml_text(&b, file);
		buf_printf(&b, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
		    "skipped=\"%zu\">\n", tests, fail, err, skip);
		for (k = 0; k < diags->n; k++) {
			if (diags->items[k].severity != DIAG_ERROR ||
			    strcmp(diags->items[k].file, file) != 0)
				continue;
			ddone[k] = true;
			line = diag_format_short(&diags->items[k]);
			buf_adds(&b, "    <testcase classname=\"");
			xml_text(&b, file);
			buf_printf(&b, "\" name=\"rule file, line %d\" file=\"",
			    diags->items[k].line);
			xml_text(&b, file);
			buf_printf(&b, "\" line=\"%d\">\n      <error message=\"",
			    diags->items[k].line);
			xml_text(&b, diags->items[k].message);
			buf_adds(&b, "\" type=\"lint\">");
			xml_text(&b, line);
			buf_adds(&b, "</error>\n    </testcase>\n");
			free(line);
		}
		for (k = 0; k < j->n; k++) {
			if (done[k] || strcmp(j->v[k].file, file) != 0)
				continue;
			done[k] = true;
			buf_adds(&b, "    <testcase classname=\"");
			xml_text(&b, file);
			buf_adds(&b, "\" name=\"");
			xml_text(&b, j->v[k].name);
			buf_adds(&b, "\" file=\"");
			xml_text(&b, file);
			buf_printf(&b, "\" line=\"%d\"", j->v[k].line);
			switch (j->v[k].verdict) {
			case V_PASS:
				buf_adds(&b, "/>\n");
				continue;
			case V_GAP:
				buf_adds(&b, ">\n      <skipped message=\"known "
				    "gap: expects ");
				xml_text(&b, j->v[k].why);
				buf_adds(&b, "\"/>\n");
				break;
			case V_FAIL:
			case V_GAP_CLOSED:
				buf_adds(&b, ">\n      <failure message=\"");
				if (j->v[k].verdict == V_GAP_CLOSED)
					buf_adds(&b, "known gap closed: make it "
					    "an ordinary test: ");
				xml_text(&b, j->v[k].why);
				buf_adds(&b, "\" type=\"mismatch\"/>\n");
				break;
			}
			buf_adds(&b, "    </testcase>\n");
		}
		buf_adds(&b, "  </testsuite>\n");
	}
	buf_adds(&b, "</testsuites>\n");
	fwrite(b.data, 1, b.len, fp);
	buf_release(&b);
	free(done);
	free(ddone);
}

static void
junit_release(struct junit *j)
{
	size_t	i;

	for (i = 0; i < j->n; i++) {
		free(j->v[i].name);
		free(j->v[i].why);
	}
	free(j->v);
}

static int
cmd_test_exec(int argc, char **argv)
{
	struct cmd_args		 a;
	struct check_set	 cs;
	struct ruletest_counts	 n;
	struct rule_sources	 src;
	struct junit		 j;
	const char		*fmt;
	char			*line, *err;
	size_t			 i, failed = 0;
	int			 status;
	bool			 tap, junit, color = color_wanted(stdout);

	if (cmd_args_parse(&cmd_test_entry, argc, argv, &a, &err) < 0)
		return cmd_usage(&cmd_test_entry, err);
	if (a.help) {
		cmd_print_help(&cmd_test_entry, stdout);
		cmd_args_release(&a);
		return RR_EXIT_OK;
	}
	if ((fmt = cmd_args_get(&a, TEST_FORMAT)) == NULL)
		fmt = cmd_args_has(&a, TEST_TAP) ? "tap" : "text";
	if (strcmp(fmt, "text") != 0 && strcmp(fmt, "tap") != 0 &&
	    strcmp(fmt, "junit") != 0) {
		err = xasprintf("unknown format '%s' (text, tap or junit)",
		    fmt);
		cmd_args_release(&a);
		return cmd_usage(&cmd_test_entry, err);
	}
	tap = strcmp(fmt, "tap") == 0;
	junit = strcmp(fmt, "junit") == 0;
	/* PATH arguments are read like --rules PATH: the same cache. */
	src.paths = (const char **)a.rest;
	src.npaths = (size_t)a.nrest;
	/* Every rule now: each one's tests are run. */
	check_load("test", &src, LOAD_CACHED, true, &cs);
	/* An error fails the run; a warning is only shown. */
	for (i = 0; i < cs.diags.n && !junit; i++) {
		if (tap) {
			line = diag_format_short(&cs.diags.items[i]);
			if (cs.diags.items[i].severity == DIAG_ERROR)
				printf("not ok %zu - %s\n", ++failed, line);
			else
				printf("# %s\n", line);
			free(line);
		} else
			diag_print_text_color(stdout, &cs.diags.items[i],
			    color);
	}
	memset(&n, 0, sizeof(n));
	n.failed = failed;
	if (junit) {
		memset(&j, 0, sizeof(j));
		ruletest_run_each(&cs.rs, stderr, junit_result, &j, &n);
		junit_print(stdout, &j, &cs.diags);
		junit_release(&j);
	} else
		ruletest_run(&cs.rs, stdout, stderr, tap, &n);
	/* The last line is a contract (CI greps it): gaps go before it. */
	if (tap)
		printf("1..%zu\n", n.passed + n.failed + n.gaps);
	else if (!junit) {
		if (n.gaps > 0)
			printf("%zu known gap%s\n", n.gaps,
			    n.gaps == 1 ? "" : "s");
		printf("%s%zu passed, %zu failed%s\n", !color ? "" :
		    n.failed ? COLOR_RED : COLOR_GREEN, n.passed, n.failed,
		    color ? COLOR_RESET : "");
	}
	status = check_found("test", &cs,
	    n.failed || cs.diags.errors ? RR_EXIT_FAIL : RR_EXIT_OK);
	/* Rules without a test check nothing either (pytest: exit 5). */
	if (status == RR_EXIT_OK && n.passed + n.gaps == 0) {
		if (cs.nrules == 1)
			fprintf(stderr, "reflexion-rules test: the one rule "
			    "has no test; add tests: to it (reflexion-rules(5))"
			    "\n");
		else
			fprintf(stderr, "reflexion-rules test: none of the %zu "
			    "rules has a test; add tests: to them "
			    "(reflexion-rules(5))\n", cs.nrules);
		status = RR_EXIT_FAIL;
	}
	check_release(&cs);
	cmd_args_release(&a);
	return status;
}
