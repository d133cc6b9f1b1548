/*
 * view.c - cell text and styles, the status line, the generated help and
 * the plain-text export, all computed from a const controller.
 *
 * One character per cell shows, by priority (glyphs from core/glyph.h):
 * wall, agents ('o', a digit when several share the cell, 'O' from ten on),
 * last settled cell '@',
 * frontier '+', goal '*', unreachable 'x', flow (or came-from) arrow,
 * terrain glyph.  Wide cells show that marker followed by the integration
 * value (or the cost before a solve).  In split view each pane reads its
 * own solver (ff_ctl_pane_solver).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/glyph.h"
#include "view.h"

#include "core/solver.h"

/* --- the field (solver results) ---------------------------------------- */

typedef struct field_cell {
	bool has;                /* a field is shown */
	double value;            /* INFINITY when unsettled or unreachable */
	int dir;                 /* FF_DIR_* or -1 */
	int from;                /* FF_DIR_* of the neighbour that settled it, or -1 */
	bool frontier, last, done;
} field_cell;

/* The neighbour cell (X, Y)'s value came from, as a FF_DIR_*: Dijkstra's
 * cheapest step, Fast Marching's lower upwind neighbour
 * (ff_solver_sources).  -1 for goals, walls and unsettled cells. */
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
	int lx, ly, fx, fy;

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
	if (c->layers & FF_LAYER_FROM)
		f->from = ff_view_came_from(sv, x, y);
	/* the solver's one definition of a cell's arrow, for every method */
	f->dir = ff_solver_dir(sv, x, y);
	f->dir = f->dir < 8 ? f->dir : -1;
	if (ph == FF_PHASE_INTEGRATE || ph == FF_PHASE_FLOW) {
		f->frontier = ph == FF_PHASE_INTEGRATE && ff_solver_on_frontier(sv, x, y);
		f->last = ff_solver_last(sv, &lx, &ly, &fx, &fy) && lx == x && ly == y;
	}
}

const char *ff_view_phase(const ff_ctl *c)
{
	const ff_solver *sv = ff_ctl_pane_solver(c, 0);

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
	else if (width == 3 && v < 9950)          /* in hundreds, rounded: 1k0..9k9 */
		snprintf(out, size, "%dk%d", (int)(v / 100 + 0.5) / 10, (int)(v / 100 + 0.5) % 10);
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

/* The one-character marker of a cell (core/glyph.h), and its kind. */
static const char *marker(const ff_ctl *c, int x, int y, const field_cell *f, int cost,
			  unsigned char *kind, char *glyph)
{
	const ff_level *l = c->s->level;
	int n;

	glyph[0] = ff_glyph_terrain(l, ff_level_value(l, x, y)), glyph[1] = '\0';
	*kind = FF_LOOK_PLAIN;
	if (cost == FF_WALL)
		return glyph;
	if ((c->layers & FF_LAYER_AGENTS) && (n = ff_ctl_agents_at(c, x, y)) > 0) {
		*kind = FF_LOOK_AGENT;
		return ff_glyph_agents(n, c->utf8);
	}
	if ((c->layers & FF_LAYER_FRONTIER) && f->last) {
		*kind = FF_LOOK_LAST;
		return ff_glyph(FF_GLYPH_LAST, c->utf8);
	}
	if ((c->layers & FF_LAYER_FRONTIER) && f->frontier) {
		*kind = FF_LOOK_FRONTIER;
		return ff_glyph(FF_GLYPH_FRONTIER, c->utf8);
	}
	if ((c->layers & FF_LAYER_GOALS) && ff_level_is_goal(l, x, y)) {
		*kind = FF_LOOK_GOAL;
		return ff_glyph(FF_GLYPH_GOAL, c->utf8);
	}
	if (f->has && f->done && isinf(f->value) && (c->layers & FF_LAYER_UNREACH)) {
		*kind = FF_LOOK_UNREACH;
		return ff_glyph(FF_GLYPH_UNREACH, c->utf8);
	}
	if ((c->layers & FF_LAYER_SPAWNS) && in_spawn(l, x, y))
		*kind = FF_LOOK_SPAWN;
	if ((c->layers & FF_LAYER_FROM) && f->from >= 0) {
		*kind = FF_LOOK_FROM;
		return ff_glyph_from(f->from, c->utf8);
	}
	if ((c->layers & FF_LAYER_ARROWS) && f->dir >= 0) {
		if (*kind == FF_LOOK_PLAIN)
			*kind = FF_LOOK_ARROW;
		return ff_glyph_arrow(f->dir, c->utf8);
	}
	return glyph;
}

void ff_view_cell(const ff_ctl *c, int x, int y, ff_cell_look *out)
{
	ff_view_cell_pane(c, 0, x, y, out);
}

void ff_view_cell_pane(const ff_ctl *c, int pane, int x, int y, ff_cell_look *out)
{
	const ff_level *l = c->s->level;
	int cost = ff_level_cost(l, x, y), width = ff_ctl_cell_width(c->zoom);
	char glyph[2], num[32];
	const char *mk;
	field_cell f;

	field_at(c, pane, x, y, &f);
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

/* "int 3.41 ->" for pane PANE at the cursor, or "" without a field. */
static void cursor_value(const ff_ctl *c, int pane, char *buf, size_t size)
{
	field_cell f;

	field_at(c, pane, c->cx, c->cy, &f);
	if (ff_level_cost(c->s->level, c->cx, c->cy) == FF_WALL)
		buf[0] = '\0';         /* a wall has no value to show */
	else if (f.has && !isinf(f.value))
		snprintf(buf, size, "%.2f%s%s", f.value, f.dir >= 0 ? " " : "",
			 ff_glyph_arrow(f.dir, c->utf8));
	else if (f.has)
		snprintf(buf, size, "%s", f.done ? "unreachable" : "-");
	else
		buf[0] = '\0';
}

static void solver_name(const ff_ctl *c, int pane, char *buf, size_t size)
{
	const ff_solver *sv = ff_ctl_pane_solver(c, pane);
	const ff_solver_opts *o = ff_ctl_pane_opts(c, pane);

	snprintf(buf, size, "%s %s", ff_method_label(o),
		 sv ? ff_phase_name(ff_solver_phase(sv)) : "no field");
}

/* The mode word with what runs underneath: "SIM run x2", "PLAY 12", "EDIT REC". */
static void mode_word(const ff_ctl *c, char *buf, size_t size)
{
	char speed[16];

	if (c->speed >= 0)
		snprintf(speed, sizeof speed, "x%d", 1 << c->speed);
	else
		snprintf(speed, sizeof speed, "x1/%d", 1 << -c->speed);
	if (c->mode == FF_MODE_SIM || (c->in_sim && !c->player))
		snprintf(buf, size, "%s %s %s", ff_mode_name(c->mode),
			 c->running ? "run" : "paused", speed);
	else if (c->player)
		snprintf(buf, size, "%s %s %s line %d", ff_mode_name(c->mode),
			 c->play_done ? "end" : c->playing ? "play" : "paused", speed, c->play_line);
	else
		snprintf(buf, size, "%s", ff_mode_name(c->mode));
	if (c->recording)
		snprintf(buf + strlen(buf), size - strlen(buf), " REC");
}

void ff_view_status(const ff_ctl *c, char *buf, size_t size)
{
	const ff_level *l = c->s->level;
	int cost = ff_level_cost(l, c->cx, c->cy);
	char here[FF_TERRAIN_NAME_MAX + 8], pen[FF_TERRAIN_NAME_MAX + 8], val[64] = "";
	char v0[24], v1[24], sv0[40], sv1[40], mode[48], tail[96];
	const ff_sim_stats *st = c->s->sim ? ff_sim_last(c->s->sim) : NULL;

	ff_ctl_terrain_word(c, cost, here, sizeof here);
	ff_ctl_terrain_word(c, c->pen, pen, sizeof pen);
	cursor_value(c, 0, v0, sizeof v0);
	cursor_value(c, 1, v1, sizeof v1);
	solver_name(c, 0, sv0, sizeof sv0);
	solver_name(c, 1, sv1, sizeof sv1);
	mode_word(c, mode, sizeof mode);
	if (v0[0] && c->split)
		snprintf(val, sizeof val, "  int %s / %s", v0, v1[0] ? v1 : "-");
	else if (v0[0])
		snprintf(val, sizeof val, "  int %s", v0);
	if (c->solving && c->s->field)
		snprintf(tail, sizeof tail, "solving %s %ld/%ld", sv0,
			 ff_solver_settled(c->s->solver), (long)l->w * l->h);
	else if (c->split)
		snprintf(tail, sizeof tail, "%s | %s | step %d", sv0, sv1, c->s->nsteps);
	else
		snprintf(tail, sizeof tail, "%s", ff_ctl_pane_solver(c, 0) ? sv0 : "no field");
	if (st && (c->in_sim || c->player || c->mode == FF_MODE_SIM))
		snprintf(buf, size, " %s%s | %s | tick %ld alive %ld arrived %ld stranded %ld%s%s"
			 " | %d,%d %s%s",
			 l->meta.name, c->s->modified ? " [+]" : "", mode, st->tick,
			 (long)ff_sim_count(c->s->sim), ff_sim_totals_get(c->s->sim)->arrived,
			 st->stranded, (c->s->sim_flags & FF_SIM_NO_FUNNEL) ? " nofunnel" : "",
			 (c->s->sim_flags & FF_SIM_NO_SEPARATION) ? " nosep" : "",
			 c->cx, c->cy, here, val);
	else if (c->split)
		snprintf(buf, size, " %s%s | %s | %d,%d %s %d%s%s | %s", l->meta.name,
			 c->s->modified ? " [+]" : "", mode, c->cx, c->cy, here,
			 cost == FF_WALL ? 255 : cost,
			 ff_level_is_goal(l, c->cx, c->cy) ? " goal" : "", val, tail);
	else
		snprintf(buf, size, " %s%s | %s | %d,%d %s %d%s%s | pen %s r%d%s | %s | ? help",
			 l->meta.name, c->s->modified ? " [+]" : "", mode,
			 c->cx, c->cy, here, cost == FF_WALL ? 255 : cost,
			 ff_level_is_goal(l, c->cx, c->cy) ? " goal" : "", val, pen, c->brush,
			 c->drawing ? " down" : "", tail);
}

void ff_view_message(const ff_ctl *c, char *buf, size_t size)
{
	if (c->mode == FF_MODE_PROMPT)
		snprintf(buf, size, ":%s", c->prompt.text);
	else
		snprintf(buf, size, "%s", c->msg);
}

/* --- help -------------------------------------------------------------- */

static const struct {
	unsigned modes;
	const char *name;
} sections[] = {
	{FF_M_VIEW, "Moving, layers and views (every grid mode)"},
	{FF_M_GRID, "Solving, history and the program"},
	{FF_M(FF_MODE_NORMAL), "Editing"},
	{FF_M(FF_MODE_SELECT), "With a mark set (v)"},
	{FF_M(FF_MODE_SIM), "Simulation mode (m)"},
	{FF_M(FF_MODE_PLAY), "Playing a replay (fieldmarshal replay FILE --tui)"},
	{FF_M(FF_MODE_PROMPT), "At the ':' prompt"},
	{FF_M(FF_MODE_HELP), "In this help"},
	{FF_M(FF_MODE_CONFIRM), "Quitting with unsaved changes"},
};

static const char *section_of(unsigned modes)
{
	for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
		if (sections[i].modes == modes)
			return sections[i].name;
	return "Other keys";
}

static const char *const editor_commands[] = {
	"move DX,DY | goto X,Y | page up|down|left|right | edge left|right|top|bottom",
	"center | zoom in|out|0|1|2 | split [dijkstra|fmm|fmm2] [8|4] | split off",
	"layer costs|numbers|arrows|frontier|goals|spawns|from|unreachable|agents [on|off]",
	"pen TERRAIN|next|prev | brush N|+|- | dab [TERRAIN] | draw | goal-here",
	"mode edit|sim | run [on|off] | speed +|-|N | sim-toggle funnel|separation",
	"record FILE|db:NAME | record stop [FILE|db:NAME] | play [on|off] | play-next",
	"mark | unmark | w [FILE] | wq | q | q! | export FILE [ansi] | help",
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

/* --- colours and attributes ------------------------------------------ */

/* Background colours of the cost tiers, and foregrounds of the looks
 * (plain, goal, spawn, frontier, last, unreachable, arrow, agent, from). */
static const short bg256[FF_TIERS] = {-1, -1, 22, 58, 94, 130, 88, 52, 250};
static const short bg8[FF_TIERS] = {-1, -1, 2, 2, 3, 3, 1, 1, 7};
static const short fg256[FF_LOOK__COUNT] = {-1, 16, 117, 16, 16, 196, 231, 226, 213};
static const short fg8[FF_LOOK__COUNT] = {-1, 0, 6, 0, 0, 1, -1, 3, 5};
/* Looks that bring their own background (-2: the tier's). */
static const short lookbg256[FF_LOOK__COUNT] = {-2, 46, -2, 39, 201, -2, -2, -2, -2};
static const short lookbg8[FF_LOOK__COUNT] = {-2, 2, -2, 6, 5, -2, -2, -2, -2};

void ff_view_colors(int tier, int kind, bool c256, short *fg, short *bg)
{
	*bg = (c256 ? lookbg256 : lookbg8)[kind];
	*fg = (c256 ? fg256 : fg8)[kind];
	if (*bg == -2)
		*bg = (c256 ? bg256 : bg8)[tier];
	if (tier == FF_TIER_WALL && *bg == (c256 ? bg256 : bg8)[tier])
		*fg = c256 ? 235 : 0;
	else if (!c256 && *fg == -1 && *bg != -1)
		*fg = 0;
}

unsigned ff_view_attrs(int tier, int kind, bool color)
{
	unsigned a = 0;

	if (kind == FF_LOOK_SPAWN || kind == FF_LOOK_FROM)
		a |= FF_ATTR_UNDERLINE;         /* never by colour alone */
	if (kind == FF_LOOK_GOAL || kind == FF_LOOK_LAST || kind == FF_LOOK_AGENT)
		a |= FF_ATTR_BOLD;
	if (color)
		return a;
	if (tier == FF_TIER_WALL || kind == FF_LOOK_FRONTIER || kind == FF_LOOK_GOAL)
		a |= FF_ATTR_REVERSE;
	if (tier >= 5 && tier != FF_TIER_WALL)
		a |= FF_ATTR_BOLD;
	if (kind == FF_LOOK_UNREACH)
		a |= FF_ATTR_DIM;
	return a;
}

/* --- export ------------------------------------------------------------ */

/* Appends the SGR sequence for a look (256 colours). */
static void sgr(ff_buf *b, const ff_cell_look *look)
{
	unsigned a = ff_view_attrs(look->tier, look->kind, true);
	short fg, bg;

	ff_view_colors(look->tier, look->kind, true, &fg, &bg);
	ff_buf_puts(b, "\033[0");
	if (a & FF_ATTR_BOLD)
		ff_buf_puts(b, ";1");
	if (a & FF_ATTR_UNDERLINE)
		ff_buf_puts(b, ";4");
	if (fg >= 0)
		ff_buf_printf(b, ";38;5;%d", fg);
	if (bg >= 0)
		ff_buf_printf(b, ";48;5;%d", bg);
	ff_buf_puts(b, "m");
}

char *ff_view_export(const ff_ctl *c, bool ansi, size_t *len)
{
	const ff_level *l = c->s->level;
	int vw = ff_ctl_view_w(c), vh = ff_ctl_view_h(c);
	ff_buf b = FF_BUF_INIT;
	ff_cell_look look, prev;
	char status[512];

	for (int y = c->vy; y < c->vy + vh && y < l->h; y++) {
		for (int p = 0; p < ff_ctl_panes(c); p++) {
			if (p > 0)
				ff_buf_puts(&b, ansi ? "\033[0m|" : "|");
			memset(&prev, 0xff, sizeof prev);
			for (int x = c->vx; x < c->vx + vw && x < l->w; x++) {
				ff_view_cell_pane(c, p, x, y, &look);
				if (ansi && (look.tier != prev.tier || look.kind != prev.kind))
					sgr(&b, &look);
				prev = look;
				ff_buf_puts(&b, look.text);
			}
		}
		ff_buf_puts(&b, ansi ? "\033[0m\n" : "\n");
	}
	ff_view_status(c, status, sizeof status);
	ff_buf_puts(&b, ansi ? "\033[7m" : "");
	ff_buf_puts(&b, status);
	ff_buf_puts(&b, ansi ? "\033[0m\n" : "\n");
	return ff_buf_take(&b, len);
}
