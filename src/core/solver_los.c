/*
 * solver_los.c - line of sight (solver_los.h).
 *
 * Shadow casting: from the target, each of the eight octants is walked
 * column by column (i cells out along its axis, j cells aside, 0 <= j <=
 * i).  A cell at (i, j) sees the target when the slope j / i of the
 * segment lies in no shadow, a shadow being the closed range of slopes
 * of the lines through the target that touch a blocker's square in an
 * earlier column, [(2j' - 1) / (2i' + 1), (2j' + 1) / (2i' - 1)] for the
 * blocker (i', j') (the blocker (0, 1) beside the target shades the
 * diagonal alone), or when j = i and the blocker (i, i - 1) touches the
 * diagonal at its corner.  Slopes are compared as exact fractions.  The
 * shadows are kept merged and sorted, so a column costs its cells and
 * its shadows; an octant ends when one shadow covers it all.
 */
#include <stdlib.h>

#include "solver_int.h"
#include "solver_los.h"

/* The most goal cells a field looks for lines of sight to. */
#define FF_LOS_GOALS 64

typedef struct frac {
	int64_t n, d;                       /* n / d, d > 0 */
} frac;

typedef struct shadow {
	frac lo, hi;
} shadow;

static inline bool le(frac a, frac b)
{
	return a.n * b.d <= b.n * a.d;
}

static inline bool lt(frac a, frac b)
{
	return a.n * b.d < b.n * a.d;
}

static inline bool outside(const ff_los_grid *g, int x, int y)
{
	return x < g->x0 || x > g->x1 || y < g->y0 || y > g->y1;
}

static bool blocks(const ff_los_grid *g, int x, int y, uint8_t ref)
{
	return outside(g, x, y) || g->cost[(long)y * g->stride + x] != ref;
}

static int64_t floor_div(int64_t a, int64_t b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

bool ff_los_clear(const ff_los_grid *g, int ax, int ay, int bx, int by)
{
	const int dx = bx - ax, dy = by - ay;
	const int sx = dx < 0 ? -1 : 1, sy = dy < 0 ? -1 : 1;
	const bool xmajor = dx * sx >= dy * sy;
	const int64_t M = xmajor ? dx * sx : dy * sy, m = xmajor ? dy * sy : dx * sx;
	uint8_t ref;

	if (blocks(g, bx, by, ref = g->pass))
		return false;
	if (M == 0)
		return !blocks(g, ax, ay, ref);
	/* along the major axis, step i covers [i - 1/2, i + 1/2] (clipped to
	 * the segment); the minor coordinate runs over [m(2i-1), m(2i+1)] / 2M
	 * there, and touches the cells whose [j - 1/2, j + 1/2] meets it */
	for (int64_t i = 0; i <= M; i++) {
		int64_t jlo = i == 0 ? 0 : -floor_div(-(m * (2 * i - 1) - M), 2 * M);
		int64_t jhi = i == M ? m : floor_div(m * (2 * i + 1) + M, 2 * M);
		for (int64_t j = jlo; j <= jhi; j++) {
			int x = ax + sx * (int)(xmajor ? i : j), y = ay + sy * (int)(xmajor ? j : i);
			if (blocks(g, x, y, ref))
				return false;
		}
	}
	return true;
}

/* The octants: (x, y) = (tx, ty) + i * (A, C) + j * (B, D). */
static const int8_t oct[8][4] = {
	{1, 0, 0, 1}, {0, 1, 1, 0}, {0, -1, 1, 0}, {-1, 0, 0, 1},
	{-1, 0, 0, -1}, {0, -1, -1, 0}, {0, 1, -1, 0}, {1, 0, 0, -1},
};

/* Merges the sorted shadows A (NA) and B (NB) into OUT; their number. */
static long merge(const shadow *a, long na, const shadow *b, long nb, shadow *out)
{
	long n = 0, i = 0, k = 0;

	while (i < na || k < nb) {
		shadow s = k == nb || (i < na && le(a[i].lo, b[k].lo)) ? a[i++] : b[k++];
		if (n > 0 && le(s.lo, out[n - 1].hi)) {
			if (lt(out[n - 1].hi, s.hi))
				out[n - 1].hi = s.hi;
		} else {
			out[n++] = s;
		}
	}
	return n;
}

static void octant(const ff_los_grid *g, int tx, int ty, const int8_t *o, uint8_t ref,
		   shadow *list, shadow *col, shadow *tmp, long cap,
		   void (*seen)(void *ctx, int x, int y), void *ctx)
{
	const frac zero = {0, 1}, one = {1, 1};
	long n = 0;

	/* the cell beside the target, across the octant's diagonal, touches
	 * the diagonal at its corner */
	if (blocks(g, tx + o[1], ty + o[3], ref))
		list[n++] = (shadow){one, one};
	for (int i = 1;; i++) {
		const int ax = tx + o[0] * i, ay = ty + o[2] * i;
		long p = 0, nc = 0;
		shadow *t;
		if (ax < g->x0 || ax > g->x1 || ay < g->y0 || ay > g->y1)
			break;
		for (int j = 0; j <= i; j++) {
			const int x = ax + o[1] * j, y = ay + o[3] * j;
			const frac s = {j, i};
			if (blocks(g, x, y, ref))
				continue;
			while (p < n && lt(list[p].hi, s))
				p++;
			if (p < n && le(list[p].lo, s))
				continue;
			if (j == i && blocks(g, x - o[1], y - o[3], ref))
				continue;       /* the corner of (i, i - 1) */
			seen(ctx, x, y);
		}
		/* this column's shadows, in slope order, merged as they come */
		for (int j = 0; j <= i + 1; j++) {
			shadow s;
			if (!blocks(g, ax + o[1] * j, ay + o[3] * j, ref))
				continue;
			s.lo = j == 0 ? zero : (frac){2 * j - 1, 2 * i + 1};
			s.hi = (frac){2 * j + 1, 2 * i - 1};
			if (lt(one, s.hi))
				s.hi = one;
			if (nc > 0 && le(s.lo, col[nc - 1].hi)) {
				if (lt(col[nc - 1].hi, s.hi))
					col[nc - 1].hi = s.hi;
			} else {
				col[nc++] = s;
			}
		}
		n = merge(list, n, col, nc, tmp);
		t = list, list = tmp, tmp = t;
		/* more shadows than room (scattered blockers): join neighbours,
		 * which only darkens gaps, never lights a shadow */
		while (n > cap / 2) {
			long m = 0;
			for (long q = 0; q < n; q += 2)
				list[m++] = q + 1 < n ? (shadow){list[q].lo, list[q + 1].hi} : list[q];
			n = m;
		}
		if (n == 1 && le(list[0].lo, zero) && le(one, list[0].hi))
			break;          /* all in shadow */
	}
}

void ff_los_sweep(const ff_los_grid *g, int tx, int ty, int64_t *scratch,
		  void (*seen)(void *ctx, int x, int y), void *ctx)
{
	const long k = 2L * ((g->x1 - g->x0 + 1 > g->y1 - g->y0 + 1 ? g->x1 - g->x0 + 1 :
			      g->y1 - g->y0 + 1) + 4);
	shadow *a = (shadow *)scratch, *b = a + k, *c = b + k;
	uint8_t ref;

	if (blocks(g, tx, ty, ref = g->pass))
		return;
	for (int i = 0; i < 8; i++)
		octant(g, tx, ty, oct[i], ref, a, b, c, k, seen, ctx);
}

int ff_los_dir8(int ax, int ay, int bx, int by)
{
	static const int8_t dirs[8] = {FF_DIR_E, FF_DIR_SE, FF_DIR_S, FF_DIR_SW,
				       FF_DIR_W, FF_DIR_NW, FF_DIR_N, FF_DIR_NE};
	const double dx = bx - ax, dy = by - ay;
	/* octant of the angle, each of the eight directions owning 45 degrees
	 * around it: compare with the bisectors at tan(22.5) = sqrt 2 - 1 */
	const double t = 0.41421356237309503;
	const double adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
	int k;

	if (dx == 0 && dy == 0)
		return FF_DIR_NONE;
	if (ady <= t * adx)
		k = dx > 0 ? 0 : 4;
	else if (adx <= t * ady)
		k = dy > 0 ? 2 : 6;
	else
		k = dx > 0 ? (dy > 0 ? 1 : 7) : (dy > 0 ? 3 : 5);
	return dirs[k];
}

/* --- the full solver's pass (solver_int.h) --------------------------------- */

typedef struct sweep_ctx {
	ff_solver *s;
	int32_t goal;
} sweep_ctx;

static void mark(void *ctx, int x, int y)
{
	const sweep_ctx *c = ctx;
	ff_solver *s = c->s;
	const int32_t p = ffs_index(s, x, y);

	if ((s->cf[p] & FL_SETTLED) && s->val[p] != INFINITY && s->val[p] != 0.0 &&
	    (s->los_goal >= 0 || s->los_t[p] == c->goal) && !(s->cf[p] & FL_LOS)) {
		s->cf[p] |= FL_LOS;
		s->los_cells++;
	}
}

/* The goal cell each reached cell's arrows lead to, into los_t: a walk
 * to a cell whose goal is known, then again to write it down. */
static void targets(ff_solver *s)
{
	int32_t off[8];

	ff_dijkstra_offsets(s, off);
	for (size_t i = 0; i < s->np; i++)
		s->los_t[i] = s->val[i] == 0.0 ? (int32_t)i : -1;
	for (size_t i = 0; i < s->np; i++) {
		int32_t p = (int32_t)i, t;
		if (s->los_t[p] >= 0 || s->val[p] == INFINITY)
			continue;
		while (s->los_t[p] < 0 && ffs_dir(s, p) != FF_DIR_NONE)
			p += off[ffs_dir(s, p)];
		t = s->los_t[p];
		for (p = (int32_t)i; s->los_t[p] < 0 && ffs_dir(s, p) != FF_DIR_NONE;
		     p += off[ffs_dir(s, p)])
			s->los_t[p] = t;
	}
}

void ff_solver_los_pass(ff_solver *s)
{
	ff_los_grid g = {s->cost + s->W + 1, s->W, 0, 0, s->w - 1, s->h - 1, FF_COST_MAX};
	int32_t goals[FF_LOS_GOALS];
	int ng = 0;

	for (size_t i = 0; i < s->np; i++) {
		s->cf[i] &= (uint8_t)~FL_LOS;
		if (s->cost[i] < g.pass)
			g.pass = s->cost[i];
	}
	s->los_cells = 0;
	s->los_goal = -1;
	for (size_t i = 0; i < s->np && ng < FF_LOS_GOALS; i++)
		if (s->val[i] == 0.0)
			goals[ng++] = (int32_t)i;
	if (!ng || (!s->los_scratch &&
		    !(s->los_scratch = malloc((size_t)ff_los_scratch(s->w, s->h) * sizeof(int64_t)))))
		return;
	if (ng == 1) {
		s->los_goal = goals[0];
	} else {
		if (!s->los_t && !(s->los_t = malloc(s->np * sizeof *s->los_t)))
			return;
		targets(s);
	}
	for (int i = 0; i < ng; i++) {
		sweep_ctx c = {s, goals[i]};
		ff_los_sweep(&g, goals[i] % s->W - 1, goals[i] / s->W - 1, s->los_scratch, mark, &c);
	}
}

int32_t ff_solver_los_target(const ff_solver *s, int32_t p)
{
	if (!(s->cf[p] & FL_LOS))
		return -1;
	return s->los_goal >= 0 ? s->los_goal : s->los_t[p];
}
