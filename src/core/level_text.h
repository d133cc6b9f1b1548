/*
 * level_text.h - the plain-text level format and Moving AI .map files, parsed
 * from and formatted into memory buffers (docs/formats.md has the grammar).
 *
 * Parsers never read past LEN, accept LF or CRLF line ends, refuse a NUL
 * byte anywhere, and on failure fill DIAG with the 1-based line and column
 * and a message, and return an error with *OUT untouched.
 * format(parse(x)) == x for canonical text, and for every text a parser
 * accepts, y = format(parse(x)) is canonical: format(parse(y)) == y.
 */
#ifndef FF_LEVEL_TEXT_H
#define FF_LEVEL_TEXT_H

#include <stddef.h>

#include "level.h"

typedef struct ff_diag {
	int line, col;           /* 1-based; 0 when not tied to a place */
	char msg[200];
} ff_diag;

/* The first line of every text level this program writes.  Version 1
 * (parameters in cells, before cell_size) is still read: its parameters are
 * converted as docs/formats.md says. */
#define FF_TEXTLEVEL_MAGIC "fieldmarshal level 2"
#define FF_TEXTLEVEL_MAGIC_V1 "fieldmarshal level 1"

/* Parses a text level.  On success *OUT is a new level the caller frees with
 * ff_level_destroy(). */
ff_err ff_textlevel_parse(const char *buf, size_t len, ff_level **out, ff_diag *diag);
/* Formats L as canonical text; returns a NUL-terminated string the caller
 * frees with free() (LEN, when not NULL, gets its length), or NULL when out
 * of memory. */
char *ff_textlevel_format(const ff_level *l, size_t *len);

/* True when BUF looks like a Moving AI map (starts with "type "). */
bool ff_mapfile_detect(const char *buf, size_t len);
/* Parses a Moving AI .map: '.' 'G' cost 1, 'S' swamp (5), 'W' water (20),
 * 'T' '@' 'O' wall.  NAME names the level (ff_level_name_ok). */
ff_err ff_mapfile_parse(const char *buf, size_t len, const char *name,
			ff_level **out, ff_diag *diag);
/* Formats L as a Moving AI .map: cost 1..4 '.', 5..19 'S', 20..254 'W',
 * wall '@'.  *LOSSY (when not NULL) gets the number of cells whose cost the
 * format cannot hold exactly.  Goals, spawns and parameters are not kept. */
char *ff_mapfile_format(const ff_level *l, size_t *len, long *lossy);

/* Appends the grid of L as rows of GLYPH[terrain value] (one line per row,
 * '?' for a value with no glyph); shared by both formats. */
struct ff_buf;
void ff_grid_rows(struct ff_buf *b, const ff_level *l, const char glyph[FF_TERRAIN_VALUES]);
/* Reads a row of N glyphs IN into costs OUT through COST (0 for a glyph
 * of no terrain); returns the index of the first unknown glyph, or N.
 * Shared by both formats. */
size_t ff_grid_row(const uint8_t cost[256], const char *in, uint8_t *out, size_t n);

/* True, with its place and a message in DIAG (when not NULL), when the
 * text BUF of LEN bytes holds a NUL byte: no text format has one, and a C
 * string would end there. */
bool ff_text_has_nul(const char *buf, size_t len, ff_diag *diag);

/* Parses either format, by content; NAME is used for .map files. */
ff_err ff_level_parse_any(const char *buf, size_t len, const char *name,
			  ff_level **out, ff_diag *diag);

#endif
