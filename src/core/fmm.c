/*
 * fmm.c - Fast Marching: the viscosity solution of |grad T| = cost(x) on the
 * 4-neighbour stencil with the first-order upwind quadratic update.
 *
 * Accepted ("known") cells carry FL_SETTLED.  When a cell is accepted each
 * passable neighbour not yet known is recomputed from its known neighbours
 * only: with a = the smaller known horizontal value, b = the smaller known
 * vertical one and f the cell's cost, T solves (T-a)^2 + (T-b)^2 = f^2 when
 * |a-b| < f, else T = min(a,b) + f.
 *
 * Ordering: the queue is the solver's bucket queue with buckets of width
 * cmin/4 (cmin = the level's smallest cost), settled first in, first out
 * inside a bucket; cells lowered into the bucket being settled are appended
 * to it.  That is the "untidy" FMM of Yatziv, Bartesaghi and Sapiro (2006):
 * O(1) per cell, with an ordering error below one bucket width whose effect
 * the tests measure against the exact Euclidean distance.  It is fully
 * deterministic.
 *
 * Flow is the upwind -grad T: in x, towards the smaller known horizontal
 * neighbour when it is below T (east on ties), likewise in y.
 */
#include "solver_int.h"

FF_HOT double known(const ff_solver *s, int32_t p)
{
	return (s->cf[p] & FL_SETTLED) ? s->val[p] : INFINITY;
}

FF_HOT double min2(double x, double y)
{
	return y < x ? y : x;
}

FF_HOT double update(const ff_solver *s, int32_t p)
{
	double a = min2(known(s, p - 1), known(s, p + 1));
	double b = min2(known(s, p - s->W), known(s, p + s->W));
	double f = s->cost[p], d;

	if (a > b) {
		d = a;
		a = b;
		b = d;
	}
	d = b - a;
	if (!(d < f))
		return a + f;
	return (a + b + sqrt(2.0 * f * f - d * d)) * 0.5;
}

/* Recomputes neighbour N of a cell just accepted; FAST: one-shot (no
 * cell is ever reopened, so the lowering is simpler than ffq_lower). */
FF_HOT void touch(ff_solver *s, int32_t n, bool fast)
{
	double o, t;

	if (s->cost[n] == FF_WALL || (s->cf[n] & FL_SETTLED))
		return;
	o = s->val[n];
	t = update(s, n);
	if (!(t < o))
		return;
	if (!fast) {
		ffq_lower(s, n, o, t);
		return;
	}
	s->val[n] = t;
	if (o == INFINITY) {
		s->frontier++;
		ffq_push(s, n, ffq_key(s, t));
	} else {
		long k = ffq_key(s, t);
		if (k != ffq_key(s, o))
			ffq_push(s, n, k);
	}
}

/* The one-shot integration: each bucket walked block by block, first in
 * first out, including the cells appended to it while it is walked. */
static void run_fast(ff_solver *s)
{
	const int32_t W = s->W, bs = s->bs;
	uint8_t *cf = s->cf;
	long nset = 0;
	int32_t last = -1;

	/* a stepped solve may stop inside a bucket: resume there */
	while (s->cur_blk >= 0 || ffq_next_bucket(s)) {
		const long k = s->kcur;
		ff_bucket *b = &s->ring[k & FF_RING_MASK];
		int32_t blk = s->cur_blk, i = s->cur_pos;
		long used = 0;

		for (;;) {
			int32_t lim = blk == b->tail ? b->fill : bs;
			used += lim - i;
			for (; i < lim; i++) {
				int32_t c = s->ent[(size_t)blk * (size_t)bs + (size_t)i];
				if ((cf[c] & FL_SETTLED) || ffq_key(s, s->val[c]) != k)
					continue;
				cf[c] |= FL_SETTLED;
				nset++;
				s->frontier--;
				touch(s, c + 1, true);
				touch(s, c + W, true);
				touch(s, c - 1, true);
				touch(s, c - W, true);
				last = c;
			}
			/* the block may have grown while it was walked */
			if (i < (blk == b->tail ? b->fill : bs))
				continue;
			if (blk == b->tail)
				break;
			blk = s->bnext[blk], i = 0;
		}
		s->qcount -= used;
		ffq_drop_current(s);
	}
	s->settled += nset;
	if (last >= 0) {
		s->last = last;
	}
}

bool ff_fmm_run(ff_solver *s, long n, bool wave)
{
	long kmax = LONG_MAX;
	const int32_t W = s->W;

	if (n < 0 && !wave) {
		run_fast(s);
		return true;
	}
	while (n != 0) {
		int32_t c = ffq_pop(s, kmax);

		if (c == -1)
			return true;
		if (c == -2)
			return false;
		if (wave)
			kmax = s->kcur;
		s->cf[c] |= FL_SETTLED;
		s->settled++;
		s->frontier--;
		touch(s, c + 1, false);
		touch(s, c + W, false);
		touch(s, c - 1, false);
		touch(s, c - W, false);
		s->last = c;
		if (n > 0)
			n--;
	}
	return false;
}

/* -grad T, normalised, from the values V = T(p) and its four neighbours
 * (INFINITY where not accepted). */
FF_HOT void grad_of(double v, double te, double tw, double ts, double tn,
		    float *dx, float *dy)
{
	double gx = 0, gy = 0, n;

	*dx = *dy = 0.0f;
	if (te <= tw && te < v)
		gx = v - te;
	else if (tw < te && tw < v)
		gx = -(v - tw);
	if (ts <= tn && ts < v)
		gy = v - ts;
	else if (tn < ts && tn < v)
		gy = -(v - tn);
	n = sqrt(gx * gx + gy * gy);
	if (n > 0) {
		*dx = (float)(gx / n);
		*dy = (float)(gy / n);
	}
}

void ff_fmm_grad(const ff_solver *s, int32_t p, float *dx, float *dy)
{
	*dx = *dy = 0.0f;
	if (!(s->cf[p] & FL_SETTLED))
		return;
	grad_of(s->val[p], known(s, p + 1), known(s, p - 1), known(s, p + s->W),
		known(s, p - s->W), dx, dy);
}

/* The 8-way arrow for display and for the monotone test: among the allowed
 * neighbours below T, the one best aligned with -grad T.  T holds the
 * values, INFINITY where not accepted. */
FF_HOT uint8_t dir_of(const ff_solver *s, int32_t p, const double t[9])
{
	const float inv = 0.70710678118654752f;
	const int32_t W = s->W;
	const double v = t[8];
	const bool pe = s->cost[p + 1] != FF_WALL, ps = s->cost[p + W] != FF_WALL,
		   pw = s->cost[p - 1] != FF_WALL, pn = s->cost[p - W] != FF_WALL;
	const bool ok[8] = {true, true, true, true, pe && ps, pw && ps, pw && pn, pe && pn};
	/* dx, dy of FF_DIR_* times the diagonal's 1/sqrt 2 */
	float gx, gy, dot[8], bestdot = -2.0f;
	int bd = FF_DIR_NONE;

	grad_of(v, t[FF_DIR_E], t[FF_DIR_W], t[FF_DIR_S], t[FF_DIR_N], &gx, &gy);
	dot[FF_DIR_E] = gx, dot[FF_DIR_S] = gy, dot[FF_DIR_W] = -gx, dot[FF_DIR_N] = -gy;
	dot[FF_DIR_SE] = (gx + gy) * inv, dot[FF_DIR_SW] = (-gx + gy) * inv;
	dot[FF_DIR_NW] = (-gx - gy) * inv, dot[FF_DIR_NE] = (gx - gy) * inv;
	for (int d = 0; d < 8; d++) {
		float dd = t[d] < v && ok[d] ? dot[d] : -3.0f;
		bd = dd > bestdot ? d : bd;
		bestdot = dd > bestdot ? dd : bestdot;
	}
	return (uint8_t)bd;
}

uint8_t ff_fmm_dir(const ff_solver *s, int32_t p)
{
	const int32_t W = s->W;
	const int32_t off[8] = {1, W, -1, -W, W + 1, W - 1, -W - 1, -W + 1};
	double t[9];

	if (s->cost[p] == FF_WALL || !(s->cf[p] & FL_SETTLED) || s->val[p] == 0.0)
		return FF_DIR_NONE;
	for (int d = 0; d < 8; d++)
		t[d] = known(s, p + off[d]);
	t[8] = s->val[p];
	return dir_of(s, p, t);
}

/* After the integration every reached cell is accepted and every other one
 * holds INFINITY, so known() is the value itself. */
void ff_fmm_flow_span(ff_solver *s, int32_t p, int32_t n)
{
	const int32_t W = s->W;
	const double *val = s->val;

	for (int32_t i = p; i < p + n; i++) {
		double t[9] = {val[i + 1], val[i + W], val[i - 1], val[i - W],
			       val[i + W + 1], val[i + W - 1], val[i - W - 1],
			       val[i - W + 1], val[i]};
		uint8_t d = FF_DIR_NONE;
		if (s->cost[i] != FF_WALL && (s->cf[i] & FL_SETTLED) && t[8] != 0.0)
			d = dir_of(s, i, t);
		ffs_set_dir(s, i, d);
	}
}
