/*
 * run_corpus.c - main() for a fuzz target built without libFuzzer: feeds
 * the target every file of the corpus folders named on the command line
 * (or of FF_FUZZ_CORPUS, the target's folder in tests/fuzz/corpus/), in
 * name order, so that every input a fuzzer kept, crashes found included,
 * stays a regression test.  A failed check aborts.
 */
#define _POSIX_C_SOURCE 200809L /* scandir */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Feeds the target the file PATH; false when it cannot be read. */
static bool feed(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (!f)
		return false;
	do {
		if (n == cap) {
			uint8_t *b = realloc(buf, cap = cap ? cap * 2 : 4096);
			if (!b) {
				free(buf);
				fclose(f);
				return false;
			}
			buf = b;
		}
		n += got = fread(buf + n, 1, cap - n, f);
	} while (got > 0);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return true;
}

static int run_dir(const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort), fed = 0;

	if (n < 0) {
		fprintf(stderr, "cannot read the corpus '%s'\n", dir);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
		if (!stat(path, &st) && S_ISREG(st.st_mode)) {
			if (!feed(path)) {
				fprintf(stderr, "cannot read '%s'\n", path);
				fed = -1;
			} else if (fed >= 0) {
				fed++;
			}
		}
		free(names[i]);
	}
	free(names);
	return fed;
}

int main(int argc, char **argv)
{
	const char *def[] = {FF_FUZZ_CORPUS};
	const char **dirs = argc > 1 ? (const char **)argv + 1 : def;
	int ndirs = argc > 1 ? argc - 1 : 1, total = 0;

	for (int i = 0; i < ndirs; i++) {
		int n = run_dir(dirs[i]);

		if (n <= 0) {
			fprintf(stderr, "%s: no inputs\n", dirs[i]);
			return EXIT_FAILURE;
		}
		total += n;
	}
	printf("%d inputs, every check held\n", total);
	return EXIT_SUCCESS;
}
