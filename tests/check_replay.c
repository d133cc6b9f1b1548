/*
 * check_replay.c - replay logs: a log written by hand with values worked
 * out by hand passes; altering any one expectation fails at that line with
 * expected and actual; --update fills expectations that then pass; the
 * divergence point is the first command after the last matching hash; and
 * malformed logs give file:line errors.
 */
#include <stdlib.h>
#include <string.h>

#include "core/cmd.h"
#include "core/replay.h"
#include "core/level_dyn.h"
#include "core/level_text.h"
#include "testutil.h"

static ff_level *load(void *ctx, const char *ref, char *err, size_t n)
{
	size_t len;
	char *buf;
	ff_level *l = NULL;
	ff_diag d;

	(void)ctx;
	if (strcmp(ref, "chokepoint")) {
		snprintf(err, n, "no level named '%s'", ref);
		return NULL;
	}
	buf = tu_read(FF_LEVELSDIR, "chokepoint.level", &len);
	ck_assert_int_eq(ff_textlevel_parse(buf, len, &l, &d), FF_OK);
	free(buf);
	return l;
}

static const char corridor[] =
	"fieldmarshal replay 1\n"
	"program fieldmarshal test\n"
	"level inline\n"
	"fieldmarshal level 1\n"
	"name corridor\n"
	"size 6 2\n"
	"grid\n"
	"......\n"
	"######\n"
	"end\n"
	"goal add cell 0,0\n"
	"paint 3,0 swamp\n"
	"solve\n"
	"expect phase done\n"
	"expect value 5,0 9\n"
	"expect value 2,0 2\n"
	"expect dir 5,0 W\n"
	"expect cost 3,0 5\n"
	"expect cost 3,1 wall\n"
	"expect value 4,1 unreachable\n"
	"paint 3,0 wall\n"
	"expect value 5,0 unreachable\n";

static ff_err run(const char *text, bool update, ff_replay_report *rep, ff_buf *out)
{
	ff_replay_opts o = {0};

	o.update = update;
	return ff_replay_run(text, strlen(text), load, &o, rep, out);
}

START_TEST(hand_worked_log_passes)
{
	ff_replay_report rep;

	ck_assert_msg(run(corridor, false, &rep, NULL) == FF_OK, "line %d:%d: %s", rep.line,
		      rep.col, rep.msg);
	ck_assert(rep.ok);
	ck_assert_int_eq(rep.commands, 4);
	ck_assert_int_eq(rep.checks, 8);
}
END_TEST

/* A level whose dynamic layer holds a door with a gap below it, read
 * inline, then the layer changed by commands; values worked by hand. */
static const char door[] =
	"fieldmarshal replay 1\n"
	"program fieldmarshal test\n"
	"level inline\n"
	"fieldmarshal level 1\n"
	"name door\n"
	"size 6 3\n"
	"dyn rect 3 0 1 2 wall\n"
	"grid\n"
	"......\n"
	"......\n"
	"......\n"
	"end\n"
	"goal add cell 0,0\n"
	"solve\n"
	"expect dyn 3,1 wall\n"
	"expect dyn 3,2 none\n"
	"expect cost 3,1 1\n"
	/* (0,0) SE SE to (2,2), E (3,2), E (4,2), NE (5,1), N (5,0) */
	"expect value 5,0 7.24264069\n"
	"dyn clear\n"
	"expect dyn 3,1 none\n"
	"expect value 5,0 5\n"
	"dyn rect 3,0 1,3 wall\n"
	"expect value 5,0 unreachable\n"
	"dyn rect 3,0 1,3 +10\n"
	"expect dyn 3,2 +10\n"
	"expect value 5,0 15\n";

START_TEST(dynamic_layer_replays)
{
	ff_replay_report rep;
	char bad[sizeof door + 8];

	ck_assert_msg(run(door, false, &rep, NULL) == FF_OK, "line %d:%d: %s", rep.line,
		      rep.col, rep.msg);
	ck_assert(rep.ok);
	ck_assert_int_eq(rep.checks, 9);
	strcpy(bad, door);
	*strstr(bad, "expect dyn 3,2 +10") = '\0';
	strcat(bad, "expect dyn 3,2 +11\n");
	ck_assert_int_ne(run(bad, false, &rep, NULL), FF_OK);
	ck_assert_str_eq(rep.msg, "expected dyn +11, got +10");
}
END_TEST

/* TEXT without its lines that begin with "dyn ", in a new string. */
static char *without_dyn_lines(const char *text)
{
	char *out = malloc(strlen(text) + 1), *o = out;

	ck_assert_ptr_nonnull(out);
	for (const char *p = text, *e; *p; p = e) {
		e = strchr(p, '\n');
		e = e ? e + 1 : p + strlen(p);
		if (strncmp(p, "dyn ", 4)) {
			memcpy(o, p, (size_t)(e - p));
			o += e - p;
		}
	}
	*o = '\0';
	return out;
}

/* The dynamic layer goes round a recording: a level holding one (laid
 * before the session began, so it can only travel in the level's text),
 * recorded before a run and then mid-run, replays to the same layer, as
 * worked by hand; the same recording without its 'dyn' lines fails. */
START_TEST(dynamic_layer_round_trips_through_a_recording)
{
	static const char expects[] =
		"expect dyn 2,1 +7\nexpect dyn 4,2 +7\nexpect dyn 5,2 none\n"
		"expect dyn 6,0 wall\nexpect dyn 6,1 none\nexpect dyn 0,0 none\n";
	ff_level *l = ff_level_create(8, 4, "t");
	ff_shape r = {FF_SHAPE_RECT, 2, 1, 3, 2, 0}, c = {FF_SHAPE_CELL, 6, 0, 0, 0, 0};
	ff_session s;
	ff_cmd_result res;
	ff_replay_report rep;

	ck_assert_int_eq(ff_level_dyn_set(l, &r, 7, NULL), FF_OK);
	ck_assert_int_eq(ff_level_dyn_set(l, &c, FF_WALL, NULL), FF_OK);
	ff_session_init(&s, l);
	ck_assert_int_eq(ff_session_keep_log(&s), FF_OK);
	for (int mid = 0; mid < 2; mid++) {
		ff_buf b = FF_BUF_INIT;
		char *text, *bare;

		ck_assert_int_eq(ff_cmd_exec(&s, mid ? "tick 5" : "goal add cell 0,0", &res), FF_OK);
		ck_assert_int_eq(ff_cmd_exec(&s, mid ? "tick 5" : "solve", &res), FF_OK);
		if (!mid)
			ck_assert_int_eq(ff_cmd_exec(&s, "sim add 7,3 3", &res), FF_OK);
		ck_assert_int_eq(ff_replay_record_begin(&b, &s, "test"), FF_OK);
		ff_buf_puts(&b, expects);
		text = ff_buf_take(&b, NULL);
		ck_assert_ptr_nonnull(strstr(text, "\ndyn rect 2 1 3 2 +7\n"));
		ck_assert_msg(run(text, false, &rep, NULL) == FF_OK && rep.ok, "line %d: %s\n%s",
			      rep.line, rep.msg, text);
		bare = without_dyn_lines(text);
		ck_assert_int_ne(run(bare, false, &rep, NULL), FF_OK);
		free(bare);
		free(text);
	}
	ff_session_fini(&s);
}
END_TEST

/* A recording begun mid-run starts with the session's history: an edit
 * that 'at' ran in a tick is in it once, as its 'at' line, so the replay
 * comes to the same state; one begun before the run writes the edits
 * still waiting.  (Logged twice, the edit would run at tick 0 too.) */
START_TEST(recordings_keep_scheduled_edits_once)
{
	ff_session s;
	ff_cmd_result r;
	ff_replay_report rep;
	ff_buf b = FF_BUF_INIT, c = FF_BUF_INIT;
	char *text;

	ff_session_init(&s, ff_level_create(12, 5, "t"));
	ck_assert_int_eq(ff_session_keep_log(&s), FF_OK);
	for (const char *const *l = (const char *const[]){"goal add rect 11,0 1,5", "solve",
		 "at 4 dyn rect 6,0 1,5 +30", "at 9 dyn rect 8,0 1,4 wall", NULL}; *l; l++)
		ck_assert_msg(ff_cmd_exec(&s, *l, &r) == FF_OK, "%s: %s", *l, r.msg);
	ck_assert_int_eq(ff_replay_record_begin(&c, &s, "test"), FF_OK);
	ck_assert_ptr_nonnull(strstr(c.data, "\nat 4 dyn rect 6,0 1,5 +30\n"
				     "at 9 dyn rect 8,0 1,4 wall\nexpect hash"));
	ck_assert_int_eq(ff_cmd_exec(&s, "sim add 1,2 5 1", &r), FF_OK);
	ck_assert_int_eq(ff_cmd_exec(&s, "tick 6", &r), FF_OK);
	ck_assert_int_eq(ff_level_dyn(s.level, 6, 2), 30);
	ck_assert_int_eq(ff_replay_record_begin(&b, &s, "test"), FF_OK);
	ck_assert_int_eq(ff_cmd_exec(&s, "tick 6", &r), FF_OK);
	ck_assert_int_eq(ff_replay_record_cmd(&b, &s, "tick 6"), FF_OK);
	text = ff_buf_take(&b, NULL);
	ck_assert_ptr_null(strstr(text, "\ndyn rect"));
	ck_assert_msg(run(text, false, &rep, NULL) == FF_OK && rep.ok, "line %d: %s\n%s",
		      rep.line, rep.msg, text);
	free(text);
	ff_buf_fini(&c);
	ff_session_fini(&s);
}
END_TEST

/* Changing any one expected value makes the replay fail at that line. */
START_TEST(altered_expectation_fails_at_its_line)
{
	static const struct { const char *from, *to; int line; const char *msg; } cases[] = {
		{"expect value 5,0 9\n", "expect value 5,0 9.5\n", 15, "expected value 9.5, got 9"},
		{"expect dir 5,0 W\n", "expect dir 5,0 E\n", 17, "expected dir E, got W"},
		{"expect phase done\n", "expect phase flow\n", 14, "expected phase flow, got done"},
		{"expect cost 3,1 wall\n", "expect cost 3,1 1\n", 19, "got wall"},
		{"expect value 4,1 unreachable\n", "expect value 4,1 0\n", 20, "got unreachable"},
		/* only values are compared as numbers, within 1e-6 */
		{"expect cost 3,0 5\n", "expect cost 3,0 5.000001\n", 18, "got 5"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[2048], *at;
		ff_replay_report rep;

		strcpy(text, corridor);
		at = strstr(text, cases[i].from);
		ck_assert_ptr_nonnull(at);
		memmove(at + strlen(cases[i].to), at + strlen(cases[i].from),
			strlen(at + strlen(cases[i].from)) + 1);
		memcpy(at, cases[i].to, strlen(cases[i].to));
		ck_assert_int_ne(run(text, false, &rep, NULL), FF_OK);
		ck_assert_msg(rep.line == cases[i].line && strstr(rep.msg, cases[i].msg),
			      "case %zu: line %d: %s", i, rep.line, rep.msg);
	}
}
END_TEST

START_TEST(update_fills_and_then_passes)
{
	const char *text = "fieldmarshal replay 1\nlevel chokepoint\nsolve\nexpect hash\n"
			   "expect value 10,15\npaint 40,15 wall\npaint 40,16 wall\n"
			   "expect value 10,15\nexpect hash 0\n";
	ff_replay_report rep;
	ff_buf out = FF_BUF_INIT;

	ck_assert_int_ne(run(text, false, &rep, NULL), FF_OK);
	ck_assert_int_eq(rep.line, 4);
	ck_assert(strstr(rep.msg, "missing expected value"));
	ck_assert_int_eq(run(text, true, &rep, &out), FF_OK);
	ck_assert(strstr(out.data, "\nexpect value 10,15 unreachable\n"));
	ck_assert_int_eq(run(out.data, false, &rep, NULL), FF_OK);
	ck_assert_int_eq(rep.checks, 4);
	ff_buf_fini(&out);
}
END_TEST

/* An update that stops at --until keeps the lines after it. */
START_TEST(update_until_keeps_the_rest)
{
	ff_replay_opts o = {0};
	ff_replay_report rep;
	ff_buf out = FF_BUF_INIT;

	o.update = true;
	o.until_line = 14;
	ck_assert_int_eq(ff_replay_run(corridor, strlen(corridor), load, &o, &rep, &out), FF_OK);
	ck_assert_int_eq(rep.checks, 1);
	ck_assert_str_eq(out.data, corridor);
	ff_buf_fini(&out);
}
END_TEST

/* A value (3 + 2 sqrt 2) may differ in the last digits; a grid row of an
 * inline level may read 'end'. */
START_TEST(values_within_1e6_and_rows_named_end)
{
	const char *text = "fieldmarshal replay 1\nlevel inline\nfieldmarshal level 1\n"
			   "name endy\nsize 3 2\nterrain e e 1\nterrain n n 2\nterrain d d 3\n"
			   "goal cell 0 1\ngrid\nend\nend\nend\nsolve\n"
			   "expect value 2,0 5.8284271247\nexpect cost 2,1 3\n";
	ff_replay_report rep;

	ck_assert_msg(run(text, false, &rep, NULL) == FF_OK, "line %d:%d: %s", rep.line,
		      rep.col, rep.msg);
	ck_assert_int_eq(rep.checks, 2);
}
END_TEST

/* A log recorded with a hash after every command pinpoints the first
 * command whose result differs. */
START_TEST(divergence_is_pinpointed)
{
	const char *rec = "fieldmarshal replay 1\nlevel chokepoint\n"
			  "solve\nexpect hash\npaint 5,5 swamp\nexpect hash\n"
			  "paint 6,6 wall\nexpect hash\npaint 7,7 mud\nexpect hash\n";
	ff_replay_report rep;
	ff_buf out = FF_BUF_INIT;
	char *edited, *at;

	ck_assert_int_eq(run(rec, true, &rep, &out), FF_OK);
	/* Behaviour "changes": the log now paints forest at 6,6. */
	edited = malloc(out.len + 1);
	memcpy(edited, out.data, out.len + 1);
	at = strstr(edited, "paint 6,6 wall");
	memcpy(at, "paint 6,6 13  ", 14);
	ck_assert_int_ne(run(edited, false, &rep, NULL), FF_OK);
	ck_assert_int_eq(rep.line, 8);
	ck_assert_int_eq(rep.good_line, 6);
	ck_assert_int_eq(rep.diverged_line, 7);
	free(edited);
	ff_buf_fini(&out);
}
END_TEST

static const struct { const char *text; int line, col; const char *msg; } bad[] = {
	{"", 1, 1, "empty file"},
	{"fieldmarshal replay 2\n", 1, 21, "unsupported replay format version"},
	{"hello\n", 1, 1, "expected 'fieldmarshal replay 1'"},
	{"fieldmarshal replay 1\n", 1, 1, "truncated: no 'level' line"},
	{"fieldmarshal replay 1\nsolve\n", 2, 1, "expected 'level NAME'"},
	{"fieldmarshal replay 1\nlevel gone\n", 2, 7, "no level named 'gone'"},
	{"fieldmarshal replay 1\nlevel \n", 2, 1, "expected 'level NAME'"},
	{"fieldmarshal replay 1\nlevel inline\nfieldmarshal level 1\nname x\n", 4, 1, "no 'end' line"},
	{"fieldmarshal replay 1\nlevel inline\nfieldmarshal level 1\nname x\nsize 2 1\ngrid\n.?\nend\n",
	 7, 2, "unknown glyph"},
	{"fieldmarshal replay 1\nlevel chokepoint\nfly 1,1\n", 3, 1, "unknown command 'fly'"},
	{"fieldmarshal replay 1\nlevel chokepoint\npaint 99999999,1 wall\n", 3, 7, "expected X,Y"},
	{"fieldmarshal replay 1\nlevel chokepoint\n  paint 70,1 wall\n", 3, 9, "outside"},
	{"fieldmarshal replay 1\nlevel chokepoint\nexpect weather 3\n", 3, 8, "unknown expectation"},
	{"fieldmarshal replay 1\nlevel chokepoint\nsolve\nexpect phase done\nexpect\n", 5, 8,
	 "expected 'expect KIND"},
	{"fieldmarshal replay 1\nlevel chokepoint\nexpect value 1,1 3\n", 3, 14, "no field"},
	{"fieldmarshal replay 1\nlevel chokepoint\nsolve\nexpect value 100,1 3\n", 4, 14, "outside"},
	/* past int range: refused, not wrapped to 1,1 */
	{"fieldmarshal replay 1\nlevel chokepoint\nsolve\nexpect value 4294967297,1 3\n", 4, 14,
	 "expected X,Y"},
};

START_TEST(malformed_logs)
{
	ff_replay_report rep;

	ck_assert_int_ne(run(bad[_i].text, false, &rep, NULL), FF_OK);
	ck_assert_msg(rep.line == bad[_i].line && rep.col == bad[_i].col &&
		      strstr(rep.msg, bad[_i].msg),
		      "case %d: got %d:%d: %s", _i, rep.line, rep.col, rep.msg);
}
END_TEST

/* A value expectation is 'unreachable' or a finite number.  'inf' once
 * passed for every finite value (|a - b| <= 1e-6 |b| holds for b = inf):
 * non-finite numbers are refused, and any mismatch fails, whichever side
 * is unreachable. */
START_TEST(non_finite_values_never_pass)
{
	static const struct { const char *line; const char *msg; } cases[] = {
		{"expect value 5,0 inf\n", "a finite number or 'unreachable'"},
		{"expect value 5,0 -inf\n", "a finite number or 'unreachable'"},
		{"expect value 5,0 infinity\n", "a finite number or 'unreachable'"},
		{"expect value 5,0 INF\n", "a finite number or 'unreachable'"},
		{"expect value 5,0 nan\n", "a finite number or 'unreachable'"},
		{"expect value 5,0 1e999\n", "a finite number or 'unreachable'"},
		{"expect value 4,1 inf\n", "a finite number or 'unreachable'"},
		{"expect value 5,0 unreachable\n", "expected value unreachable, got 9"},
		{"expect value 4,1 9\n", "expected value 9, got unreachable"},
		{"expect value 5,0 9x\n", "a finite number or 'unreachable'"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[2048];
		ff_replay_report rep;

		/* the corridor solved: 5,0 is 9, 4,1 is a wall (unreachable) */
		snprintf(text, sizeof text, "%.*s%s", (int)(strstr(corridor, "expect phase") - corridor),
			 corridor, cases[i].line);
		ck_assert_msg(run(text, false, &rep, NULL) != FF_OK, "case %zu passed", i);
		ck_assert_msg(rep.line == 14 && strstr(rep.msg, cases[i].msg),
			      "case %zu: line %d: %s", i, rep.line, rep.msg);
	}
}
END_TEST

/* A NUL byte ends the command it is in: refused where it stands, not run
 * as the words before it. */
START_TEST(nul_byte_refused)
{
	static const char text[] = "fieldmarshal replay 1\nlevel chokepoint\npaint 1,1 wall\0 junk\n";
	ff_replay_opts o = {0};
	ff_replay_report rep;

	ck_assert_int_ne(ff_replay_run(text, sizeof text - 1, load, &o, &rep, NULL), FF_OK);
	ck_assert_msg(rep.line == 3 && rep.col == 15 && strstr(rep.msg, "a NUL byte"),
		      "got %d:%d: %s", rep.line, rep.col, rep.msg);
	ck_assert_int_eq(rep.commands, 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("replay");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, hand_worked_log_passes);
	tcase_add_test(tc, dynamic_layer_replays);
	tcase_add_test(tc, dynamic_layer_round_trips_through_a_recording);
	tcase_add_test(tc, recordings_keep_scheduled_edits_once);
	tcase_add_test(tc, altered_expectation_fails_at_its_line);
	tcase_add_test(tc, update_fills_and_then_passes);
	tcase_add_test(tc, update_until_keeps_the_rest);
	tcase_add_test(tc, values_within_1e6_and_rows_named_end);
	tcase_add_test(tc, divergence_is_pinpointed);
	tcase_add_test(tc, non_finite_values_never_pass);
	tcase_add_test(tc, nul_byte_refused);
	tcase_add_loop_test(tc, malformed_logs, 0, (int)(sizeof bad / sizeof bad[0]));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
