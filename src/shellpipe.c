/*
 * Command text fed to a shell on its standard input, for the command
 * reader (shellwords_priv.h): in `echo 'rm -rf /' | sh`, `printf '%s\n'
 * 'git reset --hard' | bash`, `cat <<EOF | sh` or `... | xargs sh -c`
 * the shell runs what the command before it writes.  When that is known
 * from the words alone (echo and printf of their arguments, cat of a
 * here-document or here-string) it is parsed one level deeper, as the
 * script of sh -c is; whatever else writes it (curl, base64 -d, a file)
 * stays unknown.  An interpreter reading its program on its input
 * (python3 - <<EOF, echo ... | node) has it read as a one-liner's.  This
 * file knows echo, printf and cat; it calls the lexer (sh_parse_from),
 * the one-liners' reader (sh_interp_stdin) and the command reader only
 * through its hooks.
 */
#include <string.h>

#include "buf.h"
#include "shellwords_priv.h"

/* Appends s with the backslash escapes of echo -e and printf decoded. */
static void
add_escaped(struct buf *b, const char *s)
{
	static const char from[] = "abfnrtv\\", to[] = "\a\b\f\n\r\t\v\\";
	const char	*k;

	for (; *s; s++) {
		if (*s == '\\' && s[1] && (k = strchr(from, s[1])) != NULL) {
			buf_addc(b, to[k - from]);
			s++;
		} else
			buf_addc(b, *s);
	}
}

static bool
echo_output(const struct sh_cmd *c, struct buf *out)
{
	size_t	i;
	bool	escapes = false, newline = true;

	for (i = 1; i < c->argc && c->argv[i][0] == '-' && c->argv[i][1] &&
	    strspn(c->argv[i] + 1, "neE") == strlen(c->argv[i] + 1); i++) {
		if (strchr(c->argv[i], 'n'))
			newline = false;
		if (strchr(c->argv[i], 'e'))
			escapes = true;
	}
	for (; i < c->argc; i++) {
		if (out->len > 0)
			buf_addc(out, ' ');
		if (escapes)
			add_escaped(out, c->argv[i]);
		else
			buf_adds(out, c->argv[i]);
	}
	if (newline)
		buf_addc(out, '\n');
	return true;
}

/*
 * printf FORMAT ARGS: the format with its conversions taking the
 * arguments in turn, again while arguments are left (as printf does).
 */
static bool
printf_output(struct parser *ps, const struct sh_cmd *c, struct buf *out)
{
	struct buf	 fmt;
	const char	*p;
	size_t		 i = 1, arg;
	bool		 conv;

	if (i < c->argc && strcmp(c->argv[i], "--") == 0)
		i++;
	if (i >= c->argc || c->argv[i][0] == '-')
		return false;		/* printf -v VAR: no output */
	buf_init(&fmt);
	add_escaped(&fmt, c->argv[i]);
	arg = i + 1;
	do {
		conv = false;
		for (p = fmt.data; p != NULL && p < fmt.data + fmt.len; p++) {
			if (*p != '%' || p + 1 >= fmt.data + fmt.len) {
				buf_addc(out, *p);
				continue;
			}
			p++;
			if (*p == '%') {
				buf_addc(out, '%');
				continue;
			}
			while (p < fmt.data + fmt.len - 1 &&
			    strchr("-+ #0123456789.", *p) != NULL)
				p++;
			conv = true;
			if (arg < c->argc) {
				if (*p == 'b')
					add_escaped(out, c->argv[arg]);
				else
					buf_adds(out, c->argv[arg]);
				arg++;
			}
		}
	} while (conv && arg < c->argc && sh_charge(ps, fmt.len));
	buf_release(&fmt);
	return true;
}

/* What c writes on its standard output, when its words tell. */
bool
sh_literal_output(struct parser *ps, const struct sh_cmd *c, struct buf *out)
{
	size_t	i;

	if (strcmp(c->program, "echo") == 0)
		return echo_output(c, out);
	if (strcmp(c->program, "printf") == 0)
		return printf_output(ps, c, out);
	if (strcmp(c->program, "cat") != 0 || c->input == NULL)
		return false;
	for (i = 1; i < c->argc; i++)
		if (strcmp(c->argv[i], "-") != 0 && c->argv[i][0] != '-')
			return false;	/* a file */
	buf_adds(out, c->input);
	return true;
}

/* Whether xargs runs c, a shell with -c: the input is its script. */
static bool
xargs_shell(const struct sh_cmd *c)
{
	size_t	 i, len = 0, plen = strlen(c->text), n;

	for (i = 0; i < c->argc; i++)
		len += strlen(c->argv[i]) + (i > 0);
	if (len >= plen || memmem(c->text, plen - len, "xargs", 5) == NULL)
		return false;
	n = strlen(c->program);
	if (n < 2 || strcmp(c->program + n - 2, "sh") != 0)
		return false;
	for (i = 1; i < c->argc; i++)
		if (c->argv[i][0] == '-' && strchr(c->argv[i], 'c') != NULL)
			return true;
	return false;
}

void
sh_pipe_input(struct frame *f, size_t from, size_t to)
{
	struct sh_script	*sc = f->ps->sc;
	const struct sh_cmd	*src, *dst;
	struct buf		 out, origin;

	if (from >= sc->n || to >= sc->n)
		return;
	src = &sc->cmds[from];
	dst = &sc->cmds[to];
	if (from == to) {
		/* Its own here-document: a shell's was read already. */
		if (dst->input != NULL)
			sh_interp_stdin(f, dst, dst->input, strlen(dst->input));
		return;
	}
	if (dst->input != NULL)
		return;
	buf_init(&out);
	buf_init(&origin);
	if (!f->ps->hooks->runs_input(dst) && !xargs_shell(dst)) {
		/* echo 'import os; ...' | python3 */
		if (sh_literal_output(f->ps, src, &out))
			sh_interp_stdin(f, dst, out.data, out.len);
	} else if (sh_literal_output(f->ps, src, &out) && out.len > 0) {
		buf_printf(&origin, "%s | %s", src->program, dst->program);
		/* Our own copies: the parse may move sc->cmds. */
		sh_parse_from(f, out.data, out.len, origin.data);
	}
	buf_release(&out);
	buf_release(&origin);
}
