/* cmd_show.c - 'fieldmarshal show': print a level in either file format. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/textlevel.h"
#include "util.h"

static const char usage[] =
	"usage: fieldmarshal show LEVEL [--format text|map] [-o FILE]\n"
	"\n"
	"Prints LEVEL (a text level or a Moving AI .map) in the chosen format,\n"
	"so 'show x.map -o x.level' and 'show x.level --format map' convert.\n"
	"\n"
	"  -f, --format FMT   text (default) or map\n"
	"  -o, --output FILE  write to FILE instead of standard output\n"
	"  -h, --help         show this help\n";

int ff_cli_show(int argc, char **argv)
{
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *out = "-";
	bool as_map = false;
	ff_level *l;
	char *text;
	size_t len;
	long lossy = 0;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "map"))
				return ff_cli_usage("show", "unknown format '%s' (text or map)", optarg);
			as_map = !strcmp(optarg, "map");
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return FF_EXIT_OK;
		default:
			return ff_cli_usage("show", "bad option");
		}
	}
	if (optind != argc - 1)
		return ff_cli_usage("show", "expected one LEVEL");
	l = ff_cli_load_level(argv[optind]);
	if (!l)
		return FF_EXIT_FAIL;
	text = as_map ? ff_mapfile_format(l, &len, &lossy) : ff_textlevel_format(l, &len);
	ff_level_destroy(l);
	if (!text) {
		ff_cli_error("out of memory");
		return FF_EXIT_FAIL;
	}
	if (lossy)
		ff_cli_error("warning: %ld cells have costs a .map cannot hold; rounded to "
			     ". (1), S (5), W (20)", lossy);
	rc = ff_cli_write_file(out, text, len) ? FF_EXIT_OK : FF_EXIT_FAIL;
	free(text);
	return rc;
}
