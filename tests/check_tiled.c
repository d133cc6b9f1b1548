/*
 * check_tiled.c - Tiled maps: the same hand-written level in every layer
 * encoding (CSV, base64 plain, zlib, gzip, zstd, TMX <tile> elements), TMX
 * and TMJ, external and embedded tilesets, with flipped tiles, goal and
 * spawn objects, read and checked cell by cell against tests/data/tiled/
 * expected.level; every shipped level and map written as TMX and TMJ reads
 * back equal; and malformed maps fail with their file, line and column.
 */
#include <errno.h>
#include <string.h>

#include "config.h"
#include "core/glyph.h"
#include "core/level_text.h"
#include "testutil.h"
#include "tiled/tiled.h"

#define DIR FF_TESTDATA "/tiled"

static char *read_file(void *ctx, const char *path, size_t *len, char *err, size_t n)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long size;

	(void)ctx;
	if (!f) {
		snprintf(err, n, "cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)size + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)size, f), (size_t)size);
	buf[size] = '\0';
	fclose(f);
	*len = (size_t)size;
	return buf;
}

/* The text level DIR/NAME. */
static ff_level *text_level(const char *name)
{
	size_t len;
	char *text = tu_read(DIR, name, &len);
	ff_level *l = NULL;
	ff_diag d;

	ck_assert_int_eq(ff_textlevel_parse(text, len, &l, &d), FF_OK);
	free(text);
	return l;
}

static ff_level *expected(void)
{
	return text_level("expected.level");
}

/* Reads DIR/NAME (layer LAYER) into a level, or fails the test. */
static ff_level *read_map(const char *name, const char *layer)
{
	char path[512];
	size_t len;
	char *buf;
	ff_tiled_opts o = {layer, read_file, NULL};
	ff_tiled_diag d;
	ff_level *l = NULL;

	snprintf(path, sizeof path, "%s/%s", DIR, name);
	buf = read_file(NULL, path, &len, d.msg, sizeof d.msg);
	ck_assert_msg(buf != NULL, "%s", d.msg);
	ck_assert(ff_tiled_detect(buf, len, path));
	ck_assert_msg(ff_tiled_parse(buf, len, path, "unnamed", &o, &l, &d) == FF_OK,
		      "%s:%d:%d: %s", d.file, d.line, d.col, d.msg);
	free(buf);
	return l;
}

static const char *const maps[] = {
	"tmx-csv.tmx", "tmx-base64.tmx", "tmx-zlib.tmx", "tmx-gzip.tmx",
#ifdef HAVE_ZSTD
	"tmx-zstd.tmx", "tmj-zstd.tmj",
#endif
	"tmx-xml.tmx", "tmj-csv.tmj", "tmj-base64.tmj", "tmj-zlib.tmj", "tmj-gzip.tmj",
};

/* Cell by cell, then goals, spawns, palette and parameters whole. */
static void check_level(const char *name, const ff_level *got, const ff_level *want)
{
	ck_assert_int_eq(got->w, want->w);
	ck_assert_int_eq(got->h, want->h);
	for (int y = 0; y < want->h; y++)
		for (int x = 0; x < want->w; x++) {
			int a = ff_level_value(got, x, y), b = ff_level_value(want, x, y);
			ck_assert_msg(a == b, "%s: cell %d,%d is terrain %d ('%c'), expected %d ('%c')",
				      name, x, y, a, ff_glyph_terrain(got, a), b, ff_glyph_terrain(want, b));
		}
	ck_assert_int_eq(got->meta.ngoals, want->meta.ngoals);
	for (int i = 0; i < want->meta.ngoals; i++)
		ck_assert_msg(!memcmp(&got->meta.goals[i], &want->meta.goals[i], sizeof(ff_shape)),
			      "%s: goal %d differs", name, i + 1);
	ck_assert_int_eq(got->meta.nspawns, want->meta.nspawns);
	ck_assert_int_eq(got->meta.spawns[0].count, want->meta.spawns[0].count);
	ck_assert_msg(ff_level_equal(got, want), "%s: the level differs", name);
}

START_TEST(every_encoding_reads_the_same_level)
{
	ff_level *want = expected();

	for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
		ff_level *got = read_map(maps[i], NULL);
		check_level(maps[i], got, want);
		ff_level_destroy(got);
	}
	ff_level_destroy(want);
}
END_TEST

/* A map written by hand as a designer would in Tiled: movement classes
 * and groups in map properties, costs to classes in tile properties, and
 * goals and spawns (one a source) of groups: the level written by hand in
 * the text format. */
START_TEST(groups_and_classes_read_as_written)
{
	ff_level *want = text_level("classes.level"), *got = read_map("classes.tmx", NULL);

	ck_assert_int_eq(got->meta.nclasses, 2);
	ck_assert_int_eq(got->meta.ngroups, 3);
	ck_assert_int_eq(got->meta.group_class[0], 2);
	ck_assert_int_eq(got->meta.goal_group[1], 1);
	ck_assert(got->meta.spawns[0].rate == 0.5);
	check_level("classes.tmx", got, want);
	ff_level_destroy(got);
	ff_level_destroy(want);
}
END_TEST

/* Embedded tilesets, and a layer picked by name past the first (whose
 * tile has no terrain: read by default, it fails naming the gid). */
START_TEST(embedded_tilesets_and_layers)
{
	static const char *const both[] = {"tmx-embedded.tmx", "tmj-embedded.tmj"};
	ff_level *want = expected();

	for (int i = 0; i < 2; i++) {
		char path[512];
		size_t len;
		char *buf;
		ff_tiled_opts o = {NULL, read_file, NULL};
		ff_tiled_diag d;
		ff_level *got = read_map(both[i], "ground"), *l = NULL;

		check_level(both[i], got, want);
		ff_level_destroy(got);
		snprintf(path, sizeof path, "%s/%s", DIR, both[i]);
		buf = read_file(NULL, path, &len, d.msg, sizeof d.msg);
		ck_assert_int_eq(ff_tiled_parse(buf, len, path, "x", &o, &l, &d), FF_E_PARSE);
		ck_assert_ptr_null(l);
		ck_assert_msg(strstr(d.msg, "tile gid 6 (id 5) has no 'cost', 'wall' or 'terrain'"),
			      "%s", d.msg);
		ck_assert_int_eq(d.line, i == 0 ? 37 : 0); /* the <tile>'s line in TMX */
		o.layer = "nope";
		ck_assert_int_eq(ff_tiled_parse(buf, len, path, "x", &o, &l, &d), FF_E_PARSE);
		ck_assert_str_eq(d.msg, "no tile layer named 'nope'");
		free(buf);
	}
	ff_level_destroy(want);
}
END_TEST

/* Written as TMX and TMJ, every shipped level (groups and classes too),
 * the expected ones and a map with trees read back equal. */
START_TEST(export_reads_back_the_same_level)
{
	static const char *const files[] = {
		FF_LEVELSDIR "/chokepoint.level", FF_LEVELSDIR "/terrain.level",
		FF_LEVELSDIR "/exits.level", FF_LEVELSDIR "/rooms.level",
		FF_LEVELSDIR "/maze.level", FF_LEVELSDIR "/open.level",
		FF_LEVELSDIR "/harbour.level", FF_LEVELSDIR "/squads.level",
		DIR "/expected.level", DIR "/classes.level", FF_TESTDATA "/den312d.map",
	};

	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
		for (int json = 0; json < 2; json++) {
			size_t len, tlen;
			char *buf = read_file(NULL, files[i], &len, (char[64]){0}, 64), *t;
			ff_level *a = NULL, *b = NULL;
			ff_tiled_diag d;
			ff_diag dd;

			ck_assert_int_eq(ff_level_parse_any(buf, len, "den312d", &a, &dd), FF_OK);
			t = ff_tiled_format(a, json, &tlen);
			ck_assert_ptr_nonnull(t);
			ck_assert_uint_eq(strlen(t), tlen);
			ck_assert_msg(ff_tiled_parse(t, tlen, json ? "x.tmj" : "x.tmx", "other", NULL, &b,
						     &d) == FF_OK, "%s as %s: %d:%d: %s", files[i],
				      json ? "TMJ" : "TMX", d.line, d.col, d.msg);
			ck_assert_msg(ff_level_equal(a, b), "%s as %s reads back different", files[i],
				      json ? "TMJ" : "TMX");
			free(t);
			free(buf);
			ff_level_destroy(a);
			ff_level_destroy(b);
		}
}
END_TEST

/* A goal and a spawn area that walls were painted over (the editor lets
 * one, and the text format keeps them, for solving to explain) read back
 * from TMX and TMJ as written; so does a class's goal on its walls.  The
 * reader refused them, "the goal covers walls only", so that a level saved
 * as a Tiled map did not open again. */
START_TEST(goals_under_walls_read_back)
{
	static const char text[] =
		"fieldmarshal level 2\nname under\nsize 4 3\nclass boat wall\n"
		"terrain grass . 1\nterrain water ~ 20 boat=1\nterrain wall # wall\n"
		"group ships class boat\ngoal cell 0 0\ngoal rect 1 2 2 1 group ships\n"
		"spawn rect 3 0 1 2 5\ngrid\n#.~#\n..~#\n~..~\nend\n";
	ff_level *a = NULL;
	ff_diag dd;

	ck_assert_int_eq(ff_textlevel_parse(text, strlen(text), &a, &dd), FF_OK);
	for (int json = 0; json < 2; json++) {
		ff_level *b = NULL;
		ff_tiled_diag d;
		size_t len;
		char *t = ff_tiled_format(a, json, &len);

		ck_assert_ptr_nonnull(t);
		ck_assert_msg(ff_tiled_parse(t, len, json ? "x.tmj" : "x.tmx", "other", NULL, &b, &d) ==
			      FF_OK, "%s: %d:%d: %s", json ? "TMJ" : "TMX", d.line, d.col, d.msg);
		ck_assert_msg(ff_level_equal(a, b), "%s reads back different", json ? "TMJ" : "TMX");
		free(t);
		ff_level_destroy(b);
	}
	ff_level_destroy(a);
}
END_TEST

struct bad_case {
	const char *what, *text;
	int line, col;           /* -1: any */
	const char *msg;
};

#define HEAD "<?xml version=\"1.0\"?>\n<map orientation=\"orthogonal\" width=\"2\" " \
	"height=\"1\" tilewidth=\"16\" tileheight=\"16\">\n" \
	" <tileset firstgid=\"1\"><tile id=\"0\"><properties><property name=\"cost\" " \
	"type=\"int\" value=\"1\"/></properties></tile></tileset>\n"
#define JHEAD "{\"width\": 2, \"height\": 1, \"tilewidth\": 16, \"tileheight\": 16,\n" \
	" \"tilesets\": [{\"firstgid\": 1, \"tiles\": [{\"id\": 0, \"properties\": " \
	"[{\"name\": \"cost\", \"type\": \"int\", \"value\": 1}]}]}],\n"

static const struct bad_case bad[] = {
	{"XML syntax", HEAD " <layer name=\"a\">\n  <data encoding=\"csv\">1,1</dat>\n",
	 5, 33, "mismatch"},
	{"JSON syntax", JHEAD " \"layers\": [}\n", 3, 13, ""},
	{"CSV letter", HEAD " <layer name=\"a\" width=\"2\" height=\"1\"><data encoding=\"csv\">\n"
	 "1,\n x</data></layer></map>\n", 6, 2, "expected a tile number"},
	{"CSV count", HEAD " <layer name=\"a\"><data encoding=\"csv\">1</data></layer></map>\n",
	 4, 0, "1 tiles for a 2x1 layer"},
	{"unknown gid", HEAD " <layer name=\"a\"><data encoding=\"csv\">1,7</data></layer></map>\n",
	 4, 0, "tile gid 7 is in no tileset"},
	{"bad base64", HEAD " <layer name=\"a\"><data encoding=\"base64\">AQAA*AEAAAA=</data>"
	 "</layer></map>\n", 4, 0, "bad base64"},
	{"bad zlib", HEAD " <layer name=\"a\"><data encoding=\"base64\" compression=\"zlib\">"
	 "AQAAAAEAAAA=</data></layer></map>\n", 4, 0, "layer data: not valid zlib-compressed data"},
	{"zlib cut short", HEAD " <layer name=\"a\"><data encoding=\"base64\" compression=\"zlib\">"
	 "eJxjZGBgYARiAAA=</data></layer></map>\n", 4, 0, "layer data: not valid zlib-compressed data"},
	{"zlib, one tile", HEAD " <layer name=\"a\"><data encoding=\"base64\" compression=\"zlib\">"
	 "eJxjZGBgAAAACAAC</data></layer></map>\n", 4, 0, "layer data: 1 tiles for a 2x1 layer of 2 (zlib)"},
	{"zlib, three tiles", HEAD " <layer name=\"a\"><data encoding=\"base64\" compression=\"zlib\">"
	 "eJxjZGBgYIRiAAAkAAQ=</data></layer></map>\n", 4, 0, "layer data: more than the 2 tiles of a 2x1 layer (zlib)"},
	{"raw, one tile", HEAD " <layer name=\"a\"><data encoding=\"base64\">"
	 "AQAAAA==</data></layer></map>\n", 4, 0, "layer data: 1 tiles for a 2x1 layer of 2 (uncompressed)"},
	{"raw, three tiles", HEAD " <layer name=\"a\"><data encoding=\"base64\">"
	 "AQAAAAEAAAABAAAA</data></layer></map>\n", 4, 0, "layer data: more than the 2 tiles of a 2x1 layer (uncompressed)"},
	{"raw, 5 bytes", HEAD " <layer name=\"a\"><data encoding=\"base64\">"
	 "AQAAAAA=</data></layer></map>\n", 4, 0, "layer data: 5 bytes, not whole tiles of 4 bytes"},
	{"lzma", HEAD " <layer name=\"a\"><data encoding=\"base64\" compression=\"lzma\">"
	 "AQAAAAEAAAA=</data></layer></map>\n", 4, 0, "unknown compression 'lzma'"},
	{"infinite", "<map orientation=\"orthogonal\" width=\"2\" height=\"1\" tilewidth=\"16\" "
	 "tileheight=\"16\" infinite=\"1\"/>", 1, 0, "an infinite map"},
	{"isometric", "<map orientation=\"isometric\" width=\"2\" height=\"1\" tilewidth=\"16\" "
	 "tileheight=\"16\"/>", 1, 0, "a isometric map: only orthogonal"},
	{"cost 300", "<map orientation=\"orthogonal\" width=\"2\" height=\"1\" tilewidth=\"16\" "
	 "tileheight=\"16\">\n<tileset firstgid=\"1\">\n<tile id=\"0\"><properties><property "
	 "name=\"cost\" type=\"int\" value=\"300\"/></properties></tile></tileset></map>",
	 3, 0, "'cost' must be an int property 1..254"},
	{"polygon goal", HEAD " <layer name=\"a\"><data encoding=\"csv\">1,1</data></layer>\n"
	 " <objectgroup>\n  <object id=\"9\" type=\"goal\" x=\"0\" y=\"0\"><polygon points=\"0,0 "
	 "5,5 0,5\"/></object></objectgroup></map>\n", 6, 0,
	 "object 9: a goal is a rectangle, an ellipse or a point"},
	{"spawn count", HEAD " <layer name=\"a\"><data encoding=\"csv\">1,1</data></layer>\n"
	 " <objectgroup><object id=\"4\" type=\"spawn\" x=\"0\" y=\"0\" width=\"16\" "
	 "height=\"16\"/></objectgroup></map>\n", 5, 0, "object 4: a spawn needs an int property"},
	{"goal outside", HEAD " <layer name=\"a\"><data encoding=\"csv\">1,1</data></layer>\n"
	 " <objectgroup><object id=\"2\" type=\"goal\" x=\"99\" y=\"0\"><point/></object>"
	 "</objectgroup></map>\n", 5, 0, "object 2: the goal is not inside the 2x1 map"},
	{"no layer", HEAD "</map>\n", 0, 0, "no tile layer"},
	{"class twice", HEAD " <properties><property name=\"classes\" value=\"boat, boat wall\"/>"
	 "</properties>\n <layer name=\"a\"><data encoding=\"csv\">1,1</data></layer></map>\n",
	 4, 0, "map property 'classes': class 'boat' is declared twice"},
	{"class rule", HEAD " <properties><property name=\"classes\" value=\"boat walls\"/>"
	 "</properties>\n <layer name=\"a\"><data encoding=\"csv\">1,1</data></layer></map>\n",
	 4, 0, "expected 'NAME' or 'NAME wall'"},
	{"group class", HEAD " <properties><property name=\"groups\" value=\"east class boat\"/>"
	 "</properties>\n <layer name=\"a\"><data encoding=\"csv\">1,1</data></layer></map>\n",
	 4, 0, "group 'east': unknown class 'boat'"},
	{"tile class", "<map orientation=\"orthogonal\" width=\"2\" height=\"1\" tilewidth=\"16\" "
	 "tileheight=\"16\">\n<tileset firstgid=\"1\">\n<tile id=\"0\"><properties><property "
	 "name=\"cost\" type=\"int\" value=\"3\"/><property name=\"classes\" "
	 "value=\"boat=1\"/></properties></tile></tileset>\n"
	 " <layer name=\"a\"><data encoding=\"csv\">1,1</data></layer></map>\n",
	 3, 0, "tile 0: 'classes': "},
	{"group name", HEAD " <layer name=\"a\"><data encoding=\"csv\">1,1</data></layer>\n"
	 " <objectgroup><object id=\"3\" type=\"goal\" x=\"0\" y=\"0\"><properties>\n"
	 " <property name=\"group\" value=\"no way\"/></properties><point/></object>"
	 "</objectgroup></map>\n", 6, 0, "object 3: 'group' must be a string property naming"},
	{"goal rate", HEAD " <layer name=\"a\"><data encoding=\"csv\">1,1</data></layer>\n"
	 " <objectgroup><object id=\"3\" type=\"goal\" x=\"0\" y=\"0\"><properties>"
	 "<property name=\"rate\" type=\"float\" value=\"2\"/></properties><point/></object>"
	 "</objectgroup></map>\n", 5, 0, "object 3: a goal has no 'rate'"},
	{"spawn rate", HEAD " <layer name=\"a\"><data encoding=\"csv\">1,1</data></layer>\n"
	 " <objectgroup><object id=\"4\" type=\"spawn\" x=\"0\" y=\"0\" width=\"16\" "
	 "height=\"16\"><properties><property name=\"count\" type=\"int\" value=\"5\"/>"
	 "<property name=\"rate\" type=\"float\" value=\"0\"/></properties></object>"
	 "</objectgroup></map>\n", 5, 0, "object 4: 'rate' must be a float property"},
	{"missing tileset", "<map orientation=\"orthogonal\" width=\"2\" height=\"1\" "
	 "tilewidth=\"16\" tileheight=\"16\">\n <tileset firstgid=\"1\" source=\"gone.tsx\"/>"
	 "</map>", 2, 0, "tileset '" DIR "/gone.tsx': cannot open"},
	{"JSON data", JHEAD " \"layers\": [{\"type\": \"tilelayer\", \"data\": [1, \"x\"]}]}\n",
	 0, 0, "layers[0]: data[1] is not a tile number"},
	{"JSON chunks", JHEAD " \"layers\": [{\"type\": \"tilelayer\", \"chunks\": []}]}\n",
	 0, 0, "layers[0]: an infinite map (chunks)"},
	/* found by tests/fuzz/fuzz_tiled: what a message quotes of the input
	 * comes escaped, one line without control characters */
	{"newline quoted", "<map orientation=\"orthogonal\" width=\"2\" height=\"1\" "
	 "tilewidth=\"16\" tileheight=\"16\">\n<tileset firstgid=\"1\">\n<tile id=\"0\">"
	 "<properties><property name=\"cost\" type=\"int\">1\n\t2</property>"
	 "</properties></tile></tileset></map>", 3, 0, "not int '1\\n\\t2'"},
	/* numbers too big for their type, or not numbers (UBSan's
	 * float-cast-overflow): the object id found by tests/fuzz/fuzz_tiled,
	 * the others reading the reader for it */
	{"object id", HEAD " <layer name=\"a\"><data encoding=\"csv\">1,1</data></layer>\n"
	 " <objectgroup><object id=\"1e63\" type=\"goal\" x=\"0\" y=\"0\"><point/></object>"
	 "</objectgroup></map>\n", 5, 0, "object id 1e+63: expected a whole number 0..2147483647"},
	{"JSON object id", JHEAD " \"layers\": [{\"type\": \"tilelayer\", \"data\": [1, 1]}, "
	 "{\"type\": \"objectgroup\", \"objects\": [{\"type\": \"goal\", \"id\": -1.5, "
	 "\"point\": true}]}]}\n", 0, 0, "layers[1].objects[0]: object id -1.5: expected"},
	{"width nan", "<map orientation=\"orthogonal\" width=\"nan\" height=\"1\" tilewidth=\"16\" "
	 "tileheight=\"16\"/>", 1, 0, "<map> attribute width is not a number: 'nan'"},
	{"tile width", "<map orientation=\"orthogonal\" width=\"2\" height=\"1\" tilewidth=\"1e300\" "
	 "tileheight=\"16\"/>", 1, 0, "tile size 1e+300x16: expected whole pixels 1..65536"},
	{"firstgid inf", "<map orientation=\"orthogonal\" width=\"2\" height=\"1\" tilewidth=\"16\" "
	 "tileheight=\"16\">\n <tileset firstgid=\"inf\"/></map>", 2, 0,
	 "<tileset> attribute firstgid is not a number: 'inf'"},
	{"tile gid", HEAD " <layer name=\"a\"><data>\n  <tile gid=\"1\"/><tile gid=\"1e10\"/></data>"
	 "</layer></map>\n", 5, 0, "layer data: <tile> gid 1e+10 is not a tile number"},
	{"goal far", HEAD " <layer name=\"a\"><data encoding=\"csv\">1,1</data></layer>\n"
	 " <objectgroup><object id=\"2\" type=\"goal\" x=\"1e300\" y=\"0\"><point/></object>"
	 "</objectgroup></map>\n", 5, 0, "object 2: the goal is not inside the 2x1 map"},
	{"JSON spawn far", JHEAD " \"layers\": [{\"type\": \"tilelayer\", \"data\": [1, 1]}, "
	 "{\"type\": \"objectgroup\", \"objects\": [{\"type\": \"spawn\", \"id\": 3, \"x\": 0, "
	 "\"y\": 0, \"width\": 1e300, \"height\": 16, \"properties\": [{\"name\": \"count\", "
	 "\"type\": \"int\", \"value\": 3}]}]}]}\n", 0, 0,
	 "layers[1].objects[0]: object 3: the spawn is not inside the 2x1 map"},
	{"JSON width", "{\"width\": 1e300, \"height\": 1, \"tilewidth\": 16, \"tileheight\": 16}",
	 0, 0, "map: 'width' must be a whole number 1..16384"},
	{"JSON note control", JHEAD " \"properties\": [{\"name\": \"note\", \"value\": "
	 "\"a\\u0001b\"}],\n \"layers\": [{\"type\": \"tilelayer\", \"data\": [1, 1]}]}\n",
	 0, 0, "map: map property 'note' holds a control character"},
	{"JSON control", JHEAD " \"layers\": \x01}\n", 3, 12, "invalid token near '\\x01'"},
};

START_TEST(malformed_maps_say_where)
{
	const struct bad_case *c = &bad[_i];
	char path[512];
	ff_tiled_opts o = {NULL, read_file, NULL};
	ff_tiled_diag d;
	ff_level *l = NULL;

	snprintf(path, sizeof path, "%s/bad.%s", DIR, c->text[0] == '{' ? "tmj" : "tmx");
	ck_assert_int_eq(ff_tiled_parse(c->text, strlen(c->text), path, "x", &o, &l, &d),
			 FF_E_PARSE);
	ck_assert_ptr_null(l);
	ck_assert_msg(d.line == c->line, "%s: line %d, expected %d (%s)", c->what, d.line, c->line,
		      d.msg);
	if (c->col)
		ck_assert_msg(d.col == c->col, "%s: column %d, expected %d (%s)", c->what, d.col,
			      c->col, d.msg);
	ck_assert_msg(strstr(d.msg, c->msg), "%s: said '%s'", c->what, d.msg);
	ck_assert_msg(!strchr(d.msg, '\n'), "%s: not one line: '%s'", c->what, d.msg);
	ck_assert_str_eq(d.file, path);
}
END_TEST

/* A note as the text format keeps it: each line ending in '\n', no CR
 * before it; else it changed through the text format (found by
 * tests/fuzz/fuzz_tiled). */
START_TEST(notes_read_as_the_text_format_keeps_them)
{
	static const char map[] = JHEAD " \"properties\": [{\"name\": \"note\", \"value\": "
				  "\"one\\r\\ntwo\\r\"}],\n \"layers\": [{\"type\": \"tilelayer\", "
				  "\"data\": [1, 1]}]}\n";
	ff_level *l = NULL, *back = NULL;
	ff_tiled_diag d;
	ff_diag dd;
	size_t len;
	char *text;

	ck_assert_int_eq(ff_tiled_parse(map, strlen(map), "x.tmj", "x", NULL, &l, &d), FF_OK);
	ck_assert_str_eq(l->meta.note, "one\ntwo\n");
	text = ff_textlevel_format(l, &len);
	ck_assert_int_eq(ff_textlevel_parse(text, len, &back, &dd), FF_OK);
	ck_assert(ff_level_equal(l, back));
	free(text);
	ff_level_destroy(l);
	ff_level_destroy(back);
}
END_TEST

/* A note longer than a level keeps is refused, not cut (a line of 2046
 * bytes and its newline would fit, and were all that was kept). */
START_TEST(a_long_note_is_refused)
{
	char map[4096], line[FF_NOTE_MAX - 1];
	ff_level *l = NULL;
	ff_tiled_diag d;

	memset(line, 'a', sizeof line - 1);
	line[sizeof line - 1] = '\0';
	snprintf(map, sizeof map, HEAD " <properties><property name=\"note\" value=\"%s&#10;"
		 "more\"/></properties>\n <layer name=\"a\"><data encoding=\"csv\">1,1</data>"
		 "</layer></map>", line);
	ck_assert_int_eq(ff_tiled_parse(map, strlen(map), "x.tmx", "x", NULL, &l, &d), FF_E_PARSE);
	ck_assert_ptr_null(l);
	ck_assert_int_eq(d.line, 4);
	ck_assert_str_eq(d.msg, "map property 'note' is longer than 2046 bytes");
}
END_TEST

/* The 64th external tileset is one too many: a message, not 'out of
 * memory' (found reading the reader for tests/fuzz/fuzz_tiled). */
START_TEST(too_many_external_tilesets)
{
	char map[8192];
	size_t n = (size_t)snprintf(map, sizeof map, "<map orientation=\"orthogonal\" width=\"2\" "
				    "height=\"1\" tilewidth=\"16\" tileheight=\"16\">");
	ff_tiled_opts o = {NULL, read_file, NULL};
	ff_level *l = NULL;
	ff_tiled_diag d;

	for (int i = 0; i < 64; i++)
		n += (size_t)snprintf(map + n, sizeof map - n, "\n<tileset firstgid=\"%d\" "
				      "source=\"terrain.tsx\"/>", 1 + 10 * i);
	snprintf(map + n, sizeof map - n, "</map>");
	ck_assert_int_eq(ff_tiled_parse(map, strlen(map), DIR "/x.tmx", "x", &o, &l, &d),
			 FF_E_PARSE);
	ck_assert_int_eq(d.line, 65);
	ck_assert_str_eq(d.msg, "external tileset 'terrain.tsx': a map takes at most 63");
}
END_TEST

static char *serve_bad_tileset(void *ctx, const char *path, size_t *len, char *err, size_t n)
{
	static const char tsx[] = "<tileset>\n<tile id=\"x\"/></tileset>";
	char *buf = malloc(sizeof tsx);

	(void)ctx, (void)path, (void)err, (void)n;
	ck_assert_ptr_nonnull(buf);
	memcpy(buf, tsx, sizeof tsx);
	*len = sizeof tsx - 1;
	return buf;
}

/* A message in a tileset names the tileset's file, which the map names:
 * escaped like the message (found by tests/fuzz/fuzz_tiled). */
START_TEST(tileset_names_come_escaped)
{
	static const char map[] = "<map orientation=\"orthogonal\" width=\"2\" height=\"1\" "
				  "tilewidth=\"16\" tileheight=\"16\">\n <tileset firstgid=\"1\" "
				  "source=\"a&#10;b.tsx\"/></map>";
	ff_tiled_opts o = {NULL, serve_bad_tileset, NULL};
	ff_tiled_diag d;
	ff_level *l = NULL;

	ck_assert_int_eq(ff_tiled_parse(map, strlen(map), "m/x.tmx", "x", &o, &l, &d), FF_E_PARSE);
	ck_assert_str_eq(d.file, "m/a\\nb.tsx");
	ck_assert_int_eq(d.line, 2);
	ck_assert_str_eq(d.msg, "<tile> attribute id is not a number: 'x'");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("tiled");
	TCase *tc = tcase_create("tiled");

	tcase_add_test(tc, every_encoding_reads_the_same_level);
	tcase_add_test(tc, embedded_tilesets_and_layers);
	tcase_add_test(tc, groups_and_classes_read_as_written);
	tcase_add_test(tc, export_reads_back_the_same_level);
	tcase_add_test(tc, goals_under_walls_read_back);
	tcase_add_loop_test(tc, malformed_maps_say_where, 0, (int)(sizeof bad / sizeof bad[0]));
	tcase_add_test(tc, tileset_names_come_escaped);
	tcase_add_test(tc, notes_read_as_the_text_format_keeps_them);
	tcase_add_test(tc, a_long_note_is_refused);
	tcase_add_test(tc, too_many_external_tilesets);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
