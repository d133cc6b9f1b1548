/*
 * ctl_split.c - the split view: a second pane whose own solver solves the
 * same level towards the same goals with other words (method,
 * connectivity, arrow rule), taking the same steps as the session's
 * field, so two methods can be watched side by side.
 */
#include <stdio.h>
#include <string.h>

#include "ctl_int.h"

void ff_ctl_sync_split(ff_ctl *c)
{
	const ff_session *s = c->s;
	const ff_level *l = s->level;
	ff_ctl_split *sp = &c->split;

	sp->field = false;
	if (!sp->on || !s->field)
		return;
	if (!sp->solver || sp->w != l->w || sp->h != l->h) {
		ff_solver_destroy(sp->solver);
		sp->solver = ff_solver_too_big(l->w, l->h, s->mem_avail, NULL, 0) ? NULL :
			     ff_solver_create(l->w, l->h);
		if (!sp->solver)
			return;
		sp->w = l->w, sp->h = l->h;
	}
	if (ff_solver_begin(sp->solver, l, l->meta.goals, l->meta.ngoals, &sp->opts))
		return;
	for (int i = 0; i < s->nsteps; i++)
		ff_solver_step(sp->solver, s->steps[i].unit, s->steps[i].n);
	sp->field = true;
}

unsigned ff_ui_split(ff_ctl *c, int argc, char **argv)
{
	ff_solver_opts o = c->s->opts;

	if ((argc == 2 && !strcmp(argv[1], "off")) || (argc == 1 && c->split.on)) {
		c->split.on = false;
		c->split.field = false;
		ff_ctl_follow(c);
		ff_ctl_say(c, false, "split view off");
		return FF_UI_CLEAR;
	}
	/* default: the other method */
	if (argc == 1)
		ff_method_parse(o.method == FF_METHOD_FMM ? "dijkstra" : "fmm", &o);
	for (int i = 1; i < argc; i++)
		if (!ff_solver_word(argv[i], &o))
			return ff_ctl_usage(c, argv[0]);
	c->split.opts = o;
	c->split.on = true;
	ff_ctl_sync_split(c);
	ff_ctl_follow(c);
	ff_ctl_say(c, false, "split view: %s, then %s; steps apply to both",
		   ff_method_label(&c->s->opts), ff_method_label(&o));
	return FF_UI_CLEAR;
}
