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
#include "db.h"
#include "levelfile.h"
#include "picture.h"
#include "util.h"

static const char show_usage[] =
	"usage: fieldmarshal show LEVEL [--format text|map|tmx|tmj|svg|png] [-o FILE]\n"
	"\n"
	"Prints LEVEL (a text level, a Moving AI .map, a Tiled .tmx or .tmj, or the\n"
	"name of a stored level) in the chosen format, so 'show x.map -o x.level'\n"
	"and 'show x.tmx --format map' convert, and 'show x.level -o x.svg' draws it.\n"
	"\n"
	"  -f, --format FMT   text, map, tmx, tmj (Tiled), svg or png (default: by\n"
	"                     FILE's extension, else text; FILE's extension may\n"
	"                     not name another format, .level naming text)\n"
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
	"                     extension, else text; FILE's extension may not name\n"
	"                     another format, .level naming text)\n"
	"  -o, --output FILE  write to FILE instead of standard output\n"
	"  -h, --help         show this help\n";

static const char *const formats[] = {"text", "map", "tmx", "tmj", "svg", "png", NULL};

/* Writes L to OUT in FORMAT (an entry of formats[]); the exit code. */
static int write_level(const ff_level *l, const char *format, const char *out)
{
	ff_pic p = {l, NULL, l->meta.goals, l->meta.ngoals, FF_PIC_COSTS};

	if (!strcmp(format, "svg") || !strcmp(format, "png"))
		return ff_cli_picture(&p, !strcmp(format, "png"), out) ? FF_EXIT_OK : FF_EXIT_FAIL;
	return ff_cli_write_level(l, format, out) ? FF_EXIT_OK : FF_EXIT_FAIL;
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
	if (!ff_cli_format_fits(cmd, format, out))
		return FF_EXIT_USAGE;
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
