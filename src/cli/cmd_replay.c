/* cmd_replay.c - 'fieldmarshal replay': re-run a replay log and check it. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "core/replay.h"
#include "db.h"
#include "tui/tui.h"
#include "util.h"

static const char usage[] =
	"usage: fieldmarshal replay FILE|NAME... [--update] [--until LINE] [--trace]\n"
	"       fieldmarshal replay FILE|NAME --tui\n"
	"\n"
	"Re-executes each replay log (a file, or a replay stored in the database\n"
	"under NAME, see 'fieldmarshal replays') headless and checks every 'expect' line\n"
	"(docs/formats.md, \"Replay log\").  A failure prints FILE:LINE:COL with\n"
	"the expected and actual values and the first command where the state\n"
	"diverged from the recorded hashes; the exit code is then 1.\n"
	"\n"
	"  -u, --update      write the actual values into the expect lines\n"
	"                    (after an intended change of behaviour)\n"
	"      --verify      check the expectations (the default)\n"
	"  -l, --until LINE  stop after LINE\n"
	"  -t, --trace       print each line as it runs, with its result\n"
	"      --tui         play it in the editor, for teaching: Space plays and\n"
	"                    pauses, . runs the next line, > < change the speed,\n"
	"                    q quits; the line just run shows at the bottom\n"
	"  -h, --help        show this help\n";

typedef struct ctx {
	const char *file;        /* the replay, for resolving relative paths */
} ctx;

/* 'level REF': a path relative to the replay's folder, or as given (a path
 * from here, or a stored level's name). */
static ff_level *load(void *vctx, const char *ref, char *err, size_t errlen)
{
	const ctx *c = vctx;
	char dir[4096], path[8200];
	ff_level *l;

	ff_cli_dir_of(c->file, dir, sizeof dir);
	if (ref[0] != '/' && snprintf(path, sizeof path, "%s/%s", dir, ref) < (int)sizeof path &&
	    access(path, R_OK) == 0)
		l = ff_cli_load_level(path);
	else
		l = ff_cli_load_level(ref);
	if (!l)
		snprintf(err, errlen, "cannot load level '%s' (see above)", ref);
	return l;
}

static void trace(void *vctx, int line, const char *text, const char *result)
{
	const ctx *c = vctx;

	printf("%s:%d: %s%s%s\n", c->file, line, text, result && result[0] ? "  => " : "",
	       result ? result : "");
}

/* Prints the failure and where the state first diverged. */
static void report(const char *file, const char *text, const ff_replay_report *rep)
{
	ff_cli_say("%s:%d:%d: %s", file, rep->line, rep->col, rep->msg);
	if (rep->diverged_line && rep->diverged_line <= rep->line && strstr(rep->msg, "expected hash")) {
		const char *p = text;
		for (int i = 1; i < rep->diverged_line && p; i++)
			p = strchr(p, '\n'), p = p ? p + 1 : NULL;
		char after[64] = "no earlier hash matched";

		if (rep->good_line)
			snprintf(after, sizeof after, "the hash at line %d matched", rep->good_line);
		ff_cli_say("%s:%d: the state first diverged here (%s): %.*s", file,
			rep->diverged_line, after, p ? (int)strcspn(p, "\n") : 0, p ? p : "");
	}
}

/* Reads replay ARG: a file when one exists, else a stored replay. */
static char *read_replay(const char *arg, size_t *len, bool *stored)
{
	ff_store *s;
	char *text = NULL;

	*stored = access(arg, F_OK) != 0 && ff_level_name_ok(arg);
	if (!*stored)
		return ff_cli_read_file(arg, len);
	if (!(s = ff_cli_open_store()))
		return NULL;
	if (ff_store_replay_load(s, arg, &text, len))
		ff_cli_error("no replay file or stored replay named '%s'", arg);
	ff_store_destroy(s);
	return text;
}

/* Writes an updated replay back where it came from. */
static bool write_back(const char *arg, bool stored, const ff_buf *out)
{
	ff_store *s;
	bool ok;

	if (!ff_buf_ok(out))
		return false;
	if (!stored)
		return ff_cli_write_file(arg, out->data, out->len);
	if (!(s = ff_cli_open_store()))
		return false;
	ok = ff_cli_store_done(s, ff_store_replay_save(s, arg, out->data, out->len, true)) ==
	     FF_EXIT_OK;
	ff_store_destroy(s);
	return ok;
}

static int replay_one(const char *file, ff_replay_opts *o)
{
	ff_buf out = FF_BUF_INIT;
	ff_replay_report rep;
	ctx c = {file};
	size_t len;
	bool stored;
	char *text = read_replay(file, &len, &stored);
	int rc = FF_EXIT_OK;

	if (!text)
		return FF_EXIT_FAIL;
	o->ctx = &c;
	if (ff_replay_run(text, len, load, o, &rep, &out)) {
		report(file, text, &rep);
		rc = FF_EXIT_FAIL;
	} else if (o->update) {
		rc = write_back(file, stored, &out) ? FF_EXIT_OK : FF_EXIT_FAIL;
		if (rc == FF_EXIT_OK)
			printf("%s: updated %d expectations\n", file, rep.checks);
	} else {
		printf("%s: %d commands, %d checks passed\n", file, rep.commands, rep.checks);
	}
	ff_buf_fini(&out);
	free(text);
	return rc;
}

/* 'replay FILE --tui': the editor plays it line by line. */
static int replay_tui(const char *file)
{
	ff_replay_player *p;
	ff_replay_report rep;
	ctx c = {file};
	size_t len;
	bool stored;
	char *text = read_replay(file, &len, &stored), err[256];
	int rc = FF_EXIT_OK;

	if (!text)
		return FF_EXIT_FAIL;
	p = ff_replay_player_create(text, len, load, &c, &rep);
	if (!p) {
		report(file, text, &rep);
		free(text);
		return FF_EXIT_FAIL;
	}
	if (ff_tui_play(p, file, err, sizeof err)) {
		ff_cli_error("%s", err);
		rc = FF_EXIT_FAIL;
	}
	ff_replay_player_destroy(p);
	free(text);
	return rc;
}

int ff_cli_replay(int argc, char **argv)
{
	static const struct option opts[] = {
		{"update", no_argument, NULL, 'u'},
		{"verify", no_argument, NULL, 'v'},
		{"until", required_argument, NULL, 'l'},
		{"trace", no_argument, NULL, 't'},
		{"tui", no_argument, NULL, 'T'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	ff_replay_opts o = {0};
	int c, rc = FF_EXIT_OK;
	bool tui = false;
	char *end;
	long until;

	optind = 1;
	while ((c = getopt_long(argc, argv, "ul:th", opts, NULL)) != -1) {
		switch (c) {
		case 'u': o.update = true; break;
		case 'v': o.update = false; break;
		case 't': o.trace = trace; break;
		case 'T': tui = true; break;
		case 'l':
			errno = 0;
			until = strtol(optarg, &end, 10);
			if (end == optarg || *end || errno || until < 1 || until > INT_MAX)
				return ff_cli_usage("replay", "--until takes a line number, not '%s'", optarg);
			o.until_line = (int)until;
			break;
		case 'h': fputs(usage, stdout); return FF_EXIT_OK;
		default: return ff_cli_usage("replay", "bad option");
		}
	}
	if (optind >= argc)
		return ff_cli_usage("replay", "expected a replay FILE");
	if (tui && (argc - optind != 1 || o.update || o.until_line || o.trace))
		return ff_cli_usage("replay", "--tui plays one replay, without other options");
	if (tui)
		return replay_tui(argv[optind]);
	for (int i = optind; i < argc; i++)
		if (replay_one(argv[i], &o) != FF_EXIT_OK)
			rc = FF_EXIT_FAIL;
	return rc;
}
