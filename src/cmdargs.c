/*
 * The one command-line parser, driven by each command's option table, and
 * the usage and help texts printed from the same table (see cmdargs.h).
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cmdargs.h"
#include "xmalloc.h"

static size_t
option_count(const struct cmd_entry *e)
{
	size_t	n = 0;

	if (e->options != NULL)
		while (e->options[n].name != NULL)
			n++;
	return n;
}

/*
 * The row of e's table that arg names, with *inline_value set to the
 * value glued to it ("--NAME=VALUE", "-AVALUE"), or NULL.  A flag with a
 * glued value matches nothing: it is an unknown option.
 */
static const struct cmd_option *
option_find(const struct cmd_entry *e, const char *arg,
    const char **inline_value)
{
	const struct cmd_option	*o;
	const char		*p;
	size_t			 n;

	*inline_value = NULL;
	if (e->options == NULL)
		return NULL;
	for (o = e->options; o->name != NULL; o++) {
		if (arg[1] == '-') {
			n = strlen(o->name);
			if (strncmp(arg + 2, o->name, n) != 0)
				continue;
			p = arg + 2 + n;
			if (*p == '=' && o->value != NULL)
				*inline_value = p + 1;
			else if (*p != '\0')
				continue;
			return o;
		}
		if (o->alias == '\0' || arg[1] != o->alias)
			continue;
		if (arg[2] != '\0') {
			if (o->value == NULL)
				continue;
			*inline_value = arg + 2;
		}
		return o;
	}
	return NULL;
}

static void
option_set(struct cmd_optval *ov, const struct cmd_option *o,
    const char *value, int argc)
{
	if (ov->v == NULL)
		ov->v = xcalloc((size_t)argc + 1, sizeof(*ov->v));
	if ((o->flags & CMD_OPT_REPEAT) || ov->n == 0)
		ov->v[ov->n++] = value;
	else
		ov->v[0] = value;
}

int
cmd_args_parse(const struct cmd_entry *e, int argc, char **argv,
    struct cmd_args *a, char **err)
{
	const struct cmd_option	*o;
	const char		*arg, *v;
	int			 i, dashdash = 0;

	memset(a, 0, sizeof(*a));
	*err = NULL;
	a->entry = e;
	a->opts = xcalloc(option_count(e) + 1, sizeof(*a->opts));
	a->rest = xcalloc((size_t)argc + 1, sizeof(*a->rest));
	for (i = 0; i < argc; i++) {
		arg = argv[i];
		if (dashdash || arg[0] != '-' || arg[1] == '\0') {
			if (e->verbs != NULL) {
				/* The verb: the rest is its to parse. */
				while (i < argc)
					a->rest[a->nrest++] = argv[i++];
				break;
			}
			if (e->upper >= 0 && a->nrest >= e->upper) {
				*err = xasprintf("unexpected argument '%s'",
				    arg);
				goto fail;
			}
			a->rest[a->nrest++] = argv[i];
			continue;
		}
		if (strcmp(arg, "--") == 0) {
			dashdash = 1;
			continue;
		}
		if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
			a->help = true;
			continue;
		}
		if ((o = option_find(e, arg, &v)) == NULL) {
			*err = xasprintf("unknown option '%s'", arg);
			goto fail;
		}
		if (o->value == NULL)
			v = arg;
		else if (v == NULL) {
			if (i + 1 >= argc) {
				*err = xasprintf("option '%s' needs a value",
				    arg);
				goto fail;
			}
			v = argv[++i];
		}
		option_set(&a->opts[o - e->options], o, v, argc);
	}
	/* Help needs no arguments: "import --help" is not an error. */
	if (!a->help && a->nrest < e->lower)
		goto fail;
	return 0;

fail:
	cmd_args_release(a);
	return -1;
}

void
cmd_args_release(struct cmd_args *a)
{
	size_t	i, n;

	if (a->entry != NULL && a->opts != NULL) {
		n = option_count(a->entry);
		for (i = 0; i < n; i++)
			free(a->opts[i].v);
	}
	free(a->opts);
	free(a->rest);
	memset(a, 0, sizeof(*a));
}

static const struct cmd_optval *
optval(const struct cmd_args *a, int id)
{
	const struct cmd_option	*o;

	if (a->entry == NULL || a->entry->options == NULL)
		return NULL;
	for (o = a->entry->options; o->name != NULL; o++)
		if (o->id == id)
			return &a->opts[o - a->entry->options];
	return NULL;
}

bool
cmd_args_has(const struct cmd_args *a, int id)
{
	const struct cmd_optval	*ov = optval(a, id);

	return ov != NULL && ov->n > 0;
}

const char *
cmd_args_get(const struct cmd_args *a, int id)
{
	const struct cmd_optval	*ov = optval(a, id);

	return ov != NULL && ov->n > 0 ? ov->v[ov->n - 1] : NULL;
}

const char **
cmd_args_values(const struct cmd_args *a, int id, size_t *n)
{
	const struct cmd_optval	*ov = optval(a, id);

	*n = ov != NULL ? ov->n : 0;
	return *n > 0 ? ov->v : NULL;
}

/* "add" for verb "kb add" of kb; main's commands are named as they are. */
static const char *
verb_word(const struct cmd_entry *e, const struct cmd_entry *verb)
{
	size_t	n = strlen(e->name);

	if (n > 0 && strncmp(verb->name, e->name, n) == 0 &&
	    verb->name[n] == ' ')
		return verb->name + n + 1;
	return verb->name;
}

const struct cmd_entry *
cmd_find_verb(const struct cmd_entry *e, const char *word)
{
	const struct cmd_entry *const	*v;

	if (e->verbs == NULL)
		return NULL;
	for (v = e->verbs; *v != NULL; v++)
		if (strcmp(verb_word(e, *v), word) == 0)
			return *v;
	return NULL;
}

/* "[--rules PATH]... [--exit2] < event.json", from the table. */
static void
synopsis(const struct cmd_entry *e, struct buf *b)
{
	const struct cmd_option		*o;
	const struct cmd_entry *const	*v;

	for (o = e->options; o != NULL && o->name != NULL; o++) {
		buf_adds(b, b->len ? " [" : "[");
		if (o->alias != '\0')
			buf_printf(b, "-%c|", o->alias);
		buf_printf(b, "--%s", o->name);
		if (o->value != NULL)
			buf_printf(b, " %s", o->value);
		buf_adds(b, (o->flags & CMD_OPT_REPEAT) ? "]..." : "]");
	}
	if (e->verbs != NULL) {
		if (b->len)
			buf_addc(b, ' ');
		for (v = e->verbs; *v != NULL; v++)
			buf_printf(b, "%s%s", v == e->verbs ? "" : "|",
			    verb_word(e, *v));
	}
	if (e->args != NULL)
		buf_printf(b, "%s%s", b->len ? " " : "", e->args);
}

void
cmd_print_synopsis(const struct cmd_entry *e, FILE *fp)
{
	struct buf	b;

	buf_init(&b);
	synopsis(e, &b);
	fputs(b.data, fp);
	buf_release(&b);
}

/* "usage: reflexion-rules NAME SYNOPSIS", without the newline. */
static void
usage_line(const char *lead, const struct cmd_entry *e, FILE *fp)
{
	struct buf	b;

	buf_init(&b);
	synopsis(e, &b);
	fprintf(fp, "%s reflexion-rules %s%s%s", lead, e->name,
	    b.len ? " " : "", b.data);
	buf_release(&b);
}

void
cmd_print_help(const struct cmd_entry *e, FILE *fp)
{
	const struct cmd_entry *const	*v;

	if (e->verbs == NULL)
		usage_line("usage:", e, fp);
	else
		for (v = e->verbs; *v != NULL; v++)
			usage_line(v == e->verbs ? "usage:" : "\n      ", *v,
			    fp);
	fprintf(fp, "\n\n%s\n\nSee reflexion-rules(1).\n", e->summary);
}

int
cmd_usage(const struct cmd_entry *e, char *err)
{
	if (err != NULL) {
		fprintf(stderr, "reflexion-rules%s%s: %s\n", *e->name ? " " :
		    "", e->name, err);
		free(err);
	}
	usage_line("usage:", e, stderr);
	fputc('\n', stderr);
	return RR_EXIT_USAGE;
}
