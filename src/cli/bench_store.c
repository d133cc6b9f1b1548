/*
 * bench_store.c - how fast the level store is: save and load of a
 * 1024 x 1024 level with random costs (targets 20 ms each) and listing
 * 1,000 levels (target 50 ms), on a scratch database in a temporary
 * directory that is removed afterwards.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, clock_gettime */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_store.h"
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

/* Removes DB and its WAL and shared-memory files. */
static void remove_db(const char *db)
{
	static const char *const suffix[] = {"", "-wal", "-shm", "-journal"};
	char p[4200];

	for (size_t i = 0; i < sizeof suffix / sizeof suffix[0]; i++) {
		snprintf(p, sizeof p, "%s%s", db, suffix[i]);
		unlink(p);
	}
}

bool ff_cli_bench_store(FILE *out, bool quick)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096], db[4150];
	ff_store *s = ff_store_create();
	bool ok;

	snprintf(dir, sizeof dir, "%s/ffbenchXXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!s || !mkdtemp(dir)) {
		ff_cli_error("store bench: cannot create a scratch directory");
		ff_store_destroy(s);
		return false;
	}
	snprintf(db, sizeof db, "%s/bench.db", dir);
	fprintf(out, "%-28s %10s %10s\n", "store", "median ms", "target ms");
	ok = !ff_store_open(s, db, FF_STORE_CREATE) && run(out, s, quick ? 5 : 21);
	if (!ok)
		ff_cli_error("store bench: %s", ff_store_errmsg(s));
	ff_store_destroy(s);
	remove_db(db);
	rmdir(dir);
	return ok;
}
