/*
 * level_dyn.c - the dynamic layer's mutators and its value words.  Each
 * mutator validates, saves the layer's rectangle it will change into the
 * undo patch, then writes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level_dyn.h"

bool ff_dyn_parse(const char *word, int *value)
{
	char *end;
	long v;

	if (!strcmp(word, "wall")) {
		*value = FF_WALL;
		return true;
	}
	if (word[0] != '+' || word[1] < '0' || word[1] > '9')
		return false;
	errno = 0;
	v = strtol(word + 1, &end, 10);
	if (*end || errno || v < 1 || v > FF_COST_MAX)
		return false;
	*value = (int)v;
	return true;
}

const char *ff_dyn_word(int value, char buf[8])
{
	if (value == FF_WALL)
		snprintf(buf, 8, "wall");
	else
		snprintf(buf, 8, "+%d", value);
	return buf;
}

/* The box of L's cells that hold something: false when none do. */
static bool used_box(const ff_level *l, int *x0, int *y0, int *x1, int *y1)
{
	*x0 = l->w, *y0 = l->h, *x1 = -1, *y1 = -1;
	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++)
			if (ff_level_dyn(l, x, y)) {
				*x0 = x < *x0 ? x : *x0, *x1 = x > *x1 ? x : *x1;
				*y0 = y < *y0 ? y : *y0, *y1 = y;
			}
	return *x1 >= 0;
}

bool ff_level_dyn_empty(const ff_level *l)
{
	int x0, y0, x1, y1;

	return !used_box(l, &x0, &y0, &x1, &y1);
}

ff_err ff_level_dyn_set(ff_level *l, const ff_shape *s, int value, ff_patch *undo)
{
	ff_err err = ff_level_check_shape(l, s, true);
	int x0, y0, x1, y1;

	if (value < 0 || value > FF_WALL)
		return FF_E_INVAL;
	if (err && err != FF_E_WALL)     /* walls under it are no matter */
		return err;
	ff_shape_clip(l, s, &x0, &y0, &x1, &y1);
	if (undo && (err = ff_patch_save_layers(undo, l, x0, y0, x1 - x0 + 1, y1 - y0 + 1,
						FF_PATCH_DYN, false)))
		return err;
	for (int y = y0; y <= y1; y++)
		for (int x = x0; x <= x1; x++)
			if (ff_shape_contains(s, x, y))
				l->dyn[(size_t)y * (size_t)l->w + (size_t)x] = (uint8_t)value;
	ff_level_changed(l);
	return FF_OK;
}

ff_err ff_level_dyn_clear(ff_level *l, ff_patch *undo)
{
	int x0, y0, x1, y1;
	ff_err err;

	if (!used_box(l, &x0, &y0, &x1, &y1))
		return FF_OK;
	if (undo && (err = ff_patch_save_layers(undo, l, x0, y0, x1 - x0 + 1, y1 - y0 + 1,
						FF_PATCH_DYN, false)))
		return err;
	memset(l->dyn, 0, (size_t)l->w * (size_t)l->h);
	ff_level_changed(l);
	return FF_OK;
}
