/*
 * session.h - one editing session: the level being edited, its undo and redo
 * history, and (as they land) the solver and simulation state.  Commands
 * (cmd.h) are the only way the layers above change a session.
 */
#ifndef FF_SESSION_H
#define FF_SESSION_H

#include <stdbool.h>

#include "buf.h"
#include "fields.h"
#include "level.h"
#include "level_patch.h"
#include "sim.h"
#include "solver.h"

#define FF_UNDO_MAX 1000
/* What the undo history may hold, in bytes of saved cells and meta: a fill
 * of a 4096 x 4096 level saves 16 MB, of a 16384 x 16384 one 256 MB.  The
 * oldest records go first; the last one always stays. */
#define FF_UNDO_BYTES ((size_t)256 << 20)

/* One 'step' command since the solve began, so a step can be taken back by
 * solving again and replaying all but the last. */
typedef struct ff_step_rec {
	ff_step_unit unit;
	long n;
} ff_step_rec;

/* A command scheduled by 'at' for when the simulation reaches a tick. */
typedef struct ff_at {
	long tick;
	char *line;              /* owned */
} ff_at;

typedef struct ff_session {
	ff_level *level;         /* owned */
	ff_patch undo[FF_UNDO_MAX];
	int nundo;
	ff_patch redo[FF_UNDO_MAX];
	int nredo;
	/* Records below these are out of reach (a recording began there, and
	 * its replay has no such history): ff_session_mark_history(). */
	int undo_floor, redo_floor;
	size_t undo_bytes_max;   /* FF_UNDO_BYTES (tests set less) */
	bool modified;           /* changed since loaded or last marked saved */
	size_t mem_avail;        /* bytes a field may take; 0: no limit known
				    (the front ends set it from the system) */

	/* The field: a solve of the level's goals, kept current as it changes. */
	ff_solver *solver;       /* owned; NULL until the first solve */
	int solver_w, solver_h;  /* the size it was made for */
	bool solver_hier_only;   /* made for the method hier alone (no buffers
				    of a full field) */
	ff_solver_opts opts;     /* method and connectivity of the field */
	bool field;              /* a solve has begun and is kept current */
	ff_step_rec *steps;      /* the steps taken since it began */
	int nsteps, steps_cap;
	char note[160];          /* what the last refresh did, for the status */

	/* The crowd: each group follows its own field (the field above is
	 * lent to it for the group it shows). */
	ff_fields *fields;       /* owned; NULL until agents are first added
				    or a group's field is asked for */
	ff_sim *sim;             /* owned; NULL until agents are first added */
	unsigned sim_flags;      /* FF_SIM_* */

	/* The session's own history, kept after ff_session_keep_log(): the
	 * level's text as it was then and every command that succeeded since,
	 * a line each ('tick N' runs merged).  Running it again rebuilds
	 * everything, the agents too, whose state no command describes; a
	 * recording that starts with agents begins with it. */
	bool logging;
	bool log_lost;           /* an append failed: no longer complete */
	char *log_origin;        /* owned */
	size_t log_origin_len;
	ff_buf log;

	/* Commands waiting for their tick, in tick order (the order given
	 * among equal ticks). */
	ff_at *at;
	int nat, at_cap;
} ff_session;

/* Starts a session on LEVEL, taking ownership of it. */
void ff_session_init(ff_session *s, ff_level *level);
/* Frees the level and the history. */
void ff_session_fini(ff_session *s);
/* Keeps the session's history from now on (see 'logging'); call it before
 * the first command, while the undo history is empty, as the editor does
 * (the history's replay has no undo records from before).  FF_E_NOMEM (no
 * history then); FF_E_STATE when there is already undo history. */
ff_err ff_session_keep_log(ff_session *s);
/* Appends command LINE, which just succeeded, to the history when it is
 * kept (ff_cmd_exec() does).  A 'tick N' after a 'tick M' becomes one
 * 'tick N+M'. */
void ff_session_log(ff_session *s, const char *line);
/* Records P (taken over, left empty) as the undo of the mutation just made
 * and forgets the redo history; the oldest record is dropped when full.
 * FF_E_NOMEM when the field cannot follow for want of memory (a solver for
 * a new size): the mutation is then taken back, P freed, and the session
 * is as it was before it. */
ff_err ff_session_push_undo(ff_session *s, ff_patch *p);
/* Undoes / redoes one mutation; FF_E_STATE when there is none, FF_E_RANGE
 * when the next one lies below the mark, FF_E_NOMEM (nothing changed) as
 * for ff_session_push_undo(). */
ff_err ff_session_undo(ff_session *s);
ff_err ff_session_redo(ff_session *s);
/* ON: puts the history there is now out of reach of undo and redo (a
 * recording begins: its replay starts without it); off: back in reach. */
void ff_session_mark_history(ff_session *s, bool on);

/* The group whose goals the session's field solves, by the costs of its
 * movement class: ff_level_field_group() of its level. */
int ff_session_field_group(const ff_session *s);
/* Begins a field with OPTS (NULL: keep the current ones) and forgets the
 * steps taken.  FF_E_NOTFOUND when the level has no goals, FF_E_WALL when
 * they lie on walls only; the previous field is kept on error. */
ff_err ff_session_begin(ff_session *s, const ff_solver_opts *opts);
/* Takes a step (beginning a field first when there is none) and records it.
 * Returns the phase reached in *PHASE. */
ff_err ff_session_step(ff_session *s, ff_step_unit unit, long n, ff_phase *phase);
/* Takes back the last N steps (solving again and replaying the rest). */
ff_err ff_session_step_back(ff_session *s, int n);
/* Drops the field (the solver's buffers stay for the next solve). */
void ff_session_clear_field(ff_session *s);
/* The simulation, created on first use; needs a finished field
 * (FF_E_STATE otherwise). */
ff_err ff_session_sim(ff_session *s, ff_sim **out);
/* Group G's field as its agents follow it (fields.h) into *OUT, solved
 * now when there is none; the crowd's fields are made for it when there
 * is no crowd yet (they hold nothing of a run: no state hash changes).
 * The fields follow the level's edits while the session keeps a field,
 * as the crowd does: FF_E_STATE when it keeps none (solve first).
 * FF_E_NOMEM, or ff_fields_get()'s errors (FF_E_NOTFOUND: the group has
 * no goals). */
ff_err ff_session_group_field(ff_session *s, int g, const ff_solver **out);
/* Ticks the simulation has run (0 when there is none). */
long ff_session_tick(const ff_session *s);

/* Schedules a copy of the N bytes of LINE for tick TICK, after those
 * already scheduled for it; FF_E_NOMEM (nothing scheduled).  Checking
 * LINE and TICK is the caller's (cmd.c). */
ff_err ff_session_at(ff_session *s, long tick, const char *line, size_t n);
/* Takes the first scheduled command due by tick NOW off the schedule:
 * its line (the caller frees it) and tick in *TICK, or NULL when none. */
char *ff_session_at_due(ff_session *s, long now, long *tick);
/* Drops every scheduled command. */
void ff_session_at_clear(ff_session *s);

#endif
