/*
 * sim_spawn.c - putting bodies on the level: random sequential addition.
 *
 * A new agent goes to a point drawn uniformly in the passable cells of its
 * area (a cell, then a point in it) and is kept only when its disc clears
 * the walls and every body already there (centres at least 2 radii
 * apart); otherwise the point is drawn again.  An area that misses
 * FF_SIM_SPAWN_MISSES times its passable cells in a row is full: an
 * ordinary area that cannot take its whole count refuses (nothing is
 * spawned and ff_sim_spawn_short() says how many fit), a source (spawn
 * ... rate R) releases R agents per second from the first tick on, as
 * room frees up, until its count.  Every draw comes from the sim's PRNG,
 * in a fixed order, so a seed gives the same crowd on every host.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_impl.h"

/* Misses in a row, per passable cell of the area, that mean it is full. */
#define FF_SIM_SPAWN_MISSES 256
/* Tries per tick and source to place its next agent. */
#define FF_SIM_SOURCE_TRIES 16

/* True when a disc of radius R at (PX, PY) stands on a cell passable to
 * class C and overlaps no wall (to C) or the outside (R <= 0.5: only the 8
 * neighbours can reach it). */
static bool clear_of_walls(const ff_sim *s, int c, double px, double py, double r)
{
	int cx = (int)px, cy = (int)py;

	if (px < 0 || py < 0 || ff_sim_blocked(s, c, cx, cy))
		return false;
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++) {
			int wx = cx + dx, wy = cy + dy;
			double qx, qy;

			if ((!dx && !dy) || !ff_sim_blocked(s, c, wx, wy))
				continue;
			qx = px < wx ? wx : px > wx + 1 ? wx + 1 : px;
			qy = py < wy ? wy : py > wy + 1 ? wy + 1 : py;
			if ((px - qx) * (px - qx) + (py - qy) * (py - qy) < r * r)
				return false;
		}
	return true;
}

/* Bodies by cell over a box of the level, for placing many at once: the
 * agents present in it and those placed so far, chained per cell. */
typedef struct occ {
	int x0, y0, w, h;
	int32_t *head;          /* w*h chains; -1 ends one */
	int32_t *next;          /* per agent index */
} occ;

static bool occ_cell(const occ *o, int x, int y, size_t *at)
{
	if (x < o->x0 || y < o->y0 || x >= o->x0 + o->w || y >= o->y0 + o->h)
		return false;
	*at = (size_t)(y - o->y0) * (size_t)o->w + (size_t)(x - o->x0);
	return true;
}

static void occ_add(occ *o, const ff_sim *s, size_t i)
{
	size_t at;

	if (occ_cell(o, (int)s->x[i], (int)s->y[i], &at)) {
		o->next[i] = o->head[at];
		o->head[at] = (int32_t)i;
	}
}

/* Covers cells [X0, X1] x [Y0, Y1] grown by one, with room for CAP agent
 * indices, holding the agents present.  FF_E_NOMEM. */
static ff_err occ_init(occ *o, const ff_sim *s, int x0, int y0, int x1, int y1, size_t cap)
{
	o->x0 = x0 - 1;
	o->y0 = y0 - 1;
	o->w = x1 - x0 + 3;
	o->h = y1 - y0 + 3;
	o->head = malloc((size_t)o->w * (size_t)o->h * sizeof *o->head);
	o->next = malloc(cap * sizeof *o->next);
	if (!o->head || !o->next) {
		free(o->head);
		free(o->next);
		return FF_E_NOMEM;
	}
	memset(o->head, 0xff, (size_t)o->w * (size_t)o->h * sizeof *o->head);
	for (size_t i = 0; i < s->n; i++)
		if (s->state[i] != FF_AGENT_ARRIVED)
			occ_add(o, s, i);
	return FF_OK;
}

static void occ_fini(occ *o)
{
	free(o->head);
	free(o->next);
}

/* True when no body of O lies within D of (PX, PY) (D <= 1 cell). */
static bool occ_room(const occ *o, const ff_sim *s, double px, double py, double d)
{
	int cx = (int)px, cy = (int)py;

	for (int y = cy - 1; y <= cy + 1; y++)
		for (int x = cx - 1; x <= cx + 1; x++) {
			size_t at;

			if (!occ_cell(o, x, y, &at))
				continue;
			for (int32_t j = o->head[at]; j >= 0; j = o->next[j]) {
				double dx = s->x[j] - px, dy = s->y[j] - py;

				if (dx * dx + dy * dy < d * d)
					return false;
			}
		}
	return true;
}

/* The cells of area A passable to class C (row-major indices) in a new
 * array *OUT the caller frees; their number, 0 when none, -1 when out of
 * memory. */
static long area_cells(const ff_sim *s, int c, const ff_shape *a, int32_t **out)
{
	int x0, y0, x1, y1;
	long n = 0;

	*out = NULL;
	if (!ff_shape_clip(s->level, a, &x0, &y0, &x1, &y1))
		return 0;
	*out = malloc((size_t)(x1 - x0 + 1) * (size_t)(y1 - y0 + 1) * sizeof **out);
	if (!*out)
		return -1;
	for (int y = y0; y <= y1; y++)
		for (int x = x0; x <= x1; x++)
			if (!ff_sim_blocked(s, c, x, y) && ff_shape_contains(a, x, y))
				(*out)[n++] = y * s->w + x;
	return n;
}

static void add_agent(ff_sim *s, double x, double y, int g)
{
	size_t i = s->n++;

	s->ord[i] = (uint32_t)i;     /* the last in id order too */
	s->id[i] = s->next_id++;
	s->state[i] = FF_AGENT_MOVING;
	s->grp[i] = (uint8_t)g;
	s->x[i] = x;
	s->y[i] = y;
	s->vx[i] = 0;
	s->vy[i] = 0;
	s->hd[i][0] = s->hd[i][1] = 0;
}

/* A point drawn uniformly in the NCELLS cells of CELLS. */
static void draw_point(ff_sim *s, const int32_t *cells, long ncells, double *px, double *py)
{
	int32_t c = cells[ff_rng_below(&s->rng, (uint64_t)ncells)];

	*px = c % s->w + ff_rng_uniform(&s->rng);
	*py = c / s->w + ff_rng_uniform(&s->rng);
}

/* Random sequential addition of up to N bodies of radius R and group G
 * into the NCELLS cells of CELLS, against the bodies in O (which the new
 * ones join); the number placed. */
static long place(ff_sim *s, occ *o, const int32_t *cells, long ncells, long n, double r, int g)
{
	long placed = 0, misses = 0, limit = FF_SIM_SPAWN_MISSES * ncells;

	while (placed < n && misses < limit) {
		double px, py;

		draw_point(s, cells, ncells, &px, &py);
		if (!clear_of_walls(s, s->gf[g].cls, px, py, r) || !occ_room(o, s, px, py, 2 * r)) {
			misses++;
			continue;
		}
		add_agent(s, px, py, g);
		occ_add(o, s, s->n - 1);
		placed++;
		misses = 0;
	}
	return placed;
}

typedef struct placed {
	uint64_t key;            /* cell index, then draw order */
	double x, y;
	uint8_t grp;
} placed;

static int cmp_placed(const void *a, const void *b)
{
	uint64_t ka = ((const placed *)a)->key, kb = ((const placed *)b)->key;

	return (ka > kb) - (ka < kb);
}

/* Renumbers agents FROM.. in row-major order of their cells (draw order
 * within a cell), so id order is also memory-friendly neighbour order.  P
 * has room for them all (taken before they were placed, so that running
 * out of memory spawns nothing rather than another order). */
static void sort_new(ff_sim *s, size_t from, placed *p)
{
	size_t n = s->n - from;

	for (size_t k = 0; k < n; k++) {
		uint64_t cell = (uint64_t)(int)s->y[from + k] * (uint64_t)s->w +
				(uint64_t)(int)s->x[from + k];

		p[k].key = cell << 32 | k;
		p[k].x = s->x[from + k];
		p[k].y = s->y[from + k];
		p[k].grp = s->grp[from + k];
	}
	qsort(p, n, sizeof *p, cmp_placed);
	for (size_t k = 0; k < n; k++) {
		s->x[from + k] = p[k].x;
		s->y[from + k] = p[k].y;
		s->grp[from + k] = p[k].grp;
		s->gf[p[k].grp].agents++;
		s->gtot[p[k].grp].spawned++;
	}
}

/* The body radius in cells (at most half a cell: ff_sim_check). */
static double body_radius(const ff_sim *s)
{
	const double *v = s->level->meta.params;
	double r = v[FF_P_RADIUS] / v[FF_P_CELL_SIZE];

	return r < 0.5 ? r : 0.5;
}

void ff_sim_sources_clear(ff_sim *s)
{
	for (int k = 0; k < s->nsrc; k++)
		free(s->src[k].cells);
	s->nsrc = 0;
}

/* What each area of the level gets: WANT[k] agents, TOTAL shared in
 * proportion to the counts when TOTAL >= 0. */
static long shares(const ff_level_meta *m, long total, long want[])
{
	long sum = 0, cum = 0, all = 0;

	for (int k = 0; k < m->nspawns; k++)
		sum += m->spawns[k].count;
	for (int k = 0; k < m->nspawns; k++) {
		long before = total < 0 ? 0 : (long)((long long)total * cum / sum);

		cum += m->spawns[k].count;
		want[k] = total < 0 ? m->spawns[k].count
				    : (long)((long long)total * cum / sum) - before;
		all += want[k];
	}
	return all;
}

/* Places the agents of the ordinary areas (sources keep their cells in
 * SRC for the ticks to come).  On error nothing is placed. */
static ff_err spawn_areas(ff_sim *s, const long want[], int32_t *cells[], const long ncells[])
{
	const ff_level_meta *m = &s->level->meta;
	int x0 = s->w, y0 = s->h, x1 = -1, y1 = -1;
	size_t from = s->n;
	double r = body_radius(s);
	occ o;

	for (int k = 0; k < m->nspawns; k++) {
		int a, b, c, d;

		ff_shape_clip(s->level, &m->spawns[k].area, &a, &b, &c, &d);
		x0 = a < x0 ? a : x0, y0 = b < y0 ? b : y0;
		x1 = c > x1 ? c : x1, y1 = d > y1 ? d : y1;
	}
	if (occ_init(&o, s, x0, y0, x1, y1, s->cap) != FF_OK)
		return FF_E_NOMEM;
	for (int k = 0; k < m->nspawns; k++) {
		long got;

		if (m->spawns[k].rate > 0)
			continue;
		got = place(s, &o, cells[k], ncells[k], want[k], r, m->spawns[k].group);
		if (got < want[k]) {
			s->fail = (ff_sim_spawn_fail){k, m->spawns[k].group, want[k], got};
			s->n = from;
			occ_fini(&o);
			return FF_E_FULL;
		}
	}
	occ_fini(&o);
	return FF_OK;
}

ff_err ff_sim_spawn_level(ff_sim *s, long total)
{
	const ff_level_meta *m = &s->level->meta;
	int32_t *cells[FF_SPAWNS_MAX] = {NULL};
	long ncells[FF_SPAWNS_MAX], want[FF_SPAWNS_MAX], all;
	uint32_t first_id = s->next_id;
	size_t from = s->n;
	ff_rng rng = s->rng;
	placed *order = NULL;
	ff_err e = FF_OK;
	int k;

	s->fail.area = -1;
	if (m->nspawns == 0)
		return FF_E_NOTFOUND;
	if (total > (long)FF_SIM_MAX_AGENTS)
		return FF_E_INVAL;
	all = shares(m, total, want);
	for (k = 0; k < m->nspawns; k++) {
		int g = m->spawns[k].group;

		s->fail = (ff_sim_spawn_fail){k, g, 0, 0};
		/* the cells its group's class may stand on */
		ncells[k] = ff_sim_class_ready(s, s->gf[g].cls) != FF_OK
				    ? -1 : area_cells(s, s->gf[g].cls, &m->spawns[k].area, &cells[k]);
		if (ncells[k] <= 0) {
			e = ncells[k] < 0 ? FF_E_NOMEM : FF_E_WALL;
			goto out;
		}
		/* the group's field, before any agent of it is placed */
		if ((e = ff_sim_group_ready(s, g)) != FF_OK) {
			e = e == FF_E_NOMEM ? e : FF_E_UNREACH;
			goto out;
		}
	}
	s->fail.area = -1;
	if ((e = ff_sim_reserve(s, s->n + (size_t)all)) != FF_OK ||
	    (e = ff_sim_lines_reserve(s, (size_t)all)) != FF_OK)
		goto out;
	if (!(order = malloc(((size_t)all + 1) * sizeof *order))) {
		e = FF_E_NOMEM;
		goto out;
	}
	if ((e = spawn_areas(s, want, cells, ncells)) != FF_OK) {
		s->next_id = first_id;
		s->rng = rng;
		goto out;
	}
	sort_new(s, from, order);
	s->tot.spawned += (long)(s->n - from);
	ff_sim_sources_clear(s);
	for (k = 0; k < m->nspawns; k++) {
		ff_source *src;

		if (m->spawns[k].rate <= 0)
			continue;
		src = &s->src[s->nsrc++];
		src->cells = cells[k];
		src->ncells = ncells[k];
		src->left = want[k];
		src->rate = m->spawns[k].rate;
		src->group = m->spawns[k].group;
		src->acc = 0;
		cells[k] = NULL;
	}
out:
	for (k = 0; k < m->nspawns; k++)
		free(cells[k]);
	free(order);
	return e;
}

const char *ff_sim_spawn_explain(const ff_sim *s, ff_err err, char *buf, size_t n)
{
	const ff_sim_spawn_fail *f = &s->fail;
	const char *group = ff_level_group_name(s->level, f->group);
	int cls = f->area >= 0 ? s->gf[f->group].cls : 0;

	if (err == FF_E_NOTFOUND)
		snprintf(buf, n, "the level has no spawn areas: add one with 'spawn add'");
	else if (f->area < 0)
		snprintf(buf, n, "cannot spawn: %s", ff_strerror(err));
	else if (err == FF_E_FULL)
		snprintf(buf, n, "spawn area %d holds only %ld of its %ld agents without overlap: "
			 "enlarge it, lower its count, or make it a source ('rate R')",
			 f->area + 1, f->fit, f->asked);
	else if (err == FF_E_UNREACH)
		snprintf(buf, n, "spawn area %d is of group '%s', which has no goal to walk to "
			 "(or only on walls): give it one with 'goal add SHAPE group %s'",
			 f->area + 1, group, group);
	else if (err == FF_E_WALL && cls)
		snprintf(buf, n, "spawn area %d has no cell group %s can stand on: every one is a "
			 "wall to its class %s", f->area + 1, group,
			 ff_level_class_name(&s->level->meta, cls));
	else if (err == FF_E_WALL)
		snprintf(buf, n, "spawn area %d lies on walls only", f->area + 1);
	else
		snprintf(buf, n, "cannot spawn area %d: %s", f->area + 1, ff_strerror(err));
	return buf;
}

bool ff_sim_spawn_failure(const ff_sim *s, ff_sim_spawn_fail *out)
{
	if (s->fail.area < 0)
		return false;
	*out = s->fail;
	return true;
}

ff_err ff_sim_spawn_at(ff_sim *s, double x, double y, long n, double radius, int group,
		       long *placed_out)
{
	ff_shape c = {FF_SHAPE_CIRCLE, 0, 0, 0, 0, 0};
	int32_t *cells;
	long ncells, got;
	size_t from = s->n;
	placed *order;
	int x0, y0, x1, y1;
	ff_err e;
	occ o;

	if (placed_out)
		*placed_out = 0;
	if (!(x >= 0 && y >= 0 && x < s->w && y < s->h))
		return FF_E_RANGE;
	if (n < 0 || n > (long)FF_SIM_MAX_AGENTS || !(radius >= 0 && radius <= FF_LEVEL_MAX_SIDE) ||
	    group < 0 || group >= s->level->meta.ngroups)
		return FF_E_INVAL;
	if (ff_sim_class_ready(s, s->gf[group].cls) != FF_OK)
		return FF_E_NOMEM;
	if (ff_sim_blocked(s, s->gf[group].cls, (int)x, (int)y))
		return FF_E_WALL;
	if ((e = ff_sim_group_ready(s, group)) != FF_OK)
		return e == FF_E_NOMEM ? e : FF_E_UNREACH;
	c.x = (int)x;
	c.y = (int)y;
	c.r = (int)radius;
	if ((ncells = area_cells(s, s->gf[group].cls, &c, &cells)) < 0)
		return FF_E_NOMEM;
	ff_shape_clip(s->level, &c, &x0, &y0, &x1, &y1);
	order = malloc(((size_t)n + 1) * sizeof *order);
	if (!order)
		e = FF_E_NOMEM;
	else if ((e = ff_sim_reserve(s, s->n + (size_t)n)) == FF_OK &&
		 (e = ff_sim_lines_reserve(s, (size_t)n)) == FF_OK)
		e = occ_init(&o, s, x0, y0, x1, y1, s->cap);
	if (e != FF_OK) {
		free(order);
		free(cells);
		return e;
	}
	got = place(s, &o, cells, ncells, n, body_radius(s), group);
	occ_fini(&o);
	free(cells);
	sort_new(s, from, order);
	free(order);
	s->tot.spawned += got;
	if (placed_out)
		*placed_out = got;
	return FF_OK;
}

/* True when no body lies within D of (PX, PY): those of the tick's grid
 * (positions at its start, which is now) and those released this tick,
 * agents FROM.. (not in the grid). */
static bool grid_room(const ff_sim *s, double px, double py, double d, size_t from)
{
	const ff_spatial *g = &s->grid;
	int cx = (int)px, cy = (int)py;

	for (int y = cy - 1; y <= cy + 1; y++) {
		int xa = cx > 0 ? cx - 1 : 0, xb = cx + 1 < s->w ? cx + 1 : s->w - 1;

		if (y < 0 || y >= s->h)
			continue;
		for (uint32_t k = g->start[(size_t)y * (size_t)s->w + (size_t)xa];
		     k < g->start[(size_t)y * (size_t)s->w + (size_t)xb + 1]; k++) {
			uint32_t j = g->idx[k];
			double dx = s->x[j] - px, dy = s->y[j] - py;

			if (dx * dx + dy * dy < d * d)
				return false;
		}
	}
	for (size_t j = from; j < s->n; j++) {
		double dx = s->x[j] - px, dy = s->y[j] - py;

		if (dx * dx + dy * dy < d * d)
			return false;
	}
	return true;
}

void ff_sim_sources_release(ff_sim *s, double dt)
{
	double r = body_radius(s);
	size_t from = s->n;

	for (int k = 0; k < s->nsrc; k++) {
		ff_source *src = &s->src[k];

		if (src->left <= 0)
			continue;
		src->acc += src->rate * dt;
		if (src->acc > src->rate * dt + 1)
			src->acc = src->rate * dt + 1; /* no burst after a wait */
		while (src->acc >= 1 && src->left > 0 && s->n < s->cap) {
			double px, py;
			int t;

			for (t = 0; t < FF_SIM_SOURCE_TRIES; t++) {
				draw_point(s, src->cells, src->ncells, &px, &py);
				if (clear_of_walls(s, s->gf[src->group].cls, px, py, r) &&
				    grid_room(s, px, py, 2 * r, from))
					break;
			}
			if (t == FF_SIM_SOURCE_TRIES)
				break;
			add_agent(s, px, py, src->group);
			s->tot.spawned++;
			s->gf[src->group].agents++;
			s->gtot[src->group].spawned++;
			src->acc -= 1;
			src->left--;
		}
	}
}
