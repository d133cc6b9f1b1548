/*
 * testutil.h - small helpers shared by the Check suites: reading test data
 * and a seeded PRNG for property tests (independent of the program's own).
 */
#ifndef FF_TESTUTIL_H
#define FF_TESTUTIL_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Reads DIR/NAME into a NUL-terminated buffer; fails the test if missing. */
static inline char *tu_read(const char *dir, const char *name, size_t *len)
{
	char path[1024];
	FILE *f;
	long n;
	char *buf;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}

/* splitmix64: a tiny deterministic generator for test inputs. */
static inline uint64_t tu_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static inline int tu_range(uint64_t *s, int lo, int hi)
{
	return lo + (int)(tu_rand(s) % (uint64_t)(hi - lo + 1));
}

/* Runs SUITE and returns the process exit code. */
static inline int tu_run(Suite *suite)
{
	SRunner *sr = srunner_create(suite);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
