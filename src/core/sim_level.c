/*
 * sim_level.c - what the sim derives from its level: the cells where an
 * agent counts as arrived, the distance of every cell to the nearest wall
 * (which points funnelling agents to the middle of a corridor), which
 * neighbours of every cell are walls (so open ground needs no wall test), and
 * spawning on passable cells of spawn areas.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_impl.h"

/* Marks goal cells 2, then every cell whose centre is within RADIUS of a
 * goal cell's centre 1 (both mean FF_SIM_AT_GOAL); only goal cells on the
 * region's edge need to spread. */
static void build_arrive(ff_sim *s, double radius)
{
	const ff_level *l = s->level;
	int w = s->w, h = s->h, rr = (int)floor(radius);
	uint8_t *a = s->arrive;

	memset(a, 0, (size_t)w * (size_t)h);
	for (int g = 0; g < l->meta.ngoals; g++) {
		int x0, y0, x1, y1;

		if (!ff_shape_clip(l, &l->meta.goals[g], &x0, &y0, &x1, &y1))
			continue;
		for (int y = y0; y <= y1; y++)
			for (int x = x0; x <= x1; x++)
				if (ff_shape_contains(&l->meta.goals[g], x, y))
					a[(size_t)y * w + x] = 2;
	}
	if (rr < 1)
		return;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			if (a[(size_t)y * w + x] != 2)
				continue;
			if (x > 0 && y > 0 && x < w - 1 && y < h - 1 &&
			    a[(size_t)y * w + x - 1] == 2 && a[(size_t)y * w + x + 1] == 2 &&
			    a[(size_t)(y - 1) * w + x] == 2 && a[(size_t)(y + 1) * w + x] == 2)
				continue;
			for (int dy = -rr; dy <= rr; dy++)
				for (int dx = -rr; dx <= rr; dx++) {
					int nx = x + dx, ny = y + dy;

					if (ff_level_in(l, nx, ny) && dx * dx + dy * dy <= radius * radius &&
					    !a[(size_t)ny * w + nx])
						a[(size_t)ny * w + nx] = 1;
				}
		}
}

static unsigned clear_at(const ff_sim *s, int x, int y)
{
	return ff_level_in(s->level, x, y) ? s->clear[(size_t)y * s->w + x] : 0;
}

/* Two-pass 3-4 chamfer distance to the nearest wall; outside counts as
 * wall. */
static void build_clearance(ff_sim *s)
{
	static const int fdx[4] = {-1, -1, 0, 1}, fdy[4] = {0, -1, -1, -1};
	static const unsigned step[4] = {3, 4, 3, 4};
	int w = s->w, h = s->h;

	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			unsigned best = ff_level_cost(s->level, x, y) == FF_WALL ? 0 : 65535;

			for (int k = 0; k < 4 && best; k++) {
				unsigned c = clear_at(s, x + fdx[k], y + fdy[k]) + step[k];
				best = c < best ? c : best;
			}
			s->clear[(size_t)y * w + x] = (uint16_t)best;
		}
	for (int y = h - 1; y >= 0; y--)
		for (int x = w - 1; x >= 0; x--) {
			unsigned best = s->clear[(size_t)y * w + x];

			for (int k = 0; k < 4 && best; k++) {
				unsigned c = clear_at(s, x - fdx[k], y - fdy[k]) + step[k];
				best = c < best ? c : best;
			}
			s->clear[(size_t)y * w + x] = (uint16_t)best;
		}
}

/* A copy of the solver's per-cell flow (sampling it here is several times
 * cheaper than asking the solver for four cells per agent per tick), and
 * the unreachable cells.  Turns arrive[] into FF_SIM_AT_* flags. */
static void build_flow(ff_sim *s)
{
	size_t at = 0;

	for (int y = 0; y < s->h; y++)
		for (int x = 0; x < s->w; x++, at++) {
			uint8_t *a = &s->arrive[at];

			ff_solver_flow(s->solver, x, y, &s->flow[2 * at], &s->flow[2 * at + 1]);
			*a = (*a ? FF_SIM_AT_GOAL : 0) |
			     (isinf(ff_solver_value(s->solver, x, y)) ? FF_SIM_AT_UNREACH : 0);
		}
}

/* For every cell, which of its 8 neighbours are wall or outside: most
 * cells have none, and then a body there needs no wall test at all. */
static void build_walls(ff_sim *s)
{
	size_t at = 0;

	for (int y = 0; y < s->h; y++)
		for (int x = 0; x < s->w; x++, at++) {
			unsigned m = 0;

			for (int dy = -1; dy <= 1; dy++)
				for (int dx = -1; dx <= 1; dx++)
					if ((dx || dy) && ff_sim_blocked(s, x + dx, y + dy))
						m |= FF_SIM_NBR_BIT(dx, dy);
			s->walls[at] = (uint8_t)m;
		}
}

ff_err ff_sim_refresh(ff_sim *s)
{
	if (s->level->w != s->w || s->level->h != s->h)
		return FF_E_STATE;
	build_arrive(s, s->level->meta.params[FF_P_ARRIVAL_RADIUS]);
	build_clearance(s);
	build_walls(s);
	build_flow(s);
	return FF_OK;
}

/* --- spawning ------------------------------------------------------------ */

static bool spawn_ok(const ff_sim *s, const ff_shape *a, int x, int y)
{
	return !ff_sim_blocked(s, x, y) && ff_shape_contains(a, x, y);
}

/* Passable cells of A inside the level, and its clipped box. */
static long spawn_cells(const ff_sim *s, const ff_shape *a, int box[4])
{
	long n = 0;

	if (!ff_shape_clip(s->level, a, &box[0], &box[1], &box[2], &box[3]))
		return 0;
	for (int y = box[1]; y <= box[3]; y++)
		for (int x = box[0]; x <= box[2]; x++)
			n += spawn_ok(s, a, x, y);
	return n;
}

static void add_agent(ff_sim *s, double x, double y)
{
	size_t i = s->n++;

	s->id[i] = s->next_id++;
	s->state[i] = FF_AGENT_MOVING;
	s->x[i] = x;
	s->y[i] = y;
	s->vx[i] = 0;
	s->vy[i] = 0;
}

/* Places N agents on the NCELLS passable cells of A (box BOX): by rejection
 * when they are at least 1/64 of the box, else by picking the k-th. */
static void spawn_in(ff_sim *s, const ff_shape *a, const int box[4], long ncells,
		     long n)
{
	long bw = box[2] - box[0] + 1, bh = box[3] - box[1] + 1;
	bool reject = ncells * 64 >= bw * bh;

	for (long i = 0; i < n; i++) {
		int cx, cy;

		if (reject) {
			do {
				cx = box[0] + (int)ff_rng_below(&s->rng, (uint64_t)bw);
				cy = box[1] + (int)ff_rng_below(&s->rng, (uint64_t)bh);
			} while (!spawn_ok(s, a, cx, cy));
		} else {
			long k = (long)ff_rng_below(&s->rng, (uint64_t)ncells);

			for (cy = box[1]; cy <= box[3]; cy++)
				for (cx = box[0]; cx <= box[2]; cx++)
					if (spawn_ok(s, a, cx, cy) && k-- == 0)
						goto found;
			abort(); /* unreachable: k < ncells */
found:;
		}
		add_agent(s, cx + ff_rng_uniform(&s->rng), cy + ff_rng_uniform(&s->rng));
	}
}

typedef struct placed {
	uint64_t key;            /* cell index, then draw order */
	double x, y;
} placed;

static int cmp_placed(const void *a, const void *b)
{
	uint64_t ka = ((const placed *)a)->key, kb = ((const placed *)b)->key;

	return (ka > kb) - (ka < kb);
}

/* Renumbers agents FROM.. in row-major order of their cells (draw order
 * within a cell), so id order is also memory-friendly neighbour order.
 * Keeps the draw order when out of memory: only speed depends on it. */
static void sort_new(ff_sim *s, size_t from)
{
	size_t n = s->n - from;
	placed *p = n > 1 ? malloc(n * sizeof *p) : NULL;

	if (!p)
		return;
	for (size_t k = 0; k < n; k++) {
		uint64_t cell = (uint64_t)(int)s->y[from + k] * (uint64_t)s->w +
				(uint64_t)(int)s->x[from + k];

		p[k].key = cell << 32 | k;
		p[k].x = s->x[from + k];
		p[k].y = s->y[from + k];
	}
	qsort(p, n, sizeof *p, cmp_placed);
	for (size_t k = 0; k < n; k++) {
		s->x[from + k] = p[k].x;
		s->y[from + k] = p[k].y;
	}
	free(p);
}

ff_err ff_sim_spawn_level(ff_sim *s, long total)
{
	const ff_level_meta *m = &s->level->meta;
	long ncells[FF_SPAWNS_MAX], want[FF_SPAWNS_MAX], sum = 0, all = 0, cum = 0;
	size_t from;
	int box[FF_SPAWNS_MAX][4];
	ff_err e;

	if (m->nspawns == 0)
		return FF_E_NOTFOUND;
	if (total > (long)FF_SIM_MAX_AGENTS)
		return FF_E_INVAL;
	for (int k = 0; k < m->nspawns; k++) {
		ncells[k] = spawn_cells(s, &m->spawns[k].area, box[k]);
		if (ncells[k] == 0)
			return FF_E_WALL;
		sum += m->spawns[k].count;
	}
	for (int k = 0; k < m->nspawns; k++) {
		long before = total < 0 ? 0 : (long)((long long)total * cum / sum);

		cum += m->spawns[k].count;
		want[k] = total < 0 ? m->spawns[k].count
				    : (long)((long long)total * cum / sum) - before;
		all += want[k];
	}
	if ((e = ff_sim_reserve(s, s->n + (size_t)all)) != FF_OK)
		return e;
	from = s->n;
	for (int k = 0; k < m->nspawns; k++)
		spawn_in(s, &m->spawns[k].area, box[k], ncells[k], want[k]);
	sort_new(s, from);
	s->tot.spawned += all;
	return FF_OK;
}

ff_err ff_sim_spawn_at(ff_sim *s, double x, double y, long n, double radius)
{
	ff_shape c = {FF_SHAPE_CIRCLE, 0, 0, 0, 0, 0};
	int box[4];
	long ncells;
	ff_err e;

	if (!(x >= 0 && y >= 0 && x < s->w && y < s->h))
		return FF_E_RANGE;
	if (n < 0 || n > (long)FF_SIM_MAX_AGENTS || !(radius >= 0 && radius <= FF_LEVEL_MAX_SIDE))
		return FF_E_INVAL;
	if (ff_sim_blocked(s, (int)x, (int)y))
		return FF_E_WALL;
	c.x = (int)x;
	c.y = (int)y;
	c.r = (int)floor(radius);
	ncells = spawn_cells(s, &c, box);
	if ((e = ff_sim_reserve(s, s->n + (size_t)n)) != FF_OK)
		return e;
	spawn_in(s, &c, box, ncells, n);
	sort_new(s, s->n - (size_t)n);
	s->tot.spawned += n;
	return FF_OK;
}
