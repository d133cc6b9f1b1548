/*
 * check_los.c - line of sight (solver_los.c, solver_hier_los.c) against
 * independent truth: a brute force that intersects the segment with every
 * blocker's square in exact rational arithmetic, and the analytic
 * direction to the goal on open ground; the shadow casting against the
 * segment walk; and the fields that use it.
 */
#include <math.h>
#include <string.h>

#include "core/level_gen.h"
#include "core/solver.h"
#include "core/solver_los.h"
#include "testutil.h"

static const ff_solver_opts DIJ_LOS = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_CHEAPEST, 0, true};
static const ff_solver_opts HIER_LOS = {FF_METHOD_HIER, 8, 1, FF_ARROW_CHEAPEST, 16, true};

/* Whether the closed segment from (0, 0) to (X, Y) meets the closed
 * square [A - 1/2, A + 1/2] x [B - 1/2, B + 1/2]: clips the segment's
 * parameter t in [0, 1] to each slab, in halves (all numbers doubled). */
static bool meets(long x, long y, long a, long b)
{
	/* t in [lo_n / lo_d, hi_n / hi_d]; a slab 2a - 1 <= 2 t x <= 2a + 1 */
	long ln = 0, ld = 1, hn = 1, hd = 1;
	const long d[2] = {x, y}, c[2] = {a, b};

	for (int k = 0; k < 2; k++) {
		long lo = 2 * c[k] - 1, hi = 2 * c[k] + 1, v = 2 * d[k];
		if (v == 0) {
			if (lo > 0 || hi < 0)
				return false;
			continue;
		}
		if (v < 0)
			lo = -lo, hi = -hi, v = -v, lo ^= hi, hi ^= lo, lo ^= hi;
		/* t >= lo / v and t <= hi / v */
		if (lo * ld > ln * v)
			ln = lo, ld = v;
		if (hi * hd < hn * v)
			hn = hi, hd = v;
	}
	return ln * hd <= hn * ld;
}

/* The brute force: (ax, ay) sees (bx, by) in G when no blocker's square
 * meets the segment. */
static bool brute(const ff_los_grid *g, int ax, int ay, int bx, int by)
{
	const uint8_t ref = 1;          /* the cheapest cost of the test's grids */

	for (int y = g->y0 - 1; y <= g->y1 + 1; y++)
		for (int x = g->x0 - 1; x <= g->x1 + 1; x++) {
			bool blocked = x < g->x0 || x > g->x1 || y < g->y0 || y > g->y1 ||
				       g->cost[(long)y * g->stride + x] != ref;
			if (blocked && meets(bx - ax, by - ay, x - ax, y - ay))
				return false;
		}
	return true;
}

typedef struct seen_map {
	int w;
	uint8_t *seen;
} seen_map;

static void note(void *ctx, int x, int y)
{
	seen_map *m = ctx;

	m->seen[y * m->w + x] = 1;
}

/* Random grids of walls and two costs: the walk, the sweep and the brute
 * force agree for every cell and several targets. */
START_TEST(walk_sweep_and_brute_force_agree)
{
	uint64_t rs = 7;

	for (int round = 0; round < 12; round++) {
		const int w = tu_range(&rs, 5, 37), h = tu_range(&rs, 5, 29);
		uint8_t *cost = malloc((size_t)w * h), *seen = malloc((size_t)w * h);
		int64_t *scratch = malloc((size_t)ff_los_scratch(w, h) * sizeof *scratch);
		const ff_los_grid g = {cost, w, 0, 0, w - 1, h - 1, 1};
		const int walls = tu_range(&rs, 0, 30);

		for (int i = 0; i < w * h; i++)
			cost[i] = tu_range(&rs, 0, 99) < walls ? FF_WALL :
				  tu_range(&rs, 0, 19) == 0 ? 3 : 1;
		for (int k = 0; k < 4; k++) {
			int tx = tu_range(&rs, 0, w - 1), ty = tu_range(&rs, 0, h - 1);
			seen_map m = {w, seen};
			cost[ty * w + tx] = 1;
			memset(seen, 0, (size_t)w * h);
			ff_los_sweep(&g, tx, ty, scratch, note, &m);
			for (int y = 0; y < h; y++)
				for (int x = 0; x < w; x++) {
					bool b, c;
					if ((x == tx && y == ty) || cost[y * w + x] != 1)
						continue;
					b = brute(&g, x, y, tx, ty);
					c = ff_los_clear(&g, x, y, tx, ty);
					ck_assert_msg(b == c, "walk: (%d,%d) to (%d,%d): %d, brute %d", x, y,
						      tx, ty, c, b);
					ck_assert_msg(b == seen[y * w + x], "sweep: (%d,%d) to (%d,%d): %d, "
						      "brute %d", x, y, tx, ty, seen[y * w + x], b);
				}
		}
		free(cost);
		free(seen);
		free(scratch);
	}
}
END_TEST

/* Hand-worked: a corner touched blocks (no cutting past a wall's corner),
 * an edge run along does not. */
START_TEST(corners_block)
{
	/* . . .
	 * . # .
	 * . . . */
	uint8_t cost[9] = {1, 1, 1, 1, FF_WALL, 1, 1, 1, 1};
	const ff_los_grid g = {cost, 3, 0, 0, 2, 2, 1};

	ck_assert(!ff_los_clear(&g, 0, 0, 2, 2));       /* through the wall */
	ck_assert(ff_los_clear(&g, 0, 0, 2, 0));        /* along the top row */
	ck_assert(!ff_los_clear(&g, 0, 1, 1, 0));       /* (0,1)-(1,0): touches the wall's corner */
	ck_assert(ff_los_clear(&g, 0, 0, 1, 0));
	ck_assert(!ff_los_clear(&g, 0, 2, 2, 1));       /* crosses the wall's square */
	ck_assert_int_eq(ff_los_dir8(0, 0, 5, 1), FF_DIR_E);
	ck_assert_int_eq(ff_los_dir8(0, 0, 5, 3), FF_DIR_SE);
	ck_assert_int_eq(ff_los_dir8(0, 0, -1, -5), FF_DIR_N);
}
END_TEST

/* Open ground: every cell sees the goal and flows at it exactly, where
 * the grid's arrows run diagonally and then straight. */
START_TEST(exact_direction_on_open_ground)
{
	const int n = 61, c = 30;
	ff_level *l = ff_level_create(n, n, "open");
	ff_shape g = {FF_SHAPE_CELL, c, c, 0, 0, 0};
	ff_solver *s = ff_solver_create(n, n), *grid = ff_solver_create(n, n);
	ff_solver_opts plain = DIJ_LOS;
	long stairs = 0;

	plain.los = false;
	ck_assert_int_eq(ff_solver_solve(s, l, &g, 1, &DIJ_LOS), FF_OK);
	ck_assert_int_eq(ff_solver_solve(grid, l, &g, 1, &plain), FF_OK);
	for (int y = 0; y < n; y++)
		for (int x = 0; x < n; x++) {
			float dx, dy;
			double len = hypot(c - x, c - y);
			int tx, ty, d = ff_solver_dir(grid, x, y);
			if (x == c && y == c)
				continue;
			ck_assert(ff_solver_sees(s, x, y, &tx, &ty));
			ck_assert(tx == c && ty == c);
			ff_solver_flow(s, x, y, &dx, &dy);
			ck_assert_msg(fabs(dx - (c - x) / len) < 1e-6 && fabs(dy - (c - y) / len) < 1e-6,
				      "(%d,%d): %g,%g", x, y, dx, dy);
			/* the arrow shown is the nearest the straight line; the
			 * grid's cheapest steps differ on many cells: the staircase */
			ck_assert_int_eq(ff_solver_dir(s, x, y), ff_los_dir8(x, y, c, c));
			stairs += d != ff_los_dir8(x, y, c, c);
		}
	ck_assert_int_gt(stairs, n * n / 10);
	ff_solver_destroy(s);
	ff_solver_destroy(grid);
	ff_level_destroy(l);
}
END_TEST

/* Behind a wall no line of sight: those cells follow the grid's arrows;
 * a repair that opens the wall gives them their line back. */
START_TEST(shadow_of_a_wall)
{
	ff_level *l = ff_level_create(40, 20, "wall");
	ff_shape g = {FF_SHAPE_CELL, 35, 10, 0, 0, 0};
	ff_solver *s = ff_solver_create(40, 20);
	int tx, ty;
	float dx, dy;

	ck_assert_int_eq(ff_level_rect(l, 20, 5, 1, 11, FF_WALL, NULL), FF_OK);
	ck_assert_int_eq(ff_solver_solve(s, l, &g, 1, &DIJ_LOS), FF_OK);
	ck_assert(!ff_solver_sees(s, 5, 10, &tx, &ty));
	ff_solver_flow(s, 5, 10, &dx, &dy);
	ck_assert(fabs(dx * dx + dy * dy - 1) < 1e-6);
	ck_assert(ff_solver_sees(s, 12, 0, &tx, &ty));   /* over the wall's end */
	ck_assert(ff_solver_sees(s, 30, 18, &tx, &ty));
	ck_assert_int_eq(ff_level_rect(l, 20, 5, 1, 11, 1, NULL), FF_OK);
	ck_assert_int_eq(ff_solver_repair(s, 20, 5, 20, 15), FF_OK);
	ck_assert(ff_solver_sees(s, 5, 10, &tx, &ty));
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

/* A line crosses only the level's cheapest cost: on ground of cost 2
 * every cell sees the goal, until one cell of cost 1 elsewhere makes
 * cheaper ways possible (a straight line is then not known to be the
 * shortest: on a road beside it a detour costs less). */
START_TEST(only_the_cheapest_cost)
{
	ff_level *l = ff_level_create(30, 12, "two");
	ff_shape g = {FF_SHAPE_CELL, 3, 6, 0, 0, 0};
	ff_solver *s = ff_solver_create(30, 12);
	int tx, ty;

	ck_assert_int_eq(ff_level_rect(l, 0, 0, 30, 12, 2, NULL), FF_OK);
	ck_assert_int_eq(ff_solver_solve(s, l, &g, 1, &DIJ_LOS), FF_OK);
	ck_assert(ff_solver_sees(s, 25, 1, &tx, &ty) && tx == 3 && ty == 6);
	ck_assert_int_eq(ff_level_paint(l, 29, 11, 1, NULL), FF_OK);
	ck_assert_int_eq(ff_solver_solve(s, l, &g, 1, &DIJ_LOS), FF_OK);
	for (int y = 0; y < 12; y++)
		for (int x = 0; x < 30; x++)
			ck_assert(!ff_solver_sees(s, x, y, &tx, &ty));
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

/* The words: 'los' and 'nolos' round trip through ff_solver_words();
 * Fast Marching ignores it (its gradient has no staircase). */
START_TEST(words_and_fast_marching)
{
	ff_level *l = ff_level_create(20, 10, "fmm");
	ff_shape g = {FF_SHAPE_CELL, 2, 2, 0, 0, 0};
	ff_solver *s = ff_solver_create(20, 10);
	ff_solver_opts o = DIJ_LOS, back = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_CHEAPEST, 0, false};
	char words[64], *w, *save = NULL;
	int tx, ty;

	ff_solver_words(&o, words, sizeof words);
	ck_assert_str_eq(words, "dijkstra 8 los");
	for (w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
		ck_assert(ff_solver_word(w, &back));
	ck_assert(back.los);
	ck_assert(ff_solver_word("nolos", &back) && !back.los);
	ck_assert(ff_solver_word("fmm", &o) && o.los);
	ff_solver_words(&o, words, sizeof words);
	ck_assert_str_eq(words, "fmm 8");
	ck_assert_int_eq(ff_solver_solve(s, l, &g, 1, &o), FF_OK);
	ck_assert(!ff_solver_sees(s, 10, 5, &tx, &ty));
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

/* Two goals: a cell sees the goal its way leads to, not the other. */
START_TEST(the_goal_the_way_leads_to)
{
	ff_level *l = ff_level_create(50, 20, "two");
	ff_shape g[2] = {{FF_SHAPE_CELL, 5, 10, 0, 0, 0}, {FF_SHAPE_CELL, 44, 10, 0, 0, 0}};
	ff_solver *s = ff_solver_create(50, 20);
	int tx, ty;

	ck_assert_int_eq(ff_solver_solve(s, l, g, 2, &DIJ_LOS), FF_OK);
	ck_assert(ff_solver_sees(s, 12, 3, &tx, &ty) && tx == 5 && ty == 10);
	ck_assert(ff_solver_sees(s, 38, 17, &tx, &ty) && tx == 44 && ty == 10);
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

/* The hierarchy: near the goal the exact direction to it; elsewhere to
 * the sector's exit, a cell across the sector's border that it sees. */
START_TEST(hier_goal_and_exits)
{
	ff_level *l = ff_gen_level(FF_GEN_OPEN, 160, 120, 1);
	ff_solver *s = ff_solver_create_hier(160, 120);
	const int gx = l->meta.goals[0].x, gy = l->meta.goals[0].y;
	long near = 0, far = 0;

	ck_assert_int_eq(ff_solver_solve(s, l, l->meta.goals, 1, &HIER_LOS), FF_OK);
	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++) {
			int tx, ty;
			float dx, dy;
			double len;
			if ((x == gx && y == gy) || !ff_solver_sees(s, x, y, &tx, &ty))
				continue;
			len = hypot(tx - x, ty - y);
			ff_solver_flow(s, x, y, &dx, &dy);
			ck_assert(fabs(dx - (tx - x) / len) < 1e-6 && fabs(dy - (ty - y) / len) < 1e-6);
			if (tx == gx && ty == gy) {
				near++;
			} else {
				/* an exit: next to this cell's sector, not in it */
				ck_assert(tx / 16 != x / 16 || ty / 16 != y / 16);
				ck_assert(abs(tx / 16 - x / 16) <= 1 && abs(ty / 16 - y / 16) <= 1);
				far++;
			}
		}
	/* the near box is 3 x 3 sectors of 16: every cell of it sees the goal */
	ck_assert_int_ge(near, 48 * 48 - 1);
	ck_assert_int_gt(far, 160 * 120 / 2);
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

static Suite *suite(void)
{
	Suite *su = suite_create("los");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, walk_sweep_and_brute_force_agree);
	tcase_add_test(tc, corners_block);
	tcase_add_test(tc, exact_direction_on_open_ground);
	tcase_add_test(tc, shadow_of_a_wall);
	tcase_add_test(tc, only_the_cheapest_cost);
	tcase_add_test(tc, words_and_fast_marching);
	tcase_add_test(tc, the_goal_the_way_leads_to);
	tcase_add_test(tc, hier_goal_and_exits);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return tu_run(suite());
}
