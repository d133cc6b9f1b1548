/*
 * trajectory.h - a simulation's trajectories in JuPedSim's SQLite format,
 * version 2, as PedPy's load_trajectory_from_jupedsim_sqlite() and
 * load_walkable_area_from_jupedsim_sqlite() read it (docs/simulation.md,
 * "Trajectories"):
 *
 *   trajectory_data(frame INTEGER, id INTEGER, pos_x REAL, pos_y REAL,
 *                   ori_x REAL, ori_y REAL)         metres; one row per
 *                                                   agent and frame
 *   metadata(key TEXT PRIMARY KEY, value TEXT)      version 2, fps, xmin,
 *                                                   xmax, ymin, ymax
 *   geometry(hash INTEGER, wkt TEXT)                the walkable area
 *   frame_data(frame INTEGER, geometry_hash INTEGER)
 *
 * The file is built under a temporary name beside the target and renamed
 * over it by ff_traj_finish(), so a failed or interrupted run never leaves
 * a half-written file where the trajectories were asked for.
 */
#ifndef FF_STORE_TRAJECTORY_H
#define FF_STORE_TRAJECTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/err.h"
#include "core/level.h"
#include "core/sim.h"

typedef struct ff_traj ff_traj;

/* Starts trajectories for PATH at FPS frames per second, with the walkable
 * area of LEVEL (the 4-connected regions of passable cells that hold a
 * goal, as rectangles in metres with CELL_SIZE m per cell).  An existing
 * PATH that is not a trajectory file (no trajectory_data and metadata
 * tables) is refused unless FORCE; a directory or an unwritable place
 * always.  On failure returns NULL with a one-line reason in ERR (N
 * bytes).  Caller ends it with ff_traj_finish() or ff_traj_abort(). */
ff_traj *ff_traj_create(const char *path, bool force, double fps, const ff_level *level,
			double cell_size, char *err, size_t n);
/* Appends frame FRAME: every agent present in SIM, its position and unit
 * heading (its velocity's direction; 0, 0 when it stands).  FF_E_IO with a
 * reason in ERR on failure. */
ff_err ff_traj_frame(ff_traj *t, long frame, const ff_sim *sim, char *err, size_t n);
/* Commits and moves the file into place, then frees T.  FF_E_IO with a
 * reason in ERR on failure (the temporary file is removed then). */
ff_err ff_traj_finish(ff_traj *t, char *err, size_t n);
/* Removes the temporary file and frees T; NULL is a no-op. */
void ff_traj_abort(ff_traj *t);
/* The temporary file T writes until ff_traj_finish() (for a signal
 * handler to remove). */
const char *ff_traj_tmp(const ff_traj *t);
/* How many separate parts the walkable area written for LEVEL has (more
 * than one: PedPy cannot load it as one walkable area). */
int ff_traj_parts(const ff_level *level);

#endif
