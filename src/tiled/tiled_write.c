/*
 * tiled_write.c - a level as a Tiled map: TMX through libxml2's writer,
 * TMJ through jansson.  Both hold the same: 16-pixel tiles, an embedded
 * tileset with one tile per palette terrain in palette order (tile id =
 * palette index; properties terrain, cost or wall, glyph), one CSV tile
 * layer, an object layer of goals (rectangles, ellipses for circles,
 * points for cells) and spawn areas (with 'count'), and the map
 * properties name, note and the parameters that differ from their
 * defaults.  Reading either back (tiled_level.c) gives the level again.
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
	int bad = xmlTextWriterStartElement(w, BAD_CAST "properties") < 0 ||
		  prop(w, "name", NULL, l->meta.name) ||
		  (l->meta.note[0] && prop(w, "note", NULL, l->meta.note));

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
		char cost[8], glyph[2] = {t->glyph, '\0'};

		snprintf(cost, sizeof cost, "%d", t->cost);
		bad = xmlTextWriterStartElement(w, BAD_CAST "tile") < 0 || fmt_attr(w, "id", i) ||
		      xmlTextWriterStartElement(w, BAD_CAST "properties") < 0 ||
		      prop(w, "terrain", NULL, t->name) ||
		      (t->cost == FF_WALL ? prop(w, "wall", "bool", "true") :
		       prop(w, "cost", "int", cost)) ||
		      prop(w, "glyph", NULL, glyph) ||
		      xmlTextWriterEndElement(w) < 0 || xmlTextWriterEndElement(w) < 0;
	}
	return bad || xmlTextWriterEndElement(w) < 0;
}

static int object_tmx(xmlTextWriterPtr w, int id, const ff_shape *s, int count)
{
	px_shape p = pixels(s);
	char n[16];
	int bad = xmlTextWriterStartElement(w, BAD_CAST "object") < 0 || fmt_attr(w, "id", id) ||
		  xmlTextWriterWriteAttribute(w, BAD_CAST "type",
					      BAD_CAST(count ? "spawn" : "goal")) < 0 ||
		  fmt_attr(w, "x", p.x) || fmt_attr(w, "y", p.y);

	if (!bad && p.kind != TL_POINT)
		bad = fmt_attr(w, "width", p.w) || fmt_attr(w, "height", p.h);
	if (!bad && p.kind != TL_RECT)
		bad = xmlTextWriterWriteElement(w, BAD_CAST(p.kind == TL_POINT ? "point" : "ellipse"),
						BAD_CAST "") < 0;
	snprintf(n, sizeof n, "%d", count);
	if (!bad && count)
		bad = xmlTextWriterStartElement(w, BAD_CAST "properties") < 0 ||
		      prop(w, "count", "int", n) || xmlTextWriterEndElement(w) < 0;
	return bad || xmlTextWriterEndElement(w) < 0;
}

static int objects_tmx(xmlTextWriterPtr w, const ff_level *l)
{
	const ff_level_meta *m = &l->meta;
	int bad = xmlTextWriterStartElement(w, BAD_CAST "objectgroup") < 0 ||
		  fmt_attr(w, "id", 2) ||
		  xmlTextWriterWriteAttribute(w, BAD_CAST "name", BAD_CAST "goals and spawns") < 0;

	for (int i = 0; i < m->ngoals && !bad; i++)
		bad = object_tmx(w, i + 1, &m->goals[i], 0);
	for (int i = 0; i < m->nspawns && !bad; i++)
		bad = object_tmx(w, m->ngoals + i + 1, &m->spawns[i].area, m->spawns[i].count);
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

	if (a && l->meta.note[0] && json_array_append_new(a, jprop("note", "string",
								   json_string(l->meta.note))))
		json_decref(a), a = NULL;
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
		char glyph[2] = {t->glyph, '\0'};
		json_t *kind = t->cost == FF_WALL ? jprop("wall", "bool", json_true()) :
			       jprop("cost", "int", json_integer(t->cost));

		if (json_array_append_new(tiles, json_pack("{s:i, s:[o, o, o]}", "id", i,
							   "properties",
							   jprop("terrain", "string", json_string(t->name)),
							   kind,
							   jprop("glyph", "string", json_string(glyph)))))
			json_decref(tiles), tiles = NULL;
	}
	return json_pack("{s:i, s:s, s:i, s:i, s:i, s:i, s:o}", "firstgid", 1, "name", "terrain",
			 "tilewidth", TILE, "tileheight", TILE, "tilecount", l->meta.npalette,
			 "columns", 0, "tiles", tiles);
}

static json_t *object_tmj(int id, const ff_shape *s, int count)
{
	px_shape p = pixels(s);
	json_t *o = json_pack("{s:i, s:s, s:I, s:I, s:I, s:I}", "id", id, "type",
			      count ? "spawn" : "goal", "x", (json_int_t)p.x, "y", (json_int_t)p.y,
			      "width", (json_int_t)p.w, "height", (json_int_t)p.h);

	if (o && p.kind != TL_RECT &&
	    json_object_set_new(o, p.kind == TL_POINT ? "point" : "ellipse", json_true()))
		json_decref(o), o = NULL;
	if (o && count &&
	    json_object_set_new(o, "properties", json_pack("[o]", jprop("count", "int",
								     json_integer(count)))))
		json_decref(o), o = NULL;
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
		if (json_array_append_new(objs, object_tmj(i + 1, &m->goals[i], 0)))
			json_decref(objs), objs = NULL;
	for (int i = 0; i < m->nspawns && objs; i++)
		if (json_array_append_new(objs, object_tmj(m->ngoals + i + 1, &m->spawns[i].area,
							   m->spawns[i].count)))
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
