/*
 * reflexion-rules init: register our hook command with each agent named,
 * in its own file for the scope asked (hookreg.c).  The files are shared
 * with the user and with the clients, so they are merged (settings_merge.c),
 * never rewritten when nothing changes, backed up first, and replaced by
 * file_replace() so that a crash or a concurrent reader never sees half a
 * file.  --uninstall removes our entries and nothing else.
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
#include "hookreg.h"
#include "places.h"
#include "progpath.h"
#include "settings_merge.h"
#include "xmalloc.h"

/* Settings files are small; anything this big is not one. */
#define SETTINGS_FILE_MAX	(16u * 1024 * 1024)

static int cmd_init_exec(int, char **);

enum {
	INIT_AGENT, INIT_SCOPE, INIT_UNINSTALL, INIT_DRY_RUN, INIT_PROJECT_DIR,
	INIT_COMMAND, INIT_STATUSLINE
};

static const struct cmd_option init_options[] = {
	{ "agent", 0, "claude|gemini|codex|copilot|cursor", CMD_OPT_REPEAT,
	    INIT_AGENT },
	{ "scope", 0, "project|local|user", 0, INIT_SCOPE },
	{ "uninstall", 0, NULL, 0, INIT_UNINSTALL },
	{ "dry-run", 0, NULL, 0, INIT_DRY_RUN },
	{ "project-dir", 0, "DIR", 0, INIT_PROJECT_DIR },
	{ "command", 0, "CMD", 0, INIT_COMMAND },
	{ "statusline", 0, NULL, 0, INIT_STATUSLINE },
	{ NULL, 0, NULL, 0, 0 }
};

const struct cmd_entry cmd_init_entry = {
	.name = "init",
	.options = init_options,
	.summary = "Register the hook with each agent named (Claude Code by "
	    "default), in its own settings file and format; --statusline "
	    "also makes 'reflexion-rules statusline' Claude Code's status "
	    "line.",
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

/* mkdir -p, each new directory with mode (less the umask). */
static int
make_dirs(const char *dir, mode_t mode, char **err)
{
	char	*s = xstrdup(dir), *p;
	int	 rc = 0;

	for (p = s + 1; rc == 0; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		int last = *p == '\0';
		*p = '\0';
		if (mkdir(s, mode) < 0 && errno != EEXIST) {
			*err = xasprintf("cannot create '%s': %s", s,
			    strerror(errno));
			rc = -1;
		}
		if (last)
			break;
		*p = '/';
	}
	free(s);
	return rc;
}

static int
install(const char *path, const char *old, size_t oldlen, bool existed,
    mode_t mode, const char *json, char **err)
{
	char	*bak, *target, *dir, *slash;
	int	 rc;

	dir = xstrdup(path);
	if ((slash = strrchr(dir, '/')) != NULL && slash != dir) {
		*slash = '\0';
		rc = make_dirs(dir, 0755, err);
	} else
		rc = 0;
	free(dir);
	if (rc < 0)
		return -1;
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

/* The old file kept as .bak, then removed (an own file emptied). */
static int
remove_file(const char *path, const char *old, size_t oldlen, mode_t mode,
    char **err)
{
	char	*bak = xasprintf("%s.bak", path);
	int	 rc;

	rc = file_replace(bak, old, oldlen, mode, err);
	free(bak);
	if (rc == 0 && unlink(path) < 0) {
		*err = xasprintf("cannot remove '%s': %s", path,
		    strerror(errno));
		rc = -1;
	}
	return rc;
}

/* s quoted for sh when it needs to be. */
static char *
sh_quote(const char *s)
{
	struct buf	 b;
	const char	*p;

	if (s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789_/.-+,:@%=")] == '\0')
		return xstrdup(s);
	buf_init(&b);
	buf_addc(&b, '\'');
	for (p = s; *p; p++) {
		if (*p == '\'')
			buf_adds(&b, "'\\''");
		else
			buf_addc(&b, *p);
	}
	buf_addc(&b, '\'');
	return buf_detach(&b, NULL);
}

/*
 * The program and `hook` that the clients will run: the bare name when
 * `reflexion-rules` is on PATH (the registration then follows upgrades
 * and moves), else this program's full path; *note (owned, or NULL)
 * says which, for stderr once something is written.
 */
static char *
hook_command(char **note)
{
	char	*found, *self, *real_found, *q, *cmd;

	*note = NULL;
	self = progpath_self();
	if ((found = progpath_find("reflexion-rules")) != NULL) {
		real_found = realpath(found, NULL);
		if (self != NULL && real_found != NULL &&
		    strcmp(self, real_found) != 0)
			*note = xasprintf("note: the clients will run %s, "
			    "the first reflexion-rules on PATH, which is not "
			    "this program", found);
		free(real_found);
		free(found);
		free(self);
		return xstrdup(SETTINGS_DEFAULT_COMMAND);
	}
	if (self == NULL)
		return xstrdup(SETTINGS_DEFAULT_COMMAND);
	*note = xasprintf("reflexion-rules is not on PATH: registered this "
	    "program by its full path, %s (with its directory on PATH, "
	    "--uninstall then init registers the bare name)", self);
	q = sh_quote(self);
	cmd = xasprintf("%s hook", q);
	free(q);
	free(self);
	return cmd;
}

/*
 * The status line's command from the hook's: its program with
 * `statusline` for `hook` ("reflexion-rules hook" -> "reflexion-rules
 * statusline"); owned.
 */
static char *
statusline_command(const char *hook)
{
	size_t	n = strlen(hook);

	if (n >= 4 && strcmp(hook + n - 4, "hook") == 0)
		return xasprintf("%.*sstatusline", (int)(n - 4), hook);
	return xstrdup("reflexion-rules statusline");
}

struct init_run {
	const char	*root;		/* the project, as printed */
	enum reg_scope	 scope;
	const char	*command;
	const char	*statusline;	/* Claude Code's, or NULL */
	bool		 uninstall, dry_run;
	int		 changed;	/* files written, over all clients */
	bool		 headers;	/* --dry-run of several files */
};

/* Registers (or removes) client c's entries; 0, or -1 with *err. */
static int
init_client(struct init_run *ir, const struct reg_client *c, char **err)
{
	struct settings_edit	 ed;
	char			*path, *old = NULL, *json = NULL;
	size_t			 oldlen = 0;
	mode_t			 mode = 0644;
	int			 existed, changed, rc = -1, sl = 0;
	bool			 empty;

	if ((path = hookreg_file(c, ir->scope, ir->root, err)) == NULL)
		return -1;
	memset(&ed, 0, sizeof(ed));
	ed.client = c;
	ed.command = ir->command;
	ed.uninstall = ir->uninstall;
	ed.version = c->files[ir->scope].version;
	if (c->agent == AGENT_CLAUDE && (ir->statusline != NULL ||
	    ir->uninstall)) {
		/* --uninstall takes ours away, asked or not. */
		ed.statusline = ir->statusline ? ir->statusline :
		    "reflexion-rules statusline";
		ed.statusline_done = &sl;
	}
	if ((existed = read_settings(path, &old, &oldlen, &mode, err)) < 0)
		goto out;
	if (ir->uninstall && !existed) {
		printf("reflexion-rules: nothing to remove for %s: no %s\n",
		    agent_titles[c->agent], path);
		rc = 0;
		goto out;
	}
	if (settings_edit(path, old ? old : "", oldlen, &ed, &json, &changed,
	    &empty, err) < 0)
		goto out;
	rc = 0;
	if (sl < 0)
		printf("reflexion-rules: %s has a status line of its own; "
		    "left as it is\n", path);
	if (changed == 0) {
		printf(ir->uninstall ? "reflexion-rules: no hooks of ours in "
		    "%s\n" : "reflexion-rules: hooks already registered in "
		    "%s\n", path);
		goto out;
	}
	if (ir->dry_run) {
		if (ir->headers)
			printf("== %s\n", path);
		if (ir->uninstall && empty && c->files[ir->scope].own)
			printf("(removed)\n");
		else
			fputs(json, stdout);
		goto out;
	}
	if (ir->uninstall && empty && c->files[ir->scope].own)
		rc = remove_file(path, old, oldlen, mode, err);
	else
		rc = install(path, old, oldlen, existed, mode, json, err);
	if (rc < 0)
		goto out;
	ir->changed++;
	if (sl > 0) {
		printf("reflexion-rules: %s the status line %s %s\n",
		    ir->uninstall ? "removed" : "registered", ir->uninstall ?
		    "from" : "in", path);
		changed--;
	}
	if (changed > 0)
		printf("reflexion-rules: %s hooks for %d event%s %s %s",
		    ir->uninstall ? "removed the" : "registered", changed,
		    changed == 1 ? "" : "s", ir->uninstall ? "from" : "in",
		    path);
	else
		printf("reflexion-rules: %s", path);
	if (existed)
		printf(" (backup: %s.bak)", path);
	printf("\n");
	if (!ir->uninstall && c->next != NULL)
		printf("reflexion-rules: %s\n", c->next);
out:
	free(json);
	free(old);
	free(path);
	return rc;
}

static int
cmd_init_exec(int argc, char **argv)
{
	struct cmd_args		 a;
	struct init_run		 ir;
	const char		**agents, *project, *scope, *command;
	const struct reg_client	*clients[AGENT__COUNT];
	char			*err = NULL, *root = NULL, *cmd = NULL;
	char			*note = NULL, *sl_cmd = NULL;
	char			 cwd[4096];
	size_t			 nagents, n = 0, i, j, len;
	int			 ag, status = RR_EXIT_USAGE, k;

	if (cmd_args_parse(&cmd_init_entry, argc, argv, &a, &err) < 0)
		return cmd_usage(&cmd_init_entry, err);
	if (a.help) {
		cmd_print_help(&cmd_init_entry, stdout);
		cmd_args_release(&a);
		return RR_EXIT_OK;
	}
	memset(&ir, 0, sizeof(ir));
	agents = cmd_args_values(&a, INIT_AGENT, &nagents);
	project = cmd_args_get(&a, INIT_PROJECT_DIR);
	scope = cmd_args_get(&a, INIT_SCOPE);
	command = cmd_args_get(&a, INIT_COMMAND);
	ir.uninstall = cmd_args_has(&a, INIT_UNINSTALL);
	ir.dry_run = cmd_args_has(&a, INIT_DRY_RUN);
	for (i = 0; i < nagents; i++) {
		ag = agent_from_name(agents[i]);
		if (ag <= AGENT_AUTO) {
			fprintf(stderr, "reflexion-rules init: unknown agent "
			    "'%s' (claude, gemini, codex, copilot or "
			    "cursor)\n", agents[i]);
			goto out;
		}
		for (j = 0; j < n; j++)
			if (clients[j]->agent == (enum rr_agent)ag)
				break;
		if (j == n)
			clients[n++] = hookreg_client((enum rr_agent)ag);
	}
	if (n == 0)
		clients[n++] = hookreg_client(AGENT_CLAUDE);
	ir.scope = SCOPE_PROJECT;
	if (scope != NULL) {
		for (k = 0; k < SCOPE__COUNT; k++)
			if (strcmp(scope, reg_scope_names[k]) == 0)
				break;
		if (k == SCOPE__COUNT) {
			fprintf(stderr, "reflexion-rules init: unknown scope "
			    "'%s' (project, local or user)\n", scope);
			goto out;
		}
		ir.scope = (enum reg_scope)k;
	}
	if (command != NULL && *command == '\0') {
		fprintf(stderr, "reflexion-rules init: --command must not be "
		    "empty\n");
		goto out;
	}
	if (project != NULL && *project == '\0') {
		fprintf(stderr, "reflexion-rules init: --project-dir must not "
		    "be empty\n");
		goto out;
	}
	/* The project the hook will see: CLAUDE_PROJECT_DIR, else git's. */
	if (project == NULL) {
		root = project_root(NULL);
		/* Said as ".claude/settings.json" when it is here. */
		if (getcwd(cwd, sizeof(cwd)) != NULL && strcmp(root, cwd) == 0)
			root[0] = '\0';
	} else {
		/* "DIR/" and "DIR" name the same place; print it once. */
		len = strlen(project);
		while (len > 1 && project[len - 1] == '/')
			len--;
		root = xstrndup(project, len);
	}
	ir.root = root;
	ir.command = cmd = command != NULL ? xstrdup(command) :
	    ir.uninstall ? xstrdup(SETTINGS_DEFAULT_COMMAND) :
	    hook_command(&note);
	ir.headers = n > 1;
	if (cmd_args_has(&a, INIT_STATUSLINE)) {
		for (i = 0; i < n && clients[i]->agent != AGENT_CLAUDE; i++)
			;
		if (i == n) {
			fprintf(stderr, "reflexion-rules init: --statusline is "
			    "Claude Code's: name --agent claude too\n");
			goto out;
		}
		sl_cmd = statusline_command(ir.command);
		ir.statusline = sl_cmd;
	}
	status = RR_EXIT_OK;
	for (i = 0; i < n; i++) {
		if (init_client(&ir, clients[i], &err) < 0) {
			fprintf(stderr, "reflexion-rules init: %s\n", err);
			free(err);
			err = NULL;
			status = RR_EXIT_USAGE;
		}
	}
	if (note != NULL && (ir.changed > 0 || ir.dry_run))
		fprintf(stderr, "reflexion-rules init: %s\n", note);
	if (status == RR_EXIT_OK && ir.changed > 0 && !ir.uninstall)
		printf("reflexion-rules: next: turn rule packs on in "
		    "~/.reflexion/config.yaml (packs: [dangerous-commands]), "
		    "or write rules in .reflexion/rules/ (reflexion-rules(5)); "
		    "then 'reflexion-rules doctor' checks it all\n");
out:
	free(note);
	free(sl_cmd);
	free(cmd);
	free(root);
	cmd_args_release(&a);
	return status;
}
