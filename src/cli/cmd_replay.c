/* cmd_replay.c - 'fieldmarshal replay': re-run a replay log and check it. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchutil.h"
#include "cli.h"
#include "core/replay.h"
#include "db.h"
#include "json.h"
#include "replay_out.h"
#include "tui/tui.h"
#include "util.h"

static const char usage[] =
	"usage: fieldmarshal replay FILE|NAME... [--update] [--until LINE] [--trace]\n"
	"                           [--json | --tap] [--junit FILE]\n"
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
	"  -j, --json        each replay and each check's result as JSON (docs/json.md)\n"
	"      --tap         TAP version 13: a test point per 'expect' line and per\n"
	"                    replay ('prove --exec \"fieldmarshal replay --tap\" DIR/*.replay')\n"
	"      --junit FILE  also write JUnit XML to FILE (Jenkins, GitLab)\n"
	"      --tui         play it in the editor, for teaching: Space plays and\n"
	"                    pauses, . runs the next line, > < change the speed,\n"
	"                    q quits; the line just run shows at the bottom\n"
	"  -h, --help        show this help\n";

enum { OUT_TEXT, OUT_JSON, OUT_TAP };

typedef struct ctx {
	const char *file;        /* the replay, for resolving relative paths */
	ff_outcome *out;         /* what the run finds, check by check */
	bool trace;              /* --trace: print each line */
	double last;             /* when the previous check ran, seconds */
} ctx;

static double now(void)
{
	return ff_bench_ms(CLOCK_MONOTONIC) / 1000;
}

/* 'level REF': a path relative to the replay's folder, or as given (a path
 * from here, or a stored level's name).  Why it cannot be loaded is part
 * of the replay's own error, FILE:LINE:COL, on one line. */
static ff_level *load(void *vctx, const char *ref, char *err, size_t errlen)
{
	const ctx *c = vctx;
	char dir[4096], path[8200], why[512];
	ff_level *l;

	ff_cli_dir_of(c->file, dir, sizeof dir);
	ff_cli_hold(why, sizeof why);
	if (ref[0] != '/' && snprintf(path, sizeof path, "%s/%s", dir, ref) < (int)sizeof path &&
	    access(path, R_OK) == 0)
		l = ff_cli_load_level(path);
	else
		l = ff_cli_load_level(ref);
	ff_cli_hold(NULL, 0);
	if (!l)
		snprintf(err, errlen, "cannot load level '%s': %s", ref,
			 why + (strncmp(why, "fieldmarshal: ", 14) ? 0 : 14));
	else if (why[0])
		fprintf(stderr, "%s\n", why); /* a warning, already escaped */
	return l;
}

static void on_line(void *vctx, int line, const char *text, const char *result)
{
	ctx *c = vctx;
	double t = now();

	if (c->trace)
		printf("%s:%d: %s%s%s\n", c->file, line, text, result && result[0] ? "  => " : "",
		       result ? result : "");
	if (ff_replay_is_expect(text)) {
		if (!ff_outcome_check(c->out, line, result, FF_CHECK_PASS, t - c->last))
			c->out->rep.ok = false;
		c->last = t;
	}
}

/* Prints the failure and where the state first diverged. */
static void report(const ff_outcome *o)
{
	ff_buf b = FF_BUF_INIT;

	ff_outcome_diag(o, &b);
	for (const char *p = b.data, *nl; ff_buf_ok(&b) && p && *p; p = nl + 1) {
		nl = strchr(p, '\n');
		ff_cli_say("%.*s", (int)(nl - p), p);
	}
	ff_buf_fini(&b);
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

/* Runs replay FILE into OUT (which the caller finishes with
 * ff_outcome_fini()); with O->update, writes the new values back. */
static int replay_one(const char *file, ff_replay_opts *o, bool trace, ff_outcome *out)
{
	ff_buf upd = FF_BUF_INIT;
	ctx c = {file, out, trace, now()};
	double start = c.last;
	bool stored, ran;
	int rc = FF_EXIT_OK;

	memset(out, 0, sizeof *out);
	out->file = file;
	out->text = read_replay(file, &out->len, &stored);
	if (!out->text) {
		snprintf(out->rep.msg, sizeof out->rep.msg, "cannot read the replay");
		return FF_EXIT_FAIL;
	}
	o->ctx = &c;
	o->trace = on_line;
	ran = ff_replay_run(out->text, out->len, load, o, &out->rep, &upd) == FF_OK;
	out->seconds = now() - start;
	if (!ff_outcome_finish(out) || (ran && !out->rep.ok)) {
		out->rep.ok = false;    /* reported as the replay's failure */
		snprintf(out->rep.msg, sizeof out->rep.msg, "out of memory");
		rc = FF_EXIT_FAIL;
	} else if (!ran) {
		rc = FF_EXIT_FAIL;
	} else if (o->update) {
		rc = write_back(file, stored, &upd) ? FF_EXIT_OK : FF_EXIT_FAIL;
	}
	ff_buf_fini(&upd);
	return rc;
}

/* 'replay FILE --tui': the editor plays it line by line. */
static int replay_tui(const char *file)
{
	ff_replay_player *p;
	ff_replay_report rep;
	ctx c = {file, NULL, false, 0};
	size_t len;
	bool stored;
	char *text = read_replay(file, &len, &stored), err[256];
	int rc = FF_EXIT_OK;

	if (!text)
		return FF_EXIT_FAIL;
	p = ff_replay_player_create(text, len, load, &c, &rep);
	if (!p) {
		report(&(ff_outcome){.file = file, .text = text, .len = len, .rep = rep});
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

/* The plain-text line for one replay: how it went, or why it failed. */
static void text_out(const ff_outcome *out, const ff_replay_opts *o, int rc)
{
	if (!out->text)
		return; /* reading it said why */
	if (!out->rep.ok)
		report(out);
	else if (o->update && rc == FF_EXIT_OK)
		printf("%s: updated %d expectations\n", out->file, out->rep.checks);
	else if (!o->update)
		printf("%s: %d commands, %d checks passed\n", out->file, out->rep.commands,
		       out->rep.checks);
}

/* Runs the replays FILES[0..N) and reports them in form HOW, and as JUnit
 * XML to JUNIT when not NULL. */
static int replay_all(char **files, int n, ff_replay_opts *o, bool trace, int how,
		      const char *junit)
{
	ff_outcome *v = calloc((size_t)n, sizeof *v);
	json_t *list = how == OUT_JSON ? json_array() : NULL;
	int rc = FF_EXIT_OK, points = 0, failed = 0;

	if (!v || (how == OUT_JSON && !list)) {
		free(v);
		json_decref(list);
		ff_cli_error("out of memory");
		return FF_EXIT_FAIL;
	}
	if (how == OUT_TAP)
		puts("TAP version 13");
	for (int i = 0; i < n; i++) {
		int r = replay_one(files[i], o, trace, &v[i]);

		failed += r != FF_EXIT_OK;
		if (how == OUT_TEXT)
			text_out(&v[i], o, r);
		else if (how == OUT_TAP)
			points = ff_outcome_tap(&v[i], points);
		else if (json_array_append_new(list, ff_outcome_json(&v[i])))
			json_decref(list), list = NULL; /* out of memory: said below */
	}
	if (how == OUT_TAP)
		printf("1..%d\n", points);
	if (how == OUT_JSON && ff_json_print(json_pack("{s:o, s:i, s:i}", "replays", list,
						       "passed", n - failed, "failed", failed)))
		rc = FF_EXIT_FAIL;
	if (junit && !ff_outcome_junit(junit, v, n))
		rc = FF_EXIT_FAIL;
	for (int i = 0; i < n; i++)
		ff_outcome_fini(&v[i]);
	free(v);
	return failed ? FF_EXIT_FAIL : rc;
}

int ff_cli_replay(int argc, char **argv)
{
	static const struct option opts[] = {
		{"update", no_argument, NULL, 'u'},
		{"verify", no_argument, NULL, 'v'},
		{"until", required_argument, NULL, 'l'},
		{"trace", no_argument, NULL, 't'},
		{"json", no_argument, NULL, 'j'},
		{"tap", no_argument, NULL, 'P'},
		{"junit", required_argument, NULL, 'J'},
		{"tui", no_argument, NULL, 'T'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	ff_replay_opts o = {0};
	int c, how = OUT_TEXT;
	bool tui = false, trace = false;
	const char *junit = NULL;
	char *end;
	long until;

	optind = 1;
	while ((c = getopt_long(argc, argv, "ul:tjh", opts, NULL)) != -1) {
		switch (c) {
		case 'u': o.update = true; break;
		case 'v': o.update = false; break;
		case 't': trace = true; break;
		case 'T': tui = true; break;
		case 'j':
		case 'P':
			if (how != OUT_TEXT && how != (c == 'j' ? OUT_JSON : OUT_TAP))
				return ff_cli_usage("replay", "--json and --tap are two forms of one report: pick one");
			how = c == 'j' ? OUT_JSON : OUT_TAP;
			break;
		case 'J': junit = optarg; break;
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
	if (tui && (argc - optind != 1 || o.update || o.until_line || trace || how || junit))
		return ff_cli_usage("replay", "--tui plays one replay, without other options");
	if (o.update && (how || junit))
		return ff_cli_usage("replay", "--update rewrites replays; it makes no report");
	if (trace && how)
		return ff_cli_usage("replay", "--trace prints lines; it does not mix with --json or --tap");
	if (tui)
		return replay_tui(argv[optind]);
	return replay_all(argv + optind, argc - optind, &o, trace, how, junit);
}
