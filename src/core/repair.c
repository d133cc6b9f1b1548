/*
 * repair.c - incremental update of a finished solve after cost edits.
 */
#include "solver_int.h"

ff_err ff_solver_repair(ff_solver *s, int x0, int y0, int x1, int y1)
{
	ff_solver_opts o;

	if (!s || s->phase != FF_PHASE_DONE)
		return FF_E_STATE;
	(void)x0, (void)y0, (void)x1, (void)y1;
	o = s->opts;
	return ff_solver_solve(s, s->lvl, s->goals, s->ngoals, &o);
}
