/*
 * The error knowledge base: lookups for the `kb` condition, the writes of
 * the recorder and of `reflexion-rules kb`.
 *
 * Lookups return rows the caller owns (kb_rows_release()).  A resolution
 * is kept as its raw text and, when that text is JSON other than null, as
 * parsed JSON too (what seed 000's JSON.parse would give).
 *
 * The file-name lookup answers exactly what seed 000's
 *   error_normalized LIKE '%name%' AND resolution IS NOT NULL
 *   ORDER BY last_used DESC
 * answers, with the name taken literally ('%', '_' and '\' in it are
 * escaped) and ties broken by the newest id.  It does not scan: it first
 * looks at the newest few hundred rows, then asks the FTS5 trigram index
 * for candidates and checks each with the same LIKE.  A name of one or
 * two ASCII characters is looked up among the trigrams it begins (every
 * indexed text ends with two U+0001, so every place of a text begins a
 * trigram: db.c), each candidate checked with the LIKE too.  Names the
 * index cannot vouch for (invalid UTF-8, U+FFFD, a leading U+0080: where
 * SQLite's LIKE and the trigram tokenizer read bytes differently; short
 * ones that are not ASCII) fall back to a scan in last_used order.
 */
#ifndef RR_KB_H
#define RR_KB_H

#include <stdbool.h>
#include <stddef.h>

#include "db.h"

struct cJSON;

struct kb_row {
	long long	 id;
	char		*error;		/* error_normalized */
	char		*resolution;	/* raw text, or NULL */
	struct cJSON	*parsed;	/* resolution as JSON, or NULL */
	char		*last_used;	/* or NULL */
	long long	 uses;
};

struct kb_rows {
	struct kb_row	*v;
	size_t		 n, cap;
};

void	 kb_rows_init(struct kb_rows *);
void	 kb_rows_release(struct kb_rows *);
/* Moves every row of src to the end of dst. */
void	 kb_rows_take(struct kb_rows *dst, struct kb_rows *src);

/* How the lookups below choose their rows. */
#define KB_ANY_RESOLUTION	0x1	/* rows without a resolution too */

/*
 * Rows whose error text contains name (ASCII case-insensitive, as LIKE),
 * newest last_used first, at most limit.  Returns 0 (rows may be empty,
 * also when there is no database yet) or -1 with *err.
 */
int	 kb_file_errors(struct rr_db *, const char *name, size_t limit,
	     unsigned flags, struct kb_rows *, char **err);
/* How the last kb_file_errors() call found its rows (tests, bench). */
enum kb_plan {
	KB_PLAN_NONE,
	KB_PLAN_PROBE,		/* among the newest rows */
	KB_PLAN_INDEX,		/* FTS5 trigram candidates */
	KB_PLAN_TERMS,		/* the trigrams a short name begins */
	KB_PLAN_SCAN		/* every row, in last_used order */
};
enum kb_plan kb_last_plan(void);

/* The same question as one plain LIKE query over the table (tests, bench). */
int	 kb_file_errors_scan(struct rr_db *, const char *name, size_t limit,
	     unsigned flags, struct kb_rows *, char **err);
/* '%' name '%' with '%', '_' and '\' escaped by '\'; owned. */
char	*kb_like_pattern(const char *name);

/*
 * Seed 000's Bash lookup, for any tool: the error of the session's latest
 * tool_error event of `tool`, then the KB rows with exactly that error
 * text and a resolution.  0 or -1 with *err.
 */
int	 kb_session_error(struct rr_db *, const char *session_id,
	     const char *tool, size_t limit, struct kb_rows *, char **err);

/* All rows, newest last_used first (kb list), at most limit (0: all). */
int	 kb_list(struct rr_db *, size_t limit, struct kb_rows *, char **err);

enum kb_put_result {
	KB_ADDED,
	KB_UPDATED,
	KB_UNCHANGED
};

/*
 * Writes one KB entry, inside the caller's transaction.  The row with
 * exactly this error text is updated, else one is added.
 *  - resolving (kb_put_resolution): resolution and last_used are set,
 *    use_count grows by one;
 *  - merging (kb_put_merge, import): the entry wins when it is newer
 *    (last_used) or the row has no resolution; use_count is the larger.
 *    Its texts come from outside: invalid UTF-8 is stored as U+FFFD, so
 *    that an export imports back the same.
 * id, when not NULL, receives the row id.  0 or -1 with *err.
 */
int	 kb_put_resolution(struct rr_db *, const char *error,
	     const char *error_raw, const char *resolution, const char *now,
	     long long *id, char **err);
int	 kb_put_merge(struct rr_db *, const char *error, const char *resolution,
	     const char *last_used, long long uses, enum kb_put_result *,
	     char **err);

/*
 * One entry of the JSON Lines format of kb export/import (and of rule
 * tests' kb: seeds), merged with kb_put_merge():
 *   {"error": TEXT, "resolution": TEXT or JSON, "last_used": TEXT,
 *    "use_count": N}
 * A resolution that is not a string is stored as compact JSON.  0, or -1
 * with *err saying what is wrong with the entry or the database.
 */
int	 kb_import_entry(struct rr_db *, const struct cJSON *,
	     enum kb_put_result *, char **err);
/* An entry in that format, one line without the newline; owned. */
char	*kb_export_entry(const struct kb_row *);

#endif
