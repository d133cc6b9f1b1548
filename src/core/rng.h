/*
 * rng.h - the program's own pseudo-random numbers: xoshiro256** seeded
 * through splitmix64.
 *
 * Everything is integer arithmetic plus one exact conversion to double, so
 * a seed gives the same sequence on every build and every IEEE host; the
 * simulation keeps one ff_rng in its state and nothing else draws from it.
 * ff_rng is a small value type: embed it, copy it to fork a stream.
 */
#ifndef FF_RNG_H
#define FF_RNG_H

#include <stdint.h>

typedef struct ff_rng {
	uint64_t s[4];
} ff_rng;

/* Seeds R from SEED (any value, 0 included). */
void ff_rng_seed(ff_rng *r, uint64_t seed);
/* The next 64 random bits. */
uint64_t ff_rng_next(ff_rng *r);
/* Uniform double in [0, 1), a multiple of 2^-53. */
double ff_rng_uniform(ff_rng *r);
/* Uniform double in [LO, HI) (LO when HI <= LO). */
double ff_rng_range(ff_rng *r, double lo, double hi);
/* Uniform integer in [0, N) without modulo bias; 0 when N is 0. */
uint64_t ff_rng_below(ff_rng *r, uint64_t n);
/* Counter-based draws: 64 random bits that depend only on KEY and N (a
 * splitmix64 step), so many agents can draw in any order and still get
 * the same numbers; KEY is typically taken from an ff_rng once per tick. */
static inline uint64_t ff_rng_at(uint64_t key, uint64_t n)
{
	uint64_t z = key ^ (n * 0xD1B54A32D192ED03ull);

	z += 0x9E3779B97F4A7C15ull;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}
/* Bits (from ff_rng_at) as a uniform double in [0, 1). */
static inline double ff_rng_unit(uint64_t bits)
{
	return (double)(bits >> 11) * 0x1p-53;
}

#endif
