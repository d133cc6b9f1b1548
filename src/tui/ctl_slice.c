/*
 * ctl_slice.c - a 'solve' of a large level (more than the slice's cells)
 * runs in slices between input polls, so the editor keeps answering keys:
 * 'step begin' with the solve's words, then 'step cell N' from
 * ff_ctl_idle() until the field is done.  Both are core commands, so the
 * result (and a recording) is the same as a one-shot solve's.
 */
#include <stdio.h>
#include <string.h>

#include "ctl_int.h"

unsigned ff_ctl_solve_sliced(ff_ctl *c, int argc, char **argv, bool *handled)
{
	const ff_level *l = c->s->level;
	char line[128] = "step begin";
	unsigned ui;

	*handled = false;
	if ((argc == 2 && !strcmp(argv[1], "off")) || argc > 4 ||
	    (long)l->w * l->h <= c->slice.cells)
		return 0;
	*handled = true;
	for (int i = 1; i < argc; i++)
		snprintf(line + strlen(line), sizeof line - strlen(line), " %s", argv[i]);
	ui = ff_ctl_core(c, line, true);
	if (c->msg_error)
		return ui;
	c->slice.solving = true;
	ff_ctl_say(c, false, "solving %dx%d in slices of %ld cells", l->w, l->h, c->slice.cells);
	return ui | FF_UI_MSG;
}

unsigned ff_ctl_slice_idle(ff_ctl *c)
{
	char line[64];
	unsigned ui;

	if (!c->s->field) {
		c->slice.solving = false;
		return FF_UI_STATUS;
	}
	snprintf(line, sizeof line, "step cell %ld", c->slice.cells);
	ui = ff_ctl_core(c, line, false);
	if (c->msg_error || ff_solver_phase(c->s->solver) == FF_PHASE_DONE) {
		c->slice.solving = false;
		if (!c->msg_error)
			ff_ctl_say(c, false, "solved: %ld cells settled",
				   ff_solver_settled(c->s->solver));
		ui |= FF_UI_MSG | FF_UI_GRID;
	}
	return ui;
}
