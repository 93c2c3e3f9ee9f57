/*
 * Command text fed to a shell on its standard input, for the command
 * reader (shellwords_priv.h): in `echo 'rm -rf /' | sh`, `printf '%s\n'
 * 'git reset --hard' | bash`, `cat <<EOF | sh` or `... | xargs sh -c`
 * the shell runs what the command before it writes.  When that is known
 * from the words alone (echo and printf of their arguments, cat of a
 * here-document or here-string, and what passes through cat and tee) it
 * is parsed one level deeper, as the script of sh -c is; whatever else
 * writes it (curl, base64 -d, a file) stays unknown.  The same text is
 * the input of any other program (echo 'DROP DATABASE x' | psql), the
 * arguments that xargs and parallel read (echo / | xargs rm -rf), and
 * the program of an interpreter that reads it (echo ... | node, read as
 * a one-liner's).  This file knows echo, printf, cat, tee, xargs and
 * parallel; it calls the lexer (sh_parse_from), the one-liners' reader
 * (sh_interp_stdin) and the command reader only through its hooks.
 */
#include <string.h>

#include "buf.h"
#include "shellwords_priv.h"

/* Items of a pipe's known text that xargs or parallel take, at most. */
#define STDIN_MAX_ARGS	16

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
	if (c->input == NULL)
		return false;
	if (strcmp(c->program, "tee") == 0) {	/* its input, and files */
		buf_adds(out, c->input);
		return true;
	}
	if (strcmp(c->program, "cat") != 0)
		return false;
	for (i = 1; i < c->argc; i++)
		if (strcmp(c->argv[i], "-") != 0 && c->argv[i][0] != '-')
			return false;	/* a file */
	buf_adds(out, c->input);
	return true;
}

/* Whether xargs runs c: "xargs" is among the words before its own. */
static bool
via_xargs(const struct sh_cmd *c)
{
	size_t	 i, len = 0, plen = strlen(c->text);

	for (i = 0; i < c->argc; i++)
		len += strlen(c->argv[i]) + (i > 0);
	return len < plen && memmem(c->text, plen - len, "xargs", 5) != NULL;
}

/*
 * Whether xargs runs c, a shell with -c and no script after it: the
 * input is its script (echo 'rm -rf /' | xargs sh -c).  With a script
 * (xargs bash -c 'rm -rf "$0"'), the input is its arguments instead.
 */
static bool
xargs_shell(const struct sh_cmd *c)
{
	size_t	 i, n;

	if (!via_xargs(c))
		return false;
	n = strlen(c->program);
	if (n < 2 || strcmp(c->program + n - 2, "sh") != 0)
		return false;
	for (i = 1; i < c->argc; i++)
		if (c->argv[i][0] == '-' && strchr(c->argv[i], 'c') != NULL)
			return i + 1 == c->argc;
	return false;
}

/*
 * The items of text that xargs (blank-separated words) or parallel
 * (lines) make arguments of, each appended to args quoted and preceded
 * by a space.  Returns how many; at most STDIN_MAX_ARGS, the script
 * marked truncated past that.  xargs's own quoting is not undone: a
 * quoted item stays one longer word, which hides nothing a rule needs.
 */
static size_t
add_input_items(struct parser *ps, struct buf *args, const char *text,
    size_t len, bool lines)
{
	const char	*p = text, *end = text + len, *q;
	size_t		 n = 0;

	while (p < end) {
		while (p < end && (*p == '\n' || (!lines && is_blank(*p))))
			p++;
		for (q = p; q < end && *q != '\n' && (lines || !is_blank(*q));
		    q++)
			;
		if (q == p)
			break;
		if (n == STDIN_MAX_ARGS) {
			ps->sc->truncated = true;
			break;
		}
		buf_addc(args, ' ');
		sh_add_quoted(args, p, (size_t)(q - p));
		n++;
		p = q;
	}
	return n;
}

/* Whether parallel takes its arguments from its words (::: or ::::). */
static bool
parallel_has_sources(const struct sh_cmd *c)
{
	size_t	i;

	for (i = 1; i < c->argc; i++)
		if (strncmp(c->argv[i], ":::", 3) == 0)
			return true;
	return false;
}

/*
 * The replacement string of the xargs that runs c, into rs: -I STR,
 * -ISTR, --replace[=STR] and -i[STR] (GNU; {} when STR is not given),
 * -J STR (BSD).  False when there is none: the items are appended.  Its
 * options are read from the words before c's own (c->text).
 */
static bool
xargs_replstr(const struct sh_cmd *c, char *rs, size_t size)
{
	const char	*p = strstr(c->text, "xargs"), *w, *e;
	size_t		 n;
	bool		 next = false;

	if (p == NULL)
		return false;
	for (p += 5; *p == ' '; p++)
		;
	for (; *p != '\0'; p = *e ? e + 1 : e) {
		w = p;
		e = strchr(w, ' ');
		if (e == NULL)
			e = w + strlen(w);
		n = (size_t)(e - w);
		if (next) {
			if (n == 0 || n >= size)
				return false;
			memcpy(rs, w, n);
			rs[n] = '\0';
			return true;
		}
		if (n == 0 || w[0] != '-')
			return false;			/* the command */
		if ((n == 2 && (w[1] == 'I' || w[1] == 'J')) ||
		    (n > 2 && (w[1] == 'I' || w[1] == 'J' || w[1] == 'i') &&
		    w[1] != '-')) {
			if (n == 2) {
				next = true;
				continue;
			}
			w += 2;
			n -= 2;
		} else if (n > 10 && strncmp(w, "--replace=", 10) == 0) {
			w += 10;
			n -= 10;
		} else if ((n == 2 && w[1] == 'i') ||
		    (n == 9 && strncmp(w, "--replace", 9) == 0) ||
		    (n == 10 && strncmp(w, "--replace=", 10) == 0)) {
			w = "{}";
			n = 2;
		} else {
			/* An option that takes a value: skip the value. */
			if (n == 2 && strchr("adELlnPs", w[1]) != NULL &&
			    *e != '\0' && (e = strchr(e + 1, ' ')) == NULL)
				return false;
			continue;
		}
		if (n == 0 || n >= size)
			return false;
		memcpy(rs, w, n);
		rs[n] = '\0';
		return true;
	}
	return false;
}

/* c's words, each quoted, with item (if not NULL) in place of each rs. */
static void
add_argv(struct buf *b, const struct sh_cmd *c, const char *rs,
    const char *item)
{
	struct buf	 w;
	const char	*p, *q;
	size_t		 i, rl = rs != NULL ? strlen(rs) : 0;

	buf_init(&w);
	for (i = 0; i < c->argc; i++) {
		w.len = 0;
		for (p = c->argv[i]; item != NULL && rl > 0 &&
		    (q = strstr(p, rs)) != NULL; p = q + rl) {
			buf_add(&w, p, (size_t)(q - p));
			buf_adds(&w, item);
		}
		buf_adds(&w, p);
		if (i > 0)
			buf_addc(b, ' ');
		sh_add_quoted(b, w.data, w.len);
	}
	buf_release(&w);
}

/*
 * `echo /etc | xargs -I{} rm -rf {}`: one command per line of out, the
 * line in place of each replacement string rs (xargs_replstr()).
 */
static void
xargs_replace(struct frame *f, const struct sh_cmd *src,
    const struct sh_cmd *dst, const struct buf *out, const char *rs)
{
	struct buf	 text, origin, item;
	const char	*p = out->data, *end = out->data + out->len, *q;
	size_t		 n = 0;

	buf_init(&text);
	buf_init(&origin);
	buf_init(&item);
	buf_printf(&origin, "%s | xargs", src->program);
	for (; p < end; p = q + 1) {
		if ((q = memchr(p, '\n', (size_t)(end - p))) == NULL)
			q = end;
		if (q == p)
			continue;
		if (n++ == STDIN_MAX_ARGS) {
			f->ps->sc->truncated = true;
			break;
		}
		item.len = 0;
		buf_add(&item, p, (size_t)(q - p));
		buf_addc(&item, '\0');
		text.len = 0;
		add_argv(&text, dst, rs, item.data);
		if (!sh_charge(f->ps, text.len))
			break;
		/* xargs execs its command: no function runs. */
		f->ps->exec_next = true;
		sh_parse_from(f, text.data, text.len, origin.data);
		f->ps->exec_next = false;
	}
	buf_release(&text);
	buf_release(&origin);
	buf_release(&item);
}

/*
 * `echo / | xargs rm -rf`, `printf '%s\n' ~ | parallel rm -rf`,
 * `echo 'rm -rf /' | parallel`: dst takes the known text `out` as its
 * arguments.  Parsed again one level deeper, with the items in: for
 * parallel as `::: ITEMS` (its own reader puts them in), for xargs
 * appended to the command, or in place of a {} that -I made.
 */
static void
input_arguments(struct frame *f, const struct sh_cmd *src,
    const struct sh_cmd *dst, const struct buf *out)
{
	struct buf	 text, items, origin;
	const char	*prog;
	char		 rs[64];
	bool		 xargs;

	if (strcmp(dst->program, "parallel") == 0 &&
	    !parallel_has_sources(dst))
		xargs = false;
	else if (via_xargs(dst))
		xargs = true;
	else
		return;
	buf_init(&text);
	buf_init(&items);
	buf_init(&origin);
	if (xargs && xargs_replstr(dst, rs, sizeof(rs))) {
		xargs_replace(f, src, dst, out, rs);
		return;
	}
	if (add_input_items(f->ps, &items, out->data, out->len, !xargs) > 0) {
		add_argv(&text, dst, NULL, NULL);
		if (!xargs)
			buf_adds(&text, " :::");
		buf_add(&text, items.data, items.len);
		prog = xargs ? "xargs" : dst->program;
		buf_printf(&origin, "%s | %s", src->program, prog);
		/* xargs execs its command: no function runs. */
		f->ps->exec_next = xargs;
		sh_parse_from(f, text.data, text.len, origin.data);
		f->ps->exec_next = false;
	}
	buf_release(&text);
	buf_release(&items);
	buf_release(&origin);
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
		if (dst->input != NULL) {
			sh_interp_stdin(f, dst, dst->input, strlen(dst->input));
			sh_runner_stdin(f, dst);
		}
		return;
	}
	if (dst->input != NULL)
		return;
	buf_init(&out);
	buf_init(&origin);
	if (!f->ps->hooks->runs_input(dst) && !xargs_shell(dst)) {
		/*
		 * echo 'import os; ...' | python3; echo / | xargs rm -rf;
		 * and the text is dst's input, as a here-string's would be
		 * (echo 'DROP DATABASE x' | psql, echo ... | cat | sh).
		 */
		/* Charged: echo X | cat | cat ... copies X at each step. */
		if (sh_literal_output(f->ps, src, &out) &&
		    sh_charge(f->ps, out.len)) {
			sc->cmds[to].input = arena_strndup(&sc->arena,
			    out.data, out.len);
			sh_interp_stdin(f, dst, out.data, out.len);
			input_arguments(f, src, dst, &out);
		}
	} else if (sh_literal_output(f->ps, src, &out) && out.len > 0) {
		struct sh_funcs *fs = sh_reader_funcs(f->ps);
		struct sh_func_scope scope;

		buf_printf(&origin, "%s | %s", src->program, dst->program);
		/*
		 * Our own copies: the parse may move sc->cmds.  A new shell,
		 * which sees the exported functions only.
		 */
		scope = sh_func_enter(fs, true);
		sh_parse_from(f, out.data, out.len, origin.data);
		sh_func_leave(fs, scope);
	}
	buf_release(&out);
	buf_release(&origin);
}

/* ---- files written, then run ------------------------------------------ */

/* The name a file is kept under: "file NAME", ./ prefixes dropped. */
static void
file_var(struct buf *b, const char *word)
{
	while (word[0] == '.' && word[1] == '/')
		for (word += 2; *word == '/'; word++)
			;
	buf_reset(b);
	buf_adds(b, "file ");
	buf_adds(b, word);
}

const char *
sh_written_text(struct parser *ps, const char *word)
{
	struct buf	 name;
	const char	*v;

	if (word[0] == '\0' || strchr(word, '=') != NULL)
		return NULL;
	buf_init(&name);
	file_var(&name, word);
	v = ps->hooks->lookup_var(ps, name.data, name.len);
	buf_release(&name);
	return v;
}

/* Keeps text as what the file word holds (after what it held: >>). */
static void
keep_file(struct parser *ps, const char *word, const char *text,
    size_t len, bool append)
{
	struct buf	 kv;
	const char	*old;

	if (word[0] == '\0' || strchr(word, '=') != NULL ||
	    strncmp(word, "/dev/", 5) == 0 || !sh_charge(ps, len))
		return;
	buf_init(&kv);
	file_var(&kv, word);
	buf_addc(&kv, '=');
	if (append && (old = sh_written_text(ps, word)) != NULL)
		buf_adds(&kv, old);
	buf_add(&kv, text, len);
	ps->hooks->set_var(ps, kv.data);
	buf_release(&kv);
}

void
sh_record_written(struct frame *f, size_t i)
{
	struct sh_script	*sc = f->ps->sc;
	const struct sh_cmd	*c;
	struct buf		 out;
	size_t			 k;
	bool			 tee;

	if (i >= sc->n)
		return;
	c = &sc->cmds[i];
	tee = strcmp(c->program, "tee") == 0;
	if (c->nredirects == 0 && !tee)
		return;
	buf_init(&out);
	if (sh_literal_output(f->ps, c, &out)) {
		for (k = 0; k < c->nredirects; k++)
			if (c->redirect_ops[k][0] == '>' ||
			    c->redirect_ops[k][0] == '&')
				keep_file(f->ps, c->redirects[k], out.data,
				    out.len, strstr(c->redirect_ops[k],
				    ">>") != NULL);
		for (k = 1; tee && k < c->argc; k++)
			if (c->argv[k][0] != '-')
				keep_file(f->ps, c->argv[k], out.data, out.len,
				    false);
	}
	buf_release(&out);
}

