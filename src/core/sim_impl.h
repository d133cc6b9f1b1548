/*
 * sim_impl.h - the sim's private state, shared by sim.c (lifecycle, queries,
 * hash), sim_level.c (spawning and what is derived from the level) and
 * sim_step.c (the tick).  Not part of the public interface.
 */
#ifndef FF_SIM_IMPL_H
#define FF_SIM_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "fields.h"
#include "level.h"
#include "rng.h"
#include "sim.h"
#include "solver.h"
#include "sim_spatial.h"

#define FF_SIM_MAX_AGENTS 100000000u
/* Agent state during a tick for one that arrived in it: to the agents
 * steered after it, it is still the body it was at the start of the tick;
 * the tick's end makes it FF_AGENT_ARRIVED. */
#define FF_SIM_ARRIVING 3
/* Bit of neighbour (DX, DY) in ff_sim.walls: row by row from the top
 * left, skipping the cell itself, so bit order is scan order. */
#define FF_SIM_NBR_BIT(dx, dy) \
	(1u << ((((dy) + 1) * 3 + (dx) + 1) - (((dy) + 1) * 3 + (dx) + 1 > 4)))
/* Clearance is a 3-4 chamfer distance: 3 units per cell. */
#define FF_SIM_CLEAR_UNIT 3
/* Entries of the speed-density table over densities 0..fd_rho_max. */
#define FF_SIM_FD_N 1024
/* How many look_aheads ahead an agent sees who comes towards it: further
 * than the headway it keeps, so lanes form earlier (validate's squads over
 * 5 seeds: head-on 79.6 s and lane order 0.70 at 1, 75.4 s and 0.76 at 2;
 * the crossing 70.0 s, 75.1 s). */
#define FF_SIM_PASS_LOOK 2
/* The crowd's copy of a field's flow is one byte a cell: the direction's
 * angle in steps of 1/FF_SIM_DIRS (sim.h) of a turn, clockwise from east
 * (y down), or FF_SIM_NODIR for none.  Eight groups' flows then fit the
 * processor's second-level cache (as floats they took 8 bytes a cell and
 * their loads a quarter of the tick with eight groups). */
#define FF_SIM_NODIR 255
/* The code of a cell from which the solver found no way to a goal: no
 * direction either, and an agent standing there is stranded. */
#define FF_SIM_UNREACH 254

/* Ticks between two regrids (sim_order.c), unless a test says. */
#define FF_SIM_REGRID_TICKS 16

/* The crowd's second thread (sim_par.c). */
typedef struct ff_sim_par ff_sim_par;
/* Part C of a job, run by thread T (0 the main thread, 1 the worker). */
typedef void (*ff_sim_job)(void *arg, int t, long c);
/* Starts the worker; NULL when there is one core or no thread to be had. */
ff_sim_par *ff_sim_par_create(void);
/* Stops and frees it; NULL is a no-op. */
void ff_sim_par_destroy(ff_sim_par *P);
/* Runs JOB's parts 0 .. N - 1, each once, on both threads, and returns
 * when all are done.  With WAIT the main thread takes parts only once the
 * worker has come; without, it starts at once and goes on alone when the
 * worker does not come (another program holds the other core). */
void ff_sim_par_run(ff_sim_par *P, ff_sim_job job, void *arg, long n, bool wait);

/* A spawn area that releases its agents over time (spawn ... rate R). */
typedef struct ff_source {
	int32_t *cells;              /* its passable cells (row-major) */
	long ncells;
	long left;                   /* agents still to come */
	double rate, acc;            /* per second; released but not placed */
	int group;
} ff_source;

/* What a group's agents follow: a copy of its field's flow (sampling it
 * here is several times cheaper than asking the solver for four cells per
 * agent per tick) and its goal and unreachable cells, taken from the
 * fields when they change (versions differ) and the group has agents.
 * Allocated when the group first gets agents, so a tick never does. */
typedef struct ff_gfield {
	uint8_t *dir;                /* w*h: the flow's direction code
				      * (FF_SIM_DIRS) per cell, or
				      * FF_SIM_NODIR, FF_SIM_UNREACH */
	uint64_t *goal;              /* w*h bits, row major: standing here
				      * counts as arrived (ff_sim_at_goal) */
	int sector;                  /* a hierarchical field's sector size:
				      * dir is filled a sector at a time,
				      * as agents come near it (filled[]);
				      * 0: all */
	uint8_t *filled;             /* per sector, row by row: filled */
	size_t nfilled;              /* sectors filled has room for */
	unsigned version;            /* of the field copied */
	bool copied;                 /* dir and goal hold a field */
	long agents;                 /* of this group present, alive or kept */
	int cls;                     /* the group's movement class */
} ff_gfield;

/* What the agents of one movement class see of the level: its cost of
 * each terrain value and, from when the class first has agents, its walls
 * as the crowd reads them (class 0, none, reads the level's own walls and
 * costs).  So one class costs nothing more, and each further class with
 * agents 3 bytes a cell. */
typedef struct ff_sim_class {
	uint8_t cost[FF_TERRAIN_VALUES];   /* ff_level_class_table() */
	float inv_cost[FF_TERRAIN_VALUES]; /* 1 / cost: the terrain's share of
					    * the speed */
	uint16_t *clear;             /* w*h: chamfer distance to a wall (to
				      * the class) or the edge */
	uint8_t *walls;              /* w*h: which of the 8 neighbours are
				      * walls or outside (FF_SIM_NBR_BIT) */
	bool built;                  /* the above are of the level as it is */
} ff_sim_class;

struct ff_sim {
	const ff_level *level;       /* borrowed */
	ff_fields *fields;           /* borrowed: every group's field */
	int w, h;
	unsigned flags;
	ff_rng rng;
	ff_sim_par *par;             /* the second thread, or NULL */
	int threads;                 /* ff_sim_set_threads() */
	uint64_t tick_key;           /* this tick's key for per-agent draws */
	size_t n, cap;               /* agents present, room for */
	uint32_t next_id;
	uint32_t *id;                /* agent arrays, in id order until the
				      * first regrid (sim_order.c), then in
				      * the grid's order of the last one */
	uint8_t *state;
	uint8_t *grp;                /* each agent's group */
	double *x, *y, *vx, *vy;
	int regrid_ticks;            /* ticks between regrids (0: none) */
	bool regridded;              /* the arrays are not in id order: */
	uint32_t *ord;               /* cap: where the agent I-th in id
				      * order is */
	uint32_t *from, *slot;       /* cap: scratch for reordering */
	void *spare;                 /* cap doubles: the same, and the
				      * chunks' sums of speeds in a tick */
	ff_spatial grid;
	ff_gfield gf[FF_GROUPS_MAX];
	ff_sim_class cls[FF_CLASSES_MAX + 1]; /* by movement class */
	float *dens;                 /* w*h: agents per m^2 around each cell,
				      * from the tick's neighbour grid */
	uint8_t *dens_zero;          /* h: the row of dens[] is all 0 */
	float *inv_area;             /* w*h: 1 / passable m^2 of each cell's
				      * density window; 0 on walls */
	uint32_t *colsum;            /* w: scratch for the window sums */
	uint16_t *crowd;             /* w*h, or NULL when routing is off: the
				      * crowd's slowing of each cell (cost.h),
				      * lent to the fields */
	float *dsum;                 /* w*h: density summed since the last
				      * routing solve */
	long route_n;                /* ticks summed in dsum */
	float (*hd)[2];              /* cap: each agent's heading, the flow it
				      * sampled last tick (0: none yet) */
	double (*hsum)[3];           /* cap+1: running sums of the agents'
				      * headings and of how many have one,
				      * in the grid's order (oncoming) */
	int dens_k;                  /* window half-width of inv_area, cells */
	double dens_cs;              /* and the cell size it was built for */
	double fd_gamma, fd_rho_max; /* what fd[] was built for */
	float inv_cost[256];         /* 1 / cost: terrain's share of the speed */
	float dirv[256][2];          /* the unit flow of each direction code;
				      * 0 0 for FF_SIM_NODIR, FF_SIM_UNREACH */
	double dir_edge[FF_SIM_DIRS / 8]; /* tan of the half steps of the
					   * first eighth of a turn */
	float fd[FF_SIM_FD_N + 2];   /* speed factor at density
				      * i * fd_rho_max / FF_SIM_FD_N */
	ff_source src[FF_SPAWNS_MAX];
	int nsrc;
	ff_sim_spawn_fail fail;      /* why the last spawn failed */
	struct ff_lines {
		double seg[4];
		long net, peak, trough, first, last;
		uint32_t *at;        /* at[2 (m - 1)]: the tick net first reached
				      * m; at[2 (m - 1) + 1]: -m (so the flow
				      * of a line crossed the other way is
				      * measured as well) */
		size_t cap;          /* values of m at holds */
	} lines[FF_SIM_LINES_MAX];
	int nlines;
	ff_sim_stats last;
	ff_sim_totals tot;
	ff_sim_group gtot[FF_GROUPS_MAX];
	long galive[FF_GROUPS_MAX];  /* after the last tick */
	long garrivals[FF_GROUPS_MAX]; /* during the tick being run */
};

/* The words of a goal bit set of CELLS cells. */
static inline size_t ff_sim_goal_words(size_t cells)
{
	return (cells + 63) / 64;
}

/* True when an agent of the group of GF standing in cell AT (row major)
 * has arrived. */
static inline bool ff_sim_at_goal(const ff_gfield *gf, size_t at)
{
	return gf->goal[at >> 6] >> (at & 63) & 1;
}

/* Where the agent R-th in id order is stored. */
static inline size_t ff_sim_slot(const ff_sim *s, size_t r)
{
	return s->regridded ? s->ord[r] : r;
}

/* Stores the agents in the order of the tick's grid, whose first NG
 * points they are, the others after them in the order they were
 * (sim_order.c). */
void ff_sim_regrid(ff_sim *s, size_t ng);
/* Before the arrived agents are dropped (compacting the rest, in the
 * order they are stored): keeps ord[] up to date (sim_order.c). */
void ff_sim_order_drop(ff_sim *s);

/* Fills dirv[] (sim_level.c). */
void ff_sim_dirs_setup(ff_sim *s);
/* Makes sure group G has its dir and goal arrays, a copy of its field
 * when that changed, and its class's walls: FF_E_NOMEM, or the fields'
 * error when the group has no field (no goals, goals on walls)
 * (sim_level.c). */
ff_err ff_sim_group_ready(ff_sim *s, int g);
/* Fills, for every agent of a group on a hierarchical field, the sectors
 * its flow sample reads that are not filled yet (sim_level.c); solving
 * them may allocate (in the solver's cache). */
void ff_sim_fill_near(ff_sim *s);
/* Makes sure movement class C has its walls built (sim_level.c):
 * FF_E_NOMEM. */
ff_err ff_sim_class_ready(ff_sim *s, int c);
/* Grows the agent arrays to CAP (sim.c). */
ff_err ff_sim_reserve(ff_sim *s, size_t cap);
/* Makes room in every line for NEW more agents spawned (sim.c). */
ff_err ff_sim_lines_reserve(ff_sim *s, size_t more);
/* The density window's half-width in cells for the level's parameters,
 * and the passable area of every window when that or the walls changed
 * (sim_density.c; ff_sim_refresh forces it with FORCE). */
void ff_sim_density_setup(ff_sim *s, bool force);
/* Fills dens[] from the neighbour grid just built (sim_density.c). */
void ff_sim_density_build(ff_sim *s);
/* Drops the sources (sim_spawn.c). */
void ff_sim_sources_clear(ff_sim *s);
/* Releases what the sources owe for a tick of DT seconds, where there is
 * room against the tick's grid; the new agents are appended (sim_spawn.c). */
void ff_sim_sources_release(ff_sim *s, double dt);
/* Rebuilds fd[] when Weidmann's parameters changed (sim_density.c). */
void ff_sim_fd_setup(ff_sim *s);
/* Congestion-aware routing (sim_route.c): sets up or drops the crowd term
 * as route_interval says (from ff_sim_refresh); FF_E_NOMEM leaves it off. */
ff_err ff_sim_route_setup(ff_sim *s);
/* Adds this tick's density and, every route_interval, solves the groups'
 * fields again with it; allocates nothing. */
void ff_sim_route_tick(ff_sim *s);
/* Takes the crowd term back from the fields and frees it. */
void ff_sim_route_fini(ff_sim *s);

/* The sector of cell (X, Y) in a lazy field GF (gf->sector > 0), row by
 * row: its index in gf->filled. */
static inline size_t ff_sim_sector_of(const ff_sim *s, const ff_gfield *gf, int x, int y)
{
	return (size_t)(y / gf->sector) * (size_t)((s->w + gf->sector - 1) / gf->sector) +
	       (size_t)(x / gf->sector);
}

/* Weidmann's speed over the free speed (0..1) at density RHO x
 * FF_SIM_FD_N / fd_rho_max, from the table fd[]. */
static inline double ff_sim_fd_at(const ff_sim *s, double scaled)
{
	int i;

	if (!(scaled < FF_SIM_FD_N))
		return 0;
	i = (int)scaled;
	return s->fd[i] + (scaled - i) * (s->fd[i + 1] - s->fd[i]);
}

/* True when cell (CX, CY) is a wall to agents of movement class C: outside
 * the level, a temporary wall, or a wall to the class (for class 0 a
 * painted wall). */
static inline bool ff_sim_blocked(const ff_sim *s, int c, int cx, int cy)
{
	const ff_level *l = s->level;

	if (!ff_level_in(l, cx, cy))
		return true;
	if (!c)
		return ff_level_wall(l, cx, cy);
	return ff_level_dyn(l, cx, cy) == FF_WALL ||
	       s->cls[c].cost[ff_level_value(l, cx, cy)] == FF_WALL;
}

#endif
