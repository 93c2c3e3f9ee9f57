/*
 * Message templates: literal text with {{variable}} substitutions.
 * A template is compiled once (unknown variables are lint errors, not
 * surprises at hook time) and rendered per event.  Segments live in the
 * arena given to tpl_compile().
 */
#ifndef RR_TEMPLATE_H
#define RR_TEMPLATE_H

#include <stddef.h>

#include "arena.h"
#include "buf.h"

struct rr_event;

enum tpl_var {
	V_PATH,		/* path relative to the project (else absolute) */
	V_FILE_PATH,	/* the tool's path exactly as sent */
	V_ABS_PATH,
	V_COMMAND,
	V_TOOL,
	V_EVENT,
	V_RULE,
	V_SKILL,
	V_DESCRIPTION,
	V_MATCH,	/* the text the deciding condition matched */
	V_PROMPT,
	V_MESSAGE,
	V_ERROR,
	V_CWD,
	V_SESSION_ID,
	V_INPUT,	/* input.<key> */
	V_ENV,		/* env.<NAME> */
	V_MISSING,	/* what required conditions found missing */
	V_SECTIONS,	/* titles of the tagged sections that apply */
	V_KEYWORDS,	/* the keywords that selected them */
	V_LBRACES,	/* a literal "{{" */
	V__COUNT
};

enum tpl_seg_kind {
	TPL_LITERAL,
	TPL_VAR
};

struct tpl_seg {
	enum tpl_seg_kind kind;
	const char	*text;	/* literal text, or the input./env. key */
	size_t		 len;
	enum tpl_var	 var;
};

struct template {
	struct tpl_seg	*segs;
	size_t		 n;
	const char	*src;
};

/* What a rendering can draw on; every pointer may be NULL. */
struct tpl_ctx {
	struct rr_event	*ev;
	const char	*rule_id;
	const char	*skill;
	const char	*description;
	const char	*match;
	size_t		 match_len;
	const char	*missing;
	const char	*sections;
	const char	*keywords;
};

/*
 * Compiles src.  On error returns -1, *errmsg (owned) and *erroff (byte
 * offset in src of the offending "{{").
 */
int	 tpl_compile(struct arena *, const char *src, size_t len,
	     struct template *out, char **errmsg, size_t *erroff);
void	 tpl_render(const struct template *, const struct tpl_ctx *,
	     struct buf *);
/* Builds a template from segments given in code (diet103 import). */
void	 tpl_add_literal(struct arena *, struct template *, const char *,
	     size_t);
void	 tpl_add_var(struct arena *, struct template *, enum tpl_var);
/* Names, indexed by enum tpl_var ("input" and "env" take a ".key"). */
extern const char *const tpl_var_names[V__COUNT];

#endif
