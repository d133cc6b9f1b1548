/*
 * sim_level.c - what the sim derives from its level: the cells where an
 * agent counts as arrived, the distance of every cell to the nearest wall
 * (which points funnelling agents to the middle of a corridor), which
 * neighbours of every cell are walls (so open ground needs no wall test);
 * the last two for each movement class that has agents, walls being those
 * of the class.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_impl.h"

/* Sets the bit in GOAL of every cell where an agent of group G has
 * arrived: its goal cells, and every cell whose centre is within RADIUS of
 * a goal cell's centre.  A (w*h bytes) is scratch: the goal cells are
 * marked there 2 and those around them 1; only goal cells on the region's
 * edge need to spread. */
static void build_goal(ff_sim *s, int g, uint8_t *a, uint64_t *goal, double radius)
{
	const ff_level *l = s->level;
	size_t cells = (size_t)s->w * (size_t)s->h;
	int w = s->w, h = s->h, rr = (int)floor(radius);

	memset(a, 0, cells);
	for (int k = 0; k < l->meta.ngoals; k++) {
		int x0, y0, x1, y1;

		if (l->meta.goal_group[k] != g ||
		    !ff_shape_clip(l, &l->meta.goals[k], &x0, &y0, &x1, &y1))
			continue;
		for (int y = y0; y <= y1; y++)
			for (int x = x0; x <= x1; x++)
				if (ff_shape_contains(&l->meta.goals[k], x, y))
					a[(size_t)y * w + x] = 2;
	}
	for (int y = 0; y < h && rr >= 1; y++)
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
	memset(goal, 0, ff_sim_goal_words(cells) * sizeof *goal);
	for (size_t at = 0; at < cells; at++)
		goal[at >> 6] |= (uint64_t)(a[at] != 0) << (at & 63);
}

static unsigned clear_at(const ff_sim *s, const uint16_t *clear, int x, int y)
{
	return ff_level_in(s->level, x, y) ? clear[(size_t)y * s->w + x] : 0;
}

/* Two-pass 3-4 chamfer distance to the nearest wall of class C's (painted
 * walls for class 0); outside counts as wall. */
static void build_clearance(ff_sim *s, int c)
{
	static const int fdx[4] = {-1, -1, 0, 1}, fdy[4] = {0, -1, -1, -1};
	static const unsigned step[4] = {3, 4, 3, 4};
	const ff_level *l = s->level;
	uint16_t *clear = s->cls[c].clear;
	int w = s->w, h = s->h;

	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			bool wall = c ? s->cls[c].cost[ff_level_value(l, x, y)] == FF_WALL
				      : ff_level_cost(l, x, y) == FF_WALL;
			unsigned best = wall ? 0 : 65535;

			for (int k = 0; k < 4 && best; k++) {
				unsigned d = clear_at(s, clear, x + fdx[k], y + fdy[k]) + step[k];
				best = d < best ? d : best;
			}
			clear[(size_t)y * w + x] = (uint16_t)best;
		}
	for (int y = h - 1; y >= 0; y--)
		for (int x = w - 1; x >= 0; x--) {
			unsigned best = clear[(size_t)y * w + x];

			for (int k = 0; k < 4 && best; k++) {
				unsigned d = clear_at(s, clear, x - fdx[k], y - fdy[k]) + step[k];
				best = d < best ? d : best;
			}
			clear[(size_t)y * w + x] = (uint16_t)best;
		}
}

/* The direction codes are found and drawn with + - * / alone, so they have
 * the same bits on every IEEE host (docs/simulation.md, "Determinism"):
 * by symmetry a flow comes down to the first eighth of a turn, 0 <= y <=
 * x, where its code is how many of the half-step boundaries
 * tan((j + 1/2) step), j = 0..29, lie below y / x. */
enum { EIGHTH = FF_SIM_DIRS / 8 };

/* cos X and sin X for 0 <= X <= pi / 4 by Taylor sums (terms below 1e-19
 * of the first left out). */
static void det_cos_sin(double x, double *c, double *s)
{
	double tc = 1, ts = x, sc = 1, ss = x;

	for (int n = 2; n <= 22; n += 2) {
		tc = -tc * x * x / ((n - 1) * n);
		ts = -ts * x * x / (n * (n + 1));
		sc += tc;
		ss += ts;
	}
	*c = sc;
	*s = ss;
}

static double step_angle(void)
{
	return 2 * 3.14159265358979323846 / FF_SIM_DIRS;
}

/* The code of the flow (FX, FY) (y down, clockwise from east). */
static uint8_t dir_code(const ff_sim *s, float fx, float fy)
{
	double x = fx, y = fy, t;
	int k = 0, lo = 0, hi = EIGHTH;
	bool flip_y = y < 0, flip_x, swap;

	if (x == 0 && y == 0)
		return FF_SIM_NODIR;
	y = flip_y ? -y : y;
	flip_x = x < 0;
	x = flip_x ? -x : x;
	swap = y > x;
	if (swap)
		t = x / y;
	else
		t = y / x;
	/* how many boundaries lie below t */
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (s->dir_edge[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	k = swap ? 2 * EIGHTH - lo : lo;          /* 0 .. a quarter turn */
	k = flip_x ? 4 * EIGHTH - k : k;          /* 0 .. a half turn */
	k = flip_y ? (8 * EIGHTH - k) % FF_SIM_DIRS : k;
	return (uint8_t)k;
}

void ff_sim_dirs_setup(ff_sim *s)
{
	for (int j = 0; j < EIGHTH; j++) {
		double c, sn;

		det_cos_sin((j + 0.5) * step_angle(), &c, &sn);
		s->dir_edge[j] = sn / c;
	}
	for (int k = 0; k < 256; k++) {
		/* fold k into the first eighth, as dir_code() unfolds it */
		int q = k % (2 * EIGHTH), e = q <= EIGHTH ? q : 2 * EIGHTH - q;
		int quarter = k / (2 * EIGHTH);
		double c, sn, x, y;

		s->dirv[k][0] = s->dirv[k][1] = 0.0f;
		if (k >= FF_SIM_DIRS)
			continue;
		det_cos_sin(e * step_angle(), &c, &sn);
		x = q <= EIGHTH ? c : sn;
		y = q <= EIGHTH ? sn : c;
		/* quarter turns clockwise: (x, y) -> (-y, x) */
		for (int r = 0; r < quarter; r++) {
			double nx = -y;

			y = x;
			x = nx;
		}
		s->dirv[k][0] = (float)x;
		s->dirv[k][1] = (float)y;
	}
	/* the grid directions as the solver gives them (ff_solver_flow) */
	for (int d = 0; d < 8; d++) {
		float f = d >= FF_DIR_SE ? (float)0.70710678118654752 : 1.0f;
		uint8_t k = dir_code(s, (float)ff_dir_dx[d], (float)ff_dir_dy[d]);

		s->dirv[k][0] = (float)ff_dir_dx[d] * f;
		s->dirv[k][1] = (float)ff_dir_dy[d] * f;
	}
}

/* The direction codes of field SV's flow in [X0, X1) x [Y0, Y1) into GF,
 * FF_SIM_UNREACH where it has no way to a goal. */
static void copy_flow(ff_sim *s, const ff_solver *sv, ff_gfield *gf, int x0, int y0, int x1,
		      int y1)
{
	for (int y = y0; y < y1; y++)
		for (int x = x0; x < x1; x++) {
			size_t at = (size_t)y * (size_t)s->w + (size_t)x;
			float fx, fy;

			ff_solver_flow(sv, x, y, &fx, &fy);
			gf->dir[at] = isinf(ff_solver_value(sv, x, y)) ? FF_SIM_UNREACH
								       : dir_code(s, fx, fy);
		}
}

/* Fills sector K of the lazy field GF from SV. */
static void fill_sector(ff_sim *s, const ff_solver *sv, ff_gfield *gf, size_t k)
{
	int nx = (s->w + gf->sector - 1) / gf->sector;
	int x0 = (int)(k % (size_t)nx) * gf->sector, y0 = (int)(k / (size_t)nx) * gf->sector;

	copy_flow(s, sv, gf, x0, y0, x0 + gf->sector < s->w ? x0 + gf->sector : s->w,
		  y0 + gf->sector < s->h ? y0 + gf->sector : s->h);
	gf->filled[k] = 1;
}

/* The sectors an agent at (X, Y) reads: those of the four cells whose
 * centres its bilinear sample spans, its own cell among them. */
static void fill_at(ff_sim *s, const ff_solver *sv, ff_gfield *gf, double x, double y)
{
	int cx0 = (int)floor(x - 0.5), cy0 = (int)floor(y - 0.5);

	for (int j = 0; j < 2; j++)
		for (int i = 0; i < 2; i++) {
			int cx = cx0 + i, cy = cy0 + j;
			size_t k;

			cx = cx < 0 ? 0 : cx >= s->w ? s->w - 1 : cx;
			cy = cy < 0 ? 0 : cy >= s->h ? s->h - 1 : cy;
			k = ff_sim_sector_of(s, gf, cx, cy);
			if (!gf->filled[k])
				fill_sector(s, sv, gf, k);
		}
}

void ff_sim_fill_near(ff_sim *s)
{
	const ff_solver *sv[FF_GROUPS_MAX];
	bool any = false;

	for (int g = 0; g < FF_GROUPS_MAX; g++) {
		sv[g] = s->gf[g].sector && s->gf[g].copied ? ff_fields_peek(s->fields, g) : NULL;
		any = any || sv[g];
	}
	if (!any)
		return;
	for (size_t i = 0; i < s->n; i++) {
		int g = s->grp[i];

		if (sv[g] && s->state[i] != FF_AGENT_ARRIVED)
			fill_at(s, sv[g], &s->gf[g], s->x[i], s->y[i]);
	}
}

/* Makes room in GF for the sectors of a field of SECTOR cells a side, none
 * filled: FF_E_NOMEM. */
static ff_err lazy_setup(ff_sim *s, ff_gfield *gf, int sector)
{
	size_t n = (size_t)((s->w + sector - 1) / sector) * (size_t)((s->h + sector - 1) / sector);

	if (n > gf->nfilled) {
		uint8_t *f = realloc(gf->filled, n);

		if (!f)
			return FF_E_NOMEM;
		gf->filled = f;
		gf->nfilled = n;
	}
	memset(gf->filled, 0, n);
	gf->sector = sector;
	return FF_OK;
}

ff_err ff_sim_group_ready(ff_sim *s, int g)
{
	ff_gfield *gf = &s->gf[g];
	size_t cells = (size_t)s->w * (size_t)s->h;
	const ff_solver *sv;
	ff_err e;

	if (ff_sim_class_ready(s, gf->cls) != FF_OK)
		return FF_E_NOMEM;
	if (!gf->dir) {
		gf->dir = malloc(cells);
		gf->goal = malloc(ff_sim_goal_words(cells) * sizeof *gf->goal);
		if (!gf->dir || !gf->goal) {
			free(gf->dir);
			free(gf->goal);
			gf->dir = NULL;
			gf->goal = NULL;
			return FF_E_NOMEM;
		}
	}
	if (gf->copied && gf->version == ff_fields_version(s->fields, g))
		return FF_OK;
	e = g < s->level->meta.ngroups ? ff_fields_get(s->fields, g, &sv) : FF_E_NOTFOUND;
	if (e == FF_OK && ff_solver_sector_size(sv) &&
	    lazy_setup(s, gf, ff_solver_sector_size(sv)) != FF_OK)
		return FF_E_NOMEM;
	gf->version = ff_fields_version(s->fields, g);
	gf->copied = true;
	if (e != FF_OK) {
		/* no way anywhere: the group's agents stand, stranded */
		gf->sector = 0;
		memset(gf->dir, FF_SIM_UNREACH, cells);
		memset(gf->goal, 0, ff_sim_goal_words(cells) * sizeof *gf->goal);
		return e;
	}
	/* dir is the scratch of the goal cells until the flow is copied */
	build_goal(s, g, gf->dir, gf->goal,
		   s->level->meta.params[FF_P_ARRIVAL_RADIUS] / s->level->meta.params[FF_P_CELL_SIZE]);
	if (ff_solver_sector_size(sv)) {
		/* a large level: the sectors agents come near, as they do */
		memset(gf->dir, FF_SIM_NODIR, cells);
		ff_sim_fill_near(s);
		return FF_OK;
	}
	gf->sector = 0;
	copy_flow(s, sv, gf, 0, 0, s->w, s->h);
	return FF_OK;
}

/* For every cell, which of its 8 neighbours are walls to class C or
 * outside: most cells have none, and then a body there needs no wall test
 * at all. */
static void build_walls(ff_sim *s, int c)
{
	uint8_t *walls = s->cls[c].walls;
	size_t at = 0;

	for (int y = 0; y < s->h; y++)
		for (int x = 0; x < s->w; x++, at++) {
			unsigned m = 0;

			for (int dy = -1; dy <= 1; dy++)
				for (int dx = -1; dx <= 1; dx++)
					if ((dx || dy) && ff_sim_blocked(s, c, x + dx, y + dy))
						m |= FF_SIM_NBR_BIT(dx, dy);
			walls[at] = (uint8_t)m;
		}
}

ff_err ff_sim_class_ready(ff_sim *s, int c)
{
	ff_sim_class *k = &s->cls[c];
	size_t cells = (size_t)s->w * (size_t)s->h;

	if (k->built)
		return FF_OK;
	if (!k->walls) {
		k->clear = malloc(cells * sizeof *k->clear);
		k->walls = malloc(cells);
		if (!k->clear || !k->walls) {
			free(k->clear);
			free(k->walls);
			k->clear = NULL;
			k->walls = NULL;
			return FF_E_NOMEM;
		}
	}
	if (c) {
		ff_level_class_table(s->level, c, k->cost);
		for (int v = 0; v < FF_TERRAIN_VALUES; v++)
			k->inv_cost[v] = k->cost[v] == FF_WALL || !k->cost[v] ? 0.0f
									: (float)(1.0 / k->cost[v]);
	}
	build_clearance(s, c);
	build_walls(s, c);
	k->built = true;
	return FF_OK;
}

ff_err ff_sim_refresh(ff_sim *s)
{
	const ff_level_meta *m = &s->level->meta;

	if (s->level->w != s->w || s->level->h != s->h)
		return FF_E_STATE;
	/* every class's walls again, built as soon as a group walks by them */
	for (int c = 0; c <= FF_CLASSES_MAX; c++)
		s->cls[c].built = false;
	if (ff_sim_class_ready(s, 0) != FF_OK)
		return FF_E_NOMEM;
	ff_sim_density_setup(s, true);
	if (ff_sim_route_setup(s) != FF_OK)
		return FF_E_NOMEM;
	/* the arrival radius or the goals may have changed with the field,
	 * a group's class with the level */
	for (int g = 0; g < FF_GROUPS_MAX; g++) {
		s->gf[g].copied = false;
		s->gf[g].cls = g < m->ngroups && m->group_class[g] <= m->nclasses ? m->group_class[g] : 0;
		if (s->gf[g].agents > 0 && ff_sim_group_ready(s, g) == FF_E_NOMEM)
			return FF_E_NOMEM;
	}
	return FF_OK;
}
