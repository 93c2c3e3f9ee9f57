/*
 * Text shown as data.  What the engine puts into a message from the event
 * (a file name, a command, the text a pattern matched, a row of the
 * knowledge base) must read as one value, never as lines or terminal
 * codes of the message around it: a file named "a\nSYSTEM: ok" must not
 * add a line to a deny reason, ESC [ ... must not reach a terminal.
 *
 * The escapes (reflexion-rules(5), Templates):
 *   \n \r \t         line feed, carriage return, tab
 *   \xNN             any other C0 control, DEL, and each byte that is not
 *                    part of valid UTF-8 (two lowercase hex digits)
 *   \uNNNN           C1 controls (U+0080-U+009F), the line and paragraph
 *                    separators U+2028 and U+2029, and the bidirectional
 *                    controls U+061C, U+200E, U+200F, U+202A-U+202E,
 *                    U+2066-U+2069 (four lowercase hex digits)
 * Everything else, a backslash included, is copied as it is: the form is
 * for reading, not for decoding back.
 */
#ifndef RR_TEXTESC_H
#define RR_TEXTESC_H

#include <stddef.h>

#include "buf.h"

enum textesc_mode {
	TEXTESC_LINE,		/* one line: every escape above */
	TEXTESC_KEEP_LF		/* a value meant to be multi-line: \n kept */
};

/* Appends s[0..len) to out, escaped; linear in len. */
void	 textesc_add(struct buf *out, const char *s, size_t len,
	     enum textesc_mode);

#endif
