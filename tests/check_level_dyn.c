/*
 * check_level_dyn.c - the dynamic layer: its mutators and their undo, its
 * round trip through the text format (every layer, hand-written or random,
 * reads back equal and formats canonically), bad lines and commands, and
 * the field and the crowd following it through a session (a door that
 * closes re-routes the field; an agent on a cell that becomes a wall is
 * put out of it).
 */
#include <math.h>
#include <string.h>

#include "core/fields.h"
#include "core/level_dyn.h"
#include "core/level_text.h"
#include "core/sim.h"
#include "testlevel.h"
#include "testsession.h"

static ff_shape rect(int x, int y, int w, int h)
{
	return (ff_shape){FF_SHAPE_RECT, x, y, w, h, 0};
}

START_TEST(values_and_words)
{
	char buf[8];
	int v = -1;

	ck_assert(ff_dyn_parse("wall", &v) && v == FF_WALL);
	ck_assert(ff_dyn_parse("+1", &v) && v == 1);
	ck_assert(ff_dyn_parse("+254", &v) && v == 254);
	v = 7;
	ck_assert(!ff_dyn_parse("+0", &v) && !ff_dyn_parse("+255", &v) &&
		  !ff_dyn_parse("5", &v) && !ff_dyn_parse("+", &v) &&
		  !ff_dyn_parse("+ 5", &v) && !ff_dyn_parse("+5x", &v) &&
		  !ff_dyn_parse("-5", &v) && !ff_dyn_parse("++5", &v) &&
		  !ff_dyn_parse("Wall", &v) && !ff_dyn_parse("+99999999999999999999", &v));
	ck_assert_int_eq(v, 7);
	ck_assert_str_eq(ff_dyn_word(FF_WALL, buf), "wall");
	ck_assert_str_eq(ff_dyn_word(254, buf), "+254");
}
END_TEST

START_TEST(set_clear_and_undo)
{
	ff_level *l = ff_level_create(12, 8, "t"), *before = ff_level_clone(l);
	ff_shape c = {FF_SHAPE_CIRCLE, 0, 0, 0, 0, 2}, r = rect(3, 2, 4, 3);
	ff_patch p = FF_PATCH_INIT;
	int n = 0;

	ck_assert(ff_level_dyn_empty(l));
	ck_assert_int_eq(ff_level_dyn_set(l, &r, FF_WALL, &p), FF_OK);
	ck_assert_ptr_null(p.cells);
	ck_assert(ff_level_wall(l, 3, 2) && ff_level_wall(l, 6, 4) && !ff_level_wall(l, 7, 4));
	ck_assert_int_eq(ff_level_cost(l, 3, 2), 1);      /* the terrain stays */
	tl_check_undo(l, before, &p);
	/* a circle at the corner is clipped: the cells with x^2 + y^2 <= 4 */
	ck_assert_int_eq(ff_level_dyn_set(l, &c, 9, &p), FF_OK);
	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++)
			n += ff_level_dyn(l, x, y) == 9;
	ck_assert_int_eq(n, 6);
	tl_check_undo(l, before, &p);
	ck_assert_int_eq(ff_level_dyn_set(l, &r, 4, NULL), FF_OK);
	ck_assert_int_eq(ff_level_dyn_set(l, &c, FF_WALL, NULL), FF_OK);
	ff_level_destroy(before);
	before = ff_level_clone(l);
	ck_assert_int_eq(ff_level_dyn_clear(l, &p), FF_OK);
	ck_assert(ff_level_dyn_empty(l));
	tl_check_undo(l, before, &p);
	/* a clear rectangle is a set to nothing */
	ck_assert_int_eq(ff_level_dyn_set(l, &r, 0, &p), FF_OK);
	ck_assert_int_eq(ff_level_dyn(l, 4, 3), 0);
	ck_assert_int_eq(ff_level_dyn(l, 0, 0), FF_WALL);
	tl_check_undo(l, before, &p);
	ff_level_destroy(before);
	ff_level_destroy(l);
}
END_TEST

START_TEST(bad_arguments_change_nothing)
{
	ff_level *l = ff_level_create(12, 8, "t"), *before;
	ff_shape out = rect(10, 6, 3, 1), zero = rect(2, 2, 0, 1);
	ff_shape far = {FF_SHAPE_CIRCLE, 12, 3, 0, 0, 4};
	ff_patch p = FF_PATCH_INIT;

	ck_assert_int_eq(ff_level_dyn_set(l, &(ff_shape){FF_SHAPE_CELL, 1, 1, 0, 0, 0}, 5, NULL),
			 FF_OK);
	before = ff_level_clone(l);
	ck_assert_int_eq(ff_level_dyn_set(l, &out, 3, &p), FF_E_RANGE);
	ck_assert_int_eq(ff_level_dyn_set(l, &far, 3, &p), FF_E_RANGE);
	ck_assert_int_eq(ff_level_dyn_set(l, &zero, 3, &p), FF_E_INVAL);
	ck_assert_int_eq(ff_level_dyn_set(l, &(ff_shape){FF_SHAPE_CELL, 1, 1, 0, 0, 0}, 256, &p),
			 FF_E_INVAL);
	ck_assert(ff_patch_empty(&p));
	ck_assert(ff_level_equal(l, before));
	/* clearing an empty layer records nothing */
	ff_level_dyn_clear(l, NULL);
	ck_assert_int_eq(ff_level_dyn_clear(l, &p), FF_OK);
	ck_assert(ff_patch_empty(&p));
	ff_level_destroy(before);
	ff_level_destroy(l);
}
END_TEST

START_TEST(resize_keeps_and_undoes_the_layer)
{
	ff_level *l = ff_level_create(12, 8, "t"), *before;
	ff_shape r = rect(8, 5, 4, 3);
	ff_patch p = FF_PATCH_INIT;

	ck_assert_int_eq(ff_level_dyn_set(l, &r, FF_WALL, NULL), FF_OK);
	before = ff_level_clone(l);
	ck_assert_int_eq(ff_level_resize(l, 10, 6, &p), FF_OK);
	ck_assert_int_eq(ff_level_dyn(l, 9, 5), FF_WALL);
	ck_assert_int_eq(ff_level_dyn(l, 7, 5), 0);
	ff_patch_fini(&p);
	ck_assert_int_eq(ff_level_resize(l, 14, 9, NULL), FF_OK);
	ck_assert_int_eq(ff_level_dyn(l, 9, 5), FF_WALL);
	ck_assert_int_eq(ff_level_dyn(l, 10, 5), 0);      /* cut off, then new */
	ff_level_destroy(l);
	l = ff_level_clone(before);
	ck_assert_int_eq(ff_level_resize(l, 10, 6, &p), FF_OK);
	tl_check_undo(l, before, &p);
	ff_level_destroy(before);
	ff_level_destroy(l);
}
END_TEST

/* Hand-written lines (any shape, overlapping: later ones win) read as
 * worked out here, and format as the canonical rectangles. */
START_TEST(text_lines_by_hand)
{
	static const char text[] =
		"fieldmarshal level 1\nname d\nsize 8 5\n"
		"dyn rect 3 0 1 5 wall\n"
		"dyn circle 5 2 1 +5\n"
		"dyn cell 3 2 +7\n"
		"grid\n........\n........\n........\n........\n........\nend\n";
	static const char *const want[5] = {
		"...#....", "...#.5..", "...7555.", "...#.5..", "...#....",
	};
	static const char canonical[] =
		"dyn rect 3 0 1 2 wall\n"
		"dyn rect 5 1 1 3 +5\n"
		"dyn rect 3 2 1 1 +7\n"
		"dyn rect 4 2 1 1 +5\n"
		"dyn rect 6 2 1 1 +5\n"
		"dyn rect 3 3 1 2 wall\n"
		"grid\n";
	ff_level *l = tl_parse(text), *again;
	char *out;

	for (int y = 0; y < 5; y++)
		for (int x = 0; x < 8; x++) {
			char c = want[y][x];
			int v = c == '.' ? 0 : c == '#' ? FF_WALL : c - '0';
			ck_assert_msg(ff_level_dyn(l, x, y) == v, "(%d,%d) %d", x, y, ff_level_dyn(l, x, y));
		}
	out = ff_textlevel_format(l, NULL);
	ck_assert_ptr_nonnull(strstr(out, canonical));
	again = tl_parse(out);
	ck_assert(ff_level_equal(l, again));
	free(out);
	ff_level_destroy(again);
	ff_level_destroy(l);
}
END_TEST

/* Random layers of few values (so that runs and rectangles form) on
 * random levels: tl_parse(format(l)) == l and format is a fixed point. */
START_TEST(random_layers_round_trip)
{
	static const int values[] = {0, 0, 0, 1, 7, 254, FF_WALL};
	uint64_t rs = 5;

	for (int t = 0; t < 60; t++) {
		int w = tu_range(&rs, 1, 40), h = tu_range(&rs, 1, 30);
		ff_level *l = ff_level_create(w, h, "r"), *back;
		char *a, *b;

		for (int k = tu_range(&rs, 0, 12); k > 0; k--) {
			ff_shape s = {(ff_shape_kind)tu_range(&rs, 0, 2), tu_range(&rs, 0, w - 1),
				      tu_range(&rs, 0, h - 1), 0, 0, tu_range(&rs, 0, 6)};
			s.w = tu_range(&rs, 1, w - s.x), s.h = tu_range(&rs, 1, h - s.y);
			ck_assert_int_eq(ff_level_dyn_set(l, &s, values[tu_range(&rs, 0, 6)], NULL), FF_OK);
		}
		for (int i = 0; t % 3 == 0 && i < w * h; i++)
			l->dyn[i] = (uint8_t)values[tu_range(&rs, 0, 6)];
		a = ff_textlevel_format(l, NULL);
		back = tl_parse(a);
		ck_assert(ff_level_equal(l, back));
		b = ff_textlevel_format(back, NULL);
		ck_assert_str_eq(a, b);
		free(a);
		free(b);
		ff_level_destroy(back);
		ff_level_destroy(l);
	}
}
END_TEST

static void bad_text(const char *lines, int line, const char *msg)
{
	char text[512];
	ff_level *l = NULL;
	ff_diag d;

	snprintf(text, sizeof text, "fieldmarshal level 1\nname d\nsize 8 5\n%sgrid\n"
		 "........\n........\n........\n........\n........\nend\n", lines);
	ck_assert_int_eq(ff_textlevel_parse(text, strlen(text), &l, &d), FF_E_PARSE);
	ck_assert_ptr_null(l);
	ck_assert_int_eq(d.line, line);
	ck_assert_msg(strstr(d.msg, msg), "'%s' has no '%s'", d.msg, msg);
}

START_TEST(bad_lines)
{
	bad_text("dyn rect 1 1 2 2 +0\n", 4, "expected +N (N 1..254) or wall, not '+0'");
	bad_text("dyn rect 1 1 2 2 5\n", 4, "not '5'");
	bad_text("dyn rect 1 1 2 2\n", 4, "missing arguments");
	bad_text("dyn rect 1 1 2 2 wall x\n", 4, "trailing garbage");
	bad_text("dyn blob 1 1 wall\n", 4, "unknown shape 'blob'");
	bad_text("goal cell 0 0\ndyn rect 6 1 3 1 wall\n", 5, "dyn lies outside the level");
	bad_text("dyn circle 9 1 1 +3\n", 4, "dyn lies outside the level");
}
END_TEST

static void cmd_fails(ff_session *s, const char *line, int col, const char *msg)
{
	ff_cmd_result r;
	ff_level *before = ff_level_clone(s->level);

	ck_assert_int_ne(ff_cmd_exec(s, line, &r), FF_OK);
	ck_assert_int_eq(r.col, col);
	ck_assert_msg(strstr(r.msg, msg), "'%s' has no '%s'", r.msg, msg);
	ck_assert(ff_level_equal(s->level, before));
	ff_level_destroy(before);
}

START_TEST(commands)
{
	ff_session *s = ts_start(10, 6);

	ts_ok(s, "dyn rect 2,1 3,2 wall");
	ts_ok(s, "dyn circle 8,4 1 +20");
	ts_ok(s, "dyn cell 0,0 +1");
	ck_assert_int_eq(ff_level_dyn(s->level, 4, 2), FF_WALL);
	ck_assert_int_eq(ff_level_dyn(s->level, 9, 4), 20);
	ck_assert_int_eq(ff_level_dyn(s->level, 0, 0), 1);
	ts_ok(s, "dyn clear rect 3,1 2,1");
	ck_assert_int_eq(ff_level_dyn(s->level, 3, 1), 0);
	ck_assert_int_eq(ff_level_dyn(s->level, 2, 1), FF_WALL);
	ts_ok(s, "undo");
	ck_assert_int_eq(ff_level_dyn(s->level, 3, 1), FF_WALL);
	ts_ok(s, "dyn clear");
	ck_assert(ff_level_dyn_empty(s->level));
	ts_ok(s, "undo");
	ck_assert_int_eq(ff_level_dyn(s->level, 9, 4), 20);
	cmd_fails(s, "dyn", 4, "expected 'dyn SHAPE +N|wall'");
	cmd_fails(s, "dyn rect 1,1 2,2", 17, "missing arguments");
	cmd_fails(s, "dyn rect 1,1 2,2 3", 18, "expected +N (N 1..254) or wall but got '3'");
	cmd_fails(s, "dyn rect 9,5 2,2 wall", 10, "reaches outside the 10x6 level");
	cmd_fails(s, "dyn rect 1,1 0,2 wall", 14, "must be at least 1,1");
	cmd_fails(s, "dyn clear rect 1,1 2,2 wall", 24, "trailing garbage 'wall'");
	cmd_fails(s, "dyn square 1,1 wall", 5, "unknown shape 'square'");
	ts_stop(s);
}
END_TEST

/* A corridor 10 x 3 solved from its west end; a 'door' (a column of
 * temporary walls) at x = 5 with a gap at y = 2, then closed. */
START_TEST(field_follows_the_layer)
{
	ff_session *s = ts_start(10, 3);

	ts_ok(s, "goal add cell 0,1");
	ts_ok(s, "solve");
	ck_assert(fabs(ff_solver_value(s->solver, 9, 1) - 9) < 1e-12);
	ts_ok(s, "dyn rect 5,0 1,2 wall");
	ck_assert_str_eq(s->note, "field repaired around 5,0..5,1");
	/* through the gap at (5, 2): 4 + sqrt 2 to (4, 1)... worked: from
	 * (9,1) west to (6,1), SW to (5,2), NW to (4,1), west to (0,1) */
	ck_assert(fabs(ff_solver_value(s->solver, 9, 1) - (7 + 2 * sqrt(2.0))) < 1e-12);
	ck_assert_int_eq(ff_solver_cost(s->solver, 5, 1), FF_WALL);
	ts_ok(s, "dyn cell 5,2 wall");
	ck_assert(isinf(ff_solver_value(s->solver, 9, 1)));
	ts_ok(s, "dyn clear");
	ck_assert(fabs(ff_solver_value(s->solver, 9, 1) - 9) < 1e-12);
	/* an offset: crossing (5, *) costs 1 + 10 instead of 1 */
	ts_ok(s, "dyn rect 5,0 1,3 +10");
	ck_assert(fabs(ff_solver_value(s->solver, 9, 1) - 19) < 1e-12);
	ck_assert_int_eq(ff_level_cost(s->level, 5, 1), 1);
	ts_stop(s);
}
END_TEST

/* Group G's field in S is bit for bit the one solved afresh for the level
 * as it stands. */
static void group_field_is_fresh(ff_session *s, int g)
{
	ff_fields *fresh = ff_fields_create(s->level, &s->opts);
	const ff_solver *a, *b;

	ck_assert_ptr_nonnull(fresh);
	ck_assert_int_eq(ff_fields_get(s->fields, g, &a), FF_OK);
	ck_assert_int_eq(ff_fields_get(fresh, g, &b), FF_OK);
	for (int y = 0; y < s->level->h; y++)
		for (int x = 0; x < s->level->w; x++) {
			double va = ff_solver_value(a, x, y), vb = ff_solver_value(b, x, y);
			ck_assert_msg(memcmp(&va, &vb, sizeof va) == 0 &&
				      ff_solver_dir(a, x, y) == ff_solver_dir(b, x, y),
				      "(%d,%d): %.17g against %.17g afresh", x, y, va, vb);
		}
	ff_fields_destroy(fresh);
}

/* The field of a group other than the one the session shows is the
 * fields' own: it follows the dynamic layer (repaired) and a change of
 * the wall penalty (solved again) as the session's field does.  Group
 * 'b' walks east, 'a' (shown: its goal comes first) west; the door at x = 5 cuts b's goal off
 * from x = 0: 9 steps, then none. */
START_TEST(group_fields_follow_the_layers)
{
	static const char *const edits[] = {
		"dyn rect 5,0 1,3 +20", "dyn cell 2,1 wall", "set wall_penalty 6",
		"set wall_penalty_radius 2", "dyn clear", "undo", "undo", NULL};
	ff_session *s = ts_start(10, 3);
	const ff_solver *f;
	ff_sim *sim;
	int g;

	ts_ok(s, "goal add rect 0,0 1,3 group a");
	ts_ok(s, "goal add rect 9,0 1,3 group b");
	ts_ok(s, "solve");
	ck_assert_int_eq(ff_session_sim(s, &sim), FF_OK);
	g = ff_level_group_by_name(s->level, "b");
	ck_assert_int_gt(g, 0);
	ck_assert_int_ne(g, ff_session_field_group(s));
	ck_assert_int_eq(ff_fields_get(s->fields, g, &f), FF_OK);
	ck_assert(fabs(ff_solver_value(f, 0, 1) - 9) < 1e-12);
	ts_ok(s, "dyn rect 5,0 1,3 wall");
	ck_assert_int_eq(ff_fields_get(s->fields, g, &f), FF_OK);
	ck_assert(isinf(ff_solver_value(f, 0, 1)));
	for (const char *const *e = edits; *e; e++) {
		ts_ok(s, *e);
		group_field_is_fresh(s, g);
	}
	ts_stop(s);
}
END_TEST

/* An agent standing where a temporary wall appears is put out of it, and
 * none ever stands in one. */
START_TEST(agents_leave_new_walls)
{
	ff_session *s = ts_start(12, 5);
	ff_sim *sim;
	ff_agent a;

	ts_ok(s, "goal add rect 11,0 1,5");
	ts_ok(s, "solve");
	ts_ok(s, "sim add 3,2 1");
	ck_assert_int_eq(ff_session_sim(s, &sim), FF_OK);
	ff_sim_agent(sim, 0, &a);
	ck_assert_int_eq((int)a.x, 3);
	ts_ok(s, "dyn rect 2,0 3,5 wall");
	ts_ok(s, "tick");
	ff_sim_agent(sim, 0, &a);
	ck_assert(!ff_level_wall(s->level, (int)a.x, (int)a.y));
	ck_assert(a.x >= 5 || a.x < 2);
	ck_assert_int_eq(ff_sim_last(sim)->wall_violations, 0);
	ts_stop(s);
}
END_TEST

/* Two ways through a wall at x = 60 to the goal: a door at rows 3..5,
 * straight ahead, and a gap at rows 15..17.  30 agents (of GROUP, or of
 * the default group) start at x 1..6, 40 cells a 300-tick walk at 1.34
 * m/s, cells of 0.5 m.  Counts, for each, the row at which it first stood
 * past the wall; fails if one did not arrive in 3000 ticks.  With DOOR
 * the door is closed at tick 300 by the dynamic layer, when every agent
 * is still behind it. */
static void through_the_wall(bool door, const char *group, int rows[3])
{
	ff_session *s = ts_start(80, 20);
	int crossed[64] = {0};
	char line[80];
	ff_sim *sim;

	ts_ok(s, "rect 0,0 80,1 wall");
	ts_ok(s, "rect 0,19 80,1 wall");
	ts_ok(s, "rect 60,1 1,18 wall");
	ts_ok(s, "rect 60,3 1,3 grass");
	ts_ok(s, "rect 60,15 1,3 grass");
	/* a group made first, whose field the session shows when GROUP is
	 * named (the default group's goals come first of all) */
	ts_ok(s, "goal add cell 79,18 group other");
	snprintf(line, sizeof line, "goal add rect 76,2 3,5%s", group);
	ts_ok(s, line);
	snprintf(line, sizeof line, "spawn add rect 1,1 6,8 30%s", group);
	ts_ok(s, line);
	ts_ok(s, "solve");
	ts_ok(s, "sim spawn");
	if (door)
		ts_ok(s, "at 300 dyn rect 60,3 1,3 wall");
	ck_assert_int_eq(ff_session_sim(s, &sim), FF_OK);
	rows[0] = rows[1] = rows[2] = 0;
	for (int t = 1; t <= 3000 && ff_sim_last(sim)->alive + (t == 1) > 0; t++) {
		ts_ok(s, "tick");
		for (size_t i = 0; i < ff_sim_count(sim); i++) {
			ff_agent a;
			ff_sim_agent(sim, i, &a);
			ck_assert_uint_lt(a.id, 64);
			if (t == 300)
				ck_assert_msg(a.x < 60, "agent %u past the door by tick 300", a.id);
			if (a.x < 61 || crossed[a.id]++)
				continue;
			rows[a.y < 3 ? 0 : a.y < 15 ? 1 : 2]++;
			ck_assert_msg(!door || t > 300, "agent %u crossed by tick %d", a.id, t);
		}
	}
	ck_assert_int_eq(ff_sim_last(sim)->alive, 0);
	ck_assert_int_eq(ff_sim_totals_get(sim)->arrived, 30);
	ts_stop(s);
}

/* Open, the crowd takes the door; closed at tick 300 by 'at 300 dyn rect
 * 60,3 1,3 wall', every agent (all behind it then) re-routes through the
 * gap and none crosses where the door was: of the default group, whose
 * field the session solves, and of a named group, whose field is the
 * fields' own. */
START_TEST(door_closed_at_a_tick)
{
	static const char *const groups[] = {"", " group g"};
	int rows[3];

	for (int k = 0; k < 2; k++) {
		through_the_wall(false, groups[k], rows);
		ck_assert_int_gt(rows[1], 20);
		through_the_wall(true, groups[k], rows);
		ck_assert_int_eq(rows[0] + rows[1], 0);
		ck_assert_int_eq(rows[2], 30);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("level_dyn");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, values_and_words);
	tcase_add_test(tc, set_clear_and_undo);
	tcase_add_test(tc, bad_arguments_change_nothing);
	tcase_add_test(tc, resize_keeps_and_undoes_the_layer);
	tcase_add_test(tc, text_lines_by_hand);
	tcase_add_test(tc, random_layers_round_trip);
	tcase_add_test(tc, bad_lines);
	tcase_add_test(tc, commands);
	tcase_add_test(tc, field_follows_the_layer);
	tcase_add_test(tc, group_fields_follow_the_layers);
	tcase_add_test(tc, agents_leave_new_walls);
	tcase_add_test(tc, door_closed_at_a_tick);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
