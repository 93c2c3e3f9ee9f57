/*
 * The YAML writer: every string written as a scalar or as a text block
 * reads back, through the YAML loader the compiler uses, as itself.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "tap.h"
#include "yamlload.h"
#include "yamlw.h"

/* Writes s both ways, loads the document, compares; returns 1 if equal. */
static int
round_trip(const char *s, size_t len, char **shown)
{
	struct buf		 b;
	struct ydoc		 doc;
	struct diag_list	 dl;
	const struct ynode	*v, *t;
	int			 same = 0;

	buf_init(&b);
	buf_adds(&b, "list:\n  - key: ");
	yamlw_scalar(&b, s, len);
	buf_adds(&b, "\n    text:");
	yamlw_text(&b, s, len, 4);
	buf_adds(&b, "    after: 1\n");
	diag_list_init(&dl);
	if (ydoc_load(&doc, "t.yaml", b.data, b.len, &dl) == 0 &&
	    doc.root != NULL && (v = ynode_get(doc.root, "list")) != NULL &&
	    v->type == YNODE_SEQ && v->n == 1) {
		t = ynode_get(v->items[0], "text");
		v = ynode_get(v->items[0], "key");
		same = v != NULL && t != NULL && v->len == len &&
		    memcmp(v->str, s, len) == 0 && t->len == len &&
		    memcmp(t->str, s, len) == 0 &&
		    ynode_get(doc.root, "list")->items[0]->n == 3;
	}
	ydoc_release(&doc);
	diag_list_release(&dl);
	*shown = buf_detach(&b, NULL);
	return same;
}

static void
check(const char *s, size_t len, const char *what)
{
	char	*shown;

	if (!ok(round_trip(s, len, &shown), "%s", what))
		printf("# %s", shown);
	free(shown);
}

#define CHECK(lit, what) check(lit, sizeof(lit) - 1, what)

int
main(void)
{
	static const char pieces[][8] = {
		"a", " ", "\n", "\t", "'", "\"", "\\", ":", "#", "-", "{", "}",
		"[", "]", ",", "&", "*", "!", "|", ">", "%", "@", "`", "?",
		"\r", "\x01", "\x7f", "\xc3\xa9", "\xe2\x80\xa8", "\xc2\x85",
		"\xef\xbb\xbf", "\xff", "true", "null", "0x1", "1e3", "~",
		"---", "...", "$x", "\xed\x95\x9c", "\xc2\x83", "\xc2\x9f",
		"\xef\xbf\xbe", "\xef\xbf\xbf", "\xf0\x9f\x98\x80",
	};
	const size_t	np = sizeof(pieces) / sizeof(pieces[0]);
	unsigned long	seed = 12345;
	char		s[64];
	size_t		len, k, i;
	int		bad = 0;

	CHECK("", "empty");
	CHECK("backend-dev-guidelines", "plain name");
	CHECK("it's", "single quote");
	CHECK("rm\\s+-rf", "regex backslashes");
	CHECK("true", "a word YAML would read as a boolean");
	CHECK("123", "a number");
	CHECK("a: b # c", "colon and hash");
	CHECK("line one\nline two\n", "two lines, final newline");
	CHECK("line one\nline two", "two lines, no final newline");
	CHECK("a\n\n\n", "trailing blank lines");
	CHECK("  indented\nnext", "first line indented");
	CHECK("\n\n  first text indented", "leading newlines, indented text");
	CHECK("\n  \nx", "a line of blanks before the text");
	CHECK("tab\there\n", "tab");
	CHECK("crlf\r\nline", "carriage return");
	CHECK("\x01control", "control character");
	CHECK("\xe2\x80\xa8 line separator", "U+2028");
	CHECK("\xc2\x83 C1 control", "U+0083, a C1 control");
	CHECK("\xef\xbf\xbe noncharacter", "U+FFFE");
	CHECK("---\nfake document\n...\n", "document markers in a block");
	CHECK("⚠️ BLOCKED\n\n📋 한국어 {{path}}\n", "emoji and Korean");
	/* Pseudo-random strings made of the awkward pieces. */
	for (k = 0; k < 3000; k++) {
		len = 0;
		for (i = 0; i < 6; i++) {
			seed = seed * 1103515245 + 12345;
			const char *p = pieces[(seed >> 16) % np];
			size_t pl = strlen(p);
			if (len + pl >= sizeof(s))
				break;
			memcpy(s + len, p, pl);
			len += pl;
		}
		s[len] = '\0';
		/* A stray byte reads back as a different character: skip it. */
		if (memchr(s, '\xff', len) != NULL)
			continue;
		{
			char *shown;
			if (!round_trip(s, len, &shown)) {
				if (bad++ < 5)
					printf("# failed: %s", shown);
			}
			free(shown);
		}
	}
	ok(bad == 0, "3000 random strings read back as written (%d not)", bad);
	{
		/* A stray byte cannot be YAML: it becomes U+00FF, valid UTF-8. */
		struct buf b;
		struct ydoc doc;
		struct diag_list dl;
		const struct ynode *v;
		buf_init(&b);
		buf_adds(&b, "k: ");
		yamlw_cstr(&b, "bad \xff byte");
		diag_list_init(&dl);
		ok(ydoc_load(&doc, "t", b.data, b.len, &dl) == 0 &&
		    (v = ynode_get(doc.root, "k")) != NULL &&
		    strcmp(v->str, "bad \xc3\xbf byte") == 0,
		    "invalid UTF-8 reads back as U+00FF");
		ydoc_release(&doc);
		diag_list_release(&dl);
		buf_release(&b);
	}
	return done_testing();
}
