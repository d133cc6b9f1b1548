/*
 * check_session.c - the field a session keeps current: solve and step
 * through commands, values against hand-worked grids, repair after edits
 * equal to a fresh solve, step back equal to stepping one step less, and
 * undo restoring the field.
 */
#include <math.h>
#include <string.h>

#include "testsession.h"

/* The field of S equals a fresh one-shot solve of a copy of its level. */
static void same_as_fresh(const ff_session *s)
{
	const ff_level *l = s->level;
	ff_solver *f = ff_solver_create(l->w, l->h);

	ck_assert_int_eq(ff_solver_solve(f, l, l->meta.goals, l->meta.ngoals, &s->opts), FF_OK);
	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++) {
			double a = ff_solver_value(s->solver, x, y), b = ff_solver_value(f, x, y);
			ck_assert_msg(a == b || fabs(a - b) <= 1e-6 * fabs(b),
				      "value at %d,%d: %g vs fresh %g", x, y, a, b);
			ck_assert_msg(ff_solver_dir(s->solver, x, y) == ff_solver_dir(f, x, y) ||
				      s->opts.method == FF_METHOD_FMM,
				      "direction at %d,%d", x, y);
		}
	ff_solver_destroy(f);
}

/* A 6x1 corridor with swamp (5) at x=3: values worked by hand. */
START_TEST(hand_worked_corridor)
{
	ff_session *s = ts_start(6, 1);
	const double want[6] = {0, 1, 2, 7, 8, 9};

	ts_ok(s, "paint 3,0 swamp");
	ts_ok(s, "goal add cell 0,0");
	ts_ok(s, "solve");
	for (int x = 0; x < 6; x++)
		ck_assert_msg(fabs(ff_solver_value(s->solver, x, 0) - want[x]) < 1e-9,
			      "x=%d: %g", x, ff_solver_value(s->solver, x, 0));
	ck_assert_int_eq(ff_solver_dir(s->solver, 5, 0), FF_DIR_W);
	ck_assert_int_eq(ff_solver_dir(s->solver, 0, 0), FF_DIR_NONE);
	/* Painting the swamp back to grass repairs the field to 0..5. */
	ts_ok(s, "paint 3,0 grass");
	for (int x = 0; x < 6; x++)
		ck_assert(fabs(ff_solver_value(s->solver, x, 0) - x) < 1e-9);
	/* A wall cuts the corridor: the far side becomes unreachable. */
	ts_ok(s, "paint 2,0 wall");
	ck_assert(isinf(ff_solver_value(s->solver, 4, 0)));
	ck_assert_int_eq(ff_solver_dir(s->solver, 4, 0), FF_DIR_NONE);
	ts_ok(s, "undo");
	ck_assert(fabs(ff_solver_value(s->solver, 4, 0) - 4) < 1e-9);
	ts_stop(s);
}
END_TEST

START_TEST(repair_equals_fresh_solve)
{
	uint64_t seed = 7;
	ff_session *s = ts_start(40, 30);
	char line[80];

	ts_ok(s, "goal add rect 30,20 4,4");
	ts_ok(s, "solve");
	for (int i = 0; i < 60; i++) {
		static const char *const t[] = {"wall", "grass", "swamp", "mud", "17"};
		int x = tu_range(&seed, 0, 39), y = tu_range(&seed, 0, 29);

		if (ff_level_is_goal(s->level, x, y))
			continue;
		snprintf(line, sizeof line, i % 3 ? "paint %d,%d %s" : "circle %d,%d 2 %s", x, y,
			 t[tu_range(&seed, 0, 4)]);
		if (i % 3 == 0 && ff_level_is_goal(s->level, x, y))
			continue;
		ff_cmd_result r;
		if (ff_cmd_exec(s, line, &r) == FF_OK && s->field)
			same_as_fresh(s);
	}
	ck_assert(s->field);
	ts_stop(s);
}
END_TEST

START_TEST(step_back_equals_one_step_less)
{
	ff_session *a = ts_start(12, 9), *b = ts_start(12, 9);
	ff_cmd_result r;

	for (ff_session **p = (ff_session *[]){a, b, NULL}; *p; p++) {
		ts_ok(*p, "rect 5,0 1,7 wall");
		ts_ok(*p, "goal add cell 1,1");
		ts_ok(*p, "step begin");
	}
	for (int i = 0; i < 30; i++)
		ts_ok(a, "step cell");
	ts_ok(a, "step wave 2");
	ts_ok(a, "step back");
	for (int i = 0; i < 30; i++)
		ts_ok(b, "step cell");
	ck_assert_int_eq(ff_solver_settled(a->solver), ff_solver_settled(b->solver));
	for (int y = 0; y < 9; y++)
		for (int x = 0; x < 12; x++)
			ck_assert(ff_solver_value(a->solver, x, y) == ff_solver_value(b->solver, x, y) ||
				  (isinf(ff_solver_value(a->solver, x, y)) &&
				   isinf(ff_solver_value(b->solver, x, y))));
	/* An edit mid-step keeps the step position on the edited level. */
	ts_ok(a, "paint 8,8 swamp");
	ck_assert_int_eq(ff_solver_phase(a->solver), FF_PHASE_INTEGRATE);
	ck_assert_int_eq(ff_solver_settled(a->solver), ff_solver_settled(b->solver));
	ts_ok(a, "step all");
	same_as_fresh(a);
	ck_assert_int_eq(ff_cmd_exec(b, "step sideways", &r), FF_E_PARSE);
	ck_assert_int_eq(r.col, 6);
	ts_stop(a);
	ts_stop(b);
}
END_TEST

START_TEST(goal_edits_and_errors)
{
	ff_session *s = ts_start(10, 10);
	ff_cmd_result r;

	ck_assert_int_eq(ff_cmd_exec(s, "solve", &r), FF_E_NOTFOUND);
	ck_assert(strstr(r.msg, "no goals"));
	ts_ok(s, "goal add cell 9,9");
	ts_ok(s, "solve fmm 4");
	ck_assert_int_eq(s->opts.method, FF_METHOD_FMM);
	ck_assert_int_eq(s->opts.connectivity, 4);
	ts_ok(s, "goal add cell 0,0");   /* goals changed: solved again */
	ck_assert(ff_solver_value(s->solver, 0, 0) == 0);
	same_as_fresh(s);
	ts_ok(s, "goal clear");
	ck_assert(!s->field);
	ck_assert(strstr(s->note, "no goals"));
	ck_assert_int_eq(ff_cmd_exec(s, "solve bfs", &r), FF_E_PARSE);
	ck_assert_int_eq(r.col, 7);
	ts_stop(s);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("session");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, hand_worked_corridor);
	tcase_add_test(tc, repair_equals_fresh_solve);
	tcase_add_test(tc, step_back_equals_one_step_less);
	tcase_add_test(tc, goal_edits_and_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
