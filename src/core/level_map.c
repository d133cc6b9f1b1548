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

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
		if (ff_level_terrain_add(l, wall_kinds[k].name, (char)c, FF_WALL, NULL, NULL))
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

/* The cost of each map character, 0 for none. */
static void map_costs(uint8_t cost[256])
{
	for (int c = 0; c < 256; c++)
		cost[c] = map_cost((char)c) < 0 ? 0 : (uint8_t)map_cost((char)c);
}

size_t ff_grid_row(const uint8_t cost[256], const char *in, uint8_t *out, size_t n)
{
	unsigned bad = 0;

	/* no branch in the loop: a bad character is looked for only once one
	 * was seen, so a large grid reads at memory speed */
	for (size_t x = 0; x < n; x++) {
		uint8_t c = cost[(unsigned char)in[x]];
		out[x] = c;
		bad |= c == 0;
	}
	if (!bad)
		return n;
	for (size_t x = 0;; x++)
		if (!cost[(unsigned char)in[x]])
			return x;
}

/* ff_grid_row() for map characters, sixteen at a time where SSE2 is:
 * each cost is a mask of the characters that give it, so no table is
 * looked up.  Notes in SEEN the wall kinds 'T' and 'O' when they occur. */
static size_t map_row(const uint8_t cost[256], const char *in, uint8_t *out, size_t n,
		      bool seen[256])
{
	size_t x = 0, r;
#if defined(__SSE2__)
	const __m128i dot = _mm_set1_epi8('.'), g = _mm_set1_epi8('G'), sw = _mm_set1_epi8('S');
	const __m128i wa = _mm_set1_epi8('W'), t = _mm_set1_epi8('T'), at = _mm_set1_epi8('@');
	const __m128i o = _mm_set1_epi8('O'), one = _mm_set1_epi8(1), five = _mm_set1_epi8(5);
	const __m128i twenty = _mm_set1_epi8(20);
	__m128i mt = _mm_setzero_si128(), mo = mt;

	for (; x + 16 <= n; x += 16) {
		const __m128i c = _mm_loadu_si128((const __m128i *)(in + x));
		const __m128i m1 = _mm_or_si128(_mm_cmpeq_epi8(c, dot), _mm_cmpeq_epi8(c, g));
		const __m128i m5 = _mm_cmpeq_epi8(c, sw), m20 = _mm_cmpeq_epi8(c, wa);
		const __m128i t1 = _mm_cmpeq_epi8(c, t), o1 = _mm_cmpeq_epi8(c, o);
		const __m128i mw = _mm_or_si128(_mm_or_si128(t1, o1), _mm_cmpeq_epi8(c, at));
		const __m128i v = _mm_or_si128(_mm_or_si128(_mm_and_si128(m1, one),
							    _mm_and_si128(m5, five)),
					       _mm_or_si128(_mm_and_si128(m20, twenty), mw));
		_mm_storeu_si128((__m128i *)(out + x), v);
		mt = _mm_or_si128(mt, t1);
		mo = _mm_or_si128(mo, o1);
		if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(m1, m5), _mm_or_si128(m20, mw))) !=
		    0xffff)
			break;
	}
	seen['T'] |= _mm_movemask_epi8(mt) != 0;
	seen['O'] |= _mm_movemask_epi8(mo) != 0;
#endif
	r = x + ff_grid_row(cost, in + x, out + x, n - x);
	for (size_t i = x; i < r; i++)
		seen[(unsigned char)in[i]] = true;
	return r;
}

/* The header's size, with *P past it; false when it is not a valid one. */
static bool header(const char **p, const char *end, int *w, int *h)
{
	const char *line;
	size_t n;

	return line_at(p, end, &line, &n) && n >= 5 && !memcmp(line, "type ", 5) &&
	       !memchr(line, '\0', n) && line_at(p, end, &line, &n) &&
	       header_num(line, n, "height", h) && line_at(p, end, &line, &n) &&
	       header_num(line, n, "width", w) && line_at(p, end, &line, &n) && n == 3 &&
	       !memcmp(line, "map", 3);
}

/* Gives the walls of L read from the H rows of W characters at GRID their
 * kinds: trees and out-of-bounds are wall terrains of their own. */
static ff_err wall_kinds_of(ff_level *l, const char *grid, const char *end, const bool seen[256])
{
	const char *line;
	int value[256];
	ff_err err;
	size_t n;

	if ((err = map_palette(l, seen, value)))
		return err;
	for (int y = 0; y < l->h && line_at(&grid, end, &line, &n); y++)
		for (int x = 0; x < l->w; x++)
			if (value[(unsigned char)line[x]] > FF_WALL &&
			    (err = ff_level_put(l, x, y, value[(unsigned char)line[x]])))
				return err;
	return FF_OK;
}

/* The parse of a valid file, at memory speed: each row is W characters
 * and a line end where they should be (no search for the '\n'), read
 * sixteen at a time.  NULL at the first thing amiss (or out of memory),
 * for parse() to say what it is.  NUL bytes need no search of their own:
 * one in a row is a bad character, after the header line 'type ' only
 * empty lines are allowed. */
static ff_level *parse_fast(const char *buf, size_t len, const char *name)
{
	const char *p = buf, *end = buf + len, *line, *grid;
	bool seen[256] = {false};
	uint8_t cost[256];
	int w, h;
	ff_level *l;
	size_t n;

	if (!header(&p, end, &w, &h) || !ff_level_name_ok(name) ||
	    !(l = ff_level_create(w, h, name)))
		return NULL;
	map_costs(cost);
	grid = p;
	for (int y = 0; y < h; y++) {
		size_t left = (size_t)(end - p), eol = (size_t)w;
		if (left > eol && p[eol] == '\r')
			eol++;
		if (left <= eol || p[eol] != '\n' ||
		    map_row(cost, p, l->cells + (size_t)y * (size_t)w, (size_t)w, seen) < (size_t)w)
			goto fail;
		p += eol + 1;
	}
	ff_level_changed(l);
	while (line_at(&p, end, &line, &n))
		if (n)
			goto fail;
	if ((seen['T'] || seen['O']) && wall_kinds_of(l, grid, end, seen))
		goto fail;
	return l;
fail:
	ff_level_destroy(l);
	return NULL;
}

/* The parse that says what is wrong: the first NUL byte, else the first
 * line that is not as it should be. */
static ff_err parse(const char *buf, size_t len, const char *name, ff_level **out,
		    ff_diag *diag)
{
	const char *p = buf, *end = buf + len, *line, *grid;
	int w = 0, h = 0, value[256];
	bool seen[256] = {false};
	ff_level *l;
	ff_err err;
	size_t n;

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

ff_err ff_mapfile_parse(const char *buf, size_t len, const char *name,
			ff_level **out, ff_diag *diag)
{
	ff_level *l;

	if (diag)
		memset(diag, 0, sizeof *diag);
	if ((l = parse_fast(buf, len, name))) {
		*out = l;
		return FF_OK;
	}
	return parse(buf, len, name, out, diag);
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
