/*
 * check_cmd.c - the command language: each command changes exactly what it
 * says (checked against the level API called directly), undo/redo through
 * commands restores exact states, and bad commands fail with the right
 * column and leave the session unchanged.
 */
#include <math.h>
#include <string.h>

#include "testsession.h"

START_TEST(paint_commands_match_api)
{
	ff_session *s = ts_start(16, 10);
	ff_level *ref = ff_level_create(16, 10, "t");

	ts_ok(s, "paint 3,4 wall");
	ts_ok(s, "rect 1,1 3,2 swamp");
	ts_ok(s, "line 0,9 15,9 7   # a comment");
	ts_ok(s, "circle 8,5 2 forest");
	ts_ok(s, "fill 15,0 mud");
	ff_level_paint(ref, 3, 4, FF_WALL, NULL);
	ff_level_rect(ref, 1, 1, 3, 2, 5, NULL);
	ff_level_line(ref, 0, 9, 15, 9, 7, NULL);
	ff_level_circle(ref, 8, 5, 2, 2, NULL);
	ff_level_fill(ref, 15, 0, 3, NULL);
	ck_assert(ff_level_equal(s->level, ref));
	ck_assert_int_eq(ff_level_cost(s->level, 2, 2), 5);
	ck_assert_int_eq(ff_level_cost(s->level, 15, 9), 7);
	ck_assert(s->modified);
	ff_level_destroy(ref);
	ts_stop(s);
}
END_TEST

/* A second wall terrain is painted by its name, as a wall of its own: the
 * solver sees a wall, the level its tree, and undo takes it back. */
START_TEST(wall_terrain_by_name)
{
	ff_session *s = ts_start(16, 10);

	ts_ok(s, "terrain tree T wall");
	ts_ok(s, "rect 2,2 3,1 tree");
	ck_assert_int_eq(ff_level_cost(s->level, 3, 2), FF_WALL);
	ck_assert_int_eq(ff_level_value(s->level, 3, 2), FF_WALL_KIND(1));
	ts_ok(s, "paint 3,2 wall");
	ck_assert_int_eq(ff_level_value(s->level, 3, 2), FF_WALL);
	ts_ok(s, "undo");
	ck_assert_int_eq(ff_level_value(s->level, 3, 2), FF_WALL_KIND(1));
	ts_ok(s, "goal add cell 0,0");
	ts_ok(s, "solve");
	ck_assert(isinf(ff_solver_value(s->solver, 3, 2)));
	ts_stop(s);
}
END_TEST

START_TEST(goals_spawns_set)
{
	ff_session *s = ts_start(16, 10);

	ts_ok(s, "goal add cell 2,3");
	ts_ok(s, "goal add rect 10,2 3,4");
	ts_ok(s, "goal add circle 8,8 1");
	ts_ok(s, "spawn add rect 0,0 4,4 25");
	ts_ok(s, "spawn add circle 12,7 2 10");
	ts_ok(s, "set speed 2.5");
	ts_ok(s, "terrain road r 4");
	ts_ok(s, "paint 0,0 road");
	ts_ok(s, "name renamed");
	ck_assert_int_eq(s->level->meta.ngoals, 3);
	ck_assert_int_eq(s->level->meta.goals[1].kind, FF_SHAPE_RECT);
	ck_assert_int_eq(s->level->meta.goals[1].w, 3);
	ck_assert_int_eq(s->level->meta.goals[1].h, 4);
	ck_assert_int_eq(s->level->meta.spawns[1].count, 10);
	ck_assert(s->level->meta.params[FF_P_SPEED] == 2.5);
	ck_assert_int_eq(ff_level_cost(s->level, 0, 0), 4);
	ck_assert_str_eq(s->level->meta.name, "renamed");
	ts_ok(s, "goal rm 2");
	ck_assert_int_eq(s->level->meta.ngoals, 2);
	ck_assert_int_eq(s->level->meta.goals[1].kind, FF_SHAPE_CIRCLE);
	ts_ok(s, "spawn clear");
	ck_assert_int_eq(s->level->meta.nspawns, 0);
	ts_stop(s);
}
END_TEST

START_TEST(undo_redo_through_commands)
{
	ff_session *s = ts_start(12, 8);
	ff_level *states[6];
	const char *cmds[5] = {"rect 0,0 4,4 wall", "goal add cell 9,6", "resize 20,5",
			       "fill 19,4 swamp", "set jitter 0"};
	ff_cmd_result r;

	states[0] = ff_level_clone(s->level);
	for (int i = 0; i < 5; i++) {
		ts_ok(s, cmds[i]);
		states[i + 1] = ff_level_clone(s->level);
	}
	for (int i = 5; i > 0; i--) {
		ts_ok(s, "undo");
		ck_assert_msg(ff_level_equal(s->level, states[i - 1]), "undo to state %d", i - 1);
	}
	ck_assert_int_eq(ff_cmd_exec(s, "undo", &r), FF_E_STATE);
	ts_ok(s, "redo 3");
	ck_assert(ff_level_equal(s->level, states[3]));
	ts_ok(s, "paint 1,1 mud");          /* a new edit forgets the redo history */
	ck_assert_int_eq(ff_cmd_exec(s, "redo", &r), FF_E_STATE);
	ts_ok(s, "undo 2");
	ck_assert(ff_level_equal(s->level, states[2]));
	for (int i = 0; i < 6; i++)
		ff_level_destroy(states[i]);
	ts_stop(s);
}
END_TEST

/* A name is the level's identity (':w NAME' sets it): undo and redo keep
 * it, also past edits of the meta, whose records hold the old name. */
START_TEST(name_is_not_undone)
{
	ff_session *s = ts_start(12, 8);
	ff_cmd_result r;

	ts_ok(s, "goal add cell 3,3");
	ts_ok(s, "paint 1,1 wall");
	ts_ok(s, "name other");
	ts_ok(s, "undo");
	ck_assert_int_eq(ff_level_cost(s->level, 1, 1), 1);
	ck_assert_str_eq(s->level->meta.name, "other");
	ts_ok(s, "undo");
	ck_assert_int_eq(s->level->meta.ngoals, 0);
	ck_assert_str_eq(s->level->meta.name, "other");
	ck_assert_int_eq(ff_cmd_exec(s, "undo", &r), FF_E_STATE);
	ts_ok(s, "redo 2");
	ck_assert_int_eq(ff_level_cost(s->level, 1, 1), FF_WALL);
	ck_assert_str_eq(s->level->meta.name, "other");
	ts_stop(s);
}
END_TEST

/* The history keeps to its byte budget: each fill of a 512 x 512 level
 * saves 256 KB, so a 1 MB budget keeps the last four. */
START_TEST(undo_history_keeps_to_its_budget)
{
	ff_session *s = ts_start(512, 512);
	ff_cmd_result r;

	s->undo_bytes_max = (size_t)1 << 20;
	for (int i = 0; i < 10; i++)
		ts_ok(s, i % 2 ? "fill 0,0 grass" : "fill 0,0 mud");
	ck_assert_int_eq(s->nundo, 4);
	ts_ok(s, "undo 3");
	ck_assert_int_eq(ff_level_cost(s->level, 7, 7), 3);   /* after fill 6: mud */
	ts_ok(s, "undo");
	ck_assert_int_eq(ff_level_cost(s->level, 7, 7), 1);   /* after fill 5: grass */
	ck_assert_int_eq(ff_cmd_exec(s, "undo", &r), FF_E_STATE);
	ts_stop(s);
}
END_TEST

static const struct ts_bad bad_cmds[] = {
	{"jump 1,2", 1, "unknown command 'jump'"},
	/* control characters quoted in a message show escaped */
	{"jump\x1b[2J 1,2", 1, "unknown command 'jump\\x1b[2J'"},
	{"paint 1,2 l\x7fva", 11, "unknown terrain 'l\\x7fva'"},
	{"paint 1,2", 10, "missing arguments"},
	{"paint 1,2 wall extra", 16, "trailing garbage 'extra'"},
	{"paint 1;2 wall", 7, "expected X,Y"},
	{"paint 16,2 wall", 7, "outside the 16x10 level"},
	{"paint -1,2 wall", 7, "outside"},
	{"paint 1,2 lava", 11, "unknown terrain 'lava'"},
	{"paint 1,2 0", 11, "cost 0 is out of range"},
	{"paint 1,2 255", 11, "cost 255 is out of range"},
	{"rect 14,8 3,3 wall", 11, "outside"},
	{"rect 1,1 0,3 wall", 10, "must be at least 1,1"},
	{"circle 3,3 -2 wall", 12, "radius -2 is out of range"},
	{"line 0,0 0,10 wall", 10, "outside"},
	{"goal add cell 5,5", 15, "lies on walls only"},
	{"goal add cell 50,5", 15, "outside"},
	{"goal add square 1,1", 10, "unknown shape 'square'"},
	{"goal add rect 15,9 2,2", 15, "outside"},
	{"goal rm 1", 9, "there is none"},
	{"goal", 5, "expected 'goal add SHAPE [group NAME]'"},
	{"spawn add cell 1,1 5", 11, "rect or a circle"},
	{"spawn add rect 1,1 2,2 0", 24, "agent count 0 is out of range"},
	{"set warp 9", 5, "unknown parameter 'warp'"},
	{"set speed fast", 11, "not a number"},
	{"set speed 1e9", 11, "speed must be"},
	{"set seed 1.5", 10, "whole number"},
	{"terrain grass2 . 9", 9, "already in the palette"},
	{"terrain 5 q 4", 9, "bad terrain name '5'"},
	{"terrain wall q 4", 9, "bad terrain name 'wall'"},
	{"name a/b", 6, "bad level name"},
	{"resize 0,5", 8, "out of range"},
	{"resize 16385,5", 8, "out of range 1..16384"},
	{"redo", 1, "nothing to redo"},
	{"at x paint 1,1 wall", 4, "tick 'x' is not a whole number"},
	{"at 0 paint 1,1 wall", 4, "tick 0 is out of range"},
	{"at 9", 5, "missing the command to run at tick 9"},
	{"at 9 jump", 6, "unknown command 'jump'"},
	{"at 9 resize 3,3", 6, "'resize' cannot be scheduled"},
	{"at 9 tick 3", 6, "'tick' cannot be scheduled"},
	{"at 9 at 10 paint 1,1 wall", 6, "'at' cannot be scheduled"},
	/* the edit is tried now: its errors point into the line */
	{"at 9 paint 16,2 wall", 12, "outside the 16x10 level"},
	{"at 9  dyn rect 1,1 2,2 +0", 24, "expected +N (N 1..254) or wall but got '+0'"},
};

START_TEST(bad_commands)
{
	ff_session *s = ts_start(16, 10);

	ts_ok(s, "paint 5,5 wall");
	ts_refused(s, &bad_cmds[_i]);
	ts_stop(s);
}
END_TEST

START_TEST(blank_and_comment_lines)
{
	ff_session *s = ts_start(4, 4);
	ff_cmd_result r;

	ck_assert_int_eq(ff_cmd_exec(s, "", &r), FF_OK);
	ck_assert_int_eq(ff_cmd_exec(s, "   # just a comment", &r), FF_OK);
	ck_assert_int_eq(s->nundo, 0);
	ck_assert(!s->modified);
	ts_stop(s);
}
END_TEST

START_TEST(command_table_complete)
{
	const ff_cmd_info *c;
	int n = 0;

	for (int i = 0; (c = ff_cmd_info_at(i)); i++, n++) {
		ck_assert(c->name && c->args && c->summary && c->summary[0]);
	}
	ck_assert_int_ge(n, 13);
	ck_assert_ptr_null(ff_cmd_info_at(-1));
}
END_TEST

/* Runs LINE and checks its message. */
static void says(ff_session *s, const char *line, const char *msg)
{
	ff_cmd_result r;

	ck_assert_int_eq(ff_cmd_exec(s, line, &r), FF_OK);
	ck_assert_str_eq(r.msg, msg);
}

/* Each step says what happened: the goal, then each cell with its value
 * and the neighbours it came from.  Fast Marching accepts, from one or two
 * upwind neighbours: the diagonal of an open goal gets
 * (1 + 1 + sqrt(2 - 0)) / 2 from both axes (hand-worked).  (It used to
 * report every accepted cell as "goal X,Y = 0".) */
START_TEST(step_messages_say_what_happened)
{
	ff_session *s = ts_start(5, 5);

	ts_ok(s, "goal add cell 2,2");
	ts_ok(s, "step begin");
	ts_ok(s, "step phase");
	says(s, "step cell", "integrate: goal 2,2 = 0; 8 queued");
	says(s, "step cell", "integrate: settled 3,2 = 1 from 2,2; 10 queued");
	ts_ok(s, "step begin fmm");
	ts_ok(s, "step phase");
	says(s, "step cell", "integrate: goal 2,2 = 0; 4 queued");
	says(s, "step cell", "integrate: accepted 3,2 = 1 from 2,2; 3 queued");
	ts_ok(s, "step cell 3");
	says(s, "step cell", "integrate: accepted 3,3 = 1.70711 from 2,3 and 3,2; 7 queued");
	ts_ok(s, "step begin fmm2");
	ts_ok(s, "step phase");
	ts_ok(s, "step cell 5");
	says(s, "step cell", "integrate: accepted 3,3 = 1.70711 from 2,3 and 3,2; 7 queued");
	ts_stop(s);
}
END_TEST

/* The arrow rule is a solver word: 'lowest' keeps the seeds' rule, and
 * the words go back to the session's options. */
START_TEST(arrow_rule_words)
{
	ff_session *s = ts_start(12, 7);
	ff_cmd_result r;

	ts_ok(s, "rect 8,3 2,2 5");
	ts_ok(s, "goal add cell 10,3");
	ts_ok(s, "solve");
	ck_assert_int_eq(ff_solver_dir(s->solver, 9, 4), FF_DIR_E);
	ts_ok(s, "solve lowest");
	ck_assert_int_eq(s->opts.arrows, FF_ARROW_LOWEST);
	ck_assert_int_eq(ff_solver_dir(s->solver, 9, 4), FF_DIR_NE);
	ts_ok(s, "solve fmm");         /* kept, unused, by Fast Marching */
	ts_ok(s, "solve dijkstra");
	ck_assert_int_eq(ff_solver_dir(s->solver, 9, 4), FF_DIR_NE);
	ts_ok(s, "step begin cheapest 4");
	ck_assert_int_eq(s->opts.arrows, FF_ARROW_CHEAPEST);
	ck_assert_int_eq(s->opts.connectivity, 4);
	ck_assert_int_eq(ff_cmd_exec(s, "solve steepest", &r), FF_E_PARSE);
	ck_assert_int_eq(r.col, 7);
	ck_assert_str_eq(r.msg, "expected dijkstra, fmm, fmm2, hier, 8, 4, cheapest, lowest, los, nolos or sector8..64 but got "
			 "'steepest'");
	ts_stop(s);
}
END_TEST

/* Commands about the crowd: units in 'set', counting lines and switches,
 * spawn sources, and a spot with room for fewer bodies than asked. */
START_TEST(crowd_commands)
{
	ff_session *s = ts_start(30, 10);
	ff_cmd_result r;
	ff_sim_line ln;

	ts_ok(s, "set speed 2.4cells/s");
	ck_assert_double_eq(s->level->meta.params[FF_P_SPEED], 1.2);
	ck_assert_int_eq(ff_cmd_exec(s, "set speed 3km/h", &r), FF_E_PARSE);
	ck_assert_int_eq(r.col, 11);
	ck_assert_ptr_nonnull(strstr(r.msg, "m/s"));
	ck_assert_double_eq(s->level->meta.params[FF_P_SPEED], 1.2);
	ts_ok(s, "goal add rect 29,0 1,10");
	ts_ok(s, "spawn add rect 0,0 4,10 30 rate 5");
	ck_assert_double_eq(s->level->meta.spawns[0].rate, 5);
	ts_ok(s, "solve fmm");
	ts_ok(s, "sim line 15,0 15,10");
	ck_assert_int_eq(ff_cmd_exec(s, "sim line 3,3 3,3", &r), FF_E_INVAL);
	ck_assert_int_eq(ff_cmd_exec(s, "sim speed-density maybe", &r), FF_E_PARSE);
	ts_ok(s, "sim spawn");
	ck_assert_int_eq(ff_sim_pending(s->sim), 30);
	ts_ok(s, "tick 400");
	ck_assert_int_eq(ff_sim_pending(s->sim), 0);
	ff_sim_line_get(s->sim, 0, &ln);
	ck_assert_int_eq(ln.crossings, 30);
	ts_ok(s, "sim line clear");
	ck_assert_int_eq(ff_sim_nlines(s->sim), 0);
	ts_ok(s, "sim speed-density off");
	ck_assert(s->sim_flags & FF_SIM_FREE_SPEED);
	ts_ok(s, "sim speed-density on");
	ck_assert(!(s->sim_flags & FF_SIM_FREE_SPEED));
	/* one cell holds four bodies of 0.2 m in 0.5 m cells */
	ck_assert_int_eq(ff_cmd_exec(s, "sim add 10,5 9", &r), FF_OK);
	ck_assert_ptr_nonnull(strstr(r.msg, "of 9 agents: no room"));
	ts_stop(s);
}
END_TEST

/* Two edits scheduled out of order run in tick order, and those of one
 * tick in the order given; each runs after the step that reaches its tick
 * (the same state as ticking there, running it, ticking on); 'at' lists
 * and 'at clear' drops. */
START_TEST(at_runs_edits_at_their_tick)
{
	ff_session *s = ts_start(12, 5), *t = ts_start(12, 5);
	ff_sim *a, *b;

	for (ff_session **p = (ff_session *[]){s, t, NULL}; *p; p++) {
		ts_ok(*p, "goal add rect 11,0 1,5");
		ts_ok(*p, "solve");
		ts_ok(*p, "sim add 1,2 6 1");
	}
	says(s, "at", "nothing scheduled");
	says(s, "at 7 dyn rect 5,0 1,4 wall", "scheduled for tick 7");
	ts_ok(s, "at 3 paint 6,4 swamp");
	ts_ok(s, "at 7 dyn rect 5,0 1,5 +9   # second of tick 7: wins");
	says(s, "at", "3 scheduled: at 3 paint 6,4 swamp; at 7 dyn rect 5,0 1,4 wall; at 7 dyn "
	     "rect 5,0 1,5 +9   # second of tick 7: wins");
	ts_ok(s, "tick 2");
	ck_assert_int_eq(ff_level_cost(s->level, 6, 4), 1);
	ts_ok(s, "tick");
	ck_assert_int_eq(ff_level_cost(s->level, 6, 4), 5);
	says(s, "tick 10", "tick 13: 6 alive, 0 arrived, 0 stranded; scheduled commands run");
	ck_assert_int_eq(ff_level_dyn(s->level, 5, 0), 9);
	says(s, "at", "nothing scheduled");
	/* the same edits by hand at the same ticks: the same state */
	ts_ok(t, "tick 3");
	ts_ok(t, "paint 6,4 swamp");
	ts_ok(t, "tick 4");
	ts_ok(t, "dyn rect 5,0 1,4 wall");
	ts_ok(t, "dyn rect 5,0 1,5 +9");
	ts_ok(t, "tick 6");
	ck_assert_int_eq(ff_session_sim(s, &a), FF_OK);
	ck_assert_int_eq(ff_session_sim(t, &b), FF_OK);
	ck_assert_uint_eq(ff_sim_hash(a), ff_sim_hash(b));
	ck_assert(ff_level_equal(s->level, t->level));
	ts_ok(s, "at 20 paint 1,1 wall");
	says(s, "at clear", "nothing scheduled");
	ts_ok(s, "tick 10");
	ck_assert_int_eq(ff_level_cost(s->level, 1, 1), 1);
	ts_stop(t);
	ts_stop(s);
}
END_TEST

/* What is scheduled is checked when it is given; a 'tick' that would
 * reach one that has become wrong since (the goal it removes is gone), or
 * one that leaves no goal to solve for, is refused before its first step,
 * saying which: a failed command changes nothing. */
START_TEST(at_refuses_the_past_and_reports_late_failures)
{
	ff_session *s = ts_start(12, 5);
	ff_cmd_result r;

	ts_ok(s, "goal add rect 11,0 1,5");
	ts_ok(s, "goal add cell 0,0");
	ts_ok(s, "solve");
	ts_ok(s, "sim add 1,2 3");
	ts_ok(s, "tick 5");
	ck_assert_int_ne(ff_cmd_exec(s, "at 5 paint 1,1 wall", &r), FF_OK);
	ck_assert_int_eq(r.col, 4);
	ck_assert_str_eq(r.msg, "tick 5 is not ahead: the simulation is at tick 5");
	ts_ok(s, "at 8 goal rm 2");
	ts_ok(s, "at 9 goal rm 1");
	ts_ok(s, "goal rm 2");
	ck_assert_int_ne(ff_cmd_exec(s, "tick 10", &r), FF_OK);
	ck_assert_str_eq(r.msg, "at 8 goal rm 2: number 2 is out of range 1..1");
	ck_assert_int_eq(ff_session_tick(s), 5);
	ck_assert_int_eq(s->nat, 2);
	ts_ok(s, "tick 2");                    /* before either: runs */
	ck_assert_int_eq(ff_session_tick(s), 7);
	ts_ok(s, "at clear");
	ts_ok(s, "at 9 goal rm 1");
	ck_assert_int_ne(ff_cmd_exec(s, "tick 3", &r), FF_OK);
	ck_assert_str_eq(r.msg, "at 9 goal rm 1: no goal would be left to solve for, and the "
			 "run would stop there");
	ck_assert_int_eq(ff_session_tick(s), 7);
	ck_assert_int_eq(s->level->meta.ngoals, 1);
	ts_stop(s);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("cmd");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, paint_commands_match_api);
	tcase_add_test(tc, wall_terrain_by_name);
	tcase_add_test(tc, goals_spawns_set);
	tcase_add_test(tc, crowd_commands);
	tcase_add_test(tc, undo_redo_through_commands);
	tcase_add_test(tc, name_is_not_undone);
	tcase_add_test(tc, undo_history_keeps_to_its_budget);
	tcase_add_loop_test(tc, bad_commands, 0, (int)(sizeof bad_cmds / sizeof bad_cmds[0]));
	tcase_add_test(tc, blank_and_comment_lines);
	tcase_add_test(tc, command_table_complete);
	tcase_add_test(tc, step_messages_say_what_happened);
	tcase_add_test(tc, arrow_rule_words);
	tcase_add_test(tc, at_runs_edits_at_their_tick);
	tcase_add_test(tc, at_refuses_the_past_and_reports_late_failures);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
