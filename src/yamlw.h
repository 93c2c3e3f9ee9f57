/*
 * Writing YAML that reads back exactly (the importers' output).
 *
 * A scalar is written plain when that is unambiguous (a name like
 * backend-dev-guidelines), single-quoted when it has no character that
 * needs an escape (regexes keep their backslashes as they are), and
 * double-quoted with escapes otherwise (control characters, invalid
 * UTF-8, YAML's own line breaks).  Multi-line texts can be written as a
 * literal block.  libyaml parses what these write back to the same
 * string; tests check that.
 */
#ifndef RR_YAMLW_H
#define RR_YAMLW_H

#include <stddef.h>

#include "buf.h"

/* Appends s[0..len) as one inline scalar. */
void	 yamlw_scalar(struct buf *, const char *s, size_t len);
void	 yamlw_cstr(struct buf *, const char *s);

/*
 * Appends s as the value of a mapping key whose line is indented by
 * `indent` spaces: " |" and the lines indented by indent + 2 when a
 * literal block reads back exactly, else " " and an inline scalar.  The
 * caller has written "key:"; a newline ends what this appends.
 */
void	 yamlw_text(struct buf *, const char *s, size_t len, int indent);

/* Appends [a, 'b c', ...] (a flow sequence of inline scalars). */
void	 yamlw_flow_list(struct buf *, const char *const *items, size_t n);

#endif
