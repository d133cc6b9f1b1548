/*
 * tiled_level.c - a read Tiled map (tl_map) as a level: the movement
 * classes of its 'classes' property, each tile with a cost, wall or
 * terrain property a terrain of the palette (in tileset order, with the
 * costs to classes of its 'classes' property), each cell its tile's
 * terrain (an empty cell, gid 0, ground of cost 1), the groups of its
 * 'groups' property, goal and spawn objects divided by the tile size into
 * cells, each in the group its 'group' property names.  The lists are the
 * text format's words (docs/formats.md), entries parted by commas.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tiled_int.h"

/* A glyph for terrain NAME not yet in L's palette: its first letter, that
 * letter's other case, else the first free of a fixed list. */
static char free_glyph(const ff_level *l, const char *name)
{
	static const char more[] = "123456789abcdeghijklnopqrtuvwxyzABCDEFGHIJKLMNOPQRSUVWXYZ"
				   "%&*+:;=?^|";
	char first = name[0], other = (char)(first ^ 0x20);

	if (first > ' ' && first <= '~' && ff_level_terrain_by_glyph(l, first) < 0)
		return first;
	if (((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z')) &&
	    ff_level_terrain_by_glyph(l, other) < 0)
		return other;
	for (const char *g = more; *g; g++)
		if (ff_level_terrain_by_glyph(l, *g) < 0)
			return *g;
	return 0;
}

/* Splits the N bytes at S into blank-separated words, at most MAX, in
 * place (S is a copy); how many, or MAX + 1 when there are more. */
static int split(char *s, size_t n, char **w, int max)
{
	int k = 0;

	for (size_t i = 0; i < n && k <= max;) {
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n'))
			s[i++] = '\0';
		if (i == n)
			break;
		if (k < max)
			w[k] = s + i;
		k++;
		while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\n')
			i++;
	}
	return k;
}

/* The costs to classes of tile T ('classes', "boat=1 flyer=wall") into
 * CLS, by the words the text format reads; false after a message. */
static bool tile_classes(tl_ctx *c, const ff_level *l, const tl_tile *t, uint8_t *cls)
{
	char copy[TL_LIST_MAX], why[128], *w[FF_CLASSES_MAX + 1];
	int n, bad;

	memset(cls, 0, FF_CLASSES_MAX + 1);
	snprintf(copy, sizeof copy, "%s", t->classes);
	n = split(copy, strlen(copy), w, FF_CLASSES_MAX);
	if (n > FF_CLASSES_MAX)
		return tl_fail(c, &t->at, 0, "tile %u: 'classes' names more than %d classes", t->id,
			       FF_CLASSES_MAX), false;
	if (ff_class_costs_read(&l->meta, (const char *const *)w, n, cls, &bad, why, sizeof why))
		return tl_fail(c, &t->at, 0, "tile %u: 'classes': %s", t->id, why), false;
	return true;
}

/* True when tile T, which is terrain I of L's palette again, gives it no
 * costs to classes or the same ones; false after a message. */
static bool same_classes(tl_ctx *c, const ff_level *l, const tl_tile *t, int i)
{
	uint8_t cls[FF_CLASSES_MAX + 1];

	if (!t->classes[0])
		return true;
	if (!tile_classes(c, l, t, cls))
		return false;
	if (memcmp(cls, l->meta.palette[i].cls, sizeof cls))
		return tl_fail(c, &t->at, 0, "tile %u: terrain '%s' has other costs to classes on "
			       "an earlier tile", t->id, l->meta.palette[i].name), false;
	return true;
}

/* Adds terrain NAME (glyph GLYPH, or a free one when 0) of COST, and
 * tile T's costs to classes, to L and returns its value; -1 after a
 * message when the palette refuses it. */
static int add(tl_ctx *c, ff_level *l, const tl_tile *t, const char *name, char glyph, int cost)
{
	uint8_t cls[FF_CLASSES_MAX + 1];
	int i;

	if (!glyph)
		glyph = free_glyph(l, name);
	if (!tile_classes(c, l, t, cls))
		return -1;
	if (ff_level_terrain_add(l, name, glyph, cost, cls, NULL)) {
		tl_fail(c, &t->at, 0, "tile %u: terrain '%s' (glyph '%c') repeats one of the "
			"palette, or the palette is full", t->id, name, glyph ? glyph : '?');
		return -1;
	}
	i = ff_level_terrain_by_name(l, name);
	return ff_level_terrain_value(l, i);
}

/* The default palette's terrain NAME, or of COST when NAME is NULL. */
static const ff_terrain *default_terrain(const char *name, int cost)
{
	static ff_terrain pal[FF_PALETTE_MAX];
	int n = ff_level_default_palette(pal);

	for (int i = 0; i < n; i++)
		if (name ? !strcmp(pal[i].name, name) : pal[i].cost == cost)
			return &pal[i];
	return NULL;
}

/* The terrain value of tile T, adding its terrain to L's palette when new;
 * -1 after a message. */
static int terrain_of(tl_ctx *c, ff_level *l, const tl_tile *t)
{
	int cost = t->has_wall && t->wall ? FF_WALL : t->has_cost ? t->cost : -1, i;
	const ff_terrain *d;
	char name[16];

	if (t->has_terrain) {
		if ((i = ff_level_terrain_by_name(l, t->terrain)) >= 0) {
			if (cost >= 0 && l->meta.palette[i].cost != cost)
				return tl_fail(c, &t->at, 0, "tile %u: terrain '%s' has another cost "
					       "on an earlier tile", t->id, t->terrain), -1;
			if (!same_classes(c, l, t, i))
				return -1;
			return ff_level_terrain_value(l, i);
		}
		d = default_terrain(t->terrain, 0);
		if (cost < 0 && !d)
			return tl_fail(c, &t->at, 0, "tile %u: terrain '%s' is not a default one "
				       "(grass, forest, mud, swamp, water, wall): give the tile a 'cost' "
				       "or 'wall' property too", t->id, t->terrain), -1;
		return add(c, l, t, t->terrain, t->has_glyph ? t->glyph : d ? d->glyph : 0,
			   cost >= 0 ? cost : d->cost);
	}
	if (cost < 0)
		return -2; /* no terrain: an error only if a cell uses it */
	if ((i = ff_level_terrain_by_cost(l, cost)) >= 0)
		return same_classes(c, l, t, i) ? ff_level_terrain_value(l, i) : -1;
	if ((d = default_terrain(NULL, cost)))
		return add(c, l, t, d->name, t->has_glyph ? t->glyph : d->glyph, cost);
	snprintf(name, sizeof name, "cost%d", cost);
	return add(c, l, t, name, t->has_glyph ? t->glyph : 0, cost);
}

/* Calls FN on each comma-separated entry of LIST (split into at most 4
 * words; an empty entry is skipped), stopping at its first error. */
static ff_err each_entry(tl_ctx *c, ff_level *l, const char *list,
			 ff_err (*fn)(tl_ctx *c, ff_level *l, char **w, int n))
{
	char copy[TL_LIST_MAX];
	char *e = copy, *next;

	snprintf(copy, sizeof copy, "%s", list);
	for (; e; e = next) {
		char *w[4];
		int n;
		ff_err err;

		if ((next = strchr(e, ',')))
			*next++ = '\0';
		if ((n = split(e, strlen(e), w, 4)) == 0)
			continue;
		if ((err = fn(c, l, w, n > 4 ? 5 : n)))
			return err;
	}
	return FF_OK;
}

/* A movement class of the map's 'classes': "NAME [wall]". */
static ff_err one_class(tl_ctx *c, ff_level *l, char **w, int n)
{
	const tl_where *at = &c->m->classes_at;

	if (n > 2 || (n == 2 && strcmp(w[1], "wall")))
		return tl_fail(c, at, 0, "map property 'classes': expected 'NAME' or 'NAME wall' "
			       "between commas, not '%s %s...'", w[0], w[1]);
	if (ff_level_class_by_name(&l->meta, w[0]) > 0)
		return tl_fail(c, at, 0, "map property 'classes': class '%s' is declared twice",
			       w[0]);
	switch (ff_level_class_set(l, w[0], n == 2, NULL)) {
	case FF_OK:
		return FF_OK;
	case FF_E_FULL:
		return tl_fail(c, at, 0, "map property 'classes': more than %d classes",
			       FF_CLASSES_MAX);
	case FF_E_NOMEM:
		return FF_E_NOMEM;
	default:
		return tl_fail(c, at, 0, "map property 'classes': bad class name '%s' (1 to %d "
			       "letters, digits, '_' or '-', not 'none')", w[0],
			       FF_GROUP_NAME_MAX - 1);
	}
}

/* A group of the map's 'groups': "NAME [class CLASS]". */
static ff_err one_group(tl_ctx *c, ff_level *l, char **w, int n)
{
	const tl_where *at = &c->m->groups_at;
	int k = 0;

	if (n != 1 && (n != 3 || strcmp(w[1], "class")))
		return tl_fail(c, at, 0, "map property 'groups': expected 'NAME' or 'NAME class "
			       "CLASS' between commas, near '%s'", w[0]);
	if (n == 3 && (k = ff_level_class_by_name(&l->meta, w[2])) < 0)
		return tl_fail(c, at, 0, "map property 'groups': group '%s': unknown class '%s' "
			       "(add it to the map property 'classes')", w[0], w[2]);
	switch (ff_level_group_class(l, w[0], k, NULL)) {
	case FF_OK:
		return FF_OK;
	case FF_E_FULL:
		return tl_fail(c, at, 0, "map property 'groups': more than %d groups besides the "
			       "default one", FF_GROUPS_MAX - 1);
	case FF_E_NOMEM:
		return FF_E_NOMEM;
	default:
		return tl_fail(c, at, 0, "map property 'groups': bad group name '%s' (1 to %d "
			       "letters, digits, '_' or '-')", w[0], FF_GROUP_NAME_MAX - 1);
	}
}

typedef struct gid_value {
	uint32_t gid;
	int value;               /* -2: a tile with no terrain property */
	const tl_tile *tile;
} gid_value;

static int by_gid(const void *a, const void *b)
{
	uint32_t x = ((const gid_value *)a)->gid, y = ((const gid_value *)b)->gid;

	return x < y ? -1 : x > y;
}

/* The palette from every tile with properties, in tileset order, and a
 * table from gid to terrain value sorted by gid. */
static ff_err palette(tl_ctx *c, ff_level *l, gid_value **table, size_t *n)
{
	size_t k = 0, total = 0;

	for (int s = 0; s < c->m->nsets; s++)
		total += (size_t)c->m->sets[s].ntiles;
	*table = malloc((total ? total : 1) * sizeof **table);
	if (!*table)
		return FF_E_NOMEM;
	l->meta.npalette = 0;
	for (int s = 0; s < c->m->nsets; s++)
		for (int i = 0; i < c->m->sets[s].ntiles; i++) {
			const tl_tile *t = &c->m->sets[s].tiles[i];
			int v = terrain_of(c, l, t);

			if (v == -1)
				return FF_E_PARSE;
			(*table)[k++] = (gid_value){c->m->sets[s].firstgid + t->id, v, t};
		}
	qsort(*table, k, sizeof **table, by_gid);
	*n = k;
	return FF_OK;
}

/* Every cell's terrain from its gid; gid 0 (no tile) is cost 1. */
static ff_err cells(tl_ctx *c, ff_level *l, const gid_value *table, size_t n)
{
	const tl_map *m = c->m;
	gid_value key = {0, 0, NULL};
	const gid_value *hit = NULL;
	int ground = -1;
	ff_err err;

	for (int y = 0; y < m->h; y++)
		for (int x = 0; x < m->w; x++) {
			uint32_t gid = m->gids[(size_t)y * m->w + x];

			if (!gid && ground < 0) {
				tl_tile t = {.at = m->data_at};
				const ff_terrain *g = default_terrain(NULL, 1);

				ground = ff_level_terrain_by_cost(l, 1) >= 0 ? 1 :
					 add(c, l, &t, g->name, ff_level_terrain_by_glyph(l, g->glyph) < 0 ?
					     g->glyph : 0, 1);
				if (ground < 0)
					return FF_E_PARSE;
			}
			if (gid && (!hit || hit->gid != gid)) {
				key.gid = gid;
				hit = bsearch(&key, table, n, sizeof *table, by_gid);
				if (!hit)
					return tl_fail(c, &m->data_at, 0, "cell %d,%d: tile gid %u is in no "
						       "tileset with properties for it", x, y, gid);
				if (hit->value < 0)
					return tl_fail(c, &hit->tile->at, 0, "tile gid %u (id %u) has no "
						       "'cost', 'wall' or 'terrain' property: add one in "
						       "Tiled's tileset editor", gid, hit->tile->id);
			}
			if ((err = ff_level_put(l, x, y, gid ? hit->value : ground)))
				return err;
		}
	return FF_OK;
}

/* True when V cells is near enough the map to be a cell number (an int):
 * a shape further off is outside it anyway. */
static bool near(double v)
{
	return v >= -FF_LEVEL_MAX_SIDE && v <= 2.0 * FF_LEVEL_MAX_SIDE;
}

/* True when object O's corners are near the map (in cells). */
static bool near_map(const tl_map *m, const tl_object *o)
{
	return near(o->x / m->tw) && near(o->y / m->th) && near((o->x + o->w) / m->tw) &&
	       near((o->y + o->h) / m->th);
}

/* Object O, near the map, as a shape of cells. */
static bool shape_of(const tl_map *m, const tl_object *o, ff_shape *s)
{
	double tw = m->tw, th = m->th;

	memset(s, 0, sizeof *s);
	if (o->kind == TL_POINT || (o->kind == TL_RECT && (o->w <= 0 || o->h <= 0))) {
		s->kind = FF_SHAPE_CELL;
		s->x = (int)floor(o->x / tw), s->y = (int)floor(o->y / th);
	} else if (o->kind == TL_RECT) {
		s->kind = FF_SHAPE_RECT;
		s->x = (int)floor(o->x / tw), s->y = (int)floor(o->y / th);
		s->w = (int)ceil((o->x + o->w) / tw) - s->x;
		s->h = (int)ceil((o->y + o->h) / th) - s->y;
	} else if (o->kind == TL_ELLIPSE) {
		s->kind = FF_SHAPE_CIRCLE;
		s->x = (int)floor((o->x + o->w / 2) / tw), s->y = (int)floor((o->y + o->h / 2) / th);
		s->r = (int)((o->w / tw + o->h / th) / 4);
	} else {
		return false;
	}
	return true;
}

static ff_err objects(tl_ctx *c, ff_level *l)
{
	for (int i = 0; i < c->m->nobjs; i++) {
		const tl_object *o = &c->m->objs[i];
		const char *what = o->goal ? "goal" : "spawn";
		ff_spawn sp = {{0}, 0, 0, 0};
		ff_shape s;
		ff_err err;

		if (!near_map(c->m, o))
			return tl_fail(c, &o->at, 0, "object %d: the %s is not inside the %dx%d map",
				       o->id, what, l->w, l->h);
		if (!shape_of(c->m, o, &s))
			return tl_fail(c, &o->at, 0, "object %d: a %s is a rectangle, an ellipse or a "
				       "point, not rotated, not a tile", o->id, what);
		if (!o->goal && (!o->has_count || o->count < 1 || o->count > FF_SPAWN_COUNT_MAX))
			return tl_fail(c, &o->at, 0, "object %d: a spawn needs an int property "
				       "'count' of 1..%d agents", o->id, FF_SPAWN_COUNT_MAX);
		if (!o->goal && s.kind == FF_SHAPE_CELL)
			s.kind = FF_SHAPE_RECT, s.w = s.h = 1;
		if (o->goal && o->rate > 0)
			return tl_fail(c, &o->at, 0, "object %d: a goal has no 'rate'", o->id);
		sp.area = s, sp.count = (int)o->count, sp.rate = o->rate;
		err = o->goal ? ff_level_goal_load(l, &s, o->group)
			      : ff_level_spawn_load(l, &sp, o->group);
		if (err == FF_E_FULL && ff_level_group_by_name(l, o->group) < 0)
			return tl_fail(c, &o->at, 0, "object %d: group '%s' is one too many: at most %d "
				       "besides the default one", o->id, o->group, FF_GROUPS_MAX - 1);
		if (err == FF_E_RANGE || err == FF_E_INVAL)
			return tl_fail(c, &o->at, 0, "object %d: the %s is not inside the %dx%d map",
				       o->id, what, l->w, l->h);
		if (err)
			return tl_fail(c, &o->at, 0, "object %d: %s", o->id, ff_strerror(err));
	}
	return FF_OK;
}

ff_err tl_level(tl_ctx *c, const char *name, ff_level **out)
{
	tl_map *m = c->m;
	tl_where top = {m->files[0], 0, ""};
	gid_value *table = NULL;
	size_t n = 0;
	ff_level *l;
	ff_err err;

	if (!m->layer_found)
		return tl_fail(c, &top, 0, c->opts->layer ? "no tile layer named '%s'" :
			       "no tile layer%s", c->opts->layer ? c->opts->layer : "");
	if (!(l = ff_level_create(m->w, m->h, m->name[0] ? m->name : name)))
		return ff_level_name_ok(m->name[0] ? m->name : name) ? FF_E_NOMEM :
		       tl_fail(c, &top, 0, "bad level name '%s'", name);
	err = each_entry(c, l, m->classes, one_class);
	if (!err)
		err = palette(c, l, &table, &n);
	if (!err)
		err = cells(c, l, table, n);
	if (!err)
		err = each_entry(c, l, m->groups, one_group);
	if (!err)
		err = objects(c, l);
	free(table);
	for (int i = 0; i < FF_P__COUNT && !err; i++)
		if (m->has_param[i])
			l->meta.params[i] = m->params[i];
	if (!err)
		snprintf(l->meta.note, sizeof l->meta.note, "%s", m->note);
	if (err) {
		ff_level_destroy(l);
		return err;
	}
	*out = l;
	return FF_OK;
}
