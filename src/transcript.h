/*
 * Claude Code session transcripts (.jsonl): the last assistant text, for
 * Stop events of clients older than 2.1.47 that send no
 * last_assistant_message; the last turn (the prompt and the answer's
 * texts), for the `prompt` of a Stop and the conversation saved on Stop.
 * Lines of tool results and meta lines are not prompts.
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

/*
 * The last turn of the transcript at path (its last 8 MB): *user the last
 * prompt (its text parts joined by '\n'), *assistant the texts of the
 * assistant lines after it, in order, joined by '\n'; either may be NULL
 * (owned otherwise).  -1 when the file is unreadable (*why as above) or
 * holds neither.
 */
int	transcript_last_turn(const char *path, char **user, char **assistant,
	    char **why);

#endif
