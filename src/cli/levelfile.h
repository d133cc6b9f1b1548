/*
 * levelfile.h - reading a level from a file of any format the program
 * takes: a text level, a Moving AI .map, or a Tiled map (TMX or TMJ, with
 * its external tilesets), by content and name.
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

#endif
