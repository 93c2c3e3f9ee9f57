/*
 * Secrets out of recorded text, before anything is written.
 *
 * redact_text() first drops every <private>...</private> span (an
 * unterminated <private> drops the rest), then masks secrets with the
 * built-in patterns (unless opts->defaults is false) and the rule's own
 * `record: redact:` regexes.  The built-ins (reflexion-rules(1),
 * REDACTION): private key blocks, Authorization / Bearer credentials,
 * AWS access key ids, GitHub, Slack, OpenAI/Anthropic and Google API
 * keys, JWTs, passwords in URLs, values assigned to names like password,
 * secret, token, api_key, access_key, private_key, credential, and the
 * value of every environment variable named that way (8+ characters).
 *
 * Should a pattern hit the regex match limit, nothing of the text is kept
 * (it becomes REDACT_FAILED): an unredacted secret must never be written.
 */
#ifndef RR_REDACT_H
#define RR_REDACT_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

#define REDACTED	"[REDACTED]"
#define REDACT_FAILED	"[REDACTED: the text could not be checked for secrets]"

struct rr_regex;

struct redact_opts {
	bool			 defaults;	/* the built-in patterns */
	struct rr_regex	*const	*extra;		/* borrowed */
	size_t			 nextra;
};

/* Appends s[0..len) to out without its <private>...</private> spans. */
void	 redact_drop_private(const char *s, size_t len, struct buf *out);
/* Appends the redacted s[0..len) to out. */
void	 redact_text(const struct redact_opts *, const char *s, size_t len,
	     struct buf *out);
/*
 * Tests only: apply every built-in pattern, whether or not the text holds
 * a literal its matches need (the answer must be the same).
 */
void	 redact_force_all(bool);

#endif
