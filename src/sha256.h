/*
 * SHA-256 (FIPS 180-4), for the digests that pin team rule sources
 * (pinned.h).  None of the engine's libraries offers it.  A struct
 * sha256 is plain state on the caller's side: nothing to release.
 */
#ifndef RR_SHA256_H
#define RR_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN	32

struct sha256 {
	uint32_t	h[8];
	uint64_t	bytes;		/* hashed so far */
	unsigned char	block[64];
	size_t		fill;		/* bytes waiting in block */
};

void	 sha256_init(struct sha256 *);
void	 sha256_update(struct sha256 *, const void *, size_t);
void	 sha256_final(struct sha256 *, unsigned char out[SHA256_LEN]);
/* The digest of data[0..len) as 64 lower-case hex digits and a NUL. */
void	 sha256_hex(const void *data, size_t len, char out[65]);
/* out[SHA256_LEN] as 64 lower-case hex digits and a NUL. */
void	 sha256_to_hex(const unsigned char in[SHA256_LEN], char out[65]);

#endif
