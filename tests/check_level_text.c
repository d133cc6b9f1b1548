/*
 * check_level_text.c - the text level format and Moving AI .map files:
 * round trips of every shipped level, .map imports checked against counts
 * taken straight from the file bytes, and every malformed-input case giving
 * a precise line:col error.
 */
#include <dirent.h>
#include <string.h>

#include "core/level_text.h"
#include "testutil.h"

static const char *const maps[] = {
	"arena.map", "den312d.map", "ht_chantry.map", "lak303d.map", "brc202d.map",
	"8room_000.map", "maze512-1-0.map", "random512-10-0.map", "AcrosstheCape.map",
};

START_TEST(levels_round_trip)
{
	DIR *d = opendir(FF_LEVELSDIR);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name), outlen;
		ff_level *l = NULL;
		ff_diag diag;
		char *buf, *out;

		if (len < 7 || strcmp(e->d_name + len - 6, ".level"))
			continue;
		buf = tu_read(FF_LEVELSDIR, e->d_name, &len);
		ck_assert_msg(ff_textlevel_parse(buf, len, &l, &diag) == FF_OK,
			      "%s:%d:%d: %s", e->d_name, diag.line, diag.col, diag.msg);
		ck_assert_msg(l->meta.note[0] != '\0', "%s has no purpose at its top", e->d_name);
		out = ff_textlevel_format(l, &outlen);
		ck_assert_ptr_nonnull(out);
		ck_assert_msg(outlen == len && !memcmp(out, buf, len),
			      "%s does not round trip", e->d_name);
		free(out);
		free(buf);
		ff_level_destroy(l);
		n++;
	}
	closedir(d);
	ck_assert_int_ge(n, 6);
}
END_TEST

/* Counts size and walls from the raw bytes, independently of the parser. */
static void raw_counts(const char *buf, int *w, int *h, long *walls)
{
	const char *p = strstr(buf, "\nmap\n");

	ck_assert(sscanf(buf, "type octile\nheight %d\nwidth %d", h, w) == 2);
	ck_assert_ptr_nonnull(p);
	*walls = 0;
	for (p += 5; *p; p++)
		*walls += *p == '@' || *p == 'T' || *p == 'O';
}

START_TEST(maps_import)
{
	for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
		size_t len, outlen;
		char *buf = tu_read(FF_TESTDATA, maps[i], &len), *out;
		ff_level *l = NULL;
		ff_diag diag;
		long walls = 0, raw_walls, lossy = -1;
		int w, h;

		raw_counts(buf, &w, &h, &raw_walls);
		ck_assert(ff_mapfile_detect(buf, len));
		ck_assert_msg(ff_level_parse_any(buf, len, "m", &l, &diag) == FF_OK,
			      "%s:%d:%d: %s", maps[i], diag.line, diag.col, diag.msg);
		ck_assert_int_eq(l->w, w);
		ck_assert_int_eq(l->h, h);
		for (size_t c = 0; c < (size_t)w * (size_t)h; c++)
			walls += l->cells[c] == FF_WALL;
		ck_assert_int_eq(walls, raw_walls);
		ck_assert_int_gt(walls, 0);
		/* Exported back: the same bytes, trees and all */
		out = ff_mapfile_format(l, &outlen, &lossy);
		ck_assert_int_eq(lossy, 0);
		raw_counts(out, &w, &h, &raw_walls);
		ck_assert_int_eq(raw_walls, walls);
		ck_assert_int_eq(outlen, len);
		ck_assert_msg(!memcmp(out, buf, len), "%s: exported bytes differ", maps[i]);
		free(out);
		ff_level_destroy(l);
		free(buf);
	}
}
END_TEST

/* Every map through the text format and back: the same bytes again. */
START_TEST(maps_through_text_round_trip)
{
	for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
		size_t len, tlen, mlen;
		char *buf = tu_read(FF_TESTDATA, maps[i], &len), *text, *map;
		ff_level *a = NULL, *b = NULL;
		ff_diag diag;

		ck_assert_int_eq(ff_mapfile_parse(buf, len, "m", &a, &diag), FF_OK);
		text = ff_textlevel_format(a, &tlen);
		ck_assert_ptr_nonnull(text);
		ck_assert_msg(ff_textlevel_parse(text, tlen, &b, &diag) == FF_OK, "%s: %d:%d: %s",
			      maps[i], diag.line, diag.col, diag.msg);
		ck_assert(ff_level_equal(a, b));
		map = ff_mapfile_format(b, &mlen, NULL);
		ck_assert_msg(mlen == len && !memcmp(map, buf, len), "%s: differs", maps[i]);
		free(map);
		free(text);
		free(buf);
		ff_level_destroy(a);
		ff_level_destroy(b);
	}
}
END_TEST

/* Each Moving AI character, by hand: ground, swamp, water and three walls
 * of their own; 'G' is ground and comes back as '.'. */
START_TEST(map_characters_keep_their_terrain)
{
	static const char map[] = "type octile\nheight 2\nwidth 4\nmap\n.SWT\n@OG.\n";
	static const char back[] = "type octile\nheight 2\nwidth 4\nmap\n.SWT\n@O..\n";
	ff_level *l = NULL;
	ff_diag diag;
	size_t n;
	char *out;
	int tree, out_of;

	ck_assert_int_eq(ff_mapfile_parse(map, strlen(map), "m", &l, &diag), FF_OK);
	tree = ff_level_terrain_by_name(l, "tree");
	out_of = ff_level_terrain_by_name(l, "out");
	ck_assert_int_ge(tree, 0);
	ck_assert_int_ge(out_of, 0);
	ck_assert_int_eq(l->meta.palette[tree].glyph, 'T');
	ck_assert_int_eq(ff_level_cost(l, 0, 0), 1);
	ck_assert_int_eq(ff_level_cost(l, 1, 0), 5);
	ck_assert_int_eq(ff_level_cost(l, 2, 0), 20);
	/* the three walls cost FF_WALL; each is its own terrain */
	ck_assert_int_eq(ff_level_cost(l, 3, 0), FF_WALL);
	ck_assert_int_eq(ff_level_cost(l, 0, 1), FF_WALL);
	ck_assert_int_eq(ff_level_cost(l, 1, 1), FF_WALL);
	ck_assert_int_eq(ff_level_terrain_by_value(l, ff_level_value(l, 3, 0)), tree);
	ck_assert_int_eq(ff_level_terrain_by_value(l, ff_level_value(l, 1, 1)), out_of);
	ck_assert_int_eq(ff_level_terrain_by_value(l, ff_level_value(l, 0, 1)),
			 ff_level_terrain_by_name(l, "wall"));
	ck_assert_int_eq(ff_level_cost(l, 2, 1), 1);
	out = ff_mapfile_format(l, &n, NULL);
	ck_assert_str_eq(out, back);
	free(out);
	ff_level_destroy(l);
}
END_TEST

START_TEST(text_map_text)
{
	size_t len, mlen;
	char *buf = tu_read(FF_LEVELSDIR, "chokepoint.level", &len), *map;
	ff_level *a = NULL, *b = NULL;
	ff_diag diag;

	ck_assert_int_eq(ff_textlevel_parse(buf, len, &a, &diag), FF_OK);
	map = ff_mapfile_format(a, &mlen, NULL);
	ck_assert_int_eq(ff_mapfile_parse(map, mlen, "chokepoint", &b, &diag), FF_OK);
	ck_assert_int_eq(memcmp(a->cells, b->cells, (size_t)a->w * (size_t)a->h), 0);
	free(map);
	free(buf);
	ff_level_destroy(a);
	ff_level_destroy(b);
}
END_TEST

struct bad_case {
	const char *what, *text;
	int line, col;
	const char *msg_part;
};

static const struct bad_case bad_text[] = {
	{"empty", "", 1, 1, "truncated"},
	{"no magic", "hello\n", 1, 1, "expected 'fieldmarshal level 2'"},
	{"newer version", "fieldmarshal level 3\n", 1, 20, "unsupported format version"},
	{"truncated header", "fieldmarshal level 1\nname t\nsize 4 3\n", 3, 1, "truncated: no 'grid'"},
	{"truncated grid", "fieldmarshal level 1\nname t\nsize 4 3\ngrid\n....\n", 5, 1, "grid has 1 of 3 rows"},
	{"no end", "fieldmarshal level 1\nname t\nsize 4 3\ngrid\n....\n....\n....\n", 7, 1, "expected 'end'"},
	{"short row", "fieldmarshal level 1\nname t\nsize 4 3\ngrid\n....\n...\n....\nend\n", 6, 4, "row 1 has 3 cells"},
	{"long row", "fieldmarshal level 1\nname t\nsize 4 3\ngrid\n....\n.....\n....\nend\n", 6, 5, "row 1 has 5 cells"},
	{"unknown glyph", "fieldmarshal level 1\nname t\nsize 4 3\ngrid\n....\n..X.\n....\nend\n", 6, 3, "unknown glyph 'X'"},
	{"size 0", "fieldmarshal level 1\nname t\nsize 0 3\n", 3, 6, "width 0 is out of range"},
	/* XML cannot hold it: the level would export as a TMX no reader takes */
	{"note control", "# a note\n# a\x01" "b\nfieldmarshal level 2\n", 2, 4,
	 "a control character in the note"},
	{"size 16385", "fieldmarshal level 1\nname t\nsize 4 16385\n", 3, 8,
	 "height 16385 is out of range 1..16384"},
	{"width 16385", "fieldmarshal level 1\nname t\nsize 16385 4\n", 3, 6,
	 "width 16385 is out of range 1..16384"},
	{"size not a number", "fieldmarshal level 1\nname t\nsize 4 x\n", 3, 8, "not a whole number"},
	{"missing size", "fieldmarshal level 1\nname t\ngrid\n", 3, 1, "missing 'size'"},
	{"missing name", "fieldmarshal level 1\nsize 4 3\ngrid\n", 3, 1, "missing 'name'"},
	{"bad name", "fieldmarshal level 1\nname a/b\n", 2, 6, "bad level name"},
	{"unknown keyword", "fieldmarshal level 1\nname t\nsize 4 3\nbogus 1\n", 4, 1, "unknown keyword 'bogus'"},
	{"goal outside", "fieldmarshal level 1\nname t\nsize 4 3\ngoal cell 9 1\ngrid\n....\n....\n....\nend\n", 4, 1, "goal 1 lies outside"},
	{"goal rect outside", "fieldmarshal level 1\nname t\nsize 4 3\ngoal cell 1 1\ngoal rect 2 0 3 1\ngrid\n....\n....\n....\nend\n", 5, 1, "goal 2 lies outside"},
	{"bad shape", "fieldmarshal level 1\nname t\ngoal square 1 1\n", 3, 6, "unknown shape 'square'"},
	{"goal missing args", "fieldmarshal level 1\nname t\ngoal rect 1 1 2\n", 3, 16, "missing arguments"},
	{"goal extra args", "fieldmarshal level 1\nname t\ngoal cell 1 1 7\n", 3, 15, "trailing garbage '7'"},
	{"bad param", "fieldmarshal level 1\nname t\nparam warp 9\n", 3, 7, "unknown parameter 'warp'"},
	{"param range", "fieldmarshal level 2\nname t\nparam speed -3\n", 3, 13, "speed must be 0.01..20 m/s, not -3"},
	{"param range v1", "fieldmarshal level 1\nname t\nparam speed 100\n", 3, 13,
	 "speed must be 0.01..20 m/s, not 100 (converted from version 1)"},
	{"param unit", "fieldmarshal level 2\nname t\nparam speed 3km/h\n", 3, 13,
	 "'3km/h' is not a number (in m/s or cells/s)"},
	{"param v1 only", "fieldmarshal level 2\nname t\nparam density_threshold 8\n", 3, 7,
	 "unknown parameter 'density_threshold'"},
	{"spawn rate 0", "fieldmarshal level 2\nname t\nspawn rect 0 0 2 2 5 rate 0\n", 3, 27,
	 "rate '0' must be a number of agents per second"},
	{"spawn not rate", "fieldmarshal level 2\nname t\nspawn rect 0 0 2 2 5 pace 3\n", 3, 22,
	 "expected 'rate R' or 'group NAME' after the count, not 'pace'"},
	{"terrain clash", "fieldmarshal level 1\nname t\nterrain a . 1\nterrain b . 2\n", 4, 9, "repeats the name, glyph or cost"},
	{"terrain cost 0", "fieldmarshal level 1\nname t\nterrain a . 0\n", 3, 13, "cost 0 is out of range"},
	{"second name", "fieldmarshal level 1\nname t\nsize 4 3\nname u\n", 4, 1, "a second 'name' line"},
	{"second size", "fieldmarshal level 1\nname t\nsize 4 3\nsize 5 3\n", 4, 1, "a second 'size' line"},
	{"control glyph", "fieldmarshal level 1\nname t\nterrain a \x01 3\n", 3, 11, "printable ASCII"},
	{"unprintable cell", "fieldmarshal level 1\nname t\nsize 2 1\ngrid\n.\x7f\nend\n", 5, 2,
	 "unknown glyph, byte 0x7f"},
	{"seed not whole", "fieldmarshal level 1\nname t\nparam seed 1.5\n", 3, 12,
	 "seed must be 0..4294967295, a whole number, not 1.5"},
	{"terrain named by digits", "fieldmarshal level 1\nname t\nterrain 12 . 3\n", 3, 9, "bad terrain name '12'"},
	{"trailing garbage", "fieldmarshal level 1\nname t\nsize 4 3\ngrid\n....\n....\n....\nend\nmore\n", 9, 1, "trailing garbage after 'end'"},
	/* control characters quoted from the input show escaped */
	{"CR CR LF", "fieldmarshal level 1\r\r\nname t\r\r\n", 1, 20,
	 "unsupported format version '1\\r' (this"},
	{"escape sequence", "fieldmarshal level 1\nname t\nbogus\x1b[2J 1\n", 3, 1,
	 "unknown keyword 'bogus\\x1b[2J'"},
};

/* Texts with a NUL byte (the length is given, the NUL is part of it): the
 * parsers once kept what came before it and dropped the rest. */
#define NUL_CASE(what, text, line, col) {what, text, sizeof text - 1, line, col}
static const struct { const char *what, *text; size_t len; int line, col; } nul_text[] = {
	NUL_CASE("note", "# a\0b\nfieldmarshal level 1\nname t\nsize 1 1\ngrid\n.\nend\n", 1, 4),
	NUL_CASE("name", "fieldmarshal level 1\nname t\0u\nsize 1 1\ngrid\n.\nend\n", 2, 7),
	NUL_CASE("comment", "fieldmarshal level 1\nname t\n#\0\nsize 1 1\ngrid\n.\nend\n", 3, 2),
	NUL_CASE("after end", "fieldmarshal level 1\nname t\nsize 1 1\ngrid\n.\nend\n#\0", 7, 2),
	NUL_CASE("map type", "type octile\0\nheight 1\nwidth 1\nmap\n.\n", 1, 12),
	NUL_CASE("map row", "type octile\nheight 1\nwidth 3\nmap\n.\0.\n", 5, 2),
	NUL_CASE("after the map", "type octile\nheight 1\nwidth 1\nmap\n.\n\0", 6, 1),
};

/* An 8192 x 8192 level (every cost the .map format holds, in a pattern
 * that differs from row to row) through the text format and the .map
 * format, with LF and CR LF line ends: the same cells come back. */
START_TEST(large_level_round_trip)
{
	static const uint8_t costs[] = {1, 5, 20, FF_WALL};
	const int n = 8192;
	ff_level *l = ff_level_create(n, n, "big"), *t = NULL, *m = NULL, *c = NULL;
	size_t tlen, mlen, k = 0;
	char *text, *map, *crlf;
	ff_diag diag;

	ck_assert_ptr_nonnull(l);
	for (size_t i = 0; i < (size_t)n * (size_t)n; i++)
		l->cells[i] = costs[(i * 7 + i / 8191) % 4];
	l->cells[(size_t)n * (size_t)n - 1] = 1;
	text = ff_textlevel_format(l, &tlen);
	map = ff_mapfile_format(l, &mlen, NULL);
	ck_assert_ptr_nonnull(text);
	ck_assert_ptr_nonnull(map);
	ck_assert_msg(ff_textlevel_parse(text, tlen, &t, &diag) == FF_OK, "%d:%d: %s",
		      diag.line, diag.col, diag.msg);
	ck_assert_msg(ff_mapfile_parse(map, mlen, "big", &m, &diag) == FF_OK, "%d:%d: %s",
		      diag.line, diag.col, diag.msg);
	ck_assert(ff_level_equal(l, t));
	ck_assert_int_eq(memcmp(l->cells, m->cells, (size_t)n * (size_t)n), 0);
	/* the same .map with CR LF line ends */
	crlf = malloc(mlen + (size_t)n + 8);
	ck_assert_ptr_nonnull(crlf);
	for (size_t i = 0; i < mlen; i++) {
		if (map[i] == '\n')
			crlf[k++] = '\r';
		crlf[k++] = map[i];
	}
	ck_assert_int_eq(ff_mapfile_parse(crlf, k, "big", &c, &diag), FF_OK);
	ck_assert_int_eq(memcmp(l->cells, c->cells, (size_t)n * (size_t)n), 0);
	free(text);
	free(map);
	free(crlf);
	ff_level_destroy(l);
	ff_level_destroy(t);
	ff_level_destroy(m);
	ff_level_destroy(c);
}
END_TEST

START_TEST(malformed_text)
{
	const struct bad_case *c = &bad_text[_i];
	ff_level *l = (ff_level *)0x1;
	ff_diag diag;

	ck_assert_int_eq(ff_textlevel_parse(c->text, strlen(c->text), &l, &diag), FF_E_PARSE);
	ck_assert_ptr_eq(l, (ff_level *)0x1);
	ck_assert_msg(diag.line == c->line && diag.col == c->col && strstr(diag.msg, c->msg_part),
		      "%s: got %d:%d: %s", c->what, diag.line, diag.col, diag.msg);
}
END_TEST

static const struct bad_case bad_map[] = {
	{"not a map", "hello\n", 1, 1, "expected 'type octile'"},
	{"no height", "type octile\nwidth 3\n", 2, 1, "expected 'height H'"},
	{"height 0", "type octile\nheight 0\nwidth 3\nmap\n", 2, 1, "expected 'height H'"},
	{"width 16385", "type octile\nheight 2\nwidth 16385\nmap\n", 3, 1,
	 "expected 'width W' with W in 1..16384"},
	{"height 16385", "type octile\nheight 16385\nwidth 2\nmap\n", 2, 1,
	 "expected 'height H' with H in 1..16384"},
	/* rows the fast reader leaves to the careful one */
	{"CR inside", "type octile\nheight 2\nwidth 3\nmap\n...\n.\r.\n", 6, 2, "unknown map character (code 13)"},
	{"long row", "type octile\nheight 2\nwidth 3\nmap\n....\n...\n", 5, 4, "row has 4 cells"},
	{"garbage after a blank", "type octile\nheight 1\nwidth 3\nmap\n.@.\n\n.\n", 6, 1, "trailing garbage"},
	{"no map line", "type octile\nheight 2\nwidth 3\n", 4, 1, "expected 'map'"},
	{"truncated", "type octile\nheight 2\nwidth 3\nmap\n...\n", 6, 1, "map has 1 of 2 rows"},
	{"short row", "type octile\nheight 2\nwidth 3\nmap\n...\n..\n", 6, 3, "row has 2 cells"},
	{"bad char", "type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n", 6, 2, "unknown map character"},
	{"garbage", "type octile\nheight 1\nwidth 3\nmap\n...\nzzz\n", 6, 1, "trailing garbage"},
};

START_TEST(malformed_map)
{
	const struct bad_case *c = &bad_map[_i];
	ff_level *l = NULL;
	ff_diag diag;

	ck_assert_int_eq(ff_mapfile_parse(c->text, strlen(c->text), "m", &l, &diag), FF_E_PARSE);
	ck_assert_ptr_null(l);
	ck_assert_msg(diag.line == c->line && diag.col == c->col && strstr(diag.msg, c->msg_part),
		      "%s: got %d:%d: %s", c->what, diag.line, diag.col, diag.msg);
}
END_TEST

/* Worked by hand from the rules in err.h. */
START_TEST(messages_escape_control_characters)
{
	static const struct { const char *in, *out; } cases[] = {
		{"plain text \\ stays", "plain text \\ stays"},
		{"tab\tcr\rlf\n", "tab\\tcr\\rlf\\n"},
		{"esc\x1b[2J bel\x07 del\x7f", "esc\\x1b[2J bel\\x07 del\\x7f"},
		{"caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80"},
		{"csi\xc2\x9b nbsp\xc2\xa0", "csi\\u009b nbsp\xc2\xa0"},
		{"stray\x9b lone\xc3 over\xc0\xaf sur\xed\xa0\x80", "stray\\x9b lone\\xc3 over\\xc0\\xaf "
		 "sur\\xed\\xa0\\x80"},
	};
	char out[128], twice[128];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ck_assert_uint_eq(ff_escape(out, sizeof out, cases[i].in), strlen(cases[i].out));
		ck_assert_str_eq(out, cases[i].out);
		ff_escape(twice, sizeof twice, out);
		ck_assert_str_eq(twice, out);
	}
	/* cut whole: never half an escape or half a character */
	ck_assert_uint_eq(ff_escape(out, 7, "abcde\rf"), 5);
	ck_assert_str_eq(out, "abcde");
	ck_assert_uint_eq(ff_escape(out, 6, "abcd\xc3\xa9"), 4);
	ck_assert_str_eq(out, "abcd");
}
END_TEST

START_TEST(nul_bytes_refused)
{
	ff_level *l = NULL;
	ff_diag diag;

	for (size_t i = 0; i < sizeof nul_text / sizeof nul_text[0]; i++) {
		ck_assert_int_eq(ff_level_parse_any(nul_text[i].text, nul_text[i].len, "m", &l, &diag),
				 FF_E_PARSE);
		ck_assert_ptr_null(l);
		ck_assert_msg(diag.line == nul_text[i].line && diag.col == nul_text[i].col &&
			      strstr(diag.msg, "a NUL byte"), "%s: got %d:%d: %s", nul_text[i].what,
			      diag.line, diag.col, diag.msg);
	}
}
END_TEST

/* A level name may be 63 characters (docs/formats.md), and a level with
 * one reads back: words of the text format were cut at 31 once, so such a
 * level (named by a Tiled map, a command, a long file name) was written
 * but not read (found by tests/fuzz/fuzz_tiled). */
START_TEST(a_63_character_name_reads_back)
{
	char name[FF_NAME_MAX], *y;
	ff_level *a, *b = NULL;
	ff_diag diag;
	size_t len;

	memset(name, 'n', sizeof name - 1);
	name[sizeof name - 1] = '\0';
	a = ff_level_create(2, 1, name);
	ck_assert_ptr_nonnull(a);
	y = ff_textlevel_format(a, &len);
	ck_assert_msg(ff_textlevel_parse(y, len, &b, &diag) == FF_OK, "%d:%d: %s", diag.line,
		      diag.col, diag.msg);
	ck_assert_str_eq(b->meta.name, name);
	free(y);
	ff_level_destroy(a);
	ff_level_destroy(b);
}
END_TEST

/* format(parse(x)) is canonical for whatever a parser accepts: a note line
 * ending in CR CR LF once kept a CR that the next parse dropped, so a level
 * changed (and its hash with it) when shown twice. */
START_TEST(format_of_parse_is_a_fixed_point)
{
	static const char *const texts[] = {
		"# a\r\r\nfieldmarshal level 1\nname t\nsize 1 1\ngrid\n.\nend\n",
		"# a\r\r\r\n#\r\r\n# b\rc\r\r\nfieldmarshal level 1\r\nname t\r\nsize 1 1\r\n"
		"grid\r\n.\r\nend\r\n",
		"#a\n#  b\n#\nfieldmarshal level 1\nname t\nsize 1 1\ngrid\n.\nend",
	};
	static const char *const notes[] = {"a\n", "a\n\nb\rc\n", "a\n b\n\n"};

	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		ff_level *a = NULL, *b = NULL;
		char *y, *z;
		size_t ylen, zlen;
		ff_diag diag;

		ck_assert_int_eq(ff_textlevel_parse(texts[i], strlen(texts[i]), &a, &diag), FF_OK);
		ck_assert_str_eq(a->meta.note, notes[i]);
		y = ff_textlevel_format(a, &ylen);
		ck_assert_int_eq(ff_textlevel_parse(y, ylen, &b, &diag), FF_OK);
		z = ff_textlevel_format(b, &zlen);
		ck_assert_msg(zlen == ylen && !memcmp(y, z, ylen), "case %zu: '%s' became '%s'", i, y, z);
		ck_assert(ff_level_equal(a, b));
		free(y);
		free(z);
		ff_level_destroy(a);
		ff_level_destroy(b);
	}
}
END_TEST

START_TEST(crlf_and_comments_accepted)
{
	const char *t = "# a note\r\n#\r\n# two\r\nfieldmarshal level 1\r\nname t\r\n"
			"size 2 1\r\n  # an indented comment\r\n\r\ngoal cell 0 0\r\n"
			"grid\r\n.#\r\nend\r\n\r\n# after\r\n";
	ff_level *l = NULL;
	ff_diag diag;
	char *out;

	ck_assert_int_eq(ff_textlevel_parse(t, strlen(t), &l, &diag), FF_OK);
	ck_assert_str_eq(l->meta.note, "a note\n\ntwo\n");
	ck_assert_int_eq(ff_level_cost(l, 1, 0), FF_WALL);
	out = ff_textlevel_format(l, NULL);
	ck_assert(strstr(out, "# a note\n#\n# two\nfieldmarshal level 2\nname t\n") == out);
	free(out);
	ff_level_destroy(l);
}
END_TEST

/* Version 1 kept parameters in cells (0.5 m) and triggered funnelling by
 * a neighbour count: its files load with those turned into version 2's
 * SI parameters, and are written back as version 2. */
START_TEST(version_1_parameters_are_converted)
{
	const char *t = "fieldmarshal level 1\nname t\nsize 2 1\nparam speed 4\n"
			"param radius 0.3\nparam arrival_radius 1\nparam density_radius 2\n"
			"param density_threshold 10\nparam jitter 7\ngrid\n..\nend\n";
	ff_level *l = NULL;
	ff_diag diag;
	char *out;

	ck_assert_int_eq(ff_textlevel_parse(t, strlen(t), &l, &diag), FF_OK);
	ck_assert_double_eq(l->meta.params[FF_P_SPEED], 2.0);
	ck_assert_double_eq(l->meta.params[FF_P_RADIUS], 0.15);
	ck_assert_double_eq(l->meta.params[FF_P_ARRIVAL_RADIUS], 0.5);
	ck_assert_double_eq(l->meta.params[FF_P_JITTER], 7);
	/* 10 neighbours within 2 cells of 0.5 m: 10 / (pi 1^2) per m^2 */
	ck_assert_double_eq_tol(l->meta.params[FF_P_FUNNEL_DENSITY], 10 / 3.14159265358979, 1e-12);
	ck_assert_double_eq(l->meta.params[FF_P_CELL_SIZE], 0.5);
	out = ff_textlevel_format(l, NULL);
	ck_assert_ptr_nonnull(strstr(out, "fieldmarshal level 2\n"));
	ck_assert_ptr_nonnull(strstr(out, "param speed 2\n"));
	free(out);
	ff_level_destroy(l);
}
END_TEST

/* A parameter may be written in its cell unit, read with the cell size
 * given before it; spawn rates round-trip. */
START_TEST(units_and_rates)
{
	const char *t = "fieldmarshal level 2\nname t\nsize 4 4\nparam cell_size 0.25\n"
			"param speed 4cells/s\nparam radius 0.1m\n"
			"spawn rect 0 0 2 2 5 rate 1.5\ngrid\n....\n....\n....\n....\nend\n";
	ff_level *l = NULL, *back = NULL;
	ff_diag diag;
	char *out;

	ck_assert_int_eq(ff_textlevel_parse(t, strlen(t), &l, &diag), FF_OK);
	ck_assert_double_eq(l->meta.params[FF_P_SPEED], 1.0);
	ck_assert_double_eq(l->meta.params[FF_P_RADIUS], 0.1);
	ck_assert_double_eq(l->meta.spawns[0].rate, 1.5);
	out = ff_textlevel_format(l, NULL);
	ck_assert_ptr_nonnull(strstr(out, "param cell_size 0.25\nparam speed 1\nparam radius 0.1\n"));
	ck_assert_ptr_nonnull(strstr(out, "spawn rect 0 0 2 2 5 rate 1.5\n"));
	ck_assert_int_eq(ff_textlevel_parse(out, strlen(out), &back, &diag), FF_OK);
	ck_assert(ff_level_equal(l, back));
	free(out);
	ff_level_destroy(back);
	ff_level_destroy(l);
}
END_TEST

/* Walls painted over a goal or a spawn area: the level still loads and
 * saves as it was (solving it is what fails, check_solver.c). */
START_TEST(shapes_under_walls_load)
{
	const char *t = "fieldmarshal level 1\nname t\nsize 4 3\ngoal cell 1 1\n"
			"spawn rect 0 0 2 1 5\ngrid\n##..\n.#..\n....\nend\n";
	ff_level *l = NULL;
	ff_diag diag;
	char *out;

	ck_assert_int_eq(ff_textlevel_parse(t, strlen(t), &l, &diag), FF_OK);
	ck_assert_int_eq(l->meta.ngoals, 1);
	ck_assert_int_eq(l->meta.nspawns, 1);
	ck_assert_int_eq(ff_level_check_shape(l, &l->meta.goals[0], true), FF_E_WALL);
	out = ff_textlevel_format(l, NULL);
	ck_assert(strstr(out, "goal cell 1 1\nspawn rect 0 0 2 1 5\ngrid\n##..\n.#..\n"));
	ff_level_destroy(l);
	l = NULL;
	ck_assert_int_eq(ff_textlevel_parse(out, strlen(out), &l, &diag), FF_OK);
	free(out);
	ff_level_destroy(l);
}
END_TEST

START_TEST(params_round_trip_exactly)
{
	ff_level *l = ff_level_create(3, 3, "p"), *back = NULL;
	ff_diag diag;
	size_t len;
	char *out;

	ck_assert_int_eq(ff_level_param_set(l, FF_P_SPEED, 0.1, NULL), FF_OK);
	ck_assert_int_eq(ff_level_param_set(l, FF_P_SEP_WEIGHT, 1.0 / 3.0, NULL), FF_OK);
	ck_assert_int_eq(ff_level_paint(l, 1, 1, 123, NULL), FF_OK);
	out = ff_textlevel_format(l, &len);
	ck_assert(strstr(out, "param speed 0.1\n"));
	ck_assert_int_eq(ff_textlevel_parse(out, len, &back, &diag), FF_OK);
	ck_assert(ff_level_equal(l, back));
	free(out);
	ff_level_destroy(l);
	ff_level_destroy(back);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("textlevel");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, levels_round_trip);
	tcase_add_test(tc, maps_import);
	tcase_add_test(tc, text_map_text);
	tcase_add_test(tc, maps_through_text_round_trip);
	tcase_add_test(tc, map_characters_keep_their_terrain);
	tcase_add_test(tc, large_level_round_trip);
	tcase_add_loop_test(tc, malformed_text, 0, (int)(sizeof bad_text / sizeof bad_text[0]));
	tcase_add_test(tc, a_63_character_name_reads_back);
	tcase_add_loop_test(tc, malformed_map, 0, (int)(sizeof bad_map / sizeof bad_map[0]));
	tcase_add_test(tc, messages_escape_control_characters);
	tcase_add_test(tc, nul_bytes_refused);
	tcase_add_test(tc, format_of_parse_is_a_fixed_point);
	tcase_add_test(tc, crlf_and_comments_accepted);
	tcase_add_test(tc, version_1_parameters_are_converted);
	tcase_add_test(tc, units_and_rates);
	tcase_add_test(tc, shapes_under_walls_load);
	tcase_add_test(tc, params_round_trip_exactly);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
