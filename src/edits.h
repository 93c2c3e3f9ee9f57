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

enum edit_status {
	EDIT_OK = 0,
	EDIT_UNKNOWN = -1,	/* another tool, or the tool would fail */
	EDIT_TOO_COSTLY = -2	/* past the work budget: not decided */
};

/*
 * The work one call may do, in bytes scanned and written: this many
 * times the file and the edits' strings, plus the floor.  Each edit
 * scans the text once and moves what follows its match, so a MultiEdit
 * of a dozen edits is always computed, on any file; hundreds of edits of
 * a file of megabytes, or a replace_all that would write gigabytes, are
 * not.
 */
#define EDIT_WORK_PER_BYTE	32
#define EDIT_WORK_FLOOR		((size_t)64 << 20)

/*
 * Fills `out` with the file after the tool ran.  disk is the file's
 * current text (NULL when it does not exist).  Returns EDIT_OK;
 * EDIT_UNKNOWN when the result cannot be known: another tool, an edit
 * whose old_string is missing or ambiguous (the tool would fail), no
 * tool_input; or EDIT_TOO_COSTLY past the work budget (out is empty).
 */
int	 edit_result(const char *tool, const struct cJSON *input,
	     const char *disk, size_t disk_len, struct buf *out);

#endif
