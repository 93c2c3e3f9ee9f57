/*
 * Reading and writing the binary formats of the compiled cache and the
 * prefilter index: native-endian integers, unaligned, and a reader that
 * never steps outside its bounds (a short read sets `bad` and yields
 * zeroes, so callers check once at the end).
 */
#ifndef RR_BYTES_H
#define RR_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "buf.h"

struct rd {
	const unsigned char	*p, *end;
	bool			 bad;
};

static inline void
rd_init(struct rd *r, const void *p, size_t len)
{
	r->p = p;
	r->end = r->p + len;
	r->bad = false;
}

static inline const unsigned char *
rd_bytes(struct rd *r, size_t n)
{
	const unsigned char	*p = r->p;

	if (r->bad || n > (size_t)(r->end - r->p)) {
		r->bad = true;
		return NULL;
	}
	r->p += n;
	return p;
}

#define RD_INT(name, type)						\
static inline type							\
name(struct rd *r)							\
{									\
	const unsigned char	*p = rd_bytes(r, sizeof(type));		\
	type			 v = 0;					\
									\
	if (p != NULL)							\
		memcpy(&v, p, sizeof(type));				\
	return v;							\
}
RD_INT(rd_u8, uint8_t)
RD_INT(rd_u16, uint16_t)
RD_INT(rd_u32, uint32_t)
RD_INT(rd_u64, uint64_t)
RD_INT(rd_i64, int64_t)
#undef RD_INT

#define WR_INT(name, type)						\
static inline void							\
name(struct buf *b, type v)						\
{									\
	buf_add(b, &v, sizeof(v));					\
}
WR_INT(wr_u8, uint8_t)
WR_INT(wr_u16, uint16_t)
WR_INT(wr_u32, uint32_t)
WR_INT(wr_u64, uint64_t)
WR_INT(wr_i64, int64_t)
#undef WR_INT

/* Overwrites a u32 written earlier at offset off. */
static inline void
wr_u32_at(struct buf *b, size_t off, uint32_t v)
{
	memcpy(b->data + off, &v, sizeof(v));
}

static inline void
wr_u64_at(struct buf *b, size_t off, uint64_t v)
{
	memcpy(b->data + off, &v, sizeof(v));
}

#endif
