/*
 * json.h - machine-readable output (--json): a jansson document built by a
 * command and written to standard output in one piece.
 *
 * Keys keep the order they were added in, so outputs diff well; reals are
 * written with 17 significant digits, enough to read back the same double.
 * JSON has no infinity: a value that is not finite (an unreachable cell)
 * is null.  docs/json.md documents every command's document.
 */
#ifndef FF_CLI_JSON_H
#define FF_CLI_JSON_H

#include <stdint.h>

#include <jansson.h>

/* V as a JSON number, or null when V is not finite.  NULL only when out of
 * memory (json_pack's "o" then fails the whole document, as it should). */
json_t *ff_json_real(double v);
/* Seconds since the epoch as an ISO 8601 UTC time, "2024-05-01T12:00:00Z". */
json_t *ff_json_time(int64_t t);
/* Writes DOC to standard output, indented, with a newline, and releases it
 * (takes ownership).  A NULL DOC (building it ran out of memory) or a
 * failed write is reported.  Returns FF_EXIT_OK or FF_EXIT_FAIL. */
int ff_json_print(json_t *doc);

#endif
