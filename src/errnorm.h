/*
 * Error normalization: the text of a failed tool call with its volatile
 * parts replaced by placeholders, so that one error seen twice is one text
 * and the knowledge base can match it exactly (seed 000's Bash lookup is
 * an exact match).  File names stay: the file-name lookup searches for
 * them.  The rules, in order (reflexion-rules(1), ERROR NORMALIZATION):
 *
 *   CR LF -> LF, trailing blanks and blank edge lines removed
 *   the project directory -> <project>, $HOME -> ~
 *   /tmp/... and /var/folders/... paths -> <tmp>
 *   date and time stamps -> <time>, dates -> <date>
 *   UUIDs -> <uuid>, 0x addresses -> 0x<addr>, long hex ids -> <hex>,
 *   toolu_/msg_/req_/call_ ids -> <id>
 *   line and column numbers (file.ts:12:5, file.ts(12,5), line 12,
 *   column 5) -> <n>
 *   durations (12ms, 1.5s) -> <duration>, numbers of 6+ digits -> <n>
 *   the result is cut to ERRNORM_MAX_CHARS characters
 */
#ifndef RR_ERRNORM_H
#define RR_ERRNORM_H

#include <stddef.h>

#define ERRNORM_MAX_CHARS	1000

/*
 * Returns the normalized text of s[0..len), owned.  project_dir and home
 * may be NULL or empty (then not replaced).
 */
char	*errnorm(const char *s, size_t len, const char *project_dir,
	     const char *home);

#endif
