/*
 * benchutil.h - what the benchmark tables share: a clock in milliseconds
 * and the median of a set of timings.
 */
#ifndef FF_CLI_BENCHUTIL_H
#define FF_CLI_BENCHUTIL_H

#include <time.h>

/* CLOCK (CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID, ...) in milliseconds. */
double ff_bench_ms(clockid_t clock);
/* The median of the N timings in T (sorts T). */
double ff_bench_median(double *t, int n);

#endif
