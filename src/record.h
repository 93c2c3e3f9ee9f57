/*
 * Recording tool calls (seed 001) into the events table, and resolving
 * errors into the knowledge base.
 *
 * record_event() writes one events row per PostToolUse/PostToolUseFailure
 * event, in one IMMEDIATE transaction:
 *  - type 'tool_use' ({"tool","success":true,...}) or, for a failed call or
 *    an error found in a Bash or WebFetch output (a Python traceback, an
 *    `Error:` line, an HTTP 4xx/5xx status), type 'tool_error' with the
 *    normalized error in data.error (errnorm.h) and the raw one, redacted
 *    and cut, in data.error_raw;
 *  - the file path or command (data.target is what later calls match on),
 *    the output (Grep/Glob: the file list only; then head/tail lines; then
 *    a byte cap), tool_use_id and duration_ms;
 *  - every text redacted first (redact.h);
 *  - a Read of the file the session's previous event read replaces that
 *    row, counting reads (data.count);
 *  - a successful call on a file or command that failed earlier in the
 *    session, by the same tool (on a file: or by any tool that writes
 *    files), resolves those errors: an error_kb row is added or updated
 *    with {"resolvedBy": the command or the file, "tool", "toolSequence":
 *    the tools called since the error}, and an 'error_resolved' event
 *    ({"error_id","kb_id"}) marks each error done;
 *  - events older than the retention are deleted, a batch per call.
 * The events table is only ever inserted into and deleted from, never
 * updated (the original tool's database forbids updates by trigger).
 */
#ifndef RR_RECORD_H
#define RR_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "db.h"
#include "extcmd.h"
#include "rule.h"

struct rr_event;
struct rr_regex;

/* Raw error text kept beside the normalized one. */
#define RECORD_ERROR_RAW_MAX	500
/* Tools listed in a resolution's toolSequence, at most. */
#define RECORD_SEQUENCE_MAX	20
/* Expired events deleted per pruning: it never stalls one hook. */
#define RECORD_PRUNE_BATCH	500
/*
 * Pruning runs in one call of so many (the new event's id a multiple):
 * it deletes up to RECORD_PRUNE_BATCH, more than expire meanwhile.
 */
#define RECORD_PRUNE_EVERY	32

struct rr_command;
struct route_info;

/*
 * What recording a SessionEnd may need besides the database: the
 * configured summarizer (NULL: none), told to before_command (may be
 * NULL) with its time limit before it runs (the hook moves its deadline),
 * and where to say why its summary was not used.
 */
struct record_env {
	const struct rr_command	*summarizer;
	void			(*before_command)(void *arg, long ms);
	void			*arg;
	struct buf		*notes;
};

/*
 * Records ev with opts (NULL: the defaults) and env (NULL: none), by its
 * kind: PostToolUse and PostToolUseFailure a tool call (above);
 * UserPromptSubmit its prompt; Stop and SubagentStop the turn;
 * SessionEnd the session's summary.  Returns 0, or -1 with *err (owned):
 * nothing was written.
 */
int	 record_event(struct rr_db *, struct rr_event *,
	     const struct record_opts *, const struct record_env *,
	     char **err);

/*
 * The parts, for those who know the kind (record_memory.c): each writes
 * in a transaction of its own.  The prompt (a user_prompt event, cut to
 * max_chars); the turn (a chat_logs row of the prompt and the answer, each
 * cut to max_chars, only when both are there); the session's summary
 * (session_summary: the extractive one, then the summarizer's when it
 * gives one).
 */
int	 record_prompt(struct rr_db *, struct rr_event *,
	     const struct record_opts *, char **err);
int	 record_turn(struct rr_db *, struct rr_event *,
	     const struct record_opts *, char **err);
int	 record_session_end(struct rr_db *, struct rr_event *,
	     const struct record_opts *, const struct record_env *,
	     char **err);
/* The routing log: one route event for the event's session. */
int	 record_route(struct rr_db *, const struct rr_event *,
	     const struct route_info *, char **err);

/*
 * Inserts one events row as given (data is JSON text), inside or outside
 * a transaction (rule tests seed sessions with it).  0 or -1 and *err.
 */
int	 record_insert_event(struct rr_db *, const char *ts,
	     const char *session_id, const char *type, const char *data,
	     char **err);

/*
 * Folds the journal beside db's file (journal.h) into it: db_conn()
 * calls it right after opening.  Under the journal's lock, its whole
 * records after the last one folded before are replayed in order, as
 * record_event() would have written them (collapsed Reads, resolutions,
 * pruning), in one transaction that also keeps the last record's key;
 * then the journal is emptied.  A crash between the two leaves records
 * the key says are done.  Damaged records are skipped with a note.
 * With max (0: no limit), at most max records are folded and *more says
 * whether some wait for another call, which starts after the key.
 * 0, or -1 and *err: nothing was written, the journal stays.
 */
int	 record_fold(struct rr_db *, size_t max, bool *more, char **err);

/* Exposed for tests: what the recorder keeps of a tool's output. */
void	 record_compress(const char *s, size_t len,
	     const struct record_opts *, struct buf *out);

#endif
