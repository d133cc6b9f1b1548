/*
 * fuzz_replay.c - the replay reader and runner.  A replay passes or fails
 * with a line, a column and a message without control characters; run
 * with --update it passes whenever it ran, and what it writes then passes
 * as it is; played line by line (replay --tui) it ends the same way.
 * 'level NAME' loads one small level; numbers above 64 are passed over (a
 * million ticks is slow, not new).
 */
#include "core/level_text.h"
#include "core/replay.h"
#include "fuzz.h"

static const char level_text[] =
	"fieldmarshal level 1\nname small\nsize 10 6\nterrain grass . 1\nterrain mud m 4\n"
	"terrain wall # wall\ngoal cell 8 2\nspawn rect 1 1 2 2 5\ngrid\n"
	"..........\n....#.....\n..m.#.....\n..m.#.....\n..........\n..........\nend\n";

static ff_level *load(void *ctx, const char *ref, char *err, size_t n)
{
	ff_level *l = NULL;
	ff_diag d;

	(void)ctx;
	if (!strcmp(ref, "missing") ||
	    ff_textlevel_parse(level_text, sizeof level_text - 1, &l, &d) != FF_OK) {
		snprintf(err, n, "no level '%s'", ref);
		return NULL;
	}
	return l;
}

static void check_report(ff_err err, const ff_replay_report *rep)
{
	FUZZ_CHECK(rep->ok == (err == FF_OK), "ok %d but error %d", rep->ok, err);
	if (err) {
		FUZZ_CHECK(rep->line >= 1 && rep->col >= 0, "at %d:%d", rep->line, rep->col);
		fuzz_check_msg(rep->msg);
	}
}

/* Plays TEXT line by line: the same end as running it (RAN, at RAN_LINE). */
static void play(const char *text, size_t len, ff_err ran, int ran_line)
{
	ff_replay_report rep;
	ff_replay_player *p = ff_replay_player_create(text, len, load, NULL, &rep);
	char result[200];
	const char *line;
	int no, r = 1;

	if (!p) {
		FUZZ_CHECK(ran != FF_OK && rep.line == ran_line, "the player stopped at the "
			   "header, line %d; the run at %d", rep.line, ran_line);
		return;
	}
	while ((r = ff_replay_player_next(p, &rep, &no, &line, result, sizeof result)) > 0)
		;
	FUZZ_CHECK((r == 0) == (ran == FF_OK), "played: %d, ran: %d", r, ran);
	FUZZ_CHECK(r == 0 || rep.line == ran_line, "played to line %d, ran to %d", rep.line,
		   ran_line);
	ff_replay_player_destroy(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	ff_replay_opts o = {0};
	ff_replay_report rep, upd, again;
	ff_buf out = FF_BUF_INIT;
	ff_err err, uerr;

	if (size > 4096 || !fuzz_small_numbers(data, size, 64))
		return 0;
	err = ff_replay_run(text, size, load, &o, &rep, NULL);
	check_report(err, &rep);
	play(text, size, err, rep.line);
	o.update = true;
	uerr = ff_replay_run(text, size, load, &o, &upd, &out);
	check_report(uerr, &upd);
	FUZZ_CHECK(err || !uerr, "passes, but fails to update: %d:%d: %s", upd.line, upd.col,
		   upd.msg);
	if (!uerr && ff_buf_ok(&out)) {
		o.update = false;
		err = ff_replay_run(out.data, out.len, load, &o, &again, NULL);
		FUZZ_CHECK(err == FF_OK, "the updated replay fails: %d:%d: %s\n%s", again.line,
			   again.col, again.msg, out.data);
		FUZZ_CHECK(again.commands == upd.commands && again.checks == upd.checks,
			   "the updated replay ran %d commands and %d checks, not %d and %d",
			   again.commands, again.checks, upd.commands, upd.checks);
	}
	ff_buf_fini(&out);
	return 0;
}
