/* picture.c - writing pictures from subcommands (picture.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "picture.h"
#include "util.h"

const char *ff_cli_format_of(const char *path, const char *const *formats)
{
	const char *dot = strrchr(path, '.');

	if (!dot || strchr(dot, '/'))
		return NULL;
	for (; *formats; formats++)
		if (!strcmp(dot + 1, *formats))
			return *formats;
	return NULL;
}

bool ff_cli_format_fits(const char *cmd, const char *format, const char *out)
{
	static const char *const exts[] = {"level", "map", "tmx", "tmj", "svg", "png", NULL};
	const char *ext = out ? ff_cli_format_of(out, exts) : NULL;

	if (!format || !ext || !strcmp(format, strcmp(ext, "level") ? ext : "text"))
		return true;
	ff_cli_usage(cmd, "--format %s, but '%s' names a .%s file: rename it, or leave --format out",
		     format, out, ext);
	return false;
}

char *ff_cli_picture_data(const ff_pic *p, bool png, size_t *len)
{
	if (png)
		return (char *)ff_pic_png(p, PACKAGE_STRING, len);
	return ff_pic_svg(p, len);
}

bool ff_cli_picture(const ff_pic *p, bool png, const char *out)
{
	size_t len;
	char *data;
	bool ok;

	if (png && !strcmp(out, "-") && isatty(STDOUT_FILENO)) {
		ff_cli_error("a PNG is no text for a terminal: write it with -o FILE.png");
		return false;
	}
	if (!(data = ff_cli_picture_data(p, png, &len))) {
		ff_cli_error("out of memory");
		return false;
	}
	ok = ff_cli_write_file(out, data, len);
	free(data);
	return ok;
}
