/*
 * Whole-file reads and writes that handle EINTR and short transfers, once.
 */
#ifndef RR_FILEIO_H
#define RR_FILEIO_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

enum fd_read_result {
	FD_READ_OK = 0,
	FD_READ_ERROR = -1,	/* errno says why */
	FD_READ_TOO_BIG = 1	/* more than max bytes */
};

/*
 * Appends all of fd to out, up to max bytes.  Past max, with drain the
 * rest is read and dropped (a pipe writer must never see EPIPE), without
 * it reading stops; either way the result is FD_READ_TOO_BIG and out is
 * emptied.
 */
enum fd_read_result fd_read_all(int fd, size_t max, bool drain,
	     struct buf *out);
/*
 * Writes all n bytes; -1 with errno on failure.  Calls only write(2), so
 * a signal handler may use it (watchdog.c does).
 */
int	 fd_write_all(int fd, const void *p, size_t n);
bool	 str_has_suffix(const char *s, const char *suffix);
/*
 * mkdir -p: creates dir and its missing parents, mode 0700 (the engine's
 * data is the user's alone).  Returns 0, or -1 with *err (owned).
 */
int	 mkdir_p(const char *dir, char **err);

#endif
