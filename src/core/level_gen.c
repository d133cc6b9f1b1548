/*
 * level_gen.c - generated levels for tests and benchmarks (see level_gen.h).  Writes the
 * cells of a level it has just created; every cost it uses is in the
 * default palette, so the level invariants hold.
 */
#include <string.h>

#include "level_gen.h"

uint64_t ff_gen_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint32_t below(uint64_t *st, uint32_t n)
{
	return (uint32_t)(((ff_gen_rand(st) >> 32) * (uint64_t)n) >> 32);
}

const char *ff_gen_name(ff_gen_kind kind)
{
	static const char *const names[FF_GEN__COUNT] = {
		"open", "random20", "rooms", "weighted"
	};
	return (unsigned)kind < FF_GEN__COUNT ? names[kind] : "?";
}

static void gen_rooms(ff_level *l, uint64_t *st)
{
	const int room = 16;

	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++)
			if (y % room == 0 || x % room == 0)
				l->cells[(size_t)y * (size_t)l->w + (size_t)x] = FF_WALL;
	for (int ry = 0; ry < l->h; ry += room)
		for (int rx = 0; rx < l->w; rx += room) {
			int dy = ry + 1 + (int)below(st, room - 1);
			int dx = rx + 1 + (int)below(st, room - 1);
			if (rx + room < l->w && dy < l->h)
				l->cells[(size_t)dy * (size_t)l->w + (size_t)(rx + room)] = 1;
			if (ry + room < l->h && dx < l->w)
				l->cells[(size_t)(ry + room) * (size_t)l->w + (size_t)dx] = 1;
		}
}

/* Blobs: random discs of one terrain each, then scattered walls. */
static void gen_weighted(ff_level *l, uint64_t *st)
{
	static const uint8_t costs[] = {2, 3, 5, 20};
	long nblobs = (long)l->w * l->h / 400 + 1;

	for (long i = 0; i < nblobs; i++) {
		int cx = (int)below(st, (uint32_t)l->w), cy = (int)below(st, (uint32_t)l->h);
		int r = 2 + (int)below(st, 12);
		uint8_t c = costs[below(st, 4)];
		for (int y = cy - r; y <= cy + r; y++)
			for (int x = cx - r; x <= cx + r; x++)
				if (ff_level_in(l, x, y) &&
				    (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r)
					l->cells[(size_t)y * (size_t)l->w + (size_t)x] = c;
	}
	for (size_t i = 0; i < (size_t)l->w * (size_t)l->h; i++)
		if (below(st, 20) == 0)
			l->cells[i] = FF_WALL;
}

ff_level *ff_gen_level(ff_gen_kind kind, int w, int h, uint64_t seed)
{
	ff_level *l;
	uint64_t st = seed;
	ff_shape goal = {FF_SHAPE_CELL, w / 2, h / 2, 0, 0, 0};

	if ((unsigned)kind >= FF_GEN__COUNT)
		return NULL;
	l = ff_level_create(w, h, ff_gen_name(kind));
	if (!l)
		return NULL;
	if (kind == FF_GEN_RANDOM20) {
		for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
			if (below(&st, 5) == 0)
				l->cells[i] = FF_WALL;
	} else if (kind == FF_GEN_ROOMS) {
		gen_rooms(l, &st);
	} else if (kind == FF_GEN_WEIGHTED) {
		gen_weighted(l, &st);
	}
	for (int y = h / 2 - 1; y <= h / 2 + 1; y++)
		for (int x = w / 2 - 1; x <= w / 2 + 1; x++)
			if (ff_level_in(l, x, y))
				l->cells[(size_t)y * (size_t)w + (size_t)x] = 1;
	ff_level_changed(l);
	l->meta.goals[0] = goal;
	l->meta.ngoals = 1;
	return l;
}

bool ff_gen_centre_cell(const ff_level *l, int *x, int *y)
{
	int cx = l->w / 2, cy = l->h / 2, rmax = l->w > l->h ? l->w : l->h;

	for (int r = 0; r <= rmax; r++)
		for (int j = cy - r; j <= cy + r; j++)
			for (int i = cx - r; i <= cx + r; i++) {
				if (j != cy - r && j != cy + r && i != cx - r && i != cx + r)
					continue;
				if (ff_level_in(l, i, j) && ff_level_cost(l, i, j) != FF_WALL) {
					*x = i, *y = j;
					return true;
				}
			}
	return false;
}
