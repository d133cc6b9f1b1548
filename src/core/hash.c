/* hash.c - FNV-1a over bytes and doubles; see hash.h. */
#include <string.h>

#include "hash.h"

uint64_t ff_hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

uint64_t ff_hash_double(uint64_t h, double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof bits);
	return ff_hash_int(h, bits, 8);
}
