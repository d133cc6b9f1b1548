/*
 * tiled_map.c - the reader's common parts (tiled_int.h): the map being
 * filled, messages, files and properties, and the entry points of tiled.h.
 */
#define _GNU_SOURCE /* memmem */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tiled_int.h"

ff_err tl_fail(tl_ctx *c, const tl_where *at, int col, const char *fmt, ...)
{
	ff_tiled_diag *d = c->diag;
	char msg[sizeof d->msg - sizeof at->what - 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(d->file, sizeof d->file, "%s", at && at->file ? at->file : "");
	d->line = at ? at->line : 0;
	d->col = d->line ? col : 0;
	if (at && !at->line && at->what[0])
		snprintf(d->msg, sizeof d->msg, "%s: %s", at->what, msg);
	else
		snprintf(d->msg, sizeof d->msg, "%s", msg);
	/* both quote the input (a value, a tileset's name): one line, and
	 * nothing that drives the terminal */
	ff_escape_msg(d->file, sizeof d->file);
	ff_escape_msg(d->msg, sizeof d->msg);
	return FF_E_PARSE;
}

const char *tl_file(tl_map *m, const char *path)
{
	size_t n = strlen(path) + 1;

	if (m->nfiles == TL_FILES_MAX ||
	    !(m->files[m->nfiles] = malloc(n)))
		return NULL;
	memcpy(m->files[m->nfiles], path, n);
	return m->files[m->nfiles++];
}

void tl_resolve(const char *from, const char *ref, char *buf, size_t n)
{
	const char *slash = strrchr(from, '/');

	if (ref[0] == '/' || !slash)
		snprintf(buf, n, "%s", ref);
	else
		snprintf(buf, n, "%.*s/%s", (int)(slash - from), from, ref);
}

tl_tileset *tl_add_set(tl_map *m, unsigned firstgid)
{
	tl_tileset *s = realloc(m->sets, (size_t)(m->nsets + 1) * sizeof *s);

	if (!s)
		return NULL;
	m->sets = s;
	s += m->nsets++;
	memset(s, 0, sizeof *s);
	s->firstgid = firstgid;
	return s;
}

tl_tile *tl_add_tile(tl_tileset *s, unsigned id)
{
	tl_tile *t = realloc(s->tiles, (size_t)(s->ntiles + 1) * sizeof *t);

	if (!t)
		return NULL;
	s->tiles = t;
	t += s->ntiles++;
	memset(t, 0, sizeof *t);
	t->id = id;
	return t;
}

tl_object *tl_add_object(tl_map *m)
{
	tl_object *o = realloc(m->objs, (size_t)(m->nobjs + 1) * sizeof *o);

	if (!o)
		return NULL;
	m->objs = o;
	o += m->nobjs++;
	memset(o, 0, sizeof *o);
	return o;
}

ff_err tl_object_id(tl_ctx *c, tl_object *o, double id)
{
	if (!(id >= 0 && id <= INT_MAX && id == (int)id))
		return tl_fail(c, &o->at, 0, "object id %g: expected a whole number 0..%d", id,
			       INT_MAX);
	o->id = (int)id;
	return FF_OK;
}

void tl_map_fini(tl_map *m)
{
	for (int i = 0; i < m->nsets; i++)
		free(m->sets[i].tiles);
	free(m->sets);
	free(m->objs);
	free(m->gids);
	for (int i = 0; i < m->nfiles; i++)
		free(m->files[i]);
}

ff_err tl_gids(tl_map *m)
{
	free(m->gids);
	m->gids = calloc((size_t)m->w * (size_t)m->h, sizeof *m->gids);
	return m->gids ? FF_OK : FF_E_NOMEM;
}

/* Reads a whole number in LO..HI from S; false when it is none. */
static bool whole(const char *s, long lo, long hi, long *v)
{
	char *e;

	*v = strtol(s, &e, 10);
	return e != s && !*e && *v >= lo && *v <= hi;
}

ff_err tl_tile_property(tl_ctx *c, void *arg, const tl_where *at, const char *name,
			const char *type, const char *value)
{
	tl_tile *t = arg;
	long v;

	(void)at; /* the tile's own place says more */
	if (!strcmp(name, "cost")) {
		if (strcmp(type, "int") || !whole(value, FF_COST_MIN, FF_COST_MAX, &v))
			return tl_fail(c, &t->at, 0, "tile %u: 'cost' must be an int property 1..%d, "
				       "not %s '%s'", t->id, FF_COST_MAX, type, value);
		t->has_cost = true, t->cost = (int)v;
	} else if (!strcmp(name, "wall")) {
		if (strcmp(type, "bool") || (strcmp(value, "true") && strcmp(value, "false")))
			return tl_fail(c, &t->at, 0, "tile %u: 'wall' must be a bool property, not "
				       "%s '%s'", t->id, type, value);
		t->has_wall = true, t->wall = !strcmp(value, "true");
	} else if (!strcmp(name, "terrain")) {
		if (strcmp(type, "string") || !ff_terrain_name_ok(value, FF_WALL))
			return tl_fail(c, &t->at, 0, "tile %u: 'terrain' must name a terrain (1 to %d "
				       "characters), not '%s'", t->id, FF_TERRAIN_NAME_MAX - 1, value);
		t->has_terrain = true;
		snprintf(t->terrain, sizeof t->terrain, "%s", value);
	} else if (!strcmp(name, "glyph")) {
		if (strcmp(type, "string") || strlen(value) != 1 || value[0] <= ' ' || value[0] > '~')
			return tl_fail(c, &t->at, 0, "tile %u: 'glyph' must be one printable "
				       "character, not '%s'", t->id, value);
		t->has_glyph = true, t->glyph = value[0];
	} else if (!strcmp(name, "classes")) {
		/* read once the map's classes are known (tiled_level.c) */
		if (strcmp(type, "string") || strlen(value) >= sizeof t->classes)
			return tl_fail(c, &t->at, 0, "tile %u: 'classes' must be a string property "
				       "of CLASS=COST words", t->id);
		snprintf(t->classes, sizeof t->classes, "%s", value);
	}
	return FF_OK;
}

ff_err tl_object_property(tl_ctx *c, void *arg, const tl_where *at, const char *name,
			  const char *type, const char *value)
{
	tl_object *o = arg;
	char *e;

	if (!strcmp(name, "count")) {
		o->count = strtol(value, &e, 10);
		if (strcmp(type, "int") || e == value || *e)
			return tl_fail(c, at, 0, "object %d: 'count' must be an int property, not "
				       "%s '%s'", o->id, type, value);
		o->has_count = true;
	} else if (!strcmp(name, "rate")) {
		o->rate = strtod(value, &e);
		if ((strcmp(type, "float") && strcmp(type, "int")) || e == value || *e ||
		    !(o->rate > 0 && o->rate <= FF_SPAWN_RATE_MAX))
			return tl_fail(c, at, 0, "object %d: 'rate' must be a float property of "
				       "agents per second in (0, %g], not %s '%s'", o->id,
				       FF_SPAWN_RATE_MAX, type, value);
	} else if (!strcmp(name, "group")) {
		if (strcmp(type, "string") || (strcmp(value, "default") && !ff_group_name_ok(value)))
			return tl_fail(c, at, 0, "object %d: 'group' must be a string property naming "
				       "a group (1 to %d letters, digits, '_' or '-'), not '%s'", o->id,
				       FF_GROUP_NAME_MAX - 1, value);
		snprintf(o->group, sizeof o->group, "%s", value);
	}
	return FF_OK;
}

/* NOTE as a level keeps it, every line ending in '\n' without the CRs
 * before it (as the text format reads its note lines), into BUF (SIZE
 * bytes); false when it does not fit. */
static bool note(char *buf, size_t size, const char *note)
{
	size_t n = 0;

	while (*note) {
		size_t len = strcspn(note, "\n"), keep = len;

		while (keep && note[keep - 1] == '\r')
			keep--;
		if (n + keep + 1 >= size)
			return false;
		memcpy(buf + n, note, keep);
		n += keep;
		buf[n++] = '\n';
		note += len + (note[len] == '\n');
	}
	buf[n] = '\0';
	return true;
}

ff_err tl_map_property(tl_ctx *c, void *arg, const tl_where *at, const char *name,
		       const char *type, const char *value)
{
	tl_map *m = c->m;
	char range[64];
	double v;
	int id;

	(void)arg;
	if (!strcmp(name, "name")) {
		if (!ff_level_name_ok(value))
			return tl_fail(c, at, 0, "map property 'name': bad level name '%s'", value);
		snprintf(m->name, sizeof m->name, "%s", value);
	} else if (!strcmp(name, "note")) {
		if (!ff_note_ok(value))
			return tl_fail(c, at, 0, "map property 'note' holds a control character "
				       "(a tab and line ends are the only ones a note takes)");
		if (!note(m->note, sizeof m->note, value))
			return tl_fail(c, at, 0, "map property 'note' is longer than %zu bytes",
				       sizeof m->note - 2);
	} else if (!strcmp(name, "classes") || !strcmp(name, "groups")) {
		/* read once the map is (tiled_level.c) */
		bool cls = name[0] == 'c';

		if (strcmp(type, "string") || strlen(value) >= sizeof m->classes)
			return tl_fail(c, at, 0, "map property '%s' must be a string property, %s",
				       name, cls ? "\"boat wall, flyer\"" : "\"boats class boat, east\"");
		snprintf(cls ? m->classes : m->groups, sizeof m->classes, "%s", value);
		*(cls ? &m->classes_at : &m->groups_at) = *at;
	} else if ((id = ff_param_by_name(name)) >= 0) {
		/* a number, or a string with a unit ("2.4cells/s"), read with
		 * the cell size given so far */
		double cs = m->has_param[FF_P_CELL_SIZE] ? m->params[FF_P_CELL_SIZE]
							 : ff_param_info_get(FF_P_CELL_SIZE)->def;

		if ((strcmp(type, "float") && strcmp(type, "int") && strcmp(type, "string")) ||
		    ff_param_parse((ff_param_id)id, value, cs, &v) != FF_OK)
			return tl_fail(c, at, 0, "map property '%s' must be a number %s, not '%s'",
				       name, ff_param_range((ff_param_id)id, range, sizeof range),
				       value);
		m->params[id] = v, m->has_param[id] = true, m->param_at[id] = *at;
	}
	return FF_OK;
}

/* The first byte of BUF that is not a blank. */
static const char *skip_blanks(const char *buf, size_t len)
{
	size_t i = 0;

	while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r'))
		i++;
	return buf + i;
}

ff_err tl_external(tl_ctx *c, tl_tileset *s, const tl_where *at, const char *ref)
{
	char path[1024], why[256];
	const char *file, *p;
	size_t len;
	char *buf;
	ff_err err;

	if (!c->opts->read)
		return tl_fail(c, at, 0, "external tileset '%s': this reader takes embedded "
			       "tilesets only", ref);
	if (c->m->nfiles == TL_FILES_MAX)
		return tl_fail(c, at, 0, "external tileset '%s': a map takes at most %d", ref,
			       TL_FILES_MAX - 1);
	tl_resolve(at->file, ref, path, sizeof path);
	if (!(file = tl_file(c->m, path)))
		return FF_E_NOMEM;
	if (!(buf = c->opts->read(c->opts->ctx, path, &len, why, sizeof why)))
		return tl_fail(c, at, 0, "tileset '%s': %s", path, why);
	p = skip_blanks(buf, len);
	err = p < buf + len && *p == '{' ? tl_read_tsj(c, s, buf, len, file) :
	      tl_read_tsx(c, s, buf, len, file);
	free(buf);
	return err;
}

bool ff_tiled_detect(const char *buf, size_t len, const char *path)
{
	size_t n = strlen(path), i = (size_t)(skip_blanks(buf, len) - buf);

	if (n > 4 && (!strcmp(path + n - 4, ".tmx") || !strcmp(path + n - 4, ".tmj")))
		return true;
	if (len - i >= 5 && !memcmp(buf + i, "<?xml", 5))
		return memmem(buf, len < 512 ? len : 512, "<map", 4) != NULL;
	return i < len && buf[i] == '{' && memmem(buf, len, "\"tiledversion\"", 14) != NULL;
}

ff_err ff_tiled_parse(const char *buf, size_t len, const char *path, const char *name,
		      const ff_tiled_opts *opts, ff_level **out, ff_tiled_diag *diag)
{
	static const ff_tiled_opts none = {NULL, NULL, NULL};
	tl_map m;
	tl_ctx c = {&m, opts ? opts : &none, diag};
	const char *p = skip_blanks(buf, len);
	ff_err err;

	memset(&m, 0, sizeof m);
	memset(diag, 0, sizeof *diag);
	if (!tl_file(&m, path))
		return FF_E_NOMEM;
	err = p < buf + len && *p == '{' ? tl_read_tmj(&c, buf, len, m.files[0]) :
	      tl_read_tmx(&c, buf, len, m.files[0]);
	if (!err)
		err = tl_level(&c, name, out);
	tl_map_fini(&m);
	return err;
}

char *ff_tiled_format(const ff_level *l, bool json, size_t *len)
{
	return json ? tl_write_tmj(l, len) : tl_write_tmx(l, len);
}
