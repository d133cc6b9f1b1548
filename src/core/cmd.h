/*
 * cmd.h - the command language: every change to a session is a one-line
 * command (docs/commands.md).  The editor's keys, its ':' prompt, scripts
 * run by 'fieldmarshal run' and replays all go through ff_cmd_exec().
 *
 * A line is words separated by blanks; '#' starts a comment; coordinates are
 * written X,Y.  Errors give a 1-based column into the line and a message.
 */
#ifndef FF_CMD_H
#define FF_CMD_H

#include <stdbool.h>

#include "session.h"

/* What a command changed, so a view redraws only that. */
enum {
	FF_REDRAW_CELLS = 1 << 0,   /* terrain costs */
	FF_REDRAW_META = 1 << 1,    /* goals, spawns, palette, name, params */
	FF_REDRAW_FIELD = 1 << 2,   /* solver fields */
	FF_REDRAW_AGENTS = 1 << 3,
	FF_REDRAW_STATUS = 1 << 4,
	FF_REDRAW_ALL = 0xff,
};

typedef struct ff_cmd_result {
	unsigned redraw;         /* FF_REDRAW_* mask */
	int col;                 /* error column, 1-based; 0 for none */
	char msg[200];           /* error text, or an informative message */
} ff_cmd_result;

typedef struct ff_cmd_info {
	const char *name;
	const char *args;        /* usage, e.g. "X,Y TERRAIN" */
	const char *summary;
} ff_cmd_info;

/* Executes one command LINE against S.  Blank and comment-only lines do
 * nothing and succeed.  On failure returns an error, fills RES->col/msg and
 * leaves the session unchanged. */
ff_err ff_cmd_exec(ff_session *s, const char *line, ff_cmd_result *res);
/* The command table, for help screens and docs: entry I, or NULL past the
 * end. */
const ff_cmd_info *ff_cmd_info_at(int i);
/* Reads "X,Y" at the start of S, each a whole number within +-2^24 (range
 * checks against a level are the caller's), and points *END past it; false
 * when S does not start so.  What may follow is the caller's to check. */
bool ff_cmd_read_xy(const char *s, int *x, int *y, const char **end);

#endif
