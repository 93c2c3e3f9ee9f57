/*
 * A growable byte buffer.  Invariant: after buf_init() `data` is never NULL
 * and is always NUL-terminated at `len`, so it can be handed to C string
 * functions; it may also contain NUL bytes inside (length-tracked).
 * The buffer owns `data`; buf_detach() hands it to the caller.
 */
#ifndef RR_BUF_H
#define RR_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct buf {
	char	*data;
	size_t	 len;
	size_t	 cap;
};

void	 buf_init(struct buf *);
void	 buf_release(struct buf *);
void	 buf_reset(struct buf *);
void	 buf_grow(struct buf *, size_t extra);
void	 buf_add(struct buf *, const void *, size_t);
void	 buf_adds(struct buf *, const char *);
void	 buf_addc(struct buf *, char);
void	 buf_printf(struct buf *, const char *, ...)
	     __attribute__((format(printf, 2, 3)));
void	 buf_vprintf(struct buf *, const char *, va_list);
/*
 * Numbers without printf: decimal, at least width digits (zero-padded;
 * 0: as many as needed), and hexadecimal in lower case.  The hook's
 * common path formats nothing with printf, whose machinery is ~150 KB of
 * libc text and tables that the kernel would map 64 KB around each page
 * touched (bench/NOTES.md).
 */
void	 buf_add_u64(struct buf *, unsigned long long, int width);
void	 buf_add_i64(struct buf *, long long);
void	 buf_add_hex(struct buf *, unsigned long long, int width);
char	*buf_detach(struct buf *, size_t *lenp);
void	 buf_truncate(struct buf *, size_t len);

#endif
