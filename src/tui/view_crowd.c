/*
 * view_crowd.c - the crowd on the grid: its agents (a named group's in its
 * letter and colour, or every agent in the colour of its speed), the
 * density it walks by (heat colours, digits in monochrome), its counting
 * lines, and their legends.  The density is the simulation's own field
 * (ff_sim_density_at), the agents as ctl_sim.c last counted them.
 *
 * Density steps are whole agents per square metre (0 .. 9, nine for nine
 * or more), speed steps fifths of the level's free speed; the colours,
 * the digits and the legends all come from these two definitions.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/glyph.h"
#include "view.h"

int ff_view_density_step(double rho)
{
	if (!(rho > 0))
		return -1;
	return rho >= FF_DENSITY_STEPS - 1 ? FF_DENSITY_STEPS - 1 : (int)rho;
}

int ff_view_speed_step(int pct)
{
	int k = pct / (100 / FF_SPEED_STEPS);

	return k < 0 ? 0 : k >= FF_SPEED_STEPS ? FF_SPEED_STEPS - 1 : k;
}

void ff_view_legend(const ff_ctl *c, unsigned layer, char *buf, size_t size)
{
	const char *m2 = c->view.utf8 ? "m²" : "m^2";

	if (layer == FF_LAYER_DENSITY && c->view.mono)
		snprintf(buf, size, "density: agents/%s near each cell as a digit 0-9 (9: nine "
			 "or more)", m2);
	else if (layer == FF_LAYER_DENSITY)
		snprintf(buf, size, "density: agents/%s near each cell, blue 0-1, cyan 2-3, green "
			 "4-5, yellow 6-7, red 8+", m2);
	else if (layer == FF_LAYER_SPEED && c->view.mono)
		snprintf(buf, size, "speed: agents by their speed needs colours");
	else if (layer == FF_LAYER_SPEED)
		snprintf(buf, size, "speed: %% of the free speed, red <20, orange <40, yellow <60, "
			 "lime <80, green 80+");
	else
		buf[0] = '\0';
}

void ff_view_lines(const ff_ctl *c, char *buf, size_t size)
{
	const ff_sim *sim = c->s->sim;
	const double dt = c->s->level->meta.params[FF_P_DT];
	size_t n = 0;

	buf[0] = '\0';
	for (int k = 0; sim && k < ff_sim_nlines(sim) && n < size; k++) {
		ff_sim_line ln;

		ff_sim_line_get(sim, k, &ln);
		n += (size_t)snprintf(buf + n, size - n, "%sline %d: %ld across", k ? "; " : "",
				      k + 1, ln.crossings);
		/* the flow 'sim' reports: from 10% to 90% of the crossings */
		if (n < size && ln.flow > 0)
			n += (size_t)snprintf(buf + n, size - n, ", %.2f/s", ln.flow / dt);
	}
}

/* True when counting line SEG (x0, y0, x1, y1, in cell corners) runs
 * through cell (X, Y): the part of it inside the cell's square has a
 * length, and its middle lies in the cell's half-open square (a line on
 * the border between two cells belongs to the one right of or below
 * it). */
static bool on_line(const double seg[4], int x, int y)
{
	const double dx = seg[2] - seg[0], dy = seg[3] - seg[1];
	const double p[4] = {-dx, dx, -dy, dy};
	const double q[4] = {seg[0] - x, x + 1 - seg[0], seg[1] - y, y + 1 - seg[1]};
	double t0 = 0, t1 = 1, mx, my;

	/* Liang and Barsky's clipping of the segment to the square */
	for (int i = 0; i < 4; i++) {
		if (p[i] == 0) {
			if (q[i] < 0)
				return false;
		} else if (p[i] < 0) {
			t0 = fmax(t0, q[i] / p[i]);
		} else {
			t1 = fmin(t1, q[i] / p[i]);
		}
	}
	if (t1 - t0 <= 1e-9)
		return false;
	mx = seg[0] + dx * (t0 + t1) / 2;
	my = seg[1] + dy * (t0 + t1) / 2;
	return (int)floor(mx) == x && (int)floor(my) == y;
}

const char *ff_view_line_mark(const ff_ctl *c, int x, int y)
{
	const ff_sim *sim = c->s->sim;

	for (int k = 0; sim && (c->view.layers & FF_LAYER_LINES) && k < ff_sim_nlines(sim); k++) {
		ff_sim_line ln;

		ff_sim_line_get(sim, k, &ln);
		if (on_line(ln.seg, x, y))
			return ff_glyph_line(ln.seg[2] - ln.seg[0], ln.seg[3] - ln.seg[1],
					     c->view.utf8);
	}
	return NULL;
}

const char *ff_view_crowd_mark(const ff_ctl *c, int x, int y, unsigned char *kind,
			       unsigned char *hue)
{
	static const char *const digits[FF_DENSITY_STEPS] = {"0", "1", "2", "3", "4", "5", "6",
							     "7", "8", "9"};
	const unsigned layers = c->view.layers;
	const ff_ctl_cell *t;
	int k;

	if ((layers & FF_LAYER_DENSITY) && c->view.mono && c->s->sim &&
	    (k = ff_view_density_step(ff_sim_density_at(c->s->sim, x, y))) >= 0) {
		*kind = FF_LOOK_DENSITY;
		return digits[k];
	}
	if ((layers & FF_LAYER_AGENTS) && (t = ff_ctl_cell_at(c, x, y))) {
		*kind = FF_LOOK_AGENT;
		if (layers & FF_LAYER_SPEED)
			*hue = (unsigned char)(FF_HUE_SPEED + ff_view_speed_step(t->pct));
		else if (t->group == FF_GLYPH_MIXED)
			*hue = FF_HUE_MIXED;
		else
			*hue = (unsigned char)t->group;      /* 0: the default colour */
		return ff_glyph_cell(t->n, t->group, c->view.utf8);
	}
	return NULL;
}

int ff_view_heat_tier(const ff_ctl *c, int x, int y)
{
	int k;

	if (!(c->view.layers & FF_LAYER_DENSITY) || c->view.mono ||
	    ff_level_wall(c->s->level, x, y))
		return -1;
	k = c->s->sim ? ff_view_density_step(ff_sim_density_at(c->s->sim, x, y)) : -1;
	return k < 0 ? FF_TIER_NONE : FF_TIER_HEAT + k;
}
