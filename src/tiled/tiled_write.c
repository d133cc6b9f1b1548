/*
 * tiled_write.c - a level as a Tiled map: TMX through libxml2's writer,
 * TMJ through jansson.  Both hold the same: 16-pixel tiles, an embedded
 * tileset with one tile per palette terrain in palette order (tile id =
 * palette index; properties terrain, cost or wall, glyph, and classes
 * when it costs a class something of its own), one CSV tile layer, an
 * object layer of goals (rectangles, ellipses for circles, points for
 * cells) and spawn areas (with 'count', and 'rate' for a source), each
 * with its 'group' unless the default one, and the map properties name,
 * note, classes and groups when there are some, and the parameters that
 * differ from their defaults.  Reading either back (tiled_level.c) gives
 * the level again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <libxml/xmlwriter.h>

#include "core/buf.h"
#include "tiled_int.h"

#define TILE 16

/* A shape in pixels, and what kind of Tiled object draws it. */
typedef struct px_shape {
	long x, y, w, h;
	tl_kind kind;
} px_shape;

static px_shape pixels(const ff_shape *s)
{
	switch (s->kind) {
	case FF_SHAPE_RECT:
		return (px_shape){(long)s->x * TILE, (long)s->y * TILE, (long)s->w * TILE,
				  (long)s->h * TILE, TL_RECT};
	case FF_SHAPE_CIRCLE:
		return (px_shape){(long)(s->x - s->r) * TILE, (long)(s->y - s->r) * TILE,
				  (long)(2 * s->r + 1) * TILE, (long)(2 * s->r + 1) * TILE, TL_ELLIPSE};
	default: /* a cell: its centre */
		return (px_shape){(long)s->x * TILE + TILE / 2, (long)s->y * TILE + TILE / 2, 0, 0,
				  TL_POINT};
	}
}

/* The CSV of L's cells as gids (palette index + 1), rows on lines. */
static char *csv(const ff_level *l)
{
	ff_buf b = FF_BUF_INIT;

	for (int y = 0; y < l->h; y++) {
		for (int x = 0; x < l->w; x++)
			ff_buf_printf(&b, "%d%s", ff_level_terrain_by_value(l, ff_level_value(l, x, y)) + 1,
				      x + 1 < l->w || y + 1 < l->h ? "," : "");
		ff_buf_putc(&b, '\n');
	}
	return ff_buf_take(&b, NULL);
}

/* A parameter's value as the text format writes it (reads back exactly). */
static char *param_text(double v)
{
	ff_buf b = FF_BUF_INIT;

	ff_buf_double(&b, v);
	return ff_buf_take(&b, NULL);
}

/* The level's movement classes as the map property 'classes' lists them,
 * the text format's words parted by commas ("boat wall, flyer"); NULL when
 * out of memory. */
static char *class_list(const ff_level *l)
{
	ff_buf b = FF_BUF_INIT;

	for (int k = 1; k <= l->meta.nclasses; k++)
		ff_buf_printf(&b, "%s%s%s", k > 1 ? ", " : "", l->meta.classes[k],
			      l->meta.class_walls[k] ? " wall" : "");
	return ff_buf_take(&b, NULL);
}

/* The groups in order, with their classes, as the map property 'groups'
 * lists them ("boats class boat, east"): those the text format has a
 * 'group' line for. */
static char *group_list(const ff_level *l)
{
	const ff_level_meta *m = &l->meta;
	ff_buf b = FF_BUF_INIT;
	bool first = true;

	for (int g = 0; g < m->ngroups; g++) {
		if (g == 0 && !m->group_class[g])
			continue;
		ff_buf_printf(&b, "%s%s", first ? "" : ", ", ff_level_group_name(l, g));
		if (m->group_class[g])
			ff_buf_printf(&b, " class %s", m->classes[m->group_class[g]]);
		first = false;
	}
	return ff_buf_take(&b, NULL);
}

/* Terrain T's costs to classes as its property 'classes' holds them
 * ("boat=1 flyer=wall"), into BUF: "" when it has none. */
static const char *tile_classes(const ff_level *l, int t, char *buf, size_t n)
{
	ff_class_cost_words(&l->meta, t, buf, n);
	return buf[0] == ' ' ? buf + 1 : buf;
}

/* --- TMX ----------------------------------------------------------------- */

static int prop(xmlTextWriterPtr w, const char *name, const char *type, const char *value)
{
	return xmlTextWriterStartElement(w, BAD_CAST "property") < 0 ||
	       xmlTextWriterWriteAttribute(w, BAD_CAST "name", BAD_CAST name) < 0 ||
	       (type && xmlTextWriterWriteAttribute(w, BAD_CAST "type", BAD_CAST type) < 0) ||
	       xmlTextWriterWriteAttribute(w, BAD_CAST "value", BAD_CAST value) < 0 ||
	       xmlTextWriterEndElement(w) < 0;
}

static int fmt_attr(xmlTextWriterPtr w, const char *name, long v)
{
	return xmlTextWriterWriteFormatAttribute(w, BAD_CAST name, "%ld", v) < 0;
}

static int map_props(xmlTextWriterPtr w, const ff_level *l)
{
	char *cls = class_list(l), *grp = group_list(l);
	int bad = !cls || !grp || xmlTextWriterStartElement(w, BAD_CAST "properties") < 0 ||
		  prop(w, "name", NULL, l->meta.name) ||
		  (l->meta.note[0] && prop(w, "note", NULL, l->meta.note)) ||
		  (cls[0] && prop(w, "classes", NULL, cls)) || (grp[0] && prop(w, "groups", NULL, grp));

	free(cls);
	free(grp);
	for (int i = 0; i < FF_P__COUNT && !bad; i++) {
		const ff_param_info *pi = ff_param_info_get((ff_param_id)i);
		char *v;

		if (l->meta.params[i] == pi->def)
			continue;
		v = param_text(l->meta.params[i]);
		bad = !v || prop(w, pi->name, "float", v);
		free(v);
	}
	return bad || xmlTextWriterEndElement(w) < 0;
}

static int tileset_tmx(xmlTextWriterPtr w, const ff_level *l)
{
	int bad = xmlTextWriterStartElement(w, BAD_CAST "tileset") < 0 ||
		  fmt_attr(w, "firstgid", 1) ||
		  xmlTextWriterWriteAttribute(w, BAD_CAST "name", BAD_CAST "terrain") < 0 ||
		  fmt_attr(w, "tilewidth", TILE) || fmt_attr(w, "tileheight", TILE) ||
		  fmt_attr(w, "tilecount", l->meta.npalette) || fmt_attr(w, "columns", 0);

	for (int i = 0; i < l->meta.npalette && !bad; i++) {
		const ff_terrain *t = &l->meta.palette[i];
		char cost[8], glyph[2] = {t->glyph, '\0'}, buf[FF_CLASSES_MAX * 24];
		const char *cls = tile_classes(l, i, buf, sizeof buf);

		snprintf(cost, sizeof cost, "%d", t->cost);
		bad = xmlTextWriterStartElement(w, BAD_CAST "tile") < 0 || fmt_attr(w, "id", i) ||
		      xmlTextWriterStartElement(w, BAD_CAST "properties") < 0 ||
		      prop(w, "terrain", NULL, t->name) ||
		      (t->cost == FF_WALL ? prop(w, "wall", "bool", "true") :
		       prop(w, "cost", "int", cost)) ||
		      prop(w, "glyph", NULL, glyph) || (cls[0] && prop(w, "classes", NULL, cls)) ||
		      xmlTextWriterEndElement(w) < 0 || xmlTextWriterEndElement(w) < 0;
	}
	return bad || xmlTextWriterEndElement(w) < 0;
}

/* Object ID: goal S, or the spawn area S of SP (NULL for a goal), of
 * group G of L. */
static int object_tmx(xmlTextWriterPtr w, const ff_level *l, int id, const ff_shape *s,
		      const ff_spawn *sp, int g)
{
	px_shape p = pixels(s);
	char n[16], *rate = sp && sp->rate > 0 ? param_text(sp->rate) : NULL;
	int bad = (sp && sp->rate > 0 && !rate) ||
		  xmlTextWriterStartElement(w, BAD_CAST "object") < 0 || fmt_attr(w, "id", id) ||
		  xmlTextWriterWriteAttribute(w, BAD_CAST "type",
					      BAD_CAST(sp ? "spawn" : "goal")) < 0 ||
		  fmt_attr(w, "x", p.x) || fmt_attr(w, "y", p.y);

	if (!bad && p.kind != TL_POINT)
		bad = fmt_attr(w, "width", p.w) || fmt_attr(w, "height", p.h);
	if (!bad && p.kind != TL_RECT)
		bad = xmlTextWriterWriteElement(w, BAD_CAST(p.kind == TL_POINT ? "point" : "ellipse"),
						BAD_CAST "") < 0;
	snprintf(n, sizeof n, "%d", sp ? sp->count : 0);
	if (!bad && (sp || g))
		bad = xmlTextWriterStartElement(w, BAD_CAST "properties") < 0 ||
		      (sp && prop(w, "count", "int", n)) || (rate && prop(w, "rate", "float", rate)) ||
		      (g && prop(w, "group", NULL, ff_level_group_name(l, g))) ||
		      xmlTextWriterEndElement(w) < 0;
	free(rate);
	return bad || xmlTextWriterEndElement(w) < 0;
}

static int objects_tmx(xmlTextWriterPtr w, const ff_level *l)
{
	const ff_level_meta *m = &l->meta;
	int bad = xmlTextWriterStartElement(w, BAD_CAST "objectgroup") < 0 ||
		  fmt_attr(w, "id", 2) ||
		  xmlTextWriterWriteAttribute(w, BAD_CAST "name", BAD_CAST "goals and spawns") < 0;

	for (int i = 0; i < m->ngoals && !bad; i++)
		bad = object_tmx(w, l, i + 1, &m->goals[i], NULL, m->goal_group[i]);
	for (int i = 0; i < m->nspawns && !bad; i++)
		bad = object_tmx(w, l, m->ngoals + i + 1, &m->spawns[i].area, &m->spawns[i],
				 m->spawns[i].group);
	return bad || xmlTextWriterEndElement(w) < 0;
}

static int map_tmx(xmlTextWriterPtr w, const ff_level *l, const char *data)
{
	return xmlTextWriterSetIndent(w, 1) < 0 ||
	       xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) < 0 ||
	       xmlTextWriterStartElement(w, BAD_CAST "map") < 0 ||
	       xmlTextWriterWriteAttribute(w, BAD_CAST "version", BAD_CAST "1.10") < 0 ||
	       xmlTextWriterWriteAttribute(w, BAD_CAST "orientation", BAD_CAST "orthogonal") < 0 ||
	       xmlTextWriterWriteAttribute(w, BAD_CAST "renderorder", BAD_CAST "right-down") < 0 ||
	       fmt_attr(w, "width", l->w) || fmt_attr(w, "height", l->h) ||
	       fmt_attr(w, "tilewidth", TILE) || fmt_attr(w, "tileheight", TILE) ||
	       fmt_attr(w, "infinite", 0) || fmt_attr(w, "nextlayerid", 3) ||
	       fmt_attr(w, "nextobjectid", l->meta.ngoals + l->meta.nspawns + 1) ||
	       map_props(w, l) || tileset_tmx(w, l) ||
	       xmlTextWriterStartElement(w, BAD_CAST "layer") < 0 || fmt_attr(w, "id", 1) ||
	       xmlTextWriterWriteAttribute(w, BAD_CAST "name", BAD_CAST "terrain") < 0 ||
	       fmt_attr(w, "width", l->w) || fmt_attr(w, "height", l->h) ||
	       xmlTextWriterStartElement(w, BAD_CAST "data") < 0 ||
	       xmlTextWriterWriteAttribute(w, BAD_CAST "encoding", BAD_CAST "csv") < 0 ||
	       xmlTextWriterWriteFormatString(w, "\n%s", data) < 0 ||
	       xmlTextWriterEndElement(w) < 0 || xmlTextWriterEndElement(w) < 0 ||
	       objects_tmx(w, l) || xmlTextWriterEndDocument(w) < 0;
}

char *tl_write_tmx(const ff_level *l, size_t *len)
{
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
	char *data = csv(l), *out = NULL;
	int bad;

	if (w && data) {
		bad = map_tmx(w, l, data);
		xmlFreeTextWriter(w); /* flushes into BUF */
		w = NULL;
		if (!bad && (out = malloc((size_t)xmlBufferLength(buf) + 1))) {
			*len = (size_t)xmlBufferLength(buf);
			memcpy(out, xmlBufferContent(buf), *len + 1);
		}
	}
	xmlFreeTextWriter(w);
	xmlBufferFree(buf);
	free(data);
	return out;
}

/* --- TMJ ----------------------------------------------------------------- */

static json_t *jprop(const char *name, const char *type, json_t *value)
{
	return json_pack("{s:s, s:s, s:o}", "name", name, "type", type, "value", value);
}

static json_t *map_props_tmj(const ff_level *l)
{
	json_t *a = json_pack("[o]", jprop("name", "string", json_string(l->meta.name)));
	char *cls = class_list(l), *grp = group_list(l);

	if (a && l->meta.note[0] && json_array_append_new(a, jprop("note", "string",
								   json_string(l->meta.note))))
		json_decref(a), a = NULL;
	if (a && (!cls || !grp ||
		  (cls[0] && json_array_append_new(a, jprop("classes", "string", json_string(cls)))) ||
		  (grp[0] && json_array_append_new(a, jprop("groups", "string", json_string(grp))))))
		json_decref(a), a = NULL;
	free(cls);
	free(grp);
	for (int i = 0; i < FF_P__COUNT && a; i++) {
		const ff_param_info *pi = ff_param_info_get((ff_param_id)i);

		if (l->meta.params[i] != pi->def &&
		    json_array_append_new(a, jprop(pi->name, "float", json_real(l->meta.params[i]))))
			json_decref(a), a = NULL;
	}
	return a;
}

static json_t *tileset_tmj(const ff_level *l)
{
	json_t *tiles = json_array();

	for (int i = 0; i < l->meta.npalette && tiles; i++) {
		const ff_terrain *t = &l->meta.palette[i];
		char glyph[2] = {t->glyph, '\0'}, buf[FF_CLASSES_MAX * 24];
		const char *cls = tile_classes(l, i, buf, sizeof buf);
		json_t *kind = t->cost == FF_WALL ? jprop("wall", "bool", json_true()) :
			       jprop("cost", "int", json_integer(t->cost));
		json_t *props = json_pack("[o, o, o]", jprop("terrain", "string", json_string(t->name)),
					  kind, jprop("glyph", "string", json_string(glyph)));

		if (props && cls[0] &&
		    json_array_append_new(props, jprop("classes", "string", json_string(cls))))
			json_decref(props), props = NULL;
		if (json_array_append_new(tiles, json_pack("{s:i, s:o}", "id", i, "properties", props)))
			json_decref(tiles), tiles = NULL;
	}
	return json_pack("{s:i, s:s, s:i, s:i, s:i, s:i, s:o}", "firstgid", 1, "name", "terrain",
			 "tilewidth", TILE, "tileheight", TILE, "tilecount", l->meta.npalette,
			 "columns", 0, "tiles", tiles);
}

/* Object ID: goal S, or the spawn area S of SP (NULL for a goal), of
 * group G of L. */
static json_t *object_tmj(const ff_level *l, int id, const ff_shape *s, const ff_spawn *sp,
			  int g)
{
	px_shape p = pixels(s);
	json_t *o = json_pack("{s:i, s:s, s:I, s:I, s:I, s:I}", "id", id, "type",
			      sp ? "spawn" : "goal", "x", (json_int_t)p.x, "y", (json_int_t)p.y,
			      "width", (json_int_t)p.w, "height", (json_int_t)p.h);
	json_t *props = json_array();

	if (o && p.kind != TL_RECT &&
	    json_object_set_new(o, p.kind == TL_POINT ? "point" : "ellipse", json_true()))
		json_decref(o), o = NULL;
	if (props && ((sp && json_array_append_new(props, jprop("count", "int",
								json_integer(sp->count)))) ||
		      (sp && sp->rate > 0 &&
		       json_array_append_new(props, jprop("rate", "float", json_real(sp->rate)))) ||
		      (g && json_array_append_new(props, jprop("group", "string",
							       json_string(ff_level_group_name(l, g)))))))
		json_decref(props), props = NULL;
	if (o && (!props || (json_array_size(props) && json_object_set(o, "properties", props))))
		json_decref(o), o = NULL;
	json_decref(props);
	return o;
}

static json_t *layers_tmj(const ff_level *l)
{
	const ff_level_meta *m = &l->meta;
	json_t *data = json_array(), *objs = json_array();

	for (int y = 0; y < l->h && data; y++)
		for (int x = 0; x < l->w && data; x++)
			if (json_array_append_new(data, json_integer(ff_level_terrain_by_value(
					l, ff_level_value(l, x, y)) + 1)))
				json_decref(data), data = NULL;
	for (int i = 0; i < m->ngoals && objs; i++)
		if (json_array_append_new(objs, object_tmj(l, i + 1, &m->goals[i], NULL,
							   m->goal_group[i])))
			json_decref(objs), objs = NULL;
	for (int i = 0; i < m->nspawns && objs; i++)
		if (json_array_append_new(objs, object_tmj(l, m->ngoals + i + 1, &m->spawns[i].area,
							   &m->spawns[i], m->spawns[i].group)))
			json_decref(objs), objs = NULL;
	return json_pack("[{s:i, s:s, s:s, s:i, s:i, s:i, s:i, s:o, s:f, s:b}, "
			 "{s:i, s:s, s:s, s:o, s:f, s:b}]",
			 "id", 1, "name", "terrain", "type", "tilelayer", "x", 0, "y", 0,
			 "width", l->w, "height", l->h, "data", data, "opacity", 1.0, "visible", 1,
			 "id", 2, "name", "goals and spawns", "type", "objectgroup", "objects", objs,
			 "opacity", 1.0, "visible", 1);
}

char *tl_write_tmj(const ff_level *l, size_t *len)
{
	json_t *doc = json_pack("{s:s, s:s, s:s, s:s, s:i, s:i, s:i, s:i, s:b, s:i, s:i, "
				"s:o, s:[o], s:o}",
				"type", "map", "version", "1.10", "orientation", "orthogonal",
				"renderorder", "right-down", "width", l->w, "height", l->h,
				"tilewidth", TILE, "tileheight", TILE, "infinite", 0,
				"nextlayerid", 3, "nextobjectid",
				l->meta.ngoals + l->meta.nspawns + 1,
				"properties", map_props_tmj(l), "tilesets", tileset_tmj(l),
				"layers", layers_tmj(l));
	/* on one line, as the tile data would take one line a number else */
	char *out = doc ? json_dumps(doc, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17)) : NULL;

	json_decref(doc);
	if (out)
		*len = strlen(out);
	return out;
}
