/* levelfile.c - a level from a file of any format (levelfile.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/level_dyn.h"
#include "core/level_text.h"
#include "levelfile.h"
#include "picture.h"
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
	if (layer) {            /* asked for a layer it has not: not read as asked */
		ff_cli_say("%s: not a Tiled map, so it has no tile layer '%s' to choose", path,
			   layer);
		free(buf);
		return NULL;
	}
	err = ff_level_parse_any(buf, len, name, &l, &diag);
	free(buf);
	if (err == FF_E_PARSE)
		ff_cli_say("%s:%d:%d: %s", path, diag.line, diag.col, diag.msg);
	else if (err)
		ff_cli_error("cannot load '%s': %s", path, ff_strerror(err));
	return err ? NULL : l;
}

const char *ff_cli_level_format_of(const char *path)
{
	static const char *const formats[] = {"map", "tmx", "tmj", NULL};
	const char *f = ff_cli_format_of(path, formats);

	return f ? f : "text";
}

/* True when a .map holds all of L: no goals, spawns, note, parameters or
 * dynamic layer beyond the grid. */
static bool map_holds(const ff_level *l)
{
	if (l->meta.ngoals || l->meta.nspawns || l->meta.note[0] || !ff_level_dyn_empty(l))
		return false;
	for (int i = 0; i < FF_P__COUNT; i++)
		if (l->meta.params[i] != ff_param_info_get((ff_param_id)i)->def)
			return false;
	return true;
}

char *ff_cli_level_format(const ff_level *l, const char *format, size_t *len, long *lossy,
			  bool *whole)
{
	*lossy = 0;
	if (!strcmp(format, "map")) {
		char *text = ff_mapfile_format(l, len, lossy);

		*whole = map_holds(l) && *lossy == 0;
		return text;
	}
	if (!strcmp(format, "tmx") || !strcmp(format, "tmj")) {
		*whole = ff_level_dyn_empty(l);
		return ff_tiled_format(l, !strcmp(format, "tmj"), len);
	}
	*whole = true;
	return ff_textlevel_format(l, len);
}

bool ff_cli_write_level(const ff_level *l, const char *format, const char *out)
{
	const bool map = !strcmp(format, "map");
	long lossy;
	size_t len;
	bool whole, ok;
	char *text = ff_cli_level_format(l, format, &len, &lossy, &whole);

	if (!text) {
		ff_cli_error("out of memory");
		return false;
	}
	if (lossy)
		ff_cli_error("warning: %ld cells have costs a .map cannot hold; rounded to "
			     ". (1), S (5), W (20)", lossy);
	if (strcmp(format, "text") && !ff_level_dyn_empty(l))
		ff_cli_error("warning: a %s does not keep the dynamic layer (temporary walls and "
			     "offsets); the text level does", map ? ".map" : "Tiled map");
	ok = ff_cli_write_file(out, text, len);
	free(text);
	return ok;
}
