/* levelfile.c - a level from a file of any format (levelfile.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/level_text.h"
#include "levelfile.h"
#include "tiled/tiled.h"
#include "util.h"

/* Reads a Tiled map's external tileset, saying nothing: the map's reader
 * names it in its own message. */
static char *read_tileset(void *ctx, const char *path, size_t *len, char *err, size_t n)
{
	bool located;

	(void)ctx;
	return ff_cli_read_file_quiet(path, len, err, n, &located);
}

static ff_level *tiled(const char *path, const char *buf, size_t len, const char *name,
		       const char *layer)
{
	ff_tiled_opts o = {layer, read_tileset, NULL};
	ff_tiled_diag d;
	ff_level *l = NULL;
	ff_err err = ff_tiled_parse(buf, len, path, name, &o, &l, &d);

	if (err == FF_E_PARSE && d.line)
		ff_cli_say("%s:%d:%d: %s", d.file, d.line, d.col ? d.col : 1, d.msg);
	else if (err == FF_E_PARSE)
		ff_cli_say("%s: %s", d.file, d.msg);
	else if (err)
		ff_cli_error("cannot load '%s': %s", path, ff_strerror(err));
	return err ? NULL : l;
}

ff_level *ff_cli_parse_level(const char *path, const char *layer)
{
	char name[FF_NAME_MAX];
	ff_level *l = NULL;
	ff_diag diag;
	size_t len;
	char *buf = ff_cli_read_file(path, &len);
	ff_err err;

	if (!buf)
		return NULL;
	ff_cli_name_from_path(path, name);
	if (ff_tiled_detect(buf, len, path)) {
		l = tiled(path, buf, len, name, layer);
		free(buf);
		return l;
	}
	err = ff_level_parse_any(buf, len, name, &l, &diag);
	free(buf);
	if (err == FF_E_PARSE)
		ff_cli_say("%s:%d:%d: %s", path, diag.line, diag.col, diag.msg);
	else if (err)
		ff_cli_error("cannot load '%s': %s", path, ff_strerror(err));
	return err ? NULL : l;
}
