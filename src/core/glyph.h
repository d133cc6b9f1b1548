/*
 * glyph.h - one meaning per glyph: the characters of every picture of a
 * level (the editor's grid and ':export', 'solve --show flow', 'sim
 * --frames'), so that the pictures cannot drift apart.  Each glyph has a
 * UTF-8 form and an ASCII one for terminals without Unicode; the ASCII
 * arrows tell all eight directions apart (a diagonal is the letter whose
 * bowl sits at the arrow's head: p NE, q NW, b SE, d SW).
 *
 * Terrain keeps its palette glyph; the marks below replace it in a
 * one-character cell, and views that can show the terrain underneath (the
 * editor's background colours) do.
 */
#ifndef FF_GLYPH_H
#define FF_GLYPH_H

#include <stdbool.h>

#include "level.h"

typedef enum ff_glyph_id {
	FF_GLYPH_GOAL,           /* a goal cell */
	FF_GLYPH_FRONTIER,       /* queued by a stepped solve, not yet settled */
	FF_GLYPH_LAST,           /* the cell a stepped solve settled last */
	FF_GLYPH_UNREACH,        /* passable, but no path to any goal */
	FF_GLYPH_AGENT,          /* one agent */
	FF_GLYPH_CROWD,          /* ten agents or more (2..9: the digit) */
	FF_GLYPH_DYN_WALL,       /* a temporary wall (the dynamic layer) */
	FF_GLYPH_PORTAL,         /* a portal of the hierarchical field */
	FF_GLYPH__COUNT
} ff_glyph_id;

/* The glyph of mark G. */
const char *ff_glyph(ff_glyph_id g, bool utf8);
/* What it means, for legends ("goal", "frontier (queued)", ...). */
const char *ff_glyph_meaning(ff_glyph_id g);
/* The flow arrow towards FF_DIR_* D ("" for FF_DIR_NONE). */
const char *ff_glyph_arrow(int d, bool utf8);
/* The came-from arrow towards D, the neighbour a cell's value came from:
 * double arrows in UTF-8; in ASCII the flow arrows' letters (views give
 * them their own colour and attribute). */
const char *ff_glyph_from(int d, bool utf8);
/* N agents in a cell: "o", "2".."9", or FF_GLYPH_CROWD; "" for none. */
const char *ff_glyph_agents(long n, bool utf8);
/* The agents of a cell that belong to several groups (ff_glyph_cell). */
#define FF_GLYPH_MIXED (-1)
/* The glyph of named group G's agents (1 .. FF_GROUPS_MAX - 1): a letter
 * no other mark uses ("a", "c", "e", ...); the default group's (0) is
 * FF_GLYPH_AGENT; "?" for a bad G. */
const char *ff_glyph_group(int g, bool utf8);
/* N agents in a cell, all of group G, or of several (G = FF_GLYPH_MIXED):
 * a named group's glyph whatever N (whose group shows, not how many);
 * the default group's, and a mixed cell's, ff_glyph_agents(N). */
const char *ff_glyph_cell(long n, int g, bool utf8);
/* A counting line running along (DX, DY) (not both 0; y grows
 * downwards): '|' near upright, '-' near level, else a diagonal, a
 * backslash or '/' (box-drawing lines in UTF-8). */
const char *ff_glyph_line(double dx, double dy, bool utf8);
/* The terrain glyph of terrain VALUE (a cost, or a wall kind:
 * ff_level_value()) in L's palette: '#' for a wall with none, '?' for a
 * cost with none. */
char ff_glyph_terrain(const ff_level *l, int value);

#endif
