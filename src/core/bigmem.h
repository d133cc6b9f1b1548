/*
 * bigmem.h - memory for the large per-cell arrays (a level's layers, a
 * solver's fields, a file read whole): malloc()'s, freed with free(), but
 * marked for transparent huge pages where the system has them, so that the
 * kernel maps them 2 MiB at a time instead of 4 KiB: a 2048 x 2048 solve
 * touches some 60 MB of fresh memory, and at one page fault per 4 KiB
 * the faults alone took a third of a whole 'solve --query' (docs/solver.md).
 * Where there are no huge pages, or for small arrays, it is malloc() alone.
 */
#ifndef FF_BIGMEM_H
#define FF_BIGMEM_H

#include <stddef.h>

/* Arrays from this many bytes on are marked (two huge pages). */
#define FF_BIG_MIN ((size_t)4 << 20)

/* malloc(N) and calloc(N, 1), marked when N >= FF_BIG_MIN; ff_big_malloc
 * then takes aligned_alloc()'s memory, whole 2 MiB pages (the rounding
 * is address space: a page never touched takes no memory). */
void *ff_big_malloc(size_t n);
void *ff_big_calloc(size_t n);

#endif
