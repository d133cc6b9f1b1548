/*
 * ctl_edit.c - painting from the editor: the pen terrain, the brush, the
 * pen held down, goals at the cursor, the mark that shapes start from, and
 * the pen of the dynamic layer (temporary walls and cost offsets, laid and
 * cleared under the brush).  Every change goes to the core as a command
 * ('paint', 'circle', 'line', 'goal add', 'dyn'), so it is undoable and
 * recorded.
 */
#include <stdio.h>
#include <string.h>

#include "core/level_dyn.h"
#include "ctl_int.h"

unsigned ff_ctl_dab(ff_ctl *c, int cost)
{
	char word[FF_TERRAIN_NAME_MAX + 8], line[128];

	ff_ctl_terrain_word(c, cost, word, sizeof word);
	if (c->pen.brush == 0)
		snprintf(line, sizeof line, "paint %d,%d %s", c->view.cx, c->view.cy, word);
	else
		snprintf(line, sizeof line, "circle %d,%d %d %s", c->view.cx, c->view.cy,
			 c->pen.brush, word);
	return ff_ctl_core(c, line, false);
}

unsigned ff_ctl_stroke(ff_ctl *c, int x0, int y0)
{
	char word[FF_TERRAIN_NAME_MAX + 8], line[128];

	if (c->pen.brush > 0)
		return ff_ctl_dab(c, c->pen.cost);
	ff_ctl_terrain_word(c, c->pen.cost, word, sizeof word);
	snprintf(line, sizeof line, "line %d,%d %d,%d %s", x0, y0, c->view.cx, c->view.cy, word);
	return ff_ctl_core(c, line, false);
}

void ff_ctl_mark_here(ff_ctl *c)
{
	c->pen.marked = true;
	c->pen.mx = c->view.cx, c->pen.my = c->view.cy;
}

unsigned ff_ui_pen(ff_ctl *c, int argc, char **argv)
{
	const ff_level_meta *m = &c->s->level->meta;
	char word[FF_TERRAIN_NAME_MAX + 8], why[200];
	int cost;

	if (argc != 2)
		return ff_ctl_usage(c, argv[0]);
	if (!strcmp(argv[1], "next") || !strcmp(argv[1], "prev")) {
		int t = ff_level_terrain_by_value(c->s->level, c->pen.cost);
		int step = argv[1][0] == 'n' ? 1 : -1;

		if (m->npalette == 0)
			return 0;
		t = t < 0 ? 0 : (t + step + m->npalette) % m->npalette;
		cost = ff_level_terrain_value(c->s->level, t);
	} else if (ff_level_terrain_word(c->s->level, argv[1], &cost, why, sizeof why)) {
		ff_ctl_say(c, true, "%s", why);
		return FF_UI_MSG;
	}
	c->pen.cost = cost;
	ff_ctl_terrain_word(c, cost, word, sizeof word);
	ff_ctl_say(c, false, "pen: %s", word);
	return FF_UI_STATUS | FF_UI_MSG;
}

unsigned ff_ui_brush(ff_ctl *c, int argc, char **argv)
{
	int b = c->pen.brush;

	if (argc == 2 && !strcmp(argv[1], "+"))
		b++;
	else if (argc == 2 && !strcmp(argv[1], "-"))
		b--;
	else if (argc != 2 || !ff_ctl_parse_int(argv[1], &b))
		return ff_ctl_usage(c, argv[0]);
	c->pen.brush = ff_ctl_clamp(b, 0, FF_BRUSH_MAX);
	ff_ctl_say(c, false, "brush radius %d", c->pen.brush);
	return FF_UI_STATUS | FF_UI_MSG;
}

unsigned ff_ui_dab(ff_ctl *c, int argc, char **argv)
{
	int cost = c->pen.cost;
	char why[200];

	if (argc > 2)
		return ff_ctl_usage(c, argv[0]);
	if (argc == 2 && ff_level_terrain_word(c->s->level, argv[1], &cost, why, sizeof why)) {
		ff_ctl_say(c, true, "%s", why);
		return FF_UI_MSG;
	}
	return ff_ctl_dab(c, cost);
}

unsigned ff_ui_dpen(ff_ctl *c, int argc, char **argv)
{
	char word[8];
	int v;

	if (argc != 2)
		return ff_ctl_usage(c, argv[0]);
	if (!ff_dyn_parse(argv[1], &v)) {
		ff_ctl_say(c, true, "dynamic pen: expected %s, not '%s'", FF_DYN_WORDS, argv[1]);
		return FF_UI_MSG;
	}
	c->pen.dyn = v;
	ff_ctl_say(c, false, "dynamic pen: %s", ff_dyn_word(v, word));
	return FF_UI_STATUS | FF_UI_MSG;
}

unsigned ff_ui_ddab(ff_ctl *c, int argc, char **argv)
{
	bool clear = argc == 2 && !strcmp(argv[1], "clear");
	char word[8] = "", line[128];
	int v = c->pen.dyn;

	if (argc > 2 || (argc == 2 && !clear && !ff_dyn_parse(argv[1], &v)))
		return ff_ctl_usage(c, argv[0]);
	if (!clear)
		ff_dyn_word(v, word);
	if (c->pen.brush == 0)
		snprintf(line, sizeof line, "dyn %scell %d,%d %s", clear ? "clear " : "",
			 c->view.cx, c->view.cy, word);
	else
		snprintf(line, sizeof line, "dyn %scircle %d,%d %d %s", clear ? "clear " : "",
			 c->view.cx, c->view.cy, c->pen.brush, word);
	return ff_ctl_core(c, line, false);
}

unsigned ff_ui_draw(ff_ctl *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->pen.drawing = !c->pen.drawing;
	ff_ctl_say(c, false, "pen %s%s", c->pen.drawing ? "down: moving paints" : "up",
		   c->pen.drawing ? " (d lifts it)" : "");
	return FF_UI_STATUS | FF_UI_MSG | (c->pen.drawing ? ff_ctl_dab(c, c->pen.cost) : 0);
}

unsigned ff_ui_goal_here(ff_ctl *c, int argc, char **argv)
{
	const ff_level *l = c->s->level;
	char line[64];

	(void)argc, (void)argv;
	for (int i = l->meta.ngoals - 1; i >= 0; i--)
		if (ff_shape_contains(&l->meta.goals[i], c->view.cx, c->view.cy)) {
			snprintf(line, sizeof line, "goal rm %d", i + 1);
			return ff_ctl_core(c, line, false);
		}
	snprintf(line, sizeof line, "goal add cell %d,%d", c->view.cx, c->view.cy);
	return ff_ctl_core(c, line, false);
}

unsigned ff_ui_mark(ff_ctl *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	if (c->mode == FF_MODE_SELECT)
		ff_ctl_mark_here(c);
	ff_ctl_say(c, false, "mark at %d,%d: move, then r rect, i line, o circle, g goal, "
		   "s spawn; Esc drops it", c->view.cx, c->view.cy);
	return ff_ctl_set_mode(c, FF_MODE_SELECT) | FF_UI_GRID | FF_UI_MSG;
}

unsigned ff_ui_unmark(ff_ctl *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	return ff_ctl_set_mode(c, FF_MODE_NORMAL);
}
