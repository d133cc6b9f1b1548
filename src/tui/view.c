/*
 * view.c - cell text and styles, the status line, the generated help and
 * the plain-text export, all computed from a const controller.
 *
 * One character per cell shows, by priority: wall, last settled cell '@',
 * frontier '+', goal '*', flow arrow, terrain glyph.  Wide cells show that
 * marker followed by the integration value (or the cost before a solve).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "view.h"

#include "core/solver.h"

/* --- the field (solver results) ---------------------------------------- */

typedef struct field_cell {
	bool has;                /* a field is shown */
	double value;            /* INFINITY when unsettled or unreachable */
	int dir;                 /* FF_DIR_* or -1 */
	bool frontier, last, done;
} field_cell;

static const ff_solver *field_of(const ff_ctl *c)
{
	return c->s->field && c->s->solver ? c->s->solver : NULL;
}

/* The FF_DIR_* nearest to the vector (DX, DY) (y grows downwards). */
static int octant(float dx, float dy)
{
	static const int dirs[8] = {FF_DIR_E, FF_DIR_SE, FF_DIR_S, FF_DIR_SW,
				    FF_DIR_W, FF_DIR_NW, FF_DIR_N, FF_DIR_NE};
	long o = lround(atan2(dy, dx) / (3.14159265358979323846 / 4));

	return dirs[(o + 8) % 8];
}

static void field_at(const ff_ctl *c, int x, int y, field_cell *f)
{
	const ff_solver *sv = field_of(c);
	ff_phase ph;
	int lx, ly, fx, fy;

	memset(f, 0, sizeof *f);
	f->value = INFINITY;
	f->dir = -1;
	if (!sv)
		return;
	ph = ff_solver_phase(sv);
	f->has = true;
	f->done = ph == FF_PHASE_DONE;
	f->value = ff_solver_value(sv, x, y);
	if (c->s->opts.method == FF_METHOD_DIJKSTRA) {
		int d = ff_solver_dir(sv, x, y);

		f->dir = d >= 0 && d < 8 ? d : -1;
	} else {
		float dx, dy;

		ff_solver_flow(sv, x, y, &dx, &dy);
		f->dir = dx != 0 || dy != 0 ? octant(dx, dy) : -1;
	}
	if (ph == FF_PHASE_INTEGRATE || ph == FF_PHASE_FLOW) {
		f->frontier = ph == FF_PHASE_INTEGRATE && ff_solver_on_frontier(sv, x, y);
		f->last = ff_solver_last(sv, &lx, &ly, &fx, &fy) && lx == x && ly == y;
	}
}

const char *ff_view_phase(const ff_ctl *c)
{
	const ff_solver *sv = field_of(c);

	return sv ? ff_phase_name(ff_solver_phase(sv)) : "no field";
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

static const char *const arrows_utf8[8] = {"→", "↓", "←", "↑", "↘", "↙", "↖", "↗"};
static const char *const arrows_ascii[8] = {">", "v", "<", "^", "\\", "/", "\\", "/"};

static char glyph_of(const ff_level *l, int cost)
{
	int t = ff_level_terrain_by_cost(l, cost);

	if (t >= 0)
		return l->meta.palette[t].glyph;
	return cost == FF_WALL ? '#' : '?';
}

static bool in_spawn(const ff_level *l, int x, int y)
{
	for (int i = 0; i < l->meta.nspawns; i++)
		if (ff_shape_contains(&l->meta.spawns[i].area, x, y))
			return true;
	return false;
}

/* Right-aligns V in WIDTH (3 or 6) columns, compact when it does not fit. */
static void number(double v, int width, bool utf8, char *out, size_t size)
{
	if (isinf(v))
		snprintf(out, size, "%*s", width, utf8 ? "∞" : "inf");
	else if (width == 3 && v < 999.5)
		snprintf(out, size, "%3.0f", v);
	else if (width == 3 && v < 9950)
		snprintf(out, size, "%dk%d", (int)(v / 1000), (int)fmod(v / 100, 10));
	else if (width == 3 && v < 99500)
		snprintf(out, size, "%2.0fk", v / 1000);
	else if (width == 3)
		snprintf(out, size, "+++");
	else if (v < 999.995)
		snprintf(out, size, "%6.2f", v);
	else if (v < 99999.95)
		snprintf(out, size, "%6.1f", v);
	else if (v < 999999.5)
		snprintf(out, size, "%6.0f", v);
	else
		snprintf(out, size, "++++++");
}

/* The one-character marker of a cell, and its kind. */
static const char *marker(const ff_ctl *c, int x, int y, const field_cell *f, int cost,
			  unsigned char *kind, char *glyph)
{
	const ff_level *l = c->s->level;

	glyph[0] = glyph_of(l, cost), glyph[1] = '\0';
	*kind = FF_LOOK_PLAIN;
	if (cost == FF_WALL)
		return glyph;
	if ((c->layers & FF_LAYER_FRONTIER) && f->last) {
		*kind = FF_LOOK_LAST;
		return "@";
	}
	if ((c->layers & FF_LAYER_FRONTIER) && f->frontier) {
		*kind = FF_LOOK_FRONTIER;
		return "+";
	}
	if ((c->layers & FF_LAYER_GOALS) && ff_level_is_goal(l, x, y)) {
		*kind = FF_LOOK_GOAL;
		return "*";
	}
	if (f->has && f->done && isinf(f->value))
		*kind = FF_LOOK_UNREACH;
	else if ((c->layers & FF_LAYER_SPAWNS) && in_spawn(l, x, y))
		*kind = FF_LOOK_SPAWN;
	if ((c->layers & FF_LAYER_ARROWS) && f->dir >= 0) {
		*kind = FF_LOOK_ARROW;
		return c->utf8 ? arrows_utf8[f->dir] : arrows_ascii[f->dir];
	}
	return glyph;
}

void ff_view_cell(const ff_ctl *c, int x, int y, ff_cell_look *out)
{
	const ff_level *l = c->s->level;
	int cost = ff_level_cost(l, x, y), width = ff_ctl_cell_width(c->zoom);
	char glyph[2], num[32];
	const char *mk;
	field_cell f;

	field_at(c, x, y, &f);
	mk = marker(c, x, y, &f, cost, &out->kind, glyph);
	out->tier = (c->layers & FF_LAYER_COSTS) ? (unsigned char)ff_view_tier(cost) : 0;
	out->cursor = x == c->cx && y == c->cy;
	out->selected = false;
	if (c->marked) {
		int x0, y0, x1, y1;

		ff_ctl_selection(c, &x0, &y0, &x1, &y1);
		out->selected = x >= x0 && x <= x1 && y >= y0 && y <= y1;
	}
	if (width == 1) {
		snprintf(out->text, sizeof out->text, "%s", mk);
		return;
	}
	if (cost == FF_WALL) {
		memset(out->text, glyph[0], (size_t)width - 1);
		out->text[width - 1] = ' ';
		out->text[width] = '\0';
		return;
	}
	if (f.has && (c->layers & FF_LAYER_NUMBERS) && (f.done || !isinf(f.value)))
		number(f.value, width - 2, c->utf8, num, sizeof num);
	else if (f.has && (c->layers & FF_LAYER_NUMBERS))
		snprintf(num, sizeof num, "%*s", width - 2, "");
	else
		snprintf(num, sizeof num, "%*d", width - 2, cost);
	snprintf(out->text, sizeof out->text, "%s%s ", mk, num);
}

/* --- status and message lines ---------------------------------------- */

void ff_view_status(const ff_ctl *c, char *buf, size_t size)
{
	const ff_level *l = c->s->level;
	int cost = ff_level_cost(l, c->cx, c->cy);
	char here[FF_TERRAIN_NAME_MAX + 8], pen[FF_TERRAIN_NAME_MAX + 8], val[32] = "";
	field_cell f;

	field_at(c, c->cx, c->cy, &f);
	ff_ctl_terrain_word(c, cost, here, sizeof here);
	ff_ctl_terrain_word(c, c->pen, pen, sizeof pen);
	if (f.has && !isinf(f.value))
		snprintf(val, sizeof val, "  int %.2f%s%s", f.value, f.dir >= 0 ? " " : "",
			 f.dir >= 0 ? (c->utf8 ? arrows_utf8[f.dir] : arrows_ascii[f.dir]) : "");
	else if (f.has)
		snprintf(val, sizeof val, "  int %s", f.done ? "unreachable" : "-");
	snprintf(buf, size, " %s%s | %s | %d,%d %s %d%s%s | pen %s r%d%s | %s%s %s | ? help",
		 l->meta.name, c->s->modified ? " [+]" : "", ff_mode_name(c->mode),
		 c->cx, c->cy, here, cost == FF_WALL ? 255 : cost,
		 ff_level_is_goal(l, c->cx, c->cy) ? " goal" : "", val, pen, c->brush,
		 c->drawing ? " down" : "",
		 !f.has ? "" : c->s->opts.method == FF_METHOD_FMM ? "fmm" : "dijkstra",
		 !f.has ? "" : c->s->opts.connectivity == 4 ? "4" : "8", ff_view_phase(c));
}

void ff_view_message(const ff_ctl *c, char *buf, size_t size)
{
	if (c->mode == FF_MODE_PROMPT)
		snprintf(buf, size, ":%s", c->prompt.text);
	else
		snprintf(buf, size, "%s", c->msg);
}

/* --- help -------------------------------------------------------------- */

static const char *const section_names[] = {
	"Moving, painting and layers", "Editing", "With a mark set (v)",
	"At the ':' prompt", "In this help", "Quitting with unsaved changes",
};

static const char *section_of(unsigned modes)
{
	if (modes == FF_M_GRID)
		return section_names[0];
	if (modes == FF_M(FF_MODE_NORMAL))
		return section_names[1];
	if (modes == FF_M(FF_MODE_SELECT))
		return section_names[2];
	if (modes == FF_M(FF_MODE_PROMPT))
		return section_names[3];
	if (modes == FF_M(FF_MODE_HELP))
		return section_names[4];
	return section_names[5];
}

static const char *const editor_commands[] = {
	"move DX,DY | goto X,Y | page up|down|left|right | edge left|right|top|bottom",
	"center | zoom in|out|0|1|2 | layer costs|numbers|arrows|frontier|goals|spawns",
	"pen TERRAIN|next|prev | brush N|+|- | dab [TERRAIN] | draw | goal-here",
	"mark | unmark | w [FILE] | wq | q | q! | export FILE | help",
};

static bool same_entry(const ff_binding *a, const ff_binding *b)
{
	return a->modes == b->modes && !strcmp(a->run, b->run);
}

/* Generates the help; fills BUF with line WANT and returns the count. */
static int help_gen(int want, char *buf, size_t size)
{
	const ff_binding *b, *prev = NULL;
	const ff_cmd_info *ci;
	int n = 0;

#define LINE(...) do { if (n++ == want) snprintf(buf, size, __VA_ARGS__); } while (0)
	LINE("fieldmarshal editor keys (q or ? closes, j/k scroll)");
	for (int i = 0; (b = ff_keymap_at(i)); i++) {
		char keys[64] = "", name[16];
		bool first = true;

		for (int j = 0; j < i; j++)
			if (same_entry(ff_keymap_at(j), b))
				first = false;
		if (!first)
			continue;
		if (!prev || prev->modes != b->modes) {
			LINE("%s", "");
			LINE("%s", section_of(b->modes));
		}
		prev = b;
		for (int j = i; ff_keymap_at(j); j++)
			if (same_entry(ff_keymap_at(j), b)) {
				size_t k = strlen(keys);

				ff_key_name(ff_keymap_at(j)->key, name, sizeof name);
				snprintf(keys + k, sizeof keys - k, "%s%s", k ? " " : "", name);
			}
		LINE("  %-16s %-44s %s", keys, b->help, b->run);
	}
	LINE("%s", "");
	LINE("Editor commands (type after ':')");
	for (size_t i = 0; i < sizeof editor_commands / sizeof editor_commands[0]; i++)
		LINE("  %s", editor_commands[i]);
	LINE("%s", "");
	LINE("Level commands (type after ':'; docs/commands.md)");
	for (int i = 0; (ci = ff_cmd_info_at(i)); i++)
		LINE("  %-8s %-40s %s", ci->name, ci->args, ci->summary);
#undef LINE
	return n;
}

int ff_view_help_lines(const ff_ctl *c)
{
	(void)c;
	return help_gen(-1, NULL, 0);
}

void ff_view_help_line(const ff_ctl *c, int i, char *buf, size_t size)
{
	(void)c;
	buf[0] = '\0';
	help_gen(i, buf, size);
}

/* --- export ------------------------------------------------------------ */

char *ff_view_export(const ff_ctl *c, size_t *len)
{
	const ff_level *l = c->s->level;
	int vw = ff_ctl_view_w(c), vh = ff_ctl_view_h(c);
	ff_buf b = FF_BUF_INIT;
	ff_cell_look look;
	char status[512];

	for (int y = c->vy; y < c->vy + vh && y < l->h; y++) {
		for (int x = c->vx; x < c->vx + vw && x < l->w; x++) {
			ff_view_cell(c, x, y, &look);
			ff_buf_puts(&b, look.text);
		}
		ff_buf_puts(&b, "\n");
	}
	ff_view_status(c, status, sizeof status);
	ff_buf_puts(&b, status);
	ff_buf_puts(&b, "\n");
	return ff_buf_take(&b, len);
}
