/*
 * tiled_int.h - what the TMX and TMJ readers make of a map before it
 * becomes a level: the chosen layer's gids, the tilesets' tile properties,
 * the goal and spawn objects and the map's properties, each with where it
 * was written (file and line) for messages.  Both readers fill the same
 * tl_map; tiled_level.c turns it into a level.
 */
#ifndef FF_TILED_INT_H
#define FF_TILED_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/buf.h"
#include "tiled.h"

/* The widest and tallest tile, in pixels. */
#define TL_TILE_MAX (1 << 16)

/* Flip and rotation flags of a gid (Tiled's top four bits). */
#define TL_GID_FLAGS 0xF0000000u

/* Where something was written: a file (of the tileset, or the map) and a
 * line (0 in a TMJ file, whose parser keeps no lines: WHAT says instead). */
typedef struct tl_where {
	const char *file;        /* borrowed from the map's list of files */
	int line;
	char what[96];           /* e.g. "layers[0].objects[3]" */
} tl_where;

/* The longest 'classes' or 'groups' property taken (they list at most
 * FF_CLASSES_MAX or FF_GROUPS_MAX entries of a few words). */
#define TL_LIST_MAX 1024

/* The room for a property's value as text: a byte more than the longest
 * note, so that a longer one is refused as too long, not cut to fit. */
#define TL_VALUE_MAX (FF_NOTE_MAX + 1)

typedef struct tl_tile {
	unsigned id;
	bool has_cost, has_wall, has_terrain, has_glyph;
	int cost;
	bool wall;
	char terrain[FF_TERRAIN_NAME_MAX];
	char glyph;
	char classes[TL_LIST_MAX];  /* its costs to classes, "boat=1 flyer=wall" */
	tl_where at;
} tl_tile;

typedef struct tl_tileset {
	unsigned firstgid;
	tl_tile *tiles;
	int ntiles;
} tl_tileset;

typedef enum tl_kind { TL_RECT, TL_ELLIPSE, TL_POINT, TL_OTHER } tl_kind;

typedef struct tl_object {
	int id;
	bool goal;               /* else a spawn area */
	tl_kind kind;
	double x, y, w, h;       /* pixels */
	bool has_count;
	long count;
	double rate;             /* a spawn's agents per second, 0: at once */
	char group[FF_GROUP_NAME_MAX]; /* "" the default group */
	tl_where at;
} tl_object;

/* The map and its external tilesets: at most this many files. */
#define TL_FILES_MAX 64

typedef struct tl_map {
	int w, h, tw, th;        /* cells; tile size in pixels */
	uint32_t *gids;          /* w * h, flags masked */
	tl_where data_at;        /* the layer's data */
	tl_tileset *sets;
	int nsets;
	tl_object *objs;
	int nobjs;
	char name[FF_NAME_MAX];  /* the 'name' property, or "" */
	char note[FF_NOTE_MAX];
	/* the movement classes, "boat wall, flyer", and the groups in order
	 * with their classes, "boats class boat, flyers" (tiled_level.c) */
	char classes[TL_LIST_MAX], groups[TL_LIST_MAX];
	tl_where classes_at, groups_at;
	double params[FF_P__COUNT];
	bool has_param[FF_P__COUNT];
	tl_where param_at[FF_P__COUNT];
	char *files[TL_FILES_MAX]; /* the map's path and each tileset's (owned) */
	int nfiles;
	bool layer_found;        /* a tile layer was read */
} tl_map;

/* The reader's state: the map being filled, what reads tilesets, where a
 * failure goes. */
typedef struct tl_ctx {
	tl_map *m;
	const ff_tiled_opts *opts;
	ff_tiled_diag *diag;
} tl_ctx;

/* Fills the diagnosis (file AT->file, line AT->line, COL, and AT->what
 * before the message when there is no line), control characters escaped
 * (ff_escape), and returns FF_E_PARSE. */
ff_err tl_fail(tl_ctx *c, const tl_where *at, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Keeps a copy of PATH in the map's list of files and returns it (NULL
 * when out of memory or past TL_FILES_MAX files). */
const char *tl_file(tl_map *m, const char *path);
/* PATH of a file named REF in a map or tileset file FROM: REF when
 * absolute, else relative to FROM's folder; into BUF. */
void tl_resolve(const char *from, const char *ref, char *buf, size_t n);
/* Adds an empty tileset, tile or object to the map; NULL when out of
 * memory. */
tl_tileset *tl_add_set(tl_map *m, unsigned firstgid);
tl_tile *tl_add_tile(tl_tileset *s, unsigned id);
tl_object *tl_add_object(tl_map *m);
/* Sets O's id to ID, written AT O's place; an error when it is not a whole
 * number 0..INT_MAX. */
ff_err tl_object_id(tl_ctx *c, tl_object *o, double id);
/* Frees what the map owns. */
void tl_map_fini(tl_map *m);

/* Takes custom property NAME of Tiled type TYPE ("string", "float", "int",
 * "bool", ...) with VALUE as text, written AT, for ARG.  Properties not
 * ours are ignored. */
typedef ff_err (*tl_prop_fn)(tl_ctx *c, void *arg, const tl_where *at, const char *name,
			     const char *type, const char *value);
/* The map's: name, note, classes, groups, or a parameter (ARG unused). */
ff_err tl_map_property(tl_ctx *c, void *arg, const tl_where *at, const char *name,
		       const char *type, const char *value);
/* A tile's (ARG a tl_tile): cost, wall, terrain, glyph, classes. */
ff_err tl_tile_property(tl_ctx *c, void *arg, const tl_where *at, const char *name,
			const char *type, const char *value);
/* An object's (ARG a tl_object): count, rate, group. */
ff_err tl_object_property(tl_ctx *c, void *arg, const tl_where *at, const char *name,
			  const char *type, const char *value);

/* Decodes a layer's data TEXT (N bytes) in ENCODING ("csv" or "base64")
 * with COMPRESSION (NULL or "" for none, "zlib", "gzip", "zstd") into the
 * map's W x H gids.  AT (the data's place) locates errors; for CSV the
 * line and column of the bad number. */
ff_err tl_decode(tl_ctx *c, const tl_where *at, const char *text, size_t n,
		 const char *encoding, const char *compression);
/* Makes the map's W x H gids, zero; FF_E_NOMEM. */
ff_err tl_gids(tl_map *m);

/* The readers: fill C->m from a TMX or TMJ map or from a TSX or TSJ
 * tileset (into S), BUF being the file PATH. */
ff_err tl_read_tmx(tl_ctx *c, const char *buf, size_t len, const char *path);
ff_err tl_read_tmj(tl_ctx *c, const char *buf, size_t len, const char *path);
ff_err tl_read_tsx(tl_ctx *c, tl_tileset *s, const char *buf, size_t len, const char *path);
ff_err tl_read_tsj(tl_ctx *c, tl_tileset *s, const char *buf, size_t len, const char *path);
/* Reads the external tileset REF of map file FROM into S (TSX or TSJ by
 * content). */
ff_err tl_external(tl_ctx *c, tl_tileset *s, const tl_where *at, const char *ref);

/* Turns the filled map into a level named NAME. */
ff_err tl_level(tl_ctx *c, const char *name, ff_level **out);

/* The writers (tiled_write.c). */
char *tl_write_tmx(const ff_level *l, size_t *len);
char *tl_write_tmj(const ff_level *l, size_t *len);

#endif
