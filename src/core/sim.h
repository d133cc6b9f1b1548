/*
 * sim.h - the crowd: agents that follow a solved flow field, keep apart and
 * funnel through chokepoints (docs/simulation.md describes the model).
 *
 * Invariants, checked by tests:
 *  - Agents live in continuous cell units: cell (i, j) covers [i, i+1) x
 *    [j, j+1).  After every tick each agent's centre lies inside the level
 *    in a passable cell (ff_sim_stats.wall_violations counts breaches and
 *    is always 0).
 *  - Agents are seen in id order (ids are given in spawn order and never
 *    reused), whatever order they are stored in (the grid's, for
 *    locality); each tick reads the positions at the start of the tick,
 *    so the result does not depend on the order of the update.
 *  - The run is a pure function of the level, the solver's field, the seed
 *    (parameter "seed"), the flags and the spawn/step calls: no clock, no
 *    libm transcendental, no allocation in ff_sim_step().
 *
 * A sim borrows its level and solver for its whole life.  Parameters are
 * read from the level at the start of every tick, so 'set' takes effect at
 * once.  The sim keeps copies of what it derives from the level and the
 * solver (the flow per cell, unreachable cells, goal cells, distance to
 * walls), taken at creation: after the solver's field changes (solve,
 * repair) or the level's cells, goals or arrival_radius change, call
 * ff_sim_refresh().  An agent found on a wall cell painted since (or with
 * no way out) is moved to the centre of the nearest passable cell.
 */
#ifndef FF_SIM_H
#define FF_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "fields.h"
#include "level.h"
#include "solver.h"

typedef struct ff_sim ff_sim;

/* Behaviour switches (ff_sim_set_flags). */
enum {
	FF_SIM_NO_FUNNEL = 1u << 0,     /* ignore density: plain flow + separation */
	FF_SIM_NO_SEPARATION = 1u << 1, /* no separation (and hence no funnelling) */
	FF_SIM_KEEP_ARRIVED = 1u << 2,  /* arrived agents stop and stay */
	FF_SIM_FREE_SPEED = 1u << 3     /* no speed-density: free speed in any crowd */
};

/* Agent states. */
enum { FF_AGENT_MOVING, FF_AGENT_STRANDED, FF_AGENT_ARRIVED };

typedef struct ff_agent {
	uint32_t id;
	int state;                      /* FF_AGENT_* */
	int group;                      /* index into the level's groups */
	double x, y, vx, vy;            /* cells, cells per second */
} ff_agent;

/* Counting lines a sim can hold (ff_sim_add_line). */
#define FF_SIM_LINES_MAX 16

/* Statistics of one tick; counts are after the tick.  Speeds are in cells
 * per second, densities in agents per square metre. */
typedef struct ff_sim_stats {
	long tick;                      /* ticks run so far */
	long alive;                     /* agents not arrived (stranded included) */
	long arrived;                   /* arrived in total */
	long stranded;                  /* alive agents on unreachable cells */
	long arrivals;                  /* arrived during this tick (throughput) */
	double mean_speed, max_speed;   /* over alive agents, cells per second */
	int max_per_cell;               /* most agents in one cell, tick start */
	double max_density;             /* highest density an agent walked
					 * into (read look_ahead ahead) */
	long wall_violations;           /* agents in a wall or outside: always 0 */
	long crossings[FF_SIM_LINES_MAX]; /* net agents across each counting
					 * line this tick (ff_sim_add_line) */
} ff_sim_stats;

/* Totals since creation. */
typedef struct ff_sim_totals {
	long ticks, spawned, arrived;
	long first_arrival, last_arrival; /* tick numbers (1-based), 0 if none */
	double max_speed;               /* cells per second */
	int max_per_cell;
	double max_density;             /* agents per square metre */
	long wall_violations;
	double throughput;              /* arrivals per tick from first to last
					 * arrival inclusive; 0 before any */
} ff_sim_totals;

/* What a counting line has seen since it was added. */
typedef struct ff_sim_line {
	double seg[4];                  /* x0, y0, x1, y1 in cell units */
	long crossings;                 /* net agents across */
	long first, last;               /* ticks of the first and last tick
					 * with a crossing, 0 if none */
	long t10, t90;                  /* ticks the net count first reached
					 * ceil(10%) and floor(90%) of it (of
					 * its size, in its direction, when
					 * negative) */
	double flow;                    /* agents per tick between them: (i90 -
					 * i10) / (t90 - t10), JuPedSim's
					 * bottleneck measure; 0 below 10
					 * crossings */
} ff_sim_line;

/* Totals of one group since creation. */
typedef struct ff_sim_group {
	long spawned, arrived, alive;
	long first_arrival, last_arrival; /* tick numbers (1-based), 0 if none */
	double throughput;              /* arrivals per tick, first to last */
} ff_sim_group;

/* Why ff_sim_spawn_level() failed, for a message. */
typedef struct ff_sim_spawn_fail {
	int area;                       /* the spawn area (index), or -1 */
	int group;                      /* its group */
	long asked, fit;                /* FF_E_FULL: agents asked and room */
} ff_sim_spawn_fail;

/* --- lifecycle --------------------------------------------------------- */

/* FF_E_INVAL when LEVEL's parameters cannot be simulated: a body radius of
 * more than half a cell (bodies collide only with the 8 cells around). */
ff_err ff_sim_check(const ff_level *level);
/* Creates an empty sim over LEVEL whose groups follow the fields of FIELDS
 * (both borrowed; the fields are LEVEL's), with room for CAPACITY agents
 * (it grows when spawning more), seeded from LEVEL's "seed" parameter.
 * NULL on bad arguments or when out of memory.  Caller frees with
 * ff_sim_destroy(). */
ff_sim *ff_sim_create(const ff_level *level, ff_fields *fields, size_t capacity);
/* Frees SIM; NULL is a no-op. */
void ff_sim_destroy(ff_sim *sim);
/* Bytes of memory the sim holds. */
size_t ff_sim_bytes(const ff_sim *sim);
/* Of those, the bytes of its copies of the groups' fields (each group's
 * flow directions, goal cells and, on a hierarchical field, which sectors
 * are filled), made for the groups that have had agents. */
size_t ff_sim_flow_bytes(const ff_sim *sim);

/* --- mutators ---------------------------------------------------------- */

/* Replaces the behaviour flags (FF_SIM_*). */
void ff_sim_set_flags(ff_sim *sim, unsigned flags);
/* Threads for a tick's agents: 0 (the default) uses the sim's second
 * thread for ticks of at least FF_SIM_PAR_MIN agents, as far as it comes
 * in time (another program may hold the other core); 2 the same, waiting
 * for it every tick; 1 keeps to the calling thread.  All give the same
 * state bit for bit.  The sim starts its thread (when two cores are
 * online) once it has room for FF_SIM_PAR_MIN agents, and it sleeps
 * between ticks. */
void ff_sim_set_threads(ff_sim *sim, int n);
#define FF_SIM_PAR_MIN 4096
/* Reseeds the PRNG (the level's seed is used at creation). */
void ff_sim_seed(ff_sim *sim, uint64_t seed);
/* Rebuilds what the sim derives from the level (distance to walls, walls
 * around each cell) and, for each group with agents, takes its field again
 * when it changed (solving it when it is gone): O(cells).  A group whose
 * field cannot be had (its goals were removed) has its agents stranded.
 * FF_E_STATE when the level's size changed, FF_E_NOMEM. */
ff_err ff_sim_refresh(ff_sim *sim);
/* Spawns the level's spawn areas: each area's own count when TOTAL < 0,
 * otherwise TOTAL agents shared among the areas in proportion to their
 * counts; an area's agents are of its group.  Bodies are placed without
 * overlap, uniformly at random in the passable part of each area (random
 * sequential addition, docs/simulation.md).  An area with a rate is a
 * source: it releases its agents from the next tick on, RATE per second as
 * room frees up.  FF_E_NOTFOUND when the level has no spawn area;
 * otherwise, with ff_sim_spawn_failure() naming the area: FF_E_WALL when
 * an area has no passable cell, FF_E_FULL when an ordinary area cannot
 * hold its agents (and how many fit), FF_E_UNREACH when an area's group
 * has no goals or they lie on walls only; FF_E_NOMEM; on error nothing is
 * spawned. */
ff_err ff_sim_spawn_level(ff_sim *sim, long total);
/* After ff_sim_spawn_level() failed on an area: which, and for FF_E_FULL
 * how many fit; false after any other result. */
bool ff_sim_spawn_failure(const ff_sim *sim, ff_sim_spawn_fail *out);
/* What to tell a user about ERR, the result of ff_sim_spawn_level(), in
 * BUF (N bytes): which area failed and what to do about it. */
const char *ff_sim_spawn_explain(const ff_sim *sim, ff_err err, char *buf, size_t n);
/* Places up to N agents of group GROUP, without overlap, on the passable
 * cells whose centres lie within RADIUS cells of the centre of (X, Y)'s
 * cell (that cell alone when RADIUS < 1); *PLACED (when not NULL) gets how
 * many found room.  FF_E_RANGE when (X, Y) is outside the level, FF_E_WALL
 * when it is in a wall, FF_E_INVAL for a bad N, RADIUS or GROUP,
 * FF_E_UNREACH when the group has no goals, FF_E_NOMEM; on error nothing
 * is spawned. */
ff_err ff_sim_spawn_at(ff_sim *sim, double x, double y, long n, double radius, int group,
		       long *placed);
/* Adds a counting line: the segment from (X0, Y0) to (X1, Y1), in cell
 * units, e.g. across a chokepoint's gap.  An agent whose move in a tick
 * takes its centre across the line through the segment counts +1 when it
 * moves along (Y1 - Y0, X0 - X1) and -1 the other way: a column line drawn
 * downwards (Y1 > Y0) counts agents going to larger x, a row line drawn to
 * the right those going to smaller y.  The count is net, so dithering
 * across the line adds nothing.  Lines only observe: the state hash does
 * not depend on them.  *INDEX (when not NULL) gets the line's index.
 * FF_E_INVAL when a coordinate is not finite or the segment has zero
 * length, FF_E_FULL beyond FF_SIM_LINES_MAX lines, FF_E_NOMEM. */
ff_err ff_sim_add_line(ff_sim *sim, double x0, double y0, double x1, double y1, int *index);
/* Removes every counting line. */
void ff_sim_clear_lines(ff_sim *sim);
/* The number of counting lines, and what line K has seen. */
int ff_sim_nlines(const ff_sim *sim);
void ff_sim_line_get(const ff_sim *sim, int k, ff_sim_line *out);
/* Removes every agent and stops the sources (ids keep counting; totals
 * are kept). */
void ff_sim_clear(ff_sim *sim);
/* Advances one fixed timestep (parameter dt).  Never allocates. */
void ff_sim_step(ff_sim *sim);

/* --- queries ----------------------------------------------------------- */

/* Agents the sources are still to release. */
long ff_sim_pending(const ff_sim *sim);
/* Agents present (alive, plus arrived ones kept with FF_SIM_KEEP_ARRIVED). */
size_t ff_sim_count(const ff_sim *sim);
/* The I-th present agent in id order (I < ff_sim_count()). */
void ff_sim_agent(const ff_sim *sim, size_t i, ff_agent *out);
/* The crowd keeps a field's flow as directions to 1/FF_SIM_DIRS of a
 * turn: the eight grid directions exactly, any other (Fast Marching's
 * gradient, a line of sight) within half a step, 0.75 degrees. */
#define FF_SIM_DIRS 240
/* The unit flow group G's agents follow at cell (X, Y) (what they sample
 * between cell centres): their copy of the group's field, to the nearest
 * of FF_SIM_DIRS directions, or the field itself before they have one;
 * (0, 0) where there is none. */
void ff_sim_flow_at(const ff_sim *sim, int g, int x, int y, float *fx, float *fy);
/* Agents per square metre around cell (X, Y) as the last tick measured
 * them: the density field the crowd walked by (docs/simulation.md), built
 * from the positions at the start of that tick.  0 on walls, outside the
 * level and before the first tick. */
double ff_sim_density_at(const ff_sim *sim, int x, int y);
/* Statistics of the last tick (all zero before the first). */
const ff_sim_stats *ff_sim_last(const ff_sim *sim);
const ff_sim_totals *ff_sim_totals_get(const ff_sim *sim);
/* The totals of group G (a group of the level). */
void ff_sim_group_get(const ff_sim *sim, int g, ff_sim_group *out);
/* A stable 64-bit hash of the state: FNV-1a over, in this order, the tick
 * count, the number of agents present, then for each agent in id order its
 * id (4 bytes), state (1 byte), its group (1 byte, only when not the
 * default) and x, y, vx, vy as IEEE-754 binary64 bit patterns (8 bytes
 * each), then the arrived count and the PRNG's four words; every integer
 * is fed least significant byte first (int64 unless stated).  Equal states
 * hash equal on every host. */
uint64_t ff_sim_hash(const ff_sim *sim);

#endif
