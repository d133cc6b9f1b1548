/* level_patch.c - undo records that turn into their own inverse when applied. */
#include <stdlib.h>
#include <string.h>

#include "level_patch.h"

void ff_patch_fini(ff_patch *p)
{
	free(p->cells);
	free(p->walls);
	free(p->dyn);
	free(p->meta);
	*p = (ff_patch)FF_PATCH_INIT;
}

bool ff_patch_empty(const ff_patch *p)
{
	return !p->meta && !p->resized && (size_t)p->w * (size_t)p->h == 0;
}

/* A copy of LAYER's (L's size) rectangle [x, x+w) x [y, y+h), or NULL. */
static uint8_t *save_rect(const ff_level *l, const uint8_t *layer, int x, int y, int w, int h)
{
	uint8_t *r = malloc((size_t)w * (size_t)h);

	for (int i = 0; r && i < h; i++)
		memcpy(r + (size_t)i * (size_t)w, layer + (size_t)(y + i) * (size_t)l->w + (size_t)x,
		       (size_t)w);
	return r;
}

ff_err ff_patch_save_layers(ff_patch *p, const ff_level *l, int x, int y, int w, int h,
			    unsigned what, bool meta)
{
	*p = (ff_patch)FF_PATCH_INIT;
	if ((size_t)w * (size_t)h != 0) {
		if (((what & FF_PATCH_CELLS) && !(p->cells = save_rect(l, l->cells, x, y, w, h))) ||
		    ((what & FF_PATCH_CELLS) && l->walls &&
		     !(p->walls = save_rect(l, l->walls, x, y, w, h))) ||
		    ((what & FF_PATCH_DYN) && !(p->dyn = save_rect(l, l->dyn, x, y, w, h)))) {
			ff_patch_fini(p);
			return FF_E_NOMEM;
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

ff_err ff_patch_save(ff_patch *p, const ff_level *l, int x, int y, int w, int h,
		     bool meta)
{
	return ff_patch_save_layers(p, l, x, y, w, h, FF_PATCH_CELLS, meta);
}

/* Swaps the patch's rectangle SAVED with the same rectangle of LAYER. */
static void swap_rect(const ff_level *l, uint8_t *layer, const ff_patch *p, uint8_t *saved)
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
		uint8_t *cells = l->cells, *walls = l->walls, *dyn = l->dyn;
		int w = l->w, h = l->h;

		l->cells = p->cells, l->walls = p->walls, l->dyn = p->dyn, l->w = p->w, l->h = p->h;
		p->cells = cells, p->walls = walls, p->dyn = dyn, p->w = w, p->h = h;
	} else {
		if (p->cells)
			swap_rect(l, l->cells, p, p->cells);
		/* the layer, once made, stays: a patch saved before has none
		 * and its cells' kinds are those later patches restored */
		if (p->walls && l->walls)
			swap_rect(l, l->walls, p, p->walls);
		if (p->dyn)
			swap_rect(l, l->dyn, p, p->dyn);
	}
	if (p->resized || p->cells || p->dyn)
		ff_level_changed(l);
	if (p->meta) {
		ff_level_meta t = *p->meta;

		*p->meta = l->meta;
		l->meta = t;
	}
}
