/*
 * solver_dijkstra.c - the exact integration field: Dijkstra over the 8- (or 4-)
 * connected grid with a bucket queue of width 1.
 *
 * Why width 1 is exact: the smallest step costs 1 (a straight step into a
 * cost-1 cell), so settling a cell of bucket k only ever lowers cells into
 * buckets > k; every value in bucket k is final once bucket k is reached,
 * and the order inside a bucket does not matter for the values (a cell's
 * value is the smallest val[m] + step(m -> n) over its lower neighbours m,
 * whatever order they settle in).  The flow direction of a cell is the
 * cheapest step, its allowed neighbour n with the smallest val[n] +
 * step(cell -> n), first in FF_DIR_* order on ties (or, with
 * FF_ARROW_LOWEST, the one with the smallest val[n]); the winner has a
 * value at least 1 below the cell's, so it is final when the cell settles
 * (see solver.c).
 *
 * Walls and the padding border hold INFINITY and their step cost is
 * INFINITY, so the neighbour loop needs no wall test except for the two
 * corner cells of a diagonal, whose step costs it has already loaded.  A
 * settled neighbour is never lowered (its value is below v + 1), so
 * relaxing needs no settled test either.
 *
 * The one-shot solve walks each bucket's blocks directly and keeps its
 * counters in registers; stepping and repair go through ffq_pop().  On
 * large levels it settles each bucket with two threads (below).
 */
#include "solver_par.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Pairs of doubles: the neighbours are handled two at a time, in the two
 * lanes of an SSE2 register where there is one, else in a struct. */
#if defined(__SSE2__)
typedef __m128d pair;

FF_HOT pair pair_ld(const double *p0, const double *p1)
{
	return _mm_loadh_pd(_mm_load_sd(p0), p1);
}

FF_HOT pair pair_all(double x) { return _mm_set1_pd(x); }
FF_HOT pair pair_add(pair a, pair b) { return _mm_add_pd(a, b); }
/* a < b ? a : b, lane by lane */
FF_HOT pair pair_min(pair a, pair b) { return _mm_min_pd(a, b); }
FF_HOT double pair_lo(pair a) { return _mm_cvtsd_f64(a); }
FF_HOT double pair_hi(pair a) { return _mm_cvtsd_f64(_mm_unpackhi_pd(a, a)); }

/* Bit 0 for lane 0, bit 1 for lane 1. */
FF_HOT unsigned pair_lt(pair a, pair b)
{
	return (unsigned)_mm_movemask_pd(_mm_cmplt_pd(a, b));
}

FF_HOT unsigned pair_le(pair a, pair b)
{
	return (unsigned)_mm_movemask_pd(_mm_cmple_pd(a, b));
}

FF_HOT void pair_st(double *p0, double *p1, pair a)
{
	_mm_storel_pd(p0, a);
	_mm_storeh_pd(p1, a);
}

/* The corner penalties of the diagonals (SE, SW) and (NW, NE) from the
 * straight steps SA = (E, S) and SB = (W, N): INFINITY where the two
 * steps beside the diagonal add up to INFINITY (one enters a wall), else
 * 0. */
FF_HOT void pair_pens(pair sa, pair sb, pair *pc, pair *pd)
{
	const __m128d inf = _mm_set1_pd(INFINITY);
	const __m128d c = _mm_add_pd(_mm_unpacklo_pd(sa, sb), _mm_unpackhi_pd(sa, sa));
	const __m128d d = _mm_add_pd(_mm_shuffle_pd(sb, sa, 0), _mm_unpackhi_pd(sb, sb));

	*pc = _mm_and_pd(_mm_cmpeq_pd(c, inf), inf);
	*pd = _mm_and_pd(_mm_cmpeq_pd(d, inf), inf);
}
#else
typedef struct pair {
	double lo, hi;
} pair;

FF_HOT pair pair_ld(const double *p0, const double *p1) { return (pair){*p0, *p1}; }
FF_HOT pair pair_all(double x) { return (pair){x, x}; }
FF_HOT pair pair_add(pair a, pair b) { return (pair){a.lo + b.lo, a.hi + b.hi}; }
FF_HOT pair pair_min(pair a, pair b)
{
	return (pair){a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi};
}
FF_HOT double pair_lo(pair a) { return a.lo; }
FF_HOT double pair_hi(pair a) { return a.hi; }
FF_HOT unsigned pair_lt(pair a, pair b) { return (a.lo < b.lo) | (a.hi < b.hi) << 1; }
FF_HOT unsigned pair_le(pair a, pair b) { return (a.lo <= b.lo) | (a.hi <= b.hi) << 1; }
FF_HOT void pair_st(double *p0, double *p1, pair a) { *p0 = a.lo, *p1 = a.hi; }
FF_HOT double pen(double steps) { return steps == INFINITY ? INFINITY : 0.0; }
FF_HOT void pair_pens(pair sa, pair sb, pair *pc, pair *pd)
{
	*pc = (pair){pen(sa.lo + sa.hi), pen(sb.lo + sa.hi)};
	*pd = (pair){pen(sb.lo + sb.hi), pen(sa.lo + sb.hi)};
}
#endif

/* Queues the neighbours that settle() staged (below), at the keys of their
 * values, as MODE says (Q: the settling thread's queue). */
static void flush(ff_solver *s, ff_tq *q, ff_stage *g, int mode)
{
	int32_t off[8];

	ff_dijkstra_offsets(s, off);
	for (long i = 0; i < g->n; i += 2) {
		const int32_t c = g->c[i];
		for (unsigned m = (unsigned)g->c[i + 1]; m; m &= m - 1) {
			const int32_t n = c + off[__builtin_ctz(m)];
			ff_par_push(s, q, n, ffq_key1(s->val[n]), mode);
		}
	}
	g->n = 0;
}

/* The cheapest step from the eight sums val[n] + step(c -> n) in pairs
 * (E, S), (W, N), (SE, SW), (NW, NE): the first in FF_DIR_* order whose
 * sum is at most LIM (the cell's value, and a rounding's worth more), a
 * diagonal before a straight step; CF_NODIR when there is none (a goal).
 * The lowest sum is the cell's value itself, so it needs no search: the
 * sums of two equally short paths are equal in exact arithmetic and
 * differ by rounding, which LIM's margin keeps from deciding, and of
 * equals the diagonal goes to the lower neighbour.  Without branches:
 * written as conditional expressions, the compiler made some of them
 * branches, which mispredict next to walls. */
FF_HOT unsigned cheapest(pair a, pair b, pair c, pair d, double lim)
{
	const pair l2 = pair_all(lim);
	const unsigned eqs = pair_le(a, l2) | pair_le(b, l2) << 2;
	const unsigned eqd = pair_le(c, l2) << 4 | pair_le(d, l2) << 6;

	/* no bit: bit 15, CF_NODIR */
	return (unsigned)__builtin_ctz(ff_sel(eqd != 0, eqd, eqs) | 0x8000u);
}

/* What a cell's settle reads around C: the neighbours' values in pairs
 * (E, S), (W, N), (SE, SW), (NW, NE), the straight steps into (E, S) and
 * (W, N), and the corner penalties of the diagonals (0 for an allowed
 * diagonal, INFINITY for a cut corner: added to a value or a step it keeps
 * the arithmetic exact and the loop free of branches).  Four-connected:
 * no diagonals (INFINITY). */
typedef struct around {
	pair oa, ob, oc, od, sa, sb, pc, pd;
} around;

FF_HOT around around_of(const ff_solver *s, int32_t c, bool eight)
{
	const int32_t W = s->W;
	const uint8_t *cost = s->cost;
	const double *val = s->val, *os = s->ostep;
	around a;

	a.oa = pair_ld(val + c + 1, val + c + W), a.ob = pair_ld(val + c - 1, val + c - W);
	a.sa = pair_ld(os + cost[c + 1], os + cost[c + W]);
	a.sb = pair_ld(os + cost[c - 1], os + cost[c - W]);
	a.oc = a.od = a.pc = a.pd = pair_all(INFINITY);
	if (eight) {
		pair_pens(a.sa, a.sb, &a.pc, &a.pd);
		a.oc = pair_ld(val + c + W + 1, val + c + W - 1);
		a.od = pair_ld(val + c - W - 1, val + c - W + 1);
	}
	return a;
}

/* The arrow of cell C of value V from what is around it: its cheapest
 * step, CF_NODIR for none.  The sums it compares are val[n] + step(c -> n),
 * the same sums that settled C; a neighbour that is not final yet has a
 * sum above V + 1, so the arrow of a settling cell is that of its final
 * field. */
FF_HOT unsigned arrow_of(const ff_solver *s, const around *a, int32_t c, double v, bool eight)
{
	const pair ao = pair_all(s->ostep[s->cost[c]]), ad = pair_all(s->dstep[s->cost[c]]);
	const double lim = v + v * FF_ARROW_TOL;
	const pair inf = pair_all(INFINITY);

	if (!eight)
		return cheapest(pair_add(a->oa, ao), pair_add(a->ob, ao), inf, inf, lim);
	return cheapest(pair_add(a->oa, ao), pair_add(a->ob, ao),
			pair_add(pair_add(a->oc, a->pc), ad), pair_add(pair_add(a->od, a->pd), ad), lim);
}

/* Settles cell C of value V: lowers each neighbour whose value the step
 * from C makes lower, and returns C's flow direction (CF_NODIR for none,
 * and without ARROWS, for a solve of values alone).
 * G == NULL (stepping and repair): queues the lowered neighbours at once,
 * reopening settled ones.  Else stages them, to be queued by flush(): the
 * cell and a mask of its lowered neighbours (FF_DIR_* bits), two entries,
 * when the mask is not empty; every neighbour is stored min(old, new).
 * Without a branch: whether a neighbour is lowered is what a branch
 * predictor cannot guess next to walls, and the guesses it missed took a
 * third of the solve time with random walls. */
FF_HOT int settle(ff_solver *s, ff_stage *g, int32_t c, double v, bool eight, bool arrows)
{
	const int32_t W = s->W;
	const uint8_t *cost = s->cost;
	double *val = s->val;
	const double *ds = s->dstep;
	const around a = around_of(s, c, eight);
	const pair vv = pair_all(v), inf = pair_all(INFINITY);
	/* new values in pairs, as around */
	const pair na = pair_add(vv, a.sa), nb = pair_add(vv, a.sb);
	pair nc = inf, nd = inf;
	/* the direction first: lowering raises no value below v */
	const unsigned bd = arrows ? arrow_of(s, &a, c, v, eight) : CF_NODIR;
	unsigned m;

	if (eight) {
		nc = pair_add(vv, pair_add(pair_ld(ds + cost[c + W + 1], ds + cost[c + W - 1]), a.pc));
		nd = pair_add(vv, pair_add(pair_ld(ds + cost[c - W - 1], ds + cost[c - W + 1]), a.pd));
	}
	m = pair_lt(na, a.oa) | pair_lt(nb, a.ob) << 2 | pair_lt(nc, a.oc) << 4 |
	    pair_lt(nd, a.od) << 6;
	if (g) {
		pair_st(val + c + 1, val + c + W, pair_min(na, a.oa));
		pair_st(val + c - 1, val + c - W, pair_min(nb, a.ob));
		if (eight) {
			pair_st(val + c + W + 1, val + c + W - 1, pair_min(nc, a.oc));
			pair_st(val + c - W - 1, val + c - W + 1, pair_min(nd, a.od));
		}
		g->c[g->n] = c;
		g->c[g->n + 1] = (int32_t)m;
		g->n += (m != 0) << 1;
	} else if (m) {
		const double o[8] = {pair_lo(a.oa), pair_hi(a.oa), pair_lo(a.ob), pair_hi(a.ob),
				     pair_lo(a.oc), pair_hi(a.oc), pair_lo(a.od), pair_hi(a.od)};
		const double nv[8] = {pair_lo(na), pair_hi(na), pair_lo(nb), pair_hi(nb),
				      pair_lo(nc), pair_hi(nc), pair_lo(nd), pair_hi(nd)};
		int32_t off[8];

		ff_dijkstra_offsets(s, off);
		for (; m; m &= m - 1) {
			const unsigned i = (unsigned)__builtin_ctz(m);
			ffq_lower(s, c + off[i], o[i], nv[i]);
		}
	}
	return (int)bd;
}

/* Settles cell C of value V with its lowered neighbours staged in G, and
 * queues the stage as MODE says (Q: the settling thread's queue) when it
 * could not take another cell and mask.  The callers pass ARROWS as a
 * constant, like EIGHT, so that a solve of values alone has loops of its
 * own and full solves keep theirs. */
FF_HOT void settle_staged(ff_solver *s, ff_tq *q, ff_stage *g, int32_t c, double v,
			  bool eight, bool arrows, int mode)
{
	const int bd = eight ? settle(s, g, c, v, true, arrows) : settle(s, g, c, v, false, arrows);

	s->cf[c] = (uint8_t)(bd | FL_SETTLED);
	if (g->n > FF_STAGE - 2)
		flush(s, q, g, mode);
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

/* The arrow of settled cell P under RULE (ff_arrow_rule), or FF_DIR_NONE:
 * the cheapest step as cheapest() chooses it, one neighbour at a time; or
 * the lowest neighbour, if it is below the cell (at least 1 below: it is
 * never so for a goal), the first in FF_DIR_* order of equals. */
static uint8_t arrow(const ff_solver *s, int32_t p, int rule)
{
	static const uint8_t order[2][8] = {{4, 5, 6, 7, 0, 1, 2, 3}, {0, 1, 2, 3, 4, 5, 6, 7}};
	const bool cheap = rule == FF_ARROW_CHEAPEST;
	const int nd = s->opts.connectivity == 4 ? 4 : 8;
	const double v = s->val[p];
	int32_t off[8];
	double sum[8], lim = v + v * FF_ARROW_TOL;

	if (s->cost[p] == FF_WALL || !(s->cf[p] & FL_SETTLED))
		return FF_DIR_NONE;
	ff_dijkstra_offsets(s, off);
	for (int d = 0; d < 8; d++) {
		const double step = d < 4 ? s->ostep[s->cost[p]] : s->dstep[s->cost[p]];

		sum[d] = d < nd && ff_dijkstra_step_ok(s, p, d, off) ?
			 s->val[p + off[d]] + (cheap ? step : 0.0) : INFINITY;
		if (!cheap && sum[d] < lim)
			lim = sum[d];
	}
	if (!cheap && !(lim <= v - 0.5))
		return FF_DIR_NONE;
	for (int i = 0; i < 8; i++)
		if (sum[order[!cheap][i]] <= lim)
			return order[!cheap][i];
	return FF_DIR_NONE;
}

uint8_t ff_dijkstra_dir(const ff_solver *s, int32_t p)
{
	return arrow(s, p, s->opts.arrows);
}

int32_t ff_dijkstra_parent(const ff_solver *s, int32_t p)
{
	uint8_t d = arrow(s, p, FF_ARROW_CHEAPEST);
	int32_t off[8];

	return d == FF_DIR_NONE ? -1 : p + ff_dijkstra_offsets(s, off)[d];
}

/* The arrow of cell C of an open level, whose steps cost AO and AD: the
 * settle's rule without the corner penalties (a diagonal on open ground
 * cuts a corner only where it leaves the level, and its value is
 * INFINITY there anyway). */
FF_HOT unsigned open_arrow(const double *val, int32_t c, int32_t W, pair ao, pair ad)
{
	const double v = val[c];

	return cheapest(pair_add(pair_ld(val + c + 1, val + c + W), ao),
			pair_add(pair_ld(val + c - 1, val + c - W), ao),
			pair_add(pair_ld(val + c + W + 1, val + c + W - 1), ad),
			pair_add(pair_ld(val + c - W - 1, val + c - W + 1), ad), v + v * FF_ARROW_TOL);
}

#if defined(__SSE2__)
/* D where SUM > LIM, else DIR, in each lane (of two cells'). */
FF_HOT __m128i pick(__m128i d, __m128d sum, __m128d lim, int dir)
{
	const __m128i m = _mm_castpd_si128(_mm_cmple_pd(sum, lim));

	return _mm_or_si128(_mm_and_si128(m, _mm_set1_epi64x(dir | FL_SETTLED)),
			    _mm_andnot_si128(m, d));
}
#endif

double ff_dijkstra_open_span(ff_solver *s, int32_t p, int32_t n)
{
	const int32_t W = s->W;
	const double *val = s->val;
	const double c1 = s->ostep[s->cost[p]], cd = s->dstep[s->cost[p]];
	double hi = -1.0;
	int32_t c = p;

#if defined(__SSE2__)
	/* two cells at a time, cheapest()'s choice made from the last
	 * direction in its order to the first: the first that takes the
	 * lane wins, a diagonal before a straight step */
	const __m128d s1 = _mm_set1_pd(c1), sd = _mm_set1_pd(cd), tol = _mm_set1_pd(FF_ARROW_TOL);
	__m128d h = _mm_set1_pd(-1.0);

	for (; c + 2 <= p + n; c += 2) {
		const __m128d v = _mm_loadu_pd(val + c), lim = _mm_add_pd(v, _mm_mul_pd(v, tol));
		__m128i d = _mm_set1_epi64x(CF_NODIR | FL_SETTLED);

		d = pick(d, _mm_add_pd(_mm_loadu_pd(val + c - W), s1), lim, FF_DIR_N);
		d = pick(d, _mm_add_pd(_mm_loadu_pd(val + c - 1), s1), lim, FF_DIR_W);
		d = pick(d, _mm_add_pd(_mm_loadu_pd(val + c + W), s1), lim, FF_DIR_S);
		d = pick(d, _mm_add_pd(_mm_loadu_pd(val + c + 1), s1), lim, FF_DIR_E);
		d = pick(d, _mm_add_pd(_mm_loadu_pd(val + c - W + 1), sd), lim, FF_DIR_NE);
		d = pick(d, _mm_add_pd(_mm_loadu_pd(val + c - W - 1), sd), lim, FF_DIR_NW);
		d = pick(d, _mm_add_pd(_mm_loadu_pd(val + c + W - 1), sd), lim, FF_DIR_SW);
		d = pick(d, _mm_add_pd(_mm_loadu_pd(val + c + W + 1), sd), lim, FF_DIR_SE);
		s->cf[c] = (uint8_t)_mm_cvtsi128_si32(d);
		s->cf[c + 1] = (uint8_t)_mm_extract_epi16(d, 4);
		h = _mm_max_pd(h, v);
	}
	hi = _mm_cvtsd_f64(_mm_max_pd(h, _mm_unpackhi_pd(h, h)));
#endif
	for (; c < p + n; c++) {
		s->cf[c] = (uint8_t)(open_arrow(val, c, W, pair_all(c1), pair_all(cd)) | FL_SETTLED);
		hi = val[c] > hi ? val[c] : hi;
	}
	return hi;
}

void ff_dijkstra_flow_span(ff_solver *s, int32_t p, int32_t n)
{
	for (int32_t i = 0; i < n; i++)
		ffs_set_dir(s, p + i, ff_dijkstra_dir(s, p + i));
}

/* The one-shot solve: every bucket walked block by block, directions
 * stored as cells settle (ARROWS). */
FF_HOT void fused(ff_solver *s, bool eight, bool arrows)
{
	double *val = s->val;
	uint8_t *cf = s->cf;
	const int32_t bs = s->bs;
	ff_stage g = {s->stage, 0};
	long nset = 0;
	int32_t last = -1;

	/* a stepped solve may stop inside a bucket: resume there */
	while (!ffs_wanted_done(s) && (s->cur_blk >= 0 || ffq_next_bucket(s))) {
		const long k = s->kcur;
		ff_bucket *b = &s->ring[k & FF_RING_MASK];
		int32_t blk = s->cur_blk, i = s->cur_pos;
		long used = 0;

		for (;;) {
			const int32_t *e = s->ent + (size_t)blk * (size_t)bs;
			int32_t lim = blk == b->tail ? b->fill : bs;
			used += lim - i;
			for (; i < lim; i++) {
				int32_t c = e[i];
				double v = val[c];
				if (ffq_key1(v) != k || (cf[c] & FL_SETTLED))
					continue;
				settle_staged(s, NULL, &g, c, v, eight, arrows, FF_PUSH_ONE);
				nset++;
				last = c;
			}
			/* the block may have grown while it was walked */
			if (i < (blk == b->tail ? b->fill : bs))
				continue;
			if (blk == b->tail)
				break;
			blk = s->bnext[blk], i = 0;
		}
		flush(s, NULL, &g, FF_PUSH_ONE);
		s->qcount -= used;
		ffq_drop_current(s);
	}
	s->settled += nset;
	if (last >= 0)
		s->last = last;
}

static void run_fused(ff_solver *s, bool eight)
{
	if (eight && s->arrows)
		fused(s, true, true);
	else if (eight)
		fused(s, true, false);
	else if (s->arrows)
		fused(s, false, true);
	else
		fused(s, false, false);
}

static const ff_par_ops par8, par4, par8v, par4v;

bool ff_dijkstra_run(ff_solver *s, long n, bool wave)
{
	bool eight = s->opts.connectivity == 8;
	long kmax = LONG_MAX;

	if (s->fused && n < 0 && !wave && !s->track) {
		/* open ground needs no queue (solver_open.c), but the queue
		 * stops early when only a few cells near the goals are asked
		 * for */
		if (!(eight && s->settled == 0 && (!s->partial || s->far) && ff_open_run(s)) &&
		    !ff_par_run(s, s->arrows ? (eight ? &par8 : &par4) : (eight ? &par8v : &par4v)))
			run_fused(s, eight);
		s->frontier = 0;        /* every reached cell is settled */
		return true;
	}
	while (n != 0) {
		int32_t c = ffq_pop(s, kmax);
		int bd;

		if (c == -1)
			return true;
		if (c == -2)
			return false;
		if (wave)
			kmax = s->kcur;
		bd = eight ? settle(s, NULL, c, s->val[c], true, true)
			   : settle(s, NULL, c, s->val[c], false, true);
		s->cf[c] |= FL_SETTLED;
		s->settled++;
		s->frontier--;
		s->last = c;
		if (s->fused)
			ffs_set_dir(s, c, (uint8_t)bd);
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

/* --- two threads (solver_par.h) ---------------------------------------------
 *
 * Settling a cell reads and writes its eight neighbours only: a margin of
 * one row.  Values are the same bytes as with one thread: a cell's value is
 * the smallest of the same sums whatever their order, and each direction
 * is chosen from final values; settled and frontier count the same cells.
 * Only the order of the queue differs, which changes nothing but `last`
 * (a cell of the last bucket either way). */

/* Thread T's cells of bucket K (ALL: the main thread alone, both rings,
 * nothing deferred).  A cell deferred when the list is full is left
 * unsettled and the queue marked lost: resume() settles it. */
FF_HOT void walk(ff_solver *s, struct ff_par *P, int t, long k, bool eight, bool arrows,
		 bool all)
{
	ff_tq *q = &P->t[t];
	const double *val = s->val;
	uint8_t *cf = s->cf;
	const int32_t bs = s->bs;
	const int mode = all ? FF_PUSH_ANY : FF_PUSH_OWN;
	ff_stage g = {q->stage, 0};
	long nset = 0;
	int32_t last = q->last;

	for (int r = all ? 0 : t; r <= (all ? 1 : t); r++) {
		const ff_bucket *b = &P->t[r].ring[k & FF_RING_MASK];
		for (int32_t blk = b->head; blk >= 0; blk = blk == b->tail ? -1 : s->bnext[blk]) {
			const int32_t *e = s->ent + (size_t)blk * (size_t)bs;
			const int32_t lim = blk == b->tail ? b->fill : bs;
			for (int32_t i = 0; i < lim; i++) {
				const int32_t c = e[i];
				const double v = val[c];
				if (ffq_key1(v) != k || (cf[c] & FL_SETTLED))
					continue;
				if (!all && ff_par_edge(s, c, 1)) {
					if (q->ndefer < q->cap)
						q->defer[q->ndefer++] = c;
					else
						q->lost = true;
					continue;
				}
				settle_staged(s, q, &g, c, v, eight, arrows, mode);
				nset++;
				last = c;
			}
		}
	}
	flush(s, q, &g, mode);
	q->nset += nset;
	q->last = last;
}

/* The cells both threads deferred in this round, settled by the main
 * thread. */
FF_HOT void deferred(ff_solver *s, struct ff_par *P, bool eight, bool arrows)
{
	ff_tq *q0 = &P->t[0];
	ff_stage g = {q0->stage, 0};

	for (int t = 0; t < 2; t++) {
		const ff_tq *q = &P->t[t];
		for (int32_t i = 0; i < q->ndefer; i++) {
			int32_t c = q->defer[i];
			if (s->cf[c] & FL_SETTLED)
				continue;
			settle_staged(s, q0, &g, c, s->val[c], eight, arrows, FF_PUSH_ANY);
			q0->nset++;
			q0->last = c;
		}
	}
	flush(s, q0, &g, FF_PUSH_ANY);
}

/* Alone from the last bucket on: the grid scan of a spill queues again
 * every reached cell left unsettled. */
static void resume(ff_solver *s, long k, bool eight)
{
	s->kcur = s->klim = k - 1;
	run_fused(s, eight);
}

static void walk8(ff_solver *s, struct ff_par *P, int t, long k)
{
	walk(s, P, t, k, true, true, false);
}

static void walk4(ff_solver *s, struct ff_par *P, int t, long k)
{
	walk(s, P, t, k, false, true, false);
}

static void alone8(ff_solver *s, struct ff_par *P, long k)
{
	walk(s, P, 0, k, true, true, true);
}

static void alone4(ff_solver *s, struct ff_par *P, long k)
{
	walk(s, P, 0, k, false, true, true);
}

static void deferred8(ff_solver *s, struct ff_par *P)
{
	deferred(s, P, true, true);
}

static void deferred4(ff_solver *s, struct ff_par *P)
{
	deferred(s, P, false, true);
}

static void resume8(ff_solver *s, long k)
{
	resume(s, k, true);
}

static void resume4(ff_solver *s, long k)
{
	resume(s, k, false);
}

/* values alone: no arrows (resume8 and resume4 ask the solver) */
static void walk8v(ff_solver *s, struct ff_par *P, int t, long k)
{
	walk(s, P, t, k, true, false, false);
}

static void walk4v(ff_solver *s, struct ff_par *P, int t, long k)
{
	walk(s, P, t, k, false, false, false);
}

static void alone8v(ff_solver *s, struct ff_par *P, long k)
{
	walk(s, P, 0, k, true, false, true);
}

static void alone4v(ff_solver *s, struct ff_par *P, long k)
{
	walk(s, P, 0, k, false, false, true);
}

static void deferred8v(ff_solver *s, struct ff_par *P)
{
	deferred(s, P, true, false);
}

static void deferred4v(ff_solver *s, struct ff_par *P)
{
	deferred(s, P, false, false);
}

static const ff_par_ops par8 = {walk8, alone8, deferred8, resume8};
static const ff_par_ops par4 = {walk4, alone4, deferred4, resume4};
static const ff_par_ops par8v = {walk8v, alone8v, deferred8v, resume8};
static const ff_par_ops par4v = {walk4v, alone4v, deferred4v, resume4};
