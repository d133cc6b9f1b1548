/*
 * check_pic.c - pictures: PNGs decoded back with libpng and checked cell by
 * cell on a hand-built level (walls black, cost 1 white, goals vermillion,
 * spawn edges purple, unreachable cells grey, colours darkening with the
 * value), the colour bar's ends, the tEXt legend; SVGs parsed by libxml2
 * and their arrows and numbers counted; and the palette's promises checked
 * with the published formulas: WCAG contrast of text on every colour,
 * lightness that falls steadily (so the heat map reads in grey), and the
 * special colours told apart under simulated colour blindness.
 */
#include <math.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <png.h>

#include "core/level_text.h"
#include "pic/pic.h"
#include "testutil.h"

/* --- decoding a PNG with libpng ------------------------------------------ */

typedef struct image {
	png_uint_32 w, h;
	unsigned char *px;       /* RGB, row major */
	char title[128], desc[512];
} image;

typedef struct mem {
	const unsigned char *p;
	size_t n, at;
} mem;

static void mem_read(png_structp png, png_bytep out, size_t n)
{
	mem *m = png_get_io_ptr(png);

	if (m->at + n > m->n)
		png_error(png, "truncated");
	memcpy(out, m->p + m->at, n);
	m->at += n;
}

static void decode(const unsigned char *data, size_t len, image *im)
{
	png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png_create_info_struct(png);
	mem m = {data, len, 0};
	png_textp t;
	png_bytepp rows;
	int nt;

	ck_assert(png_sig_cmp(data, 0, 8) == 0);
	ck_assert(setjmp(png_jmpbuf(png)) == 0);
	png_set_read_fn(png, &m, mem_read);
	png_read_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
	ck_assert_int_eq(png_get_color_type(png, info), PNG_COLOR_TYPE_RGB);
	ck_assert_int_eq(png_get_bit_depth(png, info), 8);
	im->w = png_get_image_width(png, info), im->h = png_get_image_height(png, info);
	im->px = malloc((size_t)im->w * im->h * 3);
	ck_assert_ptr_nonnull(im->px);
	rows = png_get_rows(png, info);
	for (png_uint_32 y = 0; y < im->h; y++)
		memcpy(im->px + (size_t)y * im->w * 3, rows[y], (size_t)im->w * 3);
	im->title[0] = im->desc[0] = '\0';
	png_get_text(png, info, &t, &nt);
	for (int i = 0; i < nt; i++) {
		if (!strcmp(t[i].key, "Title"))
			snprintf(im->title, sizeof im->title, "%s", t[i].text);
		if (!strcmp(t[i].key, "Description"))
			snprintf(im->desc, sizeof im->desc, "%s", t[i].text);
	}
	png_destroy_read_struct(&png, &info, NULL);
}

/* The pixel at (x, y) as 0xRRGGBB. */
static unsigned px(const image *im, unsigned x, unsigned y)
{
	const unsigned char *p = im->px + ((size_t)y * im->w + x) * 3;

	return (unsigned)p[0] << 16 | (unsigned)p[1] << 8 | p[2];
}

/* The centre pixel of cell (x, y) for K pixels per cell. */
static unsigned cell(const image *im, int k, int x, int y)
{
	return px(im, (unsigned)(x * k + k / 2), (unsigned)(y * k + k / 2));
}

/* --- colour science, from the published formulas ------------------------- */

static double lin(unsigned c8)
{
	double v = c8 / 255.0;

	return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

/* WCAG 2 relative luminance of 0xRRGGBB. */
static double luminance(unsigned c)
{
	return 0.2126 * lin(c >> 16 & 255) + 0.7152 * lin(c >> 8 & 255) + 0.0722 * lin(c & 255);
}

static double contrast(unsigned a, unsigned b)
{
	double la = luminance(a), lb = luminance(b);

	return (fmax(la, lb) + 0.05) / (fmin(la, lb) + 0.05);
}

static unsigned hex(ff_rgb c)
{
	return (unsigned)c.r << 16 | (unsigned)c.g << 8 | c.b;
}

/* A hand-built 10 x 6 level:
 *
 *   ..........      row 0: cost 1, but (4,0) cost 2, (5,0) cost 5, (6,0) 50
 *   .########.      row 1: walls from x=1 to 8
 *   .#..#....G      (2,2),(3,2): enclosed, unreachable; goal at (9,2)
 *   .####....G          goal rect (9,2) 1x2
 *   ..........
 *   SSS.......      spawn rect (0,4) 3x2 (its cells are all on its edge)
 */
static ff_level *test_level(void)
{
	ff_level *l = ff_level_create(10, 6, "pic");
	ff_shape goal = {FF_SHAPE_RECT, 9, 2, 1, 2, 0};
	ff_spawn sp = {{FF_SHAPE_RECT, 0, 4, 3, 2, 0}, 5, 0, 0};

	ck_assert_ptr_nonnull(l);
	ck_assert_int_eq(ff_level_paint(l, 4, 0, 2, NULL), FF_OK);
	ck_assert_int_eq(ff_level_paint(l, 5, 0, 5, NULL), FF_OK);
	ck_assert_int_eq(ff_level_paint(l, 6, 0, 50, NULL), FF_OK);
	ck_assert_int_eq(ff_level_rect(l, 1, 1, 8, 1, FF_WALL, NULL), FF_OK);
	ck_assert_int_eq(ff_level_paint(l, 1, 2, FF_WALL, NULL), FF_OK);
	ck_assert_int_eq(ff_level_paint(l, 4, 2, FF_WALL, NULL), FF_OK);
	ck_assert_int_eq(ff_level_rect(l, 1, 3, 4, 1, FF_WALL, NULL), FF_OK);
	ck_assert_int_eq(ff_level_goal_add(l, &goal, NULL), FF_OK);
	ck_assert_int_eq(ff_level_spawn_add(l, &sp, NULL), FF_OK);
	return l;
}

static ff_solver *solved(const ff_level *l)
{
	ff_solver_opts o = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_CHEAPEST, 0, false};
	ff_solver *s = ff_solver_create(l->w, l->h);

	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(ff_solver_solve(s, l, l->meta.goals, l->meta.ngoals, &o), FF_OK);
	return s;
}

/* 512 / 10 pixels a cell: a small level is drawn larger. */
#define K 51

START_TEST(png_costs_cell_by_cell)
{
	ff_level *l = test_level();
	ff_pic p = {l, NULL, l->meta.goals, l->meta.ngoals, FF_PIC_COSTS};
	size_t len;
	unsigned char *data = ff_pic_png(&p, "test", &len);
	image im;

	ck_assert_ptr_nonnull(data);
	decode(data, len, &im);
	ck_assert_uint_eq(im.w, 10 * K);
	ck_assert_uint_eq(im.h, 6 * K + 36);  /* the grid, then the legend */
	ck_assert_uint_eq(cell(&im, K, 0, 0), 0xffffff);        /* cost 1: white */
	ck_assert_uint_eq(cell(&im, K, 3, 1), 0x000000);        /* wall: black */
	ck_assert_uint_eq(cell(&im, K, 9, 2), 0xd55e00);        /* goal: vermillion */
	ck_assert_uint_eq(cell(&im, K, 9, 3), 0xd55e00);
	ck_assert_uint_eq(cell(&im, K, 1, 5), 0xcc79a7);        /* spawn edge */
	ck_assert_uint_eq(cell(&im, K, 2, 2), 0xffffff);        /* no field: a cost */
	/* dearer cells are darker, and none is white or black */
	ck_assert(luminance(cell(&im, K, 4, 0)) < 1.0);
	ck_assert(luminance(cell(&im, K, 5, 0)) < luminance(cell(&im, K, 4, 0)));
	ck_assert(luminance(cell(&im, K, 6, 0)) < luminance(cell(&im, K, 5, 0)));
	ck_assert(cell(&im, K, 6, 0) != 0);
	ck_assert_str_eq(im.title, "pic: costs");
	ck_assert_ptr_nonnull(strstr(im.desc, "walls #000000"));
	ck_assert_ptr_nonnull(strstr(im.desc, "goals #d55e00"));
	free(im.px);
	free(data);
	ff_level_destroy(l);
}
END_TEST

START_TEST(png_heat_map_darkens_with_the_value)
{
	ff_level *l = test_level();
	ff_solver *s = solved(l);
	ff_pic p = {l, s, l->meta.goals, l->meta.ngoals, FF_PIC_FLOW}; /* PNG: the heat map */
	size_t len;
	unsigned char *data = ff_pic_png(&p, "test", &len);
	image im;
	int n = 0;

	ck_assert_ptr_nonnull(data);
	decode(data, len, &im);
	ck_assert_str_eq(im.title, "pic: integration");
	ck_assert_uint_eq(cell(&im, K, 2, 2), 0xd9d9d9);        /* unreachable: grey */
	ck_assert_uint_eq(cell(&im, K, 3, 2), 0xd9d9d9);
	ck_assert_uint_eq(cell(&im, K, 9, 2), 0xd55e00);
	ck_assert_uint_eq(cell(&im, K, 5, 1), 0x000000);
	/* over every pair of reachable cells outside goals and spawn edges: a
	 * larger value is never lighter */
	for (int a = 0; a < 60; a++)
		for (int b = 0; b < 60; b++) {
			int ax = a % 10, ay = a / 10, bx = b % 10, by = b / 10;
			double va = ff_solver_value(s, ax, ay), vb = ff_solver_value(s, bx, by);

			if (!isfinite(va) || !isfinite(vb) || ff_level_is_goal(l, ax, ay) ||
			    ff_level_is_goal(l, bx, by) || ay >= 4 || by >= 4 || va <= vb)
				continue;
			ck_assert_msg(luminance(cell(&im, K, ax, ay)) <
				      luminance(cell(&im, K, bx, by)) + 1e-9,
				      "%d,%d (%g) is lighter than %d,%d (%g)", ax, ay, va, bx, by, vb);
			n++;
		}
	ck_assert_int_gt(n, 100);
	/* the colour bar: viridis yellow at 0, its blue at the far end */
	ck_assert_uint_eq(px(&im, 4, 6 * K + 10), 0xfde725);
	ck_assert_uint_eq(px(&im, im.w - 5, 6 * K + 10), 0x3b528b);
	ck_assert_ptr_nonnull(strstr(im.desc, "unreachable #d9d9d9"));
	free(im.px);
	free(data);
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

/* A 2048-cell-wide level: one pixel per cell. */
START_TEST(png_large_levels_one_pixel_per_cell)
{
	ff_level *l = ff_level_create(2048, 3, "wide");
	ff_pic p = {l, NULL, NULL, 0, FF_PIC_COSTS};
	size_t len;
	unsigned char *data;
	image im;

	ck_assert_ptr_nonnull(l);
	ck_assert_int_eq(ff_level_paint(l, 2047, 2, FF_WALL, NULL), FF_OK);
	data = ff_pic_png(&p, "test", &len);
	ck_assert_ptr_nonnull(data);
	decode(data, len, &im);
	ck_assert_uint_eq(im.w, 2048);
	ck_assert_uint_eq(im.h, 3 + 36);
	ck_assert_uint_eq(px(&im, 2047, 2), 0x000000);
	ck_assert_uint_eq(px(&im, 2046, 2), 0xffffff);
	free(im.px);
	free(data);
	ff_level_destroy(l);
}
END_TEST

/* --- SVG ------------------------------------------------------------------ */

static double xpath_num(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
	xmlXPathObjectPtr r;
	double v;

	xmlXPathRegisterNs(ctx, BAD_CAST "s", BAD_CAST "http://www.w3.org/2000/svg");
	r = xmlXPathEvalExpression(BAD_CAST expr, ctx);
	ck_assert_ptr_nonnull(r);
	v = xmlXPathCastToNumber(r);
	xmlXPathFreeObject(r);
	xmlXPathFreeContext(ctx);
	return v;
}

static xmlDocPtr svg_doc(const ff_pic *p)
{
	size_t len;
	char *svg = ff_pic_svg(p, &len);
	xmlDocPtr doc;

	ck_assert_ptr_nonnull(svg);
	ck_assert_uint_eq(strlen(svg), len);
	doc = xmlReadMemory(svg, (int)len, "pic.svg", NULL, XML_PARSE_NONET);
	ck_assert_ptr_nonnull(doc);  /* well formed */
	free(svg);
	return doc;
}

START_TEST(svg_has_an_arrow_per_flowing_cell)
{
	ff_level *l = test_level();
	ff_solver *s = solved(l);
	ff_pic p = {l, s, l->meta.goals, l->meta.ngoals, FF_PIC_FLOW};
	xmlDocPtr doc = svg_doc(&p);
	int arrows = 0, walls = 0;

	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++) {
			arrows += ff_solver_dir(s, x, y) != FF_DIR_NONE;
			walls += ff_level_cost(l, x, y) == FF_WALL;
		}
	/* by hand: 60 cells, 14 walls, 2 enclosed, 2 goals */
	ck_assert_int_eq(walls, 14);
	ck_assert_int_eq(arrows, 60 - 14 - 2 - 2);
	ck_assert_int_eq((int)xpath_num(doc, "count(//s:g[@id='arrows']/s:use)"), arrows);
	ck_assert_int_eq((int)xpath_num(doc, "count(//s:g[@id='numbers'])"), 0);
	ck_assert_int_eq((int)xpath_num(doc, "count(//s:g[@id='goals']/s:rect)"), 1);
	ck_assert_int_eq((int)xpath_num(doc, "count(//s:g[@id='spawns']/s:rect)"), 1);
	/* 40 units a cell (1280 / 10, at most 40) */
	ck_assert_int_eq((int)xpath_num(doc, "number(/s:svg/@width)"), 440);
	ck_assert_int_eq((int)xpath_num(doc, "number(//s:g[@id='goals']/s:rect/@x)"), 9 * 40);
	xmlFreeDoc(doc);
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

START_TEST(svg_numbers_every_reachable_value)
{
	ff_level *l = test_level();
	ff_solver *s = solved(l);
	ff_pic p = {l, s, l->meta.goals, l->meta.ngoals, FF_PIC_INTEGRATION};
	xmlDocPtr doc = svg_doc(&p);
	char expr[160];

	/* 60 cells - 14 walls - 2 unreachable */
	ck_assert_int_eq((int)xpath_num(doc, "count(//s:g[@id='numbers']/s:text)"), 44);
	/* (8,2) is one step west of the goal at (9,2): 1.0; (0,0) by hand:
	 * from (9,2) up the right side, 1 + sqrt 2 ... read from the field */
	ck_assert_int_eq((int)xpath_num(doc, "count(//s:g[@id='numbers']/s:text[@x=340][@y=104][.='1.0'])"), 1);
	snprintf(expr, sizeof expr, "count(//s:g[@id='cells']/s:rect[@fill='url(#unreachable)'])");
	ck_assert_int_eq((int)xpath_num(doc, expr), 1);  /* the two cells, one run */
	xmlFreeDoc(doc);
	ff_solver_destroy(s);
	ff_level_destroy(l);
}
END_TEST

/* --- the palette ---------------------------------------------------------- */

START_TEST(text_reads_on_every_colour)
{
	/* WCAG AA asks 4.5:1 for text; the better of black and white always
	 * reaches it */
	for (int i = 0; i <= 100; i++) {
		ff_rgb c = ff_pic_heat(i / 100.0);
		ck_assert(contrast(hex(ff_pic_ink(c)), hex(c)) >= 4.5);
	}
	for (int cost = 1; cost <= FF_WALL; cost++) {
		ff_rgb c = ff_pic_cost(cost);  /* 1..254, and 255 the wall */
		ck_assert(contrast(hex(ff_pic_ink(c)), hex(c)) >= 4.5);
	}
}
END_TEST

START_TEST(heat_map_reads_in_grey)
{
	double last = 2;

	/* lightness falls steadily from 0 to 1 (by tenths strictly; step by
	 * step within the rounding of 8-bit channels), and walls (black)
	 * stand apart from the darkest value by a contrast of 1.5 or more */
	for (int i = 0; i <= 10; i++) {
		double y = luminance(hex(ff_pic_heat(i / 10.0)));
		ck_assert_msg(y < last, "heat(%g) is not darker than heat(%g)", i / 10.0, (i - 1) / 10.0);
		last = y;
	}
	last = 2;
	for (int i = 0; i <= 1000; i++) {
		double y = luminance(hex(ff_pic_heat(i / 1000.0)));
		ck_assert_msg(y < last + 0.002, "heat(%g) is lighter than the step before", i / 1000.0);
		last = y;
	}
	ck_assert(contrast(hex(ff_pic_heat(1)), hex(ff_pic_wall)) >= 1.5);
	ck_assert_uint_eq(hex(ff_pic_heat(0)), 0xfde725);
	ck_assert_uint_eq(hex(ff_pic_heat(1)), 0x3b528b);
}
END_TEST

/* Simulated dichromacy (Viénot, Brettel and Mollon 1999, on linear RGB):
 * matrices for protanopia and deuteranopia. */
static const double protan[3][3] = {
	{0.11238, 0.88762, 0.00000}, {0.11238, 0.88762, 0.00000}, {0.00401, -0.00401, 1.00000}};
static const double deutan[3][3] = {
	{0.29275, 0.70725, 0.00000}, {0.29275, 0.70725, 0.00000}, {-0.02234, 0.02234, 1.00000}};

/* Distance of A and B as seen through M, in linear RGB scaled to 0..100. */
static double seen_apart(unsigned a, unsigned b, const double m[3][3])
{
	double la[3] = {lin(a >> 16 & 255), lin(a >> 8 & 255), lin(a & 255)};
	double lb[3] = {lin(b >> 16 & 255), lin(b >> 8 & 255), lin(b & 255)};
	double d = 0;

	for (int i = 0; i < 3; i++) {
		double x = 0;
		for (int j = 0; j < 3; j++)
			x += m[i][j] * (la[j] - lb[j]);
		d += x * x;
	}
	return 100 * sqrt(d);
}

START_TEST(special_colours_apart_for_colour_blind_readers)
{
	unsigned c[] = {hex(ff_pic_wall), hex(ff_pic_goal), hex(ff_pic_spawn),
			hex(ff_pic_unreachable), hex(ff_pic_background)};
	int n = sizeof c / sizeof c[0];

	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			ck_assert_msg(seen_apart(c[i], c[j], protan) > 8, "%06x %06x protan", c[i], c[j]);
			ck_assert_msg(seen_apart(c[i], c[j], deutan) > 8, "%06x %06x deutan", c[i], c[j]);
		}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pic");
	TCase *tc = tcase_create("pic");

	tcase_add_test(tc, png_costs_cell_by_cell);
	tcase_add_test(tc, png_heat_map_darkens_with_the_value);
	tcase_add_test(tc, png_large_levels_one_pixel_per_cell);
	tcase_add_test(tc, svg_has_an_arrow_per_flowing_cell);
	tcase_add_test(tc, svg_numbers_every_reachable_value);
	tcase_add_test(tc, text_reads_on_every_colour);
	tcase_add_test(tc, heat_map_reads_in_grey);
	tcase_add_test(tc, special_colours_apart_for_colour_blind_readers);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
