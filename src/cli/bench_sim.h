/* bench_sim.h - the crowd simulation's benchmark, called by 'bench'. */
#ifndef FF_CLI_BENCH_SIM_H
#define FF_CLI_BENCH_SIM_H

#include <stdbool.h>
#include <stdio.h>

/* Prints a table of ms per tick (and ns per agent) for 100,000 and
 * 1,000,000 agents on a 512 x 512 level with separation and funnelling;
 * QUICK runs fewer ticks.  Returns false (after printing why) on failure. */
bool ff_cli_bench_sim(FILE *out, bool quick);

#endif
