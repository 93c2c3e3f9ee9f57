/*
 * Running a configured command (extcmd.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "extcmd.h"
#include "monoclock.h"
#include "xmalloc.h"

/* Bytes of stderr kept for the message. */
#define STDERR_KEPT	4096

void
extcmd_release(struct rr_command *c)
{
	size_t	i;

	if (c == NULL)
		return;
	free(c->shell);
	for (i = 0; c->argv != NULL && c->argv[i] != NULL; i++)
		free(c->argv[i]);
	free(c->argv);
	memset(c, 0, sizeof(*c));
}

void
extcmd_copy(struct rr_command *dst, const struct rr_command *src)
{
	size_t	i, n = 0;

	memset(dst, 0, sizeof(*dst));
	dst->timeout_ms = src->timeout_ms;
	if (src->shell != NULL)
		dst->shell = xstrdup(src->shell);
	if (src->argv == NULL)
		return;
	while (src->argv[n] != NULL)
		n++;
	dst->argv = xcalloc(n + 1, sizeof(*dst->argv));
	for (i = 0; i < n; i++)
		dst->argv[i] = xstrdup(src->argv[i]);
}

char *
extcmd_describe(const struct rr_command *c)
{
	struct buf	b;
	size_t		i;

	if (c->shell != NULL)
		return xasprintf("sh -c '%s'", c->shell);
	buf_init(&b);
	for (i = 0; c->argv != NULL && c->argv[i] != NULL; i++)
		buf_printf(&b, "%s%s", i ? " " : "", c->argv[i]);
	return buf_detach(&b, NULL);
}

/* In the child: its pipes become 0, 1 and 2, then the command runs. */
static void
child(const struct rr_command *c, int in, int out, int err)
{
	static char	sh_name[] = "sh", sh_c[] = "-c";
	char		*sh[4];

	setpgid(0, 0);
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(126);
	signal(SIGPIPE, SIG_DFL);
	if (c->shell != NULL) {
		sh[0] = sh_name;
		sh[1] = sh_c;
		sh[2] = c->shell;
		sh[3] = NULL;
		execv("/bin/sh", sh);
	} else
		execvp(c->argv[0], c->argv);
	dprintf(2, "cannot run it: %s\n", strerror(errno));
	_exit(127);
}

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* The first line of what the command said on stderr, or "". */
static char *
first_line(const struct buf *b)
{
	size_t	n = 0;

	while (n < b->len && b->data[n] != '\n')
		n++;
	return xstrndup(b->data, n);
}

static char *
status_text(int status)
{
	if (WIFEXITED(status))
		return xasprintf("exit status %d", WEXITSTATUS(status));
	if (WIFSIGNALED(status))
		return xasprintf("killed by signal %d", WTERMSIG(status));
	return xstrdup("ended");
}

/*
 * Moves data between the pipes until the command closes its stdout and
 * stderr or the deadline; returns 0, or -1 with *why (static).
 */
static int
pump(int *to, int *from, int *errfd, const char *input, size_t len,
    struct buf *out, struct buf *errtext, long long deadline,
    const char **why)
{
	struct pollfd	 p[3];
	char		 chunk[8192];
	size_t		 sent = 0;
	ssize_t		 n;
	long long	 left;
	int		 np, i, rc;

	if (len == 0)
		close_fd(to);
	while (*from >= 0 || *errfd >= 0) {
		left = deadline - monoclock_ms();
		if (left <= 0) {
			*why = "it ran past its time limit";
			return -1;
		}
		np = 0;
		if (*to >= 0)
			p[np++] = (struct pollfd){ .fd = *to, .events = POLLOUT };
		if (*from >= 0)
			p[np++] = (struct pollfd){ .fd = *from, .events = POLLIN };
		if (*errfd >= 0)
			p[np++] = (struct pollfd){ .fd = *errfd,
			    .events = POLLIN };
		rc = poll(p, (nfds_t)np, left > 1000 ? 1000 : (int)left);
		if (rc < 0 && errno != EINTR) {
			*why = "poll failed";
			return -1;
		}
		for (i = 0; rc > 0 && i < np; i++) {
			if (p[i].revents == 0)
				continue;
			if (p[i].fd == *to) {
				n = write(*to, input + sent, len - sent);
				if (n > 0)
					sent += (size_t)n;
				/* EPIPE: it does not read its input. */
				if ((n < 0 && errno != EAGAIN &&
				    errno != EINTR) || sent == len)
					close_fd(to);
				continue;
			}
			n = read(p[i].fd, chunk, sizeof(chunk));
			if (n < 0 && (errno == EAGAIN || errno == EINTR))
				continue;
			if (n <= 0) {
				close_fd(p[i].fd == *from ? from : errfd);
				continue;
			}
			if (p[i].fd == *from) {
				if (out->len + (size_t)n > EXTCMD_OUTPUT_MAX) {
					*why = "its output is longer than 1 MB";
					return -1;
				}
				buf_add(out, chunk, (size_t)n);
			} else if (errtext->len < STDERR_KEPT)
				buf_add(errtext, chunk, (size_t)n);
		}
	}
	close_fd(to);
	return 0;
}

int
extcmd_run(const struct rr_command *c, const char *input, size_t len,
    struct buf *out, char **err)
{
	struct sigaction sa, old;
	struct buf	 errtext;
	const char	*why = NULL;
	long long	 deadline;
	int		 in[2], op[2], ep[2], status = 0, to, from, efd, saved;
	pid_t		 pid, w;
	char		*what, *line, *st;

	*err = NULL;
	if (pipe2(in, O_CLOEXEC) < 0) {
		*err = xasprintf("cannot run it: %s", strerror(errno));
		return -1;
	}
	if (pipe2(op, O_CLOEXEC) < 0) {
		saved = errno;
		close(in[0]);
		close(in[1]);
		*err = xasprintf("cannot run it: %s", strerror(saved));
		return -1;
	}
	if (pipe2(ep, O_CLOEXEC) < 0) {
		saved = errno;
		close(in[0]);
		close(in[1]);
		close(op[0]);
		close(op[1]);
		*err = xasprintf("cannot run it: %s", strerror(saved));
		return -1;
	}
	deadline = monoclock_ms() + (c->timeout_ms > 0 ? c->timeout_ms :
	    EXTCMD_TIMEOUT_DEFAULT);
	if ((pid = fork()) < 0) {
		saved = errno;
		close(in[0]);
		close(in[1]);
		close(op[0]);
		close(op[1]);
		close(ep[0]);
		close(ep[1]);
		*err = xasprintf("cannot run it: %s", strerror(saved));
		return -1;
	}
	if (pid == 0)
		child(c, in[0], op[1], ep[1]);
	setpgid(pid, pid);
	close(in[0]);
	close(op[1]);
	close(ep[1]);
	to = in[1];
	from = op[0];
	efd = ep[0];
	fcntl(to, F_SETFL, O_NONBLOCK);
	/* A command that does not read its input must not kill us. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, &old);
	buf_init(&errtext);
	if (pump(&to, &from, &efd, input, len, out, &errtext, deadline,
	    &why) < 0)
		kill(-pid, SIGKILL);
	sigaction(SIGPIPE, &old, NULL);
	close_fd(&to);
	close_fd(&from);
	close_fd(&efd);
	/* Its stdout closed: it is ending; the group is bounded too. */
	while ((w = waitpid(pid, &status, why ? 0 : WNOHANG)) == 0) {
		if (monoclock_ms() >= deadline) {
			why = "it ran past its time limit";
			kill(-pid, SIGKILL);
			continue;
		}
		usleep(2000);
	}
	if (w < 0 && errno != ECHILD && why == NULL)
		why = "it could not be waited for";
	if (why == NULL && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
		st = status_text(status);
		line = first_line(&errtext);
		*err = xasprintf("it failed (%s)%s%s", st, *line ? ": " : "",
		    line);
		free(st);
		free(line);
	} else if (why != NULL) {
		what = c->timeout_ms > 0 ? xasprintf(" of %ld ms",
		    c->timeout_ms) : xstrdup("");
		*err = strcmp(why, "it ran past its time limit") == 0 ?
		    xasprintf("%s%s", why, what) : xstrdup(why);
		free(what);
	}
	buf_release(&errtext);
	return *err == NULL ? 0 : -1;
}
