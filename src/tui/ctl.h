/*
 * ctl.h - the editor's controller: state plus key -> command -> session.
 * No curses here: term.c translates terminal input into the calls below and
 * draw.c paints a const ff_ctl, so tests drive the controller with synthetic
 * keys and no terminal.
 *
 * Every key runs the command text bound to it in the keymap (keymap.h),
 * after substituting the cursor and friends; the ':' prompt runs what is
 * typed.  A line is first looked up among the editor commands (one table,
 * ctl_cmd.c, which also drives the help and the prompt's completion; they
 * change only the editor), otherwise it goes to ff_cmd_exec(), so every
 * change to the level is a core command and is undoable.
 *
 * The state is split by concern: what the view shows (ff_ctl_view), the
 * pen, the help, the simulation's pacing, a sliced solve, a recording, the
 * split view and a replay's playback each have their own struct and file.
 *
 * Time: the controller has no clock.  The loop asks ff_ctl_wait_ms() how
 * long it may wait for input and calls ff_ctl_idle() with the time that
 * passed; that runs the simulation's due ticks (each a fixed timestep of
 * the level's dt, so results never depend on the clock, only the pacing
 * does), the next slice of a long solve, and the next line of a replay.
 *
 * Recording: while recording, every core command that succeeded is
 * appended to a replay log (docs/formats.md) with the state hash after it,
 * and every view command as a 'view' line; ticks of the running
 * simulation are gathered into one 'tick N' line.
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
	FF_LAYER_AGENTS = 1 << 8,    /* agents: 'o', '2'..'9', 'O' from ten, a
					named group's letter, in its colour */
	FF_LAYER_DYN = 1 << 9,       /* the dynamic layer: temporary walls as
					their glyph, offsets in the cost colours */
	FF_LAYER_DENSITY = 1 << 10,  /* the crowd's density: heat colours
					instead of the costs', digits in
					monochrome */
	FF_LAYER_SPEED = 1 << 11,    /* agents coloured by their speed, not
					their group */
	FF_LAYER_GROUP = 1 << 12,    /* the selected group's field instead of
					the solved one (arrows, numbers) */
	FF_LAYER_LINES = 1 << 13,    /* the crowd's counting lines */
	FF_LAYER_SIGHT = 1 << 14,    /* line of sight: the arrows of cells that
					see their goal (or exit) in their colour */
	FF_LAYER_SECTORS = 1 << 15,  /* the hierarchy: its portals, and its
					sectors' first row and column */
};
/* The layers a new editor shows. */
#define FF_LAYERS_DEFAULT (FF_LAYER_COSTS | FF_LAYER_ARROWS | FF_LAYER_FRONTIER | \
			   FF_LAYER_GOALS | FF_LAYER_SPAWNS | FF_LAYER_UNREACH | FF_LAYER_AGENTS | \
			   FF_LAYER_DYN | FF_LAYER_LINES)

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

/* What the prompt's Tab completes from the outside world (hooks.list). */
typedef enum ff_list_kind {
	FF_LIST_FILES,           /* file names starting with the prefix */
	FF_LIST_LEVELS,          /* levels stored in the database */
	FF_LIST_REPLAYS          /* replays stored in the database */
} ff_list_kind;

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
	/* Loads the level again from where it came (the file, or the stored
	 * level's latest revision), dropping the session's changes: the
	 * session is started again on it.  NULL: the editor cannot. */
	int (*reload)(void *ctx, ff_session *s, char *msg, size_t size);
	/* Calls ADD(ARG, WORD) for each name of KIND starting with PREFIX (at
	 * most a few hundred).  NULL: nothing to complete. */
	void (*list)(void *ctx, ff_list_kind kind, const char *prefix,
		     void (*add)(void *arg, const char *word), void *arg);
} ff_ctl_hooks;

/* Speeds of the simulation and of replay playback. */
#define FF_SPEED_MIN (-3)        /* 1/8 of real time */
#define FF_SPEED_MAX 6           /* 64 times real time */
/* Cells of a level above which 'solve' runs in slices between input polls. */
#define FF_SLICE_CELLS 200000L

struct ff_replay_player;

/* What the grid shows, and where (ctl_view.c). */
typedef struct ff_ctl_view {
	int cx, cy;              /* cursor cell */
	int vx, vy;              /* cell at each pane's top-left corner */
	int zoom;                /* 0: one character per cell .. FF_ZOOM_MAX */
	unsigned layers;         /* FF_LAYER_* */
	bool utf8;               /* glyphs in Unicode, else ASCII */
	bool mono;               /* no colours: the density layer writes digits */
	int group;               /* the selected group (ff_ctl_group) */
} ff_ctl_view;

/* Painting (ctl_edit.c). */
typedef struct ff_ctl_pen {
	int cost;                /* pen terrain: a terrain value (core/level.h) */
	int brush;               /* brush radius, 0 = one cell */
	int dyn;                 /* what 'ddab' lays on the dynamic layer: an
				    offset 1..254 or FF_WALL (core/level_dyn.h) */
	bool drawing;            /* pen down: cursor moves paint */
	bool marked;             /* a mark is set (select mode) */
	int mx, my;              /* the mark */
	bool dragging;           /* mouse button held on the grid */
	int lx, ly;              /* last cell painted by the drag */
} ff_ctl_pen;

/* The help screen (ctl_prompt.c, view_help.c). */
typedef struct ff_ctl_help {
	int top;                 /* first help line shown */
	char find[64];           /* what '/' looked for last */
} ff_ctl_help;

/* The agents of a cell, as last counted (ctl_sim.c). */
typedef struct ff_ctl_cell {
	unsigned short n;        /* how many (at most 0xffff) */
	signed char group;       /* their group, or FF_GLYPH_MIXED */
	unsigned char pct;       /* the slowest one's speed in percent of the
				    free speed (255: that or more) */
} ff_ctl_cell;

/* The simulation in real time, and the agents counted per cell for
 * drawing (ctl_sim.c). */
typedef struct ff_ctl_sim {
	bool in_sim;             /* SIM is the mode under a prompt or the help */
	bool running;            /* ticking in real time */
	int speed;               /* FF_SPEED_MIN..MAX: 2^speed times real time
				    (also the pace of playback) */
	double due_ms;           /* time gathered towards the next tick */
	ff_ctl_cell *occ;        /* the agents of each cell, w * h; owned */
	int occ_w, occ_h;
	long occ_agents;         /* agents counted into occ */
	long alive[FF_GROUPS_MAX]; /* of them, not arrived, per group */
} ff_ctl_sim;

/* A long solve in slices (ctl_slice.c). */
typedef struct ff_ctl_slice {
	bool solving;            /* 'solve' is running slice by slice */
	long cells;              /* cells per slice (FF_SLICE_CELLS) */
} ff_ctl_slice;

/* A recording (ctl_rec.c). */
typedef struct ff_ctl_rec {
	bool on;
	ff_buf log;              /* the log so far */
	char target[256];
	long ticks;              /* running ticks not yet written */
	int commands;
	bool quit_warned;        /* a quit found it unsaved: q! drops it */
} ff_ctl_rec;

/* The split view: a second pane with its own solver over the same level
 * (ctl_split.c). */
typedef struct ff_ctl_split {
	bool on;
	ff_solver *solver;       /* owned */
	int w, h;                /* the size it was made for */
	ff_solver_opts opts;
	bool field;              /* it mirrors the session's field */
} ff_ctl_split;

/* A replay playing back (FF_MODE_PLAY, ctl_play.c). */
typedef struct ff_ctl_playback {
	struct ff_replay_player *player;  /* borrowed */
	bool playing;            /* advancing on its own */
	char name[256];
	int line;                /* the line shown last */
	bool done;
} ff_ctl_playback;

typedef struct ff_ctl {
	ff_session *s;           /* borrowed */
	ff_ctl_hooks hooks;
	ff_mode_id mode;
	ff_mode_id prompt_from;  /* the mode a prompt returns to (HELP or a grid mode) */
	int cols, rows;          /* screen size */
	int pending;             /* the first key of a two-key binding, or 0 */
	char msg[256];           /* message line; empty for none */
	bool msg_error;
	bool quit;               /* the loop should end */
	ff_cmd_result last;      /* result of the last core command */
	ff_prompt prompt;
	ff_ctl_view view;
	ff_ctl_pen pen;
	ff_ctl_help help;
	ff_ctl_sim sim;
	ff_ctl_slice slice;
	ff_ctl_rec rec;
	ff_ctl_split split;
	ff_ctl_playback play;
} ff_ctl;

/* --- lifecycle --------------------------------------------------------- */

/* Starts a controller on S (borrowed, must outlive it) for a COLS x ROWS
 * screen, cursor at the level's centre.  S's history is kept from here on
 * (ff_session_keep_log), so a recording can start in any state. */
void ff_ctl_init(ff_ctl *c, ff_session *s, const ff_ctl_hooks *hooks, int cols, int rows);
/* Frees what the controller owns (a recording not saved is lost; call
 * ff_ctl_run(c, "record stop") first to keep it). */
void ff_ctl_fini(ff_ctl *c);
/* Plays the replay P (borrowed; its session becomes the controller's) in
 * FF_MODE_PLAY, paused after its setup (the lines before 'begin', run at
 * once); NAME is shown in the message line. */
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

/* --- geometry and queries (ctl_view.c) -------------------------------- */

/* True when the screen is smaller than FF_MIN_COLS x FF_MIN_ROWS. */
bool ff_ctl_too_small(const ff_ctl *c);
/* Screen columns per cell at zoom Z. */
int ff_ctl_cell_width(int zoom);
/* Cells across and down each pane. */
int ff_ctl_view_w(const ff_ctl *c);
int ff_ctl_view_h(const ff_ctl *c);
/* Number of panes (1, or 2 in split view); whether they are stacked (one
 * above the other, when the level's height fits twice) or side by side;
 * and the screen column and row where PANE's grid starts.  In split view
 * each pane has a label row above its grid (ff_view_pane_label). */
int ff_ctl_panes(const ff_ctl *c);
bool ff_ctl_stacked(const ff_ctl *c);
int ff_ctl_pane_x(const ff_ctl *c, int pane);
int ff_ctl_pane_y(const ff_ctl *c, int pane);
/* The pen (or COST) as a command word: palette name, "wall", or the cost. */
void ff_ctl_terrain_word(const ff_ctl *c, int cost, char *buf, size_t size);
/* Milliseconds of real time per simulation tick at the current speed. */
double ff_ctl_tick_ms(const ff_ctl *c);
/* The solver shown in PANE (0 left/top or only, 1 the other in split
 * view), or NULL when that pane has no field. */
const ff_solver *ff_ctl_pane_solver(const ff_ctl *c, int pane);
/* Its method and connectivity. */
const ff_solver_opts *ff_ctl_pane_opts(const ff_ctl *c, int pane);
/* Agents in cell (X, Y) as last counted. */
int ff_ctl_agents_at(const ff_ctl *c, int x, int y);
/* The agents of cell (X, Y) as last counted, or NULL when it has none. */
const ff_ctl_cell *ff_ctl_cell_at(const ff_ctl *c, int x, int y);
/* The selected group: an index into the level's groups (0 the default;
 * 0 too when the one selected is gone, undone). */
int ff_ctl_group(const ff_ctl *c);
/* Selection rectangle from the mark to the cursor (both included). */
void ff_ctl_selection(const ff_ctl *c, int *x0, int *y0, int *x1, int *y1);

#endif
