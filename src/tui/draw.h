/*
 * draw.h - paints a const controller onto the curses screen.  Only the
 * parts named by the FF_UI_* mask are repainted, and a call ends with one
 * doupdate(), so curses sends the terminal only what changed.
 */
#ifndef FF_TUI_DRAW_H
#define FF_TUI_DRAW_H

#include <stdbool.h>

#include "ctl.h"

/* What the last paint showed, so a cursor move repaints two cells. */
typedef struct ff_draw {
	bool valid;
	int cx, cy, vx, vy, zoom;
	bool split;
	bool two;                /* the message took two lines (and the status
				  * line the grid's last row) */
	bool help;               /* the help was on screen */
} ff_draw;

/* Repaints the parts of the screen in UI (FF_UI_*). */
void ff_draw_screen(const ff_ctl *c, ff_draw *d, unsigned ui);

#endif
