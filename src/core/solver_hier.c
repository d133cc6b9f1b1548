/*
 * solver_hier.c - the hierarchical field's orders, fine fields and
 * queries (solver_hier.h, docs/solver.md).
 *
 * Fine fields go to a cache of slots, one sector each, reused in clock
 * order (a slot used since the hand last passed gets a second chance).
 */
#include <stdlib.h>
#include <string.h>

#include "solver_hier_int.h"

/* --- the order ------------------------------------------------------------ */

/* The near box: the passable goal cells' bounding box, grown by a sector
 * and aligned to sectors; false when no goal cell is passable. */
static bool near_box(ff_hier *H)
{
	ff_level box = {.w = H->w, .h = H->h};
	int x0 = H->w, y0 = H->h, x1 = -1, y1 = -1;

	for (int i = 0; i < H->ngoals; i++) {
		int gx0, gy0, gx1, gy1;
		if (!ff_shape_clip(&box, &H->goals[i], &gx0, &gy0, &gx1, &gy1))
			continue;
		for (int y = gy0; y <= gy1; y++)
			for (int x = gx0; x <= gx1; x++)
				if (ffh_pass(H, x, y) && ff_shape_contains(&H->goals[i], x, y)) {
					x0 = x < x0 ? x : x0, x1 = x > x1 ? x : x1;
					y0 = y < y0 ? y : y0, y1 = y > y1 ? y : y1;
				}
	}
	if (x1 < 0)
		return false;
	H->bx0 = ((x0 >> H->shift) > 0 ? (x0 >> H->shift) - 1 : 0) << H->shift;
	H->by0 = ((y0 >> H->shift) > 0 ? (y0 >> H->shift) - 1 : 0) << H->shift;
	H->bx1 = (((x1 >> H->shift) + 2) << H->shift) - 1;
	H->by1 = (((y1 >> H->shift) + 2) << H->shift) - 1;
	H->bx1 = H->bx1 < H->w ? H->bx1 : H->w - 1;
	H->by1 = H->by1 < H->h ? H->by1 : H->h - 1;
	return true;
}

/* The exact field of the goals within the near box. */
static ff_err solve_near(ff_hier *H)
{
	ff_tile *t = &H->near;
	ff_err err = ff_tile_load(t, H->cost, H->w, H->h, H->bx0, H->by0, H->bx1 - H->bx0 + 1,
				  H->by1 - H->by0 + 1, H->conn, false);

	for (int i = 0; !err && i < H->ngoals; i++) {
		int gx0, gy0, gx1, gy1;
		if (!ff_shape_clip(&(ff_level){.w = H->w, .h = H->h}, &H->goals[i], &gx0, &gy0,
				   &gx1, &gy1))
			continue;
		for (int y = gy0; !err && y <= gy1; y++)
			for (int x = gx0; !err && x <= gx1; x++)
				if (ffh_pass(H, x, y) && ff_shape_contains(&H->goals[i], x, y))
					err = ff_tile_seed(t, ff_tile_at(t, x, y), 0.0);
	}
	if (err)
		return err;
	ff_tile_run(t, NULL, 0);
	ff_tile_arrows(t);
	return FF_OK;
}

double ffh_near_val(const ff_hier *H, int x, int y)
{
	return H->near.val[ff_tile_at(&H->near, x, y)];
}

/* The same in whole units, rounded up. */
static double near_units(const ff_hier *H, int x, int y)
{
	return ceil(ffh_near_val(H, x, y) * UNIT);
}

/* The sources of the search: the portals of the near box at their value
 * there, and those next to a cell of the box at that cell's value plus
 * the step. */
static bool seed_search(ff_hier *H)
{
	int sx0 = (H->bx0 >> H->shift) - 1, sy0 = (H->by0 >> H->shift) - 1;
	int sx1 = (H->bx1 >> H->shift) + 1, sy1 = (H->by1 >> H->shift) + 1;

	for (int sy = sy0; sy <= sy1; sy++)
		for (int sx = sx0; sx <= sx1; sx++) {
			long s;
			if (sx < 0 || sy < 0 || sx >= H->sw || sy >= H->sh)
				continue;
			s = (long)sy * H->sw + sx;
			for (int i = 0; i < H->sec[s].n; i++) {
				int32_t cell = H->sec[s].cell[i];
				int x = cell % H->w, y = cell / H->w;
				if (in_near(H, x, y)) {
					if (ffh_near_val(H, x, y) < INFINITY &&
					    !ffh_relax(H, s, i, near_units(H, x, y), -(cell + 2)))
						return false;
					continue;
				}
				for (int d = 0; d < H->conn; d++) {
					int nx = x + ff_dir_dx[d], ny = y + ff_dir_dy[d];
					double v;
					if (!in_near(H, nx, ny) || !ffh_step_ok(H, x, y, d) ||
					    (v = near_units(H, nx, ny)) == INFINITY)
						continue;
					if (!ffh_relax(H, s, i, v + ffh_step_cost(H, x, y, d),
						   -((int32_t)((size_t)ny * (size_t)H->w + (size_t)nx) + 2)))
						return false;
				}
			}
		}
	return true;
}

/* Starts the order again on the graph as it is. */
ff_err ffh_restart(ff_hier *H)
{
	int cmin = FF_COST_MAX;

	H->epoch++;
	H->hn = 0;
	H->unordered = false;
	H->tx = H->ty = -1;
	H->settled = 0;
	H->last = -1;
	H->solved = 0;
	if (!near_box(H))
		return FF_E_WALL;
	for (long s = 0; s < H->nsec && cmin > 1; s++)
		if (H->sec[s].cmin < cmin)
			cmin = H->sec[s].cmin;
	H->cmin = (uint8_t)cmin;
	H->ha = cmin * UNIT;
	H->hb = ceil(cmin * 1.4142135623730951 * UNIT) - H->ha;
	if (solve_near(H) || !seed_search(H) || (H->los && ffh_los_near(H)))
		return FF_E_NOMEM;
	return FF_OK;
}

ff_err ff_hier_order(ff_hier *H, const ff_level *l, const ff_shape *goals, int ngoals,
		     int sector, int conn, bool los)
{
	ff_err err;

	if (ngoals < 1 || ngoals > FF_GOALS_MAX || sector < 8 || sector > 64 ||
	    (sector & (sector - 1)) || (conn != 8 && conn != 4) || l->w != H->w || l->h != H->h)
		return FF_E_INVAL;
	if ((err = ffh_sync(H, l, sector, conn)))
		return err;
	memmove(H->goals, goals, (size_t)ngoals * sizeof *goals);
	H->ngoals = ngoals;
	H->los = los;
	return ffh_restart(H);
}

ff_err ff_hier_update(ff_hier *H, const ff_level *l, int x0, int y0, int x1, int y1)
{
	ff_err err;

	ff_costs c;

	if (!H->built)
		return FF_E_STATE;
	ff_costs_init(&c, l, ffh_metric(H->conn));
	if (!ff_costs_same(&c, &H->costs))      /* new cost rules: all new costs */
		return (err = ffh_build(H, l, H->S, H->conn)) ? err : ffh_restart(H);
	x0 = x0 < 0 ? 0 : x0, y0 = y0 < 0 ? 0 : y0;
	x1 = x1 >= H->w ? H->w - 1 : x1, y1 = y1 >= H->h ? H->h - 1 : y1;
	if (x0 <= x1 && y0 <= y1 && (err = ffh_update(H, l, x0, y0, x1, y1)))
		return err;
	return ffh_restart(H);
}

/* --- fine fields ------------------------------------------------------------ */

static int take_slot(ff_hier *H)
{
	for (;;) {
		int i = H->hand;
		H->hand = (H->hand + 1) % H->nslot;
		if (H->sref[i] && H->sepoch[i] == H->epoch) {
			H->sref[i] = 0;
			continue;
		}
		if (H->ssec[i] >= 0)
			H->sec[H->ssec[i]].slot = -1;
		return i;
	}
}

/* The arrow of portal I of C when its value came over a border: towards
 * where it came from; FF_DIR_NONE otherwise. */
static uint8_t portal_arrow(const ff_hier *H, const hsec *c, int i)
{
	int32_t from = c->par[i];
	int x = c->cell[i] % H->w, y = c->cell[i] / H->w, fx, fy;

	if (from == NOPAR || (from >= 0 && ref_hsec(H, from) == c))
		return FF_DIR_NONE;
	from = from >= 0 ? ref_hsec(H, from)->cell[ref_idx(from)] : -(from + 2);
	fx = from % H->w, fy = from / H->w;
	for (int d = 0; d < 8; d++)
		if (x + ff_dir_dx[d] == fx && y + ff_dir_dy[d] == fy)
			return (uint8_t)d;
	return FF_DIR_NONE;
}

/* Loads sector S into T with its base field's sources: its settled
 * portals that no other dominates, and the cells of the near box in and
 * around it; false on FF_E_NOMEM. */
static bool load_base(ff_hier *H, long s, ff_tile *t)
{
	hsec *c;
	int x0, y0, w, h;

	if (!ffh_reach(H, s))
		return false;
	c = ffh_touch(H, s);
	ffh_sector_rect(H, s, &x0, &y0, &w, &h);
	if (ff_tile_load(t, H->cost, H->w, H->h, x0, y0, w, h, H->conn, false))
		return false;
	for (int i = 0; i < c->n; i++)
		if (c->hpos[i] == SETTLED && !ffh_dominated(H, c, i) &&
		    ff_tile_seed(t, ff_tile_at(t, c->cell[i] % H->w, c->cell[i] / H->w),
				 c->g[i] / UNIT))
			return false;
	for (int y = y0 - 1; y <= y0 + h; y++)
		for (int x = x0 - 1; x <= x0 + w; x++)
			if (in_near(H, x, y) && ffh_near_val(H, x, y) < INFINITY &&
			    ff_tile_seed(t, ff_tile_at(t, x, y), ffh_near_val(H, x, y)))
				return false;
	return true;
}

/* Seeds the ring of sector S's tile T (loaded) with the base fields of
 * its neighbours along the border, solved in H->base; false on
 * FF_E_NOMEM.  A cell between two portals of a border then starts from
 * the cell across it, not from the portals along it. */
static bool seed_ring(ff_hier *H, long s, ff_tile *t)
{
	const int sx = (int)(s % H->sw), sy = (int)(s / H->sw);
	ff_tile *u = &H->base;

	for (int ny = sy - 1; ny <= sy + 1; ny++)
		for (int nx = sx - 1; nx <= sx + 1; nx++) {
			if ((nx == sx && ny == sy) || nx < 0 || ny < 0 || nx >= H->sw || ny >= H->sh)
				continue;
			if (!load_base(H, (long)ny * H->sw + nx, u))
				return false;
			ff_tile_run(u, NULL, 0);
			for (int y = t->y0 - 1; y <= t->y0 + t->h; y++)
				for (int x = t->x0 - 1; x <= t->x0 + t->w; x++) {
					double v;
					if (!ff_tile_inside(u, x, y) || ff_tile_inside(t, x, y))
						continue;
					v = u->val[ff_tile_at(u, x, y)];
					if (v < INFINITY && ff_tile_seed(t, ff_tile_at(t, x, y), v))
						return false;
				}
		}
	return true;
}

/* Solves sector S's fine field into a slot: its base field with its ring
 * from its neighbours' (seed_ring()); the slot's index, or -1 on
 * FF_E_NOMEM. */
static int solve_sector(ff_hier *H, long s)
{
	ff_tile *t = &H->tile;
	hsec *c = &H->sec[s];
	int k;

	const size_t S2 = (size_t)H->S * (size_t)H->S;

	if (!load_base(H, s, t) || !seed_ring(H, s, t))
		return -1;
	if (H->los && !H->slos && !(H->slos = malloc((size_t)H->nslot * S2 * sizeof *H->slos)))
		return -1;
	ff_tile_run(t, NULL, 0);
	ff_tile_arrows(t);
	for (int i = 0; i < c->n; i++) {
		int32_t p = ff_tile_at(t, c->cell[i] % H->w, c->cell[i] / H->w);
		uint8_t d = portal_arrow(H, c, i);
		if (c->hpos[i] == SETTLED && t->val[p] == c->g[i] / UNIT && d != FF_DIR_NONE)
			t->dir[p] = d;
	}
	k = take_slot(H);
	if (H->los && !ffh_los_sector(H, t, H->slos + (size_t)k * S2))
		return -1;
	H->ssec[k] = (int32_t)s;
	H->sepoch[k] = H->epoch;
	H->sref[k] = 1;
	c->slot = k;
	for (int y = 0; y < t->h; y++)
		for (int x = 0; x < t->w; x++) {
			size_t o = ((size_t)k * (size_t)H->S + (size_t)y) * (size_t)H->S + (size_t)x;
			int32_t p = (y + 1) * t->W + x + 1;
			H->sval[o] = t->val[p];
			H->sdir[o] = t->dir[p];
		}
	H->solved++;
	return k;
}

/* The slot of the sector of (x, y) if its field is known, else -1. */
static int known_slot(const ff_hier *H, int x, int y)
{
	const hsec *c = &H->sec[sec_of(H, x, y)];

	return c->slot >= 0 && H->sepoch[c->slot] == H->epoch ? c->slot : -1;
}

static size_t slot_at(const ff_hier *H, int k, int x, int y)
{
	return (size_t)k * (size_t)H->S * (size_t)H->S + (size_t)(y & (H->S - 1)) * (size_t)H->S +
	       (size_t)(x & (H->S - 1));
}

#define NEAR_FIELD (-2)

/* The slot holding the field of (x, y)'s sector, solved now if need be;
 * -1 on FF_E_NOMEM, after which the order starts again (a search cut
 * short may have settled a portal without relaxing its edges). */
static int need(ff_hier *H, int x, int y)
{
	int k = known_slot(H, x, y);

	if (k >= 0) {
		H->sref[k] = 1;
		return k;
	}
	if ((k = solve_sector(H, sec_of(H, x, y))) < 0)
		ffh_cut_short(H);
	return k;
}

/* What is known of (x, y)'s sector without solving: a slot, the near
 * field (NEAR_FIELD) before its sector is solved, or -1. */
static int known(const ff_hier *H, int x, int y)
{
	int k = known_slot(H, x, y);

	return k >= 0 ? k : in_near(H, x, y) ? NEAR_FIELD : -1;
}

static double value_in(const ff_hier *H, int k, int x, int y)
{
	if (k == NEAR_FIELD)
		return ffh_near_val(H, x, y);
	return k < 0 ? INFINITY : H->sval[slot_at(H, k, x, y)];
}

static int dir_in(const ff_hier *H, int k, int x, int y)
{
	if (k == NEAR_FIELD)
		return H->near.dir[ff_tile_at(&H->near, x, y)];
	return k < 0 ? FF_DIR_NONE : H->sdir[slot_at(H, k, x, y)];
}

static bool cell_ok(const ff_hier *H, int x, int y)
{
	return ordered(H) && (unsigned)x < (unsigned)H->w && (unsigned)y < (unsigned)H->h;
}

/* A wall needs no solving: it has no value and no arrow. */
double ff_hier_value(ff_hier *H, int x, int y)
{
	return cell_ok(H, x, y) && ffh_pass(H, x, y) ? value_in(H, need(H, x, y), x, y) : INFINITY;
}

int ff_hier_dir(ff_hier *H, int x, int y)
{
	return cell_ok(H, x, y) && ffh_pass(H, x, y) ? dir_in(H, need(H, x, y), x, y) : FF_DIR_NONE;
}

bool ff_hier_sees(ff_hier *H, int x, int y, int *tx, int *ty)
{
	int k;
	int32_t t;

	if (!H->los || !cell_ok(H, x, y) || !ffh_pass(H, x, y) || (k = need(H, x, y)) < 0 ||
	    (t = H->slos[slot_at(H, k, x, y)]) < 0)
		return false;
	*tx = t % H->w, *ty = t / H->w;
	return true;
}

double ff_hier_known_value(const ff_hier *H, int x, int y)
{
	return cell_ok(H, x, y) ? value_in(H, known(H, x, y), x, y) : INFINITY;
}

int ff_hier_known_dir(const ff_hier *H, int x, int y)
{
	return cell_ok(H, x, y) ? dir_in(H, known(H, x, y), x, y) : FF_DIR_NONE;
}

/* --- stepping and views ----------------------------------------------------- */

/* Out of memory half way through a settle: the order starts again, and
 * the stepped search ends (the fine fields search as they need). */
bool ffh_cut_short(ff_hier *H)
{
	if (ffh_restart(H))
		H->ngoals = 0;
	return true;
}

bool ff_hier_search(ff_hier *H, long n)
{
	ffh_retarget(H, -1, -1);
	while (n != 0 && H->hn > 0) {
		if (!ffh_settle(H))
			return ffh_cut_short(H);
		if (n > 0)
			n--;
	}
	return H->hn == 0;
}

bool ff_hier_search_band(ff_hier *H)
{
	double band = H->S * H->ha, end;

	ffh_retarget(H, -1, -1);
	if (H->hn == 0)
		return true;
	end = (floor(H->hkey[0] / band) + 1) * band;
	while (H->hn > 0 && H->hkey[0] < end)
		if (!ffh_settle(H))
			return ffh_cut_short(H);
	return H->hn == 0;
}

bool ff_hier_last(const ff_hier *H, int *x, int *y, int *fx, int *fy)
{
	const hsec *c;
	int32_t from;

	if (H->last < 0)
		return false;
	c = ref_hsec(H, H->last);
	*x = c->cell[ref_idx(H->last)] % H->w, *y = c->cell[ref_idx(H->last)] / H->w;
	from = c->par[ref_idx(H->last)];
	from = from >= 0 ? ref_hsec(H, from)->cell[ref_idx(from)] : -(from + 2);
	*fx = from % H->w, *fy = from / H->w;
	return true;
}

long ff_hier_settled(const ff_hier *H) { return H->settled; }
long ff_hier_queued(const ff_hier *H) { return (long)H->hn; }
long ff_hier_sectors(const ff_hier *H) { return H->nsec; }
int ff_hier_sector_size(const ff_hier *H) { return H->S; }

int ff_hier_cost(const ff_hier *H, int x, int y)
{
	return H->built ? H->cost[(size_t)y * (size_t)H->w + (size_t)x] : -1;
}

bool ff_hier_solve_sector(ff_hier *H, long i)
{
	int x0, y0, w, h;

	ffh_sector_rect(H, i, &x0, &y0, &w, &h);
	return need(H, x0, y0) != -1;
}

int ff_hier_sector_state(const ff_hier *H, int x, int y)
{
	if ((unsigned)x >= (unsigned)H->w || (unsigned)y >= (unsigned)H->h || !H->built)
		return FF_HSEC_IDLE;
	if (in_near(H, x, y))
		return FF_HSEC_NEAR;
	return known_slot(H, x, y) >= 0 ? FF_HSEC_SOLVED : FF_HSEC_IDLE;
}

bool ff_hier_portal(const ff_hier *H, int x, int y, double *g)
{
	const hsec *c;
	int32_t m = (int32_t)((size_t)y * (size_t)H->w + (size_t)x), *at;

	*g = INFINITY;
	if ((unsigned)x >= (unsigned)H->w || (unsigned)y >= (unsigned)H->h || !H->built)
		return false;
	c = &H->sec[sec_of(H, x, y)];
	at = bsearch(&m, c->cell, (size_t)c->n, sizeof m, ffh_cmp_i32);
	if (!at)
		return false;
	if (c->epoch == H->epoch && c->hpos[at - c->cell] == SETTLED)
		*g = c->g[at - c->cell] / UNIT;
	return true;
}

void ff_hier_get_stats(const ff_hier *H, ff_hier_stats *st)
{
	st->sectors = H->nsec;
	st->portals = H->nportals;
	st->sectors_solved = H->solved;
	st->portals_settled = H->settled;
	st->rebuilt = H->rebuilt;
	st->edged = H->edged;
	st->compared = H->compared;
}

ff_err ff_hier_build_edges(ff_hier *H)
{
	for (long s = 0; s < H->nsec; s++)
		if (!ffh_edges(H, s))
			return FF_E_NOMEM;
	return FF_OK;
}
