/*
 * replay_out.h - what running one replay log found, kept for the reports
 * other tools read: JSON (--json), TAP version 13 (--tap) and JUnit XML
 * (--junit FILE), beside the plain text 'replay' prints by default.
 *
 * An outcome holds the log's text and one check per 'expect' line: passed,
 * failed, or not run (a replay stops at its first failure).  Every report
 * describes a failure with the same words, ff_outcome_diag()'s.
 */
#ifndef FF_CLI_REPLAY_OUT_H
#define FF_CLI_REPLAY_OUT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "core/buf.h"
#include "core/replay.h"

typedef enum ff_check_state { FF_CHECK_PASS, FF_CHECK_FAIL, FF_CHECK_NOT_RUN } ff_check_state;

typedef struct ff_check {
	int line;                /* of the 'expect' line, 1-based */
	char actual[64];         /* the value found; "" when not run */
	ff_check_state state;
	double seconds;          /* running time since the previous check */
} ff_check;

typedef struct ff_outcome {
	const char *file;        /* as given: a path or a stored replay's name */
	char *text;              /* the log (owned); NULL when it was not read */
	size_t len;
	ff_replay_report rep;    /* rep.ok: every line ran and held */
	ff_check *checks;        /* in line order (owned) */
	int nchecks;
	double seconds;          /* the whole run */
} ff_outcome;

/* Frees what O owns; the struct stays. */
void ff_outcome_fini(ff_outcome *o);
/* Records a check that ran.  False when out of memory. */
bool ff_outcome_check(ff_outcome *o, int line, const char *actual, ff_check_state st,
		      double seconds);
/* After the run: records the failed 'expect' line, if the failure was one,
 * and every 'expect' line after the last line run as not run.  False when
 * out of memory. */
bool ff_outcome_finish(ff_outcome *o);
/* Line N of the log without its line end, into *LEN; "" past the end. */
const char *ff_outcome_line(const ff_outcome *o, int n, int *len);
/* The failure in words, one line or two: "FILE:LINE:COL: MESSAGE" and,
 * when an expected hash failed, where the state first diverged
 * ("FILE:LINE: the state first diverged here (...): COMMAND").  Appended
 * to B; nothing when O passed. */
void ff_outcome_diag(const ff_outcome *o, ff_buf *b);
/* O as a JSON object (docs/json.md); NULL when out of memory. */
json_t *ff_outcome_json(const ff_outcome *o);

/* TAP version 13: prints O's test points, numbered from N + 1 (one per
 * 'expect' line, then one for the replay as a whole), and returns the last
 * number.  The caller prints "TAP version 13" first and "1..N" last. */
int ff_outcome_tap(const ff_outcome *o, int n);

/* Writes the outcomes V[0..N) to PATH as JUnit XML: a testsuite per
 * replay, a testcase per 'expect' line and one for the replay as a whole.
 * Prints why and returns false on failure. */
bool ff_outcome_junit(const char *path, const ff_outcome *v, int n);

#endif
