/*
 * view_status.c - the status and message lines.
 *
 * The status line is a row of fields, each with a priority: when the
 * screen is too narrow for all of them, the least needed go first (the
 * help hint, the pen, the level's name, the terrain under the cursor, a
 * simulation's stranded count), so that the mode, the cursor cell, its
 * value, the solver's phase (both panes' in split view; not a finished
 * one under a counted crowd, whose tick matters more) and the step count
 * always fit at 80 columns.  On a level with groups the selected group
 * stays as long as the crowd's tick does (while editing, longer than the
 * pen and the level's name: O orders it), and the other groups' counts
 * go early.  Messages have their own line below it; with no message, the
 * crowd's counting lines report there as it ticks.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/cost.h"
#include "core/glyph.h"
#include "core/level_dyn.h"
#include "view.h"

#define MAX_FIELDS 20
#define MUST 0                   /* fields that always stay */

typedef struct field {
	char text[128];
	int prio;                /* MUST, or higher for earlier to go */
	bool glue;               /* joined to the previous field by a blank */
} field;

typedef struct fields {
	field f[MAX_FIELDS];
	int n;
} fields;

static void add(fields *fs, int prio, bool glue, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void add(fields *fs, int prio, bool glue, const char *fmt, ...)
{
	va_list ap;

	if (fs->n == MAX_FIELDS)
		return;
	va_start(ap, fmt);
	vsnprintf(fs->f[fs->n].text, sizeof fs->f[fs->n].text, fmt, ap);
	va_end(ap);
	fs->f[fs->n].prio = prio;
	fs->f[fs->n].glue = glue;
	fs->n++;
}

/* The fields of priority up to MAX, joined; its length. */
static size_t join(const fields *fs, int max, char *buf, size_t size)
{
	size_t n = 0;
	bool first = true;

	buf[0] = '\0';
	for (int i = 0; i < fs->n; i++) {
		if (fs->f[i].prio > max)
			continue;
		n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s%s",
				      first ? " " : fs->f[i].glue ? " " : " | ", fs->f[i].text);
		first = false;
	}
	return n;
}

/* Screen columns of UTF-8 TEXT. */
static size_t columns(const char *text)
{
	size_t n = 0;

	for (; *text; text++)
		n += ((unsigned char)*text & 0xc0) != 0x80;
	return n;
}

/* "4.83 p" for pane PANE at the cursor, or "" without a value to show. */
static void cursor_value(const ff_ctl *c, int pane, char *buf, size_t size)
{
	const ff_solver *sv = ff_ctl_pane_solver(c, pane);
	int x = c->view.cx, y = c->view.cy, d;
	double v;

	buf[0] = '\0';
	if (!sv || ff_level_wall(c->s->level, x, y))
		return;
	v = ff_solver_value(sv, x, y);
	d = ff_solver_dir(sv, x, y);
	if (!isinf(v))
		snprintf(buf, size, "%.2f%s%s", v, d < 8 ? " " : "", ff_glyph_arrow(d, c->view.utf8));
	else
		snprintf(buf, size, "%s", ff_solver_phase(sv) == FF_PHASE_DONE ? "unreachable" : "-");
}

/* " [+5] =13" for the cursor cell of painted cost COST: its dynamic layer
 * and, when it differs, its effective cost (core/cost.h) as the first
 * pane's solver measures it; "" for neither. */
static void cursor_layers(const ff_ctl *c, int cost, char *buf, size_t size)
{
	const ff_level *l = c->s->level;
	int dyn = ff_level_dyn(l, c->view.cx, c->view.cy), eff, n = 0;
	char word[8];
	ff_costs k;

	ff_costs_init(&k, l, ff_solver_metric(ff_ctl_pane_opts(c, 0)));
	eff = ff_costs_at(&k, c->view.cx, c->view.cy);
	buf[0] = '\0';
	if (dyn)
		n = snprintf(buf, size, " [%s]", ff_dyn_word(dyn, word));
	if (eff != cost && eff == FF_WALL)
		snprintf(buf + n, size - (size_t)n, " =wall");
	else if (eff != cost)
		snprintf(buf + n, size - (size_t)n, " =%d", eff);
}

/* The mode word with what runs underneath: "SIM run x2", "PLAY 12", "EDIT REC". */
static void mode_word(const ff_ctl *c, char *buf, size_t size)
{
	char speed[16];
	int sp = c->sim.speed;

	if (sp >= 0)
		snprintf(speed, sizeof speed, "x%d", 1 << sp);
	else
		snprintf(speed, sizeof speed, "x1/%d", 1 << -sp);
	if (c->mode == FF_MODE_SIM || (c->sim.in_sim && !c->play.player))
		snprintf(buf, size, "%s %s %s", ff_mode_name(c->mode),
			 c->sim.running ? "run" : "paused", speed);
	else if (c->play.player)
		snprintf(buf, size, "%s %s %s line %d", ff_mode_name(c->mode),
			 c->play.done ? "end" : c->play.playing ? "play" : "paused", speed,
			 c->play.line);
	else
		snprintf(buf, size, "%s", ff_mode_name(c->mode));
	if (c->rec.on)
		snprintf(buf + strlen(buf), size - strlen(buf), " REC");
}

/* True when the crowd's counters show: there is a crowd, and the
 * simulation mode or a replay. */
static bool counting(const ff_ctl *c)
{
	return c->s->sim && (c->sim.in_sim || c->play.player || c->mode == FF_MODE_SIM);
}

/* The crowd's counters, when there is a crowd to count (with groups,
 * those alive are counted per group instead: groups()). */
static void crowd(const ff_ctl *c, fields *fs)
{
	const ff_session *s = c->s;
	const ff_sim_stats *st;

	if (!counting(c))
		return;
	st = ff_sim_last(s->sim);
	if (s->level->meta.ngroups > 1)
		add(fs, 1, false, "tick %ld arrived %ld", st->tick,
		    ff_sim_totals_get(s->sim)->arrived);
	else
		add(fs, 1, false, "tick %ld alive %ld arrived %ld", st->tick,
		    (long)ff_sim_count(s->sim), ff_sim_totals_get(s->sim)->arrived);
	add(fs, 3, true, "stranded %ld%s%s", st->stranded,
	    (s->sim_flags & FF_SIM_NO_FUNNEL) ? " nofunnel" : "",
	    (s->sim_flags & FF_SIM_NO_SEPARATION) ? " nosep" : "");
}

/* On a level with groups, the selected group and, while the crowd is
 * counted, its agents alive (beside the tick), then those of the other
 * groups; while editing, the group goes after the level's name and
 * before the terrain under the cursor. */
static void groups(const ff_ctl *c, fields *fs)
{
	const ff_level *l = c->s->level;
	const int sel = ff_ctl_group(c);
	char others[128];
	size_t n = 0;

	if (l->meta.ngroups < 2)
		return;
	if (!counting(c)) {
		add(fs, 3, false, "group %s", ff_level_group_name(l, sel));
		return;
	}
	add(fs, 1, false, "group %s %ld", ff_level_group_name(l, sel), c->sim.alive[sel]);
	others[0] = '\0';
	for (int g = 0; g < l->meta.ngroups && n < sizeof others; g++)
		if (g != sel)
			n += (size_t)snprintf(others + n, sizeof others - n, "%s%s %ld", n ? " " : "",
					      ff_level_group_name(l, g), c->sim.alive[g]);
	add(fs, 3, true, "%s", others);
}

/* What the density and speed layers read at the cursor: the density
 * there, the speed of the slowest agent there. */
static void at_cursor(const ff_ctl *c, fields *fs)
{
	const ff_ctl_cell *t = ff_ctl_cell_at(c, c->view.cx, c->view.cy);

	if ((c->view.layers & FF_LAYER_DENSITY) && c->s->sim)
		add(fs, 2, false, "%.2f/%s", ff_sim_density_at(c->s->sim, c->view.cx, c->view.cy),
		    c->view.utf8 ? "m²" : "m^2");
	if ((c->view.layers & FF_LAYER_SPEED) && t)
		add(fs, 3, false, "speed %d%%", t->pct);
}

/* The solver's phase (both panes'), a sliced solve's progress, the steps.
 * A crowd counted on one finished field learns nothing from "done": the
 * tick and the group are worth its columns more. */
static void solving(const ff_ctl *c, fields *fs)
{
	const ff_level *l = c->s->level;
	const ff_solver *sv = ff_ctl_pane_solver(c, 0);
	const int prio = counting(c) && !c->split.on && sv &&
			 ff_solver_phase(sv) == FF_PHASE_DONE ? 3 : MUST;
	char label[96];

	if (c->slice.solving && c->s->field) {
		add(fs, MUST, false, "solving %s %ld/%ld", ff_method_label(&c->s->opts),
		    ff_solver_settled(c->s->solver), (long)l->w * l->h);
		return;
	}
	for (int p = 0; p < ff_ctl_panes(c); p++) {
		const ff_solver *ps = ff_ctl_pane_solver(c, p);

		snprintf(label, sizeof label, "%s %s", ff_method_label(ff_ctl_pane_opts(c, p)),
			 ps ? ff_phase_name(ff_solver_phase(ps)) : "no field");
		add(fs, prio, false, "%s", label);
	}
	if (c->split.on || (sv && ff_solver_phase(sv) != FF_PHASE_DONE))
		add(fs, MUST, false, "step %d", c->s->nsteps);
}

void ff_view_status(const ff_ctl *c, char *buf, size_t size)
{
	const ff_level *l = c->s->level;
	const int cost = ff_level_cost(l, c->view.cx, c->view.cy);
	char here[FF_TERRAIN_NAME_MAX + 8], word[64], v0[48], v1[48], lay[24];
	fields fs = {.n = 0};
	bool sim = c->sim.in_sim || c->play.player || c->mode == FF_MODE_SIM;

	ff_ctl_terrain_word(c, cost, here, sizeof here);
	add(&fs, 4, false, "%s%s", l->meta.name, c->s->modified ? " [+]" : "");
	mode_word(c, word, sizeof word);
	add(&fs, MUST, false, "%s", word);
	add(&fs, MUST, false, "%d,%d", c->view.cx, c->view.cy);
	cursor_layers(c, cost, lay, sizeof lay);
	add(&fs, 2, true, "%s %d%s%s", here, cost == FF_WALL ? 255 : cost, lay,
	    ff_level_is_goal(l, c->view.cx, c->view.cy) ? " goal" : "");
	cursor_value(c, 0, v0, sizeof v0);
	cursor_value(c, 1, v1, sizeof v1);
	if (v0[0] && c->split.on)
		add(&fs, MUST, true, " int %s / %s", v0, v1[0] ? v1 : "-");
	else if (v0[0])
		add(&fs, MUST, true, " int %s", v0);
	crowd(c, &fs);
	groups(c, &fs);
	at_cursor(c, &fs);
	if (!sim) {
		ff_ctl_terrain_word(c, c->pen.cost, word, sizeof word);
		add(&fs, 5, false, "pen %s r%d%s", word, c->pen.brush,
		    c->pen.drawing ? " down" : "");
	}
	solving(c, &fs);
	add(&fs, 6, false, "? help");
	for (int max = 6; max >= MUST; max--)
		if (join(&fs, max, buf, size) < size && columns(buf) <= (size_t)c->cols)
			return;
}

void ff_view_message(const ff_ctl *c, char *buf, size_t size)
{
	if (c->mode == FF_MODE_PROMPT)
		snprintf(buf, size, ":%s", c->prompt.text);
	else if (!c->msg[0] && (c->view.layers & FF_LAYER_LINES))
		ff_view_lines(c, buf, size);     /* the counting lines, live */
	else
		snprintf(buf, size, "%s", c->msg);
}

bool ff_view_shows_help(const ff_ctl *c)
{
	return c->mode == FF_MODE_HELP ||
	       (c->mode == FF_MODE_PROMPT && c->prompt_from == FF_MODE_HELP);
}
