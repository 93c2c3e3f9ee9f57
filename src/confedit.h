/*
 * config.yaml's trust: list edited as text (reflexion-rules trust): a
 * directory added or removed, and every other byte of the file (its
 * comments, order and quoting) left as the user wrote it.  The result is
 * parsed again and must hold exactly the entries meant, or nothing is
 * edited: a shape this does not know how to edit is the user's to edit
 * by hand.  Nothing here touches the file system but to compare the
 * entries as real paths (userconf.h).
 */
#ifndef RR_CONFEDIT_H
#define RR_CONFEDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

/*
 * text[0..len), a config.yaml, with dir added to its trust: list (or,
 * with remove, every entry that names dir, as written or as a real path,
 * removed) in out.  Returns 1 when that changes the file, 0 when dir is
 * trusted already (or, with remove, was not), -1 with *err (owned) when
 * the file is not YAML or its trust: list cannot be edited as text.
 */
int	 confedit_trust(const char *text, size_t len, const char *dir,
	     bool remove, struct buf *out, char **err);

#endif
