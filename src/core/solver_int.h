/*
 * solver_int.h - the solver's private state, shared by solver.c (lifecycle,
 * stepping, queries), dijkstra.c, fmm.c and repair.c.  Not part of the API.
 *
 * Layout: every per-cell array is padded with a one-cell border of walls,
 * so neighbour loops need no bounds checks.  Padded index p = (y+1)*W + x+1
 * with W = w + 2.  Per cell: cost (1 byte), val (float, 4), dir (1), flag (1)
 * and about one queue entry (int32, 4): 11 bytes.
 *
 * The queue is a circular bucket queue of FF_RING buckets of width 1/kscale
 * (kscale = 1 for Dijkstra, whose smallest step costs 1, so a bucket never
 * receives entries while it is being settled).  Buckets are singly linked
 * chains of fixed-size blocks taken from one pool allocated at create time.
 * Keys beyond the ring's window go to an overflow chain, rescanned when the
 * ring runs empty (only repair seeds ever need it).  A cell may sit in more
 * than one bucket; only the entry whose bucket equals bucket(val) and that
 * is not yet settled is live, so stale entries are skipped, never removed.
 */
#ifndef FF_SOLVER_INT_H
#define FF_SOLVER_INT_H

#include <limits.h>
#include <math.h>
#include <stdint.h>

#include "solver.h"

#define FF_RING 1024                    /* buckets; a power of two */
#define FF_RING_MASK (FF_RING - 1)
#define FF_KEY_MAX 2000000000.0         /* keys above this are clamped */

enum { FL_SETTLED = 1, FL_INA = 2, FL_CHECKED = 4 };

typedef struct ff_bucket {
	int32_t head, tail;                 /* blocks, -1 when empty */
	int32_t fill;                       /* entries used in the tail block */
} ff_bucket;

struct ff_solver {
	int w, h, W;                        /* W = w + 2 */
	size_t np;                          /* (w + 2) * (h + 2) */
	uint8_t *cost;                      /* padded copy of the level costs */
	double *val;                        /* integration field, INF unreached */
	uint8_t *dir;                       /* FF_DIR_* per cell */
	uint8_t *flag;                      /* FL_* bits */

	/* bucket queue */
	int32_t *ent;                       /* nblk * bs entries */
	int32_t *bnext;                     /* block chain links */
	int bs, nblk;
	int32_t freeblk, fresh, fresh_lim;  /* free chain; bump allocator */
	ff_bucket ring[FF_RING];
	ff_bucket ovf;
	long ovf_min;                       /* smallest key sent to overflow */
	bool qfail;                         /* a push found no block */
	bool qcheck;                        /* repair: live = not INA/CHECKED */
	bool track;                         /* repair: keep a box of settled cells */
	int bx0, by0, bx1, by1;             /* that box, padded coordinates */
	long qcount;                        /* entries in the ring, stale too */
	long kcur;                          /* bucket being settled */
	int32_t cur_blk, cur_pos;           /* iterator in bucket kcur */
	double kscale;                      /* bucket = floor(val * kscale) */

	/* the solve in progress */
	const ff_level *lvl;
	ff_solver_opts opts;
	ff_shape goals[FF_GOALS_MAX];
	int ngoals, bad_goal;
	ff_phase phase;
	bool fused;                         /* one-shot: flow while settling */
	bool have_result;
	long settled, frontier;
	int32_t last, last_from;
	size_t flow_pos;                    /* FLOW phase progress */
	double ostep[256], dstep[256];       /* step cost by entered cost */
};

static inline long ffq_key(const ff_solver *s, double v)
{
	double k = v * s->kscale;
	return k < FF_KEY_MAX ? (long)k : (long)FF_KEY_MAX;
}

bool ffq_grow(ff_solver *s, ff_bucket *b);

/* Appends cell C to the bucket for key K (>= kcur). */
static inline void ffq_push(ff_solver *s, int32_t c, long k)
{
	ff_bucket *b = k - s->kcur < FF_RING ? &s->ring[k & FF_RING_MASK] : &s->ovf;

	if (b->fill == s->bs || b->tail < 0) {
		if (!ffq_grow(s, b))
			return;
	}
	s->ent[(size_t)b->tail * (size_t)s->bs + (size_t)b->fill++] = c;
	if (b != &s->ovf)
		s->qcount++;
	else if (k < s->ovf_min)
		s->ovf_min = k;
}

/* Lowers cell N to value NV (< its current value) and queues it. */
static inline void ffq_lower(ff_solver *s, int32_t n, double old, double nv)
{
	long k = ffq_key(s, nv);

	s->val[n] = nv;
	if (old == INFINITY) {
		s->frontier++;
		ffq_push(s, n, k);
	} else if (k != ffq_key(s, old) || (s->flag[n] & FL_SETTLED)) {
		if (s->flag[n] & FL_SETTLED) {      /* repair reopens it */
			s->flag[n] &= (uint8_t)~FL_SETTLED;
			s->frontier++;
			s->settled--;
		}
		ffq_push(s, n, k);
	}
}

/* queue */
void ffq_reset(ff_solver *s);
/* Next live cell in key order: -1 when the queue is empty, -2 when the
 * next live cell's key is above KMAX (nothing is consumed then). */
int32_t ffq_pop(ff_solver *s, long kmax);

/* the passes; each settles at most N cells (N < 0: no limit) and returns
 * true when the integration is complete.  WAVE: stop at a bucket end. */
bool ff_dijkstra_run(ff_solver *s, long n, bool wave);
bool ff_fmm_run(ff_solver *s, long n, bool wave);
/* Flow direction of padded cell P from the final values. */
uint8_t ff_dijkstra_dir(const ff_solver *s, int32_t p);
uint8_t ff_fmm_dir(const ff_solver *s, int32_t p);
/* Neighbour offsets in FF_DIR_* order; whether the step from P towards D
 * is allowed (target passable, no corner cut). */
const int32_t *ff_dijkstra_offsets(const ff_solver *s, int32_t off[8]);
bool ff_dijkstra_step_ok(const ff_solver *s, int32_t p, int d, const int32_t *off);
void ff_fmm_grad(const ff_solver *s, int32_t p, float *dx, float *dy);
/* Seeds the goal cells; fills COST first. */
void ff_solver_seed(ff_solver *s);
bool ff_solver_is_goal(const ff_solver *s, int x, int y);
/* Flow for padded cells [from, to). */
void ff_solver_flow_range(ff_solver *s, size_t from, size_t to);

static inline int32_t ffs_index(const ff_solver *s, int x, int y)
{
	return (int32_t)((y + 1) * s->W + x + 1);
}

#endif
