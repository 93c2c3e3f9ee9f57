/*
 * Session summaries (seed 004, SessionEnd): the facts of a session read
 * back from the memory, the extractive summary made of them, and the
 * JSON contract of a configured summarizer (reflexion-rules(5),
 * CONFIGURED COMMANDS).
 *
 * The extractive summary, one fact per line, empty ones left out:
 *
 *   Session 670db96e (shop), 2026-11-28 08:14 to 09:02 UTC, 12 tool calls.
 *   First request: Fix the flaky webhook test
 *   Last request: commit it
 *   Files touched: src/pay.ts (edited), test/pay.test.ts (read)
 *   Commands run: npm test (failed, then ok) x3; git status
 *   Errors: AssertionError: expected 200 (Bash: npm test), resolved by
 *     npm test (Bash)
 *
 * (the last fact is one line).  The summarizer reads on stdin
 *
 *   {"version": 1, "session_id": ..., "project": ..., "reason": ...,
 *    "started": ..., "ended": ..., "extractive": TEXT,
 *    "facts": {"tool_calls": N, "first_request": ..., "last_request": ...,
 *              "files": [{"path", "action"}], "commands": [{"command",
 *              "runs", "failures", "last_failed"}], "errors": [{"error",
 *              "tool", "target", "resolved_by"}]},
 *    "conversation": [{"ts", "user", "assistant"}, ...]}
 *
 * (texts already redacted as they were recorded; the conversation is the
 * session's saved turns, oldest first, the oldest left out past
 * SUMMARY_INPUT_CHARS characters) and writes the summary on stdout: plain
 * text, or a JSON object with a "summary" string.
 *
 * Ownership: everything in struct session_facts is owned by it.
 */
#ifndef RR_SUMMARY_H
#define RR_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

#include "db.h"

/* A summary (either kind) is cut to this many characters. */
#define SUMMARY_MAX_CHARS	10000
/* Characters of conversation the summarizer is given, at most. */
#define SUMMARY_INPUT_CHARS	100000
/* Facts listed, at most, of each kind. */
#define SUMMARY_FILES_MAX	20
#define SUMMARY_COMMANDS_MAX	15
#define SUMMARY_ERRORS_MAX	10

struct sf_file {
	char		*path;		/* relative to the project if under it */
	const char	*action;	/* written, edited, read, touched */
};

struct sf_command {
	char		*command;	/* its first line, cut */
	long long	 runs, failures;
	bool		 last_failed;
};

struct sf_error {
	long long	 id;		/* the tool_error event */
	char		*error;		/* its first line */
	char		*tool;
	char		*target;	/* the file or command, or NULL */
	char		*resolved_by;	/* or NULL: not resolved */
	char		*resolved_tool;
};

struct sf_turn {
	char		*ts, *user, *assistant;
};

struct session_facts {
	char		*session_id;
	char		*project;	/* or NULL */
	char		*started, *ended;	/* or NULL: nothing recorded */
	long long	 tool_calls;
	char		*first_request, *last_request;	/* or NULL */
	struct sf_file	*files;
	size_t		 nfiles, more_files;
	struct sf_command *commands;
	size_t		 ncommands, more_commands;
	struct sf_error	*errors;
	size_t		 nerrors, more_errors;
	struct sf_turn	*turns;
	size_t		 nturns;
};

/*
 * Reads what the memory holds of a session (its events and saved turns).
 * project (may be NULL) makes file names relative.  0, or -1 with *err.
 */
int	 summary_facts(struct rr_db *, const char *session_id,
	     const char *project, struct session_facts *, char **err);
void	 summary_facts_release(struct session_facts *);
/* Whether the session left anything to summarize. */
bool	 summary_has_facts(const struct session_facts *);

/* The extractive summary; owned. */
char	*summary_extractive(const struct session_facts *);
/* The facts as the JSON object of the contract above; owned. */
char	*summary_facts_json(const struct session_facts *);
/* The summarizer's stdin; owned. */
char	*summary_input_json(const struct session_facts *,
	     const char *extractive, const char *reason);
/*
 * The summary in a summarizer's stdout out[0..len): 0 and *summary
 * (owned, cut to SUMMARY_MAX_CHARS), or -1 and *err when it is empty.
 */
int	 summary_from_output(const char *out, size_t len, char **summary,
	     char **err);

#endif
