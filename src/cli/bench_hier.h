/*
 * bench_hier.h - the hierarchical field's table in 'fieldmarshal bench':
 * building the graph, new orders answered at a queried cell (with the
 * portal distances still to compute, and computed), an edit of one cell,
 * beside a full Dijkstra solve of the same level; and its accuracy on the
 * Moving AI maps.
 */
#ifndef FF_CLI_BENCH_HIER_H
#define FF_CLI_BENCH_HIER_H

#include <stdbool.h>
#include <stdio.h>

/* Prints the table to OUT; with MAPS (a folder of Moving AI .map files
 * and their .scen), the accuracy on each.  QUICK: 4096 cells square only,
 * every tenth scenario.  False when something could not be measured (said
 * on stderr). */
bool ff_cli_bench_hier(FILE *out, bool quick, const char *maps);

#endif
