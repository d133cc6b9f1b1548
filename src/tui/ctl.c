/*
 * ctl.c - the controller's core: modes, the path from a key (or a mouse
 * event) to a command line, and running a line, an editor command from the
 * table in ctl_cmd.c or a level command through ff_cmd_exec().  Modes are a
 * small table {name, enter, leave, other} where OTHER handles a key the
 * keymap does not bind (the prompt inserts it).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/level_dyn.h"
#include "core/replay.h"
#include "ctl_int.h"

#define MAX_ARGS 12

void ff_ctl_say(ff_ctl *c, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->msg, sizeof c->msg, fmt, ap);
	va_end(ap);
	ff_escape_msg(c->msg, sizeof c->msg);
	c->msg_error = error;
}

/* A whole number within +-2^30 (sscanf's %d is undefined on overflow). */
bool ff_ctl_parse_int(const char *s, int *v)
{
	char *e;
	long n;

	errno = 0;
	n = strtol(s, &e, 10);
	if (e == s || *e || errno || labs(n) > 1L << 30)
		return false;
	*v = (int)n;
	return true;
}

bool ff_ctl_parse_xy(const char *s, int *x, int *y)
{
	const char *end;

	return ff_cmd_read_xy(s, x, y, &end) && !*end;
}

int ff_ctl_clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* --- modes ------------------------------------------------------------- */

typedef struct mode {
	unsigned (*enter)(ff_ctl *c);
	unsigned (*leave)(ff_ctl *c);
	unsigned (*other)(ff_ctl *c, int key);   /* an unbound key */
} mode;

static unsigned grid_other(ff_ctl *c, int key)
{
	char name[16];

	if (key == FF_KEY_NONE)
		return 0;
	ff_key_name(key, name, sizeof name);
	ff_ctl_say(c, true, "%s is not bound here; ? shows the keys", name);
	return FF_UI_MSG;
}

static unsigned prompt_other(ff_ctl *c, int key)
{
	return ff_prompt_key(&c->prompt, key) ? FF_UI_MSG : 0;
}

static unsigned ignore_other(ff_ctl *c, int key)
{
	(void)c, (void)key;
	return 0;
}

static unsigned select_enter(ff_ctl *c)
{
	ff_ctl_mark_here(c);
	return FF_UI_GRID;
}

static unsigned select_leave(ff_ctl *c)
{
	c->pen.marked = false;
	return FF_UI_GRID;
}

static unsigned full_enter(ff_ctl *c)
{
	(void)c;
	return FF_UI_CLEAR;
}

static unsigned help_enter(ff_ctl *c)
{
	c->help.top = 0;
	return FF_UI_CLEAR;
}

static unsigned sim_leave(ff_ctl *c)
{
	c->sim.running = false;
	return FF_UI_STATUS;
}

static unsigned play_leave(ff_ctl *c)
{
	c->play.playing = false;
	return FF_UI_STATUS;
}

static const mode modes[FF_MODE__COUNT] = {
	[FF_MODE_NORMAL] = {NULL, NULL, grid_other},
	[FF_MODE_SELECT] = {select_enter, select_leave, grid_other},
	[FF_MODE_PROMPT] = {NULL, NULL, prompt_other},
	[FF_MODE_HELP] = {help_enter, full_enter, ignore_other},
	[FF_MODE_CONFIRM] = {NULL, NULL, ignore_other},
	[FF_MODE_SIM] = {NULL, sim_leave, grid_other},
	[FF_MODE_PLAY] = {NULL, play_leave, grid_other},
};

ff_mode_id ff_ctl_grid_mode(const ff_ctl *c)
{
	if (c->play.player)
		return FF_MODE_PLAY;
	if (c->sim.in_sim)
		return FF_MODE_SIM;
	return c->pen.marked ? FF_MODE_SELECT : FF_MODE_NORMAL;
}

static bool overlay(ff_mode_id m)
{
	return m == FF_MODE_PROMPT || m == FF_MODE_HELP || m == FF_MODE_CONFIRM;
}

unsigned ff_ctl_set_mode(ff_ctl *c, ff_mode_id m)
{
	unsigned ui = FF_UI_STATUS | FF_UI_MSG;

	if (m == c->mode)
		return 0;
	/* the prompt, help and confirmation sit on top of SIM and PLAY, which
	 * keep running underneath */
	if (modes[c->mode].leave &&
	    !((c->mode == FF_MODE_SIM || c->mode == FF_MODE_PLAY) && overlay(m)))
		ui |= modes[c->mode].leave(c);
	if (m == FF_MODE_PROMPT)
		c->prompt_from = c->mode == FF_MODE_HELP ? FF_MODE_HELP : ff_ctl_grid_mode(c);
	if (m == FF_MODE_SIM || m == FF_MODE_NORMAL || m == FF_MODE_SELECT)
		c->sim.in_sim = m == FF_MODE_SIM;
	if (!(m == FF_MODE_HELP && c->mode == FF_MODE_PROMPT) && modes[m].enter)
		ui |= modes[m].enter(c);
	c->mode = m;
	return ui | (m == FF_MODE_HELP ? FF_UI_GRID : 0);
}

/* --- running commands -------------------------------------------------- */

unsigned ff_ctl_core(ff_ctl *c, const char *line, bool from_prompt)
{
	unsigned ui = FF_UI_STATUS;
	ff_err err;

	if (c->play.player) {
		ff_ctl_say(c, true, "a replay is playing: it alone changes the level");
		return FF_UI_MSG;
	}
	ff_ctl_rec_flush(c);     /* ticks gathered so far come first */
	err = ff_cmd_exec(c->s, line, &c->last);
	if (err) {
		if (from_prompt && c->last.col > 0)
			ff_ctl_say(c, true, "column %d: %s", c->last.col, c->last.msg);
		else
			ff_ctl_say(c, true, "%s", c->last.msg);
		return ui | FF_UI_MSG;
	}
	ff_ctl_rec_line(c, line);
	ff_ctl_changed(c, c->last.redraw);
	if (c->last.redraw & (FF_REDRAW_CELLS | FF_REDRAW_META | FF_REDRAW_FIELD |
			      FF_REDRAW_AGENTS))
		ui |= FF_UI_GRID;
	if (c->last.msg[0]) {
		ff_ctl_say(c, false, "%s", c->last.msg);
		ui |= FF_UI_MSG;
	}
	/* undo/redo of a resize may leave the cursor outside */
	if (!ff_level_in(c->s->level, c->view.cx, c->view.cy)) {
		c->view.cx = ff_ctl_clamp(c->view.cx, 0, c->s->level->w - 1);
		c->view.cy = ff_ctl_clamp(c->view.cy, 0, c->s->level->h - 1);
		c->pen.marked = false;
	}
	return ui | ff_ctl_follow(c);
}

/* Runs LINE: an editor command of the table, else a level command. */
static unsigned run_line(ff_ctl *c, const char *line, bool from_prompt)
{
	char buf[FF_PROMPT_MAX], *argv[MAX_ARGS], *p = buf;
	const ff_ui_cmd *u;
	int argc = 0;
	unsigned ui;

	snprintf(buf, sizeof buf, "%s", line);
	while (argc < MAX_ARGS) {
		while (*p == ' ' || *p == '\t')
			*p++ = '\0';
		if (!*p)
			break;
		argv[argc++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	if (argc == 0 || argv[0][0] == '#')
		return 0;
	if (!strcmp(argv[0], "solve")) {
		bool handled;

		ui = ff_ctl_solve_sliced(c, argc, argv, &handled);
		if (handled)
			return ui;
	}
	u = ff_ui_cmd_find(argv[0]);
	if (!u)
		return ff_ctl_core(c, line, from_prompt);
	ui = u->fn(c, argc, argv);
	if ((u->flags & FF_UI_CMD_VIEW) && !(c->msg_error && c->msg[0]))
		ff_ctl_rec_view(c, line);
	return ui;
}

unsigned ff_ctl_line(ff_ctl *c, const char *line)
{
	return run_line(c, line, false);
}

unsigned ff_ctl_run(ff_ctl *c, const char *line)
{
	return run_line(c, line, true);
}

/* --- templates --------------------------------------------------------- */

bool ff_ctl_expand(const ff_ctl *c, const char *tmpl, char *out, size_t size)
{
	const ff_ctl_view *v = &c->view;
	int x0, y0, x1, y1;
	size_t n = 0;

	ff_ctl_selection(c, &x0, &y0, &x1, &y1);
	for (const char *p = tmpl; *p;) {
		char val[64];
		const char *end;
		size_t k;

		if (*p != '{') {
			if (n + 1 >= size)
				return false;
			out[n++] = *p++;
			continue;
		}
		end = strchr(p, '}');
		if (!end)
			return false;
		k = (size_t)(end - p - 1);
#define IS(s) (k == strlen(s) && !strncmp(p + 1, s, k))
		if (IS("x"))
			snprintf(val, sizeof val, "%d", v->cx);
		else if (IS("y"))
			snprintf(val, sizeof val, "%d", v->cy);
		else if (IS("t"))
			ff_ctl_terrain_word(c, c->pen.cost, val, sizeof val);
		else if (IS("dp"))
			ff_dyn_word(c->pen.dyn, val);
		else if (IS("mx"))
			snprintf(val, sizeof val, "%d", c->pen.mx);
		else if (IS("my"))
			snprintf(val, sizeof val, "%d", c->pen.my);
		else if (IS("x0"))
			snprintf(val, sizeof val, "%d", x0);
		else if (IS("y0"))
			snprintf(val, sizeof val, "%d", y0);
		else if (IS("w"))
			snprintf(val, sizeof val, "%d", x1 - x0 + 1);
		else if (IS("h"))
			snprintf(val, sizeof val, "%d", y1 - y0 + 1);
		else if (IS("group"))
			snprintf(val, sizeof val, "%s",
				 ff_level_group_name(c->s->level, ff_ctl_group(c)));
		else if (IS("r"))
			snprintf(val, sizeof val, "%d",
				 (int)lround(hypot(v->cx - c->pen.mx, v->cy - c->pen.my)));
		else
			return false;
#undef IS
		if (n + strlen(val) >= size)
			return false;
		memcpy(out + n, val, strlen(val));
		n += strlen(val);
		p = end + 1;
	}
	out[n] = '\0';
	return true;
}

/* --- input ------------------------------------------------------------- */

/* Runs binding B. */
static unsigned run_binding(ff_ctl *c, const ff_binding *b)
{
	char line[FF_PROMPT_MAX];
	unsigned ui;

	if (!ff_ctl_expand(c, b->run, line, sizeof line)) {
		ff_ctl_say(c, true, "bad key binding '%s'", b->run);
		return FF_UI_MSG;
	}
	ui = run_line(c, line, false);
	/* a selection shape, once drawn, drops the mark */
	if ((b->flags & FF_BIND_ENDS_MARK) && c->mode == FF_MODE_SELECT &&
	    !(c->msg[0] && c->msg_error))
		ui |= ff_ctl_set_mode(c, FF_MODE_NORMAL);
	return ui;
}

unsigned ff_ctl_key(ff_ctl *c, int key)
{
	const ff_binding *b;
	char name[16], name2[16];
	int first = c->pending;
	unsigned ui = 0;

	if (key == FF_KEY_NONE)
		return 0;
	c->pending = 0;
	/* too small to show what a key does: only quitting (and answering
	 * its question, which the notice shows) */
	if (ff_ctl_too_small(c) && c->mode != FF_MODE_CONFIRM) {
		if (key != 'q' && key != FF_CTRL('c'))
			return 0;
		return ff_ctl_set_mode(c, ff_ctl_grid_mode(c)) | run_line(c, "quit", false) |
		       FF_UI_MSG;
	}
	if (c->msg[0] && c->mode != FF_MODE_CONFIRM) {
		c->msg[0] = '\0';
		ui |= FF_UI_MSG;
	}
	if (first) {
		b = ff_keymap_find(c->mode, first, key);
		if (b)
			return ui | run_binding(c, b);
		ff_key_name(first, name, sizeof name);
		ff_key_name(key, name2, sizeof name2);
		ff_ctl_say(c, true, "%s %s is not bound here; ? shows the keys", name, name2);
		return ui | FF_UI_MSG;
	}
	if (ff_keymap_prefix(c->mode, key)) {
		c->pending = key;
		ff_key_name(key, name, sizeof name);
		ff_ctl_say(c, false, "%s-", name);
		return ui | FF_UI_MSG;
	}
	b = ff_keymap_find(c->mode, key, 0);
	if (!b)
		return ui | modes[c->mode].other(c, key);
	return ui | run_binding(c, b);
}

unsigned ff_ctl_mouse(ff_ctl *c, ff_mouse_kind kind, int sx, int sy, int button)
{
	ff_ctl_pen *p = &c->pen;
	unsigned ui = 0;
	int x, y;

	if ((c->mode != FF_MODE_NORMAL && c->mode != FF_MODE_SELECT && c->mode != FF_MODE_SIM) ||
	    ff_ctl_too_small(c))
		return 0;
	if (kind == FF_MOUSE_WHEEL_UP || kind == FF_MOUSE_WHEEL_DOWN)
		return ff_ctl_move_to(c, c->view.cx,
				      c->view.cy + (kind == FF_MOUSE_WHEEL_UP ? -3 : 3));
	if (kind == FF_MOUSE_RELEASE) {
		p->dragging = false;
		return 0;
	}
	if (!ff_ctl_screen_cell(c, sx, sy, &x, &y))
		return 0;
	if (kind == FF_MOUSE_DRAG && !p->dragging)
		return 0;
	if (c->msg[0]) {
		c->msg[0] = '\0';
		ui |= FF_UI_MSG;
	}
	p->drawing = false;
	ui |= ff_ctl_move_to(c, x, y);
	if (button != 1 || (c->mode != FF_MODE_NORMAL && c->mode != FF_MODE_SIM))
		return ui;
	if (kind == FF_MOUSE_PRESS) {
		p->dragging = true;
		ui |= ff_ctl_dab(c, p->cost);
	} else if (x != p->lx || y != p->ly) {
		ui |= ff_ctl_stroke(c, p->lx, p->ly);
	}
	p->lx = x, p->ly = y;
	return ui;
}

unsigned ff_ctl_resize(ff_ctl *c, int cols, int rows)
{
	c->cols = cols;
	c->rows = rows;
	ff_ctl_follow(c);
	return FF_UI_ALL;
}

/* --- lifecycle --------------------------------------------------------- */

void ff_ctl_init(ff_ctl *c, ff_session *s, const ff_ctl_hooks *hooks, int cols, int rows)
{
	const ff_level *l = s->level;

	memset(c, 0, sizeof *c);
	c->s = s;
	if (hooks)
		c->hooks = *hooks;
	c->mode = FF_MODE_NORMAL;
	c->cols = cols, c->rows = rows;
	c->view.layers = FF_LAYERS_DEFAULT;
	c->view.cx = l->w / 2, c->view.cy = l->h / 2;
	c->view.group = ff_session_field_group(s);    /* the group of the field shown */
	c->pen.cost = FF_WALL;
	c->pen.dyn = FF_WALL;
	c->slice.cells = FF_SLICE_CELLS;
	c->rec.log = (ff_buf)FF_BUF_INIT;
	c->split.opts = (ff_solver_opts){FF_METHOD_FMM, 8, 1, FF_ARROW_CHEAPEST, 0, false};
	ff_prompt_init(&c->prompt);
	ff_session_keep_log(s);
	ff_ctl_center(c);
}

void ff_ctl_fini(ff_ctl *c)
{
	ff_buf_fini(&c->rec.log);
	ff_solver_destroy(c->split.solver);
	free(c->sim.occ);
	c->split.solver = NULL;
	c->sim.occ = NULL;
}

unsigned ff_ctl_idle(ff_ctl *c, double elapsed_ms)
{
	if (c->mode == FF_MODE_PLAY || c->play.player)
		return ff_ctl_play_idle(c, elapsed_ms);
	if (c->slice.solving)
		return ff_ctl_slice_idle(c);
	return ff_ctl_sim_idle(c, elapsed_ms);
}
