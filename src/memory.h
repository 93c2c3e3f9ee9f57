/*
 * Reading the memory back (seeds 001 and 004): what `reflexion-rules
 * memory` lists and what the `memory` condition finds for a message.
 *
 * Three kinds of rows, each with an id of its own:
 *   s12  a session's summary (session_summary)
 *   c7   a saved turn of a conversation (chat_logs)
 *   e41  an observation (events: a tool call, a prompt, a route)
 * and three layers (seed 001 §3.3): search gives ids and one-line
 * summaries; a timeline gives the rows around one (id, tool, time); show
 * gives whole rows.  Searching is two-tier (seed 004): summaries first,
 * then conversations, then observations; each tier is ranked by FTS5's
 * bm25 over the words of the query, each word a prefix (a Korean stem
 * finds its inflected forms), and newest first among equals.
 *
 * Lookups never write; a missing database is an empty memory.
 * Ownership: struct mem_rows owns its rows and their strings.
 */
#ifndef RR_MEMORY_H
#define RR_MEMORY_H

#include <stdbool.h>
#include <stddef.h>

#include "db.h"

enum mem_kind {
	MEM_SUMMARY,
	MEM_CONVERSATION,
	MEM_OBSERVATION,
	MEM__COUNT
};

/* "summary", "conversation", "observation", by enum mem_kind. */
extern const char *const mem_kind_names[MEM__COUNT];

struct mem_row {
	enum mem_kind	 kind;
	long long	 rowid;
	char		 id[24];	/* s12, c7, e41 */
	char		*type;		/* events.type: tool_use, route, ... */
	char		*ts;
	char		*session;
	char		*project;	/* summaries, conversations; or NULL */
	char		*tool;		/* observations of a tool; or NULL */
	char		*line;		/* one line: what a search lists */
	char		*text;		/* the whole row, as text */
	char		*data;		/* JSON: events.data, summary facts */
	/* A route event's. */
	char		*exec_type, *pipeline, *icon, *reason;
	int		 confidence;
};

struct mem_rows {
	struct mem_row	*v;
	size_t		 n, cap;
};

void	 mem_rows_init(struct mem_rows *);
void	 mem_rows_release(struct mem_rows *);

/* What to look for; every field may be zero. */
struct mem_query {
	const char	*words;		/* NULL or blank: the most recent */
	bool		 any_word;	/* ranked OR, else every word */
	const char	*session;	/* only this session */
	const char	*not_session;	/* leave this session out */
	const char	*project;	/* only this project's */
	size_t		 limit;		/* 0: MEM_LIMIT_DEFAULT */
};

#define MEM_LIMIT_DEFAULT	10
#define MEM_LIMIT_MAX		1000
/* Words of a query used, at most. */
#define MEM_QUERY_WORDS		32
/* Characters of a row's one-line summary. */
#define MEM_LINE_MAX		160

/*
 * The rows of one tier that match q, appended to rows.  0, or -1 with
 * *err (owned).
 */
int	 mem_search(struct rr_db *, enum mem_kind, const struct mem_query *,
	     struct mem_rows *, char **err);
/*
 * Observations of calls on a file (seed 001's getToolsForFile): path is
 * matched at the end of the recorded absolute path, on a '/' boundary
 * ("src/a.ts" finds /p/src/a.ts).  Newest first.
 */
int	 mem_file(struct rr_db *, const char *path, const char *session,
	     size_t limit, struct mem_rows *, char **err);
/*
 * The observations of id's session around it: `before` rows before and
 * `after` after, in order (a summary's or a turn's: around its time).
 * 0 (rows may be empty: no such id), or -1 with *err.
 */
int	 mem_timeline(struct rr_db *, const char *id, size_t before,
	     size_t after, struct mem_rows *, char **err);
/* The whole row of each id (layer 3); unknown ids are skipped. */
int	 mem_show(struct rr_db *, const char *id, struct mem_rows *,
	     char **err);
/*
 * A session in order: its summary, then its turns and observations by
 * time.  With session NULL, the most recent sessions, one row each (its
 * summary's line, else its first prompt).
 */
int	 mem_session(struct rr_db *, const char *session, size_t limit,
	     struct mem_rows *, char **err);
/* The latest route event of a session, if any (*found). */
int	 mem_last_route(struct rr_db *, const char *session,
	     struct mem_row *, bool *found, char **err);
void	 mem_row_release(struct mem_row *);

/*
 * The FTS5 query for words: each word a quoted prefix, joined by AND or
 * OR; NULL when no word is long enough (2 bytes) to search for.  Owned.
 */
char	*mem_fts_query(const char *words, bool any_word);
/* Whether id names a row: [sce] and digits. */
bool	 mem_valid_id(const char *id);

#endif
