/*
 * sim_par.c - the crowd's second thread (sim_impl.h, ff_sim_par_*).
 *
 * A tick's agents are cut into chunks that the threads take from either
 * end through a shared counter (take()), so a worker that another
 * program keeps off its core costs nothing: the main thread takes every
 * chunk the worker has not, and when the worker has not started by the
 * time they are all taken, the main thread cancels its part instead of
 * waiting (unless asked to wait for it: ff_sim_set_threads(sim, 2)).
 * Between ticks the worker sleeps on a condition variable (a tick is
 * milliseconds; waking it costs microseconds).  Which thread runs a
 * chunk changes nothing: each agent reads the tick's snapshot and writes
 * its own state, and the threads' counters are sums and maxima
 * (sim_step.c).
 */
#define _POSIX_C_SOURCE 200809L    /* pthreads, sysconf */

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "sim_impl.h"
#include "thread.h"

struct ff_sim_par {
	ff_thread t;                 /* the worker, its mutex and condition */
	unsigned epoch;              /* jobs begun (mu) */
	unsigned started;            /* the last job the worker took up, or
				      * the main thread cancelled for it (mu) */
	bool busy;                   /* the worker is in a job (mu) */
	bool quit;                   /* (mu) */
	ff_sim_job job;              /* the job (mu) */
	void *arg;
	long n;                      /* its chunks */
	atomic_long next;            /* chunks claimed so far (take()) */
};

/* Takes chunks of the job as thread T until none are left: the main
 * thread from the first up, the worker from the last down.  Each claim
 * counts one against the N chunks, so when they meet the two runs cover
 * every chunk once.  Each thread walks a stretch of the grid of its own:
 * the rows a chunk reads beyond its own (neighbours, the density and the
 * crowd ahead) are those the chunk before it read, still in that core's
 * cache.  With chunks taken in turn they were mostly in the other core's
 * (8 groups, 100,000 agents, 2026-12-02: 14.7 ms wall and 27.7 processor
 * a tick; chunks 8 times as long, in turn, 11.4 and 21.1; from either
 * end, 10.9 and 20.2). */
static void take(ff_sim_par *P, int t)
{
	for (long k = 0; atomic_fetch_add(&P->next, 1) < P->n; k++)
		P->job(P->arg, t, t ? P->n - 1 - k : k);
}

static void *worker(void *arg)
{
	ff_sim_par *P = arg;

	pthread_mutex_lock(&P->t.mu);
	for (;;) {
		while (!P->quit && P->started == P->epoch)
			pthread_cond_wait(&P->t.cv, &P->t.mu);
		if (P->quit)
			break;
		P->started = P->epoch;
		P->busy = true;
		pthread_cond_broadcast(&P->t.cv);
		pthread_mutex_unlock(&P->t.mu);
		take(P, 1);
		pthread_mutex_lock(&P->t.mu);
		P->busy = false;
		pthread_cond_broadcast(&P->t.cv);
	}
	pthread_mutex_unlock(&P->t.mu);
	return NULL;
}

ff_sim_par *ff_sim_par_create(void)
{
	ff_sim_par *P;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || !(P = calloc(1, sizeof *P)))
		return NULL;
	atomic_init(&P->next, 0);
	if (!ff_thread_start(&P->t, worker, P)) {
		free(P);
		return NULL;
	}
	return P;
}

void ff_sim_par_destroy(ff_sim_par *P)
{
	if (!P)
		return;
	pthread_mutex_lock(&P->t.mu);
	P->quit = true;
	pthread_cond_broadcast(&P->t.cv);
	pthread_mutex_unlock(&P->t.mu);
	ff_thread_join(&P->t);
	free(P);
}

void ff_sim_par_run(ff_sim_par *P, ff_sim_job job, void *arg, long n, bool wait)
{
	pthread_mutex_lock(&P->t.mu);
	P->job = job;
	P->arg = arg;
	P->n = n;
	atomic_store(&P->next, 0);
	P->epoch++;
	pthread_cond_broadcast(&P->t.cv);
	while (wait && P->started != P->epoch)
		pthread_cond_wait(&P->t.cv, &P->t.mu);
	pthread_mutex_unlock(&P->t.mu);
	take(P, 0);
	pthread_mutex_lock(&P->t.mu);
	if (P->started != P->epoch)
		P->started = P->epoch; /* not there yet: the job is done without it */
	while (P->busy)
		pthread_cond_wait(&P->t.cv, &P->t.mu);
	pthread_mutex_unlock(&P->t.mu);
}
