/*
 * dijkstra.c - the exact integration field: Dijkstra over the 8- (or 4-)
 * connected grid with a bucket queue of width 1.
 *
 * Why width 1 is exact: the smallest step costs 1 (a straight step into a
 * cost-1 cell), so settling a cell of bucket k only ever lowers cells into
 * buckets > k; every value in bucket k is final once bucket k is reached,
 * and the order inside a bucket does not matter for the values.  The flow
 * direction of a cell is its allowed neighbour with the smallest value,
 * first in FF_DIR_* order on ties; those neighbours all have smaller values
 * than the cell, so they are final when it settles (see solver.c).
 *
 * Walls and the padding border hold INFINITY and their step cost is
 * INFINITY, so the neighbour loop needs no wall test except for the two
 * corner cells of a diagonal.
 */
#include "solver_int.h"

/* Looks at neighbour N of a cell of value V: records it as the lowest so
 * far when OK, and lowers it to V + STEP when that is smaller. */
static inline void visit(ff_solver *s, int32_t n, double v, double step, bool ok,
			 int d, double *best, int *bd)
{
	double o = s->val[n], nv = v + step;

	if (ok && o < *best) {
		*best = o;
		*bd = d;
	}
	if (nv < o)
		ffq_lower(s, n, o, nv);
}

/* Settles cell C: relaxes its neighbours and returns its flow direction. */
static inline int settle(ff_solver *s, int32_t c, bool eight)
{
	const int32_t W = s->W;
	const uint8_t *cost = s->cost;
	const double v = s->val[c];
	const double *os = s->ostep, *ds = s->dstep;
	uint8_t ce = cost[c + 1], cs = cost[c + W], cw = cost[c - 1], cn = cost[c - W];
	double best = v;
	int bd = FF_DIR_NONE;

	visit(s, c + 1, v, os[ce], true, FF_DIR_E, &best, &bd);
	visit(s, c + W, v, os[cs], true, FF_DIR_S, &best, &bd);
	visit(s, c - 1, v, os[cw], true, FF_DIR_W, &best, &bd);
	visit(s, c - W, v, os[cn], true, FF_DIR_N, &best, &bd);
	if (eight) {
		bool e = ce != FF_WALL, so = cs != FF_WALL, w = cw != FF_WALL,
		     n = cn != FF_WALL;
		visit(s, c + W + 1, v, e && so ? ds[cost[c + W + 1]] : INFINITY,
		      e && so, FF_DIR_SE, &best, &bd);
		visit(s, c + W - 1, v, w && so ? ds[cost[c + W - 1]] : INFINITY,
		      w && so, FF_DIR_SW, &best, &bd);
		visit(s, c - W - 1, v, w && n ? ds[cost[c - W - 1]] : INFINITY,
		      w && n, FF_DIR_NW, &best, &bd);
		visit(s, c - W + 1, v, e && n ? ds[cost[c - W + 1]] : INFINITY,
		      e && n, FF_DIR_NE, &best, &bd);
	}
	return bd;
}

const int32_t *ff_dijkstra_offsets(const ff_solver *s, int32_t off[8])
{
	const int32_t W = s->W;

	off[FF_DIR_E] = 1, off[FF_DIR_S] = W, off[FF_DIR_W] = -1, off[FF_DIR_N] = -W;
	off[FF_DIR_SE] = W + 1, off[FF_DIR_SW] = W - 1;
	off[FF_DIR_NW] = -W - 1, off[FF_DIR_NE] = -W + 1;
	return off;
}

/* True when the step from P in direction D is allowed (no corner cut). */
bool ff_dijkstra_step_ok(const ff_solver *s, int32_t p, int d, const int32_t *off)
{
	static const uint8_t c1[8] = {0, 0, 0, 0, FF_DIR_E, FF_DIR_W, FF_DIR_W, FF_DIR_E};
	static const uint8_t c2[8] = {0, 0, 0, 0, FF_DIR_S, FF_DIR_S, FF_DIR_N, FF_DIR_N};

	if (s->cost[p + off[d]] == FF_WALL)
		return false;
	return d < FF_DIR_SE || (s->cost[p + off[c1[d]]] != FF_WALL &&
				 s->cost[p + off[c2[d]]] != FF_WALL);
}

uint8_t ff_dijkstra_dir(const ff_solver *s, int32_t p)
{
	int32_t off[8];
	int nd = s->opts.connectivity == 4 ? 4 : 8, bd = FF_DIR_NONE;
	double best = s->val[p];

	if (s->cost[p] == FF_WALL || !(s->flag[p] & FL_SETTLED))
		return FF_DIR_NONE;
	ff_dijkstra_offsets(s, off);
	for (int d = 0; d < nd; d++) {
		double o = s->val[p + off[d]];
		if (o < best && ff_dijkstra_step_ok(s, p, d, off)) {
			best = o;
			bd = d;
		}
	}
	return (uint8_t)bd;
}

bool ff_dijkstra_run(ff_solver *s, long n, bool wave)
{
	bool eight = s->opts.connectivity == 8;
	long kmax = LONG_MAX;

	while (n != 0) {
		int32_t c = ffq_pop(s, kmax);
		int bd;

		if (c == -1)
			return true;
		if (c == -2)
			return false;
		if (wave)
			kmax = s->kcur;
		bd = eight ? settle(s, c, true) : settle(s, c, false);
		s->flag[c] |= FL_SETTLED;
		s->settled++;
		s->frontier--;
		s->last = c;
		s->last_from = bd == FF_DIR_NONE ? -1 : c + (int32_t)(ff_dir_dy[bd] * s->W + ff_dir_dx[bd]);
		if (s->fused)
			s->dir[c] = (uint8_t)bd;
		if (s->track) {
			int x = c % s->W, y = c / s->W;
			s->bx0 = x < s->bx0 ? x : s->bx0, s->bx1 = x > s->bx1 ? x : s->bx1;
			s->by0 = y < s->by0 ? y : s->by0, s->by1 = y > s->by1 ? y : s->by1;
		}
		if (n > 0)
			n--;
	}
	return false;
}
