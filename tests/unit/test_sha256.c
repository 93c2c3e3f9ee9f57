/*
 * SHA-256 against the test vectors of NIST's examples for FIPS 180-4
 * (SHA256.pdf, and the long message of FIPS 180-2, appendix B.3): "",
 * "abc", the 448-bit message, a million 'a'; the same fed in pieces of
 * every size, so that the block buffering is checked too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sha256.h"
#include "tap.h"

static const char msg448[] =
    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

/* The digest of s fed in pieces of step bytes (0: at once). */
static void
digest(const char *s, size_t len, size_t step, char out[65])
{
	struct sha256	c;
	unsigned char	md[SHA256_LEN];
	size_t		i, n;

	if (step == 0) {
		sha256_hex(s, len, out);
		return;
	}
	sha256_init(&c);
	for (i = 0; i < len; i += n) {
		n = len - i < step ? len - i : step;
		sha256_update(&c, s + i, n);
	}
	sha256_final(&c, md);
	sha256_to_hex(md, out);
}

int
main(void)
{
	static const struct {
		const char	*name, *msg, *want;
	} v[] = {
		{ "the empty message", "",
		  "e3b0c44298fc1c149afbf4c8996fb924"
		  "27ae41e4649b934ca495991b7852b855" },
		{ "\"abc\"", "abc",
		  "ba7816bf8f01cfea414140de5dae2223"
		  "b00361a396177a9cb410ff61f20015ad" },
		{ "the 448-bit message", msg448,
		  "248d6a61d20638b8e5c026930c3e6039"
		  "a33ce45964ff2167f6ecedd419db06c1" },
	};
	char		 got[65], *million;
	size_t		 i, step;
	int		 same;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		digest(v[i].msg, strlen(v[i].msg), 0, got);
		is_str(got, v[i].want, "SHA-256 of %s", v[i].name);
		same = 1;
		for (step = 1; step <= 65; step++) {
			digest(v[i].msg, strlen(v[i].msg), step, got);
			same &= strcmp(got, v[i].want) == 0;
		}
		ok(same, "SHA-256 of %s, fed 1 to 65 bytes at a time",
		    v[i].name);
	}
	million = malloc(1000000);
	memset(million, 'a', 1000000);
	digest(million, 1000000, 0, got);
	is_str(got, "cdc76e5c9914fb9281a1c7e284d73e67"
	    "f1809a48a497200e046d39ccc7112cd0", "SHA-256 of a million 'a'");
	digest(million, 1000000, 4093, got);
	is_str(got, "cdc76e5c9914fb9281a1c7e284d73e67"
	    "f1809a48a497200e046d39ccc7112cd0", "SHA-256 of a million 'a', "
	    "in pieces of 4093 bytes");
	/* 55, 56 and 64 bytes: the padding's edge cases. */
	digest(million, 55, 0, got);
	is_str(got, "9f4390f8d30c2dd92ec9f095b65e2b9a"
	    "e9b0a925a5258e241c9f1e910f734318", "SHA-256 of 55 'a'");
	digest(million, 56, 0, got);
	is_str(got, "b35439a4ac6f0948b6d6f9e3c6af0f5f"
	    "590ce20f1bde7090ef7970686ec6738a", "SHA-256 of 56 'a'");
	digest(million, 64, 0, got);
	is_str(got, "ffe054fe7ae0cb6dc65c3af9b61d5209"
	    "f439851db43d0ba5997337df154668eb", "SHA-256 of 64 'a'");
	free(million);
	return done_testing();
}
