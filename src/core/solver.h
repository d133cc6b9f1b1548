/*
 * solver.h - cost field -> integration field -> flow field.
 *
 * A solver owns every buffer it needs for one level size, allocated once by
 * ff_solver_create() (or borrows the queue's from a workspace it shares,
 * below); solving, stepping and repairing never allocate.
 *
 * Semantics (docs/solver.md):
 *  - Costs: the effective cost of each cell (cost.h: the painted cost, or a
 *    movement class's, plus the wall-proximity penalty), read from the
 *    level in phase COST.
 *  - Dijkstra: a step from a cell into a neighbour costs the step length (1,
 *    or sqrt 2 diagonally) times the cost of the cell entered; walls are
 *    impassable; a diagonal needs both orthogonal cells beside it passable
 *    (no corner cutting); 8-connected by default, 4 on request.
 *  - FMM: |grad T| = cost(x), first-order upwind quadratic update (or,
 *    with order 2, second-order one-sided differences on each axis where
 *    two known cells allow them), the queue's buckets (width cmin/8)
 *    accepted as groups.
 *  - Goals: every passable goal cell is a source at 0.  Unreachable cells
 *    have value INFINITY and no direction.
 *  - Flow: Dijkstra: the cheapest step, towards the allowed neighbour n
 *    with the smallest value(n) + step(cell -> n) (so value(cell) equals
 *    that sum), or with FF_ARROW_LOWEST the seeds' rule, the allowed
 *    neighbour with the smallest value; ties broken by the fixed neighbour
 *    order of FF_DIR_*.  FMM: -grad T, and as an arrow the allowed
 *    neighbour below the cell best aligned with it.  Zero on walls, goals
 *    and unreachable cells.
 *
 * Stepping: ff_solver_begin() starts a resumable solve in phase FF_PHASE_COST;
 * ff_solver_step() advances it; stepping to the end gives exactly the result
 * of ff_solver_solve().
 */
#ifndef FF_SOLVER_H
#define FF_SOLVER_H

#include <stdbool.h>
#include <stddef.h>

#include "cost.h"
#include "level.h"

typedef struct ff_solver ff_solver;

typedef enum ff_method {
	FF_METHOD_DIJKSTRA,      /* exact */
	FF_METHOD_FMM,           /* Fast Marching, the Eikonal equation */
	FF_METHOD_HIER           /* hierarchical: sectors, portals, fine fields
				    solved where they are asked for (below) */
} ff_method;

/* The hierarchical field's sector side when ff_solver_opts.sector is 0. */
#define FF_SECTOR_DEFAULT 32

/* What a Dijkstra arrow points at (FMM has one rule). */
typedef enum ff_arrow_rule {
	FF_ARROW_CHEAPEST,       /* the cheapest step: smallest value + step */
	FF_ARROW_LOWEST          /* the lowest neighbour (the seeds' rule, kept
				    for teaching: on weighted terrain it can
				    point off the cheapest path) */
} ff_arrow_rule;

typedef struct ff_solver_opts {
	ff_method method;
	int connectivity;        /* 8 or 4; Dijkstra only */
	int order;               /* FMM's differences: 1 (or 0) first order,
				    2 second order where the known cells
				    allow it */
	ff_arrow_rule arrows;    /* Dijkstra only (kept, unused, by FMM) */
	int sector;              /* hier: sector side, 8, 16, 32 or 64 (0: the
				    default) */
	bool los;                /* Dijkstra and hier (FMM ignores it): line
				    of sight, a cell that sees the goal its
				    way leads to (or, hier, its sector's
				    exit) flows straight at it
				    (docs/solver.md) */
} ff_solver_opts;

typedef enum ff_phase {
	FF_PHASE_IDLE,           /* nothing begun */
	FF_PHASE_COST,           /* cost field being read from the level */
	FF_PHASE_INTEGRATE,      /* integration field being settled */
	FF_PHASE_FLOW,           /* flow directions being computed */
	FF_PHASE_DONE
} ff_phase;

typedef enum ff_step_unit {
	FF_STEP_CELL,            /* one cell settled (or one flow cell) */
	FF_STEP_WAVE,            /* one wavefront (all cells of the current key band) */
	FF_STEP_PHASE,           /* to the end of the current phase */
	FF_STEP_ALL              /* to FF_PHASE_DONE */
} ff_step_unit;

/* Eight directions, in the tie-break order; FF_DIR_NONE for no direction. */
enum { FF_DIR_E, FF_DIR_S, FF_DIR_W, FF_DIR_N, FF_DIR_SE, FF_DIR_SW, FF_DIR_NW,
       FF_DIR_NE, FF_DIR_NONE = 255 };
extern const int ff_dir_dx[8], ff_dir_dy[8];

/* --- lifecycle --------------------------------------------------------- */

/* Allocates a solver for W x H levels; NULL on a bad size or no memory.
 * From 512 x 512 cells and 256 rows on, it also starts a worker thread
 * (when two cores are online; if that fails it simply has none).  Caller
 * frees with ff_solver_destroy(), which joins the thread. */
ff_solver *ff_solver_create(int w, int h);
/* The queue's workspace: the buffers a solve, a repair or
 * ff_solver_values_at() works in (the bucket queue's block pool, ring and
 * stage, and the second thread with its own ring and lists: 1.79 bytes a
 * cell at 1024 x 1024, 2.17 at 512 x 512, docs/solver.md).  They hold
 * nothing between two such calls, so solvers that are never used at once
 * may share one, each keeping only its field (10 bytes a cell): the fields
 * of a level's groups do (fields.c, the one user).  The contract of a
 * solver made on a shared workspace by ff_solver_create_shared():
 *  - it and the other solvers of its workspace are never used from two
 *    threads at once (their queries may be: they do not touch it);
 *  - it is never stepped: ff_solver_step() of any unit runs its solve to
 *    the end, as FF_STEP_ALL does (a stepped solve keeps its queue in the
 *    workspace between steps, where another solver's solve would
 *    overwrite it);
 *  - the workspace outlives it.
 * Values and arrows are the same bytes as a solver of its own gives. */
typedef struct ff_solver_work ff_solver_work;
/* A workspace for W x H solvers (with the worker thread ff_solver_create()
 * would start); NULL on a bad size or no memory.  Caller frees with
 * ff_solver_work_destroy() after every solver made on it. */
ff_solver_work *ff_solver_work_create(int w, int h);
void ff_solver_work_destroy(ff_solver_work *wk);
/* Bytes the workspace holds (counted once by its owner: a solver on it
 * does not count them in ff_solver_bytes()). */
size_t ff_solver_work_bytes(const ff_solver_work *wk);
/* A solver of WK's size on WK (borrowed; see the contract above); NULL on
 * no memory. */
ff_solver *ff_solver_create_shared(ff_solver_work *wk);
/* A solver for the hierarchical method only, without the full field's
 * buffers (about 1.2 bytes per cell plus the portals, docs/solver.md);
 * other methods are FF_E_INVAL for it.  NULL on a bad size or no memory. */
ff_solver *ff_solver_create_hier(int w, int h);
void ff_solver_destroy(ff_solver *s);
/* From the next solve on, costs count the crowd: CROWD (borrowed, w*h,
 * 256 = no slowing; cost.h) or NULL for none.  A repair needs the CROWD of
 * the solve it repairs, unchanged. */
void ff_solver_set_crowd(ff_solver *s, const uint16_t *crowd);
/* From the next begin on, solves for movement class K of the level (0, the
 * default: the painted costs; level.h): its costs and its walls, goals
 * needing a cell passable to it.  A repair solves for the class of the
 * solve it repairs. */
void ff_solver_set_class(ff_solver *s, int k);
/* The movement class the costs of the solve are built for (once its COST
 * phase began). */
int ff_solver_class(const ff_solver *s);
/* Bytes of working memory the solver holds: its field, and its
 * workspace unless that is shared (ff_solver_create_shared). */
size_t ff_solver_bytes(const ff_solver *s);
/* The bytes ff_solver_create(W, H) would take (its thread counted as if it
 * had one), known before trying: about 11.8 per cell (docs/solver.md);
 * 0 for a bad size.  Callers that know the memory free compare the two up
 * front instead of failing half way. */
size_t ff_solver_bytes_for(int w, int h);
/* What ff_solver_create_hier(W, H) takes with sectors of SECTOR cells (0:
 * the default), before the portals, which depend on the level. */
size_t ff_solver_bytes_for_hier(int w, int h, int sector);
/* True when a full field of W x H cells needs more than AVAIL bytes (0:
 * no limit known), and then says so in BUF (N bytes; may be NULL):
 * "a full field of 16384x16384 cells needs 3.1 GB, more than the 2.0 GB
 * available". */
bool ff_solver_too_big(int w, int h, size_t avail, char *buf, size_t n);
/* Threads for one-shot solves (ff_solver_solve; also a stepped solve's
 * FMM integration when the whole phase is stepped before any cell is
 * settled, and its flow when the whole phase is stepped at once): 0 (the
 * default) or 2 use the solver's second thread, which it has for levels of
 * at least 512 x 512 cells and 256 rows when two cores are online; 1 keeps
 * to the calling thread.  Values and directions are the same bytes either
 * way.  FF_E_INVAL for other values. */
ff_err ff_solver_set_threads(ff_solver *s, int n);

/* --- solving ----------------------------------------------------------- */

/* Begins a solve of L (which must match the solver's size; borrowed until
 * the solve is done or begun again) towards GOALS (NGOALS shapes; pass
 * L->meta.goals to use the level's own).  FF_E_INVAL on bad options,
 * FF_E_RANGE for a goal outside the level, FF_E_WALL when no goal cell is
 * passable.  On error the previous result is kept.
 *
 * The hierarchical method does its first phase here: it builds the graph
 * of sectors and portals the first time, then brings it up to date with
 * L's costs, rebuilding only the sectors whose cells or borders changed,
 * and solves the field near the goals (FF_E_NOMEM when memory runs out;
 * the field is then empty).  It reads L whole again only when L is not
 * the level of its last order or L's count of changes (ff_level.changes)
 * moved: cells written directly must be counted (ff_level_changed()) or
 * repaired (ff_solver_repair()), and a level destroyed under the solver
 * must not be replaced by another at the same address.  A one-shot solve
 * stops there: values and arrows are computed when they are asked for
 * (see the queries).  Stepped, it settles the portals (INTEGRATE, a unit
 * is a portal, a wave those within one sector's width of cost), then
 * solves every sector's fine field (FLOW, a unit is a sector, a wave a row
 * of them). */
ff_err ff_solver_begin(ff_solver *s, const ff_level *l, const ff_shape *goals,
		       int ngoals, const ff_solver_opts *opts);
/* After begin() failed on a goal: the index of that goal, else -1. */
int ff_solver_bad_goal(const ff_solver *s);
/* Advances N units; returns the phase reached.  FF_STEP_ALL from a solve
 * not stepped yet is a one-shot solve, as ff_solver_solve() runs it (the
 * same values and arrows as stepping).  A solver on a shared workspace
 * takes every unit for FF_STEP_ALL (ff_solver_create_shared). */
ff_phase ff_solver_step(ff_solver *s, ff_step_unit unit, long n);
/* ff_solver_begin + step to the end. */
ff_err ff_solver_solve(ff_solver *s, const ff_level *l, const ff_shape *goals,
		       int ngoals, const ff_solver_opts *opts);
/* The values at N cells (XS[i], YS[i]) into OUT: the bytes
 * ff_solver_value() gives them after ff_solver_solve() with the same
 * arguments, computing only what they need.  Dijkstra and FMM settle the
 * cells in the order of their values and stop once every one of those
 * cells is settled (a settled value is final), and choose no arrows;
 * cells far from the goals and unreachable cells need a full integration
 * (and so do more than FF_WANT_MAX cells); walls none.  The hierarchical
 * method solves as ff_solver_solve() does and asks its field.  The
 * solver then holds no field (phase FF_PHASE_IDLE; hier keeps its own).
 * Errors as ff_solver_begin(), and FF_E_RANGE for a cell outside the
 * level (before anything is solved). */
#define FF_WANT_MAX 256
ff_err ff_solver_values_at(ff_solver *s, const ff_level *l, const ff_shape *goals,
			   int ngoals, const ff_solver_opts *opts, int n, const int *xs,
			   const int *ys, double *out);
/* After the costs of cells inside [x0,x1] x [y0,y1] changed in the level the
 * solver was given (same goals), updates the fields to equal a full
 * re-solve: the effective costs of those cells are built again, and of
 * every cell within ff_costs_reach() of them when one became or stopped
 * being a wall.  When the level's cost rules changed (its wall_penalty
 * parameters) it solves again.  Needs phase FF_PHASE_DONE (FF_E_STATE
 * otherwise).  The hierarchical field rebuilds the sectors the
 * rectangle touches (its effective costs) and starts its order again (its
 * fine fields are solved again as asked for). */
ff_err ff_solver_repair(ff_solver *s, int x0, int y0, int x1, int y1);

/* --- queries ----------------------------------------------------------- */

ff_phase ff_solver_phase(const ff_solver *s);
const char *ff_phase_name(ff_phase p);
/* The method's word: "dijkstra", "fmm", "fmm2" (second-order FMM) or
 * "hier". */
const char *ff_method_name(const ff_solver_opts *o);
/* The word with Dijkstra's connectivity and arrow rule, as the editor
 * shows it: "dijkstra8", "dijkstra4", "dijkstra8-lowest", "fmm", "fmm2"
 * (FMM has one stencil and one arrow rule). */
const char *ff_method_label(const ff_solver_opts *o);
/* Sets O's method and order from such a word; false when it is none. */
bool ff_method_parse(const char *word, ff_solver_opts *o);
/* Applies one word of the solver's vocabulary to O: a method (as
 * ff_method_parse), a connectivity "8" or "4", an arrow rule "cheapest"
 * or "lowest", line of sight "los" or "nolos", or the hierarchy's sector
 * side "sector8", "sector16", "sector32" or "sector64"; false when it is
 * none of them.  The command
 * language, the split view and the command line all read these words. */
bool ff_solver_word(const char *word, ff_solver_opts *o);
#define FF_SOLVER_WORDS "dijkstra, fmm, fmm2, hier, 8, 4, cheapest, lowest, los, nolos or sector8..64"
/* The words that give O back through ff_solver_word(), e.g. "dijkstra 8",
 * "dijkstra 4 lowest" or "fmm2 8", into BUF (SIZE bytes). */
void ff_solver_words(const ff_solver_opts *o, char *buf, size_t size);
/* The metric of O's steps, which the wall penalty's distances use. */
ff_metric ff_solver_metric(const ff_solver_opts *o);
/* The effective cost (cost.h) the solve integrates at (x, y): 1..254 or
 * FF_WALL; -1 outside the level or before the COST phase is done. */
int ff_solver_cost(const ff_solver *s, int x, int y);
/* The hierarchical field is solved where it is asked: once its solve is
 * done, ff_solver_value(), ff_solver_dir(), ff_solver_flow() and
 * ff_solver_sample() search the portal graph as far as the cell's sector
 * needs and solve that sector's fine field (a few tens of microseconds),
 * which a cache keeps for the next queries; this is what a simulation on
 * a large level calls, for the cells its agents are in.  They keep their
 * const for the callers, but change the cache: not from two threads at
 * once.  While a solve is stepped they show only what is known.
 *
 * Integration value at (x, y): INFINITY when unreachable or a wall, or not
 * yet settled while stepping. */
double ff_solver_value(const ff_solver *s, int x, int y);
/* The arrow at (x, y): FF_DIR_* or FF_DIR_NONE.  This is what every view
 * of the field shows (the editor, 'solve --show flow', replays' 'expect
 * dir'); ff_solver_flow() is its vector (Dijkstra) or the -grad T it was
 * read from (FMM).  With line of sight, a cell that sees its target shows
 * the direction nearest the straight line to it instead of the cheapest
 * step (the staircase of eight directions gone). */
int ff_solver_dir(const ff_solver *s, int x, int y);
/* Unit flow vector at cell (x, y); (0, 0) where there is none.  With line
 * of sight, a cell that sees its target gets the exact direction to it. */
void ff_solver_flow(const ff_solver *s, int x, int y, float *dx, float *dy);
/* Flow sampled bilinearly at continuous point (x, y) in cell units, where
 * cell (i, j) covers [i, i+1) x [j, j+1) and its centre is (i+.5, j+.5).
 * Returns a unit vector, or (0, 0). */
void ff_solver_sample(const ff_solver *s, double x, double y, float *dx, float *dy);
/* While stepping: cells settled so far, cells queued (the frontier), whether
 * (x, y) is on the frontier, and the last settled cell with the neighbour
 * it came from (false when none). */
long ff_solver_settled(const ff_solver *s);
long ff_solver_frontier(const ff_solver *s);
bool ff_solver_on_frontier(const ff_solver *s, int x, int y);
bool ff_solver_last(const ff_solver *s, int *x, int *y, int *from_x, int *from_y);
/* Dijkstra: the neighbour whose step gave settled cell (x, y) its value
 * (the "came from" cell; the first in FF_DIR_* order on a tie), which is
 * the cheapest step's arrow but with weighted costs need not be the lowest
 * neighbour.  False for goals, walls, unsettled cells and Fast Marching. */
bool ff_solver_from(const ff_solver *s, int x, int y, int *from_x, int *from_y);
/* The neighbours settled cell (x, y)'s value was computed from: Dijkstra,
 * the one of ff_solver_from(); Fast Marching, the smaller accepted
 * horizontal and vertical neighbours below it that enter its upwind
 * update (both when |a - b| < cost, else the lower), the lower first.
 * Returns how many (0 for goals, walls and unsettled cells) and fills XS,
 * YS. */
int ff_solver_sources(const ff_solver *s, int x, int y, int xs[2], int ys[2]);

/* Line of sight (opts.los): whether (x, y) sees the cell its way leads to
 * (its goal; in a hierarchical field outside the near box, its sector's
 * exit), into *TX, *TY.  ff_solver_flow() points straight at it. */
bool ff_solver_sees(const ff_solver *s, int x, int y, int *tx, int *ty);

/* --- the hierarchy --------------------------------------------------------- */

/* Computes now what the hierarchical field computes the first time a
 * query needs it: the distances between the portals of every sector (a
 * level loaded, before play: 0.6 s for 4096^2 rooms).  FF_E_STATE when no
 * hierarchical solve is begun, FF_E_NOMEM. */
ff_err ff_solver_prepare(ff_solver *s);

/* The sector side of a hierarchical field, 0 for other methods. */
int ff_solver_sector_size(const ff_solver *s);
/* Fine fields of sectors a hierarchical field computed since its solve
 * began (a sector evicted from the cache and asked for again counts
 * again); 0 for other methods. */
long ff_solver_sectors_solved(const ff_solver *s);
/* What the sector of (x, y) holds: 0 nothing yet, 1 the exact field near
 * the goals, 2 a fine field solved (in the cache). */
int ff_solver_sector_state(const ff_solver *s, int x, int y);
/* Whether (x, y) is a portal; *G its value once settled (else INFINITY). */
bool ff_solver_portal(const ff_solver *s, int x, int y, double *g);

#endif
