/*
 * SHA-256 as FIPS 180-4 specifies it (section 6.2), in the plain form:
 * the digests it makes are read by people pinning a directory, not on
 * a hot path.
 */
#include <string.h>

#include "sha256.h"

static const uint32_t k256[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
};

#define ROTR(x, n)	(((x) >> (n)) | ((x) << (32 - (n))))
#define CH(x, y, z)	(((x) & (y)) ^ (~(x) & (z)))
#define MAJ(x, y, z)	(((x) & (y)) ^ ((x) & (z)) ^ ((y) & (z)))
#define BSIG0(x)	(ROTR(x, 2) ^ ROTR(x, 13) ^ ROTR(x, 22))
#define BSIG1(x)	(ROTR(x, 6) ^ ROTR(x, 11) ^ ROTR(x, 25))
#define SSIG0(x)	(ROTR(x, 7) ^ ROTR(x, 18) ^ ((x) >> 3))
#define SSIG1(x)	(ROTR(x, 17) ^ ROTR(x, 19) ^ ((x) >> 10))

void
sha256_init(struct sha256 *c)
{
	static const uint32_t h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
	};

	memset(c, 0, sizeof(*c));
	memcpy(c->h, h0, sizeof(h0));
}

/* One 512-bit block (FIPS 180-4, 6.2.2); v holds a, b, ..., h. */
static void
compress(uint32_t h[8], const unsigned char *p)
{
	uint32_t	w[64], v[8], t1, t2;
	int		t;

	for (t = 0; t < 16; t++)
		w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 |
		    (uint32_t)p[4 * t + 2] << 8 | (uint32_t)p[4 * t + 3];
	for (t = 16; t < 64; t++)
		w[t] = SSIG1(w[t - 2]) + w[t - 7] + SSIG0(w[t - 15]) +
		    w[t - 16];
	memcpy(v, h, sizeof(v));
	for (t = 0; t < 64; t++) {
		t1 = v[7] + BSIG1(v[4]) + CH(v[4], v[5], v[6]) + k256[t] + w[t];
		t2 = BSIG0(v[0]) + MAJ(v[0], v[1], v[2]);
		/* h = g, g = f, f = e, e = d + T1, d = c, c = b, b = a. */
		memmove(v + 1, v, 7 * sizeof(*v));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (t = 0; t < 8; t++)
		h[t] += v[t];
}

void
sha256_update(struct sha256 *c, const void *data, size_t len)
{
	const unsigned char	*p = data;
	size_t			 n;

	c->bytes += len;
	if (c->fill > 0) {
		n = 64 - c->fill < len ? 64 - c->fill : len;
		memcpy(c->block + c->fill, p, n);
		c->fill += n;
		p += n;
		len -= n;
		if (c->fill < 64)
			return;
		compress(c->h, c->block);
		c->fill = 0;
	}
	for (; len >= 64; p += 64, len -= 64)
		compress(c->h, p);
	memcpy(c->block, p, len);
	c->fill = len;
}

void
sha256_final(struct sha256 *c, unsigned char out[SHA256_LEN])
{
	uint64_t	bits = c->bytes * 8;
	int		i;

	/* The padding of 5.1.1: a one bit, zeros, the length in bits. */
	c->block[c->fill++] = 0x80;
	if (c->fill > 56) {
		memset(c->block + c->fill, 0, 64 - c->fill);
		compress(c->h, c->block);
		c->fill = 0;
	}
	memset(c->block + c->fill, 0, 56 - c->fill);
	for (i = 0; i < 8; i++)
		c->block[56 + i] = (unsigned char)(bits >> (56 - 8 * i));
	compress(c->h, c->block);
	for (i = 0; i < 8; i++) {
		out[4 * i] = (unsigned char)(c->h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(c->h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(c->h[i] >> 8);
		out[4 * i + 3] = (unsigned char)c->h[i];
	}
	memset(c, 0, sizeof(*c));
}

void
sha256_to_hex(const unsigned char in[SHA256_LEN], char out[65])
{
	static const char	digits[] = "0123456789abcdef";
	int			i;

	for (i = 0; i < SHA256_LEN; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[64] = '\0';
}

void
sha256_hex(const void *data, size_t len, char out[65])
{
	struct sha256	c;
	unsigned char	md[SHA256_LEN];

	sha256_init(&c);
	sha256_update(&c, data, len);
	sha256_final(&c, md);
	sha256_to_hex(md, out);
}
