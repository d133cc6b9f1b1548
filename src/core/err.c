/* err.c - the labelled table behind ff_strerror(). */
#include "err.h"

static const char *const messages[FF_E__COUNT] = {
	[0] = "ok",
	[-FF_E_INVAL] = "invalid argument",
	[-FF_E_NOMEM] = "out of memory",
	[-FF_E_PARSE] = "malformed input",
	[-FF_E_RANGE] = "outside the level",
	[-FF_E_WALL] = "lies on walls only",
	[-FF_E_FULL] = "table full",
	[-FF_E_NOTFOUND] = "not found",
	[-FF_E_STATE] = "not allowed now",
	[-FF_E_UNREACH] = "unreachable",
	[-FF_E_IO] = "input/output error",
	[-FF_E_CONFLICT] = "changed by someone else since it was loaded",
	[-FF_E_VERSION] = "made by a newer version",
};

const char *ff_strerror(ff_err err)
{
	int i = -(int)err;

	if (i < 0 || i >= FF_E__COUNT || !messages[i])
		return "unknown error";
	return messages[i];
}
