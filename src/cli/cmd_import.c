/* cmd_import.c - 'fieldmarshal import': store level files (text levels,
 * Moving AI .map files, Tiled maps) in the database. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "db.h"
#include "levelfile.h"
#include "util.h"

static const char usage[] =
	"usage: fieldmarshal import FILE... [--name NAME] [--layer LAYER] [--force]\n"
	"\n"
	"Stores each FILE (a text level, a Moving AI .map, or a Tiled map .tmx or\n"
	".tmj) in the database under the level's own name (a .map or a Tiled map:\n"
	"its file name without extension, unless the map has a 'name' property).\n"
	"An existing level of that name is left alone unless --force is given.\n"
	"\n"
	"  -n, --name NAME    store the (single) FILE as NAME\n"
	"  -l, --layer LAYER  a Tiled map's tile layer to read (default: the first);\n"
	"                     any other FILE is then refused\n"
	"  -f, --force        overwrite a stored level of the same name\n"
	"  -h, --help         show this help\n";

/* Reads and parses PATH (LAYER of a Tiled map), renamed to NAME when not
 * NULL. */
static ff_level *read_level(const char *path, const char *layer, const char *name)
{
	ff_level *l = ff_cli_parse_level(path, layer);

	if (l && name && ff_level_set_name(l, name, NULL)) {
		ff_cli_error("bad level name '%s'", name);
		ff_level_destroy(l);
		l = NULL;
	}
	return l;
}

static bool import_one(ff_store *s, const char *path, const char *layer, const char *name,
		       bool force)
{
	ff_level *l = read_level(path, layer, name);
	int64_t rev;
	ff_err err;

	if (!l)
		return false;
	err = ff_store_save(s, l, force ? FF_STORE_ANY : FF_STORE_NEW, &rev);
	if (err == FF_E_CONFLICT)
		ff_cli_error("not importing '%s': a level named '%s' already exists "
			     "(--force overwrites, --name picks another name)", path, l->meta.name);
	else if (err)
		ff_cli_error("%s", ff_store_errmsg(s));
	else
		printf("imported '%s' as '%s' (%dx%d, revision %lld)\n", path, l->meta.name,
		       l->w, l->h, (long long)rev);
	ff_level_destroy(l);
	return !err;
}

int ff_cli_import(int argc, char **argv)
{
	static const struct option opts[] = {
		{"name", required_argument, NULL, 'n'},
		{"layer", required_argument, NULL, 'l'},
		{"force", no_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *name = NULL, *layer = NULL;
	bool force = false, ok = true;
	ff_store *s;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "n:l:fh", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			name = optarg;
			break;
		case 'l':
			layer = optarg;
			break;
		case 'f':
			force = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return FF_EXIT_OK;
		default:
			return ff_cli_usage("import", "bad option");
		}
	}
	if (optind >= argc)
		return ff_cli_usage("import", "expected at least one FILE");
	if (name && argc - optind > 1)
		return ff_cli_usage("import", "--name needs exactly one FILE");
	if (!(s = ff_cli_open_store()))
		return FF_EXIT_FAIL;
	for (int i = optind; i < argc; i++)
		ok &= import_one(s, argv[i], layer, name, force);
	ff_store_destroy(s);
	return ok ? FF_EXIT_OK : FF_EXIT_FAIL;
}
