/*
 * lib.h - what libfieldmarshal's handles hold: the core objects they
 * wrap (never seen by users, whose header keeps them opaque).
 */
#ifndef FF_LIB_H
#define FF_LIB_H

#include <stdbool.h>

#include "core/fields.h"
#include "core/level.h"
#include "core/sim.h"
#include "core/solver.h"

struct fm_level {
	ff_level *l;             /* owned */
};

struct fm_field {
	ff_solver *s;            /* owned */
	ff_solver_opts opts;     /* of the last solve */
	int w, h;
	const struct fm_level *solved; /* the level of the last solve, or NULL */
};

struct fm_sim {
	ff_sim *sim;             /* owned */
	ff_fields *f;            /* owned: lends the field to the crowd, whose
				  * agents are all of the default group */
};

#endif
