/*
 * api_sim.c - libfieldmarshal's crowd (fieldmarshal.h) over the core's
 * simulation.  The public calls are few and speak in cells and counts; as
 * the core's simulation grows, this file alone follows it.
 */
#include <stdlib.h>

#include "fieldmarshal.h"
#include "lib.h"

fm_sim *fm_sim_new(const fm_level *level, const fm_field *field)
{
	fm_sim *s;

	if (!field->solved || field->solved != level || ff_sim_check(level->l))
		return NULL;
	if (!(s = malloc(sizeof *s)))
		return NULL;
	if (!(s->f = ff_fields_create(level->l, &field->opts))) {
		free(s);
		return NULL;
	}
	ff_fields_lend(s->f, 0, field->s);
	if (!(s->sim = ff_sim_create(level->l, s->f, 64))) {
		ff_fields_destroy(s->f);
		free(s);
		return NULL;
	}
	return s;
}

void fm_sim_free(fm_sim *sim)
{
	if (sim) {
		ff_sim_destroy(sim->sim);
		ff_fields_destroy(sim->f);
		free(sim);
	}
}

long fm_sim_spawn(fm_sim *sim, double x, double y, long n, double radius)
{
	long placed = 0;
	ff_err err = ff_sim_spawn_at(sim->sim, x, y, n, radius, 0, &placed);

	return err ? err : placed;
}

void fm_sim_step(fm_sim *sim)
{
	ff_sim_step(sim->sim);
}

int fm_sim_refresh(fm_sim *sim)
{
	return ff_sim_refresh(sim->sim);
}

long fm_sim_agents(const fm_sim *sim)
{
	return (long)ff_sim_count(sim->sim);
}

long fm_sim_arrived(const fm_sim *sim)
{
	return ff_sim_totals_get(sim->sim)->arrived;
}

int fm_sim_agent(const fm_sim *sim, long i, double *x, double *y)
{
	ff_agent a;

	if (i < 0 || (size_t)i >= ff_sim_count(sim->sim))
		return -1;
	ff_sim_agent(sim->sim, (size_t)i, &a);
	*x = a.x, *y = a.y;
	return FM_OK;
}
