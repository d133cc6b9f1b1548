/*
 * fields.c - one solver per group, made when the group's field is first
 * asked for (see fields.h).  A field remembers the goals and the costs (its
 * group's movement class's) it was solved for, so a change of goals,
 * classes or cost rules drops exactly the fields it touched.
 *
 * The groups' solvers share one queue workspace (solver.h): each keeps
 * only its field, 10 bytes a cell.  That is sound because they are solved
 * and repaired here one after another, each to the end in one call, and
 * never stepped.  The workspace is made with the first solver and freed
 * with the last.
 */
#include <stdlib.h>
#include <string.h>

#include "fields.h"

typedef struct field {
	ff_solver *own;              /* made here, or NULL */
	const ff_solver *lent;       /* lent by the caller, or NULL */
	ff_shape *goals;             /* what OWN was solved for (NGOALS,
					made with it) */
	int ngoals;
	ff_costs costs;              /* and by which costs */
	unsigned version;
} field;

struct ff_fields {
	const ff_level *level;
	ff_solver_opts opts;
	const uint16_t *crowd;       /* the crowd term, or NULL */
	ff_solver_work *work;        /* the solvers' queue, or NULL */
	field f[FF_GROUPS_MAX];
	int bad_goal;                /* of the last failed get, or -1 */
};

ff_fields *ff_fields_create(const ff_level *level, const ff_solver_opts *opts)
{
	ff_fields *f = calloc(1, sizeof *f);

	if (!f)
		return NULL;
	f->level = level;
	f->opts = *opts;
	f->bad_goal = -1;
	return f;
}

/* Frees the workspace once no solver is made on it. */
static void release_work(ff_fields *f)
{
	for (int g = 0; g < FF_GROUPS_MAX; g++)
		if (f->f[g].own)
			return;
	ff_solver_work_destroy(f->work);
	f->work = NULL;
}

/* Frees D's solver. */
static void unmake(ff_fields *f, field *d)
{
	ff_solver_destroy(d->own);
	free(d->goals);
	d->own = NULL;
	d->goals = NULL;
	d->ngoals = 0;
	release_work(f);
}

static void drop(ff_fields *f, field *d)
{
	unmake(f, d);
	d->version++;
}

/* A solver for a field of F (on the shared workspace, made with the
 * first), or NULL when out of memory. */
static ff_solver *new_solver(ff_fields *f)
{
	if (f->opts.method == FF_METHOD_HIER)
		return ff_solver_create_hier(f->level->w, f->level->h);
	if (!f->work)
		f->work = ff_solver_work_create(f->level->w, f->level->h);
	return f->work ? ff_solver_create_shared(f->work) : NULL;
}

void ff_fields_destroy(ff_fields *f)
{
	if (!f)
		return;
	for (int g = 0; g < FF_GROUPS_MAX; g++) {
		ff_solver_destroy(f->f[g].own);
		free(f->f[g].goals);
	}
	ff_solver_work_destroy(f->work);
	free(f);
}

size_t ff_fields_bytes(const ff_fields *f)
{
	size_t b = sizeof *f + (f->work ? ff_solver_work_bytes(f->work) : 0);

	for (int g = 0; g < FF_GROUPS_MAX; g++)
		b += f->f[g].own ? ff_solver_bytes(f->f[g].own) +
				   (size_t)f->f[g].ngoals * sizeof(ff_shape) : 0;
	return b;
}

void ff_fields_set_opts(ff_fields *f, const ff_solver_opts *opts)
{
	f->opts = *opts;
	for (int g = 0; g < FF_GROUPS_MAX; g++)
		if (f->f[g].own)
			drop(f, &f->f[g]);
}

void ff_fields_lend(ff_fields *f, int g, const ff_solver *solver)
{
	field *d = &f->f[g];

	if (d->lent == solver)
		return;
	d->lent = solver;
	if (d->own)
		drop(f, d);
	else
		d->version++;
}

/* The costs group G's field is solved by now: its class's (and the
 * crowd's when it counts). */
static void costs_of(const ff_fields *f, int g, ff_costs *c)
{
	ff_costs_init(c, f->level, ff_solver_metric(&f->opts));
	ff_costs_set_crowd(c, f->crowd);
	ff_costs_set_class(c, g < f->level->meta.ngroups ? f->level->meta.group_class[g] : 0);
}

/* Group G's lent field, when there is one for the group's class and the
 * crowd does not count (a lent field does not count it). */
static const ff_solver *lent(const ff_fields *f, int g)
{
	const ff_solver *sv = f->f[g].lent;

	return sv && !f->crowd && ff_solver_class(sv) == f->level->meta.group_class[g] ? sv : NULL;
}

ff_err ff_fields_get(ff_fields *f, int g, const ff_solver **out)
{
	field *d;
	ff_shape goals[FF_GOALS_MAX];
	int n;
	ff_err e;

	f->bad_goal = -1;
	if (g < 0 || g >= FF_GROUPS_MAX || g >= f->level->meta.ngroups)
		return FF_E_RANGE;
	d = &f->f[g];
	if (lent(f, g)) {
		*out = d->lent;
		return FF_OK;
	}
	if (d->own) {
		*out = d->own;
		return FF_OK;
	}
	if ((n = ff_level_group_goals(f->level, g, goals)) == 0)
		return FF_E_NOTFOUND;
	/* the hierarchy holds the default class's costs, no crowd */
	if (f->opts.method == FF_METHOD_HIER && (f->level->meta.group_class[g] || f->crowd))
		return FF_E_INVAL;
	d->own = new_solver(f);
	d->goals = malloc((size_t)n * sizeof *d->goals);
	if (!d->own || !d->goals) {
		unmake(f, d);
		return FF_E_NOMEM;
	}
	ff_solver_set_crowd(d->own, f->crowd);
	ff_solver_set_class(d->own, f->level->meta.group_class[g]);
	if ((e = ff_solver_solve(d->own, f->level, goals, n, &f->opts)) != FF_OK) {
		/* the group's k-th goal is the level's i-th of the group */
		for (int i = 0, k = ff_solver_bad_goal(d->own); k >= 0 && i < f->level->meta.ngoals; i++)
			if (f->level->meta.goal_group[i] == g && k-- == 0)
				f->bad_goal = i;
		unmake(f, d);
		return e;
	}
	memcpy(d->goals, goals, (size_t)n * sizeof goals[0]);
	d->ngoals = n;
	costs_of(f, g, &d->costs);
	d->version++;
	*out = d->own;
	return FF_OK;
}

int ff_fields_bad_goal(const ff_fields *f)
{
	return f->bad_goal;
}

const ff_solver *ff_fields_peek(const ff_fields *f, int g)
{
	if (g < 0 || g >= FF_GROUPS_MAX)
		return NULL;
	return g < f->level->meta.ngroups && lent(f, g) ? lent(f, g) : f->f[g].own;
}

void ff_fields_set_crowd(ff_fields *f, const uint16_t *crowd)
{
	if (crowd == f->crowd)
		return;
	f->crowd = crowd;
	for (int g = 0; g < FF_GROUPS_MAX; g++)
		if (f->f[g].own)
			drop(f, &f->f[g]);
		else
			f->f[g].version++; /* a lent field is in or out of use */
}

void ff_fields_crowd_changed(ff_fields *f)
{
	for (int g = 0; g < FF_GROUPS_MAX; g++) {
		field *d = &f->f[g];

		if (!d->own)
			continue;
		/* the same goals on the same cells: cannot fail */
		if (ff_solver_solve(d->own, f->level, d->goals, d->ngoals, &f->opts) == FF_OK)
			d->version++;
		else
			drop(f, d);
	}
}

unsigned ff_fields_version(const ff_fields *f, int g)
{
	return g >= 0 && g < FF_GROUPS_MAX ? f->f[g].version : 0;
}

void ff_fields_cells_changed(ff_fields *f, int x0, int y0, int x1, int y1)
{
	for (int g = 0; g < FF_GROUPS_MAX; g++) {
		field *d = &f->f[g];

		if (d->lent) {
			d->version++; /* its owner repaired it */
			continue;
		}
		if (!d->own)
			continue;
		if (ff_solver_repair(d->own, x0, y0, x1, y1) == FF_OK)
			d->version++;
		else
			drop(f, d);
	}
}

void ff_fields_meta_changed(ff_fields *f)
{
	for (int g = 0; g < FF_GROUPS_MAX; g++) {
		field *d = &f->f[g];
		ff_shape goals[FF_GOALS_MAX];
		ff_costs now;
		int n;

		if (d->lent) {
			d->version++;
			continue;
		}
		if (!d->own)
			continue;
		n = g < f->level->meta.ngroups ? ff_level_group_goals(f->level, g, goals) : 0;
		costs_of(f, g, &now);
		if (n != d->ngoals || memcmp(goals, d->goals, (size_t)n * sizeof goals[0]) ||
		    !ff_costs_same(&now, &d->costs))
			drop(f, d);
	}
}

void ff_fields_drop_all(ff_fields *f)
{
	for (int g = 0; g < FF_GROUPS_MAX; g++)
		if (f->f[g].own)
			drop(f, &f->f[g]);
		else
			f->f[g].version++;
}
