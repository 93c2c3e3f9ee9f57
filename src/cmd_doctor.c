/*
 * reflexion-rules doctor: the self-test of the installation (doctor.h),
 * one line per finding and, under each problem, the command that fixes
 * it; exit 1 when there is any problem.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cmdargs.h"
#include "color.h"
#include "doctor.h"
#include "jsonw.h"
#include "xmalloc.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION	"0.0.0"
#endif

/* A client's --version gets this long before it is given up on. */
#define CLIENT_TIMEOUT_MS	3000

static int cmd_doctor_exec(int, char **);

enum { DOCTOR_AGENT, DOCTOR_FORMAT };

static const struct cmd_option doctor_options[] = {
	{ "agent", 0, "claude|gemini|codex|copilot|cursor", CMD_OPT_REPEAT,
	    DOCTOR_AGENT },
	{ "format", 0, "text|json", 0, DOCTOR_FORMAT },
	{ NULL, 0, NULL, 0, 0 }
};

const struct cmd_entry cmd_doctor_entry = {
	.name = "doctor",
	.options = doctor_options,
	.summary = "Check the installation: this program on PATH, each "
	    "agent's registration, its client's version, config.yaml, the "
	    "packs, the rules, the cache, the database and the state; print "
	    "the command that fixes each problem; exit 1 on any.",
	.exec = cmd_doctor_exec,
};

static const char *const level_names[] = {
	[DOCTOR_OK] = "ok", [DOCTOR_NOTE] = "note",
	[DOCTOR_PROBLEM] = "problem"
};

static void
print_text(const struct doctor_report *r)
{
	const struct doctor_finding	*f;
	const char			*on = "", *off = "";
	bool				 color = color_wanted(stdout);
	size_t				 i;

	for (i = 0; i < r->n; i++) {
		f = &r->items[i];
		if (color) {
			on = f->level == DOCTOR_OK ? COLOR_GREEN :
			    f->level == DOCTOR_NOTE ? COLOR_YELLOW : COLOR_RED;
			off = COLOR_RESET;
		}
		printf("%s%-7s%s  %-11s  %s\n", on, level_names[f->level], off,
		    f->check, f->text);
		if (f->fix != NULL)
			printf("%-7s  %-11s  fix: %s\n", "", "", f->fix);
	}
	if (r->problems == 0)
		printf("%severything is in order%s\n", color ? COLOR_GREEN : "",
		    color ? COLOR_RESET : "");
	else
		printf("%s%zu problem%s%s\n", color ? COLOR_RED : "",
		    r->problems, r->problems == 1 ? "" : "s",
		    color ? COLOR_RESET : "");
}

static void
print_json(const struct doctor_report *r)
{
	const struct doctor_finding	*f;
	struct buf			 b;
	size_t				 i;

	buf_init(&b);
	buf_printf(&b, "{\"version\":\"%s\",\"problems\":%zu,\"checks\":[",
	    PACKAGE_VERSION, r->problems);
	for (i = 0; i < r->n; i++) {
		f = &r->items[i];
		buf_adds(&b, i ? ",\n {" : "\n {");
		buf_printf(&b, "\"status\":\"%s\",\"check\":",
		    level_names[f->level]);
		jsonw_cstring(&b, f->check);
		buf_adds(&b, ",\"message\":");
		jsonw_cstring(&b, f->text);
		if (f->fix != NULL) {
			buf_adds(&b, ",\"fix\":");
			jsonw_cstring(&b, f->fix);
		}
		buf_addc(&b, '}');
	}
	buf_adds(&b, r->n ? "\n]}\n" : "]}\n");
	fwrite(b.data, 1, b.len, stdout);
	buf_release(&b);
}

static int
cmd_doctor_exec(int argc, char **argv)
{
	struct cmd_args		 a;
	struct doctor_opts	 o;
	struct doctor_report	 r;
	const char		**agents, *fmt;
	char			*err;
	size_t			 n, i;
	int			 ag, status;

	if (cmd_args_parse(&cmd_doctor_entry, argc, argv, &a, &err) < 0)
		return cmd_usage(&cmd_doctor_entry, err);
	if (a.help) {
		cmd_print_help(&cmd_doctor_entry, stdout);
		cmd_args_release(&a);
		return RR_EXIT_OK;
	}
	memset(&o, 0, sizeof(o));
	o.client_timeout_ms = CLIENT_TIMEOUT_MS;
	agents = cmd_args_values(&a, DOCTOR_AGENT, &n);
	for (i = 0; i < n; i++) {
		if ((ag = agent_from_name(agents[i])) <= AGENT_AUTO) {
			err = xasprintf("unknown agent '%s' (claude, gemini, "
			    "codex, copilot or cursor)", agents[i]);
			cmd_args_release(&a);
			return cmd_usage(&cmd_doctor_entry, err);
		}
		o.agents[ag] = true;
		o.any_agent = true;
	}
	if ((fmt = cmd_args_get(&a, DOCTOR_FORMAT)) == NULL)
		fmt = "text";
	if (strcmp(fmt, "text") != 0 && strcmp(fmt, "json") != 0) {
		err = xasprintf("unknown format '%s' (text or json)", fmt);
		cmd_args_release(&a);
		return cmd_usage(&cmd_doctor_entry, err);
	}
	doctor_report_init(&r);
	doctor_run(&o, &r);
	if (strcmp(fmt, "json") == 0)
		print_json(&r);
	else
		print_text(&r);
	status = r.problems > 0 ? RR_EXIT_FAIL : RR_EXIT_OK;
	doctor_report_release(&r);
	cmd_args_release(&a);
	return status;
}
