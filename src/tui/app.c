/*
 * app.c - the editor's loop: wait for input at most as long as the
 * controller allows (ff_ctl_wait_ms: nothing blocks a running simulation,
 * a sliced solve or a playing replay), hand events to the controller, give
 * it the time that passed (ff_ctl_idle), and repaint once what the
 * collected redraw masks name after the queued input is drained.
 */
#include <stdio.h>
#include <time.h>

#include "core/replay.h"
#include "draw.h"
#include "term.h"
#include "tui.h"

#define IDLE_MS 100       /* input timeout with nothing running */
#define BATCH 64          /* events handled before a repaint at most */

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static unsigned handle(ff_ctl *c, const ff_term_event *ev)
{
	int cols, rows;

	switch (ev->key) {
	case FF_KEY_NONE:
		return 0;
	case FF_KEY_RESIZE:
		ff_term_size(&cols, &rows);
		return ff_ctl_resize(c, cols, rows);
	case FF_KEY_MOUSE:
		return ff_ctl_mouse(c, ev->mouse, ev->mx, ev->my, ev->button);
	default:
		return ff_ctl_key(c, ev->key);
	}
}

static void loop(ff_ctl *c, unsigned ui)
{
	ff_term_event ev;
	ff_draw d = {0};
	double last = now_ms(), t;

	while (!c->quit && !ff_term_hangup()) {
		if (ui) {
			ff_draw_screen(c, &d, ui);
			ui = 0;
		}
		ff_term_read(ff_ctl_wait_ms(c, IDLE_MS), &ev);
		ui |= handle(c, &ev);
		for (int i = 0; i < BATCH && ev.key != FF_KEY_NONE && !c->quit; i++) {
			ff_term_read(0, &ev);
			ui |= handle(c, &ev);
		}
		t = now_ms();
		ui |= ff_ctl_idle(c, t - last);
		last = t;
	}
	/* SIGTERM or SIGHUP: keep a recording rather than lose it */
	if (c->rec.on)
		ff_ctl_run(c, "record stop");
}

static bool open_term(ff_ctl *c, ff_session *s, const ff_ctl_hooks *hooks, char *err,
		      size_t size)
{
	ff_term_caps caps;
	int cols, rows;

	if (!ff_term_open(&caps, err, size))
		return false;
	ff_term_size(&cols, &rows);
	ff_ctl_init(c, s, hooks, cols, rows);
	c->view.utf8 = caps.utf8;
	c->view.mono = caps.colors == 0;
	if (!caps.mouse)
		snprintf(c->msg, sizeof c->msg, "no mouse here; every action has a key (? lists them)");
	return true;
}

int ff_tui_run(ff_session *s, const ff_ctl_hooks *hooks, char *err, size_t size)
{
	ff_ctl c;

	if (!open_term(&c, s, hooks, err, size))
		return -1;
	loop(&c, FF_UI_ALL);
	ff_term_close();
	ff_ctl_fini(&c);
	return ff_term_hangup();
}

int ff_tui_play(ff_replay_player *p, const char *name, char *err, size_t size)
{
	ff_ctl c;
	unsigned ui;

	if (!open_term(&c, ff_replay_player_session(p), NULL, err, size))
		return -1;
	ui = ff_ctl_play(&c, p, name);
	loop(&c, ui | FF_UI_ALL);
	ff_term_close();
	ff_ctl_fini(&c);
	return 0;
}
