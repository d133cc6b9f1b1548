/* json.c - writing --json documents (json.h). */
#define _POSIX_C_SOURCE 200809L /* gmtime_r */
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "json.h"
#include "util.h"

json_t *ff_json_real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *ff_json_time(int64_t t)
{
	time_t tt = (time_t)t;
	char s[32];
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%SZ", &tm))
		return json_null();
	return json_string(s);
}

int ff_json_print(json_t *doc)
{
	int bad;

	if (!doc) {
		ff_cli_error("out of memory");
		return FF_EXIT_FAIL;
	}
	bad = json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			 JSON_REAL_PRECISION(17)) || putchar('\n') == EOF;
	json_decref(doc);
	/* main() reports a lost standard output once, with its reason */
	return bad ? FF_EXIT_FAIL : FF_EXIT_OK;
}
