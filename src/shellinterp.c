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
 * Only string literals are read, a name assigned one earlier, or a path
 * function of them (os.path.expanduser("~"), Path.home() / "x"); a call
 * under another name (import ... as, from M import f, r = os.system,
 * const {execSync: x} = require(...)) is looked up by the name it
 * stands for.  An argument computed at run time ("rm -rf " + path,
 * f"{x}", "#{x}", `${x}`) hides the call, a known gap.  The tables of interpreters and
 * calls are in shellinterp_tab.c.
 * What is read is parsed one level deeper, the commands marked with the
 * call they came from (sh_cmd.origin).  This file knows the languages;
 * it calls the lexer only (sh_parse_from).
 */
#include <stddef.h>
#include <string.h>

#include "buf.h"
#include "shellinterp_priv.h"
#include "shellwords_priv.h"

/* ---- the program text -------------------------------------------------- */

#define MAX_CALL_ARGS	64	/* words of one list form */
#define MAX_VARS	16	/* literal assignments remembered */
#define MAX_ALIASES	16	/* other names of modules and calls */
#define MAX_NAME	128	/* bytes of a dotted name looked up */
#define ORIGIN_MAX	80	/* bytes of the call shown in explain */
#define MAX_CODE_DEPTH	4	/* eval("eval(\"...\")") */

struct scan {
	struct frame	*f;
	enum lang	 lang;
	const char	*prog;		/* the interpreter's name */
	const char	*start, *end;	/* the program text */
	int		 depth;		/* of exec and eval strings */
	/* NAME = "literal" earlier in the program: the call's argument. */
	struct {
		const char	*name, *value;	/* the arena */
		size_t		 nlen, vlen;
	}		 vars[MAX_VARS];
	size_t		 nvars;
	/*
	 * Names that stand for another (from os import system as run,
	 * import subprocess as sp, const {execSync: x} = require(...),
	 * run = os.system): the call is looked up by what they stand for.
	 */
	struct {
		const char	*name, *target;	/* the arena */
		size_t		 nlen;
	}		 aliases[MAX_ALIASES];
	size_t		 naliases;
	/* awk: where the expression of the current print starts, or NULL;
	   the last string literal and where it was (for | getline). */
	const char	*awk_print;
	const char	*awk_last, *awk_last_at;
};

static void scan_program(struct scan *);
static bool value(struct scan *, const char **, struct buf *, int);

static bool
is_ident(char c)
{
	return is_name_char(c);
}

static const char *
skip_blanks(const char *p, const char *end)
{
	while (p < end && is_blank(*p))
		p++;
	return p;
}

/*
 * A string literal at *pp into out, unescaped; *pp moves past it.  False
 * (and *pp unmoved) when there is none, or when it is computed: an
 * interpolation (f"{x}", "#{x}", `${x}`), or an operator after it.
 */
static bool
literal(struct scan *sc, const char **pp, struct buf *out)
{
	const char	*p = *pp, *end = sc->end;
	char		 q;
	bool		 fstr = false;

	while (p < end && strchr("rRbBuUfF", *p) != NULL && p + 1 < end &&
	    sc->lang == L_PYTHON && (p[1] == '"' || p[1] == '\'' ||
	    strchr("rRbBuUfF", p[1]) != NULL)) {
		if (*p == 'f' || *p == 'F')
			fstr = true;
		p++;
	}
	if (p >= end || (*p != '"' && *p != '\'' &&
	    !(*p == '`' && sc->lang == L_NODE)))
		return false;
	q = *p++;
	buf_reset(out);
	if (sc->lang == L_PYTHON && end - p >= 2 && p[0] == q && p[1] == q) {
		/* """...""": up to the next three quotes. */
		for (p += 2; p + 2 < end && !(p[0] == q && p[1] == q &&
		    p[2] == q); p++)
			buf_addc(out, *p);
		if (p + 2 >= end || fstr)
			return false;
		p += 2;
	}
	for (; p < end && *p != q; p++) {
		if (*p == '\\' && p + 1 < end) {
			p++;
			buf_addc(out, *p == 'n' ? '\n' : *p == 't' ? '\t' : *p);
			continue;
		}
		if ((fstr && *p == '{') || (q == '`' && *p == '$') ||
		    (q == '"' && sc->lang == L_RUBY && *p == '#' &&
		    p + 1 < end && p[1] == '{'))
			return false;
		buf_addc(out, *p);
	}
	if (p >= end)
		return false;
	p++;
	while (p < end && is_blank(*p))
		p++;
	/* "rm -rf " + x, "a" . $b, "a" x: built at run time. */
	if (p < end && strchr("+.%*", *p) != NULL && !(*p == '.' &&
	    sc->lang != L_PERL && sc->lang != L_PHP))
		return false;
	*pp = p;
	return true;
}

/* name[0..len) stands for target[0..tlen) from now on. */
static void
add_alias(struct scan *sc, const char *name, size_t len, const char *target,
    size_t tlen)
{
	struct arena	*a = &sc->f->ps->sc->arena;

	if (sc->naliases == MAX_ALIASES || len == 0 || tlen == 0 ||
	    tlen >= MAX_NAME || !sh_charge(sc->f->ps, len + tlen))
		return;
	sc->aliases[sc->naliases].name = arena_strndup(a, name, len);
	sc->aliases[sc->naliases].nlen = len;
	sc->aliases[sc->naliases].target = arena_strndup(a, target, tlen);
	sc->naliases++;
}

/* The end of a dotted name at p (a.b.c), or p when there is none. */
static const char *
dotted_end(const struct scan *sc, const char *p)
{
	const char	*end = sc->end;

	if (p >= end || !is_name_start(*p))
		return p;
	while (p < end && (is_ident(*p) || (*p == '.' && p + 1 < end &&
	    is_name_start(p[1]))))
		p++;
	return p;
}

/*
 * The dotted name name[0..len) with its first part replaced by what an
 * alias stands for, into out (at most MAX_NAME bytes); false when its
 * first part is no alias.
 */
static bool
resolve_alias(const struct scan *sc, const char *name, size_t len,
    struct buf *out)
{
	size_t	first, i;

	for (first = 0; first < len && name[first] != '.' &&
	    name[first] != ':'; first++)
		;
	for (i = sc->naliases; i > 0; i--)
		if (sc->aliases[i - 1].nlen == first &&
		    memcmp(sc->aliases[i - 1].name, name, first) == 0)
			break;
	if (i == 0 || len > MAX_NAME)
		return false;
	buf_reset(out);
	buf_adds(out, sc->aliases[i - 1].target);
	buf_add(out, name + first, len - first);
	return true;
}

/*
 * Python's import statements, p after "import" or "from": `import M as
 * B` makes B stand for M; `from M import A as B` makes B stand for M.A,
 * and `from M import A` A for M.A (so that run() from subprocess is
 * subprocess.run).  Returns where the scan goes on.
 */
static const char *
python_import(struct scan *sc, bool from, const char *p)
{
	const char	*end = sc->end, *mod = NULL, *a, *ae, *b, *be;
	struct buf	 target;
	size_t		 modlen = 0;

	buf_init(&target);
	if (from) {
		p = skip_blanks(p, end);
		mod = p;
		p = dotted_end(sc, p);
		modlen = (size_t)(p - mod);
		p = skip_blanks(p, end);
		if (modlen == 0 || (size_t)(end - p) < 6 ||
		    memcmp(p, "import", 6) != 0) {
			buf_release(&target);
			return p;
		}
		p += 6;
	}
	for (;;) {
		p = skip_blanks(p, end);
		if (p < end && *p == '(')
			p = skip_blanks(p + 1, end);
		a = p;
		ae = p = dotted_end(sc, p);
		if (ae == a)
			break;
		b = a;
		be = ae;
		p = skip_blanks(p, end);
		if ((size_t)(end - p) > 3 && memcmp(p, "as", 2) == 0 &&
		    is_blank(p[2])) {
			b = skip_blanks(p + 2, end);
			be = p = dotted_end(sc, b);
		}
		buf_reset(&target);
		if (from) {
			buf_add(&target, mod, modlen);
			buf_addc(&target, '.');
		}
		buf_add(&target, a, (size_t)(ae - a));
		if (from || be - b != ae - a || memcmp(a, b, (size_t)(ae - a)))
			add_alias(sc, b, (size_t)(be - b), target.data,
			    target.len);
		p = skip_blanks(p, end);
		if (p >= end || *p != ',')
			break;
		p++;
	}
	buf_release(&target);
	return p;
}

/*
 * JavaScript's `{ execSync: run, exec } = require("child_process")`, p
 * at the '{': each name stands for the module's member.
 */
static const char *
node_destructure(struct scan *sc, const char *p)
{
	const char	*end = sc->end, *q, *close, *a, *ae, *b, *be;
	struct buf	 mod, target;

	close = memchr(p, '}', (size_t)(end - p));
	if (close == NULL || close - p > 512)
		return p + 1;
	q = skip_blanks(close + 1, end);
	if (q >= end || *q != '=')
		return p + 1;
	q = skip_blanks(q + 1, end);
	if ((size_t)(end - q) < 8 || memcmp(q, "require(", 8) != 0)
		return p + 1;
	q += 8;
	buf_init(&mod);
	buf_init(&target);
	if (literal(sc, &q, &mod) && mod.len > 0) {
		for (p++; p < close;) {
			p = skip_blanks(p, close);
			while (p < close && (*p == '\n' || *p == ','))
				p = skip_blanks(p + 1, close);
			a = p;
			ae = p = dotted_end(sc, p);
			if (ae == a)
				break;
			b = a;
			be = ae;
			p = skip_blanks(p, close);
			if (p < close && *p == ':') {
				b = skip_blanks(p + 1, close);
				be = p = dotted_end(sc, b);
			}
			buf_reset(&target);
			buf_add(&target, mod.data, mod.len);
			buf_addc(&target, '.');
			buf_add(&target, a, (size_t)(ae - a));
			add_alias(sc, b, (size_t)(be - b), target.data,
			    target.len);
		}
	}
	buf_release(&mod);
	buf_release(&target);
	return close + 1;
}

/*
 * NAME = "literal" at name (len bytes), p after the name: remembered, so
 * that cmd = "rm -rf /"; os.system(cmd) is read as the literal.  Returns
 * where the scan goes on.
 */
static const char *
assignment(struct scan *sc, const char *name, size_t len, const char *p)
{
	struct arena	*a = &sc->f->ps->sc->arena;
	const char	*q = p, *r;
	struct buf	 lit;

	while (q < sc->end && is_blank(*q))
		q++;
	if (q + 1 >= sc->end || *q != '=' || q[1] == '=' ||
	    sc->nvars == MAX_VARS)
		return p;
	for (q++; q < sc->end && is_blank(*q); q++)
		;
	buf_init(&lit);
	if (value(sc, &q, &lit, 0) && (q == sc->end || strchr(";\n", *q)) &&
	    sh_charge(sc->f->ps, len + lit.len)) {
		sc->vars[sc->nvars].name = arena_strndup(a, name, len);
		sc->vars[sc->nvars].nlen = len;
		sc->vars[sc->nvars].value = arena_strndup(a,
		    lit.data ? lit.data : "", lit.len);
		sc->vars[sc->nvars].vlen = lit.len;
		sc->nvars++;
		p = q;
	} else if ((r = dotted_end(sc, q)) > q &&
	    (r = skip_blanks(r, sc->end)) <= sc->end &&
	    (r == sc->end || strchr(";\n", *r) != NULL)) {
		/* run = os.system: run stands for it. */
		add_alias(sc, name, len, q, (size_t)(dotted_end(sc, q) - q));
		p = r;
	}
	buf_release(&lit);
	return p;
}

/* A name assigned a literal, as an argument: its value into out. */
static bool
var_value(struct scan *sc, const char **pp, struct buf *out)
{
	const char	*p = *pp, *q = p;
	size_t		 i;

	while (q < sc->end && is_name_char(*q))
		q++;
	if (q == p || !is_name_start(*p))
		return false;
	for (i = sc->nvars; i > 0; i--)
		if (sc->vars[i - 1].nlen == (size_t)(q - p) &&
		    memcmp(sc->vars[i - 1].name, p, (size_t)(q - p)) == 0)
			break;
	if (i == 0)
		return false;
	while (q < sc->end && is_blank(*q))
		q++;
	if (q < sc->end && strchr(",)]\n;|}", *q) == NULL)
		return false;		/* cmd + x, cmd.strip() */
	buf_reset(out);
	buf_add(out, sc->vars[i - 1].value, sc->vars[i - 1].vlen);
	*pp = q;
	return true;
}

#define MAX_VALUE_DEPTH	4	/* path.join(path.join(os.homedir() ... */

/* Appends the path part to path, as os.path.join does: "/x" restarts. */
static void
join_path(struct buf *path, const char *part, size_t len)
{
	if (len > 0 && part[0] == '/')
		buf_reset(path);
	else if (path->len > 0 && path->data[path->len - 1] != '/')
		buf_addc(path, '/');
	buf_add(path, part, len);
}

/*
 * What follows a python path value: .expanduser(), .resolve(),
 * .absolute() keep it; .joinpath(V) and / V join V to it.
 */
static const char *
path_suffixes(struct scan *sc, const char *p, struct buf *out, int depth)
{
	static const char *const same[] = {
		".expanduser()", ".resolve()", ".absolute()", NULL
	};
	const char	*end = sc->end, *q;
	const char *const *m;
	struct buf	 part;
	size_t		 n;

	buf_init(&part);
	for (;;) {
		q = skip_blanks(p, end);
		for (m = same; *m != NULL; m++)
			if ((size_t)(end - q) >= (n = strlen(*m)) &&
			    memcmp(q, *m, n) == 0)
				break;
		if (*m != NULL) {
			p = q + n;
			continue;
		}
		if (q < end && *q == '/')
			q = skip_blanks(q + 1, end);
		else if ((size_t)(end - q) > 10 &&
		    memcmp(q, ".joinpath(", 10) == 0)
			q += 10;
		else
			break;
		if (!value(sc, &q, &part, depth + 1))
			break;
		join_path(out, part.data, part.len);
		if (q < end && *q == ')' && p[0] != '/' &&
		    *skip_blanks(p, end) == '.')
			q++;
		p = q;
	}
	buf_release(&part);
	return p;
}

/*
 * A path function of values (struct pathfn_entry) at *pp, into out:
 * os.path.expanduser("~"), path.join(os.homedir(), ".ssh"),
 * Path.home() / ".aws", os.environ["HOME"], process.env.HOME,
 * $ENV{HOME}.  The home directory is written ~ and a variable $NAME,
 * as a shell rule knows them.  *pp moves past it.
 */
static bool
path_expr(struct scan *sc, const char **pp, struct buf *out, int depth)
{
	const struct pathfn_entry	*fn;
	const char			*p = *pp, *end = sc->end, *name, *q;
	struct buf			 arg;
	size_t				 nargs = 0;
	char				 close;

	if (depth > MAX_VALUE_DEPTH)
		return false;
	if (sc->lang == L_PERL && (size_t)(end - p) > 5 &&
	    memcmp(p, "$ENV{", 5) == 0) {
		p += 5;
		buf_init(&arg);
		if (!value(sc, &p, &arg, depth + 1)) {
			for (q = p; q < end && is_name_char(*q); q++)
				;
			buf_add(&arg, p, (size_t)(q - p));
			p = q;
		}
		if (p >= end || *p != '}' || arg.len == 0) {
			buf_release(&arg);
			return false;
		}
		buf_reset(out);
		buf_addc(out, '$');
		buf_add(out, arg.data, arg.len);
		buf_release(&arg);
		*pp = p + 1;
		return true;
	}
	if (p >= end || !is_name_start(*p))
		return false;
	for (name = p; p < end && (is_ident(*p) || (*p == '.' &&
	    p + 1 < end && is_name_start(p[1])) || (*p == ':' &&
	    p + 2 < end && p[1] == ':' && is_name_start(p[2])));)
		p += *p == ':' ? 2 : 1;
	/* process.env.HOME */
	if (sc->lang == L_NODE && (size_t)(p - name) > 12 &&
	    memcmp(name, "process.env.", 12) == 0) {
		buf_reset(out);
		buf_addc(out, '$');
		buf_add(out, name + 12, (size_t)(p - name - 12));
		*pp = p;
		return true;
	}
	buf_init(&arg);
	if (sc->lang == L_NODE && p - name == 7 &&
	    memcmp(name, "require", 7) == 0 && p < end && *p == '(') {
		/* require("os").homedir(): as os.homedir() */
		q = p + 1;
		if (literal(sc, &q, &arg) && q + 1 < end && *q == ')' &&
		    q[1] == '.' && is_name_start(q[2])) {
			for (p = q + 1; p < end && (is_ident(*p) ||
			    (*p == '.' && p + 1 < end && is_name_start(p[1])));
			    p++)
				;
			buf_add(&arg, q + 1, (size_t)(p - q - 1));
			fn = sh_find_pathfn(sc->lang, arg.data, arg.len);
		} else
			fn = NULL;
	} else if ((fn = sh_find_pathfn(sc->lang, name,
	    (size_t)(p - name))) == NULL &&
	    resolve_alias(sc, name, (size_t)(p - name), &arg))
		fn = sh_find_pathfn(sc->lang, arg.data, arg.len);
	buf_reset(&arg);
	if (fn == NULL) {
		buf_release(&arg);
		return false;
	}
	buf_reset(out);
	if (fn->kind == PF_HOME) {
		buf_release(&arg);
		if ((size_t)(end - p) >= 2 && p[0] == '(' && p[1] == ')')
			p += 2;
		buf_addc(out, '~');
		*pp = path_suffixes(sc, p, out, depth);
		return true;
	}
	if (p >= end || (*p != '(' && !(*p == '[' && fn->kind == PF_ENV))) {
		buf_release(&arg);
		return false;
	}
	close = *p == '(' ? ')' : ']';
	for (p++;; p++) {
		p = skip_blanks(p, end);
		if (!value(sc, &p, &arg, depth + 1))
			break;
		if (fn->kind == PF_ENV && nargs == 0)
			buf_addc(out, '$');
		if (fn->kind == PF_JOIN)
			join_path(out, arg.data, arg.len);
		else if (nargs == 0)
			buf_add(out, arg.data, arg.len);
		nargs++;
		p = skip_blanks(p, end);
		if (p >= end || *p != ',' || fn->kind != PF_JOIN)
			break;
	}
	buf_release(&arg);
	if (nargs == 0 || p >= end || *p != close ||
	    (nargs > 1 && fn->kind != PF_JOIN))
		return false;
	*pp = path_suffixes(sc, p + 1, out, depth);
	return true;
}

/*
 * A value computed from literals alone at *pp, into out: a string
 * literal, a name assigned one, or a path function of such values.
 */
static bool
value(struct scan *sc, const char **pp, struct buf *out, int depth)
{
	return literal(sc, pp, out) || var_value(sc, pp, out) ||
	    path_expr(sc, pp, out, depth);
}

/* Past a python keyword argument's name (path="/"), if p is at one. */
static const char *
keyword(const char *p, const char *end)
{
	const char	*q = p;

	if (p >= end || !is_name_start(*p))
		return p;
	while (q < end && is_name_char(*q))
		q++;
	if (q + 1 < end && *q == '=' && q[1] != '=')
		return q + 1;
	return p;
}

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
	args = p;
	buf_init(&lit);
	buf_init(&first);
	buf_init(&second);
	buf_init(&cmd);
	for (;;) {
		while (p < end && (is_blank(*p) || *p == '\n'))
			p++;
		if (sc->lang == L_PYTHON && keyword(p, end) != p) {
			/*
			 * path="/" names the first argument; after it, a
			 * keyword (cwd="x", shell=True) ends the words.
			 */
			if ((nwords > 0 || list) &&
			    !(nwords == 1 && strncmp(p, "mode", 4) == 0))
				break;		/* open(P, mode="w") goes on */
			p = keyword(p, end);
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
				if (!literal(sc, &p, &lit)) {
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
		} else if (nwords < MAX_CALL_ARGS && value(sc, &p, &lit, 0)) {
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

		if (!list && first.len > 0) {
			buf_adds(&lit, writes ? "tee " : "cat ");
			sh_add_quoted(&lit, first.data, first.len);
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

/*
 * Path("P").unlink(), .rmdir(), .write_text(), .read_text() ...: the
 * literal comes before the call.
 */
static const char *
path_call(struct scan *sc, const char *name, const char *p)
{
	static const struct {
		const char	*method;
		const char	*cmd;
	} methods[] = {
		{ ".unlink", "rm " }, { ".rmdir", "rmdir " },
		{ ".write_text", "tee " }, { ".write_bytes", "tee " },
		{ ".read_text", "cat " }, { ".read_bytes", "cat " },
	};
	const char	*end = sc->end, *q;
	struct buf	 lit, cmd;
	size_t		 i, n = 0;

	if (p >= end || *p != '(')
		return p;
	q = p + 1;
	buf_init(&lit);
	if (!literal(sc, &q, &lit) || q >= end || *q != ')') {
		buf_release(&lit);
		return p;
	}
	q++;
	for (i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
		n = strlen(methods[i].method);
		if ((size_t)(end - q) >= n && memcmp(q, methods[i].method, n) ==
		    0 && (q + n == end || !is_ident(q[n])))
			break;
	}
	if (i == sizeof(methods) / sizeof(methods[0])) {
		buf_release(&lit);
		return q;
	}
	buf_init(&cmd);
	buf_adds(&cmd, methods[i].cmd);
	sh_add_quoted(&cmd, lit.data, lit.len);
	emit(sc, cmd.data, cmd.len, name, q + n);
	buf_release(&cmd);
	buf_release(&lit);
	return q;
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
	t = skip_blanks(t, end);
	buf_init(&target);
	buf_init(&text);
	buf_init(&cmd);
	if ((size_t)(end - t) >= 7 && memcmp(t, "getline", 7) == 0 &&
	    sc->awk_last != NULL) {
		/* "CMD" | getline: the string before runs. */
		emit(sc, sc->awk_last, strlen(sc->awk_last), sc->awk_last_at,
		    t + 7);
		t += 7;
	} else if (value(sc, &t, &target, 0) && target.len > 0) {
		from = sc->awk_print != NULL ? sc->awk_print : p;
		if (sc->awk_print != NULL) {
			/* The expression printed: a string, or (a string). */
			const char *q = skip_blanks(sc->awk_print, p);
			if (q < p && *q == '(')
				q = skip_blanks(q + 1, p);
			if (value(sc, &q, &text, 0)) {
				e = skip_blanks(q, p);
				if (e < p && *e == ')')
					e = skip_blanks(e + 1, p);
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
	if (literal(sc, &q, &lit)) {
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

	q = skip_blanks(p, end);
	if (q >= end || is_ident(*q) || *q == ',' || *q == ';' ||
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
		while (p < end && is_ident(*p))
			buf_addc(out, *p++);
		q = skip_blanks(p, end);
		if (q >= end || *q != '.' || out->len >= MAX_NAME)
			break;
		q = skip_blanks(q + 1, end);
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
	const char	*q = skip_blanks(p, sc->end);
	struct buf	 lit;

	buf_init(&lit);
	if (value(sc, &q, &lit, 0) && lit.len > 0)
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
			p = node_destructure(sc, p);
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
		if (!is_name_start(*p) || (p > sc->start && (is_ident(p[-1]) ||
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
		while (p < end && (is_ident(*p) || (*p == '.' && p + 1 < end &&
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
			p = python_import(sc, len == 4, p);
			continue;
		}
		if (sc->lang == L_PYTHON && len >= 4 &&
		    memcmp(name + len - 4, "Path", 4) == 0) {
			p = path_call(sc, name, p);
			continue;
		}
		if (method_of_literal(sc, name))
			continue;	/* /x/.exec(...), $db->exec(...) */
		if ((cl = sh_find_call(sc->lang, name, len)) == NULL &&
		    resolve_alias(sc, name, len, &alias))
			cl = sh_find_call(sc->lang, alias.data, alias.len);
		if (cl != NULL)
			p = call_args(sc, cl, name, p);
		else if (sc->lang != L_PERL && sc->lang != L_PHP)
			p = assignment(sc, name, len, p);
	}
	buf_release(&alias);
	buf_release(&spaced);
}

static void
scan_text(struct frame *f, const struct interp *in, const struct sh_cmd *c,
    const char *text, size_t len)
{
	struct scan	sc;

	if (len == 0 || !sh_charge(f->ps, len))
		return;
	sc.f = f;
	sc.lang = in->lang;
	sc.prog = c->program;
	sc.start = text;
	sc.end = text + len;
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
		scan_text(f, in, c, text.data, text.len);
	else if (from_stdin && c->input != NULL)
		scan_text(f, in, c, c->input, strlen(c->input));
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
	if (!sh_program_text(in, c, &prog, &from_stdin) && from_stdin)
		scan_text(f, in, c, text, len);
	buf_release(&prog);
	return from_stdin;
}
