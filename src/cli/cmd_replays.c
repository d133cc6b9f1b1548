/* cmd_replays.c - 'fieldmarshal replays': the replay logs stored in the
 * database beside the levels (recorded by the editor, or added here). */
#define _POSIX_C_SOURCE 200809L /* localtime_r */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "core/replay.h"
#include "db.h"
#include "json.h"
#include "util.h"

static const char usage[] =
	"usage: fieldmarshal replays [list] [--json]\n"
	"       fieldmarshal replays show NAME\n"
	"       fieldmarshal replays rm NAME\n"
	"       fieldmarshal replays add NAME FILE\n"
	"\n"
	"Manages the replay logs stored in the database (see 'fieldmarshal --help'\n"
	"for --db).  'add' stores FILE (a replay log) as NAME and refuses an\n"
	"existing NAME; 'show' prints a stored log.  'fieldmarshal replay NAME'\n"
	"replays a stored log.\n"
	"\n"
	"      --json   'list' as JSON (docs/json.md)\n"
	"  -h, --help   show this help\n";

static int list(ff_store *s, char **argv)
{
	ff_store_replay_info *v = NULL;
	size_t n, width = 4;
	char when[32];

	(void)argv;
	if (ff_store_replay_list(s, &v, &n))
		return ff_cli_store_done(s, FF_E_IO);
	for (size_t i = 0; i < n; i++)
		if (strlen(v[i].name) > width)
			width = strlen(v[i].name);
	printf("%-*s  %8s  %s\n", (int)width, "NAME", "BYTES", "CREATED");
	for (size_t i = 0; i < n; i++) {
		time_t t = (time_t)v[i].created;
		struct tm tm;

		if (!localtime_r(&t, &tm) || !strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm))
			snprintf(when, sizeof when, "?");
		printf("%-*s  %8zu  %s\n", (int)width, v[i].name, v[i].bytes, when);
	}
	free(v);
	return FF_EXIT_OK;
}

static int list_json(ff_store *s, char **argv)
{
	ff_store_replay_info *v = NULL;
	json_t *doc = json_array();
	size_t n;

	(void)argv;
	if (ff_store_replay_list(s, &v, &n)) {
		json_decref(doc);
		return ff_cli_store_done(s, FF_E_IO);
	}
	for (size_t i = 0; doc && i < n; i++)
		if (json_array_append_new(doc, json_pack("{s:s, s:I, s:o}", "name", v[i].name,
							 "bytes", (json_int_t)v[i].bytes,
							 "created", ff_json_time(v[i].created)))) {
			json_decref(doc);
			doc = NULL;
		}
	free(v);
	return ff_json_print(doc);
}

static int show(ff_store *s, char **argv)
{
	size_t len;
	char *text;
	int rc;

	if (ff_store_replay_load(s, argv[0], &text, &len))
		return ff_cli_store_done(s, FF_E_IO);
	rc = ff_cli_write_file("-", text, len) ? FF_EXIT_OK : FF_EXIT_FAIL;
	free(text);
	return rc;
}

static int rm(ff_store *s, char **argv)
{
	return ff_cli_store_done(s, ff_store_replay_remove(s, argv[0]));
}

static int add(ff_store *s, char **argv)
{
	size_t len;
	char *text = ff_cli_read_file(argv[1], &len);
	ff_err err;

	if (!text)
		return FF_EXIT_FAIL;
	/* the first line, as 'replay' reads it: LF or CRLF */
	if (strncmp(text, FF_REPLAY_MAGIC, strlen(FF_REPLAY_MAGIC)) ||
	    !strchr("\r\n", text[strlen(FF_REPLAY_MAGIC)])) {
		ff_cli_error("%s:1:1: not a replay log (expected '%s')", argv[1], FF_REPLAY_MAGIC);
		free(text);
		return FF_EXIT_FAIL;
	}
	err = ff_store_replay_save(s, argv[0], text, len, false);
	free(text);
	return ff_cli_store_done(s, err);
}

static const ff_cli_action actions[] = {
	{"list", list, 0, list_json}, {"show", show, 1, NULL}, {"rm", rm, 1, NULL}, {"add", add, 2, NULL},
};

int ff_cli_replays(int argc, char **argv)
{
	return ff_cli_store_dispatch("replays", usage, actions, sizeof actions / sizeof actions[0],
				     argc, argv);
}
