/*
 * sim.c - agents as struct-of-arrays, one fixed timestep at a time.
 *
 * A tick: read the parameters, sort the agents into the neighbour grid
 * (positions at the start of the tick), then for each agent in id order
 * work out a desired velocity (flow + separation + funnelling + jitter),
 * limit the change by the acceleration, move with wall collision, and check
 * arrival; finally drop arrived agents keeping id order.  Steering reads the
 * grid's snapshot only, so it does not matter which agent moves first; the
 * PRNG is drawn in id order.  See docs/simulation.md for the model.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "sim.h"
#include "sim_impl.h"

static void zero_stats(ff_sim *s)
{
	memset(&s->last, 0, sizeof s->last);
	memset(&s->tot, 0, sizeof s->tot);
}

ff_sim *ff_sim_create(const ff_level *level, const ff_solver *solver,
		      size_t capacity)
{
	ff_sim *s;

	if (!level || !solver)
		return NULL;
	s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->level = level;
	s->solver = solver;
	s->w = level->w;
	s->h = level->h;
	ff_rng_seed(&s->rng, (uint64_t)level->meta.params[FF_P_SEED]);
	zero_stats(s);
	s->arrive = malloc((size_t)s->w * (size_t)s->h);
	s->clear = malloc((size_t)s->w * (size_t)s->h * sizeof *s->clear);
	s->flow = malloc((size_t)s->w * (size_t)s->h * 2 * sizeof *s->flow);
	s->walls = malloc((size_t)s->w * (size_t)s->h);
	if (!s->arrive || !s->clear || !s->flow || !s->walls)
		goto fail;
	if (ff_spatial_init(&s->grid, s->w, s->h, capacity) != FF_OK)
		goto fail;
	if (ff_sim_reserve(s, capacity ? capacity : 1) != FF_OK)
		goto fail;
	if (ff_sim_refresh(s) != FF_OK)
		goto fail;
	return s;
fail:
	ff_sim_destroy(s);
	return NULL;
}

void ff_sim_destroy(ff_sim *s)
{
	if (!s)
		return;
	ff_spatial_fini(&s->grid);
	free(s->arrive);
	free(s->clear);
	free(s->flow);
	free(s->walls);
	free(s->id);
	free(s->state);
	free(s->x);
	free(s->y);
	free(s->vx);
	free(s->vy);
	free(s);
}

size_t ff_sim_bytes(const ff_sim *s)
{
	size_t cells = (size_t)s->w * (size_t)s->h;
	size_t agent = sizeof *s->id + sizeof *s->state + 4 * sizeof(double);
	size_t grid = sizeof(uint32_t) * 2 + sizeof(float) * 2;

	return sizeof *s +
	       cells * (2 + sizeof *s->clear + 2 * sizeof *s->flow + sizeof(uint32_t)) +
	       s->cap * agent + s->grid.cap * grid;
}

/* Grows every agent array to CAP; on failure the sim is unchanged (arrays
 * already grown are just larger). */
ff_err ff_sim_reserve(ff_sim *s, size_t cap)
{
	void **arrays[] = {(void **)&s->id, (void **)&s->state, (void **)&s->x,
			   (void **)&s->y, (void **)&s->vx, (void **)&s->vy};
	size_t sizes[] = {sizeof *s->id, sizeof *s->state, sizeof *s->x,
			  sizeof *s->y, sizeof *s->vx, sizeof *s->vy};

	if (cap <= s->cap)
		return FF_OK;
	if (cap > FF_SIM_MAX_AGENTS)
		return FF_E_NOMEM;
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		void *p = realloc(*arrays[k], cap * sizes[k]);

		if (!p)
			return FF_E_NOMEM;
		*arrays[k] = p;
	}
	if (ff_spatial_reserve(&s->grid, cap) != FF_OK)
		return FF_E_NOMEM;
	s->cap = cap;
	return FF_OK;
}

void ff_sim_set_flags(ff_sim *s, unsigned flags)
{
	s->flags = flags;
}

void ff_sim_seed(ff_sim *s, uint64_t seed)
{
	ff_rng_seed(&s->rng, seed);
}

ff_err ff_sim_set_line(ff_sim *s, double x0, double y0, double x1, double y1)
{
	ff_sim_totals *t = &s->tot;

	if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1) ||
	    (x0 == x1 && y0 == y1))
		return FF_E_INVAL;
	s->line[0] = x0;
	s->line[1] = y0;
	s->line[2] = x1;
	s->line[3] = y1;
	s->line_on = true;
	t->crossings = t->first_crossing = t->last_crossing = 0;
	t->line_throughput = 0;
	return FF_OK;
}

void ff_sim_clear_line(ff_sim *s)
{
	s->line_on = false;
}

void ff_sim_clear(ff_sim *s)
{
	s->n = 0;
}

size_t ff_sim_count(const ff_sim *s)
{
	return s->n;
}

void ff_sim_agent(const ff_sim *s, size_t i, ff_agent *out)
{
	assert(i < s->n);
	out->id = s->id[i];
	out->state = s->state[i];
	out->x = s->x[i];
	out->y = s->y[i];
	out->vx = s->vx[i];
	out->vy = s->vy[i];
}

const ff_sim_stats *ff_sim_last(const ff_sim *s)
{
	return &s->last;
}

const ff_sim_totals *ff_sim_totals_get(const ff_sim *s)
{
	return &s->tot;
}

/* FNV-1a, fed integers least significant byte first. */
static uint64_t fnv(uint64_t h, uint64_t v, int bytes)
{
	for (int b = 0; b < bytes; b++) {
		h ^= (v >> (8 * b)) & 0xff;
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint64_t bits(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof u);
	return u;
}

uint64_t ff_sim_hash(const ff_sim *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	h = fnv(h, (uint64_t)s->tot.ticks, 8);
	h = fnv(h, (uint64_t)s->n, 8);
	for (size_t i = 0; i < s->n; i++) {
		h = fnv(h, s->id[i], 4);
		h = fnv(h, s->state[i], 1);
		h = fnv(h, bits(s->x[i]), 8);
		h = fnv(h, bits(s->y[i]), 8);
		h = fnv(h, bits(s->vx[i]), 8);
		h = fnv(h, bits(s->vy[i]), 8);
	}
	h = fnv(h, (uint64_t)s->tot.arrived, 8);
	for (int k = 0; k < 4; k++)
		h = fnv(h, s->rng.s[k], 8);
	return h;
}
