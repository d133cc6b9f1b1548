/* bench_tui.h - the editor's figures for 'fieldmarshal bench'. */
#ifndef FF_CLI_BENCH_TUI_H
#define FF_CLI_BENCH_TUI_H

#include <stdbool.h>
#include <stdio.h>

/* Prints the redraw time of a 200x60 view of a solved 1024x1024 level with
 * integration numbers, and the bytes sent to the terminal per cursor move,
 * to OUT.  False (after printing why) when the benchmark cannot run. */
bool ff_cli_bench_tui(FILE *out, bool quick);

#endif
