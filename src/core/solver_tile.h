/*
 * solver_tile.h - an exact Dijkstra on a rectangle of a level (a "tile"):
 * the building block of the hierarchical solver (solver_hier.c), which
 * uses it for the distances between the portals of a sector, for a
 * sector's fine field from the values around it, and for the exact field
 * near the goals.  Not part of the API.
 *
 * Semantics are the full solver's (solver.h): a step from a cell into a
 * neighbour costs the step length times the cost of the cell whose value
 * is computed, walls are impassable, a diagonal needs both cells beside
 * it passable, 8- or 4-connected.  The rectangle is padded by a ring of
 * the cells around it, which hold the level's costs (walls beyond the
 * level's edge), so the corner rule sees the real walls.  The search never
 * enters the ring; a ring cell given a value by ff_tile_seed() is a source
 * fixed at that value, as are seeded cells inside.
 *
 * Index p = (y - y0 + 1) * W + (x - x0 + 1), W = w + 2.  Buffers grow to the
 * largest rectangle loaded and are kept; running allocates nothing.
 */
#ifndef FF_SOLVER_TILE_H
#define FF_SOLVER_TILE_H

#include <stdbool.h>
#include <stdint.h>

#include "err.h"

#define FF_TILE_RING 1024               /* buckets, above the largest step */
#define FF_TILE_UNIT 65536.0            /* units: 1/65536 of a cost */

typedef struct ff_tile_seed_t {
	double v;
	int32_t p;
} ff_tile_seed_t;

typedef struct ff_tile {
	int x0, y0, w, h, W;                /* the rectangle, W = w + 2 */
	size_t np, cap;                     /* padded cells, and room for them */
	int conn;                           /* 8 or 4 */
	uint8_t *cost;                      /* padded costs */
	uint8_t *in;                        /* 1 inside, 0 on the ring */
	uint8_t *ways;                      /* inside cells: the steps allowed
					       into inside cells (FF_DIR_* bits) */
	uint8_t *fixed;                     /* 1 for seeds and settled cells */
	uint8_t *dir;                       /* FF_DIR_* after ff_tile_arrows() */
	double *val;                        /* INFINITY until reached */
	/* the seeds, queued in value order as the search reaches them */
	struct ff_tile_seed_t *seed;
	size_t nseed, seedcap;
	/* bucket queue: chains of entries, width 1 */
	int32_t *ecell, *enext;
	size_t ecap;
	int32_t efree, eused;
	int32_t head[FF_TILE_RING], tail[FF_TILE_RING];
	long queued;
	double ostep[256], dstep[256];      /* step costs, by the cost entered */
	double kscale;                      /* bucket = value * kscale */
	bool units;                         /* values in whole units */
	long settled;                       /* cells settled by the last run */
} ff_tile;

void ff_tile_init(ff_tile *t);
void ff_tile_fini(ff_tile *t);
size_t ff_tile_bytes(const ff_tile *t);
/* Takes the rectangle [X0, X0+W) x [Y0, Y0+H) of the LW x LH costs COSTS
 * (row major), every value INFINITY.  UNITS: values count whole units of
 * 1/FF_TILE_UNIT of a cost, a diagonal step rounded up to one, so that
 * every sum is exact (doubles hold them exactly below 2^53 units); else
 * they are costs, as in the full solver.  FF_E_NOMEM (the tile unusable
 * until loaded again) when its buffers cannot grow. */
ff_err ff_tile_load(ff_tile *t, const uint8_t *costs, int lw, int lh, int x0, int y0,
		    int w, int h, int conn, bool units);
/* Every value INFINITY again, no seeds; the costs stay. */
void ff_tile_clear(ff_tile *t);
/* Makes padded cell P (inside or on the ring, passable) a source at V. */
ff_err ff_tile_seed(ff_tile *t, int32_t p, double v);
/* Settles every inside cell the seeds reach.  With STOP (N padded cells),
 * it may end once all of them are settled. */
void ff_tile_run(ff_tile *t, const int32_t *stop, int n);
/* The arrow of every inside cell: its cheapest step among the inside
 * cells and the seeded ring cells, as the full solver chooses it
 * (FF_DIR_NONE for sources, walls and unreachable cells). */
void ff_tile_arrows(ff_tile *t);
/* The cheapest step of padded cell P (FF_DIR_NONE when none). */
uint8_t ff_tile_arrow(const ff_tile *t, int32_t p);

static inline int32_t ff_tile_at(const ff_tile *t, int x, int y)
{
	return (int32_t)((y - t->y0 + 1) * t->W + (x - t->x0 + 1));
}

static inline bool ff_tile_inside(const ff_tile *t, int x, int y)
{
	return (unsigned)(x - t->x0) < (unsigned)t->w && (unsigned)(y - t->y0) < (unsigned)t->h;
}

#endif
