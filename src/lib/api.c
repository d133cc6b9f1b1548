/*
 * api.c - libfieldmarshal's levels and fields (fieldmarshal.h): thin
 * wrappers over the core's level and solver, so that the core may change
 * inside while the public names and their meaning stay.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "config.h"
#include "core/level_text.h"
#include "core/solver.h"
#include "fieldmarshal.h"
#include "lib.h"

const char *fm_version(void)
{
	return PACKAGE_VERSION;
}

const char *fm_strerror(int err)
{
	return ff_strerror((ff_err)err);
}

static fm_level *wrap(ff_level *l)
{
	fm_level *level = l ? malloc(sizeof *level) : NULL;

	if (!level)
		ff_level_destroy(l);
	else
		level->l = l;
	return level;
}

fm_level *fm_level_new(int w, int h)
{
	return wrap(ff_level_create(w, h, "level"));
}

fm_level *fm_level_parse(const char *text, size_t len, char *msg, size_t size)
{
	ff_level *l = NULL;
	ff_diag d;
	ff_err err = ff_level_parse_any(text, len, "level", &l, &d);

	if (err == FF_E_PARSE && msg && size)
		snprintf(msg, size, "%d:%d: %s", d.line, d.col, d.msg);
	else if (err && msg && size)
		snprintf(msg, size, "%s", ff_strerror(err));
	return err ? NULL : wrap(l);
}

void fm_level_free(fm_level *level)
{
	if (level) {
		ff_level_destroy(level->l);
		free(level);
	}
}

int fm_level_width(const fm_level *level)
{
	return level->l->w;
}

int fm_level_height(const fm_level *level)
{
	return level->l->h;
}

int fm_level_cost(const fm_level *level, int x, int y)
{
	return ff_level_in(level->l, x, y) ? ff_level_cost(level->l, x, y) : -1;
}

int fm_level_set_cost(fm_level *level, int x, int y, int cost)
{
	if (cost != FM_WALL && (cost < 1 || cost > FM_COST_MAX))
		return FF_E_INVAL;
	return ff_level_paint(level->l, x, y, cost, NULL);
}

int fm_level_add_goal(fm_level *level, int x, int y, int w, int h)
{
	ff_shape s = {w == 1 && h == 1 ? FF_SHAPE_CELL : FF_SHAPE_RECT, x, y, w, h, 0};

	if (w < 1 || h < 1)
		return FF_E_INVAL;
	return ff_level_goal_add(level->l, &s, NULL);
}

void fm_level_clear_goals(fm_level *level)
{
	ff_level_goal_clear(level->l, NULL);
}

int fm_level_set_param(fm_level *level, const char *name, double value)
{
	int id = ff_param_by_name(name);

	return id < 0 ? FF_E_NOTFOUND : ff_level_param_set(level->l, (ff_param_id)id, value, NULL);
}

fm_field *fm_field_new(int w, int h)
{
	fm_field *f = malloc(sizeof *f);

	if (!f)
		return NULL;
	f->s = ff_solver_create(w, h);
	f->w = w, f->h = h, f->solved = NULL;
	if (!f->s) {
		free(f);
		return NULL;
	}
	return f;
}

void fm_field_free(fm_field *field)
{
	if (field) {
		ff_solver_destroy(field->s);
		free(field);
	}
}

int fm_field_solve(fm_field *field, const fm_level *level, fm_method method)
{
	static const ff_solver_opts opts[] = {
		[FM_DIJKSTRA] = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_CHEAPEST, 0, false},
		[FM_DIJKSTRA_4] = {FF_METHOD_DIJKSTRA, 4, 1, FF_ARROW_CHEAPEST, 0, false},
		[FM_FAST_MARCHING] = {FF_METHOD_FMM, 4, 1, FF_ARROW_CHEAPEST, 0, false},
		[FM_FAST_MARCHING_2] = {FF_METHOD_FMM, 4, 2, FF_ARROW_CHEAPEST, 0, false},
	};
	const ff_level *l = level->l;
	ff_err err;

	if ((unsigned)method > FM_FAST_MARCHING_2 || l->w != field->w || l->h != field->h)
		return FF_E_INVAL;
	err = ff_solver_solve(field->s, l, l->meta.goals, l->meta.ngoals, &opts[method]);
	if (!err) {
		field->solved = level;
		field->opts = opts[method];
	}
	return err;
}

double fm_field_value(const fm_field *field, int x, int y)
{
	if (!field->solved || x < 0 || y < 0 || x >= field->w || y >= field->h)
		return INFINITY;
	return ff_solver_value(field->s, x, y);
}

int fm_field_direction(const fm_field *field, int x, int y, int *dx, int *dy)
{
	int d = field->solved && x >= 0 && y >= 0 && x < field->w && y < field->h ?
		ff_solver_dir(field->s, x, y) : FF_DIR_NONE;

	*dx = d == FF_DIR_NONE ? 0 : ff_dir_dx[d];
	*dy = d == FF_DIR_NONE ? 0 : ff_dir_dy[d];
	return d != FF_DIR_NONE;
}

void fm_field_flow(const fm_field *field, double x, double y, double *dx, double *dy)
{
	float fx = 0, fy = 0;

	if (field->solved)
		ff_solver_sample(field->s, x, y, &fx, &fy);
	*dx = fx, *dy = fy;
}
