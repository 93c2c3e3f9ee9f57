/*
 * The blocks of a document (the `blocks` condition of reflexion-rules(5)):
 * a text cut into blocks at the lines that match a heading pattern or a
 * separator, or the members of an object or array of a JSON document,
 * each with its id (a test case's "TC-1.2", a member's key); and the ids
 * a pattern lists anywhere in a text (`listed`).
 *
 * Patterns are matched line by line, each line once against each
 * pattern: time linear in the text, bounded by the regex match limit
 * where a pattern backtracks (BLOCKS_LIMIT).  Nothing here evaluates a
 * condition; the evaluation calls down to it.  A struct block_list owns
 * its array and its parsed JSON document; texts and ids are in the arena
 * given (the event's) or borrowed from the text split.
 */
#ifndef RR_BLOCKS_H
#define RR_BLOCKS_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"

struct cJSON;
struct rr_regex;

struct block {
	const char		*id;	/* NUL-terminated */
	const char		*text;	/* text blocks: its lines, borrowed */
	size_t			 len;
	size_t			 line;	/* of its first line, from 1; 0: JSON */
	size_t			 index;	/* its place among the blocks, from 0 */
	const struct cJSON	*member; /* JSON blocks, in the list's doc */
};

struct block_list {
	struct block	*v;
	size_t		 n, cap;
	struct cJSON	*doc;		/* JSON blocks: the document, owned */
};

/*
 * How a text is cut.  A line that matches `start` begins a block, whose
 * id is the pattern's first group (or its whole match); else a line that
 * matches `separator` ends one block and begins the next (ids "1", "2",
 * ... counting the blocks that are not blank); else a line that matches
 * `end` ends the block, and what follows belongs to none until the next
 * start or separator.  Exactly one of start and separator is set.  With
 * `id`, a block's id is the first group of its first line that matches
 * it, when one does.
 */
struct block_cut {
	const struct rr_regex	*start, *separator, *end, *id;
};

enum blocks_result {
	BLOCKS_OK,
	BLOCKS_LIMIT,		/* a pattern hit its match limit */
	BLOCKS_NOT_JSON		/* no document, or nothing at the path */
};

/* The longest id kept; longer ones are cut (at a UTF-8 boundary). */
#define BLOCK_ID_MAX	256

void	 block_list_init(struct block_list *);
void	 block_list_release(struct block_list *);
/* Cuts text[0..len) into out (empty first). */
enum blocks_result blocks_cut_text(const struct block_cut *, const char *text,
	     size_t len, struct arena *, struct block_list *out);
/*
 * The members of the object or array at the dotted key path `path` ("."
 * for the document itself) of the JSON text: an object's members by key,
 * an array's items by index, or by the text of the value at id_path in
 * each item when it is a string or a number.
 */
enum blocks_result blocks_cut_json(const char *text, size_t len,
	     const char *path, const char *id_path, struct arena *,
	     struct block_list *out);

/* A set of ids, sorted. */
struct id_set {
	const char	**v;
	size_t		  n;
};

/*
 * Every id that a match of re on a line of text[0..len) captures (its
 * first group, else the whole match), into *out (in the arena).
 */
enum blocks_result blocks_listed(const struct rr_regex *re, const char *text,
	     size_t len, struct arena *, struct id_set *out);
bool	 id_set_has(const struct id_set *, const char *id);
/* Sorts a set made by hand and drops its duplicates. */
void	 id_set_sort(struct id_set *);

#endif
