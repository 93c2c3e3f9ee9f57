/*
 * reflexion-rules trust [--remove | --list] [DIR]: the projects whose own
 * allow rules count (reflexion-rules(5), LAYERS AND TRUST), kept in
 * config.yaml's trust: list.  The file is edited as text (confedit.h),
 * so the user's comments and layout stay, and replaced atomically; a
 * second run changes nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmdargs.h"
#include "confedit.h"
#include "fileio.h"
#include "places.h"
#include "userconf.h"
#include "xmalloc.h"

/* As userconf.c reads it. */
#define CONFIG_FILE_MAX	(1024u * 1024)

static int cmd_trust_exec(int, char **);

enum { TRUST_REMOVE, TRUST_LIST };

static const struct cmd_option trust_options[] = {
	{ "remove", 0, NULL, 0, TRUST_REMOVE },
	{ "list", 0, NULL, 0, TRUST_LIST },
	{ NULL, 0, NULL, 0, 0 }
};

const struct cmd_entry cmd_trust_entry = {
	.name = "trust",
	.options = trust_options,
	.args = "[DIR]",
	.upper = 1,
	.summary = "Trust a project (default: the one around the current "
	    "directory): its allow rules then count.  --remove stops "
	    "trusting it, --list shows the trusted ones.",
	.exec = cmd_trust_exec,
};

/*
 * Reads path: 1 with its text and mode, 0 when there is none (empty
 * text), -1 with *err.
 */
static int
read_config(const char *path, struct buf *text, mode_t *mode, char **err)
{
	enum fd_read_result	r;
	struct stat		st;
	int			fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0) {
		if (errno == ENOENT)
			return 0;
		*err = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		*err = xasprintf("%s: not a regular file", path);
		close(fd);
		return -1;
	}
	*mode = st.st_mode & 07777;
	r = fd_read_all(fd, CONFIG_FILE_MAX, false, text);
	close(fd);
	if (r != FD_READ_OK) {
		*err = xasprintf("%s: %s", path, r == FD_READ_ERROR ?
		    strerror(errno) : "too large");
		return -1;
	}
	return 1;
}

static int
list_trusted(const char *home)
{
	struct rr_config	 cfg;
	struct diag_list	 diags;
	char			*packs = packs_dir(), *line;
	size_t			 i;

	diag_list_init(&diags);
	config_load(&cfg, home, packs, NULL, &diags);
	for (i = 0; i < diags.n; i++) {
		line = diag_format_short(&diags.items[i]);
		fprintf(stderr, "reflexion-rules trust: %s\n", line);
		free(line);
	}
	for (i = 0; i < cfg.ntrust; i++)
		printf("%s\n", cfg.trust[i]);
	config_release(&cfg);
	diag_list_release(&diags);
	free(packs);
	return RR_EXIT_OK;
}

/* Adds dir to (or removes it from) home's config.yaml's trust: list. */
static int
edit_trust(const char *home, const char *dir, bool remove)
{
	struct buf	 text, out;
	mode_t		 mode = 0600;
	char		*file, *err = NULL;
	int		 rc, status = RR_EXIT_OK;

	file = xasprintf("%s/config.yaml", home);
	buf_init(&text);
	buf_init(&out);
	if ((rc = read_config(file, &text, &mode, &err)) >= 0)
		rc = confedit_trust(text.data ? text.data : "", text.len, dir,
		    remove, &out, &err);
	if (rc < 0) {
		fprintf(stderr, "reflexion-rules trust: %s: %s\n", file, err);
		status = RR_EXIT_FAIL;
	} else if (rc == 0)
		printf("%s %s\n", dir, remove ? "was not trusted" :
		    "is trusted already");
	else if (mkdir_p(home, &err) < 0 ||
	    file_replace(file, out.data, out.len, mode, &err) < 0) {
		fprintf(stderr, "reflexion-rules trust: %s\n", err);
		status = RR_EXIT_USAGE;
	} else if (remove)
		printf("no longer trusted: %s\n", dir);
	else
		printf("trusted: %s (its allow rules count)\n", dir);
	free(err);
	free(file);
	buf_release(&text);
	buf_release(&out);
	return status;
}

static int
cmd_trust_exec(int argc, char **argv)
{
	struct cmd_args	 a;
	struct rr_home	 home;
	struct stat	 st;
	char		*err, *dir, *note;
	bool		 remove;
	int		 status;

	if (cmd_args_parse(&cmd_trust_entry, argc, argv, &a, &err) < 0)
		return cmd_usage(&cmd_trust_entry, err);
	if (a.help) {
		cmd_print_help(&cmd_trust_entry, stdout);
		cmd_args_release(&a);
		return RR_EXIT_OK;
	}
	remove = cmd_args_has(&a, TRUST_REMOVE);
	if (remove && cmd_args_has(&a, TRUST_LIST)) {
		cmd_args_release(&a);
		return cmd_usage(&cmd_trust_entry,
		    xstrdup("--remove and --list do not go together"));
	}
	home_find(&home);
	if (home.dir == NULL) {
		/* config.yaml lives in the data directory. */
		note = home_note(&home);
		fputs(note, stderr);
		free(note);
		home_release(&home);
		cmd_args_release(&a);
		return RR_EXIT_USAGE;
	}
	if (cmd_args_has(&a, TRUST_LIST)) {
		status = list_trusted(home.dir);
		home_release(&home);
		cmd_args_release(&a);
		return status;
	}
	/* The project of the current directory, as the hook finds it. */
	dir = a.nrest > 0 ? xstrdup(a.rest[0]) : project_root(NULL);
	note = config_real_path(dir);
	free(dir);
	dir = note;
	if (!remove && (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))) {
		fprintf(stderr, "reflexion-rules trust: %s: not a directory\n",
		    dir);
		status = RR_EXIT_FAIL;
	} else
		status = edit_trust(home.dir, dir, remove);
	free(dir);
	home_release(&home);
	cmd_args_release(&a);
	return status;
}
