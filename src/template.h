/*
 * Message templates: literal text with {{variable}} substitutions.
 * template.c compiles them, template_render.c renders them.
 * A template is compiled once (unknown variables are lint errors, not
 * surprises at hook time) and rendered per event.  Segments live in the
 * arena given to tpl_compile().
 *
 * Sections (reflexion-rules(5), Templates):
 *   {{#NAME}}...{{/NAME}}   the body for each row of a list (kb), or once
 *                           when the value is present
 *   {{^NAME}}...{{/NAME}}   the body once when the value is absent
 *   {{#kb | join: "SEP"}}   rows separated by SEP
 *   {{NAME | join: "SEP"}}  a list's items separated by SEP
 * Inside {{#kb}}, kb.error, kb.resolution, kb.parsed, kb.last_used,
 * kb.uses, kb.id and kb.resolution.PATH name the current row; block.PATH
 * names a value of the JSON block a blocks condition found; inside
 * {{#memory}} (the rows of the rule's memory conditions), memory.id,
 * memory.kind, memory.date, memory.ts, memory.session, memory.project,
 * memory.summary, memory.text, memory.tool and a route's
 * memory.exec_type, memory.pipeline, memory.icon, memory.confidence,
 * memory.reason.  {{route.exec_type}}, {{route.pipeline}},
 * {{route.icon}}, {{route.confidence}} and {{route.reason}} are the
 * rule's route (its own, or the router's answer).
 *
 * A banner (tpl_compile_banner()) knows {{critical}}, {{high}},
 * {{medium}} and {{low}} besides: the skills suggested at each priority,
 * a list (", " between them unless | join says otherwise), present when
 * not empty.  A value is
 * present as in JavaScript: not missing, null, false, 0 or "" (so an
 * empty list is present); a variable of the event when not empty.  A
 * section's body is a template of its own (struct tpl_seg.body).
 *
 * Rendering copies the template's text as written and escapes what it
 * substitutes from the event, the environment, files and kb rows
 * (textesc.h): one line each, except {{sections}} and kb rows, which keep
 * their line feeds.  The rule's own values (rule, skill, description,
 * keywords) are copied as written.
 */
#ifndef RR_TEMPLATE_H
#define RR_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "buf.h"

struct rr_event;
struct kb_rows;
struct kb_row;
struct mem_rows;
struct mem_row;
struct route_info;

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
	V_LBRACE,	/* a literal "{" just before a tag */
	V_BLOCK,	/* the id of the block a blocks condition found */
	V_BLOCKS,	/* the ids of all it found, ", " between */
	V_BLOCK_FIELD,	/* block.<path>: a value of a JSON block */
	V_ROUTE_EXEC_TYPE,	/* the rule's route */
	V_ROUTE_PIPELINE,
	V_ROUTE_ICON,
	V_ROUTE_CONFIDENCE,
	V_ROUTE_REASON,
	V_CRITICAL,	/* banners only: the skills of a priority */
	V_HIGH,
	V_MEDIUM,
	V_LOW,
	V__COUNT
};

#define TPL_BANNER_LISTS	4	/* V_CRITICAL .. V_LOW */

enum tpl_seg_kind {
	TPL_LITERAL,
	TPL_VAR,
	TPL_ROW,	/* a field of the current kb row */
	TPL_MEMROW,	/* a field of the current memory row */
	TPL_SECTION
};

/* Fields of a knowledge-base row, inside {{#kb}}. */
enum tpl_row_field {
	TF_ERROR,
	TF_RESOLUTION,
	TF_PARSED,	/* the resolution is JSON (not null) */
	TF_LAST_USED,
	TF_USES,
	TF_ID,
	TF_RESOLUTION_PATH,	/* kb.resolution.<path>: text is the path */
	TF__COUNT
};

/* Fields of a memory row, inside {{#memory}}. */
enum tpl_mem_field {
	MF_ID,
	MF_KIND,
	MF_DATE,	/* 2026-11-28 08:14 */
	MF_TS,
	MF_SESSION,	/* its first 8 characters */
	MF_PROJECT,
	MF_SUMMARY,	/* the row's one line */
	MF_TEXT,	/* the whole row */
	MF_TOOL,
	MF_EXEC_TYPE,
	MF_PIPELINE,
	MF_ICON,
	MF_CONFIDENCE,
	MF_REASON,
	MF__COUNT
};

/* What a section is over. */
enum tpl_section_kind {
	SEC_VAR,	/* an event variable: present when not empty */
	SEC_KB,		/* the rows of the rule's kb conditions */
	SEC_ROW,	/* a field of the current row */
	SEC_MEMORY,	/* the rows of the rule's memory conditions */
	SEC_MEMROW	/* a field of the current memory row */
};

struct template;

struct tpl_seg {
	enum tpl_seg_kind kind;
	const char	*text;	/* literal text, input./env. key, JSON path */
	size_t		 len;
	enum tpl_var	 var;
	enum tpl_row_field field;	/* TPL_ROW, SEC_ROW */
	enum tpl_mem_field mfield;	/* TPL_MEMROW, SEC_MEMROW */
	enum tpl_section_kind section;	/* TPL_SECTION */
	bool		 inverted;	/* {{^NAME}} */
	const char	*sep;		/* | join: "SEP", or NULL */
	size_t		 seplen;
	struct template	*body;		/* TPL_SECTION */
};

struct template {
	struct tpl_seg	*segs;
	size_t		 n;
	const char	*src;
	bool		 uses_kb;	/* names kb anywhere */
	bool		 uses_memory;	/* names memory anywhere */
};

/* What a rendering can draw on; every pointer may be NULL. */
struct tpl_ctx {
	struct rr_event	*ev;
	const char	*rule_id;
	const char	*skill;
	const char	*description;
	const char	*match;
	size_t		 match_len;
	const struct kb_rows *kb;	/* rows of the kb conditions */
	const struct mem_rows *memory;	/* rows of the memory conditions */
	const struct route_info *route;	/* the rule's route, or NULL */
	/* A banner's: the skills of each priority, critical first. */
	const char *const *skills[TPL_BANNER_LISTS];
	size_t		 nskills[TPL_BANNER_LISTS];
	const char	*missing;
	const char	*sections;
	const char	*keywords;
	/*
	 * {{path}}, {{abs_path}}, {{file_path}} when not the event's own:
	 * the file of a shell command that the rule matched; or NULL.
	 */
	const char	*path;
	const char	*abs_path;
	const char	*file_path;
	/* The blocks a blocks condition found: {{block}}, {{blocks}}. */
	const char	*block;
	const char	*blocks;
	const struct cJSON *block_member;	/* a JSON block's, or NULL */
};

/*
 * Compiles src.  On error returns -1 (an unknown variable) or -2 (a
 * section or filter that does not parse), *errmsg (owned) and *erroff
 * (byte offset in src of the offending "{{", or of the bad part in it).
 */
int	 tpl_compile(struct arena *, const char *src, size_t len,
	     struct template *out, char **errmsg, size_t *erroff);
/* The same for a banner, whose lists a message does not have. */
int	 tpl_compile_banner(struct arena *, const char *src, size_t len,
	     struct template *out, char **errmsg, size_t *erroff);
void	 tpl_render(const struct template *, const struct tpl_ctx *,
	     struct buf *);
/* Builds a template from segments given in code (diet103 import). */
void	 tpl_add_literal(struct arena *, struct template *, const char *,
	     size_t);
void	 tpl_add_var(struct arena *, struct template *, enum tpl_var);
/*
 * Names, indexed by enum tpl_var ("input", "env" and the second "block"
 * take a ".key").
 */
extern const char *const tpl_var_names[V__COUNT];
/* Names after "kb.", indexed by enum tpl_row_field. */
extern const char *const tpl_row_field_names[TF__COUNT];
/* Names after "memory.", indexed by enum tpl_mem_field. */
extern const char *const tpl_mem_field_names[MF__COUNT];

#endif
