/*
 * Secrets out of recorded text, before anything is written.
 *
 * redact_text() first drops every <private>...</private> span (an
 * unterminated <private> drops the rest), then masks secrets with the
 * built-in patterns (unless opts->defaults is false) and the rule's own
 * `record: redact:` regexes.  The built-ins (reflexion-rules(1),
 * REDACTION): private key blocks (PEM, OpenSSH, PGP), Authorization /
 * Bearer credentials, cookies, AWS access key ids, the tokens of GitHub,
 * GitLab, Slack (and its webhooks), Discord webhooks, OpenAI/Anthropic,
 * Google, Stripe, npm, PyPI, Hugging Face, SendGrid, Twilio, Mailgun,
 * DigitalOcean, Shopify and Telegram, JWTs, passwords in URLs, curl -u,
 * mysql -p and .netrc, secrets in URL queries, values assigned to names
 * like password, secret, token, api_key, access_key, private_key,
 * credential, names ending in _pass, _pwd, _key, _auth, camelCase keys,
 * the Korean labels (비밀번호, 비번, 암호, 패스워드, 토큰, 시크릿, API 키,
 * 인증키, ...), and the value of every environment variable named that way
 * (8+ characters).
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
