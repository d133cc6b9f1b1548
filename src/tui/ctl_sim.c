/*
 * ctl_sim.c - simulation mode: running the crowd in real time (pause,
 * speed, one tick at a time), switching its behaviours, and the agents
 * counted per cell for drawing.
 *
 * Every change to the session is still a core command: a running
 * simulation executes 'tick N'.  Only the pacing comes from the clock (the
 * loop's elapsed time); each tick is the level's fixed dt.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/glyph.h"
#include "ctl_int.h"

/* --- the agents per cell ------------------------------------------------ */

/* Adds agent A (its speed PCT percent of the free speed) to the cell
 * tally T. */
static void tally(ff_ctl_cell *t, const ff_agent *a, int pct)
{
	t->group = t->n == 0 || t->group == a->group ? (signed char)a->group : FF_GLYPH_MIXED;
	if (t->n == 0 || pct < t->pct)
		t->pct = (unsigned char)pct;
	if (t->n < 0xffff)
		t->n++;
}

static void count_agents(ff_ctl *c)
{
	const ff_level *l = c->s->level;
	const double *p = l->meta.params;
	/* the free speed in cells per second, as the crowd reads it */
	const double v0 = p[FF_P_SPEED] / p[FF_P_CELL_SIZE];
	ff_ctl_sim *m = &c->sim;
	size_t cells = (size_t)l->w * (size_t)l->h, n;
	ff_agent a;

	m->occ_agents = 0;
	memset(m->alive, 0, sizeof m->alive);
	if (!c->s->sim)
		return;
	if (!m->occ || m->occ_w != l->w || m->occ_h != l->h) {
		ff_ctl_cell *o = realloc(m->occ, cells * sizeof *o);

		if (!o)
			return;
		m->occ = o, m->occ_w = l->w, m->occ_h = l->h;
	}
	memset(m->occ, 0, cells * sizeof *m->occ);
	n = ff_sim_count(c->s->sim);
	for (size_t i = 0; i < n; i++) {
		double pct;
		int x, y;

		ff_sim_agent(c->s->sim, i, &a);
		x = (int)floor(a.x), y = (int)floor(a.y);
		pct = v0 > 0 ? 100 * hypot(a.vx, a.vy) / v0 : 0;
		if (ff_level_in(l, x, y))
			tally(&m->occ[(size_t)y * (size_t)l->w + (size_t)x], &a,
			      pct < 255 ? (int)pct : 255);
		if (a.state != FF_AGENT_ARRIVED && a.group >= 0 && a.group < FF_GROUPS_MAX)
			m->alive[a.group]++;
	}
	m->occ_agents = (long)n;
}

const ff_ctl_cell *ff_ctl_cell_at(const ff_ctl *c, int x, int y)
{
	const ff_level *l = c->s->level;
	const ff_ctl_sim *m = &c->sim;
	const ff_ctl_cell *t;

	if (!m->occ || !c->s->sim || m->occ_w != l->w || m->occ_h != l->h ||
	    !ff_level_in(l, x, y))
		return NULL;
	t = &m->occ[(size_t)y * (size_t)l->w + (size_t)x];
	return t->n ? t : NULL;
}

int ff_ctl_agents_at(const ff_ctl *c, int x, int y)
{
	const ff_ctl_cell *t = ff_ctl_cell_at(c, x, y);

	return t ? t->n : 0;
}

void ff_ctl_changed(ff_ctl *c, unsigned mask)
{
	if (mask & (FF_REDRAW_CELLS | FF_REDRAW_META | FF_REDRAW_FIELD))
		ff_ctl_sync_split(c);
	/* the group's field as the crowd has it now (orders, edits) */
	ff_ctl_sync_group(c);
	count_agents(c);
}

/* --- simulation mode ----------------------------------------------------- */

static bool field_done(const ff_ctl *c)
{
	return c->s->field && ff_solver_phase(c->s->solver) == FF_PHASE_DONE;
}

unsigned ff_ui_mode(ff_ctl *c, int argc, char **argv)
{
	unsigned ui = 0;

	if (argc == 2 && !strcmp(argv[1], "edit"))
		return ff_ctl_set_mode(c, FF_MODE_NORMAL);
	if (argc != 2 || strcmp(argv[1], "sim"))
		return ff_ctl_usage(c, argv[0]);
	if (c->s->level->meta.ngoals == 0) {
		ff_ctl_say(c, true, "the level has no goals: g puts one at the cursor");
		return FF_UI_MSG;
	}
	if (!field_done(c) && !c->slice.solving) {
		ui |= ff_ctl_line(c, "solve");
		if (c->msg_error)
			return ui;
	}
	ui |= ff_ctl_set_mode(c, FF_MODE_SIM);
	ff_ctl_say(c, false, "simulation: i adds agents at the cursor, s spawns from the "
		   "areas, Space runs, . ticks, m leaves");
	return ui | FF_UI_MSG | FF_UI_GRID;
}

double ff_ctl_tick_ms(const ff_ctl *c)
{
	double dt = c->s->level->meta.params[FF_P_DT];

	return dt * 1000.0 / ldexp(1.0, c->sim.speed);
}

/* True when the message line has the crowd's counting lines to report
 * (ff_view_message) whenever no message is said. */
static bool lines_report(const ff_ctl *c)
{
	return (c->view.layers & FF_LAYER_LINES) && c->s->sim && ff_sim_nlines(c->s->sim);
}

unsigned ff_ui_run(ff_ctl *c, int argc, char **argv)
{
	bool on = !c->sim.running;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "on") && strcmp(argv[1], "off")))
		return ff_ctl_usage(c, argv[0]);
	if (argc == 2)
		on = !strcmp(argv[1], "on");
	if (on && !field_done(c) && !c->slice.solving) {
		ff_ctl_say(c, true, "the field is not solved: 'solve' first");
		return FF_UI_MSG;
	}
	c->sim.running = on;
	c->sim.due_ms = 0;
	if (on && (!c->s->sim || ff_sim_count(c->s->sim) == 0))
		ff_ctl_say(c, false, "running, but there are no agents: i adds some at the "
			   "cursor, s spawns from the areas");
	else if (lines_report(c))
		ff_ctl_say(c, false, "%s", "");    /* the status line says it; the counts stay */
	else
		ff_ctl_say(c, false, "%s", on ? "running" : "paused");
	return FF_UI_STATUS | FF_UI_MSG;
}

unsigned ff_ui_speed(ff_ctl *c, int argc, char **argv)
{
	int v = c->sim.speed;

	if (argc == 2 && !strcmp(argv[1], "+"))
		v++;
	else if (argc == 2 && !strcmp(argv[1], "-"))
		v--;
	else if (argc != 2 || !ff_ctl_parse_int(argv[1], &v))
		return ff_ctl_usage(c, argv[0]);
	c->sim.speed = ff_ctl_clamp(v, FF_SPEED_MIN, FF_SPEED_MAX);
	if (c->sim.speed >= 0)
		ff_ctl_say(c, false, "speed x%d", 1 << c->sim.speed);
	else
		ff_ctl_say(c, false, "speed x1/%d", 1 << -c->sim.speed);
	return FF_UI_STATUS | FF_UI_MSG;
}

unsigned ff_ui_sim_toggle(ff_ctl *c, int argc, char **argv)
{
	unsigned flag;
	char line[64];

	if (argc != 2 || (strcmp(argv[1], "funnel") && strcmp(argv[1], "separation")))
		return ff_ctl_usage(c, argv[0]);
	flag = argv[1][0] == 'f' ? FF_SIM_NO_FUNNEL : FF_SIM_NO_SEPARATION;
	snprintf(line, sizeof line, "sim %s %s", argv[1], (c->s->sim_flags & flag) ? "on" : "off");
	ff_ctl_core(c, line, false);
	if (!c->msg_error)
		ff_ctl_say(c, false, "%s", line);
	return FF_UI_STATUS | FF_UI_MSG;
}

/* Runs N ticks of the running simulation: recorded as one 'tick N' later. */
static unsigned run_ticks(ff_ctl *c, long n)
{
	char line[32];
	ff_err err;

	snprintf(line, sizeof line, "tick %ld", n);
	err = ff_cmd_exec(c->s, line, &c->last);
	if (err) {
		c->sim.running = false;
		ff_ctl_say(c, true, "stopped: %s", c->last.msg);
		return FF_UI_MSG | FF_UI_STATUS;
	}
	if (c->rec.on)
		c->rec.ticks += n;
	ff_ctl_changed(c, c->last.redraw);
	/* a note ("running") gives way to the counting lines as they count */
	if (!c->msg_error && lines_report(c))
		c->msg[0] = '\0';
	return FF_UI_GRID | FF_UI_STATUS;
}

unsigned ff_ctl_sim_idle(ff_ctl *c, double elapsed_ms)
{
	ff_ctl_sim *m = &c->sim;
	double period = ff_ctl_tick_ms(c);
	long n;

	if (!m->running || c->mode == FF_MODE_HELP)
		return 0;
	if (!c->s->sim || ff_sim_count(c->s->sim) == 0 || !field_done(c)) {
		m->due_ms = 0;
		return 0;
	}
	m->due_ms += elapsed_ms;
	n = (long)(m->due_ms / period);
	if (n < 1)
		return 0;
	/* a slow terminal drops time rather than piling ticks up */
	if (n > 8)
		n = 8, m->due_ms = 0;
	else
		m->due_ms -= (double)n * period;
	return run_ticks(c, n);
}

int ff_ctl_wait_ms(const ff_ctl *c, int idle_ms)
{
	double period, left;

	if (c->slice.solving)
		return 0;
	if (c->play.player && c->play.playing && !c->play.done)
		period = 1000.0 / ldexp(1.0, c->sim.speed);
	else if (c->sim.running && c->s->sim && ff_sim_count(c->s->sim) > 0)
		period = ff_ctl_tick_ms(c);
	else
		return idle_ms;
	left = period - c->sim.due_ms;
	return left < 1 ? 1 : left > idle_ms ? idle_ms : (int)left;
}
