/*
 * tiled_tmj.c - TMJ maps and TSJ tilesets (Tiled's JSON) read with jansson
 * into a tl_map, the same things the TMX reader takes.  jansson gives the
 * line and column of a malformed file; it keeps none for values, so other
 * messages say where by path ("layers[1].objects[0]").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tiled_int.h"

static tl_where at(const char *file, const char *fmt, int i, int j)
{
	tl_where w = {file, 0, ""};

	snprintf(w.what, sizeof w.what, fmt, i, j);
	return w;
}

/* A whole number member KEY of O in LO..HI (DEF when absent). */
static ff_err whole(tl_ctx *c, const tl_where *w, json_t *o, const char *key, long lo, long hi,
		    long def, long *v)
{
	json_t *j = json_object_get(o, key);
	double d;

	if (!j) {
		*v = def;
		return FF_OK;
	}
	d = json_number_value(j);
	if (!json_is_number(j) || d < lo || d > hi || d != (long)d)
		return tl_fail(c, w, 0, "'%s' must be a whole number %ld..%ld", key, lo, hi);
	*v = (long)d;
	return FF_OK;
}

static ff_err number(tl_ctx *c, const tl_where *w, json_t *o, const char *key, double *v)
{
	json_t *j = json_object_get(o, key);

	if (j && !json_is_number(j))
		return tl_fail(c, w, 0, "'%s' must be a number", key);
	*v = j ? json_number_value(j) : 0;
	return FF_OK;
}

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* Calls FN on each of O's "properties" with name, type and value as text. */
static ff_err properties(tl_ctx *c, const tl_where *w, json_t *o,
			 tl_prop_fn fn, void *arg)
{
	json_t *ps = json_object_get(o, "properties"), *p;
	size_t i;

	if (ps && !json_is_array(ps))
		return tl_fail(c, w, 0, "'properties' must be an array");
	json_array_foreach(ps, i, p) {
		json_t *v = json_object_get(p, "value");
		char value[TL_VALUE_MAX];
		ff_err err;

		if (json_is_string(v))
			snprintf(value, sizeof value, "%s", json_string_value(v));
		else if (json_is_integer(v))
			snprintf(value, sizeof value, "%lld", (long long)json_integer_value(v));
		else if (json_is_real(v))
			snprintf(value, sizeof value, "%.17g", json_real_value(v));
		else if (json_is_boolean(v))
			snprintf(value, sizeof value, "%s", json_is_true(v) ? "true" : "false");
		else
			value[0] = '\0';
		if ((err = fn(c, arg, w, str(p, "name"), json_object_get(p, "type") ?
			      str(p, "type") : "string", value)))
			return err;
	}
	return FF_OK;
}

static ff_err tiles(tl_ctx *c, tl_tileset *s, const char *file, json_t *set, int k)
{
	json_t *ts = json_object_get(set, "tiles"), *t;
	size_t i;

	json_array_foreach(ts, i, t) {
		tl_where w = at(file, k < 0 ? "tiles[%d]" : "tilesets[%d].tiles[%d]",
				k < 0 ? (int)i : k, (int)i);
		tl_tile *tile;
		long id;
		ff_err err;

		if ((err = whole(c, &w, t, "id", 0, 0x0FFFFFFF, -1, &id)))
			return err;
		if (id < 0)
			return tl_fail(c, &w, 0, "a tile without an id");
		if (!(tile = tl_add_tile(s, (unsigned)id)))
			return FF_E_NOMEM;
		tile->at = w;
		if ((err = properties(c, &w, t, tl_tile_property, tile)))
			return err;
	}
	return FF_OK;
}

/* Parses BUF with jansson, its errors (line and column) as ours. */
static ff_err parse(tl_ctx *c, const char *buf, size_t len, const char *path, json_t **root)
{
	json_error_t e;
	tl_where w = {path, 0, ""};

	*root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &e);
	if (*root && json_is_object(*root))
		return FF_OK;
	if (*root) {
		json_decref(*root);
		return tl_fail(c, &w, 0, "expected a JSON object");
	}
	w.line = e.line > 0 ? e.line : 1;
	return tl_fail(c, &w, e.column > 0 ? e.column : 0, "%s", e.text);
}

ff_err tl_read_tsj(tl_ctx *c, tl_tileset *s, const char *buf, size_t len, const char *path)
{
	json_t *root;
	ff_err err = parse(c, buf, len, path, &root);

	if (err)
		return err;
	err = tiles(c, s, path, root, -1);
	json_decref(root);
	return err;
}

static ff_err tileset(tl_ctx *c, const char *file, json_t *set, int k)
{
	tl_where w = at(file, "tilesets[%d]", k, 0);
	tl_tileset *s;
	long first;
	ff_err err = whole(c, &w, set, "firstgid", 1, 0x0FFFFFFF, 0, &first);

	if (err)
		return err;
	if (!first)
		return tl_fail(c, &w, 0, "a tileset without a firstgid");
	if (!(s = tl_add_set(c->m, (unsigned)first)))
		return FF_E_NOMEM;
	if (json_object_get(set, "source"))
		return tl_external(c, s, &w, str(set, "source"));
	return tiles(c, s, file, set, k);
}

static ff_err tile_layer(tl_ctx *c, json_t *l, const tl_where *w)
{
	json_t *d = json_object_get(l, "data"), *g;
	long lw, lh;
	size_t i;
	ff_err err;

	if (json_object_get(l, "chunks"))
		return tl_fail(c, w, 0, "an infinite map (chunks): in Tiled, untick Map > Map "
			       "Properties > Infinite and save again");
	if ((err = whole(c, w, l, "width", 1, FF_LEVEL_MAX_SIDE, c->m->w, &lw)) ||
	    (err = whole(c, w, l, "height", 1, FF_LEVEL_MAX_SIDE, c->m->h, &lh)))
		return err;
	if (lw != c->m->w || lh != c->m->h)
		return tl_fail(c, w, 0, "layer '%s' is %ldx%ld, the map %dx%d", str(l, "name"), lw,
			       lh, c->m->w, c->m->h);
	c->m->layer_found = true;
	c->m->data_at = *w;
	if (json_is_string(d))
		return tl_decode(c, w, json_string_value(d), json_string_length(d),
				 json_object_get(l, "encoding") ? str(l, "encoding") : "base64",
				 str(l, "compression"));
	if (!json_is_array(d) || json_array_size(d) != (size_t)lw * (size_t)lh)
		return tl_fail(c, w, 0, "'data' must hold the layer's %ld tiles", lw * lh);
	if ((err = tl_gids(c->m)))
		return err;
	json_array_foreach(d, i, g) {
		json_int_t v = json_integer_value(g);
		if (!json_is_integer(g) || v < 0 || v > 0xFFFFFFFFll)
			return tl_fail(c, w, 0, "data[%zu] is not a tile number", i);
		c->m->gids[i] = (uint32_t)v & ~TL_GID_FLAGS;
	}
	return FF_OK;
}

static ff_err object(tl_ctx *c, json_t *j, const tl_where *w)
{
	const char *type = str(j, "type")[0] ? str(j, "type") : str(j, "class");
	double rot = 0, id = 0;
	tl_object *o;
	ff_err err;

	if (strcmp(type, "goal") && strcmp(type, "spawn"))
		return FF_OK; /* the game's own objects */
	if (!(o = tl_add_object(c->m)))
		return FF_E_NOMEM;
	o->at = *w, o->goal = type[0] == 'g', o->kind = TL_RECT;
	if ((err = number(c, w, j, "id", &id)) || (err = number(c, w, j, "x", &o->x)) ||
	    (err = number(c, w, j, "y", &o->y)) || (err = number(c, w, j, "width", &o->w)) ||
	    (err = number(c, w, j, "height", &o->h)) || (err = number(c, w, j, "rotation", &rot)))
		return err;
	if ((err = tl_object_id(c, o, id)))
		return err;
	if (json_is_true(json_object_get(j, "ellipse")))
		o->kind = TL_ELLIPSE;
	if (json_is_true(json_object_get(j, "point")))
		o->kind = o->kind == TL_RECT ? TL_POINT : TL_OTHER;
	if (rot != 0 || json_object_get(j, "gid") || json_object_get(j, "polygon") ||
	    json_object_get(j, "polyline") || json_object_get(j, "text"))
		o->kind = TL_OTHER;
	return properties(c, w, j, tl_object_property, o);
}

/* The layers in LIST (the map's, or a group's, under PATH) in order. */
static ff_err layers(tl_ctx *c, const char *file, json_t *list, const char *path)
{
	json_t *l, *o;
	size_t i, k;
	ff_err err = FF_OK;

	json_array_foreach(list, i, l) {
		const char *type = str(l, "type");
		tl_where w = {file, 0, ""};

		snprintf(w.what, sizeof w.what, "%s[%zu]", path, i);
		if (!strcmp(type, "tilelayer") && !c->m->layer_found &&
		    (!c->opts->layer || !strcmp(c->opts->layer, str(l, "name"))))
			err = tile_layer(c, l, &w);
		else if (!strcmp(type, "group"))
			err = layers(c, file, json_object_get(l, "layers"), w.what);
		else if (!strcmp(type, "objectgroup"))
			json_array_foreach(json_object_get(l, "objects"), k, o) {
				tl_where ow = w;
				snprintf(ow.what, sizeof ow.what, "%s[%zu].objects[%zu]", path, i, k);
				if ((err = object(c, o, &ow)))
					break;
			}
		if (err)
			return err;
	}
	return FF_OK;
}

static ff_err map_head(tl_ctx *c, const char *file, json_t *root)
{
	tl_where w = {file, 0, "map"};
	long mw, mh, tw, th;
	ff_err err;

	if (json_object_get(root, "orientation") && strcmp(str(root, "orientation"), "orthogonal"))
		return tl_fail(c, &w, 0, "a %s map: only orthogonal maps make levels",
			       str(root, "orientation"));
	if (json_is_true(json_object_get(root, "infinite")))
		return tl_fail(c, &w, 0, "an infinite map: in Tiled, untick Map > Map Properties > "
			       "Infinite and save again");
	if ((err = whole(c, &w, root, "width", 1, FF_LEVEL_MAX_SIDE, 0, &mw)) ||
	    (err = whole(c, &w, root, "height", 1, FF_LEVEL_MAX_SIDE, 0, &mh)) ||
	    (err = whole(c, &w, root, "tilewidth", 1, TL_TILE_MAX, 0, &tw)) ||
	    (err = whole(c, &w, root, "tileheight", 1, TL_TILE_MAX, 0, &th)))
		return err;
	if (!mw || !mh || !tw || !th)
		return tl_fail(c, &w, 0, "'width', 'height', 'tilewidth' and 'tileheight' are needed");
	c->m->w = (int)mw, c->m->h = (int)mh, c->m->tw = (int)tw, c->m->th = (int)th;
	return properties(c, &w, root, tl_map_property, NULL);
}

ff_err tl_read_tmj(tl_ctx *c, const char *buf, size_t len, const char *path)
{
	json_t *root, *set;
	size_t i;
	ff_err err = parse(c, buf, len, path, &root);

	if (err)
		return err;
	err = map_head(c, path, root);
	json_array_foreach(json_object_get(root, "tilesets"), i, set)
		if (!err)
			err = tileset(c, path, set, (int)i);
	if (!err)
		err = layers(c, path, json_object_get(root, "layers"), "layers");
	json_decref(root);
	return err;
}
