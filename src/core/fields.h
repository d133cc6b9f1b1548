/*
 * fields.h - the flow field of every group of a level: a group's agents
 * follow a field towards that group's goals alone (docs/simulation.md,
 * "Groups"), by the costs of the group's movement class ("Movement
 * classes").  A field is solved when first asked for, kept current as the
 * level changes (an edit of costs repairs it incrementally, as the
 * session's own field is; a change of goals, of the group's class or of
 * that class's costs drops it, to be solved again when next asked for),
 * and shared read-only by the group's agents.
 *
 * A field can be lent instead (the session lends the field it shows for
 * the default group, so a level without groups is solved once); a lent
 * field solved for another class than its group's is not used.  Each
 * field has a version that changes whenever the field does, so a reader
 * that keeps a copy of it (the simulation) knows when to take it again.
 *
 * Borrows the level for its whole life; allocates a solver per group it
 * solves (the solvers share one queue workspace, solver.h), and never in
 * a query.
 */
#ifndef FF_FIELDS_H
#define FF_FIELDS_H

#include "err.h"
#include "level.h"
#include "solver.h"

typedef struct ff_fields ff_fields;

/* Fields of LEVEL's groups, solved with OPTS (copied).  NULL when out of
 * memory.  Caller frees with ff_fields_destroy(). */
ff_fields *ff_fields_create(const ff_level *level, const ff_solver_opts *opts);
/* Frees F and the solvers it made; NULL is a no-op. */
void ff_fields_destroy(ff_fields *f);
/* Bytes the fields hold: their solvers' fields, and once the queue
 * workspace they share. */
size_t ff_fields_bytes(const ff_fields *f);

/* Solves with OPTS from now on: every field it made is dropped. */
void ff_fields_set_opts(ff_fields *f, const ff_solver_opts *opts);
/* Lends SOLVER (borrowed, finished, solving group G's goals with the
 * fields' options, for the group's class) as group G's field; NULL takes a
 * lent field back. */
void ff_fields_lend(ff_fields *f, int g, const ff_solver *solver);

/* Group G's finished field into *OUT, solved now when there is none (with
 * the method "hier", only what its first query needs: the rest when asked
 * for).  FF_E_NOTFOUND when the group has no goals, FF_E_WALL when they
 * lie on walls only, FF_E_RANGE for a bad G, FF_E_INVAL for "hier" and a
 * group of a movement class or with the crowd counted (the hierarchy
 * holds the default class's costs alone), FF_E_NOMEM. */
ff_err ff_fields_get(ff_fields *f, int g, const ff_solver **out);
/* After ff_fields_get() failed on a goal: its index among the level's
 * goals, else -1. */
int ff_fields_bad_goal(const ff_fields *f);
/* Group G's field if it is there now, else NULL (nothing is solved). */
const ff_solver *ff_fields_peek(const ff_fields *f, int g);
/* Changes whenever group G's field does (solved, repaired, dropped). */
unsigned ff_fields_version(const ff_fields *f, int g);

/* Congestion-aware routing: from now on every field counts the crowd
 * CROWD (borrowed, w*h, 256 = no slowing; cost.h), or none for NULL.
 * While it is set, lent fields are not used (they do not count it): each
 * group gets a field of its own.  Drops the fields made so far (nothing
 * when CROWD is already the one set). */
void ff_fields_set_crowd(ff_fields *f, const uint16_t *crowd);
/* After the contents of the crowd term changed: solves every field made
 * here again in place (no allocation), bit for bit a new field.  Groups
 * without a field yet get theirs when next asked for. */
void ff_fields_crowd_changed(ff_fields *f);
/* After the costs of cells in [X0, X1] x [Y0, Y1] changed: repairs every
 * field made here (lent ones are their owner's), bit for bit a full
 * solve; one that cannot be repaired is dropped.  FF_E_NOMEM never
 * happens (repair does not allocate). */
void ff_fields_cells_changed(ff_fields *f, int x0, int y0, int x1, int y1);
/* After the goals, groups, classes or cost rules (the wall penalty)
 * changed: drops every field whose group's goals or costs (its class's,
 * the wall penalty's) differ from those it was solved for. */
void ff_fields_meta_changed(ff_fields *f);
/* After the level changed size: drops every field made here. */
void ff_fields_drop_all(ff_fields *f);

#endif
