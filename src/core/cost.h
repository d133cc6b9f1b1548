/*
 * cost.h - the effective cost of a cell: what the solver integrates, built
 * here and nowhere else (the solver's cost phase, its repair, 'solve --show
 * effective' and the editor all read it from this module).
 *
 *   effective(x, y) = FF_WALL                            when the cell is a wall,
 *                   = min(254, painted + offset + penalty) otherwise,
 *
 * where painted is the level's cost, offset the dynamic layer's (0 when it
 * has none; level_dyn.h), and a wall a painted wall or the dynamic layer's.
 * For a movement class (ff_costs_set_class()), painted is the class's cost
 * of the cell's terrain (ff_level_class_table()) and a wall a wall to the
 * class or the dynamic layer's.
 * Penalty is the wall-proximity penalty:
 * with P = wall_penalty and R = wall_penalty_radius, a cell at distance d
 * from the nearest wall (centre to centre, in the solver's metric: 1 for a
 * cell beside a wall) gets round(P * (R + 1 - d) / R) when d < R + 1, else
 * 0.  Outside the level counts as wall, as it does for the solver.  So the
 * penalty of a cell depends on the walls within R cells of it (Chebyshev),
 * and a change of a cell's wallness changes effective costs up to R cells
 * away (ff_costs_reach()).
 *
 * With a crowd term (ff_costs_set_crowd(); congestion-aware routing,
 * docs/simulation.md), painted + offset is first multiplied by the crowd's
 * slowing of the cell, crowd[i] / 256 (256: none), rounded, at least 1.
 *
 * Every term is a whole number, so the result does not depend on the order
 * in which cells are built: a rectangle built alone equals the same cells of
 * a whole level.  New terms (a movement class's own costs and walls, a
 * congestion term) belong in cost.c's base() and combine(), the one place
 * the formula is written.
 */
#ifndef FF_COST_H
#define FF_COST_H

#include <stddef.h>
#include <stdint.h>

#include "level.h"

/* How distance to a wall is measured: as the solver measures its steps. */
typedef enum ff_metric {
	FF_METRIC_OCTILE,        /* 8-connected Dijkstra: straight 1, diagonal sqrt 2 */
	FF_METRIC_MANHATTAN,     /* 4-connected Dijkstra */
	FF_METRIC_EUCLID         /* Fast Marching */
} ff_metric;

/* The rules for one level and metric; plain data, set up by
 * ff_costs_init() and read-only after. */
typedef struct ff_costs {
	const ff_level *level;   /* borrowed */
	ff_metric metric;
	int penalty, radius;     /* wall_penalty and wall_penalty_radius; radius
				    0 when the penalty is off */
	/* penalty of a cell whose nearest wall in the row DY rows away lies
	 * H columns away: ramp[H][DY], H up to radius + 1 (none nearer) */
	uint8_t ramp[FF_PENALTY_RADIUS_MAX + 2][FF_PENALTY_RADIUS_MAX + 1];
	const uint16_t *crowd;   /* borrowed, w*h, or NULL: the crowd term */
	int cls;                 /* movement class, 0 for none */
	uint8_t table[FF_TERRAIN_VALUES]; /* its cost of each terrain value */
} ff_costs;

/* Sets C up for level L (borrowed; read again by every call below, so
 * changed cells are seen, changed parameters only after another init),
 * measuring distance with METRIC. */
void ff_costs_init(ff_costs *c, const ff_level *l, ff_metric metric);
/* Builds costs for movement class K of the level (0: the painted costs),
 * as its terrains are now (a change of the class's costs needs another
 * call). */
void ff_costs_set_class(ff_costs *c, int k);
/* True when levels with metas A and B build costs by the same rules (the
 * same cost parameters and movement classes), so that a change from one to
 * the other changes effective costs only where cells changed. */
bool ff_costs_rules_equal(const ff_level_meta *a, const ff_level_meta *b);
/* Counts the crowd: CROWD (borrowed, one per cell, 256 = no slowing) or
 * NULL for none. */
void ff_costs_set_crowd(ff_costs *c, const uint16_t *crowd);
/* True when A and B give every cell the same effective cost for the same
 * cells (same level, penalty and ramp, class and its costs). */
bool ff_costs_same(const ff_costs *a, const ff_costs *b);
/* True when cell (x, y) is a wall (outside the level counts as one). */
bool ff_costs_wall(const ff_costs *c, int x, int y);
/* How many cells away a change of wallness changes effective costs: the
 * radius when the penalty is on, else 0. */
int ff_costs_reach(const ff_costs *c);
/* Bytes of scratch ff_costs_fill() needs for a rectangle WIDTH cells wide. */
size_t ff_costs_scratch(const ff_costs *c, int width);
/* Writes the effective costs of cells [x0, x1] x [y0, y1] (inside the
 * level) to OUT, cell (x, y) at OUT[(y - y0) * STRIDE + (x - x0)], using
 * SCRATCH (ff_costs_scratch() bytes, any contents).  O(cells * (2R + 1)). */
void ff_costs_fill(const ff_costs *c, int x0, int y0, int x1, int y1, uint8_t *out,
		   size_t stride, uint8_t *scratch);
/* The effective cost of cell (x, y), inside the level. */
int ff_costs_at(const ff_costs *c, int x, int y);

#endif
