/*
 * bench_store.c - how fast the level store is: save and load of a
 * 1024 x 1024 level with random costs (targets 20 ms each) and listing
 * 1,000 levels (target 50 ms), on a scratch database in a temporary
 * directory that is removed afterwards, or when a signal stops the bench.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, clock_gettime */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_store.h"
#include "scratch.h"
#include "store/store.h"
#include "benchutil.h"
#include "util.h"

/* A W x H level of random palette costs and walls. */
static ff_level *random_level(int w, int h, const char *name, uint32_t seed)
{
	ff_level *l = ff_level_create(w, h, name);

	for (size_t i = 0; l && i < (size_t)w * (size_t)h; i++) {
		seed = seed * 1664525u + 1013904223u;
		l->cells[i] = l->meta.palette[(seed >> 24) % (uint32_t)l->meta.npalette].cost;
	}
	if (l)
		ff_level_changed(l);
	return l;
}

static void row(FILE *out, const char *what, double ms, double target)
{
	fprintf(out, "%-28s %10.2f %10.0f  %s\n", what, ms, target,
		ms <= target ? "ok" : "SLOW");
}

/* Times save, load and list in S; false on failure. */
static bool run(FILE *out, ff_store *s, int reps)
{
	ff_level *big = random_level(1024, 1024, "big", 1), *back = NULL;
	ff_level *small = random_level(16, 16, "small", 2);
	double ts[32], tl[32], tv[32];
	ff_store_info *v;
	char name[32];
	size_t n;
	bool ok = big && small;

	for (int i = 0; ok && i < reps; i++) {
		double t0 = ff_bench_ms(CLOCK_MONOTONIC);
		ok = !ff_store_save(s, big, FF_STORE_ANY, NULL);
		ts[i] = ff_bench_ms(CLOCK_MONOTONIC) - t0;
		t0 = ff_bench_ms(CLOCK_MONOTONIC);
		ok = ok && !ff_store_load(s, "big", &back, NULL);
		tl[i] = ff_bench_ms(CLOCK_MONOTONIC) - t0;
		ff_level_destroy(back);
		back = NULL;
	}
	for (int i = 0; ok && i < 999; i++) {
		snprintf(name, sizeof name, "small-%03d", i);
		ok = !ff_store_save_as(s, small, name, NULL);
	}
	for (int i = 0; ok && i < reps; i++) {
		double t0 = ff_bench_ms(CLOCK_MONOTONIC);
		ok = !ff_store_list(s, &v, &n);
		tv[i] = ff_bench_ms(CLOCK_MONOTONIC) - t0;
		if (ok)
			free(v);
	}
	if (ok) {
		row(out, "save 1024x1024 level", ff_bench_median(ts, reps), 20);
		row(out, "load 1024x1024 level", ff_bench_median(tl, reps), 20);
		row(out, "list 1000 levels", ff_bench_median(tv, reps), 50);
	}
	ff_level_destroy(big);
	ff_level_destroy(small);
	return ok;
}

/* The scratch directory and its files: the database and its WAL,
 * shared-memory and journal files, last.  Filled before the signal
 * handlers are set, which remove them when the bench is interrupted. */
enum { NSCRATCH = 5 };
static char scratch[NSCRATCH][4200];

static void remove_scratch(void)
{
	for (int i = 1; i < NSCRATCH; i++)
		unlink(scratch[i]);
	rmdir(scratch[0]);
}

static void on_signal(int sig)
{
	remove_scratch();
	signal(sig, SIG_DFL);
	raise(sig);
}

bool ff_cli_bench_store(FILE *out, bool quick)
{
	static const char *const suffix[NSCRATCH] = {"", "", "-wal", "-shm", "-journal"};
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa, old[3];
	const char *tmp = getenv("TMPDIR");
	ff_store *s = ff_store_create();
	bool ok;

	snprintf(scratch[0], sizeof scratch[0], "%s/ffbenchXXXXXX", tmp && *tmp ? tmp : "/tmp");
	ff_cli_scratch_hold();          /* until the handlers are set */
	if (!s || strlen(scratch[0]) > 4096 || !mkdtemp(scratch[0])) {
		ff_cli_scratch_clear();
		ff_cli_error("store bench: cannot create a scratch directory");
		ff_store_destroy(s);
		return false;
	}
	for (int i = 1; i < NSCRATCH; i++)
		snprintf(scratch[i], sizeof scratch[i], "%s/bench.db%s", scratch[0], suffix[i]);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 3; i++)             /* a signal ignored stays so */
		if (!sigaction(sigs[i], NULL, &old[i]) && old[i].sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
	ff_cli_scratch_clear();
	fprintf(out, "%-28s %10s %10s\n", "store", "median ms", "target ms");
	ok = !ff_store_open(s, scratch[1], FF_STORE_CREATE) && run(out, s, quick ? 5 : 21);
	if (!ok)
		ff_cli_error("store bench: %s", ff_store_errmsg(s));
	ff_store_destroy(s);
	remove_scratch();
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	return ok;
}
