/*
 * tui.h - the curses editor, as the program's 'edit' subcommand uses it.
 */
#ifndef FF_TUI_H
#define FF_TUI_H

#include <stddef.h>

#include "core/session.h"
#include "tui/ctl.h"

/* Runs the editor on S (borrowed) until the user quits, saving and writing
 * through HOOKS.  Returns 0; the signal (SIGTERM, SIGHUP) that ended it,
 * S then perhaps still modified; or -1 with a reason in ERR when the
 * terminal cannot be used.  The terminal is restored either way. */
int ff_tui_run(ff_session *s, const ff_ctl_hooks *hooks, char *err, size_t size);
/* Plays the replay P (borrowed) in the editor, paused at its first line,
 * until the user quits (Space plays, '.' runs one line, q quits); NAME is
 * shown with the line numbers.  Returns 0, or -1 with a reason in ERR. */
struct ff_replay_player;
int ff_tui_play(struct ff_replay_player *p, const char *name, char *err, size_t size);

/* Benchmark figures for 'make bench' (no terminal needed: curses writes to
 * a temporary file): the time to redraw a COLS x ROWS view of a solved
 * SIDE x SIDE level with integration numbers, and the bytes written to the
 * terminal for moving the cursor one cell.  Returns 0, or -1 with a reason
 * in ERR. */
typedef struct ff_tui_bench_result {
	double redraw_ms;        /* mean full redraw, numbers shown */
	double move_bytes;       /* mean bytes per one-cell cursor move */
	double move_bytes_narrow;/* the same with one character per cell */
	double scroll_bytes;     /* bytes for a move that scrolls the view */
	double crowd_redraw_ms;  /* mean full redraw, one character per cell,
				    over 2,000 agents with the density layer
				    and a counting line */
} ff_tui_bench_result;
int ff_tui_bench(int cols, int rows, int side, ff_tui_bench_result *out,
		 char *err, size_t size);

#endif
