/*
 * bench_sim.c - how long a tick takes.  The level is 512 x 512 with long
 * walls broken by gaps and a goal disc in the middle; agents start spread
 * over the whole level, so the ticks measured mix open ground, crowds at
 * gaps and (with a million agents) dense packs where funnelling is on.
 */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "bench_sim.h"
#include "core/sim.h"
#include "core/solver.h"
#include "benchutil.h"
#include "util.h"

#define SIDE 512

/* Walls every 64 rows and columns, each with a 2-cell gap every 32 cells. */
static ff_level *bench_level(void)
{
	ff_level *l = ff_level_create(SIDE, SIDE, "bench");
	ff_shape goal = {FF_SHAPE_CIRCLE, SIDE / 2, SIDE / 2, 0, 0, 8};

	if (!l)
		return NULL;
	for (int k = 64; k < SIDE; k += 64)
		for (int t = 0; t < SIDE; t += 32) {
			ff_level_rect(l, k, t, 1, 30, FF_WALL, NULL);
			ff_level_rect(l, t, k, 30, 1, FF_WALL, NULL);
		}
	if (ff_level_goal_add(l, &goal, NULL) != FF_OK) {
		ff_level_destroy(l);
		return NULL;
	}
	return l;
}

/* Times TICKS ticks of N agents after WARM ticks: ms per tick or -1, and
 * in *CPU the processor time this thread spent per tick (what the wall
 * time would be on an idle machine, give or take caches). */
static double time_ticks(ff_level *l, const ff_solver *solver, long n, int warm,
			 int ticks, double *cpu)
{
	ff_shape all = {FF_SHAPE_RECT, 0, 0, SIDE, SIDE, 0};
	ff_spawn sp = {all, 1};
	ff_sim *sim;
	double t0, c0;

	ff_level_spawn_clear(l, NULL);
	if (ff_level_spawn_add(l, &sp, NULL) != FF_OK)
		return -1;
	if (!(sim = ff_sim_create(l, solver, (size_t)n)) ||
	    ff_sim_spawn_level(sim, n) != FF_OK) {
		ff_sim_destroy(sim);
		return -1;
	}
	for (int t = 0; t < warm; t++)
		ff_sim_step(sim);
	t0 = ff_bench_ms(CLOCK_MONOTONIC);
	c0 = ff_bench_ms(CLOCK_THREAD_CPUTIME_ID);
	for (int t = 0; t < ticks; t++)
		ff_sim_step(sim);
	*cpu = (ff_bench_ms(CLOCK_THREAD_CPUTIME_ID) - c0) / ticks;
	t0 = (ff_bench_ms(CLOCK_MONOTONIC) - t0) / ticks;
	ff_sim_destroy(sim);
	return t0;
}

bool ff_cli_bench_sim(FILE *out, bool quick)
{
	static const long sizes[] = {100000, 1000000};
	ff_solver_opts opts = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_CHEAPEST};
	ff_level *l = bench_level();
	ff_solver *solver = l ? ff_solver_create(SIDE, SIDE) : NULL;
	bool ok = true;

	if (!solver || ff_solver_solve(solver, l, l->meta.goals, l->meta.ngoals, &opts)) {
		ff_cli_error("sim bench: cannot set up the level");
		ff_solver_destroy(solver);
		ff_level_destroy(l);
		return false;
	}
	fprintf(out, "sim: %dx%d, separation + funnelling, one thread\n", SIDE, SIDE);
	fprintf(out, "%10s %10s %10s %12s\n", "agents", "ms/tick", "ns/agent", "cpu ms/tick");
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		double cpu = 0;
		double ms = time_ticks(l, solver, sizes[k], quick ? 1 : 5, quick ? 3 : 20, &cpu);

		if (ms < 0) {
			ff_cli_error("sim bench: cannot spawn %ld agents", sizes[k]);
			ok = false;
			break;
		}
		fprintf(out, "%10ld %10.2f %10.1f %12.2f\n", sizes[k], ms,
			ms * 1e6 / (double)sizes[k], cpu);
	}
	ff_solver_destroy(solver);
	ff_level_destroy(l);
	return ok;
}
