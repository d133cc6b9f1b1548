/*
 * view.h - what the editor shows, as text and abstract styles, computed
 * from a const controller: each grid cell's characters and style, the pane
 * labels, the status and message lines (view_status.c), the help screen
 * generated from the keymap and the command tables (view_help.c), and a
 * plain-text export of the screen.  No curses: draw.c maps styles to
 * attributes, and tests and ':export' read the same text.
 *
 * A cell's glyph comes from core/glyph.h (one meaning per glyph); its
 * terrain stays visible under every mark: the terrain's cost tier is the
 * background colour (in monochrome an attribute) and a mark only sets the
 * foreground.  The cursor and the selection are reverse-video cells, seen
 * on a projector.
 */
#ifndef FF_TUI_VIEW_H
#define FF_TUI_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "ctl.h"

/* The density layer's steps: whole agents per square metre, 0 .. 9 (the
 * last for nine or more), a heat colour each (ff_view_density_step). */
#define FF_DENSITY_STEPS 10
/* The speed layer's steps: fifths of the free speed (ff_view_speed_step). */
#define FF_SPEED_STEPS 5

/* Background tiers: 0 is uncoloured, then the costs cheap to expensive,
 * then wall, then the density layer's heat, one per step. */
enum {
	FF_TIER_NONE, FF_TIER_WALL = 8, FF_TIER_HEAT = 9,
	FF_TIERS = FF_TIER_HEAT + FF_DENSITY_STEPS
};

/* Foregrounds other than a kind's own (ff_cell_look.hue): agents by
 * group (1 .. FF_GROUPS_MAX - 1 is named group G's colour), of several
 * groups in a cell, or by speed. */
enum {
	FF_HUE_NONE = 0,
	FF_HUE_MIXED = FF_GROUPS_MAX,
	FF_HUE_SPEED,                    /* + step */
	FF_HUES = FF_HUE_SPEED + FF_SPEED_STEPS
};

/* What a cell shows besides its terrain. */
typedef enum ff_look_kind {
	FF_LOOK_PLAIN,
	FF_LOOK_GOAL,
	FF_LOOK_SPAWN,
	FF_LOOK_FRONTIER,        /* queued, not yet settled */
	FF_LOOK_LAST,            /* the cell settled last */
	FF_LOOK_UNREACH,         /* no path to any goal */
	FF_LOOK_ARROW,           /* a flow arrow is shown */
	FF_LOOK_AGENT,           /* agents in the cell */
	FF_LOOK_FROM,            /* a came-from arrow is shown */
	FF_LOOK_DYN,             /* a temporary wall of the dynamic layer */
	FF_LOOK_LINE,            /* a counting line of the crowd */
	FF_LOOK_DENSITY,         /* the density as a digit (monochrome) */
	FF_LOOK_SIGHT,           /* the arrow of a cell with line of sight */
	FF_LOOK_PORTAL,          /* a portal of the hierarchy */
	FF_LOOK_SECTOR,          /* a cell of a sector's first row or column */
	FF_LOOK__COUNT
} ff_look_kind;

typedef struct ff_cell_look {
	char text[40];           /* UTF-8, exactly ff_ctl_cell_width() columns */
	unsigned char tier;      /* FF_TIER_* or 1..7, or a heat tier */
	unsigned char kind;      /* ff_look_kind */
	unsigned char hue;       /* FF_HUE_* */
	bool selected;           /* inside the mark-to-cursor rectangle */
	bool cursor;
} ff_cell_look;

/* Attribute bits (ff_view_attrs). */
enum {
	FF_ATTR_BOLD = 1, FF_ATTR_REVERSE = 2, FF_ATTR_UNDERLINE = 4, FF_ATTR_DIM = 8,
	FF_ATTR_ITALIC = 16
};

/* The look of level cell (X, Y), which must be inside the level, in the
 * first (or only) pane; ff_view_cell_pane for PANE 1 of the split view. */
void ff_view_cell(const ff_ctl *c, int x, int y, ff_cell_look *out);
void ff_view_cell_pane(const ff_ctl *c, int pane, int x, int y, ff_cell_look *out);
/* The terminal colours of a look: 256-colour indexes when C256, else the
 * 8 ANSI colours; -1 is the terminal's default.  The background is the
 * tier's, whatever the kind; the foreground the kind's, or HUE's. */
void ff_view_colors(int tier, int kind, int hue, bool c256, short *fg, short *bg);
/* Its FF_ATTR_* bits with colour (COLOR) or in monochrome, where terrain,
 * goals and every mark must still stand out; CURSOR and SELECTED add
 * reverse video. */
unsigned ff_view_attrs(int tier, int kind, bool color, bool cursor, bool selected);
/* The crowd on the grid (view_crowd.c).  The step of density RHO
 * (agents per m^2): its whole part, 9 for nine or more; -1 for none. */
int ff_view_density_step(double rho);
/* The step of a speed of PCT percent of the free speed: fifths, 0 (under
 * 20%) .. 4 (80% or more). */
int ff_view_speed_step(int pct);
/* What layer LAYER (FF_LAYER_DENSITY or FF_LAYER_SPEED) shows, as the
 * editor draws it (in colour, or not): one line for a legend; "" for
 * other layers. */
void ff_view_legend(const ff_ctl *c, unsigned layer, char *buf, size_t size);
/* The crowd's counting lines with what they counted ("line 1: 12 across,
 * 1.85/s"), or "" when it has none. */
void ff_view_lines(const ff_ctl *c, char *buf, size_t size);
/* The one-character mark of the crowd at (X, Y): the density digit in
 * monochrome, the agents (their glyph, and hue by group or speed); NULL
 * when neither shows there. */
const char *ff_view_crowd_mark(const ff_ctl *c, int x, int y, unsigned char *kind,
			       unsigned char *hue);
/* The glyph of a counting line of the crowd through (X, Y) with the lines
 * layer shown (below goals: a goal on a line stays in view), or NULL. */
const char *ff_view_line_mark(const ff_ctl *c, int x, int y);
/* The heat tier of (X, Y) with the density layer shown in colour, else
 * -1 (the cost colours stay). */
int ff_view_heat_tier(const ff_ctl *c, int x, int y);
/* The neighbour (FF_DIR_*) solver SV computed (X, Y)'s value from
 * (ff_solver_sources: Dijkstra's cheapest step, Fast Marching's lower
 * upwind neighbour), or -1 (goals, unsettled, walls). */
int ff_view_came_from(const ff_solver *sv, int x, int y);
/* The cost tier of COST. */
int ff_view_tier(int cost);
/* PANE's label in split view: its method and phase ("fmm integrate"). */
void ff_view_pane_label(const ff_ctl *c, int pane, char *buf, size_t size);
/* The status line, fields dropped by priority until it fits the screen:
 * mode, cursor cell, value, phase(s) (but a finished one under a counted
 * crowd) and step count always stay. */
void ff_view_status(const ff_ctl *c, char *buf, size_t size);
/* The message line: the prompt while typing, else the message, else
 * what the crowd's counting lines counted (ff_view_lines). */
void ff_view_message(const ff_ctl *c, char *buf, size_t size);
/* True when the help is on screen (under the prompt, too). */
bool ff_view_shows_help(const ff_ctl *c);
/* The help screen, generated from the keymap and command tables for the
 * screen's width: its line count, and line I. */
int ff_view_help_lines(const ff_ctl *c);
void ff_view_help_line(const ff_ctl *c, int i, char *buf, size_t size);
/* All of it, a line each ending in '\n', their count in *N; caller frees
 * with free().  NULL when out of memory. */
char *ff_view_help(const ff_ctl *c, int *n);
/* The screen's grid (labels and panes as laid out) and the status line as
 * text, one line per row: plain, or with ANSI colour and attribute
 * sequences when ANSI; caller frees with free().  NULL when out of memory. */
char *ff_view_export(const ff_ctl *c, bool ansi, size_t *len);

#endif
