/*
 * level_gen.h - generated test and benchmark levels: open ground, 20% random
 * walls, rooms joined by one-cell doors, and weighted terrain.
 *
 * Deterministic: a kind, a size and a seed give the same cells on every
 * host.  Every generated level has the 3 x 3 block around its centre
 * passable and one goal, the centre cell.
 */
#ifndef FF_LEVEL_GEN_H
#define FF_LEVEL_GEN_H

#include <stdint.h>

#include "level.h"

typedef enum ff_gen_kind {
	FF_GEN_OPEN,             /* all grass */
	FF_GEN_RANDOM20,         /* each cell a wall with probability 1/5 */
	FF_GEN_ROOMS,            /* 16-cell rooms, a one-cell door east and south */
	FF_GEN_WEIGHTED,         /* blobs of forest, mud, swamp and water, 5% walls */
	FF_GEN__COUNT
} ff_gen_kind;

/* Short name of KIND ("open", "random20", "rooms", "weighted"). */
const char *ff_gen_name(ff_gen_kind kind);
/* Creates a W x H level of KIND from SEED, named after the kind; NULL on a
 * bad size or kind or no memory.  Caller frees with ff_level_destroy(). */
ff_level *ff_gen_level(ff_gen_kind kind, int w, int h, uint64_t seed);

/* The passable cell of L nearest its centre (by rings of growing
 * Chebyshev radius, rows top to bottom); false when every cell is a wall. */
bool ff_gen_centre_cell(const ff_level *l, int *x, int *y);

/* The generator's PRNG (splitmix64), exposed for tests that need a stream
 * independent of the level. */
uint64_t ff_gen_rand(uint64_t *state);

#endif
