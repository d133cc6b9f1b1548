/*
 * check_open.c - the sweeps that solve open ground without the queue
 * (solver_open.c) against independent truth: every value is the unique
 * fixed point of Dijkstra's rounded sums (checked cell by cell: a goal is
 * 0, any other cell the smallest fl(neighbour + step) over its eight
 * neighbours), and every value, arrow and count equals, bit for bit, the
 * bucket queue's of a stepped solve of the same level, on open levels and
 * on fields inside walls.  Other levels must not take the sweeps.
 */
#include <math.h>
#include <string.h>

#include "core/level_gen.h"
#include "core/solver.h"
#include "core/solver_int.h"
#include "testutil.h"

static const ff_solver_opts DIJ8 = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_CHEAPEST, 0, false};

static ff_level *open_level(int w, int h, uint8_t cost)
{
	ff_level *l = ff_level_create(w, h, "open");

	ck_assert_ptr_nonnull(l);
	memset(l->cells, cost, (size_t)w * (size_t)h);
	return l;
}

static bool passable(const ff_level *l, int x, int y)
{
	return ff_level_in(l, x, y) && l->cells[y * l->w + x] != FF_WALL;
}

/* The fixed point: INFINITY on walls, 0 on goals, elsewhere the smallest
 * rounded sum of a neighbour's value and the step into the cell, over the
 * allowed steps (no wall, no corner cut). */
static void check_fixed_point(const ff_solver *s, const ff_level *l, const ff_shape *g, int ng)
{
	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++) {
			const uint8_t c = l->cells[y * l->w + x];
			double v = ff_solver_value(s, x, y), want = INFINITY;
			bool goal = false;
			for (int i = 0; i < ng; i++)
				goal |= ff_shape_contains(&g[i], x, y);
			for (int d = 0; d < 8 && !goal && c != FF_WALL; d++) {
				int dx = ff_dir_dx[d], dy = ff_dir_dy[d];
				double sum;
				if (!passable(l, x + dx, y + dy) || !passable(l, x + dx, y) ||
				    !passable(l, x, y + dy))
					continue;
				sum = ff_solver_value(s, x + dx, y + dy) +
				      (d < 4 ? (double)c : c * 1.4142135623730951);
				want = sum < want ? sum : want;
			}
			if (goal && c != FF_WALL)
				want = 0.0;
			ck_assert_msg(memcmp(&v, &want, sizeof v) == 0, "(%d,%d): %.17g, want %.17g",
				      x, y, v, want);
		}
}

/* Solves L from G one-shot (the sweeps, when OPEN) and stepped (the
 * queue), and compares every value, arrow and count. */
static void same_as_queue(const ff_level *l, const ff_shape *g, int ng, bool open, int threads)
{
	ff_solver *a = ff_solver_create(l->w, l->h), *b = ff_solver_create(l->w, l->h);
	int ax, ay, bx, by, fx, fy;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ff_solver_set_threads(a, threads);
	ck_assert_int_eq(ff_solver_solve(a, l, g, ng, &DIJ8), FF_OK);
	ck_assert_int_eq(a->open_runs, open);
	ck_assert_int_eq(ff_solver_begin(b, l, g, ng, &DIJ8), FF_OK);
	while (ff_solver_phase(b) != FF_PHASE_DONE)
		ff_solver_step(b, FF_STEP_PHASE, 1);
	ck_assert_int_eq(b->open_runs, 0);
	ck_assert_int_eq(ff_solver_settled(a), ff_solver_settled(b));
	ck_assert_int_eq(ff_solver_frontier(a), 0);
	/* the last cell settled is one of the last bucket, both ways */
	ck_assert(ff_solver_last(a, &ax, &ay, &fx, &fy));
	ck_assert(ff_solver_last(b, &bx, &by, &fx, &fy));
	ck_assert_int_eq((long)ff_solver_value(a, ax, ay), (long)ff_solver_value(b, bx, by));
	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++) {
			double va = ff_solver_value(a, x, y), vb = ff_solver_value(b, x, y);
			ck_assert_msg(memcmp(&va, &vb, sizeof va) == 0, "(%d,%d): %.17g != %.17g",
				      x, y, va, vb);
			ck_assert_msg(ff_solver_dir(a, x, y) == ff_solver_dir(b, x, y),
				      "(%d,%d): dir %d != %d", x, y, ff_solver_dir(a, x, y),
				      ff_solver_dir(b, x, y));
		}
	ff_solver_destroy(a);
	ff_solver_destroy(b);
}

/* Sizes around the strip height (8), thin levels, one cell; costs 1, a
 * middle one and the dearest; goals: one cell anywhere, several cells,
 * rectangles and circles, some partly outside. */
START_TEST(open_ground_equals_the_queue)
{
	static const int sizes[][2] = {{1, 1}, {1, 9}, {9, 1}, {2, 2}, {7, 5}, {8, 8}, {9, 17},
				       {37, 23}, {64, 64}, {130, 41}};
	static const uint8_t costs[] = {1, 7, 254};
	uint64_t rs = 17;

	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
		for (size_t c = 0; c < sizeof costs / sizeof *costs; c++) {
			const int w = sizes[i][0], h = sizes[i][1];
			ff_level *l = open_level(w, h, costs[c]);
			for (int k = 0; k < 6; k++) {
				ff_shape g[3];
				int ng = 1 + (k >= 3) + (k >= 5);
				for (int j = 0; j < ng; j++) {
					int kind = (k + j) % 3, x = tu_range(&rs, 0, w - 1);
					int y = tu_range(&rs, 0, h - 1);
					g[j] = (ff_shape){kind == 0 ? FF_SHAPE_CELL :
							  kind == 1 ? FF_SHAPE_RECT : FF_SHAPE_CIRCLE,
							  x, y, tu_range(&rs, 1, w - x),
							  tu_range(&rs, 1, h - y), tu_range(&rs, 0, 5)};
				}
				same_as_queue(l, g, ng, true, 1);
				{
					ff_solver *s = ff_solver_create(w, h);
					ck_assert_int_eq(ff_solver_solve(s, l, g, ng, &DIJ8), FF_OK);
					check_fixed_point(s, l, g, ng);
					ff_solver_destroy(s);
				}
			}
			ff_level_destroy(l);
		}
}
END_TEST

/* The generated open level, off-centre goals included, at sizes where
 * values pass several powers of two (the roundings the order of steps
 * changes), and with the solver's second thread allowed (the sweeps run
 * on one). */
START_TEST(large_open_ground_equals_the_queue)
{
	ff_level *l = ff_gen_level(FF_GEN_OPEN, 700, 530, 1);
	ff_shape g[2] = {{FF_SHAPE_CELL, 3, 528, 0, 0, 0}, {FF_SHAPE_CELL, 650, 100, 0, 0, 0}};
	ff_solver *s = ff_solver_create(l->w, l->h);

	same_as_queue(l, l->meta.goals, 1, true, 1);
	same_as_queue(l, g, 1, true, 2);
	same_as_queue(l, g, 2, true, 0);
	ck_assert_int_eq(ff_solver_solve(s, l, g, 2, &DIJ8), FF_OK);
	check_fixed_point(s, l, g, 2);
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

/* A field inside walls: the passable cells one rectangle of one cost,
 * with frames of every thickness on each side (none included), from one
 * cell to the whole level, goals partly on the walls. */
START_TEST(a_field_inside_walls_equals_the_queue)
{
	uint64_t rs = 23;

	for (int i = 0; i < 60; i++) {
		const int w = tu_range(&rs, 1, 40), h = tu_range(&rs, 1, 30);
		const int x0 = tu_range(&rs, 0, w - 1), y0 = tu_range(&rs, 0, h - 1);
		const int x1 = tu_range(&rs, x0, w - 1), y1 = tu_range(&rs, y0, h - 1);
		const uint8_t c = (uint8_t)(i % 3 ? 1 : tu_range(&rs, 2, 254));
		ff_level *l = open_level(w, h, FF_WALL);
		ff_shape g[2] = {{FF_SHAPE_CELL, tu_range(&rs, x0, x1), tu_range(&rs, y0, y1), 0, 0, 0},
				 {FF_SHAPE_CIRCLE, tu_range(&rs, x0, x1), tu_range(&rs, y0, y1), 0, 0,
				  tu_range(&rs, 0, 6)}};
		ff_solver *s = ff_solver_create(w, h);

		for (int y = y0; y <= y1; y++)
			memset(l->cells + y * w + x0, c, (size_t)(x1 - x0 + 1));
		same_as_queue(l, g, 1 + i % 2, true, 1);
		ck_assert_int_eq(ff_solver_solve(s, l, g, 1 + i % 2, &DIJ8), FF_OK);
		ck_assert_int_eq(ff_solver_settled(s), (long)(x1 - x0 + 1) * (y1 - y0 + 1));
		check_fixed_point(s, l, g, 1 + i % 2);
		ff_solver_destroy(s);
		ff_level_destroy(l);
	}
}
END_TEST

/* One wall, one other cost, four-connected or lowest-neighbour arrows:
 * the queue, with the same results as stepping. */
START_TEST(other_levels_use_the_queue)
{
	const ff_solver_opts dij4 = {FF_METHOD_DIJKSTRA, 4, 1, FF_ARROW_CHEAPEST, 0, false};
	const ff_solver_opts low = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_LOWEST, 0, false};
	ff_level *l = open_level(40, 30, 1);
	ff_shape g = {FF_SHAPE_CELL, 5, 5, 0, 0, 0};
	ff_solver *s = ff_solver_create(40, 30);

	l->cells[31 * 40 / 2] = FF_WALL;
	same_as_queue(l, &g, 1, false, 1);
	l->cells[31 * 40 / 2] = 2;
	same_as_queue(l, &g, 1, false, 1);
	l->cells[31 * 40 / 2] = 1;
	ck_assert_int_eq(ff_solver_solve(s, l, &g, 1, &dij4), FF_OK);
	ck_assert_int_eq(ff_solver_solve(s, l, &g, 1, &low), FF_OK);
	ck_assert_int_eq(s->open_runs, 0);
	ck_assert_int_eq(ff_solver_solve(s, l, &g, 1, &DIJ8), FF_OK);
	ck_assert_int_eq(s->open_runs, 1);
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

/* Passable cells that are not one rectangle inside walls: a notch in a
 * corner, a wall inside, a passable cell outside, above, below and beside
 * it, two fields, a field of two costs: the queue. */
START_TEST(not_one_rectangle_uses_the_queue)
{
	static const int cells[][2] = {{10, 5}, {20, 12}, {10, 2}, {10, 17}, {3, 9}, {32, 9}};
	ff_shape g = {FF_SHAPE_CELL, 15, 9, 0, 0, 0};

	for (int k = 0; k < 8; k++) {
		ff_level *l = open_level(34, 20, FF_WALL);
		for (int y = 5; y <= 14; y++)
			memset(l->cells + y * 34 + 10, 1, 21);
		if (k < 6)   /* flip one cell: inside to wall, outside to passable */
			l->cells[cells[k][1] * 34 + cells[k][0]] ^= FF_WALL ^ 1;
		else if (k == 6)
			memset(l->cells + 17 * 34 + 10, 1, 21);
		else
			memset(l->cells + 14 * 34 + 10, 2, 21);
		same_as_queue(l, &g, 1, false, 1);
		ff_level_destroy(l);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("open");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, open_ground_equals_the_queue);
	tcase_add_test(tc, large_open_ground_equals_the_queue);
	tcase_add_test(tc, a_field_inside_walls_equals_the_queue);
	tcase_add_test(tc, other_levels_use_the_queue);
	tcase_add_test(tc, not_one_rectangle_uses_the_queue);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
