/*
 * solver_hier_int.h - the hierarchical field's private state, shared by
 * solver_hier_graph.c (the sectors, their portals and the distances
 * between them), solver_hier_search.c (the A* over the portals) and
 * solver_hier.c (orders, fine fields, queries).  Not part of the API.
 *
 * A portal is named by a ref, its sector's index * 256 + its index in the
 * sector (a sector has fewer than 4 * 64 portals); a parent below -1 is the
 * cell -(ref + 2) of the near box.  Search state lives with the sectors and
 * is valid while its epoch is the order's, so a new order resets nothing up
 * front.  Values in the search count whole units of 1/FF_TILE_UNIT of a
 * cost (solver_hier.h).
 */
#ifndef FF_SOLVER_HIER_INT_H
#define FF_SOLVER_HIER_INT_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "cost.h"
#include "solver_hier.h"
#include "solver_int.h"

#define PORTAL_STEP 8           /* the walked cost between two portals of a window */
#define UNIT FF_TILE_UNIT       /* the search counts whole units of a cost */
#define SETTLED (-2)
#define NOPAR (-1)

typedef struct hsec {
	double *g;                  /* n: value in the search, in units */
	uint32_t *d;                /* n * n: d[i * n + j], from portal i to j, in
				       units of 2^dshift, rounded up; UINT32_MAX
				       when there is no path */
	int32_t *cell;              /* n: level index */
	int32_t *par;               /* n: where g came from (ref, or a near cell) */
	int32_t *hpos;              /* n: heap position, -1, or SETTLED */
	uint8_t *across;            /* n: the directions (bits) of the steps
				       allowed to a cell of another sector,
				       once stepped (ffh_edges()) */
	uint8_t *cost;              /* n: the portal's effective cost */
	size_t bytes;
	uint32_t epoch;             /* the search state's order */
	int32_t left;               /* portals not settled */
	int32_t slot;               /* cache slot, or -1 */
	int16_t n;
	bool open;                  /* one cost and no wall */
	bool uniform;               /* one cost on every passable cell */
	bool stepped;               /* across set */
	uint8_t cmin;               /* its cheapest cost (FF_WALL: all walls) */
	uint8_t dshift;
} hsec;

struct ff_hier {
	int w, h, S, shift, sw, sh, conn;
	uint8_t *cost;              /* the effective costs the graph was built
				       from (cost.h) */
	ff_costs costs;             /* their rules */
	/* the level whose effective costs cost holds, when it was last built
	 * or compared whole: its grids and their count of changes
	 * (ff_level.changes) then; level NULL before a build */
	struct {
		const ff_level *level;
		const uint8_t *cells, *dyn;
		uint64_t changes;
	} synced;
	uint8_t *scratch;           /* for ff_costs_fill() */
	size_t nscratch;
	hsec *sec;
	long nsec, nportals;
	size_t graph_bytes;
	bool built;
	ff_tile tile, near;         /* a fine field being solved; the near box */
	ff_tile edge, base;         /* distances between portals; a neighbour's
				       base field (solve_sector()) */
	double ustep[256], udiag[256];  /* steps in units (the diagonal rounded up) */
	double ha, hb;              /* the heuristic: ha * max + hb * min */

	/* the order */
	ff_shape goals[FF_GOALS_MAX];
	int ngoals;
	uint32_t epoch;
	int bx0, by0, bx1, by1;     /* near box, cells, inclusive */
	int32_t *heap;              /* refs */
	double *hkey, *hg;          /* g + heuristic, and g */
	int32_t *hxy;               /* the portal's cell, x | y << 16: a new
				       target re-keys the heap from it alone */
	size_t hn, hcap;
	bool unordered;             /* keys set for the target, heap not made */
	int tx, ty;                 /* A* target, tx < 0: Dijkstra order */
	long settled;
	int32_t last;               /* last ref settled, or -1 */

	/* line of sight (solver_hier_los.c): where each cell of the near box
	 * leads and which goal it sees; scratch for a sector; what each cell
	 * of a slot sees (level indices, -1 for nothing) */
	bool los;
	uint8_t cmin;               /* the level's cheapest cost, the one a
				       line of sight crosses */
	int32_t *ntgt, *nlos, *ltgt, *slos;
	size_t nntgt, nnlos, nltgt;

	/* fine fields */
	int nslot, hand;
	double *sval;
	uint8_t *sdir, *sref;
	int32_t *ssec;
	uint32_t *sepoch;
	long solved, rebuilt, edged, compared;
};

static inline int32_t ref_of(long sec, int i) { return (int32_t)(sec * 256 + i); }
static inline long ref_sec(int32_t r) { return r / 256; }
static inline int ref_idx(int32_t r) { return r % 256; }

static inline long sec_of(const ff_hier *H, int x, int y)
{
	return (long)(y >> H->shift) * H->sw + (x >> H->shift);
}

static inline bool in_near(const ff_hier *H, int x, int y)
{
	return x >= H->bx0 && x <= H->bx1 && y >= H->by0 && y <= H->by1;
}

/* Whether an order has begun (the near box and the search are set). */
static inline bool ordered(const ff_hier *H)
{
	return H->built && H->epoch > 0 && H->ngoals > 0;
}

static inline hsec *ref_hsec(const ff_hier *H, int32_t r)
{
	return &H->sec[ref_sec(r)];
}

static inline bool ffh_pass(const ff_hier *H, int x, int y)
{
	return (unsigned)x < (unsigned)H->w && (unsigned)y < (unsigned)H->h &&
	       H->cost[(size_t)y * (size_t)H->w + (size_t)x] != FF_WALL;
}

/* Whether the step between (x, y) and its neighbour in direction D is
 * allowed: both passable, and for a diagonal the two cells beside it. */
static inline bool ffh_step_ok(const ff_hier *H, int x, int y, int d)
{
	int nx = x + ff_dir_dx[d], ny = y + ff_dir_dy[d];

	return ffh_pass(H, x, y) && ffh_pass(H, nx, ny) &&
	       (d < 4 || (ffh_pass(H, nx, y) && ffh_pass(H, x, ny)));
}

/* The units of a step from cell (x, y) in direction D (its own cost). */
static inline double ffh_step_cost(const ff_hier *H, int x, int y, int d)
{
	uint8_t c = H->cost[(size_t)y * (size_t)H->w + (size_t)x];

	return d < 4 ? H->ustep[c] : H->udiag[c];
}

static inline void ffh_sector_rect(const ff_hier *H, long s, int *x0, int *y0, int *w, int *h)
{
	*x0 = (int)(s % H->sw) << H->shift;
	*y0 = (int)(s / H->sw) << H->shift;
	*w = H->w - *x0 < H->S ? H->w - *x0 : H->S;
	*h = H->h - *y0 < H->S ? H->h - *y0 : H->S;
}

/* --- the graph (solver_hier_graph.c) ----------------------------------------- */

void ffh_free_graph(ff_hier *H);
/* Cache slots for N sectors. */
int ffh_slots_for(long n);
int ffh_cmp_i32(const void *a, const void *b);
/* The units from portal I to portal J of sector C. */
double ffh_intra(const ff_hier *H, const hsec *c, int i, int j);
/* Computes sector S's steps across and portal distances if not yet;
 * false on FF_E_NOMEM. */
bool ffh_edges(ff_hier *H, long s);
/* The graph for L's effective costs, built afresh. */
ff_err ffh_build(ff_hier *H, const ff_level *l, int sector, int conn);
/* After the cells of a rectangle changed in L: their costs and the
 * sectors around them again. */
ff_err ffh_update(ff_hier *H, const ff_level *l, int x0, int y0, int x1, int y1);
/* Brings the graph up to L's effective costs. */
ff_err ffh_sync(ff_hier *H, const ff_level *l, int sector, int conn);
ff_metric ffh_metric(int conn);

/* --- the search (solver_hier_search.c) ---------------------------------------- */

/* Sector S's search state, reset if it is another order's. */
hsec *ffh_touch(ff_hier *H, long s);
/* Lowers portal I of sector S to G (from PAR); false on FF_E_NOMEM. */
bool ffh_relax(ff_hier *H, long s, int i, double g, int32_t par);
/* Re-keys the heap for the A* target (TX, TY) (TX < 0: Dijkstra order). */
void ffh_retarget(ff_hier *H, int tx, int ty);
/* Settles the first portal of the heap; false on FF_E_NOMEM. */
bool ffh_settle(ff_hier *H);
/* Whether portal P of C is dominated by a settled one. */
bool ffh_dominated(const ff_hier *H, const hsec *c, int p);
/* Settles portals until each of sector S's is settled or dominated;
 * false on FF_E_NOMEM. */
bool ffh_reach(ff_hier *H, long s);

/* --- orders and fine fields (solver_hier.c) ---------------------------------- */

double ffh_near_val(const ff_hier *H, int x, int y);
/* Starts the order again on the graph as it is. */
ff_err ffh_restart(ff_hier *H);
/* Out of memory in a search: the order starts again; true. */
bool ffh_cut_short(ff_hier *H);

/* --- line of sight (solver_hier_los.c) ----------------------------------------- */

/* Which goal each cell of the near box sees (after solve_near()). */
ff_err ffh_los_near(ff_hier *H);
/* What each cell of the solved sector tile T sees, into OUT (a slot's
 * layout, level indices, -1 for nothing); false on FF_E_NOMEM. */
bool ffh_los_sector(ff_hier *H, const ff_tile *t, int32_t *out);

#endif
