/*
 * Codex's apply_patch text, read as the files it writes: each file of
 * the patch becomes a Write (Add File), an Edit (Update File) or a
 * Delete (Delete File; and the old name of an Update File that moves
 * it), which agent.c turns into one canonical event each.
 *
 * The grammar and its leniencies are Codex's own (codex-rs/apply-patch,
 * parser.rs): the whole text trimmed, "*** Begin Patch" and "*** End
 * Patch" as the first and last lines (markers compared trimmed, lines
 * may end in CR), or the same wrapped in a <<EOF heredoc; hunks "*** Add
 * File: P" (then "+" lines), "*** Delete File: P", "*** Update File: P"
 * (then "*** Move to: Q" and chunks of "@@ [context]", " ", "+", "-"
 * lines and "*** End of File").  Parsing takes one pass over the text;
 * everything a struct patch holds lives in its arena.
 */
#ifndef RR_APPLYPATCH_H
#define RR_APPLYPATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "buf.h"

/* A text of the patch: NUL-terminated, may be empty. */
struct patch_text {
	const char	*s;
	size_t		 len;
};

/*
 * One chunk of an Update File: its old lines (context and "-") replaced
 * by its new ones (context and "+"), each line ending in '\n'; after the
 * line `context` when there is one, at the end of the file when eof.
 */
struct patch_chunk {
	struct patch_text	 context;	/* s NULL: none */
	struct patch_text	 old_lines;
	struct patch_text	 new_lines;
	bool			 eof;
};

enum patch_op {
	PATCH_ADD,
	PATCH_DELETE,
	PATCH_UPDATE
};

struct patch_file {
	enum patch_op		 op;
	struct patch_text	 path;
	struct patch_text	 move_to;	/* s NULL: not moved */
	/*
	 * The text the rules see: an Add's whole content; an Update's
	 * "+" lines (added) and "-" lines (removed), context left out.
	 */
	struct patch_text	 added;
	struct patch_text	 removed;
	struct patch_chunk	*chunks;
	size_t			 nchunks;
};

struct patch {
	struct patch_file	*files;
	size_t			 n;
	struct arena		 arena;
};

/* Longest text a patch may be: more is not read (64 MB, as stdin). */
#define PATCH_TEXT_MAX	((size_t)64 << 20)

/*
 * Parses text[0..len) into p (to be released in any case).  Returns 0,
 * or -1 with *err (owned; names the line) when Codex would refuse it.
 */
int	 patch_parse(struct patch *p, const char *text, size_t len,
	     char **err);
void	 patch_release(struct patch *);

/*
 * The file as an Update File leaves it (Codex's derive_new_contents:
 * chunks in order, each after the last; lines matched exactly, and a
 * trailing empty line forgiven), disk being the file now (NULL: none).
 * Returns EDIT_OK (edits.h) with out filled; EDIT_UNKNOWN when a chunk
 * matches only as Codex matches it loosely (ignoring whitespace) or not
 * at all, or for another kind of file.  Linear in the file and the
 * chunks: each search starts where the last one ended.
 */
int	 patch_file_after(const struct patch_file *, const char *disk,
	     size_t disk_len, struct buf *out);

#endif
