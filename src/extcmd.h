/*
 * A command the user configures in config.yaml for the parts of the seeds
 * that need a language model (reflexion-rules(5), CONFIGURED COMMANDS):
 * the summarizer of sessions and the router of prompts.  It reads one
 * JSON document on stdin and writes its answer on stdout.
 *
 * extcmd_run() runs it in a process group of its own, writes the input,
 * reads at most EXTCMD_OUTPUT_MAX bytes of stdout and keeps the start of
 * stderr for the message, and waits at most the command's time limit:
 * then the whole group is killed.  The command is a shell line (run by
 * /bin/sh -c) or a list of words (run as is, found on PATH).  No
 * descriptor of the caller's leaks into it.  Only what the caller passes
 * on stdin reaches it: the caller redacts that first.
 */
#ifndef RR_EXTCMD_H
#define RR_EXTCMD_H

#include <stddef.h>

#include "buf.h"

#define EXTCMD_OUTPUT_MAX	(1024 * 1024)
#define EXTCMD_TIMEOUT_DEFAULT	8000	/* ms */
#define EXTCMD_TIMEOUT_MAX	120000	/* ms */

struct rr_command {
	char	 *shell;	/* a shell line, or NULL */
	char	**argv;		/* else a list of words, NULL-terminated */
	long	  timeout_ms;
};

void	 extcmd_release(struct rr_command *);
/* A deep copy of src into dst. */
void	 extcmd_copy(struct rr_command *dst, const struct rr_command *src);
/* "sh -c '...'" or the words, for messages; owned. */
char	*extcmd_describe(const struct rr_command *);

/*
 * Runs cmd with input on its stdin; its stdout in out.  Returns 0 when it
 * exited with status 0, else -1 with *err (owned): it could not start,
 * it ran past its time limit, its output was too long, or it failed
 * (its status and the first line of its stderr).
 */
int	 extcmd_run(const struct rr_command *, const char *input, size_t len,
	     struct buf *out, char **err);

#endif
