/*
 * Codex's apply_patch read as files (applypatch.c): the grammar and the
 * leniencies of codex-rs/apply-patch's parser, the file an Update leaves,
 * hostile patches, and time linear in the patch and the file.
 */
#include <stdlib.h>
#include <time.h>

#include "applypatch.h"
#include "edits.h"
#include "tap.h"
#include "xmalloc.h"

#define MB	((size_t)1 << 20)

static struct patch	p;

/* Parses text into p (released first); returns what patch_parse() does. */
static int
parse(const char *text, char **err)
{
	patch_release(&p);
	return patch_parse(&p, text, strlen(text), err);
}

static int
parses(const char *text)
{
	char	*err = NULL;
	int	 rc = parse(text, &err);

	if (rc < 0)
		printf("# %s\n", err);
	free(err);
	return rc == 0;
}

/* The error of a patch that does not parse, or "(parsed)". */
static char *
refusal(const char *text)
{
	char	*err = NULL;

	if (parse(text, &err) == 0)
		return xstrdup("(parsed)");
	return err;
}

static void
test_grammar(void)
{
	char	*e;

	ok(parses("*** Begin Patch\n*** Add File: path/add.py\n+abc\n+def\n"
	    "*** Delete File: path/delete.py\n*** Update File: path/update.py\n"
	    "*** Move to: path/update2.py\n@@ def f():\n-    pass\n"
	    "+    return 123\n*** End Patch"), "Codex's own example parses");
	is_int(p.n, 3, "three files");
	is_int(p.files[0].op, PATCH_ADD, "an Add");
	is_str(p.files[0].path.s, "path/add.py", "its path");
	is_str(p.files[0].added.s, "abc\ndef\n", "its lines, each with '\\n'");
	is_int(p.files[1].op, PATCH_DELETE, "a Delete");
	is_str(p.files[1].path.s, "path/delete.py", "its path");
	is_int(p.files[2].op, PATCH_UPDATE, "an Update");
	is_str(p.files[2].move_to.s, "path/update2.py", "moved");
	is_int(p.files[2].nchunks, 1, "one chunk");
	is_str(p.files[2].chunks[0].context.s, "def f():", "its context");
	is_str(p.files[2].chunks[0].old_lines.s, "    pass\n", "old lines");
	is_str(p.files[2].chunks[0].new_lines.s, "    return 123\n",
	    "new lines");
	is_str(p.files[2].added.s, "    return 123\n", "added: the + lines");
	is_str(p.files[2].removed.s, "    pass\n", "removed: the - lines");

	ok(parses("*** Begin Patch\n*** Update File: f.py\n import foo\n+bar\n"
	    "*** End Patch"), "a first chunk without @@");
	is_str(p.files[0].chunks[0].old_lines.s, "import foo\n",
	    "context lines are old lines");
	is_str(p.files[0].chunks[0].new_lines.s, "import foo\nbar\n",
	    "... and new lines");
	is_str(p.files[0].added.s, "bar\n", "but not added ones");

	ok(parses("*** Begin Patch\n*** Update File: f\n@@\n+line\n"
	    "*** Add File: o\n+content\n*** End Patch"),
	    "an update followed by an add");
	is_int(p.n, 2, "two files");
	is_int(p.files[0].chunks[0].old_lines.len, 0, "a pure addition");

	ok(parses("*** Begin Patch\n*** Update File: f\n@@ a\n-x\n+y\n\n"
	    "@@ b\n-z\n+w\n*** End of File\n*** End Patch\n"),
	    "two chunks, a blank line between, End of File");
	is_int(p.files[0].nchunks, 2, "two chunks");
	ok(p.files[0].chunks[1].eof, "the last at the end of the file");
	is_str(p.files[0].added.s, "y\nw\n", "added lines of both");

	ok(parses("  *** Begin Patch \n*** Add File: a\n+x\n *** End Patch  \n\n"),
	    "markers with white space around them");
	ok(parses("*** Begin Patch\r\n*** Add File: a\r\n+x\r\n*** End Patch\r\n"),
	    "CRLF lines");
	is_str(p.files[0].path.s, "a", "... the CR is not in the path");
	is_str(p.files[0].added.s, "x\n", "... nor in the content");
	ok(parses("<<'EOF'\n*** Begin Patch\n*** Add File: a\n+x\n"
	    "*** End Patch\nEOF\n"), "wrapped in a heredoc (gpt-4.1)");
	ok(parses("*** Begin Patch\n*** End Patch"), "no hunks at all");
	is_int(p.n, 0, "... no files");
	ok(parses("*** Begin Patch\n*** Add File: empty\n*** End Patch"),
	    "an Add with no lines: an empty file");
	is_str(p.files[0].added.s, "", "... empty");
	ok(parses("*** Begin Patch\n*** Update File: f\n@@\n   \n+x\n"
	    "*** End Patch"), "a line of spaces is a context line");
	is_str(p.files[0].chunks[0].old_lines.s, "  \n", "... of two spaces");

	e = refusal("bad");
	is_str(e, "the first line of the patch is not '*** Begin Patch'",
	    "no Begin Patch");
	free(e);
	e = refusal("*** Begin Patch\nbad");
	is_str(e, "the last line of the patch is not '*** End Patch'",
	    "no End Patch");
	free(e);
	e = refusal("");
	is_str(e, "the first line of the patch is not '*** Begin Patch'",
	    "empty text");
	free(e);
	e = refusal("*** Begin Patch\n*** Update File: test.py\n*** End Patch");
	is_str(e, "line 2: the update of 'test.py' has no chunks",
	    "an Update without chunks");
	free(e);
	e = refusal("*** Begin Patch\n*** Frob: x\n*** End Patch");
	ok(strstr(e, "line 2: '*** Frob: x' is not") != NULL,
	    "an unknown hunk header, with its line");
	free(e);
	e = refusal("*** Begin Patch\n*** Update File: f\n@@\n-a\nzz\n"
	    "*** End Patch");
	ok(strstr(e, "line 5") != NULL && strstr(e, "'@@'") != NULL,
	    "a second chunk without @@");
	free(e);
	e = refusal("*** Begin Patch\n*** Update File: f\n@@\n*** End Patch");
	ok(strstr(e, "no lines") != NULL, "a chunk with no lines");
	free(e);
	e = refusal("<<EOF\n*** Begin Patch\n*** End Patch\nEOX");
	ok(strcmp(e, "(parsed)") != 0, "a heredoc must end with EOF");
	free(e);
}

/* The file an Update of text leaves, or "(unknown)". */
static char *
after(const char *patch, const char *disk)
{
	struct buf	b;
	int		rc;

	if (!parses(patch) || p.n != 1)
		return xstrdup("(no patch)");
	buf_init(&b);
	rc = patch_file_after(&p.files[0], disk, disk ? strlen(disk) : 0,
	    &b);
	if (rc != EDIT_OK) {
		buf_release(&b);
		return xstrdup("(unknown)");
	}
	return buf_detach(&b, NULL);
}

#define PATCH(body)	"*** Begin Patch\n*** Update File: f\n" body "*** End Patch\n"

static void
test_after(void)
{
	char	*s;

	s = after(PATCH("@@\n a\n-b\n+B\n c\n"), "a\nb\nc\n");
	is_str(s, "a\nB\nc\n", "a line replaced in its context");
	free(s);
	s = after(PATCH("@@ def g\n-x\n+y\n"), "def f\nx\ndef g\nx\n");
	is_str(s, "def f\nx\ndef g\ny\n", "after its @@ line, not before");
	free(s);
	s = after(PATCH("@@\n-x\n+1\n@@\n-x\n+2\n"), "x\nx\nx\n");
	is_str(s, "1\n2\nx\n", "chunks in order, each after the last");
	free(s);
	s = after(PATCH("@@\n+tail\n"), "a\nb");
	is_str(s, "a\nb\ntail\n", "a pure addition goes at the end; "
	    "every line ends in '\\n'");
	free(s);
	s = after(PATCH("@@\n-x\n+y\n*** End of File\n"), "x\nx\n");
	is_str(s, "x\ny\n", "End of File: the last occurrence");
	free(s);
	s = after(PATCH("@@\n-ab\n+AB\n"), "xab\nab\n");
	is_str(s, "xab\nAB\n", "matches start at a line start");
	free(s);
	s = after(PATCH("@@\n-a\n-\n+b\n"), "a\n");
	is_str(s, "b\n", "a last empty line that is not there is forgiven");
	free(s);
	s = after(PATCH("@@\n-missing\n+y\n"), "a\n");
	is_str(s, "(unknown)", "old lines not in the file: not known");
	free(s);
	s = after(PATCH("@@\n-a \n+y\n"), "a\n");
	is_str(s, "(unknown)", "matched only ignoring white space: not known");
	free(s);
	s = after(PATCH("@@ nowhere\n+y\n"), "a\n");
	is_str(s, "(unknown)", "a context line that is not there: not known");
	free(s);
	s = after(PATCH("@@\n-a\n+b\n"), NULL);
	is_str(s, "(unknown)", "no file at all: not known");
	free(s);
	s = after("*** Begin Patch\n*** Update File: f\n*** Move to: g\n"
	    "@@\n-a\n+b\n*** End Patch\n", "a\n");
	is_str(s, "(unknown)", "a moved file's text is its old name's");
	free(s);
}

static double
cpu_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

enum shape {
	MANY_FILES,	/* one Add per line */
	MANY_CHUNKS,	/* one chunk per three lines, each with context */
	LONG_LINES,	/* a few lines of a megabyte */
	NEAR_MISS,	/* old lines almost everywhere in the file */
	BLANK,		/* blank lines between chunks */
	SHAPES
};

static const char *const shape_names[SHAPES] = {
	"many files", "many chunks", "long lines", "near misses",
	"blank lines"
};

/* A patch of about size bytes of the shape, and a file for it. */
static void
make(enum shape sh, size_t size, struct buf *patch, struct buf *file)
{
	size_t	i;

	buf_reset(patch);
	buf_reset(file);
	buf_adds(patch, "*** Begin Patch\n");
	switch (sh) {
	case MANY_FILES:
		for (i = 0; patch->len < size; i++)
			buf_printf(patch, "*** Add File: d/%zu\n+x\n", i);
		break;
	case MANY_CHUNKS:
		buf_adds(patch, "*** Update File: f\n");
		for (i = 0; patch->len < size; i++) {
			buf_printf(patch, "@@ c%zu\n-o%zu\n+n%zu\n", i, i, i);
			buf_printf(file, "c%zu\no%zu\n", i, i);
		}
		break;
	case LONG_LINES:
		buf_adds(patch, "*** Update File: f\n@@\n-");
		for (i = 0; patch->len < size / 2; i++)
			buf_addc(patch, 'a');
		buf_adds(patch, "\n+");
		for (i = 0; patch->len < size; i++)
			buf_addc(patch, 'b');
		buf_addc(patch, '\n');
		for (i = 0; i < size / 2; i++)
			buf_addc(file, 'a');
		buf_addc(file, '\n');
		break;
	case NEAR_MISS:
		/* "a\n" a thousand times then "b": the file is all "a\n". */
		buf_adds(patch, "*** Update File: f\n@@\n");
		for (i = 0; i < 1000; i++)
			buf_adds(patch, "-a\n");
		buf_adds(patch, "-b\n+c\n");
		while (file->len < size)
			buf_adds(file, "a\n");
		break;
	case BLANK:
		buf_adds(patch, "*** Update File: f\n");
		for (i = 0; patch->len < size; i++)
			buf_adds(patch, "@@\n-x\n+y\n\n\n\n\n\n\n\n");
		for (i = 0; file->len < size / 4; i++)
			buf_adds(file, "x\n");
		break;
	case SHAPES:
		break;
	}
	buf_adds(patch, "*** End Patch\n");
}

/* Parsing and applying, best of 3. */
static double
time_of(const struct buf *patch, const struct buf *file)
{
	struct patch	q;
	struct buf	out;
	double		t, best = 1e30;
	char		*err;
	size_t		i;
	int		k;

	for (k = 0; k < 3; k++) {
		t = cpu_ms();
		err = NULL;
		if (patch_parse(&q, patch->data, patch->len, &err) == 0) {
			buf_init(&out);
			for (i = 0; i < q.n; i++)
				if (q.files[i].op == PATCH_UPDATE)
					patch_file_after(&q.files[i],
					    file->data, file->len, &out);
			buf_release(&out);
		}
		free(err);
		patch_release(&q);
		t = cpu_ms() - t;
		if (t < best)
			best = t;
	}
	return best;
}

static void
test_linear(void)
{
	struct buf	patch, file;
	double		small, big;
	int		sh;

	buf_init(&patch);
	buf_init(&file);
	for (sh = 0; sh < SHAPES; sh++) {
		make((enum shape)sh, MB, &patch, &file);
		small = time_of(&patch, &file);
		make((enum shape)sh, 8 * MB, &patch, &file);
		big = time_of(&patch, &file);
		if (small < 2.0)
			small = 2.0;
		ok(big / small < 16.0, "linear: %s, 1 MB %.1f ms, 8 MB %.1f ms",
		    shape_names[sh], small, big);
	}
	buf_release(&patch);
	buf_release(&file);
}

#define HOSTILE_PATH	"*** Begin Patch\n*** Delete File: \xff\x01../x\n" \
	"*** End Patch"

static void
test_hostile(void)
{
	struct buf	b;
	char		*err = NULL;
	size_t		i;

	buf_init(&b);
	/* A NUL inside: the text is length-counted, not cut there. */
	buf_adds(&b, "*** Begin Patch\n*** Add File: a\n+x");
	buf_addc(&b, '\0');
	buf_adds(&b, "y\n*** End Patch\n");
	patch_release(&p);
	ok(patch_parse(&p, b.data, b.len, &err) == 0 && p.n == 1 &&
	    p.files[0].added.len == 4, "a NUL byte does not end the text");
	free(err);
	err = NULL;
	/* 100,000 lines of "*": every one a break, none a hunk. */
	buf_reset(&b);
	buf_adds(&b, "*** Begin Patch\n*** Update File: f\n@@\n-a\n");
	for (i = 0; i < 100000; i++)
		buf_adds(&b, "*\n");
	buf_adds(&b, "*** End Patch\n");
	patch_release(&p);
	ok(patch_parse(&p, b.data, b.len, &err) < 0 && err != NULL,
	    "100,000 lines of '*': refused, with a reason");
	free(err);
	err = NULL;
	/* Only markers. */
	buf_reset(&b);
	for (i = 0; i < 10000; i++)
		buf_adds(&b, "*** Begin Patch\n");
	patch_release(&p);
	ok(patch_parse(&p, b.data, b.len, &err) < 0, "only Begin markers");
	free(err);
	err = NULL;
	/* Invalid UTF-8 and controls in a path are kept as bytes. */
	patch_release(&p);
	ok(patch_parse(&p, HOSTILE_PATH, strlen(HOSTILE_PATH), &err) == 0 &&
	    p.n == 1 &&
	    memcmp(p.files[0].path.s, "\xff\x01../x", 7) == 0,
	    "a path of any bytes is kept as it is (rules judge it)");
	free(err);
	err = NULL;
	patch_release(&p);
	ok(patch_parse(&p, "x", PATCH_TEXT_MAX + 1, &err) < 0 &&
	    strstr(err, "larger") != NULL, "past the size limit: refused "
	    "before it is read");
	free(err);
	buf_release(&b);
}

int
main(void)
{
	memset(&p, 0, sizeof(p));
	arena_init(&p.arena);
	test_grammar();
	test_after();
	test_hostile();
	test_linear();
	patch_release(&p);
	return done_testing();
}
