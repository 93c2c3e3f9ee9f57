/*
 * Allocation wrappers, and the two ways the process ends on its own below
 * main.c.
 *
 * A hook is a short-lived process that cannot do anything useful without
 * memory, so these never return NULL: on failure they print one line on
 * stderr and abort().  A library that allocates for itself and says so
 * with NULL (cJSON, PCRE2) ends the same way, through out_of_memory().
 *
 * BUG() is for a programmer's error that no input can cause, such as a
 * typo in a built-in table: it prints "reflexion-rules: BUG: FILE:LINE:
 * ..." and aborts.  Anything a user or an agent can cause is an error
 * returned to the caller instead.
 *
 * Out of memory and BUG() are the only two; the watchdog (watchdog.h)
 * ends a hook that overruns its deadline from a signal handler, and the
 * child process load.c forks to compile a cache miss ends with _exit().
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
/* The strings up to a NULL, one after the other; owned.  (No printf.) */
char	*xstrjoin(const char *, ...) __attribute__((sentinel));
char	*xvasprintf(const char *, va_list) __attribute__((format(printf, 1, 0)));

/* Ends the process for want of memory; size is 0 when it is not known. */
void	 out_of_memory(size_t size) __attribute__((noreturn));

#define BUG(...)	bug_at(__FILE__, __LINE__, __VA_ARGS__)
void	 bug_at(const char *file, int line, const char *fmt, ...)
	     __attribute__((noreturn, format(printf, 3, 4)));

#endif
