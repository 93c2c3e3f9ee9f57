/*
 * Templates of related files and JSON keys (reflexion-rules(5), Related
 * files): text with {{dir}}, {{name}}, {{stem}}, {{project}} and
 * {{block}}, as in '{{dir}}/partial_results/{{block}}_stimulus.json'.
 *
 * The rule's own text is trusted; what a variable brings is event text
 * (a block's id is whatever the document says), so it is checked before
 * it is used: a variable that names one file name ({{name}}, {{stem}},
 * {{block}}) must be one, never "", ".", ".." or anything with a '/', a
 * '\\' or a control character, so that no id can lead a template out of
 * the directory its rule names; and in a file name pattern its '*', '?'
 * and '\\' are taken literally.  Nothing is kept between calls.
 */
#ifndef RR_PATHTPL_H
#define RR_PATHTPL_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

enum ptpl_var {
	PV_DIR,		/* the directory of the file the tool touches */
	PV_NAME,	/* its name */
	PV_STEM,	/* its name without the last extension */
	PV_PROJECT,	/* the project directory */
	PV_BLOCK,	/* the id of the block being checked */
	PV__COUNT
};

#define PV_BIT(v)	(1u << (v))
/* The variables a JSON key may name. */
#define PV_KEY_VARS	(PV_BIT(PV_NAME) | PV_BIT(PV_STEM) | PV_BIT(PV_BLOCK))
#define PV_ALL_VARS	((1u << PV__COUNT) - 1)

extern const char *const ptpl_var_names[PV__COUNT];

/*
 * Checks tpl[0..len): every {{...}} one of the variables of `allowed`.
 * Returns 0 with *uses (the variables named, PV_BIT), or -1 with *errmsg
 * (static) and *erroff (the offending byte).
 */
int	 ptpl_check(const char *tpl, size_t len, unsigned allowed,
	     unsigned *uses, const char **errmsg, size_t *erroff);
/*
 * Appends tpl with its variables replaced by values[] to out.  With
 * pattern, the '*', '?' and '\\' of a value are escaped with '\\' (the
 * file name patterns of ptpl_name_match).  Returns 0, or -1 with *why
 * (static) when a value is missing (NULL) or is no file name.
 */
int	 ptpl_expand(const char *tpl, const char *const values[PV__COUNT],
	     bool pattern, struct buf *out, const char **why);
/* Whether s is one file name: not "", ".", "..", no '/', '\\', control. */
bool	 ptpl_is_name(const char *s);
/* Whether a file name pattern has a wildcard ('*' or '?' not escaped). */
bool	 ptpl_has_wildcard(const char *pat, size_t len);
/*
 * A file name against a pattern of '*' (any run of bytes), '?' (one
 * character) and '\\x' (x itself): the usual two-pointer match, time
 * at most the product of the two lengths, both of a file name's size.
 */
bool	 ptpl_name_match(const char *pat, const char *name);

#endif
