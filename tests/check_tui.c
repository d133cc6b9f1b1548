/*
 * check_tui.c - the editor's controller driven by synthetic keys, with no
 * terminal: cursor moves and scrolling, painting by keys equals the same
 * commands typed, undo/redo, the prompt (running commands, reporting
 * errors with their column, history), quitting with unsaved changes, the
 * help generated from the keymap, mouse painting, and the field layers.
 */
#include <string.h>

#include "core/cmd.h"
#include "testutil.h"
#include "tui/ctl.h"
#include "tui/view.h"

typedef struct fake_io {
	int saves;
	char target[256];
	char written[8192];
	int fail;
} fake_io;

static int fake_save(void *ctx, ff_session *s, const char *target, bool force, char *msg,
		     size_t size)
{
	fake_io *io = ctx;

	(void)s, (void)force;
	if (io->fail) {
		snprintf(msg, size, "disk full");
		return io->fail;
	}
	io->saves++;
	snprintf(io->target, sizeof io->target, "%s", target ? target : "");
	snprintf(msg, size, "saved");
	return 0;
}

static int fake_write(void *ctx, const char *path, const char *data, size_t len, char *msg,
		      size_t size)
{
	fake_io *io = ctx;

	snprintf(io->target, sizeof io->target, "%s", path);
	snprintf(io->written, sizeof io->written, "%.*s", (int)len, data);
	snprintf(msg, size, "wrote");
	return 0;
}

static fake_io io;
static ff_session sess;
static ff_ctl ctl;

static void start(int w, int h, int cols, int rows)
{
	ff_ctl_hooks hooks = {&io, fake_save, fake_write};

	memset(&io, 0, sizeof io);
	ff_session_init(&sess, ff_level_create(w, h, "t"));
	ck_assert_ptr_nonnull(sess.level);
	ff_ctl_init(&ctl, &sess, &hooks, cols, rows);
}

static void stop(void)
{
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
	type("l");                               /* keys still work */
	ck_assert_int_eq(ctl.cx, 101);
	ff_ctl_resize(&ctl, 120, 40);
	ck_assert(!ff_ctl_too_small(&ctl));
	ck_assert_int_eq(ff_ctl_view_w(&ctl), 120);
	ck_assert_int_eq(ff_ctl_view_h(&ctl), 38);
	ck_assert(cursor_visible());
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
	ck_assert_str_eq(look.text, "/  3.41 ");   /* lowest neighbour: 2,1 */
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
	tcase_add_test(tc, field_layers_show_values_and_arrows);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
