/*
 * bench_sim.c - how long a tick takes.  The level is 512 x 512 cells with
 * long walls broken by gaps and a goal disc in the middle (2048 x 2048 for
 * a million agents, which a smaller one cannot hold without overlap);
 * agents start spread over the whole level, so the ticks measured mix open
 * ground and crowds at gaps.  A last row piles agents on one spot (a wall
 * painted over a crowd ejects it there) to show that a tick's work stays
 * bounded however dense the crowd.
 */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "bench_sim.h"
#include "core/sim.h"
#include "core/solver.h"
#include "benchutil.h"
#include "util.h"

/* A SIDE x SIDE level: walls every 64 rows and columns, each with a
 * 2-cell gap every 32 cells. */
static ff_level *bench_level(int side)
{
	ff_level *l = ff_level_create(side, side, "bench");
	ff_shape goal = {FF_SHAPE_CIRCLE, side / 2, side / 2, 0, 0, 8};

	if (!l)
		return NULL;
	for (int k = 64; k < side; k += 64)
		for (int t = 0; t < side; t += 32) {
			ff_level_rect(l, k, t, 1, 30, FF_WALL, NULL);
			ff_level_rect(l, t, k, 30, 1, FF_WALL, NULL);
		}
	if (ff_level_goal_add(l, &goal, NULL) != FF_OK) {
		ff_level_destroy(l);
		return NULL;
	}
	return l;
}

/* Times TICKS ticks of SIM after WARM ticks: ms per tick, and in *CPU
 * the processor time this thread spent per tick (what the wall time would
 * be on an idle machine, give or take caches). */
static double time_sim(ff_sim *sim, int warm, int ticks, double *cpu)
{
	double t0, c0;

	for (int t = 0; t < warm; t++)
		ff_sim_step(sim);
	t0 = ff_bench_ms(CLOCK_MONOTONIC);
	c0 = ff_bench_ms(CLOCK_THREAD_CPUTIME_ID);
	for (int t = 0; t < ticks; t++)
		ff_sim_step(sim);
	*cpu = (ff_bench_ms(CLOCK_THREAD_CPUTIME_ID) - c0) / ticks;
	return (ff_bench_ms(CLOCK_MONOTONIC) - t0) / ticks;
}

/* A sim of N agents spread over L (solved by SOLVER), or NULL. */
static ff_sim *spread(ff_level *l, ff_fields *fields, long n)
{
	ff_shape all = {FF_SHAPE_RECT, 0, 0, l->w, l->h, 0};
	ff_spawn sp = {all, 1, 0, 0};
	ff_sim *sim;

	ff_level_spawn_clear(l, NULL);
	if (ff_level_spawn_add(l, &sp, NULL) != FF_OK)
		return NULL;
	if (!(sim = ff_sim_create(l, fields, (size_t)n)) || ff_sim_spawn_level(sim, n) != FF_OK) {
		ff_sim_destroy(sim);
		return NULL;
	}
	return sim;
}

/* Piles the agents of SIM that stand in the 64 x 64 block at the level's
 * top left on one spot: walls painted over the block but one cell eject
 * them there.  Restores the level after. */
static void pile_up(ff_level *l, ff_sim *sim)
{
	ff_level_rect(l, 0, 0, 64, 64, FF_WALL, NULL);
	ff_level_paint(l, 32, 32, 1, NULL);
	ff_sim_step(sim);
	ff_level_rect(l, 0, 0, 64, 64, 1, NULL);
	for (int k = 64; k < l->w; k += 64)
		for (int t = 0; t < l->w; t += 32) {
			ff_level_rect(l, k, t, 1, 30, FF_WALL, NULL);
			ff_level_rect(l, t, k, 30, 1, FF_WALL, NULL);
		}
}

typedef struct bench_row {
	const char *what;
	int side;
	long agents;
	bool pile;
} bench_row;

static bool row(FILE *out, const bench_row *r, bool quick)
{
	ff_solver_opts opts = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_CHEAPEST};
	ff_level *l = bench_level(r->side);
	ff_fields *fields = l ? ff_fields_create(l, &opts) : NULL;
	const ff_solver *solver;
	ff_sim *sim = NULL;
	double ms, cpu = 0;
	bool ok = false;

	if (!fields || ff_fields_get(fields, 0, &solver) != FF_OK) {
		ff_cli_error("sim bench: cannot set up the level");
		goto out;
	}
	if (!(sim = spread(l, fields, r->agents))) {
		ff_cli_error("sim bench: cannot spawn %ld agents", r->agents);
		goto out;
	}
	if (r->pile)
		pile_up(l, sim);
	ms = time_sim(sim, quick ? 1 : 5, quick ? 3 : 20, &cpu);
	fprintf(out, "%-22s %10ld %10.2f %10.1f %12.2f\n", r->what, r->agents, ms,
		ms * 1e6 / (double)r->agents, cpu);
	ok = true;
out:
	ff_sim_destroy(sim);
	ff_fields_destroy(fields);
	ff_level_destroy(l);
	return ok;
}

bool ff_cli_bench_sim(FILE *out, bool quick)
{
	static const bench_row rows[] = {
		{"512x512", 512, 1000, false},
		{"512x512", 512, 10000, false},
		{"512x512", 512, 100000, false},
		{"512x512, piled on a spot", 512, 100000, true},
		{"2048x2048", 2048, 1000000, false},
	};

	fprintf(out, "sim: 0.5 m cells, speed-density + separation + funnelling, one thread\n");
	fprintf(out, "%-22s %10s %10s %10s %12s\n", "level", "agents", "ms/tick", "ns/agent",
		"cpu ms/tick");
	for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++)
		if ((!quick || rows[k].side <= 512) && !row(out, &rows[k], quick))
			return false;
	return true;
}
