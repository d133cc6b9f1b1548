/*
 * solver_hier.h - the hierarchical field (docs/solver.md, "The hierarchy"):
 * the level cut into square sectors, portals on the sector borders, an
 * abstract graph of the portals with exact distances inside each sector,
 * and fine fields solved for one sector at a time, when a query needs
 * them, and kept in a cache.  Used by solver.c for the method "hier"; not
 * part of the API.
 *
 * The field of an order (a set of goals) depends on the level and the
 * goals alone, never on the order of the queries:
 *  - the near box B, the goals' bounding box grown by one sector and
 *    aligned to sectors, gets the exact field of the goals within B;
 *  - every portal gets g, its distance to the goals in the abstract graph,
 *    counted in whole units of 1/65536 of a cost (a diagonal step rounded
 *    up to one), so every sum is exact: sources are the portals of B at
 *    their near value and those next to a cell of B (its value plus the
 *    step), edges the distances within a sector between its portals and
 *    the steps between portals across a border;
 *  - a sector's base field is the exact field within it from its portals
 *    that no other of its portals dominates (g(p) >= g(q) + d(p -> q))
 *    and the cells of B in and around it; its fine field the same with its
 *    ring seeded from its eight neighbours' base fields.
 * The search is A* towards each portal of the sector queried in turn,
 * with the octile distance at the cheapest cost (in the same whole units,
 * so consistent without a margin) and ties going to the deeper portal; it
 * stops when each portal of the sector is settled or proven dominated.
 * Values are exact whatever the order in which portals settle.
 */
#ifndef FF_SOLVER_HIER_H
#define FF_SOLVER_HIER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "level.h"
#include "solver_tile.h"

typedef struct ff_hier ff_hier;

/* What the editor shows of a sector. */
enum {
	FF_HSEC_IDLE,            /* no fine field */
	FF_HSEC_NEAR,            /* in the near box: the exact field */
	FF_HSEC_SOLVED           /* its fine field is in the cache */
};

ff_hier *ff_hier_create(int w, int h);
void ff_hier_destroy(ff_hier *H);
size_t ff_hier_bytes(const ff_hier *H);
/* The bytes a W x H level's hierarchy takes at most for its caches and
 * the copy of its costs, before the portals (which depend on the level). */
size_t ff_hier_bytes_for(int w, int h, int sector);

/* Starts an order: brings the graph up to date with L's costs (built the
 * first time, then rebuilt only for the sectors whose cells or borders
 * changed; L is not read again while it is the level of the last order
 * and its count of changes, ff_level.changes, has not moved), solves the
 * near box and seeds the search.  SECTOR is the
 * sector size (8..64, a power of two), CONN 8 or 4.  FF_E_NOMEM. */
ff_err ff_hier_order(ff_hier *H, const ff_level *l, const ff_shape *goals, int ngoals,
		     int sector, int conn, bool los);
/* After the costs of [X0,X1] x [Y0,Y1] changed in L: rebuilds the sectors
 * they touch (their cells or borders) and starts the order again. */
ff_err ff_hier_update(ff_hier *H, const ff_level *l, int x0, int y0, int x1, int y1);
/* Value and arrow at (x, y), solving what is needed (the search up to the
 * cell's sector, its fine field); INFINITY / FF_DIR_NONE when
 * unreachable, or on FF_E_NOMEM. */
double ff_hier_value(ff_hier *H, int x, int y);
int ff_hier_dir(ff_hier *H, int x, int y);
/* With line of sight: whether (x, y) sees where its way leads (a goal in
 * the near box, else its sector's exit), solving as ff_hier_value(). */
bool ff_hier_sees(ff_hier *H, int x, int y, int *tx, int *ty);
/* The same, only from what is already known (INFINITY / FF_DIR_NONE for
 * cells of sectors not solved): for views of a field being stepped. */
double ff_hier_known_value(const ff_hier *H, int x, int y);
int ff_hier_known_dir(const ff_hier *H, int x, int y);

/* Stepping (teaching): settles up to N portals in Dijkstra order (N < 0:
 * all); false while some remain.  The last one settled in *X, *Y with the
 * cell its value came from (false when none). */
bool ff_hier_search(ff_hier *H, long n);
/* The same for the portals whose value lies in the band of width sector
 * side times cheapest cost that holds the next one: one wave. */
bool ff_hier_search_band(ff_hier *H);
bool ff_hier_last(const ff_hier *H, int *x, int *y, int *fx, int *fy);
long ff_hier_settled(const ff_hier *H);
long ff_hier_queued(const ff_hier *H);
/* Solves the fine field of sector I (row major); false on FF_E_NOMEM. */
bool ff_hier_solve_sector(ff_hier *H, long i);
long ff_hier_sectors(const ff_hier *H);

/* --- what the editor draws ---------------------------------------------- */
int ff_hier_sector_size(const ff_hier *H);
/* The effective cost (cost.h) of (x, y) the graph holds, -1 before it is
 * built. */
int ff_hier_cost(const ff_hier *H, int x, int y);
/* FF_HSEC_* of the sector holding cell (x, y). */
int ff_hier_sector_state(const ff_hier *H, int x, int y);
/* Whether (x, y) is a portal; *G its value when settled (else INFINITY). */
bool ff_hier_portal(const ff_hier *H, int x, int y, double *g);

/* --- figures -------------------------------------------------------------- */
typedef struct ff_hier_stats {
	long sectors, portals;          /* of the graph */
	long sectors_solved;            /* fine fields computed since the order */
	long portals_settled;
	long rebuilt;                   /* sectors rebuilt by the last update */
	long edged;                     /* sectors whose portal distances were
					   computed (when first searched) */
	long compared;                  /* orders that read the whole level to
					   find what changed (its count of
					   changes had moved) */
} ff_hier_stats;
void ff_hier_get_stats(const ff_hier *H, ff_hier_stats *st);
/* Computes the distances between the portals of every sector now, which
 * the search otherwise does for each sector it first reaches. */
ff_err ff_hier_build_edges(ff_hier *H);

#endif
