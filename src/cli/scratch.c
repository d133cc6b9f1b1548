/* scratch.c - a temporary file removed on a signal (scratch.h). */
#define _POSIX_C_SOURCE 200809L /* sigaction */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "scratch.h"

static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction old[3];
static volatile sig_atomic_t armed;
static char tmp[4200], msg[4400];
static size_t msglen;
static sigset_t before;          /* the mask ff_cli_scratch_hold() found */
static bool held;

/* Only what a handler may call: unlink(2), write(2), raise(3). */
static void on_signal(int sig)
{
	if (armed) {
		unlink(tmp);
		if (write(STDERR_FILENO, msg, msglen) < 0) {
			/* nothing left to tell it to */
		}
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

void ff_cli_scratch_hold(void)
{
	sigset_t set;

	if (held)
		return;
	sigemptyset(&set);
	for (int i = 0; i < 3; i++)
		sigaddset(&set, sigs[i]);
	held = !pthread_sigmask(SIG_BLOCK, &set, &before);
}

/* Signals held back by ff_cli_scratch_hold() arrive now. */
static void release(void)
{
	if (held) {
		held = false;
		pthread_sigmask(SIG_SETMASK, &before, NULL);
	}
}

/* Signals act as before again. */
static void disarm(void)
{
	if (!armed)
		return;
	armed = 0;
	for (int i = 0; i < 3; i++)
		if (old[i].sa_handler == SIG_DFL)
			sigaction(sigs[i], &old[i], NULL);
}

void ff_cli_scratch_set(const char *path, const char *target)
{
	struct sigaction sa;

	disarm();
	if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp) {
		release();
		return;                 /* longer than a path can be: never made */
	}
	snprintf(msg, sizeof msg, "fieldmarshal: interrupted: '%s' not written, left as it was",
		 target);
	ff_escape_msg(msg, sizeof msg - 1);
	msglen = strlen(msg);
	msg[msglen++] = '\n';
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 3; i++)
		if (!sigaction(sigs[i], NULL, &old[i]) && old[i].sa_handler == SIG_DFL)
			sigaction(sigs[i], &sa, NULL);
	armed = 1;
	release();
}

void ff_cli_scratch_clear(void)
{
	disarm();
	release();
}
