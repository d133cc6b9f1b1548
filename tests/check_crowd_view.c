/*
 * check_crowd_view.c - the crowd in the editor, read from a controller
 * driven with no terminal: the density layer (the crowd's own density,
 * worked by hand), agents coloured by their speed, the groups' letters
 * and colours, the group selector and the order key (recorded like every
 * edit), the group layer (against a solve of the group's goals alone),
 * counting lines drawn where they run and counted as the crowd ticks, the
 * status line at 80 columns, and Tab over the groups and layers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/glyph.h"
#include "testtui.h"
#include "tui/view.h"

/* Runs LINE as the prompt would; it must succeed. */
static void run(const char *line)
{
	ff_ctl_run(&ctl, line);
	ck_assert_msg(!ctl.msg_error, "%s: %s", line, ctl.msg);
}

static ff_cell_look look_at(int x, int y)
{
	ff_cell_look look;

	ff_view_cell(&ctl, x, y, &look);
	return look;
}

static const char *status(void)
{
	static char buf[512];

	ff_view_status(&ctl, buf, sizeof buf);
	return buf;
}

/* With 0.5 m cells and a density window of 3 x 3 cells, one agent in the
 * corner cell (0,0) is 1 agent in 4 cells, 1 m^2, for that cell (step 1),
 * 1 in 6 cells for (1,0) (0.67 /m^2, step 0), nobody for (2,0).  In
 * monochrome the steps are digits over everything; in colour heat
 * backgrounds instead of the cost colours (the swamp at (2,0) loses its
 * tier).  The status line reads the density at the cursor. */
START_TEST(density_layer_is_the_crowd_s_density)
{
	ff_cell_look look;

	start(24, 20, 80, 24);
	ctl.view.utf8 = false;
	run("layer arrows off");
	run("paint 2,0 swamp");
	run("goal add cell 23,19");
	run("solve");
	run("sim add 0,0 1 0");
	run("tick 1");
	ctl.view.mono = true;
	run("layer density");
	ck_assert_ptr_nonnull(strstr(ctl.msg, "digit"));
	look = look_at(0, 0);
	ck_assert_str_eq(look.text, "1");
	ck_assert_int_eq(look.kind, FF_LOOK_DENSITY);
	ck_assert_str_eq(look_at(1, 0).text, "0");
	ck_assert_str_eq(look_at(1, 1).text, "0");
	look = look_at(2, 0);
	ck_assert_str_eq(look.text, "s");
	ck_assert_int_ne(look.kind, FF_LOOK_DENSITY);
	run("goto 0,0");
	ck_assert_msg(strstr(status(), "1.00/m^2"), "%s", status());
	run("goto 1,0");
	ck_assert_msg(strstr(status(), "0.67/m^2"), "%s", status());
	ctl.view.mono = false;
	ck_assert_int_eq(look_at(0, 0).tier, FF_TIER_HEAT + 1);
	ck_assert_int_eq(look_at(1, 0).tier, FF_TIER_HEAT + 0);
	ck_assert_int_eq(look_at(2, 0).tier, FF_TIER_NONE);
	ck_assert_int_eq(look_at(0, 0).kind, FF_LOOK_AGENT);   /* the agent over its heat */
	run("layer density off");
	ck_assert_int_eq(look_at(2, 0).tier, ff_view_tier(5));
	ck_assert_int_eq(look_at(0, 0).tier, ff_view_tier(1));
	ck_assert(!strstr(status(), "/m^2"));
	/* the steps: whole agents per m^2, nine and more the last */
	ck_assert_int_eq(ff_view_density_step(0), -1);
	ck_assert_int_eq(ff_view_density_step(0.01), 0);
	ck_assert_int_eq(ff_view_density_step(4.99), 4);
	ck_assert_int_eq(ff_view_density_step(9), 9);
	ck_assert_int_eq(ff_view_density_step(40), 9);
	stop();
}
END_TEST

/* A standing agent is red (speed step 0); a lone agent on open ground
 * walks at its free speed, green (step 4), and the status line gives its
 * speed in percent of the free speed.  Without the layer it has its
 * group's colour. */
START_TEST(speed_layer_colours_agents_by_their_speed)
{
	short fg0, fg4, bg;
	int pct;

	start(40, 5, 80, 24);
	run("goal add rect 39,0 1,5");
	run("solve");
	run("sim add 2,2 1 0");
	ck_assert_int_eq(look_at(2, 2).hue, FF_HUE_NONE);
	run("layer speed");
	ck_assert_int_eq(look_at(2, 2).kind, FF_LOOK_AGENT);
	ck_assert_int_eq(look_at(2, 2).hue, FF_HUE_SPEED + 0);
	run("tick 40");
	for (int x = 0; x < 40; x++)
		if (ff_ctl_agents_at(&ctl, x, 2)) {
			char line[32];

			ck_assert_int_eq(look_at(x, 2).hue, FF_HUE_SPEED + 4);
			snprintf(line, sizeof line, "goto %d,2", x);
			run(line);
		}
	ck_assert_ptr_nonnull(strstr(status(), "speed "));
	ck_assert_int_eq(sscanf(strstr(status(), "speed ") + 6, "%d%%", &pct), 1);
	ck_assert_int_ge(pct, 80);
	ck_assert_int_le(pct, 101);
	for (int c256 = 0; c256 < 2; c256++) {
		ff_view_colors(FF_TIER_NONE, FF_LOOK_AGENT, FF_HUE_SPEED + 0, c256, &fg0, &bg);
		ff_view_colors(FF_TIER_NONE, FF_LOOK_AGENT, FF_HUE_SPEED + 4, c256, &fg4, &bg);
		ck_assert_int_ne(fg0, fg4);
	}
	ck_assert_int_eq(ff_view_speed_step(19), 0);
	ck_assert_int_eq(ff_view_speed_step(20), 1);
	ck_assert_int_eq(ff_view_speed_step(79), 3);
	ck_assert_int_eq(ff_view_speed_step(250), 4);
	stop();
}
END_TEST

/* A named group's agents show as its letter (the first group's 'a', the
 * second's 'c': core/glyph.h), in monochrome too, each group in a colour
 * of its own; the default group's as 'o'; a cell with agents of two
 * groups shows how many, in the mixed colour. */
START_TEST(groups_show_by_letter_and_colour)
{
	ff_cell_look look;
	short fa, fc, bg;

	start(30, 10, 80, 24);
	ctl.view.utf8 = false;
	run("set radius 0.05");                  /* room for two in a cell */
	run("goal add cell 29,0 group east");
	run("goal add cell 0,9 group west");
	run("goal add cell 29,9");
	run("solve");
	run("sim add 5,2 1 0 group east");
	run("sim add 8,2 1 0 group west");
	run("sim add 11,2 1 0");
	run("sim add 14,2 1 0 group east");
	run("sim add 14,2 1 0 group west");
	for (int mono = 0; mono < 2; mono++) {
		ctl.view.mono = mono;
		look = look_at(5, 2);
		ck_assert_str_eq(look.text, "a");
		ck_assert_int_eq(look.hue, 1);
		look = look_at(8, 2);
		ck_assert_str_eq(look.text, "c");
		ck_assert_int_eq(look.hue, 2);
		look = look_at(11, 2);
		ck_assert_str_eq(look.text, "o");
		ck_assert_int_eq(look.hue, FF_HUE_NONE);
		look = look_at(14, 2);
		ck_assert_str_eq(look.text, "2");
		ck_assert_int_eq(look.hue, FF_HUE_MIXED);
	}
	for (int c256 = 0; c256 < 2; c256++) {
		ff_view_colors(FF_TIER_NONE, FF_LOOK_AGENT, 1, c256, &fa, &bg);
		ff_view_colors(FF_TIER_NONE, FF_LOOK_AGENT, 2, c256, &fc, &bg);
		ck_assert_int_ne(fa, fc);
	}
	stop();
}
END_TEST

/* Two groups, no goal of the default's: the editor starts on the group
 * whose field it shows.  Tab and ':group' select; 'O' orders the selected
 * group to the cursor through the level command, so the other group keeps
 * its goal, undo takes the order back and a recording holds it; from the
 * mark 'O' orders to the rectangle. */
START_TEST(group_selector_and_order_key)
{
	ff_shape goals[FF_GOALS_MAX];

	ff_ctl_hooks hooks = {&io, fake_save, fake_write, NULL, fake_picture, fake_reload,
			      fake_list};

	start(30, 10, 120, 30);
	run("goal add cell 29,5 group east");
	run("goal add cell 0,5 group west");
	ff_ctl_fini(&ctl);                       /* as opened on this level */
	ff_ctl_init(&ctl, &sess, &hooks, 120, 30);
	ck_assert_msg(strstr(status(), "| group east |"), "%s", status());
	type("\t");
	ck_assert_msg(strstr(status(), "| group west |"), "%s", status());
	type("\t");
	ck_assert_msg(strstr(status(), "| group default |"), "%s", status());
	ff_ctl_run(&ctl, "group north");
	ck_assert(ctl.msg_error);
	ck_assert_ptr_nonnull(strstr(ctl.msg, "no group 'north'"));
	run("group east");
	run("record r.replay");
	run("goto 7,3");
	type("O");
	ck_assert_str_eq(ctl.msg, "group east heads for cell 7,3");
	ck_assert_int_eq(ff_level_group_goals(sess.level, 1, goals), 1);
	ck_assert(goals[0].kind == FF_SHAPE_CELL && goals[0].x == 7 && goals[0].y == 3);
	ck_assert_int_eq(ff_level_group_goals(sess.level, 2, goals), 1);
	ck_assert(goals[0].x == 0 && goals[0].y == 5);
	type("\t");
	run("record stop");
	ck_assert_ptr_nonnull(strstr(io.written, "\norder east cell 7,3\nexpect hash "));
	ck_assert_ptr_nonnull(strstr(io.written, "\nview group next\n"));
	type("u");
	ck_assert_int_eq(ff_level_group_goals(sess.level, 1, goals), 1);
	ck_assert(goals[0].x == 29 && goals[0].y == 5);
	/* from the mark: the rectangle, and the mark goes */
	run("goto 2,2");
	type("v");
	run("goto 4,5");
	type("O");
	ck_assert_int_eq(ctl.mode, FF_MODE_NORMAL);
	ck_assert_int_eq(ff_level_group_goals(sess.level, 2, goals), 1);
	ck_assert(goals[0].kind == FF_SHAPE_RECT && goals[0].x == 2 && goals[0].y == 2 &&
		  goals[0].w == 3 && goals[0].h == 4);
	/* the default group is ordered by its name */
	run("group default");
	type("O");
	ck_assert_int_eq(ff_level_group_goals(sess.level, 0, goals), 1);
	ck_assert(goals[0].x == 4 && goals[0].y == 5);
	stop();
}
END_TEST

/* The arrows of a solve of GOAL alone on the level, against the cells as
 * the editor draws them. */
static void assert_arrows_of(const ff_shape *goal)
{
	const ff_level *l = sess.level;
	ff_solver *ref = ff_solver_create(l->w, l->h);
	ff_cell_look look;

	ck_assert_ptr_nonnull(ref);
	ck_assert_int_eq(ff_solver_begin(ref, l, goal, 1, &sess.opts), FF_OK);
	ff_solver_step(ref, FF_STEP_ALL, 1);
	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++) {
			int d = ff_solver_dir(ref, x, y);

			if (d == FF_DIR_NONE || ff_level_wall(l, x, y))
				continue;
			ff_view_cell(&ctl, x, y, &look);
			ck_assert_msg(!strcmp(look.text, ff_glyph_arrow(d, false)),
				      "%d,%d: drawn %s, its group's arrow %s", x, y, look.text,
				      ff_glyph_arrow(d, false));
		}
	ff_solver_destroy(ref);
}

/* The group layer draws the selected group's field as its agents follow
 * it: the arrows of a solve of that group's goals alone, through an edit
 * of the walls and an order; without it, the solved field's. */
START_TEST(group_layer_shows_the_group_s_own_field)
{
	const ff_shape east = {FF_SHAPE_CELL, 29, 5, 0, 0, 0}, west = {FF_SHAPE_CELL, 0, 5, 0, 0, 0},
		       ordered = {FF_SHAPE_CELL, 15, 9, 0, 0, 0};

	start(30, 10, 120, 30);
	ctl.view.utf8 = false;
	ctl.view.layers = FF_LAYER_ARROWS;
	run("goal add cell 29,5 group east");
	run("goal add cell 0,5 group west");
	run("group west");
	ff_ctl_run(&ctl, "layer group on");      /* no field yet: says so */
	ck_assert(ctl.msg_error);
	ck_assert_ptr_nonnull(strstr(ctl.msg, "solved"));
	run("solve");
	assert_arrows_of(&west);
	run("rect 10,0 1,8 wall");
	assert_arrows_of(&west);
	run("layer group off");
	assert_arrows_of(&east);                 /* the field the session solved */
	run("layer group on");
	run("order west cell 15,9");
	assert_arrows_of(&ordered);
	ff_ctl_run(&ctl, "group default");       /* no goals: says so */
	ck_assert(ctl.msg_error);
	ck_assert_ptr_nonnull(strstr(ctl.msg, "has no goals"));
	stop();
}
END_TEST

/* A line between cell corners is drawn over the cells it runs through
 * (on a border, the cells right of or below it), '|' '-' '\' '/' by its
 * slant, under a goal; as the crowd ticks, and once it is paused, the
 * message line says what each counted: ten agents walking through a gate
 * cross it ten times (minus ten times, drawn the other way). */
START_TEST(counting_lines_are_drawn_and_counted)
{
	char msg[512];
	ff_sim_line ln;

	start(20, 6, 120, 30);
	ctl.view.utf8 = false;
	run("goal add rect 19,0 1,6");
	run("solve");
	run("sim line 5,0 5,4");
	run("sim line 0,5 4,5");
	run("sim line 8,0 11,3");
	run("sim line 14,3 17,0");
	for (int y = 0; y < 4; y++) {
		ck_assert_str_eq(look_at(5, y).text, "|");
		ck_assert_int_eq(look_at(5, y).kind, FF_LOOK_LINE);
		ck_assert_int_ne(look_at(4, y).kind, FF_LOOK_LINE);
	}
	ck_assert_int_ne(look_at(5, 4).kind, FF_LOOK_LINE);
	for (int x = 0; x < 4; x++)
		ck_assert_str_eq(look_at(x, 5).text, "-");
	ck_assert_int_ne(look_at(4, 5).kind, FF_LOOK_LINE);
	for (int k = 0; k < 3; k++) {
		ck_assert_str_eq(look_at(8 + k, k).text, "\\");
		ck_assert_str_eq(look_at(16 - k, k).text, "/");
	}
	ck_assert_int_ne(look_at(11, 3).kind, FF_LOOK_LINE);
	ck_assert_int_ne(look_at(9, 0).kind, FF_LOOK_LINE);
	ck_assert_int_ne(look_at(17, 0).kind, FF_LOOK_LINE);
	/* a goal on a line stays a goal */
	run("sim line 19,0 19,6");
	ck_assert_int_eq(look_at(19, 2).kind, FF_LOOK_GOAL);
	ck_assert_int_eq(look_at(18, 2).kind, FF_LOOK_ARROW);
	run("layer lines off");
	ck_assert_int_ne(look_at(5, 0).kind, FF_LOOK_LINE);
	run("layer lines on");
	/* counted live */
	run("sim line clear");
	run("sim line 10,0 10,6");
	run("sim line 10,6 10,0");               /* the same, drawn the other way */
	run("sim add 2,3 10 2");
	ck_assert_int_eq(ff_sim_count(sess.sim), 10);
	ctl.msg[0] = '\0';
	ff_view_message(&ctl, msg, sizeof msg);
	ck_assert_str_eq(msg, "line 1: 0 across; line 2: 0 across");
	run("tick 600");
	ctl.msg[0] = '\0';
	ff_view_message(&ctl, msg, sizeof msg);
	ck_assert_msg(!strncmp(msg, "line 1: 10 across, ", 19), "%s", msg);
	ff_sim_line_get(sess.sim, 0, &ln);
	ck_assert_double_gt(ln.flow, 0);
	ck_assert_double_eq_tol(strtod(msg + 19, NULL), ln.flow / sess.level->meta.params[FF_P_DT],
				0.006);
	/* the net count as 'sim --line' gives it: negative the other way,
	 * the same flow */
	ck_assert_msg(strstr(msg, "; line 2: -10 across, "), "%s", msg);
	ck_assert_double_eq_tol(strtod(strstr(msg, "; line 2: ") + 22, NULL),
				strtod(msg + 19, NULL), 1e-9);
	/* paused, the status line says so and the counts stay in view */
	type("m");
	type(" ");
	type(" ");
	ck_assert_int_eq(ctl.sim.running, false);
	ff_view_message(&ctl, msg, sizeof msg);
	ck_assert_msg(!strncmp(msg, "line 1: 10 across, ", 19), "%s", msg);
	type("m");
	type("q");                               /* a message goes first */
	ff_view_message(&ctl, msg, sizeof msg);
	ck_assert_ptr_null(strstr(msg, "line 1"));
	stop();
}
END_TEST

/* At 80 x 24 in simulation mode the crowd's tick stays beside the mode,
 * the cursor and its value (a finished field's phase goes first; it used
 * to push the tick out), and on a level with groups the selected group
 * with its count too.  While editing, the group O orders stays when the
 * pen and the level's name go (it went with the pen). */
START_TEST(status_at_80_columns_keeps_the_crowd)
{
	const char *st;

	start(48, 24, 80, 24);
	run("goal add rect 44,8 3,8 group flyers");
	run("goal add rect 1,8 3,8 group boats");
	run("solve");
	run("group flyers");
	run("goto 24,12");
	st = status();
	ck_assert_msg(columns(st) <= 80, "%zu: %s", columns(st), st);
	ck_assert_msg(strstr(st, " EDIT | 24,12 grass 1  int ") && strstr(st, "| group flyers |"),
		      "%s", st);
	ck_assert_msg(!strstr(st, "| pen "), "%s", st);
	stop();

	start(48, 24, 80, 24);
	run("goal add rect 44,8 3,8");
	type("m");
	run("sim add 5,12 10 2");
	run("tick 1500");
	run("goto 24,12");
	st = status();
	ck_assert_msg(columns(st) <= 80, "%zu: %s", columns(st), st);
	ck_assert_msg(strstr(st, " SIM paused x1 | 24,12") && strstr(st, " int ") &&
		      strstr(st, "| tick 1500 alive 0 arrived 10"), "%s", st);
	stop();
	start(48, 24, 80, 24);
	run("goal add rect 44,8 3,8 group east");
	run("goal add rect 1,8 3,8 group west");
	type("m");
	run("sim add 5,12 10 2 group east");
	run("sim add 42,12 12 2 group west");
	run("group east");
	run("tick 2000");
	run("goto 24,12");
	st = status();
	ck_assert_msg(columns(st) <= 80, "%zu: %s", columns(st), st);
	ck_assert_msg(strstr(st, "| tick 2000 arrived 22") && strstr(st, "| group east 0"), "%s",
		      st);
	ff_ctl_resize(&ctl, 140, 24);
	st = status();
	ck_assert_msg(strstr(st, "| group east 0 default 0 west 0"), "%s", st);
	stop();
}
END_TEST

/* Tab completes the groups' names and every layer (past the eighth
 * alternative of a word, which it used to drop). */
START_TEST(tab_completes_groups_and_layers)
{
	start(30, 10, 80, 24);
	run("goal add cell 29,5 group east");
	run("goal add cell 0,5 group west");
	ck_assert_str_eq(tab("layer dy"), "layer dyn ");
	ck_assert_str_eq(tab("layer li"), "layer lines ");
	ck_assert_str_eq(tab("layer de"), "layer density ");
	ck_assert_str_eq(tab("group w"), "group west ");
	ck_assert_str_eq(tab("order e"), "order east ");
	stop();
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("crowd view");
	TCase *tc = tcase_create("crowd");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, density_layer_is_the_crowd_s_density);
	tcase_add_test(tc, speed_layer_colours_agents_by_their_speed);
	tcase_add_test(tc, groups_show_by_letter_and_colour);
	tcase_add_test(tc, group_selector_and_order_key);
	tcase_add_test(tc, group_layer_shows_the_group_s_own_field);
	tcase_add_test(tc, counting_lines_are_drawn_and_counted);
	tcase_add_test(tc, status_at_80_columns_keeps_the_crowd);
	tcase_add_test(tc, tab_completes_groups_and_layers);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
