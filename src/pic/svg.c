/*
 * svg.c - a picture as SVG 1.1 (pic.h), written by libxml2's text writer:
 * the cells (runs of one colour in a row as one rectangle; white left out,
 * it is the background), arrows and numbers when cells are large enough,
 * goals and spawn areas as outlines, and a legend under the grid.
 *
 * Every number written is an integer or made of integers, so no locale can
 * put a decimal comma into the file.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "pic.h"

#define LEGEND_H 64
#define MIN_W 440

typedef struct svg {
	xmlTextWriterPtr w;
	const ff_pic *p;
	int s;                   /* cell size, even, in SVG units */
	double vmax;
	int bad;                 /* a write failed (out of memory) */
} svg;

static void start(svg *g, const char *elem)
{
	g->bad |= xmlTextWriterStartElement(g->w, BAD_CAST elem) < 0;
}

static void end(svg *g)
{
	g->bad |= xmlTextWriterEndElement(g->w) < 0;
}

static void attr(svg *g, const char *name, const char *value)
{
	g->bad |= xmlTextWriterWriteAttribute(g->w, BAD_CAST name, BAD_CAST value) < 0;
}

static void attr_int(svg *g, const char *name, long v)
{
	g->bad |= xmlTextWriterWriteFormatAttribute(g->w, BAD_CAST name, "%ld", v) < 0;
}

static void attr_rgb(svg *g, const char *name, ff_rgb c)
{
	g->bad |= xmlTextWriterWriteFormatAttribute(g->w, BAD_CAST name, "#%02x%02x%02x", c.r,
						    c.g, c.b) < 0;
}

static void rect(svg *g, long x, long y, long w, long h)
{
	start(g, "rect");
	attr_int(g, "x", x), attr_int(g, "y", y), attr_int(g, "width", w), attr_int(g, "height", h);
}

static void text(svg *g, long x, long y, const char *s, const char *anchor)
{
	start(g, "text");
	attr_int(g, "x", x), attr_int(g, "y", y);
	if (anchor)
		attr(g, "text-anchor", anchor);
	g->bad |= xmlTextWriterWriteString(g->w, BAD_CAST s) < 0;
	end(g);
}

static bool same(ff_rgb a, ff_rgb b)
{
	return a.r == b.r && a.g == b.g && a.b == b.b;
}

/* True when cell (x, y) is unreachable in the heat map (hatched). */
static bool hatched(const svg *g, int x, int y)
{
	const ff_pic *p = g->p;

	return p->field == FF_PIC_INTEGRATION && p->solver &&
	       ff_level_cost(p->level, x, y) != FF_WALL &&
	       !isfinite(ff_solver_value(p->solver, x, y));
}

/* Each row as runs of one fill. */
static void cells(svg *g)
{
	const ff_level *l = g->p->level;

	start(g, "g");
	attr(g, "id", "cells");
	attr(g, "shape-rendering", "crispEdges");
	for (int y = 0; y < l->h; y++)
		for (int x = 0, x1; x < l->w; x = x1) {
			ff_rgb c = ff_pic_cell(g->p, x, y, g->vmax);
			bool h = hatched(g, x, y);

			for (x1 = x + 1; x1 < l->w && hatched(g, x1, y) == h &&
			     same(ff_pic_cell(g->p, x1, y, g->vmax), c); x1++)
				;
			if (same(c, ff_pic_background))
				continue;
			rect(g, (long)x * g->s, (long)y * g->s, (long)(x1 - x) * g->s, g->s);
			if (h)
				attr(g, "fill", "url(#unreachable)");
			else
				attr_rgb(g, "fill", c);
			end(g);
		}
	end(g);
}

static void arrows(svg *g)
{
	/* degrees, clockwise from east (y grows down), in FF_DIR_* order */
	static const int angle[8] = {0, 90, 180, 270, 45, 135, 225, 315};
	const ff_level *l = g->p->level;
	char tf[96];

	start(g, "g");
	attr(g, "id", "arrows");
	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++) {
			int d = ff_solver_dir(g->p->solver, x, y);
			if (d == FF_DIR_NONE)
				continue;
			snprintf(tf, sizeof tf, "translate(%ld %ld) rotate(%d) scale(%d)",
				 (long)x * g->s + g->s / 2, (long)y * g->s + g->s / 2, angle[d], g->s);
			start(g, "use");
			attr(g, "xlink:href", "#arrow");
			attr(g, "transform", tf);
			attr_rgb(g, "fill", ff_pic_ink(ff_pic_cell(g->p, x, y, g->vmax)));
			attr_rgb(g, "stroke", ff_pic_ink(ff_pic_cell(g->p, x, y, g->vmax)));
			end(g);
		}
	end(g);
}

/* V to one decimal below 100, whole above, from integers (no locale). */
static void number(char *buf, size_t n, double v)
{
	long t = lround(v * 10);

	if (v < 100)
		snprintf(buf, n, "%ld.%ld", t / 10, t % 10);
	else
		snprintf(buf, n, "%ld", lround(v));
}

/* Values in the heat map; elsewhere the costs other than 1. */
static void numbers(svg *g)
{
	const ff_pic *p = g->p;
	const ff_level *l = p->level;
	char buf[32];

	start(g, "g");
	attr(g, "id", "numbers");
	attr(g, "font-family", "sans-serif");
	attr_int(g, "font-size", g->s * 3 / 10);
	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++) {
			int cost = ff_pic_cost_at(p, x, y);
			double v = p->solver ? ff_solver_value(p->solver, x, y) : INFINITY;
			bool heat = p->field == FF_PIC_INTEGRATION && p->solver;

			if (cost == FF_WALL || (heat && !isfinite(v)) || (!heat && cost == 1))
				continue;
			if (heat)
				number(buf, sizeof buf, v);
			else
				snprintf(buf, sizeof buf, "%d", cost);
			start(g, "text");
			attr_int(g, "x", (long)x * g->s + g->s / 2);
			attr_int(g, "y", (long)y * g->s + g->s / 2 + g->s / 10);
			attr(g, "text-anchor", "middle");
			attr_rgb(g, "fill", ff_pic_ink(ff_pic_cell(p, x, y, g->vmax)));
			g->bad |= xmlTextWriterWriteString(g->w, BAD_CAST buf) < 0;
			end(g);
		}
	end(g);
}

static void shape(svg *g, const ff_shape *sh)
{
	long s = g->s;

	if (sh->kind == FF_SHAPE_CIRCLE) {
		start(g, "circle");
		attr_int(g, "cx", sh->x * s + s / 2), attr_int(g, "cy", sh->y * s + s / 2);
		attr_int(g, "r", sh->r * s + s / 2);
	} else {
		bool r = sh->kind == FF_SHAPE_RECT;
		rect(g, sh->x * s, sh->y * s, (r ? sh->w : 1) * s, (r ? sh->h : 1) * s);
	}
	end(g);
}

static void areas(svg *g)
{
	const ff_level_meta *m = &g->p->level->meta;
	int sw = g->s / 8 > 1 ? g->s / 8 : 1;
	char dash[32];

	start(g, "g");
	attr(g, "id", "goals");
	attr_rgb(g, "fill", ff_pic_goal), attr(g, "fill-opacity", "0.3");
	attr_rgb(g, "stroke", ff_pic_goal), attr_int(g, "stroke-width", sw);
	for (int i = 0; i < g->p->ngoals; i++)
		shape(g, &g->p->goals[i]);
	end(g);
	snprintf(dash, sizeof dash, "%d %d", 3 * sw, 2 * sw);
	start(g, "g");
	attr(g, "id", "spawns");
	attr(g, "fill", "none");
	attr_rgb(g, "stroke", ff_pic_spawn), attr_int(g, "stroke-width", sw);
	attr(g, "stroke-dasharray", dash);
	for (int i = 0; i < m->nspawns; i++)
		shape(g, &m->spawns[i].area);
	end(g);
}

static void defs(svg *g)
{
	char off[8];

	start(g, "defs");
	start(g, "path");
	attr(g, "id", "arrow");
	attr(g, "d", "M-0.36 0H0.1M0.4 0L0.04 -0.22V0.22Z");
	attr(g, "stroke-width", "0.09");
	end(g);
	start(g, "pattern");
	attr(g, "id", "unreachable");
	attr(g, "width", "6"), attr(g, "height", "6");
	attr(g, "patternUnits", "userSpaceOnUse");
	rect(g, 0, 0, 6, 6), attr_rgb(g, "fill", ff_pic_unreachable), end(g);
	start(g, "path"), attr(g, "d", "M0 6L6 0"), attr(g, "stroke", "#808080"), end(g);
	end(g);
	start(g, "linearGradient");
	attr(g, "id", "scale");
	for (int k = 0; k <= 8; k++) {
		snprintf(off, sizeof off, "%d%%", k * 100 / 8);
		start(g, "stop"), attr(g, "offset", off);
		attr_rgb(g, "stop-color", ff_pic_heat(k / 8.0)), end(g);
	}
	end(g);
	end(g);
}

/* One swatch of the legend at X: a square (FILL, or none) and WORD. */
static void swatch(svg *g, long x, const char *word, const char *fill, ff_rgb stroke,
		   bool dashed)
{
	rect(g, x, 38, 14, 14);
	attr(g, "fill", fill);
	attr_rgb(g, "stroke", stroke);
	if (dashed)
		attr(g, "stroke-dasharray", "3 2");
	end(g);
	text(g, x + 20, 50, word, NULL);
}

static void legend(svg *g)
{
	const ff_pic *p = g->p;
	bool heat = p->field == FF_PIC_INTEGRATION && p->solver;
	char lo[32], hi[32], range[72], goal[16], wall[16];

	start(g, "g");
	attr(g, "id", "legend");
	g->bad |= xmlTextWriterWriteFormatAttribute(g->w, BAD_CAST "transform",
						    "translate(0 %ld)",
						    (long)p->level->h * g->s) < 0;
	attr(g, "font-family", "sans-serif");
	attr(g, "font-size", "12");
	text(g, 8, 24, heat ? "value" : "cost", NULL);
	rect(g, 48, 12, 200, 14), attr(g, "fill", "url(#scale)"), end(g);
	if (heat)
		snprintf(lo, sizeof lo, "0"), number(hi, sizeof hi, g->vmax);
	else
		snprintf(lo, sizeof lo, "2"), snprintf(hi, sizeof hi, "%d", FF_COST_MAX);
	snprintf(range, sizeof range, "%s to %s", lo, hi);
	text(g, 256, 24, range, NULL);
	snprintf(goal, sizeof goal, "#%02x%02x%02x", ff_pic_goal.r, ff_pic_goal.g, ff_pic_goal.b);
	snprintf(wall, sizeof wall, "#%02x%02x%02x", ff_pic_wall.r, ff_pic_wall.g, ff_pic_wall.b);
	swatch(g, 8, "wall", wall, ff_pic_wall, false);
	swatch(g, 80, "goal", goal, ff_pic_goal, false);
	swatch(g, 150, "spawn area", "none", ff_pic_spawn, true);
	if (heat)
		swatch(g, 260, "unreachable", "url(#unreachable)", ff_pic_unreachable, false);
	end(g);
}

static const char *const field_names[] = {"costs", "integration", "flow", "effective costs"};

static void document(svg *g)
{
	const ff_level *l = g->p->level;
	long gw = (long)l->w * g->s, h = (long)l->h * g->s + LEGEND_H;
	long w = gw > MIN_W ? gw : MIN_W;
	char vb[64], title[128];

	snprintf(vb, sizeof vb, "0 0 %ld %ld", w, h);
	snprintf(title, sizeof title, "%s: %s", l->meta.name, field_names[g->p->field]);
	g->bad |= xmlTextWriterSetIndent(g->w, 1) < 0;
	g->bad |= xmlTextWriterStartDocument(g->w, NULL, "UTF-8", NULL) < 0;
	start(g, "svg");
	attr(g, "xmlns", "http://www.w3.org/2000/svg");
	attr(g, "xmlns:xlink", "http://www.w3.org/1999/xlink");
	attr(g, "version", "1.1");
	attr_int(g, "width", w), attr_int(g, "height", h);
	attr(g, "viewBox", vb);
	start(g, "title");
	g->bad |= xmlTextWriterWriteString(g->w, BAD_CAST title) < 0;
	end(g);
	defs(g);
	rect(g, 0, 0, w, h), attr_rgb(g, "fill", ff_pic_background), end(g);
	cells(g);
	if (g->p->field == FF_PIC_FLOW && g->p->solver && g->s >= 8)
		arrows(g);
	if (g->s >= 20 && g->p->field != FF_PIC_FLOW)
		numbers(g);
	areas(g);
	legend(g);
	end(g);
	g->bad |= xmlTextWriterEndDocument(g->w) < 0;
}

char *ff_pic_svg(const ff_pic *p, size_t *len)
{
	xmlBufferPtr buf = xmlBufferCreate();
	int side = p->level->w > p->level->h ? p->level->w : p->level->h;
	svg g = {NULL, p, 1280 / side, ff_pic_vmax(p), 0};
	char *out = NULL;

	g.s = g.s < 4 ? 4 : g.s > 40 ? 40 : g.s & ~1;
	if (buf && (g.w = xmlNewTextWriterMemory(buf, 0))) {
		document(&g);
		xmlFreeTextWriter(g.w); /* flushes into BUF */
		if (!g.bad && (out = malloc((size_t)xmlBufferLength(buf) + 1))) {
			*len = (size_t)xmlBufferLength(buf);
			memcpy(out, xmlBufferContent(buf), *len + 1);
		}
	}
	xmlBufferFree(buf);
	return out;
}
