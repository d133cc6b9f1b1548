/*
 * check_level.c - the level model: creation limits, every mutator and its
 * undo patch (applying the patch restores the exact level, applying it again
 * redoes), and rejection of bad arguments with the level unchanged.
 */
#include <math.h>
#include <string.h>

#include "core/level.h"
#include "core/level_dyn.h"
#include "core/level_patch.h"
#include "testlevel.h"

static ff_level *make(void)
{
	ff_level *l = ff_level_create(20, 12, "t");
	ck_assert_ptr_nonnull(l);
	return l;
}

START_TEST(create_limits)
{
	ff_level *l;

	ck_assert_ptr_null(ff_level_create(0, 5, "a"));
	ck_assert_ptr_null(ff_level_create(5, 0, "a"));
	ck_assert_ptr_null(ff_level_create(16385, 5, "a"));
	ck_assert_ptr_null(ff_level_create(5, 16385, "a"));
	ck_assert_ptr_null(ff_level_create(5, 5, "bad name"));
	ck_assert_ptr_null(ff_level_create(5, 5, ""));
	l = ff_level_create(FF_LEVEL_MAX_SIDE, 1, "wide");
	ck_assert_ptr_nonnull(l);
	ck_assert_int_eq(ff_level_cost(l, FF_LEVEL_MAX_SIDE - 1, 0), 1);
	ff_level_destroy(l);
	ff_level_destroy(NULL);
}
END_TEST

START_TEST(default_palette_and_params)
{
	ff_level *l = make();

	ck_assert_int_ge(ff_level_terrain_by_name(l, "grass"), 0);
	ck_assert_int_eq(l->meta.palette[ff_level_terrain_by_name(l, "grass")].cost, 1);
	ck_assert_int_eq(l->meta.palette[ff_level_terrain_by_name(l, "forest")].cost, 2);
	ck_assert_int_eq(l->meta.palette[ff_level_terrain_by_name(l, "mud")].cost, 3);
	ck_assert_int_eq(l->meta.palette[ff_level_terrain_by_name(l, "swamp")].cost, 5);
	ck_assert_int_eq(l->meta.palette[ff_level_terrain_by_name(l, "water")].cost, 20);
	ck_assert_int_eq(l->meta.palette[ff_level_terrain_by_name(l, "wall")].cost, FF_WALL);
	ck_assert_int_eq(ff_param_by_name("speed"), FF_P_SPEED);
	ck_assert_int_eq(ff_param_by_name("nope"), -1);
	ck_assert(l->meta.params[FF_P_SPEED] == ff_param_info_get(FF_P_SPEED)->def);
	ff_level_destroy(l);
}
END_TEST

START_TEST(paint_and_undo)
{
	ff_level *l = make(), *before = ff_level_clone(l);
	ff_patch p = FF_PATCH_INIT;

	ck_assert_int_eq(ff_level_paint(l, 3, 4, FF_WALL, &p), FF_OK);
	ck_assert_int_eq(ff_level_cost(l, 3, 4), FF_WALL);
	ck_assert_int_eq(ff_level_cost(l, 4, 4), 1);
	tl_check_undo(l, before, &p);
	ff_level_destroy(l);
	ff_level_destroy(before);
}
END_TEST

/* Walls of their own (trees): painted by kind, undone and redone, filled
 * as a region of their own, kept by a resize, and unknown kinds refused. */
START_TEST(wall_kinds_paint_fill_resize_undo)
{
	ff_level *l = make(), *before;
	ff_patch p = FF_PATCH_INIT;
	int tree;

	ck_assert_int_eq(ff_level_paint(l, 1, 1, FF_WALL_KIND(1), NULL), FF_E_INVAL);
	ck_assert_int_eq(ff_level_terrain_add(l, "tree", 'T', FF_WALL, NULL, NULL), FF_OK);
	tree = ff_level_terrain_by_name(l, "tree");
	ck_assert_int_eq(ff_level_terrain_value(l, tree), FF_WALL_KIND(1));
	ck_assert_int_eq(ff_level_terrain_by_value(l, FF_WALL_KIND(1)), tree);
	ck_assert_int_eq(ff_level_terrain_by_value(l, FF_WALL), ff_level_terrain_by_name(l, "wall"));
	ck_assert_int_eq(ff_level_terrain_by_value(l, FF_WALL_KIND(2)), -1);
	/* a wall and a row of trees beside it */
	ck_assert_int_eq(ff_level_paint(l, 0, 2, FF_WALL, NULL), FF_OK);
	before = ff_level_clone(l);
	ck_assert_int_eq(ff_level_rect(l, 1, 2, 4, 1, FF_WALL_KIND(1), &p), FF_OK);
	ck_assert_int_eq(ff_level_cost(l, 2, 2), FF_WALL);
	ck_assert_int_eq(ff_level_value(l, 2, 2), FF_WALL_KIND(1));
	ck_assert_int_eq(ff_level_value(l, 0, 2), FF_WALL);
	tl_check_undo(l, before, &p);
	ck_assert_int_eq(ff_level_rect(l, 1, 2, 4, 1, FF_WALL_KIND(1), NULL), FF_OK);
	/* filling the trees with water leaves the wall beside them */
	ff_level_destroy(before);
	before = ff_level_clone(l);
	ck_assert_int_eq(ff_level_fill(l, 3, 2, 20, &p), FF_OK);
	ck_assert_int_eq(ff_level_value(l, 4, 2), 20);
	ck_assert_int_eq(ff_level_value(l, 0, 2), FF_WALL);
	ck_assert_int_eq(l->walls[2 * l->w + 4], 0);  /* passable: kind 0 */
	tl_check_undo(l, before, &p);
	ck_assert_int_eq(ff_level_value(l, 4, 2), FF_WALL_KIND(1));
	/* a resize keeps the kinds it keeps the cells of */
	ff_level_destroy(before);
	before = ff_level_clone(l);
	ck_assert_int_eq(ff_level_resize(l, 3, 3, &p), FF_OK);
	ck_assert_int_eq(ff_level_value(l, 2, 2), FF_WALL_KIND(1));
	tl_check_undo(l, before, &p);
	/* a tree is not a wall of the first kind */
	ff_level_destroy(before);
	before = ff_level_clone(l);
	ck_assert_int_eq(ff_level_paint(l, 2, 2, FF_WALL, NULL), FF_OK);
	ck_assert(!ff_level_equal(l, before));
	ff_level_destroy(before);
	ff_level_destroy(l);
}
END_TEST

START_TEST(rect_line_circle_exact_cells)
{
	ff_level *l = make(), *before;
	ff_patch p = FF_PATCH_INIT;
	int n = 0;

	before = ff_level_clone(l);
	ck_assert_int_eq(ff_level_rect(l, 2, 3, 4, 2, 5, &p), FF_OK);
	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++)
			n += ff_level_cost(l, x, y) == 5;
	ck_assert_int_eq(n, 8);
	ck_assert_int_eq(ff_level_cost(l, 5, 4), 5);
	ck_assert_int_eq(ff_level_cost(l, 6, 4), 1);
	tl_check_undo(l, before, &p);

	/* A diagonal line from (0,0) to (5,5) paints exactly the 6 diagonal cells. */
	ck_assert_int_eq(ff_level_line(l, 0, 0, 5, 5, 2, &p), FF_OK);
	n = 0;
	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++)
			if (ff_level_cost(l, x, y) == 2) {
				ck_assert_int_eq(x, y);
				n++;
			}
	ck_assert_int_eq(n, 6);
	tl_check_undo(l, before, &p);

	/* A horizontal line includes both ends. */
	ck_assert_int_eq(ff_level_line(l, 9, 2, 4, 2, 3, &p), FF_OK);
	for (int x = 4; x <= 9; x++)
		ck_assert_int_eq(ff_level_cost(l, x, 2), 3);
	ck_assert_int_eq(ff_level_cost(l, 3, 2), 1);
	ck_assert_int_eq(ff_level_cost(l, 10, 2), 1);
	tl_check_undo(l, before, &p);

	/* Radius 2 circle: the 13 cells with dx^2 + dy^2 <= 4. */
	ck_assert_int_eq(ff_level_circle(l, 10, 6, 2, FF_WALL, &p), FF_OK);
	n = 0;
	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++)
			n += ff_level_cost(l, x, y) == FF_WALL;
	ck_assert_int_eq(n, 13);
	tl_check_undo(l, before, &p);

	/* A circle at the corner is clipped, not refused. */
	ck_assert_int_eq(ff_level_circle(l, 0, 0, 3, FF_WALL, &p), FF_OK);
	tl_check_undo(l, before, &p);
	ff_level_destroy(l);
	ff_level_destroy(before);
}
END_TEST

START_TEST(fill_region)
{
	ff_level *l = make(), *before;
	ff_patch p = FF_PATCH_INIT;
	int n = 0;

	/* A wall column at x=5 splits the level; fill the left part with mud. */
	ck_assert_int_eq(ff_level_rect(l, 5, 0, 1, 12, FF_WALL, NULL), FF_OK);
	before = ff_level_clone(l);
	ck_assert_int_eq(ff_level_fill(l, 0, 0, 3, &p), FF_OK);
	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++)
			n += ff_level_cost(l, x, y) == 3;
	ck_assert_int_eq(n, 5 * 12);
	ck_assert_int_eq(ff_level_cost(l, 6, 0), 1);
	tl_check_undo(l, before, &p);
	ff_level_destroy(l);
	ff_level_destroy(before);
}
END_TEST

START_TEST(new_cost_adds_terrain)
{
	ff_level *l = make(), *before = ff_level_clone(l);
	ff_patch p = FF_PATCH_INIT;
	int t;

	ck_assert_int_eq(ff_level_terrain_by_cost(l, 77), -1);
	ck_assert_int_eq(ff_level_paint(l, 1, 1, 77, &p), FF_OK);
	t = ff_level_terrain_by_cost(l, 77);
	ck_assert_int_ge(t, 0);
	ck_assert_str_eq(l->meta.palette[t].name, "cost077");
	tl_check_undo(l, before, &p);
	ck_assert_int_eq(ff_level_terrain_by_cost(l, 77), -1);
	ff_level_destroy(l);
	ff_level_destroy(before);
}
END_TEST

START_TEST(goals_spawns_params_and_undo)
{
	ff_level *l = make(), *before;
	ff_patch p = FF_PATCH_INIT;
	ff_shape g = {FF_SHAPE_RECT, 2, 2, 3, 3, 0};
	ff_spawn sp = {{FF_SHAPE_CIRCLE, 10, 6, 0, 0, 2}, 50, 0, 0};

	before = ff_level_clone(l);
	ck_assert_int_eq(ff_level_goal_add(l, &g, &p), FF_OK);
	ck_assert_int_eq(l->meta.ngoals, 1);
	ck_assert(ff_level_is_goal(l, 4, 4));
	ck_assert(!ff_level_is_goal(l, 5, 4));
	tl_check_undo(l, before, &p);

	ck_assert_int_eq(ff_level_spawn_add(l, &sp, &p), FF_OK);
	tl_check_undo(l, before, &p);
	ck_assert_int_eq(ff_level_param_set(l, FF_P_SPEED, 2.5, &p), FF_OK);
	tl_check_undo(l, before, &p);
	ck_assert_int_eq(ff_level_set_name(l, "renamed", &p), FF_OK);
	tl_check_undo(l, before, &p);
	ck_assert_int_eq(ff_level_terrain_add(l, "road", 'r', 4, NULL, &p), FF_OK);
	tl_check_undo(l, before, &p);

	ck_assert_int_eq(ff_level_goal_add(l, &g, NULL), FF_OK);
	ff_level_destroy(before);
	before = ff_level_clone(l);
	ck_assert_int_eq(ff_level_goal_remove(l, 0, &p), FF_OK);
	ck_assert_int_eq(l->meta.ngoals, 0);
	tl_check_undo(l, before, &p);
	ff_level_destroy(l);
	ff_level_destroy(before);
}
END_TEST

START_TEST(resize_and_undo)
{
	ff_level *l = make(), *before;
	ff_patch p = FF_PATCH_INIT;
	ff_shape far = {FF_SHAPE_CELL, 18, 10, 0, 0, 0}, near = {FF_SHAPE_CELL, 1, 1, 0, 0, 0};

	ck_assert_int_eq(ff_level_goal_add(l, &far, NULL), FF_OK);
	ck_assert_int_eq(ff_level_goal_add(l, &near, NULL), FF_OK);
	ck_assert_int_eq(ff_level_paint(l, 2, 2, FF_WALL, NULL), FF_OK);
	before = ff_level_clone(l);
	ck_assert_int_eq(ff_level_resize(l, 8, 30, &p), FF_OK);
	ck_assert_int_eq(l->w, 8);
	ck_assert_int_eq(l->h, 30);
	ck_assert_int_eq(ff_level_cost(l, 2, 2), FF_WALL);
	ck_assert_int_eq(ff_level_cost(l, 7, 29), 1);
	ck_assert_int_eq(l->meta.ngoals, 1);
	ck_assert_int_eq(l->meta.goals[0].x, 1);
	tl_check_undo(l, before, &p);
	ff_level_destroy(l);
	ff_level_destroy(before);
}
END_TEST

/* Every bad argument is refused with the level left exactly as it was. */
START_TEST(bad_arguments_leave_level_unchanged)
{
	ff_level *l = make(), *before;
	ff_shape s;
	ff_spawn sp;

	ck_assert_int_eq(ff_level_rect(l, 0, 5, 20, 1, FF_WALL, NULL), FF_OK);
	before = ff_level_clone(l);
	ck_assert_int_eq(ff_level_paint(l, 20, 0, 1, NULL), FF_E_RANGE);
	ck_assert_int_eq(ff_level_paint(l, -1, 0, 1, NULL), FF_E_RANGE);
	ck_assert_int_eq(ff_level_paint(l, 0, 0, 0, NULL), FF_E_INVAL);
	ck_assert_int_eq(ff_level_paint(l, 0, 0, 256, NULL), FF_E_INVAL);
	ck_assert_int_eq(ff_level_rect(l, 18, 0, 3, 1, 2, NULL), FF_E_RANGE);
	ck_assert_int_eq(ff_level_rect(l, 0, 0, 0, 1, 2, NULL), FF_E_INVAL);
	ck_assert_int_eq(ff_level_line(l, 0, 0, 0, 12, 2, NULL), FF_E_RANGE);
	ck_assert_int_eq(ff_level_circle(l, 20, 3, 1, 2, NULL), FF_E_RANGE);
	ck_assert_int_eq(ff_level_circle(l, 2, 3, -1, 2, NULL), FF_E_INVAL);
	ck_assert_int_eq(ff_level_fill(l, 0, 12, 2, NULL), FF_E_RANGE);
	s = (ff_shape){FF_SHAPE_CELL, 3, 5, 0, 0, 0};
	ck_assert_int_eq(ff_level_goal_add(l, &s, NULL), FF_E_WALL);
	s = (ff_shape){FF_SHAPE_RECT, 0, 5, 20, 1, 0};
	ck_assert_int_eq(ff_level_goal_add(l, &s, NULL), FF_E_WALL);
	s = (ff_shape){FF_SHAPE_CELL, 25, 3, 0, 0, 0};
	ck_assert_int_eq(ff_level_goal_add(l, &s, NULL), FF_E_RANGE);
	s = (ff_shape){FF_SHAPE_RECT, 15, 0, 10, 2, 0};
	ck_assert_int_eq(ff_level_goal_add(l, &s, NULL), FF_E_RANGE);
	s = (ff_shape){FF_SHAPE_RECT, 1, 1, 0, 2, 0};
	ck_assert_int_eq(ff_level_goal_add(l, &s, NULL), FF_E_INVAL);
	ck_assert_int_eq(ff_level_goal_remove(l, 0, NULL), FF_E_NOTFOUND);
	sp = (ff_spawn){{FF_SHAPE_RECT, 1, 1, 2, 2, 0}, 0, 0, 0};
	ck_assert_int_eq(ff_level_spawn_add(l, &sp, NULL), FF_E_INVAL);
	sp = (ff_spawn){{FF_SHAPE_CELL, 1, 1, 0, 0, 0}, 3, 0, 0};
	ck_assert_int_eq(ff_level_spawn_add(l, &sp, NULL), FF_E_INVAL);
	sp = (ff_spawn){{FF_SHAPE_RECT, 1, 1, 2, 2, 0}, 3, -1, 0};
	ck_assert_int_eq(ff_level_spawn_add(l, &sp, NULL), FF_E_INVAL);
	sp = (ff_spawn){{FF_SHAPE_RECT, 1, 1, 2, 2, 0}, 3, NAN, 0};
	ck_assert_int_eq(ff_level_spawn_add(l, &sp, NULL), FF_E_INVAL);
	sp = (ff_spawn){{FF_SHAPE_RECT, 1, 1, 2, 2, 0}, 3, FF_SPAWN_RATE_MAX * 2, 0};
	ck_assert_int_eq(ff_level_spawn_add(l, &sp, NULL), FF_E_INVAL);
	ck_assert_int_eq(ff_level_param_set(l, FF_P_SPEED, -1, NULL), FF_E_INVAL);
	ck_assert_int_eq(ff_level_param_set(l, FF_P_SPEED, NAN, NULL), FF_E_INVAL);
	ck_assert_int_eq(ff_level_param_set(l, FF_P__COUNT, 1, NULL), FF_E_NOTFOUND);
	ck_assert_int_eq(ff_level_set_name(l, "a b", NULL), FF_E_INVAL);
	ck_assert_int_eq(ff_level_terrain_add(l, "grass2", '.', 9, NULL, NULL), FF_E_STATE);
	ck_assert_int_eq(ff_level_terrain_add(l, "x", 'x', 1, NULL, NULL), FF_E_STATE);
	ck_assert_int_eq(ff_level_terrain_add(l, "x", ' ', 9, NULL, NULL), FF_E_INVAL);
	ck_assert_int_eq(ff_level_terrain_add(l, "42", 'q', 9, NULL, NULL), FF_E_INVAL);
	ck_assert_int_eq(ff_level_terrain_add(l, "wall", 'q', 9, NULL, NULL), FF_E_INVAL);
	ck_assert_int_eq(ff_level_resize(l, 0, 3, NULL), FF_E_INVAL);
	ck_assert_int_eq(ff_level_resize(l, 3, 16385, NULL), FF_E_INVAL);
	ck_assert(ff_level_equal(l, before));
	ff_level_destroy(l);
	ff_level_destroy(before);
}
END_TEST

/* Random mutation sequences: undoing them all in reverse restores the start. */
START_TEST(random_undo_chain)
{
	uint64_t seed = 42;
	ff_level *l = make(), *start = ff_level_clone(l);
	ff_patch stack[200];
	int n = 0;

	for (int i = 0; i < 200; i++) {
		ff_patch p = FF_PATCH_INIT;
		int op = tu_range(&seed, 0, 4), cost = tu_range(&seed, 1, 255);
		int x = tu_range(&seed, 0, 19), y = tu_range(&seed, 0, 11);
		ff_err err;

		if (op == 0)
			err = ff_level_paint(l, x, y, cost, &p);
		else if (op == 1)
			err = ff_level_rect(l, x, y, tu_range(&seed, 1, 4), tu_range(&seed, 1, 4), cost, &p);
		else if (op == 2)
			err = ff_level_circle(l, x, y, tu_range(&seed, 0, 4), cost, &p);
		else if (op == 3)
			err = ff_level_fill(l, x, y, cost, &p);
		else
			err = ff_level_line(l, x, y, tu_range(&seed, 0, 19), tu_range(&seed, 0, 11), cost, &p);
		if (err == FF_OK)
			stack[n++] = p;
	}
	ck_assert_int_gt(n, 80);
	while (n > 0) {
		ff_patch_apply(l, &stack[--n]);
		ff_patch_fini(&stack[n]);
	}
	ck_assert(ff_level_equal(l, start));
	ff_level_destroy(l);
	ff_level_destroy(start);
}
END_TEST

/* docs/formats.md's table of parameters is the code's: every parameter
 * has its row, with the same default and range (the seed's range is
 * written 0..2^32-1), and the table has no row the code lacks. */
START_TEST(parameters_table_is_the_code)
{
	char *doc = tu_read(FF_DOCSDIR, "formats.md", NULL), row[80];
	int rows = 0;

	for (int id = 0; id < FF_P__COUNT; id++) {
		const ff_param_info *pi = ff_param_info_get((ff_param_id)id);
		const char *at, *c;
		double def, lo, hi;
		char *e;

		snprintf(row, sizeof row, "\n| %s |", pi->name);
		at = strstr(doc, row);
		ck_assert_msg(at, "parameter %s has no row in docs/formats.md", pi->name);
		/* | name | unit | default | range | */
		c = strchr(at + strlen(row), '|');
		ck_assert_ptr_nonnull(c);
		def = strtod(c + 1, &e);
		ck_assert_msg(e != c + 1 && def == pi->def, "%s: the table's default %g, the code's %g",
			      pi->name, def, pi->def);
		c = strchr(c + 1, '|');
		/* "lo..hi": strtod would read "0." of "0..10" as a number */
		snprintf(row, sizeof row, "%.*s", (int)(strstr(c, "..") - c - 1), c + 1);
		lo = strtod(row, &e);
		ck_assert_msg(e != row && lo == pi->min, "%s: the table's minimum %g, the code's %g",
			      pi->name, lo, pi->min);
		hi = strtod(strstr(c, "..") + 2, &e);
		ck_assert_msg(id == FF_P_SEED || hi == pi->max, "%s: the table's maximum %g, the code's %g",
			      pi->name, hi, pi->max);
	}
	/* the table's rows: the lines after its header and rule that begin '|' */
	for (const char *c = strstr(doc, "| name | unit | default | range | meaning |\n|---");
	     c && (c = strchr(c, '\n')) && c[1] == '|'; c++)
		rows++;
	ck_assert_int_eq(rows - 1, FF_P__COUNT);
	free(doc);
}
END_TEST

/* docs/simulation.md's table of the crowd's parameters repeats each one's
 * default and range for the reader ("| speed | 1.34 m/s | 0.01..20 |"):
 * every row there is the code's too, and names a parameter the code has. */
START_TEST(simulation_parameters_are_the_code)
{
	const char *head = "| name | default | range | meaning |\n|---";
	char *doc = tu_read(FF_DOCSDIR, "simulation.md", NULL), name[40], num[40];
	const char *c = strstr(doc, head);
	int rows = 0;

	ck_assert_msg(c, "docs/simulation.md has no table of parameters");
	for (c = strchr(c + strlen(head), '\n'); c && c[1] == '|'; c = strchr(c + 1, '\n')) {
		const ff_param_info *pi;
		const char *def, *range, *dots;
		double lo, hi;
		int id;

		ck_assert_int_eq(sscanf(c + 1, "| %39[a-z_0-9] |", name), 1);
		id = ff_param_by_name(name);
		ck_assert_msg(id >= 0, "docs/simulation.md: no parameter '%s'", name);
		pi = ff_param_info_get((ff_param_id)id);
		def = strchr(c + 2, '|') + 1;
		range = strchr(def, '|') + 1;
		ck_assert_msg(strtod(def, NULL) == pi->def, "%s: the table's default %g, the code's %g",
			      name, strtod(def, NULL), pi->def);
		/* "lo..hi", the minus sign perhaps U+2212; strtod would read "0."
		 * of "0..10" as a number */
		dots = strstr(range, "..");
		snprintf(num, sizeof num, "%.*s", (int)(dots - range), range);
		lo = strncmp(num + 1, "\u2212", 3) ? strtod(num, NULL) : -strtod(num + 4, NULL);
		hi = strtod(dots + 2, NULL);
		ck_assert_msg(lo == pi->min, "%s: the table's minimum %g, the code's %g", name, lo,
			      pi->min);
		ck_assert_msg(id == FF_P_SEED || hi == pi->max,
			      "%s: the table's maximum %g, the code's %g", name, hi, pi->max);
		rows++;
	}
	ck_assert_int_gt(rows, 10);
	free(doc);
}
END_TEST

/* The functions of these headers that take a level to change. */
static const char *const MUTATOR_HEADERS[] = {"level.h", "level_dyn.h", "level_patch.h"};

/* Grid mutators move the level's count of changes (ff_level.changes),
 * every one and the undo and redo of each: the hierarchical field reads
 * the level whole again only when it moved.  Meta mutators leave it (an
 * order after a new goal reads nothing).  A function added to the
 * headers that takes a level to change fails the test until it is listed
 * here as one or the other. */
START_TEST(every_grid_change_is_counted)
{
	static const char *const grid[] = {
		"ff_level_paint", "ff_level_line", "ff_level_rect", "ff_level_circle",
		"ff_level_fill", "ff_level_put", "ff_level_resize", "ff_level_dyn_set",
		"ff_level_dyn_clear", "ff_patch_apply", "ff_level_changed",
	};
	static const char *const meta[] = {
		"ff_level_goal_add", "ff_level_goal_add_to", "ff_level_goal_load", "ff_level_order",
		"ff_level_goal_remove", "ff_level_goal_clear", "ff_level_spawn_add",
		"ff_level_spawn_add_to", "ff_level_spawn_load", "ff_level_spawn_remove",
		"ff_level_spawn_clear",
		"ff_level_param_set", "ff_level_set_name", "ff_level_set_note",
		"ff_level_terrain_add", "ff_level_terrain_classes", "ff_level_class_set",
		"ff_level_group_class", "ff_level_destroy",
	};
	ff_level *l = make();
	ff_patch p = FF_PATCH_INIT;
	const ff_shape g = {FF_SHAPE_CELL, 15, 2, 0, 0, 0}, zone = {FF_SHAPE_RECT, 4, 4, 3, 2, 0};
	const ff_spawn sp = {{FF_SHAPE_CIRCLE, 10, 6, 0, 0, 2}, 50, 0, 0};
	const uint8_t cls[FF_CLASSES_MAX + 1] = {0, 7};
	uint64_t n = l->changes;

/* CALL changes the grids: the count moves, and again for its undo and redo */
#define GRID(call)                                                            \
	do {                                                                  \
		ck_assert_int_eq((call), FF_OK);                              \
		ck_assert_msg(l->changes > n, "%s: not counted", #call);       \
		for (int i = 0; i < 2 && !ff_patch_empty(&p); i++) {          \
			n = l->changes;                                       \
			ff_patch_apply(l, &p);                                \
			ck_assert_msg(l->changes > n, "%s: undo not counted", #call); \
		}                                                             \
		ff_patch_fini(&p);                                            \
		n = l->changes;                                               \
	} while (0)
/* CALL changes meta alone: the count stays, for its undo too */
#define META(call)                                                            \
	do {                                                                  \
		ck_assert_int_eq((call), FF_OK);                              \
		ck_assert_msg(l->changes == n, "%s: counted", #call);          \
		ff_patch_apply(l, &p);                                        \
		ff_patch_apply(l, &p);                                        \
		ck_assert_msg(l->changes == n, "%s: undo counted", #call);     \
		ff_patch_fini(&p);                                            \
	} while (0)

	GRID(ff_level_paint(l, 2, 3, FF_WALL, &p));
	GRID(ff_level_paint(l, 2, 4, 9, &p));           /* a new terrain too */
	GRID(ff_level_line(l, 0, 0, 7, 5, 3, &p));
	GRID(ff_level_rect(l, 3, 3, 4, 2, FF_WALL, &p));
	GRID(ff_level_circle(l, 10, 6, 3, 5, &p));
	GRID(ff_level_fill(l, 19, 11, 2, &p));
	GRID(ff_level_put(l, 5, 5, 4));
	GRID(ff_level_dyn_set(l, &zone, 6, &p));
	GRID(ff_level_dyn_set(l, &zone, FF_WALL, &p));
	GRID(ff_level_dyn_clear(l, &p));
	ck_assert_int_eq(ff_level_terrain_add(l, "tree", 'T', FF_WALL, NULL, NULL), FF_OK);
	GRID(ff_level_rect(l, 0, 0, 2, 2, FF_WALL_KIND(1), &p));   /* the walls layer */
	GRID(ff_level_resize(l, 25, 12, &p));
	GRID(ff_level_resize(l, 20, 9, &p));
	ff_level_changed(l);
	ck_assert(l->changes > n);
	n = l->changes;

	META(ff_level_goal_add(l, &g, &p));
	META(ff_level_goal_add_to(l, &g, "blue", &p));
	ck_assert_int_eq(ff_level_goal_add_to(l, &g, "blue", NULL), FF_OK);
	META(ff_level_order(l, "blue", &g, &p));
	META(ff_level_goal_remove(l, 0, &p));
	META(ff_level_goal_clear(l, &p));
	META(ff_level_spawn_add(l, &sp, &p));
	META(ff_level_spawn_add_to(l, &sp, "blue", &p));
	ck_assert_int_eq(ff_level_spawn_add(l, &sp, NULL), FF_OK);
	ck_assert_int_eq(ff_level_goal_load(l, &g, "blue"), FF_OK);
	ck_assert_int_eq(ff_level_spawn_load(l, &sp, "blue"), FF_OK);
	ck_assert_int_eq(l->changes, n);
	META(ff_level_spawn_remove(l, 0, &p));
	META(ff_level_spawn_clear(l, &p));
	META(ff_level_param_set(l, FF_P_WALL_PENALTY, 3, &p));
	META(ff_level_set_name(l, "renamed", &p));
	META(ff_level_set_note(l, "a note", &p));
	META(ff_level_terrain_add(l, "road", 'r', 4, NULL, &p));
	META(ff_level_class_set(l, "cart", true, &p));
	ck_assert_int_eq(ff_level_class_set(l, "cart", true, NULL), FF_OK);
	META(ff_level_terrain_classes(l, 0, cls, &p));
	META(ff_level_group_class(l, "blue", 1, &p));
	ck_assert_int_eq(l->changes, n);
#undef GRID
#undef META

	for (size_t hi = 0; hi < sizeof MUTATOR_HEADERS / sizeof *MUTATOR_HEADERS; hi++) {
		char *text = tu_read(FF_DOCSDIR "/../src/core", MUTATOR_HEADERS[hi], NULL);
		for (const char *at = text; (at = strstr(at, "(ff_level *")); at++) {
			const char *e = at, *b = at;
			bool listed = false;
			while (b > text && (b[-1] == '_' || (b[-1] >= 'a' && b[-1] <= 'z')))
				b--;
			for (size_t i = 0; i < sizeof grid / sizeof *grid; i++)
				listed = listed || (strlen(grid[i]) == (size_t)(e - b) &&
						    !strncmp(grid[i], b, (size_t)(e - b)));
			for (size_t i = 0; i < sizeof meta / sizeof *meta; i++)
				listed = listed || (strlen(meta[i]) == (size_t)(e - b) &&
						    !strncmp(meta[i], b, (size_t)(e - b)));
			ck_assert_msg(listed, "%s: %.*s changes a level: list it in "
				      "every_grid_change_is_counted", MUTATOR_HEADERS[hi],
				      (int)(e - b), b);
		}
		free(text);
	}
	ff_level_destroy(l);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("level");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, create_limits);
	tcase_add_test(tc, default_palette_and_params);
	tcase_add_test(tc, paint_and_undo);
	tcase_add_test(tc, rect_line_circle_exact_cells);
	tcase_add_test(tc, wall_kinds_paint_fill_resize_undo);
	tcase_add_test(tc, fill_region);
	tcase_add_test(tc, new_cost_adds_terrain);
	tcase_add_test(tc, goals_spawns_params_and_undo);
	tcase_add_test(tc, resize_and_undo);
	tcase_add_test(tc, bad_arguments_leave_level_unchanged);
	tcase_add_test(tc, random_undo_chain);
	tcase_add_test(tc, parameters_table_is_the_code);
	tcase_add_test(tc, simulation_parameters_are_the_code);
	tcase_add_test(tc, every_grid_change_is_counted);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
