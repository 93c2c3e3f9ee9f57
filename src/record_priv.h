/*
 * What the recorder's files share (record.c: tool calls; record_memory.c:
 * prompts, conversations, routes and session summaries).  No other file
 * includes it.
 */
#ifndef RR_RECORD_PRIV_H
#define RR_RECORD_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "db.h"
#include "rule.h"

struct rr_event;

/* Everything one call writes, prepared before the transaction. */
struct call {
	const char	*tool;
	const char	*session;
	bool		 success;	/* the call succeeded, no error found */
	bool		 is_read;
	char		*file;		/* absolute, redacted; or NULL */
	char		*command;	/* redacted; or NULL */
	const char	*target;	/* file, else command */
	char		*resolved_by;	/* what a resolution names */
	struct buf	 output;
	char		*error;		/* normalized; or NULL */
	char		*error_raw;	/* redacted, cut */
	char		*error_red;	/* redacted, whole: what is normalized */
	const char	*project_dir;	/* and how (errnorm.h) */
	const char	*home;
	const char	*detected;	/* why an error was found, or NULL */
	char		*summary;	/* toolsum.h, redacted */
	char		*pattern;	/* Grep, Glob: redacted */
	const char	*tool_use_id;
	/* Seed 001's own fields, kept as sent. */
	const char	*conversation_id;
	const char	*started_at, *ended_at;
	double		 duration_ms;
	bool		 has_duration;
};

/*
 * Fills c from ev: every text redacted, the output cut, the error
 * normalized (with defer_norm, later: record_call_normalize(); the
 * journal leaves it to the fold, it compiles a table of expressions),
 * the summary made; nothing needs the database.  c points into ev for
 * some fields (ev must outlive it); record_call_release() frees the rest.
 */
void	 record_prepare_call(struct rr_event *, const struct record_opts *,
	     struct call *, bool defer_norm);
/* c->error from c->error_red, unless done or there is no error. */
void	 record_call_normalize(struct call *);
void	 record_call_release(struct call *);
/* The events row's data: one JSON object, valid UTF-8; owned. */
char	*record_call_json(const struct call *, long long count,
	     const char *first_ts);
/*
 * The rows of one call at time now, inside the caller's transaction:
 * the event (or the collapsed Read), the errors it resolves, pruning.
 */
int	 record_call_rows(struct rr_db *, const struct call *,
	     const struct record_opts *, const char *now, char **err);
/*
 * Appends c to the journal (journal.h) instead of writing it: 0; 1 when
 * it was not journaled (switched off, full, the database open and well):
 * write it directly; -1 and *err.
 */
int	 record_journal_call(struct rr_db *, const struct call *,
	     const struct record_opts *, char **err);

/* s[0..len) without private spans and secrets (redact.h); owned. */
char	*record_redacted(const struct record_opts *, const char *s,
	     size_t len);
/*
 * Deletes up to RECORD_PRUNE_BATCH rows of table (events, chat_logs,
 * session_summary: each has id and ts) older than days; 0 or -1.
 */
/*
 * errmark_note() for c's tool_error, before its row can be seen (record
 * or journal).  A marker not written with the store distrusted is a line
 * in db->notes (0); with a stamp left, -1 and *err: the row must not be
 * written.
 */
int	 record_note_error(struct rr_db *, const struct call *c, char **err);
/*
 * errmark_prune() when record_call_rows() pruned events (db->prune_marks),
 * after the commit; a failure is a line in db->notes.
 */
void	 record_prune_marks(struct rr_db *);
int	 record_prune(struct rr_db *, const char *table, int days,
	     char **err);

#endif
