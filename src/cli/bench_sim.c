/*
 * bench_sim.c - how long a tick takes.  The level is 512 x 512 cells with
 * long walls broken by gaps and a goal disc in the middle (2048 x 2048 for
 * a million agents, which a smaller one cannot hold without overlap);
 * agents start spread over the whole level, so the ticks measured mix open
 * ground and crowds at gaps.  A last row piles agents on one spot (a wall
 * painted over a crowd ejects it there) to show that a tick's work stays
 * bounded however dense the crowd.  Two rows split the crowd into 8 groups,
 * each with its own goal (8 fields, agents of every group everywhere, so
 * every agent meets others coming towards it), once with congestion-aware
 * routing solving the 8 fields again every 2 s (40 ticks): its rows time
 * 80 ticks, so the solves are amortised, and give the time of one solve
 * of all 8 fields apart.  The main rows run on one thread (as the peers
 * do), and again with the sim's second thread, whose gain only the wall
 * time shows.
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
 * the processor time the process spent per tick, all its threads together
 * (with one thread, what the wall time would be on an idle machine, give
 * or take caches). */
static double time_sim(ff_sim *sim, int warm, int ticks, double *cpu)
{
	double t0, c0;

	for (int t = 0; t < warm; t++)
		ff_sim_step(sim);
	t0 = ff_bench_ms(CLOCK_MONOTONIC);
	c0 = ff_bench_ms(CLOCK_PROCESS_CPUTIME_ID);
	for (int t = 0; t < ticks; t++)
		ff_sim_step(sim);
	*cpu = (ff_bench_ms(CLOCK_PROCESS_CPUTIME_ID) - c0) / ticks;
	return (ff_bench_ms(CLOCK_MONOTONIC) - t0) / ticks;
}

/* Gives L GROUPS groups, each with a goal disc of its own on a ring around
 * the middle and a spawn area over the whole level; false on failure. */
static bool make_groups(ff_level *l, int groups)
{
	static const int ring[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1},
				       {1, -1}};
	ff_shape all = {FF_SHAPE_RECT, 0, 0, l->w, l->h, 0};
	ff_spawn sp = {all, 1, 0, 0};

	ff_level_goal_clear(l, NULL);
	ff_level_spawn_clear(l, NULL);
	for (int g = 0; g < groups; g++) {
		ff_shape goal = {FF_SHAPE_CIRCLE, l->w / 2 + ring[g % 8][0] * (l->w / 2 - 40),
				 l->h / 2 + ring[g % 8][1] * (l->h / 2 - 40), 0, 0, 8};
		char name[16];

		snprintf(name, sizeof name, "g%d", g + 1);
		if (ff_level_goal_add_to(l, &goal, name, NULL) != FF_OK ||
		    ff_level_spawn_add_to(l, &sp, name, NULL) != FF_OK)
			return false;
	}
	return true;
}

/* A sim of N agents spread over L (in GROUPS groups, or the default one
 * when 0), or NULL. */
static ff_sim *spread(ff_level *l, ff_fields *fields, long n, int groups)
{
	ff_shape all = {FF_SHAPE_RECT, 0, 0, l->w, l->h, 0};
	ff_spawn sp = {all, 1, 0, 0};
	ff_sim *sim;

	ff_level_spawn_clear(l, NULL);
	if (groups ? !make_groups(l, groups) : ff_level_spawn_add(l, &sp, NULL) != FF_OK)
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
	int groups;                  /* 0: the default group alone */
	double route;                /* route_interval, s (0: off) */
	int threads;                 /* ff_sim_set_threads() */
	int after;                   /* ticks run before the timed ones, for a
				      * crowd that has walked and mixed (not
				      * with --quick) */
} bench_row;

static bool row(FILE *out, const bench_row *r, bool quick)
{
	ff_solver_opts opts = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_CHEAPEST, 0, false};
	ff_level *l = bench_level(r->side);
	ff_fields *fields = l ? ff_fields_create(l, &opts) : NULL;
	const ff_solver *solver;
	ff_sim *sim = NULL;
	double ms, cpu = 0;
	long agents;
	bool ok = false;

	if (!fields || (!r->groups && ff_fields_get(fields, 0, &solver) != FF_OK)) {
		ff_cli_error("sim bench: cannot set up the level");
		goto out;
	}
	if (r->route > 0)
		ff_level_param_set(l, FF_P_ROUTE_INTERVAL, r->route, NULL);
	if (!(sim = spread(l, fields, r->agents, r->groups))) {
		ff_cli_error("sim bench: cannot spawn %ld agents", r->agents);
		goto out;
	}
	if (r->pile)
		pile_up(l, sim);
	ff_sim_set_threads(sim, r->threads);
	for (int t = 0; t < r->after; t++)
		ff_sim_step(sim);
	agents = (long)ff_sim_count(sim);
	ms = time_sim(sim, quick ? 1 : 5, quick ? 3 : r->route > 0 ? 80 : 20, &cpu);
	fprintf(out, "%-30s %10ld %7d %10.2f %10.1f %12.2f\n", r->what, agents,
		r->threads ? r->threads : 2, ms, ms * 1e6 / (double)agents, cpu);
	if (r->groups && !r->route && r->threads == 1 && !r->after) {
		double cells = (double)r->side * r->side;

		fprintf(out, "%-30s %10s %7s %10s %10s %12.2f\n", "  field bytes/cell a group", "", "",
			"", "", (double)ff_fields_bytes(fields) / r->groups / cells);
		fprintf(out, "%-30s %10s %7s %10s %10s %12.2f\n", "  crowd's copy, bytes/cell",
			"", "", "", "", (double)ff_sim_flow_bytes(sim) / r->groups / cells);
	}
	if (r->route > 0 && r->threads == 1) {
		double t0 = ff_bench_ms(CLOCK_MONOTONIC), c0 = ff_bench_ms(CLOCK_PROCESS_CPUTIME_ID);

		ff_fields_crowd_changed(fields);
		fprintf(out, "%-30s %10s %7s %10.2f %10s %12.2f\n", "  one solve of the 8 fields", "",
			"", ff_bench_ms(CLOCK_MONOTONIC) - t0, "",
			ff_bench_ms(CLOCK_PROCESS_CPUTIME_ID) - c0);
	}
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
		{"512x512", 512, 1000, false, 0, 0, 1, 0},
		{"512x512", 512, 10000, false, 0, 0, 1, 0},
		{"512x512", 512, 100000, false, 0, 0, 1, 0},
		{"512x512", 512, 100000, false, 0, 0, 0, 0},
		{"512x512, piled on a spot", 512, 100000, true, 0, 0, 1, 0},
		{"512x512, 8 groups", 512, 100000, false, 8, 0, 1, 0},
		{"512x512, 8 groups", 512, 100000, false, 8, 0, 0, 0},
		{"512x512, 8 groups, at 30 s", 512, 100000, false, 8, 0, 1, 600},
		{"512x512, 8 groups, at 30 s", 512, 100000, false, 8, 0, 0, 600},
		{"512x512, 8 groups, routing", 512, 100000, false, 8, 2, 1, 0},
		{"512x512, 8 groups, routing", 512, 100000, false, 8, 2, 0, 0},
		{"2048x2048", 2048, 1000000, false, 0, 0, 1, 0},
		{"2048x2048", 2048, 1000000, false, 0, 0, 0, 0},
	};

	fprintf(out, "sim: 0.5 m cells, speed-density + separation + funnelling; cpu: all threads\n");
	fprintf(out, "%-30s %10s %7s %10s %10s %12s\n", "level", "agents", "threads", "ms/tick",
		"ns/agent", "cpu ms/tick");
	for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++)
		if ((!quick || (rows[k].side <= 512 && !rows[k].after)) && !row(out, &rows[k], quick))
			return false;
	return true;
}
