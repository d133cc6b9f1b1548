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

static inline double known(const ff_solver *s, int32_t p)
{
	return (s->flag[p] & FL_SETTLED) ? s->val[p] : INFINITY;
}

static inline double update(const ff_solver *s, int32_t p)
{
	double a = fmin(known(s, p - 1), known(s, p + 1));
	double b = fmin(known(s, p - s->W), known(s, p + s->W));
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

static inline void touch(ff_solver *s, int32_t n)
{
	double o, t;

	if (s->cost[n] == FF_WALL || (s->flag[n] & FL_SETTLED))
		return;
	o = s->val[n];
	t = update(s, n);
	if (t < o)
		ffq_lower(s, n, o, t);
}

bool ff_fmm_run(ff_solver *s, long n, bool wave)
{
	long kmax = LONG_MAX;
	const int32_t W = s->W;

	while (n != 0) {
		int32_t c = ffq_pop(s, kmax);

		if (c == -1)
			return true;
		if (c == -2)
			return false;
		if (wave)
			kmax = s->kcur;
		s->flag[c] |= FL_SETTLED;
		s->settled++;
		s->frontier--;
		touch(s, c + 1);
		touch(s, c + W);
		touch(s, c - 1);
		touch(s, c - W);
		s->last = c;
		s->last_from = -1;
		if (n > 0)
			n--;
	}
	return false;
}

void ff_fmm_grad(const ff_solver *s, int32_t p, float *dx, float *dy)
{
	double v = s->val[p], te = known(s, p + 1), tw = known(s, p - 1);
	double ts = known(s, p + s->W), tn = known(s, p - s->W);
	double gx = 0, gy = 0, n;

	*dx = *dy = 0.0f;
	if (!(s->flag[p] & FL_SETTLED))
		return;
	if (te <= tw && te < v)
		gx = (double)v - te;
	else if (tw < te && tw < v)
		gx = -((double)v - tw);
	if (ts <= tn && ts < v)
		gy = (double)v - ts;
	else if (tn < ts && tn < v)
		gy = -((double)v - tn);
	n = sqrt(gx * gx + gy * gy);
	if (n > 0) {
		*dx = (float)(gx / n);
		*dy = (float)(gy / n);
	}
}

/* The 8-way arrow for display and for the monotone test: among the allowed
 * neighbours below T, the one best aligned with -grad T. */
uint8_t ff_fmm_dir(const ff_solver *s, int32_t p)
{
	static const float inv = 0.70710678118654752f;
	const int32_t W = s->W;
	const int32_t off[8] = {1, W, -1, -W, W + 1, W - 1, -W - 1, -W + 1};
	float gx, gy, bestdot = -2.0f;
	double v = s->val[p];
	int bd = FF_DIR_NONE;

	if (s->cost[p] == FF_WALL || !(s->flag[p] & FL_SETTLED) || v == 0.0)
		return FF_DIR_NONE;
	ff_fmm_grad(s, p, &gx, &gy);
	for (int d = 0; d < 8; d++) {
		float dot;
		if (!(known(s, p + off[d]) < v))
			continue;
		if (d >= FF_DIR_SE && (s->cost[p + ff_dir_dx[d]] == FF_WALL ||
				       s->cost[p + ff_dir_dy[d] * W] == FF_WALL))
			continue;
		dot = (gx * (float)ff_dir_dx[d] + gy * (float)ff_dir_dy[d]) *
		      (d >= FF_DIR_SE ? inv : 1.0f);
		if (dot > bestdot) {
			bestdot = dot;
			bd = d;
		}
	}
	return (uint8_t)bd;
}
