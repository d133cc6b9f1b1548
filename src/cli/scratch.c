/* scratch.c - a temporary file removed on a signal (scratch.h). */
#define _POSIX_C_SOURCE 200809L /* sigaction */
#include <signal.h>
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

void ff_cli_scratch_set(const char *path, const char *target)
{
	struct sigaction sa;

	ff_cli_scratch_clear();
	if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp)
		return;                 /* longer than a path can be: never made */
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
}

void ff_cli_scratch_clear(void)
{
	if (!armed)
		return;
	armed = 0;
	for (int i = 0; i < 3; i++)
		if (old[i].sa_handler == SIG_DFL)
			sigaction(sigs[i], &old[i], NULL);
}
