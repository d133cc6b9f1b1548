/* bigmem.c - large arrays on huge pages where there are (bigmem.h). */
#define _DEFAULT_SOURCE         /* madvise */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bigmem.h"

/* Marks the pages of the N bytes at P for huge pages.  Advice only: it
 * changes no byte, and the pages it rounds out to (a neighbour's, at
 * worst) are only mapped differently.  Each whole, aligned 2 MiB of the
 * range can become one huge page (all of it when P is so aligned). */
static void *mark(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	long pg = sysconf(_SC_PAGESIZE);

	if (p && n >= FF_BIG_MIN && pg > 0) {
		uintptr_t a = (uintptr_t)p & ~((uintptr_t)pg - 1);
		uintptr_t e = ((uintptr_t)p + n + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
	}
#else
	(void)n;
#endif
	return p;
}

void *ff_big_malloc(size_t n)
{
	/* aligned, every 2 MiB of it can be a huge page */
	const size_t huge = (size_t)2 << 20;

	if (n < FF_BIG_MIN || n > SIZE_MAX - huge)
		return malloc(n);
	return mark(aligned_alloc(huge, (n + huge - 1) / huge * huge), n);
}

void *ff_big_calloc(size_t n)
{
	return mark(calloc(n, 1), n);
}
