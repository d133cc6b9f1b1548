/*
 * fuzz_level.c - the text level parser.  Whatever it accepts is a level
 * that keeps the invariants of core/level.h, whose text y = format(level)
 * parses back to an equal level and is canonical: format(parse(y)) == y;
 * the same level also goes through the .map format and back.  Whatever it
 * refuses has a place and a one-line message without control characters.
 */
#include "core/level_text.h"
#include "fuzz.h"

/* L through the .map format: its cells come back as the format keeps them. */
static void through_map(const ff_level *l)
{
	ff_level *m = NULL;
	ff_diag d;
	size_t len;
	char *text = ff_mapfile_format(l, &len, NULL);

	if (!text)
		return;
	FUZZ_CHECK(ff_mapfile_parse(text, len, "m", &m, &d) == FF_OK, "%d:%d: %s", d.line,
		   d.col, d.msg);
	FUZZ_CHECK(m->w == l->w && m->h == l->h, "the .map changed the size");
	fuzz_check_level(m);
	ff_level_destroy(m);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ff_level *a = NULL, *b = NULL;
	char *y, *z;
	size_t ylen, zlen;
	ff_diag d;
	ff_err err = ff_textlevel_parse((const char *)data, size, &a, &d);

	if (err) {
		fuzz_check_refusal(err, a, &d);
		return 0;
	}
	fuzz_check_level(a);
	if (!(y = ff_textlevel_format(a, &ylen))) {
		ff_level_destroy(a);
		return 0;
	}
	err = ff_textlevel_parse(y, ylen, &b, &d);
	FUZZ_CHECK(err == FF_OK, "the formatted level does not parse: %d:%d: %s\n%s", d.line,
		   d.col, d.msg, y);
	FUZZ_CHECK(ff_level_equal(a, b), "format and parse changed the level:\n%s", y);
	z = ff_textlevel_format(b, &zlen);
	FUZZ_CHECK(z && zlen == ylen && !memcmp(y, z, ylen), "not canonical:\n%s\nbecame\n%s",
		   y, z ? z : "");
	through_map(a);
	free(y);
	free(z);
	ff_level_destroy(a);
	ff_level_destroy(b);
	return 0;
}
