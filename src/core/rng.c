/*
 * rng.c - xoshiro256** (Blackman and Vigna, 2018) with its state filled by
 * splitmix64, so nearby seeds give unrelated streams and no seed gives the
 * all-zero state xoshiro cannot leave.
 */
#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void ff_rng_seed(ff_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

uint64_t ff_rng_next(ff_rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

double ff_rng_uniform(ff_rng *r)
{
	/* The top 53 bits convert to double exactly. */
	return (double)(ff_rng_next(r) >> 11) * 0x1p-53;
}

double ff_rng_range(ff_rng *r, double lo, double hi)
{
	if (!(hi > lo))
		return lo;
	return lo + (hi - lo) * ff_rng_uniform(r);
}

uint64_t ff_rng_below(ff_rng *r, uint64_t n)
{
	uint64_t limit, x;

	if (n == 0)
		return 0;
	/* Reject the top partial block so every residue is equally likely. */
	limit = UINT64_MAX - UINT64_MAX % n;
	do
		x = ff_rng_next(r);
	while (x >= limit);
	return x % n;
}
