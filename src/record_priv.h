/*
 * What the recorder's files share (record.c: tool calls; record_memory.c:
 * prompts, conversations, routes and session summaries).  No other file
 * includes it.
 */
#ifndef RR_RECORD_PRIV_H
#define RR_RECORD_PRIV_H

#include <stddef.h>

#include "db.h"
#include "rule.h"

/* s[0..len) without private spans and secrets (redact.h); owned. */
char	*record_redacted(const struct record_opts *, const char *s,
	     size_t len);
/*
 * Deletes up to RECORD_PRUNE_BATCH rows of table (events, chat_logs,
 * session_summary: each has id and ts) older than days; 0 or -1.
 */
int	 record_prune(struct rr_db *, const char *table, int days,
	     char **err);

#endif
