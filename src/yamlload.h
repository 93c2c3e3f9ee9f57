/*
 * YAML to a small tree that keeps source positions.
 *
 * libyaml's own document loader drops marks for us and expands nothing, so
 * we build the tree from parser events.  Every node lives in the document's
 * arena and is freed by ydoc_release().  An alias becomes a second pointer
 * to the anchored node (the tree is a DAG); `weight` counts the nodes a full
 * expansion would visit, so alias bombs are refused at load time instead of
 * blowing up a later walk.
 */
#ifndef RR_YAMLLOAD_H
#define RR_YAMLLOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "diag.h"

enum ynode_type {
	YNODE_SCALAR,
	YNODE_SEQ,
	YNODE_MAP
};

enum yscalar_style {
	YSTYLE_PLAIN,
	YSTYLE_SINGLE,
	YSTYLE_DOUBLE,
	YSTYLE_LITERAL,
	YSTYLE_FOLDED
};

struct ynode {
	enum ynode_type		 type;
	enum yscalar_style	 style;
	int			 line, col;		/* 1-based */
	int			 end_line, end_col;	/* 1-based, inclusive */
	const char		*tag;		/* explicit tag, or NULL */
	const char		*str;		/* scalar text, NUL-terminated */
	size_t			 len;
	/* Sequence: items.  Mapping: keys at 2i, values at 2i + 1. */
	struct ynode		**items;
	size_t			 n;
	size_t			 weight;
};

struct ydoc {
	struct arena	 arena;
	struct ynode	*root;		/* NULL for an empty file */
	const char	*file;		/* borrowed from the caller */
	const char	*text;		/* arena copy of the file text */
	size_t		 text_len;
};

/* Limits that keep hostile YAML bounded in time and memory. */
#define YAML_MAX_DEPTH		128
#define YAML_MAX_WEIGHT		(1u << 20)	/* nodes added by aliases */

/*
 * Parses text[0..len) as one YAML document.  On a syntax or limit error
 * returns -1 and adds a diagnostic; doc->root is then NULL.  In every case
 * the caller must ydoc_release(doc).  `file` must outlive the doc.
 */
int	 ydoc_load(struct ydoc *doc, const char *file, const char *text,
	     size_t len, struct diag_list *);
void	 ydoc_release(struct ydoc *);

/* Fills a diag_loc pointing at node (whole span). */
void	 ydoc_loc(const struct ydoc *, const struct ynode *, struct diag_loc *);

/* Mapping lookup by key; NULL if absent or not a mapping. */
struct ynode *ynode_get(const struct ynode *map, const char *key);
/* The key node itself (for positions and names), or NULL. */
struct ynode *ynode_get_key(const struct ynode *map, const char *key);
bool	 ynode_is_null(const struct ynode *);
/* Plain true/false (YAML 1.2 core schema); -1 if not a boolean. */
int	 ynode_bool(const struct ynode *);
/* Plain decimal integer; returns false if not one. */
bool	 ynode_int(const struct ynode *, long long *);
/* "a list", "a mapping", "a string", "a boolean" or "null". */
const char *ynode_type_name(const struct ynode *);

#endif
