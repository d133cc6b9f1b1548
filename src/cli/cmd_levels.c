/* cmd_levels.c - 'fieldmarshal levels': list, show, remove, copy and rename
 * the levels stored in the database. */
#define _POSIX_C_SOURCE 200809L /* localtime_r */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "core/level_text.h"
#include "db.h"
#include "json.h"
#include "util.h"

static const char usage[] =
	"usage: fieldmarshal levels [list] [--json]\n"
	"       fieldmarshal levels show NAME\n"
	"       fieldmarshal levels rm NAME\n"
	"       fieldmarshal levels cp OLD NEW\n"
	"       fieldmarshal levels rename OLD NEW\n"
	"\n"
	"Manages the levels stored in the database (see 'fieldmarshal --help'\n"
	"for --db).  'list' prints name, size, revision and modification time;\n"
	"'show' prints a level as text; 'cp' and 'rename' refuse an existing NEW.\n"
	"\n"
	"      --json   'list' as JSON (docs/json.md)\n"
	"  -h, --help   show this help\n";

static int list(ff_store *s, char **argv)
{
	ff_store_info *v = NULL;
	size_t n, width = 4;
	char size[32], when[32];

	(void)argv;
	if (ff_store_list(s, &v, &n))
		return ff_cli_store_done(s, FF_E_IO);
	for (size_t i = 0; i < n; i++)
		if (strlen(v[i].name) > width)
			width = strlen(v[i].name);
	printf("%-*s  %9s  %4s  %s\n", (int)width, "NAME", "SIZE", "REV", "MODIFIED");
	for (size_t i = 0; i < n; i++) {
		time_t t = (time_t)v[i].modified;
		struct tm tm;

		snprintf(size, sizeof size, "%dx%d", v[i].w, v[i].h);
		if (!localtime_r(&t, &tm) || !strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm))
			snprintf(when, sizeof when, "?");
		printf("%-*s  %9s  %4lld  %s\n", (int)width, v[i].name, size,
		       (long long)v[i].revision, when);
	}
	free(v);
	return FF_EXIT_OK;
}

static int list_json(ff_store *s, char **argv)
{
	ff_store_info *v = NULL;
	json_t *doc = json_array();
	size_t n;

	(void)argv;
	if (ff_store_list(s, &v, &n)) {
		json_decref(doc);
		return ff_cli_store_done(s, FF_E_IO);
	}
	for (size_t i = 0; doc && i < n; i++)
		if (json_array_append_new(doc, json_pack("{s:s, s:i, s:i, s:I, s:o, s:o}",
							 "name", v[i].name, "width", v[i].w,
							 "height", v[i].h, "revision",
							 (json_int_t)v[i].revision,
							 "created", ff_json_time(v[i].created),
							 "modified", ff_json_time(v[i].modified)))) {
			json_decref(doc);
			doc = NULL;
		}
	free(v);
	return ff_json_print(doc);
}

static int show(ff_store *s, char **argv)
{
	ff_level *l = NULL;
	size_t len;
	char *text;
	int rc;

	if (ff_store_load(s, argv[0], &l, NULL))
		return ff_cli_store_done(s, FF_E_IO);
	text = ff_textlevel_format(l, &len);
	ff_level_destroy(l);
	if (!text) {
		ff_cli_error("out of memory");
		return FF_EXIT_FAIL;
	}
	rc = ff_cli_write_file("-", text, len) ? FF_EXIT_OK : FF_EXIT_FAIL;
	free(text);
	return rc;
}

static int rm(ff_store *s, char **argv)
{
	return ff_cli_store_done(s, ff_store_remove(s, argv[0]));
}

static int cp(ff_store *s, char **argv)
{
	return ff_cli_store_done(s, ff_store_copy(s, argv[0], argv[1]));
}

static int mv(ff_store *s, char **argv)
{
	return ff_cli_store_done(s, ff_store_rename(s, argv[0], argv[1]));
}

static const ff_cli_action actions[] = {
	{"list", list, 0, list_json}, {"show", show, 1, NULL}, {"rm", rm, 1, NULL}, {"cp", cp, 2, NULL},
	{"rename", mv, 2, NULL},
};

int ff_cli_levels(int argc, char **argv)
{
	return ff_cli_store_dispatch("levels", usage, actions, sizeof actions / sizeof actions[0],
				     argc, argv);
}
