/*
 * solver_int.h - the solver's private state, shared by solver.c (lifecycle,
 * stepping, queries), solver_dijkstra.c, solver_fmm.c and solver_repair.c.  Not part of the API.
 *
 * Layout: every per-cell array is padded with a one-cell border of walls,
 * so neighbour loops need no bounds checks.  Padded index p = (y+1)*W + x+1
 * with W = w + 2.  Per cell: cost (1 byte), val (double, 8) and one byte
 * `cf` holding the flow direction (low 4 bits, CF_NODIR for none) and the
 * flags (settled, the repair marks): 10 bytes, the field itself (10.05
 * at 1024x1024 with the padding).  The queue's workspace (struct
 * ff_solver_work: the pool of 3/8 of an entry (int32) per cell, the ring,
 * the stage, and the second thread with its ring and lists, solver_par.h)
 * is live only while a solve, a repair or a value query runs: 1.79 bytes
 * per cell more at 1024x1024, 11.83 in all.  Solvers never used at once
 * may share one (ff_solver_create_shared: the fields of a level's groups
 * do), docs/solver.md.
 *
 * The queue is a circular bucket queue of FF_RING buckets of width 1/kscale
 * (kscale = 1 for Dijkstra, whose smallest step costs 1, so a bucket never
 * receives entries while it is being settled).  Buckets are singly linked
 * chains of fixed-size blocks taken from one pool allocated at create time.
 * Keys beyond the ring's window go to an overflow chain, rescanned when the
 * ring runs empty (only repair seeds ever need it).  A cell may sit in more
 * than one bucket; only the entry whose bucket equals bucket(val) and that
 * is not yet settled is live, so stale entries are skipped, never removed.
 *
 * The pool holds fewer entries than cells.  When it runs dry even after the
 * stale entries are dropped, the queue "spills": the highest buckets are
 * emptied and klim is set to their lowest key; from then on a cell whose
 * key is >= klim is not stored at all (its value is, so nothing is lost),
 * and when the settling reaches klim the grid is scanned for the unsettled
 * reached cells, which are queued again.  Ordinary levels never spill; a
 * spill costs time, never correctness.
 */
#ifndef FF_SOLVER_INT_H
#define FF_SOLVER_INT_H

#include <limits.h>
#include <math.h>
#include <stdint.h>

#include "cost.h"
#include "solver.h"

/* Buckets in the ring, a power of two above the largest step in buckets:
 * Dijkstra's 254 * sqrt 2 and FMM's 8 * 254 / cmin (its buckets are
 * cmin/8 wide; a two-thread solve cannot send keys to the overflow). */
#define FF_RING 2048
#define FF_RING_MASK (FF_RING - 1)
#define FF_KEY_MAX 2000000000.0         /* keys above this are clamped */
/* Cheapest-step sums within this of the cell's value (relative) are equal
 * for choosing an arrow: the sums of two shortest paths, equal in exact
 * arithmetic, differ by their rounding (about 1e-16 per step added). */
#define FF_ARROW_TOL 0x1p-40
/* Rows from padded indices without a division: p / W == (p * wmagic) >>
 * FF_WSHIFT, wmagic = 2^FF_WSHIFT / W + 1 (solver_par.c says why it is
 * exact). */
#define FF_WSHIFT 48

/* The hot loops are built from small helpers that must be inlined. */
#if defined(__GNUC__)
#define FF_HOT static inline __attribute__((always_inline))
#else
#define FF_HOT static inline
#endif

/* cf byte: direction in the low 4 bits, then the flags */
enum {
	CF_DIR = 0x0f, CF_NODIR = 0x0f,
	FL_SETTLED = 0x10, FL_INA = 0x20, FL_CHECKED = 0x40,
	FL_LOS = 0x80                       /* sees its goal (solver_los.c) */
};

/* What a one-shot Dijkstra settle lowered, queued a batch at a time
 * (solver_dijkstra.c): N of the FF_STAGE entries at C, pairs of a settled cell
 * and the mask of its lowered neighbours.  A local of the settle loop, so
 * that N stays in a register. */
#define FF_STAGE 4096
typedef struct ff_stage {
	int32_t *c;
	long n;
} ff_stage;

typedef struct ff_bucket {
	int32_t head, tail;                 /* blocks, -1 when empty */
	int32_t fill;                       /* entries used in the tail block */
} ff_bucket;

/* The queue's workspace: what a solve or a repair works in and leaves
 * nothing in that the next one reads (every one begins with ffq_reset()),
 * so that solvers never used at once can share it (solver.h). */
struct ff_solver_work {
	int w, h;
	int bs, nblk;
	int32_t *ent;                       /* nblk * bs entries */
	int32_t *bnext;                     /* block chain links */
	struct ff_par *par;                 /* the second thread, or NULL */
	int users;                          /* solvers made on it */
	ff_bucket ring[FF_RING];
	int32_t stage[FF_STAGE];            /* thread 0's (ff_stage) */
};

struct ff_solver {
	int w, h, W;                        /* W = w + 2 */
	size_t np;                          /* (w + 2) * (h + 2) */
	uint8_t *cost;                      /* padded effective costs (cost.h) */
	double *val;                        /* integration field, INF unreached */
	uint8_t *cf;                        /* direction | FL_* per cell */

	/* bucket queue: the workspace's buffers (copied from WORK, which
	 * the solver owns or borrows), and the queue's state in them */
	ff_solver_work *work;               /* NULL: hier_only */
	bool own_work;                      /* made by ff_solver_create() */
	int32_t *ent, *bnext;
	ff_bucket *ring;                    /* FF_RING buckets */
	int32_t *stage;                     /* FF_STAGE */
	int bs, nblk;
	int32_t freeblk, fresh, fresh_lim;  /* free chain; bump allocator */
	ff_bucket ovf;
	long ovf_min;                       /* smallest key sent to overflow */
	long klim;                          /* spilled: keys >= klim not stored */
	bool qfail;                         /* a push found no block */
	bool qcheck;                        /* repair: live = not INA/CHECKED */
	bool track;                         /* repair: keep a box of settled cells */
	int bx0, by0, bx1, by1;             /* that box, padded coordinates */
	long qcount;                        /* entries in the ring, stale too */
	long kcur;                          /* bucket being settled */
	int32_t cur_blk, cur_pos;           /* iterator in bucket kcur */
	int32_t acc_blk, acc_pos;           /* FMM: end of its accepted cells */
	double kscale;                      /* bucket = floor(val * kscale) */
	long spills;                        /* grid rescans so far (tests) */
	long open_runs;                     /* solves by sweeps so far (tests) */

	/* the solve in progress */
	const ff_level *lvl;
	ff_costs costs;                     /* how cost[] was built from lvl */
	const uint16_t *crowd;              /* the crowd term, or NULL (set by
					       ff_solver_set_crowd) */
	int cls;                            /* movement class solved for (set
					       by ff_solver_set_class) */
	ff_solver_opts opts;
	ff_shape goals[FF_GOALS_MAX];
	int ngoals, bad_goal;
	ff_phase phase;
	bool fused;                         /* one-shot: flow while settling */
	bool arrows;                        /* a one-shot Dijkstra chooses its
					       arrows (not for values alone) */
	/* ff_solver_values_at(), while it runs (partial): the NALL cells
	 * whose values are asked for (padded indices), the first NWANT of
	 * them not yet seen settled (ff_solver_seed() starts them again) */
	bool partial;
	bool far;                           /* they are far: open ground may be
					       solved whole (solver.c) */
	int nall, nwant;
	int32_t want[FF_WANT_MAX];
	bool have_result;
	long settled, frontier;
	int32_t last;                       /* the last settled cell, or -1 */
	size_t flow_pos;                    /* FLOW phase progress */
	double ostep[256], dstep[256];       /* step cost by entered cost */

	/* the second thread of one-shot solves (solver_par.c), the work's */
	struct ff_par *par;                 /* NULL: one thread only */
	int threads;                        /* ff_solver_set_threads() */
	uint64_t wmagic;                    /* p / W == (p * wmagic) >> FF_WSHIFT */
	long par_rounds, par_worker;        /* two-part rounds, and those whose
					       second part the worker did */
	long par_falls;                     /* fallbacks to one thread (tests) */

	/* the hierarchical field (solver_hier.h): made at its first solve, or
	 * by ff_solver_create_hier(), whose solver has no buffers above */
	struct ff_hier *hier;
	bool hier_only;

	/* line of sight (opts.los): the goal cell each cell's way leads to
	 * (only when there is more than one), made at the first such solve */
	int32_t los_goal;                   /* the one goal cell, or -1 */
	int32_t *los_t;
	int64_t *los_scratch;
	long los_cells;                     /* cells that see their goal */
};

/* Whether the solve looks for lines of sight: asked for, and not Fast
 * Marching (its gradient has no staircase). */
static inline bool ffs_los(const ff_solver *s)
{
	return s->opts.los && s->opts.method != FF_METHOD_FMM;
}

static inline long ffq_key(const ff_solver *s, double v)
{
	double k = v * s->kscale;
	return k < FF_KEY_MAX ? (long)k : (long)FF_KEY_MAX;
}

/* A solve for the values of a few cells only (ff_solver_values_at): true
 * once every one of them is settled, so that the integration may stop
 * there.  A settled cell's value is final (Dijkstra: every later cell is
 * at least 1 higher and no step lowers it; FMM: an accepted cell is never
 * computed again), the bytes a full solve gives it.  False for a full
 * solve.  Called between buckets. */
static inline bool ffs_wanted_done(ff_solver *s)
{
	while (s->nwant > 0 && (s->cf[s->want[s->nwant - 1]] & FL_SETTLED))
		s->nwant--;
	return s->partial && s->nwant == 0;
}

/* The key of a Dijkstra value (kscale 1). */
static inline long ffq_key1(double v)
{
	return (long)(v < FF_KEY_MAX ? v : FF_KEY_MAX);
}

/* C ? A : B for C = 0 or 1, in bit operations the compiler keeps (it
 * turns some conditional expressions into branches). */
static inline unsigned ff_sel(unsigned c, unsigned a, unsigned b)
{
	return b ^ ((a ^ b) & (0u - c));
}

static inline uint8_t ffs_dir(const ff_solver *s, int32_t p)
{
	uint8_t d = s->cf[p] & CF_DIR;

	return d == CF_NODIR ? FF_DIR_NONE : d;
}

static inline void ffs_set_dir(ff_solver *s, int32_t p, uint8_t d)
{
	s->cf[p] = (uint8_t)((s->cf[p] & ~CF_DIR) | (d & CF_DIR));
}

/* Appends block NB to bucket B's chain, empty. */
static inline void ffq_link(ff_solver *s, ff_bucket *b, int32_t nb)
{
	if (b->tail >= 0)
		s->bnext[b->tail] = nb;
	else
		b->head = nb;
	b->tail = nb;
	b->fill = 0;
}

bool ffq_grow(ff_solver *s, ff_bucket *b, long k);

/* Appends cell C to the bucket for key K (>= kcur). */
static inline void ffq_push(ff_solver *s, int32_t c, long k)
{
	ff_bucket *b;

	if (k >= s->klim)
		return;
	b = k - s->kcur < FF_RING ? &s->ring[k & FF_RING_MASK] : &s->ovf;
	if (b->fill == s->bs || b->tail < 0) {
		if (!ffq_grow(s, b, k))
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
	} else if (k != ffq_key(s, old) || (s->cf[n] & FL_SETTLED)) {
		if (s->cf[n] & FL_SETTLED) {        /* repair reopens it */
			s->cf[n] &= (uint8_t)~FL_SETTLED;
			s->frontier++;
			s->settled--;
		}
		ffq_push(s, n, k);
	}
}

/* queue */
void ffq_reset(ff_solver *s);
/* Entries the pool needs for N cells, and its block size. */
void ffq_size(size_t n, int *bs, int *nblk);
/* Moves kcur to the next non-empty bucket (rescanning overflow or spilled
 * cells when due) and points cur_blk at its head; false when empty. */
bool ffq_next_bucket(ff_solver *s);
/* Frees bucket kcur after it has been settled and moves to kcur + 1. */
void ffq_drop_current(ff_solver *s);
/* Next live cell in key order: -1 when the queue is empty, -2 when the
 * next live cell's key is above KMAX (nothing is consumed then). */
int32_t ffq_pop(ff_solver *s, long kmax);

/* the passes; each settles at most N cells (N < 0: no limit) and returns
 * true when the integration is complete.  WAVE: stop at a bucket end. */
bool ff_dijkstra_run(ff_solver *s, long n, bool wave);
bool ff_fmm_run(ff_solver *s, long n, bool wave);
/* The worker thread of large solvers' workspace WK: started by
 * ff_solver_work_create() when the level has at least FF_PAR_MIN_CELLS
 * cells, at least FF_BAND rows (solver_par.h) and the machine two cores
 * (NULL otherwise or on failure), joined by ff_par_destroy(); its bytes. */
#define FF_PAR_MIN_CELLS (512 * 512)
struct ff_par *ff_par_create(ff_solver_work *wk);
void ff_par_destroy(struct ff_par *p);
size_t ff_par_bytes(const struct ff_par *p);
/* What ff_par_bytes() would be for a W x H solver that has the thread. */
size_t ff_par_bytes_for(int w, int h);
/* Flow direction of padded cell P from the final values. */
uint8_t ff_dijkstra_dir(const ff_solver *s, int32_t p);
/* Neighbour offsets in FF_DIR_* order; whether the step from P towards D
 * is allowed (target passable, no corner cut). */
const int32_t *ff_dijkstra_offsets(const ff_solver *s, int32_t off[8]);
bool ff_dijkstra_step_ok(const ff_solver *s, int32_t p, int d, const int32_t *off);
void ff_fmm_grad(const ff_solver *s, int32_t p, float *dx, float *dy);
/* Flow of the N padded cells from P on (one row), for a finished
 * integration. */
void ff_dijkstra_flow_span(ff_solver *s, int32_t p, int32_t n);
/* The cheapest-step arrows of the N padded cells from P on, with their
 * settled flag, from final values of an open level (one cost, no wall:
 * no corner is cut but where the diagonal leaves the level); returns
 * their largest value. */
double ff_dijkstra_open_span(ff_solver *s, int32_t p, int32_t n);
/* A fresh, full one-shot 8-connected Dijkstra integration of a level whose
 * passable cells are one rectangle of one cost (all of the level, or a
 * field inside walls), without the queue (solver_open.c): values, arrows,
 * settled flags and counts as the queue gives them; false, with S
 * unchanged, for any other level. */
bool ff_open_run(ff_solver *s);
/* The settled neighbour whose step set P's value (the first in FF_DIR_*
 * order on a tie), or -1 for goals, walls and unsettled cells. */
int32_t ff_dijkstra_parent(const ff_solver *s, int32_t p);
void ff_fmm_flow_span(ff_solver *s, int32_t p, int32_t n);
/* The accepted neighbours below P that its upwind update used (the lower
 * first) into M; returns how many, 0 to 2. */
int ff_fmm_sources(const ff_solver *s, int32_t p, int32_t m[2]);
/* Marks the cells that see the goal their arrows lead to (FL_LOS) after a
 * Dijkstra solve with opts.los; without memory for it, none. */
void ff_solver_los_pass(ff_solver *s);
/* The goal cell padded cell P sees, or -1. */
int32_t ff_solver_los_target(const ff_solver *s, int32_t p);
/* Seeds the goal cells; fills COST first (the queue's pool is the
 * scratch of ff_costs_fill(): it is empty then). */
void ff_solver_seed(ff_solver *s);
bool ff_solver_is_goal(const ff_solver *s, int x, int y);
/* Flow for padded cells [from, to). */
void ff_solver_flow_range(ff_solver *s, size_t from, size_t to);

static inline int32_t ffs_index(const ff_solver *s, int x, int y)
{
	return (int32_t)((y + 1) * s->W + x + 1);
}

#endif
