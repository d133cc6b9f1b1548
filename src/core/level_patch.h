/*
 * level_patch.h - undo records.  A patch holds the previous contents of a rectangle
 * of cells (their costs and wall kinds, their dynamic layer, or both), and
 * optionally the previous meta (palette, goals, spawns, parameters, name)
 * or the whole previous grids (after a resize).  Applying a patch swaps its
 * contents with the level's, so after ff_patch_apply() the same patch
 * redoes what it just undid: undo and redo are one operation.
 */
#ifndef FF_LEVEL_PATCH_H
#define FF_LEVEL_PATCH_H

#include "level.h"

typedef struct ff_patch {
	int x, y, w, h;          /* saved cell rectangle (w * h == 0: none) */
	uint8_t *cells;          /* w * h costs, row major, or NULL */
	uint8_t *walls;          /* the same of the walls layer, when the level
				    had one (a whole layer, maybe NULL, when
				    resized) */
	uint8_t *dyn;            /* w * h of the dynamic layer, or NULL */
	ff_level_meta *meta;     /* previous meta, or NULL when unchanged */
	bool resized;            /* cells, walls and dyn are whole grids of w x h */
} ff_patch;

#define FF_PATCH_INIT {0, 0, 0, 0, NULL, NULL, NULL, NULL, false}

/* What ff_patch_save_layers() saves of the rectangle: the costs (with the
 * walls layer, when the level has one), the dynamic layer. */
enum { FF_PATCH_CELLS = 1, FF_PATCH_DYN = 2 };

/* Frees what the patch owns and resets it to empty; the struct stays. */
void ff_patch_fini(ff_patch *p);
/* True when the patch records nothing. */
bool ff_patch_empty(const ff_patch *p);
/* Applies P to L (swapping contents), so P now holds the inverse.  P must
 * have been made against a level of L's current size. */
void ff_patch_apply(ff_level *l, ff_patch *p);

/* For mutators: saves the costs of cells [x, x+w) x [y, y+h) and, when
 * META, the meta of L into P (P must be empty).  FF_E_NOMEM leaves P
 * empty. */
ff_err ff_patch_save(ff_patch *p, const ff_level *l, int x, int y, int w, int h,
		     bool meta);
/* The same for the layers in WHAT (FF_PATCH_CELLS, FF_PATCH_DYN). */
ff_err ff_patch_save_layers(ff_patch *p, const ff_level *l, int x, int y, int w, int h,
			    unsigned what, bool meta);

#endif
