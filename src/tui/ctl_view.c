/*
 * ctl_view.c - where the grid is on screen and what it shows: the panes'
 * geometry, the cursor and the view origin, zoom and layers.
 *
 * Screen rows: the grid area, then the status line, then the message line.
 * In split view each pane has a label row above its grid; the panes are
 * stacked when the level's height fits twice (a lesson level at 80 x 24
 * then shows whole in both, even with wide cells), else side by side with
 * a '|' column between.  Both panes show the same cells (one origin).
 */
#include <stdio.h>
#include <string.h>

#include "ctl_int.h"
#include "view.h"

/* --- geometry ---------------------------------------------------------- */

int ff_ctl_cell_width(int zoom)
{
	/* the glyph; the marker and 4 digits (whole numbers, costs); the
	 * marker, a number with decimals ("4.41", "12.4") and a blank: 12
	 * cells of a lesson level fit 80 columns at every zoom */
	static const int widths[FF_ZOOM_MAX + 1] = {1, 5, 6};

	return widths[zoom < 0 ? 0 : zoom > FF_ZOOM_MAX ? FF_ZOOM_MAX : zoom];
}

bool ff_ctl_too_small(const ff_ctl *c)
{
	return c->cols < FF_MIN_COLS || c->rows < FF_MIN_ROWS;
}

int ff_ctl_panes(const ff_ctl *c)
{
	return c->split.on ? 2 : 1;
}

/* Rows of the grid area: all but the status and message lines. */
static int grid_rows(const ff_ctl *c)
{
	return c->rows - 2 < 1 ? 1 : c->rows - 2;
}

bool ff_ctl_stacked(const ff_ctl *c)
{
	return c->split.on && 2 * (c->s->level->h + 1) <= grid_rows(c);
}

int ff_ctl_view_w(const ff_ctl *c)
{
	int cols = c->split.on && !ff_ctl_stacked(c) ? (c->cols - 1) / 2 : c->cols;
	int n = cols / ff_ctl_cell_width(c->view.zoom);

	return n < 1 ? 1 : n;
}

int ff_ctl_view_h(const ff_ctl *c)
{
	int n = grid_rows(c);

	if (ff_ctl_stacked(c))
		n = c->s->level->h;
	else if (c->split.on)
		n--;                     /* the labels' row */
	return n < 1 ? 1 : n;
}

int ff_ctl_pane_x(const ff_ctl *c, int pane)
{
	if (pane == 0 || ff_ctl_stacked(c))
		return 0;
	return ff_ctl_view_w(c) * ff_ctl_cell_width(c->view.zoom) + 1;
}

int ff_ctl_pane_y(const ff_ctl *c, int pane)
{
	if (!c->split.on)
		return 0;
	return 1 + (ff_ctl_stacked(c) ? pane * (ff_ctl_view_h(c) + 1) : 0);
}

bool ff_ctl_screen_cell(const ff_ctl *c, int sx, int sy, int *x, int *y)
{
	const int cw = ff_ctl_cell_width(c->view.zoom);

	for (int p = ff_ctl_panes(c) - 1; p >= 0; p--) {
		int gx = sx - ff_ctl_pane_x(c, p), gy = sy - ff_ctl_pane_y(c, p);

		if (gx < 0 || gy < 0 || gy >= ff_ctl_view_h(c) || gx / cw >= ff_ctl_view_w(c))
			continue;
		*x = c->view.vx + gx / cw;
		*y = c->view.vy + gy;
		return ff_level_in(c->s->level, *x, *y);
	}
	return false;
}

const ff_solver *ff_ctl_pane_solver(const ff_ctl *c, int pane)
{
	if (pane == 0 && (c->view.layers & FF_LAYER_GROUP))
		return ff_ctl_group_solver(c);
	if (pane == 0)
		return c->s->field && c->s->solver ? c->s->solver : NULL;
	return c->split.on && c->split.field ? c->split.solver : NULL;
}

const ff_solver_opts *ff_ctl_pane_opts(const ff_ctl *c, int pane)
{
	return pane == 0 ? &c->s->opts : &c->split.opts;
}

void ff_ctl_selection(const ff_ctl *c, int *x0, int *y0, int *x1, int *y1)
{
	const ff_ctl_view *v = &c->view;

	*x0 = c->pen.mx < v->cx ? c->pen.mx : v->cx;
	*x1 = c->pen.mx < v->cx ? v->cx : c->pen.mx;
	*y0 = c->pen.my < v->cy ? c->pen.my : v->cy;
	*y1 = c->pen.my < v->cy ? v->cy : c->pen.my;
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

/* --- the cursor and the origin ----------------------------------------- */

unsigned ff_ctl_follow(ff_ctl *c)
{
	const ff_level *l = c->s->level;
	ff_ctl_view *v = &c->view;
	int vw = ff_ctl_view_w(c), vh = ff_ctl_view_h(c);
	int mx = vw > 8 ? 2 : 0, my = vh > 8 ? 2 : 0;
	int ox = v->vx, oy = v->vy;

	if (v->cx < v->vx + mx)
		v->vx = v->cx - mx;
	if (v->cx > v->vx + vw - 1 - mx)
		v->vx = v->cx - vw + 1 + mx;
	if (v->cy < v->vy + my)
		v->vy = v->cy - my;
	if (v->cy > v->vy + vh - 1 - my)
		v->vy = v->cy - vh + 1 + my;
	v->vx = ff_ctl_clamp(v->vx, 0, l->w > vw ? l->w - vw : 0);
	v->vy = ff_ctl_clamp(v->vy, 0, l->h > vh ? l->h - vh : 0);
	return v->vx != ox || v->vy != oy ? FF_UI_GRID : 0;
}

unsigned ff_ctl_center(ff_ctl *c)
{
	c->view.vx = c->view.cx - ff_ctl_view_w(c) / 2;
	c->view.vy = c->view.cy - ff_ctl_view_h(c) / 2;
	ff_ctl_follow(c);
	return FF_UI_GRID | FF_UI_STATUS;
}

unsigned ff_ctl_move_to(ff_ctl *c, int x, int y)
{
	const ff_level *l = c->s->level;
	int ox = c->view.cx, oy = c->view.cy;
	unsigned ui;

	c->view.cx = ff_ctl_clamp(x, 0, l->w - 1);
	c->view.cy = ff_ctl_clamp(y, 0, l->h - 1);
	if (c->view.cx == ox && c->view.cy == oy)
		return 0;
	ui = FF_UI_CURSOR | FF_UI_STATUS | ff_ctl_follow(c);
	if (c->pen.marked)
		ui |= FF_UI_GRID;
	if (c->pen.drawing)
		ui |= ff_ctl_stroke(c, ox, oy);
	return ui;
}

/* --- commands ---------------------------------------------------------- */

unsigned ff_ui_move(ff_ctl *c, int argc, char **argv)
{
	int dx, dy;

	if (argc != 2 || !ff_ctl_parse_xy(argv[1], &dx, &dy))
		return ff_ctl_usage(c, argv[0]);
	return ff_ctl_move_to(c, c->view.cx + dx, c->view.cy + dy);
}

unsigned ff_ui_goto(ff_ctl *c, int argc, char **argv)
{
	const ff_level *l = c->s->level;
	int x, y;

	if (argc != 2 || !ff_ctl_parse_xy(argv[1], &x, &y))
		return ff_ctl_usage(c, argv[0]);
	if (!ff_level_in(l, x, y)) {
		ff_ctl_say(c, true, "%d,%d is outside the %dx%d level", x, y, l->w, l->h);
		return FF_UI_MSG;
	}
	return ff_ctl_move_to(c, x, y) | ff_ctl_center(c);
}

unsigned ff_ui_page(ff_ctl *c, int argc, char **argv)
{
	static const char *const dirs[4] = {"up", "down", "left", "right"};
	const int vw = ff_ctl_view_w(c), vh = ff_ctl_view_h(c);
	const int dx[4] = {0, 0, -vw, vw}, dy[4] = {-vh, vh, 0, 0};

	for (int i = 0; argc == 2 && i < 4; i++)
		if (!strcmp(argv[1], dirs[i]))
			return ff_ctl_move_to(c, c->view.cx + dx[i], c->view.cy + dy[i]);
	return ff_ctl_usage(c, argv[0]);
}

unsigned ff_ui_edge(ff_ctl *c, int argc, char **argv)
{
	const ff_level *l = c->s->level;

	if (argc == 2 && !strcmp(argv[1], "left"))
		return ff_ctl_move_to(c, 0, c->view.cy);
	if (argc == 2 && !strcmp(argv[1], "right"))
		return ff_ctl_move_to(c, l->w - 1, c->view.cy);
	if (argc == 2 && !strcmp(argv[1], "top"))
		return ff_ctl_move_to(c, c->view.cx, 0);
	if (argc == 2 && !strcmp(argv[1], "bottom"))
		return ff_ctl_move_to(c, c->view.cx, l->h - 1);
	return ff_ctl_usage(c, argv[0]);
}

unsigned ff_ui_center(ff_ctl *c, int argc, char **argv)
{
	if (argc != 1)
		return ff_ctl_usage(c, argv[0]);
	return ff_ctl_center(c);
}

unsigned ff_ui_zoom(ff_ctl *c, int argc, char **argv)
{
	int z = c->view.zoom;

	if (argc == 2 && !strcmp(argv[1], "in"))
		z++;
	else if (argc == 2 && !strcmp(argv[1], "out"))
		z--;
	else if (argc != 2 || !ff_ctl_parse_int(argv[1], &z) || z < 0 || z > FF_ZOOM_MAX)
		return ff_ctl_usage(c, argv[0]);
	z = ff_ctl_clamp(z, 0, FF_ZOOM_MAX);
	if (z == c->view.zoom)
		return 0;
	c->view.zoom = z;
	ff_ctl_follow(c);
	return ff_ctl_center(c) | FF_UI_CLEAR;
}

static const struct {
	const char *name;
	unsigned bit;
} layer_names[] = {
	{"costs", FF_LAYER_COSTS}, {"numbers", FF_LAYER_NUMBERS},
	{"arrows", FF_LAYER_ARROWS}, {"frontier", FF_LAYER_FRONTIER},
	{"goals", FF_LAYER_GOALS}, {"spawns", FF_LAYER_SPAWNS},
	{"from", FF_LAYER_FROM}, {"unreachable", FF_LAYER_UNREACH},
	{"agents", FF_LAYER_AGENTS}, {"dyn", FF_LAYER_DYN},
	{"density", FF_LAYER_DENSITY}, {"speed", FF_LAYER_SPEED},
	{"group", FF_LAYER_GROUP}, {"lines", FF_LAYER_LINES},
	{"sight", FF_LAYER_SIGHT}, {"sectors", FF_LAYER_SECTORS},
};

const char *ff_ctl_layer(int i, unsigned *bit)
{
	if (i < 0 || i >= (int)(sizeof layer_names / sizeof layer_names[0]))
		return NULL;
	*bit = layer_names[i].bit;
	return layer_names[i].name;
}

unsigned ff_ui_layer(ff_ctl *c, int argc, char **argv)
{
	unsigned bit = 0, ui = FF_UI_GRID | FF_UI_STATUS | FF_UI_MSG;
	ff_ctl_view *v = &c->view;
	char legend[160];
	bool on;

	for (size_t i = 0; argc >= 2 && i < sizeof layer_names / sizeof layer_names[0]; i++)
		if (!strcmp(argv[1], layer_names[i].name))
			bit = layer_names[i].bit;
	if (!bit || argc > 3 || (argc == 3 && strcmp(argv[2], "on") && strcmp(argv[2], "off")))
		return ff_ctl_usage(c, argv[0]);
	on = argc == 3 ? !strcmp(argv[2], "on") : !(v->layers & bit);
	v->layers = on ? v->layers | bit : v->layers & ~bit;
	/* numbers need wide cells: the widest, with decimals */
	if (bit == FF_LAYER_NUMBERS && on && v->zoom == 0)
		ui |= ff_ui_zoom(c, 2, (char *[]){"zoom", "2"});
	ff_view_legend(c, bit, legend, sizeof legend);
	if (on && legend[0])
		ff_ctl_say(c, false, "%s", legend);
	else
		ff_ctl_say(c, false, "%s %s", argv[1], on ? "on" : "off");
	if (bit == FF_LAYER_GROUP)
		ff_ctl_group_layer(c, on);
	return ui;
}

unsigned ff_ui_redraw(ff_ctl *c, int argc, char **argv)
{
	(void)c, (void)argc, (void)argv;
	return FF_UI_ALL;
}
