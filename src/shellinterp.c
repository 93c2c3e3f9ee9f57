/*
 * Interpreter one-liners, for the command reader (shellwords_priv.h):
 * python -c, node -e, ruby -e, perl -e, php -r and awk programs do what
 * a shell command would do through a few well-known calls, so that
 * `python3 -c 'import shutil; shutil.rmtree("/")'` is rm -rf / to a
 * rule.  The program text is scanned once, left to right, for
 *
 *   - the calls that run a shell (os.system, subprocess.*, exec*,
 *     system, popen, backquotes, qx): a single string argument is read
 *     as a shell command, a list of strings as the words of one;
 *   - the calls that delete (shutil.rmtree, os.remove, fs.rmSync,
 *     FileUtils.rm_rf, unlink, Path(P).unlink() ...): read as the rm or
 *     rmdir command that does the same; those that write or read a file
 *     (open(P, "w"), fs.writeFileSync, File.read ...) as tee P or cat P;
 *   - exec and eval of a string: more of the program.
 *
 * Only string literals are read, a name assigned one earlier (python's
 * annotated p: str = ..., a value in parentheses, a Path whose method is
 * called later, a dotted cfg.path), the program's standard input read
 * whole when the command line gives it (sys.stdin.read() of a here-
 * document or a pipe: the program is read again once the input is
 * known), or a path function of them (os.path.expanduser("~"),
 * Path.home() / "x"); a call
 * under another name (import ... as, from M import f, r = os.system,
 * const {execSync: x} = require(...)) is looked up by the name it
 * stands for.  An argument computed at run time ("rm -rf " + path,
 * f"{x}", "#{x}", `${x}`) hides the call, a known gap.  The tables of
 * interpreters and calls are in shellinterp_tab.c; the values of the
 * program (literals, names, path functions) are read by
 * shellinterp_value.c.
 * What is read is parsed one level deeper, the commands marked with the
 * call they came from (sh_cmd.origin).  This file knows the languages;
 * it calls the lexer only (sh_parse_from).
 */
#include <stddef.h>
#include <string.h>

#include "buf.h"
#include "shellinterp_priv.h"
#include "shellwords_priv.h"

static void scan_program(struct scan *);

/* Parses cmd as what the call at [from, to) of the program does. */
static void
emit(struct scan *sc, const char *cmd, size_t len, const char *from,
    const char *to)
{
	struct buf	 o;
	size_t		 n = (size_t)(to - from);

	buf_init(&o);
	buf_printf(&o, "%s: %.*s%s", sc->prog,
	    (int)(n > ORIGIN_MAX ? ORIGIN_MAX : n), from,
	    n > ORIGIN_MAX ? "..." : "");
	sh_parse_from(sc->f, cmd, len, o.data);
	buf_release(&o);
}

/*
 * The arguments of a call, p after its name: string literals and one
 * list of them, up to the first argument that is neither (shell=True,
 * {recursive: true}); a literal that is only a part of an argument
 * ("rm " $1 in awk) hides the call.  The command it amounts to goes to
 * emit().  Returns where the scan goes on.
 */
static const char *
call_args(struct scan *sc, const struct call *cl, const char *name,
    const char *p)
{
	const char	*end = sc->end, *q, *args;
	struct buf	 lit, first, second, cmd;
	size_t		 nwords = 0, after_first = 0;
	bool		 list = false, ok = true, recursive, shell;

	while (p < end && is_blank(*p))
		p++;
	if (p < end && *p == '(')
		p++;
	else if (sc->lang != L_RUBY && sc->lang != L_PERL)
		return p;
	/* perl's open(FH, [MODE,] FILE): past the handle. */
	if (sc->lang == L_PERL && cl->kind == K_OPEN) {
		for (q = p; q < end && *q != ',' && *q != ')' &&
		    q - p < 64; q++)
			;
		if (q >= end || *q != ',')
			return p;
		p = q + 1;
	}
	args = p;
	buf_init(&lit);
	buf_init(&first);
	buf_init(&second);
	buf_init(&cmd);
	for (;;) {
		while (p < end && (is_blank(*p) || *p == '\n'))
			p++;
		if (sc->lang == L_PYTHON && ip_keyword(p, end) != p) {
			/*
			 * path="/" names the first argument; after it, a
			 * keyword (cwd="x", shell=True) ends the words.
			 */
			if ((nwords > 0 || list) &&
			    !(nwords == 1 && strncmp(p, "mode", 4) == 0))
				break;		/* open(P, mode="w") goes on */
			p = ip_keyword(p, end);
		}
		if (p < end && *p == '[' && !list) {
			list = true;
			for (p++; nwords < MAX_CALL_ARGS;) {
				while (p < end && (is_blank(*p) || *p == '\n'))
					p++;
				if (p < end && *p == ']') {
					p++;
					break;
				}
				if (!ip_value(sc, &p, &lit, 0)) {
					ok = false;
					break;
				}
				buf_addc(&cmd, ' ');
				sh_add_quoted(&cmd, lit.data, lit.len);
				if (nwords++ == 0)
					after_first = cmd.len;
				if (p < end && *p == ',')
					p++;
			}
		} else if (nwords < MAX_CALL_ARGS && ip_value(sc, &p, &lit, 0)) {
			if (nwords == 0)
				buf_add(&first, lit.data, lit.len);
			else if (nwords == 1)
				buf_add(&second, lit.data, lit.len);
			buf_addc(&cmd, ' ');
			sh_add_quoted(&cmd, lit.data, lit.len);
			if (nwords++ == 0)
				after_first = cmd.len;
		} else {
			/* Past a comma: keyword arguments, options. */
			ok = ok && nwords > 0;
			break;
		}
		while (p < end && is_blank(*p))
			p++;
		if (!ok || p >= end || *p != ',') {
			if (p < end && strchr(");\n}", *p) == NULL)
				ok = false;
			break;
		}
		p++;
	}
	/* {recursive: true}, recursive=True, shell=True: within the call. */
	for (q = p; q < end && q - p < 256 && *q != ')'; q++)
		;
	recursive = memmem(p, (size_t)(q - p), "recursive", 9) != NULL;
	shell = memmem(args, (size_t)(q - args), "shell=True", 10) != NULL ||
	    memmem(args, (size_t)(q - args), "shell = True", 12) != NULL;
	buf_reset(&lit);
	if (!ok || nwords == 0)
		;
	else if (cl->kind == K_CODE) {
		if (nwords == 1 && !list && sc->depth < MAX_CODE_DEPTH &&
		    sh_charge(sc->f->ps, first.len)) {
			struct scan sub = *sc;

			sub.start = first.data;
			sub.end = first.data + first.len;
			sub.depth++;
			scan_program(&sub);
		}
	} else if (cl->kind == K_EXECV) {
		if (nwords > 1)
			buf_add(&lit, cmd.data + after_first + 1,
			    cmd.len - after_first - 1);
	} else if (cl->kind == K_WRITE || cl->kind == K_READ ||
	    cl->kind == K_OPEN) {
		/* open(P, "w"): a mode that writes, appends or creates. */
		bool writes = cl->kind == K_WRITE || (cl->kind == K_OPEN &&
		    second.len > 0 &&
		    strcspn(second.data, "wax+") < second.len);
		struct buf *file = &first;

		if (sc->lang == L_PERL && cl->kind == K_OPEN) {
			/* open(F, '<', 'x'), open(F, ">x"): mode, then file */
			struct buf *mode = nwords >= 2 ? &first : &second;
			size_t skip = 0;

			file = nwords >= 2 ? &second : &first;
			if (nwords < 2)
				while (skip < file->len &&
				    strchr("<>+ ", file->data[skip]) != NULL)
					skip++;
			writes = memchr(nwords >= 2 ? mode->data : file->data,
			    '>', nwords >= 2 ? mode->len : skip) != NULL;
			if (skip > 0) {
				memmove(file->data, file->data + skip,
				    file->len - skip);
				buf_truncate(file, file->len - skip);
			}
		}
		if (!list && file->len > 0) {
			buf_adds(&lit, writes ? "tee " : "cat ");
			sh_add_quoted(&lit, file->data, file->len);
		}
	} else if (cl->kind == K_COPY || cl->kind == K_MOVE) {
		/* shutil.copy(A, B), fs.renameSync(A, B): cp A B, mv A B */
		if (!list && nwords >= 2) {
			buf_adds(&lit, cl->kind == K_COPY ? "cp" : "mv");
			buf_add(&lit, cmd.data, cmd.len);
		}
	} else if ((cl->kind == K_SHELL || (cl->kind == K_ARGV && shell)) &&
	    nwords == 1 && !list) {
		if (first.len > 0)
			buf_add(&lit, first.data, first.len);
	} else if (cl->kind == K_SHELL || cl->kind == K_ARGV)
		/*
		 * The words of one command; subprocess.run("find . -delete")
		 * without shell=True runs a program of that whole name.
		 */
		buf_add(&lit, cmd.data + 1, cmd.len - 1);
	else {
		/* rmtree('/a', '/b'), rmtree(['/']): every path given. */
		buf_adds(&lit, cl->kind == K_RMDIR && !recursive ? "rmdir" :
		    cl->kind == K_RM && !recursive ? "rm" : "rm -rf");
		buf_add(&lit, cmd.data, cmd.len);
	}
	if (lit.len > 0)
		emit(sc, lit.data, lit.len, name, q < end && *q == ')' ?
		    q + 1 : p);
	buf_release(&lit);
	buf_release(&first);
	buf_release(&second);
	buf_release(&cmd);
	return p;
}

static const struct {
	const char	*method;
	const char	*cmd;
} path_methods[] = {
	{ ".unlink", "rm " }, { ".rmdir", "rmdir " },
	{ ".write_text", "tee " }, { ".write_bytes", "tee " },
	{ ".read_text", "cat " }, { ".read_bytes", "cat " },
};

/* The entry of path_methods that q[0..n) is, or -1. */
static int
path_method(const char *q, size_t n)
{
	size_t	i, m;

	for (i = 0; i < sizeof(path_methods) / sizeof(path_methods[0]); i++) {
		m = strlen(path_methods[i].method);
		if (n == m && memcmp(q, path_methods[i].method, m) == 0)
			return (int)i;
	}
	return -1;
}

/* The command of path method k on the file named by lit, emitted. */
static void
path_emit(struct scan *sc, int k, const struct buf *lit, const char *from,
    const char *to)
{
	struct buf	cmd;

	buf_init(&cmd);
	buf_adds(&cmd, path_methods[k].cmd);
	sh_add_quoted(&cmd, lit->data, lit->len);
	emit(sc, cmd.data, cmd.len, from, to);
	buf_release(&cmd);
}

/*
 * Path("P").unlink(), .rmdir(), .write_text(), .read_text() ...: the
 * literal comes before the call.
 */
static const char *
path_call(struct scan *sc, const char *name, const char *p)
{
	const char	*end = sc->end, *q, *m;
	struct buf	 lit;
	int		 k;

	if (p >= end || *p != '(')
		return p;
	q = p + 1;
	buf_init(&lit);
	if (!ip_literal(sc, &q, &lit) || q >= end || *q != ')') {
		buf_release(&lit);
		return p;
	}
	q++;
	for (m = q; m < end && (m == q ? *m == '.' : ip_is_ident(*m)); m++)
		;
	if ((k = path_method(q, (size_t)(m - q))) >= 0)
		path_emit(sc, k, &lit, name, m);
	buf_release(&lit);
	return q;
}

/*
 * NAME.unlink(), NAME.read_text() ... of a NAME assigned a path
 * (p = Path(".env"); p.read_text()), name[0..len) the dotted name: the
 * file is the name's value.  Whether it was one.
 */
static bool
var_path_call(struct scan *sc, const char *name, size_t len, const char *p)
{
	const char	*dot;
	struct buf	 val;
	int		 k;
	bool		 found;

	if (p >= sc->end || *p != '(')
		return false;
	for (dot = name + len; dot > name && dot[-1] != '.'; dot--)
		;
	if (dot <= name + 1 || (k = path_method(dot - 1,
	    (size_t)(name + len - dot + 1))) < 0)
		return false;
	buf_init(&val);
	found = ip_var(sc, name, (size_t)(dot - 1 - name), &val);
	if (found)
		path_emit(sc, k, &val, name, p + 1);
	buf_release(&val);
	return found;
}

/* `...` in ruby, perl and php: the text is a shell command. */
static const char *
backquoted(struct scan *sc, const char *p)
{
	const char	*q;

	q = memchr(p + 1, '`', (size_t)(sc->end - p - 1));
	if (q == NULL)
		return sc->end;
	if (memmem(p + 1, (size_t)(q - p - 1), "#{", 2) == NULL)
		emit(sc, p + 1, (size_t)(q - p - 1), p, q + 1);
	return q + 1;
}

/* Skips a string literal that is not an argument of a known call. */
static const char *
skip_string(struct scan *sc, const char *p)
{
	char	q = *p;

	for (p++; p < sc->end && *p != q; p++)
		if (*p == '\\' && p + 1 < sc->end)
			p++;
	return p < sc->end ? p + 1 : p;
}

/*
 * awk runs a command for `EXPR | getline` and for `print EXPR | "CMD"`
 * (and printf, gawk's |& too), CMD a string or a name assigned one, with
 * what print writes on its input: read as the shell command `printf
 * '%s\n' TEXT | CMD`, so that the shell reader decides what runs (a
 * shell there runs TEXT, `sh -c cat` or `sh ./filter.sh` does not).  p
 * is at the '|'; sc->awk_print, when set, is where the print statement's
 * expression starts.  Returns where the scan goes on.
 */
static const char *
awk_pipe(struct scan *sc, const char *p)
{
	const char	*end = sc->end, *t, *e, *from;
	struct buf	 target, text, cmd;
	bool		 known = false;

	if (p + 1 < end && p[1] == '|')
		return p + 2;
	t = p + 1;
	if (t < end && *t == '&')
		t++;
	t = ip_skip_blanks(t, end);
	buf_init(&target);
	buf_init(&text);
	buf_init(&cmd);
	if ((size_t)(end - t) >= 7 && memcmp(t, "getline", 7) == 0 &&
	    sc->awk_last != NULL) {
		/* "CMD" | getline: the string before runs. */
		emit(sc, sc->awk_last, strlen(sc->awk_last), sc->awk_last_at,
		    t + 7);
		t += 7;
	} else if (ip_value(sc, &t, &target, 0) && target.len > 0) {
		from = sc->awk_print != NULL ? sc->awk_print : p;
		if (sc->awk_print != NULL) {
			/* The expression printed: a string, or (a string). */
			const char *q = ip_skip_blanks(sc->awk_print, p);
			if (q < p && *q == '(')
				q = ip_skip_blanks(q + 1, p);
			if (ip_value(sc, &q, &text, 0)) {
				e = ip_skip_blanks(q, p);
				if (e < p && *e == ')')
					e = ip_skip_blanks(e + 1, p);
				known = e == p;
			}
		}
		if (known) {
			buf_adds(&cmd, "printf '%s\\n' ");
			sh_add_quoted(&cmd, text.data, text.len);
			buf_adds(&cmd, " | ");
		}
		buf_add(&cmd, target.data, target.len);
		emit(sc, cmd.data, cmd.len, from, t);
		sc->awk_print = NULL;	/* each byte of it read once */
	} else
		t = p + 1;
	buf_release(&target);
	buf_release(&text);
	buf_release(&cmd);
	return t;
}

/* awk: a string literal at p; remembered for a `| getline` after it. */
static const char *
awk_string(struct scan *sc, const char *p)
{
	const char	*q = p;
	struct buf	 lit;

	buf_init(&lit);
	if (ip_literal(sc, &q, &lit)) {
		sc->awk_last = arena_strndup(&sc->f->ps->sc->arena,
		    lit.data ? lit.data : "", lit.len);
		sc->awk_last_at = p;
	} else
		q = skip_string(sc, p);
	buf_release(&lit);
	return q;
}

/*
 * Whether a '/' at p starts a regular expression literal (awk, node):
 * where an operand is expected, after an operator, a bracket, a comma or
 * at the start; elsewhere it divides.
 */
static bool
regex_start(const struct scan *sc, const char *p)
{
	const char	*q = p;

	while (q > sc->start && is_blank(q[-1]))
		q--;
	return q == sc->start || strchr("(,{};!~&|=?:[\n+-*%<>", q[-1]) != NULL;
}

/* Past a regular expression literal starting at p (its '/'). */
static const char *
skip_regex(const struct scan *sc, const char *p)
{
	bool	cls = false;

	for (p++; p < sc->end && *p != '\n'; p++) {
		if (*p == '\\' && p + 1 < sc->end)
			p++;
		else if (*p == '[')
			cls = true;
		else if (*p == ']')
			cls = false;
		else if (*p == '/' && !cls)
			return p + 1;
	}
	return p;
}

/*
 * Whether p starts a comment in the program's language, and where it
 * ends: # to the end of the line (python, ruby, awk, php, perl when #
 * starts a word), // and block comments (node, php).
 */
static const char *
comment_end(const struct scan *sc, const char *p)
{
	const char	*end = sc->end, *q;

	if (*p == '#') {
		if (sc->lang == L_NODE || sc->lang == L_OSA ||
		    (sc->lang == L_PERL && p > sc->start && !is_blank(p[-1]) &&
		    p[-1] != '\n' && p[-1] != ';') ||
		    (sc->lang == L_PHP && p + 1 < end && p[1] == '['))
			return NULL;
	} else if (*p == '/' && p + 1 < end && (p[1] == '/' || p[1] == '*') &&
	    (sc->lang == L_NODE || sc->lang == L_PHP)) {
		if (p[1] == '*') {
			q = memmem(p + 2, (size_t)(end - p - 2), "*/", 2);
			return q != NULL ? q + 2 : end;
		}
	} else
		return NULL;
	q = memchr(p, '\n', (size_t)(end - p));
	return q != NULL ? q : end;
}

/*
 * Perl's qx with any delimiter: qx(...), qx{...}, qx<...>, qx[...],
 * qx!...!, qx {...}; p after "qx".  Returns where the scan goes on, or
 * NULL when it is not one.
 */
static const char *
perl_qx(struct scan *sc, const char *name, const char *p)
{
	const char	*end = sc->end, *q, *close;
	char		 open, shut;

	q = ip_skip_blanks(p, end);
	if (q >= end || ip_is_ident(*q) || *q == ',' || *q == ';' ||
	    *q == '=' || (q > p && *q == '#'))
		return NULL;
	open = *q;
	shut = open == '(' ? ')' : open == '{' ? '}' : open == '[' ? ']' :
	    open == '<' ? '>' : open;
	close = memchr(q + 1, shut, (size_t)(end - q - 1));
	if (close == NULL)
		return end;
	emit(sc, q + 1, (size_t)(close - q - 1), name, close + 1);
	return close + 1;
}

/*
 * The dotted name at p, blanks around its dots allowed (python, node
 * and ruby read `subprocess . run` as subprocess.run), into out without
 * them.  Returns its end.
 */
static const char *
spaced_name(const struct scan *sc, const char *p, struct buf *out)
{
	const char	*end = sc->end, *q;

	buf_reset(out);
	for (;;) {
		while (p < end && ip_is_ident(*p))
			buf_addc(out, *p++);
		q = ip_skip_blanks(p, end);
		if (q >= end || *q != '.' || out->len >= MAX_NAME)
			break;
		q = ip_skip_blanks(q + 1, end);
		if (q >= end || !is_name_start(*q))
			break;
		buf_addc(out, '.');
		p = q;
	}
	return p;
}

/* The end of the text before name, blanks skipped back over. */
static const char *
skip_back(const struct scan *sc, const char *name)
{
	while (name > sc->start && is_blank(name[-1]))
		name--;
	return name;
}

/* AppleScript's do shell script "CMD", p after "script". */
static const char *
osa_script(struct scan *sc, const char *name, const char *p)
{
	const char	*q = ip_skip_blanks(p, sc->end);
	struct buf	 lit;

	buf_init(&lit);
	if (ip_value(sc, &q, &lit, 0) && lit.len > 0)
		emit(sc, lit.data, lit.len, name, q);
	else
		q = p;
	buf_release(&lit);
	return q;
}

/*
 * A method called on a literal or an object, not a function that runs
 * a shell: /x/.exec(...) and "s".exec in JavaScript, $db->exec(...) in
 * PHP.
 */
static bool
method_of_literal(const struct scan *sc, const char *name)
{
	if (name - sc->start >= 2 && name[-1] == '>' && name[-2] == '-')
		return sc->lang == L_PHP;
	return sc->lang == L_NODE && name - sc->start >= 2 &&
	    name[-1] == '.' && strchr("/\"'`]", name[-2]) != NULL;
}

static void
scan_program(struct scan *sc)
{
	const char		*p = sc->start, *end = sc->end, *name, *q;
	const struct call	*cl;
	struct buf		 alias, spaced;
	size_t			 len;

	buf_init(&alias);
	buf_init(&spaced);
	while (p < end) {
		if ((q = comment_end(sc, p)) != NULL) {
			p = q;
			continue;
		}
		if (sc->lang == L_AWK) {
			if (*p == '"') {
				p = awk_string(sc, p);
				continue;
			}
			if (*p == '|') {
				p = awk_pipe(sc, p);
				continue;
			}
			if (strchr(";\n{}", *p) != NULL)
				sc->awk_print = NULL;	/* a statement ends */
		}
		if (*p == '/' && (sc->lang == L_AWK || sc->lang == L_NODE) &&
		    !(p + 1 < end && (p[1] == '/' || p[1] == '*')) &&
		    regex_start(sc, p)) {
			p = skip_regex(sc, p);
			continue;
		}
		if (*p == '%' && sc->lang == L_RUBY && end - p > 3 &&
		    p[1] == 'x' && strchr("({[", p[2]) != NULL) {
			const char *close = memchr(p + 3, p[2] == '(' ? ')' :
			    p[2] == '{' ? '}' : ']', (size_t)(end - p - 3));
			if (close == NULL)
				break;
			emit(sc, p + 3, (size_t)(close - p - 3), p, close + 1);
			p = close + 1;
			continue;
		}
		if (*p == '{' && sc->lang == L_NODE) {
			p = ip_node_destructure(sc, p);
			continue;
		}
		if (*p == '"' || *p == '\'' || (*p == '`' &&
		    sc->lang == L_NODE)) {
			p = skip_string(sc, p);
			continue;
		}
		if (*p == '`') {
			p = sc->lang == L_PYTHON || sc->lang == L_AWK ? p + 1 :
			    backquoted(sc, p);
			continue;
		}
		if (!is_name_start(*p) || (p > sc->start && (ip_is_ident(p[-1]) ||
		    p[-1] == '$'))) {
			p++;
			continue;
		}
		name = p;
		if (sc->lang == L_PYTHON || sc->lang == L_NODE ||
		    sc->lang == L_RUBY) {
			q = spaced_name(sc, p, &spaced);
			if (spaced.len != (size_t)(q - p)) {
				/* subprocess . run: looked up without blanks */
				p = q;
				if ((cl = sh_find_call(sc->lang, spaced.data,
				    spaced.len)) != NULL)
					p = call_args(sc, cl, name, p);
				continue;
			}
		}
		while (p < end && (ip_is_ident(*p) || (*p == '.' && p + 1 < end &&
		    is_name_start(p[1])) || (*p == ':' && p + 2 < end &&
		    p[1] == ':' && is_name_start(p[2]))))
			p += *p == ':' ? 2 : 1;
		len = (size_t)(p - name);
		if (sc->lang == L_PERL && len == 2 &&
		    memcmp(name, "qx", 2) == 0 &&
		    (q = perl_qx(sc, name, p)) != NULL) {
			p = q;
			continue;
		}
		if (sc->lang == L_AWK && ((len == 5 &&
		    memcmp(name, "print", 5) == 0) || (len == 6 &&
		    memcmp(name, "printf", 6) == 0))) {
			sc->awk_print = p;
			continue;
		}
		if (sc->lang == L_OSA) {
			/* do shell script "CMD" */
			if (len == 6 && memcmp(name, "script", 6) == 0 &&
			    skip_back(sc, name) - sc->start >= 5 &&
			    memcmp(skip_back(sc, name) - 5, "shell", 5) == 0)
				p = osa_script(sc, name, p);
			continue;
		}
		if (sc->lang == L_PYTHON && ((len == 6 &&
		    memcmp(name, "import", 6) == 0) || (len == 4 &&
		    memcmp(name, "from", 4) == 0))) {
			p = ip_python_import(sc, len == 4, p);
			continue;
		}
		if (sc->lang == L_PYTHON && len >= 4 &&
		    memcmp(name + len - 4, "Path", 4) == 0) {
			p = path_call(sc, name, p);
			continue;
		}
		if (method_of_literal(sc, name))
			continue;	/* /x/.exec(...), $db->exec(...) */
		if (sc->lang == L_PYTHON && var_path_call(sc, name, len, p))
			continue;
		if ((cl = sh_find_call(sc->lang, name, len)) == NULL &&
		    ip_resolve_alias(sc, name, len, &alias))
			cl = sh_find_call(sc->lang, alias.data, alias.len);
		if (cl != NULL)
			p = call_args(sc, cl, name, p);
		else if (sc->lang != L_PERL && sc->lang != L_PHP)
			p = ip_assignment(sc, name, len, p);
	}
	buf_release(&alias);
	buf_release(&spaced);
}

/* Scans text, the program of c; input is what it reads on stdin, or NULL. */
static void
scan_text(struct frame *f, const struct interp *in, const struct sh_cmd *c,
    const char *text, size_t len, const char *input)
{
	struct scan	sc;

	if (len == 0 || !sh_charge(f->ps, len))
		return;
	sc.f = f;
	sc.lang = in->lang;
	sc.prog = c->program;
	sc.start = text;
	sc.end = text + len;
	sc.input = input;
	sc.depth = 0;
	sc.nvars = 0;
	sc.naliases = 0;
	sc.awk_print = sc.awk_last = sc.awk_last_at = NULL;
	scan_program(&sc);
}

bool
sh_interp(struct frame *f, const struct sh_cmd *c)
{
	const struct interp	*in = sh_find_interp(c->program);
	struct buf		 text;
	bool			 from_stdin;

	if (in == NULL)
		return false;
	buf_init(&text);
	if (sh_program_text(in, c, &text, &from_stdin))
		scan_text(f, in, c, text.data, text.len, c->input);
	else if (from_stdin && c->input != NULL)
		scan_text(f, in, c, c->input, strlen(c->input), NULL);
	buf_release(&text);
	return true;
}

bool
sh_interp_stdin(struct frame *f, const struct sh_cmd *c, const char *text,
    size_t len)
{
	const struct interp	*in = sh_find_interp(c->program);
	struct buf		 prog;
	bool			 from_stdin = false;

	if (in == NULL)
		return false;
	buf_init(&prog);
	if (!sh_program_text(in, c, &prog, &from_stdin)) {
		if (from_stdin)
			scan_text(f, in, c, text, len, NULL);
	} else if (ip_reads_stdin(in->lang, prog.data, prog.len)) {
		/*
		 * python3 -c 'exec(sys.stdin.read())' <<EOF, echo CMD |
		 * python3 -c 'os.system(sys.stdin.read())': the program again,
		 * its input known now.
		 */
		scan_text(f, in, c, prog.data, prog.len, text);
	}
	buf_release(&prog);
	return from_stdin;
}
