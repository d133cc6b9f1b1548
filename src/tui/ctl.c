/*
 * ctl.c - the controller: modes, the editor commands, and the path from a
 * key to a command.  Modes are a small table {name, enter, leave, other}
 * where OTHER handles a key the keymap does not bind (the prompt inserts
 * it).  Editor commands change only the view; everything else goes to
 * ff_cmd_exec().
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/replay.h"
#include "ctl_int.h"
#include "view.h"

#define MAX_ARGS 8
#define say ff_ctl_say

void ff_ctl_say(ff_ctl *c, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->msg, sizeof c->msg, fmt, ap);
	va_end(ap);
	ff_escape_msg(c->msg, sizeof c->msg);
	c->msg_error = error;
}

/* --- modes ------------------------------------------------------------- */

typedef struct mode {
	const char *name;
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
	say(c, true, "%s is not bound here; ? shows the keys", name);
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
	c->marked = true;
	c->mx = c->cx, c->my = c->cy;
	return FF_UI_GRID;
}

static unsigned select_leave(ff_ctl *c)
{
	c->marked = false;
	return FF_UI_GRID;
}

static unsigned full_enter(ff_ctl *c)
{
	(void)c;
	return FF_UI_CLEAR;
}

static unsigned help_enter(ff_ctl *c)
{
	c->help_top = 0;
	return FF_UI_CLEAR;
}

static unsigned sim_leave(ff_ctl *c)
{
	c->running = false;
	return FF_UI_STATUS;
}

static unsigned play_leave(ff_ctl *c)
{
	c->playing = false;
	return FF_UI_STATUS;
}

static const mode modes[FF_MODE__COUNT] = {
	[FF_MODE_NORMAL] = {"EDIT", NULL, NULL, grid_other},
	[FF_MODE_SELECT] = {"SELECT", select_enter, select_leave, grid_other},
	[FF_MODE_PROMPT] = {"PROMPT", NULL, NULL, prompt_other},
	[FF_MODE_HELP] = {"HELP", help_enter, full_enter, ignore_other},
	[FF_MODE_CONFIRM] = {"QUIT?", NULL, NULL, ignore_other},
	[FF_MODE_SIM] = {"SIM", NULL, sim_leave, grid_other},
	[FF_MODE_PLAY] = {"PLAY", NULL, play_leave, grid_other},
};

/* The mode a prompt, the help or a confirmation returns to. */
static ff_mode_id back_mode(const ff_ctl *c)
{
	if (c->player)
		return FF_MODE_PLAY;
	if (c->in_sim)
		return FF_MODE_SIM;
	return c->marked ? FF_MODE_SELECT : FF_MODE_NORMAL;
}

#define grid_mode back_mode

unsigned ff_ctl_set_mode(ff_ctl *c, ff_mode_id m)
{
	unsigned ui = FF_UI_STATUS | FF_UI_MSG;

	if (m == c->mode)
		return 0;
	/* the prompt, help and confirmation sit on top of SIM and PLAY, which
	 * keep running underneath */
	if (modes[c->mode].leave &&
	    !((c->mode == FF_MODE_SIM || c->mode == FF_MODE_PLAY) &&
	      (m == FF_MODE_PROMPT || m == FF_MODE_HELP || m == FF_MODE_CONFIRM)))
		ui |= modes[c->mode].leave(c);
	if (m == FF_MODE_SIM || m == FF_MODE_NORMAL || m == FF_MODE_SELECT)
		c->in_sim = m == FF_MODE_SIM;
	c->mode = m;
	if (modes[m].enter)
		ui |= modes[m].enter(c);
	return ui;
}

#define set_mode ff_ctl_set_mode

/* --- geometry ---------------------------------------------------------- */

int ff_ctl_cell_width(int zoom)
{
	static const int widths[FF_ZOOM_MAX + 1] = {1, 5, 8};

	return widths[zoom < 0 ? 0 : zoom > FF_ZOOM_MAX ? FF_ZOOM_MAX : zoom];
}

int ff_ctl_view_w(const ff_ctl *c)
{
	int cols = c->split ? (c->cols - 1) / 2 : c->cols;
	int n = cols / ff_ctl_cell_width(c->zoom);

	return n < 1 ? 1 : n;
}

int ff_ctl_panes(const ff_ctl *c)
{
	return c->split ? 2 : 1;
}

int ff_ctl_pane_x(const ff_ctl *c, int pane)
{
	return pane == 0 ? 0 : ff_ctl_view_w(c) * ff_ctl_cell_width(c->zoom) + 1;
}

const ff_solver *ff_ctl_pane_solver(const ff_ctl *c, int pane)
{
	if (pane == 0)
		return c->s->field && c->s->solver ? c->s->solver : NULL;
	return c->split && c->field2 ? c->solver2 : NULL;
}

const ff_solver_opts *ff_ctl_pane_opts(const ff_ctl *c, int pane)
{
	return pane == 0 ? &c->s->opts : &c->opts2;
}

int ff_ctl_agents_at(const ff_ctl *c, int x, int y)
{
	const ff_level *l = c->s->level;

	if (!c->occ || !c->s->sim || c->occ_w != l->w || c->occ_h != l->h ||
	    !ff_level_in(l, x, y))
		return 0;
	return c->occ[(size_t)y * (size_t)l->w + (size_t)x];
}

int ff_ctl_view_h(const ff_ctl *c)
{
	return c->rows - 2 < 1 ? 1 : c->rows - 2;
}

bool ff_ctl_too_small(const ff_ctl *c)
{
	return c->cols < FF_MIN_COLS || c->rows < FF_MIN_ROWS;
}

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Scrolls the least that keeps the cursor MARGIN cells from the edges;
 * returns the redraw mask (grid when the view moved). */
static unsigned follow(ff_ctl *c)
{
	const ff_level *l = c->s->level;
	int vw = ff_ctl_view_w(c), vh = ff_ctl_view_h(c);
	int mx = vw > 8 ? 2 : 0, my = vh > 8 ? 2 : 0;
	int ox = c->vx, oy = c->vy;

	if (c->cx < c->vx + mx)
		c->vx = c->cx - mx;
	if (c->cx > c->vx + vw - 1 - mx)
		c->vx = c->cx - vw + 1 + mx;
	if (c->cy < c->vy + my)
		c->vy = c->cy - my;
	if (c->cy > c->vy + vh - 1 - my)
		c->vy = c->cy - vh + 1 + my;
	c->vx = clampi(c->vx, 0, l->w > vw ? l->w - vw : 0);
	c->vy = clampi(c->vy, 0, l->h > vh ? l->h - vh : 0);
	return c->vx != ox || c->vy != oy ? FF_UI_GRID : 0;
}

static unsigned center(ff_ctl *c)
{
	c->vx = c->cx - ff_ctl_view_w(c) / 2;
	c->vy = c->cy - ff_ctl_view_h(c) / 2;
	follow(c);
	return FF_UI_GRID | FF_UI_STATUS;
}

void ff_ctl_selection(const ff_ctl *c, int *x0, int *y0, int *x1, int *y1)
{
	*x0 = c->mx < c->cx ? c->mx : c->cx;
	*x1 = c->mx < c->cx ? c->cx : c->mx;
	*y0 = c->my < c->cy ? c->my : c->cy;
	*y1 = c->my < c->cy ? c->cy : c->my;
}

void ff_ctl_terrain_word(const ff_ctl *c, int cost, char *buf, size_t size)
{
	int t = ff_level_terrain_by_value(c->s->level, cost);

	if (cost == FF_WALL)
		snprintf(buf, size, "wall");
	else if (t >= 0)
		snprintf(buf, size, "%s", c->s->level->meta.palette[t].name);
	else
		snprintf(buf, size, "%d", cost);
}

/* --- running commands -------------------------------------------------- */

/* Runs LINE through the core; FROM_PROMPT adds the column to errors. */
static unsigned run_core(ff_ctl *c, const char *line, bool from_prompt)
{
	unsigned ui = FF_UI_STATUS;
	ff_err err;

	if (c->player) {
		say(c, true, "a replay is playing: it alone changes the level");
		return FF_UI_MSG;
	}
	ff_ctl_rec_flush(c);     /* ticks gathered so far come first */
	err = ff_cmd_exec(c->s, line, &c->last);
	if (err) {
		if (from_prompt && c->last.col > 0)
			say(c, true, "column %d: %s", c->last.col, c->last.msg);
		else
			say(c, true, "%s", c->last.msg);
		return ui | FF_UI_MSG;
	}
	ff_ctl_rec_line(c, line);
	ff_ctl_changed(c, c->last.redraw);
	if (c->last.redraw & (FF_REDRAW_CELLS | FF_REDRAW_META | FF_REDRAW_FIELD |
			      FF_REDRAW_AGENTS))
		ui |= FF_UI_GRID;
	if (c->last.msg[0]) {
		say(c, false, "%s", c->last.msg);
		ui |= FF_UI_MSG;
	}
	/* undo/redo of a resize may leave the cursor outside */
	if (!ff_level_in(c->s->level, c->cx, c->cy)) {
		c->cx = clampi(c->cx, 0, c->s->level->w - 1);
		c->cy = clampi(c->cy, 0, c->s->level->h - 1);
		c->marked = false;
	}
	return ui | follow(c);
}

static unsigned run_line(ff_ctl *c, const char *line, bool from_prompt);

unsigned ff_ctl_core(ff_ctl *c, const char *line, bool from_prompt)
{
	return run_core(c, line, from_prompt);
}

unsigned ff_ctl_line(ff_ctl *c, const char *line)
{
	return run_line(c, line, false);
}

/* Paints the brush at the cursor with COST. */
static unsigned dab(ff_ctl *c, int cost)
{
	char word[FF_TERRAIN_NAME_MAX + 8], line[128];

	ff_ctl_terrain_word(c, cost, word, sizeof word);
	if (c->brush == 0)
		snprintf(line, sizeof line, "paint %d,%d %s", c->cx, c->cy, word);
	else
		snprintf(line, sizeof line, "circle %d,%d %d %s", c->cx, c->cy, c->brush, word);
	return run_core(c, line, false);
}

/* Paints from (X0, Y0) to the cursor with the pen (pen down, mouse drags). */
static unsigned stroke(ff_ctl *c, int x0, int y0)
{
	char word[FF_TERRAIN_NAME_MAX + 8], line[128];

	if (c->brush > 0)
		return dab(c, c->pen);
	ff_ctl_terrain_word(c, c->pen, word, sizeof word);
	snprintf(line, sizeof line, "line %d,%d %d,%d %s", x0, y0, c->cx, c->cy, word);
	return run_core(c, line, false);
}

static unsigned move_to(ff_ctl *c, int x, int y)
{
	const ff_level *l = c->s->level;
	int ox = c->cx, oy = c->cy;
	unsigned ui;

	c->cx = clampi(x, 0, l->w - 1);
	c->cy = clampi(y, 0, l->h - 1);
	if (c->cx == ox && c->cy == oy)
		return 0;
	ui = FF_UI_CURSOR | FF_UI_STATUS | follow(c);
	if (c->marked)
		ui |= FF_UI_GRID;
	if (c->drawing)
		ui |= stroke(c, ox, oy);
	return ui;
}

/* --- editor commands --------------------------------------------------- */

typedef unsigned (*ui_fn)(ff_ctl *c, int argc, char **argv);

static unsigned usage(ff_ctl *c, const char *text)
{
	say(c, true, "usage: %s", text);
	return FF_UI_MSG;
}

unsigned ff_ctl_usage(ff_ctl *c, const char *text)
{
	return usage(c, text);
}

static bool parse_xy(const char *s, int *x, int *y)
{
	const char *end;

	return ff_cmd_read_xy(s, x, y, &end) && !*end;
}

/* A whole number within +-2^30 (sscanf's %d is undefined on overflow). */
static bool parse_int(const char *s, int *v)
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

bool ff_ctl_parse_int(const char *s, int *v)
{
	return parse_int(s, v);
}

static unsigned ui_move(ff_ctl *c, int argc, char **argv)
{
	int dx, dy;

	if (argc != 2 || !parse_xy(argv[1], &dx, &dy))
		return usage(c, "move DX,DY");
	return move_to(c, c->cx + dx, c->cy + dy);
}

static unsigned ui_goto(ff_ctl *c, int argc, char **argv)
{
	int x, y;

	if (argc != 2 || !parse_xy(argv[1], &x, &y))
		return usage(c, "goto X,Y");
	if (!ff_level_in(c->s->level, x, y)) {
		say(c, true, "%d,%d is outside the %dx%d level", x, y, c->s->level->w,
		    c->s->level->h);
		return FF_UI_MSG;
	}
	return move_to(c, x, y) | center(c);
}

static unsigned ui_page(ff_ctl *c, int argc, char **argv)
{
	int vw = ff_ctl_view_w(c), vh = ff_ctl_view_h(c);

	if (argc == 2 && !strcmp(argv[1], "up"))
		return move_to(c, c->cx, c->cy - vh);
	if (argc == 2 && !strcmp(argv[1], "down"))
		return move_to(c, c->cx, c->cy + vh);
	if (argc == 2 && !strcmp(argv[1], "left"))
		return move_to(c, c->cx - vw, c->cy);
	if (argc == 2 && !strcmp(argv[1], "right"))
		return move_to(c, c->cx + vw, c->cy);
	return usage(c, "page up|down|left|right");
}

static unsigned ui_edge(ff_ctl *c, int argc, char **argv)
{
	const ff_level *l = c->s->level;

	if (argc == 2 && !strcmp(argv[1], "left"))
		return move_to(c, 0, c->cy);
	if (argc == 2 && !strcmp(argv[1], "right"))
		return move_to(c, l->w - 1, c->cy);
	if (argc == 2 && !strcmp(argv[1], "top"))
		return move_to(c, c->cx, 0);
	if (argc == 2 && !strcmp(argv[1], "bottom"))
		return move_to(c, c->cx, l->h - 1);
	return usage(c, "edge left|right|top|bottom");
}

static unsigned ui_center(ff_ctl *c, int argc, char **argv)
{
	(void)argv;
	if (argc != 1)
		return usage(c, "center");
	return center(c);
}

static unsigned ui_zoom(ff_ctl *c, int argc, char **argv)
{
	int z = c->zoom;

	if (argc == 2 && !strcmp(argv[1], "in"))
		z++;
	else if (argc == 2 && !strcmp(argv[1], "out"))
		z--;
	else if (argc != 2 || !parse_int(argv[1], &z) || z < 0 || z > FF_ZOOM_MAX)
		return usage(c, "zoom in|out|0|1|2");
	z = clampi(z, 0, FF_ZOOM_MAX);
	if (z == c->zoom)
		return 0;
	c->zoom = z;
	follow(c);
	return center(c) | FF_UI_CLEAR;
}

static const struct {
	const char *name;
	unsigned bit;
} layer_names[] = {
	{"costs", FF_LAYER_COSTS}, {"numbers", FF_LAYER_NUMBERS},
	{"arrows", FF_LAYER_ARROWS}, {"frontier", FF_LAYER_FRONTIER},
	{"goals", FF_LAYER_GOALS}, {"spawns", FF_LAYER_SPAWNS},
	{"from", FF_LAYER_FROM}, {"unreachable", FF_LAYER_UNREACH},
	{"agents", FF_LAYER_AGENTS},
};

static unsigned ui_layer(ff_ctl *c, int argc, char **argv)
{
	unsigned bit = 0, ui = FF_UI_GRID | FF_UI_STATUS | FF_UI_MSG;
	bool on;

	for (size_t i = 0; argc >= 2 && i < sizeof layer_names / sizeof layer_names[0]; i++)
		if (!strcmp(argv[1], layer_names[i].name))
			bit = layer_names[i].bit;
	if (!bit || argc > 3 || (argc == 3 && strcmp(argv[2], "on") && strcmp(argv[2], "off")))
		return usage(c, "layer costs|numbers|arrows|frontier|goals|spawns|from|"
			     "unreachable|agents [on|off]");
	on = argc == 3 ? !strcmp(argv[2], "on") : !(c->layers & bit);
	c->layers = on ? c->layers | bit : c->layers & ~bit;
	/* numbers need wide cells */
	if (bit == FF_LAYER_NUMBERS && on && c->zoom == 0)
		ui |= ui_zoom(c, 2, (char *[]){"zoom", "2"});
	say(c, false, "%s %s", argv[1], on ? "on" : "off");
	return ui;
}

/* Reads a terrain word (name, "wall" or a cost) of the level's palette. */
static bool terrain_cost(const ff_ctl *c, const char *w, int *cost)
{
	int t = ff_level_terrain_by_name(c->s->level, w);

	if (t >= 0)
		*cost = ff_level_terrain_value(c->s->level, t);
	else if (!strcmp(w, "wall"))
		*cost = FF_WALL;
	else if (!parse_int(w, cost) || *cost < FF_COST_MIN || *cost > FF_COST_MAX)
		return false;
	return true;
}

static unsigned ui_pen(ff_ctl *c, int argc, char **argv)
{
	const ff_level_meta *m = &c->s->level->meta;
	char word[FF_TERRAIN_NAME_MAX + 8];
	int cost;

	if (argc != 2)
		return usage(c, "pen TERRAIN|next|prev");
	if (!strcmp(argv[1], "next") || !strcmp(argv[1], "prev")) {
		int t = ff_level_terrain_by_value(c->s->level, c->pen);
		int step = argv[1][0] == 'n' ? 1 : -1;

		if (m->npalette == 0)
			return 0;
		t = t < 0 ? 0 : (t + step + m->npalette) % m->npalette;
		cost = ff_level_terrain_value(c->s->level, t);
	} else if (!terrain_cost(c, argv[1], &cost)) {
		say(c, true, "unknown terrain '%s' (a palette name, 'wall' or a cost 1..254)",
		    argv[1]);
		return FF_UI_MSG;
	}
	c->pen = cost;
	ff_ctl_terrain_word(c, cost, word, sizeof word);
	say(c, false, "pen: %s", word);
	return FF_UI_STATUS | FF_UI_MSG;
}

static unsigned ui_brush(ff_ctl *c, int argc, char **argv)
{
	int b = c->brush;

	if (argc == 2 && !strcmp(argv[1], "+"))
		b++;
	else if (argc == 2 && !strcmp(argv[1], "-"))
		b--;
	else if (argc != 2 || !parse_int(argv[1], &b))
		return usage(c, "brush N|+|-");
	c->brush = clampi(b, 0, FF_BRUSH_MAX);
	say(c, false, "brush radius %d", c->brush);
	return FF_UI_STATUS | FF_UI_MSG;
}

static unsigned ui_dab(ff_ctl *c, int argc, char **argv)
{
	int cost = c->pen;

	if (argc > 2)
		return usage(c, "dab [TERRAIN]");
	if (argc == 2 && !terrain_cost(c, argv[1], &cost)) {
		say(c, true, "unknown terrain '%s'", argv[1]);
		return FF_UI_MSG;
	}
	return dab(c, cost);
}

static unsigned ui_draw(ff_ctl *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->drawing = !c->drawing;
	say(c, false, "pen %s%s", c->drawing ? "down: moving paints" : "up",
	    c->drawing ? " (d lifts it)" : "");
	return FF_UI_STATUS | FF_UI_MSG | (c->drawing ? dab(c, c->pen) : 0);
}

static unsigned ui_goal_here(ff_ctl *c, int argc, char **argv)
{
	const ff_level *l = c->s->level;
	char line[64];

	(void)argc, (void)argv;
	for (int i = l->meta.ngoals - 1; i >= 0; i--)
		if (ff_shape_contains(&l->meta.goals[i], c->cx, c->cy)) {
			snprintf(line, sizeof line, "goal rm %d", i + 1);
			return run_core(c, line, false);
		}
	snprintf(line, sizeof line, "goal add cell %d,%d", c->cx, c->cy);
	return run_core(c, line, false);
}

static unsigned ui_mark(ff_ctl *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	if (c->mode == FF_MODE_SELECT)
		select_enter(c);
	say(c, false, "mark at %d,%d: move, then r rect, i line, o circle, g goal, "
	    "s spawn; Esc drops it", c->cx, c->cy);
	return set_mode(c, FF_MODE_SELECT) | FF_UI_GRID | FF_UI_MSG;
}

static unsigned ui_unmark(ff_ctl *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	return set_mode(c, FF_MODE_NORMAL);
}

static unsigned ui_prompt(ff_ctl *c, int argc, char **argv)
{
	char text[FF_PROMPT_MAX] = "";
	size_t n = 0;

	/* the rest of the line, words joined by one blank, keeps a trailing blank */
	for (int i = 1; i < argc; i++)
		n += (size_t)snprintf(text + n, n < sizeof text ? sizeof text - n : 0, "%s ",
				      argv[i]);
	(void)n;
	ff_prompt_open(&c->prompt, text);
	c->msg[0] = '\0';
	return set_mode(c, FF_MODE_PROMPT) | FF_UI_MSG;
}

static unsigned ui_help(ff_ctl *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	return set_mode(c, c->mode == FF_MODE_HELP ? back_mode(c) : FF_MODE_HELP);
}

static unsigned ui_scroll(ff_ctl *c, int argc, char **argv)
{
	int page = c->rows - 2, n, max = ff_view_help_lines(c) - page;

	if (argc == 2 && !strcmp(argv[1], "page"))
		n = page;
	else if (argc == 2 && !strcmp(argv[1], "-page"))
		n = -page;
	else if (argc != 2 || !parse_int(argv[1], &n))
		return usage(c, "scroll N|page|-page");
	c->help_top = clampi(c->help_top + n, 0, max > 0 ? max : 0);
	return FF_UI_GRID;
}

static unsigned ui_redraw(ff_ctl *c, int argc, char **argv)
{
	(void)c, (void)argc, (void)argv;
	return FF_UI_ALL;
}

static unsigned save(ff_ctl *c, const char *target, bool force)
{
	char was[FF_NAME_MAX], line[FF_NAME_MAX + 8];
	int err;

	if (!c->hooks.save) {
		say(c, true, "this editor cannot save");
		return FF_UI_MSG;
	}
	memcpy(was, c->s->level->meta.name, sizeof was);
	err = c->hooks.save(c->hooks.ctx, c->s, target, force, c->msg, sizeof c->msg);
	ff_escape_msg(c->msg, sizeof c->msg);
	c->msg_error = err != 0;
	/* saved under a new name ('name' in the core): a recording says so */
	if (strcmp(was, c->s->level->meta.name)) {
		snprintf(line, sizeof line, "name %s", c->s->level->meta.name);
		ff_ctl_rec_flush(c);             /* ticks gathered so far first */
		ff_ctl_rec_line(c, line);
	}
	return FF_UI_STATUS | FF_UI_MSG | (err ? 0 : FF_UI_GRID);
}

static unsigned ui_write(ff_ctl *c, int argc, char **argv)
{
	if (argc > 2)
		return usage(c, "write [FILE]");
	return save(c, argc == 2 ? argv[1] : NULL, !strcmp(argv[0], "w!"));
}

/* Before quitting: saves the recording.  When it cannot be saved, says so
 * and returns false; FORCE (q!) a second time drops it. */
static bool rec_stopped(ff_ctl *c, bool force)
{
	char why[sizeof c->msg];

	ff_ctl_line(c, "record stop");
	if (!c->recording)
		return true;
	if (force && c->rec_quit_warned)
		return true;
	c->rec_quit_warned = true;
	memcpy(why, c->msg, sizeof why);
	say(c, true, "%.150s; :q! again drops it", why);
	return false;
}

static unsigned ui_quit(ff_ctl *c, int argc, char **argv)
{
	const bool force = !strcmp(argv[0], "quit!") || !strcmp(argv[0], "q!");

	(void)argc;
	if (!c->s->modified || c->player || force) {
		if (c->recording && !rec_stopped(c, force))
			return FF_UI_MSG | FF_UI_STATUS | set_mode(c, grid_mode(c));
		c->quit = true;
		return 0;
	}
	say(c, true, "unsaved changes: y (or Ctrl-C again) quits without saving, w saves "
	    "and quits, n keeps editing");
	return set_mode(c, FF_MODE_CONFIRM) | FF_UI_MSG;
}

static unsigned ui_wq(ff_ctl *c, int argc, char **argv)
{
	unsigned ui;

	if (argc > 2)
		return usage(c, "wq [FILE]");
	ui = save(c, argc == 2 ? argv[1] : NULL, false);
	if (c->s->modified) {
		/* the save failed: stay, and say why */
		return ui | set_mode(c, grid_mode(c));
	}
	if (c->recording && !rec_stopped(c, false))
		return ui | FF_UI_MSG | FF_UI_STATUS;
	c->quit = true;
	return ui;
}

static unsigned ui_confirm_cancel(ff_ctl *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->msg[0] = '\0';
	return set_mode(c, grid_mode(c)) | FF_UI_MSG;
}

/* ':export FILE.svg' or '.png': the field the layers show, drawn. */
static unsigned export_picture(ff_ctl *c, const char *path)
{
	const ff_session *s = c->s;
	bool done = s->field && ff_solver_phase(s->solver) == FF_PHASE_DONE;
	ff_pic_field f = !done ? FF_PIC_COSTS : c->layers & FF_LAYER_ARROWS ? FF_PIC_FLOW :
			 c->layers & FF_LAYER_NUMBERS ? FF_PIC_INTEGRATION : FF_PIC_COSTS;

	if (!c->hooks.picture) {
		say(c, true, "this editor cannot draw pictures");
		return FF_UI_MSG;
	}
	c->msg_error = c->hooks.picture(c->hooks.ctx, s, f, path, c->msg, sizeof c->msg) != 0;
	ff_escape_msg(c->msg, sizeof c->msg);
	return FF_UI_MSG;
}

/* True when PATH ends in ".EXT". */
static bool ends_in(const char *path, const char *ext)
{
	size_t n = strlen(path), k = strlen(ext);

	return n > k + 1 && path[n - k - 1] == '.' && !strcmp(path + n - k, ext);
}

static unsigned ui_export(ff_ctl *c, int argc, char **argv)
{
	char *text;
	size_t len;
	int err;

	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "ansi") &&
				     strcmp(argv[2], "text")))
		return usage(c, "export FILE [ansi|text]");
	if (argc == 2 && (ends_in(argv[1], "svg") || ends_in(argv[1], "png")))
		return export_picture(c, argv[1]);
	if (!c->hooks.write) {
		say(c, true, "this editor cannot write files");
		return FF_UI_MSG;
	}
	text = ff_view_export(c, argc == 3 && !strcmp(argv[2], "ansi"), &len);
	if (!text) {
		say(c, true, "out of memory");
		return FF_UI_MSG;
	}
	err = c->hooks.write(c->hooks.ctx, argv[1], text, len, c->msg, sizeof c->msg);
	ff_escape_msg(c->msg, sizeof c->msg);
	c->msg_error = err != 0;
	free(text);
	return FF_UI_MSG;
}

static unsigned ui_prompt_run(ff_ctl *c, int argc, char **argv)
{
	char line[FF_PROMPT_MAX];

	(void)argc, (void)argv;
	memcpy(line, c->prompt.text, sizeof line);
	ff_prompt_remember(&c->prompt);
	c->msg[0] = '\0';
	return set_mode(c, grid_mode(c)) | FF_UI_MSG | run_line(c, line, true);
}

static unsigned ui_prompt_cancel(ff_ctl *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->msg[0] = '\0';
	return set_mode(c, grid_mode(c)) | FF_UI_MSG;
}

static unsigned ui_prompt_history(ff_ctl *c, int argc, char **argv)
{
	int dir;

	if (argc != 2 || !parse_int(argv[1], &dir))
		return usage(c, "prompt-history -1|1");
	ff_prompt_history(&c->prompt, dir);
	return FF_UI_MSG;
}

static const struct {
	const char *name;
	ui_fn fn;
} ui_commands[] = {
	{"move", ui_move}, {"goto", ui_goto}, {"page", ui_page}, {"edge", ui_edge},
	{"center", ui_center}, {"zoom", ui_zoom}, {"layer", ui_layer},
	{"pen", ui_pen}, {"brush", ui_brush}, {"dab", ui_dab}, {"draw", ui_draw},
	{"goal-here", ui_goal_here}, {"mark", ui_mark}, {"unmark", ui_unmark},
	{"prompt", ui_prompt}, {"help", ui_help}, {"scroll", ui_scroll},
	{"redraw", ui_redraw}, {"write", ui_write}, {"w", ui_write}, {"w!", ui_write},
	{"wq", ui_wq}, {"x", ui_wq}, {"quit", ui_quit}, {"q", ui_quit},
	{"quit!", ui_quit}, {"q!", ui_quit}, {"export", ui_export},
	{"confirm-cancel", ui_confirm_cancel}, {"prompt-run", ui_prompt_run},
	{"prompt-cancel", ui_prompt_cancel}, {"prompt-history", ui_prompt_history},
	{"mode", ff_ui_mode}, {"run", ff_ui_run}, {"speed", ff_ui_speed},
	{"sim-toggle", ff_ui_sim_toggle}, {"split", ff_ui_split},
	{"record", ff_ui_record}, {"play", ff_ui_play}, {"play-next", ff_ui_play_next},
};

static unsigned run_line(ff_ctl *c, const char *line, bool from_prompt)
{
	char buf[FF_PROMPT_MAX], *argv[MAX_ARGS], *p = buf;
	int argc = 0;

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
		unsigned ui = ff_ctl_solve_sliced(c, argc, argv, &handled);

		if (handled)
			return ui;
	}
	for (size_t i = 0; i < sizeof ui_commands / sizeof ui_commands[0]; i++)
		if (!strcmp(argv[0], ui_commands[i].name))
			return ui_commands[i].fn(c, argc, argv);
	return run_core(c, line, from_prompt);
}

unsigned ff_ctl_run(ff_ctl *c, const char *line)
{
	return run_line(c, line, true);
}

/* --- templates --------------------------------------------------------- */

bool ff_ctl_expand(const ff_ctl *c, const char *tmpl, char *out, size_t size)
{
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
			snprintf(val, sizeof val, "%d", c->cx);
		else if (IS("y"))
			snprintf(val, sizeof val, "%d", c->cy);
		else if (IS("t"))
			ff_ctl_terrain_word(c, c->pen, val, sizeof val);
		else if (IS("mx"))
			snprintf(val, sizeof val, "%d", c->mx);
		else if (IS("my"))
			snprintf(val, sizeof val, "%d", c->my);
		else if (IS("x0"))
			snprintf(val, sizeof val, "%d", x0);
		else if (IS("y0"))
			snprintf(val, sizeof val, "%d", y0);
		else if (IS("w"))
			snprintf(val, sizeof val, "%d", x1 - x0 + 1);
		else if (IS("h"))
			snprintf(val, sizeof val, "%d", y1 - y0 + 1);
		else if (IS("r"))
			snprintf(val, sizeof val, "%d",
				 (int)lround(hypot(c->cx - c->mx, c->cy - c->my)));
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

unsigned ff_ctl_key(ff_ctl *c, int key)
{
	const ff_binding *b;
	char line[FF_PROMPT_MAX];
	unsigned ui = 0;

	if (key == FF_KEY_NONE)
		return 0;
	/* too small to show what a key does: only quitting (and answering
	 * its question, which the notice shows) */
	if (ff_ctl_too_small(c) && c->mode != FF_MODE_CONFIRM) {
		if (key != 'q' && key != FF_CTRL('c'))
			return 0;
		return set_mode(c, grid_mode(c)) | run_line(c, "quit", false) | FF_UI_MSG;
	}
	if (c->msg[0] && c->mode != FF_MODE_CONFIRM) {
		c->msg[0] = '\0';
		ui |= FF_UI_MSG;
	}
	b = ff_keymap_find(c->mode, key);
	if (!b)
		return ui | modes[c->mode].other(c, key);
	if (!ff_ctl_expand(c, b->run, line, sizeof line)) {
		say(c, true, "bad key binding '%s'", b->run);
		return ui | FF_UI_MSG;
	}
	ui |= run_line(c, line, false);
	/* a selection shape, once drawn, drops the mark */
	if (c->mode == FF_MODE_SELECT && !(c->msg[0] && c->msg_error) &&
	    (strstr(b->run, "{x0}") || strstr(b->run, "{m")) && strncmp(b->run, "prompt", 6))
		ui |= set_mode(c, FF_MODE_NORMAL);
	return ui;
}

/* Screen cell to level cell; false outside the grid area or the level. */
static bool screen_cell(const ff_ctl *c, int sx, int sy, int *x, int *y)
{
	int cw = ff_ctl_cell_width(c->zoom);

	if (c->split && sx >= ff_ctl_pane_x(c, 1))
		sx -= ff_ctl_pane_x(c, 1);
	if (sx < 0 || sy < 0 || sy >= ff_ctl_view_h(c) || sx / cw >= ff_ctl_view_w(c))
		return false;
	*x = c->vx + sx / cw;
	*y = c->vy + sy;
	return ff_level_in(c->s->level, *x, *y);
}

unsigned ff_ctl_mouse(ff_ctl *c, ff_mouse_kind kind, int sx, int sy, int button)
{
	unsigned ui = 0;
	int x, y;

	if ((c->mode != FF_MODE_NORMAL && c->mode != FF_MODE_SELECT && c->mode != FF_MODE_SIM) ||
	    ff_ctl_too_small(c))
		return 0;
	if (kind == FF_MOUSE_WHEEL_UP || kind == FF_MOUSE_WHEEL_DOWN)
		return move_to(c, c->cx, c->cy + (kind == FF_MOUSE_WHEEL_UP ? -3 : 3));
	if (kind == FF_MOUSE_RELEASE) {
		c->dragging = false;
		return 0;
	}
	if (!screen_cell(c, sx, sy, &x, &y))
		return 0;
	if (kind == FF_MOUSE_DRAG && !c->dragging)
		return 0;
	if (c->msg[0]) {
		c->msg[0] = '\0';
		ui |= FF_UI_MSG;
	}
	c->drawing = false;
	ui |= move_to(c, x, y);
	if (button != 1 || (c->mode != FF_MODE_NORMAL && c->mode != FF_MODE_SIM))
		return ui;
	if (kind == FF_MOUSE_PRESS) {
		c->dragging = true;
		ui |= dab(c, c->pen);
	} else if (x != c->lx || y != c->ly) {
		ui |= stroke(c, c->lx, c->ly);
	}
	c->lx = x, c->ly = y;
	return ui;
}

unsigned ff_ctl_resize(ff_ctl *c, int cols, int rows)
{
	c->cols = cols;
	c->rows = rows;
	follow(c);
	return FF_UI_ALL;
}

void ff_ctl_init(ff_ctl *c, ff_session *s, const ff_ctl_hooks *hooks, int cols, int rows)
{
	const ff_level *l = s->level;

	memset(c, 0, sizeof *c);
	c->s = s;
	if (hooks)
		c->hooks = *hooks;
	c->mode = FF_MODE_NORMAL;
	c->cols = cols, c->rows = rows;
	c->layers = FF_LAYER_COSTS | FF_LAYER_ARROWS | FF_LAYER_FRONTIER | FF_LAYER_GOALS |
		    FF_LAYER_SPAWNS | FF_LAYER_UNREACH | FF_LAYER_AGENTS;
	c->pen = FF_WALL;
	c->cx = l->w / 2, c->cy = l->h / 2;
	c->slice_cells = FF_SLICE_CELLS;
	c->rec = (ff_buf)FF_BUF_INIT;
	c->opts2 = (ff_solver_opts){FF_METHOD_FMM, 8, 1, FF_ARROW_CHEAPEST};
	ff_prompt_init(&c->prompt);
	center(c);
}

void ff_ctl_fini(ff_ctl *c)
{
	ff_buf_fini(&c->rec);
	ff_solver_destroy(c->solver2);
	free(c->occ);
	c->solver2 = NULL;
	c->occ = NULL;
}

unsigned ff_ctl_play(ff_ctl *c, ff_replay_player *p, const char *name)
{
	c->player = p;
	c->s = ff_replay_player_session(p);
	snprintf(c->play_name, sizeof c->play_name, "%s", name);
	c->play_line = 0;
	c->play_done = false;
	say(c, false, "%s: Space plays, . runs the next line, q quits", name);
	return set_mode(c, FF_MODE_PLAY) | FF_UI_ALL;
}

unsigned ff_ctl_idle(ff_ctl *c, double elapsed_ms)
{
	if (c->mode == FF_MODE_PLAY || c->player)
		return ff_ctl_play_idle(c, elapsed_ms);
	return ff_ctl_sim_idle(c, elapsed_ms);
}
