/*
 * testsession.h - sessions for the suites that drive the command language:
 * a fresh W x H grass level in a heap session, and a command that must
 * succeed.
 */
#ifndef FF_TESTSESSION_H
#define FF_TESTSESSION_H

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

#endif
