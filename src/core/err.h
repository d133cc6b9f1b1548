/*
 * err.h - error codes shared by every core module.
 *
 * Every fallible core function returns ff_err: FF_OK (0) on success or a
 * negative code.  On failure the object the function was called on is left
 * exactly as it was.  Detailed, human-readable messages (with file, line and
 * column where they apply) live on the object that failed, never in a global.
 */
#ifndef FF_ERR_H
#define FF_ERR_H

#include <stddef.h>

typedef enum ff_err {
	FF_OK = 0,
	FF_E_INVAL = -1,   /* bad argument: out of range, wrong shape, ... */
	FF_E_NOMEM = -2,   /* allocation failed */
	FF_E_PARSE = -3,   /* malformed text input */
	FF_E_RANGE = -4,   /* coordinate or size outside the level */
	FF_E_WALL = -5,    /* a goal or spawn that lies entirely on walls */
	FF_E_FULL = -6,    /* a fixed-size table (palette, goals) is full */
	FF_E_NOTFOUND = -7,/* no such name, goal, terrain or command */
	FF_E_STATE = -8,   /* not allowed in the current state */
	FF_E_UNREACH = -9, /* nothing reachable from the goals */
	FF_E_IO = -10,     /* an I/O error reported by a non-core layer */
	FF_E_CONFLICT = -11, /* stored revision changed since it was loaded */
	FF_E_VERSION = -12,  /* file or database from a newer format */
	FF_E__COUNT = 13
} ff_err;

/* Returns a static lower-case description of ERR; never NULL. */
const char *ff_strerror(ff_err err);

/* Copies SRC into DST (SIZE bytes; NUL-terminated when SIZE > 0) with every
 * control character made visible, so that a message quoting its input
 * shows what the input held and never drives the terminal: \t \r \n, \xHH
 * for other C0 bytes, DEL and bytes that are not UTF-8, \u0080..\u009f
 * for C1 controls.  Everything else (UTF-8 text, backslashes) is copied as
 * it is, so escaping twice changes nothing.  Cuts at SIZE - 1 bytes, never
 * inside an escape or a character; returns the length of the result. */
size_t ff_escape(char *dst, size_t size, const char *src);
/* Escapes the message in MSG (SIZE bytes) in place, cutting as above. */
void ff_escape_msg(char *msg, size_t size);

#endif
