/*
 * app.c - the editor's loop: read an event (with a timeout, so nothing
 * blocks), hand it to the controller, and repaint once what the collected
 * redraw masks name after the queued input is drained.
 */
#include <stdio.h>

#include "draw.h"
#include "term.h"
#include "tui.h"

#define TICK_MS 100       /* input timeout: the loop wakes this often */
#define BATCH 64          /* events handled before a repaint at most */

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

int ff_tui_run(ff_session *s, const ff_ctl_hooks *hooks, char *err, size_t size)
{
	ff_term_caps caps;
	ff_term_event ev;
	ff_draw d = {0};
	ff_ctl c;
	unsigned ui = FF_UI_ALL;
	int cols, rows;

	if (!ff_term_open(&caps, err, size))
		return -1;
	ff_term_size(&cols, &rows);
	ff_ctl_init(&c, s, hooks, cols, rows);
	c.utf8 = caps.utf8;
	if (!caps.mouse)
		snprintf(c.msg, sizeof c.msg, "no mouse here; every action has a key (? lists them)");
	while (!c.quit && !ff_term_hangup()) {
		if (ui) {
			ff_draw_screen(&c, &d, ui);
			ui = 0;
		}
		ff_term_read(TICK_MS, &ev);
		ui |= handle(&c, &ev);
		for (int i = 0; i < BATCH && ev.key != FF_KEY_NONE && !c.quit; i++) {
			ff_term_read(0, &ev);
			ui |= handle(&c, &ev);
		}
	}
	ff_term_close();
	return 0;
}
