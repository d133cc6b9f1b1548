/*
 * thread.c - starting and ending a worker thread (thread.h).
 */
#define _POSIX_C_SOURCE 200809L    /* pthreads, sigset_t */

#include <signal.h>

#include "thread.h"

bool ff_thread_start(ff_thread *t, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	int e;

	if (pthread_mutex_init(&t->mu, NULL))
		return false;
	if (pthread_cond_init(&t->cv, NULL)) {
		pthread_mutex_destroy(&t->mu);
		return false;
	}
	/* the new thread inherits the mask: every signal blocked but those a
	 * fault raises in the thread itself */
	sigfillset(&all);
	sigdelset(&all, SIGSEGV);
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGFPE);
	sigdelset(&all, SIGILL);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	e = pthread_create(&t->th, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		pthread_cond_destroy(&t->cv);
		pthread_mutex_destroy(&t->mu);
		return false;
	}
	return true;
}

void ff_thread_join(ff_thread *t)
{
	pthread_join(t->th, NULL);
	pthread_cond_destroy(&t->cv);
	pthread_mutex_destroy(&t->mu);
}
