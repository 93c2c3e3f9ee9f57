/*
 * Commands that run other commands written differently (shellwords.h):
 * part of the command reader (shellwords_priv.h), called by shellcmd.c
 * for each simple command it made.  Each form below turns what the
 * command will run into text that is parsed one level deeper, within the
 * reader's limits and work budget:
 *
 *   git NAME ARGS     with alias.NAME from `git -c` or GIT_CONFIG_KEY_n /
 *                     GIT_CONFIG_VALUE_n: `git VALUE ARGS` with the same
 *                     options and assignments (an alias may name
 *                     another), or the shell command VALUE when it
 *                     starts with '!';
 *   git -c core.sshCommand=CMD (and the other config keys whose value
 *                     git runs through a shell);
 *   NAME=CMD          an assignment to a variable whose value programs
 *                     run as a command (GIT_SSH_COMMAND, EDITOR, ...);
 *   BASH_ENV=<( )     the file a shell sources, when a process
 *                     substitution writes it (also --rcfile, source);
 *   parallel          its command with each argument after ::: put in;
 *   watch, ssh HOST   the words of the command, joined as they do;
 *   ssh -o ProxyCommand=CMD, rsync -e CMD   the command they run here;
 *   trap CMD SIG      the command run on the signal;
 *   runuser -u USER CMD.
 *
 * And what a command sets for the commands after it, which the reader
 * keeps as variables under names no shell variable can have: the words
 * of `for NAME in WORDS`, which a later $NAME stands for, and the values
 * `git config KEY VALUE` sets, which the git forms read as `git -c`.
 *
 * Every string lives in the script's arena or is freed here.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "shellwords_priv.h"
#include "strset.h"
#include "xmalloc.h"

/* Jobs of parallel read, at most; input sources (:::) of one. */
#define PARALLEL_MAX_ARGS	16
#define PARALLEL_MAX_SOURCES	4
/* Words of a for loop that its variable stands for. */
#define LOOP_MAX_VALUES		16
/* Separates them in the variable "for NAME" the reader keeps. */
#define LOOP_SEP		'\x1f'

static void
parse_text(struct frame *f, const struct buf *b)
{
	sh_parse_nested(f, arena_strndup(&f->ps->sc->arena, b->data, b->len),
	    b->len);
}

static void
parse_str(struct frame *f, const char *s)
{
	sh_parse_nested(f, s, strlen(s));
}

static void
add_quoted(struct buf *b, const char *s)
{
	sh_add_quoted(b, s, strlen(s));
}

/* Appends argv[from..argc), each quoted or as written, space-separated. */
static void
add_words(struct buf *b, const char *const *argv, size_t from, size_t argc,
    bool quote)
{
	size_t	k;

	for (k = from; k < argc; k++) {
		if (b->len > 0)
			buf_addc(b, ' ');
		if (quote)
			add_quoted(b, argv[k]);
		else
			buf_adds(b, argv[k]);
	}
}

/* Parses argv[from..argc) joined by spaces, as ssh and watch run it. */
static void
parse_joined(struct frame *f, const char *const *argv, size_t from,
    size_t argc, bool quote)
{
	struct buf	b;

	if (from >= argc)
		return;
	buf_init(&b);
	add_words(&b, argv, from, argc, quote);
	parse_text(f, &b);
	buf_release(&b);
}

/* ---- variables whose value is a command --------------------------------- */

void
sh_source_word(struct frame *f, const char *word)
{
	const char	*text;
	size_t		 len;

	if ((text = sh_proc_sub(word, &len)) != NULL)
		sh_parse_from(f, text, len, "<( )");
	else if ((text = sh_written_text(f->ps, word)) != NULL)
		sh_parse_from(f, text, strlen(text), word);
}

static const char *const command_vars[] = {
	"GIT_SSH_COMMAND", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER",
	"GIT_EXTERNAL_DIFF", "EDITOR", "VISUAL", "PAGER", "PROMPT_COMMAND",
	NULL
};

void
sh_command_var(struct frame *f, const char *word)
{
	const char	*eq = strchr(word, '=');
	char		 name[32];
	size_t		 n;

	if (eq == NULL || (n = (size_t)(eq - word)) >= sizeof(name) ||
	    eq[1] == '\0')
		return;
	memcpy(name, word, n);
	name[n] = '\0';
	if (str_in_set(name, command_vars))
		parse_str(f, eq + 1);
	else if (strcmp(name, "BASH_ENV") == 0 || strcmp(name, "ENV") == 0)
		sh_source_word(f, eq + 1);	/* a file the shell sources */
}

/* ---- git ------------------------------------------------------------------ */

/* Config keys whose value git runs through a shell. */
static const char *const git_command_keys[] = {
	"core.sshcommand", "core.editor", "core.pager", "sequence.editor",
	"diff.external", NULL
};

/*
 * The value of the variable named name[0..len) for the command: an
 * assignment before it (pre[0..npre)), else one earlier in the line.
 */
static const char *
env_value(struct frame *f, const struct sh_word *pre, size_t npre,
    const char *name, size_t len)
{
	size_t	k;

	for (k = npre; k > 0; k--)
		if (pre[k - 1].assign && strncmp(pre[k - 1].s, name, len) == 0 &&
		    pre[k - 1].s[len] == '=')
			return pre[k - 1].s + len + 1;
	return f->ps->hooks->lookup_var(f->ps, name, len);
}

static bool
is_alias_key(const char *key, size_t len, void *arg)
{
	const char	*sub = arg;

	return len > 6 && strncasecmp(key, "alias.", 6) == 0 &&
	    strlen(sub) == len - 6 && strncasecmp(key + 6, sub, len - 6) == 0;
}

static bool
is_command_key(const char *key, size_t len, void *arg)
{
	const char *const	*k;

	(void)arg;
	for (k = git_command_keys; *k != NULL; k++)
		if (strlen(*k) == len && strncasecmp(key, *k, len) == 0)
			return true;
	return false;
}

/*
 * The value of a key fn accepts that `git config KEY VALUE` set earlier
 * in the line: the reader keeps it as the variable "git config KEY".
 */
static const char *
config_set(struct frame *f, bool (*fn)(const char *, size_t, void *),
    void *arg)
{
	const char *const	*k;
	const char		*v;
	char			 name[128];
	size_t			 i;

	if (fn == is_alias_key) {
		snprintf(name, sizeof(name), "git config alias.%s",
		    (const char *)arg);
		for (i = 17; name[i]; i++)
			if (name[i] >= 'A' && name[i] <= 'Z')
				name[i] |= 0x20;
		return f->ps->hooks->lookup_var(f->ps, name, strlen(name));
	}
	for (k = git_command_keys; *k != NULL; k++) {
		snprintf(name, sizeof(name), "git config %s", *k);
		if ((v = f->ps->hooks->lookup_var(f->ps, name,
		    strlen(name))) != NULL)
			return v;
	}
	return NULL;
}

/*
 * Calls fn with each config key=value pair the git command c is given:
 * `-c key=value` or `--config-env=key=VAR` before its subcommand, and GIT_CONFIG_KEY_n=key with
 * GIT_CONFIG_VALUE_n=value among the assignments before it (git reads
 * GIT_CONFIG_COUNT of them; any n is taken here), or exported earlier
 * (n below 10).  Returns the value of
 * the first key fn accepts, or NULL.
 */
static const char *
git_config(struct frame *f, const struct sh_cmd *c, const struct sh_word *pre,
    size_t npre, bool (*fn)(const char *key, size_t keylen, void *),
    void *arg)
{
	const char	*s, *eq, *v;
	char		 name[64];
	size_t		 i, n;

	for (i = 1; i + 1 < c->argc && c->argv[i][0] == '-'; i++) {
		if (strcmp(c->argv[i], "-c") != 0) {
			if (strcmp(c->argv[i], "--config-env") == 0)
				i++;
			if (strcmp(c->argv[i], "-C") == 0 ||
			    strcmp(c->argv[i], "--git-dir") == 0 ||
			    strcmp(c->argv[i], "--work-tree") == 0 ||
			    strcmp(c->argv[i], "--namespace") == 0)
				i++;
			continue;
		}
		s = c->argv[++i];
		if ((eq = strchr(s, '=')) != NULL &&
		    fn(s, (size_t)(eq - s), arg))
			return eq + 1;
	}
	/* --config-env=KEY=VAR: the value of $VAR. */
	for (i = 1; i < c->argc && c->argv[i][0] == '-'; i++) {
		s = c->argv[i];
		if (strcmp(s, "--config-env") == 0 && i + 1 < c->argc)
			s = c->argv[++i];
		else if (strncmp(s, "--config-env=", 13) == 0)
			s += 13;
		else
			continue;
		if ((eq = strchr(s, '=')) != NULL &&
		    fn(s, (size_t)(eq - s), arg) && (v = env_value(f, pre,
		    npre, eq + 1, strlen(eq + 1))) != NULL)
			return v;
	}
	for (i = 0; i < npre; i++) {
		s = pre[i].s;
		if (!pre[i].assign || strncmp(s, "GIT_CONFIG_KEY_", 15) != 0 ||
		    (eq = strchr(s, '=')) == NULL ||
		    !fn(eq + 1, strlen(eq + 1), arg))
			continue;
		n = (size_t)(eq - s) - 15;
		if (n + 17 > sizeof(name))
			continue;
		memcpy(name, "GIT_CONFIG_VALUE_", 17);
		memcpy(name + 17, s + 15, n);
		if ((v = env_value(f, pre, npre, name, n + 17)) != NULL)
			return v;
	}
	/* Set by `git config KEY VALUE` earlier in the line (shellcmd.c). */
	if ((v = config_set(f, fn, arg)) != NULL)
		return v;
	/* Exported earlier in the line: the first few numbers only. */
	for (i = 0; i < 10; i++) {
		snprintf(name, sizeof(name), "GIT_CONFIG_KEY_%zu", i);
		v = f->ps->hooks->lookup_var(f->ps, name, strlen(name));
		if (v == NULL || !fn(v, strlen(v), arg))
			continue;
		snprintf(name, sizeof(name), "GIT_CONFIG_VALUE_%zu", i);
		if ((v = env_value(f, pre, npre, name, strlen(name))) != NULL)
			return v;
	}
	return NULL;
}

/*
 * A git alias run as `git NAME ARGS`: git runs `git VALUE ARGS`, or for
 * "!VALUE" the shell command VALUE with ARGS after it.
 */
static void
git_forms(struct frame *f, const struct sh_cmd *c, const struct sh_word *pre,
    size_t npre)
{
	const char	*sub, *v, *eq;
	struct buf	 b;
	size_t		 i, k;

	if ((v = git_config(f, c, pre, npre, is_command_key, NULL)) != NULL)
		parse_str(f, v);
	if ((sub = sh_subcommand(c)) == NULL ||
	    (v = git_config(f, c, pre, npre, is_alias_key, (void *)sub)) ==
	    NULL)
		return;
	for (i = 1; i < c->argc && c->argv[i] != sub; i++)
		;
	buf_init(&b);
	if (v[0] == '!')
		buf_adds(&b, v + 1);
	else {
		/*
		 * git VALUE with the same configuration: an alias may name
		 * another (-c alias.x=y -c alias.y='reset --hard').
		 */
		for (k = 0; k < npre; k++)
			if (pre[k].assign &&
			    (eq = memchr(pre[k].s, '=', pre[k].len)) != NULL) {
				/* NAME='VALUE': a quoted NAME is no assignment */
				buf_add(&b, pre[k].s, (size_t)(eq - pre[k].s) + 1);
				sh_add_quoted(&b, eq + 1, pre[k].len -
				    (size_t)(eq - pre[k].s) - 1);
				buf_addc(&b, ' ');
			}
		buf_adds(&b, "git");
		add_words(&b, c->argv, 1, i, true);
		buf_addc(&b, ' ');
		buf_adds(&b, v);
	}
	add_words(&b, c->argv, i + 1, c->argc, true);
	parse_text(f, &b);
	buf_release(&b);
}

/* ---- GNU parallel --------------------------------------------------------- */

static const char *const parallel_short_args = "jPSadInNLCEl";
static const char *const parallel_long_args[] = {
	"--jobs", "--sshlogin", "--arg-file", "--delimiter", "--max-args",
	"--colsep", "--results", "--joblog", "--tmpdir", "--workdir", "--wd",
	"--timeout", "--delay", "--halt", "--retries", "--env", "--tagstring",
	"--tag-string", "--eof", "--memfree", "--load", "--basefile",
	"--return", "--transferfile", "--sshloginfile", "--slf", "--block",
	"--max-replace-args", "--max-lines", "--shebang-wrap", "--sqlmaster",
	"--sqlworker", "--max-procs", "--nice", "--termseq", NULL
};
/* Options after which nothing runs. */
static const char *const parallel_no_run[] = {
	"--dry-run", "--help", "--version", "--citation", "--number-of-cpus",
	"--number-of-cores", "--number-of-threads", "--number-of-sockets",
	"--max-line-length-allowed", "--minversion", NULL
};

static bool
is_parallel_sep(const char *s)
{
	return strcmp(s, ":::") == 0 || strcmp(s, ":::+") == 0 ||
	    strcmp(s, "::::") == 0 || strcmp(s, "::::+") == 0;
}

/*
 * The length of the replacement string ({}, {.}, {/}, {//}, {/.}, {#},
 * {%}, {1}...) at p, or 0.  At most 3 bytes past '{': linear in the
 * template.
 */
static size_t
replacement_len(const char *p)
{
	const char	*q;

	if (*p != '{')
		return 0;
	for (q = p + 1; q - p <= 3 && *q &&
	    strchr("./#%0123456789", *q) != NULL; q++)
		;
	return *q == '}' ? (size_t)(q - p) + 1 : 0;
}

/*
 * The command with one job's arguments put in: in place of {} (all of
 * them, each quoted), {N} (the Nth source's) and the other replacement
 * strings (the first), or after it when there is none, quoted as
 * parallel quotes them; but a command that is a replacement string
 * alone is the arguments as written (`parallel {} ::: 'rm -rf /'` runs
 * rm), as parallel does.
 */
static void
parallel_one(struct frame *f, const char *tmpl, const char *const *args,
    size_t nargs)
{
	struct buf	 b;
	const char	*p;
	size_t		 n, k, idx;
	bool		 put = false;

	buf_init(&b);
	if ((n = replacement_len(tmpl)) > 0 && tmpl[n] == '\0') {
		for (k = 0; k < nargs; k++) {
			if (k > 0)
				buf_addc(&b, ' ');
			buf_adds(&b, args[k]);
		}
		parse_text(f, &b);
		buf_release(&b);
		return;
	}
	for (p = tmpl; *p; p++) {
		if ((n = replacement_len(p)) > 0) {
			idx = n == 3 && p[1] >= '1' && p[1] <= '9' ?
			    (size_t)(p[1] - '1') : SIZE_MAX;
			if (idx != SIZE_MAX && idx < nargs)
				add_quoted(&b, args[idx]);
			else if (n == 2)		/* {} */
				add_words(&b, args, 0, nargs, true);
			else if (nargs > 0)
				add_quoted(&b, args[0]);
			put = true;
			p += n - 1;
			continue;
		}
		buf_addc(&b, *p);
	}
	if (!put) {
		buf_addc(&b, ' ');
		add_words(&b, args, 0, nargs, true);
	}
	parse_text(f, &b);
	buf_release(&b);
}

/* The arguments of one input source (after :::), as a list. */
struct psource {
	const char *const *v;
	size_t		 n;
};

/*
 * Runs the command for each combination of one argument per source, as
 * parallel does (the first source varies slowest), PARALLEL_MAX_ARGS
 * jobs at most; for each template given (the words joined as parallel
 * joins them, and quoted when they hold blanks: see parallel_forms).
 */
static void
parallel_jobs(struct frame *f, const char *const *tmpls, size_t ntmpls,
    const struct psource *src, size_t nsrc)
{
	const char	*args[PARALLEL_MAX_SOURCES];
	size_t		 pos[PARALLEL_MAX_SOURCES] = { 0 };
	size_t		 jobs = 0, k, t;

	for (k = 0; k < nsrc; k++)
		if (src[k].n == 0) {
			/* An empty source: no job, but read it as written. */
			for (t = 0; t < ntmpls; t++)
				parse_str(f, tmpls[t]);
			return;
		}
	for (;;) {
		if (jobs++ == PARALLEL_MAX_ARGS) {
			f->ps->sc->truncated = true;
			return;
		}
		for (k = 0; k < nsrc; k++)
			args[k] = src[k].v[pos[k]];
		for (t = 0; t < ntmpls; t++)
			parallel_one(f, tmpls[t], args, nsrc);
		for (k = nsrc; k > 0 && ++pos[k - 1] == src[k - 1].n; k--)
			pos[k - 1] = 0;
		if (k == 0)
			return;
	}
}

/*
 * parallel [options] [command] ::: args [::: args ...]: the command run
 * with the arguments of each job (a shell parses the words joined by
 * spaces, as written); with no command, each job's arguments are a
 * command line.  A command of several words, one holding blanks
 * (`parallel bash -c 'rm -rf {}' ::: /`), is read both as parallel runs
 * it (the words joined unquoted: bash -c rm ...) and as it was meant
 * (each word quoted): a guard sees more than runs, never less.  Arguments from stdin or from files
 * (::::) are not known here: the command is parsed as it is written
 * (shellpipe.c gives it known text piped in).
 */
static void
parallel_forms(struct frame *f, const struct sh_cmd *c)
{
	const char		*s, *tmpls[2];
	struct psource		 src[PARALLEL_MAX_SOURCES];
	struct buf		 b;
	size_t			 i, k, cmd, end, nsrc = 0, ntmpls = 0;
	bool			 files = false, blanks = false;

	for (i = 1; i < c->argc; i++) {
		s = c->argv[i];
		if (str_in_set(s, parallel_no_run))
			return;
		if (strcmp(s, "--") == 0 || s[0] != '-' || s[1] == '\0' ||
		    is_parallel_sep(s))
			break;
		if (s[1] == '-') {
			if (strchr(s, '=') == NULL &&
			    str_in_set(s, parallel_long_args))
				i++;
		} else if (s[2] == '\0' && strchr(parallel_short_args, s[1]))
			i++;
	}
	if (i < c->argc && strcmp(c->argv[i], "--") == 0)
		i++;
	for (cmd = end = i; end < c->argc && !is_parallel_sep(c->argv[end]);
	    end++)
		if (strpbrk(c->argv[end], " \t\n") != NULL)
			blanks = true;
	buf_init(&b);
	add_words(&b, c->argv, cmd, end, false);
	tmpls[ntmpls++] = arena_strndup(&f->ps->sc->arena, b.data, b.len);
	if (blanks && end - cmd > 1) {
		buf_reset(&b);
		add_words(&b, c->argv, cmd, end, true);
		tmpls[ntmpls++] = arena_strndup(&f->ps->sc->arena, b.data,
		    b.len);
	}
	buf_release(&b);
	/* The sources: the words after each ::: (a :::: file is unknown). */
	for (k = end; k < c->argc; k++) {
		s = c->argv[k];
		if (is_parallel_sep(s)) {
			files = s[3] == ':';
			if (nsrc == PARALLEL_MAX_SOURCES) {
				f->ps->sc->truncated = true;
				break;
			}
			if (!files) {
				src[nsrc].v = c->argv + k + 1;
				src[nsrc].n = 0;
				nsrc++;
			}
			continue;
		}
		if (!files && nsrc > 0)
			src[nsrc - 1].n++;
	}
	if (nsrc > 0 && cmd == end) {
		/* No command: each job's arguments are the command line. */
		tmpls[0] = "{}";
		ntmpls = 1;
	}
	if (nsrc > 0)
		parallel_jobs(f, tmpls, ntmpls, src, nsrc);
	else if (cmd < end)
		for (k = 0; k < ntmpls; k++)
			parse_str(f, tmpls[k]);
}

/* ---- watch, ssh, trap ----------------------------------------------------- */

/* watch [options] command: the words joined, run by sh -c (-x: exec). */
static void
watch_forms(struct frame *f, const struct sh_cmd *c)
{
	const char	*s;
	size_t		 i;
	bool		 exec = false;

	for (i = 1; i < c->argc; i++) {
		s = c->argv[i];
		if (strcmp(s, "--") == 0) {
			i++;
			break;
		}
		if (s[0] != '-' || s[1] == '\0')
			break;
		if (strcmp(s, "-x") == 0 || strcmp(s, "--exec") == 0)
			exec = true;
		else if (strcmp(s, "-n") == 0 || strcmp(s, "--interval") == 0 ||
		    strcmp(s, "-q") == 0 || strcmp(s, "--equexit") == 0 ||
		    strcmp(s, "--shotsdir") == 0)
			i++;
	}
	parse_joined(f, c->argv, i, c->argc, exec);
}

/* ssh -o ProxyCommand=CMD or LocalCommand=CMD: run here, by a shell. */
static void
ssh_option(struct frame *f, const char *o)
{
	size_t	n;

	if (strncasecmp(o, "ProxyCommand", 12) == 0)
		n = 12;
	else if (strncasecmp(o, "LocalCommand", 12) == 0)
		n = 12;
	else
		return;
	for (; o[n] == ' ' || o[n] == '\t'; n++)
		;
	if (o[n] == '=')
		parse_str(f, o + n + 1);
	else if (n > 12)
		parse_str(f, o + n);
}

/*
 * ssh [options] host [options] command: the words joined are run by the
 * remote user's shell, so they are read as a command here too; options
 * (ssh takes them after the host as well) end at the first other word.
 */
static void
ssh_forms(struct frame *f, const struct sh_cmd *c)
{
	const char	*s;
	size_t		 i;
	bool		 host = false;

	for (i = 1; i < c->argc; i++) {
		s = c->argv[i];
		if (strcmp(s, "--") == 0) {
			i++;
			break;
		}
		if (s[0] != '-' || s[1] == '\0') {
			if (host)
				break;
			host = true;
			continue;
		}
		if (s[1] == 'o' && s[2] != '\0')
			ssh_option(f, s + 2);
		else if (s[1] == 'o' && i + 1 < c->argc)
			ssh_option(f, c->argv[i + 1]);
		if (s[2] == '\0' && strchr("BbcDEeFIiJLlmOoPpQRSWw", s[1]))
			i++;
	}
	if (host)
		parse_joined(f, c->argv, i, c->argc, false);
}

/* rsync -e CMD / --rsh=CMD: the remote shell, run here. */
static void
rsync_forms(struct frame *f, const struct sh_cmd *c)
{
	const char	*s;
	size_t		 i;

	for (i = 1; i < c->argc; i++) {
		s = c->argv[i];
		if (strcmp(s, "--") == 0)
			break;
		if (strncmp(s, "--rsh=", 6) == 0)
			parse_str(f, s + 6);
		else if ((strcmp(s, "-e") == 0 || strcmp(s, "--rsh") == 0) &&
		    i + 1 < c->argc)
			parse_str(f, c->argv[++i]);
	}
}

/* trap [--] ACTION SIGNAL...: ACTION runs on the signal (or at EXIT). */
static void
trap_forms(struct frame *f, const struct sh_cmd *c)
{
	size_t	i = 1;

	if (i < c->argc && strcmp(c->argv[i], "--") == 0)
		i++;
	if (i + 1 < c->argc && c->argv[i][0] != '-' && c->argv[i][0] != '\0')
		parse_str(f, c->argv[i]);
}

static const char *const runuser_long_args[] = {
	"--user", "--group", "--supp-group", "--command", "--shell",
	"--whitelist-environment", NULL
};

/*
 * runuser -u USER [--] CMD ARGS runs CMD (the su-like `runuser USER -c
 * CMD` is read as su is, by the reader).
 */
static void
runuser_forms(struct frame *f, const struct sh_cmd *c)
{
	const char	*s;
	size_t		 i;
	bool		 user = false;

	for (i = 1; i < c->argc; i++) {
		s = c->argv[i];
		if (strcmp(s, "--") == 0) {
			i++;
			break;
		}
		if (s[0] != '-' || s[1] == '\0')
			break;
		if (strcmp(s, "-u") == 0 || strcmp(s, "--user") == 0 ||
		    strncmp(s, "--user=", 7) == 0 || (s[1] == 'u' && s[2]))
			user = true;
		if ((s[2] == '\0' && strchr("ugGcsw", s[1]) != NULL) ||
		    str_in_set(s, runuser_long_args))
			i++;
	}
	if (user)
		parse_joined(f, c->argv, i, c->argc, true);
}

/* ---- what the reader keeps for later commands -------------------------- */

static const char *const git_config_args[] = {
	"-f", "--file", "--blob", "--type", "--default", "--comment", NULL
};
static const char *const git_opts_with_value[] = {
	"-C", "-c", "--git-dir", "--work-tree", "--namespace", NULL
};

/*
 * git config [options] [set] KEY VALUE: "git config KEY=VALUE", KEY in
 * lower case as git compares it, or NULL.
 */
static const char *
git_config_var(struct frame *f, const struct sh_cmd *c)
{
	struct buf	 b;
	const char	*v;
	size_t		 i, k;

	for (i = 1; i < c->argc && c->argv[i][0] == '-'; i++)
		if (str_in_set(c->argv[i], git_opts_with_value))
			i++;
	if (i >= c->argc || strcmp(c->argv[i], "config") != 0)
		return NULL;
	for (i++; i < c->argc && c->argv[i][0] == '-'; i++)
		if (str_in_set(c->argv[i], git_config_args))
			i++;
	if (i < c->argc && strcmp(c->argv[i], "set") == 0)
		for (i++; i < c->argc && c->argv[i][0] == '-'; i++)
			if (str_in_set(c->argv[i], git_config_args))
				i++;
	if (i + 1 >= c->argc || strchr(c->argv[i], '=') != NULL)
		return NULL;
	buf_init(&b);
	buf_adds(&b, "git config ");
	for (k = 0; c->argv[i][k]; k++)
		buf_addc(&b, c->argv[i][k] >= 'A' && c->argv[i][k] <= 'Z' ?
		    (char)(c->argv[i][k] | 0x20) : c->argv[i][k]);
	buf_addc(&b, '=');
	buf_adds(&b, c->argv[i + 1]);
	v = arena_strndup(&f->ps->sc->arena, b.data, b.len);
	buf_release(&b);
	return v;
}

/* for NAME in WORDS: "for NAME=" and the first WORDS, or NULL. */
static const char *
loop_var(struct frame *f, const struct sh_cmd *c)
{
	struct buf	 b;
	const char	*v;
	size_t		 k;

	if (c->argc < 4 || strcmp(c->argv[2], "in") != 0)
		return NULL;
	buf_init(&b);
	buf_printf(&b, "for %s=", c->argv[1]);
	for (k = 3; k < c->argc && k < 3 + LOOP_MAX_VALUES; k++) {
		if (k > 3)
			buf_addc(&b, LOOP_SEP);
		buf_adds(&b, c->argv[k]);
	}
	v = arena_strndup(&f->ps->sc->arena, b.data, b.len);
	buf_release(&b);
	return v;
}

const char *
sh_form_var(struct frame *f, const struct sh_cmd *c)
{
	if (strcmp(c->program, "for") == 0 || strcmp(c->program, "select") == 0)
		return loop_var(f, c);
	if (strcmp(c->program, "git") == 0)
		return git_config_var(f, c);
	return NULL;
}

void
sh_expand_loops(struct frame *f, struct wordvec *x)
{
	struct wordvec	 out;
	struct sh_word	 nw;
	struct buf	 b;
	const char	*s, *vals, *p, *q;
	size_t		 i, len;
	char		 name[68];

	memset(&out, 0, sizeof(out));
	buf_init(&b);
	for (i = 0; i < x->n; i++) {
		s = x->v[i].s;
		vals = NULL;
		for (len = 1; s[0] == '$' && is_name_char(s[len]); len++)
			;
		if (len > 1 && len <= 64) {
			snprintf(name, sizeof(name), "for %.*s", (int)(len - 1),
			    s + 1);
			vals = f->ps->hooks->lookup_var(f->ps, name,
			    strlen(name));
		}
		if (vals != NULL && !sh_charge(f->ps, (LOOP_MAX_VALUES + 1) *
		    x->v[i].len + strlen(vals)))
			vals = NULL;
		for (p = vals; ; p = q + 1) {
			if (out.n == out.cap) {
				out.cap = out.cap * 2 + 16;
				out.v = xreallocarray(out.v, out.cap,
				    sizeof(*out.v));
			}
			nw = x->v[i];
			if (vals == NULL) {
				out.v[out.n++] = nw;
				break;
			}
			if ((q = strchr(p, LOOP_SEP)) == NULL)
				q = p + strlen(p);
			buf_reset(&b);
			buf_add(&b, p, (size_t)(q - p));
			buf_adds(&b, s + len);
			nw.s = arena_strndup(&f->ps->sc->arena, b.data, b.len);
			nw.len = b.len;
			nw.open = -1;
			nw.assign = false;
			out.v[out.n++] = nw;
			if (*q == '\0')
				break;
		}
	}
	buf_release(&b);
	free(x->v);
	*x = out;
}

bool
sh_run_forms(struct frame *f, const struct sh_cmd *c,
    const struct sh_word *pre, size_t npre)
{
	if (strcmp(c->program, "git") == 0)
		git_forms(f, c, pre, npre);
	else if (strcmp(c->program, "parallel") == 0 ||
	    strcmp(c->program, "sem") == 0)
		parallel_forms(f, c);
	else if (strcmp(c->program, "watch") == 0)
		watch_forms(f, c);
	else if (strcmp(c->program, "ssh") == 0)
		ssh_forms(f, c);
	else if (strcmp(c->program, "trap") == 0)
		trap_forms(f, c);
	else if (strcmp(c->program, "runuser") == 0)
		runuser_forms(f, c);
	else if (strcmp(c->program, "rsync") == 0)
		rsync_forms(f, c);
	else
		return false;
	return true;
}
