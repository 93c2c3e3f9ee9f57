/*
 * A fast 64-bit checksum for the compiled cache: it detects truncation,
 * bit flips and stale bytes, not adversaries.  Every 8-byte word goes
 * through a step that is a bijection of the running state and of the
 * word, so a change confined to one word always changes the result; other
 * changes collide with probability about 2^-64.
 *
 * Written here because none of the project's libraries exports one
 * (zlib's crc32 would be a fifth dependency, and is slower).
 */
#ifndef RR_CHECKSUM_H
#define RR_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

uint64_t rr_checksum(const void *, size_t);

#endif
