/*
 * Programs that run a command given as their arguments, for the command
 * reader (shellwords_priv.h): `uv run CMD`, `docker exec C CMD`,
 * `kubectl exec POD -- CMD`, `tmux new-session CMD`, `tmux send-keys
 * 'CMD' Enter`, `screen -dm CMD` ... each read from a table of where the
 * command starts: after a subcommand, past options that take a value,
 * past so many positional words (a container, a pod), or after "--".
 *
 * And a program nobody here knows whose first argument is a program the
 * packs judge (`tool rm -rf /`, `mytracker "bash -c '...'"`): it may run
 * its arguments, so they are read as a command too, marked in explain as
 * the arguments of that program.  A guard may see more than runs, never
 * less; the programs whose arguments are data (grep's pattern, echo's
 * text, pgrep's) are left out.
 *
 * What is read is parsed one level deeper through the lexer
 * (sh_parse_from); this file calls nothing else of the reader.
 */
#include <string.h>

#include "buf.h"
#include "shellwords_priv.h"
#include "strset.h"

enum run_how {
	RUN_WORDS,	/* the words are the command's argv */
	RUN_STRING,	/* the words joined are a shell command line */
	RUN_DASHDASH,	/* the words after "--" are the argv */
	RUN_KEYS	/* keys typed into a shell (tmux send-keys) */
};

struct runner {
	const char		*program;
	const char *const	*subcommands;	/* NULL: none */
	const char		*short_vals;	/* short options with a value */
	const char *const	*long_vals;	/* long ones (--x VALUE) */
	int			 skip;		/* positional words first */
	enum run_how		 how;
};

static const char *const none[] = { NULL };
static const char *const run_sub[] = { "run", NULL };
static const char *const exec_sub[] = { "exec", NULL };
static const char *const compose_sub[] = { "compose", NULL };
static const char *const uv_long[] = {
	"--with", "--python", "--package", "--env-file", "--directory",
	"--project", "--extra", "--group", "--index", "--index-url",
	"--with-requirements", "--with-editable", NULL
};
static const char *const project_long[] = {
	"--project", "--directory", "--environment", "--manifest-path", NULL
};
static const char *const conda_long[] = {
	"--name", "--prefix", "--cwd", NULL
};
static const char *const npx_long[] = { "--package", NULL };
static const char *const docker_long[] = {
	"--env", "--user", "--workdir", "--env-file", "--detach-keys",
	"--index", NULL
};
static const char *const kube_long[] = {
	"--container", "--namespace", "--context", "--kubeconfig",
	"--pod-running-timeout", NULL
};
static const char *const tmux_run[] = {
	"new-session", "new", "new-window", "neww", "split-window", "splitw",
	"respawn-pane", "respawnp", "respawn-window", "respawnw",
	"run-shell", "run", NULL
};
static const char *const tmux_keys[] = { "send-keys", "send", NULL };
static const char *const systemd_long[] = {
	"--unit", "--property", "--uid", "--gid", "--working-directory",
	"--setenv", "--slice", "--description", "--machine", "--host",
	NULL
};

static const struct runner runners[] = {
	{ "uv", run_sub, "p", uv_long, 0, RUN_WORDS },
	{ "poetry", run_sub, "C", project_long, 0, RUN_WORDS },
	{ "pipenv", run_sub, "", none, 0, RUN_WORDS },
	{ "pdm", run_sub, "p", project_long, 0, RUN_WORDS },
	{ "hatch", run_sub, "", none, 0, RUN_WORDS },
	{ "rye", run_sub, "", project_long, 0, RUN_WORDS },
	{ "pixi", run_sub, "e", project_long, 0, RUN_WORDS },
	{ "conda", run_sub, "np", conda_long, 0, RUN_WORDS },
	{ "mamba", run_sub, "np", conda_long, 0, RUN_WORDS },
	{ "micromamba", run_sub, "np", conda_long, 0, RUN_WORDS },
	{ "npx", NULL, "p", npx_long, 0, RUN_WORDS },
	{ "pnpx", NULL, "p", npx_long, 0, RUN_WORDS },
	{ "bunx", NULL, "p", npx_long, 0, RUN_WORDS },
	{ "npm", exec_sub, "", npx_long, 0, RUN_WORDS },
	{ "pnpm", exec_sub, "", none, 0, RUN_WORDS },
	{ "yarn", exec_sub, "", none, 0, RUN_WORDS },
	{ "docker", exec_sub, "euw", docker_long, 1, RUN_WORDS },
	{ "podman", exec_sub, "euw", docker_long, 1, RUN_WORDS },
	{ "nerdctl", exec_sub, "euw", docker_long, 1, RUN_WORDS },
	/* docker compose exec|run SERVICE CMD: two words before it. */
	{ "docker", compose_sub, "euw", docker_long, 2, RUN_WORDS },
	{ "podman", compose_sub, "euw", docker_long, 2, RUN_WORDS },
	{ "docker-compose", exec_sub, "euw", docker_long, 1, RUN_WORDS },
	{ "podman-compose", exec_sub, "euw", docker_long, 1, RUN_WORDS },
	{ "kubectl", exec_sub, "cn", kube_long, 1, RUN_DASHDASH },
	{ "oc", exec_sub, "cn", kube_long, 1, RUN_DASHDASH },
	{ "tmux", tmux_run, "cefFlnstxy", none, 0, RUN_STRING },
	{ "tmux", tmux_keys, "NtX", none, 0, RUN_KEYS },
	{ "screen", NULL, "SceptThsX", none, 0, RUN_WORDS },
	{ "systemd-run", NULL, "pEuMH", systemd_long, 0, RUN_WORDS },
};

/*
 * The programs the packs judge, and shells: a first argument that names
 * one, given to a program nobody here knows, is read as a command.
 */
static const char *const runnable[] = {
	"rm", "rmdir", "shred", "git", "find", "dd", "wipefs", "mkfs",
	"mke2fs", "mkswap", "chmod", "chown", "chgrp", "sh", "bash", "zsh",
	"dash", "ksh", "fish", "sudo", "doas", "env", "eval", "xargs",
	"dropdb", "psql", "mysql", "docker", "podman", "kubectl", "helm",
	"terraform", "aws", "gcloud", "az", "truncate", NULL
};

/*
 * Programs whose arguments are data, a pattern or a name, never run:
 * their first argument naming a program is a mention.
 */
static const char *const data_args[] = {
	"echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "ack", "sed",
	"jq", "yq", "man", "info", "help", "which", "whereis", "whatis",
	"apropos", "tldr", "type", "command", "hash", "test", "[", "[[",
	"pgrep", "pkill", "killall", "pidof", "ps", "history", "alias",
	"unalias", "complete", "compgen", "declare", "typeset", "export",
	"local", "readonly", "read", "set", "unset", "shift", "exit", "return",
	"cd", "pushd", "popd", "ls", "cat", "less", "more", "head", "tail",
	"wc", "sort", "uniq", "cut", "tr", "diff", "cmp", "file", "stat",
	"touch", "mkdir", "cp", "mv", "ln", "tee", "tar", "zip", "unzip",
	"gzip", "gunzip", "curl", "wget", "ssh", "scp", "rsync", "git",
	"gh", "glab", "hub", "say", "notify-send", "logger", "expr", "let",
	"basename", "dirname", "realpath", "readlink", "true", "false",
	"trap", "watch", "parallel", "sem", "runuser", "time", "for",
	"select", "case", "function",
	/* their arguments are files, whatever they are named */
	"rm", "rmdir", "unlink", "install", "chmod", "chown", "chgrp", "dd",
	"shred", "truncate", "find", "du", "df", "chattr", "lsattr", "open",
	"xdg-open", "code", "vim", "vi", "nano", "emacs", NULL
};

static bool
is_runnable(const char *word)
{
	const char	*b = strrchr(word, '/');

	b = b != NULL && b[1] ? b + 1 : word;
	return str_in_set(b, runnable) || strncmp(b, "mkfs.", 5) == 0;
}

/* The first word of text, into out; false when it has none. */
static bool
first_token(const char *text, struct buf *out)
{
	size_t	n;

	text += strspn(text, " \t\n");
	n = strcspn(text, " \t\n;|&");
	buf_reset(out);
	buf_add(out, text, n);
	return n > 0;
}

/*
 * Parses argv[from..argc), quoted or joined as written, with origin; c's
 * input (a here-document) goes on to it as a here-string, so that `uv
 * run python - <<EOF` reads the program.
 */
static void
parse_words(struct frame *f, const struct sh_cmd *c, size_t from,
    bool quote, const char *origin)
{
	struct buf	b;
	size_t		k;

	if (from >= c->argc)
		return;
	buf_init(&b);
	for (k = from; k < c->argc; k++) {
		if (k > from)
			buf_addc(&b, ' ');
		if (quote)
			sh_add_quoted(&b, c->argv[k], strlen(c->argv[k]));
		else
			buf_adds(&b, c->argv[k]);
	}
	if (c->input != NULL) {
		buf_adds(&b, " <<< ");
		sh_add_quoted(&b, c->input, strlen(c->input));
	}
	sh_parse_from(f, b.data, b.len, origin);
	buf_release(&b);
}

/* tmux send-keys: the keys typed, key names (Enter, C-m) as newlines. */
static void
parse_keys(struct frame *f, const struct sh_cmd *c, size_t from)
{
	static const char *const keys[] = {
		"Enter", "C-m", "C-j", "KPEnter", NULL
	};
	struct buf	b;
	size_t		k;

	buf_init(&b);
	for (k = from; k < c->argc; k++)
		if (str_in_set(c->argv[k], keys))
			buf_addc(&b, '\n');
		else
			buf_adds(&b, c->argv[k]);
	if (b.len > 0)
		sh_parse_from(f, b.data, b.len, "tmux send-keys");
	buf_release(&b);
}

/*
 * Past the options of c from i on: those of short_vals and long_vals
 * take the next word (or an attached one).  Returns the first other word.
 */
static size_t
skip_options(const struct sh_cmd *c, size_t i, const struct runner *r)
{
	const char	*s;
	size_t		 k;

	for (; i < c->argc; i++) {
		s = c->argv[i];
		if (s[0] != '-' || s[1] == '\0' || strcmp(s, "--") == 0)
			break;
		if (s[1] == '-') {
			if (strchr(s, '=') == NULL && str_in_set(s, r->long_vals))
				i++;
			continue;
		}
		/* A bundle (-dmS NAME): the first letter that takes a value
		 * takes the rest of the word, or else the next word. */
		for (k = 1; s[k] != '\0'; k++)
			if (strchr(r->short_vals, s[k]) != NULL) {
				if (s[k + 1] == '\0')
					i++;
				break;
			}
	}
	return i;
}

/* Reads what runner r runs, c being one of its commands. */
static bool
run_table(struct frame *f, const struct sh_cmd *c, const struct runner *r)
{
	size_t	i = 1;
	int	skip = r->skip;

	if (r->subcommands != NULL) {
		/* Global options (docker -H, tmux -L ...) are not read. */
		while (i < c->argc && c->argv[i][0] == '-')
			i++;
		if (i >= c->argc || !str_in_set(c->argv[i], r->subcommands))
			return false;
		i++;
	}
	if (r->how == RUN_DASHDASH) {
		for (; i < c->argc && strcmp(c->argv[i], "--") != 0; i++)
			;
		parse_words(f, c, i + 1, true, c->program);
		return true;
	}
	for (;;) {
		i = skip_options(c, i, r);
		if (i < c->argc && strcmp(c->argv[i], "--") == 0) {
			i++;
			break;
		}
		if (skip-- <= 0 || i >= c->argc)
			break;
		i++;
	}
	if (r->how == RUN_KEYS)
		parse_keys(f, c, i);
	else
		parse_words(f, c, i, r->how == RUN_WORDS, c->program);
	return true;
}

/*
 * A program nobody here knows: when its first argument after options
 * names a program the packs judge, the arguments from there are read as
 * a command; when it is one word holding a command line that starts
 * with one, that line is.
 */
static void
unknown_program(struct frame *f, const struct sh_cmd *c)
{
	struct buf	 first, origin;
	size_t		 i;

	if (str_in_set(c->program, data_args) || c->program[0] == '$')
		return;
	for (i = 1; i < c->argc && c->argv[i][0] == '-'; i++)
		if (strcmp(c->argv[i], "--") == 0) {
			i++;
			break;
		}
	if (i >= c->argc)
		return;
	buf_init(&first);
	buf_init(&origin);
	buf_printf(&origin, "the arguments of %s", c->program);
	if (is_runnable(c->argv[i]))
		parse_words(f, c, i, true, origin.data);
	else if (strpbrk(c->argv[i], " \t") != NULL &&
	    first_token(c->argv[i], &first) && (is_runnable(first.data) ||
	    strchr(first.data, '=') != NULL))
		sh_parse_from(f, c->argv[i], strlen(c->argv[i]), origin.data);
	buf_release(&first);
	buf_release(&origin);
}

void
sh_runner_stdin(struct frame *f, const struct sh_cmd *c)
{
	size_t	i;

	for (i = 0; i < sizeof(runners) / sizeof(runners[0]); i++)
		if (strcmp(c->program, runners[i].program) == 0 &&
		    runners[i].how == RUN_WORDS && run_table(f, c, &runners[i]))
			return;
}

void
sh_runner_forms(struct frame *f, const struct sh_cmd *c, bool known)
{
	size_t	i;
	bool	seen = false;

	/* One pass; the first byte spares most calls of strcmp(). */
	for (i = 0; i < sizeof(runners) / sizeof(runners[0]); i++) {
		if (c->program[0] != runners[i].program[0] ||
		    strcmp(c->program, runners[i].program) != 0)
			continue;
		if (run_table(f, c, &runners[i]))
			return;
		seen = true;
	}
	if (seen)
		return;		/* known, another subcommand */
	if (!known)
		unknown_program(f, c);
}
