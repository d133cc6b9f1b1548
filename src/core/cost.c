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

void ff_costs_set_class(ff_costs *c, int k)
{
	c->cls = k;
	ff_level_class_table(c->level, k, c->table);
}

/* True when A and B have the same movement classes: names, rules, the
 * terrains' costs for them and the groups' classes. */
static bool classes_equal(const ff_level_meta *a, const ff_level_meta *b)
{
	if (a->nclasses != b->nclasses || a->npalette != b->npalette ||
	    memcmp(a->class_walls, b->class_walls, sizeof a->class_walls) ||
	    memcmp(a->group_class, b->group_class, sizeof a->group_class))
		return false;
	for (int t = 0; t < a->npalette; t++)
		if (memcmp(a->palette[t].cls, b->palette[t].cls, sizeof a->palette[t].cls))
			return false;
	return true;
}

bool ff_costs_rules_equal(const ff_level_meta *a, const ff_level_meta *b)
{
	return a->params[FF_P_WALL_PENALTY] == b->params[FF_P_WALL_PENALTY] &&
	       a->params[FF_P_WALL_PENALTY_RADIUS] == b->params[FF_P_WALL_PENALTY_RADIUS] &&
	       classes_equal(a, b);
}

void ff_costs_set_crowd(ff_costs *c, const uint16_t *crowd)
{
	c->crowd = crowd;
}

bool ff_costs_same(const ff_costs *a, const ff_costs *b)
{
	return a->level == b->level && a->metric == b->metric && a->penalty == b->penalty &&
	       a->radius == b->radius && a->crowd == b->crowd && a->cls == b->cls &&
	       (!a->cls || !memcmp(a->table, b->table, sizeof a->table));
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

/* The painted cost of cell I as the costs' movement class reads it: its
 * class's cost of the cell's terrain (its wall kind telling wall terrains
 * apart), or the cost itself for class 0. */
static inline unsigned painted(const ff_costs *c, size_t i)
{
	const ff_level *l = c->level;
	unsigned v = l->cells[i];

	if (!c->cls)
		return v;
	return c->table[v == FF_WALL && l->walls ? (unsigned)FF_WALL_KIND(l->walls[i]) : v];
}

/* The cost of cell I before the penalty, FF_WALL for a wall: painted()
 * plus the dynamic layer's offset, or its wall; times the crowd's slowing
 * when it counts. */
static unsigned base(const ff_costs *c, size_t i)
{
	unsigned p = painted(c, i), dyn = c->level->dyn[i], b, k;

	if (p == FF_WALL || dyn == FF_WALL)
		return FF_WALL;
	b = add(p, dyn);
	if (!c->crowd || (k = c->crowd[i]) == 256)
		return b;
	b = (b * k + 128) >> 8;
	return b < 1 ? 1 : b < FF_COST_MAX ? b : FF_COST_MAX;
}

/* True when the N bytes at P are all 0 (eight at a time). */
static bool zeros_only(const uint8_t *p, size_t n)
{
	uint64_t acc = 0, v;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&v, p + i, 8);
		acc |= v;
	}
	for (; i < n; i++)
		acc |= p[i];
	return !acc;
}

/* base() of the N cells from I on, into OUT: a row with nothing on the
 * dynamic layer, no crowd term and no movement class is its painted costs
 * as they are (what base() gives them). */
static void base_row(const ff_costs *c, size_t i, size_t n, uint8_t *out)
{
	if (!c->crowd && !c->cls && zeros_only(c->level->dyn + i, n)) {
		memcpy(out, c->level->cells + i, n);
		return;
	}
	for (size_t k = 0; k < n; k++)
		out[k] = (uint8_t)base(c, i + k);
}

/* The one formula: the terms of a cell's cost summed, clamped to 254. */
static uint8_t combine(unsigned cost, unsigned penalty)
{
	return (uint8_t)(cost == FF_WALL ? FF_WALL : add(cost, penalty));
}

/* Whether cell I is a wall (base(c, i) == FF_WALL, cheaper). */
static inline bool wall_i(const ff_costs *c, size_t i)
{
	return (painted(c, i) == FF_WALL) | (c->level->dyn[i] == FF_WALL);
}

bool ff_costs_wall(const ff_costs *c, int x, int y)
{
	const ff_level *l = c->level;

	return !ff_level_in(l, x, y) ||
	       base(c, (size_t)y * (size_t)l->w + (size_t)x) == FF_WALL;
}

/* Rows of the ring: rows y - R .. y + R inside the level are at most this
 * many consecutive rows, so y % rows tells them apart.  The scratch holds
 * them, a row of zeros, which stands for the rows outside the level (all
 * wall), and a row of ages: for each column, how many rows ago the last
 * row with a wall within R of it was added. */
static int ring_rows(const ff_costs *c)
{
	int n = 2 * c->radius + 1;

	return n < c->level->h ? n : c->level->h;
}

size_t ff_costs_scratch(const ff_costs *c, int width)
{
	return c->radius ? (size_t)(ring_rows(c) + 2) * (size_t)width : 0;
}

/* HD[i] = columns from x0 + i to the nearest wall in row Y, at most R + 1
 * (outside the level counts as wall); AGE[i] becomes 0 where that is at
 * most R, else one more (up to 255). */
static void row_dist(const ff_costs *c, int y, int x0, int x1, uint8_t *hd, uint8_t *age)
{
	const ff_level *l = c->level;
	const size_t row = (size_t)y * (size_t)l->w;
	const int r = c->radius, cap = r + 1;
	int from = x0 - r > 0 ? x0 - r : 0, to = x1 + r < l->w - 1 ? x1 + r : l->w - 1;
	int last = from > 0 ? from - 1 - cap : -1, next = to < l->w - 1 ? to + 1 + cap : l->w;

	for (int x = from; x <= x1; x++) {
		if (wall_i(c, row + (size_t)x))
			last = x;
		if (x >= x0)
			hd[x - x0] = (uint8_t)(x - last < cap ? x - last : cap);
	}
	for (int x = to; x > x1; x--)
		if (wall_i(c, row + (size_t)x))
			next = x;
	/* within [x0, x1] the first sweep found the walls: HD 0 */
	for (int x = x1; x >= x0; x--) {
		int i = x - x0, d;
		if (!hd[i])
			next = x;
		d = next - x < hd[i] ? next - x : hd[i];
		hd[i] = (uint8_t)d;
		age[i] = d <= r ? 0 : age[i] < 255 ? (uint8_t)(age[i] + 1) : 255;
	}
}

/* The penalty of the cell in column I, ROWS[R + K] being the ring's row K
 * rows below it (K from -R to R): the largest ramp value over the rows
 * within R, of each the nearer of the rows K above and K below. */
static unsigned penalty(const ff_costs *c, const uint8_t *const *rows, int i)
{
	const int r = c->radius;
	unsigned best = c->ramp[rows[r][i]][0];

	for (int k = 1; k <= r && c->ramp[0][k] > best; k++) {
		unsigned a = rows[r - k][i], b = rows[r + k][i], v = c->ramp[a < b ? a : b][k];
		best = v > best ? v : best;
	}
	return best;
}

void ff_costs_fill(const ff_costs *c, int x0, int y0, int x1, int y1, uint8_t *out,
		   size_t stride, uint8_t *scratch)
{
	const ff_level *l = c->level;
	const int r = c->radius, n = r ? ring_rows(c) : 1, width = x1 - x0 + 1;
	const uint8_t *rows[2 * FF_PENALTY_RADIUS_MAX + 1];
	uint8_t *zeros = scratch + (size_t)n * (size_t)width, *age = zeros + width;

	if (r) {
		memset(zeros, 0, (size_t)width);
		memset(age, 255, (size_t)width);
	}
	for (int y = y0 - r; r && y < y0 + r; y++)
		if (y >= 0 && y < l->h)
			row_dist(c, y, x0, x1, scratch + (size_t)(y % n) * (size_t)width, age);
	for (int y = y0; y <= y1; y++) {
		const size_t row = (size_t)y * (size_t)l->w;
		uint8_t *o = out + (size_t)(y - y0) * stride;
		/* rows outside the level within R: every cell is near a wall */
		const bool edge = y < r || y + r >= l->h;

		if (r && y + r < l->h)
			row_dist(c, y + r, x0, x1, scratch + (size_t)((y + r) % n) * (size_t)width, age);
		for (int k = -r; k <= r; k++)
			rows[r + k] = y + k < 0 || y + k >= l->h ? zeros :
				      scratch + (size_t)((y + k) % n) * (size_t)width;
		/* with no wall within R columns in any of the 2R + 1 rows (the
		 * last such row more than 2R rows back) a cell has no penalty:
		 * most of open ground skips the search */
		base_row(c, row + (size_t)x0, (size_t)width, o);
		for (int i = 0; r && i < width; i++)
			if (o[i] != FF_WALL && (edge || age[i] <= 2 * r))
				o[i] = combine(o[i], penalty(c, rows, i));
	}
}

int ff_costs_at(const ff_costs *c, int x, int y)
{
	uint8_t scratch[2 * FF_PENALTY_RADIUS_MAX + 3], out;

	ff_costs_fill(c, x, y, x, y, &out, 1, scratch);
	return out;
}
