/*
 * reflexion-rules init: register our hook command in the project's
 * .claude/settings.json.  The file is shared with the user and with Claude
 * Code, so it is merged (settings_merge.c), never rewritten when nothing
 * changes, backed up first, and replaced by file_replace() so that a crash
 * or a concurrent reader never sees half a file.
 */
#define _XOPEN_SOURCE 700	/* realpath() */

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "buf.h"
#include "cmd.h"
#include "cmdargs.h"
#include "fileio.h"
#include "places.h"
#include "settings_merge.h"
#include "xmalloc.h"

/* Settings files are small; anything this big is not one. */
#define SETTINGS_FILE_MAX	(16u * 1024 * 1024)

static int cmd_init_exec(int, char **);

enum { INIT_AGENT, INIT_PROJECT_DIR, INIT_COMMAND, INIT_DRY_RUN };

static const struct cmd_option init_options[] = {
	{ "agent", 0, "claude", 0, INIT_AGENT },
	{ "project-dir", 0, "DIR", 0, INIT_PROJECT_DIR },
	{ "command", 0, "CMD", 0, INIT_COMMAND },
	{ "dry-run", 0, NULL, 0, INIT_DRY_RUN },
	{ NULL, 0, NULL, 0, 0 }
};

const struct cmd_entry cmd_init_entry = {
	.name = "init",
	.options = init_options,
	.summary = "register the hooks in .claude/settings.json",
	.exec = cmd_init_exec,
};

/*
 * Reads all of path.  Returns 1 with *data (NUL-terminated) and *mode, 0
 * when there is no file, -1 with *err.
 */
static int
read_settings(const char *path, char **data, size_t *len, mode_t *mode,
    char **err)
{
	struct stat	 st;
	struct buf	 b;
	int		 fd;

	*data = NULL;
	*len = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		if (errno == ENOENT)
			return 0;
		*err = xasprintf("cannot read '%s': %s", path,
		    strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		*err = xasprintf("cannot read '%s': %s", path,
		    strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		*err = xasprintf("cannot read '%s': not a regular file", path);
		close(fd);
		return -1;
	}
	*mode = st.st_mode & 07777;
	buf_init(&b);
	switch (fd_read_all(fd, SETTINGS_FILE_MAX, false, &b)) {
	case FD_READ_ERROR:
		*err = xasprintf("cannot read '%s': %s", path,
		    strerror(errno));
		break;
	case FD_READ_TOO_BIG:
		*err = xasprintf("'%s' is too large for a settings file",
		    path);
		break;
	case FD_READ_OK:
		break;
	}
	close(fd);
	if (*err != NULL) {
		buf_release(&b);
		return -1;
	}
	*data = buf_detach(&b, len);
	return 1;
}

/*
 * Where the new content goes: a settings.json kept as a symlink (into a
 * dotfiles repository, say) must stay one, so write its target instead.
 */
static char *
write_target(const char *path, char **err)
{
	struct stat	 st;
	char		*real;

	if (lstat(path, &st) < 0 || !S_ISLNK(st.st_mode))
		return xstrdup(path);
	if ((real = realpath(path, NULL)) == NULL) {
		*err = xasprintf("cannot resolve symlink '%s': %s", path,
		    strerror(errno));
		return NULL;
	}
	return real;
}

static int
install(const char *dir, const char *path, const char *old, size_t oldlen,
    bool existed, mode_t mode, const char *json, char **err)
{
	char	*bak, *target;
	int	 rc;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		*err = xasprintf("cannot create '%s': %s", dir,
		    strerror(errno));
		return -1;
	}
	if (existed) {
		bak = xasprintf("%s.bak", path);
		rc = file_replace(bak, old, oldlen, mode, err);
		free(bak);
		if (rc < 0)
			return -1;
	}
	if ((target = write_target(path, err)) == NULL)
		return -1;
	/*
	 * The file keeps its mode (it may be shared, or private); a new one
	 * gets the mode an editor would give it.
	 */
	rc = file_replace(target, json, strlen(json), existed ? mode :
	    new_file_mode(0666), err);
	free(target);
	return rc;
}

static int
cmd_init_exec(int argc, char **argv)
{
	struct cmd_args		 a;
	const char		*agent, *project, *base, *command;
	char			*dir, *path, *old = NULL, *json = NULL, *root;
	char			 cwd[4096];
	char			*err = NULL;
	size_t			 oldlen = 0, n;
	mode_t			 mode = 0644;
	int			 existed, changed, status = RR_EXIT_USAGE;
	bool			 help, dry_run;

	if (cmd_args_parse(&cmd_init_entry, argc, argv, &a, &err) < 0)
		return cmd_usage(&cmd_init_entry, err);
	help = a.help;
	agent = cmd_args_get(&a, INIT_AGENT);
	project = cmd_args_get(&a, INIT_PROJECT_DIR);
	command = cmd_args_get(&a, INIT_COMMAND);
	dry_run = cmd_args_has(&a, INIT_DRY_RUN);
	cmd_args_release(&a);	/* the values point into argv */
	if (help) {
		cmd_print_help(&cmd_init_entry, stdout);
		return RR_EXIT_OK;
	}
	if (agent != NULL && strcmp(agent, "claude") != 0) {
		fprintf(stderr, "reflexion-rules init: only --agent claude is "
		    "supported for now\n");
		return RR_EXIT_USAGE;
	}
	if (command == NULL)
		command = SETTINGS_DEFAULT_COMMAND;
	if (*command == '\0') {
		fprintf(stderr, "reflexion-rules init: --command must not be "
		    "empty\n");
		return RR_EXIT_USAGE;
	}
	if (project != NULL && *project == '\0') {
		fprintf(stderr, "reflexion-rules init: --project-dir must not "
		    "be empty\n");
		return RR_EXIT_USAGE;
	}
	/* The project the hook will see: CLAUDE_PROJECT_DIR, else git's. */
	root = project == NULL ? project_root(NULL) : NULL;
	if ((base = project) == NULL)
		base = root;
	/* Said as ".claude/settings.json" when it is here. */
	if (project == NULL && getcwd(cwd, sizeof(cwd)) != NULL &&
	    strcmp(base, cwd) == 0)
		base = NULL;
	if (base == NULL || *base == '\0' || strcmp(base, ".") == 0)
		dir = xstrdup(".claude");
	else {
		/* "DIR/" and "DIR" name the same place; print it once. */
		n = strlen(base);
		while (n > 1 && base[n - 1] == '/')
			n--;
		dir = xasprintf("%.*s%s.claude", (int)n, base,
		    base[n - 1] == '/' ? "" : "/");
	}
	free(root);
	path = xasprintf("%s/settings.json", dir);

	if ((existed = read_settings(path, &old, &oldlen, &mode, &err)) < 0)
		goto out;
	if (settings_merge(path, old ? old : "", oldlen, command, &json,
	    &changed, &err) < 0)
		goto out;
	if (changed == 0) {
		printf("reflexion-rules: hooks already registered in %s\n",
		    path);
		status = RR_EXIT_OK;
		goto out;
	}
	if (dry_run) {
		fputs(json, stdout);
		status = RR_EXIT_OK;
		goto out;
	}
	if (install(dir, path, old, oldlen, existed, mode, json, &err) < 0)
		goto out;
	printf("reflexion-rules: registered hooks for %d event%s in %s",
	    changed, changed == 1 ? "" : "s", path);
	if (existed)
		printf(" (backup: %s.bak)", path);
	printf("\n");
	status = RR_EXIT_OK;

out:
	if (err != NULL)
		fprintf(stderr, "reflexion-rules init: %s\n", err);
	free(err);
	free(json);
	free(old);
	free(path);
	free(dir);
	return status;
}
