/*
 * hash.h - stable 64-bit hashing of state (FNV-1a), the same on every host:
 * integers are fed least significant byte first, doubles as their IEEE-754
 * bit patterns, so a hash never depends on memory layout or addresses.
 */
#ifndef FF_HASH_H
#define FF_HASH_H

#include <stddef.h>
#include <stdint.h>

#define FF_HASH_SEED 0xcbf29ce484222325ull

/* Feeds the low BYTES bytes of V into H, least significant first. */
static inline uint64_t ff_hash_int(uint64_t h, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= 0x100000001b3ull;
	}
	return h;
}

/* Feeds N bytes at P into H. */
uint64_t ff_hash_bytes(uint64_t h, const void *p, size_t n);
/* Feeds the bit pattern of V into H (-0.0 and 0.0 differ; NaNs by bits). */
uint64_t ff_hash_double(uint64_t h, double v);

#endif
