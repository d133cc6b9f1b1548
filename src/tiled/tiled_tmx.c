/*
 * tiled_tmx.c - TMX maps and TSX tilesets (Tiled's XML) read with libxml2
 * into a tl_map: the map's size and properties, its tilesets (embedded or
 * external), the chosen tile layer's data, and goal and spawn objects.
 * Elements of other kinds (image layers, other objects) are left alone.
 * Messages carry the element's line; a malformed file, libxml2's line and
 * column.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "tiled_int.h"

/* The element's line, for messages. */
static tl_where at(const char *file, xmlNodePtr n)
{
	tl_where w = {file, (int)xmlGetLineNo(n), ""};

	return w;
}

static bool is(xmlNodePtr n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && !xmlStrcmp(n->name, BAD_CAST name);
}

/* Attribute NAME into BUF ("" when absent); false when absent. */
static bool attr(xmlNodePtr n, const char *name, char *buf, size_t size)
{
	xmlChar *v = xmlGetProp(n, BAD_CAST name);

	snprintf(buf, size, "%s", v ? (const char *)v : "");
	xmlFree(v);
	return v != NULL;
}

/* A number attribute; DEF when absent, an error when not a finite
 * number. */
static ff_err num(tl_ctx *c, const char *file, xmlNodePtr n, const char *name, double def,
		  double *v)
{
	char buf[64], *e;
	tl_where w = at(file, n);

	if (!attr(n, name, buf, sizeof buf)) {
		*v = def;
		return FF_OK;
	}
	*v = strtod(buf, &e);
	if (e == buf || *e || !isfinite(*v))
		return tl_fail(c, &w, 0, "<%s> attribute %s is not a number: '%s'",
			       (const char *)n->name, name, buf);
	return FF_OK;
}

/* Calls FN on each <property> of N's <properties> with its name, type and
 * value (an attribute, or the element's text for a multi-line string). */
static ff_err properties(tl_ctx *c, const char *file, xmlNodePtr n,
			 tl_prop_fn fn, void *arg)
{
	for (xmlNodePtr ps = n->children; ps; ps = ps->next) {
		if (!is(ps, "properties"))
			continue;
		for (xmlNodePtr p = ps->children; p; p = p->next) {
			char name[64], type[16], value[TL_VALUE_MAX];
			tl_where w = at(file, p);
			ff_err err;

			if (!is(p, "property"))
				continue;
			attr(p, "name", name, sizeof name);
			if (!attr(p, "type", type, sizeof type))
				snprintf(type, sizeof type, "string");
			if (!attr(p, "value", value, sizeof value)) {
				xmlChar *t = xmlNodeGetContent(p);
				snprintf(value, sizeof value, "%s", t ? (const char *)t : "");
				xmlFree(t);
			}
			if ((err = fn(c, arg, &w, name, type, value)))
				return err;
		}
	}
	return FF_OK;
}

/* The <tile> elements of tileset element N into S. */
static ff_err tiles(tl_ctx *c, tl_tileset *s, const char *file, xmlNodePtr n)
{
	for (xmlNodePtr t = n->children; t; t = t->next) {
		tl_tile *tile;
		double id;
		ff_err err;

		if (!is(t, "tile"))
			continue;
		if ((err = num(c, file, t, "id", -1, &id)))
			return err;
		if (id < 0 || id > 0x0FFFFFFF || id != (unsigned)id) {
			tl_where w = at(file, t);
			return tl_fail(c, &w, 0, "<tile> without a good id");
		}
		if (!(tile = tl_add_tile(s, (unsigned)id)))
			return FF_E_NOMEM;
		tile->at = at(file, t);
		if ((err = properties(c, file, t, tl_tile_property, tile)))
			return err;
	}
	return FF_OK;
}

/* The first error libxml2 reports while parsing (later ones follow from
 * it): message, line and column. */
typedef struct first_error {
	bool seen;
	char msg[200];
	int line, col;
} first_error;

static void on_error(void *arg, const xmlError *e)
{
	first_error *f = arg;

	if (f->seen || e->level < XML_ERR_ERROR)
		return;
	f->seen = true;
	snprintf(f->msg, sizeof f->msg, "%s", e->message ? e->message : "not XML");
	f->msg[strcspn(f->msg, "\n")] = '\0';
	f->line = e->line > 0 ? e->line : 1, f->col = e->int2;
}

/* libxml2 2.12 made the error const */
static void on_error_v(void *arg, xmlErrorPtr e)
{
	on_error(arg, e);
}

/* Parses BUF with libxml2, its first error (line and column) as ours. */
static ff_err parse(tl_ctx *c, const char *buf, size_t len, const char *path, xmlDocPtr *doc)
{
	xmlParserCtxtPtr p = xmlNewParserCtxt();
	first_error f = {false, "", 0, 0};
	tl_where w = {path, 0, ""};

	if (!p)
		return FF_E_NOMEM;
	xmlSetStructuredErrorFunc(&f, (xmlStructuredErrorFunc)on_error_v);
	*doc = xmlCtxtReadMemory(p, buf, (int)len, path, NULL,
				 XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	xmlSetStructuredErrorFunc(NULL, NULL);
	xmlFreeParserCtxt(p);
	if (*doc && !f.seen)
		return FF_OK;
	xmlFreeDoc(*doc);
	*doc = NULL;
	w.line = f.seen ? f.line : 1;
	return tl_fail(c, &w, f.col, "%s", f.seen ? f.msg : "not XML");
}

/* Parses BUF and checks its root element is ELEM (KIND names the file in
 * the message when not); the caller frees *DOC. */
static ff_err root_of(tl_ctx *c, const char *buf, size_t len, const char *path,
		      const char *elem, const char *kind, xmlDocPtr *doc, xmlNodePtr *root)
{
	ff_err err = parse(c, buf, len, path, doc);
	tl_where w = {path, 1, ""};

	if (err)
		return err;
	*root = xmlDocGetRootElement(*doc);
	if (*root && is(*root, elem))
		return FF_OK;
	if (*root)
		w = at(path, *root);
	return tl_fail(c, &w, 0, "not a %s: expected <%s>", kind, elem);
}

ff_err tl_read_tsx(tl_ctx *c, tl_tileset *s, const char *buf, size_t len, const char *path)
{
	xmlDocPtr doc = NULL;
	xmlNodePtr root;
	ff_err err = root_of(c, buf, len, path, "tileset", "TSX tileset", &doc, &root);

	if (!err)
		err = tiles(c, s, path, root);
	xmlFreeDoc(doc);
	return err;
}

static ff_err tileset(tl_ctx *c, const char *file, xmlNodePtr n)
{
	char src[1024];
	double first;
	tl_tileset *s;
	tl_where w = at(file, n);
	ff_err err = num(c, file, n, "firstgid", 0, &first);

	if (err)
		return err;
	if (first < 1 || first > 0x0FFFFFFF || first != (unsigned)first)
		return tl_fail(c, &w, 0, "<tileset> without a good firstgid");
	if (!(s = tl_add_set(c->m, (unsigned)first)))
		return FF_E_NOMEM;
	if (attr(n, "source", src, sizeof src))
		return tl_external(c, s, &w, src);
	return tiles(c, s, file, n);
}

/* A <data> element: its encoding's text, or <tile gid> children. */
static ff_err data(tl_ctx *c, const char *file, xmlNodePtr n)
{
	char enc[32], comp[32];
	tl_where w = at(file, n);
	xmlChar *text;
	size_t k = 0;
	ff_err err;

	c->m->data_at = w;
	if (n->children && xmlFirstElementChild(n) && is(xmlFirstElementChild(n), "chunk"))
		return tl_fail(c, &w, 0, "an infinite map (chunks): in Tiled, untick Map > Map "
			       "Properties > Infinite and save again");
	attr(n, "compression", comp, sizeof comp);
	if (attr(n, "encoding", enc, sizeof enc)) {
		text = xmlNodeGetContent(n);
		if (!text)
			return FF_E_NOMEM;
		err = tl_decode(c, &w, (const char *)text, strlen((const char *)text), enc, comp);
		xmlFree(text);
		return err;
	}
	if ((err = tl_gids(c->m)))
		return err;
	for (xmlNodePtr t = n->children; t; t = t->next) {
		double gid;
		if (!is(t, "tile"))
			continue;
		if (k == (size_t)c->m->w * (size_t)c->m->h)
			return tl_fail(c, &w, 0, "layer data: more <tile>s than the layer's %dx%d",
				       c->m->w, c->m->h);
		if ((err = num(c, file, t, "gid", 0, &gid)))
			return err;
		if (gid < 0 || gid > 0xFFFFFFFFu || gid != (uint32_t)gid) {
			tl_where tw = at(file, t);
			return tl_fail(c, &tw, 0, "layer data: <tile> gid %g is not a tile number", gid);
		}
		c->m->gids[k++] = (uint32_t)gid & ~TL_GID_FLAGS;
	}
	if (k != (size_t)c->m->w * (size_t)c->m->h)
		return tl_fail(c, &w, 0, "layer data: %zu <tile>s for a %dx%d layer", k, c->m->w,
			       c->m->h);
	return FF_OK;
}

static ff_err layer(tl_ctx *c, const char *file, xmlNodePtr n)
{
	char name[256];
	tl_where w = at(file, n);
	double lw, lh;
	ff_err err;

	attr(n, "name", name, sizeof name);
	if (c->m->layer_found || (c->opts->layer && strcmp(c->opts->layer, name)))
		return FF_OK;
	if ((err = num(c, file, n, "width", c->m->w, &lw)) ||
	    (err = num(c, file, n, "height", c->m->h, &lh)))
		return err;
	if (lw != c->m->w || lh != c->m->h)
		return tl_fail(c, &w, 0, "layer '%s' is %gx%g, the map %dx%d", name, lw, lh,
			       c->m->w, c->m->h);
	for (xmlNodePtr d = n->children; d; d = d->next)
		if (is(d, "data")) {
			c->m->layer_found = true;
			return data(c, file, d);
		}
	return tl_fail(c, &w, 0, "layer '%s' has no <data>", name);
}

static ff_err object(tl_ctx *c, const char *file, xmlNodePtr n)
{
	char type[64], gid[16];
	double id, rot;
	tl_object *o;
	ff_err err;

	if (!attr(n, "type", type, sizeof type) || !type[0])
		attr(n, "class", type, sizeof type);
	if (strcmp(type, "goal") && strcmp(type, "spawn"))
		return FF_OK; /* the game's own objects */
	if (!(o = tl_add_object(c->m)))
		return FF_E_NOMEM;
	o->at = at(file, n), o->goal = type[0] == 'g', o->kind = TL_RECT;
	if ((err = num(c, file, n, "id", 0, &id)) || (err = num(c, file, n, "x", 0, &o->x)) ||
	    (err = num(c, file, n, "y", 0, &o->y)) || (err = num(c, file, n, "width", 0, &o->w)) ||
	    (err = num(c, file, n, "height", 0, &o->h)) ||
	    (err = num(c, file, n, "rotation", 0, &rot)))
		return err;
	if ((err = tl_object_id(c, o, id)))
		return err;
	if (rot != 0 || attr(n, "gid", gid, sizeof gid))
		o->kind = TL_OTHER;
	for (xmlNodePtr k = n->children; k; k = k->next)
		if (is(k, "ellipse"))
			o->kind = o->kind == TL_RECT ? TL_ELLIPSE : TL_OTHER;
		else if (is(k, "point"))
			o->kind = o->kind == TL_RECT ? TL_POINT : TL_OTHER;
		else if (is(k, "polygon") || is(k, "polyline") || is(k, "text"))
			o->kind = TL_OTHER;
	return properties(c, file, n, tl_object_property, o);
}

/* The map's children, and those of its groups. */
static ff_err children(tl_ctx *c, const char *file, xmlNodePtr parent)
{
	ff_err err = FF_OK;

	for (xmlNodePtr n = parent->children; n && !err; n = n->next) {
		if (is(n, "tileset"))
			err = tileset(c, file, n);
		else if (is(n, "layer"))
			err = layer(c, file, n);
		else if (is(n, "group"))
			err = children(c, file, n);
		else if (is(n, "objectgroup"))
			for (xmlNodePtr o = n->children; o && !err; o = o->next)
				if (is(o, "object"))
					err = object(c, file, o);
	}
	return err;
}

/* The <map> element's size, tile size and kind. */
static ff_err map_head(tl_ctx *c, const char *file, xmlNodePtr root)
{
	char orient[32], inf[8];
	double w, h, tw, th;
	tl_where where = at(file, root);
	ff_err err;

	if ((err = num(c, file, root, "width", 0, &w)) || (err = num(c, file, root, "height", 0, &h)) ||
	    (err = num(c, file, root, "tilewidth", 0, &tw)) ||
	    (err = num(c, file, root, "tileheight", 0, &th)))
		return err;
	if (attr(root, "orientation", orient, sizeof orient) && strcmp(orient, "orthogonal"))
		return tl_fail(c, &where, 0, "a %s map: only orthogonal maps make levels", orient);
	if (attr(root, "infinite", inf, sizeof inf) && strcmp(inf, "0"))
		return tl_fail(c, &where, 0, "an infinite map: in Tiled, untick Map > Map "
			       "Properties > Infinite and save again");
	if (w < 1 || h < 1 || w > FF_LEVEL_MAX_SIDE || h > FF_LEVEL_MAX_SIDE || w != (int)w ||
	    h != (int)h)
		return tl_fail(c, &where, 0, "map size %gx%g: each side must be 1..%d", w, h,
			       FF_LEVEL_MAX_SIDE);
	if (tw < 1 || th < 1 || tw > TL_TILE_MAX || th > TL_TILE_MAX || tw != (int)tw ||
	    th != (int)th)
		return tl_fail(c, &where, 0, "tile size %gx%g: expected whole pixels 1..%d", tw, th,
			       TL_TILE_MAX);
	c->m->w = (int)w, c->m->h = (int)h, c->m->tw = (int)tw, c->m->th = (int)th;
	return properties(c, file, root, tl_map_property, NULL);
}

ff_err tl_read_tmx(tl_ctx *c, const char *buf, size_t len, const char *path)
{
	xmlDocPtr doc = NULL;
	xmlNodePtr root;
	ff_err err = root_of(c, buf, len, path, "map", "TMX map", &doc, &root);

	if (!err && !(err = map_head(c, path, root)))
		err = children(c, path, root);
	xmlFreeDoc(doc);
	return err;
}
