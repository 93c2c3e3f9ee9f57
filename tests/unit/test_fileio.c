/*
 * fileio: file_replace() replaces content, sets the mode it is given,
 * leaves no temporary file behind, and never writes through a file or a
 * symlink found where an older writer put its temporary file;
 * fd_read_all() keeps to its cap.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "fileio.h"
#include "files.h"
#include "tap.h"
#include "xmalloc.h"

static char	top[] = "/tmp/rr-fileio.XXXXXX";

/* Is the file at path exactly want? */
static int
has(const char *path, const char *want)
{
	char	*s = file_slurp(path);
	int	 same = s != NULL && strcmp(s, want) == 0;

	free(s);
	return same;
}

/* The temporary files of file_replace() left in dir. */
static int
temps(const char *dir)
{
	struct dirent	*de;
	DIR		*d;
	int		 n = 0;

	if ((d = opendir(dir)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (file_is_replace_temp(de->d_name))
			n++;
	closedir(d);
	return n;
}

static mode_t
mode_of(const char *path)
{
	struct stat	st;

	return stat(path, &st) == 0 ? st.st_mode & 07777 : (mode_t)-1;
}

static void
test_replace(const char *dir)
{
	char	*path = xasprintf("%s/f.json", dir), *err = NULL, *big;
	size_t	 i;
	mode_t	 mask;

	ok(file_replace(path, "new\n", 4, 0600, &err) == 0 && err == NULL,
	    "a new file is created");
	ok(has(path, "new\n") && mode_of(path) == 0600, "with its content "
	    "and mode 0600");
	file_spit(path, "old content, longer than the new");
	chmod(path, 0644);
	ok(file_replace(path, "x", 1, 0640, &err) == 0 && has(path, "x"),
	    "an old file is replaced, not overwritten in place");
	is_int(mode_of(path), 0640, "the mode given is the mode set");
	mask = umask(077);
	ok(file_replace(path, "y", 1, 0644, &err) == 0 &&
	    mode_of(path) == 0644, "the umask does not narrow the mode given");
	is_int(new_file_mode(0644), 0600, "new_file_mode() applies the umask");
	umask(027);
	is_int(new_file_mode(0666), 0640, "new_file_mode() under umask 027");
	umask(mask);
	ok(file_replace(path, "", 0, 0600, &err) == 0 && has(path, ""),
	    "empty content");

	/* More than the page-sized pieces it is written in. */
	big = xmalloc(100001);
	for (i = 0; i < 100000; i++)
		big[i] = (char)('a' + i % 26);
	big[100000] = '\0';
	ok(file_replace(path, big, 100000, 0600, &err) == 0 && has(path, big),
	    "100,000 bytes arrive whole");
	free(big);
	is_int(temps(dir), 0, "no temporary file is left after success");
	free(path);
}

static void
test_relative(const char *dir)
{
	char	 cwd[4096], *err = NULL;

	if (getcwd(cwd, sizeof(cwd)) == NULL || chdir(dir) < 0) {
		skip("cannot change directory");
		return;
	}
	ok(file_replace("rel.txt", "r", 1, 0600, &err) == 0 &&
	    has("rel.txt", "r") && temps(".") == 0,
	    "a path without a directory part is replaced in the cwd");
	free(err);
	if (chdir(cwd) < 0)
		printf("# cannot go back to %s\n", cwd);
}

/*
 * A directory the user cannot write in.  Root writes anywhere, so as root
 * the attempt is made by a child that has become nobody.
 */
static void
test_unwritable(const char *dir)
{
	char	*sub, *path, *err = NULL;
	pid_t	 pid;
	int	 status, rc;

	sub = xasprintf("%s/ro", dir);
	path = xasprintf("%s/f", sub);
	mkdir(sub, 0755);
	file_spit(path, "old");
	chmod(path, 0666);
	chmod(sub, 0555);
	if (geteuid() != 0) {
		rc = file_replace(path, "x", 1, 0600, &err);
		ok(rc < 0 && err != NULL && strstr(err, sub) != NULL &&
		    strstr(err, strerror(EACCES)) != NULL,
		    "an unwritable directory: -1 and '%s'", err ? err : "");
		free(err);
	} else {
		chmod(dir, 0711);
		if ((pid = fork()) == 0) {
			if (setgid(65534) < 0 || setuid(65534) < 0)
				_exit(2);
			rc = file_replace(path, "x", 1, 0600, &err);
			_exit(rc < 0 && err != NULL && strstr(err, sub) != NULL
			    && strstr(err, strerror(EACCES)) != NULL ? 0 : 1);
		}
		status = -1;
		if (pid > 0)
			waitpid(pid, &status, 0);
		chmod(dir, 0700);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
			skip("an unwritable directory: cannot become nobody");
		else
			ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			    "an unwritable directory: -1, naming it and EACCES "
			    "(as nobody)");
	}
	ok(has(path, "old") && temps(sub) == 0,
	    "an unwritable directory: untouched, no temporary file");
	chmod(sub, 0755);
	free(path);
	free(sub);
}

static void
test_failures(const char *dir)
{
	struct rlimit	 old, small;
	char		*path, *sub, *err = NULL;
	int		 rc;

	/* rename() fails: the path is a directory. */
	path = xasprintf("%s/isdir", dir);
	mkdir(path, 0700);
	sub = xasprintf("%s/inside", path);
	file_spit(sub, "z");
	rc = file_replace(path, "x", 1, 0600, &err);
	ok(rc < 0 && err != NULL && strncmp(err, "cannot replace '", 16) == 0 &&
	    strstr(err, path) != NULL, "over a directory: -1 and '%s'",
	    err ? err : "");
	is_int(temps(dir), 0, "over a directory: the temporary file is gone");
	free(err);
	err = NULL;
	unlink(sub);
	rmdir(path);
	free(sub);
	free(path);

	/* No such directory: nothing can be created. */
	path = xasprintf("%s/none/f", dir);
	rc = file_replace(path, "x", 1, 0600, &err);
	ok(rc < 0 && err != NULL && strstr(err, "cannot write in '") != NULL &&
	    strstr(err, strerror(ENOENT)) != NULL,
	    "a missing directory is named: '%s'", err ? err : "");
	free(err);
	err = NULL;
	free(path);

	/* write() fails half way (a file size limit): the old file stays. */
	path = xasprintf("%s/limited", dir);
	file_spit(path, "old");
	signal(SIGXFSZ, SIG_IGN);
	if (getrlimit(RLIMIT_FSIZE, &old) == 0) {
		small = old;
		small.rlim_cur = 4096 + 100;
		setrlimit(RLIMIT_FSIZE, &small);
		sub = xmalloc(10000);
		memset(sub, 'x', 10000);
		rc = file_replace(path, sub, 10000, 0600, &err);
		setrlimit(RLIMIT_FSIZE, &old);
		ok(rc < 0 && err != NULL &&
		    strncmp(err, "cannot write '", 14) == 0 &&
		    strstr(err, strerror(EFBIG)) != NULL,
		    "a failed write: -1 and '%s'", err ? err : "");
		ok(has(path, "old"), "a failed write: the old file is intact");
		is_int(temps(dir), 0, "a failed write: no temporary file");
		free(sub);
		free(err);
		err = NULL;
	} else
		skip("getrlimit");
	signal(SIGXFSZ, SIG_DFL);
	free(path);

	test_unwritable(dir);
}

/*
 * Earlier writers used predictable temporary names (PATH.tmp.PID, and
 * .BASE.PID.SEQ.tmp for the cache): what another user or a dead process
 * left there is neither followed nor truncated.
 */
static void
test_planted(const char *dir)
{
	char	*path, *target, *planted, *keep, *err = NULL;

	path = xasprintf("%s/state.json", dir);
	target = xasprintf("%s/precious", dir);
	file_spit(target, "precious");
	planted = xasprintf("%s.tmp.%ld", path, (long)getpid());
	keep = xasprintf("%s/.state.json.%ld.0.tmp", dir, (long)getpid());
	if (symlink(target, planted) < 0 || symlink(target, keep) < 0) {
		skip("cannot make a symlink");
		goto out;
	}
	ok(file_replace(path, "new", 3, 0600, &err) == 0 && has(path, "new"),
	    "a replace beside planted symlinks");
	ok(has(target, "precious"), "no write goes through them");
	unlink(planted);
	unlink(keep);

	file_spit(planted, "someone's data");
	ok(file_replace(path, "newer", 5, 0600, &err) == 0 &&
	    has(path, "newer"), "a replace beside a PATH.tmp.PID file");
	ok(has(planted, "someone's data"), "that file is not truncated");
	unlink(planted);

	/* A symlink at the path itself is replaced, not followed. */
	unlink(path);
	if (symlink(target, path) == 0) {
		ok(file_replace(path, "own", 3, 0600, &err) == 0 &&
		    has(path, "own") && has(target, "precious"),
		    "a symlink at the path is replaced by a file");
	}
out:
	free(err);
	free(keep);
	free(planted);
	free(target);
	free(path);
}

/*
 * fd_read_all() reads into the buffer's own free space, growing it: what
 * the buffer held stays in front, a file of many reads arrives whole and
 * NUL-terminated, and a large one over the cap is drained and dropped.
 */
static void
test_read_all_large(void)
{
	char		 path[] = "/tmp/rr-fileio-XXXXXX";
	struct buf	 b;
	char		*want;
	size_t		 n = 300000, i;
	int		 fd;

	if ((fd = mkstemp(path)) < 0) {
		skip("mkstemp");
		return;
	}
	unlink(path);
	want = malloc(n);
	for (i = 0; i < n; i++)
		want[i] = (char)('a' + (i * 7 + i / 4096) % 26);
	ok(write(fd, want, n) == (ssize_t)n, "wrote 300,000 bytes");
	buf_init(&b);
	buf_adds(&b, "head:");
	lseek(fd, 0, SEEK_SET);
	ok(fd_read_all(fd, n + 5, false, &b) == FD_READ_OK && b.len == n + 5 &&
	    memcmp(b.data, "head:", 5) == 0 && memcmp(b.data + 5, want, n) == 0 &&
	    b.data[b.len] == '\0', "300,000 bytes after what the buffer held, "
	    "whole and terminated");
	buf_reset(&b);
	lseek(fd, 0, SEEK_SET);
	ok(fd_read_all(fd, n - 1, true, &b) == FD_READ_TOO_BIG && b.len == 0 &&
	    b.data[0] == '\0', "one byte over the cap: too big, emptied");
	ok(lseek(fd, 0, SEEK_CUR) == (off_t)n, "with drain, all of it was read");
	lseek(fd, 0, SEEK_SET);
	buf_reset(&b);
	ok(fd_read_all(fd, n, false, &b) == FD_READ_OK && b.len == n &&
	    memcmp(b.data, want, n) == 0, "exactly the cap is not too big");
	buf_release(&b);
	free(want);
	close(fd);
}

/*
 * fd_read_all() reads to EOF; past its cap it empties the buffer and,
 * with drain, reads the rest anyway so that the writer never sees EPIPE.
 */
static void
test_read_all(void)
{
	struct buf	b;
	char		c;
	int		fds[2];

	buf_init(&b);
	if (pipe(fds) < 0) {
		skip("pipe");
		return;
	}
	ok(write(fds[1], "0123456789", 10) == 10, "wrote 10 bytes to a pipe");
	close(fds[1]);
	ok(fd_read_all(fds[0], 10, false, &b) == FD_READ_OK && b.len == 10 &&
	    memcmp(b.data, "0123456789", 10) == 0, "10 bytes under a cap of 10");
	close(fds[0]);
	buf_reset(&b);

	if (pipe(fds) < 0)
		return;
	ok(write(fds[1], "0123456789", 10) == 10, "wrote 10 bytes again");
	close(fds[1]);
	ok(fd_read_all(fds[0], 4, true, &b) == FD_READ_TOO_BIG && b.len == 0,
	    "over the cap: too big, the buffer emptied");
	ok(read(fds[0], &c, 1) == 0, "with drain, the rest was read");
	close(fds[0]);
	buf_release(&b);
	test_read_all_large();
}

static void
test_names(void)
{
	ok(file_is_replace_temp(".state.json.aB3xYz.tmp"),
	    "'.state.json.aB3xYz.tmp' is a temporary file");
	ok(file_is_replace_temp(".k.rrc.123.0.tmp"),
	    "so is an older writer's '.k.rrc.123.0.tmp'");
	ok(!file_is_replace_temp("notes.tmp") && !file_is_replace_temp(".tmp")
	    && !file_is_replace_temp(".state.json"),
	    "'notes.tmp', '.tmp' and '.state.json' are not");
}

/* dir_names(): sorted by bytes, dot entries left out, errors said. */
static void
test_dir_names(const char *dir)
{
	static const char *const made[] = { "b.yaml", "a.yaml", ".hidden",
	    "B.yaml", "a.yaml.bak", "\xc3\xbc.yaml" };
	char	*d, *path, **names;
	size_t	 i, n;

	d = xasprintf("%s/names", dir);
	mkdir(d, 0700);
	for (i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		path = xasprintf("%s/%s", d, made[i]);
		file_spit(path, "x");
		free(path);
	}
	ok(dir_names(d, &names, &n) == 0 && n == 5, "five names, no dot file");
	ok(n == 5 && strcmp(names[0], "B.yaml") == 0 &&
	    strcmp(names[1], "a.yaml") == 0 &&
	    strcmp(names[2], "a.yaml.bak") == 0 &&
	    strcmp(names[3], "b.yaml") == 0 &&
	    strcmp(names[4], "\xc3\xbc.yaml") == 0,
	    "in strcmp order, whatever order the file system lists them in");
	dir_names_free(names, n);
	path = xasprintf("%s/none", d);
	errno = 0;
	ok(dir_names(path, &names, &n) < 0 && errno == ENOENT &&
	    names == NULL && n == 0, "a missing directory: -1, ENOENT, empty");
	free(path);
	path = xasprintf("%s/b.yaml", d);
	ok(dir_names(path, &names, &n) < 0 && errno == ENOTDIR,
	    "a file: -1, ENOTDIR");
	free(path);
	free(d);
}

int
main(void)
{
	char	*cmd;

	if (mkdtemp(top) == NULL) {
		ok(0, "mkdtemp");
		return done_testing();
	}
	test_replace(top);
	test_relative(top);
	test_failures(top);
	test_planted(top);
	test_read_all();
	test_names();
	test_dir_names(top);

	cmd = xasprintf("rm -rf '%s'", top);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", top);
	free(cmd);
	return done_testing();
}
