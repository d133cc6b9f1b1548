/*
 * term.h - the terminal: the one module that calls newterm/endwin, installs
 * signal handlers and knows curses key codes.  It restores the terminal on
 * every exit path (a normal close, exit(), SIGINT/SIGTERM/SIGHUP turned into
 * events, and a last-resort handler for fatal signals).
 */
#ifndef FF_TUI_TERM_H
#define FF_TUI_TERM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ctl.h"

typedef struct ff_term_caps {
	int colors;              /* 256, 8, or 0 for monochrome (or NO_COLOR) */
	bool utf8;               /* the locale's codeset is UTF-8 */
	bool mouse;              /* mouse events are reported */
} ff_term_caps;

/* An input event: a key (keymap.h codes), or a mouse event when key is
 * FF_KEY_MOUSE, or FF_KEY_NONE on a timeout. */
typedef struct ff_term_event {
	int key;
	ff_mouse_kind mouse;
	int mx, my, button;
} ff_term_event;

/* Takes over the terminal on standard input and output.  False (with a
 * reason in ERR) when it is not a terminal or curses cannot start. */
bool ff_term_open(ff_term_caps *caps, char *err, size_t size);
/* For benchmarks: a COLS x ROWS screen of terminal type TYPE that writes
 * to OUT and reads IN (no terminal, no signal handlers). */
bool ff_term_open_file(const char *type, FILE *out, FILE *in, int cols, int rows,
		       ff_term_caps *caps);
/* Gives the terminal back; safe to call twice and from atexit. */
void ff_term_close(void);
/* Waits at most TIMEOUT_MS (negative: forever, 0: not at all) for input.
 * SIGINT arrives as the key C-c; SIGTERM and SIGHUP make ff_term_hangup()
 * true and return FF_KEY_NONE. */
void ff_term_read(int timeout_ms, ff_term_event *ev);
/* SIGTERM or SIGHUP once one arrived (the loop should end now), else 0. */
int ff_term_hangup(void);
/* The screen size. */
void ff_term_size(int *cols, int *rows);
/* The curses attributes for a cell look (view.h), as an attr_t. */
unsigned long ff_term_attr(int tier, int kind, int hue, bool cursor, bool selected);
/* Attributes of the status line and of error messages. */
unsigned long ff_term_status_attr(void);
unsigned long ff_term_error_attr(void);

#endif
