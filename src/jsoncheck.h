/*
 * JSON checks of a text (the `json` matcher of reflexion-rules(5)).
 *
 * A json_spec picks a document out of a text and tests it:
 *   - the document is the whole text parsed as JSON, or with `find` the
 *     first JSON object or array embedded in it (prose around a report,
 *     a ```json fence) that satisfies every `where` check;
 *   - checks: a dotted path exists (keys), has one of some types (types),
 *     or equals a value (equals); or, for each member of the object or
 *     array at a path (each) that fits its own `where`, the member's own
 *     checks (paths relative to the member; failures named in full, as
 *     mappings.TC-1.2.reason); an `each` entry may pick its members by
 *     key (`key`, a template such as '{{block}}') and by the paths they
 *     have (`has`);
 *   - comparisons (compare): a number at a path, the sum of the numbers
 *     at several (a missing one counts 0) or the count of the members of
 *     an object or array (those that fit a `where`), against a constant
 *     or another of these; a failure says both numbers.
 * The spec lives in the ruleset's arena; the expected values are cJSON
 * trees owned by the ruleset.  Evaluation borrows the text and keeps
 * nothing.
 */
#ifndef RR_JSONCHECK_H
#define RR_JSONCHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

struct cJSON;

enum json_type_bit {
	JT_OBJECT = 1 << 0,
	JT_ARRAY = 1 << 1,
	JT_STRING = 1 << 2,
	JT_NUMBER = 1 << 3,
	JT_INTEGER = 1 << 4,
	JT_BOOLEAN = 1 << 5,
	JT_NULL = 1 << 6
};

enum json_check_kind {
	JC_KEY,		/* the path exists */
	JC_TYPE,	/* the path exists and has one of `types` */
	JC_EQUALS,	/* the path exists and equals `value` */
	JC_EACH,	/* an object or array whose members pass `each` */
	JC_COMPARE	/* `compare`: two numbers in the given order */
};

struct json_spec;

/* One side of a comparison. */
enum json_num_kind {
	JN_VALUE,	/* the number at paths[0] */
	JN_SUM,		/* the sum of the numbers at paths (missing: 0) */
	JN_COUNT,	/* the members of paths[0] that fit `fit` */
	JN_CONST	/* value */
};

struct json_num {
	enum json_num_kind	 kind;
	const char		**paths;
	size_t			 npaths;
	const struct json_spec	*fit;	/* JN_COUNT: where / has, or NULL */
	double			 value;	/* JN_CONST */
};

enum json_cmp_op {
	JCMP_EQ,	/* equals */
	JCMP_NE,	/* not_equals */
	JCMP_LT,	/* less_than */
	JCMP_LE,	/* at_most */
	JCMP_GT,	/* greater_than */
	JCMP_GE,	/* at_least */
	JCMP__COUNT
};

struct json_compare {
	struct json_num		 left, right;
	enum json_cmp_op	 op;
};

/* Names of the operators as rules write them, by enum json_cmp_op. */
extern const char *const json_cmp_names[JCMP__COUNT];

struct json_check {
	enum json_check_kind	 kind;
	const char		*path;	/* dotted; a number indexes an array */
	unsigned		 types;
	const struct cJSON	*value;
	const struct json_spec	*each;	/* JC_EACH: where + checks */
	const struct json_compare *cmp;	/* JC_COMPARE */
};

struct json_spec {
	bool			 find;
	struct json_check	*where;
	size_t			 nwhere;
	struct json_check	*checks;
	size_t			 nchecks;
	/* An `each` entry's member: its key (a template), paths it has. */
	const char		*key;
	const char		**has;
	size_t			 nhas;
};

/*
 * What a key template ('{{block}}') is made from: expand() returns the
 * text of tpl (borrowed until the next call), or NULL when it cannot be
 * made, and then no member has that key.  member(), when not NULL, finds
 * the member of an object by key (of an array by index) in constant time
 * (an index the caller keeps), so that a key looked up once per block
 * costs no scan of a big object each time.
 */
struct json_env {
	const char	*(*expand)(void *arg, const char *tpl);
	const struct cJSON *(*member)(void *arg, const struct cJSON *box,
			    const char *key);
	void		*arg;
};

enum json_result {
	JSON_NO_DOCUMENT,	/* not JSON, or no embedded document fits */
	JSON_PASSES,		/* a document, and every check holds */
	JSON_FAILS,		/* a document, and some check does not */
	JSON_LIMIT		/* `find` ran out of work: not decided */
};

/*
 * The longest text checked, and the embedded documents tried (`find`).
 * The tries of `find` read at most the text once over plus
 * JSON_FIND_SLACK bytes in all: a document that parses is skipped whole
 * when it does not fit, but one that fails may have read far (arrays
 * opened and never closed, "[[[[1,1,1,..." to the end), and 64 such
 * tries of a megabyte took seconds.  Past that work, or after
 * JSON_FIND_TRIES documents that did not fit with another one ahead, the
 * search stops with JSON_LIMIT, which the caller counts as a limit
 * reached, as a regex's.
 */
#define JSON_TEXT_MAX	(16u * 1024 * 1024)
#define JSON_FIND_TRIES	64
#define JSON_FIND_SLACK	(64u * 1024)
/* Failures listed up to about this many bytes, then ", ...". */
#define JSON_FAILURES_MAX	4096
/* `each` inside `each`, at most. */
#define JSON_EACH_DEPTH	4

/*
 * Evaluates spec against text[0..len).  On JSON_FAILS, appends to
 * `failures` (when not NULL) one item per failed check, separated by
 * ", ": the path, with "(must be an object)" or "(must be \"x\")" for
 * type and value checks; past JSON_FAILURES_MAX bytes only ", ...".
 */
enum json_result json_check_text(const struct json_spec *, const char *text,
	     size_t len, struct buf *failures, const struct json_env *);
/* The same on a document already parsed (never JSON_LIMIT). */
enum json_result json_check_doc(const struct json_spec *,
	     const struct cJSON *doc, struct buf *failures,
	     const struct json_env *);
/* The whole text as one JSON value, blanks around it allowed; or NULL. */
struct cJSON *json_parse_whole(const char *text, size_t len);
/* The value at a dotted key path (a number indexes an array), or NULL. */
const struct cJSON *json_at_path(const struct cJSON *, const char *path);
/* Whether a spec names a template anywhere ('{{block}}' in a key). */
bool	 json_spec_uses(const struct json_spec *, const char *var);

/* Type names as rules write them ("object", "integer", ...); -1 if none. */
int	 json_type_from_name(const char *);
/* "an object or an array", for messages. */
void	 json_types_describe(unsigned types, struct buf *);

#endif
