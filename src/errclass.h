/*
 * The one classification of errors in a tool call that reports success
 * (seed 004's "Tool Error, Traceback, HTTP 4xx/5xx"): what the `error`
 * field of a PostToolUse holds, so what rules tell the model, and what
 * the recorder stores as a failed call.  Both read it through
 * event_error() (event.h), so the two can never disagree.
 *
 * Only the outputs of tools that run programs or fetch pages are read
 * (Bash, PowerShell, WebFetch): a Read of a file that mentions
 * "Error:" is not a failed call.  Found, in this order:
 *
 *   WebFetch's status code 400..599   "HTTP 503 Service Unavailable"
 *   a Python traceback                the block, to its last line
 *   an HTTP status line               "HTTP/1.1 503 Service Unavailable"
 *   a JSON or key=value status        the line holding "status": 503
 *   curl's error 22                   "curl: (22) The requested URL ..."
 *   an error line                     "TypeError: x is undefined"
 *
 * The patterns are compiled once per process, on first use; the text is
 * searched for their literals first, so an output without any costs one
 * pass of memmem-like scans.
 */
#ifndef RR_ERRCLASS_H
#define RR_ERRCLASS_H

#include <stdbool.h>
#include <stddef.h>

/* Whether the outputs of this tool are read for errors. */
bool	 errclass_reads(const char *tool);

/*
 * The error in a successful call's output s[0..len), or NULL; owned.
 * http_status is a status code the tool reports beside its output
 * (WebFetch's `code`; 0: none) and http_text its reason phrase (or NULL).
 */
char	*errclass_detect(const char *tool, const char *s, size_t len,
	     long http_status, const char *http_text);

#endif
