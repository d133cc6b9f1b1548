/*
 * check_tui.c - the editor's controller driven by synthetic keys, with no
 * terminal: cursor moves and scrolling, painting by keys equals the same
 * commands typed, undo/redo, the prompt (running commands, reporting
 * errors with their column, history, Tab completion), quitting with
 * unsaved changes, mouse painting, simulation mode, recording and playing
 * back.  What the screen shows is check_view.c's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/replay.h"
#include "testtui.h"
#include "tui/ctl_int.h"
#include "tui/view.h"

static bool cursor_visible(void)
{
	return ctl.view.cx >= ctl.view.vx && ctl.view.cx < ctl.view.vx + ff_ctl_view_w(&ctl) &&
	       ctl.view.cy >= ctl.view.vy && ctl.view.cy < ctl.view.vy + ff_ctl_view_h(&ctl);
}

START_TEST(cursor_moves_and_scrolls)
{
	unsigned ui;
	int vx;

	start(300, 100, 80, 24);
	ck_assert_int_eq(ctl.view.cx, 150);
	ck_assert_int_eq(ctl.view.cy, 50);
	ck_assert(cursor_visible());
	vx = ctl.view.vx;
	ui = ff_ctl_key(&ctl, 'l');
	ck_assert_int_eq(ctl.view.cx, 151);
	ck_assert(ui & FF_UI_CURSOR);
	ck_assert(!(ui & FF_UI_GRID));          /* no scroll: only two cells */
	ck_assert_int_eq(ctl.view.vx, vx);
	ff_ctl_key(&ctl, FF_KEY_DOWN);
	ck_assert_int_eq(ctl.view.cy, 51);
	for (int i = 0; i < 10; i++) {
		ff_ctl_key(&ctl, 'L');
		ck_assert(cursor_visible());
	}
	ck_assert_int_eq(ctl.view.cx, 231);
	ck_assert_int_gt(ctl.view.vx, vx);            /* the view followed */
	ui = ff_ctl_key(&ctl, FF_KEY_END);
	ck_assert_int_eq(ctl.view.cx, 299);
	ck_assert_int_eq(ctl.view.vx, 300 - ff_ctl_view_w(&ctl));
	ck_assert(ui & FF_UI_GRID);
	ff_ctl_key(&ctl, FF_KEY_HOME);
	ck_assert_int_eq(ctl.view.cx, 0);
	ck_assert_int_eq(ctl.view.vx, 0);
	ff_ctl_key(&ctl, 'h');                   /* clamped at the edge */
	ck_assert_int_eq(ctl.view.cx, 0);
	ff_ctl_run(&ctl, "goto 10,90");
	ck_assert_int_eq(ctl.view.cx, 10);
	ck_assert_int_eq(ctl.view.cy, 90);
	ck_assert(cursor_visible());
	ff_ctl_key(&ctl, FF_KEY_PGUP);
	ck_assert_int_eq(ctl.view.cy, 90 - ff_ctl_view_h(&ctl));
	ck_assert(cursor_visible());
	type("/250,3\n");                        /* jump through the prompt */
	ck_assert_int_eq(ctl.view.cx, 250);
	ck_assert_int_eq(ctl.view.cy, 3);
	ck_assert(cursor_visible());
	type("++");                              /* wide cells: fewer across */
	ck_assert_int_eq(ctl.view.zoom, 2);
	ck_assert_int_eq(ff_ctl_view_w(&ctl), 80 / ff_ctl_cell_width(2));
	ck_assert(cursor_visible());
	stop();
}
END_TEST

START_TEST(painting_keys_equal_commands)
{
	ff_session ref;

	start(40, 20, 80, 24);
	ff_session_init(&ref, ff_level_create(40, 20, "t"));
	/* a wall dab, a brush-2 swamp circle, a rectangle and a line via the
	 * mark, a fill, a goal and a spawn area */
	ff_ctl_run(&ctl, "goto 3,4");
	type("w");
	ok(&ref, "paint 3,4 wall");
	type(":pen swamp\n]]");
	ck_assert_int_eq(ctl.pen.cost, 5);
	ck_assert_int_eq(ctl.pen.brush, 2);
	ff_ctl_run(&ctl, "goto 20,10");
	type(" ");
	ok(&ref, "circle 20,10 2 swamp");
	type("[[t");                             /* brush 0, pen after swamp: water */
	ck_assert_int_eq(ctl.pen.cost, 20);
	ff_ctl_run(&ctl, "goto 30,2");
	type("vlljjr");
	ck_assert_int_eq(ctl.mode, FF_MODE_NORMAL);  /* the shape dropped the mark */
	ok(&ref, "rect 30,2 3,3 water");
	ff_ctl_run(&ctl, "goto 0,19");
	type("vLLLi");
	ok(&ref, "line 0,19 24,19 water");
	type("Tf");                              /* pen back to swamp, fill */
	ok(&ref, "fill 24,19 swamp");
	ff_ctl_run(&ctl, "goto 10,10");
	type("g");
	ok(&ref, "goal add cell 10,10");
	ff_ctl_run(&ctl, "goto 1,1");
	type("vllljjs25\n");
	ok(&ref, "spawn add rect 1,1 4,3 25");
	ck_assert_msg(ff_level_equal(sess.level, ref.level), "last message: %s", ctl.msg);
	ff_ctl_run(&ctl, "goto 10,10");
	type("g");                               /* g again removes the goal */
	ck_assert_int_eq(sess.level->meta.ngoals, 0);
	ff_session_fini(&ref);
	stop();
}
END_TEST

/* The dynamic layer's pen: y lays it under the brush, Y clears there, P
 * sets it, in a selection y and Y make rectangles, and in simulation mode
 * y closes a door while the crowd runs: each runs the 'dyn' command a
 * script would. */
START_TEST(dynamic_layer_pen_keys_equal_commands)
{
	ff_session ref;

	start(30, 12, 80, 24);
	ff_session_init(&ref, ff_level_create(30, 12, "t"));
	ff_ctl_run(&ctl, "goto 5,5");
	type("y");
	ok(&ref, "dyn cell 5,5 wall");
	type("P+5\n");
	ck_assert_int_eq(ctl.pen.dyn, 5);
	type("]");
	ff_ctl_run(&ctl, "goto 10,5");
	type("y");
	ok(&ref, "dyn circle 10,5 1 +5");
	ff_ctl_run(&ctl, "goto 20,2");
	type("vlljjy");
	ck_assert_int_eq(ctl.mode, FF_MODE_NORMAL);      /* the shape ends the mark */
	ok(&ref, "dyn rect 20,2 3,3 +5");
	ff_ctl_run(&ctl, "goto 21,3");
	type("[Y");
	ok(&ref, "dyn clear cell 21,3");
	ff_ctl_run(&ctl, "goto 25,8");
	type("vjY");
	ok(&ref, "dyn clear rect 25,8 1,2");
	ck_assert_msg(ff_level_equal(sess.level, ref.level), "last message: %s", ctl.msg);
	type(":dpen +0\n");
	ck_assert(ctl.msg_error && strstr(ctl.msg, "expected +N (N 1..254) or wall, not '+0'"));
	type(":dpen wall\n");
	ok(&sess, "goal add rect 29,0 1,12");
	ok(&sess, "solve");
	ok(&sess, "sim add 2,2 3");
	ff_ctl_run(&ctl, "goto 15,6");
	type("m.y.");
	ok(&ref, "dyn cell 15,6 wall");
	ck_assert_int_eq(ff_level_dyn(sess.level, 15, 6), FF_WALL);
	ck_assert_int_eq(ff_solver_cost(sess.solver, 15, 6), FF_WALL);
	ff_session_fini(&ref);
	stop();
}
END_TEST

START_TEST(undo_and_redo)
{
	ff_level *before;

	start(20, 10, 80, 24);
	before = ff_level_clone(sess.level);
	type("w");
	ck_assert_int_eq(ff_level_cost(sess.level, 10, 5), FF_WALL);
	ck_assert(sess.modified);
	type("u");
	ck_assert(ff_level_equal(sess.level, before));
	ff_ctl_key(&ctl, FF_CTRL('r'));
	ck_assert_int_eq(ff_level_cost(sess.level, 10, 5), FF_WALL);
	type("uu");                              /* nothing more to undo */
	ck_assert(ctl.msg_error);
	ck_assert_ptr_nonnull(strstr(ctl.msg, "nothing to undo"));
	ff_level_destroy(before);
	stop();
}
END_TEST

START_TEST(prompt_runs_and_reports_errors)
{
	ff_level *before;

	start(64, 32, 80, 24);
	before = ff_level_clone(sess.level);
	type(":");
	ck_assert_int_eq(ctl.mode, FF_MODE_PROMPT);
	type("paint 99,1 wall");
	ck_assert_str_eq(ctl.prompt.text, "paint 99,1 wall");
	type("\n");
	ck_assert_int_eq(ctl.mode, FF_MODE_NORMAL);
	ck_assert(ctl.msg_error);
	ck_assert_msg(strstr(ctl.msg, "column 7") && strstr(ctl.msg, "outside"), "%s", ctl.msg);
	ck_assert(ff_level_equal(sess.level, before));
	/* history brings it back; editing fixes it */
	type(":");
	ff_ctl_key(&ctl, FF_KEY_UP);
	ck_assert_str_eq(ctl.prompt.text, "paint 99,1 wall");
	ff_ctl_key(&ctl, FF_KEY_HOME);
	for (int i = 0; i < 6; i++)
		ff_ctl_key(&ctl, FF_KEY_RIGHT);
	ff_ctl_key(&ctl, FF_KEY_DELETE);
	ff_ctl_key(&ctl, FF_KEY_DELETE);
	type("9\n");
	ck_assert_int_eq(ff_level_cost(sess.level, 9, 1), FF_WALL);
	ck_assert(!ctl.msg_error || !ctl.msg[0]);
	/* Esc cancels without running */
	type(":paint 0,0 wall");
	ff_ctl_key(&ctl, FF_KEY_ESC);
	ck_assert_int_eq(ctl.mode, FF_MODE_NORMAL);
	ck_assert_int_eq(ff_level_cost(sess.level, 0, 0), 1);
	type(":frobnicate\n");
	ck_assert_ptr_nonnull(strstr(ctl.msg, "unknown command"));
	/* a number past int range is refused, not wrapped (to 1,1) */
	type(":goto 2,2\n:goto 4294967297,1\n");
	ck_assert(ctl.msg_error);
	ck_assert(ctl.view.cx == 2 && ctl.view.cy == 2);
	/* editor commands at the prompt */
	type(":zoom 1\n");
	ck_assert_int_eq(ctl.view.zoom, 1);
	type(":export view.txt\n");
	ck_assert_str_eq(io.target, "view.txt");
	ck_assert_ptr_nonnull(strstr(io.written, ".   1.   1"));
	ck_assert_ptr_nonnull(strstr(io.written, "| EDIT |"));
	ff_level_destroy(before);
	stop();
}
END_TEST

START_TEST(quit_with_unsaved_changes_asks)
{
	start(20, 10, 80, 24);
	type("q");                               /* nothing changed: quits */
	ck_assert(ctl.quit);
	stop();

	start(20, 10, 80, 24);
	type("wq");
	ck_assert(!ctl.quit);
	ck_assert_int_eq(ctl.mode, FF_MODE_CONFIRM);
	type("x");                               /* other keys do nothing */
	ck_assert_int_eq(ctl.mode, FF_MODE_CONFIRM);
	type("n");
	ck_assert_int_eq(ctl.mode, FF_MODE_NORMAL);
	ck_assert(!ctl.quit);
	io.fail = FF_E_IO;                       /* a failed save keeps editing */
	type("qw");
	ck_assert(!ctl.quit);
	ck_assert_ptr_nonnull(strstr(ctl.msg, "disk full"));
	io.fail = 0;
	type(":w\n");
	ck_assert_int_eq(io.saves, 1);
	ck_assert(!sess.modified);
	type("eq");
	ck_assert_int_eq(ctl.mode, FF_MODE_CONFIRM);
	type("w");                               /* save and quit */
	ck_assert_int_eq(io.saves, 2);
	ck_assert(ctl.quit);
	stop();

	start(20, 10, 80, 24);
	type("wq");
	ff_ctl_key(&ctl, FF_CTRL('c'));          /* C-c twice quits */
	ck_assert(ctl.quit);
	stop();
}
END_TEST

START_TEST(mouse_paints_by_click_and_drag)
{
	start(100, 50, 80, 24);
	ff_ctl_run(&ctl, "pen forest");
	/* the view starts at vx, vy: screen cell (sx, sy) is (vx + sx, vy + sy) */
	ff_ctl_mouse(&ctl, FF_MOUSE_PRESS, 5, 3, 1);
	ck_assert_int_eq(ctl.view.cx, ctl.view.vx + 5);
	ck_assert_int_eq(ff_level_cost(sess.level, ctl.view.vx + 5, ctl.view.vy + 3), 2);
	ff_ctl_mouse(&ctl, FF_MOUSE_DRAG, 9, 3, 1);
	for (int x = 5; x <= 9; x++)
		ck_assert_int_eq(ff_level_cost(sess.level, ctl.view.vx + x, ctl.view.vy + 3), 2);
	ff_ctl_mouse(&ctl, FF_MOUSE_RELEASE, 9, 3, 1);
	ff_ctl_mouse(&ctl, FF_MOUSE_DRAG, 9, 6, 1);  /* no button: no paint */
	ck_assert_int_eq(ff_level_cost(sess.level, ctl.view.vx + 9, ctl.view.vy + 6), 1);
	ff_ctl_mouse(&ctl, FF_MOUSE_PRESS, 0, 30, 1); /* status line: ignored */
	ck_assert_int_eq(ctl.view.cy, ctl.view.vy + 3);
	stop();
}
END_TEST

START_TEST(too_small_and_resize)
{
	start(200, 100, 80, 24);
	ck_assert(!ff_ctl_too_small(&ctl));
	ff_ctl_resize(&ctl, 60, 20);
	ck_assert(ff_ctl_too_small(&ctl));
	/* nothing can be seen: keys and clicks do nothing but quit */
	type("lw ");
	ck_assert_int_eq(ctl.view.cx, 100);
	ck_assert_int_eq(ff_level_cost(sess.level, 100, 50), 1);
	ck_assert(!sess.modified);
	ff_ctl_mouse(&ctl, FF_MOUSE_PRESS, 3, 3, 1);
	ck_assert_int_eq(ctl.view.cx, 100);
	ok(&sess, "paint 0,0 wall");             /* unsaved: q asks, shown below */
	type("q");
	ck_assert_int_eq(ctl.mode, FF_MODE_CONFIRM);
	ck_assert_ptr_nonnull(strstr(ctl.msg, "unsaved changes"));
	type("n");
	ck_assert(!ctl.quit);
	ck_assert_int_eq(ctl.mode, FF_MODE_NORMAL);
	ff_ctl_resize(&ctl, 120, 40);
	ck_assert(!ff_ctl_too_small(&ctl));
	ck_assert_int_eq(ff_ctl_view_w(&ctl), 120);
	ck_assert_int_eq(ff_ctl_view_h(&ctl), 38);
	ck_assert(cursor_visible());
	stop();
}
END_TEST

/* --- simulation mode ---------------------------------------------------- */

static long agents_on_screen(void)
{
	long n = 0;

	for (int y = 0; y < sess.level->h; y++)
		for (int x = 0; x < sess.level->w; x++)
			n += ff_ctl_agents_at(&ctl, x, y);
	return n;
}

START_TEST(sim_mode_runs_pauses_and_ticks)
{
	ff_cell_look look;
	char status[512];
	double period;

	start(30, 10, 80, 24);
	type("m");                               /* no goal yet: refused */
	ck_assert_int_eq(ctl.mode, FF_MODE_NORMAL);
	ck_assert(ctl.msg_error);
	ok(&sess, "goal add rect 28,0 2,10");
	type("m");                               /* solves, then SIM */
	ck_assert_int_eq(ctl.mode, FF_MODE_SIM);
	ck_assert(sess.field);
	ck_assert_int_eq(ff_solver_phase(sess.solver), FF_PHASE_DONE);
	ff_ctl_run(&ctl, "goto 3,5");
	type("i");                               /* 10 agents at the cursor */
	ck_assert_ptr_nonnull(sess.sim);
	ck_assert_int_eq(ff_sim_count(sess.sim), 10);
	ck_assert_int_eq(agents_on_screen(), 10);
	/* one cell with 12 agents shows 'O' (not '+', the frontier), one with 3
	 * shows '3' (small bodies, so that twelve fit in a cell) */
	ff_ctl_run(&ctl, "set radius 0.02");
	ff_ctl_run(&ctl, "sim add 10,2 12");
	ff_ctl_run(&ctl, "sim add 10,7 3");
	ctl.view.utf8 = false;
	ff_view_cell(&ctl, 10, 2, &look);
	ck_assert_str_eq(look.text, "O");
	ck_assert_int_eq(look.kind, FF_LOOK_AGENT);
	ff_view_cell(&ctl, 10, 7, &look);
	ck_assert_str_eq(look.text, "3");
	/* paused: time passes, nothing moves */
	ck_assert_int_eq(ff_ctl_idle(&ctl, 1000), 0);
	ck_assert_int_eq(ff_sim_last(sess.sim)->tick, 0);
	type(".");                               /* a single tick */
	ck_assert_int_eq(ff_sim_last(sess.sim)->tick, 1);
	type(" ");                               /* run */
	ck_assert(ctl.sim.running);
	period = ff_ctl_tick_ms(&ctl);
	ck_assert(fabs(period - 50.0) < 1e-9);   /* the level's dt, 0.05 s */
	ck_assert_int_le(ff_ctl_wait_ms(&ctl, 100), 50);
	ck_assert(ff_ctl_idle(&ctl, 120) & FF_UI_GRID);  /* two ticks due */
	ck_assert_int_eq(ff_sim_last(sess.sim)->tick, 3);
	ff_ctl_idle(&ctl, 20);                   /* 40 ms gathered: none yet */
	ck_assert_int_eq(ff_sim_last(sess.sim)->tick, 3);
	ff_ctl_idle(&ctl, 10);
	ck_assert_int_eq(ff_sim_last(sess.sim)->tick, 4);
	type(">>");                              /* x4: 12.5 ms a tick */
	ck_assert(fabs(ff_ctl_tick_ms(&ctl) - 12.5) < 1e-9);
	type("<<");
	type("f");                               /* funnelling off, through a command */
	ck_assert(sess.sim_flags & FF_SIM_NO_FUNNEL);
	type("f");
	ck_assert(!(sess.sim_flags & FF_SIM_NO_FUNNEL));
	for (int i = 0; i < 400 && ff_sim_totals_get(sess.sim)->arrived < 25; i++)
		ff_ctl_idle(&ctl, 50);
	ck_assert_int_eq(ff_sim_totals_get(sess.sim)->arrived, 25);
	ck_assert_int_eq(agents_on_screen(), 0);
	ff_ctl_resize(&ctl, 120, 30);            /* room for every field */
	ff_view_status(&ctl, status, sizeof status);
	ck_assert_msg(strstr(status, "| SIM run x1 |") && strstr(status, "arrived 25") &&
		      strstr(status, "alive 0") && strstr(status, "stranded 0"), "%s", status);
	type(" ");
	ck_assert(!ctl.sim.running);
	/* x removes the agents and their counters (they used to stay) */
	type("x");
	ck_assert_ptr_null(sess.sim);
	type("i");
	ff_view_status(&ctl, status, sizeof status);
	ck_assert_msg(strstr(status, "tick 0 alive 10 arrived 0"), "%s", status);
	type("m");
	ck_assert_int_eq(ctl.mode, FF_MODE_NORMAL);
	stop();
}
END_TEST

START_TEST(sim_mode_wall_painted_while_running)
{
	start(30, 10, 80, 24);
	ok(&sess, "goal add cell 28,5");
	type("m");
	ff_ctl_run(&ctl, "goto 2,5");
	type("i ");
	ff_ctl_idle(&ctl, 100);
	/* a wall across the level: the field is repaired, agents are stranded */
	ff_ctl_run(&ctl, "rect 20,0 1,10 wall");
	ck_assert(sess.field);
	ck_assert(isinf(ff_solver_value(sess.solver, 5, 5)));
	for (int i = 0; i < 10; i++)
		ff_ctl_idle(&ctl, 50);
	ck_assert_int_eq(ff_sim_last(sess.sim)->stranded, 10);
	stop();
}
END_TEST

/* --- recording ----------------------------------------------------------- */

static ff_level *no_loader(void *ctx, const char *ref, char *err, size_t n)
{
	(void)ctx, (void)ref;
	snprintf(err, n, "no levels here");
	return NULL;
}

START_TEST(recording_writes_the_commands_run)
{
	ff_replay_report rep;
	ff_replay_opts o = {0};
	char hash[40];

	start(30, 10, 80, 24);
	ok(&sess, "spawn add rect 0,0 3,10 20");
	type(":record lesson.replay\n");
	ck_assert(ctl.rec.on);
	ff_ctl_run(&ctl, "goto 15,5");
	type("w");                               /* paint 15,5 wall */
	type("l");                               /* a move: not recorded */
	type("c");                               /* a layer: a 'view' line */
	ff_ctl_run(&ctl, "goto 27,5");
	type("g");                               /* goal add cell 27,5 */
	type("s");                               /* solve */
	type("m");                               /* SIM: the field is done already */
	type("s");                               /* sim spawn */
	type(" ");
	ff_ctl_idle(&ctl, 100);                  /* two running ticks ... */
	ff_ctl_idle(&ctl, 50);                   /* ... and one more */
	type(" .");                              /* pause, one tick */
	type("R");                               /* stop and save */
	ck_assert(!ctl.rec.on);
	ck_assert_str_eq(io.target, "lesson.replay");
	ck_assert_msg(strstr(ctl.msg, "recorded 6 commands"), "%s", ctl.msg);
	ck_assert_ptr_nonnull(strstr(io.written, "fieldmarshal replay 1\nprogram fieldmarshal "));
	ck_assert_ptr_nonnull(strstr(io.written, "level inline\nfieldmarshal level 2\n"));
	ck_assert_ptr_nonnull(strstr(io.written, "\nend\nexpect hash "));
	ck_assert_ptr_nonnull(strstr(io.written, "\npaint 15,5 wall\nexpect hash "));
	ck_assert_ptr_nonnull(strstr(io.written, "\ngoal add cell 27,5\nexpect hash "));
	ck_assert_ptr_nonnull(strstr(io.written, "\nsolve\nexpect hash "));
	ck_assert_ptr_nonnull(strstr(io.written, "\nsim spawn\nexpect hash "));
	ck_assert_ptr_nonnull(strstr(io.written, "\ntick 3\nexpect hash "));
	ck_assert_ptr_nonnull(strstr(io.written, "\ntick\nexpect hash "));
	ck_assert_ptr_null(strstr(io.written, "move"));
	ck_assert_ptr_nonnull(strstr(io.written, "\nbegin\n"));
	ck_assert_ptr_nonnull(strstr(io.written, "\nview layer costs\n"));
	/* it replays headless to the state the editor ended in */
	snprintf(hash, sizeof hash, "expect hash %016llx\n",
		 (unsigned long long)ff_session_hash(&sess));
	ck_assert_ptr_nonnull(strstr(io.written, hash));
	ck_assert_str_eq(io.written + strlen(io.written) - strlen(hash), hash);
	ck_assert_msg(ff_replay_run(io.written, strlen(io.written), no_loader, &o, &rep, NULL) ==
		      FF_OK, "line %d: %s", rep.line, rep.msg);
	ck_assert_int_eq(rep.checks, 7);
	/* with agents present a recording starts all the same (it was refused:
	 * "the session has agents"): its replay runs the session's history
	 * first, which rebuilds them, then goes on from there; so it does
	 * after 'x' */
	for (int k = 0; k < 2; k++) {
		type(":record again.replay\n");
		ck_assert_msg(ctl.rec.on, "%s", ctl.msg);
		type("..");
		type(k ? "i." : "x");
		type("R");
		ck_assert(!ctl.rec.on);
		/* after 'x' there is nothing to rebuild: the level as it is */
		ck_assert((strstr(io.written, "# the session so far") == NULL) == (k == 1));
		snprintf(hash, sizeof hash, "expect hash %016llx\n",
			 (unsigned long long)ff_session_hash(&sess));
		ck_assert_str_eq(io.written + strlen(io.written) - strlen(hash), hash);
		ck_assert_msg(ff_replay_run(io.written, strlen(io.written), no_loader, &o, &rep,
					    NULL) == FF_OK, "line %d: %s", rep.line, rep.msg);
	}
	stop();
}
END_TEST

/* Undo and redo cannot reach what came before the recording (its replay
 * starts without that history), and reach all of it again after. */
START_TEST(recording_keeps_earlier_history_out_of_reach)
{
	ff_replay_report rep;
	ff_replay_opts o = {0};

	start(20, 8, 80, 24);
	ff_ctl_run(&ctl, "goto 2,2");
	type("w");                               /* before: paint 2,2 wall */
	ff_ctl_run(&ctl, "goto 4,2");
	type("w");
	type("u");                               /* 4,2 undone, on the redo stack */
	ff_ctl_run(&ctl, "record x.replay");
	ck_assert(ctl.rec.on);
	type("U");                               /* refused: 4,2 was undone before */
	ck_assert_int_eq(ff_level_cost(sess.level, 4, 2), 1);
	ck_assert(ctl.msg_error);
	ff_ctl_run(&ctl, "goto 6,2");
	type("w");
	type("u");
	ck_assert_int_eq(ff_level_cost(sess.level, 6, 2), 1);
	type("u");                               /* refused: 2,2 came before */
	ck_assert_int_eq(ff_level_cost(sess.level, 2, 2), FF_WALL);
	ck_assert_msg(ctl.msg_error && strstr(ctl.msg, "before the recording began"), "%s",
		      ctl.msg);
	type("U");                               /* redoes 6,2 */
	ck_assert_int_eq(ff_level_cost(sess.level, 6, 2), FF_WALL);
	type("R");
	ck_assert(!ctl.rec.on);
	ck_assert_msg(ff_replay_run(io.written, strlen(io.written), no_loader, &o, &rep, NULL) ==
		      FF_OK, "line %d: %s", rep.line, rep.msg);
	type("uu");                              /* all of it in reach again */
	ck_assert_int_eq(ff_level_cost(sess.level, 2, 2), 1);
	stop();
}
END_TEST

/* A target that cannot be written is refused when the recording starts;
 * one that fails later keeps the editor open, and a second q! drops it. */
START_TEST(recording_not_lost_on_quit)
{
	start(20, 8, 80, 24);
	io.write_fail = FF_E_IO;
	ff_ctl_run(&ctl, "record /nowhere/x.replay");
	ck_assert(!ctl.rec.on);
	ck_assert_msg(ctl.msg_error && strstr(ctl.msg, "read-only file system"), "%s", ctl.msg);
	io.write_fail = 0;
	ff_ctl_run(&ctl, "record x.replay");
	ck_assert(ctl.rec.on);
	type("w");
	io.write_fail = FF_E_IO;                 /* the disk goes away */
	ff_ctl_run(&ctl, "q!");
	ck_assert(!ctl.quit);
	ck_assert(ctl.rec.on);
	ck_assert_msg(strstr(ctl.msg, ":q! again drops it"), "%s", ctl.msg);
	io.write_fail = 0;                       /* back: a plain save works */
	ff_ctl_run(&ctl, "record stop");
	ck_assert(!ctl.rec.on);
	ck_assert_ptr_nonnull(strstr(io.written, " wall\nexpect hash "));
	ff_ctl_run(&ctl, "record y.replay");
	io.write_fail = FF_E_IO;
	ff_ctl_run(&ctl, "q!");
	ck_assert(!ctl.quit);
	ff_ctl_run(&ctl, "q!");                  /* told once: now it quits */
	ck_assert(ctl.quit);
	io.write_fail = 0;
	stop();
}
END_TEST

START_TEST(recording_a_stepped_field_starts_with_its_steps)
{
	ff_replay_report rep;
	ff_replay_opts o = {0};

	start(20, 8, 80, 24);
	ok(&sess, "goal add cell 18,4");
	ok(&sess, "step begin fmm 4");
	ok(&sess, "step phase");
	ok(&sess, "step cell 7");
	ff_ctl_run(&ctl, "record db:lesson");
	ck_assert(!ctl.rec.on);               /* no database in this editor */
	ff_ctl_run(&ctl, "record x.replay");
	ck_assert(ctl.rec.on);
	type(".>");
	ff_ctl_run(&ctl, "record stop");
	ck_assert_ptr_nonnull(strstr(io.written, "\nstep begin fmm 4\nstep phase 1\nstep cell 7\n"
				     "expect hash "));
	ck_assert_ptr_nonnull(strstr(io.written, "\nstep cell\nexpect hash "));
	ck_assert_ptr_nonnull(strstr(io.written, "\nstep wave\nexpect hash "));
	ck_assert(ff_replay_run(io.written, strlen(io.written), no_loader, &o, &rep, NULL) == FF_OK);
	ck_assert_int_eq(rep.checks, 3);
	stop();
}
END_TEST

/* --- playback ---------------------------------------------------------- */

/* replay --tui: the setup before 'begin' runs at once; '.' runs the next
 * command or view line, checking the expectations before it silently (it
 * stopped on every one); view lines (zoom, layers, split) are played back. */
START_TEST(play_steps_line_by_line)
{
	static const char text[] =
		"fieldmarshal replay 1\n"
		"level inline\n"
		"fieldmarshal level 1\nname p\nsize 6 3\nterrain grass . 1\ngrid\n"
		"......\n......\n......\nend\n"
		"goal add cell 5,1\n"                 /* 12 */
		"view zoom 2\n"
		"begin\n"
		"# a comment\n"
		"solve\n"                             /* 16 */
		"expect value 0,1 5\n"
		"view layer numbers on\n"             /* 18 */
		"view split fmm\n"
		"paint 2,1 wall\n"                    /* 20 */
		"expect phase done\n";
	static const char bad[] =
		"fieldmarshal replay 1\nlevel inline\n"
		"fieldmarshal level 1\nname p\nsize 6 3\nterrain grass . 1\ngrid\n"
		"......\n......\n......\nend\n"
		"goal add cell 5,1\nsolve\nexpect value 0,1 4\npaint 2,1 wall\n";
	ff_replay_report rep;
	ff_replay_player *p = ff_replay_player_create(text, strlen(text), no_loader, NULL, &rep);
	ff_ctl c;

	ck_assert_ptr_nonnull(p);
	ff_ctl_init(&c, ff_replay_player_session(p), NULL, 80, 24);
	ff_ctl_play(&c, p, "p.replay");
	ck_assert_int_eq(c.mode, FF_MODE_PLAY);
	ck_assert_int_eq(c.s->level->meta.ngoals, 1);     /* the setup ran */
	ck_assert_int_eq(c.view.zoom, 2);
	ck_assert(!c.s->field);
	ff_ctl_key(&c, '.');
	ck_assert_msg(strstr(c.msg, "p.replay:16: solve"), "%s", c.msg);
	ff_ctl_key(&c, 'w');                     /* not bound here: the replay alone edits */
	ck_assert_int_eq(ff_level_cost(c.s->level, c.view.cx, c.view.cy), 1);
	ff_ctl_key(&c, '.');                     /* the check passes, the view follows */
	ck_assert_msg(strstr(c.msg, "p.replay:18: view layer numbers on"), "%s", c.msg);
	ck_assert(c.view.layers & FF_LAYER_NUMBERS);
	ff_ctl_key(&c, ' ');                     /* play: the split at once */
	ck_assert(c.play.playing);
	ck_assert(c.split.on && c.split.field);
	ck_assert_int_eq(ff_ctl_idle(&c, 500), 0);   /* a line a second at x1 */
	ff_ctl_idle(&c, 500);
	ck_assert_int_eq(ff_level_cost(c.s->level, 2, 1), FF_WALL);
	ff_ctl_idle(&c, 1000);
	ck_assert(c.play.done);
	ck_assert_ptr_nonnull(strstr(c.msg, "every check passed"));
	ff_ctl_key(&c, 'q');
	ck_assert(c.quit);
	ff_ctl_fini(&c);
	ff_replay_player_destroy(p);
	/* a check that fails stops the replay and says where */
	p = ff_replay_player_create(bad, strlen(bad), no_loader, NULL, &rep);
	ff_ctl_init(&c, ff_replay_player_session(p), NULL, 80, 24);
	ff_ctl_play(&c, p, "b.replay");
	ff_ctl_key(&c, '.');
	ff_ctl_key(&c, '.');
	ff_ctl_key(&c, '.');
	ck_assert(c.play.done && c.msg_error);
	ck_assert_msg(strstr(c.msg, "b.replay:14:"), "%s", c.msg);
	ck_assert_int_eq(ff_level_cost(c.s->level, 2, 1), 1);
	ff_ctl_fini(&c);
	ff_replay_player_destroy(p);
}
END_TEST

START_TEST(large_solve_runs_in_slices)
{
	ff_solver_opts o = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_CHEAPEST, 0, false};
	ff_solver *ref = ff_solver_create(120, 100);
	char status[512];
	int slices = 0;

	start(120, 100, 80, 24);
	ctl.slice.cells = 2000;
	ok(&sess, "rect 60,10 1,80 wall");
	ok(&sess, "goal add cell 100,50");
	type("s");
	ck_assert(ctl.slice.solving);
	ck_assert_int_eq(ff_ctl_wait_ms(&ctl, 100), 0);
	ck_assert_int_ne(ff_solver_phase(sess.solver), FF_PHASE_DONE);
	ff_ctl_idle(&ctl, 1);
	ff_view_status(&ctl, status, sizeof status);
	ck_assert_msg(strstr(status, "solving dijkstra8"), "%s", status);
	while (ctl.slice.solving && slices++ < 1000)
		ff_ctl_idle(&ctl, 1);
	ck_assert(!ctl.slice.solving);
	ck_assert_int_gt(slices, 5);
	ck_assert_int_eq(ff_solver_phase(sess.solver), FF_PHASE_DONE);
	ck_assert(ff_solver_solve(ref, sess.level, sess.level->meta.goals, 1, &o) == FF_OK);
	assert_same_field(sess.solver, ref, 120, 100);
	ck_assert_ptr_nonnull(strstr(ctl.msg, "solved"));
	ff_solver_destroy(ref);
	stop();
}
END_TEST

/* ZZ saves and quits, as does :x (a short name of wq); a first key of
 * two waits for the second, and an unbound pair says so. */
START_TEST(zz_and_x_save_and_quit)
{
	start(20, 10, 80, 24);
	type("w");
	type("Z");
	ck_assert(!ctl.quit);
	ck_assert_str_eq(ctl.msg, "Z-");
	type("q");                               /* Z q: no such pair */
	ck_assert(!ctl.quit && ctl.msg_error);
	ck_assert_int_eq(ctl.mode, FF_MODE_NORMAL);
	type("ZZ");
	ck_assert_int_eq(io.saves, 1);
	ck_assert(ctl.quit);
	stop();
	start(20, 10, 80, 24);
	type("w:x\n");
	ck_assert_int_eq(io.saves, 1);
	ck_assert(ctl.quit);
	stop();
}
END_TEST

/* Tab at the ':' prompt completes commands, and their words from the
 * syntax the help shows: literal words, terrains, parameters, files,
 * stored levels and replays; several candidates are listed. */
START_TEST(tab_completes_from_the_command_tables)
{
	teach_level();
	ck_assert_str_eq(tab("pai"), "paint ");
	ck_assert_str_eq(tab("paint 1,1 sw"), "paint 1,1 swamp ");
	ck_assert_str_eq(tab("paint 1,1 wal"), "paint 1,1 wall ");
	ck_assert_str_eq(tab("lay"), "layer ");
	ck_assert_str_eq(tab("layer nu"), "layer numbers ");
	ck_assert_str_eq(tab("layer numbers o"), "layer numbers o");
	ck_assert_msg(!strcmp(ctl.msg, "off on"), "%s", ctl.msg);
	ck_assert_str_eq(tab("solve fmm "), "solve fmm ");
	ck_assert_msg(strstr(ctl.msg, "8 4 cheapest lowest") || strstr(ctl.msg, "4 8"), "%s",
		      ctl.msg);
	ck_assert_str_eq(tab("set sep_w"), "set sep_weight ");
	ck_assert_str_eq(tab("zoom i"), "zoom in ");
	ck_assert_str_eq(tab("step b"), "step b");      /* back, begin */
	ck_assert_msg(!strcmp(ctl.msg, "back begin"), "%s", ctl.msg);
	ck_assert_str_eq(tab("w tea"), "w teach");      /* teach.level and the stored teach */
	ck_assert_str_eq(tab("w tes"), "w tests/");     /* a folder: no blank after it */
	ck_assert_str_eq(tab("record db:l"), "record db:lesson ");
	ck_assert_str_eq(tab("frobn"), "frobn");
	ck_assert_str_eq(ctl.msg, "nothing to complete");
	/* in the middle of a line, the word before the cursor */
	ff_ctl_run(&ctl, "prompt-cancel");
	type(":goal a 3,3");
	for (int i = 0; i < 4; i++)
		ff_ctl_key(&ctl, FF_KEY_LEFT);
	ff_ctl_key(&ctl, FF_KEY_TAB);
	ck_assert_str_eq(ctl.prompt.text, "goal add  3,3");
	stop();
}
END_TEST

/* :e! loads the level again (after a save conflict: theirs), dropping the
 * changes; refused while recording. */
START_TEST(reload_drops_changes)
{
	start(20, 10, 80, 24);
	type("w");
	ck_assert(sess.modified);
	ff_ctl_run(&ctl, "record r.replay");
	ff_ctl_run(&ctl, "e!");
	ck_assert_int_eq(io.reloads, 0);
	ck_assert(ctl.msg_error);
	ff_ctl_run(&ctl, "record stop");
	ff_ctl_run(&ctl, "e!");
	ck_assert_int_eq(io.reloads, 1);
	ck_assert(!sess.modified);
	ck_assert_int_eq(ff_level_cost(sess.level, 10, 5), 1);
	ck_assert_str_eq(ctl.msg, "loaded again");
	type("u");                               /* a new history */
	ck_assert(ctl.msg_error);
	stop();
}
END_TEST

/* The pen and dab read a terrain as the level commands do, and refuse a
 * bad one in the same words: 'pen 300' once said "unknown terrain '300'"
 * where 'paint 0,0 300' says the cost is out of range, and 'dab lava'
 * did not say what a terrain may be. */
START_TEST(pen_reads_terrains_as_commands_do)
{
	static const char *const words[] = {"300", "0", "lava", "99999999999999999999"};
	static const char *const keys[] = {":pen %s\n", ":dab %s\n"};
	char line[64];
	ff_cmd_result r;

	start(20, 10, 80, 24);
	for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
		snprintf(line, sizeof line, "paint 0,0 %s", words[w]);
		ck_assert_int_ne(ff_cmd_exec(&sess, line, &r), FF_OK);
		for (size_t k = 0; k < 2; k++) {
			snprintf(line, sizeof line, keys[k], words[w]);
			type(line);
			ck_assert_msg(ctl.msg_error && !strcmp(ctl.msg, r.msg),
				      "%s said '%s', paint '%s'", line, ctl.msg, r.msg);
		}
	}
	type(":pen 7\n");
	ck_assert_int_eq(ctl.pen.cost, 7);
	type(":pen swamp\n");
	ck_assert_int_eq(ctl.pen.cost, 5);
	stop();
}
END_TEST

/* docs/commands.md names every command of both tables, so the document
 * cannot lose one. */
START_TEST(commands_are_documented)
{
	char *doc = tu_read(FF_DOCSDIR, "commands.md", NULL), word[80];
	const ff_cmd_info *ci;
	const ff_ui_cmd *u;

	for (int i = 0; (u = ff_ui_cmd_at(i)); i++) {
		if (u->flags & FF_UI_CMD_INTERNAL)
			continue;
		snprintf(word, sizeof word, "`%s", u->name);
		ck_assert_msg(strstr(doc, word), "editor command '%s' not in docs/commands.md",
			      u->name);
	}
	for (int i = 0; (ci = ff_cmd_info_at(i)); i++) {
		snprintf(word, sizeof word, "`%s", ci->name);
		ck_assert_msg(strstr(doc, word), "command '%s' not in docs/commands.md", ci->name);
	}
	free(doc);
}
END_TEST

/* ':export FILE.svg|.png' draws what the layers show: the costs until a
 * field is solved, then its arrows or its numbers. */
START_TEST(export_picture_follows_the_layers)
{
	start(20, 5, 80, 24);
	ok(&sess, "goal add cell 18,2");
	ctl.view.layers |= FF_LAYER_ARROWS;
	ff_ctl_run(&ctl, "export p.svg");
	ck_assert_int_eq(io.pictures, 1);
	ck_assert_str_eq(io.target, "p.svg");
	ck_assert_int_eq(io.field, FF_PIC_COSTS);  /* nothing solved yet */
	type("s");
	ff_ctl_run(&ctl, "export p.png");
	ck_assert_int_eq(io.field, FF_PIC_FLOW);
	ck_assert_str_eq(io.target, "p.png");
	ctl.view.layers = (ctl.view.layers & ~FF_LAYER_ARROWS) | FF_LAYER_NUMBERS;
	ff_ctl_run(&ctl, "export p.svg");
	ck_assert_int_eq(io.field, FF_PIC_INTEGRATION);
	ctl.view.layers &= ~FF_LAYER_NUMBERS;
	ff_ctl_run(&ctl, "export p.svg");
	ck_assert_int_eq(io.field, FF_PIC_COSTS);
	ck_assert_int_eq(io.pictures, 4);
	ff_ctl_run(&ctl, "export p.txt");        /* other names: the text view */
	ck_assert_int_eq(io.pictures, 4);
	ck_assert_str_eq(io.target, "p.txt");
	stop();
}
END_TEST

/* The key a code span of docs/teaching.md names ("b", "Space", "Tab",
 * "Ctrl-R", "\\|"), or 0 when it is no single key. */
static int doc_key(const char *span, size_t n)
{
	if (n == 1)
		return (unsigned char)span[0];
	if (n == 2 && !strncmp(span, "\\|", 2))
		return '|';
	if (n == 5 && !strncmp(span, "Space", 5))
		return ' ';
	if (n == 3 && !strncmp(span, "Tab", 3))
		return FF_KEY_TAB;
	if (n == 6 && !strncmp(span, "Ctrl-", 5))
		return FF_CTRL(span[5] | 0x20);
	return 0;
}

/* Every bracketed command of docs/teaching.md's tables is what the row's
 * key runs (as '?' shows it), so the document cannot name a command the key
 * does not run.  (What the screen shows after each row, tests/tui/teaching.sh
 * checks by typing the keys.) */
START_TEST(teaching_doc_names_the_bound_commands)
{
	char *doc = tu_read(FF_DOCSDIR, "teaching.md", NULL), *line, *save = NULL;
	int checked = 0;

	for (line = strtok_r(doc, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *keys = line + 2, *end = strstr(keys, " | "), *p;
		int key[8], nkeys = 0;

		if (strncmp(line, "| `", 3) || !end)
			continue;
		for (p = keys; (p = strchr(p, '`')) && p < end && nkeys < 8;) {
			const char *q = strchr(p + 1, '`');
			int k = doc_key(p + 1, (size_t)(q - p - 1));

			if (k)
				key[nkeys++] = k;
			p = q + 1;
		}
		for (p = end; (p = strstr(p, "[`"));) {
			const char *q = strstr(p, "`]");
			const ff_binding *b;
			bool found = false;

			for (int i = 0; (b = ff_keymap_at(i)) && !found; i++)
				for (int k = 0; k < nkeys; k++)
					found |= b->key == key[k] && !b->key2 &&
						  strlen(b->run) == (size_t)(q - p - 2) &&
						  !strncmp(b->run, p + 2, (size_t)(q - p - 2));
			ck_assert_msg(found, "docs/teaching.md: [%.*s] is not what the row's key runs: %s",
				      (int)(q - p - 2), p + 2, line);
			checked++;
			p = q;
		}
	}
	ck_assert_int_gt(checked, 20);
	free(doc);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("tui");
	TCase *tc = tcase_create("controller");

	tcase_add_test(tc, cursor_moves_and_scrolls);
	tcase_add_test(tc, painting_keys_equal_commands);
	tcase_add_test(tc, pen_reads_terrains_as_commands_do);
	tcase_add_test(tc, dynamic_layer_pen_keys_equal_commands);
	tcase_add_test(tc, undo_and_redo);
	tcase_add_test(tc, prompt_runs_and_reports_errors);
	tcase_add_test(tc, quit_with_unsaved_changes_asks);
	tcase_add_test(tc, mouse_paints_by_click_and_drag);
	tcase_add_test(tc, too_small_and_resize);
	tcase_add_test(tc, sim_mode_runs_pauses_and_ticks);
	tcase_add_test(tc, sim_mode_wall_painted_while_running);
	tcase_add_test(tc, recording_writes_the_commands_run);
	tcase_add_test(tc, recording_a_stepped_field_starts_with_its_steps);
	tcase_add_test(tc, recording_keeps_earlier_history_out_of_reach);
	tcase_add_test(tc, recording_not_lost_on_quit);
	tcase_add_test(tc, play_steps_line_by_line);
	tcase_add_test(tc, export_picture_follows_the_layers);
	tcase_add_test(tc, large_solve_runs_in_slices);
	tcase_add_test(tc, zz_and_x_save_and_quit);
	tcase_add_test(tc, tab_completes_from_the_command_tables);
	tcase_add_test(tc, reload_drops_changes);
	tcase_add_test(tc, commands_are_documented);
	tcase_add_test(tc, teaching_doc_names_the_bound_commands);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
