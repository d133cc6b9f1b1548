/*
 * levelfile.h - reading a level from a file of any format the program
 * takes: a text level, a Moving AI .map, or a Tiled map (TMX or TMJ, with
 * its external tilesets), by content and name; and writing one in the
 * format a file's name asks for.
 */
#ifndef FF_CLI_LEVELFILE_H
#define FF_CLI_LEVELFILE_H

#include "core/level.h"

/* Reads and parses PATH ("-" for standard input), a level named after the
 * file (or as the file names itself); LAYER picks a Tiled map's tile layer
 * (NULL: the first).  On failure prints FILE:LINE:COL: MESSAGE (the file
 * being the map, or its tileset) and returns NULL.  Caller frees with
 * ff_level_destroy(). */
ff_level *ff_cli_parse_level(const char *path, const char *layer);

/* The level format PATH's extension names: "map", "tmx", "tmj", else
 * "text". */
const char *ff_cli_level_format_of(const char *path);

/* L in FORMAT ("text", "map", "tmx" or "tmj"), LEN bytes; *LOSSY the
 * cells whose costs a .map rounded (else 0); *WHOLE false when the format
 * does not keep all of L (a .map keeps the grid alone, a Tiled map not
 * the dynamic layer).  NULL when out of memory. */
char *ff_cli_level_format(const ff_level *l, const char *format, size_t *len, long *lossy,
			  bool *whole);

/* Writes L to OUT ("-": standard output) in FORMAT, as above, saying on
 * stderr what the format lost (costs a .map rounded, the dynamic layer);
 * false, with an error printed, when it could not. */
bool ff_cli_write_level(const ff_level *l, const char *format, const char *out);

#endif
