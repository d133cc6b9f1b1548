/*
 * sim_spatial.c - the counting sort behind the neighbour grid: count points per
 * cell, turn counts into run ends by a prefix sum, then place points from
 * the last to the first so each run ends up starting at its own start and
 * keeps input order.  A row without points is one run start throughout;
 * it is written only when that start changed.  FF_SPATIAL_PAD slots past
 * the last point are refilled with far-away points on every build.  A
 * build may be cut into bands of rows, each counting, summing and placing
 * its own points (its sums start at the number of points above it, which
 * it counts too), so that two threads can share it.  With keys, a bucket
 * whose points came out of key order is then put in order by insertion
 * (buckets hold a few points; input nearly in the grid's order has few
 * out of place), or by heapsort when a bucket has too many out of place
 * for that to be cheap.
 */
#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sim_spatial.h"

/* Insertion moves per point of a bucket beyond which it is heapsorted. */
#define FF_SPATIAL_MOVES 8

ff_err ff_spatial_init(ff_spatial *s, int w, int h, size_t cap)
{
	memset(s, 0, sizeof *s);
	if (w < 1 || h < 1)
		return FF_E_INVAL;
	s->w = w;
	s->h = h;
	s->start = calloc((size_t)w * (size_t)h + 1, sizeof *s->start);
	s->rows = malloc((size_t)h * sizeof *s->rows);
	if (!s->start || !s->rows)
		return FF_E_NOMEM;
	/* start[] is all 0: so is each row's run start */
	memset(s->rows, 0, (size_t)h * sizeof *s->rows);
	return ff_spatial_reserve(s, cap ? cap : 1);
}

void ff_spatial_fini(ff_spatial *s)
{
	free(s->start);
	free(s->idx);
	free(s->key);
	free(s->x);
	free(s->y);
	free(s->vx);
	free(s->vy);
	free(s->cell);
	free(s->rows);
	memset(s, 0, sizeof *s);
}

ff_err ff_spatial_reserve(ff_spatial *s, size_t cap)
{
	uint32_t *idx, *key, *cell;
	float *x, *y, *vx, *vy;

	if (cap <= s->cap)
		return FF_OK;
	if (cap > UINT32_MAX - FF_SPATIAL_PAD)
		return FF_E_NOMEM;
	idx = malloc((cap + FF_SPATIAL_PAD) * sizeof *idx);
	key = malloc((cap + FF_SPATIAL_PAD) * sizeof *key);
	cell = malloc(cap * sizeof *cell);
	x = malloc((cap + FF_SPATIAL_PAD) * sizeof *x);
	y = malloc((cap + FF_SPATIAL_PAD) * sizeof *y);
	vx = malloc((cap + FF_SPATIAL_PAD) * sizeof *vx);
	vy = malloc((cap + FF_SPATIAL_PAD) * sizeof *vy);
	if (!idx || !key || !cell || !x || !y || !vx || !vy) {
		free(idx);
		free(key);
		free(cell);
		free(x);
		free(y);
		free(vx);
		free(vy);
		return FF_E_NOMEM;
	}
	/* Contents are rebuilt every tick; nothing to copy. */
	free(s->idx);
	free(s->key);
	free(s->cell);
	free(s->x);
	free(s->y);
	free(s->vx);
	free(s->vy);
	s->idx = idx;
	s->key = key;
	s->cell = cell;
	s->x = x;
	s->y = y;
	s->vx = vx;
	s->vy = vy;
	s->cap = cap;
	return FF_OK;
}

/* Swaps the points at J and K. */
static void swap_at(ff_spatial *s, uint32_t j, uint32_t k)
{
	uint32_t i = s->idx[j], key = s->key[j];
	float x = s->x[j], y = s->y[j], vx = s->vx[j], vy = s->vy[j];

	s->idx[j] = s->idx[k];
	s->key[j] = s->key[k];
	s->x[j] = s->x[k];
	s->y[j] = s->y[k];
	s->vx[j] = s->vx[k];
	s->vy[j] = s->vy[k];
	s->idx[k] = i;
	s->key[k] = key;
	s->x[k] = x;
	s->y[k] = y;
	s->vx[k] = vx;
	s->vy[k] = vy;
}

/* Sifts the point at K of the heap [A, B) (children of A + i at
 * A + 2i + 1 and A + 2i + 2) down to its place. */
static void sift(ff_spatial *s, uint32_t a, uint32_t k, uint32_t b)
{
	for (;;) {
		uint64_t c = 2 * (uint64_t)(k - a) + 1 + a;
		uint32_t top = k;

		if (c < b && s->key[c] > s->key[top])
			top = (uint32_t)c;
		if (c + 1 < b && s->key[c + 1] > s->key[top])
			top = (uint32_t)c + 1;
		if (top == k)
			return;
		swap_at(s, k, top);
		k = top;
	}
}

/* Puts points [A, B) in key order by heapsort: the keys are distinct, so
 * the same order as insertion gives, in O(n log n) however they came. */
static void heap_order(ff_spatial *s, uint32_t a, uint32_t b)
{
	for (uint32_t k = a + (b - a) / 2; k-- > a;)
		sift(s, a, k, b);
	for (uint32_t e = b; e-- > a + 1;) {
		swap_at(s, a, e);
		sift(s, a, a, e);
	}
}

/* Puts each bucket among points [FROM, TO) in key order: by insertion,
 * which moves each point past those before it with greater keys (few,
 * for input nearly in the grid's order), unless a bucket's moves come to
 * FF_SPATIAL_MOVES times its points so far (a pile of thousands whose
 * keys came in mixed, as from a crowd ejected onto one cell, would take
 * some n^2 / 4): that bucket is heapsorted. */
static void key_order(ff_spatial *s, uint32_t from, uint32_t to)
{
	uint32_t a = from;        /* the bucket MOVES counts, from its start */
	uint64_t moves = 0;

	for (uint32_t k = from + 1; k < to; k++) {
		uint32_t c, j = k, b = k + 1;

		if (s->key[k - 1] < s->key[k] || s->cell[s->idx[k - 1]] != (c = s->cell[s->idx[k]]))
			continue;
		if (s->cell[s->idx[a]] != c) {
			for (a = k - 1; a > from && s->cell[s->idx[a - 1]] == c; a--)
				;
			moves = 0;
		}
		for (; j > a && s->key[j - 1] > s->key[j]; j--)
			swap_at(s, j - 1, j);
		moves += k - j;
		if (moves < FF_SPATIAL_MOVES * (uint64_t)(k + 1 - a))
			continue;
		while (b < to && s->cell[s->idx[b]] == c)
			b++;
		heap_order(s, a, b);
		k = b - 1;
	}
}

void ff_spatial_build_part(ff_spatial *s, const ff_spatial_in *in, int part, int parts,
			   ff_spatial_acc *acc)
{
	size_t w = (size_t)s->w;
	uint32_t *start = s->start, below = 0, sum, most = 0;
	int r0 = (int)((long)s->h * part / parts), r1 = (int)((long)s->h * (part + 1) / parts);

	/* Rows with points are counted cell by cell; a row without any holds
	 * its run start in every cell, and is left alone when it already
	 * does (s->rows[] says which start it holds, or UINT32_MAX for a row
	 * that had points: counted from zero again). */
	for (int r = r0; r < r1; r++)
		if (s->rows[r] == UINT32_MAX)
			memset(start + (size_t)r * w, 0, w * sizeof *start);
	for (size_t i = 0; i < in->n; i++) {
		int cx = (int)in->x[i], cy = (int)in->y[i];

		assert(cx >= 0 && cx < s->w && cy >= 0 && cy < s->h);
		if (in->tag && in->tag[i] == in->skip)
			continue;
		if (cy < r0 || cy >= r1) {
			below += cy < r0;
			continue;
		}
		s->cell[i] = (uint32_t)cy * (uint32_t)s->w + (uint32_t)cx;
		if (s->rows[cy] != UINT32_MAX) {
			memset(start + (size_t)cy * w, 0, w * sizeof *start);
			s->rows[cy] = UINT32_MAX;
		}
		start[s->cell[i]]++;
	}
	sum = below;
	for (int r = r0; r < r1; r++) {
		uint32_t *row = start + (size_t)r * w;
		bool occupied = false;

		if (s->rows[r] != UINT32_MAX) {
			/* no point in it this tick nor, as it stands, before */
			if (s->rows[r] != sum)
				for (size_t c = 0; c < w; c++)
					row[c] = sum;
			s->rows[r] = sum;
			continue;
		}
		for (size_t c = 0; c < w; c++) {
			occupied = occupied || row[c];
			if (row[c] > most)
				most = row[c];
			sum += row[c];
			row[c] = sum;     /* end of run c for now */
		}
		/* a row emptied this tick: the start it holds after the
		 * placing below is SUM in every cell */
		if (!occupied)
			s->rows[r] = sum;
	}
	for (size_t i = in->n; i-- > 0;) {
		int cy = (int)in->y[i];
		uint32_t k;

		if (cy < r0 || cy >= r1 || (in->tag && in->tag[i] == in->skip))
			continue;
		k = --start[s->cell[i]];
		s->idx[k] = (uint32_t)i;
		s->key[k] = in->key ? in->key[i] : (uint32_t)i;
		s->x[k] = (float)in->x[i];
		s->y[k] = (float)in->y[i];
		s->vx[k] = (float)in->vx[i];
		s->vy[k] = (float)in->vy[i];
	}
	if (in->key)
		key_order(s, below, sum);
	acc->end = sum;
	acc->most = most;
}

size_t ff_spatial_build_end(ff_spatial *s, const ff_spatial_acc *acc, int parts)
{
	uint32_t sum = acc[parts - 1].end;
	int most = 0;

	s->start[(size_t)s->w * (size_t)s->h] = sum;
	/* The pad: far from everything, never in reach of anyone. */
	for (size_t k = sum; k < (size_t)sum + FF_SPATIAL_PAD; k++) {
		s->idx[k] = 0;
		s->key[k] = UINT32_MAX;
		s->x[k] = s->y[k] = -1e30f;
		s->vx[k] = s->vy[k] = 0;
	}
	for (int p = 0; p < parts; p++)
		most = (int)acc[p].most > most ? (int)acc[p].most : most;
	s->max_per_cell = most;
	return sum;
}

size_t ff_spatial_build(ff_spatial *s, const ff_spatial_in *in)
{
	ff_spatial_acc acc;

	assert(in->n <= s->cap);
	ff_spatial_build_part(s, in, 0, 1, &acc);
	return ff_spatial_build_end(s, &acc, 1);
}

void ff_spatial_renumber(ff_spatial *s, size_t n)
{
	for (size_t k = 0; k < n; k++)
		s->idx[k] = (uint32_t)k;
}
