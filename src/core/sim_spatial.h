/*
 * sim_spatial.h - a uniform grid of one-cell buckets over the level, rebuilt
 * every tick by a counting sort (O(N + cells), no allocation; rows without
 * points cost nothing when their run start has not changed, so a few
 * agents on a large level cost little).
 *
 * After ff_spatial_build() the points are stored bucket by bucket in
 * row-major cell order, and within a bucket in key order (input order
 * when there are no keys), whatever order they came in.  Because buckets
 * are cells in row-major order, the points of cells (x0..x1, y) form one
 * contiguous run: [start[y*w + x0], start[y*w + x1 + 1]).  That is the whole
 * query interface: callers walk the runs of the rows they need.
 *
 * The struct is embedded by its owner (init/fini); its fields are read-only
 * to everyone else.
 */
#ifndef FF_SIM_SPATIAL_H
#define FF_SIM_SPATIAL_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* The point arrays hold this many slots past the last point, filled with
 * far-away positions, so a reader may load a fixed-size group of slots
 * from anywhere in a run and mask off the ones past it. */
#define FF_SPATIAL_PAD 4

typedef struct ff_spatial {
	int w, h;
	size_t cap;           /* points the buffers hold (plus the pad) */
	uint32_t *start;      /* w*h + 1 run starts; start[w*h] = n */
	uint32_t *idx;        /* input index of each sorted point */
	uint32_t *key;        /* and its key (its input index without keys) */
	float *x, *y;         /* sorted copies of the positions */
	float *vx, *vy;       /* and of the velocities */
	uint32_t *cell;       /* scratch: each input point's cell */
	uint32_t *rows;       /* h: points in each row (scratch), then
			       * for a row without any the run start all
			       * its cells hold, else UINT32_MAX */
	int max_per_cell;     /* largest bucket of the last build */
} ff_spatial;

/* Sets up a W x H grid for up to CAP points.  FF_E_NOMEM leaves S empty
 * (ff_spatial_fini is still safe). */
ff_err ff_spatial_init(ff_spatial *s, int w, int h, size_t cap);
/* Frees the buffers; safe on a zeroed or failed struct. */
void ff_spatial_fini(ff_spatial *s);
/* Grows the point buffers to hold CAP points (never shrinks).  FF_E_NOMEM
 * leaves S as it was. */
ff_err ff_spatial_reserve(ff_spatial *s, size_t cap);
/* What a build sorts: N <= cap points (X[i], Y[i]), each inside [0,w) x
 * [0,h), with velocities (VX[i], VY[i]), leaving out those whose TAG[i]
 * is SKIP (none when TAG is NULL), each bucket in the order of the
 * distinct KEY[i] (of I when KEY is NULL). */
typedef struct ff_spatial_in {
	const double *x, *y, *vx, *vy;
	size_t n;
	const uint8_t *tag;
	uint8_t skip;
	const uint32_t *key;
} ff_spatial_in;

/* Sorts IN into buckets.  Returns how many points it holds.  Never
 * allocates. */
size_t ff_spatial_build(ff_spatial *s, const ff_spatial_in *in);

/* The same in PARTS parts: part P sorts the points of rows h * P / PARTS
 * to h * (P + 1) / PARTS - 1 into ACC, and touches nothing of the other
 * rows' (nor of their points), so the parts may run at once on different
 * threads; ff_spatial_build_end() then takes the PARTS accounts and
 * returns how many points the grid holds.  The grid is the same bytes as
 * ff_spatial_build()'s whatever PARTS is. */
typedef struct ff_spatial_acc {
	uint32_t end;                /* points in rows up to the part's last */
	uint32_t most;               /* largest bucket in the part */
} ff_spatial_acc;
void ff_spatial_build_part(ff_spatial *s, const ff_spatial_in *in, int part, int parts,
			   ff_spatial_acc *acc);
size_t ff_spatial_build_end(ff_spatial *s, const ff_spatial_acc *acc, int parts);

/* The inputs of the first N points were moved into the grid's order: the
 * point at K is now input K. */
void ff_spatial_renumber(ff_spatial *s, size_t n);

#endif
