/*
 * check_view.c - what the editor shows, read from a controller driven with
 * no terminal: the help generated from the keymap and the command tables,
 * numbers, arrows and marks in their cells (one definition of a cell's
 * arrow for the editor, the command line and the simulation), the terrain
 * under every mark, the cursor, the split view's panes and labels, the
 * status line at 80 columns, and the export.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/glyph.h"
#include "core/level_gen.h"
/* the simulation's per-cell copy of the flow (one_arrow_for_editor_cli_and_sim) */
#include "testtui.h"
#include "tui/ctl_int.h"
#include "tui/view.h"


/* The help: every binding with its text and command, one section per
 * topic (each title once), the lesson's keys first, nothing past the
 * screen's edge at 80 columns, and '/' finds a word.  (It used to repeat
 * "Editing" three times, list the layer keys last and cut the command
 * column at 80.) */
START_TEST(help_is_generated_from_the_keymap)
{
	const ff_binding *b;
	char *text, *line[1024], *p, *nl;
	int n = 0, lesson = -1, moving = -1, top;

	start(20, 10, 80, 24);
	type("?");
	ck_assert_int_eq(ctl.mode, FF_MODE_HELP);
	text = ff_view_help(&ctl, &n);
	ck_assert_int_eq(n, ff_view_help_lines(&ctl));
	ck_assert_int_gt(n, 40);
	n = 0;
	for (p = text; n < 1024 && (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = '\0';
		line[n++] = p;
	}
	for (int i = 0; (b = ff_keymap_at(i)); i++) {
		bool found = false;

		/* the command, when it does not fit, goes on the next line */
		for (int j = 0; j + 1 < n && !found; j++)
			found = strstr(line[j], b->help) && (strstr(line[j], b->run) ||
							      strstr(line[j + 1], b->run));
		ck_assert_msg(found, "binding '%s' missing from the help", b->run);
	}
	for (int t = 0; t < FF_TOPIC__COUNT; t++) {
		int seen = 0;

		for (int j = 0; j < n; j++)
			if (!strcmp(line[j], ff_topic_name((ff_topic)t))) {
				seen++;
				if (t == FF_TOPIC_LESSON)
					lesson = j;
				if (t == FF_TOPIC_MOVE)
					moving = j;
			}
		ck_assert_msg(seen == 1, "'%s' %d times", ff_topic_name((ff_topic)t), seen);
	}
	ck_assert_int_lt(lesson, moving);
	ck_assert_int_lt(lesson, 4);
	for (int j = 0; j < n; j++)
		ck_assert_msg(strlen(line[j]) <= 80, "line %d is %zu long: %s", j,
			      strlen(line[j]), line[j]);
	type("jj");
	ck_assert_int_eq(ctl.help.top, 2);
	/* '/' finds, 'n' finds again */
	type("/came-from\n");
	ck_assert_int_eq(ctl.mode, FF_MODE_HELP);
	ck_assert_msg(strstr(line[ctl.help.top], "came-from"), "%s", line[ctl.help.top]);
	top = ctl.help.top;
	type("n");
	ck_assert_int_gt(ctl.help.top, top);
	type("/no such words\n");
	ck_assert(ctl.msg_error);
	type("q");
	ck_assert_int_eq(ctl.mode, FF_MODE_NORMAL);
	ck_assert(!ctl.quit);
	free(text);
	stop();
}
END_TEST

/* The help gives every command's whole usage, however long: with its
 * blanks and line breaks taken out, "NAME ARGS" of each level and editor
 * command is there.  (The usage went through a 128-byte buffer, which cut
 * 'sim' after "separation on|off | sp": '/speed-density' found nothing;
 * and layer's names, with no blank to break at, were cut mid-word.) */
static char *squeeze(const char *text)
{
	char *out = malloc(strlen(text) + 1), *o = out;

	ck_assert_ptr_nonnull(out);
	for (; *text; text++)
		if (*text != ' ' && *text != '\n')
			*o++ = *text;
	*o = '\0';
	return out;
}

START_TEST(help_gives_every_usage_whole)
{
	const ff_cmd_info *ci;
	const ff_ui_cmd *u;
	char *text, *all, *want, usage[512];
	int n;

	start(20, 10, 80, 24);
	text = ff_view_help(&ctl, &n);
	all = squeeze(text);
	for (int i = 0; (ci = ff_cmd_info_at(i)); i++) {
		snprintf(usage, sizeof usage, "%s %s", ci->name, ci->args);
		want = squeeze(usage);
		ck_assert_msg(strstr(all, want), "the help lacks '%s'", usage);
		free(want);
	}
	for (int i = 0; (u = ff_ui_cmd_at(i)); i++) {
		if (u->flags & FF_UI_CMD_INTERNAL)
			continue;
		want = squeeze(u->args);
		ck_assert_msg(strstr(all, want), "the help lacks '%s %s'", u->name, u->args);
		free(want);
	}
	/* no word is cut in two: layer's names break after a '|' */
	want = strstr(text, "layer costs|");
	ck_assert_ptr_nonnull(want);
	want = strchr(want, '\n');
	ck_assert_msg(want[-1] == '|', "layer's names broken inside a word: ...%.10s", want - 10);
	type("?/speed-density\n");
	ck_assert_msg(!ctl.msg_error, "'/speed-density' found nothing");
	free(all);
	free(text);
	stop();
}
END_TEST

/* Whole numbers at zoom 1 keep every value to 9999 its own: along a
 * corridor, 1450 and 1549 read as such (they both read "1k5" once), and
 * 999.85 rounds to 1000. */
START_TEST(numbers_stay_distinguishable)
{
	ff_cell_look look;

	start(1600, 1, 80, 24);
	ok(&sess, "goal add cell 0,0");
	ok(&sess, "solve dijkstra 8");
	ctl.view.utf8 = false;
	type("n");                               /* numbers ... */
	ff_ctl_run(&ctl, "zoom 1");              /* ... whole */
	ff_view_cell(&ctl, 1450, 0, &look);
	ck_assert_str_eq(look.text, "<1450");
	ff_view_cell(&ctl, 1549, 0, &look);
	ck_assert_str_eq(look.text, "<1549");
	ff_view_cell(&ctl, 689, 0, &look);
	ck_assert_str_eq(look.text, "< 689");
	/* with no mark, grass shows by its colour alone: its '.' would read as
	 * a decimal point ('.2.41') */
	ff_ctl_run(&ctl, "layer arrows off");
	ff_ctl_run(&ctl, "zoom 2");
	ff_view_cell(&ctl, 2, 0, &look);
	ck_assert_str_eq(look.text, " 2.00 ");
	ff_ctl_run(&ctl, "layer numbers off");
	ff_view_cell(&ctl, 2, 0, &look);
	ck_assert_str_eq(look.text, ".   1 ");
	stop();
	start(710, 710, 80, 24);
	ok(&sess, "goal add cell 0,0");
	ok(&sess, "solve dijkstra 8");
	ctl.view.utf8 = false;
	type("n");
	ff_ctl_run(&ctl, "zoom 1");
	ff_view_cell(&ctl, 707, 707, &look);     /* 707 diagonal steps: 999.85 */
	ck_assert_str_eq(look.text, "q1000");
	ff_view_cell(&ctl, 706, 706, &look);     /* 998.44 */
	ck_assert_str_eq(look.text, "q 998");
	stop();
}
END_TEST

START_TEST(field_layers_show_values_and_arrows)
{
	ff_cell_look look;
	char status[512];

	start(12, 3, 80, 24);
	ok(&sess, "goal add cell 0,1");
	ok(&sess, "solve dijkstra 8");
	ctl.view.utf8 = false;
	ff_view_cell(&ctl, 5, 1, &look);
	ck_assert_str_eq(look.text, "<");        /* towards the goal */
	ff_view_cell(&ctl, 0, 1, &look);
	ck_assert_str_eq(look.text, "*");
	type("n");                               /* numbers: wide cells */
	ck_assert_int_eq(ctl.view.zoom, 2);
	ff_view_cell(&ctl, 5, 1, &look);
	ck_assert_str_eq(look.text, "<5.00 ");
	ff_view_cell(&ctl, 3, 0, &look);
	ck_assert_str_eq(look.text, "d3.41 ");     /* cheapest step: SW to 2,1 */
	ff_ctl_run(&ctl, "goto 3,0");
	ff_view_status(&ctl, status, sizeof status);
	ck_assert_msg(strstr(status, "int 3.41"), "%s", status);
	/* a wall edit repairs the field: the arrows go round */
	ok(&sess, "rect 2,0 1,2 wall");
	ff_view_cell(&ctl, 3, 0, &look);
	ck_assert_msg(!strcmp(look.text, "v5.41 "), "'%s'", look.text);
	/* stepping shows the frontier */
	ok(&sess, "step begin");
	ok(&sess, "step cell 2");
	ctl.view.zoom = 0;
	{
		int frontier = 0, last = 0;

		for (int y = 0; y < 3; y++)
			for (int x = 0; x < 12; x++) {
				ff_view_cell(&ctl, x, y, &look);
				frontier += look.kind == FF_LOOK_FRONTIER && !strcmp(look.text, "+");
				last += look.kind == FF_LOOK_LAST && !strcmp(look.text, "@");
			}
		ck_assert_int_gt(frontier, 0);
		ck_assert_int_eq(last, 1);
	}
	ck_assert_int_eq(ff_solver_phase(ff_ctl_pane_solver(&ctl, 0)), FF_PHASE_INTEGRATE);
	stop();
}
END_TEST

/* --- layers and views --------------------------------------------------- */

START_TEST(came_from_layer_names_the_settling_neighbour)
{
	int x, y, fx, fy, checked = 0, d;
	ff_cell_look look;

	teach_level();
	ok(&sess, "step begin");
	ok(&sess, "step phase");
	while (ff_solver_phase(sess.solver) == FF_PHASE_INTEGRATE) {
		double v, nv;

		ok(&sess, "step cell");
		if (!ff_solver_last(sess.solver, &x, &y, &fx, &fy) || (fx == x && fy == y))
			continue;
		/* the neighbour whose relaxation gave the value, settled before */
		d = ff_view_came_from(sess.solver, x, y);
		ck_assert_msg(d >= 0, "%d,%d has no came-from", x, y);
		/* the step message names the same neighbour */
		ck_assert(fx == x + ff_dir_dx[d] && fy == y + ff_dir_dy[d]);
		v = ff_solver_value(sess.solver, x, y);
		nv = ff_solver_value(sess.solver, x + ff_dir_dx[d], y + ff_dir_dy[d]);
		ck_assert(nv < v);
		ck_assert(fabs(nv + (d >= 4 ? sqrt(2) : 1) * ff_level_cost(sess.level, x, y) - v) <
			  1e-9);
		checked++;
	}
	ck_assert_int_gt(checked, 60);
	ok(&sess, "step all");
	/* swamp 9,4 = 6: 1 (at 10,4) + 5, not 0 (the goal) + 5 sqrt 2; its flow
	 * arrow, the cheapest step, points there too; the seeds' lowest
	 * neighbour rule points at the goal */
	ck_assert_int_eq(ff_view_came_from(sess.solver, 9, 4), FF_DIR_E);
	ck_assert_int_eq(ff_solver_dir(sess.solver, 9, 4), FF_DIR_E);
	ok(&sess, "solve lowest");
	ck_assert_int_eq(ff_view_came_from(sess.solver, 9, 4), FF_DIR_E);
	ck_assert_int_eq(ff_solver_dir(sess.solver, 9, 4), FF_DIR_NE);
	/* the layer draws it, in a look of its own (came-from arrows looked
	 * exactly like flow arrows: same glyphs, same colour) */
	ctl.view.utf8 = false;
	ff_view_cell(&ctl, 9, 4, &look);
	ck_assert_int_eq(look.kind, FF_LOOK_ARROW);
	type("C");
	ff_view_cell(&ctl, 9, 4, &look);
	ck_assert_str_eq(look.text, ">");
	ck_assert_int_eq(look.kind, FF_LOOK_FROM);
	ff_view_cell(&ctl, 11, 3, &look);
	ck_assert_str_eq(look.text, "<");
	ff_view_cell(&ctl, 10, 3, &look);
	ck_assert_str_eq(look.text, "*");
	ctl.view.utf8 = true;
	ff_view_cell(&ctl, 9, 4, &look);
	ck_assert_str_eq(look.text, "⇒");
	for (int c256 = 0; c256 < 2; c256++) {
		short ffg, fbg, afg, abg;

		ff_view_colors(look.tier, FF_LOOK_FROM, 0, c256, &ffg, &fbg);
		ff_view_colors(look.tier, FF_LOOK_ARROW, 0, c256, &afg, &abg);
		ck_assert_int_ne(ffg, afg);
		ck_assert_int_eq(fbg, abg);
	}
	ck_assert(ff_view_attrs(look.tier, FF_LOOK_FROM, false, false, false) !=
		  ff_view_attrs(look.tier, FF_LOOK_ARROW, false, false, false));
	type("C");
	ff_view_cell(&ctl, 9, 4, &look);
	ck_assert_str_eq(look.text, "↗");        /* the lowest neighbour's arrow again */
	stop();
}
END_TEST

START_TEST(unreachable_cells_and_monochrome_marks)
{
	ff_cell_look look;

	start(10, 5, 80, 24);
	ok(&sess, "rect 5,0 1,5 wall");
	ok(&sess, "goal add cell 8,2");
	ok(&sess, "spawn add rect 6,0 1,1 3");
	ok(&sess, "solve");
	ctl.view.utf8 = false;
	ff_view_cell(&ctl, 2, 2, &look);
	ck_assert_str_eq(look.text, "x");
	ck_assert_int_eq(look.kind, FF_LOOK_UNREACH);
	type("X");                               /* the layer off: terrain again */
	ff_view_cell(&ctl, 2, 2, &look);
	ck_assert_str_eq(look.text, ".");
	/* spawns keep their look under an arrow; monochrome marks them */
	ff_view_cell(&ctl, 6, 0, &look);
	ck_assert_int_eq(look.kind, FF_LOOK_SPAWN);
	ck_assert(ff_view_attrs(look.tier, look.kind, false, false, false) & FF_ATTR_DIM);
	ck_assert(ff_view_attrs(look.tier, FF_LOOK_GOAL, false, false, false) & FF_ATTR_BOLD);
	stop();
}
END_TEST

/* The dynamic layer shown: a temporary wall as its glyph on the wall's
 * colours (reversed in monochrome, like a wall, and told from one by the
 * glyph), an offset in the cost colour and number of the cost with it; the
 * status line reads the layer and the effective cost; D hides the layer. */
START_TEST(dynamic_layer_shows)
{
	ff_cell_look look;
	char st[512];

	start(30, 12, 80, 24);
	ctl.view.utf8 = false;
	ok(&sess, "dyn cell 5,5 wall");
	ok(&sess, "dyn cell 10,5 +8");
	ff_view_cell(&ctl, 5, 5, &look);
	ck_assert_str_eq(look.text, ff_glyph(FF_GLYPH_DYN_WALL, false));
	ck_assert_int_eq(look.kind, FF_LOOK_DYN);
	ck_assert_int_eq(look.tier, FF_TIER_WALL);
	ck_assert(ff_view_attrs(look.tier, look.kind, false, false, false) & FF_ATTR_REVERSE);
	ff_view_cell(&ctl, 10, 5, &look);
	ck_assert_str_eq(look.text, ".");
	ck_assert_int_eq(look.tier, ff_view_tier(9));       /* 1 + 8 */
	ck_assert(ff_view_attrs(look.tier, look.kind, false, false, false) & FF_ATTR_UNDERLINE);
	type("+");
	ff_view_cell(&ctl, 10, 5, &look);
	ck_assert_str_eq(look.text, ".   9");
	ff_view_cell(&ctl, 5, 5, &look);
	ck_assert_str_eq(look.text, "%%%%%");
	type("-");
	ff_ctl_run(&ctl, "goto 10,5");
	ff_view_status(&ctl, st, sizeof st);
	ck_assert_msg(strstr(st, "10,5 grass 1 [+8] =9"), "%s", st);
	ok(&sess, "set wall_penalty 8");
	ff_ctl_run(&ctl, "goto 4,5");
	ff_view_status(&ctl, st, sizeof st);
	ck_assert_msg(strstr(st, "4,5 grass 1 =9"), "%s", st);
	ff_ctl_run(&ctl, "goto 5,5");
	ff_view_status(&ctl, st, sizeof st);
	ck_assert_msg(strstr(st, "5,5 grass 1 [wall] =wall"), "%s", st);
	type("D");
	ff_view_cell(&ctl, 5, 5, &look);
	ck_assert_str_eq(look.text, ".");
	ff_view_cell(&ctl, 10, 5, &look);
	ck_assert_int_eq(look.tier, ff_view_tier(1));
	stop();
}
END_TEST

/* The sight layer: after 'solve los' on open ground a cell that sees the
 * goal shows, in the sight look, the arrow of the eight nearest the
 * straight line (worked by hand: from 6,2 to 0,0 is 18 degrees off the
 * row, W; from 2,2 NW); without the layer, or without 'los', plain
 * arrows (the grid's NW at 6,2: the staircase).  The sectors layer: a
 * hier solve's portals as their glyph, where ff_solver_portal() says and
 * at the ends of the window between the two sectors of 8 (worked by
 * hand), a sector's first row and column in their own look. */
START_TEST(sight_and_sectors_layers)
{
	const ff_solver *sv;
	ff_cell_look look;
	long portals = 0;

	start(16, 8, 80, 24);
	ctl.view.utf8 = false;
	ok(&sess, "goal add cell 0,0");
	ok(&sess, "solve dijkstra los");
	ff_ctl_run(&ctl, "layer sight on");
	ff_view_cell(&ctl, 6, 2, &look);
	ck_assert_str_eq(look.text, "<");
	ck_assert_int_eq(look.kind, FF_LOOK_SIGHT);
	ff_view_cell(&ctl, 2, 2, &look);
	ck_assert_str_eq(look.text, "q");
	ck_assert_int_eq(look.kind, FF_LOOK_SIGHT);
	ff_ctl_run(&ctl, "layer sight off");
	ff_view_cell(&ctl, 6, 2, &look);
	ck_assert_int_eq(look.kind, FF_LOOK_ARROW);
	ff_ctl_run(&ctl, "layer sight on");
	ok(&sess, "solve nolos");
	ff_view_cell(&ctl, 6, 2, &look);
	ck_assert_str_eq(look.text, "q");
	ck_assert_int_eq(look.kind, FF_LOOK_ARROW);

	ok(&sess, "solve hier sector8");
	ff_ctl_run(&ctl, "layer sectors on");
	sv = ff_ctl_pane_solver(&ctl, 0);
	for (int y = 0; y < 8; y++)
		for (int x = 0; x < 16; x++) {
			double g;
			bool p = ff_solver_portal(sv, x, y, &g);
			ff_view_cell(&ctl, x, y, &look);
			if (x == 0 && y == 0)
				continue;
			ck_assert_msg((look.kind == FF_LOOK_PORTAL) == p, "%d,%d: kind %d", x, y,
				      look.kind);
			portals += p;
		}
	ck_assert_int_ge(portals, 4);
	ff_view_cell(&ctl, 7, 0, &look);
	ck_assert_str_eq(look.text, ff_glyph(FF_GLYPH_PORTAL, false));
	ff_view_cell(&ctl, 8, 7, &look);
	ck_assert_int_eq(look.kind, FF_LOOK_PORTAL);
	ff_view_cell(&ctl, 8, 3, &look);
	ck_assert_int_eq(look.kind, FF_LOOK_SECTOR);
	ff_view_cell(&ctl, 3, 3, &look);
	ck_assert_int_eq(look.kind, FF_LOOK_ARROW);
	ff_ctl_run(&ctl, "layer sectors off");
	ff_view_cell(&ctl, 7, 0, &look);
	ck_assert_int_eq(look.kind, FF_LOOK_ARROW);
	stop();
}
END_TEST

START_TEST(split_view_panes_agree_with_direct_solves)
{
	ff_solver_opts fmm4 = {FF_METHOD_FMM, 4, 1, FF_ARROW_CHEAPEST, 0, false}, dij8 = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_CHEAPEST, 0, false};
	ff_solver *ref = ff_solver_create(12, 7);
	char status[512];

	teach_level();
	type("s|");                              /* solve; split: FMM in the second pane */
	ck_assert(ctl.split.on);
	ck_assert_int_eq(ff_ctl_panes(&ctl), 2);
	ck_assert(ff_ctl_stacked(&ctl));         /* 7 rows fit twice: one above the other */
	ck_assert_int_eq(ff_ctl_pane_y(&ctl, 0), 1);
	ck_assert_int_eq(ff_ctl_pane_y(&ctl, 1), 9);
	ck_assert_int_eq(ff_ctl_pane_x(&ctl, 1), 0);
	ff_ctl_run(&ctl, "split fmm2");
	ck_assert_msg(strstr(ctl.msg, "dijkstra8, then fmm2;"), "%s", ctl.msg);
	ff_ctl_run(&ctl, "split fmm 4");
	ck_assert_msg(strstr(ctl.msg, "dijkstra8, then fmm;"), "%s", ctl.msg);
	ck_assert(ff_solver_solve(ref, sess.level, sess.level->meta.goals, 1, &fmm4) == FF_OK);
	assert_same_field(ff_ctl_pane_solver(&ctl, 1), ref, 12, 7);
	ck_assert(ff_solver_solve(ref, sess.level, sess.level->meta.goals, 1, &dij8) == FF_OK);
	assert_same_field(ff_ctl_pane_solver(&ctl, 0), ref, 12, 7);
	/* the same steps go to both panes */
	type("b}...>");
	ck_assert(ff_solver_begin(ref, sess.level, sess.level->meta.goals, 1, &fmm4) == FF_OK);
	ff_solver_step(ref, FF_STEP_PHASE, 1);
	ff_solver_step(ref, FF_STEP_CELL, 3);
	ff_solver_step(ref, FF_STEP_WAVE, 1);
	assert_same_field(ff_ctl_pane_solver(&ctl, 1), ref, 12, 7);
	ck_assert_int_eq(ff_solver_settled(ff_ctl_pane_solver(&ctl, 1)), ff_solver_settled(ref));
	ff_view_status(&ctl, status, sizeof status);
	ck_assert_msg(strstr(status, "dijkstra8 integrate | fmm integrate | step 5"), "%s",
		      status);
	/* an edit is mirrored too */
	type("A");
	ff_ctl_run(&ctl, "paint 7,3 wall");
	ck_assert(ff_solver_solve(ref, sess.level, sess.level->meta.goals, 1, &fmm4) == FF_OK);
	assert_same_field(ff_ctl_pane_solver(&ctl, 1), ref, 12, 7);
	/* the export shows both panes */
	ff_ctl_run(&ctl, "export v.txt");
	ck_assert_ptr_nonnull(strstr(io.written, "|"));
	type("|");
	ck_assert(!ctl.split.on);
	ff_solver_destroy(ref);
	stop();
}
END_TEST

START_TEST(export_ansi_has_colours)
{
	start(20, 5, 80, 24);
	ok(&sess, "goal add cell 18,2");
	ok(&sess, "spawn add rect 0,0 2,2 4");
	type("s");
	ff_ctl_run(&ctl, "export v.ans ansi");
	ck_assert_str_eq(io.target, "v.ans");
	ck_assert_ptr_nonnull(strstr(io.written, "\033[0;1;38;5;46m*"));  /* goal */
	ck_assert_ptr_nonnull(strstr(io.written, "\033[0;38;5;117m"));    /* spawn */
	ck_assert_ptr_nonnull(strstr(io.written, "\033[0m\n"));
	stop();
}
END_TEST

/* The arrow whose direction is best aligned with (FX, FY) among the
 * allowed neighbours of (X, Y) with a smaller value, first in FF_DIR_*
 * order on ties: how an arrow is read from a flow vector (docs/solver.md). */
static int arrow_of_vector(const ff_level *l, const ff_solver *sv, int x, int y, double fx,
			   double fy, int conn)
{
	double v = ff_solver_value(sv, x, y), best = -INFINITY;
	int bd = FF_DIR_NONE;

	for (int d = 0; d < conn; d++) {
		int nx = x + ff_dir_dx[d], ny = y + ff_dir_dy[d];
		double len = d >= FF_DIR_SE ? sqrt(2) : 1, dot;

		if (!ff_level_in(l, nx, ny) || ff_level_cost(l, nx, ny) == FF_WALL ||
		    (d >= FF_DIR_SE && (ff_level_cost(l, nx, y) == FF_WALL ||
					ff_level_cost(l, x, ny) == FF_WALL)) ||
		    !(ff_solver_value(sv, nx, ny) < v))
			continue;
		dot = (fx * ff_dir_dx[d] + fy * ff_dir_dy[d]) / len;
		if (dot > best + 1e-6)
			best = dot, bd = d;
	}
	return bd;
}

/* One definition of a cell's arrow: on random weighted levels, for
 * Dijkstra and Fast Marching alike, the editor draws at every cell the
 * arrow of ff_solver_dir() (which 'solve --show flow' prints), and the
 * simulation's copy of the flow (sim_level.c reads ff_solver_flow()) is
 * the same vector (Dijkstra) or within half a direction step of it (Fast
 * Marching: the crowd keeps FF_SIM_DIRS directions).  (The editor used to draw FMM
 * arrows from the octant of the flow vector instead: hundreds of cells
 * differed.) */
START_TEST(one_arrow_for_editor_cli_and_sim)
{
	static const char *const methods[] = {"solve dijkstra 8", "solve fmm", "solve fmm2",
					      "solve dijkstra 4"};
	long fmm_cells = 0;

	for (int k = 0; k < 8; k++) {
		ff_level *l = ff_gen_level(FF_GEN_WEIGHTED, 70, 44, 600u + (unsigned)k);
		const char *method = methods[k % 4];
		ff_cell_look look;
		ff_sim *sim;

		ck_assert_ptr_nonnull(l);
		ff_session_init(&sess, l);
		ff_ctl_init(&ctl, &sess, NULL, 80, 24);
		ctl.view.layers = FF_LAYER_ARROWS;          /* arrows only: nothing covers them */
		ok(&sess, method);
		ck_assert_int_eq(ff_session_sim(&sess, &sim), FF_OK);
		/* an agent, so that the crowd takes its copy of the field */
		for (int c = 0, placed = 0; !placed; c++)
			placed = ff_level_cost(l, c % l->w, c / l->w) != FF_WALL &&
				 ff_sim_spawn_at(sim, c % l->w + 0.5, c / l->w + 0.5, 1, 0, 0, NULL) ==
				 FF_OK;
		for (int y = 0; y < l->h; y++)
			for (int x = 0; x < l->w; x++) {
				int d = ff_solver_dir(sess.solver, x, y);
				float fx, fy, sx, sy;

				for (int u = 0; u < 2; u++) {
					ctl.view.utf8 = u;
					ff_view_cell(&ctl, x, y, &look);
					if (d == FF_DIR_NONE)
						ck_assert_int_eq(look.text[0], ff_glyph_terrain(l,
								 ff_level_cost(l, x, y)));
					else
						ck_assert_msg(!strcmp(look.text, ff_glyph_arrow(d, u)),
							      "%s %d,%d: drawn %s, arrow %s", method, x,
							      y, look.text, ff_glyph_arrow(d, u));
				}
				ff_solver_flow(sess.solver, x, y, &fx, &fy);
				ff_sim_flow_at(sim, 0, x, y, &sx, &sy);
				if (strstr(method, "dijkstra") || (fx == 0 && fy == 0))
					ck_assert(sx == fx && sy == fy);
				else  /* within half of 1/FF_SIM_DIRS of a turn */
					ck_assert_msg(sx * fx + sy * fy >=
						      cos(acos(-1.0) / FF_SIM_DIRS) - 1e-6 &&
						      fabs(hypot(sx, sy) - 1) < 1e-6,
						      "%s %d,%d: %g %g for %g %g", method, x, y,
						      sx, sy, fx, fy);
				if (d != FF_DIR_NONE)
					ck_assert_int_eq(arrow_of_vector(l, sess.solver, x, y, fx, fy,
									 strstr(method, " 4") ? 4 : 8), d);
				fmm_cells += strstr(method, "fmm") && d != FF_DIR_NONE;
			}
		stop();
	}
	ck_assert_int_gt(fmm_cells, 4000);
}
END_TEST

/* At 80 x 24, the documented minimum, the status line keeps the mode, the
 * cursor cell, its value, both panes' phases and the step count, and fits
 * (it was cut: "? hel", and in split view the second phase and the step
 * counter were lost). */
START_TEST(status_line_fits_80_columns)
{
	char status[512];

	teach_level();
	ff_ctl_resize(&ctl, 80, 24);
	ff_ctl_run(&ctl, "goto 6,3");
	type("|b}>>");
	ff_view_status(&ctl, status, sizeof status);
	ck_assert_msg(columns(status) <= 80, "%zu: %s", columns(status), status);
	ck_assert_msg(strstr(status, "EDIT | 6,3") &&
		      strstr(status, "dijkstra8 integrate | fmm integrate | step 3"), "%s", status);
	type("A");
	ff_view_status(&ctl, status, sizeof status);
	ck_assert_msg(columns(status) <= 80, "%zu: %s", columns(status), status);
	ck_assert_msg(strstr(status, "int 4.83 ") && strstr(status, " / 5.71 ") &&
		      strstr(status, "dijkstra8 done | fmm done | step 4"), "%s", status);
	/* one pane, room enough: everything, the help hint last */
	ff_ctl_resize(&ctl, 120, 30);
	type("|");
	ff_view_status(&ctl, status, sizeof status);
	ck_assert_msg(strstr(status, " t [+] | EDIT | 6,3 grass 1  int 4.83 ") &&
		      strstr(status, "| pen wall r0 | dijkstra8 done | ? help"), "%s", status);
	stop();
}
END_TEST

/* Every zoom shows a 12-wide lesson level at 80 columns (zoom 2 showed 10
 * columns), and so does the split view at 80 x 24, the panes one above
 * the other, each labelled (split at zoom 1 showed 7 a pane, without the
 * goal at 10,3, and no labels). */
START_TEST(a_lesson_level_fits_80_columns)
{
	char label[128];

	teach_level();
	ff_ctl_resize(&ctl, 80, 24);
	for (int z = 0; z <= FF_ZOOM_MAX; z++) {
		ctl.view.zoom = z;
		ck_assert_int_ge(ff_ctl_view_w(&ctl), 12);
	}
	type("|");
	for (int z = 0; z <= FF_ZOOM_MAX; z++) {
		ff_ctl_run(&ctl, z == 0 ? "zoom 0" : "zoom in");
		ck_assert_int_ge(ff_ctl_view_w(&ctl), 12);
		ck_assert_int_ge(ff_ctl_view_h(&ctl), 7);
		ck_assert_int_eq(ctl.view.vx, 0);
		ck_assert_int_eq(ctl.view.vy, 0);
	}
	ck_assert(ff_ctl_stacked(&ctl));
	ck_assert_int_le(ff_ctl_pane_y(&ctl, 1) + 7, 22);  /* above the status line */
	ff_view_pane_label(&ctl, 0, label, sizeof label);
	ck_assert_str_eq(label, "dijkstra8 no field");
	type("s");
	ff_view_pane_label(&ctl, 1, label, sizeof label);
	ck_assert_str_eq(label, "fmm done");
	stop();
}
END_TEST

/* The terrain stays visible under every mark: a frontier '+' (or the last
 * settled '@', an arrow, an agent) on swamp keeps the swamp's background,
 * and in monochrome the swamp's attribute (the frontier replaced both, and
 * with NO_COLOR nothing marked a swamp at all). */
START_TEST(terrain_shows_under_marks)
{
	ff_cell_look swamp, grass, mark;
	short fg, bg, sfg, sbg;
	unsigned a;

	teach_level();
	ff_view_cell(&ctl, 8, 3, &swamp);
	ff_view_cell(&ctl, 2, 3, &grass);
	ff_view_colors(swamp.tier, swamp.kind, swamp.hue, true, &sfg, &sbg);
	ck_assert_int_ne(sbg, -1);
	/* monochrome: swamp marked, grass plain */
	ck_assert(ff_view_attrs(swamp.tier, swamp.kind, false, false, false) & FF_ATTR_UNDERLINE);
	ck_assert(!(ff_view_attrs(grass.tier, grass.kind, false, false, false) &
		    FF_ATTR_UNDERLINE));
	ok(&sess, "step begin");
	ok(&sess, "step phase");
	while (ff_solver_settled(sess.solver) < 81) {
		ok(&sess, "step cell");
		ff_view_cell(&ctl, 8, 3, &mark);
		if (mark.kind == FF_LOOK_PLAIN)
			continue;
		for (int c256 = 0; c256 < 2; c256++) {
			ff_view_colors(mark.tier, mark.kind, mark.hue, c256, &fg, &bg);
			ff_view_colors(swamp.tier, swamp.kind, swamp.hue, c256, &sfg, &sbg);
			ck_assert_msg(bg == sbg, "kind %d hides the swamp", mark.kind);
			ck_assert_int_ne(fg, bg);
		}
		a = ff_view_attrs(mark.tier, mark.kind, false, false, false);
		ck_assert_msg(a & FF_ATTR_UNDERLINE, "kind %d hides the swamp", mark.kind);
		ck_assert(!(a & FF_ATTR_REVERSE));
	}
	stop();
}
END_TEST

/* The cursor and a selection are reverse-video cells (on a projector the
 * terminal's cursor alone is not seen), in the ANSI export too. */
START_TEST(cursor_and_selection_are_reverse_cells)
{
	ff_cell_look look;

	start(10, 4, 80, 24);
	ff_ctl_run(&ctl, "goto 2,1");
	ff_view_cell(&ctl, 2, 1, &look);
	ck_assert(look.cursor);
	ck_assert(ff_view_attrs(look.tier, look.kind, true, true, false) & FF_ATTR_REVERSE);
	ck_assert(ff_view_attrs(look.tier, look.kind, false, true, false) & FF_ATTR_REVERSE);
	ff_view_cell(&ctl, 3, 1, &look);
	ck_assert(!look.cursor);
	ck_assert(!(ff_view_attrs(look.tier, look.kind, true, false, false) & FF_ATTR_REVERSE));
	type("vll");                             /* a selection 2..4 */
	ff_view_cell(&ctl, 3, 1, &look);
	ck_assert(look.selected);
	ck_assert(ff_view_attrs(look.tier, look.kind, true, false, true) & FF_ATTR_REVERSE);
	ff_ctl_run(&ctl, "export v.ans ansi");
	ck_assert_ptr_nonnull(strstr(io.written, ";7m."));
	stop();
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("view");
	TCase *tc = tcase_create("view");

	tcase_add_test(tc, help_is_generated_from_the_keymap);
	tcase_add_test(tc, help_gives_every_usage_whole);
	tcase_add_test(tc, numbers_stay_distinguishable);
	tcase_add_test(tc, field_layers_show_values_and_arrows);
	tcase_add_test(tc, came_from_layer_names_the_settling_neighbour);
	tcase_add_test(tc, unreachable_cells_and_monochrome_marks);
	tcase_add_test(tc, dynamic_layer_shows);
	tcase_add_test(tc, sight_and_sectors_layers);
	tcase_add_test(tc, split_view_panes_agree_with_direct_solves);
	tcase_add_test(tc, export_ansi_has_colours);
	tcase_add_test(tc, one_arrow_for_editor_cli_and_sim);
	tcase_add_test(tc, status_line_fits_80_columns);
	tcase_add_test(tc, a_lesson_level_fits_80_columns);
	tcase_add_test(tc, terrain_shows_under_marks);
	tcase_add_test(tc, cursor_and_selection_are_reverse_cells);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
