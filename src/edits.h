/*
 * The file as a tool would leave it (the `file_after` field): Write's
 * content, or Edit / MultiEdit applied to the file on disk with Claude
 * Code's rules (old_string must occur, exactly once unless replace_all;
 * MultiEdit edits apply in order, each to the result of the last).
 */
#ifndef RR_EDITS_H
#define RR_EDITS_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

struct cJSON;

/*
 * Fills `out` with the file after the tool ran.  disk is the file's
 * current text (NULL when it does not exist).  Returns 0, or -1 when the
 * result cannot be known: another tool, an edit whose old_string is
 * missing or ambiguous (the tool would fail), no tool_input.
 */
int	 edit_result(const char *tool, const struct cJSON *input,
	     const char *disk, size_t disk_len, struct buf *out);

#endif
