/*
 * allocwrap.h - counts heap allocations, and fails one on request, for the
 * suites that prove a hot path allocates nothing and that every failure is
 * survived.  The test program links with $(WRAP_ALLOC_FLAGS)
 * (-Wl,--wrap=malloc,... in tests/local.mk), so every call from a
 * statically linked object lands here first; include this header in
 * exactly one file of it.
 *
 *   allocs          allocations made so far
 *   live_blocks     blocks allocated here and not yet freed: a delta of 0
 *                   over an operation that failed means it leaked nothing
 *   alloc_fail_nth  makes the N-th allocation from now fail (NULL, errno
 *                   ENOMEM), as a full heap would; alloc_failed says
 *                   whether it came
 *
 * With ALLOCWRAP_SQLITE defined, allocwrap_sqlite() (called before SQLite
 * is first used) makes SQLite allocate through the same wrappers.
 */
#ifndef FF_ALLOCWRAP_H
#define FF_ALLOCWRAP_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t k);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t a, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t k);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_aligned_alloc(size_t a, size_t n);
void __wrap_free(void *p);
char *__wrap_strdup(const char *s);

static long allocs, live_blocks, fail_at;
static bool alloc_failed;

static inline void alloc_fail_nth(long n)
{
	fail_at = n > 0 ? allocs + n : 0;
	alloc_failed = false;
}

/* Counts one allocation; false when it is the one to fail. */
static bool alloc_ok(void)
{
	if (++allocs != fail_at)
		return true;
	fail_at = 0;
	alloc_failed = true;
	errno = ENOMEM;
	return false;
}

void *__wrap_malloc(size_t n)
{
	void *p = alloc_ok() ? __real_malloc(n) : NULL;

	live_blocks += p != NULL;
	return p;
}

void *__wrap_calloc(size_t n, size_t k)
{
	void *p = alloc_ok() ? __real_calloc(n, k) : NULL;

	live_blocks += p != NULL;
	return p;
}

void *__wrap_aligned_alloc(size_t a, size_t n)
{
	void *p = alloc_ok() ? __real_aligned_alloc(a, n) : NULL;

	live_blocks += p != NULL;
	return p;
}

void *__wrap_realloc(void *p, size_t n)
{
	void *q;

	if (!alloc_ok())
		return NULL;
	q = __real_realloc(p, n);
	live_blocks += (p == NULL && q != NULL) - (p != NULL && n == 0 && q == NULL);
	return q;
}

void __wrap_free(void *p)
{
	live_blocks -= p != NULL;
	__real_free(p);
}

char *__wrap_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = __wrap_malloc(n);

	return d ? memcpy(d, s, n) : NULL;
}

#ifdef ALLOCWRAP_SQLITE
#include <sqlite3.h>

/* A size word before each block answers SQLite's xSize. */
static void *sq_malloc(int n)
{
	size_t *p = __wrap_malloc((size_t)n + sizeof *p);

	return p ? (p[0] = (size_t)n, p + 1) : NULL;
}

static void sq_free(void *p)
{
	if (p)
		__wrap_free((size_t *)p - 1);
}

static void *sq_realloc(void *p, int n)
{
	size_t *q = __wrap_realloc((size_t *)p - 1, (size_t)n + sizeof *q);

	return q ? (q[0] = (size_t)n, q + 1) : NULL;
}

static int sq_size(void *p)
{
	return p ? (int)((size_t *)p)[-1] : 0;
}

static int sq_roundup(int n)
{
	return (n + 7) & ~7;
}

static int sq_init(void *ctx)
{
	(void)ctx;
	return SQLITE_OK;
}

static void sq_shutdown(void *ctx)
{
	(void)ctx;
}

static inline bool allocwrap_sqlite(void)
{
	static const sqlite3_mem_methods m = {
		sq_malloc, sq_free, sq_realloc, sq_size, sq_roundup, sq_init, sq_shutdown, NULL,
	};

	return sqlite3_config(SQLITE_CONFIG_MALLOC, &m) == SQLITE_OK;
}
#endif

#endif
