/*
 * thread.h - a worker thread with its mutex and condition variable, as the
 * solver (solver_par.c) and the crowd (sim_par.c) each keep one.  Private.
 */
#ifndef FF_THREAD_H
#define FF_THREAD_H

#include <pthread.h>
#include <stdbool.h>

typedef struct ff_thread {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
} ff_thread;

/* Initialises T's mutex and condition variable and starts FN(ARG) on T's
 * thread, with every signal that can be blocked blocked in it: a signal
 * for the process (SIGINT, SIGTERM, SIGWINCH, ...) goes to the calling
 * thread, whose waits it interrupts, never to a worker asleep on its
 * condition.  False when any of it fails (nothing is left to undo). */
bool ff_thread_start(ff_thread *t, void *(*fn)(void *), void *arg);
/* Waits for T's thread to end (the caller has told it to) and destroys
 * the mutex and condition variable. */
void ff_thread_join(ff_thread *t);

#endif
