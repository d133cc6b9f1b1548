/*
 * solver_open.c - the exact Dijkstra field of open ground without the queue:
 * a level whose passable cells are one rectangle of one cost (the whole
 * level, or a field inside walls) is solved by sweeps over its rows, which
 * give the bucket queue's doubles bit for bit.
 *
 * Why (docs/solver.md, "Open ground"): the queue's value of a cell is the
 * smallest of the rounded sums fl(val[m] + step(m -> n)) over its
 * neighbours m, and that fixed point is unique: it is the smallest rounded
 * sum, added step by step from a goal, over every path.  Any path whose
 * length is more than a rounding away from the shortest cannot give it.
 * On open ground of one cost a shortest path from a goal to a cell lies in
 * one octant: it takes only the two steps that bound the octant (S and SE,
 * or E and SE, ...), in some order; every other path is longer by at least
 * (2 - sqrt 2) times the cost, where the rounding of a sum of up to 32,768
 * steps is below 1e-4.  A sweep that walks lines in the direction of an
 * octant and takes, for each cell, the minimum of its old value and its
 * predecessors' values plus the step gives every cell at most the rounded
 * sum of every path of its two steps, in any order; it never gives less
 * than a real path's sum.  So after the sweeps of all eight octants, in
 * any order, every value is exactly the queue's.
 *
 * Rows down (S, SE, SW from the row above) and up (N, NE, NW) are one row
 * at a time; the horizontal octants (E with SE, W with SW, E with NE, W
 * with NW) walk columns of a strip of rows, whose rows are independent of
 * each other within a column.  A pass down the level sweeps each strip's
 * rows down, then its E-SE and W-SW octants; a pass up does the rest, so
 * the level is read twice and a strip stays in cache.  The arrows of a
 * row are chosen on the pass up as soon as it and its neighbours are
 * final.  One thread: a second one choosing the arrows behind the pass up
 * was slower on a loaded host (docs/solver.md).
 */
#include <string.h>

#include "solver_int.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define STRIP 8                         /* rows a column sweep walks at once */

/* The rectangle of passable cells, padded coordinates, inclusive, and the
 * steps of its one cost. */
typedef struct ff_open_box {
	int x0, y0, x1, y1;
	double c1, cd;
} ff_open_box;

static inline double dmin(double a, double b)
{
	return a < b ? a : b;
}

/* Lowers the N cells of the row at V from the row at V + D (the row above
 * or below): a straight step C1 and two diagonals CD. */
static void rows_step(double *v, int32_t n, ptrdiff_t d, double c1, double cd)
{
	const double *u = v + d;
	int32_t i = 0;

#if defined(__SSE2__)
	const __m128d s1 = _mm_set1_pd(c1), sd = _mm_set1_pd(cd);

	for (; i + 2 <= n; i += 2) {
		__m128d a = _mm_add_pd(_mm_loadu_pd(u + i), s1);
		__m128d b = _mm_add_pd(_mm_min_pd(_mm_loadu_pd(u + i - 1), _mm_loadu_pd(u + i + 1)), sd);
		_mm_storeu_pd(v + i, _mm_min_pd(_mm_min_pd(a, b), _mm_loadu_pd(v + i)));
	}
#endif
	for (; i < n; i++)
		v[i] = dmin(dmin(u[i] + c1, dmin(u[i - 1], u[i + 1]) + cd), v[i]);
}

/* Lowers the cells of the ROWS rows from V (W apart) column by column,
 * going east (DX = 1: from the column before) or west (DX = -1), by a
 * straight step C1 from the same row and a diagonal CD from the row at
 * offset D (the row above or below). */
static void cols_step(double *v, int rows, int32_t n, int32_t W, int dx, ptrdiff_t d, double c1,
		      double cd)
{
	for (int32_t k = 0; k < n; k++) {
		double *p = v + (dx > 0 ? k : n - 1 - k);
		for (int r = 0; r < rows; r++, p += W)
			*p = dmin(dmin(p[-dx] + c1, p[d - dx] + cd), *p);
	}
}

#if defined(__SSE2__)
/* cols_step() for a strip of STRIP rows, in pairs of rows (0, 1), (2, 3),
 * (4, 5), (6, 7) that stay in registers from one column to the next; the
 * diagonal's rows are the same values one row on, and the row beyond the
 * strip (above it, or below when UP). */
FF_HOT void cols8(double *v, int32_t n, int32_t W, int dx, bool up, double c1, double cd)
{
	const __m128d s1 = _mm_set1_pd(c1), sd = _mm_set1_pd(cd);
	const double *e = up ? v + STRIP * W : v - W;
	double *r0 = v, *r1 = v + W, *r2 = v + 2 * W, *r3 = v + 3 * W;
	double *r4 = v + 4 * W, *r5 = v + 5 * W, *r6 = v + 6 * W, *r7 = v + 7 * W;
	int32_t x = dx > 0 ? 0 : n - 1;
	__m128d p01 = _mm_loadh_pd(_mm_load_sd(r0 + x - dx), r1 + x - dx);
	__m128d p23 = _mm_loadh_pd(_mm_load_sd(r2 + x - dx), r3 + x - dx);
	__m128d p45 = _mm_loadh_pd(_mm_load_sd(r4 + x - dx), r5 + x - dx);
	__m128d p67 = _mm_loadh_pd(_mm_load_sd(r6 + x - dx), r7 + x - dx);

	for (int32_t k = 0; k < n; k++, x += dx) {
		const __m128d pe = _mm_load_sd(e + x - dx);
		const __m128d q01 = up ? _mm_shuffle_pd(p01, p23, 1) : _mm_shuffle_pd(pe, p01, 0);
		const __m128d q23 = up ? _mm_shuffle_pd(p23, p45, 1) : _mm_shuffle_pd(p01, p23, 1);
		const __m128d q45 = up ? _mm_shuffle_pd(p45, p67, 1) : _mm_shuffle_pd(p23, p45, 1);
		const __m128d q67 = up ? _mm_shuffle_pd(p67, pe, 1) : _mm_shuffle_pd(p45, p67, 1);
#define COLS8_PAIR(P, Q, A, B)                                                                  \
		P = _mm_min_pd(_mm_min_pd(_mm_add_pd(P, s1), _mm_add_pd(Q, sd)),                \
			       _mm_loadh_pd(_mm_load_sd(A + x), B + x));                        \
		_mm_storel_pd(A + x, P), _mm_storeh_pd(B + x, P)
		COLS8_PAIR(p01, q01, r0, r1);
		COLS8_PAIR(p23, q23, r2, r3);
		COLS8_PAIR(p45, q45, r4, r5);
		COLS8_PAIR(p67, q67, r6, r7);
#undef COLS8_PAIR
	}
}
#endif

/* One strip of ROWS rows from padded row Y0 of the box B: going DOWN, its
 * rows from the row above and then its E-SE and W-SW octants; else (up)
 * its rows from the row below, bottom first, and its E-NE and W-NW
 * octants. */
static void strip(ff_solver *s, const ff_open_box *b, int y0, int rows, bool down)
{
	const int32_t W = s->W, n = b->x1 - b->x0 + 1;
	double *v = s->val + (ptrdiff_t)y0 * W + b->x0;
	const ptrdiff_t d = down ? -W : W;

	for (int r = 0; r < rows; r++)
		rows_step(v + (ptrdiff_t)(down ? r : rows - 1 - r) * W, n, d, b->c1, b->cd);
#if defined(__SSE2__)
	if (rows == STRIP) {
		cols8(v, n, W, 1, !down, b->c1, b->cd);
		cols8(v, n, W, -1, !down, b->c1, b->cd);
		return;
	}
#endif
	cols_step(v, rows, n, W, 1, d, b->c1, b->cd);
	cols_step(v, rows, n, W, -1, d, b->c1, b->cd);
}

/* The arrows and settled flags of padded rows Y0..Y1 of the box B, final
 * with the rows beside them; raises *TOP to their largest value, S->last
 * its first cell. */
static void finish(ff_solver *s, const ff_open_box *b, int y0, int y1, double *top)
{
	for (int y = y0; y <= y1; y++) {
		const int32_t p = y * s->W + b->x0;
		const double hi = ff_dijkstra_open_span(s, p, b->x1 - b->x0 + 1);
		if (hi > *top) {
			*top = hi;
			for (s->last = p; s->val[s->last] != hi; s->last++)
				;
		}
	}
}

/* Whether the passable cells of the level are one rectangle of one cost
 * (all of the level, or a field inside walls): then *B is it, in padded
 * coordinates, with its steps.  Row by row: the first one with a passable
 * cell cell by cell, the rows of the box against it, the others against
 * the padding's row of walls. */
static bool open_box(const ff_solver *s, ff_open_box *b)
{
	const uint8_t *walls = s->cost, *first;
	int y = 1, x0 = 0, x1 = s->w - 1;

	while (y <= s->h && !memcmp(s->cost + (ptrdiff_t)y * s->W + 1, walls, (size_t)s->w))
		y++;
	if (y > s->h)
		return false;
	first = s->cost + (ptrdiff_t)y * s->W + 1;
	while (first[x0] == FF_WALL)
		x0++;
	while (first[x1] == FF_WALL)
		x1--;
	for (int x = x0; x <= x1; x++)
		if (first[x] != first[x0])
			return false;
	b->y0 = y, b->x0 = x0 + 1, b->x1 = x1 + 1;
	while (y < s->h && !memcmp(first, first + (ptrdiff_t)(y + 1 - b->y0) * s->W, (size_t)s->w))
		y++;
	b->y1 = y;
	for (y++; y <= s->h; y++)
		if (memcmp(s->cost + (ptrdiff_t)y * s->W + 1, walls, (size_t)s->w))
			return false;
	b->c1 = s->ostep[first[x0]], b->cd = s->dstep[first[x0]];
	return true;
}

/* The pass up, strip by strip: each finishes its rows but the top one,
 * whose arrows need the row above, and the first row of the strip below,
 * while they are in cache. */
static void pass_up(ff_solver *s, const ff_open_box *b)
{
	double top = -1.0;

	for (int y = b->y1; y >= b->y0; y -= STRIP) {
		const int y0 = y - STRIP >= b->y0 ? y - STRIP + 1 : b->y0;
		strip(s, b, y0, y - y0 + 1, false);
		finish(s, b, y0 + 1, y < b->y1 ? y + 1 : b->y1, &top);
	}
	finish(s, b, b->y0, b->y0, &top);
}

bool ff_open_run(ff_solver *s)
{
	ff_open_box b;

	if (!open_box(s, &b))
		return false;
	for (int y = b.y0; y <= b.y1; y += STRIP)
		strip(s, &b, y, b.y1 - y + 1 < STRIP ? b.y1 - y + 1 : STRIP, true);
	pass_up(s, &b);
	s->settled = (long)(b.x1 - b.x0 + 1) * (b.y1 - b.y0 + 1);
	s->open_runs++;
	ffq_reset(s);
	return true;
}
