/*
 * check_values.c - ff_solver_values_at(), the values of a few cells
 * computed only as far as they need: against the Moving AI benchmark's
 * optimal lengths, and against the full field of ff_solver_solve() (the
 * same bytes) on random levels, every method, one and two threads, a
 * queue that spills and more cells than are tracked; and that it does
 * stop early.
 */
#include <math.h>
#include <string.h>

#include "core/level_gen.h"
#include "core/level_text.h"
#include "core/solver.h"
#include "core/solver_int.h"
#include "testutil.h"

#define SQRT2 1.41421356237309504880

static const ff_solver_opts DIJ8 = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_CHEAPEST, 0, false};
static const ff_solver_opts DIJ4 = {FF_METHOD_DIJKSTRA, 4, 1, FF_ARROW_CHEAPEST, 0, false};
static const ff_solver_opts LOWEST = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_LOWEST, 0, true};
static const ff_solver_opts FMM = {FF_METHOD_FMM, 4, 1, FF_ARROW_CHEAPEST, 0, false};
static const ff_solver_opts FMM2 = {FF_METHOD_FMM, 4, 2, FF_ARROW_CHEAPEST, 0, false};
static const ff_solver_opts HIER = {FF_METHOD_HIER, 8, 1, FF_ARROW_CHEAPEST, 16, false};

static ff_shape cell(int x, int y)
{
	return (ff_shape){FF_SHAPE_CELL, x, y, 0, 0, 0};
}

/* The same double, INFINITY included (== would miss a changed bit only
 * for -0, which no value is). */
static bool same(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

/* values_at() on PART for the N cells XS, YS equals the full field FULL
 * solved with the same arguments, cell by cell. */
static void same_as_full(ff_solver *part, ff_solver *full, const ff_level *l, const ff_shape *g,
			 int ng, const ff_solver_opts *o, int n, const int *xs, const int *ys)
{
	double *v = malloc(sizeof *v * (size_t)(n ? n : 1));

	ck_assert_int_eq(ff_solver_solve(full, l, g, ng, o), FF_OK);
	ck_assert_int_eq(ff_solver_values_at(part, l, g, ng, o, n, xs, ys, v), FF_OK);
	for (int i = 0; i < n; i++) {
		double want = ff_solver_value(full, xs[i], ys[i]);
		ck_assert_msg(same(v[i], want), "%s (%d,%d): %.17g, the full field %.17g",
			      ff_method_label(o), xs[i], ys[i], v[i], want);
	}
	free(v);
}

/* --- Moving AI: the published optimal lengths --------------------------- */

static const char *const MAPS[] = {"arena", "den312d", "maze512-1-0", "random512-10-0",
				   "AcrosstheCape"};

START_TEST(movingai_optimal_lengths)
{
	int run = 0;

	for (size_t m = 0; m < sizeof MAPS / sizeof *MAPS; m++) {
		char fn[128], *map, *scen, *line, *save = NULL;
		size_t len;
		ff_level *l;
		ff_diag diag;
		ff_solver *s, *full;
		int i = 0;

		snprintf(fn, sizeof fn, "%s.map", MAPS[m]);
		map = tu_read(FF_TESTDATA, fn, &len);
		ck_assert_int_eq(ff_level_parse_any(map, len, MAPS[m], &l, &diag), FF_OK);
		snprintf(fn, sizeof fn, "%s.map.scen", MAPS[m]);
		scen = tu_read(FF_TESTDATA, fn, NULL);
		s = ff_solver_create(l->w, l->h);
		full = ff_solver_create(l->w, l->h);
		ck_assert_ptr_nonnull(s);
		ck_assert_ptr_nonnull(full);
		for (line = strtok_r(scen, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			int b, mw, mh, sx, sy, gx, gy;
			double opt, got;
			char mp[256];
			ff_shape g;
			if (sscanf(line, "%d %255s %d %d %d %d %d %d %lf", &b, mp, &mw, &mh, &sx,
				   &sy, &gx, &gy, &opt) != 9 || i++ % 97)
				continue;
			g = cell(gx, gy);
			ck_assert_int_eq(ff_solver_values_at(s, l, &g, 1, &DIJ8, 1, &sx, &sy, &got),
					 FF_OK);
			ck_assert_msg(fabs(got - opt) <= 1e-5 * opt + 1e-4,
				      "%s (%d,%d)->(%d,%d): got %.9g want %.9g", MAPS[m], sx, sy,
				      gx, gy, got, opt);
			same_as_full(s, full, l, &g, 1, &DIJ8, 1, &sx, &sy);
			run++;
		}
		ff_solver_destroy(full);
		ff_solver_destroy(s);
		ff_level_destroy(l);
		free(map);
		free(scen);
	}
	ck_assert_int_ge(run, 150);
}
END_TEST

/* --- random levels against the full field -------------------------------- */

/* N cells of L, some of them walls, goals or next to them. */
static int pick(const ff_level *l, uint64_t *rs, int n, int *xs, int *ys)
{
	for (int i = 0; i < n; i++) {
		xs[i] = tu_range(rs, 0, l->w - 1);
		ys[i] = tu_range(rs, 0, l->h - 1);
	}
	if (n > 1)      /* the goal itself */
		xs[0] = l->meta.goals[0].x, ys[0] = l->meta.goals[0].y;
	return n;
}

START_TEST(random_levels_equal_the_full_field)
{
	const ff_solver_opts *opts[] = {&DIJ8, &DIJ4, &LOWEST, &FMM, &FMM2, &HIER};
	uint64_t rs = 17;

	for (int t = 0; t < 40; t++) {
		const int w = tu_range(&rs, 1, 90), h = tu_range(&rs, 1, 70);
		ff_level *l = ff_gen_level((ff_gen_kind)(t % FF_GEN__COUNT), w, h, (uint64_t)t);
		ff_solver *s = ff_solver_create(w, h), *full = ff_solver_create(w, h);
		int xs[40], ys[40], n = pick(l, &rs, tu_range(&rs, 0, 40), xs, ys);
		ff_shape g[3] = {l->meta.goals[0], cell(tu_range(&rs, 0, w - 1), 0),
				 {FF_SHAPE_RECT, tu_range(&rs, 0, w - 1), tu_range(&rs, 0, h - 1),
				  3, 2, 0}};

		if (t % 3 == 0)         /* a wall penalty changes the costs */
			ff_level_param_set(l, FF_P_WALL_PENALTY, 9, NULL);
		for (size_t m = 0; m < sizeof opts / sizeof *opts; m++) {
			/* the goal alone, then three goals (some may be walls) */
			same_as_full(s, full, l, g, 1, opts[m], n, xs, ys);
			if (ff_solver_solve(full, l, g, 3, opts[m]) == FF_OK)
				same_as_full(s, full, l, g, 3, opts[m], n, xs, ys);
		}
		/* the solver holds no field after it: nothing half solved to read */
		ck_assert_int_eq(ff_solver_values_at(s, l, g, 1, &DIJ8, n, xs, ys,
						     (double[40]){0}), FF_OK);
		ck_assert_int_eq(ff_solver_phase(s), FF_PHASE_IDLE);
		ck_assert(isinf(ff_solver_value(s, g[0].x, g[0].y)));
		ff_solver_destroy(full);
		ff_solver_destroy(s);
		ff_level_destroy(l);
	}
}
END_TEST

/* Two threads (a level of at least 512 x 512 cells), the cells near the
 * goal and far from it; and a queue that spills, on one thread. */
START_TEST(two_threads_and_spills)
{
	const ff_solver_opts *opts[] = {&DIJ8, &DIJ4, &FMM, &FMM2};
	const int w = 611, h = 523;
	ff_solver *s = ff_solver_create(w, h), *full = ff_solver_create(w, h);
	uint64_t rs = 3;

	for (int k = 0; k < FF_GEN__COUNT; k++) {
		ff_level *l = ff_gen_level((ff_gen_kind)k, w, h, 40u + (unsigned)k);
		const int cx = w / 2, cy = h / 2;
		int xs[8] = {cx + 3, cx - 40, cx, cx + 200, 0, w - 1, cx + 1, cx},
		    ys[8] = {cy + 1, cy + 20, cy + 250, cy, 0, h - 1, cy, cy};
		for (size_t m = 0; m < sizeof opts / sizeof *opts; m++) {
			same_as_full(s, full, l, l->meta.goals, 1, opts[m], 2, xs, ys);
			same_as_full(s, full, l, l->meta.goals, 1, opts[m], 8, xs, ys);
		}
		ff_level_destroy(l);
	}
	ff_solver_destroy(full);
	ff_solver_destroy(s);
	/* every third row costs 1, the others 254: the queue spills */
	{
		const int n = 256;
		ff_level *l = ff_level_create(n, n, "comb");
		const ff_shape col = {FF_SHAPE_RECT, 0, 0, 1, n, 0};
		int xs[16], ys[16];
		s = ff_solver_create(n, n);
		full = ff_solver_create(n, n);
		for (int y = 0; y < n; y++)
			for (int x = 1; x < n; x++)
				l->cells[y * n + x] = y % 3 ? 254 : 1;
		for (int i = 0; i < 16; i++)
			xs[i] = tu_range(&rs, 0, n - 1), ys[i] = tu_range(&rs, 0, n - 1);
		same_as_full(s, full, l, &col, 1, &DIJ8, 16, xs, ys);
		ck_assert_int_gt(full->spills, 0);
		same_as_full(s, full, l, &col, 1, &FMM, 16, xs, ys);
		ff_solver_destroy(full);
		ff_solver_destroy(s);
		ff_level_destroy(l);
	}
}
END_TEST

/* --- it computes only what it needs ------------------------------------- */

START_TEST(stops_once_the_cells_are_settled)
{
	const int n = 301;
	ff_level *l = ff_gen_level(FF_GEN_OPEN, n, n, 1);
	ff_solver *s = ff_solver_create(n, n);
	int xs[2] = {150 + 5, 150 - 3}, ys[2] = {150 - 2, 150 + 4}, many[300], zero[300] = {0};
	double v[300];

	/* octile distances from the centre: 5 - 2 + 2 sqrt 2, 4 - 3 + 3 sqrt 2 */
	ck_assert_int_eq(ff_solver_values_at(s, l, l->meta.goals, 1, &DIJ8, 2, xs, ys, v), FF_OK);
	ck_assert_double_eq_tol(v[0], 3 + 2 * SQRT2, 1e-12);
	ck_assert_double_eq_tol(v[1], 1 + 3 * SQRT2, 1e-12);
	/* the cells within about 6 of the centre: a 13 x 13 block, give or
	 * take the last bucket, not the 90,601 of the level */
	ck_assert_int_lt(s->settled, 15 * 15);
	ck_assert_int_eq(ff_solver_values_at(s, l, l->meta.goals, 1, &FMM, 2, xs, ys, v), FF_OK);
	ck_assert_int_lt(s->settled, 17 * 17);
	/* near cells take the queue; a far cell needs the whole level, which
	 * open ground solves by its sweeps (solver_open.c), the same values:
	 * 150 diagonal steps */
	ck_assert_int_eq(s->open_runs, 0);
	xs[0] = ys[0] = 0;
	ck_assert_int_eq(ff_solver_values_at(s, l, l->meta.goals, 1, &DIJ8, 1, xs, ys, v), FF_OK);
	ck_assert_int_eq(s->settled, (long)n * n);
	ck_assert_int_eq(s->open_runs, 1);
	ck_assert_double_eq_tol(v[0], 150 * SQRT2, 1e-9);
	/* more cells than are tracked: a full integration, the same values */
	for (int i = 0; i < 300; i++)
		many[i] = 150 + i % 7;
	ck_assert_int_eq(ff_solver_values_at(s, l, l->meta.goals, 1, &DIJ8, 300, many, many, v),
			 FF_OK);
	ck_assert_int_eq(s->settled, (long)n * n);
	for (int i = 0; i < 300; i++)
		ck_assert_double_eq_tol(v[i], (i % 7) * SQRT2, 1e-12);
	/* a wall is known at once: nothing settled */
	l->cells[(size_t)147 * n + 152] = FF_WALL;
	xs[0] = 152, ys[0] = 147;
	ck_assert_int_eq(ff_solver_values_at(s, l, l->meta.goals, 1, &DIJ8, 1, xs, ys, v), FF_OK);
	ck_assert(isinf(v[0]));
	ck_assert_int_eq(s->settled, 0);
	l->cells[(size_t)147 * n + 152] = 1;
	/* a cell outside the level, a goal on a wall: nothing solved */
	xs[0] = n;
	ck_assert_int_eq(ff_solver_values_at(s, l, l->meta.goals, 1, &DIJ8, 1, xs, ys, v),
			 FF_E_RANGE);
	l->cells[0] = FF_WALL;
	{
		const ff_shape g = cell(0, 0);
		ck_assert_int_eq(ff_solver_values_at(s, l, &g, 1, &DIJ8, 1, zero, zero, v),
				 FF_E_WALL);
	}
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("values");
	TCase *tc = tcase_create("values_at");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, stops_once_the_cells_are_settled);
	tcase_add_test(tc, random_levels_equal_the_full_field);
	tcase_add_test(tc, two_threads_and_spills);
	tcase_add_test(tc, movingai_optimal_lengths);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
