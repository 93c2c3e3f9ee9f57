#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xmalloc.h"

static char buf_empty[1];

void
buf_init(struct buf *b)
{
	b->data = buf_empty;
	b->len = 0;
	b->cap = 0;
}

void
buf_release(struct buf *b)
{
	if (b->cap)
		free(b->data);
	buf_init(b);
}

void
buf_reset(struct buf *b)
{
	buf_truncate(b, 0);
}

void
buf_truncate(struct buf *b, size_t len)
{
	if (len >= b->len)
		return;
	b->len = len;
	b->data[len] = '\0';
}

void
buf_grow(struct buf *b, size_t extra)
{
	size_t	 want = b->len + extra + 1;
	size_t	 cap;

	if (want <= b->cap)
		return;
	cap = b->cap ? b->cap : 64;
	while (cap < want)
		cap = cap < ((size_t)-1) / 2 ? cap * 2 : want;
	if (b->cap == 0) {
		b->data = xmalloc(cap);
		b->data[0] = '\0';
	} else
		b->data = xrealloc(b->data, cap);
	b->cap = cap;
}

void
buf_add(struct buf *b, const void *p, size_t n)
{
	if (n == 0)
		return;
	buf_grow(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_add_u64(struct buf *b, unsigned long long v, int width)
{
	char	d[24];
	int	n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0 && n < (int)sizeof(d));
	for (; width > n; width--)
		buf_addc(b, '0');
	while (n > 0)
		buf_addc(b, d[--n]);
}

void
buf_add_i64(struct buf *b, long long v)
{
	if (v < 0) {
		buf_addc(b, '-');
		/* -(v + 1) + 1: LLONG_MIN has no positive twin. */
		buf_add_u64(b, (unsigned long long)-(v + 1) + 1, 0);
	} else
		buf_add_u64(b, (unsigned long long)v, 0);
}

void
buf_add_hex(struct buf *b, unsigned long long v, int width)
{
	char	d[16];
	int	n = 0;

	do {
		d[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v != 0 && n < (int)sizeof(d));
	for (; width > n; width--)
		buf_addc(b, '0');
	while (n > 0)
		buf_addc(b, d[--n]);
}

void
buf_addc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

void
buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list	 cp;
	size_t	 room;
	int	 n;

	/*
	 * Format once into the room there is; only a text that does not fit
	 * is formatted again: most fit, and vsnprintf is the hook's hot spot.
	 */
	if (b->cap == 0)
		buf_grow(b, 0);
	room = b->cap - b->len;
	va_copy(cp, ap);
	n = vsnprintf(b->data + b->len, room, fmt, cp);
	va_end(cp);
	if (n <= 0) {
		b->data[b->len] = '\0';
		return;
	}
	if ((size_t)n >= room) {
		buf_grow(b, (size_t)n);
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	}
	b->len += (size_t)n;
}

void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

char *
buf_detach(struct buf *b, size_t *lenp)
{
	char	*p;

	if (lenp)
		*lenp = b->len;
	p = b->cap ? b->data : xstrdup("");
	buf_init(b);
	return p;
}
