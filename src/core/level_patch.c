/* level_patch.c - undo records that turn into their own inverse when applied. */
#include <stdlib.h>
#include <string.h>

#include "level_patch.h"

void ff_patch_fini(ff_patch *p)
{
	free(p->cells);
	free(p->walls);
	free(p->meta);
	*p = (ff_patch)FF_PATCH_INIT;
}

bool ff_patch_empty(const ff_patch *p)
{
	return !p->meta && !p->resized && (size_t)p->w * (size_t)p->h == 0;
}

ff_err ff_patch_save(ff_patch *p, const ff_level *l, int x, int y, int w, int h,
		     bool meta)
{
	size_t n = (size_t)w * (size_t)h;

	*p = (ff_patch)FF_PATCH_INIT;
	if (n) {
		p->cells = malloc(n);
		p->walls = l->walls ? malloc(n) : NULL;
		if (!p->cells || (l->walls && !p->walls)) {
			ff_patch_fini(p);
			return FF_E_NOMEM;
		}
		for (int r = 0; r < h; r++) {
			size_t at = (size_t)(y + r) * (size_t)l->w + (size_t)x;
			memcpy(p->cells + (size_t)r * (size_t)w, l->cells + at, (size_t)w);
			if (p->walls)
				memcpy(p->walls + (size_t)r * (size_t)w, l->walls + at, (size_t)w);
		}
		p->x = x, p->y = y, p->w = w, p->h = h;
	}
	if (meta) {
		p->meta = malloc(sizeof *p->meta);
		if (!p->meta) {
			ff_patch_fini(p);
			return FF_E_NOMEM;
		}
		*p->meta = l->meta;
	}
	return FF_OK;
}

/* Swaps the patch's rectangle SAVED with the same rectangle of LAYER. */
static void swap_rect(const ff_level *l, uint8_t *layer, ff_patch *p, uint8_t *saved)
{
	for (int r = 0; r < p->h; r++) {
		uint8_t *a = layer + (size_t)(p->y + r) * (size_t)l->w + (size_t)p->x;
		uint8_t *b = saved + (size_t)r * (size_t)p->w;
		for (int c = 0; c < p->w; c++) {
			uint8_t t = a[c];
			a[c] = b[c];
			b[c] = t;
		}
	}
}

void ff_patch_apply(ff_level *l, ff_patch *p)
{
	if (p->resized) {
		uint8_t *cells = l->cells, *walls = l->walls;
		int w = l->w, h = l->h;

		l->cells = p->cells, l->walls = p->walls, l->w = p->w, l->h = p->h;
		p->cells = cells, p->walls = walls, p->w = w, p->h = h;
	} else if (p->cells) {
		swap_rect(l, l->cells, p, p->cells);
		/* the layer, once made, stays: a patch saved before has none
		 * and its cells' kinds are those later patches restored */
		if (p->walls && l->walls)
			swap_rect(l, l->walls, p, p->walls);
	}
	if (p->meta) {
		ff_level_meta t = *p->meta;

		*p->meta = l->meta;
		l->meta = t;
	}
}
