/*
 * bench.c - the editor's figures for 'make bench': full redraw time of a
 * big view with integration numbers, and with a crowd and its layers
 * (agents, density, a counting line), and the bytes sent to the terminal
 * for one cursor move.  curses writes to a temporary file instead of a
 * terminal, so the byte counts are exactly what a terminal would receive.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "draw.h"
#include "term.h"
#include "tui.h"

/* Processor time: the machine may be shared, and the editor draws on one
 * thread. */
static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A SIDE x SIDE level with a few walls and a goal near the middle, solved. */
static ff_err setup(ff_session *s, int side, char *err, size_t size)
{
	char line[128];
	ff_cmd_result r;
	ff_level *l = ff_level_create(side, side, "bench");

	if (!l) {
		snprintf(err, size, "out of memory");
		return FF_E_NOMEM;
	}
	ff_session_init(s, l);
	for (int i = 1; i < 8; i++) {
		snprintf(line, sizeof line, "rect %d,%d %d,1 wall", side / 10, i * side / 9,
			 side / 2);
		ff_cmd_exec(s, line, &r);
	}
	snprintf(line, sizeof line, "goal add cell %d,%d", side / 2 + 3, side / 2 + 3);
	if (ff_cmd_exec(s, line, &r) || ff_cmd_exec(s, "solve", &r)) {
		snprintf(err, size, "%s", r.msg);
		return FF_E_STATE;
	}
	return FF_OK;
}

/* A crowd for the editor to draw: 2,000 agents around the middle of the
 * level, a tick run (the density the layer shows), a counting line
 * through them, and the density layer on. */
static ff_err crowd(ff_ctl *c, int side, char *err, size_t size)
{
	char line[128];

	snprintf(line, sizeof line, "sim add %d,%d 2000 %d", side / 2, side / 2, side / 8);
	ff_ctl_run(c, line);
	snprintf(line, sizeof line, "sim line %d,0 %d,%d", side / 2, side / 2, side);
	if (!c->msg_error)
		ff_ctl_run(c, line);
	if (!c->msg_error)
		ff_ctl_run(c, "tick 1");
	if (!c->msg_error)
		ff_ctl_run(c, "layer density on");
	if (c->msg_error) {
		snprintf(err, size, "%s", c->msg);
		return FF_E_STATE;
	}
	ff_ctl_run(c, "center");
	return FF_OK;
}

static long tell(FILE *f)
{
	fflush(f);
	return ftell(f);
}

int ff_tui_bench(int cols, int rows, int side, ff_tui_bench_result *out, char *err,
		 size_t size)
{
	enum { REDRAWS = 50, MOVES = 40 };
	ff_session *s = malloc(sizeof *s);
	FILE *tty = tmpfile(), *in = fopen("/dev/null", "r");
	ff_term_caps caps;
	ff_draw d = {0};
	ff_ctl c;
	double t0;
	long b0;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (!s || !tty || !in) {
		snprintf(err, size, "cannot set up the benchmark");
		goto done;
	}
	if (setup(s, side, err, size))
		goto done_session;
	if (!ff_term_open_file("xterm-256color", tty, in, cols, rows, &caps)) {
		snprintf(err, size, "cannot start curses for xterm-256color");
		goto done_session;
	}
	ff_ctl_init(&c, s, NULL, cols, rows);
	c.view.utf8 = true;
	ff_ctl_run(&c, "layer numbers on");
	ff_draw_screen(&c, &d, FF_UI_ALL);
	/* every redraw scrolls by one cell, so every cell changes */
	t0 = now_ms();
	for (int i = 0; i < REDRAWS; i++)
		ff_draw_screen(&c, &d, ff_ctl_run(&c, i % 2 ? "page up" : "page down"));
	out->redraw_ms = (now_ms() - t0) / REDRAWS;
	ff_ctl_run(&c, "center");
	ff_draw_screen(&c, &d, FF_UI_ALL);
	b0 = tell(tty);
	for (int i = 0; i < MOVES; i++)
		ff_draw_screen(&c, &d, ff_ctl_key(&c, i % 2 ? 'h' : 'l'));
	out->move_bytes = (double)(tell(tty) - b0) / MOVES;
	b0 = tell(tty);
	ff_draw_screen(&c, &d, ff_ctl_run(&c, "page down"));
	out->scroll_bytes = (double)(tell(tty) - b0);
	/* one character per cell, numbers off: the everyday editing view */
	ff_ctl_run(&c, "layer numbers off");
	ff_draw_screen(&c, &d, ff_ctl_run(&c, "zoom 0"));
	b0 = tell(tty);
	for (int i = 0; i < MOVES; i++)
		ff_draw_screen(&c, &d, ff_ctl_key(&c, i % 2 ? 'h' : 'l'));
	out->move_bytes_narrow = (double)(tell(tty) - b0) / MOVES;
	if (crowd(&c, side, err, size))
		goto done_term;
	ff_draw_screen(&c, &d, FF_UI_ALL);
	t0 = now_ms();
	for (int i = 0; i < REDRAWS; i++)
		ff_draw_screen(&c, &d, ff_ctl_run(&c, i % 2 ? "page up" : "page down"));
	out->crowd_redraw_ms = (now_ms() - t0) / REDRAWS;
	rc = 0;
done_term:
	ff_term_close();
	ff_ctl_fini(&c);
done_session:
	ff_session_fini(s);
done:
	free(s);
	if (tty)
		fclose(tty);
	if (in)
		fclose(in);
	return rc;
}
