/*
 * fuzz_cmds.c - command sequences on a small level (the editor's keys,
 * its ':' prompt, 'run' scripts and replays all run commands).  Each input
 * line is a command; after every one the level keeps the invariants of
 * core/level.h, a command that failed has changed nothing (session hash,
 * level) and says why, a finished field equals a fresh solve of the level
 * as it now is (for the group it shows, by its class), and no agent stands
 * in a wall (of its class).  At the end, undoing every
 * change gives back the level as loaded (its name aside: 'name' is not an
 * edit) and redoing them all the level as it ended, the same checks
 * holding at each step.  Numbers above 64 are passed over (slow, not new).
 */
#include "core/cmd.h"
#include "core/level_text.h"
#include "core/replay.h"
#include "fuzz.h"

static const char level_text[] =
	"fieldmarshal level 1\nname cmds\nsize 12 8\nterrain grass . 1\nterrain mud m 4\n"
	"terrain wall # wall\ngoal cell 10 3\nspawn rect 1 1 2 2 6\ngrid\n"
	"............\n.....#......\n..mm.#......\n..mm.#......\n.....#......\n"
	"............\n.......mmm..\n............\nend\n";

/* A finished field is what a fresh solve of the level gives: towards the
 * goals of the group the session shows, by its movement class. */
static void check_field(const ff_session *s)
{
	const ff_level *l = s->level;
	int g = ff_session_field_group(s), n;
	ff_shape goals[FF_GOALS_MAX];
	ff_solver *fresh;

	if (!s->field || ff_solver_phase(s->solver) != FF_PHASE_DONE)
		return;
	if (!(fresh = ff_solver_create(l->w, l->h)))
		return;
	n = ff_level_group_goals(l, g, goals);
	ff_solver_set_class(fresh, l->meta.group_class[g]);
	FUZZ_CHECK(ff_solver_solve(fresh, l, goals, n, &s->opts) == FF_OK,
		   "a kept field, but its level does not solve");
	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++) {
			double a = ff_solver_value(s->solver, x, y), b = ff_solver_value(fresh, x, y);

			FUZZ_CHECK(a == b || (a != a && b != b), "%d,%d: kept %.17g, fresh %.17g",
				   x, y, a, b);
			FUZZ_CHECK(ff_solver_dir(s->solver, x, y) == ff_solver_dir(fresh, x, y),
				   "%d,%d: kept direction %d, fresh %d", x, y,
				   ff_solver_dir(s->solver, x, y), ff_solver_dir(fresh, x, y));
		}
	ff_solver_destroy(fresh);
}

static void check_session(const ff_session *s)
{
	fuzz_check_level(s->level);
	check_field(s);
	if (s->sim)
		FUZZ_CHECK(ff_sim_totals_get(s->sim)->wall_violations == 0, "an agent in a wall");
}

/* A and B equal but for the name. */
static bool same_but_name(const ff_level *a, ff_level *b)
{
	char name[FF_NAME_MAX];
	bool same;

	memcpy(name, b->meta.name, sizeof name);
	memcpy(b->meta.name, a->meta.name, sizeof name);
	same = ff_level_equal(a, b);
	memcpy(b->meta.name, name, sizeof name);
	return same;
}

/* Runs LINE, checking what a command must keep. */
static void run(ff_session *s, const char *line)
{
	ff_level *before = ff_level_clone(s->level);
	uint64_t h = ff_session_hash(s);
	ff_cmd_result r;

	if (!before)
		return;
	if (ff_cmd_exec(s, line, &r) != FF_OK) {
		fuzz_check_msg(r.msg);
		FUZZ_CHECK(ff_session_hash(s) == h && ff_level_equal(s->level, before),
			   "'%s' failed (%s) but changed the session", line, r.msg);
	}
	check_session(s);
	ff_level_destroy(before);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ff_level *l = NULL, *first, *last;
	char *text, *line, *nl;
	ff_session s;
	ff_diag d;
	int lines = 0, undone = 0;

	if (size > 2048 || !fuzz_small_numbers(data, size, 64) || !(text = fuzz_string(data, size)))
		return 0;
	if (ff_textlevel_parse(level_text, sizeof level_text - 1, &l, &d) != FF_OK ||
	    !(first = ff_level_clone(l))) {
		ff_level_destroy(l);
		free(text);
		return 0;
	}
	ff_session_init(&s, l);
	for (line = text; line && lines < 48; line = nl ? nl + 1 : NULL, lines++) {
		if ((nl = strchr(line, '\n')))
			*nl = '\0';
		run(&s, line);
	}
	if ((last = ff_level_clone(s.level))) {
		while (ff_session_undo(&s) == FF_OK) {
			undone++;
			check_session(&s);
		}
		FUZZ_CHECK(same_but_name(s.level, first), "undoing all is not the level loaded");
		for (int i = 0; i < undone; i++) {
			FUZZ_CHECK(ff_session_redo(&s) == FF_OK, "redo %d of %d failed", i + 1, undone);
			check_session(&s);
		}
		FUZZ_CHECK(ff_level_equal(s.level, last), "redoing all is not the level as it ended");
	}
	ff_level_destroy(first);
	ff_level_destroy(last);
	ff_session_fini(&s);
	free(text);
	return 0;
}
