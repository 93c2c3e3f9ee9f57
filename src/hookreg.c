/*
 * Each client's hook registration (hookreg.h), as its own code reads it:
 * Claude Code's and Codex's and Gemini CLI's nested settings, Copilot
 * CLI's and Cursor's flat hook files.  Timeouts are 10 seconds in each
 * client's unit: well over the hook's own 2 s deadline, far under the
 * clients' defaults, so a hung process cannot hold a tool call long.
 */
#include <stdlib.h>
#include <string.h>

#include "hookreg.h"
#include "xmalloc.h"

const char *const reg_scope_names[SCOPE__COUNT] = {
	[SCOPE_PROJECT] = "project",
	[SCOPE_LOCAL] = "local",
	[SCOPE_USER] = "user",
};

/* The tool events come first: only they take a matcher. */
static const struct reg_event claude_events[] = {
	{ "PreToolUse", "*" },
	{ "PostToolUse", "*" },
	{ "PostToolUseFailure", "*" },
	{ "UserPromptSubmit", "" },
	{ "Stop", "" },
	{ "SubagentStop", "" },
	{ "SessionStart", "" },
	{ "SessionEnd", "" },
	{ "", "" }
};

/* "*" is every tool for Gemini CLI; its other events take none. */
static const struct reg_event gemini_events[] = {
	{ "BeforeTool", "*" },
	{ "AfterTool", "*" },
	{ "BeforeAgent", "" },
	{ "AfterAgent", "" },
	{ "SessionStart", "" },
	{ "SessionEnd", "" },
	{ "", "" }
};

/* Codex matches apply_patch under "*" too (and Edit, Write). */
static const struct reg_event codex_events[] = {
	{ "PreToolUse", "*" },
	{ "PostToolUse", "*" },
	{ "UserPromptSubmit", "" },
	{ "Stop", "" },
	{ "SubagentStop", "" },
	{ "SessionStart", "" },
	{ "", "" }
};

/* camelCase: Copilot's own tool names, and --event on each. */
static const struct reg_event copilot_events[] = {
	{ "preToolUse", "" },
	{ "postToolUse", "" },
	{ "postToolUseFailure", "" },
	{ "userPromptSubmitted", "" },
	{ "agentStop", "" },
	{ "subagentStop", "" },
	{ "sessionStart", "" },
	{ "sessionEnd", "" },
	{ "", "" }
};

/*
 * Shell commands and MCP calls go through their own steps, where an ask
 * is asked; preToolUse takes the other tools (a JavaScript regex,
 * unanchored: it leaves out Shell and MCP:*), so no call is seen twice.
 */
static const struct reg_event cursor_events[] = {
	{ "preToolUse", "^(?!Shell$|MCP:)" },
	{ "beforeShellExecution", "" },
	{ "beforeMCPExecution", "" },
	{ "postToolUse", "" },
	{ "postToolUseFailure", "" },
	{ "beforeSubmitPrompt", "" },
	{ "stop", "" },
	{ "subagentStop", "" },
	{ "sessionStart", "" },
	{ "sessionEnd", "" },
	{ "", "" }
};

static const struct reg_client clients[] = {
	{
		.agent = AGENT_CLAUDE, .shape = REG_NESTED,
		.files = {
			[SCOPE_PROJECT] = { ".claude/settings.json", NULL,
			    false, false },
			[SCOPE_LOCAL] = { ".claude/settings.local.json", NULL,
			    false, false },
			[SCOPE_USER] = { "~/.claude/settings.json", NULL,
			    false, false },
		},
		.events = claude_events,
		.command_key = "command", .type = "command",
		.timeout_key = "timeout", .timeout = 10,
		/*
		 * No --agent: Copilot CLI and Cursor read these files too,
		 * and are recognised from their events.
		 */
		.args = "",
	},
	{
		.agent = AGENT_GEMINI, .shape = REG_NESTED,
		.files = {
			[SCOPE_PROJECT] = { ".gemini/settings.json", NULL,
			    false, false },
			[SCOPE_USER] = { "~/.gemini/settings.json", NULL,
			    false, false },
		},
		.events = gemini_events,
		.command_key = "command", .type = "command",
		.name = "reflexion-rules",
		.timeout_key = "timeout", .timeout = 10000,	/* ms */
		.args = " --agent gemini",
		.next = "Gemini CLI runs a project's hooks only in a trusted "
		    "folder: trust it when asked (or run with --scope user)",
	},
	{
		.agent = AGENT_CODEX, .shape = REG_NESTED,
		.files = {
			[SCOPE_PROJECT] = { ".codex/hooks.json", NULL, false,
			    false },
			[SCOPE_USER] = { "~/.codex/hooks.json", "CODEX_HOME",
			    false, false },
		},
		.events = codex_events,
		.command_key = "command", .type = "command",
		.timeout_key = "timeout", .timeout = 10,
		.args = " --agent codex",
		.next = "Codex runs a new hook only once it is trusted, and "
		    "says nothing otherwise: review it with /hooks in codex "
		    "(codex exec: --dangerously-bypass-hook-trust)",
	},
	{
		.agent = AGENT_COPILOT, .shape = REG_FLAT,
		.files = {
			[SCOPE_PROJECT] = { ".github/hooks/reflexion-rules.json",
			    NULL, true, true },
			[SCOPE_LOCAL] = { ".github/copilot/settings.local.json",
			    NULL, false, false },
			[SCOPE_USER] = {
			    "~/.copilot/hooks/reflexion-rules.json",
			    "COPILOT_HOME", true, true },
		},
		.events = copilot_events,
		.command_key = "bash", .type = "command",
		.timeout_key = "timeoutSec", .timeout = 10,
		.args = " --agent copilot",
		.event_arg = true,
		.next = "Copilot CLI loads a repository's hooks once the "
		    "folder is trusted (copilot -p: --trust-folder)",
	},
	{
		.agent = AGENT_CURSOR, .shape = REG_FLAT,
		.files = {
			[SCOPE_PROJECT] = { ".cursor/hooks.json", NULL, false,
			    true },
			[SCOPE_USER] = { "~/.cursor/hooks.json", NULL, false,
			    true },
		},
		.events = cursor_events,
		.command_key = "command", .type = NULL,
		.timeout_key = "timeout", .timeout = 10,
		.args = " --agent cursor",
	},
};

const struct reg_client *
hookreg_client(enum rr_agent agent)
{
	size_t	i;

	for (i = 0; i < sizeof(clients) / sizeof(clients[0]); i++)
		if (clients[i].agent == agent)
			return &clients[i];
	return NULL;
}

char *
hookreg_file(const struct reg_client *c, enum reg_scope scope,
    const char *root, char **err)
{
	const struct reg_file	*f = &c->files[scope];
	const char		*home, *env, *rest;

	if (f->path == NULL) {
		*err = xasprintf("%s has no %s scope (its scopes: %s%s%s)",
		    agent_titles[c->agent], reg_scope_names[scope],
		    c->files[SCOPE_PROJECT].path ? "project" : "",
		    c->files[SCOPE_LOCAL].path ? ", local" : "",
		    c->files[SCOPE_USER].path ? ", user" : "");
		return NULL;
	}
	if (strncmp(f->path, "~/", 2) != 0) {
		if (root == NULL || *root == '\0' || strcmp(root, ".") == 0)
			return xstrdup(f->path);
		return xasprintf("%s%s%s", root,
		    root[strlen(root) - 1] == '/' ? "" : "/", f->path);
	}
	if (f->dir_env != NULL && (env = getenv(f->dir_env)) != NULL &&
	    *env != '\0') {
		/* "~/.codex/hooks.json": $CODEX_HOME/hooks.json */
		rest = strchr(f->path + 2, '/');
		return xasprintf("%s%s", env, rest != NULL ? rest : "");
	}
	if ((home = getenv("HOME")) == NULL || *home == '\0') {
		*err = xasprintf("HOME is not set: no user scope for %s",
		    agent_titles[c->agent]);
		return NULL;
	}
	return xasprintf("%s/%s", home, f->path + 2);
}

static bool
blank(char c)
{
	return c == ' ' || c == '\t';
}

bool
hookreg_is_ours(const char *cmd)
{
	return hookreg_runs_ours(cmd, "hook");
}

bool
hookreg_runs_ours(const char *cmd, const char *verb)
{
	size_t		 vlen = strlen(verb);
	const char	*p = cmd, *start, *base, *q;
	char		 quote = 0;

	while (blank(*p))
		p++;
	/* The program: a word, parts of it maybe quoted. */
	for (start = p; *p != '\0' && (quote != 0 || !blank(*p)); p++) {
		if (quote != 0 && *p == quote)
			quote = 0;
		else if (quote == 0 && (*p == '"' || *p == '\''))
			quote = *p;
	}
	for (base = q = start; q < p; q++)
		if (*q == '/')
			base = q + 1;
	while (base < p && (*base == '"' || *base == '\''))
		base++;
	q = p;
	while (q > base && (q[-1] == '"' || q[-1] == '\''))
		q--;
	if (!((size_t)(q - base) == strlen("reflexion-rules") &&
	    strncmp(base, "reflexion-rules", (size_t)(q - base)) == 0))
		return false;
	while (blank(*p))
		p++;
	return strncmp(p, verb, vlen) == 0 && (p[vlen] == '\0' ||
	    blank(p[vlen]));
}
