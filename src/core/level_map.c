/*
 * level_map.c - Moving AI .map files (movingai.com/benchmarks/formats.html):
 *
 *   type octile
 *   height H
 *   width W
 *   map
 *   H rows of W characters
 *
 * '.' and 'G' are ground (cost 1), 'S' swamp (5), 'W' water (20), '@' the
 * wall; trees 'T' and out-of-bounds 'O' are walls of their own (wall
 * terrains "tree" and "out", added when the map has them), so that a map
 * read and written again is the same bytes (but for 'G', written '.').
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "level_text.h"

bool ff_mapfile_detect(const char *buf, size_t len)
{
	return len >= 5 && !memcmp(buf, "type ", 5);
}

/* The next line of [*p, end) into LINE/N (no '\n', no '\r'); false at end. */
static bool line_at(const char **p, const char *end, const char **line, size_t *n)
{
	const char *nl;

	if (*p >= end)
		return false;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	*line = *p;
	*n = (size_t)((nl ? nl : end) - *p);
	*p = nl ? nl + 1 : end;
	if (*n && (*line)[*n - 1] == '\r')
		(*n)--;
	return true;
}

static ff_err map_fail(ff_diag *d, int line, int col, const char *msg, long a, long b)
{
	if (d) {
		d->line = line, d->col = col;
		snprintf(d->msg, sizeof d->msg, msg, a, b);
	}
	return FF_E_PARSE;
}

/* Reads "KEY N" with N in 1..FF_LEVEL_MAX_SIDE. */
static bool header_num(const char *line, size_t n, const char *key, int *out)
{
	size_t k = strlen(key);
	long v = 0;

	if (n <= k + 1 || memcmp(line, key, k) || line[k] != ' ')
		return false;
	for (size_t i = k + 1; i < n; i++) {
		if (line[i] < '0' || line[i] > '9' || v > FF_LEVEL_MAX_SIDE)
			return false;
		v = v * 10 + (line[i] - '0');
	}
	*out = (int)v;
	return v >= 1 && v <= FF_LEVEL_MAX_SIDE;
}

/* The wall terrains a map's 'T' and 'O' become, in this order. */
static const struct { char c; const char *name; } wall_kinds[] = {{'T', "tree"}, {'O', "out"}};

static int map_cost(char c)
{
	switch (c) {
	case '.': case 'G': return 1;
	case 'S': return 5;
	case 'W': return 20;
	case 'T': case '@': case 'O': return FF_WALL;
	default: return -1;
	}
}

/* Adds the wall terrains of the characters in SEEN (a map's grid) to L and
 * fills VALUE with the terrain value of each character. */
static ff_err map_palette(ff_level *l, const bool seen[256], int value[256])
{
	for (int c = 0; c < 256; c++)
		value[c] = map_cost((char)c);
	for (size_t k = 0; k < sizeof wall_kinds / sizeof wall_kinds[0]; k++) {
		unsigned char c = (unsigned char)wall_kinds[k].c;
		int t;

		if (!seen[c])
			continue;
		if (ff_level_terrain_add(l, wall_kinds[k].name, (char)c, FF_WALL, NULL))
			return FF_E_FULL;
		t = ff_level_terrain_by_name(l, wall_kinds[k].name);
		value[c] = ff_level_terrain_value(l, t);
	}
	return FF_OK;
}

/* Checks the H rows of W characters from *P and what follows them, noting
 * the characters SEEN; *P ends past the rows. */
static ff_err check_rows(const char **p, const char *end, int w, int h, bool seen[256],
			 ff_diag *diag)
{
	const char *line;
	size_t n;

	for (int y = 0; y < h; y++) {
		if (!line_at(p, end, &line, &n))
			return map_fail(diag, 5 + y, 1, "truncated: map has %ld of %ld rows", y, h);
		if (n != (size_t)w)
			return map_fail(diag, 5 + y, (int)(n < (size_t)w ? n : (size_t)w) + 1,
					"row has %ld cells, expected %ld", (long)n, w);
		for (int x = 0; x < w; x++) {
			if (map_cost(line[x]) < 0)
				return map_fail(diag, 5 + y, x + 1, "unknown map character (code %ld)",
						(unsigned char)line[x], 0);
			seen[(unsigned char)line[x]] = true;
		}
	}
	while (line_at(p, end, &line, &n))
		if (n)
			return map_fail(diag, 5 + h, 1, "trailing garbage after %ld rows", h, 0);
	return FF_OK;
}

ff_err ff_mapfile_parse(const char *buf, size_t len, const char *name,
			ff_level **out, ff_diag *diag)
{
	const char *p = buf, *end = buf + len, *line, *grid;
	int w = 0, h = 0, value[256];
	bool seen[256] = {false};
	ff_level *l;
	ff_err err;
	size_t n;

	if (diag)
		memset(diag, 0, sizeof *diag);
	if (ff_text_has_nul(buf, len, diag))
		return FF_E_PARSE;
	if (!line_at(&p, end, &line, &n) || n < 5 || memcmp(line, "type ", 5))
		return map_fail(diag, 1, 1, "expected 'type octile'", 0, 0);
	if (!line_at(&p, end, &line, &n) || !header_num(line, n, "height", &h))
		return map_fail(diag, 2, 1, "expected 'height H' with H in 1..%ld", FF_LEVEL_MAX_SIDE, 0);
	if (!line_at(&p, end, &line, &n) || !header_num(line, n, "width", &w))
		return map_fail(diag, 3, 1, "expected 'width W' with W in 1..%ld", FF_LEVEL_MAX_SIDE, 0);
	if (!line_at(&p, end, &line, &n) || n != 3 || memcmp(line, "map", 3))
		return map_fail(diag, 4, 1, "expected 'map'", 0, 0);
	if (!ff_level_name_ok(name))
		return map_fail(diag, 0, 0, "bad level name", 0, 0);
	grid = p;
	if ((err = check_rows(&p, end, w, h, seen, diag)))
		return err;
	if (!(l = ff_level_create(w, h, name)))
		return FF_E_NOMEM;
	/* checked: read the rows again into the level */
	if ((err = map_palette(l, seen, value)) == FF_OK)
		for (int y = 0; y < h && !err && line_at(&grid, end, &line, &n); y++)
			for (int x = 0; x < w && !err; x++)
				err = ff_level_put(l, x, y, value[(unsigned char)line[x]]);
	if (err) {
		ff_level_destroy(l);
		return err;
	}
	*out = l;
	return FF_OK;
}

char *ff_mapfile_format(const ff_level *l, size_t *len, long *lossy)
{
	ff_buf b = FF_BUF_INIT;
	char glyph[FF_TERRAIN_VALUES];
	long bad = 0;

	for (int c = 0; c < FF_TERRAIN_VALUES; c++)
		glyph[c] = c >= FF_WALL ? '@' : c >= 20 ? 'W' : c >= 5 ? 'S' : '.';
	/* a wall terrain drawn as a map's tree or out-of-bounds stays one */
	for (int i = 0; i < l->meta.npalette; i++)
		for (size_t k = 0; k < sizeof wall_kinds / sizeof wall_kinds[0]; k++)
			if (l->meta.palette[i].cost == FF_WALL &&
			    l->meta.palette[i].glyph == wall_kinds[k].c)
				glyph[ff_level_terrain_value(l, i)] = wall_kinds[k].c;
	for (size_t i = 0; i < (size_t)l->w * (size_t)l->h; i++) {
		uint8_t c = l->cells[i];
		bad += c != 1 && c != 5 && c != 20 && c != FF_WALL;
	}
	if (lossy)
		*lossy = bad;
	ff_buf_printf(&b, "type octile\nheight %d\nwidth %d\nmap\n", l->h, l->w);
	ff_grid_rows(&b, l, glyph);
	return ff_buf_take(&b, len);
}

void ff_grid_rows(ff_buf *b, const ff_level *l, const char glyph[FF_TERRAIN_VALUES])
{
	for (int y = 0; y < l->h; y++) {
		char *out = ff_buf_extend(b, (size_t)l->w + 1);

		if (!out)
			return;
		for (int x = 0; x < l->w; x++) {
			int v = ff_level_value(l, x, y);
			out[x] = glyph[v] ? glyph[v] : '?';
		}
		out[l->w] = '\n';
	}
}

bool ff_text_has_nul(const char *buf, size_t len, ff_diag *diag)
{
	const char *z = memchr(buf, '\0', len), *bol = buf;
	int line = 1;

	if (!z)
		return false;
	for (const char *p = buf; p < z; p++)
		if (*p == '\n')
			line++, bol = p + 1;
	if (diag) {
		diag->line = line;
		diag->col = (int)(z - bol) + 1;
		snprintf(diag->msg, sizeof diag->msg, "a NUL byte: not a text file");
	}
	return true;
}

ff_err ff_level_parse_any(const char *buf, size_t len, const char *name,
			  ff_level **out, ff_diag *diag)
{
	if (ff_mapfile_detect(buf, len))
		return ff_mapfile_parse(buf, len, name, out, diag);
	return ff_textlevel_parse(buf, len, out, diag);
}
