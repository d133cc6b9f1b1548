/* cmd_run.c - 'fieldmarshal run': apply a script of commands to a level. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "cli.h"
#include "core/cmd.h"
#include "core/replay.h"
#include "levelfile.h"
#include "util.h"

static const char usage[] =
	"usage: fieldmarshal run LEVEL [SCRIPT] [-e COMMAND]... [-o FILE] [--print]\n"
	"                        [--record REPLAY]\n"
	"\n"
	"Applies commands to LEVEL, one per line: first those of SCRIPT ('-' for\n"
	"standard input), then each -e COMMAND.  Stops at the first error, which\n"
	"is reported as SCRIPT:LINE:COL.  The commands are described in\n"
	"docs/commands.md and by 'fieldmarshal run --commands'.\n"
	"\n"
	"  -e, --exec COMMAND  run COMMAND after the script (repeatable)\n"
	"  -o, --output FILE   write the resulting level to FILE (a .map, .tmx or\n"
	"                      .tmj by its name, else a text level)\n"
	"  -p, --print         print the resulting level to standard output\n"
	"  -r, --record FILE   write a replay log of the run: the level, each\n"
	"                      command and the state hash after it\n"
	"      --commands      list the commands and exit\n"
	"  -h, --help          show this help\n";

static void list_commands(void)
{
	const ff_cmd_info *c;

	for (int i = 0; (c = ff_cmd_info_at(i)); i++)
		printf("%-8s %s\n         %s\n", c->name, c->args, c->summary);
}

/* Runs every line of TEXT; on error prints WHERE:LINE:COL and returns false.
 * When REC is not NULL, appends each command and the hash after it. */
static bool run_text(ff_session *s, const char *where, char *text, int first_line,
		     ff_buf *rec)
{
	int lineno = first_line;

	for (char *line = text; line; lineno++) {
		char *nl = strchr(line, '\n');
		ff_cmd_result res;

		if (nl)
			*nl = '\0';
		if (ff_cmd_exec(s, line, &res)) {
			ff_cli_say("%s:%d:%d: %s", where, lineno, res.col, res.msg);
			return false;
		}
		if (rec)
			ff_replay_record_cmd(rec, s, line);
		line = nl ? nl + 1 : NULL;
	}
	return true;
}

/* The replay header: the level as it was loaded, inline. */
static bool start_record(ff_buf *rec, const ff_session *s)
{
	if (ff_replay_record_begin(rec, s, "fieldmarshal " PACKAGE_VERSION)) {
		ff_cli_error("out of memory");
		return false;
	}
	return true;
}

/* Writes the level to OUT, in the format its name asks for (levelfile.h),
 * and prints it as text. */
static bool finish(ff_session *s, const char *out, bool print)
{
	bool ok = !out || ff_cli_write_level(s->level, ff_cli_level_format_of(out), out);

	return ok && (!print || ff_cli_write_level(s->level, "text", "-"));
}

int ff_cli_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{"exec", required_argument, NULL, 'e'},
		{"output", required_argument, NULL, 'o'},
		{"print", no_argument, NULL, 'p'},
		{"record", required_argument, NULL, 'r'},
		{"commands", no_argument, NULL, 'c'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *out = NULL, *script = NULL, *record = NULL;
	ff_buf rec = FF_BUF_INIT;
	char **execs = calloc((size_t)argc, sizeof *execs);
	int nexec = 0, c, rc = FF_EXIT_FAIL;
	bool print = false;
	ff_session *s = NULL;
	ff_level *l;

	if (!execs) {
		ff_cli_error("out of memory");
		return FF_EXIT_FAIL;
	}
	optind = 1;
	while ((c = getopt_long(argc, argv, "e:o:pr:h", opts, NULL)) != -1) {
		switch (c) {
		case 'e': execs[nexec++] = optarg; break;
		case 'o': out = optarg; break;
		case 'p': print = true; break;
		case 'r': record = record ? record : optarg; break;
		case 'c': list_commands(); free(execs); return FF_EXIT_OK;
		case 'h': fputs(usage, stdout); free(execs); return FF_EXIT_OK;
		default: free(execs); return ff_cli_usage("run", "bad option");
		}
	}
	if (optind >= argc || argc - optind > 2) {
		free(execs);
		return ff_cli_usage("run", "expected LEVEL and at most one SCRIPT");
	}
	script = argc - optind == 2 ? argv[optind + 1] : NULL;
	if (!(l = ff_cli_load_level(argv[optind])) || !(s = malloc(sizeof *s))) {
		if (l)
			ff_cli_error("out of memory");
		ff_level_destroy(l);
		free(execs);
		return FF_EXIT_FAIL;
	}
	ff_session_init(s, l);
	s->mem_avail = ff_cli_mem_avail();
	if (record && !start_record(&rec, s))
		goto done;
	if (script) {
		size_t len;
		char *text = ff_cli_read_file(script, &len);
		bool ok = text && run_text(s, script, text, 1, record ? &rec : NULL);
		free(text);
		if (!ok)
			goto done;
	}
	for (int i = 0; i < nexec; i++)
		if (!run_text(s, "-e", execs[i], i + 1, record ? &rec : NULL))
			goto done;
	rc = finish(s, out, print) ? FF_EXIT_OK : FF_EXIT_FAIL;
	if (rc == FF_EXIT_OK && record && !ff_buf_ok(&rec)) {
		ff_cli_error("cannot record '%s': out of memory", record);
		rc = FF_EXIT_FAIL;
	} else if (rc == FF_EXIT_OK && record && !ff_cli_write_file(record, rec.data, rec.len)) {
		rc = FF_EXIT_FAIL;
	}
done:
	ff_buf_fini(&rec);
	ff_session_fini(s);
	free(s);
	free(execs);
	return rc;
}
