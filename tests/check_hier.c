/*
 * check_hier.c - the hierarchical field (method "hier", solver_hier.c)
 * against independent truth: the Moving AI benchmark's optimal lengths
 * (a sample; all 23,039 with FF_CHECK_FULL=1) and the exact Dijkstra on
 * generated levels, where it must stay within 1% on average and 5% at
 * worst, never below the exact value and never unreachable where a path
 * exists; and against itself: an update after edits equals a graph built
 * afresh, stepping equals a one-shot solve, the answers do not depend on
 * the order of the queries (nor on what the cache evicted), its arrows go
 * downhill to a goal, and a failed allocation is survived.
 */
#include <math.h>
#include <string.h>

#include "core/level_dyn.h"
#include "core/level_gen.h"
#include "core/level_patch.h"
#include "core/level_text.h"
#include "core/solver.h"
#include "core/solver_hier.h"
#include "core/solver_int.h"
#include "testutil.h"

#include "allocwrap.h"

static const ff_solver_opts DIJ = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_CHEAPEST, 0, false};
static const ff_solver_opts HIER = {FF_METHOD_HIER, 8, 1, FF_ARROW_CHEAPEST, 0, false};

static ff_shape cell(int x, int y)
{
	return (ff_shape){FF_SHAPE_CELL, x, y, 0, 0, 0};
}

/* A random passable cell of L. */
static ff_shape open_cell(const ff_level *l, uint64_t *rs)
{
	int x, y;

	do {
		x = tu_range(rs, 0, l->w - 1), y = tu_range(rs, 0, l->h - 1);
	} while (ff_level_cost(l, x, y) == FF_WALL);
	return cell(x, y);
}

static void same_fields(ff_solver *a, ff_solver *b, const ff_level *l);

typedef struct errs {
	double sum, worst;
	long n;
} errs;

/* Adds hier's value GOT against the exact WANT: never below it (but for
 * the rounding of WANT, SLACK), finite where WANT is. */
static void add(errs *e, double got, double want, double slack, const char *what, int x,
		int y)
{
	double r;

	ck_assert_msg(isinf(got) == isinf(want), "%s (%d,%d): hier %.9g, exact %.9g", what, x, y,
		      got, want);
	if (isinf(want) || want == 0)
		return;
	ck_assert_msg(got >= want - slack, "%s (%d,%d): hier %.9g below exact %.9g", what, x, y,
		      got, want);
	r = (got - want) / want;
	e->sum += r;
	e->n++;
	e->worst = r > e->worst ? r : e->worst;
}

static void check_bounds(const errs *e, const char *what)
{
	fprintf(stderr, "hier %s: %ld cells, mean %.3f%%, worst %.3f%%\n", what, e->n,
		100 * e->sum / e->n, 100 * e->worst);
	ck_assert_msg(e->sum / e->n < 0.01, "%s: mean error %.3f%%", what, 100 * e->sum / e->n);
	ck_assert_msg(e->worst < 0.05, "%s: worst error %.3f%%", what, 100 * e->worst);
}

/* --- against the Moving AI benchmark --------------------------------------- */

static const char *const MAPS[] = {
	"arena", "den312d", "ht_chantry", "lak303d", "brc202d", "8room_000", "maze512-1-0",
	"random512-10-0", "AcrosstheCape",
};

/* Up to LIMIT scenarios of map NAME (0: all), spread over the file. */
static void run_scen(const char *name, int limit, errs *e)
{
	char fn[128], *map, *scen, *line, *save = NULL;
	ff_level *l;
	ff_diag diag;
	ff_solver *s;
	size_t len;
	int total = 0, i = 0, stride;

	snprintf(fn, sizeof fn, "%s.map", name);
	map = tu_read(FF_TESTDATA, fn, &len);
	ck_assert_int_eq(ff_level_parse_any(map, len, name, &l, &diag), FF_OK);
	snprintf(fn, sizeof fn, "%s.map.scen", name);
	scen = tu_read(FF_TESTDATA, fn, NULL);
	for (char *p = scen; *p; p++)
		total += *p == '\n';
	stride = limit > 0 && total > limit ? total / limit : 1;
	s = ff_solver_create_hier(l->w, l->h);
	ck_assert_ptr_nonnull(s);
	for (line = strtok_r(scen, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int b, mw, mh, sx, sy, gx, gy;
		double opt;
		char mp[256];
		ff_shape g;
		if (sscanf(line, "%d %255s %d %d %d %d %d %d %lf", &b, mp, &mw, &mh,
			   &sx, &sy, &gx, &gy, &opt) != 9 || i++ % stride)
			continue;
		g = cell(gx, gy);
		ck_assert_int_eq(ff_solver_solve(s, l, &g, 1, &HIER), FF_OK);
		/* the files give the lengths to 6 digits, as the exact test allows */
		add(e, ff_solver_value(s, sx, sy), opt, 1e-5 * opt + 1e-4, name, sx, sy);
	}
	ff_solver_destroy(s);
	ff_level_destroy(l);
	free(map);
	free(scen);
}

START_TEST(near_optimal_on_movingai)
{
	bool full = getenv("FF_CHECK_FULL") != NULL;
	errs e = {0, 0, 0};

	for (size_t i = 0; i < sizeof MAPS / sizeof *MAPS; i++)
		run_scen(MAPS[i], full ? 0 : 240, &e);
	ck_assert_int_ge(e.n, full ? 22000 : 2000);
	check_bounds(&e, "movingai");
}
END_TEST

/* --- against the exact Dijkstra ---------------------------------------------- */

/* Every cell of L towards each of NG random goals, hier with OPTS against
 * Dijkstra. */
static void against_exact(const ff_level *l, const ff_solver_opts *opts, int ng, errs *e,
			  uint64_t seed)
{
	ff_solver *d = ff_solver_create(l->w, l->h), *h = ff_solver_create_hier(l->w, l->h);
	ff_solver_opts od = DIJ;
	uint64_t rs = seed;

	od.connectivity = opts->connectivity;
	for (int k = 0; k < ng; k++) {
		ff_shape g = open_cell(l, &rs);
		ck_assert_int_eq(ff_solver_solve(d, l, &g, 1, &od), FF_OK);
		ck_assert_int_eq(ff_solver_solve(h, l, &g, 1, opts), FF_OK);
		for (int y = 0; y < l->h; y++)
			for (int x = 0; x < l->w; x++)
				add(e, ff_solver_value(h, x, y), ff_solver_value(d, x, y),
				    1e-12 * ff_solver_value(d, x, y), "generated", x, y);
	}
	ff_solver_destroy(d);
	ff_solver_destroy(h);
}

START_TEST(near_exact_on_generated_levels)
{
	for (int k = 0; k < FF_GEN__COUNT; k++) {
		ff_level *l = ff_gen_level((ff_gen_kind)k, 300, 200, 7u + (unsigned)k);
		errs e = {0, 0, 0};
		against_exact(l, &HIER, 3, &e, 11u + (unsigned)k);
		check_bounds(&e, ff_gen_name((ff_gen_kind)k));
		ff_level_destroy(l);
	}
}
END_TEST

/* Other sector sides and 4 neighbours: never below the exact value, the
 * same cells reachable, within 2% on average (sectors of 8 cells put
 * portals farther apart for their size: 1.7% with random walls). */
START_TEST(sectors_and_connectivity)
{
	static const int sides[] = {8, 16, 64};
	ff_level *l = ff_gen_level(FF_GEN_RANDOM20, 200, 150, 3);

	for (size_t i = 0; i < sizeof sides / sizeof *sides; i++) {
		ff_solver_opts o = HIER;
		errs e = {0, 0, 0};
		o.sector = sides[i];
		against_exact(l, &o, 2, &e, 5);
		ck_assert_msg(e.sum / e.n < 0.02, "sector %d: mean %.3f%%", sides[i], 100 * e.sum / e.n);
	}
	{
		ff_solver_opts o = HIER;
		errs e = {0, 0, 0};
		o.connectivity = 4;
		against_exact(l, &o, 2, &e, 6);
		ck_assert_msg(e.sum / e.n < 0.02, "4-connected: mean %.3f%%", 100 * e.sum / e.n);
	}
	ff_level_destroy(l);
}
END_TEST

/* The effective costs (cost.h), not the painted ones: a wall-proximity
 * penalty and the dynamic layer's offsets and walls, within the bounds of
 * the exact field of the same costs; a temporary wall laid and repaired
 * gives the graph built afresh. */
START_TEST(follows_effective_costs)
{
	ff_level *l = ff_gen_level(FF_GEN_RANDOM20, 220, 160, 12);
	const ff_shape zone = {FF_SHAPE_RECT, 40, 30, 60, 40, 0}, door = {FF_SHAPE_RECT, 120, 0, 1, 120, 0};
	ff_solver *h = ff_solver_create_hier(l->w, l->h), *fresh = ff_solver_create_hier(l->w, l->h);
	errs e = {0, 0, 0};

	ck_assert_int_eq(ff_level_param_set(l, FF_P_WALL_PENALTY, 6, NULL), FF_OK);
	ck_assert_int_eq(ff_level_param_set(l, FF_P_WALL_PENALTY_RADIUS, 2, NULL), FF_OK);
	ck_assert_int_eq(ff_level_dyn_set(l, &zone, 7, NULL), FF_OK);
	against_exact(l, &HIER, 2, &e, 13);
	check_bounds(&e, "effective costs");
	ck_assert_int_eq(ff_solver_solve(h, l, l->meta.goals, 1, &HIER), FF_OK);
	(void)ff_solver_value(h, 1, 1);
	ck_assert_int_eq(ff_level_dyn_set(l, &door, FF_WALL, NULL), FF_OK);
	ck_assert_int_eq(ff_solver_repair(h, door.x, door.y, door.x, door.y + door.h - 1), FF_OK);
	ck_assert_int_eq(ff_solver_solve(fresh, l, l->meta.goals, 1, &HIER), FF_OK);
	same_fields(h, fresh, l);
	ff_solver_destroy(h);
	ff_solver_destroy(fresh);
	ff_level_destroy(l);
}
END_TEST

/* A goal walled in on three sides, the opening facing away: from the
 * other side of the wall, inside the near box, the way goes out of the
 * box and round. */
START_TEST(way_round_the_near_box)
{
	ff_level *l = ff_level_create(200, 120, "u");
	ff_shape g = cell(100, 60);
	ff_solver *d, *h = ff_solver_create_hier(200, 120);

	/* a U of walls around the goal, open to the east, reaching 70 cells
	 * west: more than the near box's sector around the goal */
	ck_assert_int_eq(ff_level_rect(l, 20, 40, 85, 1, FF_WALL, NULL), FF_OK);
	ck_assert_int_eq(ff_level_rect(l, 20, 80, 85, 1, FF_WALL, NULL), FF_OK);
	ck_assert_int_eq(ff_level_rect(l, 20, 40, 1, 41, FF_WALL, NULL), FF_OK);
	ck_assert_int_eq(ff_level_rect(l, 60, 20, 1, 21, FF_WALL, NULL), FF_OK);
	d = ff_solver_create(200, 120);
	ck_assert_int_eq(ff_solver_solve(d, l, &g, 1, &DIJ), FF_OK);
	ck_assert_int_eq(ff_solver_solve(h, l, &g, 1, &HIER), FF_OK);
	/* just north of the wall: 20 west along the wall, round its end at
	 * 19,39 and back, worked by hand: 84 straight, 2 diagonals, ... */
	ck_assert(isfinite(ff_solver_value(h, 100, 39)));
	ck_assert(ff_solver_value(h, 100, 39) >= ff_solver_value(d, 100, 39) - 1e-9);
	ck_assert(ff_solver_value(h, 100, 39) <= ff_solver_value(d, 100, 39) * 1.05);
	ff_solver_destroy(d);
	ff_solver_destroy(h);
	ff_level_destroy(l);
}
END_TEST

/* From every reachable cell the arrows lead to a goal, each step to a
 * lower value, never through a wall or a cut corner. */
START_TEST(arrows_lead_downhill_to_a_goal)
{
	for (int k = 0; k < FF_GEN__COUNT; k++) {
		ff_level *l = ff_gen_level((ff_gen_kind)k, 160, 130, 21u + (unsigned)k);
		ff_solver *h = ff_solver_create_hier(l->w, l->h);
		ff_solver_opts o = HIER;
		o.sector = 16;
		ck_assert_int_eq(ff_solver_solve(h, l, l->meta.goals, 1, &o), FF_OK);
		for (int y = 0; y < l->h; y++)
			for (int x = 0; x < l->w; x++) {
				double v = ff_solver_value(h, x, y);
				int d = ff_solver_dir(h, x, y), nx, ny;
				if (isinf(v) || v == 0) {
					ck_assert_int_eq(d, FF_DIR_NONE);
					continue;
				}
				ck_assert_msg(d != FF_DIR_NONE, "%s (%d,%d) = %g: no arrow",
					      ff_gen_name((ff_gen_kind)k), x, y, v);
				nx = x + ff_dir_dx[d], ny = y + ff_dir_dy[d];
				ck_assert(ff_level_cost(l, nx, ny) != FF_WALL);
				ck_assert(d < 4 || (ff_level_cost(l, nx, y) != FF_WALL &&
						    ff_level_cost(l, x, ny) != FF_WALL));
				ck_assert_msg(ff_solver_value(h, nx, ny) < v, "%s (%d,%d) = %g -> %g",
					      ff_gen_name((ff_gen_kind)k), x, y, v,
					      ff_solver_value(h, nx, ny));
			}
		ff_solver_destroy(h);
		ff_level_destroy(l);
	}
}
END_TEST

/* --- against itself ---------------------------------------------------------- */

static void same_fields(ff_solver *a, ff_solver *b, const ff_level *l)
{
	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++) {
			double va = ff_solver_value(a, x, y), vb = ff_solver_value(b, x, y);
			ck_assert_msg(memcmp(&va, &vb, sizeof va) == 0, "(%d,%d): %.17g != %.17g",
				      x, y, va, vb);
			ck_assert_int_eq(ff_solver_dir(a, x, y), ff_solver_dir(b, x, y));
		}
}

/* Random edits (walls, costs, rectangles across sector borders) repaired
 * in place: the same values and arrows as a graph built for the edited
 * level; only the sectors around an edit are rebuilt. */
START_TEST(update_equals_rebuild)
{
	for (int k = 0; k < FF_GEN__COUNT; k++) {
		ff_level *l = ff_gen_level((ff_gen_kind)k, 190, 150, 31u + (unsigned)k);
		ff_solver *h = ff_solver_create_hier(l->w, l->h);
		ff_solver_opts o = HIER;
		uint64_t rs = 77u + (unsigned)k;
		ff_hier_stats st;

		o.sector = 16;
		ck_assert_int_eq(ff_solver_solve(h, l, l->meta.goals, 1, &o), FF_OK);
		for (int e = 0; e < 12; e++) {
			int x = tu_range(&rs, 0, l->w - 1), y = tu_range(&rs, 0, l->h - 1);
			int w = tu_range(&rs, 1, e % 3 ? 3 : 20), hh = tu_range(&rs, 1, 3);
			int cost = tu_range(&rs, 0, 3) == 0 ? FF_WALL : tu_range(&rs, 1, 5);
			ff_solver *fresh;
			if (ff_level_rect(l, x, y, w, hh, cost, NULL) != FF_OK)
				continue;
			fresh = ff_solver_create_hier(l->w, l->h);
			if (ff_level_is_goal(l, l->meta.goals[0].x, l->meta.goals[0].y) &&
			    ff_level_cost(l, l->meta.goals[0].x, l->meta.goals[0].y) == FF_WALL)
				ff_level_paint(l, l->meta.goals[0].x, l->meta.goals[0].y, 1, NULL);
			ck_assert_int_eq(ff_solver_repair(h, x, y, x + w - 1, y + hh - 1), FF_OK);
			ff_hier_get_stats(h->hier, &st);
			/* the sectors the rectangle and its border touch */
			ck_assert_int_le(st.rebuilt, ((w + 1) / 16 + 3) * ((hh + 1) / 16 + 3));
			ck_assert_int_eq(ff_solver_solve(fresh, l, l->meta.goals, 1, &o), FF_OK);
			same_fields(h, fresh, l);
			ff_solver_destroy(fresh);
		}
		ff_solver_destroy(h);
		ff_level_destroy(l);
	}
}
END_TEST

/* The order after an edit sees it, whichever way the level was changed,
 * with no repair: every mutator, an undo, the dynamic layer, a cell
 * written directly and counted, new cost rules; the same values and
 * arrows as a graph built for the edited level.  The level is read whole
 * again only for an order after a change (ff_level.changes), not after a
 * new goal alone. */
START_TEST(an_order_sees_every_edit)
{
	ff_level *l = ff_gen_level(FF_GEN_RANDOM20, 170, 130, 5);
	ff_solver *h = ff_solver_create_hier(l->w, l->h);
	ff_solver_opts o = HIER;
	ff_shape g = cell(85, 65), far = cell(20, 20);
	const ff_shape zone = {FF_SHAPE_RECT, 30, 50, 60, 30, 0}, bar = {FF_SHAPE_RECT, 0, 40, 150, 2, 0};
	ff_patch undo = FF_PATCH_INIT;
	ff_hier_stats st;
	long compared;

	o.sector = 16;
	ff_level_paint(l, g.x, g.y, 1, NULL);
	ff_level_paint(l, far.x, far.y, 1, NULL);
	ck_assert_int_eq(ff_solver_solve(h, l, &g, 1, &o), FF_OK);
	for (int e = 0; e < 14; e++) {
		ff_solver *fresh = ff_solver_create_hier(l->w, l->h);
		switch (e) {
		case 0: ck_assert_int_eq(ff_level_rect(l, 10, 60, 140, 2, FF_WALL, &undo), FF_OK); break;
		case 1: ff_patch_apply(l, &undo); ff_patch_fini(&undo); break;
		case 2: ck_assert_int_eq(ff_level_line(l, 5, 100, 160, 30, FF_WALL, NULL), FF_OK); break;
		case 3: ck_assert_int_eq(ff_level_circle(l, 60, 70, 9, 20, NULL), FF_OK); break;
		case 4: ck_assert_int_eq(ff_level_paint(l, 86, 66, FF_WALL, NULL), FF_OK); break;
		case 5: ck_assert_int_eq(ff_level_fill(l, 0, 0, 3, NULL), FF_OK); break;
		case 6: ck_assert_int_eq(ff_level_put(l, 84, 64, FF_WALL), FF_OK); break;
		case 7: ck_assert_int_eq(ff_level_dyn_set(l, &zone, 9, NULL), FF_OK); break;
		case 8: ck_assert_int_eq(ff_level_dyn_set(l, &bar, FF_WALL, NULL), FF_OK); break;
		case 9: ck_assert_int_eq(ff_level_dyn_clear(l, NULL), FF_OK); break;
		case 10:
			l->cells[(size_t)g.y * (size_t)l->w + (size_t)g.x + 1] = FF_WALL;
			ff_level_changed(l);
			break;
		case 11: ck_assert_int_eq(ff_level_param_set(l, FF_P_WALL_PENALTY, 5, NULL), FF_OK); break;
		case 12: g = far; break;        /* a new goal alone: nothing read */
		case 13: ck_assert_int_eq(ff_level_rect(l, 100, 0, 1, 130, 7, NULL), FF_OK); break;
		}
		if (ff_level_cost(l, g.x, g.y) == FF_WALL)
			ff_level_paint(l, g.x, g.y, 1, NULL);
		ff_hier_get_stats(h->hier, &st);
		compared = st.compared;
		ck_assert_int_eq(ff_solver_solve(h, l, &g, 1, &o), FF_OK);
		ck_assert_int_eq(ff_solver_solve(fresh, l, &g, 1, &o), FF_OK);
		same_fields(h, fresh, l);
		ff_solver_destroy(fresh);
		ff_hier_get_stats(h->hier, &st);
		/* the level compared, but for the new goal alone and for new
		 * cost rules (the graph built afresh) */
		ck_assert_int_eq(st.compared, compared + (e != 11 && e != 12));
		if (e == 12) {            /* nothing changed: nothing read */
			ck_assert_int_eq(ff_solver_solve(h, l, &g, 1, &o), FF_OK);
			ff_hier_get_stats(h->hier, &st);
			ck_assert_int_eq(st.compared, compared);
		}
	}
	ff_solver_destroy(h);
	ff_level_destroy(l);
}
END_TEST

/* A solve stepped portal by portal, by waves and by phases, then its
 * sectors one by one, ends with the one-shot solve's field. */
START_TEST(stepping_equals_one_shot)
{
	static const ff_step_unit units[] = {FF_STEP_CELL, FF_STEP_WAVE, FF_STEP_PHASE};
	ff_level *l = ff_gen_level(FF_GEN_ROOMS, 150, 110, 5);
	ff_solver *a = ff_solver_create_hier(l->w, l->h), *b = ff_solver_create_hier(l->w, l->h);
	ff_solver_opts o = HIER;
	uint64_t rs = 3;

	o.sector = 16;
	ck_assert_int_eq(ff_solver_solve(a, l, l->meta.goals, 1, &o), FF_OK);
	ck_assert_int_eq(ff_solver_begin(b, l, l->meta.goals, 1, &o), FF_OK);
	while (ff_solver_phase(b) != FF_PHASE_DONE)
		ff_solver_step(b, units[tu_range(&rs, 0, 2)], tu_range(&rs, 1, 9));
	same_fields(a, b, l);
	ff_solver_destroy(a);
	ff_solver_destroy(b);
	ff_level_destroy(l);
}
END_TEST

/* Cells asked in three orders (by rows, by columns, at random) with a
 * cache of fine fields far smaller than the level: the same answers. */
START_TEST(answers_do_not_depend_on_the_questions)
{
	ff_level *l = ff_gen_level(FF_GEN_WEIGHTED, 700, 500, 8);
	ff_solver *s[3];
	ff_solver_opts o = HIER;
	ff_shape g = cell(650, 40);
	double *v = malloc((size_t)l->w * (size_t)l->h * sizeof *v);
	uint64_t rs = 1;

	o.sector = 8;     /* 5,500 sectors, 687 slots */
	ff_level_paint(l, g.x, g.y, 1, NULL);
	for (int i = 0; i < 3; i++) {
		s[i] = ff_solver_create_hier(l->w, l->h);
		ck_assert_int_eq(ff_solver_solve(s[i], l, &g, 1, &o), FF_OK);
	}
	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++)
			v[(size_t)y * (size_t)l->w + (size_t)x] = ff_solver_value(s[0], x, y);
	for (int x = 0; x < l->w; x++)
		for (int y = 0; y < l->h; y++)
			ck_assert(memcmp(&v[(size_t)y * (size_t)l->w + (size_t)x],
					 &(double){ff_solver_value(s[1], x, y)}, sizeof(double)) == 0);
	for (int i = 0; i < 20000; i++) {
		int x = tu_range(&rs, 0, l->w - 1), y = tu_range(&rs, 0, l->h - 1);
		double w = ff_solver_value(s[2], x, y);
		ck_assert(memcmp(&v[(size_t)y * (size_t)l->w + (size_t)x], &w, sizeof w) == 0);
	}
	free(v);
	for (int i = 0; i < 3; i++)
		ff_solver_destroy(s[i]);
	ff_level_destroy(l);
}
END_TEST

/* A solver for the hierarchy alone holds no full field: a few bytes per
 * cell, and the exact methods refused. */
START_TEST(no_full_field)
{
	ff_level *l = ff_gen_level(FF_GEN_ROOMS, 1024, 1024, 2);
	ff_solver *h = ff_solver_create_hier(1024, 1024);

	ck_assert_int_eq(ff_solver_solve(h, l, l->meta.goals, 1, &HIER), FF_OK);
	ck_assert(isfinite(ff_solver_value(h, 3, 5)));
	ck_assert_uint_lt(ff_solver_bytes(h), (size_t)4 * 1024 * 1024);
	ck_assert_uint_le(ff_solver_bytes_for_hier(1024, 1024, 0), ff_solver_bytes(h));
	ck_assert_int_eq(ff_solver_solve(h, l, l->meta.goals, 1, &DIJ), FF_E_INVAL);
	ff_solver_destroy(h);
	ff_level_destroy(l);
}
END_TEST

/* Every allocation of an order and of a query made to fail in turn: the
 * call says so (or the value is unknown), nothing leaks, and the next
 * order is right. */
START_TEST(failed_allocations_survived)
{
	ff_level *l = ff_gen_level(FF_GEN_RANDOM20, 120, 90, 4);
	ff_solver *ref = ff_solver_create_hier(l->w, l->h);
	ff_shape g = l->meta.goals[0];
	ff_solver_opts o = HIER;

	o.sector = 16;
	ck_assert_int_eq(ff_solver_solve(ref, l, &g, 1, &o), FF_OK);
	/* the reference solves its sectors now, not while blocks are counted */
	same_fields(ref, ref, l);
	for (int n = 1;; n++) {
		long live = live_blocks;
		ff_solver *h = ff_solver_create_hier(l->w, l->h);
		bool failed;
		ff_err e;
		double v;
		ck_assert_ptr_nonnull(h);
		alloc_fail_nth(n);
		e = ff_solver_solve(h, l, &g, 1, &o);
		v = e ? INFINITY : ff_solver_value(h, 3, 3);
		failed = alloc_failed;
		alloc_fail_nth(0);
		if (!failed) {
			ck_assert_int_eq(e, FF_OK);
			ck_assert(v == ff_solver_value(ref, 3, 3));
			ff_solver_destroy(h);
			break;
		}
		ck_assert(e == FF_OK || e == FF_E_NOMEM);
		/* afterwards the solver answers right: the same order when only
		 * the query failed, else the order given again */
		if (e)
			ck_assert_int_eq(ff_solver_solve(h, l, &g, 1, &o), FF_OK);
		same_fields(h, ref, l);
		ff_solver_destroy(h);
		ck_assert_msg(live_blocks == live, "failing allocation %d leaked %ld blocks", n,
			      live_blocks - live);
	}
	ff_solver_destroy(ref);
	ff_level_destroy(l);
}
END_TEST

static Suite *suite(void)
{
	Suite *su = suite_create("hier");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, near_exact_on_generated_levels);
	tcase_add_test(tc, sectors_and_connectivity);
	tcase_add_test(tc, follows_effective_costs);
	tcase_add_test(tc, way_round_the_near_box);
	tcase_add_test(tc, arrows_lead_downhill_to_a_goal);
	tcase_add_test(tc, update_equals_rebuild);
	tcase_add_test(tc, an_order_sees_every_edit);
	tcase_add_test(tc, stepping_equals_one_shot);
	tcase_add_test(tc, answers_do_not_depend_on_the_questions);
	tcase_add_test(tc, no_full_field);
	tcase_add_test(tc, failed_allocations_survived);
	tcase_add_test(tc, near_optimal_on_movingai);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return tu_run(suite());
}
