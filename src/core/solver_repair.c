/*
 * solver_repair.c - incremental update of a finished Dijkstra solve after the
 * costs inside a rectangle R changed.
 *
 * 0. Costs.  The effective costs of R are built again (cost.h); when a cell
 *    of R became or stopped being a wall, R first grows by the wall
 *    penalty's reach, since the penalties of the cells around it change.
 * 1. Invalidate.  R is first grown by one cell on every side: a cell whose
 *    passability changed also changes which diagonal steps between its
 *    neighbours cut a corner.  A = R plus every cell that loses all its supports: n is
 *    supported by neighbour m when val[n] == val[m] + step(m -> n) under
 *    the new costs and m is not in A.  Candidates (neighbours of A) are
 *    examined in increasing old value with the bucket queue, so every
 *    supporter (always one bucket lower) is decided first; A is exactly the
 *    set of cells whose value can rise.  A is listed at the top of the
 *    queue's entry pool.
 * 2. Reseed.  A's values are dropped; each cell of A is given the best value
 *    through its neighbours outside A (goal cells of R get 0).
 * 3. Resettle.  Dijkstra runs from those seeds; a cell outside A whose value
 *    falls (a door opened) is reopened and settled again.  Values are the
 *    same floating-point sums a full solve computes, so they are equal bit
 *    for bit.
 * 4. Flow is recomputed on the box of settled and examined cells plus one.
 * When A grows beyond half the pool the repair falls back to a full solve;
 * Fast Marching always does.
 */
#include <string.h>

#include "solver_hier.h"
#include "solver_int.h"

typedef struct rctx {
	int32_t *list;                      /* A, growing down from the pool top */
	long nl, max;
	int32_t off[8];
	int nd;
} rctx;

static void box_add(ff_solver *s, int32_t p)
{
	int x = p % s->W, y = p / s->W;

	if (x < s->bx0) s->bx0 = x;
	if (x > s->bx1) s->bx1 = x;
	if (y < s->by0) s->by0 = y;
	if (y > s->by1) s->by1 = y;
}

/* Adds P to A and queues its neighbours as candidates; false when full. */
static bool add_a(ff_solver *s, rctx *r, int32_t p)
{
	if (r->nl == r->max)
		return false;
	s->cf[p] |= FL_INA;
	r->list[-(++r->nl)] = p;
	box_add(s, p);
	for (int d = 0; d < 8; d++) {
		int32_t n = p + r->off[d];
		long k;
		if (s->cf[n] & (FL_INA | FL_CHECKED) || s->val[n] == INFINITY ||
		    s->cost[n] == FF_WALL)
			continue;
		k = ffq_key(s, s->val[n]);
		if (k >= s->kcur)        /* lower cells cannot depend on P */
			ffq_push(s, n, k);
	}
	return !s->qfail;
}

/* True when N keeps a supporter outside A. */
static bool supported(const ff_solver *s, const rctx *r, int32_t n)
{
	double v = s->val[n];

	if (v == 0.0)
		return true;
	for (int d = 0; d < r->nd; d++) {
		int32_t m = n + r->off[d];
		double step;
		if ((s->cf[m] & FL_INA) || !ff_dijkstra_step_ok(s, n, d, r->off))
			continue;
		step = d < 4 ? s->ostep[s->cost[n]] : s->dstep[s->cost[n]];
		if (s->val[m] + step == v)
			return true;
	}
	return false;
}

static bool invalidate(ff_solver *s, rctx *r, int x0, int y0, int x1, int y1)
{
	int32_t n;

	s->qcheck = true;
	for (int y = y0; y <= y1; y++)
		for (int x = x0; x <= x1; x++)
			if (!add_a(s, r, ffs_index(s, x, y)))
				return false;
	while ((n = ffq_pop(s, LONG_MAX)) >= 0) {
		s->cf[n] |= FL_CHECKED;
		box_add(s, n);
		if (!supported(s, r, n) && !add_a(s, r, n))
			return false;
	}
	s->qcheck = false;
	return true;
}

/* The best value of A-cell P through neighbours outside A. */
static double seed_value(const ff_solver *s, const rctx *r, int32_t p)
{
	double best = INFINITY;

	if (s->cost[p] == FF_WALL)
		return INFINITY;
	if (ff_solver_is_goal(s, p % s->W - 1, p / s->W - 1))
		return 0.0;
	for (int d = 0; d < r->nd; d++) {
		int32_t m = p + r->off[d];
		double v;
		if ((s->cf[m] & FL_INA) || !ff_dijkstra_step_ok(s, p, d, r->off))
			continue;
		v = s->val[m] + (d < 4 ? s->ostep[s->cost[p]] : s->dstep[s->cost[p]]);
		if (v < best)
			best = v;
	}
	return best;
}

static void reseed(ff_solver *s, rctx *r)
{
	long kmin = LONG_MAX;

	for (long i = 1; i <= r->nl; i++) {
		int32_t p = r->list[-i];
		if (s->cf[p] & FL_SETTLED)
			s->settled--;
		s->cf[p] &= (uint8_t)~FL_SETTLED;
		ffs_set_dir(s, p, FF_DIR_NONE);
		s->val[p] = INFINITY;
	}
	for (long i = 1; i <= r->nl; i++) {
		int32_t p = r->list[-i];
		double v = seed_value(s, r, p);
		s->val[p] = v;
		if (v != INFINITY && ffq_key(s, v) < kmin)
			kmin = ffq_key(s, v);
	}
	s->kcur = kmin == LONG_MAX ? 0 : kmin;
	for (long i = 1; i <= r->nl; i++) {
		int32_t p = r->list[-i];
		if (s->val[p] != INFINITY) {
			s->frontier++;
			ffq_push(s, p, ffq_key(s, s->val[p]));
		}
	}
}

/* Recomputes flow and clears the repair flags on the box plus one. */
static void finish(ff_solver *s)
{
	int x0 = s->bx0 > 1 ? s->bx0 - 1 : 1, y0 = s->by0 > 1 ? s->by0 - 1 : 1;
	int x1 = s->bx1 < s->w ? s->bx1 + 1 : s->w, y1 = s->by1 < s->h ? s->by1 + 1 : s->h;

	for (int y = y0; y <= y1; y++)
		for (int x = x0; x <= x1; x++) {
			int32_t p = y * s->W + x;
			s->cf[p] &= (uint8_t)~(FL_INA | FL_CHECKED);
			ffs_set_dir(s, p, ff_dijkstra_dir(s, p));
		}
	s->track = false;
}

static ff_err full(ff_solver *s)
{
	ff_solver_opts o = s->opts;

	s->cls = s->costs.cls;   /* the class of the solve repaired */
	return ff_solver_solve(s, s->lvl, s->goals, s->ngoals, &o);
}

/* True when a cell of [x0,x1] x [y0,y1] became or stopped being a wall:
 * then the penalties around it change too. */
static bool walls_changed(const ff_solver *s, int x0, int y0, int x1, int y1)
{
	for (int y = y0; y <= y1; y++)
		for (int x = x0; x <= x1; x++)
			if ((s->cost[ffs_index(s, x, y)] == FF_WALL) != ff_costs_wall(&s->costs, x, y))
				return true;
	return false;
}

/* Builds the effective costs of the cells whose cost may have changed,
 * after the cells of [x0,x1] x [y0,y1] (clipped) changed, and widens the
 * box to them; false when the level's cost rules changed (solve again). */
static bool costs_again(ff_solver *s, int *x0, int *y0, int *x1, int *y1)
{
	ff_costs c;
	int r;

	ff_costs_init(&c, s->lvl, ff_solver_metric(&s->opts));
	ff_costs_set_crowd(&c, s->crowd);
	ff_costs_set_class(&c, s->costs.cls);
	if (!ff_costs_same(&c, &s->costs))
		return false;
	r = walls_changed(s, *x0, *y0, *x1, *y1) ? ff_costs_reach(&c) : 0;
	*x0 = *x0 > r ? *x0 - r : 0, *y0 = *y0 > r ? *y0 - r : 0;
	*x1 = *x1 < s->w - 1 - r ? *x1 + r : s->w - 1;
	*y1 = *y1 < s->h - 1 - r ? *y1 + r : s->h - 1;
	ff_costs_fill(&c, *x0, *y0, *x1, *y1, s->cost + ffs_index(s, *x0, *y0), (size_t)s->W,
		      (uint8_t *)s->ent);
	return true;
}

ff_err ff_solver_repair(ff_solver *s, int x0, int y0, int x1, int y1)
{
	rctx r;
	size_t cap;

	if (!s || s->phase != FF_PHASE_DONE)
		return FF_E_STATE;
	if (x0 > x1 || y0 > y1)
		return FF_E_INVAL;
	if (x1 < 0 || y1 < 0 || x0 >= s->w || y0 >= s->h)
		return FF_E_RANGE;
	for (int i = 0; i < s->ngoals; i++)
		if (ff_level_check_shape_as(s->lvl, &s->goals[i], true, s->costs.cls))
			return full(s);          /* reports the goal's error */
	if (s->opts.method == FF_METHOD_HIER)
		return ff_hier_update(s->hier, s->lvl, x0, y0, x1, y1) ? full(s) : FF_OK;
	if (s->opts.method != FF_METHOD_DIJKSTRA)
		return full(s);
	x0 = x0 < 0 ? 0 : x0, y0 = y0 < 0 ? 0 : y0;
	x1 = x1 >= s->w ? s->w - 1 : x1, y1 = y1 >= s->h ? s->h - 1 : y1;
	if (!costs_again(s, &x0, &y0, &x1, &y1))
		return full(s);

	cap = (size_t)s->nblk * (size_t)s->bs;
	r.list = s->ent + cap;
	r.nl = 0;
	r.max = (long)(s->nblk - FF_RING - 4) * s->bs / 2;
	r.nd = s->opts.connectivity;
	ff_dijkstra_offsets(s, r.off);
	ffq_reset(s);
	s->fresh_lim = (int32_t)((cap - (size_t)r.max) / (size_t)s->bs) - 1;
	s->bx0 = s->by0 = 1 << 30;
	s->bx1 = s->by1 = -1;
	/* A changed cell also changes which diagonals around it cut a corner,
	 * so the cells beside the box are solved again too. */
	x0 = x0 > 0 ? x0 - 1 : 0, y0 = y0 > 0 ? y0 - 1 : 0;
	x1 = x1 < s->w - 1 ? x1 + 1 : x1, y1 = y1 < s->h - 1 ? y1 + 1 : y1;
	if (!invalidate(s, &r, x0, y0, x1, y1)) {
		finish(s);
		return full(s);
	}
	ffq_reset(s);
	s->fresh_lim = (int32_t)((cap - (size_t)r.max) / (size_t)s->bs) - 1;
	reseed(s, &r);
	s->fresh_lim = s->nblk;
	s->fused = false;
	s->track = true;
	ff_dijkstra_run(s, -1, false);
	finish(s);
	s->last = -1;
	if (ffs_los(s))
		ff_solver_los_pass(s);
	return FF_OK;
}
