/*
 * util.h - what several subcommands share: reading and writing files,
 * loading a level given on the command line, and reporting errors.
 *
 * Messages go to stderr as "fieldmarshal: <problem>" (lower case, no full
 * stop); parse errors as "FILE:LINE:COL: <message>".
 */
#ifndef FF_CLI_UTIL_H
#define FF_CLI_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/level.h"
#include "core/solver.h"

enum { FF_EXIT_OK = 0, FF_EXIT_FAIL = 1, FF_EXIT_USAGE = 2 };

/* Prints the formatted message and a newline to stderr, its control
 * characters escaped (ff_escape(): a file name or a line quoted from a file
 * shows what it holds and never drives the terminal).  Every message of the
 * program goes through it. */
void ff_cli_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "fieldmarshal: " and the formatted message as ff_cli_say() does. */
void ff_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* From now on, the messages of ff_cli_say() and ff_cli_error() go into
 * BUF (SIZE bytes), joined by "; ", instead of stderr, so that a caller
 * can make them part of its own one-line error; ff_cli_hold(NULL, 0)
 * prints them again. */
void ff_cli_hold(char *buf, size_t size);
/* Prints a usage error plus "try 'fieldmarshal CMD --help'"; returns 2. */
int ff_cli_usage(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The most a file read may hold: four times the text of the largest level
 * (16384 x 16384 cells with CRLF line ends, 269 MB), room for comments and
 * a replay's commands; more is refused rather than read until memory runs
 * out (/dev/zero, a runaway pipe). */
#define FF_CLI_FILE_MAX ((size_t)1 << 30)

/* Reads all of PATH ("-" for stdin) into a NUL-terminated buffer the caller
 * frees.  PATH must be a regular file (a FIFO, a device or a directory is
 * refused without blocking; standard input may be anything) of at most
 * FF_CLI_FILE_MAX bytes.  On failure, or when the file holds a NUL byte (it
 * is no text), prints why (FILE:LINE:COL for the NUL) and returns NULL. */
char *ff_cli_read_file(const char *path, size_t *len);
/* The same, saying nothing: on failure puts the message in WHY (SIZE
 * bytes), "FILE:LINE:COL: ..." when *LOCATED, else for "fieldmarshal: ". */
char *ff_cli_read_file_quiet(const char *path, size_t *len, char *why, size_t size,
			     bool *located);
/* Writes LEN bytes to PATH ("-" for stdout) through a temporary file and a
 * rename, so an interrupted write never leaves a half file; a path that is
 * not a regular file (a pipe, a device) is written to in place.  Through a
 * symbolic link it writes the file the link names (creating it when
 * missing), and the link stays.  Prints why and returns false on failure. */
bool ff_cli_write_file(const char *path, const char *data, size_t len);

/* Flushes standard output.  When a write to it failed, now or before (a
 * full disk, a closed descriptor), says "cannot write to standard output:
 * WHY" (once per run) and returns false.  main() calls it before exiting,
 * so every command fails when its output was lost. */
bool ff_cli_flush_stdout(void);

/* Loads the level named by ARG: a text level or a Moving AI .map file (or
 * the name of a level stored in the database, when no such file exists).  On failure
 * prints the reason (FILE:LINE:COL for parse errors) and returns NULL.
 * Caller frees with ff_level_destroy(). */
ff_level *ff_cli_load_level(const char *arg);
/* A level name derived from a path: the base name without its extension,
 * with characters outside [A-Za-z0-9_.-] replaced by '_'. */
void ff_cli_name_from_path(const char *path, char name[FF_NAME_MAX]);
/* The folder of PATH into DIR (N bytes, cut when longer), as dirname(3)
 * gives it: "." for a bare name. */
void ff_cli_dir_of(const char *path, char *dir, size_t n);
/* Says why solving L (WHAT names it: a file, a stored level) towards GOALS
 * failed with E, naming the goal the solver blames: "cannot solve 'x':
 * goal 2 at 5,5 lies entirely on walls".  Solve, sim and bench share it. */
void ff_cli_solve_error(const char *what, const ff_solver *s, const ff_level *l,
			const ff_shape *goals, int ngoals, ff_err e);
/* The same with the failing goal given: its index I among GOALS, or -1. */
void ff_cli_goal_error(const char *what, const ff_level *l, const ff_shape *goals, int ngoals,
		       int i, ff_err e);
/* The bytes this process can still take: the smaller of the system's
 * available memory (MemAvailable) and what the address-space and data
 * limits (ulimit -v, -d) leave; 0 when none of them is known. */
size_t ff_cli_mem_avail(void);
/* Creates a solver for L and the method of O (a hierarchical one for
 * "hier", without the full field's buffers), first checking that a full
 * one fits in the memory available; on failure says why ("cannot solve
 * 'WHAT': a full field of ... needs ...") and returns NULL. */
ff_solver *ff_cli_solver_for(const char *what, const ff_level *l, const ff_solver_opts *o);
/* Parses "X,Y" into two ints; false when malformed. */
bool ff_cli_parse_xy(const char *s, int *x, int *y);

#endif
