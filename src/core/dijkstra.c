/*
 * dijkstra.c - the exact integration field: Dijkstra over the 8- (or 4-)
 * connected grid with a bucket queue of width 1.
 *
 * Why width 1 is exact: the smallest step costs 1 (a straight step into a
 * cost-1 cell), so settling a cell of bucket k only ever lowers cells into
 * buckets > k; every value in bucket k is final once bucket k is reached,
 * and the order inside a bucket does not matter for the values (a cell's
 * value is the smallest val[m] + step(m -> n) over its lower neighbours m,
 * whatever order they settle in).  The flow direction of a cell is its
 * allowed neighbour with the smallest value, first in FF_DIR_* order on
 * ties; those neighbours all have smaller values than the cell, so they are
 * final when it settles (see solver.c).
 *
 * Walls and the padding border hold INFINITY and their step cost is
 * INFINITY, so the neighbour loop needs no wall test except for the two
 * corner cells of a diagonal, whose costs it has already loaded.  A settled
 * neighbour is never lowered (its value is below v + 1), so relaxing needs
 * no settled test either.
 *
 * The one-shot solve walks each bucket's blocks directly and keeps its
 * counters in registers; stepping and repair go through ffq_pop().  On
 * large levels it settles each bucket with two threads (below).
 */
#include "par.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Lowers neighbour N, of value O, to NV when that is lower.  G == NULL
 * (stepping and repair): queues it at once, reopening it if settled.
 * Else stages it, to be queued by flush(), and without a branch: whether a
 * neighbour is lowered is what a branch predictor cannot guess next to
 * walls, and the guesses it missed took a third of the solve time with
 * random walls.  A cell lowered twice is staged twice; one entry is stale
 * when queued. */
FF_HOT void relax(ff_solver *s, ff_stage *g, int32_t n, double o, double nv)
{
	if (!g) {
		if (nv < o)
			ffq_lower(s, n, o, nv);
		return;
	}
	s->val[n] = nv < o ? nv : o;
	g->c[g->n] = n;
	g->n += nv < o;
}

/* Queues the staged cells at the keys of their values, as MODE says (Q:
 * the settling thread's queue). */
static void flush(ff_solver *s, ff_tq *q, ff_stage *g, int mode)
{
	for (long i = 0; i < g->n; i++)
		ff_par_push(s, q, g->c[i], ffq_key1(s->val[g->c[i]]), mode);
	g->n = 0;
}

/* 0 for an allowed diagonal, INFINITY for a cut corner: added to a value
 * or a step it keeps the arithmetic exact and the loop free of branches. */
static const double corner_pen[2] = {0.0, INFINITY};

/* The direction of the lowest of the eight neighbour values (FF_DIR_*
 * order; the first of equals) if it is below V, else CF_NODIR.  Without
 * branches: written as conditional expressions, the compiler made some of
 * them branches, which mispredict next to walls. */
FF_HOT unsigned lowest(double e, double so, double w, double n, double se,
		       double sw, double nw, double ne, double v)
{
#if defined(__SSE2__)
	/* the minimum, then a mask of the values equal to it */
	const __m128d a = _mm_set_pd(so, e), b = _mm_set_pd(n, w);
	const __m128d c = _mm_set_pd(sw, se), d = _mm_set_pd(ne, nw);
	const __m128d m = _mm_min_pd(_mm_min_pd(a, b), _mm_min_pd(c, d));
	const __m128d lo = _mm_min_sd(m, _mm_unpackhi_pd(m, m));
	const __m128d lo2 = _mm_unpacklo_pd(lo, lo);
	const unsigned eq = (unsigned)_mm_movemask_pd(_mm_cmpeq_pd(a, lo2)) |
			    (unsigned)_mm_movemask_pd(_mm_cmpeq_pd(b, lo2)) << 2 |
			    (unsigned)_mm_movemask_pd(_mm_cmpeq_pd(c, lo2)) << 4 |
			    (unsigned)_mm_movemask_pd(_mm_cmpeq_pd(d, lo2)) << 6;

	return ff_sel(_mm_cvtsd_f64(lo) < v, (unsigned)__builtin_ctz(eq | 0x100u), CF_NODIR);
#else
	const double o[8] = {e, so, w, n, se, sw, nw, ne};
	double best = v;
	unsigned bd = CF_NODIR;

	for (unsigned i = 0; i < 8; i++) {
		bd = ff_sel(o[i] < best, i, bd);
		best = o[i] < best ? o[i] : best;
	}
	return bd;
#endif
}

/* Settles cell C of value V: relaxes its neighbours (G: as relax() says)
 * and returns its flow direction (CF_NODIR for none). */
FF_HOT int settle(ff_solver *s, ff_stage *g, int32_t c, double v, bool eight)
{
	const int32_t W = s->W;
	const uint8_t *cost = s->cost;
	const double *val = s->val;
	const double *os = s->ostep, *ds = s->dstep;
	const unsigned ce = cost[c + 1], cs = cost[c + W], cw = cost[c - 1],
		       cn = cost[c - W];
	const double oe = val[c + 1], oso = val[c + W], ow = val[c - 1], on = val[c - W];
	unsigned bd;

	/* the direction first: relaxing raises no value below v */
	if (eight) {
		const unsigned be = ce == FF_WALL, bs = cs == FF_WALL,
			       bw = cw == FF_WALL, bn = cn == FF_WALL;
		const double pse = corner_pen[be | bs], psw = corner_pen[bw | bs],
			     pnw = corner_pen[bw | bn], pne = corner_pen[be | bn];
		const double ose = val[c + W + 1], osw = val[c + W - 1],
			     onw = val[c - W - 1], one = val[c - W + 1];
		const double dse = ose + pse, dsw = osw + psw, dnw = onw + pnw,
			     dne = one + pne;
		const double sse = ds[cost[c + W + 1]] + pse, ssw = ds[cost[c + W - 1]] + psw,
			     snw = ds[cost[c - W - 1]] + pnw, sne = ds[cost[c - W + 1]] + pne;

		bd = lowest(oe, oso, ow, on, dse, dsw, dnw, dne, v);
		/* each neighbour is written only by its own relax: O stays valid */
		relax(s, g, c + 1, oe, v + os[ce]);
		relax(s, g, c + W, oso, v + os[cs]);
		relax(s, g, c - 1, ow, v + os[cw]);
		relax(s, g, c - W, on, v + os[cn]);
		relax(s, g, c + W + 1, ose, v + sse);
		relax(s, g, c + W - 1, osw, v + ssw);
		relax(s, g, c - W - 1, onw, v + snw);
		relax(s, g, c - W + 1, one, v + sne);
	} else {
		bd = lowest(oe, oso, ow, on, INFINITY, INFINITY, INFINITY, INFINITY, v);
		relax(s, g, c + 1, oe, v + os[ce]);
		relax(s, g, c + W, oso, v + os[cs]);
		relax(s, g, c - 1, ow, v + os[cw]);
		relax(s, g, c - W, on, v + os[cn]);
	}
	return (int)bd;
}

/* Settles cell C of value V with its lowered neighbours staged in G, and
 * queues the stage as MODE says (Q: the settling thread's queue) when it
 * could not take another cell's eight. */
FF_HOT void settle_staged(ff_solver *s, ff_tq *q, ff_stage *g, int32_t c, double v,
			  bool eight, int mode)
{
	const int bd = eight ? settle(s, g, c, v, true) : settle(s, g, c, v, false);

	s->cf[c] = (uint8_t)(bd | FL_SETTLED);
	if (g->n > FF_STAGE - 8)
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

uint8_t ff_dijkstra_dir(const ff_solver *s, int32_t p)
{
	int32_t off[8];
	int nd = s->opts.connectivity == 4 ? 4 : 8, bd = FF_DIR_NONE;
	double best = s->val[p];

	if (s->cost[p] == FF_WALL || !(s->cf[p] & FL_SETTLED))
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

int32_t ff_dijkstra_parent(const ff_solver *s, int32_t p)
{
	int32_t off[8];
	int nd = s->opts.connectivity == 4 ? 4 : 8;
	double v = s->val[p];

	if (v == 0.0 || v == INFINITY || !(s->cf[p] & FL_SETTLED))
		return -1;
	ff_dijkstra_offsets(s, off);
	for (int d = 0; d < nd; d++) {
		int32_t m = p + off[d];
		double step = d < 4 ? s->ostep[s->cost[p]] : s->dstep[s->cost[p]];

		/* the same sum the relaxation stored, so equality is exact */
		if ((s->cf[m] & FL_SETTLED) && ff_dijkstra_step_ok(s, p, d, off) &&
		    s->val[m] + step == v)
			return m;
	}
	return -1;
}

void ff_dijkstra_flow_span(ff_solver *s, int32_t p, int32_t n)
{
	for (int32_t i = 0; i < n; i++)
		ffs_set_dir(s, p + i, ff_dijkstra_dir(s, p + i));
}

/* The one-shot solve: every bucket walked block by block, directions
 * stored as cells settle. */
static void run_fused(ff_solver *s, bool eight)
{
	double *val = s->val;
	uint8_t *cf = s->cf;
	const int32_t bs = s->bs;
	ff_stage g = {s->stage, 0};
	long nset = 0;
	int32_t last = -1;

	/* a stepped solve may stop inside a bucket: resume there */
	while (s->cur_blk >= 0 || ffq_next_bucket(s)) {
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
				settle_staged(s, NULL, &g, c, v, eight, FF_PUSH_ONE);
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

static const ff_par_ops par8, par4;

bool ff_dijkstra_run(ff_solver *s, long n, bool wave)
{
	bool eight = s->opts.connectivity == 8;
	long kmax = LONG_MAX;

	if (s->fused && n < 0 && !wave && !s->track) {
		if (!ff_par_run(s, eight ? &par8 : &par4))
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
		bd = eight ? settle(s, NULL, c, s->val[c], true)
			   : settle(s, NULL, c, s->val[c], false);
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

/* --- two threads (par.h) ---------------------------------------------
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
FF_HOT void walk(ff_solver *s, struct ff_par *P, int t, long k, bool eight, bool all)
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
				settle_staged(s, q, &g, c, v, eight, mode);
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
FF_HOT void deferred(ff_solver *s, struct ff_par *P, bool eight)
{
	ff_tq *q0 = &P->t[0];
	ff_stage g = {q0->stage, 0};

	for (int t = 0; t < 2; t++) {
		const ff_tq *q = &P->t[t];
		for (int32_t i = 0; i < q->ndefer; i++) {
			int32_t c = q->defer[i];
			if (s->cf[c] & FL_SETTLED)
				continue;
			settle_staged(s, q0, &g, c, s->val[c], eight, FF_PUSH_ANY);
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

static void walk8(ff_solver *s, struct ff_par *P, int t, long k) { walk(s, P, t, k, true, false); }
static void walk4(ff_solver *s, struct ff_par *P, int t, long k) { walk(s, P, t, k, false, false); }
static void alone8(ff_solver *s, struct ff_par *P, long k) { walk(s, P, 0, k, true, true); }
static void alone4(ff_solver *s, struct ff_par *P, long k) { walk(s, P, 0, k, false, true); }
static void deferred8(ff_solver *s, struct ff_par *P) { deferred(s, P, true); }
static void deferred4(ff_solver *s, struct ff_par *P) { deferred(s, P, false); }
static void resume8(ff_solver *s, long k) { resume(s, k, true); }
static void resume4(ff_solver *s, long k) { resume(s, k, false); }

static const ff_par_ops par8 = {walk8, alone8, deferred8, resume8};
static const ff_par_ops par4 = {walk4, alone4, deferred4, resume4};
