/* cmd_levels.c - 'fieldmarshal levels': list, show, remove, copy and rename
 * the levels stored in the database. */
#define _POSIX_C_SOURCE 200809L /* localtime_r */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "core/textlevel.h"
#include "db.h"
#include "util.h"

static const char usage[] =
	"usage: fieldmarshal levels [list]\n"
	"       fieldmarshal levels show NAME\n"
	"       fieldmarshal levels rm NAME\n"
	"       fieldmarshal levels cp OLD NEW\n"
	"       fieldmarshal levels rename OLD NEW\n"
	"\n"
	"Manages the levels stored in the database (see 'fieldmarshal --help'\n"
	"for --db).  'list' prints name, size, revision and modification time;\n"
	"'show' prints a level as text; 'cp' and 'rename' refuse an existing NEW.\n"
	"\n"
	"  -h, --help   show this help\n";

/* The exit code for ERR, printing the store's message on failure. */
static int done(ff_store *s, ff_err err)
{
	if (!err)
		return FF_EXIT_OK;
	ff_cli_error("%s", ff_store_errmsg(s));
	return FF_EXIT_FAIL;
}

static int list(ff_store *s, char **argv)
{
	ff_store_info *v = NULL;
	size_t n, width = 4;
	char size[32], when[32];

	(void)argv;
	if (ff_store_list(s, &v, &n))
		return done(s, FF_E_IO);
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

static int show(ff_store *s, char **argv)
{
	ff_level *l = NULL;
	size_t len;
	char *text;
	int rc;

	if (ff_store_load(s, argv[0], &l, NULL))
		return done(s, FF_E_IO);
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
	return done(s, ff_store_remove(s, argv[0]));
}

static int cp(ff_store *s, char **argv)
{
	return done(s, ff_store_copy(s, argv[0], argv[1]));
}

static int mv(ff_store *s, char **argv)
{
	return done(s, ff_store_rename(s, argv[0], argv[1]));
}

typedef struct action {
	const char *name;
	int (*fn)(ff_store *s, char **argv);
	int nargs;
} action;

static const action actions[] = {
	{"list", list, 0}, {"show", show, 1}, {"rm", rm, 1}, {"cp", cp, 2}, {"rename", mv, 2},
};

int ff_cli_levels(int argc, char **argv)
{
	const char *verb = argc > 1 ? argv[1] : "list";
	const action *a = NULL;
	ff_store *s;
	int rc;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return FF_EXIT_OK;
		}
	for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++)
		if (!strcmp(verb, actions[i].name))
			a = &actions[i];
	if (!a)
		return ff_cli_usage("levels", "unknown action '%s'", verb);
	if (argc > 1 && argc - 2 != a->nargs)
		return ff_cli_usage("levels", "'levels %s' takes %d argument%s", a->name,
				    a->nargs, a->nargs == 1 ? "" : "s");
	if (!(s = ff_cli_open_store()))
		return FF_EXIT_FAIL;
	rc = a->fn(s, argv + 2);
	ff_store_destroy(s);
	return rc;
}
