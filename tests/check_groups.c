/*
 * check_groups.c - groups of agents with their own goals: an order turns
 * every agent of its group and leaves the other groups exactly as they
 * would have been (bit for bit), each group follows its own field, groups
 * read and write back in the text format, and bad group input fails with
 * the right column and message, changing nothing.
 */
#include <math.h>
#include <string.h>

#include "core/level_text.h"
#include "core/sim.h"
#include "testsession.h"

/* Two rooms, 40 x 9 cells each, one above the other behind a wall three
 * cells thick; group 'a' walks east in the upper room, group 'b' east in
 * the lower one.  Nothing of one room can reach into the other: no body,
 * no density window, no look ahead. */
static ff_session *two_rooms(void)
{
	ff_session *s = ts_start(40, 21);

	ts_ok(s, "rect 0,9 40,3 wall");
	ts_ok(s, "goal add rect 39,0 1,9 group a");
	ts_ok(s, "goal add rect 39,12 1,9 group b");
	ts_ok(s, "spawn add rect 8,2 6,5 20 group a");
	ts_ok(s, "spawn add rect 8,14 6,5 20 group b");
	ts_ok(s, "solve");
	ts_ok(s, "sim spawn");
	ts_ok(s, "tick 20");
	return s;
}

/* The agents of group G in S: their velocities' x and all coordinates. */
static int agents_of(ff_session *s, int g, ff_agent *out, int max)
{
	int n = 0;

	for (size_t i = 0; i < ff_sim_count(s->sim); i++) {
		ff_agent a;

		ff_sim_agent(s->sim, i, &a);
		if (a.group == g && n < max)
			out[n++] = a;
	}
	return n;
}

START_TEST(an_order_turns_its_group_and_no_other)
{
	ff_session *s = two_rooms(), *ref = two_rooms();
	int ga = ff_level_group_by_name(s->level, "a"), gb = ff_level_group_by_name(s->level, "b");
	unsigned vb = ff_fields_version(s->fields, gb);
	ff_agent a[64], b[64];
	int n;

	ck_assert_int_gt(ga, 0);
	ck_assert_int_gt(gb, 0);
	ck_assert_int_eq(agents_of(s, ga, a, 64), 20);
	for (int i = 0; i < 20; i++)
		ck_assert_msg(a[i].vx > 0, "agent %u walks west before the order", a[i].id);
	ts_ok(s, "order a rect 0,0 1,9");
	ck_assert_int_eq(s->level->meta.ngoals, 2);
	ts_ok(s, "tick 40");
	ts_ok(ref, "tick 40");
	/* every agent of 'a' turned west (2 s at 3 m/s^2 reverses 1.34 m/s) */
	n = agents_of(s, ga, a, 64);
	ck_assert_int_eq(n, 20);
	for (int i = 0; i < n; i++)
		ck_assert_msg(a[i].vx < 0, "agent %u of a still walks east: vx %g", a[i].id,
			      a[i].vx);
	n = agents_of(ref, ga, a, 64);
	for (int i = 0; i < n; i++)
		ck_assert(a[i].vx > 0);
	/* 'b' walks on exactly as without the order, on the same field */
	ck_assert_uint_eq(ff_fields_version(s->fields, gb), vb);
	n = agents_of(s, gb, a, 64);
	ck_assert_int_eq(agents_of(ref, gb, b, 64), n);
	ck_assert_int_eq(n, 20);
	for (int i = 0; i < n; i++)
		ck_assert_msg(a[i].id == b[i].id && a[i].x == b[i].x && a[i].y == b[i].y &&
			      a[i].vx == b[i].vx && a[i].vy == b[i].vy,
			      "agent %u of b moved differently after a's order", a[i].id);
	/* undo gives 'a' its old goal back, and it turns east again */
	ts_ok(s, "undo");
	ts_ok(s, "tick 40");
	n = agents_of(s, ga, a, 64);
	for (int i = 0; i < n; i++)
		ck_assert(a[i].vx > 0);
	ts_stop(s);
	ts_stop(ref);
}
END_TEST

/* Each group's agents follow their own group's field: two groups mixed in
 * one corridor, goals at opposite ends; every agent's group's flow at its
 * cell points to its group's goal, and in 5 s each group gets on average
 * at least 2.5 m nearer it, through the other group coming towards it (a
 * few are shoved back on the way while lanes form). */
START_TEST(each_group_follows_its_own_field)
{
	ff_session *s = ts_start(60, 12);
	double x0[64], gain[2] = {0, 0};
	int ge, gw;

	ts_ok(s, "goal add rect 59,0 1,12 group east");
	ts_ok(s, "goal add rect 0,0 1,12 group west");
	ts_ok(s, "spawn add rect 20,0 20,12 30 group east");
	ts_ok(s, "spawn add rect 20,0 20,12 30 group west");
	ts_ok(s, "solve");
	ts_ok(s, "sim spawn");
	ge = ff_level_group_by_name(s->level, "east");
	gw = ff_level_group_by_name(s->level, "west");
	ck_assert_uint_eq(ff_sim_count(s->sim), 60);
	for (size_t i = 0; i < 60; i++) {
		ff_agent a;

		ff_sim_agent(s->sim, i, &a);
		ck_assert_uint_eq(a.id, i);
		x0[i] = a.x;
	}
	ts_ok(s, "tick 100");
	ck_assert_uint_eq(ff_sim_count(s->sim), 60);
	for (size_t i = 0; i < 60; i++) {
		ff_agent a;
		float fx, fy;

		ff_sim_agent(s->sim, i, &a);
		ck_assert(a.group == ge || a.group == gw);
		ff_sim_flow_at(s->sim, a.group, (int)a.x, (int)a.y, &fx, &fy);
		ck_assert(a.group == ge ? fx > 0 : fx < 0);
		gain[a.group == ge] += (a.group == ge ? a.x - x0[a.id] : x0[a.id] - a.x) / 30;
	}
	/* cells of 0.5 m */
	ck_assert_msg(gain[0] >= 5 && gain[1] >= 5, "west %.2f, east %.2f cells", gain[0],
		      gain[1]);
	ts_stop(s);
}
END_TEST

/* Groups survive the text format: declared in order, goals and spawn areas
 * keep theirs, and the formatted text parses back to the same level. */
START_TEST(groups_read_and_write_back)
{
	static const char text[] =
		"fieldmarshal level 2\nname g\nsize 20 6\ngroup east\ngroup west\n"
		"goal rect 19 0 1 6 group east\ngoal rect 0 0 1 6 group west\ngoal cell 10 0\n"
		"spawn rect 0 0 4 6 10 group east\nspawn rect 16 0 4 6 10 rate 2 group west\n"
		"spawn rect 8 2 2 2 3\n"
		"grid\n....................\n....................\n....................\n"
		"....................\n....................\n....................\nend\n";
	ff_level *l = NULL, *back = NULL;
	ff_diag d;
	size_t len;
	char *out;

	ck_assert_msg(ff_textlevel_parse(text, sizeof text - 1, &l, &d) == FF_OK, "%d:%d: %s",
		      d.line, d.col, d.msg);
	ck_assert_int_eq(l->meta.ngroups, 3);
	ck_assert_str_eq(ff_level_group_name(l, 1), "east");
	ck_assert_str_eq(ff_level_group_name(l, 0), "default");
	ck_assert_int_eq(l->meta.goal_group[0], 1);
	ck_assert_int_eq(l->meta.goal_group[1], 2);
	ck_assert_int_eq(l->meta.goal_group[2], 0);
	ck_assert_int_eq(l->meta.spawns[1].group, 2);
	ck_assert(l->meta.spawns[1].rate == 2);
	ck_assert_int_eq(l->meta.spawns[2].group, 0);
	out = ff_textlevel_format(l, &len);
	ck_assert_ptr_nonnull(out);
	ck_assert_msg(ff_textlevel_parse(out, len, &back, &d) == FF_OK, "%d:%d: %s", d.line,
		      d.col, d.msg);
	ck_assert(ff_level_equal(l, back));
	ck_assert_msg(strstr(out, "spawn rect 16 0 4 6 10 rate 2 group west\n"), "%s", out);
	free(out);
	ff_level_destroy(l);
	ff_level_destroy(back);
}
END_TEST

static const struct ts_bad bad_cmds[] = {
	{"order nobody cell 3,3", 7, "no group 'nobody'"},
	{"order a square 3,3", 9, "unknown shape 'square'"},
	{"order a cell 5,5", 14, "lies on walls only"},
	{"order a cell 3,30", 14, "outside"},
	{"order", 6, "expected 'order GROUP SHAPE'"},
	{"goal add cell 3,3 group bad!name", 25, "bad group name"},
	{"goal add cell 3,3 troop a", 19, "expected 'group NAME'"},
	{"spawn add rect 1,1 2,2 4 group", 31, "missing the group's name"},
	{"sim add 3,3 4 0 group nobody", 23, "no group 'nobody'"},
};

START_TEST(bad_group_commands)
{
	ff_session *s = ts_start(16, 10);

	ts_ok(s, "paint 5,5 wall");
	ts_ok(s, "goal add cell 15,9 group a");
	ts_ok(s, "solve");
	ts_refused(s, &bad_cmds[_i]);
	ts_stop(s);
}
END_TEST

/* A group with spawn areas but no goals: spawning is refused whole, the
 * message names the area and its group, and no agent is made. */
START_TEST(a_group_without_goals_spawns_nobody)
{
	ff_session *s = ts_start(16, 10);
	ff_cmd_result r;

	ts_ok(s, "goal add cell 15,9");
	ts_ok(s, "spawn add rect 0,0 3,3 5");
	ts_ok(s, "spawn add rect 0,5 3,3 5 group lost");
	ts_ok(s, "solve");
	ck_assert_int_ne(ff_cmd_exec(s, "sim spawn", &r), FF_OK);
	ck_assert_msg(strstr(r.msg, "spawn area 2") && strstr(r.msg, "'lost'") &&
		      strstr(r.msg, "no goal"), "%s", r.msg);
	ck_assert(!s->sim || ff_sim_count(s->sim) == 0);
	ts_stop(s);
}
END_TEST

/* At most 15 named groups besides the default one. */
START_TEST(sixteen_groups_are_too_many)
{
	ff_session *s = ts_start(20, 20);
	ff_cmd_result r;
	char line[64];

	for (int g = 1; g <= 15; g++) {
		snprintf(line, sizeof line, "goal add cell %d,0 group g%d", g, g);
		ts_ok(s, line);
	}
	ck_assert_int_ne(ff_cmd_exec(s, "goal add cell 16,0 group g16", &r), FF_OK);
	ck_assert_msg(strstr(r.msg, "at most 15 besides the default"), "%s", r.msg);
	ck_assert_int_eq(s->level->meta.ngoals, 15);
	ts_ok(s, "goal add cell 16,0 group g15");   /* an existing one is fine */
	ts_stop(s);
}
END_TEST

/* The groups' fields share one queue workspace (solver.h): each is, bit
 * for bit, what a solver of its own gives for the group's goals, after
 * solves and repairs of the others in between; and the workspace is
 * counted once in ff_fields_bytes(), not in each field. */
START_TEST(group_fields_share_one_queue)
{
	ff_session *s = ts_start(50, 30);
	ff_solver_opts o = s->opts;
	ff_fields *f;
	ff_solver_work *wk = ff_solver_work_create(50, 30);
	size_t bytes[4], wbytes = ff_solver_work_bytes(wk);

	ff_solver_work_destroy(wk);
	ts_ok(s, "rect 10,5 1,20 wall");
	ts_ok(s, "goal add cell 49,0 group a");
	ts_ok(s, "goal add cell 0,29 group b");
	ts_ok(s, "goal add rect 20,10 3,3 group c");
	f = ff_fields_create(s->level, &o);
	bytes[0] = ff_fields_bytes(f);
	for (int g = 1; g <= 3; g++) {
		const ff_solver *sv;
		ck_assert_int_eq(ff_fields_get(f, g, &sv), FF_OK);
		bytes[g] = ff_fields_bytes(f);
		/* a solver of its own is its field and a workspace */
		ck_assert_uint_eq(ff_solver_bytes(sv) + wbytes, ff_solver_bytes_for(50, 30));
	}
	ck_assert_uint_eq(bytes[1] - bytes[0], wbytes + ff_solver_bytes(ff_fields_peek(f, 1)) +
			  sizeof(ff_shape));
	for (int g = 2; g <= 3; g++)
		ck_assert_uint_eq(bytes[g] - bytes[g - 1],
				  ff_solver_bytes(ff_fields_peek(f, g)) + sizeof(ff_shape));
	for (int e = 0; e < 4; e++) {
		int x = 5 + 9 * e, y = 3 + 6 * e;
		ff_level_rect(s->level, x, y, 3, 2, e % 2 ? 1 : FF_WALL, NULL);
		ff_fields_cells_changed(f, x, y, x + 2, y + 1);
		for (int g = 1; g <= 3; g++) {
			ff_shape goals[FF_GOALS_MAX];
			int n = ff_level_group_goals(s->level, g, goals);
			ff_solver *own = ff_solver_create(50, 30);
			const ff_solver *sv = ff_fields_peek(f, g);
			ck_assert_int_eq(ff_solver_solve(own, s->level, goals, n, &o), FF_OK);
			for (int cy = 0; cy < 30; cy++)
				for (int cx = 0; cx < 50; cx++) {
					double a = ff_solver_value(sv, cx, cy), b = ff_solver_value(own, cx, cy);
					ck_assert_msg(!memcmp(&a, &b, sizeof a), "group %d (%d,%d)", g, cx, cy);
					ck_assert_int_eq(ff_solver_dir(sv, cx, cy), ff_solver_dir(own, cx, cy));
				}
			ff_solver_destroy(own);
		}
	}
	ff_fields_destroy(f);
	ts_stop(s);
}
END_TEST

static Suite *groups_suite(void)
{
	Suite *su = suite_create("groups");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, an_order_turns_its_group_and_no_other);
	tcase_add_test(tc, each_group_follows_its_own_field);
	tcase_add_test(tc, groups_read_and_write_back);
	tcase_add_loop_test(tc, bad_group_commands, 0, (int)(sizeof bad_cmds / sizeof bad_cmds[0]));
	tcase_add_test(tc, a_group_without_goals_spawns_nobody);
	tcase_add_test(tc, sixteen_groups_are_too_many);
	tcase_add_test(tc, group_fields_share_one_queue);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return tu_run(groups_suite());
}
