/* Allocation wrappers, out_of_memory() and BUG() (see xmalloc.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

void
out_of_memory(size_t size)
{
	if (size != 0)
		fprintf(stderr, "reflexion-rules: cannot allocate %zu bytes\n",
		    size);
	else
		fprintf(stderr, "reflexion-rules: cannot allocate memory\n");
	abort();
}

void
bug_at(const char *file, int line, const char *fmt, ...)
{
	va_list	ap;

	fprintf(stderr, "reflexion-rules: BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void *
xmalloc(size_t size)
{
	void	*p = malloc(size ? size : 1);

	if (p == NULL)
		out_of_memory(size);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void	*p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		out_of_memory(n * size);
	return p;
}

void *
xrealloc(void *ptr, size_t size)
{
	void	*p = realloc(ptr, size ? size : 1);

	if (p == NULL)
		out_of_memory(size);
	return p;
}

void *
xreallocarray(void *ptr, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		out_of_memory(SIZE_MAX);
	return xrealloc(ptr, n * size);
}

char *
xmemdup0(const void *s, size_t len)
{
	char	*p = xmalloc(len + 1);

	if (len)
		memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *
xstrdup(const char *s)
{
	return xmemdup0(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	return xmemdup0(s, strnlen(s, n));
}

char *
xvasprintf(const char *fmt, va_list ap)
{
	va_list	 again;
	char	 small[256], *s;
	int	 n;

	/* Most texts fit the stack: formatted once, not measured first. */
	va_copy(again, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n < 0)
		out_of_memory(0);
	if ((size_t)n < sizeof(small))
		s = xmemdup0(small, (size_t)n);
	else {
		s = xmalloc((size_t)n + 1);
		vsnprintf(s, (size_t)n + 1, fmt, again);
	}
	va_end(again);
	return s;
}

char *
xstrjoin(const char *s, ...)
{
	va_list		 ap;
	const char	*p;
	size_t		 len = 0, n;
	char		*out, *o;

	va_start(ap, s);
	for (p = s; p != NULL; p = va_arg(ap, const char *))
		len += strlen(p);
	va_end(ap);
	o = out = xmalloc(len + 1);
	va_start(ap, s);
	for (p = s; p != NULL; p = va_arg(ap, const char *)) {
		n = strlen(p);
		memcpy(o, p, n);
		o += n;
	}
	va_end(ap);
	*o = '\0';
	return out;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}
