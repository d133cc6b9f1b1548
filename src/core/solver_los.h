/*
 * solver_los.h - line of sight (docs/solver.md, "Line of sight"): which
 * cells see the cell their way leads to along a straight line, so that
 * they can walk straight at it instead of along the grid's eight
 * directions.  Not part of the API.
 *
 * One definition: cell C sees cell T when the segment between their
 * centres touches no blocker, each cell a closed unit square (a corner
 * touched counts, as a diagonal step may not cut one), where a blocker is
 * a cell of another cost than the level's cheapest (a wall too), or a
 * cell outside the region looked at.  No way to T costs less than the
 * cheapest cost times its length, which the straight line costs: it is
 * the shortest way there, and the direction (T - C) / |T - C| is exact.  ff_los_clear() walks the segment;
 * ff_los_sweep() finds every cell that sees one target at once, by
 * shadow casting over exact slopes, and gives the same answers (tested).
 */
#ifndef FF_SOLVER_LOS_H
#define FF_SOLVER_LOS_H

#include <stdbool.h>
#include <stdint.h>

/* A grid to look over: COST[y * STRIDE + x] for cells (x, y) of [X0, X1] x
 * [Y0, Y1]; everything else blocks, and so does every cost but PASS (the
 * level's cheapest). */
typedef struct ff_los_grid {
	const uint8_t *cost;
	long stride;
	int x0, y0, x1, y1;
	uint8_t pass;
} ff_los_grid;

/* Whether (AX, AY) sees (BX, BY) in G. */
bool ff_los_clear(const ff_los_grid *g, int ax, int ay, int bx, int by);
/* Calls SEEN(CTX, x, y) for every cell of G other than (TX, TY) that sees
 * it (a cell on an octant's edge may be called twice).  SCRATCH:
 * ff_los_scratch() int64 for the shadows. */
void ff_los_sweep(const ff_los_grid *g, int tx, int ty, int64_t *scratch,
		  void (*seen)(void *ctx, int x, int y), void *ctx);
/* How many int64 ff_los_sweep() needs for a grid of W x H cells: three
 * lists of shadows of 4 int64 each. */
static inline long ff_los_scratch(int w, int h)
{
	return 24L * ((w > h ? w : h) + 4);
}
/* The FF_DIR_* nearest the direction from (AX, AY) to (BX, BY). */
int ff_los_dir8(int ax, int ay, int bx, int by);

#endif
