/*
 * ctl.h - the editor's controller: state plus key -> command -> session.
 * No curses here: term.c translates terminal input into the calls below and
 * draw.c paints a const ff_ctl, so tests drive the controller with synthetic
 * keys and no terminal.
 *
 * Every key runs the command text bound to it in the keymap (keymap.h),
 * after substituting the cursor and friends; the ':' prompt runs what is
 * typed.  A line is first looked up among the editor commands below (they
 * change only the view), otherwise it goes to ff_cmd_exec(), so every
 * change to the level is a core command and is undoable.
 *
 * Editor commands:
 *   move DX,DY | goto X,Y | page up|down|left|right | edge left|right|top|bottom
 *   center | zoom in|out|0|1|2 | layer NAME [on|off]
 *   pen TERRAIN|next|prev | brush N|+|- | dab [TERRAIN] | draw | goal-here
 *   mark | unmark | prompt [TEXT] | help | scroll N|page|-page | redraw
 *   write [FILE] (w) | w! | wq (x) | quit (q) | quit! (q!) | export FILE
 *
 * Invariants: the cursor is inside the level; the view origin keeps the
 * cursor on screen (when the screen is big enough) and never starts past
 * the level's far edge more than needed.
 */
#ifndef FF_TUI_CTL_H
#define FF_TUI_CTL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/cmd.h"
#include "core/session.h"
#include "keymap.h"
#include "prompt.h"

/* What an action changed on screen: the loop redraws only that. */
enum {
	FF_UI_GRID = 1 << 0,     /* grid cells */
	FF_UI_CURSOR = 1 << 1,   /* only the old and new cursor cells */
	FF_UI_STATUS = 1 << 2,   /* the status line */
	FF_UI_MSG = 1 << 3,      /* the message / prompt line */
	FF_UI_CLEAR = 1 << 4,    /* everything, from a cleared screen */
	FF_UI_ALL = 0x1f
};

/* Layers drawn over the grid, toggled independently. */
enum {
	FF_LAYER_COSTS = 1 << 0,     /* terrain costs in colour */
	FF_LAYER_NUMBERS = 1 << 1,   /* integration numbers (wide cells) */
	FF_LAYER_ARROWS = 1 << 2,    /* flow directions */
	FF_LAYER_FRONTIER = 1 << 3,  /* solver frontier and last settled cell */
	FF_LAYER_GOALS = 1 << 4,
	FF_LAYER_SPAWNS = 1 << 5,
};

/* Mouse events (ff_ctl_mouse). */
typedef enum ff_mouse_kind {
	FF_MOUSE_PRESS,          /* button down */
	FF_MOUSE_DRAG,           /* moved with a button down */
	FF_MOUSE_RELEASE,
	FF_MOUSE_WHEEL_UP,
	FF_MOUSE_WHEEL_DOWN
} ff_mouse_kind;

#define FF_ZOOM_MAX 2
#define FF_BRUSH_MAX 20
#define FF_MIN_COLS 80
#define FF_MIN_ROWS 24

/* What the controller cannot do without the outside world; the editor
 * program (cli/cmd_edit.c) supplies them, tests supply fakes.  Each fills
 * MSG (SIZE bytes) with a one-line result or reason. */
typedef struct ff_ctl_hooks {
	void *ctx;
	/* Saves the session's level: to where it came from when TARGET is
	 * NULL, else to TARGET (a file, or a level name once levels live in a
	 * database).  FF_E_CONFLICT when someone else changed it meanwhile,
	 * unless FORCE. */
	int (*save)(void *ctx, ff_session *s, const char *target, bool force, char *msg,
		    size_t size);
	/* Writes LEN bytes of DATA to the file PATH. */
	int (*write)(void *ctx, const char *path, const char *data, size_t len,
		     char *msg, size_t size);
} ff_ctl_hooks;

typedef struct ff_ctl {
	ff_session *s;           /* borrowed */
	ff_ctl_hooks hooks;
	ff_mode_id mode;
	int cols, rows;          /* screen size */
	int cx, cy;              /* cursor cell */
	int vx, vy;              /* cell at the grid's top-left corner */
	int zoom;                /* 0: one character per cell .. FF_ZOOM_MAX */
	unsigned layers;         /* FF_LAYER_* */
	int pen;                 /* pen terrain: cost 1..254 or FF_WALL */
	int brush;               /* brush radius, 0 = one cell */
	bool drawing;            /* pen down: cursor moves paint */
	bool marked;             /* a mark is set (select mode) */
	int mx, my;              /* the mark */
	bool dragging;           /* mouse button held on the grid */
	int lx, ly;              /* last cell painted by the drag */
	bool utf8;               /* arrows as Unicode, else ASCII */
	ff_prompt prompt;
	int help_top;            /* first help line shown */
	char msg[256];           /* message line; empty for none */
	bool msg_error;
	bool quit;               /* the loop should end */
	ff_cmd_result last;      /* result of the last core command */
} ff_ctl;

/* --- lifecycle --------------------------------------------------------- */

/* Starts a controller on S (borrowed, must outlive it) for a COLS x ROWS
 * screen, cursor at the level's centre. */
void ff_ctl_init(ff_ctl *c, ff_session *s, const ff_ctl_hooks *hooks, int cols, int rows);

/* --- input: each returns the FF_UI_* mask of what to redraw ----------- */

/* One key press (keymap.h codes). */
unsigned ff_ctl_key(ff_ctl *c, int key);
/* A mouse event at screen cell (SX, SY); BUTTON is 1 left, 2 middle, 3 right. */
unsigned ff_ctl_mouse(ff_ctl *c, ff_mouse_kind kind, int sx, int sy, int button);
/* The screen is now COLS x ROWS. */
unsigned ff_ctl_resize(ff_ctl *c, int cols, int rows);
/* Runs one command LINE (editor or core), as the prompt does.  Errors go
 * to the message line with their column. */
unsigned ff_ctl_run(ff_ctl *c, const char *line);
/* Expands TEMPLATE's {placeholders} into OUT; false when it does not fit
 * or names an unknown placeholder. */
bool ff_ctl_expand(const ff_ctl *c, const char *tmpl, char *out, size_t size);

/* --- geometry and queries --------------------------------------------- */

/* True when the screen is smaller than FF_MIN_COLS x FF_MIN_ROWS. */
bool ff_ctl_too_small(const ff_ctl *c);
/* Screen columns per cell at zoom Z. */
int ff_ctl_cell_width(int zoom);
/* Cells across and down the grid area. */
int ff_ctl_view_w(const ff_ctl *c);
int ff_ctl_view_h(const ff_ctl *c);
/* The pen (or COST) as a command word: palette name, "wall", or the cost. */
void ff_ctl_terrain_word(const ff_ctl *c, int cost, char *buf, size_t size);
/* Selection rectangle from the mark to the cursor (both included). */
void ff_ctl_selection(const ff_ctl *c, int *x0, int *y0, int *x1, int *y1);

#endif
