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
 *   write [FILE] (w) | w! | wq (x) | quit (q) | quit! (q!) | export FILE [ansi] (FILE.svg, .png: a picture)
 *   mode edit|sim | run [on|off] | speed +|-|N | sim-toggle funnel|separation
 *   record [FILE|db:NAME|stop] | split [dijkstra|fmm|fmm2] [8|4] | split off
 *   play [on|off] | play-next
 *
 * Time: the controller has no clock.  The loop asks ff_ctl_wait_ms() how
 * long it may wait for input and calls ff_ctl_idle() with the time that
 * passed; that runs the simulation's due ticks (each a fixed timestep of
 * the level's dt, so results never depend on the clock, only the pacing
 * does), the next slice of a long solve, and the next line of a replay.
 *
 * Recording: while recording, every core command that succeeded is
 * appended to a replay log (docs/formats.md) with the state hash after it;
 * ticks of the running simulation are gathered into one 'tick N' line.
 *
 * Invariants: the cursor is inside the level; the view origin keeps the
 * cursor on screen (when the screen is big enough) and never starts past
 * the level's far edge more than needed.
 */
#ifndef FF_TUI_CTL_H
#define FF_TUI_CTL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/buf.h"
#include "core/cmd.h"
#include "core/session.h"
#include "keymap.h"
#include "pic/pic.h"
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
	FF_LAYER_FROM = 1 << 6,      /* came-from arrows instead of flow arrows */
	FF_LAYER_UNREACH = 1 << 7,   /* 'x' on passable cells with no path */
	FF_LAYER_AGENTS = 1 << 8,    /* agents: 'o', '2'..'9', 'O' from ten */
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
	 * unless FORCE.  The hook clears S->modified when the level is now
	 * saved where the editor keeps it; a copy written elsewhere (or a .map
	 * that cannot hold goals and parameters) leaves it set. */
	int (*save)(void *ctx, ff_session *s, const char *target, bool force, char *msg,
		    size_t size);
	/* Writes LEN bytes of DATA to the file PATH. */
	int (*write)(void *ctx, const char *path, const char *data, size_t len,
		     char *msg, size_t size);
	/* Saves a replay log: TARGET is a file, or "db:NAME" for the
	 * database's replays table (replacing one of that name).  NULL: the
	 * editor writes files through WRITE and cannot reach a database. */
	int (*save_replay)(void *ctx, const char *target, const char *data, size_t len,
			   char *msg, size_t size);
	/* Draws S as a picture into PATH, SVG or PNG by its extension: FIELD
	 * is FF_PIC_COSTS, _INTEGRATION or _FLOW (pic/pic.h), the latter two
	 * with S's finished field.  NULL: the editor cannot draw. */
	int (*picture)(void *ctx, const ff_session *s, ff_pic_field field, const char *path,
		       char *msg, size_t size);
} ff_ctl_hooks;

/* Speeds of the simulation and of replay playback. */
#define FF_SPEED_MIN (-3)        /* 1/8 of real time */
#define FF_SPEED_MAX 6           /* 64 times real time */
/* Cells of a level above which 'solve' runs in slices between input polls. */
#define FF_SLICE_CELLS 200000L

struct ff_replay_player;

typedef struct ff_ctl {
	ff_session *s;           /* borrowed */
	ff_ctl_hooks hooks;
	ff_mode_id mode;
	int cols, rows;          /* screen size */
	int cx, cy;              /* cursor cell */
	int vx, vy;              /* cell at the grid's top-left corner */
	int zoom;                /* 0: one character per cell .. FF_ZOOM_MAX */
	unsigned layers;         /* FF_LAYER_* */
	int pen;                 /* pen terrain: a terrain value (core/level.h) */
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

	/* the simulation */
	bool in_sim;             /* SIM is the mode under a prompt or the help */
	bool running;            /* ticking in real time */
	int speed;               /* FF_SPEED_MIN..MAX: 2^speed times real time */
	double due_ms;           /* time gathered towards the next tick */
	unsigned short *occ;     /* agents per cell, w * h; owned */
	int occ_w, occ_h;
	long occ_agents;         /* agents counted into occ */

	/* a long solve in slices */
	bool solving;            /* 'solve' is running slice by slice */
	long slice_cells;        /* cells per slice (FF_SLICE_CELLS) */

	/* recording */
	bool recording;
	ff_buf rec;              /* the log so far */
	char rec_target[256];
	long rec_ticks;          /* running ticks not yet written */
	int rec_commands;
	bool rec_quit_warned;    /* a quit found it unsaved: q! drops it */

	/* split view: the right pane's own solver over the same level */
	bool split;
	ff_solver *solver2;      /* owned */
	int s2w, s2h;
	ff_solver_opts opts2;
	bool field2;             /* solver2 mirrors the session's field */

	/* replay playback (FF_MODE_PLAY) */
	struct ff_replay_player *player;  /* borrowed */
	bool playing;            /* advancing on its own */
	char play_name[256];
	int play_line;           /* the line shown last */
	bool play_done;
} ff_ctl;

/* --- lifecycle --------------------------------------------------------- */

/* Starts a controller on S (borrowed, must outlive it) for a COLS x ROWS
 * screen, cursor at the level's centre. */
void ff_ctl_init(ff_ctl *c, ff_session *s, const ff_ctl_hooks *hooks, int cols, int rows);
/* Frees what the controller owns (a recording not saved is lost; call
 * ff_ctl_run(c, "record stop") first to keep it). */
void ff_ctl_fini(ff_ctl *c);
/* Plays the replay P (borrowed; its session becomes the controller's) in
 * FF_MODE_PLAY, paused; NAME is shown in the message line. */
unsigned ff_ctl_play(ff_ctl *c, struct ff_replay_player *p, const char *name);

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
/* ELAPSED_MS passed since the last call: runs due ticks, a solve slice, a
 * replay line. */
unsigned ff_ctl_idle(ff_ctl *c, double elapsed_ms);
/* How long the loop may wait for input before calling ff_ctl_idle(): 0
 * while solving in slices, the time to the next tick while running, else
 * IDLE_MS. */
int ff_ctl_wait_ms(const ff_ctl *c, int idle_ms);
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
/* Milliseconds of real time per simulation tick at the current speed. */
double ff_ctl_tick_ms(const ff_ctl *c);
/* The solver shown in PANE (0 left/only, 1 right in split view), or NULL
 * when that pane has no field. */
const ff_solver *ff_ctl_pane_solver(const ff_ctl *c, int pane);
/* Its method and connectivity. */
const ff_solver_opts *ff_ctl_pane_opts(const ff_ctl *c, int pane);
/* Number of panes (1, or 2 in split view) and the screen column where
 * PANE starts. */
int ff_ctl_panes(const ff_ctl *c);
int ff_ctl_pane_x(const ff_ctl *c, int pane);
/* Agents in cell (X, Y) as last counted. */
int ff_ctl_agents_at(const ff_ctl *c, int x, int y);
/* Selection rectangle from the mark to the cursor (both included). */
void ff_ctl_selection(const ff_ctl *c, int *x0, int *y0, int *x1, int *y1);

#endif
