/*
 * Benchmark inputs.
 *   gen rules N          N rules mixing the kinds of reflexion-rules(5): path
 *                        guards, content regexes under a path, command
 *                        guards, prompt keywords (half of them common
 *                        words, so real prompts fire some) and intent
 *                        patterns, and PostToolUse error reminders
 *   gen content-rules N  N content-regex rules on Write
 *   gen write-event SIZE a PreToolUse Write of SIZE bytes of source text
 *                        (a number of megabytes, or with K or M after it)
 *   gen edit-event       a PreToolUse Edit of a service's TypeScript file
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const words[] = {
	"backend", "frontend", "api", "database", "schema", "migration",
	"deploy", "test", "tests", "script", "flag", "docker", "kubernetes",
	"auth", "login", "cache", "queue", "redis", "postgres", "prisma",
	"react", "component", "route", "controller", "service", "model",
	"config", "logging", "metrics", "error", "bug", "fix", "refactor",
	"performance", "security", "token", "secret", "env", "build",
	"release", "pipeline", "lint", "format", "types", "typescript",
	"python", "rust", "docs", "readme", "changelog", "version",
	"dependency", "upgrade", "style", "css", "layout", "modal", "form",
	"validation", "email", "payment", "search", "upload", "webhook"
};
#define NWORDS (sizeof(words) / sizeof(words[0]))

static void
rule(int i)
{
	printf("  - id: r%d\n", i);
	switch (i % 6) {
	case 0:
		printf("    on: PreToolUse\n    tools: [Edit, Write, MultiEdit]\n"
		    "    when:\n      path: ['services/svc%d/**/*.ts', "
		    "'**/gen_%d.{py,pyi}']\n    unless:\n      path: '**/*.test.ts'\n"
		    "    action: deny\n    message: 'svc%d is generated: {{path}}'\n",
		    i, i, i);
		break;
	case 1:
		printf("    on: PreToolUse\n    tools: [Write, Edit]\n    when:\n"
		    "      path: '*.ts'\n      content: {regex: "
		    "['api_key_%d\\s*[:=]\\s*\\S+', 'token%d\\(\\)'], "
		    "ignore_case: true}\n    action: deny\n"
		    "    message: 'secret %d in {{path}}'\n", i, i, i);
		break;
	case 2:
		printf("    on: PreToolUse\n    tools: [Bash]\n    when:\n"
		    "      command: '(^|[;&|]\\s*)tool%d\\s+(--force|-f)\\b'\n"
		    "    action: ask\n    message: 'tool%d --force: {{command}}'\n",
		    i, i);
		break;
	case 3:
		/* Every other keyword rule uses words real prompts contain. */
		if (i % 12 == 3)
			printf("    on: UserPromptSubmit\n    skill: skill-%d\n"
			    "    priority: high\n    when:\n      prompt: {keywords: "
			    "[%s, '%s %s'], word: true}\n    action: suggest\n", i,
			    words[(i / 12) % NWORDS], words[(i / 7) % NWORDS],
			    words[(i / 5) % NWORDS]);
		else
			printf("    on: UserPromptSubmit\n    skill: skill-%d\n"
			    "    priority: high\n    when:\n      prompt: {keywords: "
			    "[topic%d, 'area %d'], word: true}\n"
			    "    action: suggest\n", i, i, i);
		break;
	case 4:
		printf("    on: UserPromptSubmit\n    skill: skill-%d\n"
		    "    when:\n      prompt: '(create|add|build).*?widget%d'\n"
		    "    action: suggest\n", i, i);
		break;
	default:
		printf("    on: [PostToolUse, PostToolUseFailure]\n"
		    "    tools: [Bash]\n    when:\n      any:\n"
		    "        - response: 'E%04d\\b'\n        - error: 'E%04d\\b'\n"
		    "    action: context\n    message: 'see runbook %d'\n",
		    i, i, i);
		break;
	}
}

static void
content_rule(int i)
{
	printf("  - id: c%d\n    on: PreToolUse\n    tools: [Write]\n"
	    "    when:\n      content: 'forbidden_call_%d\\s*\\([^)]*\\)'\n"
	    "    action: deny\n    message: 'call %d is banned'\n", i, i, i);
}

int
main(int argc, char **argv)
{
	long	n, i, size;
	const char *line = "    const value = compute(input, options); "
	    "// ordinary line of code\\n";

	if (argc == 2 && strcmp(argv[1], "edit-event") == 0) {
		printf("{\"session_id\":\"bench\",\"hook_event_name\":"
		    "\"PreToolUse\",\"cwd\":\"/home/dev/shop\",\"tool_name\":"
		    "\"Edit\",\"tool_input\":{\"file_path\":\"/home/dev/shop/"
		    "services/orders/src/api.ts\",\"old_string\":\"const "
		    "limit = 10;\",\"new_string\":\"const limit = "
		    "options.limit ?? 10;\",\"replace_all\":false},"
		    "\"tool_use_id\":\"toolu_bench\"}\n");
		return 0;
	}
	if (argc != 3)
		return 2;
	n = atol(argv[2]);
	if (strcmp(argv[1], "rules") == 0 ||
	    strcmp(argv[1], "content-rules") == 0) {
		printf("version: 1\nrules:\n");
		for (i = 0; i < n; i++)
			argv[1][0] == 'r' ? rule((int)i) : content_rule((int)i);
		return 0;
	}
	if (strcmp(argv[1], "write-event") == 0) {
		size = strchr(argv[2], 'K') != NULL ? n * 1024 : n * 1024 * 1024;
		printf("{\"session_id\":\"bench\",\"hook_event_name\":"
		    "\"PreToolUse\",\"cwd\":\"/home/dev/shop\",\"tool_name\":"
		    "\"Write\",\"tool_input\":{\"file_path\":"
		    "\"/home/dev/shop/src/big.ts\",\"content\":\"");
		for (i = 0; i < size; i += (long)strlen(line) - 1)
			fputs(line, stdout);
		printf("\"}}\n");
		return 0;
	}
	return 2;
}
