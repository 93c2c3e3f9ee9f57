#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "xmalloc.h"
#include "yamlhint.h"
#include "yamlload.h"

struct anchor {
	const char	*name;
	struct ynode	*node;
};

/* One open collection while events are consumed. */
struct frame {
	struct ynode	 *node;
	struct ynode	**items;
	size_t		  n, cap;
	const char	 *anchor;
};

struct loader {
	struct ydoc	*doc;
	struct diag_list *diags;
	struct frame	*stack;
	size_t		 depth, stack_cap;
	struct anchor	*anchors;
	size_t		 nanchors, anchors_cap;
	size_t		 alias_weight;	/* nodes added by aliases */
};

static void
set_start(struct ynode *n, yaml_mark_t m)
{
	n->line = (int)m.line + 1;
	n->col = (int)m.column + 1;
}

static void
set_end(struct ynode *n, yaml_mark_t m)
{
	/* libyaml's end mark points one past the node. */
	n->end_line = (int)m.line + 1;
	n->end_col = (int)m.column;
	if (n->end_col < 1) {
		n->end_line = n->line;
		n->end_col = n->col;
	}
}

static void
loc_at(struct loader *l, int line, int col, struct diag_loc *loc)
{
	memset(loc, 0, sizeof(*loc));
	loc->file = l->doc->file;
	loc->line = line;
	loc->col = col;
	loc->text = l->doc->text;
	loc->text_len = l->doc->text_len;
}

static void
frame_push_item(struct frame *f, struct ynode *item)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 8;
		f->items = xreallocarray(f->items, f->cap, sizeof(*f->items));
	}
	f->items[f->n++] = item;
}

static void
add_anchor(struct loader *l, const char *name, struct ynode *node)
{
	if (name == NULL)
		return;
	if (l->nanchors == l->anchors_cap) {
		l->anchors_cap = l->anchors_cap ? l->anchors_cap * 2 : 8;
		l->anchors = xreallocarray(l->anchors, l->anchors_cap,
		    sizeof(*l->anchors));
	}
	l->anchors[l->nanchors].name = name;
	l->anchors[l->nanchors].node = node;
	l->nanchors++;
}

static struct ynode *
find_anchor(struct loader *l, const char *name)
{
	size_t	i;

	/* Latest definition wins, as YAML says an anchor may be redefined. */
	for (i = l->nanchors; i > 0; i--)
		if (strcmp(l->anchors[i - 1].name, name) == 0)
			return l->anchors[i - 1].node;
	return NULL;
}

/* Attaches a finished node to its parent (or makes it the root). */
static void
attach(struct loader *l, struct ynode *node)
{
	if (l->depth == 0) {
		l->doc->root = node;
		return;
	}
	frame_push_item(&l->stack[l->depth - 1], node);
}

/*
 * An alias is where expansion multiplies: every alias adds its target's
 * expanded size, so nested aliases (the billion laughs) add up
 * exponentially while a file without aliases adds nothing.
 */
static int
attach_alias(struct loader *l, struct ynode *target, yaml_mark_t mark)
{
	struct diag_loc	loc;

	l->alias_weight += target->weight;
	if (l->alias_weight > YAML_MAX_WEIGHT) {
		loc_at(l, (int)mark.line + 1, (int)mark.column + 1, &loc);
		diag_add(l->diags, DIAG_ERROR, DIAG_yaml_limit, &loc,
		    "YAML aliases expand to more than %u nodes (alias bomb?)",
		    YAML_MAX_WEIGHT);
		return -1;
	}
	attach(l, target);
	return 0;
}

static const char *
dup_opt(struct arena *a, const yaml_char_t *s)
{
	return s ? arena_strdup(a, (const char *)s) : NULL;
}

static int
open_collection(struct loader *l, enum ynode_type type, yaml_event_t *ev,
    const yaml_char_t *anchor, const yaml_char_t *tag)
{
	struct arena	*a = &l->doc->arena;
	struct ynode	*n;
	struct frame	*f;
	struct diag_loc	 loc;

	if (l->depth >= YAML_MAX_DEPTH) {
		loc_at(l, (int)ev->start_mark.line + 1,
		    (int)ev->start_mark.column + 1, &loc);
		diag_add(l->diags, DIAG_ERROR, DIAG_yaml_limit, &loc,
		    "YAML nests deeper than %d levels", YAML_MAX_DEPTH);
		return -1;
	}
	n = arena_alloc(a, sizeof(*n));
	n->type = type;
	n->tag = dup_opt(a, tag);
	set_start(n, ev->start_mark);
	if (l->depth == l->stack_cap) {
		l->stack_cap = l->stack_cap ? l->stack_cap * 2 : 16;
		l->stack = xreallocarray(l->stack, l->stack_cap,
		    sizeof(*l->stack));
	}
	f = &l->stack[l->depth++];
	memset(f, 0, sizeof(*f));
	f->node = n;
	f->anchor = dup_opt(a, anchor);
	return 0;
}

static int
close_collection(struct loader *l, yaml_event_t *ev)
{
	struct arena	*a = &l->doc->arena;
	struct frame	*f = &l->stack[--l->depth];
	struct ynode	*n = f->node;
	struct diag_loc	 loc;
	size_t		 i, j, w = 1;

	set_end(n, ev->end_mark);
	n->n = f->n;
	if (f->n) {
		n->items = arena_alloc(a, f->n * sizeof(*n->items));
		memcpy(n->items, f->items, f->n * sizeof(*n->items));
	}
	free(f->items);
	for (i = 0; i < n->n; i++)
		w += n->items[i]->weight;
	n->weight = w;
	if (n->type == YNODE_MAP) {
		n->n /= 2;
		/* Duplicate keys: YAML forbids them, and the later would win silently. */
		for (i = 0; i < n->n; i++) {
			struct ynode *k = n->items[2 * i];
			if (k->type != YNODE_SCALAR)
				continue;
			for (j = 0; j < i; j++) {
				struct ynode *k2 = n->items[2 * j];
				if (k2->type == YNODE_SCALAR &&
				    k2->len == k->len &&
				    memcmp(k2->str, k->str, k->len) == 0) {
					ydoc_loc(l->doc, k, &loc);
					diag_add(l->diags, DIAG_ERROR,
					    DIAG_duplicate_key, &loc,
					    "duplicate key '%s' (first at line %d)",
					    k->str, k2->line);
					break;
				}
			}
		}
	}
	if (f->anchor)
		add_anchor(l, f->anchor, n);
	attach(l, n);
	return 0;
}

static enum yscalar_style
map_style(yaml_scalar_style_t s)
{
	switch (s) {
	case YAML_SINGLE_QUOTED_SCALAR_STYLE:	return YSTYLE_SINGLE;
	case YAML_DOUBLE_QUOTED_SCALAR_STYLE:	return YSTYLE_DOUBLE;
	case YAML_LITERAL_SCALAR_STYLE:		return YSTYLE_LITERAL;
	case YAML_FOLDED_SCALAR_STYLE:		return YSTYLE_FOLDED;
	default:				return YSTYLE_PLAIN;
	}
}

int
ydoc_load(struct ydoc *doc, const char *file, const char *text, size_t len,
    struct diag_list *diags)
{
	struct loader	 l;
	yaml_parser_t	 parser;
	yaml_event_t	 ev;
	struct ynode	*n, *target;
	struct diag_loc	 loc;
	struct diag	*d;
	char		*hint;
	int		 rc = 0, done = 0, docs = 0;

	memset(doc, 0, sizeof(*doc));
	arena_init(&doc->arena);
	doc->file = file;
	doc->text = arena_strndup(&doc->arena, text, len);
	doc->text_len = len;
	memset(&l, 0, sizeof(l));
	l.doc = doc;
	l.diags = diags;

	if (!yaml_parser_initialize(&parser)) {
		loc_at(&l, 0, 0, &loc);
		diag_add(diags, DIAG_ERROR, DIAG_io, &loc,
		    "cannot initialize the YAML parser");
		return -1;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)doc->text,
	    len);
	while (!done) {
		if (!yaml_parser_parse(&parser, &ev)) {
			loc_at(&l, (int)parser.problem_mark.line + 1,
			    (int)parser.problem_mark.column + 1, &loc);
			d = diag_add(diags, DIAG_ERROR, DIAG_yaml_syntax, &loc,
			    "%s%s%s", parser.problem ? parser.problem :
			    "syntax error", parser.context ? " " : "",
			    parser.context ? parser.context : "");
			if ((hint = yaml_syntax_hint(doc->text, len,
			    loc.line, loc.col, parser.problem, parser.context,
			    parser.context ? (int)parser.context_mark.line + 1 :
			    0, (int)parser.context_mark.column + 1)) != NULL) {
				diag_set_hint(d, "%s", hint);
				free(hint);
			}
			rc = -1;
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1) {
				loc_at(&l, (int)ev.start_mark.line + 1,
				    (int)ev.start_mark.column + 1, &loc);
				diag_add(diags, DIAG_ERROR, DIAG_yaml_syntax,
				    &loc, "a rule file holds one YAML document; "
				    "found a second one");
				rc = -1;
				done = 1;
			}
			break;
		case YAML_SCALAR_EVENT:
			n = arena_alloc(&doc->arena, sizeof(*n));
			n->type = YNODE_SCALAR;
			n->style = map_style(ev.data.scalar.style);
			n->tag = dup_opt(&doc->arena, ev.data.scalar.tag);
			n->str = arena_strndup(&doc->arena,
			    (const char *)ev.data.scalar.value,
			    ev.data.scalar.length);
			n->len = ev.data.scalar.length;
			n->weight = 1;
			set_start(n, ev.start_mark);
			set_end(n, ev.end_mark);
			if (ev.data.scalar.anchor)
				add_anchor(&l, dup_opt(&doc->arena,
				    ev.data.scalar.anchor), n);
			attach(&l, n);
			break;
		case YAML_ALIAS_EVENT:
			target = find_anchor(&l,
			    (const char *)ev.data.alias.anchor);
			if (target == NULL) {
				loc_at(&l, (int)ev.start_mark.line + 1,
				    (int)ev.start_mark.column + 1, &loc);
				diag_add(diags, DIAG_ERROR, DIAG_yaml_syntax,
				    &loc, "unknown alias '*%s'",
				    (const char *)ev.data.alias.anchor);
				rc = -1;
				done = 1;
			} else if (attach_alias(&l, target, ev.start_mark) < 0) {
				rc = -1;
				done = 1;
			}
			break;
		case YAML_SEQUENCE_START_EVENT:
			if (open_collection(&l, YNODE_SEQ, &ev,
			    ev.data.sequence_start.anchor,
			    ev.data.sequence_start.tag) < 0) {
				rc = -1;
				done = 1;
			}
			break;
		case YAML_MAPPING_START_EVENT:
			if (open_collection(&l, YNODE_MAP, &ev,
			    ev.data.mapping_start.anchor,
			    ev.data.mapping_start.tag) < 0) {
				rc = -1;
				done = 1;
			}
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			if (close_collection(&l, &ev) < 0) {
				rc = -1;
				done = 1;
			}
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	while (l.depth > 0)
		free(l.stack[--l.depth].items);
	free(l.stack);
	free(l.anchors);
	if (rc < 0)
		doc->root = NULL;
	return rc;
}

void
ydoc_release(struct ydoc *doc)
{
	arena_release(&doc->arena);
	doc->root = NULL;
}

void
ydoc_loc(const struct ydoc *doc, const struct ynode *n, struct diag_loc *loc)
{
	memset(loc, 0, sizeof(*loc));
	loc->file = doc->file;
	loc->text = doc->text;
	loc->text_len = doc->text_len;
	if (n == NULL)
		return;
	loc->line = n->line;
	loc->col = n->col;
	loc->end_line = n->end_line;
	loc->end_col = n->end_col;
}

/* Index of key in a mapping, or -1. */
static long
key_index(const struct ynode *map, const char *key)
{
	size_t	i, klen = strlen(key);

	if (map == NULL || map->type != YNODE_MAP)
		return -1;
	for (i = 0; i < map->n; i++) {
		struct ynode *k = map->items[2 * i];
		if (k->type == YNODE_SCALAR && k->len == klen &&
		    memcmp(k->str, key, klen) == 0)
			return (long)i;
	}
	return -1;
}

struct ynode *
ynode_get_key(const struct ynode *map, const char *key)
{
	long	i = key_index(map, key);

	return i < 0 ? NULL : map->items[2 * i];
}

struct ynode *
ynode_get(const struct ynode *map, const char *key)
{
	long	i = key_index(map, key);

	return i < 0 ? NULL : map->items[2 * i + 1];
}

bool
ynode_is_null(const struct ynode *n)
{
	if (n == NULL)
		return true;
	if (n->type != YNODE_SCALAR || n->style != YSTYLE_PLAIN)
		return false;
	return n->len == 0 || strcmp(n->str, "~") == 0 ||
	    strcmp(n->str, "null") == 0 || strcmp(n->str, "Null") == 0 ||
	    strcmp(n->str, "NULL") == 0;
}

int
ynode_bool(const struct ynode *n)
{
	if (n == NULL || n->type != YNODE_SCALAR || n->style != YSTYLE_PLAIN)
		return -1;
	if (!strcmp(n->str, "true") || !strcmp(n->str, "True") ||
	    !strcmp(n->str, "TRUE"))
		return 1;
	if (!strcmp(n->str, "false") || !strcmp(n->str, "False") ||
	    !strcmp(n->str, "FALSE"))
		return 0;
	return -1;
}

bool
ynode_int(const struct ynode *n, long long *out)
{
	char	*end;

	if (n == NULL || n->type != YNODE_SCALAR || n->style != YSTYLE_PLAIN ||
	    n->len == 0)
		return false;
	*out = strtoll(n->str, &end, 10);
	return *end == '\0';
}

const char *
ynode_type_name(const struct ynode *n)
{
	if (n == NULL || ynode_is_null(n))
		return "null";
	switch (n->type) {
	case YNODE_SCALAR:
		if (ynode_bool(n) >= 0)
			return "a boolean";
		return "a string";
	case YNODE_SEQ:
		return "a list";
	case YNODE_MAP:
		return "a mapping";
	}
	return "a value";
}
