/*
 * The shell lexer (see shellwords.h): one recursive-descent pass over the
 * text.  parse_list() reads a list of commands until the end or an
 * unmatched ')', read_word() reads one word, unquoting as it goes, and
 * the words of each simple command go to the command reader (shellcmd.c)
 * through the hooks it gave sh_lex(): this file calls nothing of it by
 * name (see shellwords_priv.h).  The C recursion is bounded by
 * SH_MAX_NEST whatever the input; deeper groups are skipped by an
 * iterative scan.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "buf.h"
#include "shellwords_priv.h"
#include "xmalloc.h"

enum redir_kind {
	R_NONE,
	R_FILE,		/* < > >> >| <> &> &>> */
	R_DUP,		/* >& <& : a file descriptor or a file */
	R_HEREDOC,	/* << */
	R_HEREDOC_TABS,	/* <<- */
	R_HERESTRING	/* <<< */
};

static const char *parse_list(struct parser *, const char *, const char *,
	    int, int, bool, const char *, const char *);

/* Ends an unquoted word. */
static bool
is_meta(char c)
{
	return is_blank(c) || c == '\n' || c == ';' || c == '&' || c == '|' ||
	    c == '(' || c == ')' || c == '<' || c == '>';
}

/*
 * Skips a balanced group starting just after its opening character
 * (`open`: '(' or '{'), quotes and nested groups stepped over, without
 * recursing (for groups nested deeper than SH_MAX_NEST, and function
 * bodies).  Returns the position after the closing character, or end.
 */
static const char *
skip_balanced(const char *p, const char *end, char open, char close)
{
	int	level = 1;
	char	q = 0;

	for (; p < end; p++) {
		if (q) {
			if (*p == '\\' && q == '"' && p + 1 < end)
				p++;
			else if (*p == q)
				q = 0;
			continue;
		}
		if (*p == '\\' && p + 1 < end)
			p++;
		else if (*p == '\'' || *p == '"')
			q = *p;
		else if (*p == open)
			level++;
		else if (*p == close && --level == 0)
			return p + 1;
	}
	return end;
}

static const char *
skip_group(const char *p, const char *end)
{
	return skip_balanced(p, end, '(', ')');
}

static bool
is_name(const struct sh_word *w)
{
	size_t	i;

	if (w->quoted || w->len == 0 || !is_name_start(w->s[0]))
		return false;
	for (i = 1; i < w->len; i++)
		if (!is_name_char(w->s[i]) && w->s[i] != '-' && w->s[i] != '.')
			return false;
	return true;
}

/* Whether w is the unquoted word s. */
static bool
is_word(const struct sh_word *w, const char *s)
{
	return !w->quoted && strcmp(w->s, s) == 0;
}

/*
 * A function definition at p: `NAME() BODY`, `function NAME [()] BODY`,
 * BODY a { } or ( ) group, p at the '(' after NAME or at BODY; it may
 * come first in a { } group or a compound's then, do or else
 * (`{ f() { ...; }; }; f`, which defines f in this shell).  The body is
 * not run where it is defined: it is handed to the reader (its define
 * hook), which reads it where NAME is called.  Returns the position
 * after the body, or NULL when this is no definition.
 */
static const char *
function_def(struct frame *f, const char *p)
{
	static const char *const openers[] = { "{", "then", "do", "else" };
	const struct wordvec	*v = &f->words;
	const struct sh_word	*name;
	const char		*end = f->end, *body, *q;
	size_t			 pre, k, o;

	if (v->n == 0 || !is_name(&v->v[v->n - 1]))
		return NULL;
	name = &v->v[v->n - 1];
	pre = v->n >= 2 && is_word(&v->v[v->n - 2], "function") ?
	    v->n - 2 : v->n - 1;
	for (k = 0; k < pre; k++) {
		for (o = 0; o < sizeof(openers) / sizeof(openers[0]); o++)
			if (is_word(&v->v[k], openers[o]))
				break;
		if (o == sizeof(openers) / sizeof(openers[0]))
			return NULL;
	}
	if (*p == '(') {
		for (q = p + 1; q < end && is_blank(*q); q++)
			;
		if (q >= end || *q != ')')
			return NULL;
		p = q + 1;
	}
	while (p < end && (is_blank(*p) || *p == '\n'))
		p++;
	if (p >= end || (*p != '{' && *p != '('))
		return NULL;
	body = p + 1;
	q = skip_balanced(body, end, *p, *p == '{' ? '}' : ')');
	f->ps->hooks->define(f, name->s, body, (size_t)(q - body) -
	    (q > body && (q[-1] == '}' || q[-1] == ')')));
	f->words.n = pre;
	return q;
}

bool
sh_charge(struct parser *ps, size_t n)
{
	if (n > ps->work_left) {
		ps->work_left = 0;
		ps->sc->truncated = true;
		return false;
	}
	ps->work_left -= n;
	return true;
}

/* Parses a nested script (sh -c, eval, a here-document fed to a shell). */
void
sh_parse_nested(struct frame *f, const char *text, size_t len)
{
	if (f->depth + 1 > SH_MAX_DEPTH || f->nest + 1 >= SH_MAX_NEST ||
	    !sh_charge(f->ps, len)) {
		f->ps->sc->truncated = true;
		return;
	}
	parse_list(f->ps, text, text + len, f->depth + 1, f->nest + 1, false,
	    f->dir, f->wd);
}

void
sh_parse_from(struct frame *f, const char *text, size_t len,
    const char *origin)
{
	struct sh_script	*sc = f->ps->sc;
	size_t			 before = sc->n, i;
	const char		*o = arena_strdup(&sc->arena, origin);

	sh_parse_nested(f, text, len);
	for (i = before; i < sc->n; i++)
		if (sc->cmds[i].origin == NULL)
			sc->cmds[i].origin = o;
}

void
sh_add_quoted(struct buf *b, const char *s, size_t len)
{
	size_t	i = 0;

	/*
	 * A leading ~ or $ unquoted ("$" is a plain $): the word's quoting
	 * is not known here, and a literal_head would make ~ a name where
	 * the shell may have made it home.
	 */
	if (len > 0 && s[0] == '~') {
		buf_addc(b, '~');
		i = 1;
	} else if (len > 0 && s[0] == '$') {
		buf_adds(b, "\"$\"");
		i = 1;
	}
	buf_addc(b, '\'');
	for (; i < len; i++)
		if (s[i] == '\'')
			buf_adds(b, "'\\''");
		else
			buf_addc(b, s[i]);
	buf_addc(b, '\'');
}

const char *
sh_proc_sub(const char *word, size_t *len)
{
	size_t	n = strlen(word);

	if (n < 3 || word[0] != '<' || word[1] != '(' || word[n - 1] != ')')
		return NULL;
	*len = n - 3;
	return word + 2;
}

/* ---- words -------------------------------------------------------------- */

struct wstate {
	struct buf	 b;
	bool		 quoted;
	bool		 assign_ok;	/* only unquoted name chars so far */
	bool		 plus;		/* and then a '+' */
	bool		 assign;
	bool		 split;
	long		 open, close;
	int		 brace_level;
	size_t		 commas[SH_MAX_BRACE];
	size_t		 ncommas;
	bool		 brace_bad;
	bool		 literal_head;	/* see struct sh_word */
};

static void
ws_add(struct wstate *w, const char *s, size_t n)
{
	buf_add(&w->b, s, n);
	w->assign_ok = false;
}

/* A character of the word that came from quoting or escaping. */
static void
ws_quoted(struct wstate *w, char c)
{
	if (w->b.len == 0 && (c == '~' || c == '$'))
		w->literal_head = true;
	buf_addc(&w->b, c);
	w->quoted = true;
	w->assign_ok = false;
}

static void
ws_unquoted(struct wstate *w, char c)
{
	if (c == '=' && w->assign_ok && w->b.len > 0 && !w->assign) {
		w->assign = true;
		w->assign_ok = false;
	} else if (w->plus) {
		w->assign_ok = false;	/* NAME+ not followed by = */
	} else if (c == '+' && w->assign_ok && w->b.len > 0 && !w->assign) {
		w->plus = true;		/* NAME+=VALUE appends: an assignment */
		buf_addc(&w->b, c);
		return;
	} else if (w->assign_ok && !(w->b.len == 0 ? is_name_start(c) :
	    is_name_char(c)))
		w->assign_ok = false;
	w->plus = false;
	/* Brace groups: one per word, not nested, at least one comma. */
	if (c == '{' && !w->brace_bad && w->close < 0) {
		if (w->open < 0)
			w->open = (long)w->b.len;
		w->brace_level++;
		if (w->brace_level > 1)
			w->brace_bad = true;
	} else if (c == ',' && w->open >= 0 && w->close < 0 &&
	    w->brace_level == 1) {
		if (w->ncommas < SH_MAX_BRACE - 1)
			w->commas[w->ncommas++] = w->b.len;
		else
			w->brace_bad = true;
	} else if (c == '}' && w->open >= 0 && w->close < 0 &&
	    w->brace_level > 0 && --w->brace_level == 0)
		w->close = (long)w->b.len;
	buf_addc(&w->b, c);
}

/* The value of $name or ${name}: known values, else as written. */
static void
expand_name(struct frame *f, struct wstate *w, const char *name, size_t len,
    bool quoted)
{
	const char	*v = f->ps->hooks->lookup_var(f->ps, name, len);
	const char	*ifs = sh_ifs(f->ps);

	if (v == NULL || !sh_charge(f->ps, strlen(v))) {
		buf_addc(&w->b, '$');
		buf_add(&w->b, name, len);
		w->assign_ok = false;
		return;
	}
	ws_add(w, v, strlen(v));
	if (quoted)
		w->quoted = true;
	else if (v[strcspn(v, ifs)] != '\0' || *v == '\0')
		w->split = true;	/* an empty one may leave no word */
}

const char *
sh_ifs(const struct parser *ps)
{
	const char	*ifs = ps->hooks->lookup_var(ps, "IFS", 3);

	return ifs != NULL ? ifs : " \t\r\n";
}

/*
 * Whether $p (p at the '$') is a positional parameter the reader knows,
 * $0..$9, $@, $*: those of sh -c SCRIPT ARGS.  Its name is p[1].
 */
static bool
positional(struct frame *f, const char *p, const char *end)
{
	return p + 1 < end && ((p[1] >= '0' && p[1] <= '9') || p[1] == '@' ||
	    p[1] == '*') && f->ps->hooks->lookup_var(f->ps, p + 1, 1) != NULL;
}

/* $'...': the escapes bash decodes; p is after the opening quote. */
static const char *
ansi_c(struct wstate *w, const char *p, const char *end)
{
	static const char from[] = "abefnrtv\\'\"?", to[] = "\a\b\033\f\n\r\t\v\\'\"?";
	const char	*k;
	int		 v, d, i;

	while (p < end && *p != '\'') {
		if (*p != '\\' || p + 1 >= end) {
			ws_quoted(w, *p++);
			continue;
		}
		p++;
		if ((k = strchr(from, *p)) != NULL && *p) {
			ws_quoted(w, to[k - from]);
			p++;
		} else if (*p == 'x') {
			for (p++, v = 0, i = 0; i < 2 && p < end &&
			    (d = ascii_hex_value(*p)) >= 0; i++, p++)
				v = v * 16 + d;
			ws_quoted(w, (char)v);
		} else if (*p >= '0' && *p <= '7') {
			for (v = 0, i = 0; i < 3 && p < end && *p >= '0' &&
			    *p <= '7'; i++, p++)
				v = v * 8 + (*p - '0');
			ws_quoted(w, (char)v);
		} else {
			ws_quoted(w, '\\');
			ws_quoted(w, *p++);
		}
	}
	return p < end ? p + 1 : p;
}

/* `...`: the inner text, unescaped, is parsed as a nested script. */
static const char *
backquote(struct frame *f, struct wstate *w, const char *p, const char *end)
{
	const char	*start = p;
	struct buf	 inner;

	buf_init(&inner);
	while (p < end && *p != '`') {
		if (*p == '\\' && p + 1 < end && strchr("`\\$", p[1]))
			p++;
		buf_addc(&inner, *p++);
	}
	if (f->nest < SH_MAX_NEST) {
		/* A subshell: the functions it defines end with it. */
		size_t scope = f->ps->hooks->scope_open(f->ps);

		sh_parse_nested(f, arena_strndup(&f->ps->sc->arena, inner.data,
		    inner.len), inner.len);
		f->ps->hooks->scope_close(f->ps, scope);
	} else
		f->ps->sc->truncated = true;
	buf_release(&inner);
	buf_addc(&w->b, '`');
	ws_add(w, start, (size_t)(p - start));
	buf_addc(&w->b, '`');
	return p < end ? p + 1 : p;
}

static void known_output(struct frame *, struct wstate *, size_t, size_t,
	    bool);

/*
 * $( ), <( ), >( ): p is after the '('; the group is parsed one deeper.
 * A <( ) whose output is known (known_output()) is written <(OUTPUT):
 * the file a shell sources from it (bash --rcfile <(echo ...)) holds
 * that text, and the reader reads it there (sh_proc_sub()).
 */
static const char *
substitution(struct frame *f, struct wstate *w, const char *open,
    const char *p, const char *end)
{
	const char	*q;
	size_t		 before = f->ps->sc->n, mark = w->b.len;

	if (f->nest + 1 >= SH_MAX_NEST || f->depth + 1 > SH_MAX_DEPTH) {
		f->ps->sc->truncated = true;
		q = skip_group(p, end);
	} else {
		size_t scope = f->ps->hooks->scope_open(f->ps);

		q = parse_list(f->ps, p, end, f->depth + 1, f->nest + 1, true,
		    f->dir, f->wd);
		f->ps->hooks->scope_close(f->ps, scope);
		if (q < end && *q == ')')
			q++;
	}
	ws_add(w, open, (size_t)(q - open));
	if (*open == '<') {
		buf_truncate(&w->b, mark + 2);		/* "<(" */
		known_output(f, w, before, mark + 2, true);
		if (w->b.len == mark + 2) {		/* not known */
			buf_truncate(&w->b, mark);
			buf_add(&w->b, open, (size_t)(q - open));
		} else
			buf_addc(&w->b, ')');
	}
	w->quoted = true;
	return q;
}

/*
 * A $( ) just read, into w from w->b.len == mark on, that made the one
 * command sc->cmds[before]: when the reader knows what it writes (echo,
 * printf, cat of a here-document), the word takes that text instead, its
 * trailing newlines cut as the shell does; so `sh -c "$(cat <<EOF ...)"`
 * runs the here-document and `$(echo rm) -rf /` is rm -rf /.
 */
static void
known_output(struct frame *f, struct wstate *w, size_t before, size_t mark,
    bool quoted)
{
	struct sh_script	*sc = f->ps->sc;
	struct buf		 out;

	if (sc->n != before + 1 || sc->cmds[before].depth != f->depth + 1)
		return;
	buf_init(&out);
	if (f->ps->hooks->output(f->ps, &sc->cmds[before], &out) &&
	    sh_charge(f->ps, out.len)) {
		while (out.len > 0 && out.data[out.len - 1] == '\n')
			out.len--;
		buf_truncate(&w->b, mark);
		buf_add(&w->b, out.data, out.len);
		if (!quoted && (out.len == 0 ||
		    strcspn(w->b.data + mark, sh_ifs(f->ps)) < out.len))
			w->split = true;
	}
	buf_release(&out);
}

/*
 * The command substitutions inside text that is otherwise kept as
 * written, in [p, end): $(( arithmetic )), the operand of ${x:-WORD}, an
 * unquoted here-document's body.  $(rm -rf /) or `...` there runs all
 * the same; \$ and \` do not.  Each byte is looked at once; what a
 * substitution parses, it skips.
 */
static void
arith_substitutions(struct frame *f, const char *p, const char *end)
{
	struct wstate	scratch;

	memset(&scratch, 0, sizeof(scratch));
	buf_init(&scratch.b);
	while (p < end) {
		if (*p == '\\' && p + 1 < end)
			p += 2;
		else if (*p == '$' && p + 1 < end && p[1] == '(' &&
		    !(p + 2 < end && p[2] == '('))
			p = substitution(f, &scratch, p, p + 2, end);
		else if (*p == '`')
			p = backquote(f, &scratch, p + 1, end);
		else
			p++;
		buf_reset(&scratch.b);
	}
	buf_release(&scratch.b);
}

/*
 * ${ CMDS; } and ${| CMDS; } (bash 5.3): the commands in [p, end) run in
 * this shell; they are parsed one level deeper, as a $( ) is.
 */
static void
funsub(struct frame *f, const char *p, const char *end)
{
	if (f->nest + 1 >= SH_MAX_NEST || f->depth + 1 > SH_MAX_DEPTH) {
		f->ps->sc->truncated = true;
		return;
	}
	parse_list(f->ps, p, end, f->depth + 1, f->nest + 1, true, f->dir,
	    f->wd);
}

/* A '$' at p, unquoted or inside double quotes. */
static const char *
dollar(struct frame *f, struct wstate *w, const char *p, const char *end,
    bool in_dq)
{
	const char	*s, *q;
	int		 level;

	if (p + 1 >= end) {
		buf_addc(&w->b, '$');
		return p + 1;
	}
	s = p + 1;
	if (*s == '\'' && !in_dq) {
		w->quoted = true;
		return ansi_c(w, s + 1, end);
	}
	if (*s == '(' && s + 1 < end && s[1] == '(') {
		/* $(( arithmetic )): kept as written. */
		/* From the second '(', the scan ends after both ')'. */
		q = skip_group(s + 1, end);
		arith_substitutions(f, s + 2, q);
		ws_add(w, p, (size_t)(q - p));
		return q;
	}
	if (*s == '(') {
		size_t before = f->ps->sc->n, mark = w->b.len;

		q = substitution(f, w, p, s + 1, end);
		known_output(f, w, before, mark, in_dq);
		return q;
	}
	if (*s == '{') {
		for (q = s + 1, level = 1; q < end; q++) {
			if (*q == '{')
				level++;
			else if (*q == '}' && --level == 0)
				break;
		}
		for (s = p + 2; s < q && is_name_char(*s); s++)
			;
		if (s == q && q > p + 2 && is_name_start(p[2]))
			expand_name(f, w, p + 2, (size_t)(q - p - 2), in_dq);
		else if (q == p + 3 && positional(f, p + 1, end))
			/* "${@}" is one word per parameter, as "$@" is. */
			expand_name(f, w, p + 2, 1, in_dq && p[2] != '@');
		else {
			if (p + 2 < q && (is_blank(p[2]) || p[2] == '\n' ||
			    p[2] == '|'))
				/* bash 5.3's ${ CMDS; }: the commands run. */
				funsub(f, p + 3, q);
			else
				/* ${x:-$(CMD)}: the operand's $( ) runs. */
				arith_substitutions(f, p + 2, q);
			ws_add(w, p, (size_t)((q < end ? q + 1 : q) - p));
		}
		return q < end ? q + 1 : q;
	}
	if (is_name_start(*s)) {
		for (q = s; q < end && is_name_char(*q); q++)
			;
		expand_name(f, w, s, (size_t)(q - s), in_dq);
		return q;
	}
	if (positional(f, p, end)) {
		/* "$@" is one word per parameter: split it like $@. */
		expand_name(f, w, s, 1, in_dq && *s != '@');
		return s + 1;
	}
	buf_addc(&w->b, '$');
	w->assign_ok = false;
	return p + 1;
}

/* "...": p is after the opening quote. */
static const char *
double_quoted(struct frame *f, struct wstate *w, const char *p,
    const char *end)
{
	w->quoted = true;
	while (p < end && *p != '"') {
		if (*p == '\\' && p + 1 < end && strchr("$`\"\\\n", p[1])) {
			if (p[1] != '\n')
				ws_quoted(w, p[1]);
			p += 2;
		} else if (*p == '$')
			p = dollar(f, w, p, end, true);
		else if (*p == '`')
			p = backquote(f, w, p + 1, end);
		else
			ws_quoted(w, *p++);
	}
	return p < end ? p + 1 : p;
}

/* Reads one word at p into *out; returns the position after it. */
static const char *
read_word(struct frame *f, const char *p, struct sh_word *out)
{
	const char	*end = f->end;
	struct wstate	 w;

	memset(&w, 0, sizeof(w));
	buf_init(&w.b);
	w.assign_ok = true;
	w.open = w.close = -1;
	while (p < end) {
		char c = *p;
		if ((c == '<' || c == '>') && p + 1 < end && p[1] == '(') {
			p = substitution(f, &w, p, p + 2, end);
			continue;
		}
		if (is_meta(c))
			break;
		if (c == '\\') {
			if (p + 1 >= end) {
				ws_quoted(&w, '\\');
				p++;
			} else if (p[1] == '\n')
				p += 2;
			else {
				ws_quoted(&w, p[1]);
				p += 2;
			}
		} else if (c == '\'') {
			w.quoted = true;
			for (p++; p < end && *p != '\''; p++)
				ws_quoted(&w, *p);
			if (p < end)
				p++;
		} else if (c == '"')
			p = double_quoted(f, &w, p + 1, end);
		else if (c == '$')
			p = dollar(f, &w, p, end, false);
		else if (c == '`')
			p = backquote(f, &w, p + 1, end);
		else {
			ws_unquoted(&w, c);
			p++;
		}
	}
	memset(out, 0, sizeof(*out));
	out->len = w.b.len;
	out->s = arena_strndup(&f->ps->sc->arena, w.b.data, w.b.len);
	out->quoted = w.quoted;
	out->literal_head = w.literal_head;
	out->assign = w.assign;
	out->split = w.split;
	out->open = -1;
	if (!w.brace_bad && w.open >= 0 && w.close > w.open && w.ncommas > 0) {
		out->open = w.open;
		out->close = w.close;
		out->commas = arena_alloc(&f->ps->sc->arena,
		    w.ncommas * sizeof(*out->commas));
		memcpy(out->commas, w.commas, w.ncommas * sizeof(w.commas[0]));
		out->ncommas = w.ncommas;
	}
	buf_release(&w.b);
	return p;
}

static void
push_word(struct frame *f, const struct sh_word *w)
{
	struct wordvec	*v = &f->words;

	/* { opens a group as a command's first word, } closes one. */
	if (v->n == 0 && !w->quoted && w->len == 1 && w->s[0] == '{') {
		if (f->nbraces < SH_MAX_BRACES)
			f->brace_starts[f->nbraces] = f->ps->sc->n;
		f->nbraces++;
	} else if (v->n == 0 && !w->quoted && w->len == 1 && w->s[0] == '}' &&
	    f->nbraces > 0) {
		if (--f->nbraces < SH_MAX_BRACES) {
			f->last_from = f->brace_starts[f->nbraces];
			f->last_to = f->ps->sc->n;
		}
	}

	if (v->n >= SH_MAX_WORDS) {
		f->ps->sc->truncated = true;
		return;
	}
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 16;
		v->v = xreallocarray(v->v, v->cap, sizeof(*v->v));
	}
	v->v[v->n++] = *w;
}

/* Ends the command being read (at an operator, newline or the end). */
static void
finish_cmd(struct frame *f)
{
	struct sh_script	*sc = f->ps->sc;
	size_t			 before = sc->n, k;
	struct sh_cmd		*c;
	long			 from = f->pipe_from;

	f->pipe_from = -1;
	if (f->words.n > 0)
		f->ps->hooks->emit_words(f, f->words.v, f->words.n, f->depth);
	/* Here-documents belong to the first command this produced. */
	for (k = 0; k < f->ndocs; k++)
		if (f->docs[k].cmd == -1)
			f->docs[k].cmd = sc->n > before ? (long)before : -2;
	if (sc->n > before && f->input != NULL) {
		c = &sc->cmds[before];
		c->input = f->input;
	}
	/* `from | this`: now, or when from's here-document is read. */
	if (from >= 0 && sc->n > before) {
		for (k = 0; k < f->ndocs; k++)
			if (f->docs[k].cmd == from)
				f->docs[k].pipe_to = (long)before;
		f->ps->hooks->pipe_input(f, (size_t)from, before);
	}
	/* `{ a; b; } | this`: what each of the group writes, in turn. */
	if (f->group_from < f->group_to && sc->n > before)
		for (k = f->group_from; k < f->group_to; k++)
			if (sc->cmds[k].depth == f->depth)
				f->ps->hooks->pipe_input(f, k, before);
	f->group_from = f->group_to = 0;
	if (sc->n > before)
		f->last_from = f->last_to = 0;	/* a command since */
	f->words.n = 0;
	f->redir = R_NONE;
	f->input = NULL;
}

/* Reads the bodies of pending here-documents; p is after the newline. */
static const char *
read_heredocs(struct frame *f, const char *p)
{
	struct sh_script	*sc = f->ps->sc;
	struct buf		 body;
	const char		*eol, *line;
	size_t			 k, dl;

	for (k = 0; k < f->ndocs; k++) {
		buf_init(&body);
		dl = strlen(f->docs[k].delim);
		while (p < f->end) {
			eol = memchr(p, '\n', (size_t)(f->end - p));
			if (eol == NULL)
				eol = f->end;
			line = p;
			if (f->docs[k].strip_tabs)
				while (line < eol && *line == '\t')
					line++;
			p = eol < f->end ? eol + 1 : eol;
			if ((size_t)(eol - line) == dl &&
			    memcmp(line, f->docs[k].delim, dl) == 0)
				break;
			buf_add(&body, line, (size_t)(eol - line));
			buf_addc(&body, '\n');
		}
		/*
		 * An unquoted delimiter: the body's $( ) and `...` run
		 * when it is read (cat <<EOF ... $(rm -rf ~) ... EOF).
		 */
		if (!f->docs[k].quoted && body.len > 0 &&
		    (memchr(body.data, '$', body.len) != NULL ||
		    memchr(body.data, '`', body.len) != NULL)) {
			const char *copy = arena_strndup(&sc->arena,
			    body.data, body.len);
			arith_substitutions(f, copy, copy + body.len);
		}
		if (f->docs[k].cmd >= 0 && (size_t)f->docs[k].cmd < sc->n) {
			struct sh_cmd *c = &sc->cmds[f->docs[k].cmd];
			c->input = arena_strndup(&sc->arena, body.data,
			    body.len);
			if (f->ps->hooks->runs_input(c))
				sh_parse_nested(f, c->input, strlen(c->input));
			f->ps->hooks->pipe_input(f, (size_t)f->docs[k].cmd,
			    (size_t)f->docs[k].cmd);
			f->ps->hooks->written(f, (size_t)f->docs[k].cmd);
			if (f->docs[k].pipe_to >= 0)
				f->ps->hooks->pipe_input(f,
				    (size_t)f->docs[k].cmd,
				    (size_t)f->docs[k].pipe_to);
		}
		buf_release(&body);
	}
	f->ndocs = 0;
	return p;
}

/*
 * A redirection operator at p; returns the position after it.  The
 * operator is kept as written (static strings), so that readers can tell
 * a file read from one written.
 */
static const char *
redirection(struct frame *f, const char *p)
{
	const char	*end = f->end;

	if (*p == '&') {			/* &> &>> */
		p += 2;
		f->redir_op = "&>";
		if (p < end && *p == '>') {
			f->redir_op = "&>>";
			p++;
		}
		f->redir = R_FILE;
		return p;
	}
	if (*p == '<') {
		p++;
		if (p < end && *p == '<') {
			p++;
			if (p < end && *p == '<') {
				f->redir = R_HERESTRING;
				return p + 1;
			}
			if (p < end && *p == '-') {
				f->redir = R_HEREDOC_TABS;
				return p + 1;
			}
			f->redir = R_HEREDOC;
			return p;
		}
		if (p < end && *p == '&') {
			f->redir = R_DUP;
			f->redir_op = "<&";
			return p + 1;
		}
		f->redir_op = "<";
		if (p < end && *p == '>') {
			f->redir_op = "<>";
			p++;
		}
		f->redir = R_FILE;
		return p;
	}
	p++;					/* > >> >| >& */
	if (p < end && *p == '&') {
		f->redir = R_DUP;
		f->redir_op = ">&";
		return p + 1;
	}
	f->redir_op = ">";
	if (p < end && (*p == '>' || *p == '|')) {
		f->redir_op = *p == '>' ? ">>" : ">|";
		p++;
	}
	f->redir = R_FILE;
	return p;
}

/* A word that follows a redirection operator. */
static void
redirect_target(struct frame *f, const struct sh_word *w)
{
	struct heredoc	*d;

	switch (f->redir) {
	case R_HEREDOC:
	case R_HEREDOC_TABS:
		if (f->ndocs == SH_MAX_HEREDOCS) {
			f->ps->sc->truncated = true;
			break;
		}
		d = &f->docs[f->ndocs++];
		d->delim = w->s;
		d->strip_tabs = f->redir == R_HEREDOC_TABS;
		d->quoted = w->quoted;
		d->cmd = -1;
		d->pipe_to = -1;
		break;
	case R_HERESTRING:
		f->input = w->s;
		break;
	case R_FILE:
	case R_DUP:
		if (f->redir == R_DUP && (strcmp(w->s, "-") == 0 ||
		    strspn(w->s, "0123456789") == w->len))
			break;
		/* In the word list until the command ends, then moved out. */
		{
			struct sh_word rw = *w;
			/*
			 * > "~/.zshrc", >> '$HOME/x': a file of that name
			 * here, written so that no reader takes it for home.
			 */
			if (w->literal_head) {
				rw.s = arena_printf(&f->ps->sc->arena, "./%s",
				    w->s);
				rw.len = w->len + 2;
			}
			rw.assign = false;
			rw.open = -1;
			rw.split = false;
			rw.redirect = true;
			rw.redir_op = f->redir_op;
			push_word(f, &rw);
		}
		break;
	case R_NONE:
		break;
	}
	f->redir = R_NONE;
}

/*
 * Redirections that no command took (`> f`, `{ ...; } > f`): kept in
 * sc->loose, so that what they write or read is still seen.
 */
static void
add_loose(struct frame *f, const char **targets, const char **ops, size_t n)
{
	struct sh_script	*sc = f->ps->sc;
	struct sh_redirect	*r;
	size_t			 i;

	for (i = 0; i < n; i++) {
		if (sc->nloose == sc->loosecap) {
			sc->loosecap = sc->loosecap ? sc->loosecap * 2 : 8;
			sc->loose = xreallocarray(sc->loose, sc->loosecap,
			    sizeof(*sc->loose));
		}
		r = &sc->loose[sc->nloose++];
		r->target = targets[i];
		r->op = ops[i];
		r->wd = f->wd;
		r->depth = f->depth;
	}
}

/*
 * Moves redirection targets out of the word list into the command that
 * the words become (every one of them: the word list is bounded by
 * SH_MAX_WORDS), or into the loose ones when there is no command.
 */
static void
finish_with_redirects(struct frame *f)
{
	struct sh_script	*sc = f->ps->sc;
	struct arena		*a = &sc->arena;
	const char		**targets = NULL, **ops = NULL;
	size_t			 nt = 0, i, j, before = sc->n;
	struct sh_cmd		*c;

	for (i = 0; i < f->words.n; i++)
		if (f->words.v[i].redirect)
			nt++;
	if (nt > 0) {
		targets = arena_alloc(a, nt * sizeof(*targets));
		ops = arena_alloc(a, nt * sizeof(*ops));
	}
	for (i = j = nt = 0; i < f->words.n; i++) {
		if (f->words.v[i].redirect) {
			targets[nt] = f->words.v[i].s;
			ops[nt++] = f->words.v[i].redir_op;
			continue;
		}
		f->words.v[j++] = f->words.v[i];
	}
	f->words.n = j;
	finish_cmd(f);
	if (nt == 0)
		return;
	if (sc->n == before) {
		add_loose(f, targets, ops, nt);
		return;
	}
	c = &sc->cmds[before];
	c->redirects = targets;
	c->redirect_ops = ops;
	c->nredirects = nt;
	/* Unless a here-document of it is still to be read. */
	for (i = 0; i < f->ndocs; i++)
		if (f->docs[i].cmd == (long)before)
			return;
	f->ps->hooks->written(f, before);
}

/* The descriptor before a redirection: 2>f, or bash's {name}>f. */
static bool
is_descriptor(const struct sh_word *w)
{
	size_t	i;

	if (w->quoted || w->len == 0)
		return false;
	if (strspn(w->s, "0123456789") == w->len)
		return true;
	if (w->len < 3 || w->s[0] != '{' || w->s[w->len - 1] != '}' ||
	    !is_name_start(w->s[1]))
		return false;
	for (i = 2; i < w->len - 1; i++)
		if (!is_name_char(w->s[i]))
			return false;
	return true;
}

/*
 * Reads a list of commands from p; in_paren stops at an unmatched ')' and
 * returns its position, otherwise at end.
 */
static const char *
parse_list(struct parser *ps, const char *p, const char *end, int depth,
    int nest, bool in_paren, const char *dir, const char *wd)
{
	struct frame	 f;
	struct sh_word	 w;
	const char	*q;
	size_t		 scope;

	memset(&f, 0, sizeof(f));
	f.ps = ps;
	f.end = end;
	f.depth = depth;
	f.nest = nest;
	f.dir = dir;
	f.wd = wd;
	f.pipe_from = -1;
	while (p < end) {
		char c = *p;
		if (is_blank(c)) {
			p++;
			continue;
		}
		if (c == '\\' && p + 1 < end && p[1] == '\n') {
			p += 2;
			continue;
		}
		if (c == '\n') {
			finish_with_redirects(&f);
			p = read_heredocs(&f, p + 1);
			continue;
		}
		if (c == '#' && f.redir == R_NONE) {
			while (p < end && *p != '\n')
				p++;
			continue;
		}
		if (c == '&' && p + 1 < end && p[1] == '>') {
			p = redirection(&f, p);
			continue;
		}
		if (c == ';' || c == '&' || c == '|') {
			size_t before = ps->sc->n;
			bool pipe = c == '|' && !(p + 1 < end && p[1] == '|');

			finish_with_redirects(&f);
			p++;
			if (p < end && (*p == c || (c == '|' && *p == '&') ||
			    (c == ';' && *p == '&')))
				p++;
			if (pipe && ps->sc->n > before)
				f.pipe_from = (long)before;
			else if (pipe && f.last_to == ps->sc->n) {
				f.group_from = f.last_from;
				f.group_to = f.last_to;
			}
			f.last_from = f.last_to = 0;
			continue;
		}
		if (c == '(' && (q = function_def(&f, p)) != NULL) {
			p = q;
			continue;
		}
		if (c == '(') {
			finish_with_redirects(&f);
			if (nest + 1 >= SH_MAX_NEST) {
				ps->sc->truncated = true;
				p = skip_group(p + 1, end);
				continue;
			}
			/*
			 * A ( ) subshell: its cd does not leak out, nor do
			 * the functions it defines.
			 */
			f.last_from = ps->sc->n;
			scope = ps->hooks->scope_open(ps);
			q = parse_list(ps, p + 1, end, depth, nest + 1, true,
			    f.dir, f.wd);
			ps->hooks->scope_close(ps, scope);
			f.last_to = ps->sc->n;
			p = q < end && *q == ')' ? q + 1 : q;
			continue;
		}
		if (c == ')') {
			finish_with_redirects(&f);
			if (in_paren) {
				free(f.words.v);
				return p;
			}
			p++;
			continue;
		}
		if ((c == '<' || c == '>') && !(p + 1 < end && p[1] == '(')) {
			p = redirection(&f, p);
			continue;
		}
		p = read_word(&f, p, &w);
		if (f.redir != R_NONE) {
			redirect_target(&f, &w);
			continue;
		}
		/* function NAME { BODY } */
		if (!w.quoted && w.len == 1 && w.s[0] == '{' &&
		    f.words.n >= 2 && (q = function_def(&f, p - 1)) != NULL) {
			p = q;
			continue;
		}
		/* 2>file, {fd}>file: the descriptor, not a word. */
		if (is_descriptor(&w) && p < end && (*p == '<' || *p == '>'))
			continue;
		push_word(&f, &w);
	}
	finish_with_redirects(&f);
	if (f.ndocs > 0)
		read_heredocs(&f, end);
	free(f.words.v);
	return end;
}

void
sh_lex(struct sh_script *sc, const char *text, size_t len,
    const struct sh_hooks *hooks, void *ctx)
{
	struct parser	ps;

	memset(&ps, 0, sizeof(ps));
	ps.sc = sc;
	ps.hooks = hooks;
	ps.ctx = ctx;
	ps.work_left = SH_WORK_BASE + (len > (SIZE_MAX - SH_WORK_BASE) /
	    SH_WORK_PER_BYTE ? SIZE_MAX - SH_WORK_BASE : len * SH_WORK_PER_BYTE);
	parse_list(&ps, text, text + len, 0, 0, false, NULL, NULL);
}
