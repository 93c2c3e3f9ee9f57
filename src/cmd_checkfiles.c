/*
 * reflexion-rules check [--rules PATH]... [--format text|json]
 * [--output FILE] FILE...: the document and JSON checks of the rules run
 * on files outside any agent (checkfiles.h).  Text: one line per result
 * that does not pass; JSON: a gate's report.  Exit 1 when one does not
 * pass, 2 when a file cannot be read, 3 when rule files have errors (a
 * broken rule checks nothing): a CI job must never pass by checking
 * nothing.  (cmd_check.c is the rule loading that lint and test share.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkfiles.h"
#include "cmd_check.h"
#include "cmdargs.h"
#include "fileio.h"
#include "places.h"
#include "xmalloc.h"

static int cmd_checkfiles_exec(int, char **);

enum { CHECK_RULES, CHECK_FORMAT, CHECK_OUTPUT };

static const struct cmd_option check_options[] = {
	{ "rules", 0, "PATH", CMD_OPT_REPEAT, CHECK_RULES },
	{ "format", 0, "text|json", 0, CHECK_FORMAT },
	{ "output", 0, "FILE", 0, CHECK_OUTPUT },
	{ NULL, 0, NULL, 0, 0 }
};

const struct cmd_entry cmd_checkfiles_entry = {
	.name = "check",
	.options = check_options,
	.args = "FILE...",
	.lower = 1,
	.upper = -1,
	.summary = "Run the document and JSON checks of the rules on files, "
	    "as the Write of each; print what does not pass, or with --format "
	    "json a gate's report; exit 1 if anything does not pass.",
	.exec = cmd_checkfiles_exec,
};

static int
write_report(const char *out, const struct buf *b)
{
	char	*err;

	if (out == NULL) {
		fwrite(b->data, 1, b->len, stdout);
		return 0;
	}
	if (file_replace(out, b->data, b->len, new_file_mode(0666),
	    &err) < 0) {
		fprintf(stderr, "reflexion-rules check: %s\n", err);
		free(err);
		return -1;
	}
	return 0;
}

static int
cmd_checkfiles_exec(int argc, char **argv)
{
	struct cmd_args		 a;
	struct check_set	 cs;
	struct check_report	 rep;
	struct rule_sources	 src;
	struct buf		 b;
	const char		*fmt, *out;
	char			*err, *cwd, *project;
	size_t			 i, failures;
	int			 status;

	if (cmd_args_parse(&cmd_checkfiles_entry, argc, argv, &a, &err) < 0)
		return cmd_usage(&cmd_checkfiles_entry, err);
	if (a.help) {
		cmd_print_help(&cmd_checkfiles_entry, stdout);
		cmd_args_release(&a);
		return RR_EXIT_OK;
	}
	if ((fmt = cmd_args_get(&a, CHECK_FORMAT)) == NULL)
		fmt = "text";
	if (strcmp(fmt, "text") != 0 && strcmp(fmt, "json") != 0) {
		fprintf(stderr, "reflexion-rules check: unknown format '%s' "
		    "(text or json)\n", fmt);
		cmd_args_release(&a);
		return RR_EXIT_USAGE;
	}
	out = cmd_args_get(&a, CHECK_OUTPUT);
	if ((cwd = getcwd(NULL, 0)) == NULL) {
		fprintf(stderr, "reflexion-rules check: cannot tell the "
		    "current directory\n");
		cmd_args_release(&a);
		return RR_EXIT_USAGE;
	}
	src.paths = cmd_args_values(&a, CHECK_RULES, &src.npaths);
	check_load("check", &src, LOAD_CACHED, false, &cs);
	for (i = 0; i < cs.diags.n; i++)
		diag_print_text(stderr, &cs.diags.items[i]);
	project = project_root(NULL);
	check_report_init(&rep);
	for (i = 0; i < (size_t)a.nrest; i++)
		check_file(&cs.rs, a.rest[i], cwd, *project ? project : cwd,
		    &rep);
	fwrite(rep.notes.data, 1, rep.notes.len, stderr);
	buf_init(&b);
	if (strcmp(fmt, "json") == 0)
		check_format_json(&rep, &b);
	else
		check_format_text(&rep, &b);
	failures = check_failures(&rep);
	status = failures > 0 ? RR_EXIT_FAIL : RR_EXIT_OK;
	if (write_report(out, &b) < 0 || rep.unreadable)
		status = RR_EXIT_USAGE;
	if (cs.diags.errors > 0) {
		fprintf(stderr, "reflexion-rules check: rule files have "
		    "errors; their broken rules checked nothing\n");
		status = RR_EXIT_COMPILE;
	}
	if (strcmp(fmt, "text") == 0 || out != NULL) {
		fprintf(stderr, "reflexion-rules check: %zu file%s", rep.files,
		    rep.files == 1 ? "" : "s");
		if (rep.unread > 0)
			fprintf(stderr, " (%zu not read)", rep.unread);
		fprintf(stderr, ", %zu result%s that do%s not pass\n",
		    failures, failures == 1 ? "" : "s", failures == 1 ?
		    "es" : "");
	}
	status = check_found("check", &cs, status);
	buf_release(&b);
	check_report_release(&rep);
	check_release(&cs);
	free(project);
	free(cwd);
	cmd_args_release(&a);
	return status;
}
