/*
 * check_classes.c - movement classes (docs/simulation.md, "Movement
 * classes"), against grids worked by hand: a flyer's distance across a low
 * wall is the straight distance and a high wall stays a wall to it; a
 * boat's field reaches the water and nothing else, with the distances of
 * the channel's length; a class's own cost of a terrain is what its field
 * integrates; a boat group's agents never stand on land while walkers on
 * the same river cut across it; flyers walk through a hedge; classes read
 * and write back in the text format; edits of classes re-solve the fields
 * they touch and undo; bad class input fails with its line and column or
 * the command's column, changing nothing.
 */
#include <math.h>
#include <string.h>

#include "core/level_text.h"
#include "core/sim.h"
#include "core/solver.h"
#include "testlevel.h"
#include "testsession.h"

static const ff_solver_opts DIJ8 = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_CHEAPEST, 0, false};

/* L's field towards its goals for class CLS ("none" for the painted
 * costs), solved by Dijkstra with 8 neighbours. */
static ff_solver *solve_as(const ff_level *l, const char *cls)
{
	ff_solver *s = ff_solver_create(l->w, l->h);
	int k = ff_level_class_by_name(&l->meta, cls);

	ck_assert_ptr_nonnull(s);
	ck_assert_int_ge(k, 0);
	ff_solver_set_class(s, k);
	ck_assert_int_eq(ff_solver_solve(s, l, l->meta.goals, l->meta.ngoals, &DIJ8), FF_OK);
	ck_assert_int_eq(ff_solver_class(s), k);
	return s;
}

/* A hedge (a low wall: a wall terrain flyers cross at cost 1) across the
 * level, high wall at both ends; the goal beyond it. */
static const char hedge[] =
	"fieldmarshal level 2\nname hedge\nsize 9 5\nclass flyer\n"
	"terrain grass . 1\nterrain wall # wall\nterrain hedge h wall flyer=1\n"
	"goal cell 8 2\n"
	"grid\n"
	"....#....\n"
	"....h....\n"
	"....h....\n"
	"....h....\n"
	"....#....\n"
	"end\n";

START_TEST(a_flyer_crosses_a_low_wall_and_not_a_high_one)
{
	ff_level *l = tl_parse(hedge);
	ff_solver *walk = solve_as(l, "none"), *fly = solve_as(l, "flyer");
	const double r2 = sqrt(2.0);

	/* walkers: the hedge is a wall, nothing west of it is reachable */
	for (int y = 0; y < 5; y++)
		for (int x = 0; x <= 4; x++)
			ck_assert_msg(isinf(ff_solver_value(walk, x, y)), "walker reaches %d,%d", x, y);
	ck_assert(ff_solver_value(walk, 5, 2) == 3);
	/* a flyer: the straight distance, as if the hedge were grass */
	ck_assert(ff_solver_value(fly, 0, 2) == 8);
	ck_assert(ff_solver_value(fly, 4, 2) == 4);
	ck_assert_int_eq(ff_solver_cost(fly, 4, 2), 1);
	/* two diagonal steps and six straight ones (the corners of the high
	 * wall are not cut: (3,0) -> (4,1) would need (4,0)) */
	ck_assert_msg(fabs(ff_solver_value(fly, 0, 0) - (6 + 2 * r2)) < 1e-9, "%.6f",
		      ff_solver_value(fly, 0, 0));
	/* (3,0) steps down to (3,1) first, then diagonally through the
	 * hedge to (4,2): 1 + sqrt 2 + 4 */
	ck_assert_msg(fabs(ff_solver_value(fly, 3, 0) - (5 + r2)) < 1e-9, "%.6f",
		      ff_solver_value(fly, 3, 0));
	/* the high wall stays a wall to it */
	ck_assert(isinf(ff_solver_value(fly, 4, 0)));
	ck_assert(isinf(ff_solver_value(fly, 4, 4)));
	ck_assert_int_eq(ff_solver_cost(fly, 4, 0), FF_WALL);
	ff_solver_destroy(walk);
	ff_solver_destroy(fly);
	ff_level_destroy(l);
}
END_TEST

/* A river bending twice through grass; boats have 'wall' as their rule,
 * water costs them 1; hovers walk water at 2 and grass at its 1. */
static const char river[] =
	"fieldmarshal level 2\nname river\nsize 7 5\nclass boat wall\nclass hover\n"
	"terrain grass . 1\nterrain wall # wall\nterrain water ~ 20 boat=1 hover=2\n"
	"goal cell 6 3\n"
	"grid\n"
	"~~~~...\n"
	"...~...\n"
	"...~...\n"
	"...~~~~\n"
	".......\n"
	"end\n";

START_TEST(a_boat_field_reaches_only_water)
{
	/* the boat's distance to the goal along the channel, -1 on land:
	 * worked by hand (no diagonal cuts a bend: it would need land) */
	static const int want[5][7] = {
		{9, 8, 7, 6, -1, -1, -1},
		{-1, -1, -1, 5, -1, -1, -1},
		{-1, -1, -1, 4, -1, -1, -1},
		{-1, -1, -1, 3, 2, 1, 0},
		{-1, -1, -1, -1, -1, -1, -1},
	};
	ff_level *l = tl_parse(river);
	ff_solver *boat = solve_as(l, "boat"), *walk = solve_as(l, "none");
	ff_solver *hover = solve_as(l, "hover");

	for (int y = 0; y < 5; y++)
		for (int x = 0; x < 7; x++) {
			double v = ff_solver_value(boat, x, y);

			if (want[y][x] < 0)
				ck_assert_msg(isinf(v), "a boat reaches land at %d,%d (%g)", x, y, v);
			else
				ck_assert_msg(v == want[y][x], "boat at %d,%d: %g, not %d", x, y, v,
					      want[y][x]);
			/* walkers reach every cell */
			ck_assert(!isinf(ff_solver_value(walk, x, y)));
		}
	/* each class integrates its own cost of the terrain */
	ck_assert_int_eq(ff_solver_cost(walk, 0, 0), 20);
	ck_assert_int_eq(ff_solver_cost(boat, 0, 0), 1);
	ck_assert_int_eq(ff_solver_cost(hover, 0, 0), 2);
	ck_assert_int_eq(ff_solver_cost(hover, 0, 1), 1);
	ck_assert_int_eq(ff_solver_cost(boat, 0, 1), FF_WALL);
	/* a step costs the cell stepped from: from (5,3) onto the goal a
	 * hover pays 2, a walker 20 */
	ck_assert(ff_solver_value(hover, 5, 3) == 2);
	ck_assert(ff_solver_value(walk, 5, 3) == 20);
	ff_solver_destroy(boat);
	ff_solver_destroy(walk);
	ff_solver_destroy(hover);
	ff_level_destroy(l);
}
END_TEST

/* The wall penalty keeps off a class's own walls: a sea with one grass
 * cell in the middle, penalty 10 over the default 3 cells.  To a boat the
 * grass is a wall: the cell beside it costs 1 + 10, the next 1 +
 * floor(10 * 2 / 3 + 0.5) = 8; to a walker it is grass, and the water
 * there costs its 20 (the level's edge is 4 cells away). */
START_TEST(the_wall_penalty_keeps_off_a_class_s_walls)
{
	static const char sea[] =
		"fieldmarshal level 2\nname sea\nsize 9 9\nclass boat wall\n"
		"terrain grass . 1\nterrain wall # wall\nterrain water ~ 20 boat=1\n"
		"param wall_penalty 10\ngoal cell 0 0\n"
		"grid\n~~~~~~~~~\n~~~~~~~~~\n~~~~~~~~~\n~~~~~~~~~\n~~~~.~~~~\n"
		"~~~~~~~~~\n~~~~~~~~~\n~~~~~~~~~\n~~~~~~~~~\nend\n";
	ff_level *l = tl_parse(sea);
	ff_solver *boat = solve_as(l, "boat"), *walk = solve_as(l, "none");

	ck_assert_int_eq(ff_solver_cost(boat, 4, 4), FF_WALL);
	ck_assert_int_eq(ff_solver_cost(boat, 4, 3), 11);
	ck_assert_int_eq(ff_solver_cost(boat, 4, 2), 8);
	ck_assert_int_eq(ff_solver_cost(boat, 2, 4), 8);
	ck_assert_int_eq(ff_solver_cost(walk, 4, 4), 1);
	ck_assert_int_eq(ff_solver_cost(walk, 4, 3), 20);
	ff_solver_destroy(boat);
	ff_solver_destroy(walk);
	ff_level_destroy(l);
}
END_TEST

/* Classes read and write back: the canonical text is what was read. */
START_TEST(classes_read_and_write_back)
{
	static const char text[] =
		"fieldmarshal level 2\nname c\nsize 6 2\nclass boat wall\nclass flyer\n"
		"terrain grass . 1\nterrain wall # wall\nterrain water ~ 20 boat=1 flyer=3\n"
		"terrain hedge h wall flyer=1\nterrain reef r 9 boat=wall\n"
		"group default class flyer\ngroup boats class boat\ngroup walkers\n"
		"goal cell 5 0\ngoal cell 0 1 group boats\n"
		"grid\n.~~hr.\n~~~h..\nend\n";
	ff_level *l = tl_parse(text), *back;
	size_t len;
	char *out = ff_textlevel_format(l, &len);

	ck_assert_int_eq(l->meta.nclasses, 2);
	ck_assert_str_eq(ff_level_class_name(&l->meta, 1), "boat");
	ck_assert(l->meta.class_walls[1] && !l->meta.class_walls[2]);
	ck_assert_int_eq(l->meta.group_class[0], 2);
	ck_assert_int_eq(l->meta.group_class[1], 1);
	ck_assert_int_eq(l->meta.group_class[2], 0);
	ck_assert_int_eq(ff_level_class_cost(&l->meta, 1, 0), FF_WALL);  /* grass: boat */
	ck_assert_int_eq(ff_level_class_cost(&l->meta, 2, 0), 1);        /* grass: flyer */
	ck_assert_int_eq(ff_level_class_cost(&l->meta, 2, 2), 3);        /* water: flyer */
	ck_assert_int_eq(ff_level_class_cost(&l->meta, 1, 4), FF_WALL);  /* reef: boat */
	ck_assert_int_eq(ff_level_class_cost(&l->meta, 0, 4), 9);
	ck_assert_ptr_nonnull(out);
	ck_assert_msg(len == sizeof text - 1 && !memcmp(out, text, len), "%s", out);
	back = tl_parse(out);
	ck_assert(ff_level_equal(l, back));
	free(out);
	ff_level_destroy(l);
	ff_level_destroy(back);
}
END_TEST

/* Bad class lines fail at their line and column, with what is wrong. */
static const struct bad_text {
	const char *lines;          /* between the header and the grid */
	int line, col;
	const char *msg;
} bad_texts[] = {
	{"class boat\nclass boat\n", 5, 7, "declared twice"},
	{"class none\n", 4, 7, "bad class name"},
	{"class boat wet\n", 4, 12, "expected 'wall'"},
	{"terrain water ~ 20 boat=1\n", 4, 20, "unknown class 'boat'"},
	{"class boat\nterrain water ~ 20 boat=0\n", 5, 20, "must be 1..254"},
	{"class boat\nterrain water ~ 20 boat=1 boat=2\n", 5, 27, "given twice"},
	{"class boat\nterrain water ~ 20 boat\n", 5, 20, "expected CLASS=COST"},
	{"group boats class ship\n", 4, 19, "unknown class 'ship'"},
	{"class boat\ngroup boats class boat\ngroup boats\n", 6, 7, "second 'group boats'"},
	{"group boats ship boat\n", 4, 13, "expected 'class CLASS'"},
};

START_TEST(bad_class_lines)
{
	const struct bad_text *b = &bad_texts[_i];
	char text[512];
	ff_level *l = NULL;
	ff_diag d;

	snprintf(text, sizeof text, "fieldmarshal level 2\nname b\nsize 3 1\n%s"
		 "terrain grass . 1\ngrid\n...\nend\n", b->lines);
	ck_assert_int_ne(ff_textlevel_parse(text, strlen(text), &l, &d), FF_OK);
	ck_assert_ptr_null(l);
	ck_assert_msg(d.line == b->line && d.col == b->col && strstr(d.msg, b->msg),
		      "%s: got %d:%d: %s", b->lines, d.line, d.col, d.msg);
}
END_TEST

/* A session on the river of a_boat_field_reaches_only_water, scaled up
 * for bodies: a channel 5 cells wide bending twice; boats and walkers
 * start together at its west end and have the same goal at its east end. */
static ff_session *wide_river(void)
{
	ff_session *s = ts_start(30, 20);

	ts_ok(s, "class boat wall");
	ts_ok(s, "terrain water boat=1");
	ts_ok(s, "rect 0,2 21,5 water");
	ts_ok(s, "rect 16,2 5,16 water");
	ts_ok(s, "rect 16,13 14,5 water");
	ts_ok(s, "group boats class boat");
	ts_ok(s, "goal add rect 29,13 1,5 group boats");
	ts_ok(s, "goal add rect 29,13 1,5 group walkers");
	ts_ok(s, "spawn add rect 0,2 8,5 10 group boats");
	ts_ok(s, "spawn add rect 0,2 8,5 10 group walkers");
	ts_ok(s, "solve");
	ts_ok(s, "sim spawn");
	return s;
}

/* Boats never stand on land: after every tick each boat is on water; they
 * all arrive.  Walkers from the same start to the same goal take the
 * short cut over the grass (the test can fail: a boat that walked the
 * painted costs would do the same). */
START_TEST(boats_keep_to_the_water)
{
	ff_session *s = wide_river();
	int boats = ff_level_group_by_name(s->level, "boats");
	bool walker_on_land = false;

	ck_assert_uint_eq(ff_sim_count(s->sim), 20);
	for (int t = 0; t < 1200 && ff_sim_count(s->sim); t++) {
		ts_ok(s, "tick");
		for (size_t i = 0; i < ff_sim_count(s->sim); i++) {
			ff_agent a;
			int cost;

			ff_sim_agent(s->sim, i, &a);
			cost = ff_level_cost(s->level, (int)a.x, (int)a.y);
			if (a.group == boats)
				ck_assert_msg(cost == 20, "tick %d: boat %u on land at %.2f,%.2f", t,
					      a.id, a.x, a.y);
			else
				walker_on_land |= cost == 1;
		}
	}
	ck_assert(walker_on_land);
	ck_assert_int_eq(ff_sim_totals_get(s->sim)->arrived, 20);
	ck_assert_int_eq(ff_sim_totals_get(s->sim)->wall_violations, 0);
	ts_stop(s);
}
END_TEST

/* Flyers walk through a hedge that stops walkers: with the goal beyond a
 * hedge across the level, every flyer arrives and every walker is
 * stranded. */
START_TEST(flyers_walk_through_a_hedge)
{
	ff_session *s = ts_start(30, 10);
	const ff_sim_totals *t;

	ts_ok(s, "class flyer");
	ts_ok(s, "terrain hedge h wall flyer=1");
	ts_ok(s, "rect 15,0 1,10 hedge");
	ts_ok(s, "group flyers class flyer");
	ts_ok(s, "goal add rect 29,0 1,10 group flyers");
	ts_ok(s, "goal add rect 29,0 1,10");
	ts_ok(s, "spawn add rect 2,5 6,5 10 group flyers");
	ts_ok(s, "spawn add rect 2,0 6,4 10");
	ts_ok(s, "solve");
	ts_ok(s, "sim spawn");
	ts_ok(s, "tick 400");
	t = ff_sim_totals_get(s->sim);
	ck_assert_int_eq(t->arrived, 10);
	ck_assert_uint_eq(ff_sim_count(s->sim), 10);
	for (size_t i = 0; i < 10; i++) {
		ff_agent a;

		ff_sim_agent(s->sim, i, &a);
		ck_assert_int_eq(a.group, 0);
		ck_assert_int_eq(a.state, FF_AGENT_STRANDED);
		ck_assert(a.x < 15);
	}
	ts_stop(s);
}
END_TEST

/* A change of a class's costs re-solves the fields of its groups, and
 * undo brings the old field back. */
START_TEST(class_edits_re_solve_their_fields)
{
	ff_session *s = ts_start(10, 3);
	const ff_solver *f;
	int g;
	unsigned v0;

	ts_ok(s, "class boat wall");
	ts_ok(s, "terrain water boat=1");
	ts_ok(s, "rect 0,1 10,1 water");
	ts_ok(s, "goal add cell 9,1 group boats");
	ts_ok(s, "goal add cell 9,1");
	ts_ok(s, "group boats class boat");
	ts_ok(s, "spawn add rect 0,1 2,1 1 group boats");
	ts_ok(s, "solve");
	ts_ok(s, "sim spawn");
	g = ff_level_group_by_name(s->level, "boats");
	ck_assert_int_eq(ff_fields_get(s->fields, g, &f), FF_OK);
	ck_assert(ff_solver_value(f, 0, 1) == 9);
	ck_assert(isinf(ff_solver_value(f, 0, 0)));
	v0 = ff_fields_version(s->fields, g);
	/* grass becomes sea-worthy for boats at 3 */
	ts_ok(s, "terrain grass boat=3");
	ck_assert_uint_ne(ff_fields_version(s->fields, g), v0);
	ck_assert_int_eq(ff_fields_get(s->fields, g, &f), FF_OK);
	ck_assert_int_eq(ff_solver_cost(f, 8, 0), 3);
	ck_assert(!isinf(ff_solver_value(f, 8, 0)));
	ck_assert(ff_solver_value(f, 0, 1) == 9);
	/* default: back to the class's rule */
	ts_ok(s, "terrain grass boat=default");
	ck_assert_int_eq(ff_fields_get(s->fields, g, &f), FF_OK);
	ck_assert(isinf(ff_solver_value(f, 8, 0)));
	ck_assert_int_eq(ff_solver_cost(f, 8, 0), FF_WALL);
	ts_ok(s, "undo");
	ck_assert_int_eq(ff_fields_get(s->fields, g, &f), FF_OK);
	ck_assert_int_eq(ff_solver_cost(f, 8, 0), 3);
	/* the group loses its class: the painted costs, by which a step off
	 * the water (20) and eight and a diagonal over the grass are
	 * cheapest */
	ts_ok(s, "group boats class none");
	ck_assert_int_eq(ff_fields_get(s->fields, g, &f), FF_OK);
	ck_assert(fabs(ff_solver_value(f, 0, 1) - (28 + sqrt(2.0))) < 1e-9);
	ts_stop(s);
}
END_TEST

static const struct ts_bad bad_cmds[] = {
	{"class none", 7, "bad class name"},
	{"class boat wet", 12, "expected 'wall'"},
	{"class a b c", 11, "trailing garbage 'c'"},
	{"terrain mud m 3 ship=1", 17, "unknown class 'ship'"},
	{"terrain water boat=300", 15, "must be 1..254"},
	{"terrain lava boat=1", 9, "unknown terrain 'lava'"},
	{"group boats class ship", 19, "unknown class 'ship'"},
	{"group boats kind boat", 13, "expected 'class CLASS'"},
	{"goal add cell 1,0 group boats", 15, "walls only, to class boat of group boats"},
	{"spawn add rect 0,0 2,1 3 group boats", 16, "walls only, to class boat of group boats"},
	{"order boats cell 2,0", 18, "walls only, to class boat of group boats"},
};

START_TEST(bad_class_commands)
{
	ff_session *s = ts_start(8, 3);

	ts_ok(s, "class boat wall");
	ts_ok(s, "terrain water boat=1");
	ts_ok(s, "rect 0,2 8,1 water");
	ts_ok(s, "group boats class boat");
	ts_ok(s, "goal add cell 7,2 group boats");
	ts_refused(s, &bad_cmds[_i]);
	ts_stop(s);
}
END_TEST

/* A spawn area whose group got a class later, with no cell that class
 * can stand on: spawning is refused whole, saying so. */
START_TEST(a_spawn_area_on_land_for_boats)
{
	ff_session *s = ts_start(8, 3);
	ff_cmd_result r;

	ts_ok(s, "class boat wall");
	ts_ok(s, "terrain water boat=1");
	ts_ok(s, "rect 0,2 8,1 water");
	ts_ok(s, "goal add cell 7,2 group boats");
	ts_ok(s, "spawn add rect 0,0 3,2 4 group boats");
	ts_ok(s, "group boats class boat");
	ts_ok(s, "solve");
	ck_assert_int_ne(ff_cmd_exec(s, "sim spawn", &r), FF_OK);
	ck_assert_msg(strstr(r.msg, "spawn area 1 has no cell group boats can stand on") &&
		      strstr(r.msg, "class boat"), "%s", r.msg);
	ck_assert(!s->sim || ff_sim_count(s->sim) == 0);
	ts_stop(s);
}
END_TEST

static Suite *classes_suite(void)
{
	Suite *su = suite_create("classes");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, a_flyer_crosses_a_low_wall_and_not_a_high_one);
	tcase_add_test(tc, a_boat_field_reaches_only_water);
	tcase_add_test(tc, the_wall_penalty_keeps_off_a_class_s_walls);
	tcase_add_test(tc, classes_read_and_write_back);
	tcase_add_loop_test(tc, bad_class_lines, 0, (int)(sizeof bad_texts / sizeof bad_texts[0]));
	tcase_add_test(tc, boats_keep_to_the_water);
	tcase_add_test(tc, flyers_walk_through_a_hedge);
	tcase_add_test(tc, class_edits_re_solve_their_fields);
	tcase_add_loop_test(tc, bad_class_commands, 0, (int)(sizeof bad_cmds / sizeof bad_cmds[0]));
	tcase_add_test(tc, a_spawn_area_on_land_for_boats);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return tu_run(classes_suite());
}
