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

ff_err ff_sim_check(const ff_level *l)
{
	const double *v = l->meta.params;

	return v[FF_P_RADIUS] > 0.5 * v[FF_P_CELL_SIZE] ? FF_E_INVAL : FF_OK;
}

ff_sim *ff_sim_create(const ff_level *level, ff_fields *fields, size_t capacity)
{
	ff_sim *s;

	if (!level || !fields)
		return NULL;
	s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->level = level;
	s->fields = fields;
	s->w = level->w;
	s->h = level->h;
	ff_rng_seed(&s->rng, (uint64_t)level->meta.params[FF_P_SEED]);
	zero_stats(s);
	s->dens = calloc((size_t)s->w * (size_t)s->h, sizeof *s->dens);
	s->dens_zero = calloc((size_t)s->h, 1);
	s->inv_area = malloc((size_t)s->w * (size_t)s->h * sizeof *s->inv_area);
	s->colsum = malloc((size_t)s->w * sizeof *s->colsum);
	s->fd_gamma = s->fd_rho_max = -1;
	s->fail.area = -1;
	s->regrid_ticks = FF_SIM_REGRID_TICKS;
	ff_sim_dirs_setup(s);
	for (int c = 1; c < 256; c++)
		s->inv_cost[c] = c == FF_WALL ? 0.0f : (float)(1.0 / c);
	if (!s->dens || !s->dens_zero || !s->inv_area || !s->colsum)
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
	ff_sim_par_destroy(s->par);
	ff_sim_route_fini(s);
	ff_spatial_fini(&s->grid);
	ff_sim_sources_clear(s);
	ff_sim_clear_lines(s);
	for (int g = 0; g < FF_GROUPS_MAX; g++) {
		free(s->gf[g].dir);
		free(s->gf[g].filled);
		free(s->gf[g].goal);
	}
	for (int c = 0; c <= FF_CLASSES_MAX; c++) {
		free(s->cls[c].clear);
		free(s->cls[c].walls);
	}
	free(s->dens);
	free(s->dens_zero);
	free(s->inv_area);
	free(s->colsum);
	free(s->id);
	free(s->ord);
	free(s->from);
	free(s->slot);
	free(s->spare);
	free(s->state);
	free(s->grp);
	free(s->hsum);
	free(s->hd);
	free(s->x);
	free(s->y);
	free(s->vx);
	free(s->vy);
	free(s);
}

size_t ff_sim_flow_bytes(const ff_sim *s)
{
	size_t cells = (size_t)s->w * (size_t)s->h, b = 0;

	for (int g = 0; g < FF_GROUPS_MAX; g++)
		b += (s->gf[g].dir ? cells + ff_sim_goal_words(cells) * sizeof(uint64_t) : 0) +
		     s->gf[g].nfilled;
	return b;
}

size_t ff_sim_bytes(const ff_sim *s)
{
	size_t cells = (size_t)s->w * (size_t)s->h;
	size_t agent = sizeof *s->id + sizeof *s->state + sizeof *s->grp + 4 * sizeof(double) +
		       sizeof *s->hsum + sizeof *s->hd + sizeof *s->ord + sizeof *s->from +
		       sizeof *s->slot + sizeof(double);
	size_t grid = sizeof(uint32_t) * 3 + sizeof(float) * 4, groups = ff_sim_flow_bytes(s);

	for (int c = 0; c <= FF_CLASSES_MAX; c++)
		groups += s->cls[c].walls ? cells * (1 + sizeof *s->cls[c].clear) : 0;
	return sizeof *s + groups +
	       cells * (sizeof(uint32_t) + sizeof *s->dens + sizeof *s->inv_area) +
	       (size_t)s->h * (sizeof *s->dens_zero + sizeof *s->grid.rows) +
	       (size_t)s->w * sizeof *s->colsum + s->cap * agent + s->grid.cap * grid;
}

/* Starts the second thread once there is room for a crowd that it would
 * share, unless kept to one (none to be had: one thread). */
static void want_par(ff_sim *s)
{
	if (!s->par && s->threads != 1 && s->cap >= FF_SIM_PAR_MIN)
		s->par = ff_sim_par_create();
}

/* Grows every agent array to CAP; on failure the sim is unchanged (arrays
 * already grown are just larger). */
ff_err ff_sim_reserve(ff_sim *s, size_t cap)
{
	void **arrays[] = {(void **)&s->id,   (void **)&s->state, (void **)&s->grp,
			   (void **)&s->x,    (void **)&s->y,     (void **)&s->vx,
			   (void **)&s->vy,   (void **)&s->ord,   (void **)&s->from,
			   (void **)&s->slot, &s->spare};
	size_t sizes[] = {sizeof *s->id, sizeof *s->state, sizeof *s->grp, sizeof *s->x,
			  sizeof *s->y,  sizeof *s->vx,    sizeof *s->vy,  sizeof *s->ord,
			  sizeof *s->from, sizeof *s->slot, sizeof(double)};
	double(*hsum)[3];
	float(*hd)[2];

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
	hsum = realloc(s->hsum, (cap + 1) * sizeof *hsum);
	if (!hsum)
		return FF_E_NOMEM;
	s->hsum = hsum;
	hd = realloc(s->hd, cap * sizeof *hd);
	if (!hd)
		return FF_E_NOMEM;
	s->hd = hd;
	s->cap = cap;
	want_par(s);
	return FF_OK;
}

void ff_sim_set_flags(ff_sim *s, unsigned flags)
{
	s->flags = flags;
}

void ff_sim_set_threads(ff_sim *s, int n)
{
	s->threads = n;
	want_par(s);
}

void ff_sim_seed(ff_sim *s, uint64_t seed)
{
	ff_rng_seed(&s->rng, seed);
}

/* The net count can reach at most the agents spawned so far (each
 * crosses for good at most once), plus those the sources owe. */
static size_t line_need(const ff_sim *s)
{
	return (size_t)s->tot.spawned + (size_t)ff_sim_pending(s);
}

ff_err ff_sim_lines_reserve(ff_sim *s, size_t more)
{
	size_t need = line_need(s) + more;

	for (int k = 0; k < s->nlines; k++) {
		struct ff_lines *l = &s->lines[k];
		uint32_t *at;

		if (l->cap >= need)
			continue;
		if (!(at = realloc(l->at, 2 * need * sizeof *at)))
			return FF_E_NOMEM;
		l->at = at;
		l->cap = need;
	}
	return FF_OK;
}

ff_err ff_sim_add_line(ff_sim *s, double x0, double y0, double x1, double y1, int *index)
{
	struct ff_lines *l;

	if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1) ||
	    (x0 == x1 && y0 == y1))
		return FF_E_INVAL;
	if (s->nlines == FF_SIM_LINES_MAX)
		return FF_E_FULL;
	l = &s->lines[s->nlines];
	memset(l, 0, sizeof *l);
	l->seg[0] = x0;
	l->seg[1] = y0;
	l->seg[2] = x1;
	l->seg[3] = y1;
	s->nlines++;
	if (ff_sim_lines_reserve(s, 0) != FF_OK) {
		s->nlines--;
		free(l->at);
		return FF_E_NOMEM;
	}
	if (index)
		*index = s->nlines - 1;
	return FF_OK;
}

void ff_sim_clear_lines(ff_sim *s)
{
	for (int k = 0; k < s->nlines; k++)
		free(s->lines[k].at);
	s->nlines = 0;
}

int ff_sim_nlines(const ff_sim *s)
{
	return s->nlines;
}

void ff_sim_line_get(const ff_sim *s, int k, ff_sim_line *out)
{
	const struct ff_lines *l = &s->lines[k];
	long n = l->net < 0 ? -l->net : l->net, i10 = (n + 9) / 10, i90 = n * 9 / 10;
	int back = l->net < 0;

	assert(k >= 0 && k < s->nlines);
	memcpy(out->seg, l->seg, sizeof out->seg);
	out->crossings = l->net;
	out->first = l->first;
	out->last = l->last;
	out->t10 = out->t90 = 0;
	out->flow = 0;
	if (n < 10 || (size_t)i90 > l->cap)
		return;
	out->t10 = l->at[2 * (i10 - 1) + back];
	out->t90 = l->at[2 * (i90 - 1) + back];
	/* Within one tick: at least a tick, so the flow stays finite. */
	out->flow = (double)(i90 - i10) /
		    (double)(out->t90 > out->t10 ? out->t90 - out->t10 : 1);
}

void ff_sim_clear(ff_sim *s)
{
	s->n = 0;
	s->regridded = false;
	for (int g = 0; g < FF_GROUPS_MAX; g++)
		s->gf[g].agents = 0;
	ff_sim_sources_clear(s);
}

long ff_sim_pending(const ff_sim *s)
{
	long n = 0;

	for (int k = 0; k < s->nsrc; k++)
		n += s->src[k].left;
	return n;
}

size_t ff_sim_count(const ff_sim *s)
{
	return s->n;
}

void ff_sim_agent(const ff_sim *s, size_t i, ff_agent *out)
{
	assert(i < s->n);
	i = ff_sim_slot(s, i);
	out->id = s->id[i];
	out->state = s->state[i];
	out->group = s->grp[i];
	out->x = s->x[i];
	out->y = s->y[i];
	out->vx = s->vx[i];
	out->vy = s->vy[i];
}

void ff_sim_flow_at(const ff_sim *s, int g, int x, int y, float *fx, float *fy)
{
	const ff_gfield *gf = &s->gf[g];
	const ff_solver *sv = ff_fields_peek(s->fields, g);
	size_t at = (size_t)y * (size_t)s->w + (size_t)x;

	*fx = *fy = 0;
	if (gf->copied && gf->version == ff_fields_version(s->fields, g) &&
	    (!gf->sector || gf->filled[ff_sim_sector_of(s, gf, x, y)])) {
		*fx = s->dirv[gf->dir[at]][0];
		*fy = s->dirv[gf->dir[at]][1];
	} else if (sv) {
		ff_solver_flow(sv, x, y, fx, fy);
	}
}

double ff_sim_density_at(const ff_sim *s, int x, int y)
{
	if ((unsigned)x >= (unsigned)s->w || (unsigned)y >= (unsigned)s->h ||
	    ff_sim_blocked(s, 0, x, y) || s->tot.ticks == 0)
		return 0;
	return s->dens[(size_t)y * (size_t)s->w + (size_t)x];
}

const ff_sim_stats *ff_sim_last(const ff_sim *s)
{
	return &s->last;
}

const ff_sim_totals *ff_sim_totals_get(const ff_sim *s)
{
	return &s->tot;
}

void ff_sim_group_get(const ff_sim *s, int g, ff_sim_group *out)
{
	assert(g >= 0 && g < FF_GROUPS_MAX);
	*out = s->gtot[g];
	out->alive = s->galive[g];
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
	for (size_t r = 0; r < s->n; r++) {
		size_t i = ff_sim_slot(s, r);

		h = fnv(h, s->id[i], 4);
		h = fnv(h, s->state[i], 1);
		if (s->grp[i])
			h = fnv(h, s->grp[i], 1);
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
