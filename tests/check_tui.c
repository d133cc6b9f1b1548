/*
 * check_tui.c - the editor's controller driven by synthetic keys, with no
 * terminal: cursor moves and scrolling, painting by keys equals the same
 * commands typed, undo/redo, the prompt (running commands, reporting
 * errors with their column, history), quitting with unsaved changes, the
 * help generated from the keymap, mouse painting, and the field layers.
 */
#include <string.h>

#include <math.h>
#include <stdlib.h>

#include "core/cmd.h"
#include "core/glyph.h"
#include "core/level_gen.h"
#include "core/replay.h"
/* the simulation's per-cell copy of the flow (one_arrow_for_editor_cli_and_sim) */
#include "core/sim_impl.h"
#include "testutil.h"
#include "tui/ctl.h"
#include "tui/view.h"

typedef struct fake_io {
	int saves;
	char target[256];
	char written[8192];
	int fail, write_fail;
	int pictures;
	ff_pic_field field;      /* of the last picture */
} fake_io;

static int fake_save(void *ctx, ff_session *s, const char *target, bool force, char *msg,
		     size_t size)
{
	fake_io *io = ctx;

	(void)force;
	if (io->fail) {
		snprintf(msg, size, "disk full");
		return io->fail;
	}
	io->saves++;
	snprintf(io->target, sizeof io->target, "%s", target ? target : "");
	if (!target)
		s->modified = false;     /* saved where it came from */
	snprintf(msg, size, "saved");
	return 0;
}

static int fake_write(void *ctx, const char *path, const char *data, size_t len, char *msg,
		      size_t size)
{
	fake_io *io = ctx;

	if (io->write_fail) {
		snprintf(msg, size, "read-only file system");
		return io->write_fail;
	}
	snprintf(io->target, sizeof io->target, "%s", path);
	snprintf(io->written, sizeof io->written, "%.*s", (int)len, data);
	snprintf(msg, size, "wrote");
	return 0;
}

static int fake_picture(void *ctx, const ff_session *s, ff_pic_field field, const char *path,
			char *msg, size_t size)
{
	fake_io *io = ctx;

	(void)s;
	io->pictures++;
	io->field = field;
	snprintf(io->target, sizeof io->target, "%s", path);
	snprintf(msg, size, "drew");
	return 0;
}

static fake_io io;
static ff_session sess;
static ff_ctl ctl;

static void start(int w, int h, int cols, int rows)
{
	ff_ctl_hooks hooks = {&io, fake_save, fake_write, NULL, fake_picture};

	memset(&io, 0, sizeof io);
	ff_session_init(&sess, ff_level_create(w, h, "t"));
	ck_assert_ptr_nonnull(sess.level);
	ff_ctl_init(&ctl, &sess, &hooks, cols, rows);
}

static void stop(void)
{
	ff_ctl_fini(&ctl);
	ff_session_fini(&sess);
}

/* Feeds the characters of KEYS as key presses; returns the OR of masks. */
static unsigned type(const char *keys)
{
	unsigned ui = 0;

	for (const char *k = keys; *k; k++)
		ui |= ff_ctl_key(&ctl, *k == '\n' ? FF_KEY_ENTER : *k);
	return ui;
}

static void ok(ff_session *s, const char *line)
{
	ff_cmd_result r;

	ck_assert_msg(ff_cmd_exec(s, line, &r) == FF_OK, "%s: %s", line, r.msg);
}

static bool cursor_visible(void)
{
	return ctl.cx >= ctl.vx && ctl.cx < ctl.vx + ff_ctl_view_w(&ctl) &&
	       ctl.cy >= ctl.vy && ctl.cy < ctl.vy + ff_ctl_view_h(&ctl);
}

START_TEST(cursor_moves_and_scrolls)
{
	unsigned ui;
	int vx;

	start(300, 100, 80, 24);
	ck_assert_int_eq(ctl.cx, 150);
	ck_assert_int_eq(ctl.cy, 50);
	ck_assert(cursor_visible());
	vx = ctl.vx;
	ui = ff_ctl_key(&ctl, 'l');
	ck_assert_int_eq(ctl.cx, 151);
	ck_assert(ui & FF_UI_CURSOR);
	ck_assert(!(ui & FF_UI_GRID));          /* no scroll: only two cells */
	ck_assert_int_eq(ctl.vx, vx);
	ff_ctl_key(&ctl, FF_KEY_DOWN);
	ck_assert_int_eq(ctl.cy, 51);
	for (int i = 0; i < 10; i++) {
		ff_ctl_key(&ctl, 'L');
		ck_assert(cursor_visible());
	}
	ck_assert_int_eq(ctl.cx, 231);
	ck_assert_int_gt(ctl.vx, vx);            /* the view followed */
	ui = ff_ctl_key(&ctl, FF_KEY_END);
	ck_assert_int_eq(ctl.cx, 299);
	ck_assert_int_eq(ctl.vx, 300 - ff_ctl_view_w(&ctl));
	ck_assert(ui & FF_UI_GRID);
	ff_ctl_key(&ctl, FF_KEY_HOME);
	ck_assert_int_eq(ctl.cx, 0);
	ck_assert_int_eq(ctl.vx, 0);
	ff_ctl_key(&ctl, 'h');                   /* clamped at the edge */
	ck_assert_int_eq(ctl.cx, 0);
	ff_ctl_run(&ctl, "goto 10,90");
	ck_assert_int_eq(ctl.cx, 10);
	ck_assert_int_eq(ctl.cy, 90);
	ck_assert(cursor_visible());
	ff_ctl_key(&ctl, FF_KEY_PGUP);
	ck_assert_int_eq(ctl.cy, 90 - ff_ctl_view_h(&ctl));
	ck_assert(cursor_visible());
	type("/250,3\n");                        /* jump through the prompt */
	ck_assert_int_eq(ctl.cx, 250);
	ck_assert_int_eq(ctl.cy, 3);
	ck_assert(cursor_visible());
	type("++");                              /* wide cells: fewer across */
	ck_assert_int_eq(ctl.zoom, 2);
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
	ck_assert_int_eq(ctl.pen, 5);
	ck_assert_int_eq(ctl.brush, 2);
	ff_ctl_run(&ctl, "goto 20,10");
	type(" ");
	ok(&ref, "circle 20,10 2 swamp");
	type("[[t");                             /* brush 0, pen after swamp: water */
	ck_assert_int_eq(ctl.pen, 20);
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
	ck_assert(ctl.cx == 2 && ctl.cy == 2);
	/* editor commands at the prompt */
	type(":zoom 1\n");
	ck_assert_int_eq(ctl.zoom, 1);
	type(":export view.txt\n");
	ck_assert_str_eq(io.target, "view.txt");
	ck_assert_ptr_nonnull(strstr(io.written, ".  1 .  1 "));
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

START_TEST(help_is_generated_from_the_keymap)
{
	const ff_binding *b;
	int n;

	start(20, 10, 80, 24);
	type("?");
	ck_assert_int_eq(ctl.mode, FF_MODE_HELP);
	n = ff_view_help_lines(&ctl);
	ck_assert_int_gt(n, 40);
	for (int i = 0; (b = ff_keymap_at(i)); i++) {
		bool found = false;
		char line[512];

		for (int j = 0; j < n && !found; j++) {
			ff_view_help_line(&ctl, j, line, sizeof line);
			found = strstr(line, b->help) && strstr(line, b->run);
		}
		ck_assert_msg(found, "binding '%s' missing from the help", b->run);
	}
	type("jj");
	ck_assert_int_eq(ctl.help_top, 2);
	type("q");
	ck_assert_int_eq(ctl.mode, FF_MODE_NORMAL);
	ck_assert(!ctl.quit);
	stop();
}
END_TEST

START_TEST(mouse_paints_by_click_and_drag)
{
	start(100, 50, 80, 24);
	ff_ctl_run(&ctl, "pen forest");
	/* the view starts at vx, vy: screen cell (sx, sy) is (vx + sx, vy + sy) */
	ff_ctl_mouse(&ctl, FF_MOUSE_PRESS, 5, 3, 1);
	ck_assert_int_eq(ctl.cx, ctl.vx + 5);
	ck_assert_int_eq(ff_level_cost(sess.level, ctl.vx + 5, ctl.vy + 3), 2);
	ff_ctl_mouse(&ctl, FF_MOUSE_DRAG, 9, 3, 1);
	for (int x = 5; x <= 9; x++)
		ck_assert_int_eq(ff_level_cost(sess.level, ctl.vx + x, ctl.vy + 3), 2);
	ff_ctl_mouse(&ctl, FF_MOUSE_RELEASE, 9, 3, 1);
	ff_ctl_mouse(&ctl, FF_MOUSE_DRAG, 9, 6, 1);  /* no button: no paint */
	ck_assert_int_eq(ff_level_cost(sess.level, ctl.vx + 9, ctl.vy + 6), 1);
	ff_ctl_mouse(&ctl, FF_MOUSE_PRESS, 0, 30, 1); /* status line: ignored */
	ck_assert_int_eq(ctl.cy, ctl.vy + 3);
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
	ck_assert_int_eq(ctl.cx, 100);
	ck_assert_int_eq(ff_level_cost(sess.level, 100, 50), 1);
	ck_assert(!sess.modified);
	ff_ctl_mouse(&ctl, FF_MOUSE_PRESS, 3, 3, 1);
	ck_assert_int_eq(ctl.cx, 100);
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

/* Three-column numbers round to hundreds above 999: 707 diagonal steps,
 * 999.85, read 1k0 (it once read 0k9). */
START_TEST(short_numbers_round)
{
	ff_cell_look look;

	start(710, 710, 80, 24);
	ok(&sess, "goal add cell 0,0");
	ok(&sess, "solve dijkstra 8");
	ctl.utf8 = false;
	type("n");                               /* numbers ... */
	ctl.zoom = 1;                            /* ... three columns wide */
	ff_view_cell(&ctl, 707, 707, &look);
	ck_assert_msg(!strcmp(look.text, "q1k0 "), "'%s'", look.text);
	ff_view_cell(&ctl, 706, 706, &look);       /* 998.44 */
	ck_assert_msg(!strcmp(look.text, "q998 "), "'%s'", look.text);
	ff_view_cell(&ctl, 689, 0, &look);
	ck_assert_msg(!strcmp(look.text, "<689 "), "'%s'", look.text);
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
	ctl.utf8 = false;
	ff_view_cell(&ctl, 5, 1, &look);
	ck_assert_str_eq(look.text, "<");        /* towards the goal */
	ff_view_cell(&ctl, 0, 1, &look);
	ck_assert_str_eq(look.text, "*");
	type("n");                               /* numbers: wide cells */
	ck_assert_int_eq(ctl.zoom, 2);
	ff_view_cell(&ctl, 5, 1, &look);
	ck_assert_str_eq(look.text, "<  5.00 ");
	ff_view_cell(&ctl, 3, 0, &look);
	ck_assert_str_eq(look.text, "d  3.41 ");   /* cheapest step: SW to 2,1 */
	ff_ctl_run(&ctl, "goto 3,0");
	ff_view_status(&ctl, status, sizeof status);
	ck_assert_msg(strstr(status, "int 3.41"), "%s", status);
	/* a wall edit repairs the field: the arrows go round */
	ok(&sess, "rect 2,0 1,2 wall");
	ff_view_cell(&ctl, 3, 0, &look);
	ck_assert_msg(!strcmp(look.text, "v  5.41 "), "'%s'", look.text);
	/* stepping shows the frontier */
	ok(&sess, "step begin");
	ok(&sess, "step cell 2");
	ctl.zoom = 0;
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
	ck_assert_str_eq(ff_view_phase(&ctl), "integrate");
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
	ctl.utf8 = false;
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
	ck_assert(ctl.running);
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
	ff_view_status(&ctl, status, sizeof status);
	ck_assert_msg(strstr(status, "| SIM run x1 |") && strstr(status, "arrived 25") &&
		      strstr(status, "alive 0") && strstr(status, "stranded 0"), "%s", status);
	type(" ");
	ck_assert(!ctl.running);
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
	ck_assert(ctl.recording);
	ff_ctl_run(&ctl, "goto 15,5");
	type("w");                               /* paint 15,5 wall */
	type("l");                               /* a move: not recorded */
	type("c");                               /* a layer: not recorded */
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
	ck_assert(!ctl.recording);
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
	ck_assert_ptr_null(strstr(io.written, "layer"));
	/* it replays headless to the state the editor ended in */
	snprintf(hash, sizeof hash, "expect hash %016llx\n",
		 (unsigned long long)ff_session_hash(&sess));
	ck_assert_ptr_nonnull(strstr(io.written, hash));
	ck_assert_str_eq(io.written + strlen(io.written) - strlen(hash), hash);
	ck_assert_msg(ff_replay_run(io.written, strlen(io.written), no_loader, &o, &rep, NULL) ==
		      FF_OK, "line %d: %s", rep.line, rep.msg);
	ck_assert_int_eq(rep.checks, 7);
	/* with agents present a new recording cannot start */
	type(":record again.replay\n");
	ck_assert(!ctl.recording);
	ck_assert_ptr_nonnull(strstr(ctl.msg, "agents"));
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
	ck_assert(ctl.recording);
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
	ck_assert(!ctl.recording);
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
	ck_assert(!ctl.recording);
	ck_assert_msg(ctl.msg_error && strstr(ctl.msg, "read-only file system"), "%s", ctl.msg);
	io.write_fail = 0;
	ff_ctl_run(&ctl, "record x.replay");
	ck_assert(ctl.recording);
	type("w");
	io.write_fail = FF_E_IO;                 /* the disk goes away */
	ff_ctl_run(&ctl, "q!");
	ck_assert(!ctl.quit);
	ck_assert(ctl.recording);
	ck_assert_msg(strstr(ctl.msg, ":q! again drops it"), "%s", ctl.msg);
	io.write_fail = 0;                       /* back: a plain save works */
	ff_ctl_run(&ctl, "record stop");
	ck_assert(!ctl.recording);
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
	ck_assert(!ctl.recording);               /* no database in this editor */
	ff_ctl_run(&ctl, "record x.replay");
	ck_assert(ctl.recording);
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

START_TEST(play_steps_line_by_line)
{
	static const char text[] =
		"fieldmarshal replay 1\n"
		"level inline\n"
		"fieldmarshal level 1\nname p\nsize 6 3\nterrain grass . 1\ngrid\n"
		"......\n......\n......\nend\n"
		"# a comment\n"
		"goal add cell 5,1\n"
		"solve\n"
		"expect value 0,1 5\n"
		"paint 2,1 wall\n";
	ff_replay_report rep;
	ff_replay_player *p = ff_replay_player_create(text, strlen(text), no_loader, NULL, &rep);
	ff_ctl c;

	ck_assert_ptr_nonnull(p);
	ff_ctl_init(&c, ff_replay_player_session(p), NULL, 80, 24);
	ff_ctl_play(&c, p, "p.replay");
	ck_assert_int_eq(c.mode, FF_MODE_PLAY);
	ff_ctl_key(&c, '.');
	ck_assert_msg(strstr(c.msg, "p.replay:13: goal add cell 5,1"), "%s", c.msg);
	ck_assert_int_eq(c.s->level->meta.ngoals, 1);
	ff_ctl_key(&c, 'w');                     /* not bound here: the replay alone edits */
	ck_assert_int_eq(ff_level_cost(c.s->level, c.cx, c.cy), 1);
	ff_ctl_key(&c, ' ');                     /* play: runs 'solve' at once */
	ck_assert(c.playing);
	ck_assert(c.s->field);
	ck_assert_int_eq(ff_ctl_idle(&c, 500), 0);   /* a line a second at x1 */
	ff_ctl_idle(&c, 500);
	ck_assert_msg(strstr(c.msg, ":15: expect value 0,1 5"), "%s", c.msg);
	ff_ctl_idle(&c, 1000);
	ck_assert_int_eq(ff_level_cost(c.s->level, 2, 1), FF_WALL);
	ff_ctl_idle(&c, 1000);
	ck_assert(c.play_done);
	ck_assert_ptr_nonnull(strstr(c.msg, "every check passed"));
	ff_ctl_key(&c, 'q');
	ck_assert(c.quit);
	ff_ctl_fini(&c);
	ff_replay_player_destroy(p);
}
END_TEST

/* --- layers and views --------------------------------------------------- */

static void teach_level(void)
{
	static const char *const rows[] = {"5,2 1,3 wall", "8,3 2,2 5"};

	start(12, 7, 100, 30);
	for (size_t i = 0; i < 2; i++) {
		char line[64];

		snprintf(line, sizeof line, "rect %s", rows[i]);
		ok(&sess, line);
	}
	ok(&sess, "goal add cell 10,3");
}

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
	/* the layer draws it */
	ctl.utf8 = false;
	type("C");
	ff_view_cell(&ctl, 9, 4, &look);
	ck_assert_str_eq(look.text, ">");
	ff_view_cell(&ctl, 11, 3, &look);
	ck_assert_str_eq(look.text, "<");
	ff_view_cell(&ctl, 10, 3, &look);
	ck_assert_str_eq(look.text, "*");
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
	ctl.utf8 = false;
	ff_view_cell(&ctl, 2, 2, &look);
	ck_assert_str_eq(look.text, "x");
	ck_assert_int_eq(look.kind, FF_LOOK_UNREACH);
	type("X");                               /* the layer off: terrain again */
	ff_view_cell(&ctl, 2, 2, &look);
	ck_assert_str_eq(look.text, ".");
	/* spawns keep their look under an arrow; monochrome marks them */
	ff_view_cell(&ctl, 6, 0, &look);
	ck_assert_int_eq(look.kind, FF_LOOK_SPAWN);
	ck_assert(ff_view_attrs(look.tier, look.kind, false) & FF_ATTR_UNDERLINE);
	ck_assert(ff_view_attrs(look.tier, FF_LOOK_GOAL, false) & FF_ATTR_REVERSE);
	ck_assert(ff_view_attrs(look.tier, FF_LOOK_FRONTIER, false) & FF_ATTR_REVERSE);
	ck_assert(ff_view_attrs(look.tier, FF_LOOK_UNREACH, false) & FF_ATTR_DIM);
	stop();
}
END_TEST

static void assert_same_field(const ff_solver *a, const ff_solver *b, int w, int h)
{
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			double va = ff_solver_value(a, x, y), vb = ff_solver_value(b, x, y);

			ck_assert_msg(va == vb || (isinf(va) && isinf(vb)), "%d,%d: %g vs %g", x, y,
				      va, vb);
			ck_assert_int_eq(ff_solver_dir(a, x, y), ff_solver_dir(b, x, y));
		}
}

START_TEST(split_view_panes_agree_with_direct_solves)
{
	ff_solver_opts fmm4 = {FF_METHOD_FMM, 4, 1, FF_ARROW_CHEAPEST}, dij8 = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_CHEAPEST};
	ff_solver *ref = ff_solver_create(12, 7);
	char status[512];

	teach_level();
	type("s|");                              /* solve; split: FMM on the right */
	ck_assert(ctl.split);
	ck_assert_int_eq(ff_ctl_panes(&ctl), 2);
	ck_assert_int_eq(ff_ctl_view_w(&ctl), 49);
	ck_assert_int_eq(ff_ctl_pane_x(&ctl, 1), 50);
	ff_ctl_run(&ctl, "split fmm2");
	ck_assert_msg(strstr(ctl.msg, "left dijkstra8, right fmm2;"), "%s", ctl.msg);
	ff_ctl_run(&ctl, "split fmm 4");
	ck_assert_msg(strstr(ctl.msg, "left dijkstra8, right fmm;"), "%s", ctl.msg);
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
	ck_assert(!ctl.split);
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
	ck_assert_ptr_nonnull(strstr(io.written, "\033[0;1;38;5;16;48;5;46m*"));  /* goal */
	ck_assert_ptr_nonnull(strstr(io.written, ";4;38;5;117"));                 /* spawn */
	ck_assert_ptr_nonnull(strstr(io.written, "\033[0m\n"));
	stop();
}
END_TEST

/* ':export FILE.svg|.png' draws what the layers show: the costs until a
 * field is solved, then its arrows or its numbers. */
START_TEST(export_picture_follows_the_layers)
{
	start(20, 5, 80, 24);
	ok(&sess, "goal add cell 18,2");
	ctl.layers |= FF_LAYER_ARROWS;
	ff_ctl_run(&ctl, "export p.svg");
	ck_assert_int_eq(io.pictures, 1);
	ck_assert_str_eq(io.target, "p.svg");
	ck_assert_int_eq(io.field, FF_PIC_COSTS);  /* nothing solved yet */
	type("s");
	ff_ctl_run(&ctl, "export p.png");
	ck_assert_int_eq(io.field, FF_PIC_FLOW);
	ck_assert_str_eq(io.target, "p.png");
	ctl.layers = (ctl.layers & ~FF_LAYER_ARROWS) | FF_LAYER_NUMBERS;
	ff_ctl_run(&ctl, "export p.svg");
	ck_assert_int_eq(io.field, FF_PIC_INTEGRATION);
	ctl.layers &= ~FF_LAYER_NUMBERS;
	ff_ctl_run(&ctl, "export p.svg");
	ck_assert_int_eq(io.field, FF_PIC_COSTS);
	ck_assert_int_eq(io.pictures, 4);
	ff_ctl_run(&ctl, "export p.txt");        /* other names: the text view */
	ck_assert_int_eq(io.pictures, 4);
	ck_assert_str_eq(io.target, "p.txt");
	stop();
}
END_TEST

START_TEST(large_solve_runs_in_slices)
{
	ff_solver_opts o = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_CHEAPEST};
	ff_solver *ref = ff_solver_create(120, 100);
	char status[512];
	int slices = 0;

	start(120, 100, 80, 24);
	ctl.slice_cells = 2000;
	ok(&sess, "rect 60,10 1,80 wall");
	ok(&sess, "goal add cell 100,50");
	type("s");
	ck_assert(ctl.solving);
	ck_assert_int_eq(ff_ctl_wait_ms(&ctl, 100), 0);
	ck_assert_int_ne(ff_solver_phase(sess.solver), FF_PHASE_DONE);
	ff_ctl_idle(&ctl, 1);
	ff_view_status(&ctl, status, sizeof status);
	ck_assert_msg(strstr(status, "solving dijkstra8"), "%s", status);
	while (ctl.solving && slices++ < 1000)
		ff_ctl_idle(&ctl, 1);
	ck_assert(!ctl.solving);
	ck_assert_int_gt(slices, 5);
	ck_assert_int_eq(ff_solver_phase(sess.solver), FF_PHASE_DONE);
	ck_assert(ff_solver_solve(ref, sess.level, sess.level->meta.goals, 1, &o) == FF_OK);
	assert_same_field(sess.solver, ref, 120, 100);
	ck_assert_ptr_nonnull(strstr(ctl.msg, "solved"));
	ff_solver_destroy(ref);
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
 * simulation's copy of the flow (sim_level.c reads ff_solver_flow()) is a
 * vector that reads as the same arrow.  (The editor used to draw FMM
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
		ctl.layers = FF_LAYER_ARROWS;          /* arrows only: nothing covers them */
		ok(&sess, method);
		ck_assert_int_eq(ff_session_sim(&sess, &sim), FF_OK);
		for (int y = 0; y < l->h; y++)
			for (int x = 0; x < l->w; x++) {
				int d = ff_solver_dir(sess.solver, x, y);
				size_t at = 2 * ((size_t)y * (size_t)l->w + (size_t)x);
				float fx, fy;

				for (int u = 0; u < 2; u++) {
					ctl.utf8 = u;
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
				ck_assert(sim->flow[at] == fx && sim->flow[at + 1] == fy);
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

static Suite *suite(void)
{
	Suite *s = suite_create("tui");
	TCase *tc = tcase_create("controller");

	tcase_add_test(tc, cursor_moves_and_scrolls);
	tcase_add_test(tc, painting_keys_equal_commands);
	tcase_add_test(tc, undo_and_redo);
	tcase_add_test(tc, prompt_runs_and_reports_errors);
	tcase_add_test(tc, quit_with_unsaved_changes_asks);
	tcase_add_test(tc, help_is_generated_from_the_keymap);
	tcase_add_test(tc, mouse_paints_by_click_and_drag);
	tcase_add_test(tc, too_small_and_resize);
	tcase_add_test(tc, short_numbers_round);
	tcase_add_test(tc, field_layers_show_values_and_arrows);
	tcase_add_test(tc, sim_mode_runs_pauses_and_ticks);
	tcase_add_test(tc, sim_mode_wall_painted_while_running);
	tcase_add_test(tc, recording_writes_the_commands_run);
	tcase_add_test(tc, recording_a_stepped_field_starts_with_its_steps);
	tcase_add_test(tc, recording_keeps_earlier_history_out_of_reach);
	tcase_add_test(tc, recording_not_lost_on_quit);
	tcase_add_test(tc, play_steps_line_by_line);
	tcase_add_test(tc, came_from_layer_names_the_settling_neighbour);
	tcase_add_test(tc, unreachable_cells_and_monochrome_marks);
	tcase_add_test(tc, split_view_panes_agree_with_direct_solves);
	tcase_add_test(tc, export_ansi_has_colours);
	tcase_add_test(tc, export_picture_follows_the_layers);
	tcase_add_test(tc, large_solve_runs_in_slices);
	tcase_add_test(tc, one_arrow_for_editor_cli_and_sim);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
