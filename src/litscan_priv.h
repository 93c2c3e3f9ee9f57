/*
 * The encoding of a literal scanner (its layout is described in
 * litscan.c), shared by the code that builds and encodes it (litscan.c)
 * and the code that maps and runs it (litscan_map.c).  Not for other
 * modules.
 */
#ifndef RR_LITSCAN_PRIV_H
#define RR_LITSCAN_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define WINDOW		4
#define PREFIX		32	/* compared in place; a longer literal: memmem */

#define LS_MAGIC	0x314e4353u	/* "SCN1" */
#define LS_HEADER	64
#define LS_GROUP	16
#define LS_CLASS	12
#define LS_LIT		12
#define LS_MAX_BITS	24

#define F_EXACT		0x1u
#define F_CI		0x2u
#define F_LONG		0x4u

static inline bool
ls_occurs(const void *text, size_t len, const void *s, size_t n)
{
	return n == 0 || (n <= len && memmem(text, len, s, n) != NULL);
}

static inline uint32_t
ld32(const unsigned char *p)
{
	uint32_t	v;

	memcpy(&v, p, 4);
	return v;
}

static inline void
st32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static inline uint32_t
key_hash(uint32_t key, bool ci)
{
	return (key ^ (ci ? 0x5bd1e995u : 0)) * 0x9e3779b1u;
}

static inline size_t
class_len(size_t len)
{
	return len < PREFIX ? len : PREFIX;
}

#endif
