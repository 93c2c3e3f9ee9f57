/*
 * Claude Code session transcripts (.jsonl): the last assistant text, for
 * Stop events of clients older than 2.1.47 that send no
 * last_assistant_message.
 */
#ifndef RR_TRANSCRIPT_H
#define RR_TRANSCRIPT_H

#include <stddef.h>

/*
 * Reads at most the last 8 MB of the transcript at path and returns, owned,
 * the text parts of the last assistant message joined by '\n'.
 * Returns -1 when the file is unreadable or has no assistant text; *why
 * (owned) then says why for stderr when the file is refused (not a
 * regular file: a FIFO, a device, a directory, a socket) or cannot be
 * opened for another reason than not existing, else it is NULL.  Never
 * blocks on the file.
 */
int	transcript_last_assistant_text(const char *path, char **text,
	    size_t *len, char **why);

#endif
