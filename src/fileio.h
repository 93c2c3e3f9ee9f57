/*
 * Whole-file reads and writes that handle EINTR and short transfers, once,
 * the one way a file is replaced (file_replace), and a directory's names.
 */
#ifndef RR_FILEIO_H
#define RR_FILEIO_H

#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
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
 * Appends the text of the regular file path to out, up to max bytes,
 * opened without blocking (a FIFO named there never hangs the caller).
 * Returns 0, or an errno value: EINVAL for what is not a regular file,
 * EFBIG past max (out emptied), else open's, fstat's or read's.
 */
int	 file_read_regular(const char *path, size_t max, struct buf *out);
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
/* mkdir_p() of the directory part of path (none: nothing to do). */
int	 mkdir_parent(const char *path, char **err);

/*
 * Replaces path with data[0..len) atomically: a reader sees the old file
 * or the new one, never a part of either, and a crash leaves one of them.
 * The data goes to a new temporary file in path's directory, named
 * ".BASENAME.XXXXXX.tmp" by mkstemp(3) (unpredictable and created
 * exclusively, so no symlink or file placed there is followed or
 * truncated); the file is fsync()ed, given mode and rename()d over path,
 * then the directory is fsync()ed so that the rename survives a crash
 * (best effort: the file is replaced by then, and some filesystems cannot
 * sync a directory).  A symlink at path is replaced, not followed.
 *
 * mode is the new file's mode exactly, whatever the umask: a caller that
 * wants the umask to apply, as open(2) would, passes new_file_mode(mode).
 *
 * Returns 0, or -1 with *err (owned) naming path, or its directory when
 * no temporary file can be made there, and the reason.  The temporary
 * file is gone either way.
 */
int	 file_replace(const char *path, const void *data, size_t len,
	     mode_t mode, char **err);

/*
 * For a file that records its own identity (the compiled cache), so that
 * a reader can tell, from one fstat(), that it is still the file written:
 * fill() gets the temporary file's fstat() (its inode survives the
 * rename) and the modification time the file will have, or NULL when the
 * file system cannot keep one to the nanosecond (then the file claims no
 * identity), and writes them into data before it is written.  The time
 * is a second before now with chosen nanoseconds: any later write to the
 * file gives it another.
 */
struct file_stamp {
	void	 (*fill)(void *arg, void *data, size_t len,
		     const struct stat *st, const struct timespec *mtime);
	void	*arg;
};

/* file_replace(), with data stamped by stamp. */
int	 file_replace_stamped(const char *path, void *data, size_t len,
	     mode_t mode, const struct file_stamp *stamp, char **err);
/*
 * Whether a directory entry is a temporary file of file_replace() (a
 * process that dies before its rename leaves one): ".*.tmp".
 */
bool	 file_is_replace_temp(const char *name);
/* The mode open(2) gives a file it creates with mode: less the umask. */
mode_t	 new_file_mode(mode_t mode);

/*
 * The names in directory dir that do not start with '.', sorted by
 * strcmp (so that what is read from a directory does not depend on the
 * order the file system lists it in).  Returns 0 with *names and *n
 * (free with dir_names_free()), or -1 with errno set.
 */
int	 dir_names(const char *dir, char ***names, size_t *n);
void	 dir_names_free(char **names, size_t n);

#endif
