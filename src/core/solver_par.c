/*
 * solver_par.c - the solver's worker thread and the two-thread bucket loop (the
 * scheme is described in solver_par.h; the methods' parts are in solver_dijkstra.c and
 * solver_fmm.c).
 *
 * Rows come from p / W = (p * wmagic) >> 48 with wmagic = 2^48 / W + 1:
 * the error p * (wmagic - 2^48 / W) / 2^48 < p / 2^48 < 1 / W, as p * W <
 * W^2 * (h + 2) <= 16386^3 < 2^42 for levels up to 16384 x 16384, so the
 * floor is exact; and p * wmagic <= (h + 2) * 2^48 + p < 2^63 does not
 * overflow.
 */
#define _POSIX_C_SOURCE 200809L    /* pthreads, sched_yield, sysconf */

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "solver_par.h"

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

enum { SPIN = 1 << 14 };

/* The worker: waits for the epoch to move past SEEN; returns the new one.
 * It spins while a solve is active or for SPIN turns, then sleeps. */
static unsigned wait_epoch(struct ff_par *P, unsigned seen)
{
	unsigned e;

	/* during a solve, rounds come close together: spin through them */
	for (unsigned i = 0; i < SPIN || atomic_load_explicit(&P->active, memory_order_relaxed);
	     i = i < SPIN ? i + 1 : i) {
		e = atomic_load_explicit(&P->epoch, memory_order_acquire);
		if (e != seen)
			return e;
		cpu_relax();
	}
	pthread_mutex_lock(&P->w.mu);
	atomic_store(&P->sleeping, 1);
	while ((e = atomic_load(&P->epoch)) == seen)
		pthread_cond_wait(&P->w.cv, &P->w.mu);
	atomic_store(&P->sleeping, 0);
	pthread_mutex_unlock(&P->w.mu);
	return e;
}

/* The main thread: starts a round of the worker; returns its epoch.  The
 * seq_cst pair (epoch, sleeping) against the worker's (sleeping, epoch)
 * means one of the two always sees the other. */
static unsigned kick(struct ff_par *P, bool *woke)
{
	unsigned e = atomic_fetch_add(&P->epoch, 1) + 1;

	*woke = atomic_load(&P->sleeping);
	if (*woke) {
		pthread_mutex_lock(&P->w.mu);
		pthread_cond_signal(&P->w.cv);
		pthread_mutex_unlock(&P->w.mu);
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

static void *worker(void *arg)
{
	struct ff_par *P = arg;
	unsigned seen = 0;

	for (;;) {
		unsigned prev;
		seen = wait_epoch(P, seen);
		if (atomic_load(&P->quit))
			return NULL;
		/* the main thread may have taken this round already */
		prev = seen - 1;
		if (!atomic_compare_exchange_strong(&P->claim, &prev, seen))
			continue;
		P->job(P->s, P, 1);
		atomic_store_explicit(&P->done, seen, memory_order_release);
	}
}

/* How the worker's part of a round went. */
enum { BY_WORKER, TAKEN, LATE };

/* Runs JOB for both threads' parts.  Whoever claims the round first does
 * the worker's part: the worker when it gets there in time (BY_WORKER),
 * else the main thread once its own part is done (the worker is asleep,
 * or another program holds its core), which then does not wait.  LATE
 * when a worker that was awake at the start was not there in time: the
 * main thread took its part, or had to yield its core waiting for a
 * worker that claimed it and then did not run. */
static int both(ff_solver *s, struct ff_par *P, ff_par_job job)
{
	unsigned e, prev;
	bool woke;

	P->s = s;                 /* published with the epoch, as JOB */
	P->job = job;
	e = kick(P, &woke);
	job(s, P, 0);
	prev = e - 1;
	if (atomic_compare_exchange_strong(&P->claim, &prev, e)) {
		job(s, P, 1);
		return woke ? TAKEN : LATE;
	}
	return wait_done(P, e) || woke ? BY_WORKER : LATE;
}

bool ff_par_both(ff_solver *s, ff_par_job job)
{
	if (!s->par || s->threads == 1)
		return false;
	both(s, s->par, job);
	return true;
}

/* Cells within FF_PAR_MARGIN rows of a band edge in thread T's bands: the
 * most cells it can defer in one round (a cell is deferred at most once
 * per bucket). */
static size_t margin_cells(int W, int h, int t)
{
	size_t n = 0;

	for (int r = 1; r <= h; r++)
		if ((r / FF_BAND & 1) == t &&
		    (uint32_t)(r % FF_BAND) - FF_PAR_MARGIN >= (uint32_t)(FF_BAND - 2 * FF_PAR_MARGIN))
			n += (size_t)W;
	return n;
}

size_t ff_par_bytes_for(int w, int h)
{
	if ((size_t)w * (size_t)h < FF_PAR_MIN_CELLS || h < FF_BAND)
		return 0;
	return sizeof(struct ff_par) +
	       (margin_cells(w + 2, h, 0) + margin_cells(w + 2, h, 1)) * sizeof(int32_t);
}

struct ff_par *ff_par_create(ff_solver_work *wk)
{
	struct ff_par *P;
	size_t n0 = margin_cells(wk->w + 2, wk->h, 0), n1 = margin_cells(wk->w + 2, wk->h, 1);

	/* a level of one band would leave the worker nothing to do */
	if (wk->h < FF_BAND || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return NULL;
	P = aligned_alloc(64, (sizeof *P + 63) / 64 * 64);
	if (!P)
		return NULL;
	memset(P, 0, sizeof *P);
	/* the worker's half of the pool: faulted in now, not in its rounds */
	memset(wk->ent + (size_t)(wk->nblk / 2) * (size_t)wk->bs, 0,
	       (size_t)(wk->nblk - wk->nblk / 2) * (size_t)wk->bs * sizeof *wk->ent);
	P->defer_bytes = (n0 + n1) * sizeof *P->t[0].defer;
	P->t[0].defer = malloc(P->defer_bytes + 1);
	if (!P->t[0].defer)
		goto fail_free;
	memset(P->t[0].defer, 0, P->defer_bytes);
	P->t[1].defer = P->t[0].defer + n0;
	P->t[0].cap = (int32_t)n0;
	P->t[1].cap = (int32_t)n1;
	atomic_init(&P->epoch, 0);
	atomic_init(&P->done, 0);
	atomic_init(&P->claim, 0);
	atomic_init(&P->quit, false);
	atomic_init(&P->sleeping, 0);
	atomic_init(&P->active, false);
	if (!ff_thread_start(&P->w, worker, P))
		goto fail_free;
	return P;
fail_free:
	free(P->t[0].defer);
	free(P);
	return NULL;
}

void ff_par_destroy(struct ff_par *P)
{
	bool woke;

	if (!P)
		return;
	atomic_store(&P->quit, true);
	kick(P, &woke);
	ff_thread_join(&P->w);
	free(P->t[0].defer);
	free(P);
}

size_t ff_par_bytes(const struct ff_par *P)
{
	return P ? sizeof *P + P->defer_bytes : 0;
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

static void free_bucket(ff_solver *s, ff_tq *q, long k)
{
	ff_bucket *b = &q->ring[k & FF_RING_MASK];

	if (b->head >= 0) {
		s->bnext[b->tail] = q->freeblk;
		q->freeblk = b->head;
	}
	*b = (ff_bucket){-1, -1, 0};
}

static void round_job(ff_solver *s, struct ff_par *P, int t)
{
	P->ops->walk(s, P, t, P->k);
}

bool ff_par_run(ff_solver *s, const ff_par_ops *ops)
{
	struct ff_par *P = s->par;
	ff_tq *q0, *q1;
	long k = s->kcur;
	bool lost = false;

	if (!P || s->threads == 1 || s->cur_blk >= 0 || s->klim != LONG_MAX ||
	    s->ovf.head >= 0 || s->fresh >= s->nblk / 4 || s->settled > 0)
		return false;
	q0 = &P->t[0], q1 = &P->t[1];
	P->alone = false;
	P->slow = 0;
	P->ops = ops;
	atomic_store_explicit(&P->active, true, memory_order_relaxed);
	*q0 = (ff_tq){.ring = s->ring, .freeblk = s->freeblk, .fresh = s->fresh,
		      .lim = s->nblk / 2, .last = -1, .cap = q0->cap, .defer = q0->defer,
		      .stage = s->stage};
	*q1 = (ff_tq){.ring = P->ring1, .freeblk = -1, .fresh = s->nblk / 2,
		      .lim = s->nblk, .last = -1, .cap = q1->cap, .defer = q1->defer,
		      .stage = P->stage1};
	for (int i = 0; i < FF_RING; i++)
		P->ring1[i] = (ff_bucket){-1, -1, 0};
	while (!lost && (k = next_key(P, k)) >= 0) {
		s->kcur = k;
		/* bucket 0 holds the goals, all queued in ring 0 */
		if (k == 0 || P->alone ||
		    bucket_entries(s, P, k, FF_PAR_MIN_ENTRIES) < FF_PAR_MIN_ENTRIES) {
			ops->alone(s, P, k);
		} else {
			int how;
			P->k = k;
			how = both(s, P, round_job);
			/* the worker is not running (another program holds
			 * the other core): its spinning only takes time from
			 * this thread, so the rest of this solve runs here
			 * and the worker may sleep.  A few late rounds are
			 * the worker waking up, or a preemption */
			s->par_rounds++;
			s->par_worker += how == BY_WORKER;
			P->slow += how == LATE;
			P->alone = P->slow >= FF_PAR_SLOW;
			if (P->alone)     /* let the worker sleep */
				atomic_store_explicit(&P->active, false, memory_order_relaxed);
			ops->deferred(s, P);
			q0->ndefer = q1->ndefer = 0;
		}
		free_bucket(s, q0, k);
		free_bucket(s, q1, k);
		lost = q0->lost || q1->lost;
		k++;
		if (ffs_wanted_done(s))
			break;
	}
	s->settled += q0->nset + q1->nset;
	s->frontier += q0->nfront + q1->nfront - q0->nset - q1->nset;
	if (q0->last >= 0 || q1->last >= 0)
		s->last = q0->last >= 0 && (q1->last < 0 || s->val[q0->last] >= s->val[q1->last])
			  ? q0->last : q1->last;
	atomic_store_explicit(&P->active, false, memory_order_relaxed);
	ffq_reset(s);
	if (lost) {
		s->par_falls++;
		ops->resume(s, k);
	}
	return true;
}
