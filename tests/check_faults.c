/*
 * check_faults.c - running out of memory at every step: for every N, the
 * N-th allocation of a command, a solve, a simulation tick, a save to the
 * database and a replay fails (tests/allocwrap.h), and the operation either
 * fails with a message, leaving the session, the level and the database
 * exactly as they were and every block it took freed, or (when it can do
 * without the memory) ends as it would have without the failure.  N runs
 * from 1 until the operation completes without reaching its N-th
 * allocation.  SQLite allocates through the same wrappers
 * (SQLITE_CONFIG_MALLOC), so a save fails inside SQLite too.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <string.h>
#include <unistd.h>

#define ALLOCWRAP_SQLITE
#include "allocwrap.h"
#include "core/cmd.h"
#include "core/level_text.h"
#include "core/replay.h"
#include "store/store.h"
#include "testutil.h"

/* A level with walls, two terrains, a goal and a spawn area. */
static const char level_text[] =
	"fieldmarshal level 1\nname faults\nsize 16 9\nterrain grass . 1\n"
	"terrain mud m 4\nterrain wall # wall\ngoal cell 14 4\nspawn rect 1 1 3 3 12\ngrid\n"
	"................\n"
	"......#.........\n"
	"......#...mm....\n"
	"......#...mm....\n"
	"......#.........\n"
	"................\n"
	"..mmm.#.........\n"
	"......#.........\n"
	"................\n"
	"end\n";

static ff_level *fixture_level(void)
{
	ff_level *l = NULL;
	ff_diag d;

	ck_assert_msg(ff_textlevel_parse(level_text, sizeof level_text - 1, &l, &d) == FF_OK,
		      "%d:%d: %s", d.line, d.col, d.msg);
	return l;
}

/* What the commands run on: the level solved, with agents that have
 * ticked, and two edits to undo (one of them a change of size). */
static const char *const setup_cmds[] = {
	"resize 18,10", "solve", "sim spawn 8", "tick 17", "paint 8,8 mud", NULL,
};

static ff_session *fixture(void)
{
	ff_session *s = malloc(sizeof *s);
	ff_cmd_result r;

	ck_assert_ptr_nonnull(s);
	ff_session_init(s, fixture_level());
	for (int i = 0; setup_cmds[i]; i++)
		ck_assert_msg(ff_cmd_exec(s, setup_cmds[i], &r) == FF_OK, "%s: %s", setup_cmds[i], r.msg);
	return s;
}

static void fixture_free(ff_session *s)
{
	ff_session_fini(s);
	free(s);
}

/* Every command, most of them with allocations of their own. */
static const char *const commands[] = {
	"paint 3,3 wall", "rect 2,2 4,3 mud", "line 0,0 15,8 wall", "circle 8,4 2 mud",
	"fill 0,0 mud", "goal add cell 1,7", "goal rm 1", "goal add rect 12,0 2,2",
	"spawn add circle 12,6 2 5", "spawn clear", "set speed 2", "terrain lava L 40",
	"name other", "resize 20,12", "resize 10,6", "solve fmm", "solve fmm2 4", "solve off",
	"step begin", "step cell 5", "step wave 2", "step back", "step phase",
	"sim spawn 3", "sim add 5,5 10 2", "sim clear", "sim funnel off", "tick 3",
	"undo", "undo 2", "redo",
};

START_TEST(every_allocation_of_a_command)
{
	const char *cmd = commands[_i];
	ff_session *ref = fixture();
	ff_cmd_result r;
	uint64_t want;
	long n;

	ck_assert_msg(ff_cmd_exec(ref, cmd, &r) == FF_OK || !strcmp(cmd, "redo"), "%s: %s",
		      cmd, r.msg);
	want = ff_session_hash(ref);
	for (n = 1;; n++) {
		long base = live_blocks;
		ff_session *s = fixture();
		ff_level *before = ff_level_clone(s->level);
		uint64_t h = ff_session_hash(s);
		long live = live_blocks;
		ff_err err;
		bool fired;

		alloc_fail_nth(n);
		err = ff_cmd_exec(s, cmd, &r);
		fired = alloc_failed;
		alloc_fail_nth(0);
		if (!fired) {
			fixture_free(s);
			ff_level_destroy(before);
			break;
		}
		if (err) {
			ck_assert_msg(r.msg[0], "'%s', allocation %ld: failed with no message", cmd, n);
			ck_assert_msg(ff_session_hash(s) == h && ff_level_equal(s->level, before),
				      "'%s', allocation %ld: failed (%s) but changed the session", cmd, n,
				      r.msg);
			ck_assert_msg(live_blocks == live, "'%s', allocation %ld: failed and kept %ld "
				      "blocks", cmd, n, live_blocks - live);
		} else {
			ck_assert_msg(ff_session_hash(s) == want,
				      "'%s', allocation %ld: succeeded with another result", cmd, n);
		}
		fixture_free(s);
		ff_level_destroy(before);
		ck_assert_msg(live_blocks == base, "'%s', allocation %ld: %ld blocks leaked", cmd, n,
			      live_blocks - base);
	}
	ck_assert_int_gt(n, 1);
	fixture_free(ref);
}
END_TEST

/* A replay that reads every kind of line, with lines that grow (the reader
 * makes room for each longer one). */
static const char replay_text[] =
	"fieldmarshal replay 1\nprogram test\nlevel inline\n"
	"fieldmarshal level 1\nname r\nsize 8 3\ngoal cell 7 1\ngrid\n"
	"........\n...#....\n........\nend\n"
	"solve\nexpect value 0,1 7.82842712\n"
	"# a comment line longer than any line before it, so that the reader "
	"must grow its copy of the line to hold it; and then some more words\n"
	"paint 3,1 1\nexpect cost 3,1 1\nsim add 1,1 3\ntick 2\n"
	"# and an even longer one: the line reader must find the memory for it or say "
	"that it cannot, never take the want of it for the end of the file, which "
	"would let a replay pass with lines it never read (issue 19)\n"
	"paint 3,2 wall\nexpect cost 3,2 wall\nexpect value 0,2 7.41421356\n";

static ff_level *no_loader(void *ctx, const char *ref, char *err, size_t n)
{
	(void)ctx;
	snprintf(err, n, "no level '%s'", ref);
	return NULL;
}

/* Whatever allocation fails, the replay fails (with a message) or runs to
 * its end: it never passes with lines unread. */
START_TEST(every_allocation_of_a_replay)
{
	ff_replay_opts o = {0};
	ff_replay_report rep;
	int ncmds, checks;
	long n;

	ck_assert_msg(ff_replay_run(replay_text, sizeof replay_text - 1, no_loader, &o, &rep,
				    NULL) == FF_OK, "%d:%d: %s", rep.line, rep.col, rep.msg);
	ncmds = rep.commands, checks = rep.checks;
	ck_assert_int_eq(checks, 4);
	for (n = 1;; n++) {
		long base = live_blocks;
		ff_err err;
		bool fired;

		alloc_fail_nth(n);
		err = ff_replay_run(replay_text, sizeof replay_text - 1, no_loader, &o, &rep, NULL);
		fired = alloc_failed;
		alloc_fail_nth(0);
		ck_assert_msg(live_blocks == base, "allocation %ld: %ld blocks leaked", n,
			      live_blocks - base);
		if (!fired)
			break;
		if (err)
			ck_assert_msg(!rep.ok && rep.msg[0], "allocation %ld: failed with no message", n);
		else
			ck_assert_msg(rep.commands == ncmds && rep.checks == checks,
				      "allocation %ld: passed after %d of %d commands and %d of %d "
				      "checks", n, rep.commands, ncmds, rep.checks, checks);
	}
	ck_assert_int_gt(n, 5);
}
END_TEST

/* The database of the save sweep, made once and copied back before each
 * try: the levels 'faults' and 'keep'. */
static char dir[256], db[300];
static char *pristine;
static size_t pristine_len;

static void put_db(void)
{
	FILE *f = fopen(db, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(pristine, 1, pristine_len, f), pristine_len);
	ck_assert_int_eq(fclose(f), 0);
}

static void make_db(void)
{
	ff_store *s = ff_store_create();
	ff_level *l = fixture_level();
	FILE *f;
	long n;

	snprintf(dir, sizeof dir, "%s/fffaultsXXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(db, sizeof db, "%s/levels.db", dir);
	ck_assert_int_eq(ff_store_open(s, db, FF_STORE_CREATE), FF_OK);
	ck_assert_int_eq(ff_store_save(s, l, FF_STORE_NEW, NULL), FF_OK);
	ck_assert_int_eq(ff_store_save_as(s, l, "keep", NULL), FF_OK);
	ff_store_destroy(s);            /* the WAL goes back into the file */
	ff_level_destroy(l);
	f = fopen(db, "rb");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	pristine = malloc((size_t)n);
	pristine_len = fread(pristine, 1, (size_t)n, f);
	ck_assert_uint_eq(pristine_len, (size_t)n);
	fclose(f);
}

/* The stored level NAME equals L, at revision REV. */
static bool stored_as(const char *name, const ff_level *l, int64_t rev)
{
	ff_store *s = ff_store_create();
	ff_store_info info;
	ff_level *got = NULL;
	bool ok = ff_store_open(s, db, 0) == FF_OK && ff_store_check(s) == FF_OK &&
		  ff_store_load(s, name, &got, &info) == FF_OK && ff_level_equal(got, l) &&
		  info.revision == rev;

	ff_level_destroy(got);
	ff_store_destroy(s);
	return ok;
}

/* Opening the database and saving an edited level over 'faults': out of
 * memory anywhere, in our code or SQLite's, fails with a message and
 * leaves the database holding the old level (and 'keep') intact. */
START_TEST(every_allocation_of_a_save)
{
	ff_level *old = fixture_level(), *edited = fixture_level(), *keep = fixture_level();
	long n;

	make_db();
	ck_assert_int_eq(ff_level_set_name(keep, "keep", NULL), FF_OK);
	ck_assert_int_eq(ff_level_paint(edited, 2, 2, FF_WALL, NULL), FF_OK);
	for (n = 1;; n++) {
		long base = live_blocks;
		ff_store *s;
		ff_err err;
		bool fired;

		put_db();
		alloc_fail_nth(n);
		s = ff_store_create();
		err = s ? ff_store_open(s, db, 0) : FF_E_NOMEM;
		if (!err)
			err = ff_store_save(s, edited, FF_STORE_ANY, NULL);
		fired = alloc_failed;
		alloc_fail_nth(0);
		ck_assert_msg(!err || !fired || !s || ff_store_errmsg(s)[0],
			      "allocation %ld: failed with no message", n);
		ff_store_destroy(s);
		ck_assert_msg(live_blocks == base, "allocation %ld: %ld blocks leaked", n,
			      live_blocks - base);
		if (!fired) {
			ck_assert_int_eq(err, FF_OK);
			break;
		}
		ck_assert_msg(err ? stored_as("faults", old, 1) : stored_as("faults", edited, 2),
			      "allocation %ld: %s, and the database holds something else", n,
			      err ? "failed" : "succeeded");
		ck_assert_msg(stored_as("keep", keep, 1), "allocation %ld: 'keep' changed", n);
	}
	ck_assert_int_gt(n, 10);
	ff_level_destroy(old);
	ff_level_destroy(edited);
	ff_level_destroy(keep);
	free(pristine);
	unlink(db);
	rmdir(dir);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("faults");
	TCase *tc = tcase_create("alloc");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, every_allocation_of_a_command, 0,
			    (int)(sizeof commands / sizeof commands[0]));
	tcase_add_test(tc, every_allocation_of_a_replay);
	tcase_add_test(tc, every_allocation_of_a_save);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (!allocwrap_sqlite())
		return EXIT_FAILURE;
	return tu_run(suite());
}
