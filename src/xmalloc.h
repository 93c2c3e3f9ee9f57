/*
 * Allocation wrappers.  A hook is a short-lived process that cannot do
 * anything useful without memory, so these never return NULL: on failure
 * they print one line on stderr and abort().  That is the only place below
 * main.c where the process ends on its own.
 */
#ifndef RR_XMALLOC_H
#define RR_XMALLOC_H

#include <stdarg.h>
#include <stddef.h>

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xrealloc(void *, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
char	*xmemdup0(const void *, size_t);	/* copy + NUL terminator */
char	*xasprintf(const char *, ...) __attribute__((format(printf, 1, 2)));
char	*xvasprintf(const char *, va_list) __attribute__((format(printf, 1, 0)));

#endif
