/*
 * ctl_sim.c - the controller's time-driven parts: simulation mode (run,
 * pause, speed, the agents counted per cell for drawing), long solves run
 * in slices, and the split view's second solver.
 *
 * Every change to the session is still a core command: a running
 * simulation executes 'tick N', a sliced solve 'step begin' and then
 * 'step cell N' until done.  Only the pacing comes from the clock (the
 * loop's elapsed time); each tick is the level's fixed dt.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_int.h"

/* --- the agents per cell ------------------------------------------------ */

static void count_agents(ff_ctl *c)
{
	const ff_level *l = c->s->level;
	size_t cells = (size_t)l->w * (size_t)l->h, n;
	ff_agent a;

	c->occ_agents = 0;
	if (!c->s->sim)
		return;
	if (!c->occ || c->occ_w != l->w || c->occ_h != l->h) {
		unsigned short *o = realloc(c->occ, cells * sizeof *o);

		if (!o)
			return;
		c->occ = o, c->occ_w = l->w, c->occ_h = l->h;
	}
	memset(c->occ, 0, cells * sizeof *c->occ);
	n = ff_sim_count(c->s->sim);
	for (size_t i = 0; i < n; i++) {
		int x, y;

		ff_sim_agent(c->s->sim, i, &a);
		x = (int)floor(a.x), y = (int)floor(a.y);
		if (ff_level_in(l, x, y) && c->occ[(size_t)y * (size_t)l->w + (size_t)x] < 0xffff)
			c->occ[(size_t)y * (size_t)l->w + (size_t)x]++;
	}
	c->occ_agents = (long)n;
}

/* --- the split view's solver -------------------------------------------- */

/* Solves the right pane again: the same level, goals and steps as the
 * session's field, with its own method and connectivity. */
static void sync_split(ff_ctl *c)
{
	const ff_session *s = c->s;
	const ff_level *l = s->level;

	c->field2 = false;
	if (!c->split || !s->field)
		return;
	if (!c->solver2 || c->s2w != l->w || c->s2h != l->h) {
		ff_solver_destroy(c->solver2);
		c->solver2 = ff_solver_too_big(l->w, l->h, s->mem_avail, NULL, 0) ? NULL :
			     ff_solver_create(l->w, l->h);
		if (!c->solver2)
			return;
		c->s2w = l->w, c->s2h = l->h;
	}
	if (ff_solver_begin(c->solver2, l, l->meta.goals, l->meta.ngoals, &c->opts2))
		return;
	for (int i = 0; i < s->nsteps; i++)
		ff_solver_step(c->solver2, s->steps[i].unit, s->steps[i].n);
	c->field2 = true;
}

void ff_ctl_changed(ff_ctl *c, unsigned mask)
{
	if (mask & (FF_REDRAW_CELLS | FF_REDRAW_META | FF_REDRAW_FIELD))
		sync_split(c);
	count_agents(c);
}

unsigned ff_ui_split(ff_ctl *c, int argc, char **argv)
{
	ff_solver_opts o = c->s->opts;

	if (argc == 2 && !strcmp(argv[1], "off")) {
		c->split = false;
		c->field2 = false;
		ff_ctl_say(c, false, "split view off");
		return FF_UI_CLEAR;
	}
	if (argc == 1 && c->split) {
		c->split = false;
		ff_ctl_say(c, false, "split view off");
		return FF_UI_CLEAR;
	}
	/* default: the other method, or the other connectivity */
	if (argc == 1)
		ff_method_parse(o.method == FF_METHOD_FMM ? "dijkstra" : "fmm", &o);
	for (int i = 1; i < argc; i++)
		if (!ff_solver_word(argv[i], &o))
			return ff_ctl_usage(c, "split [dijkstra|fmm|fmm2] [8|4] [cheapest|lowest] | "
					    "split off");
	c->opts2 = o;
	c->split = true;
	sync_split(c);
	ff_ctl_say(c, false, "split view: left %s, right %s; steps apply to both",
		   ff_method_label(&c->s->opts), ff_method_label(&o));
	return FF_UI_CLEAR;
}

/* --- solving in slices ------------------------------------------------- */

unsigned ff_ctl_solve_sliced(ff_ctl *c, int argc, char **argv, bool *handled)
{
	const ff_level *l = c->s->level;
	char line[128] = "step begin";
	unsigned ui;

	*handled = false;
	if ((argc == 2 && !strcmp(argv[1], "off")) || argc > 3 ||
	    (long)l->w * l->h <= c->slice_cells)
		return 0;
	*handled = true;
	for (int i = 1; i < argc; i++)
		snprintf(line + strlen(line), sizeof line - strlen(line), " %s", argv[i]);
	ui = ff_ctl_core(c, line, true);
	if (c->msg_error)
		return ui;
	c->solving = true;
	ff_ctl_say(c, false, "solving %dx%d in slices of %ld cells", l->w, l->h,
		   c->slice_cells);
	return ui | FF_UI_MSG;
}

static unsigned solve_slice(ff_ctl *c)
{
	char line[64];
	unsigned ui;

	if (!c->s->field) {
		c->solving = false;
		return FF_UI_STATUS;
	}
	snprintf(line, sizeof line, "step cell %ld", c->slice_cells);
	ui = ff_ctl_core(c, line, false);
	if (c->msg_error || ff_solver_phase(c->s->solver) == FF_PHASE_DONE) {
		c->solving = false;
		if (!c->msg_error)
			ff_ctl_say(c, false, "solved: %ld cells settled",
				   ff_solver_settled(c->s->solver));
		ui |= FF_UI_MSG | FF_UI_GRID;
	}
	return ui;
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
		return ff_ctl_usage(c, "mode edit|sim");
	if (c->s->level->meta.ngoals == 0) {
		ff_ctl_say(c, true, "the level has no goals: g puts one at the cursor");
		return FF_UI_MSG;
	}
	if (!field_done(c) && !c->solving) {
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

	return dt * 1000.0 / ldexp(1.0, c->speed);
}

unsigned ff_ui_run(ff_ctl *c, int argc, char **argv)
{
	bool on = !c->running;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "on") && strcmp(argv[1], "off")))
		return ff_ctl_usage(c, "run [on|off]");
	if (argc == 2)
		on = !strcmp(argv[1], "on");
	if (on && !field_done(c) && !c->solving) {
		ff_ctl_say(c, true, "the field is not solved: 'solve' first");
		return FF_UI_MSG;
	}
	c->running = on;
	c->due_ms = 0;
	if (on && (!c->s->sim || ff_sim_count(c->s->sim) == 0))
		ff_ctl_say(c, false, "running, but there are no agents: i adds some at the "
			   "cursor, s spawns from the areas");
	else
		ff_ctl_say(c, false, "%s", on ? "running" : "paused");
	return FF_UI_STATUS | FF_UI_MSG;
}

unsigned ff_ui_speed(ff_ctl *c, int argc, char **argv)
{
	int v = c->speed;

	if (argc == 2 && !strcmp(argv[1], "+"))
		v++;
	else if (argc == 2 && !strcmp(argv[1], "-"))
		v--;
	else if (argc != 2 || !ff_ctl_parse_int(argv[1], &v))
		return ff_ctl_usage(c, "speed +|-|N (N from -3 to 6: 2^N times real time)");
	c->speed = v < FF_SPEED_MIN ? FF_SPEED_MIN : v > FF_SPEED_MAX ? FF_SPEED_MAX : v;
	if (c->speed >= 0)
		ff_ctl_say(c, false, "speed x%d", 1 << c->speed);
	else
		ff_ctl_say(c, false, "speed x1/%d", 1 << -c->speed);
	return FF_UI_STATUS | FF_UI_MSG;
}

unsigned ff_ui_sim_toggle(ff_ctl *c, int argc, char **argv)
{
	unsigned flag;
	char line[64];

	if (argc != 2 || (strcmp(argv[1], "funnel") && strcmp(argv[1], "separation")))
		return ff_ctl_usage(c, "sim-toggle funnel|separation");
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
		c->running = false;
		ff_ctl_say(c, true, "stopped: %s", c->last.msg);
		return FF_UI_MSG | FF_UI_STATUS;
	}
	if (c->recording)
		c->rec_ticks += n;
	ff_ctl_changed(c, c->last.redraw);
	return FF_UI_GRID | FF_UI_STATUS;
}

unsigned ff_ctl_sim_idle(ff_ctl *c, double elapsed_ms)
{
	double period = ff_ctl_tick_ms(c);
	long n;

	if (c->solving)
		return solve_slice(c);
	if (!c->running || c->mode == FF_MODE_HELP)
		return 0;
	if (!c->s->sim || ff_sim_count(c->s->sim) == 0 || !field_done(c)) {
		c->due_ms = 0;
		return 0;
	}
	c->due_ms += elapsed_ms;
	n = (long)(c->due_ms / period);
	if (n < 1)
		return 0;
	/* a slow terminal drops time rather than piling ticks up */
	if (n > 8)
		n = 8, c->due_ms = 0;
	else
		c->due_ms -= (double)n * period;
	return run_ticks(c, n);
}

int ff_ctl_wait_ms(const ff_ctl *c, int idle_ms)
{
	double period, left;

	if (c->solving)
		return 0;
	if (c->player && c->playing && !c->play_done)
		period = 1000.0 / ldexp(1.0, c->speed);
	else if (c->running && c->s->sim && ff_sim_count(c->s->sim) > 0)
		period = ff_ctl_tick_ms(c);
	else
		return idle_ms;
	left = period - c->due_ms;
	return left < 1 ? 1 : left > idle_ms ? idle_ms : (int)left;
}
