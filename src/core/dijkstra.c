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
#define _POSIX_C_SOURCE 200809L    /* pthreads, sched_yield, sysconf */

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "solver_int.h"

/* How a settle queues the cells it lowers: through ffq_lower() (stepping,
 * repair: cells may be reopened), ffq_push() (the one-shot solve), or the
 * thread queues of a two-thread solve (PUSH_OWN: the settling thread's own;
 * PUSH_ANY: the main thread while the worker waits). */
enum { PUSH_LOWER, PUSH_FAST, PUSH_OWN, PUSH_ANY };

#define FF_BAND 128                 /* rows per band; a power of two */
#define FF_DEFER 1024              /* deferred cells per thread and round */
#define FF_PAR_MIN_ENTRIES 256     /* smaller buckets: the main thread alone */

/* One thread's queue and its progress through the current bucket. */
typedef struct tq {
	_Alignas(64) ff_bucket *ring;       /* thread 0: s->ring */
	int32_t freeblk, fresh, lim;        /* its blocks: [first, lim) */
	bool lost;                          /* a push was dropped */
	long nset, nfront;
	int32_t last;
	int chain;                          /* the ring being walked; past the last: done */
	int32_t blk, pos;
	int32_t ndefer, defer[FF_DEFER];
} tq;

struct ff_par {
	ff_solver *s;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	_Alignas(64) atomic_uint epoch;     /* bumped to start the worker */
	atomic_int sleeping;                /* the worker waits on cv */
	_Alignas(64) atomic_uint done;      /* the epoch the worker finished */
	_Alignas(64) long k;                /* the bucket of this round */
	bool eight, quit;
	bool alone;                         /* the worker lagged: one thread */
	tq t[2];
	ff_bucket ring1[FF_RING];           /* thread 1's ring */
};

/* Appends C to bucket K of the ring of thread queue R with a block of A's
 * part of the pool; marks A lost when there is no block or K is not above
 * kcur. */
FF_HOT void tq_push_to(ff_solver *s, tq *r, tq *a, int32_t c, long k)
{
	ff_bucket *b = &r->ring[k & FF_RING_MASK];

	if (k <= s->kcur || k - s->kcur >= FF_RING) {
		a->lost = true;
		return;
	}
	if (b->fill == s->bs || b->tail < 0) {
		int32_t nb = a->freeblk;
		if (nb >= 0)
			a->freeblk = s->bnext[nb];
		else if (a->fresh < a->lim)
			nb = a->fresh++;
		else {
			a->lost = true;
			return;
		}
		if (b->tail >= 0)
			s->bnext[b->tail] = nb;
		else
			b->head = nb;
		b->tail = nb;
		b->fill = 0;
	}
	s->ent[(size_t)b->tail * (size_t)s->bs + (size_t)b->fill++] = c;
}

FF_HOT void tq_push(ff_solver *s, tq *q, int32_t c, long k)
{
	tq_push_to(s, q, q, c, k);
}

/* The thread owning cell C (the parity of its band). */
static inline int owner(const ff_solver *s, int32_t c)
{
	return (int)((((uint64_t)c * s->wmagic) >> 40) / FF_BAND) & 1;
}

/* The main thread alone (the worker waits): into the ring of the thread
 * that owns C, with a block of that thread's part of the pool, else of the
 * other's when it is used up. */
static void tq_push_any(ff_solver *s, int32_t c, long k)
{
	tq *q = s->par->t, *r = &q[owner(s, c)], *o = &q[r == q];

	if (r->freeblk < 0 && r->fresh == r->lim && (o->freeblk >= 0 || o->fresh < o->lim))
		tq_push_to(s, r, o, c, k);
	else
		tq_push_to(s, r, r, c, k);
}

/* Relaxes neighbour N, of value O, to NV when lower. */
FF_HOT void relax(ff_solver *s, tq *q, double *val, int32_t n, double o,
		  double nv, long *nfront, int mode)
{
	long k;

	if (!(nv < o))
		return;
	if (mode == PUSH_LOWER) {
		ffq_lower(s, n, o, nv);
		return;
	}
	val[n] = nv;
	k = ffq_key1(nv);
	if (o == INFINITY)
		++*nfront;
	else if (k == ffq_key1(o))
		return;
	if (mode == PUSH_FAST)
		ffq_push(s, n, k);
	else if (mode == PUSH_OWN)
		tq_push(s, q, n, k);
	else
		tq_push_any(s, n, k);
}

/* 0 for an allowed diagonal, INFINITY for a cut corner: added to a value
 * or a step it keeps the arithmetic exact and the loop free of branches. */
static const double corner_pen[2] = {0.0, INFINITY};

/* Settles cell C of value V: relaxes its neighbours and returns its flow
 * direction (CF_NODIR for none).  MODE: how lowered cells are queued. */
FF_HOT int settle(ff_solver *s, tq *q, int32_t c, double v, bool eight,
		  int mode, long *nfront)
{
	const int32_t W = s->W;
	const uint8_t *cost = s->cost;
	double *val = s->val;
	const double *os = s->ostep, *ds = s->dstep;
	const unsigned ce = cost[c + 1], cs = cost[c + W], cw = cost[c - 1],
		       cn = cost[c - W];
	const double oe = val[c + 1], oso = val[c + W], ow = val[c - 1], on = val[c - W];
	double best = v;
	int bd = CF_NODIR;

	/* the direction first: relaxing raises no value below v */
	bd = oe < best ? FF_DIR_E : bd, best = oe < best ? oe : best;
	bd = oso < best ? FF_DIR_S : bd, best = oso < best ? oso : best;
	bd = ow < best ? FF_DIR_W : bd, best = ow < best ? ow : best;
	bd = on < best ? FF_DIR_N : bd, best = on < best ? on : best;
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

		bd = dse < best ? FF_DIR_SE : bd, best = dse < best ? dse : best;
		bd = dsw < best ? FF_DIR_SW : bd, best = dsw < best ? dsw : best;
		bd = dnw < best ? FF_DIR_NW : bd, best = dnw < best ? dnw : best;
		bd = dne < best ? FF_DIR_NE : bd;
		/* each neighbour is written only by its own relax: O stays valid */
		relax(s, q, val, c + 1, oe, v + os[ce], nfront, mode);
		relax(s, q, val, c + W, oso, v + os[cs], nfront, mode);
		relax(s, q, val, c - 1, ow, v + os[cw], nfront, mode);
		relax(s, q, val, c - W, on, v + os[cn], nfront, mode);
		relax(s, q, val, c + W + 1, ose, v + sse, nfront, mode);
		relax(s, q, val, c + W - 1, osw, v + ssw, nfront, mode);
		relax(s, q, val, c - W - 1, onw, v + snw, nfront, mode);
		relax(s, q, val, c - W + 1, one, v + sne, nfront, mode);
	} else {
		relax(s, q, val, c + 1, oe, v + os[ce], nfront, mode);
		relax(s, q, val, c + W, oso, v + os[cs], nfront, mode);
		relax(s, q, val, c - 1, ow, v + os[cw], nfront, mode);
		relax(s, q, val, c - W, on, v + os[cn], nfront, mode);
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
	long nset = 0, nfront = 0;
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
				int bd;
				if (ffq_key1(v) != k || (cf[c] & FL_SETTLED))
					continue;
				bd = eight ? settle(s, NULL, c, v, true, PUSH_FAST, &nfront)
					   : settle(s, NULL, c, v, false, PUSH_FAST, &nfront);
				cf[c] = (uint8_t)(bd | FL_SETTLED);
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
		s->qcount -= used;
		ffq_drop_current(s);
	}
	s->settled += nset;
	s->frontier += nfront - nset;
	if (last >= 0)
		s->last = last;
}

static bool run_par(ff_solver *s, bool eight);

bool ff_dijkstra_run(ff_solver *s, long n, bool wave)
{
	bool eight = s->opts.connectivity == 8;
	long kmax = LONG_MAX;

	if (s->fused && n < 0 && !wave && !s->track) {
		if (!run_par(s, eight))
			run_fused(s, eight);
		return true;
	}
	while (n != 0) {
		int32_t c = ffq_pop(s, kmax);
		long nfront = 0;
		int bd;

		if (c == -1)
			return true;
		if (c == -2)
			return false;
		if (wave)
			kmax = s->kcur;
		bd = eight ? settle(s, NULL, c, s->val[c], true, PUSH_LOWER, &nfront)
			   : settle(s, NULL, c, s->val[c], false, PUSH_LOWER, &nfront);
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

/* --- two threads --------------------------------------------------------
 *
 * The one-shot solve of a large level settles each bucket with two threads.
 * Cells of one bucket are independent (see the top of the file), so only
 * the memory they touch must be kept apart: the grid is cut into bands of
 * FF_BAND rows; even bands belong to the main thread (thread 0), odd ones
 * to the worker.  A cell in the inner rows of a band reads and writes only
 * cells of its own band, so the threads share no cell; the cells of a
 * band's first and last rows are deferred and settled by the main thread
 * while the worker waits.  Each thread has its own ring of buckets and half
 * of the block pool, and a ring holds only cells of its thread's bands: a
 * thread settling its inner cells lowers only its own cells, and the main
 * thread alone (deferred cells, buckets under FF_PAR_MIN_ENTRIES, bucket 0
 * with the goals) queues each cell in its owner's ring.  So in a round each
 * thread walks its own ring's chain for the bucket, then hands over
 * (an epoch counter, spin then condition variable; about 1,500 rounds at
 * 1024 x 1024).  When the main thread has to yield its core to wait for
 * the worker (another program holds the other core), the rest of the solve
 * runs on the main thread alone.
 *
 * Values are the same bytes as with one thread: a cell's value is the
 * smallest of the same sums whatever their order, and each direction is
 * chosen from final values; settled and frontier are counts of the same
 * cells.  Only the order of the queue differs, which changes nothing but
 * `last` (a cell of the last bucket either way).
 *
 * A thread queue that runs out of blocks, or a key that would land in the
 * bucket being settled (keys clamped at FF_KEY_MAX), marks it lost: the
 * bucket is finished, and the solve goes on with one thread after the grid
 * is scanned for reached, unsettled cells (the spill path of bucketq.c), so
 * nothing is lost but time.
 *
 * Rows come from p / W = (p * wmagic) >> 40 with wmagic = 2^40 / W + 1:
 * the error p * (wmagic - 2^40 / W) / 2^40 < 2^25 / 2^40 < 1 / W (p < 2^25
 * and W < 2^13 for levels up to 4096 x 4096), so the floor is exact. */

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

enum { SPIN = 1 << 14 };

/* The worker: waits for the epoch to move past SEEN; returns the new one. */
static unsigned wait_epoch(struct ff_par *P, unsigned seen)
{
	unsigned e;

	for (int i = 0; i < SPIN; i++) {
		e = atomic_load_explicit(&P->epoch, memory_order_acquire);
		if (e != seen)
			return e;
		cpu_relax();
	}
	pthread_mutex_lock(&P->mu);
	atomic_store(&P->sleeping, 1);
	while ((e = atomic_load(&P->epoch)) == seen)
		pthread_cond_wait(&P->cv, &P->mu);
	atomic_store(&P->sleeping, 0);
	pthread_mutex_unlock(&P->mu);
	return e;
}

/* The main thread: starts a round of the worker; returns its epoch.  The
 * seq_cst pair (epoch, sleeping) against the worker's (sleeping, epoch)
 * means one of the two always sees the other. */
static unsigned kick(struct ff_par *P)
{
	unsigned e = atomic_fetch_add(&P->epoch, 1) + 1;

	if (atomic_load(&P->sleeping)) {
		pthread_mutex_lock(&P->mu);
		pthread_cond_signal(&P->cv);
		pthread_mutex_unlock(&P->mu);
	}
	return e;
}

/* The main thread: waits for the worker to finish round E; false when it
 * had to yield its core for that (the worker was not running). */
static bool wait_done(struct ff_par *P, unsigned e)
{
	bool quick = true;

	for (unsigned i = 0; atomic_load_explicit(&P->done, memory_order_acquire) != e; i++) {
		cpu_relax();
		if (i >= SPIN) {
			sched_yield();
			quick = false;
		}
	}
	return quick;
}

/* Thread T's part of a round of bucket K: settles the cells of its ring
 * (which are its own) in the inner rows of its bands, defers those of the
 * first and last rows; stops early when the deferred list is full (its
 * position is kept for the next round).  ALL (the main thread alone, the
 * worker waiting): both rings, every live cell, nothing deferred. */
FF_HOT void walk(ff_solver *s, struct ff_par *P, int t, long k, bool eight, bool all)
{
	tq *q = &P->t[t];
	const double *val = s->val;
	uint8_t *cf = s->cf;
	const uint64_t magic = s->wmagic;
	const int32_t bs = s->bs;
	const int mode = all ? PUSH_ANY : PUSH_OWN, cend = all ? 2 : t + 1;
	long nset = 0, nfront = 0;
	int32_t last = q->last;

	for (; q->chain < cend; q->chain++, q->blk = -2) {
		const ff_bucket *b = &P->t[q->chain].ring[k & FF_RING_MASK];
		if (q->blk == -2)
			q->blk = b->head, q->pos = 0;
		for (; q->blk >= 0; q->blk = q->blk == b->tail ? -1 : s->bnext[q->blk], q->pos = 0) {
			const int32_t *e = s->ent + (size_t)q->blk * (size_t)bs;
			const int32_t lim = q->blk == b->tail ? b->fill : bs;
			for (int32_t i = q->pos; i < lim; i++) {
				const int32_t c = e[i];
				const double v = val[c];
				int bd;
				if (ffq_key1(v) != k || (cf[c] & FL_SETTLED))
					continue;
				if (!all && ((uint32_t)(((uint64_t)c * magic) >> 40) % FF_BAND) - 1 >=
						    FF_BAND - 2) {
					if (q->ndefer == FF_DEFER) {
						q->pos = i;
						goto out;
					}
					q->defer[q->ndefer++] = c;
					continue;
				}
				bd = eight ? settle(s, q, c, v, true, mode, &nfront)
					   : settle(s, q, c, v, false, mode, &nfront);
				cf[c] = (uint8_t)(bd | FL_SETTLED);
				nset++;
				last = c;
			}
		}
	}
out:
	q->nset += nset;
	q->nfront += nfront;
	q->last = last;
}

static void walk_thread(ff_solver *s, struct ff_par *P, int t, long k, bool eight)
{
	if (eight)
		walk(s, P, t, k, true, false);
	else
		walk(s, P, t, k, false, false);
}

static void *worker(void *arg)
{
	struct ff_par *P = arg;
	unsigned seen = 0;

	for (;;) {
		seen = wait_epoch(P, seen);
		if (P->quit)
			return NULL;
		walk_thread(P->s, P, 1, P->k, P->eight);
		atomic_store_explicit(&P->done, seen, memory_order_release);
	}
}

struct ff_par *ff_par_create(ff_solver *s)
{
	struct ff_par *P;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return NULL;
	P = aligned_alloc(64, (sizeof *P + 63) / 64 * 64);
	if (!P)
		return NULL;
	memset(P, 0, sizeof *P);
	P->s = s;
	atomic_init(&P->epoch, 0);
	atomic_init(&P->done, 0);
	atomic_init(&P->sleeping, 0);
	if (pthread_mutex_init(&P->mu, NULL))
		goto fail_free;
	if (pthread_cond_init(&P->cv, NULL))
		goto fail_mutex;
	if (pthread_create(&P->th, NULL, worker, P))
		goto fail_cond;
	return P;
fail_cond:
	pthread_cond_destroy(&P->cv);
fail_mutex:
	pthread_mutex_destroy(&P->mu);
fail_free:
	free(P);
	return NULL;
}

void ff_par_destroy(struct ff_par *P)
{
	if (!P)
		return;
	P->quit = true;
	kick(P);
	pthread_join(P->th, NULL);
	pthread_cond_destroy(&P->cv);
	pthread_mutex_destroy(&P->mu);
	free(P);
}

size_t ff_par_bytes(const struct ff_par *P)
{
	return P ? sizeof *P : 0;
}

/* The first non-empty bucket from K in either ring, or -1. */
static long next_key(struct ff_par *P, long k)
{
	for (long j = k; j < k + FF_RING; j++)
		if (P->t[0].ring[j & FF_RING_MASK].head >= 0 ||
		    P->t[1].ring[j & FF_RING_MASK].head >= 0)
			return j;
	return -1;
}

/* Entries in bucket K of both rings, counted up to LIMIT. */
static long bucket_entries(const ff_solver *s, struct ff_par *P, long k, long limit)
{
	long n = 0;

	for (int r = 0; r < 2 && n < limit; r++) {
		const ff_bucket *b = &P->t[r].ring[k & FF_RING_MASK];
		for (int32_t blk = b->head; blk >= 0 && n < limit;
		     blk = blk == b->tail ? -1 : s->bnext[blk])
			n += blk == b->tail ? b->fill : s->bs;
	}
	return n;
}

/* Settles the cells both threads deferred in this round. */
static void settle_deferred(ff_solver *s, struct ff_par *P, bool eight)
{
	tq *q0 = &P->t[0];

	for (int t = 0; t < 2; t++) {
		tq *q = &P->t[t];
		for (int32_t i = 0; i < q->ndefer; i++) {
			int32_t c = q->defer[i];
			int bd;
			if (s->cf[c] & FL_SETTLED)
				continue;
			bd = eight ? settle(s, q0, c, s->val[c], true, PUSH_ANY, &q0->nfront)
				   : settle(s, q0, c, s->val[c], false, PUSH_ANY, &q0->nfront);
			s->cf[c] = (uint8_t)(bd | FL_SETTLED);
			q0->nset++;
			q0->last = c;
		}
		q->ndefer = 0;
	}
}

/* Bucket K, in rounds of both threads or by the main thread alone. */
static void par_bucket(ff_solver *s, struct ff_par *P, long k, bool eight)
{
	tq *q0 = &P->t[0], *q1 = &P->t[1];

	q0->blk = q1->blk = -2;
	/* bucket 0 holds the goals, all queued in ring 0 by ff_solver_seed() */
	if (k == 0 || P->alone ||
	    bucket_entries(s, P, k, FF_PAR_MIN_ENTRIES) < FF_PAR_MIN_ENTRIES) {
		q0->chain = 0;
		if (eight)
			walk(s, P, 0, k, true, true);
		else
			walk(s, P, 0, k, false, true);
		return;
	}
	q0->chain = 0;
	q1->chain = 1;
	while (q0->chain < 1 || q1->chain < 2) {
		unsigned e;
		P->k = k;
		P->eight = eight;
		e = kick(P);
		s->par_rounds++;
		walk_thread(s, P, 0, k, eight);
		/* another program holds the other core: rounds would wait for
		 * it, so the rest of this solve runs on this thread */
		if (!wait_done(P, e))
			P->alone = true;
		settle_deferred(s, P, eight);
	}
}

static void free_bucket(ff_solver *s, tq *q, long k)
{
	ff_bucket *b = &q->ring[k & FF_RING_MASK];

	if (b->head >= 0) {
		s->bnext[b->tail] = q->freeblk;
		q->freeblk = b->head;
	}
	*b = (ff_bucket){-1, -1, 0};
}

/* The one-shot solve with two threads; false when it does not apply (a
 * resumed solve, a spilled or overflowing queue, a crowded pool), with S
 * unchanged. */
static bool run_par(ff_solver *s, bool eight)
{
	struct ff_par *P = s->par;
	tq *q0, *q1;
	long k = s->kcur;
	bool lost = false;

	if (!P || s->threads == 1 || s->cur_blk >= 0 || s->klim != LONG_MAX ||
	    s->ovf.head >= 0 || s->fresh >= s->nblk / 4)
		return false;
	q0 = &P->t[0], q1 = &P->t[1];
	P->alone = false;
	*q0 = (tq){.ring = s->ring, .freeblk = s->freeblk, .fresh = s->fresh,
		   .lim = s->nblk / 2, .last = -1};
	*q1 = (tq){.ring = P->ring1, .freeblk = -1, .fresh = s->nblk / 2,
		   .lim = s->nblk, .last = -1};
	for (int i = 0; i < FF_RING; i++)
		P->ring1[i] = (ff_bucket){-1, -1, 0};
	while (!lost && (k = next_key(P, k)) >= 0) {
		s->kcur = k;
		par_bucket(s, P, k, eight);
		free_bucket(s, q0, k);
		free_bucket(s, q1, k);
		lost = q0->lost || q1->lost;
		k++;
	}
	s->settled += q0->nset + q1->nset;
	s->frontier += q0->nfront + q1->nfront - q0->nset - q1->nset;
	s->last = q0->last >= 0 && (q1->last < 0 || s->val[q0->last] >= s->val[q1->last])
		  ? q0->last : q1->last;
	ffq_reset(s);
	if (lost) {
		/* alone from the last bucket on: the grid scan of a spill
		 * queues again every reached cell left unsettled */
		s->kcur = s->klim = k - 1;
		s->par_falls++;
		run_fused(s, eight);
	}
	return true;
}
