/*
 * solver_tile.c - an exact Dijkstra on a rectangle of a level (solver_tile.h).
 *
 * The queue is a bucket queue of width 1, as the full solver's (the
 * smallest step costs 1, so a bucket never receives entries while it is
 * settled): each bucket a chain of entries taken from one pool and given
 * back when the bucket is done.  Seeds may lie far apart in value (the
 * portals around a sector), so they wait in a list sorted by value and
 * enter the ring of buckets as the search comes within half its width of
 * them.  A cell is queued again each time its value falls; an entry whose
 * cell is settled or whose key is no longer the cell's is stale and
 * skipped.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver_int.h"
#include "solver_tile.h"

#define RING_MASK (FF_TILE_RING - 1)
enum { SETTLED = 1, STOP = 2 };

static const uint8_t corner_a[8] = {0, 0, 0, 0, FF_DIR_E, FF_DIR_W, FF_DIR_W, FF_DIR_E};
static const uint8_t corner_b[8] = {0, 0, 0, 0, FF_DIR_S, FF_DIR_S, FF_DIR_N, FF_DIR_N};

/* The step tables: costs, or whole units of 1/FF_TILE_UNIT (the diagonal
 * rounded up), in which every sum is exact. */
static void steps(ff_tile *t, bool units)
{
	const double u = units ? FF_TILE_UNIT : 1.0;

	for (int c = 0; c < 256; c++) {
		t->ostep[c] = c == FF_WALL ? INFINITY : c * u;
		t->dstep[c] = c == FF_WALL ? INFINITY :
			      units ? ceil(c * 1.4142135623730951 * u) : c * 1.4142135623730951;
	}
	t->kscale = 1.0 / u;
	t->units = units;
}

void ff_tile_init(ff_tile *t)
{
	memset(t, 0, sizeof *t);
	steps(t, false);
}

void ff_tile_fini(ff_tile *t)
{
	free(t->cost);
	free(t->in);
	free(t->ways);
	free(t->fixed);
	free(t->dir);
	free(t->val);
	free(t->seed);
	free(t->ecell);
	free(t->enext);
	ff_tile_init(t);
}

size_t ff_tile_bytes(const ff_tile *t)
{
	return t->cap * (5 + sizeof *t->val) + t->seedcap * sizeof *t->seed +
	       t->ecap * 2 * sizeof *t->ecell;
}

/* Makes *P hold N items of SIZE bytes (contents lost). */
static bool grow(void *pp, size_t n, size_t size)
{
	void **p = pp, *q = malloc(n * size);

	if (!q)
		return false;
	free(*p);
	*p = q;
	return true;
}

static bool reserve(ff_tile *t, size_t np)
{
	size_t ecap = np * 8 + 64;

	if (np > t->cap) {
		if (!grow(&t->cost, np, 1) || !grow(&t->in, np, 1) || !grow(&t->fixed, np, 1) ||
		    !grow(&t->ways, np, 1) ||
		    !grow(&t->dir, np, 1) || !grow(&t->val, np, sizeof *t->val)) {
			t->cap = 0;
			return false;
		}
		t->cap = np;
	}
	if (ecap > t->ecap) {
		if (!grow(&t->ecell, ecap, sizeof *t->ecell) ||
		    !grow(&t->enext, ecap, sizeof *t->enext)) {
			t->ecap = 0;
			return false;
		}
		t->ecap = ecap;
	}
	return true;
}

static void offsets(const ff_tile *t, int32_t off[8]);
static unsigned ways_of(const ff_tile *t, int32_t p, const int32_t *off);

/* ways_of() for the inside cells of row Y at once: a step is allowed
 * where the cells it enters and, diagonally, passes are not walls, and
 * leads to an inside cell but on the first and last rows and columns. */
static void inside_ways(ff_tile *t, int y, const int32_t *off)
{
	const uint8_t *c = t->cost;
	unsigned rim = 0;

	if (y == 1)
		rim |= 1u << FF_DIR_N | 1u << FF_DIR_NE | 1u << FF_DIR_NW;
	if (y == t->h)
		rim |= 1u << FF_DIR_S | 1u << FF_DIR_SE | 1u << FF_DIR_SW;
	if (t->conn == 4)
		rim |= 0xf0u;
	for (int x = 1; x <= t->w; x++) {
		const int32_t p = y * t->W + x;
		unsigned e = c[p + off[FF_DIR_E]] != FF_WALL, s = c[p + off[FF_DIR_S]] != FF_WALL;
		unsigned w = c[p + off[FF_DIR_W]] != FF_WALL, n = c[p + off[FF_DIR_N]] != FF_WALL;
		unsigned m = e << FF_DIR_E | s << FF_DIR_S | w << FF_DIR_W | n << FF_DIR_N |
			     (e & s & (c[p + off[FF_DIR_SE]] != FF_WALL)) << FF_DIR_SE |
			     (w & s & (c[p + off[FF_DIR_SW]] != FF_WALL)) << FF_DIR_SW |
			     (w & n & (c[p + off[FF_DIR_NW]] != FF_WALL)) << FF_DIR_NW |
			     (e & n & (c[p + off[FF_DIR_NE]] != FF_WALL)) << FF_DIR_NE;
		unsigned edge = rim;
		if (x == 1)
			edge |= 1u << FF_DIR_W | 1u << FF_DIR_SW | 1u << FF_DIR_NW;
		if (x == t->w)
			edge |= 1u << FF_DIR_E | 1u << FF_DIR_SE | 1u << FF_DIR_NE;
		t->ways[p] = c[p] == FF_WALL ? 0 : (uint8_t)(m & ~edge);
	}
}

static void queue_reset(ff_tile *t)
{
	for (int i = 0; i < FF_TILE_RING; i++)
		t->head[i] = t->tail[i] = -1;
	t->efree = -1;
	t->eused = 0;
	t->queued = 0;
}

void ff_tile_clear(ff_tile *t)
{
	for (size_t i = 0; i < t->np; i++)
		t->val[i] = INFINITY;
	memset(t->fixed, 0, t->np);
	memset(t->dir, FF_DIR_NONE, t->np);
	t->nseed = 0;
	t->settled = 0;
	queue_reset(t);
}

ff_err ff_tile_load(ff_tile *t, const uint8_t *costs, int lw, int lh, int x0, int y0,
		    int w, int h, int conn, bool units)
{
	size_t np = (size_t)(w + 2) * (size_t)(h + 2);
	int32_t off[8];

	if (!reserve(t, np))
		return FF_E_NOMEM;
	t->x0 = x0, t->y0 = y0, t->w = w, t->h = h, t->W = w + 2;
	t->np = np;
	t->conn = conn;
	if (units != t->units)
		steps(t, units);
	for (int y = -1; y <= h; y++) {
		uint8_t *c = t->cost + (size_t)(y + 1) * (size_t)t->W, *in = t->in + (c - t->cost);
		int ly = y0 + y;
		for (int x = -1; x <= w; x++) {
			int lx = x0 + x;
			bool level = (unsigned)lx < (unsigned)lw && (unsigned)ly < (unsigned)lh;
			c[x + 1] = level ? costs[(size_t)ly * (size_t)lw + (size_t)lx] : FF_WALL;
			in[x + 1] = x >= 0 && x < w && y >= 0 && y < h;
		}
	}
	offsets(t, off);
	for (int y = 1; y <= h; y++)
		inside_ways(t, y, off);
	ff_tile_clear(t);
	return FF_OK;
}

ff_err ff_tile_seed(ff_tile *t, int32_t p, double v)
{
	if (t->nseed == t->seedcap) {
		size_t cap = t->seedcap ? t->seedcap * 2 : 256;
		ff_tile_seed_t *s = realloc(t->seed, cap * sizeof *s);
		if (!s)
			return FF_E_NOMEM;
		t->seed = s, t->seedcap = cap;
	}
	if (t->nseed + (size_t)t->np * 8 + 64 > t->ecap) {
		int32_t *c = realloc(t->ecell, (t->ecap * 2) * sizeof *c), *n;
		if (!c)
			return FF_E_NOMEM;
		t->ecell = c;
		if (!(n = realloc(t->enext, (t->ecap * 2) * sizeof *n)))
			return FF_E_NOMEM;
		t->enext = n;
		t->ecap *= 2;
	}
	if (v < t->val[p]) {
		t->val[p] = v;
		t->seed[t->nseed++] = (ff_tile_seed_t){v, p};
	}
	return FF_OK;
}

static inline long key(const ff_tile *t, double v)
{
	return (long)(v * t->kscale);
}

static void push(ff_tile *t, int32_t c, long k)
{
	int32_t e = t->efree, b = (int32_t)(k & RING_MASK);

	if (e >= 0)
		t->efree = t->enext[e];
	else
		e = t->eused++;
	t->ecell[e] = c;
	t->enext[e] = -1;
	if (t->tail[b] >= 0)
		t->enext[t->tail[b]] = e;
	else
		t->head[b] = e;
	t->tail[b] = e;
	t->queued++;
}

static int by_value(const void *a, const void *b)
{
	const ff_tile_seed_t *s = a, *r = b;

	return s->v < r->v ? -1 : s->v > r->v ? 1 : (s->p > r->p) - (s->p < r->p);
}

/* Neighbour offsets in FF_DIR_* order. */
static void offsets(const ff_tile *t, int32_t off[8])
{
	const int32_t W = t->W;

	off[FF_DIR_E] = 1, off[FF_DIR_S] = W, off[FF_DIR_W] = -1, off[FF_DIR_N] = -W;
	off[FF_DIR_SE] = W + 1, off[FF_DIR_SW] = W - 1, off[FF_DIR_NW] = -W - 1;
	off[FF_DIR_NE] = -W + 1;
}

/* Whether the step between P and its neighbour in direction D is allowed:
 * the neighbour passable, and for a diagonal both cells beside it. */
static inline bool step_ok(const ff_tile *t, int32_t p, int d, const int32_t *off)
{
	if (t->cost[p + off[d]] == FF_WALL)
		return false;
	return d < 4 || (t->cost[p + off[corner_a[d]]] != FF_WALL &&
			 t->cost[p + off[corner_b[d]]] != FF_WALL);
}

/* The directions in which padded cell P may enter an inside cell, as a
 * mask of FF_DIR_* bits. */
static unsigned ways_of(const ff_tile *t, int32_t p, const int32_t *off)
{
	const int x = p % t->W, y = p / t->W;
	unsigned m = 0;

	if (t->cost[p] == FF_WALL)
		return 0;
	for (int d = 0; d < t->conn; d++) {
		/* a ring cell's neighbours may lie beyond the padding */
		int nx = x + ff_dir_dx[d], ny = y + ff_dir_dy[d];
		if (nx >= 1 && ny >= 1 && nx <= t->w && ny <= t->h && step_ok(t, p, d, off))
			m |= 1u << d;
	}
	return m;
}

/* Lowers the neighbours of C that its value makes lower.  A settled
 * neighbour is never lowered (its value is below C's plus the step), so
 * it needs no test; the steps allowed come from the mask made at load. */
static void settle(ff_tile *t, int32_t c, const int32_t *off)
{
	const double v = t->val[c];
	const unsigned ways = t->ways[c];
	unsigned low = 0;

	if (!t->in[c]) {                /* a source on the ring */
		for (unsigned m = ways_of(t, c, off); m; m &= m - 1) {
			const int d = __builtin_ctz(m);
			const int32_t n = c + off[d];
			const double nv = v + (d < 4 ? t->ostep : t->dstep)[t->cost[n]];
			if (nv < t->val[n]) {
				t->val[n] = nv;
				push(t, n, key(t, nv));
			}
		}
		return;
	}
	/* every direction, without a branch: one not allowed adds INFINITY,
	 * so its cell keeps its value; which ones fell is a mask */
	for (int d = 0; d < 8; d++) {
		const int32_t n = c + off[d];
		const double step = (d < 4 ? t->ostep : t->dstep)[t->cost[n]] +
				    ((ways >> d & 1) ? 0.0 : INFINITY);
		const double old = t->val[n], nv = v + step;
		t->val[n] = nv < old ? nv : old;
		low |= (unsigned)(nv < old) << d;
	}
	for (; low; low &= low - 1) {
		const int32_t n = c + off[__builtin_ctz(low)];
		push(t, n, key(t, t->val[n]));
	}
}

void ff_tile_run(ff_tile *t, const int32_t *stop, int n)
{
	int32_t off[8];
	size_t si = 0;
	int left = n;
	long k;

	if (t->nseed == 0)
		return;
	offsets(t, off);
	qsort(t->seed, t->nseed, sizeof *t->seed, by_value);
	for (int i = 0; i < n; i++)
		t->fixed[stop[i]] |= STOP;
	k = key(t, t->seed[0].v);
	for (;;) {
		int32_t b = (int32_t)(k & RING_MASK), e, used = 0;

		/* a seed lowered by a later one is queued at its last value */
		while (si < t->nseed && key(t, t->seed[si].v) < k + FF_TILE_RING / 2) {
			push(t, t->seed[si].p, key(t, t->val[t->seed[si].p]));
			si++;
		}
		if (t->queued == 0) {
			if (si == t->nseed)
				break;
			k = key(t, t->seed[si].v);
			continue;
		}
		for (e = t->head[b]; e >= 0; e = t->enext[e]) {
			int32_t c = t->ecell[e];
			used++;
			if ((t->fixed[c] & SETTLED) || key(t, t->val[c]) != k)
				continue;
			t->fixed[c] |= SETTLED;
			t->settled++;
			settle(t, c, off);
			if ((t->fixed[c] & STOP) && --left == 0 && n > 0)
				return;
		}
		if (t->head[b] >= 0) {
			t->enext[t->tail[b]] = t->efree;
			t->efree = t->head[b];
			t->head[b] = t->tail[b] = -1;
		}
		t->queued -= used;
		k++;
	}
}

uint8_t ff_tile_arrow(const ff_tile *t, int32_t p)
{
	static const uint8_t order[8] = {FF_DIR_SE, FF_DIR_SW, FF_DIR_NW, FF_DIR_NE,
					 FF_DIR_E, FF_DIR_S, FF_DIR_W, FF_DIR_N};
	const double v = t->val[p], lim = v + v * FF_ARROW_TOL;
	int32_t off[8];

	if (!t->in[p] || t->cost[p] == FF_WALL || v == INFINITY)
		return FF_DIR_NONE;
	offsets(t, off);
	for (int i = t->conn == 4 ? 4 : 0; i < 8; i++) {
		const int d = order[i];
		const int32_t n = p + off[d];
		if (t->val[n] == INFINITY || !step_ok(t, p, d, off))
			continue;
		if (t->val[n] + (d < 4 ? t->ostep : t->dstep)[t->cost[p]] <= lim)
			return (uint8_t)d;
	}
	return FF_DIR_NONE;
}

void ff_tile_arrows(ff_tile *t)
{
	for (int y = 1; y <= t->h; y++)
		for (int x = 1; x <= t->w; x++) {
			int32_t p = y * t->W + x;
			t->dir[p] = ff_tile_arrow(t, p);
		}
}
