/*
 * allocwrap.h - counts heap allocations, for the suites that prove a hot
 * path allocates nothing.  The test program links with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc (tests/local.mk), so every
 * call lands here first; include this header in exactly one file of it.
 */
#ifndef FF_ALLOCWRAP_H
#define FF_ALLOCWRAP_H

#include <stddef.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t k);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t k);
void *__wrap_realloc(void *p, size_t n);

/* Allocations made so far. */
static long allocs;

void *__wrap_malloc(size_t n)
{
	allocs++;
	return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t k)
{
	allocs++;
	return __real_calloc(n, k);
}

void *__wrap_realloc(void *p, size_t n)
{
	allocs++;
	return __real_realloc(p, n);
}

#endif
