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

/* A through the Tiled writer (TMX, or TMJ with JSON) and reader: equal,
 * and canonical. */
static void round_trip(const ff_level *a, bool json)
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ff_tiled_opts o = {NULL, read_tileset, NULL};
	ff_level *a = NULL;
	ff_tiled_diag d;
	ff_err err = ff_tiled_parse((const char *)data, size, "maps/fuzz", "fuzz", &o, &a, &d);

	if (err) {
		check_refusal(err, a, &d);
		return 0;
	}
	fuzz_check_level(a);
	if ((size_t)a->w * (size_t)a->h <= MAX_CELLS) {
		round_trip(a, false);
		round_trip(a, true);
		through_text(a);
	}
	ff_level_destroy(a);
	return 0;
}
