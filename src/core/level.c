/*
 * level.c - the level model and its mutators.  Every mutator follows one
 * shape: validate, ensure the palette covers the cost, save an undo patch,
 * then change the level; nothing is touched before the last check passes.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "level.h"
#include "level_patch.h"

static const ff_terrain default_palette[] = {
	{"grass", '.', 1, {0}},
	{"forest", 'f', 2, {0}},
	{"mud", 'm', 3, {0}},
	{"swamp", 's', 5, {0}},
	{"water", '~', 20, {0}},
	{"wall", '#', FF_WALL, {0}},
};

static const ff_param_info params[FF_P__COUNT] = {
	[FF_P_CELL_SIZE] = {"cell_size", 0.5, 0.05, 10, FF_UNIT_M, "the side of a cell"},
	[FF_P_SPEED] = {"speed", 1.34, 0.01, 20, FF_UNIT_MPS, "free walking speed on open ground (v0)"},
	[FF_P_SPEED_SPREAD] = {"speed_spread", 0, 0, 0.25, FF_UNIT_NONE, "how the agents' free speeds spread about speed: their standard deviation over it (0: all walk at speed; 0.19: Weidmann's 1.34 +- 0.26 m/s)"},
	[FF_P_ACCEL] = {"accel", 3, 0.01, 1000, FF_UNIT_MPS2, "acceleration limit"},
	[FF_P_RADIUS] = {"radius", 0.2, 0.01, 5, FF_UNIT_M, "body radius (at most half a cell)"},
	[FF_P_FD_GAMMA] = {"fd_gamma", 1.913, 0.01, 100, FF_UNIT_M2, "Weidmann's speed-density gamma"},
	[FF_P_FD_RHO_MAX] = {"fd_rho_max", 5.4, 0.5, 50, FF_UNIT_PER_M2, "Weidmann's jam density: no walking at or above it"},
	[FF_P_DENSITY_RADIUS] = {"density_radius", 0.5, 0, 10, FF_UNIT_M, "half-width of the square window the density is averaged over"},
	[FF_P_LOOK_AHEAD] = {"look_ahead", 1, 0, 10, FF_UNIT_M, "how far ahead an agent reads the density it walks into"},
	[FF_P_SEP_RADIUS] = {"sep_radius", 0.5, 0.01, 20, FF_UNIT_M, "separation reaches neighbours closer than this"},
	[FF_P_SEP_WEIGHT] = {"sep_weight", 0.5, 0, 10, FF_UNIT_NONE, "separation strength (0 turns it off)"},
	[FF_P_FUNNEL_DENSITY] = {"funnel_density", 3, 0, 50, FF_UNIT_PER_M2, "density above which funnelling starts"},
	[FF_P_FUNNEL_WEIGHT] = {"funnel_weight", 0.8, 0, 1, FF_UNIT_NONE, "strength of the funnelling response (0 turns it off)"},
	[FF_P_PASS_WEIGHT] = {"pass_weight", 0.5, -2, 2, FF_UNIT_NONE, "how strongly agents step to their right of people coming towards them (negative: to their left; 0: not at all)"},
	[FF_P_JITTER] = {"jitter", 5, 0, 90, FF_UNIT_DEG, "random heading noise"},
	[FF_P_ARRIVAL_RADIUS] = {"arrival_radius", 0.25, 0, 1000, FF_UNIT_M, "distance to a goal cell's centre that counts as arrived"},
	[FF_P_DT] = {"dt", 0.05, 0.001, 1, FF_UNIT_S, "fixed simulation timestep"},
	[FF_P_SEED] = {"seed", 1, 0, 4294967295.0, FF_UNIT_NONE, "seed of the simulation's random numbers"},
	[FF_P_WALL_PENALTY] = {"wall_penalty", 0, 0, 253, FF_UNIT_NONE, "extra cost of a cell beside a wall (0 turns it off)"},
	[FF_P_WALL_PENALTY_RADIUS] = {"wall_penalty_radius", 3, 1, FF_PENALTY_RADIUS_MAX, FF_UNIT_NONE, "cells from a wall over which the penalty falls to 0"},
	[FF_P_ROUTE_INTERVAL] = {"route_interval", 0, 0, 3600, FF_UNIT_S, "congestion-aware routing: time between solves of the fields with the crowd's density in their costs (0 turns it off)"},
	[FF_P_ROUTE_WEIGHT] = {"route_weight", 1, 0, 10, FF_UNIT_NONE, "how much of the crowd's slowing the routing counts (1: the time to walk through at the crowd's speed)"},
};

const ff_param_info *ff_param_info_get(ff_param_id id)
{
	return (unsigned)id < FF_P__COUNT ? &params[id] : NULL;
}

int ff_param_by_name(const char *name)
{
	for (int i = 0; i < FF_P__COUNT; i++)
		if (!strcmp(params[i].name, name))
			return i;
	return -1;
}

int ff_level_default_palette(ff_terrain out[FF_PALETTE_MAX])
{
	int n = (int)(sizeof default_palette / sizeof default_palette[0]);

	memcpy(out, default_palette, sizeof default_palette);
	return n;
}

bool ff_level_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n >= FF_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
			return false;
	}
	return true;
}

static void meta_defaults(ff_level_meta *m, const char *name)
{
	memset(m, 0, sizeof *m);
	strcpy(m->name, name);
	m->npalette = ff_level_default_palette(m->palette);
	m->ngroups = 1;
	for (int i = 0; i < FF_P__COUNT; i++)
		m->params[i] = params[i].def;
}

ff_level *ff_level_create(int w, int h, const char *name)
{
	ff_level *l;

	if (w < 1 || h < 1 || w > FF_LEVEL_MAX_SIDE || h > FF_LEVEL_MAX_SIDE ||
	    !name || !ff_level_name_ok(name))
		return NULL;
	l = malloc(sizeof *l);
	if (!l)
		return NULL;
	l->cells = ff_big_malloc((size_t)w * (size_t)h);
	l->dyn = ff_big_calloc((size_t)w * (size_t)h);
	if (!l->cells || !l->dyn) {
		free(l->cells);
		free(l->dyn);
		free(l);
		return NULL;
	}
	memset(l->cells, 1, (size_t)w * (size_t)h);
	l->walls = NULL;
	l->w = w, l->h = h;
	l->changes = 0;
	meta_defaults(&l->meta, name);
	return l;
}

void ff_level_destroy(ff_level *level)
{
	if (!level)
		return;
	free(level->cells);
	free(level->walls);
	free(level->dyn);
	free(level);
}

ff_level *ff_level_clone(const ff_level *level)
{
	ff_level *c = malloc(sizeof *c);
	size_t n = (size_t)level->w * (size_t)level->h;

	if (!c)
		return NULL;
	*c = *level;
	c->cells = ff_big_malloc(n);
	c->walls = level->walls ? malloc(n) : NULL;
	c->dyn = ff_big_malloc(n);
	if (!c->cells || (level->walls && !c->walls) || !c->dyn) {
		free(c->cells);
		free(c->walls);
		free(c->dyn);
		free(c);
		return NULL;
	}
	memcpy(c->cells, level->cells, n);
	if (level->walls)
		memcpy(c->walls, level->walls, n);
	memcpy(c->dyn, level->dyn, n);
	return c;
}

static bool meta_equal(const ff_level_meta *a, const ff_level_meta *b)
{
	if (strcmp(a->name, b->name) || strcmp(a->note, b->note) ||
	    a->npalette != b->npalette || a->ngoals != b->ngoals ||
	    a->nspawns != b->nspawns)
		return false;
	for (int i = 0; i < a->npalette; i++)
		if (strcmp(a->palette[i].name, b->palette[i].name) ||
		    a->palette[i].glyph != b->palette[i].glyph ||
		    a->palette[i].cost != b->palette[i].cost ||
		    memcmp(a->palette[i].cls, b->palette[i].cls, sizeof a->palette[i].cls))
			return false;
	for (int i = 0; i < a->ngoals; i++)
		if (memcmp(&a->goals[i], &b->goals[i], sizeof a->goals[i]) ||
		    a->goal_group[i] != b->goal_group[i])
			return false;
	/* field by field: a spawn has padding that memcmp would compare */
	for (int i = 0; i < a->nspawns; i++)
		if (memcmp(&a->spawns[i].area, &b->spawns[i].area, sizeof a->spawns[i].area) ||
		    a->spawns[i].count != b->spawns[i].count || a->spawns[i].rate != b->spawns[i].rate ||
		    a->spawns[i].group != b->spawns[i].group)
			return false;
	if (a->ngroups != b->ngroups)
		return false;
	for (int i = 0; i < a->ngroups; i++)
		if (strcmp(a->groups[i], b->groups[i]) || a->group_class[i] != b->group_class[i])
			return false;
	if (a->nclasses != b->nclasses)
		return false;
	for (int k = 1; k <= a->nclasses; k++)
		if (strcmp(a->classes[k], b->classes[k]) || a->class_walls[k] != b->class_walls[k])
			return false;
	for (int i = 0; i < FF_P__COUNT; i++)
		if (a->params[i] != b->params[i])
			return false;
	return true;
}

/* Equal wall kinds, a NULL layer being all zeros. */
static bool walls_equal(const ff_level *a, const ff_level *b)
{
	size_t n = (size_t)a->w * (size_t)a->h;

	if (a->walls && b->walls)
		return !memcmp(a->walls, b->walls, n);
	for (size_t i = 0; i < n && (a->walls || b->walls); i++)
		if ((a->walls ? a->walls : b->walls)[i])
			return false;
	return true;
}

bool ff_level_equal(const ff_level *a, const ff_level *b)
{
	return a->w == b->w && a->h == b->h &&
	       !memcmp(a->cells, b->cells, (size_t)a->w * (size_t)a->h) &&
	       !memcmp(a->dyn, b->dyn, (size_t)a->w * (size_t)a->h) &&
	       walls_equal(a, b) && meta_equal(&a->meta, &b->meta);
}

int ff_level_terrain_by_name(const ff_level *l, const char *name)
{
	for (int i = 0; i < l->meta.npalette; i++)
		if (!strcmp(l->meta.palette[i].name, name))
			return i;
	return -1;
}

ff_err ff_level_terrain_word(const ff_level *l, const char *word, int *value, char *why,
			     size_t n)
{
	int t = ff_level_terrain_by_name(l, word);
	char *e;
	long v;

	if (t >= 0) {
		*value = ff_level_terrain_value(l, t);
		return FF_OK;
	}
	if (!strcmp(word, "wall")) {
		*value = FF_WALL;
		return FF_OK;
	}
	errno = 0;
	v = strtol(word, &e, 10);
	if (e == word || *e) {
		snprintf(why, n, "unknown terrain '%s' (a palette name, 'wall' or a cost %d..%d)",
			 word, FF_COST_MIN, FF_COST_MAX);
		return FF_E_NOTFOUND;
	}
	if (errno || v < FF_COST_MIN || v > FF_COST_MAX) {
		snprintf(why, n, "cost %s is out of range %d..%d (use 'wall' for walls)", word,
			 FF_COST_MIN, FF_COST_MAX);
		return FF_E_INVAL;
	}
	*value = (int)v;
	return FF_OK;
}

int ff_level_terrain_by_glyph(const ff_level *l, char glyph)
{
	for (int i = 0; i < l->meta.npalette; i++)
		if (l->meta.palette[i].glyph == glyph)
			return i;
	return -1;
}

int ff_level_terrain_by_cost(const ff_level *l, int cost)
{
	for (int i = 0; i < l->meta.npalette; i++)
		if (l->meta.palette[i].cost == cost)
			return i;
	return -1;
}

int ff_level_terrain_by_value(const ff_level *l, int value)
{
	int kind = value - FF_WALL;

	if (value < FF_WALL)
		return ff_level_terrain_by_cost(l, value);
	for (int i = 0; i < l->meta.npalette; i++)
		if (l->meta.palette[i].cost == FF_WALL && kind-- == 0)
			return i;
	return -1;
}

int ff_level_terrain_value(const ff_level *l, int i)
{
	int kind = 0;

	if (l->meta.palette[i].cost != FF_WALL)
		return l->meta.palette[i].cost;
	for (int j = 0; j < i; j++)
		kind += l->meta.palette[j].cost == FF_WALL;
	return FF_WALL_KIND(kind);
}

bool ff_shape_contains(const ff_shape *s, int x, int y)
{
	long dx, dy;

	switch (s->kind) {
	case FF_SHAPE_CELL:
		return x == s->x && y == s->y;
	case FF_SHAPE_RECT:
		return x >= s->x && y >= s->y && x - s->x < s->w && y - s->y < s->h;
	case FF_SHAPE_CIRCLE:
		dx = (long)x - s->x, dy = (long)y - s->y;
		return dx * dx + dy * dy <= (long)s->r * s->r;
	}
	return false;
}

bool ff_shape_clip(const ff_level *l, const ff_shape *s, int *x0, int *y0,
		   int *x1, int *y1)
{
	long ax = s->x, ay = s->y, bx = s->x, by = s->y;

	if (s->kind == FF_SHAPE_RECT)
		bx = ax + s->w - 1, by = ay + s->h - 1;
	else if (s->kind == FF_SHAPE_CIRCLE)
		ax -= s->r, ay -= s->r, bx += s->r, by += s->r;
	if (ax < 0)
		ax = 0;
	if (ay < 0)
		ay = 0;
	if (bx > l->w - 1)
		bx = l->w - 1;
	if (by > l->h - 1)
		by = l->h - 1;
	*x0 = (int)ax, *y0 = (int)ay, *x1 = (int)bx, *y1 = (int)by;
	return ax <= bx && ay <= by;
}

int ff_level_group_by_name(const ff_level *l, const char *name)
{
	if (!name || !*name || !strcmp(name, "default"))
		return 0;
	for (int g = 1; g < l->meta.ngroups; g++)
		if (!strcmp(l->meta.groups[g], name))
			return g;
	return -1;
}

const char *ff_level_group_name(const ff_level *l, int g)
{
	return g > 0 && g < l->meta.ngroups ? l->meta.groups[g] : "default";
}

bool ff_group_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n >= FF_GROUP_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_' && name[i] != '-')
			return false;
	return true;
}

int ff_level_group_goals(const ff_level *l, int g, ff_shape *out)
{
	int n = 0;

	for (int i = 0; i < l->meta.ngoals; i++)
		if (l->meta.goal_group[i] == g)
			out[n++] = l->meta.goals[i];
	return n;
}

int ff_level_field_group(const ff_level *l)
{
	const ff_level_meta *m = &l->meta;

	for (int g = 0; g < m->ngroups; g++)
		for (int i = 0; i < m->ngoals; i++)
			if (m->goal_group[i] == g)
				return g;
	return 0;
}

bool ff_level_is_goal(const ff_level *l, int x, int y)
{
	for (int i = 0; i < l->meta.ngoals; i++)
		if (ff_shape_contains(&l->meta.goals[i], x, y))
			return true;
	return false;
}

ff_err ff_level_check_shape(const ff_level *l, const ff_shape *s, bool goal)
{
	return ff_level_check_shape_as(l, s, goal, 0);
}

ff_err ff_level_check_shape_as(const ff_level *l, const ff_shape *s, bool goal, int k)
{
	uint8_t cost[FF_TERRAIN_VALUES];
	int x0, y0, x1, y1;

	switch (s->kind) {
	case FF_SHAPE_CELL:
		if (!goal)
			return FF_E_INVAL;
		if (!ff_level_in(l, s->x, s->y))
			return FF_E_RANGE;
		break;
	case FF_SHAPE_RECT:
		if (s->w < 1 || s->h < 1)
			return FF_E_INVAL;
		if (!ff_level_in(l, s->x, s->y) || s->w > l->w - s->x ||
		    s->h > l->h - s->y)
			return FF_E_RANGE;
		break;
	case FF_SHAPE_CIRCLE:
		if (s->r < 0 || s->r > FF_LEVEL_MAX_SIDE)
			return FF_E_INVAL;
		if (!ff_level_in(l, s->x, s->y))
			return FF_E_RANGE;
		break;
	default:
		return FF_E_INVAL;
	}
	if (k)
		ff_level_class_table(l, k, cost);
	ff_shape_clip(l, s, &x0, &y0, &x1, &y1);
	for (int y = y0; y <= y1; y++)
		for (int x = x0; x <= x1; x++)
			if (ff_shape_contains(s, x, y) &&
			    (k ? cost[ff_level_value(l, x, y)] : ff_level_cost(l, x, y)) != FF_WALL)
				return FF_OK;
	return FF_E_WALL;
}

int ff_level_class_by_name(const ff_level_meta *m, const char *name)
{
	if (!strcmp(name, "none"))
		return 0;
	for (int k = 1; k <= m->nclasses; k++)
		if (!strcmp(m->classes[k], name))
			return k;
	return -1;
}

const char *ff_level_class_name(const ff_level_meta *m, int k)
{
	return k > 0 && k <= m->nclasses ? m->classes[k] : "none";
}

bool ff_class_name_ok(const char *name)
{
	return ff_group_name_ok(name) && strcmp(name, "none");
}

int ff_level_class_cost(const ff_level_meta *m, int k, int t)
{
	const ff_terrain *tr = &m->palette[t];

	if (k > 0 && tr->cls[k])
		return tr->cls[k];
	return k > 0 && m->class_walls[k] ? FF_WALL : tr->cost;
}

void ff_level_class_table(const ff_level *l, int k, uint8_t out[FF_TERRAIN_VALUES])
{
	for (int v = 0; v < FF_TERRAIN_VALUES; v++)
		out[v] = (uint8_t)(v < FF_WALL ? v : FF_WALL);
	for (int t = 0; k && t < l->meta.npalette; t++)
		out[ff_level_terrain_value(l, t)] = (uint8_t)ff_level_class_cost(&l->meta, k, t);
}

/* One "CLASS=COST" word of ff_class_costs_read(). */
static ff_err class_cost_word(const ff_level_meta *m, const char *word, int *k, int *cost,
			      char *why, size_t n)
{
	const char *eq = strchr(word, '='), *v;
	char name[FF_GROUP_NAME_MAX];
	size_t len = eq ? (size_t)(eq - word) : 0;
	char *e;
	long c;

	if (!eq || !len) {
		snprintf(why, n, "expected CLASS=COST, not '%s'", word);
		return FF_E_PARSE;
	}
	memcpy(name, word, len < sizeof name ? len : sizeof name - 1);
	name[len < sizeof name ? len : sizeof name - 1] = '\0';
	if (len >= sizeof name || (*k = ff_level_class_by_name(m, name)) <= 0) {
		snprintf(why, n, "unknown class '%.*s' in '%s' (declare it first: 'class %.*s')",
			 (int)len, word, word, (int)len, word);
		return FF_E_NOTFOUND;
	}
	v = eq + 1;
	c = strtol(v, &e, 10);
	if (!strcmp(v, "wall"))
		*cost = FF_WALL;
	else if (!strcmp(v, "default"))
		*cost = 0;
	else if (e != v && !*e && c >= FF_COST_MIN && c <= FF_COST_MAX)
		*cost = (int)c;
	else {
		snprintf(why, n, "cost '%s' for class %s must be " FF_COST_RANGE ", wall or default",
			 v, name);
		return FF_E_INVAL;
	}
	return FF_OK;
}

ff_err ff_class_costs_read(const ff_level_meta *m, const char *const *words, int n, uint8_t *cls,
			   int *bad, char *why, size_t len)
{
	uint8_t out[FF_CLASSES_MAX + 1];
	bool named[FF_CLASSES_MAX + 1] = {false};
	int k, cost;

	memcpy(out, cls, sizeof out);
	for (int i = 0; i < n; i++) {
		ff_err e = class_cost_word(m, words[i], &k, &cost, why, len);

		if (!e && named[k]) {
			snprintf(why, len, "class %s is given twice", m->classes[k]);
			e = FF_E_INVAL;
		}
		if (e) {
			*bad = i;
			return e;
		}
		named[k] = true;
		out[k] = (uint8_t)cost;
	}
	memcpy(cls, out, sizeof out);
	return FF_OK;
}

const char *ff_class_cost_words(const ff_level_meta *m, int t, char *buf, size_t n)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int k = 1; k <= m->nclasses && at < n; k++) {
		int c = m->palette[t].cls[k];

		if (!c)
			continue;
		if (c == FF_WALL)
			at += (size_t)snprintf(buf + at, n - at, " %s=wall", m->classes[k]);
		else
			at += (size_t)snprintf(buf + at, n - at, " %s=%d", m->classes[k], c);
	}
	return buf;
}

/* Makes sure COST has a palette entry, in the meta copy M. */
static ff_err palette_cover(const ff_level *l, ff_level_meta *m, int cost)
{
	static const char glyphs[] =
		"123456789abcdeghijklnopqrtuvwxyzABCDEFGHIJKLMNOPQRSUVWXYZ"
		"%&*+:;=?^|";

	if (cost < FF_COST_MIN || cost > FF_WALL)
		return FF_E_INVAL;
	if (ff_level_terrain_by_cost(l, cost) >= 0)
		return FF_OK;
	if (m->npalette >= FF_PALETTE_MAX)
		return FF_E_FULL;
	for (const char *g = glyphs; *g; g++) {
		if (ff_level_terrain_by_glyph(l, *g) >= 0)
			continue;
		ff_terrain *t = &m->palette[m->npalette++];
		memset(t, 0, sizeof *t);
		t->glyph = *g;
		t->cost = (uint8_t)cost;
		/* "cost254" fits FF_TERRAIN_NAME_MAX */
		strcpy(t->name, "cost");
		t->name[4] = (char)('0' + cost / 100);
		t->name[5] = (char)('0' + cost / 10 % 10);
		t->name[6] = (char)('0' + cost % 10);
		return FF_OK;
	}
	return FF_E_FULL;
}

/* Makes the walls layer (all zeros) if L has none. */
static ff_err walls_alloc(ff_level *l)
{
	if (!l->walls)
		l->walls = calloc((size_t)l->w * (size_t)l->h, 1);
	return l->walls ? FF_OK : FF_E_NOMEM;
}

/*
 * The common tail of every painting mutator: cover COST in the palette, save
 * the bounding box [x0,x1] x [y0,y1] into UNDO, then let PLOT write COST into
 * the cells of the shape (all inside that box).  A wall kind other than the
 * first needs the walls layer, made first so that UNDO saves it too.
 */
typedef void (*plot_fn)(ff_level *l, const void *ctx, int cost);

static ff_err paint_region(ff_level *l, int x0, int y0, int x1, int y1, int cost,
			   plot_fn plot, const void *ctx, ff_patch *undo)
{
	bool new_terrain = ff_level_terrain_by_value(l, cost) < 0;
	ff_level_meta m;
	ff_err err;

	if (new_terrain) {
		m = l->meta;
		err = palette_cover(l, &m, cost);
		if (err)
			return err;
	}
	if (cost > FF_WALL && (err = walls_alloc(l)))
		return err;
	if (undo) {
		err = ff_patch_save(undo, l, x0, y0, x1 - x0 + 1, y1 - y0 + 1, new_terrain);
		if (err)
			return err;
	}
	if (new_terrain)
		l->meta = m;
	plot(l, ctx, cost);
	ff_level_changed(l);
	return FF_OK;
}

/* Writes terrain value COST into cell I; the walls layer, if there is
 * one, gets the wall kind (0 on passable cells). */
static inline void put_at(ff_level *l, size_t i, int cost)
{
	l->cells[i] = (uint8_t)(cost < FF_WALL ? cost : FF_WALL);
	if (l->walls)
		l->walls[i] = (uint8_t)(cost < FF_WALL ? 0 : cost - FF_WALL);
}

static inline void put(ff_level *l, int x, int y, int cost)
{
	put_at(l, (size_t)y * (size_t)l->w + (size_t)x, cost);
}

ff_err ff_level_put(ff_level *l, int x, int y, int value)
{
	if (value > FF_WALL && walls_alloc(l))
		return FF_E_NOMEM;
	put(l, x, y, value);
	ff_level_changed(l);
	return FF_OK;
}

/* A terrain value L can paint: a cost, the wall, or a wall kind it has. */
static bool cost_ok(const ff_level *l, int cost)
{
	return (cost >= FF_COST_MIN && cost <= FF_WALL) ||
	       (cost > FF_WALL && ff_level_terrain_by_value(l, cost) >= 0);
}

/* Rectangles and circles: every cell of the clipped box inside the shape. */
static void plot_shape(ff_level *l, const void *ctx, int cost)
{
	const ff_shape *s = ctx;
	int x0, y0, x1, y1;

	ff_shape_clip(l, s, &x0, &y0, &x1, &y1);
	for (int y = y0; y <= y1; y++)
		for (int x = x0; x <= x1; x++)
			if (ff_shape_contains(s, x, y))
				put(l, x, y, cost);
}

static ff_err paint_shape(ff_level *l, const ff_shape *s, int cost, ff_patch *undo)
{
	int x0, y0, x1, y1;

	ff_shape_clip(l, s, &x0, &y0, &x1, &y1);
	return paint_region(l, x0, y0, x1, y1, cost, plot_shape, s, undo);
}

ff_err ff_level_paint(ff_level *l, int x, int y, int cost, ff_patch *undo)
{
	ff_shape s = {FF_SHAPE_CELL, x, y, 0, 0, 0};

	if (!cost_ok(l, cost))
		return FF_E_INVAL;
	if (!ff_level_in(l, x, y))
		return FF_E_RANGE;
	return paint_shape(l, &s, cost, undo);
}

ff_err ff_level_rect(ff_level *l, int x, int y, int w, int h, int cost, ff_patch *undo)
{
	ff_shape s = {FF_SHAPE_RECT, x, y, w, h, 0};

	if (!cost_ok(l, cost) || w < 1 || h < 1)
		return FF_E_INVAL;
	if (!ff_level_in(l, x, y) || w > l->w - x || h > l->h - y)
		return FF_E_RANGE;
	return paint_shape(l, &s, cost, undo);
}

ff_err ff_level_circle(ff_level *l, int x, int y, int r, int cost, ff_patch *undo)
{
	ff_shape s = {FF_SHAPE_CIRCLE, x, y, 0, 0, r};

	if (!cost_ok(l, cost) || r < 0 || r > FF_LEVEL_MAX_SIDE)
		return FF_E_INVAL;
	if (!ff_level_in(l, x, y))
		return FF_E_RANGE;
	return paint_shape(l, &s, cost, undo);
}

struct line { int x0, y0, x1, y1; };

/* Bresenham's line from (x0, y0) to (x1, y1), both ends included. */
static void plot_line(ff_level *l, const void *ctx, int cost)
{
	const struct line *ln = ctx;
	int dx = abs(ln->x1 - ln->x0), dy = -abs(ln->y1 - ln->y0);
	int sx = ln->x0 < ln->x1 ? 1 : -1, sy = ln->y0 < ln->y1 ? 1 : -1;
	int x = ln->x0, y = ln->y0, e = dx + dy;

	for (;;) {
		put(l, x, y, cost);
		if (x == ln->x1 && y == ln->y1)
			return;
		int e2 = 2 * e;
		if (e2 >= dy)
			e += dy, x += sx;
		if (e2 <= dx)
			e += dx, y += sy;
	}
}

ff_err ff_level_line(ff_level *l, int x0, int y0, int x1, int y1, int cost,
		     ff_patch *undo)
{
	struct line ln = {x0, y0, x1, y1};

	if (!cost_ok(l, cost))
		return FF_E_INVAL;
	if (!ff_level_in(l, x0, y0) || !ff_level_in(l, x1, y1))
		return FF_E_RANGE;
	return paint_region(l, x0 < x1 ? x0 : x1, y0 < y1 ? y0 : y1,
			    x0 < x1 ? x1 : x0, y0 < y1 ? y1 : y0, cost, plot_line,
			    &ln, undo);
}

struct fill { const int *cells; size_t n; };

static void plot_fill(ff_level *l, const void *ctx, int cost)
{
	const struct fill *f = ctx;

	for (size_t i = 0; i < f->n; i++)
		put_at(l, (size_t)f->cells[i], cost);
}

ff_err ff_level_fill(ff_level *l, int x, int y, int cost, ff_patch *undo)
{
	static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
	size_t total = (size_t)l->w * (size_t)l->h, n = 0, head = 0, cap = 4096;
	int bx0 = x, by0 = y, bx1 = x, by1 = y;
	uint8_t *seen;
	int *list, *grown, from;
	ff_err err;

	if (!cost_ok(l, cost))
		return FF_E_INVAL;
	if (!ff_level_in(l, x, y))
		return FF_E_RANGE;
	from = ff_level_value(l, x, y);
	/* the list grows with the region, so a small fill of a large level
	 * takes little memory (SEEN's untouched pages cost none) */
	list = malloc(cap * sizeof *list);
	seen = calloc(total, 1);
	if (!list || !seen)
		goto fail;
	/* Breadth first over the same-cost region; LIST doubles as the queue. */
	list[n++] = y * l->w + x;
	seen[y * l->w + x] = 1;
	while (head < n) {
		int c = list[head++], cx = c % l->w, cy = c / l->w;

		bx0 = cx < bx0 ? cx : bx0, bx1 = cx > bx1 ? cx : bx1;
		by0 = cy < by0 ? cy : by0, by1 = cy > by1 ? cy : by1;
		if (n + 4 > cap) {
			cap = cap * 2 < total ? cap * 2 : total;
			if (!(grown = realloc(list, cap * sizeof *list)))
				goto fail;
			list = grown;
		}
		for (int k = 0; k < 4; k++) {
			int nx = cx + dx[k], ny = cy + dy[k], nc = ny * l->w + nx;

			if (ff_level_in(l, nx, ny) && !seen[nc] && ff_level_value(l, nx, ny) == from) {
				seen[nc] = 1;
				list[n++] = nc;
			}
		}
	}
	free(seen);
	struct fill f = {list, n};
	err = paint_region(l, bx0, by0, bx1, by1, cost, plot_fill, &f, undo);
	free(list);
	return err;
fail:
	free(list);
	free(seen);
	return FF_E_NOMEM;
}

/* Meta mutators: change a copy, save the old meta, then commit the copy. */
static ff_err commit_meta(ff_level *l, const ff_level_meta *m, ff_patch *undo)
{
	if (undo) {
		ff_err err = ff_patch_save(undo, l, 0, 0, 0, 0, true);
		if (err)
			return err;
	}
	l->meta = *m;
	return FF_OK;
}

int ff_level_meta_group(ff_level_meta *m, const char *name)
{
	if (!name || !*name || !strcmp(name, "default"))
		return 0;
	if (!ff_group_name_ok(name))
		return -1;
	for (int g = 1; g < m->ngroups; g++)
		if (!strcmp(m->groups[g], name))
			return g;
	if (m->ngroups == FF_GROUPS_MAX)
		return -2;
	strcpy(m->groups[m->ngroups], name);
	return m->ngroups++;
}

/* Adds GOAL to GROUP; when ON_WALLS, one that walls cover too. */
static ff_err goal_add(ff_level *l, const ff_shape *goal, const char *group, bool on_walls,
		       ff_patch *undo)
{
	ff_level_meta m = l->meta;
	int g = ff_level_meta_group(&m, group);
	ff_err err;

	if (g < 0)
		return g == -1 ? FF_E_INVAL : FF_E_FULL;
	/* passable to the group's class, as its field will be solved */
	if ((err = ff_level_check_shape_as(l, goal, true, m.group_class[g])) &&
	    !(on_walls && err == FF_E_WALL))
		return err;
	if (l->meta.ngoals >= FF_GOALS_MAX)
		return FF_E_FULL;
	m.goal_group[m.ngoals] = (uint8_t)g;
	m.goals[m.ngoals++] = *goal;
	return commit_meta(l, &m, undo);
}

ff_err ff_level_goal_add_to(ff_level *l, const ff_shape *goal, const char *group, ff_patch *undo)
{
	return goal_add(l, goal, group, false, undo);
}

ff_err ff_level_goal_load(ff_level *l, const ff_shape *goal, const char *group)
{
	return goal_add(l, goal, group, true, NULL);
}

ff_err ff_level_goal_add(ff_level *l, const ff_shape *goal, ff_patch *undo)
{
	return ff_level_goal_add_to(l, goal, NULL, undo);
}

ff_err ff_level_order(ff_level *l, const char *group, const ff_shape *goal, ff_patch *undo)
{
	int g = ff_level_group_by_name(l, group), n = 0, at = -1;
	ff_level_meta m;
	ff_err err;

	if (g < 0)
		return FF_E_NOTFOUND;
	if ((err = ff_level_check_shape_as(l, goal, true, l->meta.group_class[g])))
		return err;
	m = l->meta;
	/* the group's goals go; the new one takes the first one's place (or
	 * comes last when the group had none) */
	for (int i = 0; i < l->meta.ngoals; i++) {
		if (l->meta.goal_group[i] == g && at >= 0)
			continue;
		if (l->meta.goal_group[i] == g)
			at = n, m.goals[n] = *goal;
		else
			m.goals[n] = l->meta.goals[i];
		m.goal_group[n++] = l->meta.goal_group[i];
	}
	if (at < 0) {
		if (n >= FF_GOALS_MAX)
			return FF_E_FULL;
		m.goals[n] = *goal;
		m.goal_group[n++] = (uint8_t)g;
	}
	m.ngoals = n;
	return commit_meta(l, &m, undo);
}

ff_err ff_level_goal_remove(ff_level *l, int index, ff_patch *undo)
{
	ff_level_meta m;

	if (index < 0 || index >= l->meta.ngoals)
		return FF_E_NOTFOUND;
	m = l->meta;
	memmove(&m.goals[index], &m.goals[index + 1],
		(size_t)(m.ngoals - index - 1) * sizeof m.goals[0]);
	memmove(&m.goal_group[index], &m.goal_group[index + 1],
		(size_t)(m.ngoals - index - 1) * sizeof m.goal_group[0]);
	m.ngoals--;
	return commit_meta(l, &m, undo);
}

ff_err ff_level_goal_clear(ff_level *l, ff_patch *undo)
{
	ff_level_meta m = l->meta;

	m.ngoals = 0;
	return commit_meta(l, &m, undo);
}

ff_err ff_level_spawn_add(ff_level *l, const ff_spawn *spawn, ff_patch *undo)
{
	ff_level_meta m;
	ff_err err;

	if (spawn->count < 1 || spawn->count > FF_SPAWN_COUNT_MAX ||
	    !(spawn->rate >= 0 && spawn->rate <= FF_SPAWN_RATE_MAX) || spawn->group < 0 ||
	    spawn->group >= l->meta.ngroups)
		return FF_E_INVAL;
	if ((err = ff_level_check_shape_as(l, &spawn->area, false,
					   l->meta.group_class[spawn->group])))
		return err;
	if (l->meta.nspawns >= FF_SPAWNS_MAX)
		return FF_E_FULL;
	m = l->meta;
	m.spawns[m.nspawns++] = *spawn;
	return commit_meta(l, &m, undo);
}

/* Adds SPAWN to GROUP; when ON_WALLS, one that walls cover too. */
static ff_err spawn_add(ff_level *l, const ff_spawn *spawn, const char *group, bool on_walls,
			ff_patch *undo)
{
	ff_level_meta m = l->meta;
	ff_spawn sp = *spawn;
	ff_err err;

	if (sp.count < 1 || sp.count > FF_SPAWN_COUNT_MAX ||
	    !(sp.rate >= 0 && sp.rate <= FF_SPAWN_RATE_MAX))
		return FF_E_INVAL;
	if ((sp.group = ff_level_meta_group(&m, group)) < 0)
		return sp.group == -1 ? FF_E_INVAL : FF_E_FULL;
	if ((err = ff_level_check_shape_as(l, &sp.area, false, m.group_class[sp.group])) &&
	    !(on_walls && err == FF_E_WALL))
		return err;
	if (l->meta.nspawns >= FF_SPAWNS_MAX)
		return FF_E_FULL;
	m.spawns[m.nspawns++] = sp;
	return commit_meta(l, &m, undo);
}

ff_err ff_level_spawn_add_to(ff_level *l, const ff_spawn *spawn, const char *group,
			     ff_patch *undo)
{
	return spawn_add(l, spawn, group, false, undo);
}

ff_err ff_level_spawn_load(ff_level *l, const ff_spawn *spawn, const char *group)
{
	return spawn_add(l, spawn, group, true, NULL);
}

ff_err ff_level_spawn_remove(ff_level *l, int index, ff_patch *undo)
{
	ff_level_meta m;

	if (index < 0 || index >= l->meta.nspawns)
		return FF_E_NOTFOUND;
	m = l->meta;
	memmove(&m.spawns[index], &m.spawns[index + 1],
		(size_t)(m.nspawns - index - 1) * sizeof m.spawns[0]);
	m.nspawns--;
	return commit_meta(l, &m, undo);
}

ff_err ff_level_spawn_clear(ff_level *l, ff_patch *undo)
{
	ff_level_meta m = l->meta;

	m.nspawns = 0;
	return commit_meta(l, &m, undo);
}

/* Parameters that count things: whole numbers only. */
static bool whole(ff_param_id id)
{
	return id == FF_P_SEED || id == FF_P_WALL_PENALTY || id == FF_P_WALL_PENALTY_RADIUS;
}

bool ff_param_ok(ff_param_id id, double value)
{
	return (unsigned)id < FF_P__COUNT && value >= params[id].min && value <= params[id].max &&
	       (!whole(id) || value == floor(value));
}

const char *ff_param_range(ff_param_id id, char *buf, size_t n)
{
	const char *u = ff_unit_si(params[id].unit);

	snprintf(buf, n, "%.10g..%.10g%s%s%s", params[id].min, params[id].max, *u ? " " : "", u,
		 whole(id) ? ", a whole number" : "");
	return buf;
}

/* SI word, cell word, and the power of the cell size that turns the cell
 * value into the SI one. */
static const struct unit_info {
	const char *si, *cells;
	int power;
} units[] = {
	[FF_UNIT_NONE] = {"", "", 0},
	[FF_UNIT_M] = {"m", "cells", 1},
	[FF_UNIT_M2] = {"m^2", "cells^2", 2},
	[FF_UNIT_MPS] = {"m/s", "cells/s", 1},
	[FF_UNIT_MPS2] = {"m/s^2", "cells/s^2", 1},
	[FF_UNIT_PER_M2] = {"1/m^2", "1/cell", -2},
	[FF_UNIT_S] = {"s", "", 0},
	[FF_UNIT_DEG] = {"deg", "", 0},
};

const char *ff_unit_si(ff_unit u)
{
	return units[u].si;
}

const char *ff_unit_cells(ff_unit u)
{
	return units[u].cells;
}

double ff_unit_from_cells(ff_unit u, double v, double cell_size)
{
	switch (units[u].power) {
	case 1:
		return v * cell_size;
	case 2:
		return v * cell_size * cell_size;
	case -2:
		return v / (cell_size * cell_size);
	default:
		return v;
	}
}

ff_err ff_param_parse(ff_param_id id, const char *text, double cell_size, double *out)
{
	const struct unit_info *u;
	char *end;
	double v;

	if ((unsigned)id >= FF_P__COUNT)
		return FF_E_NOTFOUND;
	u = &units[params[id].unit];
	v = strtod(text, &end);
	if (end == text || !isfinite(v))
		return FF_E_PARSE;
	if (*u->cells && !strcmp(end, u->cells))
		v = ff_unit_from_cells(params[id].unit, v, cell_size);
	else if (*end && strcmp(end, u->si))
		return FF_E_PARSE;
	if (!ff_param_ok(id, v))
		return FF_E_INVAL;
	*out = v;
	return FF_OK;
}

ff_err ff_level_param_set(ff_level *l, ff_param_id id, double value, ff_patch *undo)
{
	ff_level_meta m;

	if ((unsigned)id >= FF_P__COUNT)
		return FF_E_NOTFOUND;
	if (!ff_param_ok(id, value))
		return FF_E_INVAL;
	m = l->meta;
	m.params[id] = value;
	return commit_meta(l, &m, undo);
}

ff_err ff_level_set_name(ff_level *l, const char *name, ff_patch *undo)
{
	ff_level_meta m;

	if (!ff_level_name_ok(name))
		return FF_E_INVAL;
	m = l->meta;
	strcpy(m.name, name);
	return commit_meta(l, &m, undo);
}

bool ff_note_ok(const char *note)
{
	for (; *note; note++)
		if ((unsigned char)*note < 0x20 && *note != '\t' && *note != '\n' && *note != '\r')
			return false;
	return true;
}

ff_err ff_level_set_note(ff_level *l, const char *note, ff_patch *undo)
{
	ff_level_meta m;

	if (strlen(note) >= FF_NOTE_MAX || !ff_note_ok(note))
		return FF_E_INVAL;
	m = l->meta;
	strcpy(m.note, note);
	return commit_meta(l, &m, undo);
}

static bool glyph_ok(char g)
{
	return g > ' ' && g < 127;
}

bool ff_terrain_name_ok(const char *name, int cost)
{
	size_t n = strlen(name), digits = 0;

	if (n == 0 || n >= FF_TERRAIN_NAME_MAX || (!strcmp(name, "wall") && cost != FF_WALL))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!glyph_ok(name[i]))
			return false;
		digits += name[i] >= '0' && name[i] <= '9';
	}
	return digits < n;
}

/* True when CLS are class costs a terrain of M may have (ff_terrain.cls). */
static bool class_costs_ok(const ff_level_meta *m, const uint8_t *cls)
{
	for (int k = 0; k <= FF_CLASSES_MAX; k++)
		if (cls[k] && (k == 0 || k > m->nclasses))
			return false;
	return true;
}

ff_err ff_level_terrain_add(ff_level *l, const char *name, char glyph, int cost,
			    const uint8_t *cls, ff_patch *undo)
{
	size_t n = strlen(name);
	ff_level_meta m;
	ff_terrain *t;

	if (!ff_terrain_name_ok(name, cost) || !glyph_ok(glyph) || cost < FF_COST_MIN ||
	    cost > FF_WALL || (cls && !class_costs_ok(&l->meta, cls)))
		return FF_E_INVAL;
	if (ff_level_terrain_by_name(l, name) >= 0 ||
	    ff_level_terrain_by_glyph(l, glyph) >= 0 ||
	    (cost != FF_WALL && ff_level_terrain_by_cost(l, cost) >= 0))
		return FF_E_STATE;
	if (l->meta.npalette >= FF_PALETTE_MAX)
		return FF_E_FULL;
	m = l->meta;
	t = &m.palette[m.npalette++];
	memset(t, 0, sizeof *t);
	memcpy(t->name, name, n);
	t->glyph = glyph;
	t->cost = (uint8_t)cost;
	if (cls)
		memcpy(t->cls, cls, sizeof t->cls);
	return commit_meta(l, &m, undo);
}

ff_err ff_level_terrain_classes(ff_level *l, int t, const uint8_t *cls, ff_patch *undo)
{
	ff_level_meta m;

	if (t < 0 || t >= l->meta.npalette)
		return FF_E_NOTFOUND;
	if (!class_costs_ok(&l->meta, cls))
		return FF_E_INVAL;
	m = l->meta;
	memcpy(m.palette[t].cls, cls, sizeof m.palette[t].cls);
	return commit_meta(l, &m, undo);
}

ff_err ff_level_class_set(ff_level *l, const char *name, bool walls, ff_patch *undo)
{
	ff_level_meta m;
	int k;

	if (!ff_class_name_ok(name))
		return FF_E_INVAL;
	m = l->meta;
	if ((k = ff_level_class_by_name(&m, name)) < 0) {
		if (m.nclasses == FF_CLASSES_MAX)
			return FF_E_FULL;
		k = ++m.nclasses;
		strcpy(m.classes[k], name);
	}
	m.class_walls[k] = walls;
	return commit_meta(l, &m, undo);
}

ff_err ff_level_group_class(ff_level *l, const char *group, int k, ff_patch *undo)
{
	ff_level_meta m;
	int g;

	if (k < 0 || k > l->meta.nclasses)
		return FF_E_NOTFOUND;
	m = l->meta;
	if ((g = ff_level_meta_group(&m, group)) < 0)
		return g == -1 ? FF_E_INVAL : FF_E_FULL;
	m.group_class[g] = (uint8_t)k;
	return commit_meta(l, &m, undo);
}

/* True when shape S lies wholly inside a W x H grid (circles: centre inside). */
static bool shape_fits(const ff_shape *s, int w, int h)
{
	if (s->x < 0 || s->y < 0 || s->x >= w || s->y >= h)
		return false;
	return s->kind != FF_SHAPE_RECT || (s->w <= w - s->x && s->h <= h - s->y);
}

/* The top-left W x H of L's layer SRC, new cells FILL; NULL when out of
 * memory. */
static uint8_t *crop(const ff_level *l, const uint8_t *src, int w, int h, int fill)
{
	uint8_t *dst = malloc((size_t)w * (size_t)h);

	if (!dst)
		return NULL;
	memset(dst, fill, (size_t)w * (size_t)h);
	for (int y = 0; y < h && y < l->h; y++)
		memcpy(dst + (size_t)y * (size_t)w, src + (size_t)y * (size_t)l->w,
		       (size_t)(w < l->w ? w : l->w));
	return dst;
}

ff_err ff_level_resize(ff_level *l, int w, int h, ff_patch *undo)
{
	uint8_t *cells, *walls = NULL, *dyn;
	ff_level_meta m;
	ff_err err = FF_E_NOMEM;

	if (w < 1 || h < 1 || w > FF_LEVEL_MAX_SIDE || h > FF_LEVEL_MAX_SIDE)
		return FF_E_INVAL;
	cells = crop(l, l->cells, w, h, 1);
	dyn = crop(l, l->dyn, w, h, 0);
	if (!cells || !dyn || (l->walls && !(walls = crop(l, l->walls, w, h, 0))))
		goto fail;
	m = l->meta;
	if ((w > l->w || h > l->h) && palette_cover(l, &m, 1)) {
		err = FF_E_FULL;
		goto fail;
	}
	m.ngoals = m.nspawns = 0;
	for (int i = 0; i < l->meta.ngoals; i++)
		if (shape_fits(&l->meta.goals[i], w, h))
			m.goals[m.ngoals++] = l->meta.goals[i];
	for (int i = 0; i < l->meta.nspawns; i++)
		if (shape_fits(&l->meta.spawns[i].area, w, h))
			m.spawns[m.nspawns++] = l->meta.spawns[i];
	if (undo) {
		*undo = (ff_patch)FF_PATCH_INIT;
		undo->meta = malloc(sizeof *undo->meta);
		if (!undo->meta)
			goto fail;
		*undo->meta = l->meta;
		undo->cells = l->cells, undo->walls = l->walls, undo->dyn = l->dyn;
		undo->w = l->w, undo->h = l->h;
		undo->resized = true;
	} else {
		free(l->cells);
		free(l->walls);
		free(l->dyn);
	}
	l->cells = cells, l->walls = walls, l->dyn = dyn, l->w = w, l->h = h;
	l->meta = m;
	ff_level_changed(l);
	return FF_OK;
fail:
	free(cells);
	free(walls);
	free(dyn);
	return err;
}
