/*
 * fieldmarshal.h - flow fields for crowds, as a C library (libfieldmarshal;
 * pkg-config fieldmarshal; docs/embedding.md).
 *
 * A level is a grid of cell costs (1..254, or FM_WALL) with goals.  A field
 * holds a solve of a level: each cell's integration value (the cost of the
 * cheapest way to the nearest goal; exact Dijkstra, or Fast Marching) and
 * its flow direction.  A sim moves agents along a field, keeping them apart.
 *
 * Coordinates: x is the column, y the row, (0,0) the top-left cell; agents
 * live in continuous cell units, cell (x, y) covering [x, x+1) x [y, y+1).
 * Functions returning int give FM_OK (0) or a negative error (fm_strerror()
 * says which); on error the object is unchanged.  Objects are opaque; each
 * _new has its _free (NULL is a no-op).  A field and a sim borrow the
 * level (and the sim the field) given to them: keep those alive longer.
 * No function keeps global state, so distinct objects may be used from
 * distinct threads.  Only the fm_ names are the library's interface.
 */
#ifndef FIELDMARSHAL_H
#define FIELDMARSHAL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && defined(FM_BUILDING)
#define FM_API __attribute__((visibility("default")))
#else
#define FM_API
#endif

#define FM_OK 0
#define FM_WALL 255              /* the cost of an impassable cell */
#define FM_COST_MAX 254          /* costs are 1..FM_COST_MAX, or FM_WALL */

typedef struct fm_level fm_level;
typedef struct fm_field fm_field;
typedef struct fm_sim fm_sim;

typedef enum fm_method {
	FM_DIJKSTRA,             /* exact, 8-connected, no corner cutting */
	FM_DIJKSTRA_4,           /* exact, 4-connected */
	FM_FAST_MARCHING,        /* the eikonal equation, first order */
	FM_FAST_MARCHING_2       /* second order where the known cells allow */
} fm_method;

/* The library's version, "MAJOR.MINOR.PATCH". */
FM_API const char *fm_version(void);
/* A lower-case description of error ERR; never NULL. */
FM_API const char *fm_strerror(int err);

/* --- levels ------------------------------------------------------------- */

/* A W x H level of cost 1, no goals (1 <= W, H <= 4096); NULL on a bad
 * size or no memory. */
FM_API fm_level *fm_level_new(int w, int h);
/* Parses a level from TEXT (LEN bytes): fieldmarshal's text format or a
 * Moving AI .map.  NULL on failure, with "LINE:COL: message" in MSG (SIZE
 * bytes) for malformed text. */
FM_API fm_level *fm_level_parse(const char *text, size_t len, char *msg, size_t size);
FM_API void fm_level_free(fm_level *level);
FM_API int fm_level_width(const fm_level *level);
FM_API int fm_level_height(const fm_level *level);
/* The cost of cell (x, y): 1..254 or FM_WALL; -1 outside the level. */
FM_API int fm_level_cost(const fm_level *level, int x, int y);
FM_API int fm_level_set_cost(fm_level *level, int x, int y, int cost);
/* Adds a goal: the W x H rectangle of cells at (x, y), inside the level
 * and not all walls. */
FM_API int fm_level_add_goal(fm_level *level, int x, int y, int w, int h);
FM_API void fm_level_clear_goals(fm_level *level);
/* Sets a simulation parameter by name ("speed", "radius", "dt", "seed",
 * ...: docs/simulation.md), within its range. */
FM_API int fm_level_set_param(fm_level *level, const char *name, double value);

/* --- fields ------------------------------------------------------------- */

/* A field for W x H levels, its memory allocated once; NULL on a bad size
 * or no memory. */
FM_API fm_field *fm_field_new(int w, int h);
FM_API void fm_field_free(fm_field *field);
/* Solves LEVEL (of the field's size; borrowed until the next solve)
 * towards its goals with METHOD.  Allocates nothing. */
FM_API int fm_field_solve(fm_field *field, const fm_level *level, fm_method method);
/* The integration value of cell (x, y); INFINITY for walls, unreachable
 * cells and cells outside, or before a solve. */
FM_API double fm_field_value(const fm_field *field, int x, int y);
/* The flow arrow of cell (x, y) as the step to a neighbour (*DX, *DY in
 * -1..1); returns 0 and sets both 0 where there is none (walls, goals,
 * unreachable cells), else 1. */
FM_API int fm_field_direction(const fm_field *field, int x, int y, int *dx, int *dy);
/* The flow at continuous point (x, y), bilinearly sampled: a unit vector,
 * or (0, 0). */
FM_API void fm_field_flow(const fm_field *field, double x, double y, double *dx, double *dy);

/* --- simulation --------------------------------------------------------- */

/* A crowd on LEVEL following FIELD (a finished solve of LEVEL; both
 * borrowed), seeded from the level's "seed" parameter; NULL on bad
 * arguments, parameters that cannot be simulated, or no memory.  Runs are
 * deterministic. */
FM_API fm_sim *fm_sim_new(const fm_level *level, const fm_field *field);
FM_API void fm_sim_free(fm_sim *sim);
/* Places up to N agents at random, without overlap, on the passable cells
 * whose centres lie within RADIUS cells of the centre of (x, y)'s cell;
 * returns how many found room, or a negative error. */
FM_API long fm_sim_spawn(fm_sim *sim, double x, double y, long n, double radius);
/* Advances one fixed timestep (parameter "dt", seconds).  Allocates
 * nothing.  Once the sim holds 4096 agents or more it shares a tick with
 * a thread of its own (when two cores are online; it sleeps between
 * ticks and ends with fm_sim_free), with the same result as one thread. */
FM_API void fm_sim_step(fm_sim *sim);
/* After a new solve of the field or an edit of the level. */
FM_API int fm_sim_refresh(fm_sim *sim);
/* Agents still moving (arrived ones leave), and arrived in total. */
FM_API long fm_sim_agents(const fm_sim *sim);
FM_API long fm_sim_arrived(const fm_sim *sim);
/* The position of the I-th agent still moving (0 <= I < fm_sim_agents()),
 * in cell units; -1 for a bad I. */
FM_API int fm_sim_agent(const fm_sim *sim, long i, double *x, double *y);

#ifdef __cplusplus
}
#endif

#endif
