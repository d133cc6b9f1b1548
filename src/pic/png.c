/*
 * png.c - a picture as PNG (pic.h), written by libpng: one pixel per cell
 * (k x k for levels under 512 cells a side), goals filled, spawn areas
 * outlined, then a colour bar with its range in small digits.  The legend
 * in words goes in tEXt chunks (Title, Description, Software).
 *
 * Rows are made one at a time, so a 4096 x 4096 level needs no more than a
 * row and a byte per cell of marks.
 */
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

#include "core/buf.h"
#include "pic.h"

#define MIN_W 168
#define LEGEND_H 36
#define BAR_Y 6                  /* the colour bar's rows in the legend */
#define BAR_H 12
#define DIGIT_Y 22               /* the range's digits: 3 x 5, doubled */

enum { MARK_GOAL = 1, MARK_SPAWN = 2 };

typedef struct png_pic {
	const ff_pic *p;         /* with field FF_PIC_COSTS or _INTEGRATION */
	int k, w, h;             /* cell size; image size */
	double vmax;
	uint8_t *marks;          /* MARK_* per cell */
	char lo[24], hi[24];     /* the bar's range */
} png_pic;

/* Digits, '.' and '-' in 3 x 5 pixels, a row of 3 bits each. */
static const char font_chars[] = "0123456789.-";
static const uint8_t font[12][5] = {
	{7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7},
	{5, 5, 7, 1, 1}, {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1},
	{7, 5, 7, 5, 7}, {7, 5, 7, 1, 7}, {0, 0, 0, 0, 2}, {0, 0, 7, 0, 0},
};

/* Marks goal cells, and the cells of spawn areas on their edge. */
static void mark(png_pic *q)
{
	const ff_level *l = q->p->level;
	int x0, y0, x1, y1;

	for (int i = 0; i < q->p->ngoals; i++)
		if (ff_shape_clip(l, &q->p->goals[i], &x0, &y0, &x1, &y1))
			for (int y = y0; y <= y1; y++)
				for (int x = x0; x <= x1; x++)
					if (ff_shape_contains(&q->p->goals[i], x, y))
						q->marks[(size_t)y * l->w + x] |= MARK_GOAL;
	for (int i = 0; i < l->meta.nspawns; i++) {
		const ff_shape *a = &l->meta.spawns[i].area;

		if (!ff_shape_clip(l, a, &x0, &y0, &x1, &y1))
			continue;
		for (int y = y0; y <= y1; y++)
			for (int x = x0; x <= x1; x++)
				if (ff_shape_contains(a, x, y) &&
				    (!ff_shape_contains(a, x + 1, y) || !ff_shape_contains(a, x - 1, y) ||
				     !ff_shape_contains(a, x, y + 1) || !ff_shape_contains(a, x, y - 1)))
					q->marks[(size_t)y * l->w + x] |= MARK_SPAWN;
	}
}

static void put(png_bytep px, ff_rgb c)
{
	px[0] = c.r, px[1] = c.g, px[2] = c.b;
}

/* Whether pixel (x, y) of the legend's digits is set for string S placed
 * from X0. */
static bool digit_px(const char *s, int x0, int x, int y)
{
	int i = (x - x0) / 8, col = (x - x0) % 8 / 2, row = (y - DIGIT_Y) / 2;
	const char *c;

	if (x < x0 || i >= (int)strlen(s) || col > 2 || row < 0 || row > 4)
		return false;
	c = strchr(font_chars, s[i]);
	return c && (font[c - font_chars][row] >> (2 - col) & 1);
}

static void legend_row(const png_pic *q, int y, png_bytep row)
{
	bool heat = q->p->field == FF_PIC_INTEGRATION;
	int xr = q->w - 4 - 8 * (int)strlen(q->hi) + 2;

	for (int x = 0; x < q->w; x++) {
		ff_rgb c = ff_pic_background;

		if (y >= BAR_Y && y < BAR_Y + BAR_H && x >= 4 && x < q->w - 4) {
			double f = (double)(x - 4) / (q->w - 9);
			c = ff_pic_heat(heat ? f : 0.1 + 0.9 * f);
		} else if (digit_px(q->lo, 4, x, y) || digit_px(q->hi, xr, x, y)) {
			c = (ff_rgb){0, 0, 0};
		}
		put(row + 3 * x, c);
	}
}

static void image_row(const png_pic *q, int yy, png_bytep row)
{
	const ff_level *l = q->p->level;
	int y = yy / q->k;

	if (yy >= l->h * q->k) {
		legend_row(q, yy - l->h * q->k, row);
		return;
	}
	for (int xx = 0; xx < q->w; xx++) {
		int x = xx / q->k;
		uint8_t m = x < l->w ? q->marks[(size_t)y * l->w + x] : 0;

		put(row + 3 * xx, x >= l->w ? ff_pic_background : m & MARK_GOAL ? ff_pic_goal :
				  m & MARK_SPAWN ? ff_pic_spawn : ff_pic_cell(q->p, x, y, q->vmax));
	}
}

static void on_write(png_structp png, png_bytep data, size_t n)
{
	ff_buf *b = png_get_io_ptr(png);

	ff_buf_add(b, (const char *)data, n);
	if (!ff_buf_ok(b))
		png_error(png, "out of memory");
}

static void on_flush(png_structp png)
{
	(void)png;
}

static void texts(png_structp png, png_infop info, const png_pic *q, const char *software)
{
	bool heat = q->p->field == FF_PIC_INTEGRATION;
	ff_rgb a = ff_pic_heat(heat ? 0 : 0.1), z = ff_pic_heat(1);
	char title[128], desc[400];
	png_text t[3];

	snprintf(title, sizeof title, "%s: %s", q->p->level->meta.name,
		 heat ? "integration" : "costs");
	snprintf(desc, sizeof desc, "%s %s (#%02x%02x%02x) to %s (#%02x%02x%02x), viridis; %s; "
		 "walls #%02x%02x%02x; goals #%02x%02x%02x; spawn areas outlined #%02x%02x%02x; "
		 "a cell is %d x %d pixels", heat ? "value" : "cost", q->lo, a.r, a.g, a.b, q->hi,
		 z.r, z.g, z.b, heat ? "unreachable #d9d9d9" : "cost 1 white", ff_pic_wall.r,
		 ff_pic_wall.g, ff_pic_wall.b, ff_pic_goal.r, ff_pic_goal.g, ff_pic_goal.b,
		 ff_pic_spawn.r, ff_pic_spawn.g, ff_pic_spawn.b, q->k, q->k);
	memset(t, 0, sizeof t);
	t[0].compression = t[1].compression = t[2].compression = PNG_TEXT_COMPRESSION_NONE;
	t[0].key = "Title", t[0].text = title;
	t[1].key = "Description", t[1].text = desc;
	t[2].key = "Software", t[2].text = (char *)software;
	png_set_text(png, info, t, 3);
}

/* Writes Q into B; false on any failure (libpng's errors jump back here). */
static bool encode(png_pic *q, const char *software, ff_buf *b)
{
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	png_bytep volatile row = NULL;
	bool ok = false;

	if (!info)
		goto done;
	if (setjmp(png_jmpbuf(png)))
		goto done;
	row = malloc((size_t)q->w * 3);
	if (!row)
		goto done;
	png_set_write_fn(png, b, on_write, on_flush);
	png_set_IHDR(png, info, (png_uint_32)q->w, (png_uint_32)q->h, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	texts(png, info, q, software);
	png_write_info(png, info);
	for (int y = 0; y < q->h; y++) {
		image_row(q, y, row);
		png_write_row(png, row);
	}
	png_write_end(png, info);
	ok = true;
done:
	free(row);
	png_destroy_write_struct(&png, &info);
	return ok;
}

unsigned char *ff_pic_png(const ff_pic *p, const char *software, size_t *len)
{
	const ff_level *l = p->level;
	ff_pic heat = *p;
	int side = l->w > l->h ? l->w : l->h;
	png_pic q = {&heat, 512 / side > 1 ? 512 / side : 1, 0, 0, 0, NULL, "", ""};
	ff_buf b = FF_BUF_INIT;
	bool ok;

	if (heat.field == FF_PIC_FLOW) /* arrows need more than a pixel */
		heat.field = FF_PIC_INTEGRATION;
	if (!heat.solver)
		heat.field = FF_PIC_COSTS;
	q.w = l->w * q.k > MIN_W ? l->w * q.k : MIN_W;
	q.h = l->h * q.k + LEGEND_H;
	q.vmax = ff_pic_vmax(&heat);
	if (heat.field == FF_PIC_INTEGRATION)
		snprintf(q.lo, sizeof q.lo, "0"), snprintf(q.hi, sizeof q.hi, "%ld.%ld",
							  lround(q.vmax * 10) / 10,
							  lround(q.vmax * 10) % 10);
	else
		snprintf(q.lo, sizeof q.lo, "2"), snprintf(q.hi, sizeof q.hi, "%d", FF_COST_MAX);
	q.marks = calloc((size_t)l->w * (size_t)l->h, 1);
	if (!q.marks)
		return NULL;
	mark(&q);
	ok = encode(&q, software, &b);
	free(q.marks);
	if (!ok) {
		ff_buf_fini(&b);
		return NULL;
	}
	return (unsigned char *)ff_buf_take(&b, len);
}
