#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "xmalloc.h"

#define ARENA_BLOCK	(64 * 1024)

struct arena_block {
	struct arena_block	*next;
	size_t			 used;
	size_t			 size;
	_Alignas(16) unsigned char data[];
};

void
arena_init(struct arena *a)
{
	a->head = NULL;
	a->total = 0;
}

void
arena_release(struct arena *a)
{
	struct arena_block	*b, *next;

	for (b = a->head; b != NULL; b = next) {
		next = b->next;
		free(b);
	}
	arena_init(a);
}

void *
arena_alloc(struct arena *a, size_t n)
{
	struct arena_block	*b = a->head;
	size_t			 size;
	void			*p;

	n = (n + 15) & ~(size_t)15;
	if (n == 0)
		n = 16;
	if (b == NULL || b->size - b->used < n) {
		size = n > ARENA_BLOCK / 4 ? n : ARENA_BLOCK;
		b = xmalloc(sizeof(*b) + size);
		b->used = 0;
		b->size = size;
		/* Big one-off blocks go behind the head so the head keeps filling. */
		if (a->head != NULL && size != ARENA_BLOCK) {
			b->next = a->head->next;
			a->head->next = b;
		} else {
			b->next = a->head;
			a->head = b;
		}
	}
	p = b->data + b->used;
	b->used += n;
	a->total += n;
	memset(p, 0, n);
	return p;
}

char *
arena_strndup(struct arena *a, const char *s, size_t n)
{
	char	*p = arena_alloc(a, n + 1);

	if (n)
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *
arena_printf(struct arena *a, const char *fmt, ...)
{
	va_list	 ap;
	char	*p;
	int	 n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	p = arena_alloc(a, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}
