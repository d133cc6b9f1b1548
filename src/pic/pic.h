/*
 * pic.h - pictures of a level and its fields: SVG (libxml2 writes it) and
 * PNG (libpng), for 'show', 'solve' and the editor's ':export'.
 *
 * A picture shows one field over the level: its costs, its integration
 * values (a heat map) or its flow (costs with an arrow per cell).  Every
 * colour comes from this module's palette, readable on a light background
 * and safe for colour-blind readers: the heat map is viridis from yellow
 * (low) down to blue (high), whose lightness falls steadily, so it reads
 * in grey too; goals, spawns and unreachable cells take colours of the
 * Okabe-Ito palette and grey, and are also told apart by shape (outlines,
 * dashes, hatching) in the SVG.  docs/pictures.md shows the legend.
 *
 * SVG: a cell is 4..40 units square (larger for smaller levels); arrows
 * from 8 units, numbers from 20.  PNG: one pixel per cell for large levels
 * (scaled up to about 512 pixels for small ones), a colour bar with the
 * range below, the legend in words in a tEXt chunk.
 */
#ifndef FF_PIC_H
#define FF_PIC_H

#include <stddef.h>
#include <stdint.h>

#include "core/level.h"
#include "core/solver.h"

typedef enum ff_pic_field {
	FF_PIC_COSTS,            /* cost colours, walls, goals, spawns */
	FF_PIC_INTEGRATION,      /* the heat map of values (needs a solver) */
	FF_PIC_FLOW,             /* cost colours and arrows (needs a solver);
				    a PNG shows the heat map instead */
	FF_PIC_EFFECTIVE         /* the costs the solver integrates (cost.h;
				    needs a solver, else the painted ones) */
} ff_pic_field;

typedef struct ff_pic {
	const ff_level *level;   /* borrowed */
	const ff_solver *solver; /* a finished solve of LEVEL, or NULL */
	const ff_shape *goals;   /* the goals drawn (those solved for) */
	int ngoals;
	ff_pic_field field;
} ff_pic;

typedef struct ff_rgb {
	uint8_t r, g, b;
} ff_rgb;

/* The palette, one definition for SVG, PNG and the docs. */
extern const ff_rgb ff_pic_background, ff_pic_wall, ff_pic_goal, ff_pic_spawn,
	ff_pic_unreachable;
/* The heat map at T in [0, 1]: yellow at 0 to blue at 1 (viridis). */
ff_rgb ff_pic_heat(double t);
/* The colour of cost 1..254 (white for 1, then the heat map on a log
 * scale) or FF_WALL. */
ff_rgb ff_pic_cost(int cost);
/* Black or white, whichever reads better on BG. */
ff_rgb ff_pic_ink(ff_rgb bg);

/* The cost P shows at (x, y): the effective one for FF_PIC_EFFECTIVE with
 * a solver, else the painted one. */
int ff_pic_cost_at(const ff_pic *p, int x, int y);
/* The largest finite value of P's field (0 without a solver). */
double ff_pic_vmax(const ff_pic *p);
/* The fill of cell (x, y) in P, given VMAX = ff_pic_vmax(P): what the cell
 * shows, the one rule of both formats. */
ff_rgb ff_pic_cell(const ff_pic *p, int x, int y, double vmax);

/* P as an SVG document, NUL-terminated; caller frees with free().  NULL
 * when out of memory; LEN gets the length. */
char *ff_pic_svg(const ff_pic *p, size_t *len);
/* P as a PNG file in memory; caller frees with free().  NULL when out of
 * memory; LEN gets the length.  SOFTWARE names the program in a tEXt
 * chunk. */
unsigned char *ff_pic_png(const ff_pic *p, const char *software, size_t *len);

#endif
