/*
 * solver_hier_los.c - line of sight in the hierarchical field
 * (solver_los.h): near the goals, a cell that sees the goal cell its
 * arrows lead to, in the near box, flows straight at it; elsewhere a cell
 * that sees where its arrows leave its sector (the first cell across the
 * border, or a goal on the way) flows straight at that, which is exact
 * within the sector.
 */
#include <stdlib.h>
#include <string.h>

#include "solver_hier_int.h"
#include "solver_los.h"

/* Room for N int32 in *P (of *CAP); false on FF_E_NOMEM. */
static bool room(int32_t **p, size_t *cap, size_t n)
{
	int32_t *q;

	if (n <= *cap)
		return true;
	if (!(q = realloc(*p, n * sizeof *q)))
		return false;
	*p = q, *cap = n;
	return true;
}

/* Where the arrows of each cell of tile T lead, into TGT (padded
 * indices): the first cell on the way that END says ends it. */
static void ends(const ff_tile *t, int32_t *tgt, bool (*end)(const ff_tile *t, int32_t p))
{
	int32_t off[8] = {1, t->W, -1, -t->W, t->W + 1, t->W - 1, -t->W - 1, -t->W + 1};

	for (size_t i = 0; i < t->np; i++)
		tgt[i] = end(t, (int32_t)i) ? (int32_t)i : -1;
	for (size_t i = 0; i < t->np; i++) {
		int32_t p = (int32_t)i, e;
		if (tgt[p] >= 0 || !t->in[p])
			continue;
		while (tgt[p] < 0 && t->in[p] && t->dir[p] != FF_DIR_NONE)
			p += off[t->dir[p]];
		e = tgt[p];
		for (p = (int32_t)i; tgt[p] < 0 && t->in[p] && t->dir[p] != FF_DIR_NONE;
		     p += off[t->dir[p]])
			tgt[p] = e;
	}
}

static bool is_goal(const ff_tile *t, int32_t p)
{
	return t->in[p] && t->val[p] == 0.0;
}

static bool is_exit(const ff_tile *t, int32_t p)
{
	return !t->in[p] || t->val[p] == 0.0;
}

typedef struct near_ctx {
	ff_hier *H;
	int32_t goal;                       /* a padded index of the near tile */
} near_ctx;

static void mark_near(void *ctx, int x, int y)
{
	near_ctx *c = ctx;
	const ff_tile *t = &c->H->near;
	int32_t p = (y + 1) * t->W + x + 1;

	if (c->H->ntgt[p] == c->goal && t->val[p] != 0.0)
		c->H->nlos[p] = c->goal;
}

ff_err ffh_los_near(ff_hier *H)
{
	const ff_tile *t = &H->near;
	const ff_los_grid g = {t->cost + t->W + 1, t->W, 0, 0, t->w - 1, t->h - 1, H->cmin};
	int64_t *scratch;
	int ng = 0;

	if (!room(&H->ntgt, &H->nntgt, t->np) || !room(&H->nlos, &H->nnlos, t->np) ||
	    !(scratch = malloc((size_t)ff_los_scratch(t->w, t->h) * sizeof *scratch)))
		return FF_E_NOMEM;
	ends(t, H->ntgt, is_goal);
	for (size_t i = 0; i < t->np; i++)
		H->nlos[i] = -1;
	for (size_t i = 0; i < t->np && ng < 64; i++)
		if (is_goal(t, (int32_t)i)) {
			near_ctx c = {H, (int32_t)i};
			ff_los_sweep(&g, (int)(i % (size_t)t->W) - 1, (int)(i / (size_t)t->W) - 1,
				     scratch, mark_near, &c);
			ng++;
		}
	free(scratch);
	return FF_OK;
}

/* The near box's line of sight of level cell (x, y): the level index of
 * the goal it sees, or -1. */
static int32_t near_sees(const ff_hier *H, int x, int y)
{
	const ff_tile *t = &H->near;
	int32_t p;

	if (!H->nlos || !in_near(H, x, y) || (p = H->nlos[ff_tile_at(t, x, y)]) < 0)
		return -1;
	return (int32_t)((p / t->W - 1 + t->y0) * H->w + (p % t->W - 1 + t->x0));
}

bool ffh_los_sector(ff_hier *H, const ff_tile *t, int32_t *out)
{
	const ff_los_grid g = {H->cost, H->w, t->x0 > 0 ? t->x0 - 1 : 0,
			       t->y0 > 0 ? t->y0 - 1 : 0,
			       t->x0 + t->w < H->w ? t->x0 + t->w : H->w - 1,
			       t->y0 + t->h < H->h ? t->y0 + t->h : H->h - 1, H->cmin};

	if (!room(&H->ltgt, &H->nltgt, t->np))
		return false;
	ends(t, H->ltgt, is_exit);
	for (int y = 0; y < t->h; y++)
		for (int x = 0; x < t->w; x++) {
			const int32_t p = (y + 1) * t->W + x + 1, e = H->ltgt[p];
			const int lx = t->x0 + x, ly = t->y0 + y;
			int32_t *o = &out[y * H->S + x], n;
			*o = -1;
			if (e < 0 || e == p)
				continue;
			/* near the goals, unimproved: the goal, if seen */
			if ((n = near_sees(H, lx, ly)) >= 0 && t->val[p] == ffh_near_val(H, lx, ly)) {
				*o = n;
				continue;
			}
			if (ff_los_clear(&g, lx, ly, t->x0 + e % t->W - 1, t->y0 + e / t->W - 1))
				*o = (int32_t)((size_t)(t->y0 + e / t->W - 1) * (size_t)H->w +
					       (size_t)(t->x0 + e % t->W - 1));
		}
	return true;
}
