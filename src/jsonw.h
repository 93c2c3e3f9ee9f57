/*
 * Byte-exact JSON writing.  Claude Code parses what a hook prints, so the
 * output must be valid UTF-8 JSON whatever the input held: strings are
 * escaped (", \, controls) and invalid UTF-8 becomes U+FFFD.  cJSON's
 * printer neither validates UTF-8 nor lets us fix key order, hence this.
 */
#ifndef RR_JSONW_H
#define RR_JSONW_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

/* Appends `s` (len bytes) as a quoted JSON string. */
void	jsonw_string(struct buf *, const char *s, size_t len);
void	jsonw_cstring(struct buf *, const char *s);

/*
 * Length in bytes of the longest prefix of s[0..len) holding at most
 * `max_chars` characters, never splitting a UTF-8 sequence.  Invalid bytes
 * count as one character each.
 */
size_t	utf8_prefix(const char *s, size_t len, size_t max_chars);
/* Number of characters, counted as utf8_prefix() counts them. */
size_t	utf8_count(const char *s, size_t len);
/*
 * An owned, NUL-terminated copy of s[0..len) with each invalid UTF-8 byte
 * and each NUL replaced by U+FFFD: text stored this way comes back the
 * same through JSON.
 */
char	*utf8_valid_dup(const char *s, size_t len);
/* Length of the valid UTF-8 sequence at s, or 0 if invalid. */
size_t	utf8_seqlen(const unsigned char *s, size_t avail);

#endif
