/*
 * Redaction of recorded text (redact.h).  A built-in pattern is compiled,
 * once per process, only when the text holds a literal that any match of
 * it holds (relit.h finds them, or the table names them): most outputs
 * have no secret, and compiling the thirteen patterns cost a recorded
 * call more than the rest of its redaction.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "casefold.h"
#include "match_re.h"
#include "redact.h"
#include "relit.h"
#include "xmalloc.h"

/* Environment values shorter than this are too common to mask. */
#define ENV_SECRET_MIN	8

/*
 * Pattern, replacement, and the literals a match must hold ("i:" first:
 * caseless, compared as PCRE2 compares, case folding included), "|"
 * between them; NULL: relit.h reads them from the pattern.  Every entry
 * names them: reading them cost each recorded call some 60 K
 * instructions, a tenth of it once the database is not opened.
 * A \K keeps what precedes it (the name of a variable, the scheme and user
 * of a URL) and masks only the value.
 */
static const char *const builtins[][3] = {
	{ "-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:[\\s\\S]*?-----END "
	    "[A-Z0-9 ]*PRIVATE KEY-----|[\\s\\S]*)", "[REDACTED PRIVATE KEY]",
	    "-----BEGIN " },
	{ "-----BEGIN PGP PRIVATE KEY BLOCK-----(?:[\\s\\S]*?-----END PGP "
	    "PRIVATE KEY BLOCK-----|[\\s\\S]*)", "[REDACTED PRIVATE KEY]",
	    "-----BEGIN PGP PRIVATE KEY BLOCK-----" },
	/* The end of a key whose start was cut off elsewhere. */
	{ "(?m)^(?:[A-Za-z0-9+/=]{16,}\\r?\\n)+-----END [A-Z0-9 ]*PRIVATE "
	    "KEY-----", "[REDACTED PRIVATE KEY]", "PRIVATE KEY-----" },
	{ "(?i)\\b(?:proxy-)?authorization[\"']?\\s*[:=]\\s*[\"']?"
	    "(?:bearer|basic|token|bot)?\\s*\\K[^\\s\"',;]+", REDACTED,
	    "i:authorization" },
	{ "(?i)\\bbearer\\s+\\K[A-Za-z0-9._~+/=-]{8,}", REDACTED,
	    "i:bearer" },
	{ "\\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\\b",
	    REDACTED, "AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA" },
	{ "\\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,})",
	    REDACTED, "gh|github_pat_" },
	{ "\\bxox[abposr]-[A-Za-z0-9-]{10,}", REDACTED, "xox" },
	{ "\\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}", REDACTED, "sk-" },
	{ "\\bAIza[0-9A-Za-z_-]{35}", REDACTED, "AIza" },
	{ "\\beyJ[A-Za-z0-9_-]{5,}\\.eyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{5,}",
	    REDACTED, "eyJ" },
	/* A URL's password, also without a user (redis://:pw@host). */
	{ "(?i)\\b[a-z][a-z0-9+.-]*://[^/\\s:@]*:\\K[^/\\s@]+(?=@)", REDACTED,
	    "://" },
	/* An option: at the start of a word, its value on the same line. */
	{ "(?i)(?<![^\\s\"'=])--?(?:password|passwd|pass|pwd|token|secret|"
	    "api-?key)(?:=|[ \\t]+)\\K[^\\s\"']+", REDACTED,
	    "i:pass|pwd|token|secret|key" },
	/* Each alternative of the group holds one of these. */
	{ "(?i)\\b[A-Za-z0-9_.-]*(?:password|passwd|secret|token|api[_-]?key|"
	    "apikey|access[_-]?key|private[_-]?key|credential)[A-Za-z0-9_.-]*"
	    "[\"']?[ \\t]*[:=][ \\t]*[\"']?\\K[^\\s\"'`,;&]+", REDACTED,
	    "i:passw|secret|token|key|credential" },
	/*
	 * Names that end in pass, pwd, key or auth after a separator
	 * (DB_PASS, MYSQL_PWD, STRIPE_KEY, X-Auth; not PWD, a directory)
	 * and camelCase keys (stripeKey, AccountKey): their values.
	 */
	{ "(?i)\\b[A-Za-z0-9_.-]*[_.-](?:pass|pwd|key|auth)[\"']?[ \\t]*[:=]"
	    "[ \\t]*[\"']?\\K[^\\s\"'`,;&]+", REDACTED, "i:pass|pwd|key|auth" },
	{ "\\b[A-Za-z0-9_]*[a-z0-9]Key[\"']?[ \\t]*[:=][ \\t]*[\"']?\\K"
	    "[^\\s\"'`,;&]+", REDACTED, "Key" },
	/*
	 * Korean labels: 비밀번호 (password), 비번, 암호, 패스워드, 토큰,
	 * 시크릿, and the keys (API 키, 인증키, 액세스 키, 접근 키, 비밀키,
	 * 개인키, 보안키, 암호화 키), with ':', '=', a full-width colon, or a
	 * topic or subject particle: 비밀번호: x, 비밀번호는 x.
	 */
	{ "(?:\ube44\ubc00\ubc88\ud638|\ube44\ubc88|\uc554\ud638|"
	    "\ud328\uc2a4\uc6cc\ub4dc|\ud1a0\ud070|\uc2dc\ud06c\ub9bf|"
	    "(?:API|\uc778\uc99d|\uc561\uc138\uc2a4|\uc811\uadfc|"
	    "\ube44\ubc00|\uac1c\uc778|\ubcf4\uc548|\uc554\ud638\ud654)"
	    "[ \\t]?\ud0a4)[ \\t]*(?:[:=\uff1a]|(?:\uc740|\ub294|\uc774|"
	    "\uac00)[ \\t])[ \\t]*[\"'\u201c]?\\K[^\\s\"'\u201d,;]+", REDACTED,
	    "\ube44\ubc00\ubc88\ud638|\ube44\ubc88|\uc554\ud638|"
	    "\ud328\uc2a4\uc6cc\ub4dc|\ud1a0\ud070|\uc2dc\ud06c\ub9bf|"
	    "\ud0a4" },
	/* Tokens of known services, by their shape. */
	{ "\\b(?:npm_[A-Za-z0-9]{36}|pypi-[A-Za-z0-9_-]{50,}|"
	    "glpat-[A-Za-z0-9_-]{20,}|do[opr]_v1_[a-f0-9]{64}|"
	    "shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}|hf_[A-Za-z0-9]{30,}|"
	    "ya29\\.[0-9A-Za-z_-]{20,}|SK[0-9a-f]{32}|key-[0-9a-z]{32}|"
	    "SG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}|"
	    "(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{16,})",
	    REDACTED, "npm_|pypi-|glpat-|_v1_|shp|hf_|ya29.|SK|key-|SG.|_live_|"
	    "_test_|whsec_" },
	{ "\\b[0-9]{8,10}:AA[0-9A-Za-z_-]{33}\\b", REDACTED, ":AA" },
	{ "(?i)\\bhooks\\.slack\\.com/services/\\K[A-Za-z0-9/_-]+", REDACTED,
	    "i:hooks.slack.com" },
	{ "(?i)\\bdiscord(?:app)?\\.com/api/webhooks/\\K[0-9]+/[A-Za-z0-9_-]+",
	    REDACTED, "i:/api/webhooks/" },
	/* curl -u user:password, mysql -psecret, a .netrc line, cookies. */
	{ "(?:^|[ \\t])(?:-u|--user)[ \\t=]+[^\\s:]+:\\K\\S+", REDACTED,
	    "-u|--user" },
	{ "\\bmysql(?:dump|admin)?\\b[^\\n]*?[ \\t]-p\\K[^\\s-]\\S*", REDACTED,
	    "mysql" },
	{ "(?i)\\blogin[ \\t]+\\S+[ \\t]+password[ \\t]+\\K\\S+", REDACTED,
	    "i:password" },
	{ "(?i)\\b(?:set-)?cookie[\"']?[ \\t]*:[ \\t]*\\K[^\\r\\n]+",
	    REDACTED, "i:cookie" },
	/* Secrets in a URL's query. */
	{ "(?i)[?&](?:key|sig|signature|auth|code|client_secret|"
	    "access_token|refresh_token|token|api_key|apikey|password)=\\K"
	    "[^&\\s#\"']+", REDACTED, "i:key|sig|auth|code|secret|token|"
	    "passw" },
};

#define NBUILTINS	(sizeof(builtins) / sizeof(builtins[0]))

static struct rr_regex	*compiled[NBUILTINS];

/* The literals a match of builtin i holds; n == 0: none known. */
static struct relit	 keys[NBUILTINS];
static bool		 keys_made;
static bool		 force_all;

void
redact_force_all(bool on)
{
	force_all = on;
}

/* Reads the table's own literals ("i:a|b|c") into r. */
static void
table_keys(const char *spec, struct relit *r)
{
	const char	*p = spec, *bar;
	bool		 ci = strncmp(p, "i:", 2) == 0;

	memset(r, 0, sizeof(*r));
	if (ci)
		p += 2;
	for (; *p != '\0' && r->n < RELIT_MAX_ALTS; p = *bar ? bar + 1 : bar) {
		bar = strchr(p, '|');
		if (bar == NULL)
			bar = p + strlen(p);
		r->alts[r->n].s = xstrndup(p, (size_t)(bar - p));
		r->alts[r->n].len = (size_t)(bar - p);
		r->alts[r->n++].ci = ci;
	}
}

static void
make_keys(void)
{
	size_t	i;

	if (keys_made)
		return;
	for (i = 0; i < NBUILTINS; i++) {
		if (builtins[i][2] != NULL)
			table_keys(builtins[i][2], &keys[i]);
		else if (relit_regex(builtins[i][0], strlen(builtins[i][0]),
		    false, &keys[i]) < 0)
			keys[i].n = 0;
	}
	keys_made = true;
}

/*
 * Whether builtin i can match in b: one of its literals occurs (a caseless
 * one compared as PCRE2 compares caselessly), or it has none known.
 */
static bool
may_match(size_t i, const struct buf *b, struct buf *folded)
{
	const struct relit	*k = &keys[i];
	char			 f[RR_FOLD_ROOM(64)];
	size_t			 j, n;

	if (k->n == 0 || force_all)
		return true;
	for (j = 0; j < k->n; j++) {
		if (!k->alts[j].ci) {
			if (memmem(b->data ? b->data : "", b->len,
			    k->alts[j].s, k->alts[j].len) != NULL)
				return true;
			continue;
		}
		/* The text folded once per change of it; long keys: whole. */
		if (k->alts[j].len > 64)
			return true;
		if (folded->len == 0 && b->len > 0)
			rr_fold(b->data, b->len, folded);
		n = rr_fold_mem(k->alts[j].s, k->alts[j].len, f);
		if (memmem(folded->data ? folded->data : "", folded->len, f,
		    n) != NULL)
			return true;
	}
	return false;
}

static const struct rr_regex *
builtin(size_t i)
{
	if (compiled[i] == NULL)
		rr_regex_compile_table("redaction pattern", builtins[i], 1,
		    sizeof(builtins[0]), &compiled[i]);
	return compiled[i];
}

/* Case-insensitive search for an ASCII needle; NULL when absent. */
static const char *
find_ci(const char *s, size_t len, const char *needle)
{
	size_t		 n = strlen(needle), i, j;
	unsigned char	 lo = (unsigned char)tolower((unsigned char)needle[0]);
	unsigned char	 up = (unsigned char)toupper((unsigned char)needle[0]);
	const char	*a, *b;

	for (i = 0; i + n <= len; i++) {
		/* To the next place the first character is, in either case. */
		a = memchr(s + i, lo, len - n + 1 - i);
		b = lo == up ? NULL : memchr(s + i, up, len - n + 1 - i);
		if (a == NULL && b == NULL)
			return NULL;
		i = (size_t)((a != NULL && (b == NULL || a < b) ? a : b) - s);
		for (j = 1; j < n; j++)
			if (tolower((unsigned char)s[i + j]) != needle[j])
				break;
		if (j == n)
			return s + i;
	}
	return NULL;
}

void
redact_drop_private(const char *s, size_t len, struct buf *out)
{
	const char	*open, *close, *end = s + len;

	while ((open = find_ci(s, (size_t)(end - s), "<private>")) != NULL) {
		buf_add(out, s, (size_t)(open - s));
		close = find_ci(open, (size_t)(end - open), "</private>");
		if (close == NULL)
			return;
		s = close + strlen("</private>");
	}
	buf_add(out, s, (size_t)(end - s));
}

static bool
secret_name(const char *name, size_t len)
{
	static const char *const words[] = {
		"password", "passwd", "secret", "token", "apikey", "api_key",
		"access_key", "private_key", "credential", NULL
	};
	/* DB_PASS, MYSQL_PWD, STRIPE_KEY; not PWD, the directory. */
	static const char *const ends[] = {
		"_pass", "_pwd", "_key", "_auth", NULL
	};
	size_t	i, n;

	for (i = 0; words[i]; i++)
		if (find_ci(name, len, words[i]) != NULL)
			return true;
	for (i = 0; ends[i]; i++) {
		n = strlen(ends[i]);
		if (len >= n && find_ci(name + len - n, n, ends[i]) != NULL)
			return true;
	}
	return false;
}

/*
 * The values of the secret-named environment variables, found again only
 * when the environment has changed (its entries, by address).
 */
static const char **
secret_values(size_t *n)
{
	extern char	**environ;
	static const char **vals;
	static size_t	  nvals, cap;
	static uint64_t	  seen;
	uint64_t	  fp = 1469598103934665603ULL;
	char		**e;
	const char	 *eq;

	for (e = environ; e != NULL && *e != NULL; e++)
		fp = (fp ^ (uint64_t)(uintptr_t)*e) * 1099511628211ULL;
	if (fp != seen || vals == NULL) {
		nvals = 0;
		for (e = environ; e != NULL && *e != NULL; e++) {
			if ((eq = strchr(*e, '=')) == NULL ||
			    strlen(eq + 1) < ENV_SECRET_MIN ||
			    !secret_name(*e, (size_t)(eq - *e)))
				continue;
			if (nvals == cap) {
				cap = cap ? cap * 2 : 8;
				vals = xreallocarray(vals, cap, sizeof(*vals));
			}
			vals[nvals++] = eq + 1;
		}
		seen = fp;
		if (vals == NULL)
			vals = xcalloc(1, sizeof(*vals));
	}
	*n = nvals;
	return vals;
}

/* Masks every literal occurrence of the values of secret-named variables. */
static void
mask_env(struct buf *b)
{
	const char	**vals, *val, *hit;
	struct buf	  out;
	size_t		  vlen, i, k, n;

	vals = secret_values(&n);
	for (k = 0; k < n; k++) {
		val = vals[k];
		vlen = strlen(val);
		if (memmem(b->data, b->len, val, vlen) == NULL)
			continue;
		buf_init(&out);
		i = 0;
		while ((hit = memmem(b->data + i, b->len - i, val, vlen)) !=
		    NULL) {
			buf_add(&out, b->data + i, (size_t)(hit - b->data) - i);
			buf_adds(&out, REDACTED);
			i = (size_t)(hit - b->data) + vlen;
		}
		buf_add(&out, b->data + i, b->len - i);
		buf_release(b);
		*b = out;
	}
}

/* Applies one pattern to b; false when it hit a limit. */
static bool
apply(const struct rr_regex *re, const char *repl, struct buf *b)
{
	struct buf	out;
	long		n;

	buf_init(&out);
	n = rr_regex_replace_all(re, b->data, b->len, repl, &out);
	buf_release(b);
	*b = out;
	return n >= 0;
}

void
redact_text(const struct redact_opts *o, const char *s, size_t len,
    struct buf *out)
{
	struct buf	b, folded;
	size_t		i;
	bool		ok = true;

	buf_init(&b);
	redact_drop_private(s, len, &b);
	if (o->defaults) {
		make_keys();
		mask_env(&b);
		buf_init(&folded);
		for (i = 0; i < NBUILTINS && ok; i++)
			if (may_match(i, &b, &folded)) {
				ok = apply(builtin(i), builtins[i][1], &b);
				buf_reset(&folded);	/* b changed */
			}
		buf_release(&folded);
	}
	for (i = 0; i < o->nextra && ok; i++)
		ok = apply(o->extra[i], REDACTED, &b);
	if (ok)
		buf_add(out, b.data, b.len);
	else
		buf_adds(out, REDACT_FAILED);
	buf_release(&b);
}
