#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "fileio.h"
#include "watchdog.h"
#include "xmalloc.h"

struct answer {
	char	*out, *err;
	size_t	 outlen, errlen;
	int	 status;
};

/* Read by the handler; swapped only while SIGALRM is blocked. */
static struct answer *volatile current;

/* Async-signal-safe: write(2) (fd_write_all calls nothing else), _exit(2). */
static void
on_deadline(int sig)
{
	struct answer	*a = current;

	(void)sig;
	if (a != NULL) {
		fd_write_all(1, a->out, a->outlen);
		fd_write_all(2, a->err, a->errlen);
		_exit(a->status);
	}
	_exit(0);
}

static void
block_alarm(sigset_t *old)
{
	sigset_t	set;

	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void
answer_free(struct answer *a)
{
	if (a == NULL)
		return;
	free(a->out);
	free(a->err);
	free(a);
}

int
watchdog_arm(unsigned long ms, char **err)
{
	struct sigaction	sa;
	struct itimerval	it;

	if (ms == 0)
		return 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_deadline;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) < 0) {
		*err = xasprintf("cannot set the deadline: %s",
		    strerror(errno));
		return -1;
	}
	memset(&it, 0, sizeof(it));
	it.it_value.tv_sec = (time_t)(ms / 1000);
	it.it_value.tv_usec = (suseconds_t)(ms % 1000) * 1000;
	if (setitimer(ITIMER_REAL, &it, NULL) < 0) {
		*err = xasprintf("cannot set the deadline: %s",
		    strerror(errno));
		return -1;
	}
	return 0;
}

void
watchdog_answer(const char *out, size_t outlen, const char *err,
    size_t errlen, int status)
{
	struct answer	*a, *old;
	sigset_t	 mask;

	a = xcalloc(1, sizeof(*a));
	a->out = xmemdup0(out, outlen);
	a->outlen = outlen;
	a->err = xmemdup0(err, errlen);
	a->errlen = errlen;
	a->status = status;
	block_alarm(&mask);
	old = current;
	current = a;
	sigprocmask(SIG_SETMASK, &mask, NULL);
	answer_free(old);
}

void
watchdog_disarm(void)
{
	struct itimerval	it;
	struct answer		*a;

	/*
	 * Blocked first and never unblocked: a SIGALRM already pending
	 * stays pending until the process ends, so it cannot interleave an
	 * answer with the caller's.
	 */
	block_alarm(NULL);
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	a = current;
	current = NULL;
	answer_free(a);
}
