/*
 * palette.c - the colours of every picture (pic.h) and what colour a cell
 * shows.
 *
 * The heat map is viridis (S. van der Walt and N. Smith, matplotlib's
 * default colour map; CC0), given by its nine stops as viridisLite's
 * viridis(9) lists them and interpolated linearly.  Only its lighter part
 * is used, from yellow (position 1) to blue (position 0.25), so that black
 * walls stand apart from the darkest values.  Goals, spawns: Okabe and
 * Ito's colour-blind-safe palette (vermillion, reddish purple).
 */
#include <math.h>

#include "pic.h"

const ff_rgb ff_pic_background = {255, 255, 255};
const ff_rgb ff_pic_wall = {0, 0, 0};
const ff_rgb ff_pic_goal = {0xd5, 0x5e, 0x00};        /* vermillion */
const ff_rgb ff_pic_spawn = {0xcc, 0x79, 0xa7};       /* reddish purple */
const ff_rgb ff_pic_unreachable = {0xd9, 0xd9, 0xd9}; /* light grey */

static const ff_rgb viridis[9] = {
	{0x44, 0x01, 0x54}, {0x47, 0x2d, 0x7b}, {0x3b, 0x52, 0x8b},
	{0x2c, 0x72, 0x8e}, {0x21, 0x90, 0x8c}, {0x27, 0xad, 0x81},
	{0x5d, 0xc8, 0x63}, {0xaa, 0xdc, 0x32}, {0xfd, 0xe7, 0x25},
};

static uint8_t mix(uint8_t a, uint8_t b, double f)
{
	return (uint8_t)lround(a + (b - a) * f);
}

ff_rgb ff_pic_heat(double t)
{
	double pos, f;
	int i;

	t = t < 0 || isnan(t) ? 0 : t > 1 ? 1 : t;
	pos = (1 - 0.75 * t) * 8; /* viridis position 1 .. 0.25, in stops */
	i = (int)pos;
	if (i >= 8)
		return viridis[8];
	f = pos - i;
	return (ff_rgb){mix(viridis[i].r, viridis[i + 1].r, f),
			mix(viridis[i].g, viridis[i + 1].g, f),
			mix(viridis[i].b, viridis[i + 1].b, f)};
}

ff_rgb ff_pic_cost(int cost)
{
	if (cost == FF_WALL)
		return ff_pic_wall;
	if (cost <= 1)
		return ff_pic_background;
	/* 2 .. 254 on a log scale, starting a little into the heat map */
	return ff_pic_heat(0.1 + 0.9 * log((double)cost) / log((double)FF_COST_MAX));
}

/* WCAG relative luminance of one sRGB channel. */
static double lin(uint8_t c)
{
	double v = c / 255.0;

	return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

ff_rgb ff_pic_ink(ff_rgb bg)
{
	double y = 0.2126 * lin(bg.r) + 0.7152 * lin(bg.g) + 0.0722 * lin(bg.b);

	/* the luminance where black and white give the same contrast */
	return y > 0.179 ? (ff_rgb){0, 0, 0} : (ff_rgb){255, 255, 255};
}

double ff_pic_vmax(const ff_pic *p)
{
	double vmax = 0;

	for (int y = 0; p->solver && y < p->level->h; y++)
		for (int x = 0; x < p->level->w; x++) {
			double v = ff_solver_value(p->solver, x, y);
			if (isfinite(v) && v > vmax)
				vmax = v;
		}
	return vmax;
}

int ff_pic_cost_at(const ff_pic *p, int x, int y)
{
	if (p->field == FF_PIC_EFFECTIVE && p->solver)
		return ff_solver_cost(p->solver, x, y);
	return ff_level_cost(p->level, x, y);
}

ff_rgb ff_pic_cell(const ff_pic *p, int x, int y, double vmax)
{
	int cost = ff_pic_cost_at(p, x, y);
	double v;

	if (cost == FF_WALL || p->field != FF_PIC_INTEGRATION || !p->solver)
		return ff_pic_cost(cost);
	v = ff_solver_value(p->solver, x, y);
	if (!isfinite(v))
		return ff_pic_unreachable;
	return ff_pic_heat(vmax > 0 ? v / vmax : 0);
}
