/*
 * session.h - one editing session: the level being edited, its undo and redo
 * history, and (as they land) the solver and simulation state.  Commands
 * (cmd.h) are the only way the layers above change a session.
 */
#ifndef FF_SESSION_H
#define FF_SESSION_H

#include <stdbool.h>

#include "level.h"
#include "patch.h"

#define FF_UNDO_MAX 1000

typedef struct ff_session {
	ff_level *level;         /* owned */
	ff_patch undo[FF_UNDO_MAX];
	int nundo;
	ff_patch redo[FF_UNDO_MAX];
	int nredo;
	bool modified;           /* changed since loaded or last marked saved */
} ff_session;

/* Starts a session on LEVEL, taking ownership of it. */
void ff_session_init(ff_session *s, ff_level *level);
/* Frees the level and the history. */
void ff_session_fini(ff_session *s);
/* Records P (taken over, left empty) as the undo of the last mutation and
 * forgets the redo history.  The oldest record is dropped when full. */
void ff_session_push_undo(ff_session *s, ff_patch *p);
/* Undoes / redoes one mutation; FF_E_STATE when there is none. */
ff_err ff_session_undo(ff_session *s);
ff_err ff_session_redo(ff_session *s);

#endif
