/*
 * cost.c - the effective cost of a cell (cost.h has the formula).
 *
 * The penalty of a cell is the largest ramp value over the walls near it.
 * For a fixed row offset DY the ramp falls as the column distance grows, so
 * of each row only the nearest wall matters: a fill computes, for each row
 * it needs, the distance from every column to the nearest wall of that row
 * (capped at R + 1, two sweeps), keeps the last 2R + 1 rows in a ring, and
 * takes for each cell the largest ramp[h][|dy|] over the rows within R.
 */
#include <math.h>
#include <string.h>

#include "cost.h"

/* The metric's distance between cells DX and DY apart (both >= 0). */
static double distance(ff_metric m, int dx, int dy)
{
	int lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;

	switch (m) {
	case FF_METRIC_MANHATTAN:
		return dx + dy;
	case FF_METRIC_EUCLID:
		return sqrt((double)dx * dx + (double)dy * dy);
	default:
		return hi + (1.4142135623730951 - 1.0) * lo;
	}
}

void ff_costs_init(ff_costs *c, const ff_level *l, ff_metric metric)
{
	const double *v = l->meta.params;
	int r;

	memset(c, 0, sizeof *c);
	c->level = l;
	c->metric = metric;
	c->penalty = (int)v[FF_P_WALL_PENALTY];
	if (c->penalty <= 0)
		return;
	c->radius = r = (int)v[FF_P_WALL_PENALTY_RADIUS];
	for (int h = 0; h <= r + 1; h++)
		for (int dy = 0; dy <= r; dy++) {
			double d = distance(metric, h, dy);
			if ((h || dy) && d < r + 1)
				c->ramp[h][dy] = (uint8_t)floor(c->penalty * (r + 1 - d) / r + 0.5);
		}
}

bool ff_costs_rules_equal(const ff_level_meta *a, const ff_level_meta *b)
{
	return a->params[FF_P_WALL_PENALTY] == b->params[FF_P_WALL_PENALTY] &&
	       a->params[FF_P_WALL_PENALTY_RADIUS] == b->params[FF_P_WALL_PENALTY_RADIUS];
}

void ff_costs_set_crowd(ff_costs *c, const uint16_t *crowd)
{
	c->crowd = crowd;
}

bool ff_costs_same(const ff_costs *a, const ff_costs *b)
{
	return a->level == b->level && a->metric == b->metric && a->penalty == b->penalty &&
	       a->radius == b->radius && a->crowd == b->crowd;
}

int ff_costs_reach(const ff_costs *c)
{
	return c->radius;
}

/* A + B clamped to the largest cost (both passable costs or offsets). */
static unsigned add(unsigned a, unsigned b)
{
	return a + b < FF_COST_MAX ? a + b : FF_COST_MAX;
}

/* The cost of cell I before the penalty, FF_WALL for a wall: the painted
 * cost as this level's rules read it (a movement class would map it here)
 * plus the dynamic layer's offset, or its wall; times the crowd's slowing
 * when it counts. */
static unsigned base(const ff_costs *c, size_t i)
{
	unsigned painted = c->level->cells[i], dyn = c->level->dyn[i], b, k;

	if (painted == FF_WALL || dyn == FF_WALL)
		return FF_WALL;
	b = add(painted, dyn);
	if (!c->crowd || (k = c->crowd[i]) == 256)
		return b;
	b = (b * k + 128) >> 8;
	return b < 1 ? 1 : b < FF_COST_MAX ? b : FF_COST_MAX;
}

/* The one formula: the terms of a cell's cost summed, clamped to 254. */
static uint8_t combine(unsigned cost, unsigned penalty)
{
	return (uint8_t)(cost == FF_WALL ? FF_WALL : add(cost, penalty));
}

bool ff_costs_wall(const ff_costs *c, int x, int y)
{
	const ff_level *l = c->level;

	return !ff_level_in(l, x, y) ||
	       base(c, (size_t)y * (size_t)l->w + (size_t)x) == FF_WALL;
}

/* Rows of the ring: rows y - R .. y + R inside the level are at most this
 * many consecutive rows, so y % rows tells them apart. */
static int ring_rows(const ff_costs *c)
{
	int n = 2 * c->radius + 1;

	return n < c->level->h ? n : c->level->h;
}

size_t ff_costs_scratch(const ff_costs *c, int width)
{
	return c->radius ? (size_t)ring_rows(c) * (size_t)width : 0;
}

/* HD[i] = columns from x0 + i to the nearest wall in row Y, at most R + 1. */
static void row_dist(const ff_costs *c, int y, int x0, int x1, uint8_t *hd)
{
	int r = c->radius, cap = r + 1, last = x0 - r - 1 - cap, next = x1 + r + 1 + cap;

	for (int x = x0 - r; x <= x1; x++) {
		if (ff_costs_wall(c, x, y))
			last = x;
		if (x >= x0)
			hd[x - x0] = (uint8_t)(x - last < cap ? x - last : cap);
	}
	for (int x = x1 + r; x >= x0; x--) {
		if (ff_costs_wall(c, x, y))
			next = x;
		if (x <= x1 && next - x < hd[x - x0])
			hd[x - x0] = (uint8_t)(next - x);
	}
}

/* Columns from the cell in column I to the nearest wall of row YY, from
 * the ring (rows outside the level are all wall). */
static unsigned ring_at(const ff_costs *c, const uint8_t *ring, int width, int yy, int i)
{
	if (yy < 0 || yy >= c->level->h)
		return 0;
	return ring[(size_t)(yy % ring_rows(c)) * (size_t)width + (size_t)i];
}

/* The penalty of the cell in column I of row Y: the largest ramp value
 * over the rows within R, of each the nearer of the rows Y - K and Y + K. */
static unsigned penalty(const ff_costs *c, int y, int i, const uint8_t *ring, int width)
{
	unsigned best = 0;

	for (int k = 0; k <= c->radius; k++) {
		unsigned a, b;
		if (k && c->ramp[0][k] <= best)
			break;          /* rows farther away give no more */
		a = ring_at(c, ring, width, y - k, i);
		b = ring_at(c, ring, width, y + k, i);
		if (c->ramp[a < b ? a : b][k] > best)
			best = c->ramp[a < b ? a : b][k];
	}
	return best;
}

void ff_costs_fill(const ff_costs *c, int x0, int y0, int x1, int y1, uint8_t *out,
		   size_t stride, uint8_t *scratch)
{
	const ff_level *l = c->level;
	int r = c->radius, n = r ? ring_rows(c) : 1, width = x1 - x0 + 1;

	for (int y = y0 - r; r && y < y0 + r; y++)
		if (y >= 0 && y < l->h)
			row_dist(c, y, x0, x1, scratch + (size_t)(y % n) * (size_t)width);
	for (int y = y0; y <= y1; y++) {
		const size_t row = (size_t)y * (size_t)l->w;
		uint8_t *o = out + (size_t)(y - y0) * stride;

		if (r && y + r < l->h)
			row_dist(c, y + r, x0, x1, scratch + (size_t)((y + r) % n) * (size_t)width);
		for (int x = x0; x <= x1; x++) {
			unsigned b = base(c, row + (size_t)x);
			o[x - x0] = combine(b, r && b != FF_WALL ? penalty(c, y, x - x0, scratch, width) : 0);
		}
	}
}

int ff_costs_at(const ff_costs *c, int x, int y)
{
	uint8_t scratch[2 * FF_PENALTY_RADIUS_MAX + 1], out;

	ff_costs_fill(c, x, y, x, y, &out, 1, scratch);
	return out;
}
