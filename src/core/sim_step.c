/*
 * sim_step.c - one tick.  The hot path: no allocation, no libm beyond
 * sqrt (correctly rounded by IEEE 754, so bit-identical everywhere).
 * Every agent reads the grid's snapshot of the start of the tick and its
 * jitter is a counter-based draw keyed by its id, so agents can be
 * updated in grid order (for locality) with the result of id order.
 *
 * Desired velocity of a moving agent, in cells per second:
 *   v* = speed * (flow + sep_weight * separation)
 * and with funnelling, when n neighbours within density_radius exceed
 * density_threshold, f = funnel_weight * min(1, (n - t) / max(t, 1)):
 *   - the sideways part of separation and its forward part (the shove
 *     from behind) are scaled by (1 - f): the column is not split and the
 *     crowd does not push into the gap;
 *   - a sideways pull of strength f towards the roomier side of the way
 *     one cell ahead (clearance to walls): into the middle of the gap
 *     rather than onto its corners, where arches form;
 *   - the speed is capped by the room ahead (wait instead of push): the
 *     nearest agent in the 90-degree cone along the flow, its gap and its
 *     own forward speed, scaled by FF_SIM_WAIT * f.
 * The cap applies to |v*|; jitter then turns v* by a small sideways part;
 * the velocity moves towards v* by at most accel * dt; any part of it
 * driving into a touching body faster than that body moves away is
 * removed; and overlapping bodies are pushed apart by FF_SIM_PUSH of the
 * overlap.  Finally the agent moves with collision against walls.
 *
 * Speed (docs/simulation.md, "Performance"): agents go in blocks through
 * short passes so their square roots and divisions overlap; coin-toss
 * decisions (which neighbour is ahead, touching, in reach; a run of
 * agents ending) are masks and selects, not branches; the neighbour test
 * takes four grid slots at once.  None of this changes a bit of the
 * result: the same operations run on the same values in the same order.
 */
#include <assert.h>
#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "sim_impl.h"

/* How far an agent under a newly painted wall looks for free ground. */
#define FF_SIM_EJECT 16
/* The most agents of one cell a neighbour scan looks at (bodies of at least
 * 0.1 cell radius never crowd more into a cell; smaller ones, or agents
 * piled up on one spot, are cut to it). */
#define FF_SIM_CELL_CAP 32
/* Share of the funnelling factor that becomes waiting. */
#define FF_SIM_WAIT 0.5
/* Share of an overlap undone per tick (gently, so crowds do not boil). */
#define FF_SIM_PUSH 0.5

typedef struct tickp {
	double speed, dvmax, r, dt, inv_dt;
	double reach2, near2, inv_sep_r, sep_r, sep_w, funnel_rho, funnel_w, jit, reach;
	double spread;        /* speed_spread */
	uint64_t speed_key;   /* of the agents' free speeds (the seed's) */
	double look;          /* look_ahead, cells */
	double pass_w;        /* pass_weight */
	double fd_scale;      /* FF_SIM_FD_N / fd_rho_max */
	bool sep, funnel, keep, fd;
	bool two_way;         /* agents of two groups or more walk: some may
			       * come towards others */
} tickp;

#define NCONTACT 8

typedef struct nbrs {
	double sx, sy;        /* separation sum */
	double px, py;        /* push out of overlapping bodies, cells */
	int ncontact;         /* unit normals away from touching bodies */
	double cx[NCONTACT], cy[NCONTACT];
	double cvx[NCONTACT], cvy[NCONTACT]; /* the touching body's velocity */
	double ahead_v;       /* speed along the flow of the agent ahead */
	double ahead;         /* squared distance to the nearest agent ahead */
} nbrs;

static void tick_params(ff_sim *s, tickp *p)
{
	const double *v = s->level->meta.params;
	double cs = v[FF_P_CELL_SIZE];

	ff_sim_fd_setup(s);
	ff_sim_density_setup(s, false);
	p->speed = v[FF_P_SPEED] / cs;
	p->spread = v[FF_P_SPEED_SPREAD];
	p->speed_key = ff_rng_at((uint64_t)v[FF_P_SEED], 0x5bd1e9955bd1e995ull);
	p->dt = v[FF_P_DT];
	p->inv_dt = 1 / p->dt;
	p->dvmax = v[FF_P_ACCEL] / cs * p->dt;
	p->r = v[FF_P_RADIUS] / cs;
	if (p->r > 0.5)
		p->r = 0.5; /* ff_sim_check() refuses to run such a level */
	p->sep_r = v[FF_P_SEP_RADIUS] / cs;
	p->inv_sep_r = 1.0 / p->sep_r;
	p->sep_w = v[FF_P_SEP_WEIGHT];
	p->funnel_rho = v[FF_P_FUNNEL_DENSITY];
	p->funnel_w = v[FF_P_FUNNEL_WEIGHT];
	p->look = v[FF_P_LOOK_AHEAD] / cs;
	p->pass_w = v[FF_P_PASS_WEIGHT];
	p->fd_scale = FF_SIM_FD_N / v[FF_P_FD_RHO_MAX];
	p->fd = !(s->flags & FF_SIM_FREE_SPEED);
	/* Radians; a sideways part of t turns by atan(t), about t. */
	p->jit = v[FF_P_JITTER] * (3.14159265358979323846 / 180.0);
	/* Separation off: no bodies either, agents pass through each other. */
	p->sep = !(s->flags & FF_SIM_NO_SEPARATION);
	p->funnel = p->sep && !(s->flags & FF_SIM_NO_FUNNEL) && p->funnel_w > 0;
	p->keep = s->flags & FF_SIM_KEEP_ARRIVED;
	p->reach = p->sep_r > 2 * p->r ? p->sep_r : 2 * p->r;
	p->near2 = p->reach * p->reach;
	p->reach2 = p->near2;
}

/* floor() as an int for |V| < 2^31: the same value as (int)floor(V),
 * without the library's range checks and branches. */
static inline int ifloor(double v)
{
	int i = (int)v;

	return i - (v < (double)i);
}

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* C ? A : B without a branch (the compiler makes one of the ternary). */
static inline double sel(bool c, double a, double b)
{
	uint64_t ua, ub, mask = -(uint64_t)c;

	memcpy(&ua, &a, sizeof ua);
	memcpy(&ub, &b, sizeof ub);
	ua = (ua & mask) | (ub & ~mask);
	memcpy(&a, &ua, sizeof a);
	return a;
}

/* The running sums over neighbours, kept in registers while a list of
 * candidates is worked off (see nbrs). */
typedef struct sums {
	double sx, sy, px, py, ahead, ahead_v;
	int ncontact;
} sums;

/* One neighbour within reach of the agent, at offset (DX, DY) = the
 * agent's position minus the neighbour's and with velocity (VX, VY);
 * BEFORE when the agent comes first in id order.  Adds to M; contacts go
 * to O. */
static inline void one_nbr(const tickp *p, double dx, double dy, double vx,
			   double vy, double fx, double fy, bool before, sums *m,
			   nbrs *o)
{
	double d2 = dx * dx + dy * dy, d, inv, nx, ny, along, side, share, k;
	bool ahead, touch;
	int n;

	if (d2 == 0) {
		/* Exactly on top of each other: split by id order. */
		m->px += before ? p->r : -p->r;
		return;
	}
	along = -(dx * fx + dy * fy);
	side = dx * fy - dy * fx;
	/* Ahead: in the 90-degree cone around the flow.  The updates below
	 * are written as selects and products with 0 or 1, not branches:
	 * which neighbour is ahead or touching is a coin toss the branch
	 * predictor loses.  x * 1 is x, and adding a zero share or weight
	 * (+0 or -0) leaves a sum as it was, since the sums start at +0. */
	ahead = (along > 0) & (side < along) & (side > -along) & (d2 < m->ahead);
	m->ahead_v = sel(ahead, vx * fx + vy * fy, m->ahead_v);
	m->ahead = sel(ahead, d2, m->ahead);
	d = sqrt(d2);
	inv = 1.0 / d;
	nx = dx * inv;
	ny = dy * inv;
	/* Bodies overlap: each of the pair undoes its share. */
	touch = d < 2 * p->r;
	share = (p->r - 0.5 * d) * FF_SIM_PUSH * (double)touch;
	m->px += nx * share;
	m->py += ny * share;
	n = m->ncontact;
	if (n < NCONTACT) {
		o->cx[n] = nx;
		o->cy[n] = ny;
		o->cvx[n] = vx;
		o->cvy[n] = vy;
		m->ncontact = n + touch;
	}
	k = (1.0 - d * p->inv_sep_r) * (double)(d < p->sep_r);
	m->sx += nx * k;
	m->sy += ny * k;
}

/* Room for candidates between the cheap test and the full one. */
#define NCAND 64

/* The full test on the NC candidates in CAND (grid positions), in order,
 * for agent I at SELF in the grid. */
static void near_ones(const ff_sim *s, size_t i, uint32_t self, const tickp *p, double fx,
		      double fy, const uint32_t *cand, int nc, nbrs *o)
{
	const ff_spatial *g = &s->grid;
	float fpx = (float)s->x[i], fpy = (float)s->y[i];
	uint32_t me = g->key[self];
	sums m = {o->sx, o->sy, o->px, o->py, o->ahead, o->ahead_v, o->ncontact};

	for (int c = 0; c < nc; c++) {
		uint32_t k = cand[c];
		float dx = fpx - g->x[k], dy = fpy - g->y[k];

		one_nbr(p, dx, dy, g->vx[k], g->vy[k], fx, fy, g->key[k] > me, &m, o);
	}
	o->sx = m.sx;
	o->sy = m.sy;
	o->px = m.px;
	o->py = m.py;
	o->ahead = m.ahead;
	o->ahead_v = m.ahead_v;
	o->ncontact = m.ncontact;
}

/* The cheap test on the FF_SPATIAL_PAD grid slots from K (those from B on
 * are masked off) against the point (PX, PY): appends those within NEAR2
 * (squared), other than SELF, to CAND at NC.  With SSE2 the four slots are
 * one vector; it is the same float arithmetic lane by lane as the plain
 * loop, so both give the same bits. */
static inline void group(const ff_spatial *g, uint32_t k, uint32_t b,
			 uint32_t self, float px, float py, float near2,
			 uint32_t *cand, int *nc)
{
#if defined(__SSE2__) && FF_SPATIAL_PAD == 4
	__m128 dx = _mm_sub_ps(_mm_set1_ps(px), _mm_loadu_ps(&g->x[k]));
	__m128 dy = _mm_sub_ps(_mm_set1_ps(py), _mm_loadu_ps(&g->y[k]));
	__m128 d2 = _mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy));
	uint32_t left = b - k < 4 ? b - k : 4;   /* b >= k */
	unsigned in = (1u << left) - 1, nm;
	int n = *nc;

	/* Not the agent itself: a mask, not a branch (it is in one group
	 * of the four or so). */
	in &= ~((unsigned)(self - k < 4) << ((self - k) & 3));
	nm = (unsigned)_mm_movemask_ps(_mm_cmplt_ps(d2, _mm_set1_ps(near2))) & in;
	cand[n] = k;
	n += nm & 1;
	cand[n] = k + 1;
	n += (nm >> 1) & 1;
	cand[n] = k + 2;
	n += (nm >> 2) & 1;
	cand[n] = k + 3;
	n += nm >> 3;
	*nc = n;
#else
	for (uint32_t j = k; j < k + FF_SPATIAL_PAD; j++) {
		float dx = px - g->x[j], dy = py - g->y[j];
		float d2 = dx * dx + dy * dy;
		int in = j < b;

		cand[*nc] = j;
		*nc += (d2 < near2) & (j != self) & in;
	}
#endif
}

/* The candidates of grid slots [K, B) (B > K) for agent I at (FPX, FPY):
 * groups of FF_SPATIAL_PAD slots, masked past the run, so a run of up to
 * that many agents costs no mispredicted branch (the grid's arrays are
 * padded so a group may read past the last agent); a full list is worked
 * off into O and refilled. */
static inline void scan(const ff_sim *s, size_t i, uint32_t self, const tickp *p, double fx,
			double fy, float fpx, float fpy, uint32_t k, uint32_t b, uint32_t *cand,
			int *nc, nbrs *o)
{
	float near2 = (float)p->near2;

	do {
		group(&s->grid, k, b, self, fpx, fpy, near2, cand, nc);
		if (*nc > NCAND - FF_SPATIAL_PAD) {
			near_ones(s, i, self, p, fx, fy, cand, *nc, o);
			*nc = 0;
		}
	} while ((k += FF_SPATIAL_PAD) < b);
}

/* Gathers what agent I (at SELF in the grid's order) needs from its
 * neighbours.  A first pass in float over every candidate lists, without
 * branching, those within reach of the body or separation; the
 * double-precision work then runs on the list, in the same order (a full
 * list is worked off and refilled). */
static void neighbours(const ff_sim *s, size_t i, uint32_t self, const tickp *p,
		       double fx, double fy, nbrs *o)
{
	const ff_spatial *g = &s->grid;
	double px = s->x[i], py = s->y[i];
	int x0 = clampi(ifloor(px - p->reach), 0, s->w - 1);
	int x1 = clampi(ifloor(px + p->reach), 0, s->w - 1);
	int y0 = clampi(ifloor(py - p->reach), 0, s->h - 1);
	int y1 = clampi(ifloor(py + p->reach), 0, s->h - 1);
	float fpx = (float)px, fpy = (float)py;
	uint32_t cand[NCAND];
	int nc = 0;

	o->sx = o->sy = o->px = o->py = 0;
	o->ncontact = 0;
	o->ahead = INFINITY;
	o->ahead_v = 0;
	for (int y = y0; y <= y1; y++) {
		size_t row = (size_t)y * (size_t)s->w;
		uint32_t k = g->start[row + (size_t)x0], b = g->start[row + (size_t)x1 + 1];

		/* More agents in the row's cells than FF_SIM_CELL_CAP each:
		 * cell by cell, each cut to its first FF_SIM_CELL_CAP, so the
		 * work per agent stays bounded however many stand on a spot. */
		if (b - k <= (uint32_t)(FF_SIM_CELL_CAP * (x1 - x0 + 1))) {
			scan(s, i, self, p, fx, fy, fpx, fpy, k, b, cand, &nc, o);
			continue;
		}
		for (int x = x0; x <= x1; x++) {
			k = g->start[row + (size_t)x];
			b = g->start[row + (size_t)x + 1];
			if (b > k)
				scan(s, i, self, p, fx, fy, fpx, fpy, k,
				     b - k > FF_SIM_CELL_CAP ? k + FF_SIM_CELL_CAP : b, cand, &nc, o);
		}
	}
	near_ones(s, i, self, p, fx, fy, cand, nc, o);
}

static unsigned clear_at(const ff_sim *s, const uint16_t *clear, double x, double y)
{
	int cx = ifloor(x), cy = ifloor(y);

	if (!ff_level_in(s->level, cx, cy))
		return 0;
	return clear[(size_t)cy * (size_t)s->w + (size_t)cx];
}

/* Which way to the middle of the way ahead: compares the distance to walls
 * (of class C) one cell ahead along the unit flow F, half a cell to either
 * side, and returns the sideways unit vector towards the roomier side (or
 * zero). */
static void centre_pull(const ff_sim *s, int c, double x, double y, double fx, double fy,
			double *gx, double *gy)
{
	const uint16_t *clear = s->cls[c].clear;
	double ax = x + fx, ay = y + fy;
	unsigned left = clear_at(s, clear, ax + 0.5 * fy, ay - 0.5 * fx);
	unsigned right = clear_at(s, clear, ax - 0.5 * fy, ay + 0.5 * fx);
	unsigned here = clear_at(s, clear, x, y), low = left < right ? left : right;
	double k = low >= here ? 0 : left > right ? 1 : left < right ? -1 : 0;

	*gx = k * fy;
	*gy = -k * fx;
}

/* Applies funnelling factor F to the desired velocity (VX, VY) of an
 * agent whose speed is SPEED given the flow and neighbours; returns the
 * speed cap. */
static double funnel(const ff_sim *s, size_t i, int c, const tickp *p, double f, double speed,
		     double fx, double fy, const nbrs *o, double *vx, double *vy)
{
	double along = o->sx * fx + o->sy * fy;
	double sideX = o->sx - along * fx, sideY = o->sy - along * fy;
	double gx, gy, room;

	if (along > 0)
		along *= 1 - f;
	*vx += speed * p->sep_w * (along * fx + (1 - f) * sideX);
	*vy += speed * p->sep_w * (along * fy + (1 - f) * sideY);
	centre_pull(s, c, s->x[i], s->y[i], fx, fy, &gx, &gy);
	*vx += speed * f * gx;
	*vy += speed * f * gy;
	if (speed <= 0)
		return 0;
	room = (sqrt(o->ahead) - 2 * p->r) / (speed * p->dt) +
	       (o->ahead_v > 0 ? o->ahead_v / speed : 0);
	room = room < 0 ? 0 : room > 1 ? 1 : room;
	return speed * (1 - FF_SIM_WAIT * f * (1 - room));
}

/* Weidmann's speed factor at density RHO (1/m^2), from the table. */
static double fd_at(const ff_sim *s, const tickp *p, double rho)
{
	return ff_sim_fd_at(s, rho * p->fd_scale);
}

/* The density (1/m^2) an agent at (X, Y) walks into: the density field
 * interpolated bilinearly at the point LOOK cells ahead along (FX, FY),
 * between the centres of the passable cells around it (inv_area is 0 on
 * walls), without the agent's own share.  The agent's own cell's when no
 * cell around that point is passable. */
static double perceived(const ff_sim *s, const tickp *p, double x, double y, double fx,
			double fy)
{
	double gx = x + p->look * fx - 0.5, gy = y + p->look * fy - 0.5;
	int i0 = ifloor(gx), j0 = ifloor(gy), ox = (int)x, oy = (int)y, k = s->dens_k;
	double tx = gx - i0, ty = gy - j0, sum = 0, self = 0, wsum = 0, d;
	size_t at;

	/* All four cells inside the level (the usual case): no tests, the
	 * same sums in the same order as the loop below. */
	if (i0 >= 0 && j0 >= 0 && i0 < s->w - 1 && j0 < s->h - 1) {
		size_t w = (size_t)s->w;
		const float *d0 = &s->dens[(size_t)j0 * w + (size_t)i0], *d1 = d0 + w;
		const float *a0 = &s->inv_area[(size_t)j0 * w + (size_t)i0], *a1 = a0 + w;
		int dx = i0 - ox, dy = j0 - oy;
		bool x0 = dx >= -k && dx <= k, x1 = dx + 1 >= -k && dx + 1 <= k;
		bool y0 = dy >= -k && dy <= k, y1 = dy + 1 >= -k && dy + 1 <= k;
		double m00 = a0[0] > 0 ? (1 - tx) * (1 - ty) : 0, m10 = a0[1] > 0 ? tx * (1 - ty) : 0;
		double m01 = a1[0] > 0 ? (1 - tx) * ty : 0, m11 = a1[1] > 0 ? tx * ty : 0;

		wsum = 0.0 + m00 + m10 + m01 + m11;
		sum = 0.0 + m00 * d0[0] + m10 * d0[1] + m01 * d1[0] + m11 * d1[1];
		self = 0.0 + (x0 && y0 ? m00 * a0[0] : 0) + (x1 && y0 ? m10 * a0[1] : 0) +
		       (x0 && y1 ? m01 * a1[0] : 0) + (x1 && y1 ? m11 * a1[1] : 0);
		/* the four weights add up to 1 when no cell is a wall */
		if (a0[0] > 0 && a0[1] > 0 && a1[0] > 0 && a1[1] > 0) {
			d = sum - self;
			return d > 0 ? d : 0;
		}
		goto done;
	}
	for (int c = 0; c < 4; c++) {
		int ci = i0 + (c & 1), cj = j0 + (c >> 1);
		double wgt = ((c & 1) ? tx : 1 - tx) * ((c >> 1) ? ty : 1 - ty);
		bool own;
		float ia;

		if ((unsigned)ci >= (unsigned)s->w || (unsigned)cj >= (unsigned)s->h)
			continue;
		at = (size_t)cj * (size_t)s->w + (size_t)ci;
		ia = s->inv_area[at];
		wgt = ia > 0 ? wgt : 0;
		own = ci - ox <= k && ox - ci <= k && cj - oy <= k && oy - cj <= k;
		wsum += wgt;
		sum += wgt * s->dens[at];
		self += own ? wgt * ia : 0;
	}
done:
	if (wsum > 0) {
		d = (sum - self) / wsum;
	} else {
		at = (size_t)oy * (size_t)s->w + (size_t)ox;
		d = s->dens[at] - s->inv_area[at];
	}
	return d > 0 ? d : 0;
}

/* The flow at (X, Y) interpolated bilinearly between the centres of the
 * four nearest cells, as ff_solver_sample() does, from the sim's direction
 * codes DIR; where that cancels out, the flow of the cell itself. */
static void sample_flow(const ff_sim *s, const uint8_t *dir, double x, double y, double *fx,
			double *fy)
{
	double gx = x - 0.5, gy = y - 0.5, sx = 0, sy = 0, n;
	int i0 = ifloor(gx), j0 = ifloor(gy);
	double tx = gx - i0, ty = gy - j0;
	const float *f;

	/* Four cells inside the level and all four weights positive (the
	 * usual case): no tests.  Same sums, same order as the loop. */
	if (tx > 0 && ty > 0 && i0 >= 0 && j0 >= 0 && i0 < s->w - 1 && j0 < s->h - 1) {
		const uint8_t *a = &dir[(size_t)j0 * (size_t)s->w + (size_t)i0];
		const uint8_t *b = a + s->w;
		const float *a0 = s->dirv[a[0]], *a1 = s->dirv[a[1]];
		const float *b0 = s->dirv[b[0]], *b1 = s->dirv[b[1]];
		double w00 = (1 - tx) * (1 - ty), w10 = tx * (1 - ty);
		double w01 = (1 - tx) * ty, w11 = tx * ty;

		sx = 0.0 + w00 * a0[0] + w10 * a1[0] + w01 * b0[0] + w11 * b1[0];
		sy = 0.0 + w00 * a0[1] + w10 * a1[1] + w01 * b0[1] + w11 * b1[1];
		goto norm;
	}
	for (int k = 0; k < 4; k++) {
		int ci = i0 + (k & 1), cj = j0 + (k >> 1);
		double wgt = ((k & 1) ? tx : 1 - tx) * ((k >> 1) ? ty : 1 - ty);

		if (wgt <= 0.0 || (unsigned)ci >= (unsigned)s->w ||
		    (unsigned)cj >= (unsigned)s->h)
			continue;
		f = s->dirv[dir[(size_t)cj * (size_t)s->w + (size_t)ci]];
		sx += wgt * f[0];
		sy += wgt * f[1];
	}
norm:
	n = sqrt(sx * sx + sy * sy);
	if (n > 1e-9) {
		n = 1 / n;
		*fx = sx * n;
		*fy = sy * n;
		return;
	}
	f = s->dirv[dir[(size_t)(int)y * (size_t)s->w + (size_t)(int)x]];
	*fx = f[0];
	*fy = f[1];
}

/* A tick runs over the agents in grid order, a block at a time, in four
 * passes: look (state and flow), neighbours, steer (desired velocity,
 * inertia, bodies), move (walls, line, arrival).  Each pass is a short
 * loop whose iterations do not depend on each other, so the processor
 * overlaps the square roots and divisions of several agents instead of
 * waiting on one agent's chain; the arithmetic of an agent is the same
 * as in one pass. */
#define BLOCK 64

typedef struct block {
	uint32_t i[BLOCK];           /* agent index; UINT32_MAX: not moving */
	int c[BLOCK];                /* its movement class */
	double fx[BLOCK], fy[BLOCK]; /* flow at the agent */
	double jt[BLOCK], jk[BLOCK]; /* jitter: turn t, 1 / sqrt(1 + t^2) */
	double v[BLOCK];             /* the speed it may walk at, cells/s */
	double pass[BLOCK];          /* 0..1: how far it steps to its right
				      * (oncoming) */
	double free[BLOCK];          /* its speed on empty ground there */
	double top[BLOCK];           /* its free speed (speed_spread) */
	double rho[BLOCK];           /* the density it walks into, 1/m^2 */
	double mx[BLOCK], my[BLOCK]; /* the move this tick, cells */
	double px[BLOCK], py[BLOCK]; /* of which the push out of bodies */
	nbrs o[BLOCK];               /* what the neighbours add */
} block;

/* What one thread counts during a tick's passes (its arrivals, line
 * crossings and the highest density seen, of ff_sim_stats; its arrivals
 * by group), summed (the maximum taken) into the tick's afterwards.  A
 * cache line of its own: both threads write theirs all the time. */
typedef struct tacc {
	_Alignas(64) ff_sim_stats st;
	long garr[FF_GROUPS_MAX];
} tacc;

/* The velocity agent I wants this tick, and the push (in cells) that
 * separates its body from those it overlaps. */
static void desire(ff_sim *s, size_t i, const tickp *p, const block *bk, int b,
		   double *vx, double *vy, nbrs *o)
{
	double fx = bk->fx[b], fy = bk->fy[b], speed = bk->v[b], cap = speed, m2, k = 1;
	double f = 0, rho = bk->rho[b], pass = p->pass_w * bk->pass[b] * bk->free[b];

	/* the step to its right, (-fy, fx) with y downwards, past those
	 * coming towards it (oncoming()), at the pace of open ground: a
	 * dense crowd slows walking on, not stepping out of the way */
	*vx = speed * fx - pass * fy;
	*vy = speed * fy + pass * fx;
	cap = speed > pass ? speed : pass;
	if (p->sep) {
		if (p->funnel && rho > p->funnel_rho) {
			f = p->funnel_rho > 0 ? (rho - p->funnel_rho) / p->funnel_rho : 1;
			f = p->funnel_w * (f < 1 ? f : 1);
		}
		if (f > 0) {
			cap = funnel(s, i, bk->c[b], p, f, speed, fx, fy, o, vx, vy);
		} else {
			*vx += speed * p->sep_w * o->sx;
			*vy += speed * p->sep_w * o->sy;
		}
	}
	m2 = *vx * *vx + *vy * *vy;
	if (m2 > cap * cap)
		k = cap / sqrt(m2);
	if (p->jit > 0) {
		/* Turned by atan t and rescaled by 1 / sqrt(1 + t^2) (drawn
		 * in pass 1), the length stays. */
		double t = bk->jt[b], nx = *vx - t * *vy, ny = *vy + t * *vx;

		k *= bk->jk[b];
		*vx = nx * k;
		*vy = ny * k;
	} else {
		*vx *= k;
		*vy *= k;
	}
}

/* Pushes a disc of radius R at (PX, PY) out of the walls (of class C)
 * around its cell.  The walls are those of the last refresh (ff_sim.cls);
 * may_enter() reads the level itself, so a wall painted since is still
 * never entered. */
static void push_out(const ff_sim *s, int c, double r, double *px, double *py)
{
	int cx = ifloor(*px), cy = ifloor(*py);
	double ix = *px - cx, iy = *py - cy;
	unsigned m, bit = 1;

	/* Open ground first: that test is the predictable one. */
	if (ff_level_in(s->level, cx, cy))
		m = s->cls[c].walls[(size_t)cy * (size_t)s->w + (size_t)cx];
	else
		m = 0xff;   /* a step out of the level: test all eight */
	if (!m)
		return;
	/* A disc inside its own cell touches no other cell. */
	if (ix >= r && ix <= 1 - r && iy >= r && iy <= 1 - r)
		return;
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++) {
			int wx = cx + dx, wy = cy + dy;
			double qx, qy, ex, ey, d2, d;

			if (dx == 0 && dy == 0)
				continue;
			if (!(m & bit) || !ff_sim_blocked(s, c, wx, wy)) {
				bit <<= 1;
				continue;
			}
			bit <<= 1;
			qx = *px < wx ? wx : *px > wx + 1 ? wx + 1 : *px;
			qy = *py < wy ? wy : *py > wy + 1 ? wy + 1 : *py;
			ex = *px - qx;
			ey = *py - qy;
			d2 = ex * ex + ey * ey;
			if (d2 >= r * r || d2 == 0)
				continue;
			d = sqrt(d2);
			*px += ex / d * (r - d);
			*py += ey / d * (r - d);
		}
}

/* True when the centre may go from cell (AX, AY) to (BX, BY): a cell
 * passable to class C at most one step away, not across a wall corner. */
static bool may_enter(const ff_sim *s, int c, int ax, int ay, int bx, int by)
{
	/* move() starts on a passable cell (update() ejects otherwise). */
	if (ax == bx && ay == by)
		return true;
	if (ff_sim_blocked(s, c, bx, by) || bx - ax > 1 || ax - bx > 1 ||
	    by - ay > 1 || ay - by > 1)
		return false;
	if (bx != ax && by != ay)
		return !ff_sim_blocked(s, c, bx, ay) && !ff_sim_blocked(s, c, ax, by);
	return true;
}

/* Moves agent I by (DX, DY) in steps of at most a quarter cell, pushing
 * out of walls and sliding along them; the centre never enters a wall
 * (a wall to its class). */
static void move(ff_sim *s, int c, size_t i, double r, double dx, double dy)
{
	double len2 = dx * dx + dy * dy, x = s->x[i], y = s->y[i];
	int steps = len2 > 0.0625 ? (int)(sqrt(len2) * 4) + 1 : 1;

	dx /= steps;
	dy /= steps;
	for (int k = 0; k < steps; k++) {
		int ax = (int)x, ay = (int)y;
		double nx = x + dx, ny = y + dy;

		push_out(s, c, r, &nx, &ny);
		if (may_enter(s, c, ax, ay, ifloor(nx), ifloor(ny))) {
			x = nx;
			y = ny;
		} else if (may_enter(s, c, ax, ay, ifloor(x + dx), ay)) {
			x += dx;
		} else if (may_enter(s, c, ax, ay, ax, ifloor(y + dy))) {
			y += dy;
		}
	}
	s->x[i] = x;
	s->y[i] = y;
}

/* A wall was painted over agent I (or its cell became a wall to its
 * class): moves it to the centre of the nearest cell passable to it (ring
 * by ring, first in row order) and stops it.  Leaves it when there is none
 * within FF_SIM_EJECT cells. */
static void eject(ff_sim *s, int c, size_t i)
{
	int cx = (int)s->x[i], cy = (int)s->y[i];

	s->vx[i] = s->vy[i] = 0;
	for (int r = 1; r <= FF_SIM_EJECT; r++)
		for (int y = cy - r; y <= cy + r; y++)
			for (int x = cx - r; x <= cx + r; x++) {
				bool ring = y == cy - r || y == cy + r || x == cx - r || x == cx + r;

				if (ring && !ff_sim_blocked(s, c, x, y)) {
					s->x[i] = x + 0.5;
					s->y[i] = y + 0.5;
					return;
				}
			}
}

/* Which way the move from (OX, OY) to (X, Y) crossed the segment L:
 * +1 along (y1 - y0, x0 - x1) (see ff_sim_add_line), -1 back, else 0.  A
 * centre exactly on the line counts as past it, so a walk that stops on
 * the line counts once, not twice. */
static int crossed(const double *l, double ox, double oy, double x, double y)
{
	double dx = l[2] - l[0], dy = l[3] - l[1];
	bool was_past = dx * (oy - l[1]) - dy * (ox - l[0]) <= 0;
	bool is_past = dx * (y - l[1]) - dy * (x - l[0]) <= 0;
	double mx = x - ox, my = y - oy, e0, e1;

	if (was_past == is_past)
		return 0;
	/* The segment's ends lie on either side of the move (or on it). */
	e0 = mx * (l[1] - oy) - my * (l[0] - ox);
	e1 = mx * (l[3] - oy) - my * (l[2] - ox);
	if ((e0 > 0 && e1 > 0) || (e0 < 0 && e1 < 0))
		return 0;
	return is_past ? 1 : -1;
}

/* Pass 1 for agent I: ejects it from a wall painted over it, stops it
 * when stranded, else samples the flow into slot B.  True when it moves
 * on to the next passes. */
static bool look(ff_sim *s, size_t i, const tickp *p, block *bk, int b)
{
	double ox = s->x[i], oy = s->y[i];
	const ff_gfield *gf = &s->gf[s->grp[i]];
	int c = bk->c[b] = gf->cls;

	if (ff_sim_blocked(s, c, (int)ox, (int)oy)) {
		eject(s, c, i);
		return false;
	}
	if (s->state[i] == FF_AGENT_ARRIVED)
		return false; /* a kept marker */
	if (gf->dir[(size_t)(int)oy * (size_t)s->w + (size_t)(int)ox] == FF_SIM_UNREACH) {
		s->state[i] = FF_AGENT_STRANDED;
		s->vx[i] = s->vy[i] = 0;
		s->hd[i][0] = s->hd[i][1] = 0;
		return false;
	}
	s->state[i] = FF_AGENT_MOVING;
	sample_flow(s, gf->dir, ox, oy, &bk->fx[b], &bk->fy[b]);
	/* the heading others see next tick (read only at its start) */
	s->hd[i][0] = (float)bk->fx[b];
	s->hd[i][1] = (float)bk->fy[b];
	if (p->jit > 0) {
		double u = ff_rng_unit(ff_rng_at(s->tick_key, s->id[i]));
		double t = p->jit * (2 * u - 1);

		bk->jt[b] = t;
		bk->jk[b] = 1 / sqrt(1 + t * t);
	}
	return true;
}

/* How the crowd an agent at (X, Y), SELF in the grid's order, walks into
 * along (FX, FY) heads, relative to it: over the agents in the density
 * window around the cell FF_SIM_PASS_LOOK look_aheads ahead (without the
 * agent), with a the angle from the agent's flow to their heading
 * (positive to its right), the mean of
 *   - (1 - cos a) / 2, the share coming towards it (returned): 1 for one
 *     walking straight at it, a half for one crossing its way, none for
 *     one going its way or without a heading (at a goal, stranded);
 *   - (1 - cos a - sin a) / 2, how far it steps to its right (*STEP):
 *     past those coming straight at it on their left, as they do; behind
 *     those crossing from its right; not for those crossing from its left,
 *     who step behind it.
 * Both 0..1.  Headings (the flow each sampled last tick), not velocities:
 * a jammed crowd still wants to go where it was going.  The window's sums
 * are differences of the running sums hsum, as its counts are of the run
 * starts. */
static double oncoming(const ff_sim *s, const tickp *p, uint32_t self, double x, double y,
		       double fx, double fy, double *step)
{
	const uint32_t *start = s->grid.start;
	double ahead = FF_SIM_PASS_LOOK * p->look;
	int cx = ifloor(x + ahead * fx), cy = ifloor(y + ahead * fy), k = s->dens_k;
	int x0 = clampi(cx - k, 0, s->w - 1), x1 = clampi(cx + k, 0, s->w - 1);
	double hx = 0, hy = 0, nh = 0, n = 0, on, st;

	for (int r = clampi(cy - k, 0, s->h - 1); r <= clampi(cy + k, 0, s->h - 1); r++) {
		uint32_t a = start[(size_t)r * (size_t)s->w + (size_t)x0];
		uint32_t e = start[(size_t)r * (size_t)s->w + (size_t)x1 + 1];

		hx += s->hsum[e][0] - s->hsum[a][0];
		hy += s->hsum[e][1] - s->hsum[a][1];
		nh += s->hsum[e][2] - s->hsum[a][2];
		n += e - a;
		if (self >= a && self < e) {
			hx -= s->hsum[self + 1][0] - s->hsum[self][0];
			hy -= s->hsum[self + 1][1] - s->hsum[self][1];
			nh -= s->hsum[self + 1][2] - s->hsum[self][2];
			n -= 1;
		}
	}
	*step = 0;
	if (n < 0.5)
		return 0;
	/* cos a = h.f, sin a = h.(-fy, fx), the agent's right with y down */
	on = (nh - (hx * fx + hy * fy)) / (2 * n);
	st = on - (fx * hy - fy * hx) / (2 * n);
	*step = st <= 0 ? 0 : st < 1 ? st : 1;
	return on <= 0 ? 0 : on < 1 ? on : 1;
}

/* Pass 1b for agent I (slot B, its flow sampled): the density it walks
 * into, the share of it coming towards it, and the speed that and the
 * terrain allow it.  The speed-density relation is one of following
 * (the headway to those walking one's way): people coming towards one are
 * passed, not followed, so they do not count in it; the bodies and the
 * step to the right deal with them. */
/* The free speed of agent ID over speed: 1 + speed_spread z, z nearly
 * normal (the sum of four uniform draws, of unit variance, so within
 * 2 sqrt 3 of 0: never below 1 - 0.25 x 3.47 = 0.13), the same all its
 * life: drawn from the seed and the id, not stored. */
static double free_factor(const tickp *p, uint32_t id)
{
	uint64_t u = ff_rng_at(p->speed_key, id);
	double z = 0;

	for (int k = 0; k < 4; k++, u >>= 16)
		z += ((double)(u & 0xffff) + 0.5) / 65536.0;
	return 1 + p->spread * (z - 2) * 1.7320508075688772;
}

static void pace(const ff_sim *s, size_t i, uint32_t self, const tickp *p, block *bk, int b,
		 tacc *a)
{
	double ox = s->x[i], oy = s->y[i], rho = perceived(s, p, ox, oy, bk->fx[b], bk->fy[b]);
	double step = 0, on = p->two_way ? oncoming(s, p, self, ox, oy, bk->fx[b], bk->fy[b],
						     &step) : 0;
	int c = bk->c[b];

	bk->pass[b] = step;
	bk->rho[b] = rho;
	a->st.max_density = rho > a->st.max_density ? rho : a->st.max_density;
	bk->top[b] = p->spread > 0 ? p->speed * free_factor(p, s->id[i]) : p->speed;
	/* the terrain's share of the speed: its cost to the agent's class */
	bk->free[b] = bk->top[b] * (c ? s->cls[c].inv_cost[ff_level_value(s->level, (int)ox, (int)oy)]
				      : s->inv_cost[ff_level_cost(s->level, (int)ox, (int)oy)]);
	bk->v[b] = bk->free[b] * (p->fd ? fd_at(s, p, rho * (1 - on)) : 1);
}

/* Pass 3 for agent I (slot B, its neighbours gathered in pass 2): the
 * velocity it wants, limited by inertia and by the bodies it touches, and
 * the move with the push out of overlaps. */
static void steer(ff_sim *s, size_t i, const tickp *p, block *bk, int b)
{
	double vx, vy, dvx, dvy, dv2, px, py, pm;
	const nbrs *o = &bk->o[b];

	desire(s, i, p, bk, b, &vx, &vy, &bk->o[b]);
	dvx = vx - s->vx[i];
	dvy = vy - s->vy[i];
	dv2 = dvx * dvx + dvy * dvy;
	if (dv2 > p->dvmax * p->dvmax) {
		double k = p->dvmax / sqrt(dv2);

		dvx *= k;
		dvy *= k;
	}
	vx = s->vx[i] + dvx;
	vy = s->vy[i] + dvy;
	/* Never move into a body already touched: slide along it instead. */
	for (int k = 0; k < o->ncontact; k++) {
		double rx = vx - o->cvx[k], ry = vy - o->cvy[k];
		double into = rx * o->cx[k] + ry * o->cy[k];

		if (into < 0) {
			vx -= into * o->cx[k];
			vy -= into * o->cy[k];
		}
	}
	px = o->px;
	py = o->py;
	pm = px * px + py * py;
	if (pm > p->r * p->r) {
		pm = p->r / sqrt(pm);
		px *= pm;
		py *= pm;
	}
	bk->mx[b] = vx * p->dt + px;
	bk->my[b] = vy * p->dt + py;
	bk->px[b] = px;
	bk->py[b] = py;
}

/* Pass 4 for agent I (slot B): moves it with wall collision, counts its
 * crossing of the marked lines and its arrival into A, keeps the velocity
 * achieved; true when it arrived (its state becomes FF_SIM_ARRIVING:
 * neighbours later in this tick still see it as it was at the start). */
static bool go(ff_sim *s, size_t i, const tickp *p, const block *bk, int b, tacc *a)
{
	double ox = s->x[i], oy = s->y[i], px = bk->px[b], py = bk->py[b], vx, vy, pm;
	int cx, cy;

	move(s, bk->c[b], i, p->r, bk->mx[b], bk->my[b]);
	for (int k = 0; k < s->nlines; k++)
		a->st.crossings[k] += crossed(s->lines[k].seg, ox, oy, s->x[i], s->y[i]);
	/* The walking velocity: what was achieved, less the push, no faster
	 * than the top speed (a wall stops what runs into it). */
	vx = (s->x[i] - ox - px) * p->inv_dt;
	vy = (s->y[i] - oy - py) * p->inv_dt;
	pm = vx * vx + vy * vy;
	if (pm > bk->top[b] * bk->top[b]) {
		pm = bk->top[b] / sqrt(pm);
		vx *= pm;
		vy *= pm;
	}
	s->vx[i] = vx;
	s->vy[i] = vy;
	cx = (int)s->x[i];
	cy = (int)s->y[i];
	if (!ff_sim_at_goal(&s->gf[s->grp[i]], (size_t)cy * (size_t)s->w + (size_t)cx))
		return false;
	a->garr[s->grp[i]]++;
	s->state[i] = FF_SIM_ARRIVING;
	s->vx[i] = s->vy[i] = 0;
	return true;
}

/* The agents at grid positions K0 .. K0 + N - 1, N <= BLOCK. */
static void run_block(ff_sim *s, size_t k0, int n, const tickp *p, block *bk, tacc *a)
{
	for (int b = 0; b < n; b++) {
		uint32_t i = s->grid.idx[k0 + (size_t)b];

		bk->i[b] = look(s, i, p, bk, b) ? i : UINT32_MAX;
	}
	for (int b = 0; b < n; b++)
		if (bk->i[b] != UINT32_MAX)
			pace(s, bk->i[b], (uint32_t)(k0 + (size_t)b), p, bk, b, a);
	for (int b = 0; b < n; b++) {
		nbrs *o = &bk->o[b];

		if (bk->i[b] == UINT32_MAX)
			continue;
		if (p->sep) {
			neighbours(s, bk->i[b], (uint32_t)(k0 + (size_t)b), p, bk->fx[b],
				   bk->fy[b], o);
		} else {
			o->px = o->py = 0;
			o->ncontact = 0;
		}
	}
	for (int b = 0; b < n; b++)
		if (bk->i[b] != UINT32_MAX)
			steer(s, bk->i[b], p, bk, b);
	for (int b = 0; b < n; b++)
		if (bk->i[b] != UINT32_MAX)
			a->st.arrivals += go(s, bk->i[b], p, bk, b, a);
}

/* Blocks a chunk of a two-thread tick has. */
#define CHUNK_BLOCKS 8

/* The passes of a tick over the agents of the grid, in chunks. */
typedef struct tick_job {
	ff_sim *s;
	const tickp *p;
	size_t ng;                   /* agents in the grid */
	tacc acc[2];                 /* by thread */
} tick_job;

/* Chunk C of job ARG, by thread T. */
static void tick_chunk(void *arg, int t, long c)
{
	tick_job *j = arg;
	size_t k0 = (size_t)c * CHUNK_BLOCKS * BLOCK, k1 = k0 + CHUNK_BLOCKS * BLOCK;
	block bk;

	const ff_sim *s = j->s;
	ff_sim_stats *st = &j->acc[t].st;
	double sum = 0;

	k1 = k1 < j->ng ? k1 : j->ng;
	for (size_t k = k0; k < k1; k += BLOCK)
		run_block(j->s, k, k1 - k < BLOCK ? (int)(k1 - k) : BLOCK, j->p, &bk, &j->acc[t]);
	/* the speeds of those still walking (or stranded), in grid order */
	for (size_t k = k0; k < k1; k++) {
		uint32_t i = s->grid.idx[k];
		double sp;

		if (s->state[i] == FF_SIM_ARRIVING)
			continue;
		sp = sqrt(s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i]);
		sum += sp;
		st->max_speed = sp > st->max_speed ? sp : st->max_speed;
	}
	((double *)s->spare)[c] = sum;
}

/* Runs the tick's passes over the NG agents of the grid, on two threads
 * when the sim has them and there are enough agents, and adds what they
 * counted into ST and garrivals[].  Returns the sum of the speeds of
 * those not arriving: chunk by chunk, each in grid order, so the same on
 * either thread. */
static double run_agents(ff_sim *s, const tickp *p, size_t ng, ff_sim_stats *st)
{
	const size_t chunk = CHUNK_BLOCKS * BLOCK;
	long chunks = (long)((ng + chunk - 1) / chunk);
	tick_job j = {.s = s, .p = p, .ng = ng};
	double sum = 0;

	if (s->par && s->threads != 1 && ng >= FF_SIM_PAR_MIN)
		ff_sim_par_run(s->par, tick_chunk, &j, chunks, s->threads == 2);
	else
		for (long c = 0; c < chunks; c++)
			tick_chunk(&j, 0, c);
	for (int t = 0; t < 2; t++) {
		const tacc *a = &j.acc[t];

		st->arrivals += a->st.arrivals;
		st->max_density = a->st.max_density > st->max_density ? a->st.max_density
								       : st->max_density;
		for (int k = 0; k < s->nlines; k++)
			st->crossings[k] += a->st.crossings[k];
		for (int g = 0; g < FF_GROUPS_MAX; g++)
			s->garrivals[g] += a->garr[g];
		st->max_speed = a->st.max_speed > st->max_speed ? a->st.max_speed
								: st->max_speed;
	}
	for (long c = 0; c < chunks; c++)
		sum += ((const double *)s->spare)[c];
	return sum;
}

/* Moves agents [FROM, TO) of S down to AT. */
static void move_run(ff_sim *s, size_t at, size_t from, size_t to)
{
	size_t n = to - from;

	memmove(s->id + at, s->id + from, n * sizeof *s->id);
	memmove(s->state + at, s->state + from, n * sizeof *s->state);
	memmove(s->grp + at, s->grp + from, n * sizeof *s->grp);
	memmove(s->x + at, s->x + from, n * sizeof *s->x);
	memmove(s->y + at, s->y + from, n * sizeof *s->y);
	memmove(s->vx + at, s->vx + from, n * sizeof *s->vx);
	memmove(s->vy + at, s->vy + from, n * sizeof *s->vy);
	memmove(s->hd + at, s->hd + from, n * sizeof *s->hd);
}

/* Counts the agents into ST, whose speeds sum to SUM, and drops the
 * arrived ones (unless kept), keeping the order they are stored in: the
 * runs between them move down whole. */
static void compact(ff_sim *s, ff_sim_stats *st, double sum)
{
	bool keep = s->flags & FF_SIM_KEEP_ARRIVED;
	size_t j = 0, run = 0, dropped = 0;

	for (int g = 0; g < FF_GROUPS_MAX; g++)
		s->galive[g] = s->gf[g].agents = 0;
	for (size_t i = 0; i < s->n; i++) {
		int c;

		if (s->state[i] == FF_SIM_ARRIVING)
			s->state[i] = FF_AGENT_ARRIVED;
		if (s->state[i] == FF_AGENT_ARRIVED && !keep) {
			dropped++;
			continue;
		}
		s->gf[s->grp[i]].agents++;
		/* a marker (not in the grid, so not looked at) under a wall
		 * painted since */
		c = s->gf[s->grp[i]].cls;
		if (s->state[i] == FF_AGENT_ARRIVED && ff_sim_blocked(s, c, (int)s->x[i], (int)s->y[i]))
			eject(s, c, i);
		if (ff_sim_blocked(s, c, ifloor(s->x[i]), ifloor(s->y[i])))
			st->wall_violations++;
		if (s->state[i] != FF_AGENT_ARRIVED) {
			st->alive++;
			s->galive[s->grp[i]]++;
			st->stranded += s->state[i] == FF_AGENT_STRANDED;
		}
	}
	st->mean_speed = st->alive ? sum / (double)st->alive : 0;
	if (!dropped)
		return;
	ff_sim_order_drop(s);
	/* the kept runs [run, i), moved down to j */
	for (size_t i = 0; i <= s->n; i++) {
		if (i < s->n && s->state[i] != FF_AGENT_ARRIVED)
			continue;
		if (i > run && j != run)
			move_run(s, j, run, i);
		j += i - run;
		run = i + 1;
	}
	s->n = j;
}

static void account(ff_sim *s, const ff_sim_stats *st)
{
	ff_sim_totals *t = &s->tot;

	for (int g = 0; g < FF_GROUPS_MAX; g++) {
		ff_sim_group *gt = &s->gtot[g];

		if (!s->garrivals[g])
			continue;
		gt->arrived += s->garrivals[g];
		if (!gt->first_arrival)
			gt->first_arrival = st->tick;
		gt->last_arrival = st->tick;
		gt->throughput = (double)gt->arrived /
				 (double)(gt->last_arrival - gt->first_arrival + 1);
		s->garrivals[g] = 0;
	}
	t->ticks = st->tick;
	t->arrived = st->arrived;
	if (st->arrivals) {
		if (!t->first_arrival)
			t->first_arrival = st->tick;
		t->last_arrival = st->tick;
		t->throughput = (double)t->arrived /
				(double)(t->last_arrival - t->first_arrival + 1);
	}
	for (int k = 0; k < s->nlines; k++) {
		struct ff_lines *l = &s->lines[k];

		if (!st->crossings[k])
			continue;
		if (!l->first)
			l->first = st->tick;
		l->last = st->tick;
		l->net += st->crossings[k];
		for (long m = l->peak + 1; m <= l->net; m++)
			if ((size_t)m <= l->cap)
				l->at[2 * (m - 1)] = (uint32_t)st->tick;
		for (long m = l->trough + 1; m <= -l->net; m++)
			if ((size_t)m <= l->cap)
				l->at[2 * (m - 1) + 1] = (uint32_t)st->tick;
		l->peak = l->net > l->peak ? l->net : l->peak;
		l->trough = -l->net > l->trough ? -l->net : l->trough;
	}
	t->max_speed = st->max_speed > t->max_speed ? st->max_speed : t->max_speed;
	t->max_density = st->max_density > t->max_density ? st->max_density : t->max_density;
	if (st->max_per_cell > t->max_per_cell)
		t->max_per_cell = st->max_per_cell;
	t->wall_violations += st->wall_violations;
}

/* How many groups have agents present. */
static int groups_walking(const ff_sim *s)
{
	int n = 0;

	for (int g = 0; g < FF_GROUPS_MAX; g++)
		n += s->gf[g].agents > 0;
	return n;
}

/* The running sums, in the grid's order of its first NG points, of the
 * agents' headings and of how many have one. */
static void running_headings(ff_sim *s, size_t ng)
{
	double ax = 0, ay = 0, an = 0;

	for (size_t k = 0; k < ng; k++) {
		const float *h = s->hd[s->grid.idx[k]];

		s->hsum[k][0] = ax;
		s->hsum[k][1] = ay;
		s->hsum[k][2] = an;
		ax += h[0];
		ay += h[1];
		an += h[0] != 0 || h[1] != 0;
	}
	s->hsum[ng][0] = ax;
	s->hsum[ng][1] = ay;
	s->hsum[ng][2] = an;
}

/* The grid, the density and the running headings of the tick: a job of
 * two parts (each half the grid's rows, then the density and the
 * headings, which only read the grid), and a run of them. */
typedef struct grid_job {
	ff_sim *s;
	const tickp *p;
	ff_spatial_in in;
	ff_spatial_acc acc[2];
	size_t ng;
} grid_job;

static void grid_part(void *arg, int t, long c)
{
	grid_job *j = arg;

	(void)t;
	ff_spatial_build_part(&j->s->grid, &j->in, (int)c, 2, &j->acc[c]);
}

static void after_grid_part(void *arg, int t, long c)
{
	grid_job *j = arg;

	(void)t;
	if (c == 0)
		ff_sim_density_build(j->s);
	else if (j->p->two_way)
		running_headings(j->s, j->ng);
}

/* Sorts the agents into the grid (kept arrived ones, markers, left out),
 * and builds the density and the running headings from it, on two
 * threads when the tick's passes will be: the same bytes either way.
 * Returns the agents in the grid. */
static size_t build_grid(ff_sim *s, const tickp *p)
{
	grid_job j = {s, p, {s->x, s->y, s->vx, s->vy, s->n, p->keep ? s->state : NULL,
			     FF_AGENT_ARRIVED, s->regridded ? s->id : NULL}, {{0, 0}, {0, 0}}, 0};

	if (s->par && s->threads != 1 && s->n >= FF_SIM_PAR_MIN) {
		ff_sim_par_run(s->par, grid_part, &j, 2, s->threads == 2);
		j.ng = ff_spatial_build_end(&s->grid, j.acc, 2);
		ff_sim_par_run(s->par, after_grid_part, &j, 2, s->threads == 2);
		return j.ng;
	}
	j.ng = ff_spatial_build(&s->grid, &j.in);
	ff_sim_density_build(s);
	if (p->two_way)
		running_headings(s, j.ng);
	return j.ng;
}

void ff_sim_step(ff_sim *s)
{
	ff_sim_stats st;
	size_t ng;
	tickp p;

	memset(&st, 0, sizeof st);
	tick_params(s, &p);
	s->tick_key = ff_rng_next(&s->rng);
	/* Kept arrived agents are markers, not bodies: not in the grid. */
	/* One group: one flow, so agents near each other head the same way. */
	p.two_way = groups_walking(s) > 1;
	ng = build_grid(s, &p);
	/* (spawning stores agents in the grid's order: none at tick 0) */
	if (s->regrid_ticks && (s->tot.ticks + 1) % s->regrid_ticks == 0)
		ff_sim_regrid(s, ng);
	ff_sim_route_tick(s);
	ff_sim_fill_near(s);
	st.max_per_cell = s->grid.max_per_cell;
	/* Agents released now are not in the grid: they start next tick. */
	if (s->nsrc)
		ff_sim_sources_release(s, p.dt);
	/* Grid order keeps memory access local; the result is the same in
	 * any order (snapshot reads, counter-based jitter), and so on either
	 * thread. */
	compact(s, &st, run_agents(s, &p, ng, &st));
	st.tick = s->tot.ticks + 1;
	st.arrived = s->tot.arrived + st.arrivals;
	s->last = st;
	account(s, &st);
}
