/*
 * cmd_show.c - 'fieldmarshal show' and 'fieldmarshal export': print a level
 * as text or as a Moving AI .map, or draw it as SVG or PNG.  They differ
 * only in where the level comes from: show takes a file or a stored name,
 * export a stored name only.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/level_dyn.h"
#include "core/level_text.h"
#include "db.h"
#include "picture.h"
#include "tiled/tiled.h"
#include "util.h"

static const char show_usage[] =
	"usage: fieldmarshal show LEVEL [--format text|map|tmx|tmj|svg|png] [-o FILE]\n"
	"\n"
	"Prints LEVEL (a text level, a Moving AI .map, a Tiled .tmx or .tmj, or the\n"
	"name of a stored level) in the chosen format, so 'show x.map -o x.level'\n"
	"and 'show x.tmx --format map' convert, and 'show x.level -o x.svg' draws it.\n"
	"\n"
	"  -f, --format FMT   text, map, tmx, tmj (Tiled), svg or png (default: by\n"
	"                     FILE's extension, else text)\n"
	"  -o, --output FILE  write to FILE instead of standard output\n"
	"  -h, --help         show this help\n";

static const char export_usage[] =
	"usage: fieldmarshal export NAME [--format text|map|tmx|tmj|svg|png] [-o FILE]\n"
	"\n"
	"Writes the stored level NAME as a text level (exactly as imported), as\n"
	"a Moving AI .map (grid only; costs rounded to . S W), as a Tiled map\n"
	"(.tmx or .tmj, which imports back to the same level), or as a picture.\n"
	"\n"
	"  -f, --format FMT   text, map, tmx, tmj, svg or png (default: by FILE's\n"
	"                     extension, else text)\n"
	"  -o, --output FILE  write to FILE instead of standard output\n"
	"  -h, --help         show this help\n";

static const char *const formats[] = {"text", "map", "tmx", "tmj", "svg", "png", NULL};

/* Formats that do not hold the dynamic layer say so when there is one. */
static void warn_dyn(const ff_level *l, const char *format)
{
	if (!ff_level_dyn_empty(l))
		ff_cli_error("warning: a %s does not keep the dynamic layer (temporary walls and "
			     "offsets); the text level does", format);
}

/* Writes L to OUT as text or a map; the exit code. */
static int write_text(const ff_level *l, bool as_map, const char *out)
{
	long lossy = 0;
	size_t len;
	char *text = as_map ? ff_mapfile_format(l, &len, &lossy) : ff_textlevel_format(l, &len);
	int rc;

	if (!text) {
		ff_cli_error("out of memory");
		return FF_EXIT_FAIL;
	}
	if (lossy)
		ff_cli_error("warning: %ld cells have costs a .map cannot hold; rounded to "
			     ". (1), S (5), W (20)", lossy);
	if (as_map)
		warn_dyn(l, ".map");
	rc = ff_cli_write_file(out, text, len) ? FF_EXIT_OK : FF_EXIT_FAIL;
	free(text);
	return rc;
}

/* Writes L to OUT as a Tiled map, TMJ with JSON, else TMX; the exit code. */
static int write_tiled(const ff_level *l, bool json, const char *out)
{
	size_t len;
	char *text = ff_tiled_format(l, json, &len);
	int rc;

	if (!text) {
		ff_cli_error("out of memory");
		return FF_EXIT_FAIL;
	}
	warn_dyn(l, "Tiled map");
	rc = ff_cli_write_file(out, text, len) ? FF_EXIT_OK : FF_EXIT_FAIL;
	free(text);
	return rc;
}

/* Writes L to OUT in FORMAT (an entry of formats[]); the exit code. */
static int write_level(const ff_level *l, const char *format, const char *out)
{
	ff_pic p = {l, NULL, l->meta.goals, l->meta.ngoals, FF_PIC_COSTS};

	if (!strcmp(format, "svg") || !strcmp(format, "png"))
		return ff_cli_picture(&p, !strcmp(format, "png"), out) ? FF_EXIT_OK : FF_EXIT_FAIL;
	if (!strcmp(format, "tmx") || !strcmp(format, "tmj"))
		return write_tiled(l, !strcmp(format, "tmj"), out);
	return write_text(l, !strcmp(format, "map"), out);
}

static int convert(const char *cmd, const char *usage, ff_level *(*load)(const char *),
		   int argc, char **argv)
{
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *out = "-", *format = NULL;
	ff_level *l;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			for (int i = 0; formats[i]; i++)
				if (!strcmp(optarg, formats[i]))
					format = formats[i];
			if (!format)
				return ff_cli_usage(cmd, "unknown format '%s' (text, map, tmx, tmj, svg "
						    "or png)", optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return FF_EXIT_OK;
		default:
			return ff_cli_usage(cmd, "bad option");
		}
	}
	if (optind != argc - 1)
		return ff_cli_usage(cmd, "expected one %s", load == ff_cli_load_level ? "LEVEL" : "NAME");
	/* without --format, the output file's extension names it */
	if (!format && !(format = ff_cli_format_of(out, formats)))
		format = "text";
	if (!(l = load(argv[optind])))
		return FF_EXIT_FAIL;
	rc = write_level(l, format, out);
	ff_level_destroy(l);
	return rc;
}

int ff_cli_show(int argc, char **argv)
{
	return convert("show", show_usage, ff_cli_load_level, argc, argv);
}

int ff_cli_export(int argc, char **argv)
{
	return convert("export", export_usage, ff_cli_load_stored, argc, argv);
}
