/* bench_store.h - the level store's benchmark, called by 'bench'. */
#ifndef FF_CLI_BENCH_STORE_H
#define FF_CLI_BENCH_STORE_H

#include <stdbool.h>
#include <stdio.h>

/* Prints a table of median times for saving and loading a 1024 x 1024
 * level and listing 1,000 levels, in a scratch database under $TMPDIR
 * (removed afterwards); QUICK runs fewer repeats.  Returns false (after
 * printing why) on failure. */
bool ff_cli_bench_store(FILE *out, bool quick);

#endif
