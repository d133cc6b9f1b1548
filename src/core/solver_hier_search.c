/*
 * solver_hier_search.c - the hierarchical field's search (solver_hier.h):
 * A* over the portals in whole units, from the sources of the order
 * towards the portals of the sector asked for.
 */
#include <stdlib.h>
#include <string.h>

#include "solver_hier_int.h"

/* --- the search ----------------------------------------------------------- */

hsec *ffh_touch(ff_hier *H, long s)
{
	hsec *c = &H->sec[s];

	if (c->epoch != H->epoch) {
		c->epoch = H->epoch;
		c->left = c->n;
		for (int i = 0; i < c->n; i++) {
			c->g[i] = INFINITY;
			c->par[i] = NOPAR;
			c->hpos[i] = -1;
		}
	}
	return c;
}

/* The A* heuristic at the cell XY (x | y << 16): the octile (or
 * Manhattan) distance to the target at the cheapest cost, in units with
 * the diagonal rounded up as the steps are.  It is a norm no step or
 * portal distance is shorter than, so consistent, exactly: every sum is
 * whole units. */
static inline double heur(const ff_hier *H, int32_t xy)
{
	int dx, dy, lo;

	if (H->tx < 0)
		return 0.0;
	dx = abs((xy & 0xffff) - H->tx), dy = abs((xy >> 16) - H->ty);
	lo = dx < dy ? dx : dy;
	if (H->conn == 4)
		return H->ha * (dx + dy);
	return H->ha * (dx + dy - lo) + H->hb * lo;
}

static int32_t xy_of(const ff_hier *H, int32_t cell)
{
	return cell % H->w | (cell / H->w) << 16;
}

static void hset(ff_hier *H, size_t i, int32_t r, double k, double g, int32_t xy)
{
	H->heap[i] = r;
	H->hkey[i] = k;
	H->hg[i] = g;
	H->hxy[i] = xy;
	ref_hsec(H, r)->hpos[ref_idx(r)] = (int32_t)i;
}

/* Whether heap entry (K1, G1, R1) goes before (K2, G2, R2): by key, then
 * the larger g (on open ground many portals share a key; the deeper
 * first goes straight at the target), then the ref. */
static inline bool before(double k1, double g1, int32_t r1, double k2, double g2, int32_t r2)
{
	if (k1 != k2)
		return k1 < k2;
	if (g1 != g2)
		return g1 > g2;
	return r1 < r2;
}

static void sift_up(ff_hier *H, size_t i)
{
	int32_t r = H->heap[i], xy = H->hxy[i];
	double k = H->hkey[i], g = H->hg[i];

	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!before(k, g, r, H->hkey[p], H->hg[p], H->heap[p]))
			break;
		hset(H, i, H->heap[p], H->hkey[p], H->hg[p], H->hxy[p]);
		i = p;
	}
	hset(H, i, r, k, g, xy);
}

static void sift_down(ff_hier *H, size_t i)
{
	int32_t r = H->heap[i], xy = H->hxy[i];
	double k = H->hkey[i], g = H->hg[i];

	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= H->hn)
			break;
		if (c + 1 < H->hn && before(H->hkey[c + 1], H->hg[c + 1], H->heap[c + 1],
					    H->hkey[c], H->hg[c], H->heap[c]))
			c++;
		if (!before(H->hkey[c], H->hg[c], H->heap[c], k, g, r))
			break;
		hset(H, i, H->heap[c], H->hkey[c], H->hg[c], H->hxy[c]);
		i = c;
	}
	hset(H, i, r, k, g, xy);
}

static bool grow_heap(ff_hier *H)
{
	size_t cap = H->hcap ? H->hcap * 2 : 1024;
	int32_t *hp = realloc(H->heap, cap * sizeof *hp), *xy;
	double *hk, *hg;

	if (hp)
		H->heap = hp;
	if (!hp || !(hk = realloc(H->hkey, cap * sizeof *hk)))
		return false;
	H->hkey = hk;
	if (!(hg = realloc(H->hg, cap * sizeof *hg)))
		return false;
	H->hg = hg;
	if (!(xy = realloc(H->hxy, cap * sizeof *xy)))
		return false;
	H->hxy = xy;
	H->hcap = cap;
	return true;
}

/* Lowers portal I of sector S to G (from PAR); false on FF_E_NOMEM. */
bool ffh_relax(ff_hier *H, long s, int i, double g, int32_t par)
{
	hsec *c = ffh_touch(H, s);
	int32_t r = ref_of(s, i);

	if (c->hpos[i] == SETTLED || g > c->g[i] || (g == c->g[i] && par >= c->par[i]))
		return true;
	c->par[i] = par;
	if (g == c->g[i])
		return true;
	c->g[i] = g;
	if (c->hpos[i] < 0) {
		int32_t xy = xy_of(H, c->cell[i]);
		if (H->hn == H->hcap && !grow_heap(H))
			return false;
		hset(H, H->hn++, r, g + heur(H, xy), g, xy);
	} else {
		H->hkey[c->hpos[i]] = g + heur(H, H->hxy[c->hpos[i]]);
		H->hg[c->hpos[i]] = g;
	}
	sift_up(H, (size_t)c->hpos[i]);
	return true;
}

/* Sets the A* target (TX, TY) (TX < 0: Dijkstra order) and the keys for
 * it, leaving the heap in no order until order_heap(); the smallest key.
 * The search towards a portal often needs that alone. */
static double rekey(ff_hier *H, int tx, int ty)
{
	double least = INFINITY;

	H->tx = tx, H->ty = ty;
	for (size_t i = 0; i < H->hn; i++) {
		H->hkey[i] = H->hg[i] + heur(H, H->hxy[i]);
		least = H->hkey[i] < least ? H->hkey[i] : least;
	}
	H->unordered = true;
	return least;
}

static void order_heap(ff_hier *H)
{
	if (!H->unordered)
		return;
	for (size_t i = H->hn / 2; i-- > 0;)
		sift_down(H, i);
	H->unordered = false;
}

/* Re-keys the heap for the A* target (TX, TY) (TX < 0: Dijkstra order). */
void ffh_retarget(ff_hier *H, int tx, int ty)
{
	if (H->tx != tx || H->ty != ty)
		rekey(H, tx, ty);
	order_heap(H);
}

/* Settles the first portal of the heap and relaxes its edges. */
bool ffh_settle(ff_hier *H)
{
	const int32_t r = H->heap[0];
	const long s = ref_sec(r);
	hsec *c = &H->sec[s];
	const int i = ref_idx(r);
	const int x = c->cell[i] % H->w, y = c->cell[i] / H->w;
	const double g = c->g[i];

	if (--H->hn > 0) {
		hset(H, 0, H->heap[H->hn], H->hkey[H->hn], H->hg[H->hn], H->hxy[H->hn]);
		sift_down(H, 0);
	}
	c->hpos[i] = SETTLED;
	c->left--;
	H->settled++;
	H->last = r;
	if (!ffh_edges(H, s))
		return false;
	for (int j = 0; j < c->n; j++) {
		double d = j == i ? INFINITY : ffh_intra(H, c, j, i);
		if (d < INFINITY && !ffh_relax(H, s, j, g + d, r))
			return false;
	}
	for (int d = 0; d < H->conn; d++) {
		int mx = x + ff_dir_dx[d], my = y + ff_dir_dy[d];
		int32_t m = (int32_t)((size_t)my * (size_t)H->w + (size_t)mx), *at;
		hsec *u;
		if (!(c->across[i] >> d & 1))
			continue;
		u = &H->sec[sec_of(H, mx, my)];
		at = bsearch(&m, u->cell, (size_t)u->n, sizeof m, ffh_cmp_i32);
		/* the step from m back to this portal is m's own cost */
		if (at && !ffh_relax(H, sec_of(H, mx, my), (int)(at - u->cell),
				     g + (d < 4 ? H->ustep : H->udiag)[u->cost[at - u->cell]], r))
			return false;
	}
	return true;
}

/* Whether portal P of C is dominated, by one Q settled: g(p) >= g(q) +
 * d(p -> q), so that no cell of the sector is better off through P than
 * through Q.  A sector's fine field starts from its other portals. */
bool ffh_dominated(const ff_hier *H, const hsec *c, int p)
{
	for (int q = 0; q < c->n; q++)
		if (q != p && c->hpos[q] == SETTLED && c->g[p] >= c->g[q] + ffh_intra(H, c, p, q))
			return true;
	return false;
}

/* The least g(q) + d(p -> q) over the settled portals Q of C but P. */
static double threshold(const ff_hier *H, const hsec *c, int p)
{
	double thr = INFINITY;

	for (int q = 0; q < c->n; q++)
		if (q != p && c->hpos[q] == SETTLED && c->g[q] + ffh_intra(H, c, p, q) < thr)
			thr = c->g[q] + ffh_intra(H, c, p, q);
	return thr;
}

/* Settles portals until each of sector S's is settled or dominated by one
 * that is (or none is left to settle); false on FF_E_NOMEM.  For each
 * portal P not settled, the search aims at P: then the smallest key, F,
 * is a lower bound of g(p), and once F reaches the threshold P is
 * dominated.  On open ground that holds at once for the sector's far
 * side, which otherwise would take the search past the sector by its
 * width.  A dominated portal dominates no portal another does not (the
 * one dominating it), so the settled portals tell which start the fine
 * field, whatever the order of the queries. */
bool ffh_reach(ff_hier *H, long s)
{
	hsec *c = ffh_touch(H, s);

	if (c->left == 0 || H->hn == 0)
		return true;
	if (!ffh_edges(H, s))
		return false;
	for (int p = 0; p < c->n && H->hn > 0; p++) {
		const int px = c->cell[p] % H->w, py = c->cell[p] / H->w;
		double thr, least;
		if (c->hpos[p] == SETTLED)
			continue;
		thr = threshold(H, c, p);
		least = H->tx == px && H->ty == py && !H->unordered ? H->hkey[0] : rekey(H, px, py);
		if (least >= thr)       /* dominated already: no need of the heap's order */
			continue;
		order_heap(H);
		while (c->hpos[p] != SETTLED && H->hn > 0 && H->hkey[0] < thr) {
			int left = c->left;
			if (!ffh_settle(H))
				return false;
			if (c->left != left)
				thr = threshold(H, c, p);
		}
	}
	order_heap(H);
	return true;
}

