/*
 * fuzz_map.c - the Moving AI .map parser.  Whatever it accepts is a level
 * that keeps the invariants of core/level.h and whose .map text y =
 * format(level) parses back to the same level and formats to y again; the
 * level also goes through the text format and back.  Whatever it refuses
 * has a place and a one-line message without control characters.
 */
#include "core/level_text.h"
#include "fuzz.h"

/* A level through FORMAT and its parser: equal, and canonical. */
static void round_trip(const ff_level *a, bool map)
{
	ff_level *b = NULL;
	char *y, *z;
	size_t ylen, zlen;
	ff_diag d;

	y = map ? ff_mapfile_format(a, &ylen, NULL) : ff_textlevel_format(a, &ylen);
	if (!y)
		return;
	FUZZ_CHECK((map ? ff_mapfile_parse(y, ylen, a->meta.name, &b, &d) :
		    ff_textlevel_parse(y, ylen, &b, &d)) == FF_OK, "%d:%d: %s\n%s", d.line,
		   d.col, d.msg, y);
	FUZZ_CHECK(ff_level_equal(a, b), "the %s format changed the level:\n%s",
		   map ? ".map" : "text", y);
	z = map ? ff_mapfile_format(b, &zlen, NULL) : ff_textlevel_format(b, &zlen);
	FUZZ_CHECK(z && zlen == ylen && !memcmp(y, z, ylen), "not canonical:\n%s", y);
	free(y);
	free(z);
	ff_level_destroy(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ff_level *a = NULL;
	ff_diag d;
	ff_err err = ff_mapfile_parse((const char *)data, size, "fuzz", &a, &d);

	if (err) {
		fuzz_check_refusal(err, a, &d);
		return 0;
	}
	fuzz_check_level(a);
	round_trip(a, true);
	round_trip(a, false);
	ff_level_destroy(a);
	return 0;
}
