/*
 * solver_hier_graph.c - the hierarchical field's graph (solver_hier_int.h):
 * sectors, their portals, and the distances between a sector's portals.
 *
 * On each border between two sectors the windows are the runs of cells
 * passable on both sides; a window's portals are chosen by border(), on
 * both sides of the border, so a sector's portals come from its four
 * borders, computed alike from either side.  A sector keeps its portals
 * (level indices, ascending) and, once the search first needs them, the
 * exact distance within the sector from each to each: a tile Dijkstra
 * from each portal, or, for a sector of one cost and no walls, the octile
 * (or, 4-connected, Manhattan) distance times the cost.
 */
#include <stdlib.h>
#include <string.h>

#include "solver_hier_int.h"

/* --- lifecycle ------------------------------------------------------------ */

ff_hier *ff_hier_create(int w, int h)
{
	ff_hier *H = calloc(1, sizeof *H);

	if (!H)
		return NULL;
	H->w = w, H->h = h;
	H->cost = malloc((size_t)w * (size_t)h);
	if (!H->cost) {
		free(H);
		return NULL;
	}
	ff_tile_init(&H->tile);
	ff_tile_init(&H->near);
	ff_tile_init(&H->edge);
	ff_tile_init(&H->base);
	for (int c = 0; c < 256; c++) {
		H->ustep[c] = c == FF_WALL ? INFINITY : c * UNIT;
		H->udiag[c] = c == FF_WALL ? INFINITY : ceil(c * 1.4142135623730951 * UNIT);
	}
	H->last = -1;
	return H;
}

void ffh_free_graph(ff_hier *H)
{
	for (long i = 0; H->sec && i < H->nsec; i++) {
		free(H->sec[i].g);
		free(H->sec[i].d);
	}
	free(H->sec);
	free(H->sval);
	free(H->sdir);
	free(H->sref);
	free(H->ssec);
	free(H->sepoch);
	free(H->slos);
	H->slos = NULL;
	H->sec = NULL;
	H->sval = NULL;
	H->sdir = H->sref = NULL;
	H->ssec = NULL;
	H->sepoch = NULL;
	H->nsec = H->nportals = 0;
	H->graph_bytes = 0;
	H->built = false;
}

void ff_hier_destroy(ff_hier *H)
{
	if (!H)
		return;
	ffh_free_graph(H);
	ff_tile_fini(&H->tile);
	ff_tile_fini(&H->near);
	ff_tile_fini(&H->edge);
	ff_tile_fini(&H->base);
	free(H->heap);
	free(H->hkey);
	free(H->hg);
	free(H->hxy);
	free(H->scratch);
	free(H->ntgt);
	free(H->nlos);
	free(H->ltgt);
	free(H->cost);
	free(H);
}

/* Cache slots for N sectors: one in eight, at least 64 and at most 4096
 * (37 MB of sectors of 32 cells). */
int ffh_slots_for(long n)
{
	long k = n / 8 < 64 ? 64 : n / 8 > 4096 ? 4096 : n / 8;

	return (int)(k < n ? k : n);
}

size_t ff_hier_bytes_for(int w, int h, int sector)
{
	long n = (long)((w + sector - 1) / sector) * ((h + sector - 1) / sector);

	return sizeof(ff_hier) + (size_t)w * (size_t)h + (size_t)n * sizeof(hsec) +
	       (size_t)ffh_slots_for(n) * ((size_t)sector * (size_t)sector * 9 + 13);
}

size_t ff_hier_bytes(const ff_hier *H)
{
	return sizeof *H + (size_t)H->w * (size_t)H->h + (size_t)H->nsec * sizeof(hsec) +
	       H->graph_bytes + (size_t)H->nslot * ((size_t)H->S * (size_t)H->S * 9 + 13) +
	       ff_tile_bytes(&H->tile) + ff_tile_bytes(&H->near) + ff_tile_bytes(&H->edge) +
	       ff_tile_bytes(&H->base) +
	       H->hcap * (sizeof *H->heap + 2 * sizeof *H->hkey + sizeof *H->hxy) +
	       (H->slos ? (size_t)H->nslot * (size_t)H->S * (size_t)H->S * sizeof *H->slos : 0) +
	       (H->nntgt + H->nnlos + H->nltgt) * sizeof *H->ntgt;
}

/* --- the graph ------------------------------------------------------------ */

/* The costs of cell (X, Y) and of its neighbour (X + PX, Y + PY) across a
 * border, as one number: the dearer in the low byte. */
static int pair_cost(const ff_hier *H, int x, int y, int px, int py)
{
	int a = H->cost[(size_t)y * (size_t)H->w + (size_t)x];
	int b = H->cost[(size_t)(y + py) * (size_t)H->w + (size_t)(x + px)];

	return a > b ? b << 8 | a : a << 8 | b;
}

/* Portals along one border: the cells (X + i*DX, Y + i*DY), i < N, paired
 * with their neighbours at (+PX, +PY); appends the cells on this side
 * (moved by (SX, SY)) to OUT. */
static int border(const ff_hier *H, int x, int y, int dx, int dy, int n, int px, int py,
		  int sx, int sy, int32_t *out, int k)
{
	int i = 0;

	while (i < n) {
		int a, b;
		while (i < n && !(ffh_pass(H, x + i * dx, y + i * dy) &&
				  ffh_pass(H, x + i * dx + px, y + i * dy + py)))
			i++;
		if (i == n)
			break;
		a = i;
		while (i < n && ffh_pass(H, x + i * dx, y + i * dy) &&
		       ffh_pass(H, x + i * dx + px, y + i * dy + py))
			i++;
		b = i - 1;
		/* the ends, both cells where the costs change along the window,
		 * and a portal each time the walk along it since the last has
		 * cost PORTAL_STEP (at the dearer side's costs): a cell is never
		 * dear to reach a portal from, and a crossing from dear ground
		 * to cheap has a portal on either side */
		for (int j = a, walked = 0; j <= b; j++) {
			int pair = pair_cost(H, x + j * dx, y + j * dy, px, py);
			walked += pair & 0xff;
			if (j > a && j < b && walked < PORTAL_STEP &&
			    pair == pair_cost(H, x + (j - 1) * dx, y + (j - 1) * dy, px, py) &&
			    pair == pair_cost(H, x + (j + 1) * dx, y + (j + 1) * dy, px, py))
				continue;
			out[k++] = (int32_t)((size_t)(y + j * dy + sy) * (size_t)H->w +
					     (size_t)(x + j * dx + sx));
			walked = 0;
		}
	}
	return k;
}

int ffh_cmp_i32(const void *a, const void *b)
{
	int32_t p = *(const int32_t *)a, q = *(const int32_t *)b;

	return (p > q) - (p < q);
}

/* The portals of sector S into OUT (at most 4 * 64), ascending; their
 * number. */
static int portals(const ff_hier *H, long s, int32_t *out)
{
	int x0, y0, w, h, k = 0, n = 0;

	ffh_sector_rect(H, s, &x0, &y0, &w, &h);
	if (x0 + w < H->w)
		k = border(H, x0 + w - 1, y0, 0, 1, h, 1, 0, 0, 0, out, k);
	if (x0 > 0)
		k = border(H, x0 - 1, y0, 0, 1, h, 1, 0, 1, 0, out, k);
	if (y0 + h < H->h)
		k = border(H, x0, y0 + h - 1, 1, 0, w, 0, 1, 0, 0, out, k);
	if (y0 > 0)
		k = border(H, x0, y0 - 1, 1, 0, w, 0, 1, 0, 1, out, k);
	qsort(out, (size_t)k, sizeof *out, ffh_cmp_i32);
	for (int i = 0; i < k; i++)
		if (n == 0 || out[n - 1] != out[i])
			out[n++] = out[i];
	return n;
}

/* Whether sector S's cells all have one cost (no walls); its cheapest
 * cost into *CMIN, and whether its passable cells have one cost into
 * *UNIFORM. */
static bool one_cost(const ff_hier *H, long s, uint8_t *cmin, bool *uniform)
{
	int x0, y0, w, h;
	uint8_t c, lo = FF_WALL, hi = 0;
	bool wall = false;

	ffh_sector_rect(H, s, &x0, &y0, &w, &h);
	for (int y = y0; y < y0 + h; y++) {
		const uint8_t *row = H->cost + (size_t)y * (size_t)H->w + (size_t)x0;
		for (int x = 0; x < w; x++) {
			c = row[x];
			wall = wall || c == FF_WALL;
			lo = c < lo ? c : lo;
			hi = c > hi && c != FF_WALL ? c : hi;
		}
	}
	*cmin = lo;
	*uniform = lo == hi;
	return lo == hi && !wall;
}

/* The units between cells A and B within a sector of one cost C and no
 * walls: octile (or Manhattan) steps. */
static double open_distance(const ff_hier *H, int32_t a, int32_t b, uint8_t c)
{
	int dx = abs(a % H->w - b % H->w), dy = abs(a / H->w - b / H->w);
	int lo = dx < dy ? dx : dy, hi = dx + dy - lo;

	return H->conn == 4 ? (dx + dy) * H->ustep[c] : (hi - lo) * H->ustep[c] + lo * H->udiag[c];
}

/* The units from portal I to portal J of sector C. */
double ffh_intra(const ff_hier *H, const hsec *c, int i, int j)
{
	uint32_t d;

	if (c->open)
		return open_distance(H, c->cell[i], c->cell[j], c->cmin);
	d = c->d[i * c->n + j];
	if (d == UINT32_MAX)
		return INFINITY;
	return c->dshift ? ldexp((double)d, c->dshift) : (double)d;
}

/* The units between the N portals CELL of sector C (index S) into D (as
 * 32 bits, scaled down so the largest fits), by a Dijkstra within the
 * sector from each, in whole units: every sum exact. */
static ff_err distances(ff_hier *H, long s, hsec *c, uint32_t *d)
{
	const int n = c->n;
	int x0, y0, w, h;
	int32_t stop[256];
	double *u, top = 0;
	ff_err err;

	ffh_sector_rect(H, s, &x0, &y0, &w, &h);
	if ((err = ff_tile_load(&H->edge, H->cost, H->w, H->h, x0, y0, w, h, H->conn, true)))
		return err;
	if (!(u = malloc((size_t)n * (size_t)n * sizeof *u)))
		return FF_E_NOMEM;
	for (int i = 0; i < n; i++)
		stop[i] = ff_tile_at(&H->edge, c->cell[i] % H->w, c->cell[i] / H->w);
	/* where every passable cell has one cost, a path costs the same both
	 * ways: the search from portal J needs only the portals after it */
	for (int j = 0; j < n && !err; j++) {
		const int from = c->uniform ? j + 1 : 0;
		ff_tile_clear(&H->edge);
		if ((err = ff_tile_seed(&H->edge, stop[j], 0.0)))
			break;
		if (from < n)
			ff_tile_run(&H->edge, stop + from, n - from);
		u[j * n + j] = 0;
		for (int i = from; i < n; i++) {
			u[i * n + j] = H->edge.val[stop[i]];
			if (c->uniform)
				u[j * n + i] = u[i * n + j];
			top = u[i * n + j] < INFINITY && u[i * n + j] > top ? u[i * n + j] : top;
		}
	}
	for (c->dshift = 0; !err && ldexp(top, -c->dshift) >= (double)UINT32_MAX; c->dshift++)
		;
	/* rounded up, so a distance is never shorter than a path */
	for (int i = 0; !err && i < n * n; i++)
		d[i] = u[i] == INFINITY ? UINT32_MAX : (uint32_t)ceil(ldexp(u[i], -c->dshift));
	free(u);
	return err;
}

static size_t edge_bytes(const hsec *c)
{
	return c->d ? (size_t)c->n * (size_t)c->n * sizeof *c->d : 0;
}

/* The steps out of sector S from each portal of C, which the search
 * takes from the portal without reading the level's costs: they depend
 * on the cells around the portal alone, whose changes rebuild S. */
static void steps_across(const ff_hier *H, long s, hsec *c)
{
	int x0, y0, w, h;

	ffh_sector_rect(H, s, &x0, &y0, &w, &h);
	for (int i = 0; i < c->n; i++) {
		int x = c->cell[i] % H->w, y = c->cell[i] / H->w;
		c->across[i] = 0;
		for (int d = 0; d < H->conn; d++) {
			int nx = x + ff_dir_dx[d], ny = y + ff_dir_dy[d];
			if ((nx < x0 || ny < y0 || nx >= x0 + w || ny >= y0 + h) &&
			    ffh_step_ok(H, x, y, d))
				c->across[i] |= (uint8_t)(1u << d);
		}
	}
}

/* (Re)builds sector S's portals.  Their steps out and the distances
 * between them wait until the search first needs them (ffh_edges()). */
static ff_err build_sector(ff_hier *H, long s)
{
	hsec *c = &H->sec[s], nc;
	int32_t cell[256];
	int n = portals(H, s, cell);
	size_t bytes = (size_t)n * (sizeof *nc.g + 3 * sizeof(int32_t) + 2);

	memset(&nc, 0, sizeof nc);
	nc.n = (int16_t)n;
	nc.slot = -1;
	nc.open = one_cost(H, s, &nc.cmin, &nc.uniform);
	if (n) {
		if (!(nc.g = malloc(bytes)))
			return FF_E_NOMEM;
		nc.cell = (int32_t *)(nc.g + n);
		nc.par = nc.cell + n;
		nc.hpos = nc.par + n;
		nc.across = (uint8_t *)(nc.hpos + n);
		nc.cost = nc.across + n;
		nc.bytes = bytes;
		memcpy(nc.cell, cell, (size_t)n * sizeof *cell);
		for (int i = 0; i < n; i++)
			nc.cost[i] = H->cost[cell[i]];
	}
	H->nportals += n - c->n;
	H->graph_bytes += nc.bytes - c->bytes - edge_bytes(c);
	free(c->g);
	free(c->d);
	*c = nc;
	H->rebuilt++;
	return FF_OK;
}

/* The edges of sector S's portals, computed the first time they are
 * needed: the steps out of the sector, and the distances between them
 * (an open sector's never are: open_distance()); false on FF_E_NOMEM. */
bool ffh_edges(ff_hier *H, long s)
{
	hsec *c = &H->sec[s];
	size_t n = (size_t)c->n;
	uint32_t *d;

	if (!c->stepped) {
		steps_across(H, s, c);
		c->stepped = true;
	}
	if (c->open || c->d || !n)
		return true;
	if (!(d = malloc(n * n * sizeof *d)))
		return false;
	if (distances(H, s, c, d)) {
		free(d);
		return false;
	}
	c->d = d;
	H->graph_bytes += edge_bytes(c);
	H->edged++;
	return true;
}

/* The metric of the wall penalty (cost.h) for connectivity CONN. */
ff_metric ffh_metric(int conn)
{
	return conn == 4 ? FF_METRIC_MANHATTAN : FF_METRIC_OCTILE;
}

/* Scratch for ff_costs_fill() over the level's width; false on
 * FF_E_NOMEM. */
static bool scratch(ff_hier *H)
{
	size_t n = ff_costs_scratch(&H->costs, H->w);
	uint8_t *b;

	if (n <= H->nscratch)
		return true;
	if (!(b = realloc(H->scratch, n)))
		return false;
	H->scratch = b, H->nscratch = n;
	return true;
}

/* Notes that cost holds all of L's effective costs as L is now. */
static void synced(ff_hier *H, const ff_level *l)
{
	H->synced.level = l;
	H->synced.cells = l->cells, H->synced.dyn = l->dyn;
	H->synced.changes = l->changes;
}

/* Whether L's grids are those cost was built from, unchanged since. */
static bool unchanged(const ff_hier *H, const ff_level *l)
{
	return H->synced.level == l && H->synced.cells == l->cells && H->synced.dyn == l->dyn &&
	       H->synced.changes == l->changes;
}

/* The effective costs of rows [Y0, Y1] into OUT (W bytes a row). */
static void fill_rows(ff_hier *H, int y0, int y1, uint8_t *out)
{
	ff_costs_fill(&H->costs, 0, y0, H->w - 1, y1, out, (size_t)H->w, H->scratch);
}

ff_err ffh_build(ff_hier *H, const ff_level *l, int sector, int conn)
{
	ffh_free_graph(H);
	H->synced.level = NULL;
	H->S = sector, H->conn = conn;
	for (H->shift = 0; (1 << H->shift) < sector; H->shift++)
		;
	H->sw = (H->w + sector - 1) / sector, H->sh = (H->h + sector - 1) / sector;
	H->nsec = (long)H->sw * H->sh;
	H->nslot = ffh_slots_for(H->nsec);
	ff_costs_init(&H->costs, l, ffh_metric(conn));
	if (!scratch(H))
		return FF_E_NOMEM;
	fill_rows(H, 0, H->h - 1, H->cost);
	H->sec = calloc((size_t)H->nsec, sizeof *H->sec);
	H->sval = malloc((size_t)H->nslot * (size_t)sector * (size_t)sector * sizeof *H->sval);
	H->sdir = malloc((size_t)H->nslot * (size_t)sector * (size_t)sector);
	H->sref = calloc((size_t)H->nslot, 1);
	H->ssec = malloc((size_t)H->nslot * sizeof *H->ssec);
	H->sepoch = calloc((size_t)H->nslot, sizeof *H->sepoch);
	if (!H->sec || !H->sval || !H->sdir || !H->sref || !H->ssec || !H->sepoch)
		goto fail;
	for (int i = 0; i < H->nslot; i++)
		H->ssec[i] = -1;
	H->rebuilt = 0;
	for (long s = 0; s < H->nsec; s++)
		H->sec[s].slot = -1;
	for (long s = 0; s < H->nsec; s++)
		if (build_sector(H, s))
			goto fail;
	H->built = true;
	synced(H, l);
	return FF_OK;
fail:
	ffh_free_graph(H);
	return FF_E_NOMEM;
}

/* Rebuilds the sectors whose cells or borders lie in [X0,X1] x [Y0,Y1],
 * whose effective costs are in H->cost already. */
static ff_err rebuild(ff_hier *H, int x0, int y0, int x1, int y1)
{
	/* a border cell changes the portals on both sides of its border */
	int sx0 = (x0 > 0 ? x0 - 1 : 0) >> H->shift, sy0 = (y0 > 0 ? y0 - 1 : 0) >> H->shift;
	int sx1 = (x1 + 1 < H->w ? x1 + 1 : x1) >> H->shift;
	int sy1 = (y1 + 1 < H->h ? y1 + 1 : y1) >> H->shift;

	H->rebuilt = 0;
	for (int sy = sy0; sy <= sy1; sy++)
		for (int sx = sx0; sx <= sx1; sx++)
			if (build_sector(H, (long)sy * H->sw + sx)) {
				H->built = false;   /* half updated: rebuild it all */
				return FF_E_NOMEM;
			}
	return FF_OK;
}

/* After the cells of [X0,X1] x [Y0,Y1] changed in L: builds their
 * effective costs again, and those of the cells within the wall
 * penalty's reach when a wall came or went (as the full solver's
 * repair), and rebuilds the sectors around them. */
ff_err ffh_update(ff_hier *H, const ff_level *l, int x0, int y0, int x1, int y1)
{
	bool walls = false;
	int r;

	ff_costs_init(&H->costs, l, ffh_metric(H->conn));
	for (int y = y0; y <= y1 && !walls; y++)
		for (int x = x0; x <= x1 && !walls; x++)
			walls = (H->cost[(size_t)y * (size_t)H->w + (size_t)x] == FF_WALL) !=
				ff_costs_wall(&H->costs, x, y);
	r = walls ? ff_costs_reach(&H->costs) : 0;
	x0 = x0 > r ? x0 - r : 0, y0 = y0 > r ? y0 - r : 0;
	x1 = x1 < H->w - 1 - r ? x1 + r : H->w - 1;
	y1 = y1 < H->h - 1 - r ? y1 + r : H->h - 1;
	if (!scratch(H))
		return FF_E_NOMEM;
	ff_costs_fill(&H->costs, x0, y0, x1, y1, H->cost + (size_t)y0 * (size_t)H->w + (size_t)x0,
		      (size_t)H->w, H->scratch);
	return rebuild(H, x0, y0, x1, y1);
}

/* Brings the graph up to L's effective costs: a first build (or another
 * when the cost rules changed); nothing when L's grids have not changed
 * since they were last read whole; else the sectors around the cells that
 * differ, found by building the costs again a band of rows at a time. */
ff_err ffh_sync(ff_hier *H, const ff_level *l, int sector, int conn)
{
	enum { BAND = 64 };
	int x0 = H->w, y0 = H->h, x1 = -1, y1 = -1;
	size_t w = (size_t)H->w;
	ff_costs c;
	uint8_t *band;
	ff_err err;

	ff_costs_init(&c, l, ffh_metric(conn));
	if (!H->built || H->S != sector || H->conn != conn || !ff_costs_same(&c, &H->costs))
		return ffh_build(H, l, sector, conn);
	H->costs = c;
	if (unchanged(H, l))
		return FF_OK;
	if (!scratch(H) || !(band = malloc(w * BAND)))
		return FF_E_NOMEM;
	H->compared++;
	for (int b = 0; b < H->h; b += BAND) {
		int e = b + BAND - 1 < H->h - 1 ? b + BAND - 1 : H->h - 1;
		fill_rows(H, b, e, band);
		for (int y = b; y <= e; y++) {
			const uint8_t *o = H->cost + (size_t)y * w, *n = band + (size_t)(y - b) * w;
			int i = 0, j = H->w - 1;
			if (!memcmp(o, n, w))
				continue;
			while (o[i] == n[i])
				i++;
			while (o[j] == n[j])
				j--;
			x0 = i < x0 ? i : x0, x1 = j > x1 ? j : x1;
			y0 = y < y0 ? y : y0, y1 = y;
			memcpy(H->cost + (size_t)y * w, n, w);
		}
	}
	free(band);
	if (x1 >= 0 && (err = rebuild(H, x0, y0, x1, y1)))
		return err;
	synced(H, l);
	return FF_OK;
}

