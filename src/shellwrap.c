/*
 * The wrappers of the command reader (shellwords_priv.h): the programs
 * that run the command after their own options, each with the option
 * letters and long options that take a value and the positional words
 * before the command, so that `sudo -u root rm -rf /` is rm -rf / to a
 * rule.  env -S STRING is split into more of env's arguments.  This file
 * calls the lexer only (sh_parse_nested).
 */
#include <string.h>

#include "buf.h"
#include "shellwords_priv.h"
#include "strset.h"

static const char *const sudo_long[] = {
	"--user", "--group", "--host", "--prompt", "--role", "--type",
	"--other-user", "--close-from", "--chdir", "--chroot",
	"--command-timeout", NULL
};
static const char *const env_long[] = {
	"--unset", "--chdir", "--argv0", NULL
};
static const char *const timeout_long[] = { "--signal", "--kill-after", NULL };
static const char *const stdbuf_long[] = {
	"--input", "--output", "--error", NULL
};
static const char *const nice_long[] = { "--adjustment", NULL };
static const char *const xargs_long[] = {
	"--arg-file", "--delimiter", "--max-lines", "--max-args",
	"--max-procs", "--max-chars", "--process-slot-var", NULL
};
static const char *const time_long[] = { "--format", "--output", NULL };
static const char *const no_long[] = { NULL };
static const char *const pkexec_long[] = { "--user", NULL };
static const char *const flock_long[] = {
	"--timeout", "--wait", "--conflict-exit-code", "--command", NULL
};
static const char *const chroot_long[] = {
	"--groups", "--userspec", NULL
};

static const struct wrapper wrappers[] = {
	{ "sudo", "CDghprtTUu", sudo_long, 0 },
	{ "doas", "Cu", no_long, 0 },
	{ "env", "uCSP", env_long, 0 },
	{ "command", "", no_long, 0 },
	{ "builtin", "", no_long, 0 },
	{ "exec", "a", no_long, 0 },
	{ "nohup", "", no_long, 0 },
	{ "setsid", "", no_long, 0 },
	{ "unbuffer", "", no_long, 0 },
	{ "time", "fo", time_long, 0 },
	{ "nice", "n", nice_long, 0 },
	{ "ionice", "cnp", no_long, 0 },
	{ "timeout", "ks", timeout_long, 1 },
	{ "stdbuf", "ioe", stdbuf_long, 0 },
	{ "xargs", "adEIJLlnPs", xargs_long, 0 },
	{ "busybox", "", no_long, 0 },
	/* Run as another user, or under a lock, a root, a CPU set... */
	{ "pkexec", "", pkexec_long, 0 },
	{ "flock", "wEc", flock_long, 1 },
	{ "chroot", "", chroot_long, 1 },
	{ "taskset", "", no_long, 1 },
	{ "chrt", "", no_long, 1 },
	{ "fakeroot", "lsi", no_long, 0 },
	{ "eatmydata", "", no_long, 0 },
	{ "caffeinate", "tw", no_long, 0 },
	{ "gtimeout", "ks", timeout_long, 1 },
	{ "strace", "abeEIoOpPsSuUX", no_long, 0 },
	{ "sshpass", "pfdPe", no_long, 0 },
};

const struct wrapper *
sh_find_wrapper(const char *name)
{
	size_t	i;

	for (i = 0; i < sizeof(wrappers) / sizeof(wrappers[0]); i++)
		if (strcmp(wrappers[i].name, name) == 0)
			return &wrappers[i];
	return NULL;
}

/*
 * env -S's string as shell text: env splits it on blanks and quotes as
 * a shell does, but makes no ~ home (coreutils: only ${NAME} is
 * expanded), so a ~ that starts an unquoted word is escaped (env -S
 * 'tee ~/.zshrc' writes ./~/.zshrc).
 */
static void
add_split_string(struct buf *b, const char *s)
{
	char	q = 0;
	bool	start = true;

	for (; *s; s++) {
		if (q == 0 && start && *s == '~')
			buf_addc(b, '\\');
		start = false;
		if (q != 0) {
			if (*s == q)
				q = 0;
			else if (*s == '\\' && q == '"' && s[1] != '\0')
				buf_addc(b, *s++);
		} else if (*s == '\'' || *s == '"')
			q = *s;
		else if (*s == '\\' && s[1] != '\0')
			buf_addc(b, *s++);
		else if (*s == ' ' || *s == '\t' || *s == '\n')
			start = true;
		buf_addc(b, *s);
	}
}

/*
 * env -S STRING WORDS: the string is split into more of env's arguments,
 * before the words after it (env -S 'PATH=/usr/bin -C dir' git reset
 * --hard).  Read as env with them, one level deeper.
 */
static void
env_split(struct frame *f, const char *string, const struct sh_word *w,
    size_t from, size_t n)
{
	struct buf	b;
	size_t		k;

	buf_init(&b);
	buf_adds(&b, "env ");
	add_split_string(&b, string);
	for (k = from; k < n; k++) {
		buf_addc(&b, ' ');
		sh_add_quoted(&b, w[k].s, w[k].len);
	}
	sh_parse_nested(f, arena_strndup(&f->ps->sc->arena, b.data, b.len),
	    b.len);
	buf_release(&b);
}

/*
 * Index of the command a wrapper at w[i] runs: past its options (and
 * their values), its positional arguments and, for env, assignments.
 * env -S STRING has its string parsed as a nested script.
 */
size_t
sh_skip_wrapper(struct frame *f, const struct wrapper *wr, struct sh_word *w,
    size_t i, size_t n)
{
	const char	*s, *eq;
	size_t		 k;
	int		 pos = wr->positional;

	for (i++; i < n; i++) {
		s = w[i].s;
		if (strcmp(s, "--") == 0) {
			i++;
			break;
		}
		if (s[0] == '-' && s[1] == '-') {
			eq = strchr(s, '=');
			if (strcmp(wr->name, "env") == 0 &&
			    strncmp(s, "--split-string", 14) == 0) {
				if (eq != NULL)
					env_split(f, eq + 1, w, i + 1, n);
				else if (i + 1 < n)
					env_split(f, w[i + 1].s, w, i + 2, n);
				return n;
			}
			if (eq == NULL && str_in_set(s, wr->long_args))
				i++;
			continue;
		}
		if (s[0] == '-' && s[1] != '\0') {
			for (k = 1; s[k]; k++) {
				if (strchr(wr->short_args, s[k]) == NULL)
					continue;
				if (strcmp(wr->name, "env") == 0 && s[k] == 'S') {
					if (s[k + 1])
						env_split(f, s + k + 1, w,
						    i + 1, n);
					else if (i + 1 < n)
						env_split(f, w[i + 1].s, w,
						    i + 2, n);
					return n;
				}
				if (s[k + 1] == '\0')
					i++;	/* the value is the next word */
				break;
			}
			continue;
		}
		if (strcmp(wr->name, "env") == 0 &&
		    (w[i].assign || strcmp(s, "-") == 0))
			continue;	/* env - is env -i */
		if (pos > 0) {
			pos--;
			continue;
		}
		break;
	}
	/* An option that takes a value may have been the last word. */
	return i < n ? i : n;
}

/*
 * The directory a wrapper at w[i] runs its command in (env -C DIR, sudo
 * -D DIR, --chdir DIR), from its words up to its command w[end], or NULL.
 */
const char *
sh_wrapper_chdir(const struct wrapper *wr, const struct sh_word *w, size_t i,
    size_t end)
{
	const char	*s, *dir = NULL;
	char		 letter;

	if (strcmp(wr->name, "env") == 0)
		letter = 'C';
	else if (strcmp(wr->name, "sudo") == 0)
		letter = 'D';
	else
		return NULL;
	for (i++; i < end; i++) {
		s = w[i].s;
		if (strcmp(s, "--") == 0)
			break;
		if (strncmp(s, "--chdir=", 8) == 0)
			dir = s + 8;
		else if ((strcmp(s, "--chdir") == 0 ||
		    (s[0] == '-' && s[1] == letter && s[2] == '\0')) &&
		    i + 1 < end)
			dir = w[++i].s;
		else if (s[0] == '-' && s[1] == letter)
			dir = s + 2;
	}
	return dir;
}
