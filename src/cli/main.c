/*
 * main.c - the fieldmarshal program: global options and the subcommand
 * table.  Each subcommand lives in its own cmd_<name>.c.
 */
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "cli.h"
#include "db.h"
#include "util.h"

typedef struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} subcommand;

static const subcommand subcommands[] = {
	{"bench", ff_cli_bench, "time the solver on generated grids and level files"},
	{"edit", ff_cli_edit, "open the full-screen editor on a level (the default)"},
	{"export", ff_cli_export, "write a stored level as text, .map, Tiled map or picture"},
	{"import", ff_cli_import, "store level files (text, .map, Tiled) in the database"},
	{"levels", ff_cli_levels, "list, show, remove, copy and rename stored levels"},
	{"replay", ff_cli_replay, "re-run a replay log and check its expectations"},
	{"replays", ff_cli_replays, "list, show, add and remove stored replay logs"},
	{"run", ff_cli_run, "apply a script of commands to a level"},
	{"show", ff_cli_show, "print a level file as text, .map, Tiled map or picture"},
	{"sim", ff_cli_sim, "run the crowd simulation headless and print statistics"},
	{"solve", ff_cli_solve, "solve a level and print its fields or query values"},
};

#define NSUB (sizeof subcommands / sizeof subcommands[0])

static void help(FILE *f)
{
	fprintf(f,
		"usage: fieldmarshal [--help] [--version] [--db FILE] COMMAND [ARGS...]\n"
		"\n"
		"Design, solve and test flow-field crowd movement in a terminal.\n"
		"\n"
		"commands:\n");
	for (size_t i = 0; i < NSUB; i++)
		fprintf(f, "  %-10s %s\n", subcommands[i].name, subcommands[i].summary);
	fprintf(f,
		"\n"
		"A LEVEL is a text level, a Moving AI .map, a Tiled .tmx or .tmj, or the\n"
		"name of a level stored in the database (--db FILE, else FIELDMARSHAL_DB,\n"
		"else the default one).  'fieldmarshal COMMAND --help' describes each\n"
		"command; the manual is 'man fieldmarshal'.\n");
}

/* The exit status of a run that returns RC: a failure when its output was
 * lost on the way (a full disk), whatever the command thought. */
static int finish(int rc)
{
	return ff_cli_flush_stdout() ? rc : FF_EXIT_FAIL;
}

static int dispatch(int argc, char **argv)
{
	argc = ff_cli_take_db_option(argc, argv); /* global: anywhere on the line */
	if (argc < 0)
		return FF_EXIT_USAGE;
	if (argc < 2 && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
		return ff_cli_edit(1, (char *[]){"edit", NULL});
	if (argc < 2) {
		help(stderr);
		return FF_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		help(stdout);
		return FF_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("fieldmarshal %s\n", PACKAGE_VERSION);
		return FF_EXIT_OK;
	}
	for (size_t i = 0; i < NSUB; i++)
		if (!strcmp(argv[1], subcommands[i].name)) {
			char prog[32];

			/* getopt names the program in its messages: name the command */
			snprintf(prog, sizeof prog, "fieldmarshal %s", subcommands[i].name);
			argv[1] = prog;
			return subcommands[i].fn(argc - 1, argv + 1);
		}
	ff_cli_error("unknown command '%s'", argv[1]);
	fprintf(stderr, "try 'fieldmarshal --help'\n");
	return FF_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	return finish(dispatch(argc, argv));
}
