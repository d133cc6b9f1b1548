/*
 * check_sim.c - the crowd simulation: its PRNG, determinism of the state
 * hash, the shipped scenarios (all arrive at chokepoint, doors in rooms,
 * nearest exits in exits), bodies placed without overlap, sources, terrain
 * that slows walking, counting lines, a property test that no agent ever
 * ends a tick in a wall or outside the level, and no allocation in
 * ff_sim_step().  The crowd against published experiments is
 * tests/validation/validate.c.
 *
 * The bound on agents per cell: bodies have radius 0.2 m, 0.4 of a 0.5 m
 * cell, so at most four non-overlapping centres fit in a cell (five points
 * in a unit square are at best 0.707 apart, less than 0.8).  Overlaps are
 * undone over a few ticks, so a crowd pressed against a wall may briefly
 * hold one more; 6 in a cell means bodies squeezed to 0.6 apart, the most
 * we accept.
 */
#define _POSIX_C_SOURCE 200809L /* pthread_sigmask, nanosleep */

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/rng.h"
#include "core/sim.h"
#include "core/solver.h"
#include "core/level_text.h"
#include "core/sim_impl.h"
#include "core/sim_spatial.h"
#include "testutil.h"

#define MAX_PER_CELL 6

#include "allocwrap.h"

/* --- helpers ------------------------------------------------------------- */

typedef struct world {
	ff_level *l;
	ff_fields *f;            /* the groups' fields */
	const ff_solver *sv;     /* the default group's */
	ff_sim *sim;
} world;

static ff_level *load(const char *name)
{
	ff_level *l = NULL;
	ff_diag d;
	size_t len;
	char *text = tu_read(FF_LEVELSDIR, name, &len);

	ck_assert_int_eq(ff_textlevel_parse(text, len, &l, &d), FF_OK);
	free(text);
	return l;
}

/* The fields of W's level solved with METHOD, the default group's now. */
static void solve_with(world *w, ff_method method)
{
	ff_solver_opts o = {method, 8, 1, FF_ARROW_CHEAPEST, 0, false};

	w->f = ff_fields_create(w->l, &o);
	ck_assert_ptr_nonnull(w->f);
	ck_assert_int_eq(ff_fields_get(w->f, 0, &w->sv), FF_OK);
}

static void solve(world *w)
{
	solve_with(w, FF_METHOD_FMM);
}

/* Opens level NAME with SEED, FLAGS and AGENTS (< 0: the level's counts). */
static void open_world(world *w, const char *name, uint64_t seed, unsigned flags,
		       long agents)
{
	w->l = load(name);
	ck_assert_int_eq(ff_level_param_set(w->l, FF_P_SEED, (double)seed, NULL), FF_OK);
	solve(w);
	w->sim = ff_sim_create(w->l, w->f, 0);
	ck_assert_ptr_nonnull(w->sim);
	ff_sim_set_flags(w->sim, flags);
	ck_assert_int_eq(ff_sim_spawn_level(w->sim, agents), FF_OK);
}

static void close_world(world *w)
{
	ff_sim_destroy(w->sim);
	ff_fields_destroy(w->f);
	ff_level_destroy(w->l);
}

/* Every agent's centre is inside the level on a passable cell. */
static void check_placement(const world *w)
{
	ff_agent a;

	for (size_t i = 0; i < ff_sim_count(w->sim); i++) {
		int cx, cy;

		ff_sim_agent(w->sim, i, &a);
		ck_assert_msg(a.x >= 0 && a.y >= 0 && a.x < w->l->w && a.y < w->l->h,
			      "agent %u left the level at (%g, %g)", a.id, a.x, a.y);
		cx = (int)a.x;
		cy = (int)a.y;
		ck_assert_msg(ff_level_cost(w->l, cx, cy) != FF_WALL,
			      "agent %u in wall cell (%d, %d)", a.id, cx, cy);
	}
}

/* Steps until no agent is alive or BUDGET ticks; checks every tick has no
 * wall violation and at most MAXCELL agents in a cell.  Returns ticks. */
static long run_all(world *w, long budget, int maxcell)
{
	for (long t = 1; t <= budget; t++) {
		const ff_sim_stats *st;

		ff_sim_step(w->sim);
		st = ff_sim_last(w->sim);
		ck_assert_int_eq(st->wall_violations, 0);
		ck_assert_int_le(st->max_per_cell, maxcell);
		if (st->alive == 0)
			return t;
	}
	return budget + 1;
}

/* --- PRNG ---------------------------------------------------------------- */

START_TEST(rng_is_seeded_and_uniform)
{
	ff_rng a, b, c;
	double sum = 0;

	ff_rng_seed(&a, 42);
	ff_rng_seed(&b, 42);
	ff_rng_seed(&c, 43);
	for (int i = 0; i < 1000; i++) {
		uint64_t x = ff_rng_next(&a);

		ck_assert_uint_eq(x, ff_rng_next(&b));
		ck_assert(x != ff_rng_next(&c));
	}
	for (int i = 0; i < 100000; i++) {
		double u = ff_rng_uniform(&a);
		double r = ff_rng_range(&a, -2, 3);

		ck_assert(u >= 0 && u < 1);
		ck_assert(r >= -2 && r <= 3);
		ck_assert_uint_lt(ff_rng_below(&a, 7), 7);
		sum += u;
	}
	ck_assert_double_eq_tol(sum / 100000, 0.5, 0.01);
	ck_assert_uint_eq(ff_rng_below(&a, 0), 0);
	ck_assert_uint_eq(ff_rng_at(5, 9), ff_rng_at(5, 9));
	ck_assert(ff_rng_at(5, 9) != ff_rng_at(5, 10));
	ck_assert(ff_rng_unit(~0ull) < 1.0);
}
END_TEST

/* Seed 0 works and a fixed seed gives this exact first output on every
 * build: the stream is part of the replay format. */
START_TEST(rng_stream_is_fixed)
{
	ff_rng r;

	ff_rng_seed(&r, 0);
	ck_assert(ff_rng_next(&r) != 0);
	ff_rng_seed(&r, 1);
	ck_assert_uint_eq(ff_rng_next(&r), 0xb3f2af6d0fc710c5ull);
}
END_TEST

/* --- determinism ----------------------------------------------------------- */

static uint64_t run_hash(uint64_t seed, unsigned flags, long ticks, long agents)
{
	world w;
	uint64_t h;

	open_world(&w, "chokepoint.level", seed, flags, agents);
	for (long t = 0; t < ticks; t++)
		ff_sim_step(w.sim);
	h = ff_sim_hash(w.sim);
	close_world(&w);
	return h;
}

START_TEST(same_seed_same_hash)
{
	uint64_t a = run_hash(7, 0, 150, 500);

	ck_assert_uint_eq(a, run_hash(7, 0, 150, 500));
	ck_assert(a != run_hash(8, 0, 150, 500));
	ck_assert(a != run_hash(7, FF_SIM_NO_FUNNEL, 150, 500));
	ck_assert(a != run_hash(7, 0, 149, 500));
}
END_TEST

/* Mid-run, with all 500 agents still on the level, the state hash after
 * 'fieldmarshal sim levels/chokepoint.level --ticks 300' is this on every
 * build (-O2, -O0, sanitizers, with or without SSE2): the arithmetic is
 * IEEE-exact and in a fixed order.  Update it, and say so, only when the
 * model's arithmetic changes on purpose (tests/replays change with it). */
#define CHOKEPOINT_300 0x78f88c699a80ded2ull

START_TEST(hash_is_the_same_on_every_build)
{
	ck_assert_uint_eq(run_hash(1, 0, 300, 500), CHOKEPOINT_300);
}
END_TEST

/* The hash covers positions bit for bit: nudging one agent changes it. */
START_TEST(hash_sees_every_agent)
{
	world w;
	uint64_t h0, h1;

	open_world(&w, "chokepoint.level", 1, 0, 50);
	h0 = ff_sim_hash(w.sim);
	ck_assert_uint_eq(h0, ff_sim_hash(w.sim));
	ck_assert_int_eq(ff_sim_spawn_at(w.sim, 5.5, 5.5, 1, 0, 0, NULL), FF_OK);
	h1 = ff_sim_hash(w.sim);
	ck_assert(h0 != h1);
	close_world(&w);
}
END_TEST

/* --- scenarios ------------------------------------------------------------ */

/* The gap of chokepoint.level: column 40, rows 15 and 16, drawn
 * downwards, so agents heading east count +1. */
#define GAP_LINE 40, 15, 40, 17
/* The hash after 'fieldmarshal sim levels/chokepoint.level' (seed 1, run
 * to the end): every build (-O0, sanitizers, -O2, any IEEE host) must
 * reach exactly this state. */
#define CHOKEPOINT_HASH 0x126054f3b5a6e0b0ull

/* Chokepoint, 500 agents through a 1 m gap: everyone arrives within the
 * budget with and without funnelling, never in a wall, each crossing the
 * gap's line once (net), at a flow the experiments allow for a 1 m
 * bottleneck (1.86 /s, Seyfried 2009; 25% either way); funnelling costs
 * at most 2% of it. */
START_TEST(chokepoint_passes_at_a_door_s_pace)
{
	for (uint64_t seed = 1; seed <= 2; seed++) {
		double flow[2];

		for (int k = 0; k < 2; k++) {
			world w;
			ff_sim_line ln;
			long t;

			open_world(&w, "chokepoint.level", seed, k ? FF_SIM_NO_FUNNEL : 0, 500);
			ck_assert_int_eq(ff_sim_add_line(w.sim, GAP_LINE, NULL), FF_OK);
			t = run_all(&w, 8000, MAX_PER_CELL);
			ck_assert_int_le(t, 8000);
			ck_assert_int_eq(ff_sim_totals_get(w.sim)->arrived, 500);
			ck_assert_int_eq(ff_sim_totals_get(w.sim)->wall_violations, 0);
			ff_sim_line_get(w.sim, 0, &ln);
			ck_assert_int_eq(ln.crossings, 500);
			flow[k] = ln.flow / w.l->meta.params[FF_P_DT];
			ck_assert_msg(flow[k] >= 0.75 * 1.86 && flow[k] <= 1.25 * 1.86,
				      "seed %d: %.3f agents/s through 1 m", (int)seed, flow[k]);
			if (seed == 1 && k == 0)
				ck_assert_uint_eq(ff_sim_hash(w.sim), CHOKEPOINT_HASH);
			close_world(&w);
		}
		ck_assert_msg(flow[0] >= 0.98 * flow[1], "seed %d: funnel %.3f vs none %.3f /s",
			      (int)seed, flow[0], flow[1]);
	}
}
END_TEST

/* Lines only observe: the run's hash is the same with them; each count is
 * net and signed by the line's direction; the flow between 10% and 90%
 * of the crossings is computed from the ticks they happened at, the same
 * whichever way the line is drawn; bad lines are refused. */
START_TEST(line_counts_net_crossings)
{
	world a, b;
	ff_sim_line la, lb;
	int k;

	open_world(&a, "chokepoint.level", 4, 0, 200);
	open_world(&b, "chokepoint.level", 4, 0, 200);
	ck_assert_int_eq(ff_sim_add_line(a.sim, GAP_LINE, &k), FF_OK);
	ck_assert_int_eq(k, 0);
	ck_assert_int_eq(ff_sim_add_line(b.sim, 40, 17, 40, 15, NULL), FF_OK);
	ck_assert_int_eq(ff_sim_add_line(b.sim, 1, 1, 1, 1, NULL), FF_E_INVAL);
	ck_assert_int_eq(ff_sim_add_line(b.sim, NAN, 1, 2, 1, NULL), FF_E_INVAL);
	ck_assert_int_eq(ff_sim_add_line(b.sim, 0, 1, INFINITY, 1, NULL), FF_E_INVAL);
	ck_assert_int_eq(ff_sim_nlines(b.sim), 1);
	for (int t = 0; t < 1500; t++) {
		ff_sim_step(a.sim);
		ff_sim_step(b.sim);
		ck_assert_int_ge(ff_sim_last(a.sim)->crossings[0], 0);
		ck_assert_int_eq(ff_sim_last(a.sim)->crossings[0], -ff_sim_last(b.sim)->crossings[0]);
	}
	ff_sim_line_get(a.sim, 0, &la);
	ff_sim_line_get(b.sim, 0, &lb);
	ck_assert_int_gt(la.crossings, 50);
	ck_assert_int_eq(lb.crossings, -la.crossings);
	ck_assert_int_ge(la.crossings, ff_sim_totals_get(a.sim)->arrived);
	ck_assert_int_gt(la.first, 0);
	ck_assert_int_ge(la.last, la.t90);
	ck_assert_int_ge(la.t90, la.t10);
	ck_assert_int_ge(la.t10, la.first);
	ck_assert(la.flow > 0);
	/* the line drawn the other way measures the same flow */
	ck_assert_int_eq(lb.t10, la.t10);
	ck_assert_int_eq(lb.t90, la.t90);
	ck_assert(lb.flow == la.flow);
	ck_assert_double_eq_tol(la.flow, (double)(la.crossings * 9 / 10 - (la.crossings + 9) / 10) /
					  (double)(la.t90 - la.t10), 1e-12);
	ck_assert_uint_eq(ff_sim_hash(a.sim), ff_sim_hash(b.sim));
	ck_assert_uint_eq(ff_sim_hash(a.sim), run_hash(4, 0, 1500, 200));
	/* A line away from every path counts nothing; clearing stops it. */
	ck_assert_int_eq(ff_sim_add_line(b.sim, 2, 30, 3, 30, &k), FF_OK);
	ck_assert_int_eq(k, 1);
	ff_sim_step(b.sim);
	ck_assert_int_eq(ff_sim_last(b.sim)->crossings[1], 0);
	ff_sim_clear_lines(a.sim);
	ck_assert_int_eq(ff_sim_nlines(a.sim), 0);
	for (int i = 0; i < FF_SIM_LINES_MAX; i++)
		ck_assert_int_eq(ff_sim_add_line(a.sim, 1, 1, 2, 2, NULL), FF_OK);
	ck_assert_int_eq(ff_sim_add_line(a.sim, 1, 1, 2, 2, NULL), FF_E_FULL);
	close_world(&a);
	close_world(&b);
}
END_TEST

START_TEST(rooms_doors_pass)
{
	world w;

	open_world(&w, "rooms.level", 1, 0, -1);
	ck_assert_int_le(run_all(&w, 12000, MAX_PER_CELL), 12000);
	ck_assert_int_eq(ff_sim_totals_get(w.sim)->arrived, 120);
	close_world(&w);
}
END_TEST

/* Distance from (X, Y) to goal G's cells (a rectangle in exits.level). */
static double goal_dist(const ff_shape *g, double x, double y)
{
	double dx = fmax(fmax(g->x - x, 0), x - (g->x + g->w));
	double dy = fmax(fmax(g->y - y, 0), y - (g->y + g->h));

	return sqrt(dx * dx + dy * dy);
}

/* Exits: agents leave by the exit nearest to where they started, measured
 * by the integration field of each exit alone.  Agents near a dividing
 * line may be pushed across it by the crowd, so counts per exit must match
 * within 10% of the agents, and each agent's choice in 85% of cases. */
START_TEST(exits_split_by_nearness)
{
	world w;
	ff_solver *one[3];
	ff_solver_opts o = {FF_METHOD_FMM, 8, 1, FF_ARROW_CHEAPEST, 0, false};
	double lx[300], ly[300];
	int want[300], got[3] = {0}, expect[3] = {0}, agree = 0;
	ff_agent a;

	open_world(&w, "exits.level", 1, 0, -1);
	ck_assert_int_eq(w.l->meta.ngoals, 3);
	ck_assert_uint_eq(ff_sim_count(w.sim), 300);
	for (int g = 0; g < 3; g++) {
		one[g] = ff_solver_create(w.l->w, w.l->h);
		ck_assert_int_eq(ff_solver_solve(one[g], w.l, &w.l->meta.goals[g], 1, &o), FF_OK);
	}
	for (size_t i = 0; i < 300; i++) {
		double best = INFINITY;

		ff_sim_agent(w.sim, i, &a);
		ck_assert_uint_lt(a.id, 300);
		for (int g = 0; g < 3; g++) {
			double v = ff_solver_value(one[g], (int)a.x, (int)a.y);
			if (v < best) {
				best = v;
				want[a.id] = g;
			}
		}
		expect[want[a.id]]++;
	}
	for (long t = 0; t < 6000 && ff_sim_count(w.sim) > 0; t++) {
		for (size_t i = 0; i < ff_sim_count(w.sim); i++) {
			ff_sim_agent(w.sim, i, &a);
			lx[a.id] = a.x;
			ly[a.id] = a.y;
		}
		ff_sim_step(w.sim);
		ck_assert_int_eq(ff_sim_last(w.sim)->wall_violations, 0);
	}
	ck_assert_uint_eq(ff_sim_count(w.sim), 0);
	for (int id = 0; id < 300; id++) {
		int best = 0;

		for (int g = 1; g < 3; g++)
			if (goal_dist(&w.l->meta.goals[g], lx[id], ly[id]) <
			    goal_dist(&w.l->meta.goals[best], lx[id], ly[id]))
				best = g;
		got[best]++;
		agree += best == want[id];
	}
	for (int g = 0; g < 3; g++) {
		ck_assert_msg(abs(got[g] - expect[g]) <= 30, "exit %d: %d left, %d nearest",
			      g, got[g], expect[g]);
		ck_assert_int_gt(expect[g], 0);
		ff_solver_destroy(one[g]);
	}
	ck_assert_int_ge(agree, 255);
	close_world(&w);
}
END_TEST

/* --- properties ----------------------------------------------------------- */

/* A random W x H level: 25% walls, a wall line or two, one goal cell. */
static ff_level *random_level(uint64_t *rs)
{
	int w = tu_range(rs, 4, 40), h = tu_range(rs, 4, 30);
	ff_level *l = ff_level_create(w, h, "prop");
	ff_shape goal = {FF_SHAPE_CELL, 0, 0, 0, 0, 0};
	ff_shape all = {FF_SHAPE_RECT, 0, 0, w, h, 0};
	ff_spawn sp = {all, 1, 0, 0};

	ck_assert_ptr_nonnull(l);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			if (tu_range(rs, 0, 3) == 0)
				ff_level_paint(l, x, y, FF_WALL, NULL);
	for (int k = tu_range(rs, 0, 2); k > 0; k--)
		ff_level_line(l, tu_range(rs, 0, w - 1), tu_range(rs, 0, h - 1),
			      tu_range(rs, 0, w - 1), tu_range(rs, 0, h - 1), FF_WALL, NULL);
	do {
		goal.x = tu_range(rs, 0, w - 1);
		goal.y = tu_range(rs, 0, h - 1);
	} while (ff_level_cost(l, goal.x, goal.y) == FF_WALL &&
		 ff_level_paint(l, goal.x, goal.y, 1, NULL) != FF_OK);
	ck_assert_int_eq(ff_level_goal_add(l, &goal, NULL), FF_OK);
	ck_assert_int_eq(ff_level_spawn_add(l, &sp, NULL), FF_OK);
	return l;
}

static void random_params(ff_level *l, uint64_t *rs)
{
	static const double dts[] = {0.02, 0.05, 0.1, 0.25};

	ff_level_param_set(l, FF_P_RADIUS, 0.025 + 0.225 * tu_range(rs, 0, 100) / 100.0, NULL);
	ff_level_param_set(l, FF_P_SPEED, tu_range(rs, 1, 30) / 2.0, NULL);
	ff_level_param_set(l, FF_P_ACCEL, tu_range(rs, 1, 200) / 2.0, NULL);
	ff_level_param_set(l, FF_P_DT, dts[tu_range(rs, 0, 3)], NULL);
	ff_level_param_set(l, FF_P_SEP_WEIGHT, tu_range(rs, 0, 30) / 10.0, NULL);
	ff_level_param_set(l, FF_P_JITTER, tu_range(rs, 0, 60), NULL);
	ff_level_param_set(l, FF_P_FUNNEL_DENSITY, tu_range(rs, 0, 10) / 2.0, NULL);
	ff_level_param_set(l, FF_P_LOOK_AHEAD, tu_range(rs, 0, 10) / 4.0, NULL);
	ff_level_param_set(l, FF_P_FUNNEL_WEIGHT, tu_range(rs, 0, 10) / 10.0, NULL);
	ff_level_param_set(l, FF_P_SEED, (double)tu_range(rs, 0, 1000000), NULL);
}

/* Spawns N agents over the level's areas, or as many as fit. */
static void spawn_what_fits(ff_sim *sim, long n)
{
	ff_sim_spawn_fail f;
	ff_err e;

	while ((e = ff_sim_spawn_level(sim, n)) == FF_E_FULL) {
		ck_assert(ff_sim_spawn_failure(sim, &f));
		ck_assert_int_eq(f.asked, n);
		ck_assert_int_lt(f.fit, n);
		n = f.fit;
	}
	ck_assert_int_eq(e, FF_OK);
}

/* A and B are the same run after a tick: the same hash, summed speed,
 * counts and line crossings, and ff_sim_agent() gives the same agents (a
 * sample of them), in id order. */
static void same_state(const world *a, const world *b)
{
	const ff_sim_stats *p = ff_sim_last(a->sim), *q = ff_sim_last(b->sim);

	ck_assert_uint_eq(ff_sim_hash(b->sim), ff_sim_hash(a->sim));
	ck_assert(q->mean_speed == p->mean_speed && q->max_speed == p->max_speed &&
		  q->max_density == p->max_density);
	ck_assert(q->arrivals == p->arrivals && q->alive == p->alive &&
		  q->stranded == p->stranded && q->max_per_cell == p->max_per_cell);
	for (int k = 0; k < FF_SIM_LINES_MAX; k++)
		ck_assert_int_eq(q->crossings[k], p->crossings[k]);
	ck_assert_uint_eq(ff_sim_count(b->sim), ff_sim_count(a->sim));
	for (size_t i = 0; i < ff_sim_count(b->sim); i += 7) {
		ff_agent u, v;

		ff_sim_agent(a->sim, i, &u);
		ff_sim_agent(b->sim, i, &v);
		ck_assert(u.id == v.id && u.x == v.x && u.y == v.y && u.vx == v.vx &&
			  u.state == v.state && u.group == v.group);
		if (i) {
			ff_sim_agent(b->sim, i - 1, &u);
			ck_assert_uint_lt(u.id, v.id);
		}
	}
}

/* Random levels, parameters and seeds, agents spawned in bulk and at
 * points, a wall painted over the crowd halfway: after every tick every
 * agent is inside the level on a passable cell.  A twin of each run, its
 * agents stored in the grid's order every 1, 2 or 3 ticks, is the same
 * run after every tick. */
START_TEST(never_in_a_wall)
{
	uint64_t rs = 0x5eed0000u + (uint64_t)_i;

	for (int run = 0; run < 10; run++) {
		world w[2];
		ff_method method;
		unsigned flags;
		long n;

		w[0].l = random_level(&rs);
		random_params(w[0].l, &rs);
		w[1].l = ff_level_clone(w[0].l);
		ck_assert_ptr_nonnull(w[1].l);
		method = tu_range(&rs, 0, 1) ? FF_METHOD_FMM : FF_METHOD_DIJKSTRA;
		flags = (unsigned)tu_range(&rs, 0, 7);
		n = tu_range(&rs, 1, 120);
		for (int k = 0; k < 2; k++) {
			solve_with(&w[k], method);
			w[k].sim = ff_sim_create(w[k].l, w[k].f, 4);
			ff_sim_set_flags(w[k].sim, flags);
			spawn_what_fits(w[k].sim, n);
			w[k].sim->regrid_ticks = k ? 1 + run % 3 : 0;
		}
		check_placement(&w[0]);
		for (int t = 0; t < 80; t++) {
			int x = tu_range(&rs, 0, w[0].l->w - 1), y = tu_range(&rs, 0, w[0].l->h - 1);

			for (int k = 0; k < 2; k++) {
				world *v = &w[k];

				if (t % 10 == 0 && ff_level_cost(v->l, x, y) != FF_WALL)
					ck_assert_int_eq(ff_sim_spawn_at(v->sim, x + 0.5, y + 0.5, 5, 1.5,
									 0, NULL), FF_OK);
				if (t == 40 && !ff_level_is_goal(v->l, x, y) &&
				    ff_level_cost(v->l, x, y) != FF_WALL) {
					ff_level_paint(v->l, x, y, FF_WALL, NULL);
					ff_fields_cells_changed(v->f, x, y, x, y);
					ck_assert_int_eq(ff_sim_refresh(v->sim), FF_OK);
				}
				ff_sim_step(v->sim);
			}
			ck_assert_int_eq(ff_sim_last(w[0].sim)->wall_violations, 0);
			check_placement(&w[0]);
			same_state(&w[0], &w[1]);
		}
		for (int k = 0; k < 2; k++)
			close_world(&w[k]);
	}
}
END_TEST

/* --- edge cases ----------------------------------------------------------- */

/* Agents walled off from the goal stop and count as stranded; the others
 * arrive; --until-arrived logic (alive == stranded) terminates. */
START_TEST(unreachable_agents_are_stranded)
{
	world w;
	ff_agent a;
	ff_shape goal = {FF_SHAPE_RECT, 16, 0, 4, 10, 0};
	ff_shape pocket = {FF_SHAPE_RECT, 1, 1, 3, 3, 0};
	ff_shape field = {FF_SHAPE_RECT, 8, 2, 4, 6, 0};
	ff_spawn s1 = {pocket, 5, 0, 0}, s2 = {field, 10, 0, 0};

	w.l = ff_level_create(20, 10, "strand");
	ff_level_rect(w.l, 0, 0, 5, 1, FF_WALL, NULL);
	ff_level_rect(w.l, 0, 4, 5, 1, FF_WALL, NULL);
	ff_level_rect(w.l, 4, 0, 1, 5, FF_WALL, NULL);
	ck_assert_int_eq(ff_level_goal_add(w.l, &goal, NULL), FF_OK);
	ck_assert_int_eq(ff_level_spawn_add(w.l, &s1, NULL), FF_OK);
	ck_assert_int_eq(ff_level_spawn_add(w.l, &s2, NULL), FF_OK);
	solve(&w);
	w.sim = ff_sim_create(w.l, w.f, 0);
	ck_assert_int_eq(ff_sim_spawn_level(w.sim, -1), FF_OK);
	for (int t = 0; t < 400; t++)
		ff_sim_step(w.sim);
	ck_assert_int_eq(ff_sim_last(w.sim)->alive, 5);
	ck_assert_int_eq(ff_sim_last(w.sim)->stranded, 5);
	ck_assert_int_eq(ff_sim_totals_get(w.sim)->arrived, 10);
	for (size_t i = 0; i < ff_sim_count(w.sim); i++) {
		ff_sim_agent(w.sim, i, &a);
		ck_assert_int_eq(a.state, FF_AGENT_STRANDED);
		ck_assert(a.vx == 0 && a.vy == 0);
		ck_assert(a.x < 4 && a.y < 4);
	}
	close_world(&w);
}
END_TEST

START_TEST(bad_arguments)
{
	world w;
	ff_level *empty;
	ff_sim *sim;

	open_world(&w, "chokepoint.level", 1, 0, 10);
	ck_assert_ptr_null(ff_sim_create(NULL, w.f, 1));
	ck_assert_ptr_null(ff_sim_create(w.l, NULL, 1));
	ck_assert_int_eq(ff_sim_spawn_at(w.sim, -1, 5, 1, 0, 0, NULL), FF_E_RANGE);
	ck_assert_int_eq(ff_sim_spawn_at(w.sim, 64, 5, 1, 0, 0, NULL), FF_E_RANGE);
	ck_assert_int_eq(ff_sim_spawn_at(w.sim, 0.5, 0.5, 1, 0, 0, NULL), FF_E_WALL);
	ck_assert_int_eq(ff_sim_spawn_at(w.sim, 5.5, 5.5, -1, 0, 0, NULL), FF_E_INVAL);
	ck_assert_int_eq(ff_sim_spawn_at(w.sim, 5.5, 5.5, 1, -1, 0, NULL), FF_E_INVAL);
	ck_assert_uint_eq(ff_sim_count(w.sim), 10);
	ck_assert_int_eq(ff_sim_spawn_at(w.sim, 5.5, 5.5, 3, 0, 0, NULL), FF_OK);
	ck_assert_uint_eq(ff_sim_count(w.sim), 13);
	ff_sim_clear(w.sim);
	ck_assert_uint_eq(ff_sim_count(w.sim), 0);
	ck_assert_int_gt((long)ff_sim_bytes(w.sim), 64 * 32);
	/* the default group's copy: a direction byte and a goal bit a cell */
	ck_assert_uint_eq(ff_sim_flow_bytes(w.sim), 64 * 32 + 64 * 32 / 8);
	empty = ff_level_create(64, 32, "empty");
	{
		ff_solver_opts o = {FF_METHOD_FMM, 8, 1, FF_ARROW_CHEAPEST, 0, false};
		ff_fields *ef = ff_fields_create(empty, &o);

		sim = ff_sim_create(empty, ef, 0);
		ck_assert_int_eq(ff_sim_spawn_level(sim, -1), FF_E_NOTFOUND);
		ff_sim_destroy(sim);
		ff_fields_destroy(ef);
	}
	ff_level_destroy(empty);
	ff_sim_destroy(NULL);
	close_world(&w);
}
END_TEST

/* Buffers are sized when agents are spawned; a tick allocates nothing. */
START_TEST(step_allocates_nothing)
{
	world w;
	long before;

	open_world(&w, "chokepoint.level", 1, 0, 500);
	before = allocs;
	for (int t = 0; t < 50; t++)
		ff_sim_step(w.sim);
	ck_assert_int_eq(allocs, before);
	close_world(&w);
}
END_TEST

/* Per-tick statistics add up to the totals, and arrived agents can stay. */
START_TEST(stats_add_up)
{
	world w;
	long arrivals = 0, ticks = 0;

	open_world(&w, "open.level", 3, FF_SIM_KEEP_ARRIVED, -1);
	while (ff_sim_last(w.sim)->alive > 0 || ticks == 0) {
		const ff_sim_stats *st;

		ff_sim_step(w.sim);
		st = ff_sim_last(w.sim);
		arrivals += st->arrivals;
		ticks++;
		ck_assert_int_eq(st->tick, ticks);
		ck_assert_int_eq(st->arrived, arrivals);
		ck_assert(st->mean_speed >= 0 && st->mean_speed <= st->max_speed + 1e-9);
		ck_assert(st->max_speed <= w.l->meta.params[FF_P_SPEED] /
					   w.l->meta.params[FF_P_CELL_SIZE] + 1e-9);
		ck_assert_int_lt(ticks, 8000);
	}
	ck_assert_int_eq(ff_sim_totals_get(w.sim)->arrived, arrivals);
	ck_assert_int_eq(ff_sim_totals_get(w.sim)->spawned, arrivals);
	ck_assert_uint_eq(ff_sim_count(w.sim), (size_t)arrivals);
	close_world(&w);
}
END_TEST


/* --- bodies, sources, terrain ------------------------------------------------- */

/* An open W x H level with one goal cell at the right edge and one spawn
 * area AREA of COUNT agents (RATE: a source). */
static ff_level *open_level(int w, int h, ff_shape area, int count, double rate)
{
	ff_level *l = ff_level_create(w, h, "open");
	ff_shape goal = {FF_SHAPE_RECT, w - 1, 0, 1, h, 0};
	ff_spawn sp = {area, count, rate, 0};

	ck_assert_ptr_nonnull(l);
	ck_assert_int_eq(ff_level_goal_add(l, &goal, NULL), FF_OK);
	ck_assert_int_eq(ff_level_spawn_add(l, &sp, NULL), FF_OK);
	return l;
}

static void open_built(world *w, ff_level *l)
{
	w->l = l;
	solve(w);
	w->sim = ff_sim_create(w->l, w->f, 0);
	ck_assert_ptr_nonnull(w->sim);
}

/* Every pair of bodies at least two radii apart (up to rounding), every
 * body clear of walls and the level's edge: checked pair by pair. */
static void check_no_overlap(const world *w)
{
	double r = w->l->meta.params[FF_P_RADIUS] / w->l->meta.params[FF_P_CELL_SIZE];
	size_t n = ff_sim_count(w->sim);
	ff_agent a, b;

	for (size_t i = 0; i < n; i++) {
		ff_sim_agent(w->sim, i, &a);
		ck_assert(a.x >= r && a.y >= r && a.x <= w->l->w - r && a.y <= w->l->h - r);
		for (size_t j = i + 1; j < n; j++) {
			ff_sim_agent(w->sim, j, &b);
			ck_assert_msg(hypot(a.x - b.x, a.y - b.y) >= 2 * r - 1e-12,
				      "agents %u and %u overlap", a.id, b.id);
		}
	}
}

/* A crowd placed at 3.5 agents per m^2 (packing fraction 0.44, below the
 * 0.547 of random sequential addition): nobody overlaps anybody. */
START_TEST(spawned_bodies_do_not_overlap)
{
	ff_shape area = {FF_SHAPE_RECT, 0, 0, 20, 20, 0};
	world w;

	/* 20 x 20 cells of 0.25 m^2: 100 m^2 */
	open_built(&w, open_level(24, 20, area, 350, 0));
	ck_assert_int_eq(ff_sim_spawn_level(w.sim, -1), FF_OK);
	ck_assert_uint_eq(ff_sim_count(w.sim), 350);
	check_no_overlap(&w);
	/* 'sim add' in a spot with room for a few: places what fits */
	{
		long placed;

		ck_assert_int_eq(ff_sim_spawn_at(w.sim, 22.5, 10.5, 50, 0, 0, &placed), FF_OK);
		ck_assert_int_ge(placed, 1);
		ck_assert_int_le(placed, 4); /* at most four fit in a cell */
		ck_assert_uint_eq(ff_sim_count(w.sim), 350 + (size_t)placed);
		check_no_overlap(&w);
	}
	close_world(&w);
}
END_TEST

/* An area that cannot hold its count is refused whole, and says how many
 * fit: no more than hexagonal packing allows (0.9069 of the area in
 * discs), no fewer than half of what random sequential addition reaches
 * (0.547). */
START_TEST(an_area_too_small_is_refused)
{
	ff_shape area = {FF_SHAPE_RECT, 2, 2, 4, 4, 0};
	double disc = 3.14159265358979 * 0.2 * 0.2, room = (4 * 0.5 + 0.4) * (4 * 0.5 + 0.4);
	ff_sim_spawn_fail f;
	world w;

	open_built(&w, open_level(12, 8, area, 100, 0));
	ck_assert(!ff_sim_spawn_failure(w.sim, &f));
	ck_assert_int_eq(ff_sim_spawn_level(w.sim, -1), FF_E_FULL);
	ck_assert_uint_eq(ff_sim_count(w.sim), 0);
	ck_assert_int_eq(ff_sim_totals_get(w.sim)->spawned, 0);
	ck_assert(ff_sim_spawn_failure(w.sim, &f));
	ck_assert_int_eq(f.area, 0);
	ck_assert_int_eq(f.asked, 100);
	ck_assert_int_le(f.fit, (long)(0.9069 * room / disc));
	ck_assert_int_ge(f.fit, (long)(0.5 * 0.547 * 4 / disc));
	/* what fits, fits */
	ck_assert_int_eq(ff_sim_spawn_level(w.sim, f.fit / 2), FF_OK);
	ck_assert(!ff_sim_spawn_failure(w.sim, &f));
	check_no_overlap(&w);
	close_world(&w);
}
END_TEST

/* A source releases RATE agents per second while there is room, until its
 * count: 2 per second over an open corridor arrive at 2 per second. */
START_TEST(a_source_releases_its_rate)
{
	ff_shape area = {FF_SHAPE_RECT, 0, 0, 2, 8, 0};
	world w;
	ff_sim_line ln;
	long seen = 0;

	open_built(&w, open_level(60, 8, area, 100, 2));
	ck_assert_int_eq(ff_sim_spawn_level(w.sim, -1), FF_OK);
	ck_assert_uint_eq(ff_sim_count(w.sim), 0);
	ck_assert_int_eq(ff_sim_pending(w.sim), 100);
	ck_assert_int_eq(ff_sim_add_line(w.sim, 30, 0, 30, 8, NULL), FF_OK);
	for (int t = 1; t <= 200; t++) { /* 10 s */
		ff_sim_step(w.sim);
		seen = ff_sim_totals_get(w.sim)->spawned;
		ck_assert_int_eq(seen + ff_sim_pending(w.sim), 100);
		ck_assert_int_le(seen, (long)(2 * t * 0.05) + 1);
		check_no_overlap(&w);
	}
	ck_assert_int_ge(seen, 19);
	for (int t = 0; t < 2000 && (ff_sim_count(w.sim) || ff_sim_pending(w.sim)); t++)
		ff_sim_step(w.sim);
	ck_assert_int_eq(ff_sim_totals_get(w.sim)->spawned, 100);
	ck_assert_int_eq(ff_sim_totals_get(w.sim)->arrived, 100);
	ff_sim_line_get(w.sim, 0, &ln);
	ck_assert_int_eq(ln.crossings, 100);
	ck_assert_double_eq_tol(ln.flow / 0.05, 2.0, 0.1);
	close_world(&w);
}
END_TEST

/* Terrain of cost C is walked at 1/C of the speed (the speed field of the
 * Eikonal view, F = 1/cost): one agent crossing 10 m of swamp (cost 5)
 * takes five times as long as across grass. */
START_TEST(terrain_slows_walking)
{
	double took[2];

	for (int k = 0; k < 2; k++) {
		ff_shape area = {FF_SHAPE_RECT, 0, 1, 1, 1, 0};
		world w;
		ff_sim_line a, b;

		w.l = open_level(40, 3, area, 1, 0);
		if (k)
			ff_level_rect(w.l, 10, 0, 20, 3, 5, NULL);
		ck_assert_int_eq(ff_level_param_set(w.l, FF_P_JITTER, 0, NULL), FF_OK);
		open_built(&w, w.l);
		ck_assert_int_eq(ff_sim_spawn_level(w.sim, -1), FF_OK);
		ck_assert_int_eq(ff_sim_add_line(w.sim, 12, 0, 12, 3, NULL), FF_OK);
		ck_assert_int_eq(ff_sim_add_line(w.sim, 28, 0, 28, 3, NULL), FF_OK);
		for (int t = 0; t < 4000 && ff_sim_count(w.sim); t++)
			ff_sim_step(w.sim);
		ff_sim_line_get(w.sim, 0, &a);
		ff_sim_line_get(w.sim, 1, &b);
		ck_assert_int_eq(a.crossings, 1);
		ck_assert_int_eq(b.crossings, 1);
		took[k] = (b.first - a.first) * 0.05;
		/* 16 cells of 0.5 m at 1.34 m/s, or a fifth of it */
		ck_assert_double_eq_tol(took[k], 8 / (1.34 / (k ? 5 : 1)), k ? 0.5 : 0.1);
		close_world(&w);
	}
	ck_assert_double_eq_tol(took[1] / took[0], 5, 0.2);
}
END_TEST

/* --free-speed walks a dense crowd at free speed; the speed-density
 * relation slows it: a 2 m corridor at 3 agents per m^2, mean speed after
 * 10 s well below free speed with it, near free speed without. */
START_TEST(speed_falls_with_density)
{
	double v[2];

	for (int k = 0; k < 2; k++) {
		ff_shape area = {FF_SHAPE_RECT, 0, 0, 80, 4, 0};
		world w;
		double sum = 0;
		long n = 0;

		open_built(&w, open_level(120, 4, area, 240, 0)); /* 40 m x 2 m */
		ff_sim_set_flags(w.sim, k ? FF_SIM_FREE_SPEED : 0);
		ck_assert_int_eq(ff_sim_spawn_level(w.sim, -1), FF_OK);
		for (int t = 1; t <= 300; t++) {
			ff_sim_step(w.sim);
			for (size_t i = 0; t > 200 && i < ff_sim_count(w.sim); i++) {
				ff_agent a;

				ff_sim_agent(w.sim, i, &a);
				if (a.x > 20 && a.x < 40) {
					sum += a.vx * 0.5;
					n++;
				}
			}
		}
		v[k] = sum / (double)n;
		close_world(&w);
	}
	/* Weidmann at 3 /m^2: 0.33 m/s */
	ck_assert_msg(v[0] > 0.2 && v[0] < 0.5, "with: %.3f m/s", v[0]);
	ck_assert_msg(v[1] > 1.0, "without: %.3f m/s", v[1]);
}
END_TEST

/* The density field the editor shows is the crowd's own, by hand: with
 * 0.5 m cells and density_radius 0.5 m the window is 3 x 3 cells, and
 * what lies outside the level is no area.  One agent in the corner cell
 * (0,0) is 1 agent in 4 cells (1 m^2) for that cell and 1 in 6 (1.5 m^2)
 * for (1,0); one in (10,10) is 1 in 9 (2.25 m^2) for its neighbours and
 * nothing two cells away.  Before the first tick, on walls and outside:
 * 0. */
START_TEST(density_is_the_crowd_s_own)
{
	ff_shape area = {FF_SHAPE_RECT, 0, 0, 2, 2, 0};
	world w;

	open_built(&w, open_level(24, 20, area, 1, 0));
	ck_assert_int_eq(ff_sim_spawn_at(w.sim, 0.5, 0.5, 1, 0, 0, NULL), FF_OK);
	ck_assert_int_eq(ff_sim_spawn_at(w.sim, 10.5, 10.5, 1, 0, 0, NULL), FF_OK);
	ck_assert(ff_sim_density_at(w.sim, 0, 0) == 0);
	ff_sim_step(w.sim);
	ck_assert_double_eq_tol(ff_sim_density_at(w.sim, 0, 0), 1.0, 1e-6);
	ck_assert_double_eq_tol(ff_sim_density_at(w.sim, 1, 0), 1 / 1.5, 1e-6);
	ck_assert_double_eq_tol(ff_sim_density_at(w.sim, 1, 1), 1 / 2.25, 1e-6);
	for (int y = 9; y <= 11; y++)
		for (int x = 9; x <= 11; x++)
			ck_assert_double_eq_tol(ff_sim_density_at(w.sim, x, y), 1 / 2.25, 1e-6);
	ck_assert(ff_sim_density_at(w.sim, 12, 10) == 0);
	ck_assert(ff_sim_density_at(w.sim, 10, 8) == 0);
	ck_assert(ff_sim_density_at(w.sim, -1, 0) == 0);
	ck_assert(ff_sim_density_at(w.sim, 24, 0) == 0);
	ck_assert(ff_sim_density_at(w.sim, 0, 20) == 0);
	/* gone, and the density with them (rows without anyone are not
	 * summed again, but they are cleared) */
	ff_sim_clear(w.sim);
	ff_sim_step(w.sim);
	for (int y = 0; y < 20; y++)
		for (int x = 0; x < 24; x++)
			ck_assert_msg(ff_sim_density_at(w.sim, x, y) == 0, "%d,%d: %g", x, y,
				      ff_sim_density_at(w.sim, x, y));
	close_world(&w);
}
END_TEST

/* A crowd piled on one spot (a wall painted over it ejects everyone to
 * the one free cell) ticks in bounded work: each agent looks at no more
 * than FF_SIM_CELL_CAP agents of a cell.  Without that bound each of the
 * 150,000 would look at all the others, some 2 x 10^10 pair tests in a
 * tick, and the test would overrun the suite's time limit by far. */
START_TEST(a_pile_ticks_in_bounded_work)
{
	ff_shape area = {FF_SHAPE_RECT, 0, 0, 30, 30, 0};
	world w;

	w.l = open_level(31, 31, area, 150000, 0);
	ck_assert_int_eq(ff_level_param_set(w.l, FF_P_RADIUS, 0.01, NULL), FF_OK);
	open_built(&w, w.l);
	ck_assert_int_eq(ff_sim_spawn_level(w.sim, -1), FF_OK);
	ff_level_rect(w.l, 0, 0, 31, 31, FF_WALL, NULL);
	ff_level_paint(w.l, 15, 15, 1, NULL);
	ff_sim_step(w.sim);
	ck_assert_int_eq(ff_sim_last(w.sim)->wall_violations, 0);
	for (int t = 0; t < 3; t++) {
		ff_sim_step(w.sim);
		ck_assert_int_eq(ff_sim_last(w.sim)->wall_violations, 0);
		if (t == 0) /* all of them were on the spot */
			ck_assert_int_eq(ff_sim_last(w.sim)->max_per_cell, 150000);
	}
	close_world(&w);
}
END_TEST

/* A body radius of more than half a cell is refused before a run. */
START_TEST(radius_over_half_a_cell_is_refused)
{
	ff_level *l = ff_level_create(4, 4, "r");

	ck_assert_int_eq(ff_sim_check(l), FF_OK);
	ck_assert_int_eq(ff_level_param_set(l, FF_P_RADIUS, 0.26, NULL), FF_OK);
	ck_assert_int_eq(ff_sim_check(l), FF_E_INVAL);
	ck_assert_int_eq(ff_level_param_set(l, FF_P_CELL_SIZE, 0.6, NULL), FF_OK);
	ck_assert_int_eq(ff_sim_check(l), FF_OK);
	ff_level_destroy(l);
}
END_TEST


/* --- a large level on the hierarchical field ------------------------------ */

/* A level of HEAD (its lines up to "grid") and W x H cells, walls where
 * WALL says (NULL: none). */
static ff_level *grid_level(const char *head, int w, int h, bool (*wall)(int x, int y))
{
	size_t n = strlen(head), len = n + (size_t)(w + 1) * (size_t)h + 4;
	char *text = malloc(len + 1);
	ff_level *l = NULL;
	ff_diag d;

	ck_assert_ptr_nonnull(text);
	memcpy(text, head, n);
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++)
			text[n++] = wall && wall(x, y) ? '#' : '.';
		text[n++] = '\n';
	}
	memcpy(text + n, "end\n", 5);
	ck_assert_msg(ff_textlevel_parse(text, len, &l, &d) == FF_OK, "%d:%d: %s", d.line, d.col,
		      d.msg);
	free(text);
	return l;
}

static bool middle_wall(int x, int y)
{
	return x == 128 && (y < 124 || y > 131);
}

/* 256 x 256 open cells, a wall down the middle with an 8-cell gap, a goal
 * at the east end and 60 agents at the west end, the gap in their line. */
static ff_level *wall_level(void)
{
	return grid_level("fieldmarshal level 2\nname lazy\nsize 256 256\nterrain grass . 1\n"
			  "terrain wall # wall\ngoal rect 240 120 8 16\n"
			  "spawn rect 8 120 16 16 60\ngrid\n",
			  256, 256, middle_wall);
}

/* The crowd of wall_level() on hier fields of 16-cell sectors, run until
 * all arrive: the state hash, the ticks, and how many fine fields of the
 * 256 sectors the solver computed.  With SOLVE_ALL, every cell is asked for before the
 * crowd starts (the whole field solved, as an eager copy would). */
static uint64_t run_hier(bool solve_all, long *ticks, long *arrived, long *solved)
{
	ff_solver_opts o = {FF_METHOD_HIER, 8, 1, FF_ARROW_CHEAPEST, 16, false};
	uint64_t h;
	world w;

	w.l = wall_level();
	w.f = ff_fields_create(w.l, &o);
	ck_assert_ptr_nonnull(w.f);
	ck_assert_int_eq(ff_fields_get(w.f, 0, &w.sv), FF_OK);
	ck_assert_int_eq(ff_solver_sector_size(w.sv), 16);
	for (int y = 0; solve_all && y < 256; y++)
		for (int x = 0; x < 256; x++)
			(void)ff_solver_value(w.sv, x, y);
	w.sim = ff_sim_create(w.l, w.f, 0);
	ck_assert_ptr_nonnull(w.sim);
	ck_assert_int_eq(ff_sim_spawn_level(w.sim, -1), FF_OK);
	for (*ticks = 0; *ticks < 20000 && ff_sim_count(w.sim); ++*ticks)
		ff_sim_step(w.sim);
	*arrived = ff_sim_totals_get(w.sim)->arrived;
	*solved = ff_solver_sectors_solved(w.sv);
	h = ff_sim_hash(w.sim);
	close_world(&w);
	return h;
}

/* On a hierarchical field the crowd fills its copy a sector at a time, as
 * agents come near: everybody arrives, fewer than half of the sectors are
 * ever solved, and the crowd moves bit for bit as on the same field solved
 * whole beforehand (the field does not depend on the order sectors are
 * solved in). */
START_TEST(hier_sectors_are_solved_as_agents_come)
{
	long ticks, ticks_all, arrived, arrived_all, solved, solved_all;
	uint64_t lazy = run_hier(false, &ticks, &arrived, &solved);

	ck_assert_uint_eq(run_hier(true, &ticks_all, &arrived_all, &solved_all), lazy);
	ck_assert_int_eq(arrived, 60);
	ck_assert_int_eq(ticks, ticks_all);
	/* the near box, around the goal, is solved with the order */
	ck_assert_int_ge(solved_all, 256 - 3 * 3);
	ck_assert_msg(solved < 128, "%ld of 256 sectors solved", solved);
}
END_TEST

/* --- two threads ------------------------------------------------------------ */

/* 160 x 80 open cells; groups of 3,000 start at each end, each bound for
 * a goal across the middle, the way the other comes (two-way walking,
 * stepping aside), and a line the east group crosses. */
static ff_level *two_way_level(void)
{
	return grid_level("fieldmarshal level 2\nname twoway\nsize 160 80\nterrain grass . 1\n"
			  "goal rect 62 0 4 80 group east\ngoal rect 94 0 4 80 group west\n"
			  "spawn rect 4 2 50 76 3000 group east\n"
			  "spawn rect 106 2 50 76 3000 group west\ngrid\n",
			  160, 80, NULL);
}

/* Two threads move a crowd of 6,000 bit for bit as one does: the same
 * state hash after every one of 120 ticks, the same arrivals, line
 * crossings and densities; and a two-thread tick allocates nothing. */
START_TEST(two_threads_move_the_crowd_as_one)
{
	ff_solver_opts o = {FF_METHOD_FMM, 8, 1, FF_ARROW_CHEAPEST, 0, false};
	world w[2];

	for (int k = 0; k < 2; k++) {
		w[k].l = two_way_level();
		w[k].f = ff_fields_create(w[k].l, &o);
		ck_assert_ptr_nonnull(w[k].f);
		w[k].sim = ff_sim_create(w[k].l, w[k].f, 0);
		ck_assert_ptr_nonnull(w[k].sim);
		ff_sim_set_threads(w[k].sim, k ? 2 : 1);
		ck_assert_int_eq(ff_sim_spawn_level(w[k].sim, -1), FF_OK);
		ck_assert_int_eq(ff_sim_count(w[k].sim), 6000);
		ck_assert_int_eq(ff_sim_add_line(w[k].sim, 58, 0, 58, 80, NULL), FF_OK);
	}
	for (int t = 0; t < 120; t++) {
		const ff_sim_stats *a, *b;
		long before = allocs;

		ff_sim_step(w[0].sim);
		ff_sim_step(w[1].sim);
		ck_assert_int_eq(allocs, before);
		a = ff_sim_last(w[0].sim);
		b = ff_sim_last(w[1].sim);
		ck_assert_uint_eq(ff_sim_hash(w[1].sim), ff_sim_hash(w[0].sim));
		ck_assert_int_eq(b->arrivals, a->arrivals);
		ck_assert_int_eq(b->crossings[0], a->crossings[0]);
		ck_assert(b->max_density == a->max_density && b->max_speed == a->max_speed);
	}
	ck_assert_int_gt(ff_sim_totals_get(w[0].sim)->arrived, 100);
	for (int k = 0; k < 2; k++)
		close_world(&w[k]);
}
END_TEST

/* Where the agents are stored changes nothing: a crowd stored in the
 * grid's order after every tick and one never so stored (id order) have
 * the same hash, the same summed speed and the same counts after each
 * tick, and ff_sim_agent() gives the agents of both in id order.  Three
 * crowds: the two-way one, whose groups walk through each other (150
 * ticks); chokepoint.level's 500, dense at the gap (400 ticks); and the
 * same keeping the arrived as markers, which the grid leaves out. */
START_TEST(the_order_agents_are_stored_in_changes_nothing)
{
	ff_solver_opts o = {FF_METHOD_FMM, 8, 1, FF_ARROW_CHEAPEST, 0, false};
	int ticks = _i ? 400 : 150;
	world w[2];

	for (int k = 0; k < 2; k++) {
		if (_i) {
			open_world(&w[k], "chokepoint.level", 1,
				   _i == 2 ? FF_SIM_KEEP_ARRIVED : 0, 500);
		} else {
			w[k].l = two_way_level();
			w[k].f = ff_fields_create(w[k].l, &o);
			ck_assert_ptr_nonnull(w[k].f);
			w[k].sim = ff_sim_create(w[k].l, w[k].f, 0);
			ck_assert_ptr_nonnull(w[k].sim);
			ck_assert_int_eq(ff_sim_spawn_level(w[k].sim, -1), FF_OK);
		}
		w[k].sim->regrid_ticks = k ? 1 : 0;
	}
	for (int t = 0; t < ticks; t++) {
		ff_sim_step(w[0].sim);
		ff_sim_step(w[1].sim);
		ck_assert(!w[0].sim->regridded && w[1].sim->regridded);
		same_state(&w[0], &w[1]);
	}
	/* some arrived: dropped, or kept as markers */
	ck_assert_int_gt(ff_sim_totals_get(w[0].sim)->arrived, _i ? 10 : 100);
	for (int k = 0; k < 2; k++)
		close_world(&w[k]);
}
END_TEST

/* What befalls a run in scenario V at tick T (before it), on world W. */
static void order_event(world *w, int v, int t)
{
	ff_shape east = {FF_SHAPE_RECT, 0, 0, 1, 30, 0};

	if (v == 0 && t == 3) {
		/* a wall over all but one cell: everyone ejected onto it */
		ff_level_rect(w->l, 0, 0, 31, 31, FF_WALL, NULL);
		ff_level_paint(w->l, 15, 15, 1, NULL);
	}
	if (v == 1 && t == 25)
		ck_assert_int_eq(ff_sim_spawn_at(w->sim, 12.5, 10.5, 300, 6, 0, NULL), FF_OK);
	if (v == 1 && t == 70) {
		ff_sim_clear(w->sim);
		ck_assert_int_eq(ff_sim_spawn_level(w->sim, 200), FF_OK);
	}
	if ((v == 2 || v == 3) && t == 20) {
		/* a wall over part of the crowd, walkers ejected from it */
		ff_level_rect(w->l, 10, 8, 5, 6, FF_WALL, NULL);
		ff_fields_cells_changed(w->f, 10, 8, 14, 13);
		ck_assert_int_eq(ff_sim_refresh(w->sim), FF_OK);
	}
	if (v == 3 && t == 60) {
		/* an order: the crowd turns round */
		ck_assert_int_eq(ff_level_order(w->l, "", &east, NULL), FF_OK);
		ff_fields_meta_changed(w->f);
		ck_assert_int_eq(ff_sim_refresh(w->sim), FF_OK);
	}
}

/* Scenario V's world W, stored in the grid's order every REGRID ticks. */
static void order_world(world *w, int v, int regrid)
{
	ff_shape area = {FF_SHAPE_RECT, 0, 0, 30, 30, 0};
	ff_solver_opts o = {v == 5 ? FF_METHOD_HIER : FF_METHOD_FMM, 8, 1, FF_ARROW_CHEAPEST,
			    v == 5 ? 16 : 0, false};

	if (v == 0) {                 /* a pile of ids that interleave */
		w->l = open_level(31, 31, area, 2500, 0);
		ck_assert_int_eq(ff_level_param_set(w->l, FF_P_RADIUS, 0.01, NULL), FF_OK);
	} else if (v <= 3) {          /* a source; edits */
		area.x = v == 1 ? 10 : 0;
		area.w = v == 1 ? 18 : 20;
		area.h = 20;
		w->l = open_level(31, 31, area, v == 1 ? 2000 : 400, v == 1 ? 200 : 0);
	} else if (v == 4) {
		w->l = load("harbour.level");
		ck_assert_int_eq(ff_level_param_set(w->l, FF_P_ROUTE_INTERVAL, 0.5, NULL), FF_OK);
	} else if (v == 5) {
		w->l = wall_level();
	} else {
		w->l = two_way_level();
	}
	w->f = ff_fields_create(w->l, &o);
	ck_assert_ptr_nonnull(w->f);
	w->sim = ff_sim_create(w->l, w->f, 0);
	ck_assert_ptr_nonnull(w->sim);
	ff_sim_set_flags(w->sim, v == 2 ? FF_SIM_KEEP_ARRIVED : 0);
	ck_assert_int_eq(ff_sim_spawn_level(w->sim, -1), FF_OK);
	if (v == 0)
		ck_assert_int_eq(ff_sim_spawn_level(w->sim, -1), FF_OK);
	if (v == 5)
		ck_assert_int_eq(ff_sim_spawn_at(w->sim, 40.5, 128.5, 400, 12, 0, NULL), FF_OK);
	ck_assert_int_eq(ff_sim_add_line(w->sim, 20, 0, 20, 31, NULL), FF_OK);
	w->sim->regrid_ticks = regrid;
	if (v == 6 && regrid)
		ff_sim_set_threads(w->sim, 2);
}

/* Nor does it change anything as the run goes on (scenarios as above):
 * 0: 5,000 agents of two spawns, stored cell by cell, ejected onto one
 * cell (the grid puts that pile in id order); 1: a source releasing
 * agents (appended after the grid), 300 more placed at a spot mid-run,
 * then all cleared and spawned again; 2: a wall painted over part of the
 * crowd, the arrived kept as markers; 3: the same, then an order sends
 * the crowd back; 4: harbour.level's movement classes with congestion
 * routing; 5: a hierarchical field filled sector by sector as agents come
 * (in the order they are stored); 6: the two-way crowd of 6,000 on two
 * threads (each builds half the grid, ordering its buckets).  Never
 * stored in the grid's order (on one thread), every tick, every 5: the
 * same run after each tick. */
START_TEST(the_order_agents_are_stored_in_changes_nothing_as_a_run_goes)
{
	int v = _i, ticks = v == 0 ? 12 : v == 5 ? 200 : v == 6 ? 60 : 120;
	world w[3];

	for (int k = 0; k < 3; k++)
		order_world(&w[k], v, k == 2 ? 5 : k);
	for (int t = 0; t < ticks; t++) {
		for (int k = 0; k < 3; k++) {
			order_event(&w[k], v, t);
			ff_sim_step(w[k].sim);
		}
		ck_assert(w[1].sim->regridded);
		same_state(&w[0], &w[1]);
		same_state(&w[0], &w[2]);
	}
	if (v == 0) /* all on the one cell */
		ck_assert_int_eq(ff_sim_last(w[0].sim)->max_per_cell, 5000);
	else if (v < 5)
		ck_assert_int_gt(ff_sim_totals_get(w[0].sim)->arrived, 10);
	else
		ck_assert_double_gt(ff_sim_last(w[0].sim)->mean_speed, 0.1);
	for (int k = 0; k < 3; k++)
		close_world(&w[k]);
}
END_TEST

static volatile sig_atomic_t usr1_on_main = -1;
static pthread_t main_thread;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_on_main = pthread_equal(pthread_self(), main_thread) != 0;
}

/* The sim's worker blocks signals: one sent to the process while the
 * main thread blocks it waits for the main thread (whose waits it must
 * interrupt: the editor's read of a key on SIGTERM), instead of going to
 * the worker. */
START_TEST(the_worker_takes_no_signals)
{
	ff_solver_opts o = {FF_METHOD_FMM, 8, 1, FF_ARROW_CHEAPEST, 0, false};
	struct sigaction sa = {.sa_handler = on_usr1};
	struct timespec nap = {0, 20000000};
	sigset_t usr1;
	world w;

	main_thread = pthread_self();
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	w.l = two_way_level();
	w.f = ff_fields_create(w.l, &o);
	ck_assert_ptr_nonnull(w.f);
	w.sim = ff_sim_create(w.l, w.f, 8192); /* room for a crowd: a worker */
	ck_assert_ptr_nonnull(w.sim);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, NULL);
	kill(getpid(), SIGUSR1);
	nanosleep(&nap, NULL);
	ck_assert_int_eq(usr1_on_main, -1); /* pending, not taken by the worker */
	pthread_sigmask(SIG_UNBLOCK, &usr1, NULL);
	ck_assert_int_eq(usr1_on_main, 1);
	signal(SIGUSR1, SIG_DFL);
	close_world(&w);
}
END_TEST

/* Which thread ran each part of a job, and how often. */
typedef struct job_parts {
	int ran[1000];
	int by[1000];
} job_parts;

static void note_part(void *arg, int t, long c)
{
	job_parts *p = arg;
	struct timespec nap = {0, 20000};

	p->ran[c]++;
	p->by[c] = t;
	nanosleep(&nap, NULL); /* long enough for the worker to take some */
}

/* The two threads take a job's parts from either end: every part runs
 * once, the main thread's a run from the first, the worker's a run from
 * the last (so each walks a stretch of the grid of its own). */
START_TEST(each_thread_takes_a_stretch)
{
	static const long sizes[] = {1, 2, 3, 64, 1000};
	ff_sim_par *par = ff_sim_par_create();
	static job_parts p;
	bool worker_ran = false;

	if (!par)
		return; /* one core: no worker */
	for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		long n = sizes[k], c = 0;

		memset(&p, 0, sizeof p);
		ff_sim_par_run(par, note_part, &p, n, true);
		for (long i = 0; i < n; i++)
			ck_assert_int_eq(p.ran[i], 1);
		while (c < n && p.by[c] == 0)
			c++;
		while (c < n && p.by[c] == 1)
			c++;
		ck_assert_int_eq(c, n);
		worker_ran |= p.by[n - 1] == 1;
	}
	ck_assert(worker_ran);
	ff_sim_par_destroy(par);
}
END_TEST

/* --- the neighbour grid ------------------------------------------------------ */

/* The grid's run starts against a plain count: a band of points that moves
 * down a 300 x 200 grid between builds, widening and narrowing, with every
 * tenth point left out by its tag and sometimes a third of them gone (rows
 * fill and empty, and the start that an empty row holds changes).  The
 * builds are whole or cut into two or three bands of rows, the bands built
 * last to first (as two threads may).  Every other round gives the
 * points keys, a shuffle of 0..n-1.  After every build start[c] is the
 * number of points kept in the cells before c, and the run of each cell
 * holds exactly its points, in key order (input order without keys). */
START_TEST(grid_runs_match_a_count)
{
	enum { W = 300, H = 200, N = 400 };
	static uint32_t cnt[W * H];
	uint32_t key[N] = {0};
	double x[N], y[N], v[N] = {0};
	uint8_t tag[N];
	ff_spatial g;
	ff_spatial_in in;
	ff_rng r;

	ck_assert_int_eq(ff_spatial_init(&g, W, H, N), FF_OK);
	ff_rng_seed(&r, 5);
	for (int round = 0; round < 80; round++) {
		double centre = (round * 7) % H, spread = 1 + round % 9;
		size_t n = round % 5 == 4 ? N / 3 : N, kept, at = 0;
		uint32_t most = 0;

		memset(cnt, 0, sizeof cnt);
		for (size_t i = 0; i < n; i++) {
			double yy = centre + (2 * ff_rng_unit(ff_rng_next(&r)) - 1) * spread;

			y[i] = yy < 0 ? 0 : yy >= H ? H - 0.5 : yy;
			x[i] = W * ff_rng_unit(ff_rng_next(&r));
			tag[i] = ff_rng_unit(ff_rng_next(&r)) < 0.1;
			if (!tag[i])
				cnt[(int)y[i] * W + (int)x[i]]++;
		}
		for (size_t i = 0; i < n; i++) {
			size_t j = (size_t)(ff_rng_unit(ff_rng_next(&r)) * (double)(i + 1));

			key[i] = key[j];
			key[j] = (uint32_t)i;
		}
		in = (ff_spatial_in){x, y, v, v, n, tag, 1, round % 2 ? key : NULL};
		if (round % 3 == 0) {
			kept = ff_spatial_build(&g, &in);
		} else {
			ff_spatial_acc acc[3];
			int parts = 1 + round % 3;

			for (int p = parts; p-- > 0;)
				ff_spatial_build_part(&g, &in, p, parts, &acc[p]);
			kept = ff_spatial_build_end(&g, acc, parts);
		}
		for (size_t c = 0; c < (size_t)W * H; c++) {
			ck_assert_msg(g.start[c] == at, "round %d cell %zu: start %u, %zu before it",
				      round, c, g.start[c], at);
			for (uint32_t k = g.start[c]; k < g.start[c] + cnt[c]; k++) {
				uint32_t i = g.idx[k];

				ck_assert(!tag[i] && (size_t)((int)y[i] * W + (int)x[i]) == c);
				ck_assert(g.key[k] == (in.key ? key[i] : i));
				ck_assert(g.x[k] == (float)x[i] && g.y[k] == (float)y[i]);
				ck_assert(k == g.start[c] || g.key[k - 1] < g.key[k]);
			}
			at += cnt[c];
		}
		ck_assert_uint_eq(g.start[W * H], at);
		ck_assert_uint_eq(kept, at);
		for (size_t c = 0; c < (size_t)W * H; c++)
			most = cnt[c] > most ? cnt[c] : most;
		ck_assert_uint_eq((uint32_t)g.max_per_cell, most);
	}
	ff_spatial_fini(&g);
}
END_TEST

/* A bucket whose keys come in badly out of order is still put in key
 * order, in bounded work: a pile of 400,000 points on one cell with keys
 * falling (insertion would move some 8 x 10^10 of them, far past the
 * suite's time limit), one of two rising runs that interleave (a crowd
 * stored cell by cell, then ejected onto one cell), buckets a few points
 * out of place, and small shuffled ones; whole and in two bands.  Each
 * cell's run holds its own points, with their positions, keys rising. */
START_TEST(a_bucket_far_out_of_key_order_is_sorted_in_bounded_work)
{
	enum { W = 8, H = 6, N = 600000, PILE = 400000, RUNS = 100000 };
	double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
	double *v = calloc(N, sizeof *v);
	uint32_t *key = malloc(N * sizeof *key), cnt[W * H] = {0};
	ff_spatial g;
	ff_rng r;

	ck_assert(x && y && v && key);
	ck_assert_int_eq(ff_spatial_init(&g, W, H, N), FF_OK);
	ff_rng_seed(&r, 11);
	for (size_t i = 0; i < N; i++) {
		int c;

		if (i < PILE) {            /* cell (1, 1), keys falling */
			c = 1 * W + 1;
			key[i] = (uint32_t)(N - i);
		} else if (i < PILE + RUNS) { /* cell (5, 4): evens, then odds */
			size_t k = i - PILE;

			c = 4 * W + 5;
			key[i] = (uint32_t)(k < RUNS / 2 ? 2 * k : 2 * (k - RUNS / 2) + 1);
		} else {                   /* the rest: any cell, nearly in order */
			c = (int)ff_rng_below(&r, W * H);
			key[i] = (uint32_t)(N + i);
		}
		x[i] = c % W + ff_rng_unit(ff_rng_next(&r));
		y[i] = c / W + ff_rng_unit(ff_rng_next(&r));
		cnt[c]++;
	}
	/* a few swapped pairs and a shuffled stretch among the rest */
	for (size_t i = PILE + RUNS; i + 1 < N; i += 997) {
		uint32_t t = key[i];

		key[i] = key[i + 1];
		key[i + 1] = t;
	}
	for (size_t i = N - 300; i < N; i++) {
		size_t j = N - 300 + ff_rng_below(&r, i - (N - 300) + 1);
		uint32_t t = key[i];

		key[i] = key[j];
		key[j] = t;
	}
	for (int parts = 1; parts <= 2; parts++) {
		ff_spatial_in in = {x, y, v, v, N, NULL, 0, key};
		ff_spatial_acc acc[2];
		uint32_t at = 0;

		for (int p = parts; p-- > 0;)
			ff_spatial_build_part(&g, &in, p, parts, &acc[p]);
		ck_assert_uint_eq(ff_spatial_build_end(&g, acc, parts), N);
		for (int c = 0; c < W * H; c++) {
			ck_assert_uint_eq(g.start[c], at);
			for (uint32_t k = at; k < at + cnt[c]; k++) {
				uint32_t i = g.idx[k];

				ck_assert((int)y[i] * W + (int)x[i] == c);
				ck_assert(g.key[k] == key[i] && g.x[k] == (float)x[i] &&
					  g.y[k] == (float)y[i]);
				ck_assert(k == at || g.key[k - 1] < g.key[k]);
			}
			at += cnt[c];
		}
	}
	ff_spatial_fini(&g);
	free(x);
	free(y);
	free(v);
	free(key);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sim");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, rng_is_seeded_and_uniform);
	tcase_add_test(tc, rng_stream_is_fixed);
	tcase_add_test(tc, same_seed_same_hash);
	tcase_add_test(tc, hash_is_the_same_on_every_build);
	tcase_add_test(tc, hash_sees_every_agent);
	tcase_add_test(tc, chokepoint_passes_at_a_door_s_pace);
	tcase_add_test(tc, line_counts_net_crossings);
	tcase_add_test(tc, rooms_doors_pass);
	tcase_add_test(tc, exits_split_by_nearness);
	tcase_add_loop_test(tc, never_in_a_wall, 0, 10);
	tcase_add_test(tc, unreachable_agents_are_stranded);
	tcase_add_test(tc, bad_arguments);
	tcase_add_test(tc, step_allocates_nothing);
	tcase_add_test(tc, stats_add_up);
	tcase_add_test(tc, spawned_bodies_do_not_overlap);
	tcase_add_test(tc, an_area_too_small_is_refused);
	tcase_add_test(tc, a_source_releases_its_rate);
	tcase_add_test(tc, terrain_slows_walking);
	tcase_add_test(tc, speed_falls_with_density);
	tcase_add_test(tc, density_is_the_crowd_s_own);
	tcase_add_test(tc, radius_over_half_a_cell_is_refused);
	tcase_add_test(tc, a_pile_ticks_in_bounded_work);
	tcase_add_test(tc, hier_sectors_are_solved_as_agents_come);
	tcase_add_test(tc, two_threads_move_the_crowd_as_one);
	tcase_add_test(tc, the_worker_takes_no_signals);
	tcase_add_test(tc, each_thread_takes_a_stretch);
	tcase_add_test(tc, grid_runs_match_a_count);
	tcase_add_test(tc, a_bucket_far_out_of_key_order_is_sorted_in_bounded_work);
	tcase_add_loop_test(tc, the_order_agents_are_stored_in_changes_nothing, 0, 3);
	tcase_add_loop_test(tc, the_order_agents_are_stored_in_changes_nothing_as_a_run_goes, 0, 7);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
