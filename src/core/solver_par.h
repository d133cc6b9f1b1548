/*
 * solver_par.h - the solver's second thread (solver_par.c), shared by the one-shot
 * Dijkstra (solver_dijkstra.c) and Fast Marching (solver_fmm.c) solves.  Private.
 *
 * Both integrations settle the queue one bucket at a time, and the cells of
 * one bucket may be handled in any order (solver_dijkstra.c and solver_fmm.c say why), so
 * two threads can split a bucket as long as they never touch the same
 * cell.  The grid is cut into bands of FF_BAND rows, even bands for the
 * main thread (thread 0), odd ones for the worker (thread 1).  A cell more
 * than `margin` rows from its band's edges reads and writes only cells of
 * its own band (margin 1 for Dijkstra, whose settle reaches one row away;
 * 2 for FMM, whose update of a neighbour reads that neighbour's
 * neighbours; 3 for second-order FMM, which reads two cells away).  Cells
 * nearer the edges are deferred and handled by the main thread after the
 * round, while the worker waits.  Each thread has its own ring of buckets
 * and half of the block pool, and a ring holds only cells of its thread's
 * bands, so a thread handling its inner cells queues only into its own
 * ring; the main thread alone (deferred cells, small buckets,
 * bucket 0 with the goals) queues each cell into its owner's ring.
 *
 * A round: the main thread bumps an epoch, both threads walk their own
 * ring's chain for the bucket, the worker publishes the epoch it finished
 * (it spins while a solve runs, between solves it sleeps on a condition
 * variable).  The worker's part goes to whichever thread claims it first:
 * when the worker has not started by the time the main thread is done
 * with its own part (asleep, or not running because another program holds
 * the other core), the main thread does it too instead of waiting.  When
 * the worker is late (the main thread takes its part, or has to yield its
 * core waiting for a worker that claimed its part and then did not run)
 * in FF_PAR_SLOW rounds of a solve, the rest of the solve runs on the main
 * thread alone and the worker goes to sleep: on a busy machine its
 * spinning would only take time from the main thread.
 *
 * A queue that runs out of blocks, or a key outside the ring's window,
 * marks the thread queue lost: the bucket is finished, and the solve goes
 * on with one thread after the spill path's grid scan (solver_bucketq.c) queues
 * every reached, unsettled cell again: time lost, never a value.
 */
#ifndef FF_SOLVER_PAR_H
#define FF_SOLVER_PAR_H

#include <pthread.h>
#include <stdatomic.h>

#include "solver_int.h"
#include "thread.h"

#define FF_BAND 256                 /* rows per band; a power of two */
#define FF_PAR_MIN_ENTRIES 64     /* smaller buckets: the main thread alone */
#define FF_PAR_MARGIN 3            /* the widest margin of any method */
#define FF_PAR_SLOW 4              /* late rounds in a solve: one thread */

/* One thread's queue and its counters. */
typedef struct ff_tq {
	_Alignas(64) ff_bucket *ring;       /* thread 0: s->ring */
	int32_t freeblk, fresh, lim;        /* its blocks: [first, lim) */
	bool lost;                          /* a push was dropped */
	long nset, nfront;                  /* nfront: FMM only (a complete
					       Dijkstra leaves none queued) */
	int32_t last;
	int32_t *stage;                     /* its ff_stage's cells */
	int32_t ndefer, cap, *defer;        /* cells left for the main thread */
} ff_tq;

struct ff_par;

/* What a method does in a two-thread solve. */
typedef struct ff_par_ops {
	/* Thread T's part of bucket K: the cells of its own ring, deferring
	 * those within the method's margin (at most FF_PAR_MARGIN rows) of a
	 * band edge. */
	void (*walk)(ff_solver *s, struct ff_par *P, int t, long k);
	/* The main thread alone, the worker waiting: both rings, nothing
	 * deferred. */
	void (*alone)(ff_solver *s, struct ff_par *P, long k);
	/* The main thread after a round: the cells both threads deferred. */
	void (*deferred)(ff_solver *s, struct ff_par *P);
	/* After a lost push or a full defer list in bucket K - 1: finish
	 * the solve on one thread (the queue is reset, the solver's counters
	 * are up to date). */
	void (*resume)(ff_solver *s, long k);
} ff_par_ops;

/* A job run by both threads at once: T = 0 on the main thread, 1 on the
 * worker. */
typedef void (*ff_par_job)(ff_solver *s, struct ff_par *P, int t);

struct ff_par {
	ff_solver *s;                       /* the solver of this round (the
					       workspace's solvers take turns) */
	ff_thread w;                        /* the worker, its mutex and
					       condition (thread.h) */
	_Alignas(64) atomic_uint epoch;     /* bumped to start the worker */
	atomic_int sleeping;                /* the worker waits on cv */
	atomic_bool active;                 /* a two-thread solve is running */
	_Alignas(64) atomic_uint done;      /* the epoch the worker finished */
	_Alignas(64) atomic_uint claim;     /* the last epoch whose worker part
					       a thread has taken */
	_Alignas(64) ff_par_job job;        /* this round's job */
	const ff_par_ops *ops;              /* the solve in progress */
	long k;                             /* the bucket of this round */
	atomic_bool quit;
	int slow;                           /* rounds the worker was late for */
	bool alone;                         /* it lagged too often: one thread */
	ff_tq t[2];
	size_t defer_bytes;                 /* both threads' defer lists */
	ff_bucket ring1[FF_RING];           /* thread 1's ring */
	int32_t stage1[FF_STAGE];           /* thread 1's stage */
};

/* Runs the integration with two threads; false when it does not apply
 * (one thread asked for, a solve that has settled cells already, a
 * spilled or overflowing queue, a crowded pool), with S unchanged.  Only
 * a fresh solve qualifies: its queue holds the goals alone, in bucket 0,
 * which the main thread settles alone, so from then on every ring holds
 * only its thread's cells.  (A stepped solve's queue holds cells of every
 * band in ring 0.) */
bool ff_par_run(ff_solver *s, const ff_par_ops *ops);
/* Runs JOB on both threads and waits for both; false when there is no
 * worker (nothing is run then). */
bool ff_par_both(ff_solver *s, ff_par_job job);

/* The thread owning cell C (the parity of its band). */
static inline int ff_par_owner(const ff_solver *s, int32_t c)
{
	return (int)((((uint64_t)c * s->wmagic) >> FF_WSHIFT) / FF_BAND) & 1;
}

/* Whether cell C lies within M rows of its band's edges. */
static inline bool ff_par_edge(const ff_solver *s, int32_t c, int m)
{
	uint32_t r = (uint32_t)(((uint64_t)c * s->wmagic) >> FF_WSHIFT) % FF_BAND;

	return r - (uint32_t)m >= (uint32_t)(FF_BAND - 2 * m);
}

/* Appends C to bucket K of the ring of thread queue R with a block of A's
 * part of the pool; marks A lost when there is no block or K is not in
 * (kcur, kcur + FF_RING). */
FF_HOT void ff_tq_push_to(ff_solver *s, ff_tq *r, ff_tq *a, int32_t c, long k)
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
		ffq_link(s, b, nb);
	}
	s->ent[(size_t)b->tail * (size_t)s->bs + (size_t)b->fill++] = c;
}

/* The main thread alone: into the ring of the thread that owns C, with a
 * block of that thread's part of the pool, else of the other's when it is
 * used up. */
static inline void ff_tq_push_any(ff_solver *s, int32_t c, long k)
{
	ff_tq *q = s->par->t, *r = &q[ff_par_owner(s, c)], *o = &q[r == q];

	if (r->freeblk < 0 && r->fresh == r->lim && (o->freeblk >= 0 || o->fresh < o->lim))
		ff_tq_push_to(s, r, o, c, k);
	else
		ff_tq_push_to(s, r, r, c, k);
}

/* How a settle queues the cells it lowers: the solver's queue (a
 * one-thread solve, or stepping), or the thread queues of a two-thread
 * solve: the settling thread's own (FF_PUSH_OWN), or the owner's when the
 * main thread works alone (FF_PUSH_ANY). */
enum { FF_PUSH_ONE, FF_PUSH_OWN, FF_PUSH_ANY };

/* Queues cell C at key K as MODE says; Q: the settling thread's queue. */
FF_HOT void ff_par_push(ff_solver *s, ff_tq *q, int32_t c, long k, int mode)
{
	if (mode == FF_PUSH_ONE)
		ffq_push(s, c, k);
	else if (mode == FF_PUSH_OWN)
		ff_tq_push_to(s, q, q, c, k);
	else
		ff_tq_push_any(s, c, k);
}

#endif
