/*
 * The values of an interpreter one-liner's program, for its reader
 * (shellinterp.c, see shellinterp_priv.h): string literals, names
 * assigned one, the path functions of such values (os.path.expanduser,
 * Path.home() / "x", path.join, process.env.HOME ...), and the other
 * names a module or a call goes by (import ... as, from M import f,
 * r = os.system, const {x: y} = require(...)).  Everything read is
 * bounded: MAX_VARS names, MAX_ALIASES aliases, MAX_VALUE_DEPTH nested
 * path calls, and the bytes kept are charged to the work budget.  This
 * file calls the lexer's sh_charge() and the tables only.
 */
#include <stddef.h>
#include <string.h>

#include "buf.h"
#include "shellinterp_priv.h"
#include "shellwords_priv.h"

bool
ip_is_ident(char c)
{
	return is_name_char(c);
}

const char *
ip_skip_blanks(const char *p, const char *end)
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
bool
ip_literal(struct scan *sc, const char **pp, struct buf *out)
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
const char *
ip_dotted_end(const struct scan *sc, const char *p)
{
	const char	*end = sc->end;

	if (p >= end || !is_name_start(*p))
		return p;
	while (p < end && (ip_is_ident(*p) || (*p == '.' && p + 1 < end &&
	    is_name_start(p[1]))))
		p++;
	return p;
}

/*
 * The dotted name name[0..len) with its first part replaced by what an
 * alias stands for, into out (at most MAX_NAME bytes); false when its
 * first part is no alias.
 */
bool
ip_resolve_alias(const struct scan *sc, const char *name, size_t len,
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
const char *
ip_python_import(struct scan *sc, bool from, const char *p)
{
	const char	*end = sc->end, *mod = NULL, *a, *ae, *b, *be;
	struct buf	 target;
	size_t		 modlen = 0;

	buf_init(&target);
	if (from) {
		p = ip_skip_blanks(p, end);
		mod = p;
		p = ip_dotted_end(sc, p);
		modlen = (size_t)(p - mod);
		p = ip_skip_blanks(p, end);
		if (modlen == 0 || (size_t)(end - p) < 6 ||
		    memcmp(p, "import", 6) != 0) {
			buf_release(&target);
			return p;
		}
		p += 6;
	}
	for (;;) {
		p = ip_skip_blanks(p, end);
		if (p < end && *p == '(')
			p = ip_skip_blanks(p + 1, end);
		a = p;
		ae = p = ip_dotted_end(sc, p);
		if (ae == a)
			break;
		b = a;
		be = ae;
		p = ip_skip_blanks(p, end);
		if ((size_t)(end - p) > 3 && memcmp(p, "as", 2) == 0 &&
		    is_blank(p[2])) {
			b = ip_skip_blanks(p + 2, end);
			be = p = ip_dotted_end(sc, b);
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
		p = ip_skip_blanks(p, end);
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
const char *
ip_node_destructure(struct scan *sc, const char *p)
{
	const char	*end = sc->end, *q, *close, *a, *ae, *b, *be;
	struct buf	 mod, target;

	close = memchr(p, '}', (size_t)(end - p));
	if (close == NULL || close - p > 512)
		return p + 1;
	q = ip_skip_blanks(close + 1, end);
	if (q >= end || *q != '=')
		return p + 1;
	q = ip_skip_blanks(q + 1, end);
	if ((size_t)(end - q) < 8 || memcmp(q, "require(", 8) != 0)
		return p + 1;
	q += 8;
	buf_init(&mod);
	buf_init(&target);
	if (ip_literal(sc, &q, &mod) && mod.len > 0) {
		for (p++; p < close;) {
			p = ip_skip_blanks(p, close);
			while (p < close && (*p == '\n' || *p == ','))
				p = ip_skip_blanks(p + 1, close);
			a = p;
			ae = p = ip_dotted_end(sc, p);
			if (ae == a)
				break;
			b = a;
			be = ae;
			p = ip_skip_blanks(p, close);
			if (p < close && *p == ':') {
				b = ip_skip_blanks(p + 1, close);
				be = p = ip_dotted_end(sc, b);
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
 * Past python's annotation of an assigned name (p: str = ..., p:
 * Optional[str] = ...), q at the colon and its blanks after; q when
 * there is none (a dict's key: value, a walrus :=, a slice).
 */
static const char *
annotation_end(const struct scan *sc, const char *q)
{
	const char	*end = sc->end, *r;
	int		 depth = 0;

	if (q + 1 >= end || *q != ':' || q[1] == '=')
		return q;
	r = ip_skip_blanks(q + 1, end);
	if ((r = ip_dotted_end(sc, r)) == ip_skip_blanks(q + 1, end))
		return q;
	for (; r < end && *r != '\n'; r++) {
		if (*r == '[')
			depth++;
		else if (*r == ']' && depth > 0)
			depth--;
		else if (depth == 0 && !is_blank(*r) && *r != '|' &&
		    !ip_is_ident(*r) && *r != '.')
			break;
	}
	r = ip_skip_blanks(r, end);
	return r < end && *r == '=' ? r : q;
}

/*
 * NAME = "literal" at name (len bytes), p after the name: remembered, so
 * that cmd = "rm -rf /"; os.system(cmd) is read as the literal.  Returns
 * where the scan goes on.
 */
const char *
ip_assignment(struct scan *sc, const char *name, size_t len, const char *p)
{
	struct arena	*a = &sc->f->ps->sc->arena;
	const char	*q = p, *r;
	struct buf	 lit;

	while (q < sc->end && is_blank(*q))
		q++;
	if (sc->lang == L_PYTHON)
		q = annotation_end(sc, q);
	if (q + 1 >= sc->end || *q != '=' || q[1] == '=' ||
	    sc->nvars == MAX_VARS)
		return p;
	for (q++; q < sc->end && is_blank(*q); q++)
		;
	buf_init(&lit);
	if (ip_value(sc, &q, &lit, 0) && (q == sc->end || strchr(";\n", *q)) &&
	    sh_charge(sc->f->ps, len + lit.len)) {
		sc->vars[sc->nvars].name = arena_strndup(a, name, len);
		sc->vars[sc->nvars].nlen = len;
		sc->vars[sc->nvars].value = arena_strndup(a,
		    lit.data ? lit.data : "", lit.len);
		sc->vars[sc->nvars].vlen = lit.len;
		sc->nvars++;
		p = q;
	} else if ((r = ip_dotted_end(sc, q)) > q &&
	    (r = ip_skip_blanks(r, sc->end)) <= sc->end &&
	    (r == sc->end || strchr(";\n", *r) != NULL)) {
		/* run = os.system: run stands for it. */
		add_alias(sc, name, len, q, (size_t)(ip_dotted_end(sc, q) - q));
		p = r;
	}
	buf_release(&lit);
	return p;
}

#define MAX_VALUE_DEPTH	4	/* path.join(path.join(os.homedir() ... */

/* The value of the name[0..len) assigned last, into out.  Whether any. */
bool
ip_var(struct scan *sc, const char *name, size_t len, struct buf *out)
{
	size_t	i;

	for (i = sc->nvars; i > 0; i--)
		if (sc->vars[i - 1].nlen == len &&
		    memcmp(sc->vars[i - 1].name, name, len) == 0)
			break;
	if (i == 0)
		return false;
	buf_reset(out);
	buf_add(out, sc->vars[i - 1].value, sc->vars[i - 1].vlen);
	return true;
}

/*
 * A name assigned a literal, as an argument: its value into out.  The
 * name may be dotted (cfg.path = ".env"; readFileSync(cfg.path)).
 */
static bool
var_value(struct scan *sc, const char **pp, struct buf *out)
{
	const char	*p = *pp, *q, *r;

	if (p >= sc->end || !is_name_start(*p))
		return false;
	q = ip_dotted_end(sc, p);
	for (r = q; r < sc->end && is_blank(*r); r++)
		;
	if (r < sc->end && strchr(",)]\n;|}", *r) == NULL)
		return false;		/* cmd + x, cmd.strip() */
	if (!ip_var(sc, p, (size_t)(q - p), out))
		return false;
	*pp = r;
	return true;
}

/*
 * ("literal"), a value in parentheses (python's p = ('.env')); not a
 * tuple, nor one an operator computes on.
 */
static bool
paren_value(struct scan *sc, const char **pp, struct buf *out, int depth)
{
	const char	*q = *pp;

	if (q >= sc->end || *q != '(' || depth > MAX_VALUE_DEPTH)
		return false;
	q = ip_skip_blanks(q + 1, sc->end);
	if (!ip_value(sc, &q, out, depth + 1))
		return false;
	q = ip_skip_blanks(q, sc->end);
	if (q >= sc->end || *q != ')')
		return false;
	q = ip_skip_blanks(q + 1, sc->end);
	if (q < sc->end && strchr("+%*", *q) != NULL)
		return false;
	*pp = q;
	return true;
}


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
		q = ip_skip_blanks(p, end);
		for (m = same; *m != NULL; m++)
			if ((size_t)(end - q) >= (n = strlen(*m)) &&
			    memcmp(q, *m, n) == 0)
				break;
		if (*m != NULL) {
			p = q + n;
			continue;
		}
		if (q < end && *q == '/')
			q = ip_skip_blanks(q + 1, end);
		else if ((size_t)(end - q) > 10 &&
		    memcmp(q, ".joinpath(", 10) == 0)
			q += 10;
		else
			break;
		if (!ip_value(sc, &q, &part, depth + 1))
			break;
		join_path(out, part.data, part.len);
		if (q < end && *q == ')' && p[0] != '/' &&
		    *ip_skip_blanks(p, end) == '.')
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
		if (!ip_value(sc, &p, &arg, depth + 1)) {
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
	for (name = p; p < end && (ip_is_ident(*p) || (*p == '.' &&
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
		if (ip_literal(sc, &q, &arg) && q + 1 < end && *q == ')' &&
		    q[1] == '.' && is_name_start(q[2])) {
			for (p = q + 1; p < end && (ip_is_ident(*p) ||
			    (*p == '.' && p + 1 < end && is_name_start(p[1])));
			    p++)
				;
			buf_add(&arg, q + 1, (size_t)(p - q - 1));
			fn = sh_find_pathfn(sc->lang, arg.data, arg.len);
		} else
			fn = NULL;
	} else if ((fn = sh_find_pathfn(sc->lang, name,
	    (size_t)(p - name))) == NULL &&
	    ip_resolve_alias(sc, name, (size_t)(p - name), &arg))
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
		p = ip_skip_blanks(p, end);
		if (!ip_value(sc, &p, &arg, depth + 1))
			break;
		if (fn->kind == PF_ENV && nargs == 0)
			buf_addc(out, '$');
		if (fn->kind == PF_JOIN)
			join_path(out, arg.data, arg.len);
		else if (nargs == 0)
			buf_add(out, arg.data, arg.len);
		nargs++;
		p = ip_skip_blanks(p, end);
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

/* The expressions that read a program's standard input whole. */
static const struct {
	enum lang	 lang;
	const char	*expr;
} stdin_reads[] = {
	{ L_PYTHON, "sys.stdin.read()" },
	{ L_PYTHON, "sys.stdin.buffer.read()" },
	{ L_PYTHON, "open(0).read()" },
	{ L_RUBY, "STDIN.read" },
	{ L_RUBY, "$stdin.read" },
	{ L_NODE, "fs.readFileSync(0, 'utf8')" },
	{ L_NODE, "fs.readFileSync(0, \"utf8\")" },
	{ L_NODE, "fs.readFileSync(0)" },
};
#define NSTDIN_READS	(sizeof(stdin_reads) / sizeof(stdin_reads[0]))

bool
ip_reads_stdin(enum lang lang, const char *prog, size_t len)
{
	size_t	i;

	for (i = 0; i < NSTDIN_READS; i++)
		if (stdin_reads[i].lang == lang && memmem(prog, len,
		    stdin_reads[i].expr, strlen(stdin_reads[i].expr)) != NULL)
			return true;
	return false;
}

/*
 * The program's standard input read whole, when the command gives it a
 * known text (python3 -c 'exec(sys.stdin.read())' <<EOF ... EOF): that
 * text.
 */
static bool
stdin_value(struct scan *sc, const char **pp, struct buf *out)
{
	const char	*p = *pp;
	size_t		 i, n;

	if (sc->input == NULL)
		return false;
	for (i = 0; i < NSTDIN_READS; i++) {
		n = strlen(stdin_reads[i].expr);
		if (stdin_reads[i].lang == sc->lang &&
		    (size_t)(sc->end - p) >= n &&
		    memcmp(p, stdin_reads[i].expr, n) == 0 &&
		    (p + n == sc->end || !ip_is_ident(p[n])))
			break;
	}
	if (i == NSTDIN_READS ||
	    !sh_charge(sc->f->ps, strlen(sc->input)))
		return false;
	buf_reset(out);
	buf_adds(out, sc->input);
	*pp = ip_skip_blanks(p + n, sc->end);
	return true;
}

/*
 * A value computed from literals alone at *pp, into out: a string
 * literal, a name assigned one, a path function of such values, or the
 * standard input when the command line gives it.
 */
bool
ip_value(struct scan *sc, const char **pp, struct buf *out, int depth)
{
	return ip_literal(sc, pp, out) || var_value(sc, pp, out) ||
	    path_expr(sc, pp, out, depth) ||
	    paren_value(sc, pp, out, depth) || stdin_value(sc, pp, out);
}

/* Past a python keyword argument's name (path="/"), if p is at one. */
const char *
ip_keyword(const char *p, const char *end)
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
