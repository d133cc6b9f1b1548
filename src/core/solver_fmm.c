/*
 * solver_fmm.c - Fast Marching: the viscosity solution of |grad T| = cost(x) on the
 * 4-neighbour stencil with the first-order upwind quadratic update.
 *
 * Accepted ("known") cells carry FL_SETTLED.  A cell's value is computed
 * from its known neighbours only: with a = the smaller known horizontal
 * value, b = the smaller known vertical one and f the cell's cost, T solves
 * (T-a)^2 + (T-b)^2 = f^2 when |a-b| < f, else T = min(a,b) + f.
 *
 * Ordering: the queue is the solver's bucket queue with buckets of width
 * cmin/8 (cmin = the level's smallest cost), and a bucket is accepted as a
 * group, the group marching of Kim (2001) with Yatziv et al.'s (2006)
 * untidy queue: first every cell of the bucket becomes known (stage 1),
 * then every neighbour of those cells is computed again from its known
 * neighbours (stage 2), and queued in the bucket of its new value but never
 * below the next one.  Accepting a bucket at once lets a cell keep a value
 * computed before a slightly lower cell of its bucket was known.  Near the
 * axes of large levels that adds up: with buckets of cmin/4 the error was
 * 3.9 cells at 1001 x 1001 from the centre against 2.1 with an exact order;
 * with cmin/8 it is 2.1 to first order and 1.0 to second (0.3 exact).
 * Tests measure it against the Euclidean distance on 201^2 and 601^2.
 *
 * A value is always recomputed from scratch, T = update(known neighbours),
 * never the minimum of successive updates, so a cell's value depends only
 * on which neighbours are known, not on the order in which they became
 * known: stepping, the one-shot solve and the two-thread solve (solver_par.c)
 * give the same bytes.  A cell's live queue entry is in bucket
 * max(key(T), k + 1), k the bucket whose stage 2 set T; an entry of bucket
 * j is live when its cell is not known and key(T) <= j.
 *
 * Flow is the upwind -grad T: in x, towards the smaller known horizontal
 * neighbour when it is below T (east on ties), likewise in y.
 */
#include "solver_par.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

FF_HOT double known(const uint8_t *cf, const double *val, int32_t p)
{
	return (cf[p] & FL_SETTLED) ? val[p] : INFINITY;
}

FF_HOT double min2(double x, double y)
{
	return y < x ? y : x;
}

/* T of unknown cell P of cost F from its known neighbours. */
FF_HOT double update(const uint8_t *cf, const double *val, int32_t p, int32_t W,
		     double f)
{
	double a = min2(known(cf, val, p - 1), known(cf, val, p + 1));
	double b = min2(known(cf, val, p - W), known(cf, val, p + W));
	double d;

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

/* One axis of the second-order update of cell P (D: 1 for x, W for y):
 * its lower known neighbour T1 and, when the cell beyond it on the same
 * side is known with T2 <= T1, the one-sided difference (3T - 4T1 + T2) / 2,
 * which makes the axis' term A (T - B)^2 with A = 9/4, B = (4 T1 - T2) / 3;
 * else the first-order A = 1, B = T1; *R = sqrt(A).  INFINITY for T1 and B
 * when neither neighbour is known. */
FF_HOT void axis2(const uint8_t *cf, const double *val, int32_t p, int32_t d,
		  double *t1, double *a, double *r, double *b)
{
	const double lo = known(cf, val, p - d), hi = known(cf, val, p + d);
	/* beyond the lower side; that side is a known cell of the level, so
	 * the cell beyond it lies at worst in the padding border */
	const int32_t q = hi < lo ? p + 2 * d : p - 2 * d;
	const double m = min2(lo, hi);
	const double t2 = m < INFINITY ? known(cf, val, q) : INFINITY;

	*t1 = m;
	if (t2 < INFINITY && t2 <= m) {
		*a = 2.25, *r = 1.5;
		*b = (4.0 * m - t2) / 3.0;
	} else {
		*a = 1.0, *r = 1.0;
		*b = m;
	}
}

/* T of unknown cell P of cost F from its known neighbours, to second
 * order where they allow it (axis2()): the larger root of
 * Ax (T - Bx)^2 + Ay (T - By)^2 = F^2 when it is upwind (not below either
 * axis' T1), else the better one-axis solution B + F / sqrt(A).  Solved in
 * T - min(Bx, By), which keeps the discriminant free of cancellation. */
FF_HOT double update2(const uint8_t *cf, const double *val, int32_t p, int32_t W,
		      double f)
{
	double tx, ax, rx, bx, ty, ay, ry, by;
	double base, ux, uy, sa, sb, disc, t;

	axis2(cf, val, p, 1, &tx, &ax, &rx, &bx);
	axis2(cf, val, p, W, &ty, &ay, &ry, &by);
	ux = bx + f / rx;
	uy = by + f / ry;
	if (bx == INFINITY || by == INFINITY)
		return min2(ux, uy);
	base = min2(bx, by);
	bx -= base, by -= base;
	sa = ax + ay;
	sb = ax * bx + ay * by;
	disc = sb * sb - sa * (ax * bx * bx + ay * by * by - f * f);
	if (disc < 0)
		return min2(ux, uy);
	t = base + (sb + sqrt(disc)) / sa;
	return t < tx || t < ty ? min2(ux, uy) : t;
}

/* Recomputes cell N, if it is unknown, after the known set grew in bucket
 * K; counts it in *NFRONT when it is first reached.  O2: second order. */
FF_HOT void touch(ff_solver *s, ff_tq *q, double *val, int32_t n, long k, int mode,
		  bool o2, long *nfront)
{
	const uint8_t *cf = s->cf;
	double o, t;
	long nk, ok;

	if (s->cost[n] == FF_WALL || (cf[n] & FL_SETTLED))
		return;
	o = val[n];
	t = o2 ? update2(cf, val, n, s->W, s->ostep[s->cost[n]])
	       : update(cf, val, n, s->W, s->ostep[s->cost[n]]);
	if (t == o)
		return;
	val[n] = t;
	nk = ffq_key(s, t);
	nk = nk > k ? nk : k + 1;
	if (o == INFINITY) {
		++*nfront;
	} else {
		ok = ffq_key(s, o);
		if (nk == (ok > k ? ok : k + 1))
			return;
	}
	ff_par_push(s, q, n, nk, mode);
}

/* touch() of the four neighbours of known cell C. */
FF_HOT void touch4(ff_solver *s, ff_tq *q, double *val, int32_t c, long k, int mode,
		   bool o2, long *nfront)
{
	const int32_t W = s->W;

	touch(s, q, val, c + 1, k, mode, o2, nfront);
	touch(s, q, val, c + W, k, mode, o2, nfront);
	touch(s, q, val, c - 1, k, mode, o2, nfront);
	touch(s, q, val, c - W, k, mode, o2, nfront);
}

/* Stage 1 over the chain of bucket B (key K) from entry *I of block *BLK:
 * accepts at most *LEFT live cells (*LEFT < 0: no limit) and lists them at
 * the front of the chain from position (*WB, *WP), which never passes the
 * reading position.  Stops at the chain's end or when *LEFT reaches 0;
 * returns the cells accepted and updates *LAST. */
FF_HOT long accept_chain(ff_solver *s, const ff_bucket *b, long k, int32_t *blk_,
			 int32_t *i_, int32_t *wb_, int32_t *wp_, long *left_, int32_t *last_)
{
	uint8_t *cf = s->cf;
	const double *val = s->val;
	int32_t *ent = s->ent;
	const int32_t bs = s->bs;
	int32_t blk = *blk_, i = *i_, wb = *wb_, wp = *wp_, last = *last_;
	long left = *left_, nset = 0;

	for (;;) {
		const int32_t *e = ent + (size_t)blk * (size_t)bs;
		const int32_t lim = blk == b->tail ? b->fill : bs;
		for (; i < lim && left != 0; i++) {
			const int32_t c = e[i];
			if ((cf[c] & FL_SETTLED) || ffq_key(s, val[c]) > k)
				continue;
			cf[c] |= FL_SETTLED;
			if (wp == bs)
				wb = s->bnext[wb], wp = 0;
			ent[(size_t)wb * (size_t)bs + (size_t)wp++] = c;
			nset++;
			last = c;
			left--;
		}
		if (i < lim || blk == b->tail)
			break;
		blk = s->bnext[blk], i = 0;
	}
	*blk_ = blk, *i_ = i, *wb_ = wb, *wp_ = wp, *left_ = left, *last_ = last;
	return nset;
}

/* Stage 2 over the cells stage 1 listed at the front of bucket B's chain
 * (up to position WB, WP): each updates its unknown neighbours.  MARGIN > 0:
 * cells that near a band edge are deferred to Q's list instead. */
FF_HOT void spread_chain(ff_solver *s, ff_tq *q, const ff_bucket *b, int32_t wb,
			 int32_t wp, long k, int mode, int margin, bool o2, long *nfront)
{
	const int32_t bs = s->bs;
	double *val = s->val;

	for (int32_t blk = b->head; wp > 0; blk = s->bnext[blk]) {
		const int32_t *e = s->ent + (size_t)blk * (size_t)bs;
		const int32_t lim = blk == wb ? wp : bs;
		for (int32_t i = 0; i < lim; i++) {
			const int32_t c = e[i];
			if (margin && ff_par_edge(s, c, margin)) {
				if (q->ndefer < q->cap)     /* always (solver_par.c) */
					q->defer[q->ndefer++] = c;
				else                        /* start again */
					q->lost = true;
				continue;
			}
			touch4(s, q, val, c, k, mode, o2, nfront);
		}
		if (blk == wb)
			break;
	}
}

/* Stage 1 of bucket kcur from the queue's iterator (acc_blk, acc_pos: the
 * end of the list of accepted cells so far): accepts at most *N live cells
 * (*N < 0: no limit); true when the bucket's list is done. */
static bool accept(ff_solver *s, long *n)
{
	const ff_bucket *b = &s->ring[s->kcur & FF_RING_MASK];
	long nset;

	if (s->acc_blk < 0)
		s->acc_blk = b->head, s->acc_pos = 0;
	nset = accept_chain(s, b, s->kcur, &s->cur_blk, &s->cur_pos, &s->acc_blk,
			    &s->acc_pos, n, &s->last);
	s->settled += nset;
	s->frontier -= nset;
	return s->cur_blk == b->tail && s->cur_pos == b->fill;
}

/* Stage 2 of bucket kcur, then the bucket is freed. */
static void spread(ff_solver *s)
{
	const ff_bucket *b = &s->ring[s->kcur & FF_RING_MASK];
	long used = 0, nfront = 0;

	for (int32_t blk = b->head; blk >= 0; blk = blk == b->tail ? -1 : s->bnext[blk])
		used += blk == b->tail ? b->fill : s->bs;
	if (s->opts.order == 2)
		spread_chain(s, NULL, b, s->acc_blk, s->acc_pos, s->kcur, FF_PUSH_ONE, 0, true,
			     &nfront);
	else
		spread_chain(s, NULL, b, s->acc_blk, s->acc_pos, s->kcur, FF_PUSH_ONE, 0, false,
			     &nfront);
	s->frontier += nfront;
	s->acc_blk = -1;
	s->qcount -= used;
	ffq_drop_current(s);
}

static bool run_one(ff_solver *s, long n, bool wave)
{
	for (;;) {
		if (s->cur_blk < 0 && !ffq_next_bucket(s))
			return true;
		if (!accept(s, &n))
			return false;
		spread(s);
		if (wave || n == 0)
			return false;
		if (ffs_wanted_done(s))
			return true;
	}
}

/* --- two threads (solver_par.h) ---------------------------------------------
 *
 * Stage 1 of a cell writes only the cell; stage 2 reads and writes its
 * neighbours and reads theirs: a margin of two rows (three to second
 * order, whose update reads two cells away).  Each thread accepts
 * the cells of its own ring, then spreads those not near a band edge; the
 * main thread spreads the rest after the round.  A cell's value depends
 * only on which of its neighbours are known when it is last recomputed,
 * which is after every acceptance of the bucket either way, so the values
 * are the bytes of a one-thread solve.  A thread defers only cells it
 * accepted in this bucket, each once, all within the margin rows of its
 * own bands (ff_par_run starts only fresh solves), so its list (solver_par.c)
 * cannot overflow; if it did, the integration would start again on one
 * thread. */

/* Thread T's part of bucket K (ALL: the main thread alone, both rings,
 * nothing deferred); O2: second order. */
FF_HOT void walk(ff_solver *s, struct ff_par *P, int t, long k, bool all, bool o2)
{
	ff_tq *q = &P->t[t];
	const int r0 = all ? 0 : t, r1 = all ? 1 : t;
	int32_t wb[2], wp[2];

	for (int r = r0; r <= r1; r++) {
		const ff_bucket *b = &P->t[r].ring[k & FF_RING_MASK];
		int32_t blk = b->head, i = 0;
		long left = -1;
		wb[r] = b->head, wp[r] = 0;
		if (b->head >= 0)
			q->nset += accept_chain(s, b, k, &blk, &i, &wb[r], &wp[r], &left, &q->last);
	}
	for (int r = r0; r <= r1; r++)
		spread_chain(s, q, &P->t[r].ring[k & FF_RING_MASK], wb[r], wp[r], k,
			     all ? FF_PUSH_ANY : FF_PUSH_OWN, all ? 0 : o2 ? 3 : 2, o2,
			     &q->nfront);
}

static void walk_thread(ff_solver *s, struct ff_par *P, int t, long k)
{
	if (s->opts.order == 2)
		walk(s, P, t, k, false, true);
	else
		walk(s, P, t, k, false, false);
}

static void walk_alone(ff_solver *s, struct ff_par *P, long k)
{
	if (s->opts.order == 2)
		walk(s, P, 0, k, true, true);
	else
		walk(s, P, 0, k, true, false);
}

/* The cells both threads deferred in this round, spread by the main
 * thread. */
static void spread_deferred(ff_solver *s, struct ff_par *P)
{
	const bool o2 = s->opts.order == 2;
	ff_tq *q0 = &P->t[0];
	const long k = P->k;
	double *val = s->val;

	for (int t = 0; t < 2; t++) {
		const ff_tq *q = &P->t[t];
		for (int32_t i = 0; i < q->ndefer; i++)
			touch4(s, q0, val, q->defer[i], k, FF_PUSH_ANY, o2, &q0->nfront);
	}
}

/* After a lost push: the whole integration again on one thread (no
 * ordinary level gets here; the values are the same either way). */
static void resume(ff_solver *s, long k)
{
	(void)k;
	s->settled = s->frontier = 0;
	s->last = -1;
	ff_solver_seed(s);
	run_one(s, -1, false);
}

static const ff_par_ops par_ops = {walk_thread, walk_alone, spread_deferred, resume};

bool ff_fmm_run(ff_solver *s, long n, bool wave)
{
	if (n < 0 && !wave && ff_par_run(s, &par_ops))
		return true;
	return run_one(s, n, wave);
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

int ff_fmm_sources(const ff_solver *s, int32_t p, int32_t m[2])
{
	const int32_t W = s->W, h = known(s->cf, s->val, p + 1) <= known(s->cf, s->val, p - 1) ?
				    p + 1 : p - 1;
	const int32_t v = known(s->cf, s->val, p + W) <= known(s->cf, s->val, p - W) ?
			  p + W : p - W;
	const double t = s->val[p];
	int n = 0;

	if (!(s->cf[p] & FL_SETTLED) || t == 0.0)
		return 0;
	/* the smaller neighbour of each axis, when it is known and below the
	 * cell (exactly the axes the update solved with), the lower first */
	if (known(s->cf, s->val, h) < t)
		m[n++] = h;
	if (known(s->cf, s->val, v) < t) {
		m[n++] = v;
		if (n == 2 && s->val[v] < s->val[h])
			m[0] = v, m[1] = h;
	}
	return n;
}

void ff_fmm_grad(const ff_solver *s, int32_t p, float *dx, float *dy)
{
	const int32_t W = s->W;

	*dx = *dy = 0.0f;
	if (!(s->cf[p] & FL_SETTLED))
		return;
	grad_of(s->val[p], known(s->cf, s->val, p + 1), known(s->cf, s->val, p - 1),
		known(s->cf, s->val, p + W), known(s->cf, s->val, p - W), dx, dy);
}

/* The 8-way arrow, for display and agents: among the allowed neighbours
 * whose T (nine values, FF_DIR_* order, then the cell's own; INFINITY where
 * not accepted) is below the cell's, the one best aligned with -grad T
 * (largest dot product), the first in FF_DIR_* order on ties.
 *
 * Only three candidates can win, those of -grad T's quadrant: with
 * g = -grad T = (gx, gy), gx > 0 say, the east neighbour is below T (so
 * allowed, with dot product gx), and every direction outside the quadrant
 * scores less than one inside it ((gx - gy)/sqrt 2 < gx for gx, gy >= 0).
 * The diagonal of the quadrant also needs its own T below the cell's; its
 * two orthogonal cells, being below T, are passable.  A reached cell other
 * than a goal has a lower orthogonal neighbour, so g is never zero there.
 * Written with few conditional expressions on doubles, which the compiler
 * would turn into unpredictable branches. */
FF_HOT uint8_t dir_of(const double t[9])
{
	static const uint8_t diag[4] = {FF_DIR_SE, FF_DIR_SW, FF_DIR_NE, FF_DIR_NW};
	const double v = t[8];
	const double te = t[FF_DIR_E], ts = t[FF_DIR_S], tw = t[FF_DIR_W], tn = t[FF_DIR_N];
	const double ax = v - min2(te, tw), ay = v - min2(ts, tn);
	const unsigned west = te > tw, north = ts > tn, q = west | north << 1;
	const unsigned hx = ax > 0.0, hy = ay > 0.0;
	const unsigned xi = west ? FF_DIR_W : FF_DIR_E, yi = north ? FF_DIR_N : FF_DIR_S;
	const unsigned di = diag[q];
	const double sd = (ax + ay) * 0.70710678118654752;
	/* the orthogonal winner: the larger, the lower index on a tie */
	const unsigned xwins = (ax > ay) | ((ax == ay) & (xi < yi));
	const unsigned dok = hx & hy & (t[di] < v) & (sd > ax) & (sd > ay);

	return (uint8_t)ff_sel(dok, di, ff_sel(hx | hy, ff_sel(xwins, xi, yi), CF_NODIR));
}

#if defined(__SSE2__)
/* C ? A : B, lane by lane, for masks C of all ones or all zeros */
FF_HOT __m128i sel2(__m128d c, __m128i a, __m128i b)
{
	const __m128i m = _mm_castpd_si128(c);

	return _mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b));
}

FF_HOT __m128d sel2d(__m128d c, __m128d a, __m128d b)
{
	return _mm_or_pd(_mm_and_pd(c, a), _mm_andnot_pd(c, b));
}

/* dir_of() of the two cells at V[0], V[1], the neighbours' values at the
 * same offsets: the same comparisons on the same doubles, lane by lane,
 * and CF_NODIR unless the cell's value is neither INFINITY nor 0. */
FF_HOT __m128i dir_of2(const double *v, int32_t W)
{
#define D(d) _mm_set1_epi64x(d)
	const __m128d t = _mm_loadu_pd(v), te = _mm_loadu_pd(v + 1), tw = _mm_loadu_pd(v - 1);
	const __m128d ts = _mm_loadu_pd(v + W), tn = _mm_loadu_pd(v - W);
	const __m128d zero = _mm_setzero_pd();
	const __m128d ax = _mm_sub_pd(t, _mm_min_pd(tw, te)), ay = _mm_sub_pd(t, _mm_min_pd(tn, ts));
	const __m128d west = _mm_cmpgt_pd(te, tw), north = _mm_cmpgt_pd(ts, tn);
	const __m128d hx = _mm_cmpgt_pd(ax, zero), hy = _mm_cmpgt_pd(ay, zero);
	const __m128d td = sel2d(west, sel2d(north, _mm_loadu_pd(v - W - 1), _mm_loadu_pd(v + W - 1)),
				 sel2d(north, _mm_loadu_pd(v - W + 1), _mm_loadu_pd(v + W + 1)));
	const __m128d sd = _mm_mul_pd(_mm_add_pd(ax, ay), _mm_set1_pd(0.70710678118654752));
	const __m128d dok = _mm_and_pd(_mm_and_pd(_mm_and_pd(hx, hy), _mm_cmplt_pd(td, t)),
				       _mm_and_pd(_mm_cmpgt_pd(sd, ax), _mm_cmpgt_pd(sd, ay)));
	/* xi < yi unless xi is W and yi is S */
	const __m128d xfirst = _mm_or_pd(_mm_andnot_pd(west, _mm_cmpeq_pd(zero, zero)), north);
	const __m128d xwins = _mm_or_pd(_mm_cmpgt_pd(ax, ay), _mm_and_pd(_mm_cmpeq_pd(ax, ay), xfirst));
	const __m128i xi = sel2(west, D(FF_DIR_W), D(FF_DIR_E));
	const __m128i yi = sel2(north, D(FF_DIR_N), D(FF_DIR_S));
	const __m128i di = sel2(west, sel2(north, D(FF_DIR_NW), D(FF_DIR_SW)),
				sel2(north, D(FF_DIR_NE), D(FF_DIR_SE)));
	const __m128d ok = _mm_and_pd(_mm_cmpneq_pd(t, _mm_set1_pd(INFINITY)), _mm_cmpneq_pd(t, zero));
	const __m128i d = sel2(dok, di, sel2(_mm_or_pd(hx, hy), sel2(xwins, xi, yi), D(CF_NODIR)));

	return sel2(ok, d, D(CF_NODIR));
#undef D
}
#endif

/* After the integration every reached cell is known and every other one
 * holds INFINITY, so known() is the value itself.  Reads values, writes
 * only each cell's own cf byte, so two threads may share the rows
 * (solver.c).  Two cells at a time where SSE2 is there. */
void ff_fmm_flow_span(ff_solver *s, int32_t p, int32_t n)
{
	const int32_t W = s->W;
	const double *val = s->val;
	uint8_t *cf = s->cf;
	int32_t i = p;

#if defined(__SSE2__)
	for (; i + 2 <= p + n; i += 2) {
		const __m128i d = dir_of2(val + i, W);
		cf[i] = (uint8_t)((cf[i] & ~CF_DIR) | _mm_cvtsi128_si32(d));
		cf[i + 1] = (uint8_t)((cf[i + 1] & ~CF_DIR) |
				      _mm_cvtsi128_si32(_mm_unpackhi_epi64(d, d)));
	}
#endif
	for (; i < p + n; i++) {
		const double t[9] = {val[i + 1], val[i + W], val[i - 1], val[i - W],
				     val[i + W + 1], val[i + W - 1], val[i - W - 1],
				     val[i - W + 1], val[i]};
		/* computed for every cell, used for reached ones: no branch */
		const unsigned d = ff_sel((t[8] != INFINITY) & (t[8] != 0.0), dir_of(t), CF_NODIR);
		cf[i] = (uint8_t)((cf[i] & ~CF_DIR) | d);
	}
}
