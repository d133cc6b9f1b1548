/*
 * picture.h - writing a picture (src/pic) from a subcommand: 'show',
 * 'export', 'solve' and the editor's ':export'.
 */
#ifndef FF_CLI_PICTURE_H
#define FF_CLI_PICTURE_H

#include <stdbool.h>
#include <stddef.h>

#include "pic/pic.h"

/* The format a file name asks for by its extension: the entry of FORMATS
 * (NULL-terminated, e.g. {"map", "svg", "png", NULL}) equal to it, or NULL. */
const char *ff_cli_format_of(const char *path, const char *const *formats);
/* False, with a usage error for CMD printed, when FORMAT (--format; NULL
 * when not given) is not the one OUT's extension names (.level text,
 * .map, .tmx, .tmj, .svg, .png): a file is never written in a format its
 * name says it is not. */
bool ff_cli_format_fits(const char *cmd, const char *format, const char *out);
/* Renders P as SVG or, with PNG, as PNG, and writes it to OUT ("-" for
 * standard output, which for a PNG must not be a terminal).  Prints why
 * and returns false on failure. */
bool ff_cli_picture(const ff_pic *p, bool png, const char *out);
/* The same into memory, for the editor: a new buffer the caller frees, or
 * NULL when out of memory. */
char *ff_cli_picture_data(const ff_pic *p, bool png, size_t *len);

#endif
