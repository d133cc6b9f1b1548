/*
 * sim_route.c - congestion-aware routing: every route_interval seconds the
 * groups' fields are solved again with the crowd in their costs, so that
 * agents choose by the time a way takes at the crowd's speed, not by its
 * length (the quickest path of Kretz 2009; docs/simulation.md, "Routing
 * around a jam").
 *
 * Over each interval the tick's density field is summed per cell; at its
 * end every cell's mean density rho gives the crowd's slowing
 *
 *   k = 1 + route_weight * (1 / W(rho) - 1),
 *
 * W being the speed-density relation the agents walk by (Weidmann's, over
 * the free speed), so that with weight 1 a cell costs the time to cross it
 * at the crowd's speed; k is kept in 1/256ths (at most 255.99: a cell at
 * jam density costs the most a cell can).  The fields multiply each cell's
 * cost by it (cost.h) and are solved again in place.  Everything is a sum
 * in a fixed order and a rounding: the same run gives the same fields.
 */
#include <stdlib.h>

#include "sim_impl.h"

ff_err ff_sim_route_setup(ff_sim *s)
{
	bool on = s->level->meta.params[FF_P_ROUTE_INTERVAL] > 0;
	size_t cells = (size_t)s->w * (size_t)s->h;

	if (on && !s->crowd) {
		s->crowd = malloc(cells * sizeof *s->crowd);
		s->dsum = calloc(cells, sizeof *s->dsum);
		if (!s->crowd || !s->dsum) {
			ff_sim_route_fini(s);
			return FF_E_NOMEM;
		}
		for (size_t i = 0; i < cells; i++)
			s->crowd[i] = 256;
		s->route_n = 0;
		ff_fields_set_crowd(s->fields, s->crowd);
	} else if (!on && s->crowd) {
		ff_sim_route_fini(s);
	}
	return FF_OK;
}

void ff_sim_route_fini(ff_sim *s)
{
	if (s->crowd)
		ff_fields_set_crowd(s->fields, NULL);
	free(s->crowd);
	free(s->dsum);
	s->crowd = NULL;
	s->dsum = NULL;
	s->route_n = 0;
}

/* The crowd's slowing of every cell from the mean density over the last
 * N ticks, in 1/256ths. */
static void slowing(ff_sim *s, long n)
{
	size_t cells = (size_t)s->w * (size_t)s->h;
	double wgt = s->level->meta.params[FF_P_ROUTE_WEIGHT];
	double scale = FF_SIM_FD_N / s->fd_rho_max / (double)n;

	for (size_t i = 0; i < cells; i++) {
		double v = ff_sim_fd_at(s, s->dsum[i] * scale), k;

		k = v > 0 ? 1 + wgt * (1 / v - 1) : 256;
		k = k * 256 + 0.5;
		s->crowd[i] = (uint16_t)(k < 65535 ? k : 65535);
		s->dsum[i] = 0;
	}
}

void ff_sim_route_tick(ff_sim *s)
{
	const double *v = s->level->meta.params;
	size_t cells = (size_t)s->w * (size_t)s->h;
	long every = (long)(v[FF_P_ROUTE_INTERVAL] / v[FF_P_DT] + 0.5);

	if (!s->crowd)
		return;
	for (size_t i = 0; i < cells; i++)
		s->dsum[i] += s->dens[i];
	if (++s->route_n < (every > 1 ? every : 1))
		return;
	slowing(s, s->route_n);
	s->route_n = 0;
	ff_fields_crowd_changed(s->fields);
	/* the copies the agents read: their arrays and solvers exist */
	for (int g = 0; g < FF_GROUPS_MAX; g++)
		if (s->gf[g].agents > 0)
			(void)ff_sim_group_ready(s, g);
}
