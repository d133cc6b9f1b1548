/*
 * level_dyn.h - the dynamic layer: per cell, an offset added to the painted
 * cost or a temporary wall, kept apart from the terrain so that a door can
 * close, a bridge go down or a zone cost more for a while and be cleared
 * again without touching what was painted.  The solver sums the layers
 * (cost.h); the text level keeps the layer as 'dyn' lines.
 *
 * A layer value is 0 (nothing), 1..254 (the offset) or FF_WALL.  Its word,
 * in commands and files alike, is "+N" or "wall".
 */
#ifndef FF_LEVEL_DYN_H
#define FF_LEVEL_DYN_H

#include "level.h"
#include "level_patch.h"

#define FF_DYN_WORDS "+N (N " FF_COST_RANGE ") or wall"

/* Reads a value word, "+N" with N 1..254 or "wall", into *VALUE; false
 * (nothing written) for anything else. */
bool ff_dyn_parse(const char *word, int *value);
/* The word of VALUE (1..254 or FF_WALL) in BUF, which it returns. */
const char *ff_dyn_word(int value, char buf[8]);

/* True when no cell of L has anything on the layer. */
bool ff_level_dyn_empty(const ff_level *l);
/* Sets the layer of every cell of SHAPE to VALUE (0 clears them).  A cell
 * or rect must lie inside the level, a circle's centre (it is clipped).
 * FF_E_INVAL for a bad value or shape, FF_E_RANGE outside, FF_E_NOMEM;
 * the level is unchanged on error.  UNDO as for every mutator (level.h). */
ff_err ff_level_dyn_set(ff_level *l, const ff_shape *shape, int value,
			struct ff_patch *undo);
/* Clears the whole layer; UNDO stays empty when there was nothing on it. */
ff_err ff_level_dyn_clear(ff_level *l, struct ff_patch *undo);

#endif
