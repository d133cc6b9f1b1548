/*
 * codec.c - a level as a database row and back: the canonical text header
 * (note, name, size, palette, parameters, goals, spawns) plus the cells.
 *
 * Decoding reuses the text parser, so a stored level gets exactly the checks
 * a file does: the header is parsed over a stand-in grid of one passable
 * terrain (goals that walls were later painted over still load), then the
 * stored cells replace it and every cost must be in the palette.  The blob
 * is W x H costs, then, for a level with walls of several kinds (a Moving
 * AI map's trees), W x H wall kinds; every kind must be a wall terrain.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/level_text.h"
#include "store_int.h"

char *st_header(const ff_level *l, size_t *len)
{
	size_t n;
	char *text = ff_textlevel_format(l, &n), *grid;

	if (!text)
		return NULL;
	/* Note lines start with '#', so the first "\ngrid\n" is the keyword. */
	grid = strstr(text, "\ngrid\n");
	if (grid)
		grid[1] = '\0';
	if (len)
		*len = grid ? (size_t)(grid + 1 - text) : n;
	return text;
}

/* A glyph of the palette for the stand-in grid: a passable one if any. */
static char standin_glyph(const char *header)
{
	const char *p = header;
	char glyph = 0, name[FF_TERRAIN_NAME_MAX], g, cost[8];

	while ((p = strstr(p, "\nterrain "))) {
		p++;
		if (sscanf(p, "terrain %15s %c %7s", name, &g, cost) != 3)
			continue;
		if (strcmp(cost, "wall"))
			return g;
		glyph = g;
	}
	return glyph ? glyph : '.';
}

/* The header followed by a stand-in grid of W x H cells and "end". */
static char *standin_text(const char *header, size_t hlen, int w, int h, size_t *len)
{
	size_t row = (size_t)w + 1, n = hlen + 5 + row * (size_t)h + 4;
	char *t = malloc(n + 1), *p;

	if (!t)
		return NULL;
	memcpy(t, header, hlen);
	memcpy(t + hlen, "grid\n", 5);
	p = t + hlen + 5;
	memset(p, standin_glyph(header), row * (size_t)h);
	for (int y = 0; y < h; y++)
		p[row * (size_t)y + (size_t)w] = '\n';
	memcpy(p + row * (size_t)h, "end\n", 5);
	*len = n;
	return t;
}

/* True when every cell's cost has a palette entry, and every wall kind in
 * KINDS (NULL: none) a wall terrain (and passable cells none). */
static bool costs_ok(const ff_level *l, const uint8_t *kinds)
{
	bool known[256] = {false};
	size_t n = (size_t)l->w * (size_t)l->h;
	int nwalls = 0;

	for (int i = 0; i < l->meta.npalette; i++) {
		known[l->meta.palette[i].cost] = true;
		nwalls += l->meta.palette[i].cost == FF_WALL;
	}
	for (size_t i = 0; i < n; i++)
		if (!known[l->cells[i]] ||
		    (kinds && kinds[i] && (l->cells[i] != FF_WALL || kinds[i] >= nwalls)))
			return false;
	return true;
}

const void *st_cells(const ff_level *l, size_t *len, void **owned)
{
	size_t n = (size_t)l->w * (size_t)l->h;
	bool kinds = false;
	uint8_t *b;

	for (size_t i = 0; l->walls && i < n && !kinds; i++)
		kinds = l->walls[i] != 0;
	*owned = NULL, *len = n;
	if (!kinds)
		return l->cells;
	if (!(b = malloc(2 * n)))
		return NULL;
	memcpy(b, l->cells, n);
	memcpy(b + n, l->walls, n);
	*owned = b, *len = 2 * n;
	return b;
}

ff_err st_decode(ff_store *s, const char *name, const char *header, size_t hlen,
		 int w, int h, const void *cells, size_t clen, ff_level **out)
{
	ff_level *l = NULL;
	ff_diag diag;
	size_t len;
	char *text;
	ff_err err;

	size_t n = (size_t)w * (size_t)h;
	const uint8_t *kinds = (const uint8_t *)cells + n;

	if (!header || w < 1 || h < 1 || w > FF_LEVEL_MAX_SIDE || h > FF_LEVEL_MAX_SIDE ||
	    (clen != n && clen != 2 * n) || !cells)
		return st_msg(s, FF_E_IO, "stored level '%s' is damaged: bad size or cells", name);
	if (!(text = standin_text(header, hlen, w, h, &len)))
		return st_msg(s, FF_E_NOMEM, "cannot load '%s': out of memory", name);
	err = ff_textlevel_parse(text, len, &l, &diag);
	free(text);
	if (err == FF_E_NOMEM)
		return st_msg(s, err, "cannot load '%s': out of memory", name);
	if (err)
		return st_msg(s, FF_E_IO, "stored level '%s' is damaged: header line %d: %s",
			      name, diag.line, diag.msg);
	if (l->w != w || l->h != h || strcmp(l->meta.name, name)) {
		ff_level_destroy(l);
		return st_msg(s, FF_E_IO, "stored level '%s' is damaged: header and row differ", name);
	}
	memcpy(l->cells, cells, n);
	ff_level_changed(l);
	if (!costs_ok(l, clen == n ? NULL : kinds)) {
		ff_level_destroy(l);
		return st_msg(s, FF_E_IO, "stored level '%s' is damaged: a cell cost has no terrain",
			      name);
	}
	for (size_t i = 0; clen != n && i < n && !err; i++)
		if (kinds[i])
			err = ff_level_put(l, (int)(i % (size_t)w), (int)(i / (size_t)w),
					   FF_WALL_KIND(kinds[i]));
	if (err) {
		ff_level_destroy(l);
		return st_msg(s, err, "cannot load '%s': out of memory", name);
	}
	*out = l;
	return FF_OK;
}
