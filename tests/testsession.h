/*
 * testsession.h - sessions for the suites that drive the command language:
 * a fresh W x H grass level in a heap session, a command that must
 * succeed, and one that must be refused.
 */
#ifndef FF_TESTSESSION_H
#define FF_TESTSESSION_H

#include <string.h>

#include "core/cmd.h"
#include "testutil.h"

static inline ff_session *ts_start(int w, int h)
{
	ff_session *s = malloc(sizeof *s);

	ck_assert_ptr_nonnull(s);
	ff_session_init(s, ff_level_create(w, h, "t"));
	ck_assert_ptr_nonnull(s->level);
	return s;
}

static inline void ts_stop(ff_session *s)
{
	ff_session_fini(s);
	free(s);
}

/* Runs LINE, failing the test with the command's message if it fails. */
static inline void ts_ok(ff_session *s, const char *line)
{
	ff_cmd_result r;
	ff_err err = ff_cmd_exec(s, line, &r);

	ck_assert_msg(err == FF_OK, "'%s' failed at col %d: %s", line, r.col, r.msg);
}

/* A command that must be refused: LINE fails with a message containing MSG
 * at column COL, and the level and the undo history stay as they were. */
struct ts_bad {
	const char *line;
	int col;
	const char *msg;
};

static inline void ts_refused(ff_session *s, const struct ts_bad *b)
{
	ff_level *before = ff_level_clone(s->level);
	int nundo = s->nundo;
	ff_cmd_result r;

	ck_assert_ptr_nonnull(before);
	ck_assert_int_ne(ff_cmd_exec(s, b->line, &r), FF_OK);
	ck_assert_msg(r.col == b->col && strstr(r.msg, b->msg), "'%s': got col %d: %s", b->line,
		      r.col, r.msg);
	ck_assert_msg(ff_level_equal(s->level, before), "'%s' changed the level", b->line);
	ck_assert_int_eq(s->nundo, nundo);
	ff_level_destroy(before);
}

#endif
