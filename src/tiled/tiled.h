/*
 * tiled.h - Tiled maps (mapeditor.org): TMX (XML) and TMJ (JSON) maps with
 * TSX and TSJ tilesets, read into a level and written from one
 * (docs/tiled.md has the rules).
 *
 * Reading: the chosen tile layer (else the first) becomes the grid, each
 * tile's custom properties its terrain (cost, wall or terrain), objects of
 * type or class 'goal' and 'spawn' the goals and spawn areas; layer data in
 * every encoding Tiled writes (CSV, base64 plain, zlib, gzip, zstd when
 * built with libzstd, and TMX's <tile> elements).  libxml2 and jansson
 * parse, nettle decodes base64, zlib and libzstd inflate.  Every failure is
 * one message with the file it is in and, where known, its line and
 * column; the level is then not made.
 */
#ifndef FF_TILED_H
#define FF_TILED_H

#include <stdbool.h>
#include <stddef.h>

#include "core/level.h"

typedef struct ff_tiled_diag {
	char file[1024];         /* the map, or the tileset the problem is in */
	int line, col;           /* 1-based; 0 when not known */
	char msg[300];
} ff_tiled_diag;

/* Reads the file PATH (an external tileset) into a new NUL-terminated
 * buffer the caller frees; NULL with the reason in ERR. */
typedef char *(*ff_tiled_reader)(void *ctx, const char *path, size_t *len, char *err,
				 size_t errlen);

typedef struct ff_tiled_opts {
	const char *layer;       /* the tile layer to read, or NULL: the first */
	ff_tiled_reader read;    /* for external tilesets; NULL refuses them */
	void *ctx;
} ff_tiled_opts;

/* True when BUF (read from PATH) is a Tiled map: a .tmx or .tmj name, or
 * content that starts like one (<map, or JSON with "tiledversion"). */
bool ff_tiled_detect(const char *buf, size_t len, const char *path);
/* Reads the Tiled map in BUF (LEN bytes, from PATH, which names it in
 * messages and places its external tilesets) into a new level named NAME,
 * unless the map names itself (a 'name' property).  On failure fills DIAG
 * and returns FF_E_PARSE (FF_E_NOMEM when out of memory), *OUT untouched.
 * Caller frees the level with ff_level_destroy(). */
ff_err ff_tiled_parse(const char *buf, size_t len, const char *path, const char *name,
		      const ff_tiled_opts *opts, ff_level **out, ff_tiled_diag *diag);
/* L as a TMX map or, with JSON, a TMJ map: one tile layer in CSV, an
 * embedded tileset with a tile per terrain (properties terrain, cost or
 * wall, glyph), goals and spawn areas as objects, the note and the
 * parameters other than their defaults as map properties; reading it gives
 * L back.  A new NUL-terminated buffer the caller frees, or NULL when out
 * of memory. */
char *ff_tiled_format(const ff_level *l, bool json, size_t *len);

#endif
