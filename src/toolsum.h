/*
 * The one-line summary stored with each recorded tool call (seed 001
 * §3.2), what `memory search` lists and its index holds:
 *
 *   Read        Read {path}: {first_line}...
 *   Write       Wrote {lines} lines to {path}
 *   Bash        Ran `{cmd}`: {status}     status: exit N, interrupted,
 *                                         or error: {its first line}
 *   Grep        Found {n} matches for {pattern}
 *
 * and, in the same spirit, for the tools the seed does not list:
 *
 *   Edit, MultiEdit   Edited {path} (+{added} -{removed} lines)
 *   NotebookEdit      Edited notebook {path}
 *   Glob              Found {n} files for {pattern}
 *   WebFetch          Fetched {url}: {status}
 *   WebSearch         Searched for {query}
 *   Task              Ran agent {type}: {description}
 *   any other         {tool} {path, command or first text of its input}
 *
 * A failed call other than Bash ends in " (failed: {first line of the
 * error})".  Every part is one line (line breaks and control characters
 * become spaces) and cut to a length; the caller redacts the result.
 */
#ifndef RR_TOOLSUM_H
#define RR_TOOLSUM_H

#include <stdbool.h>
#include <stddef.h>

struct cJSON;

struct toolsum_call {
	const char		*tool;
	const char		*path;		/* as shown, or NULL */
	const char		*command;	/* or NULL */
	const char		*output;	/* what is kept of it, or NULL */
	size_t			 output_len;
	const char		*error;		/* or NULL: no error */
	const struct cJSON	*input;		/* tool_input, or NULL */
	const struct cJSON	*response;	/* tool_response, or NULL */
};

/* Characters of a command, pattern or first line kept in a summary. */
#define TOOLSUM_PART_MAX	100

/* The summary line of a call; owned. */
char	*toolsum(const struct toolsum_call *);

#endif
