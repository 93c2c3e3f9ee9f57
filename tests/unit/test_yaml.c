/* The YAML loader: positions, limits and errors. */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "tap.h"
#include "yamlload.h"

static int
load(const char *text, struct ydoc *doc, struct diag_list *dl)
{
	diag_list_init(dl);
	return ydoc_load(doc, "t.yaml", text, strlen(text), dl);
}

int
main(void)
{
	struct ydoc		 doc;
	struct diag_list	 dl;
	struct ynode		*r, *v;
	struct buf		 b;
	long long		 n;
	int			 i;

	ok(load("a: 1\nb:\n  - x\n  - 'y z'\nc: {d: true}\n", &doc, &dl) == 0,
	    "loads a small document");
	r = doc.root;
	ok(r && r->type == YNODE_MAP && r->n == 3, "root is a 3-key map");
	v = ynode_get(r, "b");
	ok(v && v->type == YNODE_SEQ && v->n == 2, "b is a 2-item list");
	is_int(v->items[1]->line, 4, "second item on line 4");
	is_int(v->items[1]->col, 5, "second item at column 5 (1-based)");
	is_int(v->items[1]->style, YSTYLE_SINGLE, "quoted style kept");
	is_str(v->items[1]->str, "y z", "quoted text");
	ok(ynode_int(ynode_get(r, "a"), &n) && n == 1, "integer scalar");
	is_int(ynode_bool(ynode_get(ynode_get(r, "c"), "d")), 1, "boolean true");
	is_int(ynode_bool(ynode_get(r, "a")), -1, "1 is not a boolean");
	is_str(ynode_type_name(v), "a list", "type name of a sequence");
	ydoc_release(&doc);
	diag_list_release(&dl);

	/* Columns count characters, so carets line up under Korean text. */
	ok(load("k: 한글\nz: [1, 2\n", &doc, &dl) < 0, "syntax error fails");
	ok(dl.n == 1 && dl.items[0].code == DIAG_yaml_syntax, "one yaml_syntax diag");
	is_int(dl.items[0].line, 3, "error line points past the open flow");
	ydoc_release(&doc);
	diag_list_release(&dl);

	ok(load("a: 1\nb: 2\na: 3\n", &doc, &dl) == 0, "duplicate key loads");
	ok(dl.n == 1 && dl.items[0].code == DIAG_duplicate_key &&
	    dl.items[0].line == 3 && dl.items[0].col == 1,
	    "duplicate key reported at 3:1");
	ydoc_release(&doc);
	diag_list_release(&dl);

	ok(load("a: 1\n---\nb: 2\n", &doc, &dl) < 0 && dl.n == 1,
	    "a second document is an error");
	ydoc_release(&doc);
	diag_list_release(&dl);

	ok(load("a: *nope\n", &doc, &dl) < 0 && dl.n == 1,
	    "unknown alias is an error");
	ydoc_release(&doc);
	diag_list_release(&dl);

	/* The billion laughs: 9 levels of 9 aliases each. */
	buf_init(&b);
	buf_adds(&b, "a: &a [x,x,x,x,x,x,x,x,x]\n");
	for (i = 1; i < 9; i++)
		buf_printf(&b, "%c: &%c [*%c,*%c,*%c,*%c,*%c,*%c,*%c,*%c,*%c]\n",
		    'a' + i, 'a' + i, 'a' + i - 1, 'a' + i - 1, 'a' + i - 1,
		    'a' + i - 1, 'a' + i - 1, 'a' + i - 1, 'a' + i - 1,
		    'a' + i - 1, 'a' + i - 1);
	ok(load(b.data, &doc, &dl) < 0 && dl.n == 1 &&
	    dl.items[0].code == DIAG_yaml_limit, "alias bomb refused");
	ok(strstr(dl.items[0].message, "alias bomb") != NULL,
	    "the message names the alias bomb");
	ydoc_release(&doc);
	diag_list_release(&dl);
	buf_release(&b);

	/* Small aliases are fine and share the node. */
	ok(load("v: &v [a, b]\nw: *v\n", &doc, &dl) == 0 && dl.n == 0,
	    "a plain alias loads");
	ok(ynode_get(doc.root, "v") == ynode_get(doc.root, "w"),
	    "an alias shares its anchor's node");
	ydoc_release(&doc);
	diag_list_release(&dl);

	buf_init(&b);
	for (i = 0; i < 100000; i++)
		buf_addc(&b, '[');
	ok(load(b.data, &doc, &dl) < 0 && dl.n >= 1 &&
	    dl.items[0].code == DIAG_yaml_limit, "100,000-deep nesting refused");
	ydoc_release(&doc);
	diag_list_release(&dl);
	buf_release(&b);

	ok(load("", &doc, &dl) == 0 && doc.root == NULL, "empty file: no root");
	ydoc_release(&doc);
	diag_list_release(&dl);

	ok(load("a: \"\\xff\\u0000b\"\n", &doc, &dl) == 0, "escapes load");
	v = ynode_get(doc.root, "a");
	ok(v && v->len == 4, "scalar length counts an embedded NUL");
	ydoc_release(&doc);
	diag_list_release(&dl);
	return done_testing();
}
