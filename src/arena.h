/*
 * A bump allocator for data that is built once and freed all at once: the
 * YAML tree of one file, a compiled rule set.  Memory from arena_alloc()
 * is never freed individually; arena_release() frees everything.
 */
#ifndef RR_ARENA_H
#define RR_ARENA_H

#include <stddef.h>

struct arena_block;

struct arena {
	struct arena_block	*head;
	size_t			 total;	/* bytes handed out, for limits */
};

void	 arena_init(struct arena *);
void	 arena_release(struct arena *);
void	*arena_alloc(struct arena *, size_t);	/* zeroed, 16-aligned */
char	*arena_strndup(struct arena *, const char *, size_t);
char	*arena_strdup(struct arena *, const char *);
char	*arena_printf(struct arena *, const char *, ...)
	     __attribute__((format(printf, 2, 3)));

#endif
