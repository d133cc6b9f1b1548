/*
 * check_solver.c - the solver against independent truth: the Moving AI
 * benchmark's optimal lengths (a sample in `make check`, all 23,039 with
 * FF_CHECK_FULL=1 or `make check-full`), hand-worked grids, the exact
 * Euclidean distance for Fast Marching, and the solver against itself:
 * stepping equals one-shot, repair equals a full solve, arrows go downhill;
 * a textbook heap Dijkstra for levels that make the queue spill; and no
 * heap allocation once the solver exists (the test links with
 * --wrap=malloc,--wrap=calloc,--wrap=realloc, which works under the
 * sanitizers too: the wrappers call the real, intercepted functions).
 */
#include <math.h>
#include <string.h>

#include "core/level_gen.h"
#include "core/rng.h"
#include "core/solver.h"
#include "core/solver_int.h"
#include "core/level_text.h"
#include "testutil.h"

#include "allocwrap.h"

#define SQRT2 1.41421356237309504880

static const ff_solver_opts DIJ8 = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_CHEAPEST, 0, false};
static const ff_solver_opts DIJ4 = {FF_METHOD_DIJKSTRA, 4, 1, FF_ARROW_CHEAPEST, 0, false};
static const ff_solver_opts FMM = {FF_METHOD_FMM, 4, 1, FF_ARROW_CHEAPEST, 0, false};
static const ff_solver_opts FMM2 = {FF_METHOD_FMM, 4, 2, FF_ARROW_CHEAPEST, 0, false};

/* A level from rows of glyphs: '.' cost 1, '#' wall, digits their cost. */
static ff_level *grid(int w, int h, const char *rows)
{
	ff_level *l = ff_level_create(w, h, "t");

	ck_assert_ptr_nonnull(l);
	for (int i = 0; i < w * h; i++) {
		char c = rows[i];
		l->cells[i] = c == '#' ? FF_WALL : c == '.' ? 1 : (uint8_t)(c - '0');
	}
	return l;
}

static ff_shape cell(int x, int y)
{
	return (ff_shape){FF_SHAPE_CELL, x, y, 0, 0, 0};
}

static ff_solver *solve(const ff_level *l, const ff_shape *g, int ng,
			const ff_solver_opts *o)
{
	ff_solver *s = ff_solver_create(l->w, l->h);

	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(ff_solver_solve(s, l, g, ng, o), FF_OK);
	ck_assert_int_eq(ff_solver_phase(s), FF_PHASE_DONE);
	return s;
}

#define ck_near(a, b) ck_assert_msg(fabs((a) - (b)) < 1e-5, "%.9g != %.9g", (double)(a), (double)(b))

START_TEST(weighted_corridor)
{
	ff_level *l = grid(5, 1, "12315");
	ff_shape g = cell(0, 0);
	ff_solver *s = solve(l, &g, 1, &DIJ8);
	const double want[5] = {0, 2, 5, 6, 11};

	for (int x = 0; x < 5; x++)
		ck_near(ff_solver_value(s, x, 0), want[x]);
	ck_assert_int_eq(ff_solver_dir(s, 0, 0), FF_DIR_NONE);
	ck_assert_int_eq(ff_solver_dir(s, 3, 0), FF_DIR_W);
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

START_TEST(octile_and_corners)
{
	/* goal top left; (1,0) a wall blocks the diagonal into (1,1) */
	ff_level *l = grid(3, 3, ".#."
				 "..."
				 "..3");
	ff_shape g = cell(0, 0);
	ff_solver *s = solve(l, &g, 1, &DIJ8);

	ck_near(ff_solver_value(s, 0, 1), 1);
	ck_near(ff_solver_value(s, 1, 1), 2);            /* no corner cut */
	ck_near(ff_solver_value(s, 1, 2), 1 + SQRT2);  /* (0,1) -> (1,2) */
	ck_near(ff_solver_value(s, 2, 1), 3);
	ck_near(ff_solver_value(s, 2, 0), 4);            /* corner (1,0): via (2,1) */
	ck_assert(isinf(ff_solver_value(s, 1, 0)));
	ck_near(ff_solver_value(s, 2, 2), fmin(2 + 3 * SQRT2, 1 + SQRT2 + 3));
	ck_assert_int_eq(ff_solver_dir(s, 1, 1), FF_DIR_W);
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

START_TEST(four_connected)
{
	ff_level *l = grid(3, 3, "........2");
	ff_shape g = cell(0, 0);
	ff_solver *s = solve(l, &g, 1, &DIJ4);

	ck_near(ff_solver_value(s, 1, 1), 2);
	ck_near(ff_solver_value(s, 2, 2), 5);
	ck_near(ff_solver_value(s, 2, 0), 2);
	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 3; x++)
			ck_assert(ff_solver_dir(s, x, y) == FF_DIR_NONE ||
				  ff_solver_dir(s, x, y) < FF_DIR_SE);
	/* ties: (1,1) has W and N at 1; E,S,W,N order picks W */
	ck_assert_int_eq(ff_solver_dir(s, 1, 1), FF_DIR_W);
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

START_TEST(multi_goal_and_regions)
{
	ff_level *l = grid(9, 5, "........." "........." "........."
				 "........." ".......##");
	ff_shape g[2] = {cell(0, 2), {FF_SHAPE_RECT, 7, 0, 2, 2, 0}};
	ff_shape c = {FF_SHAPE_CIRCLE, 4, 2, 0, 0, 1};
	ff_solver *s = solve(l, g, 2, &DIJ8);

	ck_near(ff_solver_value(s, 0, 2), 0);
	ck_near(ff_solver_value(s, 8, 1), 0);
	ck_near(ff_solver_value(s, 3, 2), 3);
	ck_near(ff_solver_value(s, 6, 2), SQRT2);
	ck_assert(isinf(ff_solver_value(s, 8, 4)));             /* a wall */
	ff_solver_destroy(s);
	s = solve(l, &c, 1, &DIJ8);
	ck_near(ff_solver_value(s, 5, 2), 0);
	ck_near(ff_solver_value(s, 4, 1), 0);
	ck_near(ff_solver_value(s, 5, 1), 1);
	ck_near(ff_solver_value(s, 7, 2), 2);
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

START_TEST(unreachable_and_bad_goals)
{
	ff_level *l = grid(5, 3, "..#.."
				 "..#.."
				 "..#..");
	ff_shape g = cell(0, 0), wall = cell(2, 1), out = cell(9, 0);
	ff_shape two[2] = {cell(0, 0), cell(2, 2)};
	ff_solver *s = solve(l, &g, 1, &DIJ8);

	ck_assert(isinf(ff_solver_value(s, 3, 1)));
	ck_assert_int_eq(ff_solver_dir(s, 4, 2), FF_DIR_NONE);
	ck_assert_int_eq(ff_solver_solve(s, l, &wall, 1, &DIJ8), FF_E_WALL);
	ck_assert_int_eq(ff_solver_bad_goal(s), 0);
	ck_assert_int_eq(ff_solver_solve(s, l, two, 2, &DIJ8), FF_E_WALL);
	ck_assert_int_eq(ff_solver_bad_goal(s), 1);
	ck_assert_int_eq(ff_solver_solve(s, l, &out, 1, &DIJ8), FF_E_RANGE);
	ck_assert_int_eq(ff_solver_solve(s, l, &g, 0, &DIJ8), FF_E_INVAL);
	{       /* second order is Fast Marching's only; no third */
		const ff_solver_opts dij2 = {FF_METHOD_DIJKSTRA, 8, 2, FF_ARROW_CHEAPEST, 0, false};
		const ff_solver_opts fmm3 = {FF_METHOD_FMM, 4, 3, FF_ARROW_CHEAPEST, 0, false};
		ck_assert_int_eq(ff_solver_solve(s, l, &g, 1, &dij2), FF_E_INVAL);
		ck_assert_int_eq(ff_solver_solve(s, l, &g, 1, &fmm3), FF_E_INVAL);
	}
	/* the previous result is kept */
	ck_assert_int_eq(ff_solver_phase(s), FF_PHASE_DONE);
	ck_near(ff_solver_value(s, 1, 2), 1 + SQRT2);
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

/* Every reachable non-goal cell points to an allowed, strictly lower
 * neighbour; every other cell has no direction. */
static void check_arrows(const ff_solver *s, const ff_level *l)
{
	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++) {
			double v = ff_solver_value(s, x, y);
			int d = ff_solver_dir(s, x, y), nx, ny;
			if (isinf(v) || v == 0) {
				ck_assert_int_eq(d, FF_DIR_NONE);
				continue;
			}
			ck_assert_int_lt(d, 8);
			nx = x + ff_dir_dx[d], ny = y + ff_dir_dy[d];
			ck_assert(ff_level_in(l, nx, ny) && ff_level_cost(l, nx, ny) != FF_WALL);
			if (d >= FF_DIR_SE)
				ck_assert(ff_level_cost(l, nx, y) != FF_WALL &&
					  ff_level_cost(l, x, ny) != FF_WALL);
			ck_assert(ff_solver_value(s, nx, ny) < v);
		}
}

START_TEST(arrows_go_downhill)
{
	for (int k = 0; k < FF_GEN__COUNT; k++) {
		ff_level *l = ff_gen_level((ff_gen_kind)k, 97, 61, 7u + (unsigned)k);
		ff_solver *s = solve(l, l->meta.goals, 1, &DIJ8);
		check_arrows(s, l);
		ck_assert_int_eq(ff_solver_solve(s, l, l->meta.goals, 1, &DIJ4), FF_OK);
		check_arrows(s, l);
		ff_solver_destroy(s);
		ff_level_destroy(l);
	}
}
END_TEST

/* The step from (X, Y) towards D as the solver prices it: the length (1,
 * or sqrt 2) times the cost of the cell left (the cell the field's
 * wavefront entered), INFINITY when the step is not allowed. */
static double step_cost(const ff_level *l, int x, int y, int d, int conn)
{
	int nx = x + ff_dir_dx[d], ny = y + ff_dir_dy[d];

	if (d >= conn || !ff_level_in(l, nx, ny) || ff_level_cost(l, nx, ny) == FF_WALL ||
	    (d >= FF_DIR_SE && (ff_level_cost(l, nx, y) == FF_WALL ||
				ff_level_cost(l, x, ny) == FF_WALL)))
		return INFINITY;
	return (d >= FF_DIR_SE ? SQRT2 : 1.0) * ff_level_cost(l, x, y);
}

/* Checks every arrow of S (solved on L with connectivity CONN) against
 * Bellman's equation, brute force: value(c) = step(c -> arrow) + value(the
 * arrow's cell), and no allowed step is cheaper.  Returns the cells where
 * the equation fails (CHEAPEST: asserts there are none). */
static long bellman_arrows(const ff_solver *s, const ff_level *l, int conn, bool cheapest)
{
	long bad = 0;

	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++) {
			double v = ff_solver_value(s, x, y), best = INFINITY, got;
			int d = ff_solver_dir(s, x, y);

			if (isinf(v) || v == 0)
				continue;
			for (int e = 0; e < 8; e++) {
				double c = step_cost(l, x, y, e, conn) +
					   ff_solver_value(s, x + ff_dir_dx[e], y + ff_dir_dy[e]);
				best = c < best ? c : best;
			}
			/* the value is the cheapest step's sum (Dijkstra is exact) */
			ck_assert_msg(fabs(best - v) <= 1e-12 * v, "%d,%d: %.17g vs %.17g", x, y,
				      best, v);
			ck_assert_int_lt(d, 8);
			got = step_cost(l, x, y, d, conn) +
			      ff_solver_value(s, x + ff_dir_dx[d], y + ff_dir_dy[d]);
			if (fabs(got - v) > 1e-12 * v) {
				ck_assert_msg(!cheapest, "%d,%d worth %.6g points %d at %.6g", x, y,
					      v, d, got);
				bad++;
			}
		}
	return bad;
}

/* Weighted terrain: every Dijkstra arrow is the cheapest step, so
 * following arrows walks exactly the cost the value says.  The seeds'
 * lowest-neighbour rule, kept as an option, breaks the equation on a good
 * share of the cells (issue 16: a cell worth 42.49 pointing diagonally at
 * 40.07 instead of straight at 40.49). */
START_TEST(arrows_are_cheapest_steps)
{
	const ff_solver_opts low8 = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_LOWEST, 0, false};
	const ff_solver_opts low4 = {FF_METHOD_DIJKSTRA, 4, 1, FF_ARROW_LOWEST, 0, false};
	long cells = 0, bad8 = 0, bad4 = 0;

	for (int k = 0; k < 8; k++) {
		ff_gen_kind kind = k < FF_GEN_WEIGHTED ? (ff_gen_kind)k : FF_GEN_WEIGHTED;
		ff_level *l = ff_gen_level(kind, 61 + 10 * k, 47, 300u + (unsigned)k);
		ff_solver *s = solve(l, l->meta.goals, 1, &DIJ8);

		bellman_arrows(s, l, 8, true);
		ck_assert_int_eq(ff_solver_solve(s, l, l->meta.goals, 1, &DIJ4), FF_OK);
		bellman_arrows(s, l, 4, true);
		/* stepped to the end: the same arrows (computed in the FLOW phase) */
		ck_assert_int_eq(ff_solver_begin(s, l, l->meta.goals, 1, &DIJ8), FF_OK);
		ff_solver_step(s, FF_STEP_ALL, 0);
		bellman_arrows(s, l, 8, true);
		if (kind != FF_GEN_WEIGHTED)
			goto next;
		ck_assert_int_eq(ff_solver_solve(s, l, l->meta.goals, 1, &low8), FF_OK);
		bad8 += bellman_arrows(s, l, 8, false);
		ck_assert_int_eq(ff_solver_solve(s, l, l->meta.goals, 1, &low4), FF_OK);
		bad4 += bellman_arrows(s, l, 4, false);
		cells += (long)l->w * l->h;
next:
		ff_solver_destroy(s);
		ff_level_destroy(l);
	}
	ck_assert_int_gt(bad8, cells / 50);
	/* four neighbours: every step has the same length, so the lowest
	 * neighbour is the cheapest step */
	ck_assert_int_eq(bad4, 0);
}
END_TEST

/* The teaching level of docs/teaching.md: the swamp cell 9,4 (cost 5) is
 * worth 1 + 5 through 10,4; the cheapest arrow points there (E), the
 * lowest-neighbour rule at the goal (NE), a step that costs 5 sqrt 2. */
START_TEST(arrow_rules_on_the_lesson)
{
	const ff_solver_opts low8 = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_LOWEST, 0, false};
	ff_level *l = grid(12, 7,
			   "............"
			   "............"
			   ".....#......"
			   ".....#..55.."
			   ".....#..55.."
			   "............"
			   "............");
	ff_shape g = cell(10, 3);
	ff_solver *s = solve(l, &g, 1, &DIJ8);

	ck_near(ff_solver_value(s, 9, 4), 6);
	ck_assert_int_eq(ff_solver_dir(s, 9, 4), FF_DIR_E);
	ck_assert_int_eq(ff_solver_solve(s, l, &g, 1, &low8), FF_OK);
	ck_near(ff_solver_value(s, 9, 4), 6);
	ck_assert_int_eq(ff_solver_dir(s, 9, 4), FF_DIR_NE);
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

/* On open ground the cheapest step and the lowest neighbour agree: of
 * equally cheap steps (equal sums, up to rounding) the diagonal, which is
 * the lower neighbour; they differ only between two diagonals equally
 * cheap, where rounding made one neighbour lower.  (Past walls, even at
 * one cost, the lowest neighbour can be a dearer step: rooms and random
 * walls are checked with the weighted levels above.) */
START_TEST(cheapest_equals_lowest_on_open_ground)
{
	const ff_solver_opts low8 = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_LOWEST, 0, false};
	ff_level *l = ff_gen_level(FF_GEN_OPEN, 83, 59, 40);
	ff_solver *a = solve(l, l->meta.goals, 1, &DIJ8);
	ff_solver *b = solve(l, l->meta.goals, 1, &low8);
	long differ = 0;

	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++) {
			int da = ff_solver_dir(a, x, y), db = ff_solver_dir(b, x, y);
			double v = ff_solver_value(a, x, y);

			if (da == db)
				continue;
			differ++;
			ck_assert_int_ge(da, FF_DIR_SE);
			ck_assert_int_ge(db, FF_DIR_SE);
			ck_assert(fabs(step_cost(l, x, y, db, 8) + ff_solver_value(a, x +
				  ff_dir_dx[db], y + ff_dir_dy[db]) - v) <= 1e-12 * v);
		}
	ck_assert_int_lt(differ, (long)l->w * l->h / 100);
	ff_solver_destroy(a);
	ff_solver_destroy(b);
	ff_level_destroy(l);
}
END_TEST

/* --- Moving AI ---------------------------------------------------------- */

static const char *const MAPS[] = {
	"arena", "den312d", "ht_chantry", "lak303d", "brc202d", "8room_000",
	"maze512-1-0", "random512-10-0", "AcrosstheCape",
};

/* Runs every STRIDE-th scenario of map NAME (at most LIMIT, 0 = all);
 * returns the number run and raises *WORST to the largest relative error. */
static int run_scen(const char *name, int limit, double *worst)
{
	char fn[128], *map, *scen, *line, *save = NULL;
	size_t len;
	ff_level *l;
	ff_diag diag;
	ff_solver *s;
	int total = 0, run = 0, stride;

	snprintf(fn, sizeof fn, "%s.map", name);
	map = tu_read(FF_TESTDATA, fn, &len);
	ck_assert_msg(ff_level_parse_any(map, len, name, &l, &diag) == FF_OK,
		      "%s: %s", fn, diag.msg);
	snprintf(fn, sizeof fn, "%s.map.scen", name);
	scen = tu_read(FF_TESTDATA, fn, NULL);
	for (char *p = scen; *p; p++)
		total += *p == '\n';
	stride = limit > 0 && total > limit ? total / limit : 1;
	s = ff_solver_create(l->w, l->h);
	ck_assert_ptr_nonnull(s);
	int i = 0;
	for (line = strtok_r(scen, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int b, mw, mh, sx, sy, gx, gy;
		double opt, got, err;
		char mp[256];
		ff_shape g;
		if (sscanf(line, "%d %255s %d %d %d %d %d %d %lf", &b, mp, &mw, &mh,
			   &sx, &sy, &gx, &gy, &opt) != 9)
			continue;
		if (i++ % stride)
			continue;
		g = cell(gx, gy);
		ck_assert_int_eq(ff_solver_solve(s, l, &g, 1, &DIJ8), FF_OK);
		got = ff_solver_value(s, sx, sy);
		err = fabs(got - opt) / opt;
		ck_assert_msg(fabs(got - opt) <= 1e-5 * opt + 1e-4,
			      "%s (%d,%d)->(%d,%d): got %.9g want %.9g", name,
			      sx, sy, gx, gy, got, opt);
		if (err > *worst)
			*worst = err;
		run++;
	}
	ff_solver_destroy(s);
	ff_level_destroy(l);
	free(map);
	free(scen);
	return run;
}

START_TEST(movingai_scenarios)
{
	bool full = getenv("FF_CHECK_FULL") != NULL;
	int n = 0;
	double worst = 0;

	for (size_t i = 0; i < sizeof MAPS / sizeof *MAPS; i++)
		n += run_scen(MAPS[i], full ? 0 : 240, &worst);
	ck_assert_int_ge(n, full ? 23039 : 2000);
	fprintf(stderr, "movingai: %d scenarios, worst relative error %.3g\n", n, worst);
}
END_TEST

/* --- Fast Marching ------------------------------------------------------ */

/* Errors of Fast Marching from the centre of an open N x N level against
 * the Euclidean distance: the largest in cells (either sign), the mean,
 * the largest relative one beyond radius 10, and the lowest (t - e). */
typedef struct euclid_err {
	double worst, mean, worst_rel, lowest;
} euclid_err;

static euclid_err euclid_error(int n, const ff_solver_opts *o)
{
	const int c = n / 2;
	ff_level *l = ff_level_create(n, n, "open");
	ff_shape g = cell(c, c);
	ff_solver *s = solve(l, &g, 1, o);
	euclid_err r = {0, 0, 0, 0};
	double sum = 0;

	for (int y = 0; y < n; y++)
		for (int x = 0; x < n; x++) {
			double e = hypot(x - c, y - c), t = ff_solver_value(s, x, y);
			sum += t - e;
			r.worst = fabs(t - e) > r.worst ? fabs(t - e) : r.worst;
			r.lowest = t - e < r.lowest ? t - e : r.lowest;
			if (e >= 10 && fabs(t - e) / e > r.worst_rel)
				r.worst_rel = fabs(t - e) / e;
		}
	r.mean = sum / ((double)n * n);
	/* along the axes both orders are exact */
	ck_near(ff_solver_value(s, c + n / 4, c), n / 4);
	ck_near(ff_solver_value(s, c, c - n / 4), n / 4);
	fprintf(stderr, "fmm order %d: open %dx%d, max error %.4f cells, mean %.4f, "
		"max relative error beyond radius 10: %.4f, lowest %.4f\n",
		o->order, n, n, r.worst, r.mean, r.worst_rel, r.lowest);
	ff_solver_destroy(s);
	ff_level_destroy(l);
	return r;
}

START_TEST(fmm_vs_euclid)
{
	euclid_err one = euclid_error(201, &FMM), two = euclid_error(201, &FMM2);

	ck_assert(one.lowest > -1e-3);    /* first order overestimates */
	ck_assert(one.worst < 4.0);
	ck_assert(one.mean < 1.1);
	ck_assert(one.worst_rel < 0.08);
	/* second order: a quarter of the mean error and a third of the
	 * relative one; the error left is mostly the point source's */
	ck_assert(two.lowest > -1e-3);
	ck_assert(two.worst < 0.5);
	ck_assert(two.mean < 0.25);
	ck_assert(two.worst_rel < 0.03);
}
END_TEST

/* Far from the source, near the axes, cells accepted in one bucket add up
 * their error row after row (docs/solver.md): buckets of cmin/4 reached
 * 2.47 cells at 601^2 with either order; an exact order gives 1.92 and
 * 0.33. */
START_TEST(fmm_far_field)
{
	euclid_err one = euclid_error(601, &FMM), two = euclid_error(601, &FMM2);

	ck_assert(one.worst < 2.0);
	ck_assert(two.worst < 0.7);
	ck_assert(two.mean < 0.25);
}
END_TEST

START_TEST(fmm_monotone_along_flow)
{
	for (int k = 0; k < 2 * FF_GEN__COUNT; k++) {
		ff_level *l = ff_gen_level((ff_gen_kind)(k / 2), 83, 71, 3u + (unsigned)k);
		ff_solver *s = solve(l, l->meta.goals, 1, k % 2 ? &FMM2 : &FMM);
		for (int y = 0; y < l->h; y++)
			for (int x = 0; x < l->w; x++) {
				double v = ff_solver_value(s, x, y);
				int d = ff_solver_dir(s, x, y);
				float fx, fy;
				if (isinf(v) || v == 0) {
					ck_assert_int_eq(d, FF_DIR_NONE);
					continue;
				}
				ck_assert_int_lt(d, 8);
				ck_assert(ff_solver_value(s, x + ff_dir_dx[d],
							  y + ff_dir_dy[d]) < v);
				ff_solver_flow(s, x, y, &fx, &fy);
				ck_assert(fabs(hypot(fx, fy) - 1) < 1e-5);
				/* the arrow is within 90 degrees of -grad T */
				ck_assert(fx * ff_dir_dx[d] + fy * ff_dir_dy[d] > 0);
			}
		ff_solver_destroy(s);
		ff_level_destroy(l);
	}
}
END_TEST

/* The FMM arrow of (X, Y) by its definition (docs/solver.md): among the
 * lower neighbours, diagonals only past two passable cells, the one whose
 * unit vector has the largest dot product with the upwind -grad T, the
 * first in FF_DIR_* order on ties; none where -grad T is zero (which a
 * solved field has only on goals). */
static int best_aligned(const ff_solver *s, const ff_level *l, int x, int y)
{
	const double v = ff_solver_value(s, x, y);
	double t[8], gx = 0, gy = 0, best = 0;
	int bd = FF_DIR_NONE;

	for (int d = 0; d < 8; d++)
		t[d] = ff_solver_value(s, x + ff_dir_dx[d], y + ff_dir_dy[d]);
	if (t[FF_DIR_E] <= t[FF_DIR_W] && t[FF_DIR_E] < v)
		gx = v - t[FF_DIR_E];
	else if (t[FF_DIR_W] < v)
		gx = -(v - t[FF_DIR_W]);
	if (t[FF_DIR_S] <= t[FF_DIR_N] && t[FF_DIR_S] < v)
		gy = v - t[FF_DIR_S];
	else if (t[FF_DIR_N] < v)
		gy = -(v - t[FF_DIR_N]);
	if (gx == 0 && gy == 0)
		return FF_DIR_NONE;
	for (int d = 0; d < 8; d++) {
		const int dx = ff_dir_dx[d], dy = ff_dir_dy[d];
		double dot = dx * gx + dy * gy;
		if (!(t[d] < v))
			continue;
		if (d >= FF_DIR_SE) {
			if (ff_level_cost(l, x + dx, y) == FF_WALL ||
			    ff_level_cost(l, x, y + dy) == FF_WALL)
				continue;
			dot *= 0.70710678118654752;
		}
		if (bd == FF_DIR_NONE || dot > best)
			bd = d, best = dot;
	}
	return bd;
}

static void check_best_aligned(const ff_solver *s, const ff_level *l)
{
	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++) {
			const double v = ff_solver_value(s, x, y);
			const int want = isinf(v) || v == 0 ? FF_DIR_NONE : best_aligned(s, l, x, y);
			ck_assert_msg(ff_solver_dir(s, x, y) == want, "(%d,%d): %d, not %d", x, y,
				      ff_solver_dir(s, x, y), want);
		}
}

/* Solved fields, then the same fields with every value replaced by one of
 * 1..4 or 2 - sqrt 2 more than one of 0..3: ties between neighbours, and
 * between a diagonal and a straight arrow (a cell of value 4 with
 * neighbours 3 and 3.5857864376269051 scores them alike), reach every
 * tie-break of the rule. */
START_TEST(fmm_arrow_best_aligned)
{
	static const double tie_value[8] = {1, 2, 3, 4, 0.5857864376269051, 1.5857864376269051,
					    2.5857864376269051, 3.5857864376269051};
	ff_rng r;

	ff_rng_seed(&r, 5);
	for (int k = 0; k < 2 * FF_GEN__COUNT; k++) {
		/* odd widths: the last cell of a row is done on its own */
		ff_level *l = ff_gen_level((ff_gen_kind)(k / 2), 83 + k % 2 * 16, 47,
					   11u + (unsigned)k);
		ff_solver *s = solve(l, l->meta.goals, 1, k % 2 ? &FMM2 : &FMM);
		check_best_aligned(s, l);
		for (size_t p = 0; p < s->np; p++)
			if (s->val[p] != INFINITY)
				s->val[p] = tie_value[ff_rng_below(&r, 8)];
		ff_solver_flow_range(s, 0, (size_t)l->w * (size_t)l->h);
		check_best_aligned(s, l);
		ff_solver_destroy(s);
		ff_level_destroy(l);
	}
}
END_TEST

/* --- stepping and repair ------------------------------------------------ */

static void same_fields(const ff_solver *a, const ff_solver *b, const ff_level *l)
{
	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++) {
			double va = ff_solver_value(a, x, y), vb = ff_solver_value(b, x, y);
			ck_assert_msg(memcmp(&va, &vb, sizeof va) == 0,
				      "(%d,%d): %.9g != %.9g", x, y, va, vb);
			ck_assert_msg(ff_solver_dir(a, x, y) == ff_solver_dir(b, x, y),
				      "(%d,%d): dir %d != %d", x, y,
				      ff_solver_dir(a, x, y), ff_solver_dir(b, x, y));
		}
}

START_TEST(stepping_equals_one_shot)
{
	const ff_solver_opts *opts[4] = {&DIJ8, &DIJ4, &FMM, &FMM2};
	uint64_t rs = 42;

	for (int k = 0; k < FF_GEN__COUNT; k++)
		for (int m = 0; m < 4; m++) {
			ff_level *l = ff_gen_level((ff_gen_kind)k, 57, 43, 11u + (unsigned)k);
			ff_solver *one = solve(l, l->meta.goals, 1, opts[m]);
			ff_solver *st = ff_solver_create(l->w, l->h);
			long prev = -1;
			ck_assert_int_eq(ff_solver_begin(st, l, l->meta.goals, 1, opts[m]), FF_OK);
			ck_assert_int_eq(ff_solver_phase(st), FF_PHASE_COST);
			while (ff_solver_phase(st) != FF_PHASE_DONE) {
				int u = tu_range(&rs, 0, 9);
				ff_step_unit unit = u < 6 ? FF_STEP_CELL : u < 9 ? FF_STEP_WAVE : FF_STEP_PHASE;
				ff_solver_step(st, unit, unit == FF_STEP_CELL ? tu_range(&rs, 1, 40) : 1);
				if (ff_solver_phase(st) == FF_PHASE_INTEGRATE) {
					int x, y, fx, fy;
					ck_assert_int_ge(ff_solver_settled(st), prev);
					prev = ff_solver_settled(st);
					if (ff_solver_last(st, &x, &y, &fx, &fy))
						ck_assert(!isinf(ff_solver_value(st, x, y)));
				}
			}
			ck_assert_int_eq(ff_solver_frontier(st), 0);
			same_fields(one, st, l);
			ff_solver_destroy(one);
			ff_solver_destroy(st);
			ff_level_destroy(l);
		}
}
END_TEST

START_TEST(wave_steps_settle_one_band)
{
	ff_level *l = ff_level_create(21, 21, "open");
	ff_shape g = cell(10, 10);
	ff_solver *s = ff_solver_create(21, 21);

	ck_assert_int_eq(ff_solver_begin(s, l, &g, 1, &DIJ8), FF_OK);
	ff_solver_step(s, FF_STEP_WAVE, 1);          /* COST */
	ff_solver_step(s, FF_STEP_WAVE, 1);          /* the goal: value 0 */
	ck_assert_int_eq(ff_solver_settled(s), 1);
	ck_assert_int_eq(ff_solver_frontier(s), 8);
	ck_assert(ff_solver_on_frontier(s, 11, 11));
	ck_assert(!ff_solver_on_frontier(s, 10, 10));
	ff_solver_step(s, FF_STEP_WAVE, 1);          /* values in [1, 2) */
	ck_assert_int_eq(ff_solver_settled(s), 9);
	ff_solver_step(s, FF_STEP_PHASE, 1);
	ck_assert_int_eq(ff_solver_phase(s), FF_PHASE_FLOW);
	ck_assert_int_eq(ff_solver_settled(s), 21 * 21);
	ff_solver_step(s, FF_STEP_ALL, 0);
	ck_assert_int_eq(ff_solver_phase(s), FF_PHASE_DONE);
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

/* HEAVY: every passable cell costs 150..249 first, so values run far past
 * the queue's ring of FF_RING buckets.  PENALTY: the wall penalty of that
 * size, with a radius of 1..4 (so a wall edit changes costs around it).
 * DYN: every other edit is of the dynamic layer (offsets, temporary walls,
 * clearing; goal cells too). */
static void repair_sequence(ff_gen_kind kind, int w, int h, uint64_t seed, int edits,
			    bool heavy, int penalty, bool dyn)
{
	ff_level *l = ff_gen_level(kind, w, h, seed);
	ff_solver *s;
	ff_solver *f = ff_solver_create(w, h);
	static const uint8_t costs[] = {1, 1, 2, 5, 20, FF_WALL, FF_WALL, 254};
	static const uint8_t offsets[] = {0, 0, 3, 50, 254, FF_WALL, FF_WALL, 1};
	uint64_t rs = seed * 7919u + 1;

	for (int i = 0; heavy && i < w * h; i++)
		if (l->cells[i] != FF_WALL)
			l->cells[i] = (uint8_t)tu_range(&rs, 150, 249);
	if (penalty) {
		ff_level_param_set(l, FF_P_WALL_PENALTY, penalty, NULL);
		ff_level_param_set(l, FF_P_WALL_PENALTY_RADIUS, tu_range(&rs, 1, 4), NULL);
	}
	s = solve(l, l->meta.goals, 1, &DIJ8);
	for (int e = 0; e < edits; e++) {
		int x0 = tu_range(&rs, 0, w - 1), y0 = tu_range(&rs, 0, h - 1);
		int x1 = x0 + tu_range(&rs, 0, 4), y1 = y0 + tu_range(&rs, 0, 4);
		bool on_dyn = dyn && e % 2;
		uint8_t c = on_dyn ? offsets[tu_range(&rs, 0, 7)] : costs[tu_range(&rs, 0, 7)];
		if (x1 >= w)
			x1 = w - 1;
		if (y1 >= h)
			y1 = h - 1;
		for (int y = y0; y <= y1; y++)
			for (int x = x0; x <= x1; x++)
				if (on_dyn)
					l->dyn[y * w + x] = tu_range(&rs, 0, 2) ? c : 0;
				else if (!ff_level_is_goal(l, x, y))
					l->cells[y * w + x] = tu_range(&rs, 0, 2) ? c : 1;
		ck_assert_int_eq(ff_solver_repair(s, x0, y0, x1, y1), FF_OK);
		ck_assert_int_eq(ff_solver_solve(f, l, l->meta.goals, 1, &DIJ8), FF_OK);
		same_fields(s, f, l);
	}
	ff_solver_destroy(f);
	ff_solver_destroy(s);
	ff_level_destroy(l);
}

START_TEST(repair_equals_full_solve)
{
	for (int k = 0; k < FF_GEN__COUNT; k++)
		repair_sequence((ff_gen_kind)k, 61, 47, 100u + (unsigned)k, 60, false, 0, false);
	repair_sequence(FF_GEN_OPEN, 200, 150, 5, 30, false, 0, false);
	for (int k = 0; k < FF_GEN__COUNT; k++)
		repair_sequence((ff_gen_kind)k, 61, 47, 200u + (unsigned)k, 60, true, 0, false);
}
END_TEST

/* With the wall penalty on, a wall painted or cleared changes the costs
 * of the cells around it, which the repair must solve again too. */
START_TEST(repair_with_wall_penalty_equals_full_solve)
{
	for (int k = 0; k < FF_GEN__COUNT; k++) {
		repair_sequence((ff_gen_kind)k, 61, 47, 300u + (unsigned)k, 60, false, 1 + 7 * k, false);
		repair_sequence((ff_gen_kind)k, 61, 47, 400u + (unsigned)k, 40, true, 90, false);
	}
}
END_TEST

/* Random edits of both layers, the painted costs and the dynamic layer,
 * with the penalty off and on. */
START_TEST(repair_of_both_layers_equals_full_solve)
{
	for (int k = 0; k < FF_GEN__COUNT; k++) {
		repair_sequence((ff_gen_kind)k, 61, 47, 500u + (unsigned)k, 60, false, 0, true);
		repair_sequence((ff_gen_kind)k, 61, 47, 600u + (unsigned)k, 60, false, 5, true);
		repair_sequence((ff_gen_kind)k, 61, 47, 700u + (unsigned)k, 40, true, 30, true);
	}
}
END_TEST

/* A change of the penalty's parameters changes every cost: the repair
 * solves again. */
START_TEST(repair_after_new_penalty_solves_again)
{
	ff_level *l = ff_gen_level(FF_GEN_RANDOM20, 40, 30, 8);
	ff_solver *s = solve(l, l->meta.goals, 1, &DIJ8), *f = ff_solver_create(40, 30);

	ff_level_param_set(l, FF_P_WALL_PENALTY, 9, NULL);
	ck_assert_int_eq(ff_solver_repair(s, 3, 3, 3, 3), FF_OK);
	ck_assert_int_eq(ff_solver_solve(f, l, l->meta.goals, 1, &DIJ8), FF_OK);
	same_fields(s, f, l);
	ff_solver_destroy(f);
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

/* A wall across a corridor whose values lie beyond the queue's ring: the
 * cells behind it become unreachable (the repair's check once lost the
 * cells it had queued past the ring). */
START_TEST(repair_cuts_off_far_cells)
{
	ff_level *l = ff_level_create(40, 3, "corridor");
	ff_shape g = cell(0, 1);
	ff_solver *s, *f = ff_solver_create(40, 3);

	for (int y = 0; y < 3; y++)
		for (int x = 1; x <= 10; x++)
			l->cells[y * 40 + x] = 254;
	s = solve(l, &g, 1, &DIJ8);
	ck_assert(ff_solver_value(s, 30, 1) > FF_RING);
	for (int y = 0; y < 3; y++)
		l->cells[y * 40 + 20] = FF_WALL;
	ck_assert_int_eq(ff_solver_repair(s, 20, 0, 20, 2), FF_OK);
	ck_assert(isinf(ff_solver_value(s, 30, 1)));
	ck_assert_int_eq(ff_solver_dir(s, 30, 1), FF_DIR_NONE);
	ck_assert_int_eq(ff_solver_solve(f, l, &g, 1, &DIJ8), FF_OK);
	same_fields(s, f, l);
	ff_solver_destroy(f);
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

START_TEST(sample_is_bilinear)
{
	ff_level *l = ff_level_create(9, 9, "open");
	ff_shape g = cell(4, 4);
	ff_solver *s = solve(l, &g, 1, &DIJ8);
	float dx, dy, cx, cy;

	ff_solver_flow(s, 1, 4, &cx, &cy);
	ck_assert(cx == 1.0f && cy == 0.0f);
	ff_solver_sample(s, 1.5, 4.5, &dx, &dy);   /* a cell centre */
	ck_near(dx, 1);
	ck_near(dy, 0);
	ff_solver_sample(s, 2.0, 4.0, &dx, &dy);   /* between four cells */
	ck_assert(dx > 0.9f && fabsf(dy) < 0.45f);
	ck_near(hypot(dx, dy), 1);
	ff_solver_sample(s, 4.5, 4.5, &dx, &dy);   /* on the goal */
	ck_assert(dx == 0.0f && dy == 0.0f);
	ff_solver_sample(s, -5, 4.5, &dx, &dy);     /* outside */
	ck_assert(dx == 0.0f && dy == 0.0f);
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

START_TEST(bytes_per_cell)
{
	ff_solver *s = ff_solver_create(1024, 1024);

	ck_assert_ptr_nonnull(s);
	/* cost 1 + value 8 + direction and flags 1 + queue pool 1.6 + the
	 * worker's lists of cells near band edges 0.07 (issue: <= 12) */
	ck_assert_uint_le(ff_solver_bytes(s), (size_t)(11.85 * 1024 * 1024));
	ff_solver_destroy(s);
	ck_assert_ptr_null(ff_solver_create(0, 3));
	ff_solver_destroy(NULL);
}
END_TEST

/* The bytes a solver will take are known before it is made, and a size
 * that does not fit is said so. */
START_TEST(bytes_known_up_front)
{
	static const int sizes[][2] = {{1, 1}, {100, 37}, {600, 300}, {1024, 1024}, {511, 700}};
	char why[160];
	int mb;

	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		ff_solver *s = ff_solver_create(sizes[i][0], sizes[i][1]);
		size_t want = ff_solver_bytes_for(sizes[i][0], sizes[i][1]);
		ck_assert_ptr_nonnull(s);
		/* equal when the solver has its thread (two cores online) */
		if (s->par || (size_t)sizes[i][0] * (size_t)sizes[i][1] < FF_PAR_MIN_CELLS)
			ck_assert_uint_eq(ff_solver_bytes(s), want);
		else
			ck_assert_uint_lt(ff_solver_bytes(s), want);
		ff_solver_destroy(s);
	}
	ck_assert_uint_eq(ff_solver_bytes_for(16385, 1), 0);
	/* 16384^2: 268 M cells of 11.7 bytes, 2.9 GiB */
	ck_assert_uint_gt(ff_solver_bytes_for(16384, 16384), (size_t)(11.5 * 16384 * 16384));
	ck_assert_uint_lt(ff_solver_bytes_for(16384, 16384), (size_t)(11.9 * 16384 * 16384));
	/* the hierarchy: the level's costs again, a cache of fine fields, the
	 * sectors and about half a byte per cell of portals */
	ck_assert(ff_solver_too_big(16384, 16384, (size_t)1 << 30, why, sizeof why));
	ck_assert_msg(sscanf(why, "a full field of 16384x16384 cells needs 2.9 GB, more than the "
			     "1.0 GB available; the method 'hier' needs about %d MB", &mb) == 1 &&
		      mb > 400 && mb < 480, "%s", why);
	ck_assert(ff_solver_too_big(1024, 1024, (size_t)10 << 20, why, sizeof why));
	ck_assert_str_eq(why, "a full field of 1024x1024 cells needs 12 MB, more than the 10 MB "
			 "available; the method 'hier' needs about 3 MB");
	ck_assert(!ff_solver_too_big(16384, 16384, 0, why, sizeof why));
	ck_assert(!ff_solver_too_big(1024, 1024, (size_t)13 << 20, NULL, 0));
}
END_TEST

/* The row of a padded index comes from a multiplication and a shift
 * (solver_par.h): exact for every row of levels as tall as they come, at
 * the first and the last index of the row, for the widest levels (with a
 * shift of 40, as for 4096^2, 306 of these widths went wrong). */
START_TEST(rows_without_division)
{
	for (int w = FF_LEVEL_MAX_SIDE - 400; w <= FF_LEVEL_MAX_SIDE; w++) {
		ff_solver *s = ff_solver_create(w, 2);
		const uint64_t W = (uint64_t)s->W;
		ck_assert_uint_eq(W, (uint64_t)w + 2);
		for (uint64_t r = 0; r < FF_LEVEL_MAX_SIDE + 2; r++) {
			ck_assert_uint_eq((r * W * s->wmagic) >> FF_WSHIFT, r);
			ck_assert_uint_eq(((r * W + W - 1) * s->wmagic) >> FF_WSHIFT, r);
		}
		ff_solver_destroy(s);
	}
}
END_TEST

/* --- a queue that spills, against a textbook heap Dijkstra --------------- */

/* Every third row costs 1, the others 254; solved from column 0, all the
 * costly cells wait in the queue at once, more than its pool holds. */
static ff_level *comb(int n)
{
	ff_level *l = ff_level_create(n, n, "comb");

	ck_assert_ptr_nonnull(l);
	for (int y = 0; y < n; y++)
		for (int x = 1; x < n; x++)
			l->cells[y * n + x] = y % 3 ? 254 : 1;
	return l;
}

static const ff_shape COLUMN0 = {FF_SHAPE_RECT, 0, 0, 1, 256, 0};

typedef struct hnode { double v; int32_t c; } hnode;

static void hpush(hnode *h, long *n, double v, int32_t c)
{
	long i = (*n)++;

	for (; i > 0 && h[(i - 1) / 2].v > v; i = (i - 1) / 2)
		h[i] = h[(i - 1) / 2];
	h[i] = (hnode){v, c};
}

static hnode hpop(hnode *h, long *n)
{
	hnode top = h[0], last = h[--*n];
	long i = 0;

	for (;;) {
		long c = 2 * i + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && h[c + 1].v < h[c].v)
			c++;
		if (h[c].v >= last.v)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n > 0)
		h[i] = last;
	return top;
}

/* Octile Dijkstra from column 0 with a binary heap; DIST holds w*h. */
static void ref_dijkstra(const ff_level *l, double *dist)
{
	const int w = l->w, h = l->h;
	hnode *heap = malloc(sizeof *heap * (size_t)w * (size_t)h * 8);
	long n = 0;

	for (int i = 0; i < w * h; i++)
		dist[i] = INFINITY;
	for (int y = 0; y < h; y++) {
		dist[y * w] = 0;
		hpush(heap, &n, 0, y * w);
	}
	while (n > 0) {
		hnode t = hpop(heap, &n);
		int x = t.c % w, y = t.c / w;
		if (t.v > dist[t.c])
			continue;
		for (int d = 0; d < 8; d++) {
			int nx = x + ff_dir_dx[d], ny = y + ff_dir_dy[d];
			double nv;
			if (!ff_level_in(l, nx, ny) || ff_level_cost(l, nx, ny) == FF_WALL)
				continue;
			if (d >= FF_DIR_SE && (ff_level_cost(l, nx, y) == FF_WALL ||
					       ff_level_cost(l, x, ny) == FF_WALL))
				continue;
			nv = t.v + (d < 4 ? 1.0 : 1.4142135623730951) * ff_level_cost(l, nx, ny);
			if (nv < dist[ny * w + nx]) {
				dist[ny * w + nx] = nv;
				hpush(heap, &n, nv, ny * w + nx);
			}
		}
	}
	free(heap);
}

START_TEST(spilling_queue_stays_exact)
{
	const int n = 256;
	ff_level *l = comb(n);
	const ff_shape g = COLUMN0;
	ff_solver *s = solve(l, &g, 1, &DIJ8), *st = ff_solver_create(n, n);
	double *dist = malloc(sizeof *dist * (size_t)n * (size_t)n);
	uint64_t rs = 9;

	ck_assert_int_gt(s->spills, 0);
	ref_dijkstra(l, dist);
	for (int y = 0; y < n; y++)
		for (int x = 0; x < n; x++)
			ck_assert_msg(fabs(ff_solver_value(s, x, y) - dist[y * n + x]) <=
				      1e-9 * dist[y * n + x], "(%d,%d): %.9g != %.9g", x, y,
				      ff_solver_value(s, x, y), dist[y * n + x]);
	check_arrows(s, l);
	/* stepping spills at other moments and still gives the same bytes */
	ck_assert_int_eq(ff_solver_begin(st, l, &g, 1, &DIJ8), FF_OK);
	while (ff_solver_phase(st) != FF_PHASE_DONE)
		ff_solver_step(st, tu_range(&rs, 0, 3) ? FF_STEP_CELL : FF_STEP_WAVE,
			       tu_range(&rs, 1, 5000));
	ck_assert_int_gt(st->spills, 0);
	same_fields(s, st, l);
	/* Fast Marching spills too and still settles every reachable cell */
	ck_assert_int_eq(ff_solver_solve(s, l, &g, 1, &FMM), FF_OK);
	for (int y = 0; y < n; y++)
		for (int x = 0; x < n; x++)
			ck_assert(!isinf(ff_solver_value(s, x, y)));
	free(dist);
	ff_solver_destroy(st);
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

/* --- no allocation once the solver exists -------------------------------- */

START_TEST(solves_allocate_nothing)
{
	const ff_solver_opts *opts[4] = {&DIJ8, &DIJ4, &FMM, &FMM2};
	ff_level *ls[FF_GEN__COUNT];
	ff_solver *s = ff_solver_create(157, 113), *big = ff_solver_create(256, 256);
	ff_level *cb = comb(256);
	const ff_shape g0 = COLUMN0;
	uint64_t rs = 77;
	long before, spills;

	for (int k = 0; k < FF_GEN__COUNT; k++)
		ls[k] = ff_gen_level((ff_gen_kind)k, 157, 113, 31u + (unsigned)k);
	before = allocs;
	for (int k = 0; k < FF_GEN__COUNT; k++) {
		ff_level *l = ls[k];
		for (int m = 0; m < 4; m++) {
			ff_solver_solve(s, l, l->meta.goals, 1, opts[m]);
			ff_solver_begin(s, l, l->meta.goals, 1, opts[m]);
			while (ff_solver_phase(s) != FF_PHASE_DONE)
				ff_solver_step(s, tu_range(&rs, 0, 2) ? FF_STEP_CELL : FF_STEP_WAVE,
					       tu_range(&rs, 1, 500));
		}
		ff_solver_solve(s, l, l->meta.goals, 1, &DIJ8);
		for (int e = 0; e < 20; e++) {
			int x = tu_range(&rs, 0, l->w - 1), y = tu_range(&rs, 0, l->h - 1);
			if (ff_level_is_goal(l, x, y))
				continue;
			l->cells[y * l->w + x] = e % 2 ? FF_WALL : 1;
			ff_solver_repair(s, x, y, x, y);
		}
	}
	ff_solver_solve(big, cb, &g0, 1, &DIJ8);
	spills = big->spills;
	ff_solver_solve(big, cb, &g0, 1, &FMM);
	ck_assert_int_eq(allocs - before, 0);
	ck_assert_int_gt(spills, 0);
	for (int k = 0; k < FF_GEN__COUNT; k++)
		ff_level_destroy(ls[k]);
	ff_level_destroy(cb);
	ff_solver_destroy(big);
	ff_solver_destroy(s);
}
END_TEST

/* --- two threads ------------------------------------------------------- */

/* Solves L with a two-thread solver and a one-thread one; the same bytes.
 * ROUNDS: the two threads must have settled some bucket together. */
static void same_threaded(ff_solver *two, ff_solver *one, const ff_level *l,
			  const ff_shape *g, const ff_solver_opts *o, bool rounds)
{
	long before = allocs, r0 = two->par_rounds;
	ff_err e = ff_solver_solve(two, l, g, 1, o);
	long n = allocs - before;      /* before ck_assert, which allocates */

	ck_assert_int_eq(e, FF_OK);
	ck_assert_int_eq(n, 0);
	ck_assert_msg(!rounds || two->par_rounds > r0, "%s, method %d: no two-part round",
		      l->meta.name, (int)o->method);
	ck_assert_int_eq(ff_solver_solve(one, l, g, 1, o), FF_OK);
	ck_assert_int_eq(one->par_rounds, 0);
	same_fields(two, one, l);
	ck_assert_int_eq(two->settled, one->settled);
	ck_assert_int_eq(two->frontier, one->frontier);
}

START_TEST(two_threads_equal_one)
{
	const ff_solver_opts *opts[4] = {&DIJ8, &DIJ4, &FMM, &FMM2};
	const int w = 611, h = 523;     /* above FF_PAR_MIN_CELLS, odd widths */
	ff_solver *two = ff_solver_create(w, h), *one = ff_solver_create(w, h);
	ff_solver *ctwo = ff_solver_create(512, 512), *cone = ff_solver_create(512, 512);
	ff_level *cb = comb(512);
	const ff_shape g0 = {FF_SHAPE_RECT, 0, 0, 1, 512, 0};
	const ff_shape rect = {FF_SHAPE_RECT, 100, 60, 200, 150, 0};
	long falls;

	if (!two->par)       /* one core online: nothing to compare */
		goto done;
	ck_assert_int_eq(ff_solver_set_threads(one, 1), FF_OK);
	ck_assert_int_eq(ff_solver_set_threads(one, 3), FF_E_INVAL);
	for (int k = 0; k < FF_GEN__COUNT; k++) {
		ff_level *l = ff_gen_level((ff_gen_kind)k, w, h, 5u + (unsigned)k);
		/* open ground takes no queue with Dijkstra (check_open.c) */
		for (int m = 0; m < 4; m++)
			same_threaded(two, one, l, l->meta.goals, opts[m], k != FF_GEN_OPEN || m);
		if (k == FF_GEN_OPEN) {  /* many goals, in both threads' bands; a
					    wall keeps Dijkstra on the queue */
			l->cells[w - 1] = FF_WALL;
			same_threaded(two, one, l, &rect, &DIJ8, true);
			same_threaded(two, one, l, &rect, &FMM, true);
			same_threaded(two, one, l, &rect, &FMM2, true);
		}
		/* the wall penalty's costs are built by both threads, a
		 * half of the rows each (Fast Marching's buckets, cmin/8
		 * wide, then hold too few cells to share on random walls) */
		ff_level_param_set(l, FF_P_WALL_PENALTY, 9, NULL);
		same_threaded(two, one, l, l->meta.goals, &DIJ8, true);
		same_threaded(two, one, l, l->meta.goals, &FMM, false);
		ff_level_destroy(l);
	}
	/* costs 1 and 254: FMM's longest step, 8 * 254 buckets, fits the
	 * ring, so the threads keep sharing (with a ring of 1024 buckets
	 * they gave up at the first cell of cost 128 or more) */
	{
		ff_level *l = ff_gen_level(FF_GEN_OPEN, w, h, 4);
		uint64_t rs = 5;
		falls = two->par_falls;
		for (int i = 0; i < w * h; i++)
			if (tu_range(&rs, 0, 19) == 0 && !ff_level_is_goal(l, i % w, i / w))
				l->cells[i] = 254;
		same_threaded(two, one, l, l->meta.goals, &FMM, true);
		same_threaded(two, one, l, l->meta.goals, &FMM2, true);
		ck_assert_int_eq(two->par_falls, falls);
		ff_level_destroy(l);
	}
	/* a stepped FMM solve finished in one go: its queue holds cells of
	 * every band, so it stays on one thread (two would share cells) */
	{
		ff_level *l = ff_gen_level(FF_GEN_RANDOM20, w, h, 9);
		const ff_shape line = {FF_SHAPE_RECT, 300, 100, 1, 60, 0};
		ck_assert_int_eq(ff_solver_begin(two, l, &line, 1, &FMM), FF_OK);
		ff_solver_step(two, FF_STEP_WAVE, 200);
		ff_solver_step(two, FF_STEP_ALL, 0);
		ck_assert_int_eq(ff_solver_solve(one, l, &line, 1, &FMM), FF_OK);
		same_fields(two, one, l);
		ck_assert_int_eq(two->settled, one->settled);
		ck_assert_int_eq(two->frontier, one->frontier);
		ff_level_destroy(l);
	}
	/* whether the worker or the main thread did a round's second part
	 * depends on the scheduler (a loaded machine: the main thread), so
	 * it is reported, not asserted; ThreadSanitizer runs check the
	 * concurrency */
	fprintf(stderr, "two threads: %ld two-part rounds, the worker did %ld\n",
		two->par_rounds, two->par_worker);
	/* a queue that fills up (buckets too small to share): the threads
	 * give way to one, still exact */
	ck_assert_int_eq(ff_solver_set_threads(cone, 1), FF_OK);
	same_threaded(ctwo, cone, cb, &g0, &DIJ8, false);
	ck_assert_int_gt(ctwo->par_falls, 0);
	/* Fast Marching never fills the comb's pool, and its steps into the
	 * cost-254 rows fit the ring */
	falls = ctwo->par_falls;
	same_threaded(ctwo, cone, cb, &g0, &FMM, false);
	ck_assert_int_eq(ctwo->par_falls, falls);
	/* shrink the pool to make a thread's half run out; the solve starts
	 * again on one thread, which spills, and still gives the bytes of a
	 * roomy one-thread solve */
	ctwo->nblk /= 6;
	same_threaded(ctwo, cone, cb, &g0, &FMM, false);
	ck_assert_int_gt(ctwo->par_falls, falls);
	ck_assert_int_gt(ctwo->spills, 0);
done:
	ff_level_destroy(cb);
	ff_solver_destroy(cone);
	ff_solver_destroy(ctwo);
	ff_solver_destroy(one);
	ff_solver_destroy(two);
}
END_TEST

/* --- a shared workspace ------------------------------------------------- */

/* Paints random walls and costs into a 3 x 3 box of L off its border (the
 * corners are goals below), the box into *X0.. *Y1. */
static void random_edit(ff_level *l, uint64_t *rs, int *x0, int *y0, int *x1, int *y1)
{
	static const uint8_t costs[] = {1, 3, 20, FF_WALL, FF_WALL};

	*x0 = tu_range(rs, 1, l->w - 4), *y0 = tu_range(rs, 1, l->h - 4);
	*x1 = *x0 + 2, *y1 = *y0 + 2;
	for (int y = *y0; y <= *y1; y++)
		for (int x = *x0; x <= *x1; x++)
			l->cells[y * l->w + x] = costs[tu_range(rs, 0, 4)];
}

/* Solvers A and B on one workspace, used one after another (solve A,
 * solve B, repair A, repair B, a stepped solve of A between B's), give
 * every value and arrow that solvers of their own (RA, RB: the same
 * calls) give; and count the workspace once. */
static void shared_pair(ff_level *l, const ff_solver_opts *o, int edits)
{
	ff_solver_work *wk = ff_solver_work_create(l->w, l->h);
	ff_solver *a = ff_solver_create_shared(wk), *b = ff_solver_create_shared(wk);
	ff_solver *ra = ff_solver_create(l->w, l->h), *rb = ff_solver_create(l->w, l->h);
	const ff_shape ga = cell(0, 0), gb = cell(l->w - 1, l->h - 1);
	uint64_t rs = 17;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	l->cells[0] = l->cells[l->w * l->h - 1] = 1;
	ck_assert_uint_eq(ff_solver_bytes(ra), ff_solver_bytes(a) + ff_solver_work_bytes(wk));
	ck_assert_int_eq(ff_solver_solve(a, l, &ga, 1, o), FF_OK);
	ck_assert_int_eq(ff_solver_solve(b, l, &gb, 1, o), FF_OK);
	ck_assert_int_eq(ff_solver_solve(ra, l, &ga, 1, o), FF_OK);
	ck_assert_int_eq(ff_solver_solve(rb, l, &gb, 1, o), FF_OK);
	same_fields(a, ra, l);
	same_fields(b, rb, l);
	for (int e = 0; e < edits; e++) {
		int x0, y0, x1, y1;
		random_edit(l, &rs, &x0, &y0, &x1, &y1);
		ck_assert_int_eq(ff_solver_repair(a, x0, y0, x1, y1), FF_OK);
		ck_assert_int_eq(ff_solver_repair(b, x0, y0, x1, y1), FF_OK);
		ck_assert_int_eq(ff_solver_repair(ra, x0, y0, x1, y1), FF_OK);
		ck_assert_int_eq(ff_solver_repair(rb, x0, y0, x1, y1), FF_OK);
		same_fields(a, ra, l);
		same_fields(b, rb, l);
	}
	/* a stepped solve of A with B solved in between: a shared solver's
	 * steps run to the end (its queue would be B's by then) */
	ck_assert_int_eq(ff_solver_begin(a, l, &gb, 1, o), FF_OK);
	ff_solver_step(a, FF_STEP_PHASE, 1);
	ff_solver_step(a, FF_STEP_CELL, 40);
	ck_assert_int_eq(ff_solver_solve(b, l, &ga, 1, o), FF_OK);
	ff_solver_step(a, FF_STEP_ALL, 0);
	ck_assert_int_eq(ff_solver_solve(rb, l, &ga, 1, o), FF_OK);
	ck_assert_int_eq(ff_solver_solve(ra, l, &gb, 1, o), FF_OK);
	same_fields(a, ra, l);
	same_fields(b, rb, l);
	ff_solver_destroy(rb);
	ff_solver_destroy(ra);
	ff_solver_destroy(b);
	ff_solver_destroy(a);
	ff_solver_work_destroy(wk);
}

START_TEST(shared_workspace_equals_own)
{
	for (int k = 0; k < FF_GEN__COUNT; k++) {
		ff_level *l = ff_gen_level((ff_gen_kind)k, 73, 59, 40u + (unsigned)k);
		shared_pair(l, &DIJ8, 25);
		shared_pair(l, &FMM, 3);
		ff_level_destroy(l);
	}
	/* large enough for the second thread, which the workspace holds:
	 * its rounds must take each solver's cells, not the first one's */
	{
		ff_level *l = ff_gen_level(FF_GEN_RANDOM20, 611, 523, 8);
		shared_pair(l, &DIJ8, 4);
		shared_pair(l, &FMM, 1);
		ff_level_destroy(l);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *su = suite_create("solver");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, weighted_corridor);
	tcase_add_test(tc, octile_and_corners);
	tcase_add_test(tc, four_connected);
	tcase_add_test(tc, multi_goal_and_regions);
	tcase_add_test(tc, unreachable_and_bad_goals);
	tcase_add_test(tc, arrows_go_downhill);
	tcase_add_test(tc, arrows_are_cheapest_steps);
	tcase_add_test(tc, arrow_rules_on_the_lesson);
	tcase_add_test(tc, cheapest_equals_lowest_on_open_ground);
	tcase_add_test(tc, sample_is_bilinear);
	tcase_add_test(tc, bytes_per_cell);
	tcase_add_test(tc, bytes_known_up_front);
	tcase_add_test(tc, rows_without_division);
	tcase_add_test(tc, fmm_vs_euclid);
	tcase_add_test(tc, fmm_far_field);
	tcase_add_test(tc, fmm_monotone_along_flow);
	tcase_add_test(tc, fmm_arrow_best_aligned);
	tcase_add_test(tc, stepping_equals_one_shot);
	tcase_add_test(tc, wave_steps_settle_one_band);
	tcase_add_test(tc, repair_equals_full_solve);
	tcase_add_test(tc, repair_with_wall_penalty_equals_full_solve);
	tcase_add_test(tc, repair_of_both_layers_equals_full_solve);
	tcase_add_test(tc, repair_after_new_penalty_solves_again);
	tcase_add_test(tc, repair_cuts_off_far_cells);
	tcase_add_test(tc, spilling_queue_stays_exact);
	tcase_add_test(tc, solves_allocate_nothing);
	tcase_add_test(tc, two_threads_equal_one);
	tcase_add_test(tc, shared_workspace_equals_own);
	tcase_add_test(tc, movingai_scenarios);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return tu_run(suite());
}
