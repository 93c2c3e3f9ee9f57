/*
 * The layout of the compiled cache file, shared by the code that writes
 * it (cache_write.c) and the code that reads it (cache.c; the layout is
 * described there).  Not for other modules.
 */
#ifndef RR_CACHE_PRIV_H
#define RR_CACHE_PRIV_H

#include <stdint.h>

#define CACHE_MAGIC		"RRCACHE\x1a"
#define CACHE_BOM		0x01020304u
#define CACHE_HEADER	256
#define CACHE_SECTIONS		64
/* The identity the file was written with (cache.c): after the sections. */
#define CACHE_STAMP	192
#define CACHE_MAX	(1024u * 1024 * 1024)
#define CACHE_TMP_MAX_AGE	60
#define CACHE_MAX_AGE	(30 * 24 * 3600)
/* A rules array this large is mapped, not allocated (cache.c). */
#define CACHE_RULES_MAPPED	(64 * 1024)

enum section {
	S_IDENT,
	S_MANIFEST,
	S_FILES,
	S_DIAGS,
	S_INDEX,
	S_RULES,
	S_CHUNKS,
	S__COUNT
};

struct sref {
	uint32_t	off, len;
	uint64_t	sum;
};

#endif
