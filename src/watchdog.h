/*
 * The hook's deadline.  A hook must answer within its budget whatever
 * happens below it: a regex at its limits on 50 MB, a state lock held by a
 * stuck process, a busy database, a stdin that never reaches EOF.
 *
 * watchdog_arm() starts a one-shot timer.  Until watchdog_disarm(), the
 * answer most recently given to watchdog_answer() is what the agent gets if
 * the timer fires: the SIGALRM handler writes it to stdout and stderr and
 * ends the process with _exit().  Besides out of memory and BUG()
 * (xmalloc.h), this is the one place below main.c that ends the process,
 * on purpose: a signal handler cannot return into the code it interrupted
 * (PCRE2, SQLite, malloc), so it must not go back.
 * Everything the engine writes to disk is crash-safe (rename, SQLite's
 * journal), so ending there loses nothing.
 *
 * The watchdog keeps its own copies of the answer; the caller keeps
 * ownership of what it passes.
 */
#ifndef RR_WATCHDOG_H
#define RR_WATCHDOG_H

#include <stddef.h>

/* Arms the timer for ms milliseconds (0: never).  -1 and *err on error. */
int	 watchdog_arm(unsigned long ms, char **err);
/* Sets what is answered at the deadline: stdout, stderr, exit status. */
void	 watchdog_answer(const char *out, size_t outlen, const char *err,
	     size_t errlen, int status);
/*
 * Cancels the timer.  After it returns the handler can no longer run, so
 * the caller may write its own answer without racing it.
 */
void	 watchdog_disarm(void);

#endif
