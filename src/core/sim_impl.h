/*
 * sim_impl.h - the sim's private state, shared by sim.c (lifecycle, queries,
 * hash), sim_level.c (spawning and what is derived from the level) and
 * sim_step.c (the tick).  Not part of the public interface.
 */
#ifndef FF_SIM_IMPL_H
#define FF_SIM_IMPL_H

#include <stdbool.h>
#include <stdint.h>

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
/* Cell flags in ff_sim.arrive. */
#define FF_SIM_AT_GOAL 1        /* standing here counts as arrived */
#define FF_SIM_AT_UNREACH 2     /* the solver found no way to a goal */
/* Bit of neighbour (DX, DY) in ff_sim.walls: row by row from the top
 * left, skipping the cell itself, so bit order is scan order. */
#define FF_SIM_NBR_BIT(dx, dy) \
	(1u << ((((dy) + 1) * 3 + (dx) + 1) - (((dy) + 1) * 3 + (dx) + 1 > 4)))
/* Clearance is a 3-4 chamfer distance: 3 units per cell. */
#define FF_SIM_CLEAR_UNIT 3

struct ff_sim {
	const ff_level *level;       /* borrowed */
	const ff_solver *solver;     /* borrowed */
	int w, h;
	unsigned flags;
	ff_rng rng;
	uint64_t tick_key;           /* this tick's key for per-agent draws */
	size_t n, cap;               /* agents present, room for */
	uint32_t next_id;
	uint32_t *id;                /* agent arrays, id order */
	uint8_t *state;
	double *x, *y, *vx, *vy;
	ff_spatial grid;
	uint8_t *arrive;             /* w*h: FF_SIM_AT_* flags */
	uint16_t *clear;             /* w*h: chamfer distance to wall or edge */
	uint8_t *walls;              /* w*h: which of the 8 neighbours are wall
				      * or outside (FF_SIM_NBR_BIT order) */
	float *flow;                 /* 2*w*h: the solver's unit flow per cell */
	bool line_on;                /* a line is marked (ff_sim_set_line) */
	double line[4];              /* its ends: x0, y0, x1, y1 */
	ff_sim_stats last;
	ff_sim_totals tot;
};

/* Grows the agent arrays to CAP (sim.c). */
ff_err ff_sim_reserve(ff_sim *s, size_t cap);

static inline bool ff_sim_blocked(const ff_sim *s, int cx, int cy)
{
	return !ff_level_in(s->level, cx, cy) ||
	       ff_level_cost(s->level, cx, cy) == FF_WALL;
}

#endif
