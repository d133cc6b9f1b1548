/*
 * view.c - cell text and styles, pane labels and the text export, all
 * computed from a const controller.
 *
 * One character per cell shows, by priority (glyphs from core/glyph.h):
 * wall, temporary wall of the dynamic layer, the crowd (view_crowd.c: in
 * monochrome the density digit, agents ('o', a digit when several share
 * the cell, 'O' from ten on, a named group's letter)), last settled cell
 * '@', frontier '+', goal '*', a counting line, unreachable 'x', a portal
 * of the hierarchy (the sectors layer), came-from or flow arrow (in the
 * sight colour where the cell sees its goal, with the sight layer),
 * terrain glyph; with the sectors layer a sector's first row and column
 * are in their own colour.  Wide cells show that mark followed by the
 * integration value (whole at zoom 1, with decimals at zoom 2; a cell with
 * no mark then shows its terrain by colour alone, since a glyph such as
 * '.' would read as part of the number) or, before a solve, the cost.  With
 * the dynamic layer shown, a cell's cost colour and number are those of
 * its cost with the layer's offset.  In split view each pane reads its
 * own solver (ff_ctl_pane_solver).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/glyph.h"
#include "core/level_dyn.h"
#include "view.h"

/* --- the field (solver results) ---------------------------------------- */

typedef struct field_cell {
	bool has;                /* a field is shown */
	double value;            /* INFINITY when unsettled or unreachable */
	int dir;                 /* FF_DIR_* or -1 */
	int from;                /* FF_DIR_* of the neighbour that settled it, or -1 */
	bool frontier, last, done;
	bool sees;               /* line of sight (the sight layer) */
	bool portal, edge;       /* a portal; a sector's first row or column
				    (the sectors layer) */
} field_cell;

int ff_view_came_from(const ff_solver *sv, int x, int y)
{
	int xs[2], ys[2];

	if (ff_solver_sources(sv, x, y, xs, ys) == 0)
		return -1;
	for (int d = 0; d < 8; d++)
		if (ff_dir_dx[d] == xs[0] - x && ff_dir_dy[d] == ys[0] - y)
			return d;
	return -1;
}

static void field_at(const ff_ctl *c, int pane, int x, int y, field_cell *f)
{
	const ff_solver *sv = ff_ctl_pane_solver(c, pane);
	ff_phase ph;
	int lx, ly, fx, fy, n;

	memset(f, 0, sizeof *f);
	f->value = INFINITY;
	f->dir = -1;
	f->from = -1;
	if (!sv)
		return;
	ph = ff_solver_phase(sv);
	f->has = true;
	f->done = ph == FF_PHASE_DONE;
	f->value = ff_solver_value(sv, x, y);
	if (c->view.layers & FF_LAYER_FROM)
		f->from = ff_view_came_from(sv, x, y);
	/* the solver's one definition of a cell's arrow, for every method */
	f->dir = ff_solver_dir(sv, x, y);
	f->dir = f->dir < 8 ? f->dir : -1;
	if (c->view.layers & FF_LAYER_SIGHT)
		f->sees = ff_solver_sees(sv, x, y, &lx, &ly);
	if ((c->view.layers & FF_LAYER_SECTORS) && (n = ff_solver_sector_size(sv)) > 0) {
		double g;
		f->portal = ff_solver_portal(sv, x, y, &g);
		f->edge = x % n == 0 || y % n == 0;
	}
	if (ph == FF_PHASE_INTEGRATE || ph == FF_PHASE_FLOW) {
		f->frontier = ph == FF_PHASE_INTEGRATE && ff_solver_on_frontier(sv, x, y);
		f->last = ff_solver_last(sv, &lx, &ly, &fx, &fy) && lx == x && ly == y;
	}
}

void ff_view_pane_label(const ff_ctl *c, int pane, char *buf, size_t size)
{
	const ff_solver *sv = ff_ctl_pane_solver(c, pane);

	snprintf(buf, size, "%s %s%s", ff_method_label(ff_ctl_pane_opts(c, pane)),
		 sv ? ff_phase_name(ff_solver_phase(sv)) : "no field",
		 (c->view.layers & FF_LAYER_FROM) ? ", came-from arrows" : "");
}

/* --- cells ------------------------------------------------------------- */

int ff_view_tier(int cost)
{
	if (cost == FF_WALL)
		return FF_TIER_WALL;
	if (cost <= 1)
		return 1;
	if (cost == 2)
		return 2;
	if (cost <= 4)
		return 3;
	if (cost <= 9)
		return 4;
	if (cost <= 19)
		return 5;
	if (cost <= 49)
		return 6;
	return 7;
}

static bool in_spawn(const ff_level *l, int x, int y)
{
	for (int i = 0; i < l->meta.nspawns; i++)
		if (ff_shape_contains(&l->meta.spawns[i].area, x, y))
			return true;
	return false;
}

/* Formats V right-aligned in 4 columns as zoom ZOOM shows it (1: whole
 * numbers, every one to 9999 its own; 2: decimals); UTF8 for the infinity
 * sign. */
static void number(double v, int zoom, bool utf8, char *out, size_t size)
{
	if (isinf(v))
		snprintf(out, size, "%4s", utf8 ? "∞" : "inf");
	else if (zoom >= 2 && v < 9.995)
		snprintf(out, size, "%4.2f", v);
	else if (zoom >= 2 && v < 99.95)
		snprintf(out, size, "%4.1f", v);
	else if (v < 9999.5)
		snprintf(out, size, "%4.0f", v);         /* every value to 9999 its own */
	else if (v < 999500)
		snprintf(out, size, "%3.0fk", v / 1000);
	else
		snprintf(out, size, "++++");
}

/* The one-character mark of a cell (core/glyph.h), its kind and hue. */
static const char *marker(const ff_ctl *c, int x, int y, const field_cell *f, int cost,
			  ff_cell_look *out, char *glyph)
{
	const ff_level *l = c->s->level;
	const unsigned layers = c->view.layers;
	const bool u = c->view.utf8;
	unsigned char *kind = &out->kind;
	const char *mk;

	glyph[0] = ff_glyph_terrain(l, ff_level_value(l, x, y)), glyph[1] = '\0';
	*kind = FF_LOOK_PLAIN;
	out->hue = FF_HUE_NONE;
	if (cost == FF_WALL)
		return glyph;
	if ((layers & FF_LAYER_DYN) && ff_level_dyn(l, x, y) == FF_WALL) {
		*kind = FF_LOOK_DYN;
		return ff_glyph(FF_GLYPH_DYN_WALL, u);
	}
	if ((mk = ff_view_crowd_mark(c, x, y, kind, &out->hue)))
		return mk;
	if ((layers & FF_LAYER_FRONTIER) && f->last) {
		*kind = FF_LOOK_LAST;
		return ff_glyph(FF_GLYPH_LAST, u);
	}
	if ((layers & FF_LAYER_FRONTIER) && f->frontier) {
		*kind = FF_LOOK_FRONTIER;
		return ff_glyph(FF_GLYPH_FRONTIER, u);
	}
	if ((layers & FF_LAYER_GOALS) && ff_level_is_goal(l, x, y)) {
		*kind = FF_LOOK_GOAL;
		return ff_glyph(FF_GLYPH_GOAL, u);
	}
	if ((mk = ff_view_line_mark(c, x, y))) {
		*kind = FF_LOOK_LINE;
		return mk;
	}
	if (f->has && f->done && isinf(f->value) && (layers & FF_LAYER_UNREACH)) {
		*kind = FF_LOOK_UNREACH;
		return ff_glyph(FF_GLYPH_UNREACH, u);
	}
	if (f->portal) {
		*kind = FF_LOOK_PORTAL;
		return ff_glyph(FF_GLYPH_PORTAL, u);
	}
	if ((layers & FF_LAYER_SPAWNS) && in_spawn(l, x, y))
		*kind = FF_LOOK_SPAWN;
	else if (f->edge)
		*kind = FF_LOOK_SECTOR;
	if ((layers & FF_LAYER_FROM) && f->from >= 0) {
		*kind = FF_LOOK_FROM;
		return ff_glyph_from(f->from, u);
	}
	if ((layers & FF_LAYER_ARROWS) && f->dir >= 0) {
		if (f->sees)
			*kind = FF_LOOK_SIGHT;
		else if (*kind == FF_LOOK_PLAIN)
			*kind = FF_LOOK_ARROW;
		return ff_glyph_arrow(f->dir, u);
	}
	return glyph;
}

void ff_view_cell(const ff_ctl *c, int x, int y, ff_cell_look *out)
{
	ff_view_cell_pane(c, 0, x, y, out);
}

/* The cost cell (x, y) shows: its own, with the dynamic layer's offset or
 * wall when that layer is shown. */
static int shown_cost(const ff_ctl *c, int x, int y)
{
	const ff_level *l = c->s->level;
	int cost = ff_level_cost(l, x, y), dyn = ff_level_dyn(l, x, y);

	if (!(c->view.layers & FF_LAYER_DYN) || cost == FF_WALL || !dyn)
		return cost;
	if (dyn == FF_WALL)
		return FF_WALL;
	return cost + dyn < FF_COST_MAX ? cost + dyn : FF_COST_MAX;
}

void ff_view_cell_pane(const ff_ctl *c, int pane, int x, int y, ff_cell_look *out)
{
	const ff_level *l = c->s->level;
	const int cost = shown_cost(c, x, y), width = ff_ctl_cell_width(c->view.zoom);
	const char *tail = width == 6 ? " " : "";
	char glyph[2], num[32];
	const char *mk;
	field_cell f;
	int heat;

	field_at(c, pane, x, y, &f);
	mk = marker(c, x, y, &f, ff_level_cost(l, x, y), out, glyph);
	out->tier = (c->view.layers & FF_LAYER_COSTS) ? (unsigned char)ff_view_tier(cost) : 0;
	if ((heat = ff_view_heat_tier(c, x, y)) >= 0)
		out->tier = (unsigned char)heat;
	out->cursor = x == c->view.cx && y == c->view.cy;
	out->selected = false;
	if (c->pen.marked) {
		int x0, y0, x1, y1;

		ff_ctl_selection(c, &x0, &y0, &x1, &y1);
		out->selected = x >= x0 && x <= x1 && y >= y0 && y <= y1;
	}
	if (width == 1) {
		snprintf(out->text, sizeof out->text, "%s", mk);
		return;
	}
	if (out->kind == FF_LOOK_DYN) {
		snprintf(out->text, sizeof out->text, "%s%s%s%s%s%s", mk, mk, mk, mk, mk, tail);
		return;
	}
	if (cost == FF_WALL) {
		memset(out->text, glyph[0], 5);
		snprintf(out->text + 5, sizeof out->text - 5, "%s", tail);
		return;
	}
	if (f.has && (c->view.layers & FF_LAYER_NUMBERS)) {
		if (f.done || !isinf(f.value))
			number(f.value, c->view.zoom, c->view.utf8, num, sizeof num);
		else
			snprintf(num, sizeof num, "%4s", "");
		/* beside a number the terrain shows by its colour alone: a
		 * glyph such as grass's '.' would read as part of it */
		if (out->kind == FF_LOOK_PLAIN || out->kind == FF_LOOK_SPAWN)
			mk = " ";
	} else {
		snprintf(num, sizeof num, "%4d", cost);
	}
	snprintf(out->text, sizeof out->text, "%s%s%s", mk, num, tail);
}

/* --- colours and attributes ------------------------------------------ */

/* Background colours of the tiers (uncoloured, the costs, wall, the
 * density's heat in pairs of steps: blue, cyan, green, yellow, red), and
 * foregrounds of the looks (plain, goal, spawn, frontier, last,
 * unreachable, arrow, agent, from, temporary wall, counting line,
 * density digit, sight, portal, sector edge); -3: the terminal's own on
 * its own background, else white. */
static const short bg256[FF_TIERS] = {-1, -1, 22, 58, 94, 130, 88, 52, 250,
				      17, 19, 31, 37, 28, 70, 136, 172, 160, 124};
static const short bg8[FF_TIERS] = {-1, -1, 2, 2, 3, 3, 1, 1, 7, 4, 4, 6, 6, 2, 2, 3, 3, 1, 1};
static const short fg256[FF_LOOK__COUNT] = {-3, 46, 117, 45, 201, 196, -3, 226, 213, 160, 208,
					    -3, 51, 208, 244};
static const short fg8[FF_LOOK__COUNT] = {-3, 2, 6, 6, 5, 1, -3, 3, 5, 1, 3, -3, 6, 3, 4};
/* Foregrounds of the hues: named groups 1..15 (0 unused: the agent's
 * own), several groups in a cell, then speeds from stopped to free. */
static const short hue256[FF_HUES] = {-3, 51, 201, 208, 46, 33, 196, 141, 220, 87, 219, 118,
				      202, 39, 229, 159, 255, 196, 208, 226, 154, 46};
static const short hue8[FF_HUES] = {-3, 6, 5, 3, 2, 4, 1, 5, 3, 6, 5, 2, 1, 4, 3, 6, 7,
				    1, 3, 3, 2, 2};

void ff_view_colors(int tier, int kind, int hue, bool c256, short *fg, short *bg)
{
	*bg = (c256 ? bg256 : bg8)[tier];
	*fg = (c256 ? fg256 : fg8)[kind];
	if (hue > FF_HUE_NONE && hue < FF_HUES)
		*fg = (c256 ? hue256 : hue8)[hue];
	if (tier == FF_TIER_WALL && kind != FF_LOOK_DYN)
		*fg = c256 ? 235 : 0;
	else if (*fg == -3)
		*fg = *bg == -1 ? -1 : c256 ? 231 : 7;
	else if (*fg == *bg)
		*fg = *bg == 0 ? 7 : 0;          /* a mark never vanishes in its terrain */
}

unsigned ff_view_attrs(int tier, int kind, bool color, bool cursor, bool selected)
{
	unsigned a = 0;

	if (kind == FF_LOOK_GOAL || kind == FF_LOOK_LAST || kind == FF_LOOK_AGENT ||
	    kind == FF_LOOK_FRONTIER || kind == FF_LOOK_DYN || kind == FF_LOOK_LINE ||
	    kind == FF_LOOK_PORTAL || kind == FF_LOOK_SIGHT)
		a |= FF_ATTR_BOLD;
	if (kind == FF_LOOK_FROM)
		a |= FF_ATTR_ITALIC;            /* never by colour alone */
	if (kind == FF_LOOK_SECTOR)
		a |= FF_ATTR_DIM;
	if (!color) {
		/* the terrain as attributes: walls reverse, costly ground
		 * underlined, very costly also bold; spawn areas dim */
		if (tier == FF_TIER_WALL)
			a |= FF_ATTR_REVERSE;
		else if (tier >= 2 && tier < FF_TIER_WALL)
			a |= FF_ATTR_UNDERLINE | (tier >= 5 ? FF_ATTR_BOLD : 0);
		if (kind == FF_LOOK_SPAWN)
			a |= FF_ATTR_DIM;
	}
	if (cursor || selected)
		a ^= FF_ATTR_REVERSE;
	if (cursor)
		a |= FF_ATTR_BOLD;
	return a;
}

/* --- export ------------------------------------------------------------ */

/* Appends the SGR sequence for a look (256 colours). */
static void sgr(ff_buf *b, const ff_cell_look *look)
{
	unsigned a = ff_view_attrs(look->tier, look->kind, true, look->cursor, look->selected);
	short fg, bg;

	ff_view_colors(look->tier, look->kind, look->hue, true, &fg, &bg);
	ff_buf_puts(b, "\033[0");
	if (a & FF_ATTR_BOLD)
		ff_buf_puts(b, ";1");
	if (a & FF_ATTR_ITALIC)
		ff_buf_puts(b, ";3");
	if (a & FF_ATTR_UNDERLINE)
		ff_buf_puts(b, ";4");
	if (a & FF_ATTR_REVERSE)
		ff_buf_puts(b, ";7");
	if (fg >= 0)
		ff_buf_printf(b, ";38;5;%d", fg);
	if (bg >= 0)
		ff_buf_printf(b, ";48;5;%d", bg);
	ff_buf_puts(b, "m");
}

/* Appends grid row Y of PANE. */
static void export_row(const ff_ctl *c, int pane, int y, bool ansi, ff_buf *b)
{
	const ff_level *l = c->s->level;
	ff_cell_look look, prev;

	memset(&prev, 0xff, sizeof prev);
	for (int x = c->view.vx; x < c->view.vx + ff_ctl_view_w(c) && x < l->w; x++) {
		ff_view_cell_pane(c, pane, x, y, &look);
		if (ansi && (look.tier != prev.tier || look.kind != prev.kind || look.hue != prev.hue ||
			     look.cursor != prev.cursor || look.selected != prev.selected))
			sgr(b, &look);
		prev = look;
		ff_buf_puts(b, look.text);
	}
	if (ansi)
		ff_buf_puts(b, "\033[0m");
}

char *ff_view_export(const ff_ctl *c, bool ansi, size_t *len)
{
	const ff_level *l = c->s->level;
	const int vh = ff_ctl_view_h(c), panes = ff_ctl_panes(c);
	const bool stacked = ff_ctl_stacked(c);
	ff_buf b = FF_BUF_INIT;
	char text[512];

	for (int p = 0; p < (stacked ? panes : 1); p++) {
		if (c->split.on) {      /* the labels */
			for (int q = stacked ? p : 0; q < (stacked ? p + 1 : panes); q++) {
				ff_view_pane_label(c, q, text, sizeof text);
				ff_buf_printf(&b, "%s%-*s", q ? "|" : "",
					      stacked ? 0 : ff_ctl_view_w(c) * ff_ctl_cell_width(c->view.zoom),
					      text);
			}
			ff_buf_puts(&b, "\n");
		}
		for (int y = c->view.vy; y < c->view.vy + vh && y < l->h; y++) {
			for (int q = stacked ? p : 0; q < (stacked ? p + 1 : panes); q++) {
				if (q > 0 && !stacked)
					ff_buf_puts(&b, "|");
				export_row(c, q, y, ansi, &b);
			}
			ff_buf_puts(&b, "\n");
		}
	}
	ff_view_status(c, text, sizeof text);
	ff_buf_puts(&b, ansi ? "\033[7m" : "");
	ff_buf_puts(&b, text);
	ff_buf_puts(&b, ansi ? "\033[0m\n" : "\n");
	return ff_buf_take(&b, len);
}
