/*
 * The doctor's checks of the agents (doctor_priv.h): where each client
 * registers the hook is hookreg.c's knowledge; here each of those files
 * is read (never written), the events that run our hook counted, the
 * program each registration runs looked for, and the client's version,
 * when its program is on PATH, compared with the client bugs that
 * reflexion-rules(1) (AGENT PROTOCOLS) and doc/claude-code-hooks.md (§5)
 * list.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "doctor_priv.h"
#include "fileio.h"
#include "hookreg.h"
#include "monoclock.h"
#include "progpath.h"
#include "xmalloc.h"

#define SETTINGS_MAX		(16u * 1024 * 1024)
#define VERSION_OUTPUT_MAX	4096

/*
 * The clients' programs, the version tests/agents/install.sh pins for
 * the end-to-end tests, and the package to upgrade.  Cursor's CLI is
 * only looked for: it has no version to compare.
 */
static const struct client_prog {
	enum rr_agent	 agent;
	const char	*program;
	const char	*tested;
	const char	*package;
} client_progs[] = {
	{ AGENT_CLAUDE, "claude", "2.1.332", "@anthropic-ai/claude-code" },
	{ AGENT_GEMINI, "gemini", "0.61.0", "@google/gemini-cli" },
	{ AGENT_CODEX, "codex", "0.169.0", "@openai/codex" },
	{ AGENT_COPILOT, "copilot", "1.0.102", "@github/copilot" },
	{ AGENT_CURSOR, "cursor-agent", NULL, NULL },
};

/*
 * Known bugs of the clients that change what a rule does: versions from
 * `from` (NULL: any older) up to, not including, `fixed`.
 */
static const struct client_bug {
	enum rr_agent	 agent;
	const char	*from;
	const char	*fixed;
	const char	*what;
} client_bugs[] = {
	{ AGENT_CLAUDE, NULL, "2.1.9", "drops the context of a PreToolUse "
	    "reply: context rules before a tool call say nothing" },
	{ AGENT_CLAUDE, "2.1.78", "2.1.79", "was reported to ignore "
	    "permissionDecision: a deny may not stop the tool" },
	{ AGENT_CLAUDE, NULL, "2.1.85", "runs a command a rule asks about "
	    "without asking when it matches --allowedTools" },
	{ AGENT_CLAUDE, NULL, "2.1.163", "rejects the context of a Stop "
	    "reply that does not block: Stop context rules say nothing" },
};

static const struct client_prog *
client_prog(enum rr_agent agent)
{
	size_t	i;

	for (i = 0; i < sizeof(client_progs) / sizeof(client_progs[0]); i++)
		if (client_progs[i].agent == agent)
			return &client_progs[i];
	return NULL;
}

int
doctor_version_cmp(const char *a, const char *b)
{
	unsigned long	x, y;
	char		*end;

	while (*a != '\0' || *b != '\0') {
		x = strtoul(a, &end, 10);
		a = *end == '.' ? end + 1 : end;
		y = strtoul(b, &end, 10);
		b = *end == '.' ? end + 1 : end;
		if (x != y)
			return x < y ? -1 : 1;
		/* A part that is not a number ends the comparison. */
		if ((*a != '\0' && (*a < '0' || *a > '9')) ||
		    (*b != '\0' && (*b < '0' || *b > '9')))
			break;
	}
	return 0;
}

/* The first N.N or N.N.N of text, or NULL; owned. */
static char *
find_version(const char *text)
{
	const char	*p, *q;
	int		 dots;

	for (p = text; *p != '\0'; p++) {
		if (*p < '0' || *p > '9' || (p > text && ((p[-1] >= '0' &&
		    p[-1] <= '9') || p[-1] == '.')))
			continue;
		for (q = p, dots = 0; (*q >= '0' && *q <= '9') ||
		    (*q == '.' && q[1] >= '0' && q[1] <= '9' && dots < 2);
		    q++)
			if (*q == '.')
				dots++;
		if (dots > 0)
			return xstrndup(p, (size_t)(q - p));
	}
	return NULL;
}

int
doctor_client_version(const char *program, long timeout_ms, char **version,
    char **err)
{
	struct pollfd	 pfd;
	struct buf	 out;
	char		 chunk[512];
	long long	 deadline = monoclock_ms() + timeout_ms, left;
	ssize_t		 n;
	pid_t		 pid;
	int		 fds[2], null, status, timed_out = 0;

	*version = NULL;
	if (pipe(fds) < 0) {
		*err = xasprintf("cannot run %s: %s", program, strerror(errno));
		return -1;
	}
	if ((pid = fork()) < 0) {
		*err = xasprintf("cannot run %s: %s", program, strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		/* Its own process group: a timeout ends all it started. */
		setpgid(0, 0);
		null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(fds[1], 1);
		dup2(null, 2);
		close(fds[0]);
		execlp(program, program, "--version", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	buf_init(&out);
	pfd.fd = fds[0];
	pfd.events = POLLIN;
	for (;;) {
		if ((left = deadline - monoclock_ms()) <= 0) {
			timed_out = 1;
			break;
		}
		if (poll(&pfd, 1, (int)left) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd.revents == 0)
			continue;
		if ((n = read(fds[0], chunk, sizeof(chunk))) < 0 &&
		    errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (out.len < VERSION_OUTPUT_MAX)
			buf_add(&out, chunk, (size_t)n);
	}
	close(fds[0]);
	if (timed_out) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	buf_addc(&out, '\0');
	if (timed_out)
		*err = xasprintf("'%s --version' did not answer within %ld ms",
		    program, timeout_ms);
	else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		*err = xasprintf("'%s --version' failed (%s %d)", program,
		    WIFEXITED(status) ? "exit status" : "signal",
		    WIFEXITED(status) ? WEXITSTATUS(status) :
		    WTERMSIG(status));
	else if ((*version = find_version(out.data)) == NULL)
		*err = xasprintf("'%s --version' printed no version", program);
	buf_release(&out);
	return *version != NULL ? 0 : -1;
}

/* The program a command runs: its first word, unquoted; owned. */
static char *
command_program(const char *cmd)
{
	struct buf	 b;
	char		 quote = 0;

	buf_init(&b);
	while (*cmd == ' ' || *cmd == '\t')
		cmd++;
	for (; *cmd != '\0'; cmd++) {
		if (quote != 0) {
			if (*cmd == quote)
				quote = 0;
			else
				buf_addc(&b, *cmd);
		} else if (*cmd == '\'' || *cmd == '"')
			quote = *cmd;
		else if (*cmd == '\\' && cmd[1] != '\0')
			buf_addc(&b, *++cmd);
		else if (*cmd == ' ' || *cmd == '\t')
			break;
		else
			buf_addc(&b, *cmd);
	}
	return buf_detach(&b, NULL);
}

/* What one client's file registers. */
struct reg_found {
	size_t		 events;	/* the client's events */
	size_t		 ours;		/* those that run our hook */
	struct buf	 missing;	/* "Stop, SessionStart" */
	struct buf	 commands;	/* our commands, one a line */
};

static void
add_command(struct reg_found *rf, const char *cmd)
{
	const char	*p = rf->commands.data;
	size_t		 n = strlen(cmd);

	for (; p != NULL && *p != '\0'; p = strchr(p, '\n') + 1)
		if (strncmp(p, cmd, n) == 0 && p[n] == '\n')
			return;
	buf_printf(&rf->commands, "%s\n", cmd);
}

/* Whether handler h of client c runs our hook; records its command. */
static bool
handler_ours(const struct reg_client *c, const cJSON *h,
    struct reg_found *rf)
{
	const cJSON	*cmd = cJSON_GetObjectItemCaseSensitive(h,
			    c->command_key);

	if (!cJSON_IsString(cmd) || !hookreg_is_ours(cmd->valuestring))
		return false;
	add_command(rf, cmd->valuestring);
	return true;
}

/* Reads text, a settings file of c, into rf; -1 with *err. */
static int
scan_settings(const struct reg_client *c, const char *text, size_t len,
    struct reg_found *rf, char **err)
{
	const struct reg_event	*e;
	const cJSON		*hooks, *list, *entry, *hs, *h;
	cJSON			*root;
	bool			 found;

	if ((root = cJSON_ParseWithLength(text, len)) == NULL) {
		*err = xstrdup("it is not JSON");
		return -1;
	}
	if (!cJSON_IsObject(root)) {
		*err = xstrdup("it is not a JSON object");
		cJSON_Delete(root);
		return -1;
	}
	hooks = cJSON_GetObjectItemCaseSensitive(root, "hooks");
	for (e = c->events; e->name[0] != '\0'; e++) {
		rf->events++;
		found = false;
		list = cJSON_GetObjectItemCaseSensitive(hooks, e->name);
		cJSON_ArrayForEach(entry, (cJSON_IsArray(list) ? list : NULL)) {
			if (c->shape == REG_FLAT) {
				found |= handler_ours(c, entry, rf);
				continue;
			}
			hs = cJSON_GetObjectItemCaseSensitive(entry, "hooks");
			cJSON_ArrayForEach(h, (cJSON_IsArray(hs) ? hs : NULL))
				found |= handler_ours(c, h, rf);
		}
		if (found)
			rf->ours++;
		else
			buf_printf(&rf->missing, "%s%s", rf->missing.len ?
			    ", " : "", e->name);
	}
	cJSON_Delete(root);
	return 0;
}

/* Reads path: 1 with its text, 0 when there is none, -1 with *err. */
static int
read_file(const char *path, char **text, size_t *len, char **err)
{
	struct buf	b;
	struct stat	st;
	int		fd, rc = 1;

	*text = NULL;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		*err = xasprintf("cannot read it: %s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		*err = xstrdup("it is not a regular file");
		close(fd);
		return -1;
	}
	buf_init(&b);
	if (fd_read_all(fd, SETTINGS_MAX, false, &b) != FD_READ_OK) {
		*err = xstrdup("cannot read it, or it is too large");
		rc = -1;
	}
	close(fd);
	if (rc < 0) {
		buf_release(&b);
		return -1;
	}
	*text = buf_detach(&b, len);
	return 1;
}

/*
 * The programs our registrations in path run: each there and runnable.
 * A bare name is PATH's to find (the program check).
 */
static void
check_commands(struct doctor_report *r, const char *title,
    const char *path, const char *refix, const struct reg_found *rf,
    bool *bare)
{
	const char	*p, *nl;
	char		*cmd, *prog, *self, *real;

	for (p = rf->commands.data; p != NULL && *p != '\0'; p = nl + 1) {
		nl = strchr(p, '\n');
		cmd = xstrndup(p, (size_t)(nl - p));
		prog = command_program(cmd);
		if (strchr(prog, '/') == NULL)
			*bare = true;
		else if (access(prog, X_OK) != 0)
			doctor_add(r, DOCTOR_PROBLEM, title, refix, "%s runs "
			    "'%s', and %s cannot be run: %s", path, cmd, prog,
			    strerror(errno));
		else {
			self = progpath_self();
			real = realpath(prog, NULL);
			if (self != NULL && real != NULL &&
			    strcmp(self, real) != 0)
				doctor_add(r, DOCTOR_NOTE, title, NULL, "%s runs "
				    "%s, which is not this program (%s)", path,
				    prog, self);
			free(real);
			free(self);
		}
		free(prog);
		free(cmd);
	}
}

/*
 * Client c's registrations, scope by scope.  Returns how many files
 * register it; reports each.
 */
static size_t
check_registrations(const struct reg_client *c, const char *root,
    struct doctor_report *r, bool *bare)
{
	const char	*title = agent_titles[c->agent];
	struct reg_found rf;
	char		*path, *text, *err = NULL, *fix, *refix, *bak;
	size_t		 len, files = 0;
	int		 s, got;

	for (s = 0; s < SCOPE__COUNT; s++) {
		if (c->files[s].path == NULL)
			continue;
		if ((path = hookreg_file(c, (enum reg_scope)s, root,
		    &err)) == NULL) {
			free(err);
			err = NULL;
			continue;
		}
		fix = xasprintf("reflexion-rules init --agent %s --scope %s",
		    agent_names[c->agent], reg_scope_names[s]);
		memset(&rf, 0, sizeof(rf));
		buf_init(&rf.missing);
		buf_init(&rf.commands);
		if ((got = read_file(path, &text, &len, &err)) > 0 &&
		    scan_settings(c, text, len, &rf, &err) < 0)
			got = -1;
		if (got < 0) {
			bak = xasprintf("%s.bak", path);
			refix = access(bak, R_OK) == 0 ? xasprintf("cp %s %s "
			    "(the version before init's last change)", bak,
			    path) : NULL;
			doctor_add(r, DOCTOR_PROBLEM, title, refix, "%s (%s "
			    "scope): %s; %s cannot read its hooks either: fix "
			    "it by hand", path, reg_scope_names[s], err, title);
			free(refix);
			free(bak);
			free(err);
			err = NULL;
		} else if (got > 0 && rf.ours == rf.events) {
			files++;
			doctor_add(r, DOCTOR_OK, title, NULL, "registered in "
			    "%s (%s scope): %zu events", path,
			    reg_scope_names[s], rf.ours);
		} else if (got > 0 && rf.ours > 0) {
			files++;
			doctor_add(r, DOCTOR_PROBLEM, title, fix, "%s (%s "
			    "scope) runs the hook on %zu of its %zu events; "
			    "not on %s", path, reg_scope_names[s], rf.ours,
			    rf.events, rf.missing.data);
		}
		/* init keeps a registration of ours: take it out first. */
		refix = xasprintf("reflexion-rules init --uninstall --agent %s "
		    "--scope %s && %s", agent_names[c->agent],
		    reg_scope_names[s], fix);
		if (got > 0)
			check_commands(r, title, path, refix, &rf, bare);
		free(refix);
		free(text);
		buf_release(&rf.missing);
		buf_release(&rf.commands);
		free(fix);
		free(path);
	}
	return files;
}

/* The client's version against the bugs known of it. */
static void
check_version(const struct client_prog *cp, const char *program,
    long timeout_ms, struct doctor_report *r)
{
	const char	*title = agent_titles[cp->agent];
	const struct client_bug *b;
	char		*version, *err = NULL, *fix;
	size_t		 i, bugs = 0;

	if (doctor_client_version(program, timeout_ms, &version, &err) < 0) {
		doctor_add(r, DOCTOR_NOTE, title, NULL, "%s: its version is "
		    "not known, so not compared with the client bugs known: "
		    "%s", program, err);
		free(err);
		return;
	}
	fix = xasprintf("npm install -g %s@latest", cp->package);
	for (i = 0; i < sizeof(client_bugs) / sizeof(client_bugs[0]); i++) {
		b = &client_bugs[i];
		if (b->agent != cp->agent ||
		    (b->from != NULL && doctor_version_cmp(version, b->from) <
		    0) || doctor_version_cmp(version, b->fixed) >= 0)
			continue;
		bugs++;
		doctor_add(r, DOCTOR_PROBLEM, title, fix, "%s %s %s (fixed in "
		    "%s)", title, version, b->what, b->fixed);
	}
	if (bugs == 0)
		doctor_add(r, DOCTOR_OK, title, NULL, "%s %s (%s): no known "
		    "client bug", title, version, program);
	if (cp->tested != NULL && doctor_version_cmp(version, cp->tested) < 0)
		doctor_add(r, DOCTOR_NOTE, title, fix, "%s %s is older than "
		    "%s, the version the end-to-end tests run", title, version,
		    cp->tested);
	free(fix);
	free(version);
}

void
doctor_agents(const struct doctor_opts *o, const char *root,
    struct doctor_report *r, bool *bare)
{
	const struct reg_client	*c;
	const struct client_prog *cp;
	char			*prog[AGENT__COUNT], *fix;
	size_t			 files[AGENT__COUNT], registered = 0;
	int			 ag;

	for (ag = AGENT_CLAUDE; ag < AGENT__COUNT; ag++) {
		c = hookreg_client((enum rr_agent)ag);
		cp = client_prog((enum rr_agent)ag);
		prog[ag] = cp != NULL ? progpath_find(cp->program) : NULL;
		files[ag] = 0;
		if (o->any_agent && !o->agents[ag])
			continue;
		files[ag] = check_registrations(c, root, r, bare);
		if (files[ag] > 0)
			registered++;
	}
	for (ag = AGENT_CLAUDE; ag < AGENT__COUNT; ag++) {
		if (o->any_agent && !o->agents[ag])
			goto next;
		cp = client_prog((enum rr_agent)ag);
		if (files[ag] == 0) {
			fix = ag == AGENT_CLAUDE ? xstrdup("reflexion-rules "
			    "init") : xasprintf("reflexion-rules init --agent %s",
			    agent_names[ag]);
			if (o->any_agent || (registered == 0 &&
			    ag == AGENT_CLAUDE))
				doctor_add(r, DOCTOR_PROBLEM, agent_titles[ag],
				    fix, "%s does not run the hook: it is "
				    "registered in none of its settings files",
				    agent_titles[ag]);
			else if (prog[ag] != NULL)
				doctor_add(r, DOCTOR_NOTE, agent_titles[ag], fix,
				    "%s is installed (%s) but does not run the "
				    "hook", agent_titles[ag], prog[ag]);
			free(fix);
		}
		if (prog[ag] != NULL && cp->package != NULL &&
		    (files[ag] > 0 || o->any_agent))
			check_version(cp, prog[ag], o->client_timeout_ms, r);
		else if (prog[ag] == NULL && cp != NULL && cp->package != NULL &&
		    files[ag] > 0)
			doctor_add(r, DOCTOR_NOTE, agent_titles[ag], NULL, "%s is "
			    "not on PATH: its version was not checked",
			    cp->program);
next:
		free(prog[ag]);
	}
}
