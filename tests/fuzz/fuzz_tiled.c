/*
 * fuzz_tiled.c - the Tiled map reader, TMX and TMJ alike (the reader picks
 * by content), its external tilesets served from memory: any '.tsx' is
 * TSX below, any '.tsj' TSJ below, any other name refused, so no disk is
 * read.  Whatever it accepts is a level that keeps the invariants of
 * core/level.h and that the TMX, TMJ and text writers write out in a form
 * their readers take back as an equal level (writer and reader agree), the
 * Tiled ones canonically: the level read back writes the same text.
 * Whatever it refuses has a one-line message without control characters,
 * and a file name without them either.
 *
 * An input that starts with a line 'layer NAME' reads the rest with
 * --layer NAME (NAME may be empty, or hold any byte but a newline); the
 * maps the writers write then read back the same with --layer terrain
 * (the name they give their tile layer) and are refused, with a message,
 * with a name of no layer of theirs.
 */
#include "core/level_text.h"
#include "fuzz.h"
#include "tiled/tiled.h"

/* The levels written out: larger ones reach no code that smaller ones do
 * not and make a run slow (a few bytes of zstd can make a million cells). */
#define MAX_CELLS (256 * 256)

/* The tileset of tests/data/tiled/terrain.tsx (and .tsj). */
static const char TSX[] =
	"<?xml version=\"1.0\"?>\n<tileset name=\"t\" tilewidth=\"16\" tileheight=\"16\">\n"
	" <tile id=\"0\"><properties><property name=\"terrain\" value=\"grass\"/></properties></tile>\n"
	" <tile id=\"1\"><properties><property name=\"cost\" type=\"int\" value=\"5\"/>"
	"</properties></tile>\n"
	" <tile id=\"2\"><properties><property name=\"wall\" type=\"bool\" value=\"true\"/>"
	"</properties></tile>\n"
	" <tile id=\"3\"><properties><property name=\"terrain\" value=\"lava\"/>"
	"<property name=\"cost\" type=\"int\" value=\"40\"/></properties></tile>\n"
	" <tile id=\"4\"><properties><property name=\"terrain\" value=\"tree\"/>"
	"<property name=\"wall\" type=\"bool\" value=\"true\"/>"
	"<property name=\"glyph\" value=\"T\"/></properties></tile>\n"
	" <tile id=\"5\" type=\"decoration\"/>\n</tileset>\n";

static const char TSJ[] =
	"{\"type\": \"tileset\", \"tiles\": [\n"
	" {\"id\": 0, \"properties\": [{\"name\": \"terrain\", \"type\": \"string\", \"value\": \"grass\"}]},\n"
	" {\"id\": 1, \"properties\": [{\"name\": \"cost\", \"type\": \"int\", \"value\": 5}]},\n"
	" {\"id\": 2, \"properties\": [{\"name\": \"wall\", \"type\": \"bool\", \"value\": true}]},\n"
	" {\"id\": 3, \"properties\": [{\"name\": \"terrain\", \"type\": \"string\", \"value\": \"lava\"},\n"
	"  {\"name\": \"cost\", \"type\": \"int\", \"value\": 40}]},\n"
	" {\"id\": 4, \"properties\": [{\"name\": \"terrain\", \"type\": \"string\", \"value\": \"tree\"},\n"
	"  {\"name\": \"wall\", \"type\": \"bool\", \"value\": true},\n"
	"  {\"name\": \"glyph\", \"type\": \"string\", \"value\": \"T\"}]},\n"
	" {\"id\": 5, \"type\": \"decoration\"}]}\n";

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);

	return n >= k && !strcmp(s + n - k, tail);
}

static char *read_tileset(void *ctx, const char *path, size_t *len, char *err, size_t n)
{
	const char *text = ends_with(path, ".tsx") ? TSX : ends_with(path, ".tsj") ? TSJ : NULL;

	(void)ctx;
	if (!text) {
		snprintf(err, n, "no such file");
		return NULL;
	}
	*len = strlen(text);
	return fuzz_string((const uint8_t *)text, *len);
}

/* A refusal: FF_E_PARSE with a message (or FF_E_NOMEM), no level. */
static void check_refusal(ff_err err, const ff_level *l, const ff_tiled_diag *d)
{
	FUZZ_CHECK(err == FF_E_PARSE || err == FF_E_NOMEM, "error %d", err);
	FUZZ_CHECK(!l, "a level handed out with an error");
	if (err != FF_E_PARSE)
		return;
	FUZZ_CHECK(d->line >= 0 && d->col >= 0 && (d->line || !d->col), "at %d:%d", d->line,
		   d->col);
	fuzz_check_msg(d->msg);
	fuzz_check_msg(d->file);
}

/* The map Y (LEN bytes) that the writer wrote of A: read with --layer
 * terrain, A again; with --layer LAYER, when that is another name, a
 * refusal. */
static void by_layer(const ff_level *a, const char *y, size_t len, bool json, const char *layer)
{
	ff_tiled_opts o = {"terrain", NULL, NULL};
	const char *path = json ? "w.tmj" : "w.tmx";
	ff_level *b = NULL;
	ff_tiled_diag d;

	FUZZ_CHECK(ff_tiled_parse(y, len, path, "w", &o, &b, &d) == FF_OK, "--layer terrain: "
		   "%s:%d:%d: %s\n%s", d.file, d.line, d.col, d.msg, y);
	FUZZ_CHECK(ff_level_equal(a, b), "--layer terrain changed the level:\n%s", y);
	ff_level_destroy(b);
	if (!layer || !strcmp(layer, "terrain"))
		return;
	o.layer = layer;
	b = NULL;
	FUZZ_CHECK(ff_tiled_parse(y, len, path, "w", &o, &b, &d) == FF_E_PARSE,
		   "--layer '%s' read a map whose only tile layer is 'terrain'", layer);
	check_refusal(FF_E_PARSE, b, &d);
}

/* A through the Tiled writer (TMX, or TMJ with JSON) and reader: equal,
 * and canonical; with LAYER, by_layer() too. */
static void round_trip(const ff_level *a, bool json, const char *layer)
{
	ff_level *b = NULL;
	ff_tiled_diag d;
	size_t ylen, zlen;
	char *y = ff_tiled_format(a, json, &ylen), *z;

	if (!y)
		return;
	FUZZ_CHECK(ff_tiled_parse(y, ylen, json ? "w.tmj" : "w.tmx", "w", NULL, &b, &d) == FF_OK,
		   "%s:%d:%d: %s\n%s", d.file, d.line, d.col, d.msg, y);
	FUZZ_CHECK(ff_level_equal(a, b), "the %s writer changed the level:\n%s",
		   json ? "TMJ" : "TMX", y);
	if (layer)
		by_layer(a, y, ylen, json, layer);
	z = ff_tiled_format(b, json, &zlen);
	FUZZ_CHECK(z && zlen == ylen && !memcmp(y, z, ylen), "not canonical:\n%s\nbecame\n%s", y,
		   z ? z : "");
	free(y);
	free(z);
	ff_level_destroy(b);
}

/* A through the text format and back: equal. */
static void through_text(const ff_level *a)
{
	ff_level *b = NULL;
	ff_diag d;
	size_t len;
	char *y = ff_textlevel_format(a, &len);

	if (!y)
		return;
	FUZZ_CHECK(ff_textlevel_parse(y, len, &b, &d) == FF_OK, "%d:%d: %s\n%s", d.line, d.col,
		   d.msg, y);
	FUZZ_CHECK(ff_level_equal(a, b), "the text format changed the level:\n%s", y);
	free(y);
	ff_level_destroy(b);
}

/* The layer an input starting 'layer NAME\n' names (a new string), its
 * map then after that line; else NULL. */
static char *layer_line(const uint8_t **data, size_t *size)
{
	static const char tag[] = "layer ";
	const uint8_t *nl;
	char *layer;

	if (*size < sizeof tag - 1 || memcmp(*data, tag, sizeof tag - 1) ||
	    !(nl = memchr(*data, '\n', *size)))
		return NULL;
	layer = fuzz_string(*data + sizeof tag - 1, (size_t)(nl - *data) - (sizeof tag - 1));
	*size -= (size_t)(nl + 1 - *data);
	*data = nl + 1;
	return layer;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *layer = layer_line(&data, &size);
	ff_tiled_opts o = {layer, read_tileset, NULL};
	ff_level *a = NULL;
	ff_tiled_diag d;
	ff_err err;

	/* the layer's name is a C string: a NUL in it ends it */
	err = ff_tiled_parse((const char *)data, size, "maps/fuzz", "fuzz", &o, &a, &d);
	if (err) {
		check_refusal(err, a, &d);
		free(layer);
		return 0;
	}
	fuzz_check_level(a);
	if ((size_t)a->w * (size_t)a->h <= MAX_CELLS) {
		round_trip(a, false, layer);
		round_trip(a, true, layer);
		through_text(a);
	}
	ff_level_destroy(a);
	free(layer);
	return 0;
}
