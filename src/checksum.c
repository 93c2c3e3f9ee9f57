#include <string.h>

#include "checksum.h"

#define K1	0x9e3779b97f4a7c15ULL
#define K2	0xc2b2ae3d27d4eb4fULL

static inline uint64_t
rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

/* MurmurHash3's finalizer: every input bit reaches every output bit. */
static inline uint64_t
fmix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

uint64_t
rr_checksum(const void *data, size_t n)
{
	const unsigned char	*p = data;
	uint64_t		 h = K2 ^ ((uint64_t)n * K1), w;
	size_t			 rest;

	/*
	 * (h ^ w) * odd, then a rotation: invertible in h and in w.  Four
	 * words a turn: the same chain, with a quarter of the loop's own
	 * instructions (the caches' sums are most of what a call hashes).
	 */
	for (; n >= 32; p += 32, n -= 32) {
		memcpy(&w, p, 8);
		h = rotl((h ^ w) * K1, 29);
		memcpy(&w, p + 8, 8);
		h = rotl((h ^ w) * K1, 29);
		memcpy(&w, p + 16, 8);
		h = rotl((h ^ w) * K1, 29);
		memcpy(&w, p + 24, 8);
		h = rotl((h ^ w) * K1, 29);
	}
	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		h = rotl((h ^ w) * K1, 29);
	}
	rest = n;
	w = 0;
	if (rest > 0)
		memcpy(&w, p, rest);
	h = rotl((h ^ w ^ ((uint64_t)rest << 56)) * K1, 29);
	return fmix(h);
}
