/* err.c - the labelled table behind ff_strerror(), and the escaping of
 * control characters in messages. */
#include <stdio.h>
#include <string.h>

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

/* The length of the UTF-8 character at S (2 to 4 bytes), or 0 when S does
 * not start one (a stray, overlong or surrogate sequence). */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	unsigned cp;

	if (!n || s[0] > 0xf4)
		return 0;
	cp = s[0] & (0x7f >> n);
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

size_t ff_escape(char *dst, size_t size, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t out = 0;

	while (*s) {
		char esc[8];
		int n = *s >= 0x80 ? utf8_len(s) : 1;
		const char *piece = (const char *)s;
		size_t len = n ? (size_t)n : 1;

		if (*s == '\t' || *s == '\r' || *s == '\n')
			snprintf(esc, sizeof esc, "\\%c", *s == '\t' ? 't' : *s == '\r' ? 'r' : 'n');
		else if (*s < 0x20 || *s == 0x7f || n == 0)
			snprintf(esc, sizeof esc, "\\x%02x", *s);
		else if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0)
			snprintf(esc, sizeof esc, "\\u%04x", s[1]);
		else
			esc[0] = '\0';
		if (esc[0])
			piece = esc;
		s += len;
		len = esc[0] ? strlen(esc) : len;
		if (out + len >= size)
			break;
		memcpy(dst + out, piece, len);
		out += len;
	}
	if (size)
		dst[out] = '\0';
	return out;
}

void ff_escape_msg(char *msg, size_t size)
{
	char raw[1024];

	if (size > sizeof raw)
		size = sizeof raw;
	memcpy(raw, msg, size);
	raw[size - 1] = '\0';
	ff_escape(msg, size, raw);
}
