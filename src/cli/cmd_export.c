/* cmd_export.c - 'fieldmarshal export': write a stored level to a file as
 * text or as a Moving AI .map. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/textlevel.h"
#include "db.h"
#include "util.h"

static const char usage[] =
	"usage: fieldmarshal export NAME [--format text|map] [-o FILE]\n"
	"\n"
	"Writes the stored level NAME as a text level (exactly as imported) or\n"
	"as a Moving AI .map (grid only; costs rounded to . S W).\n"
	"\n"
	"  -f, --format FMT   text (default) or map\n"
	"  -o, --output FILE  write to FILE instead of standard output\n"
	"  -h, --help         show this help\n";

/* Loads NAME and writes it to OUT; the exit code. */
static int export_level(const char *name, bool as_map, const char *out)
{
	ff_store *s = ff_cli_open_store();
	ff_level *l = NULL;
	long lossy = 0;
	size_t len;
	char *text;
	int rc;

	if (s && ff_store_load(s, name, &l, NULL))
		ff_cli_error("%s", ff_store_errmsg(s));
	ff_store_destroy(s);
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

int ff_cli_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *out = "-";
	bool as_map = false;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "map"))
				return ff_cli_usage("export", "unknown format '%s' (text or map)",
						    optarg);
			as_map = !strcmp(optarg, "map");
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return FF_EXIT_OK;
		default:
			return ff_cli_usage("export", "bad option");
		}
	}
	if (optind != argc - 1)
		return ff_cli_usage("export", "expected one NAME");
	return export_level(argv[optind], as_map, out);
}
