/*
 * fuzz.h - what the fuzz targets share: a check that aborts (libFuzzer
 * reports an abort as a crash and keeps the input), the level invariants of
 * core/level.h, and the rules every message follows.
 *
 * Each target defines LLVMFuzzerTestOneInput().  Built with clang and
 * -fsanitize=fuzzer it is a fuzzer ('make fuzz'); built with any compiler
 * and tests/fuzz/run_corpus.c it feeds the target every input of its
 * corpus in tests/fuzz/corpus/, a regression test in 'make check'.
 */
#ifndef FF_FUZZ_H
#define FF_FUZZ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/level.h"
#include "core/level_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond, ...) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "%s:%d: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__); \
			fputc('\n', stderr); \
			abort(); \
		} \
	} while (0)

/* True when every whole number in DATA reads at most MAX: a run of
 * decimal digits, unless it follows a letter or a '.' (the digits of a
 * hexadecimal hash or of a fraction, as in 'expect value 0,2 9.65685425',
 * count for nothing).  Big numbers (a million ticks, a 4096 x 4096
 * resize) make a run slow without reaching code that small ones do not;
 * the targets that run commands pass such inputs over. */
static inline bool fuzz_small_numbers(const uint8_t *d, size_t n, long max)
{
	long v = 0;
	bool counts = true;

	for (size_t i = 0; i < n; i++) {
		if (d[i] >= '0' && d[i] <= '9') {
			if (counts && (v = v * 10 + (d[i] - '0')) > max)
				return false;
			continue;
		}
		v = 0;
		counts = d[i] != '.' && !((d[i] | 0x20) >= 'a' && (d[i] | 0x20) <= 'z');
	}
	return true;
}

/* A message: not empty, no control characters (ff_escape()). */
static inline void fuzz_check_msg(const char *msg)
{
	FUZZ_CHECK(msg[0], "an empty message");
	for (const unsigned char *p = (const unsigned char *)msg; *p; p++)
		FUZZ_CHECK(*p >= 0x20 && *p != 0x7f, "a control character in '%s'", msg);
}

/* A parser's refusal ERR: FF_E_PARSE with a place and a message (or
 * FF_E_NOMEM), and no level L handed out. */
static inline void fuzz_check_refusal(ff_err err, const ff_level *l, const ff_diag *d)
{
	FUZZ_CHECK(err == FF_E_PARSE || err == FF_E_NOMEM, "error %d", err);
	FUZZ_CHECK(!l, "a level handed out with an error");
	if (err == FF_E_PARSE) {
		FUZZ_CHECK(d->line >= 1 && d->col >= 1, "at %d:%d", d->line, d->col);
		fuzz_check_msg(d->msg);
	}
}

/* The invariants of core/level.h. */
static inline void fuzz_check_level(const ff_level *l)
{
	const ff_level_meta *m = &l->meta;
	int nwalls = 0;

	FUZZ_CHECK(l->w >= 1 && l->h >= 1 && l->w <= FF_LEVEL_MAX_SIDE &&
		   l->h <= FF_LEVEL_MAX_SIDE, "size %dx%d", l->w, l->h);
	FUZZ_CHECK(ff_level_name_ok(m->name), "name '%s'", m->name);
	FUZZ_CHECK(m->npalette >= 0 && m->npalette <= FF_PALETTE_MAX, "%d terrains", m->npalette);
	for (int i = 0; i < m->npalette; i++) {
		const ff_terrain *t = &m->palette[i];

		FUZZ_CHECK(t->glyph > ' ' && t->glyph <= '~', "glyph %d", t->glyph);
		FUZZ_CHECK(t->cost >= FF_COST_MIN, "terrain cost %d", t->cost);
		nwalls += t->cost == FF_WALL;
		for (int j = 0; j < i; j++)
			FUZZ_CHECK(strcmp(t->name, m->palette[j].name) && t->glyph != m->palette[j].glyph &&
				   (t->cost != m->palette[j].cost || t->cost == FF_WALL),
				   "terrains %d and %d clash", j, i);
	}
	for (size_t i = 0; i < (size_t)l->w * (size_t)l->h; i++) {
		int c = l->cells[i], k = 0;

		FUZZ_CHECK(c >= FF_COST_MIN, "cell %zu costs %d", i, c);
		while (k < m->npalette && m->palette[k].cost != c)
			k++;
		FUZZ_CHECK(k < m->npalette, "cell %zu: cost %d not in the palette", i, c);
		if (l->walls)
			FUZZ_CHECK(c == FF_WALL ? l->walls[i] < nwalls : l->walls[i] == 0,
				   "cell %zu: wall kind %d", i, l->walls[i]);
	}
	FUZZ_CHECK(m->ngoals >= 0 && m->ngoals <= FF_GOALS_MAX, "%d goals", m->ngoals);
	FUZZ_CHECK(m->nspawns >= 0 && m->nspawns <= FF_SPAWNS_MAX, "%d spawns", m->nspawns);
	for (int i = 0; i < m->ngoals + m->nspawns; i++) {
		bool goal = i < m->ngoals;
		const ff_shape *s = goal ? &m->goals[i] : &m->spawns[i - m->ngoals].area;
		ff_err e = ff_level_check_shape(l, s, goal);

		FUZZ_CHECK(e == FF_OK || e == FF_E_WALL, "%s %d: %s", goal ? "goal" : "spawn", i,
			   ff_strerror(e));
	}
	for (int i = 0; i < FF_P__COUNT; i++)
		FUZZ_CHECK(ff_param_ok((ff_param_id)i, m->params[i]), "parameter %d = %g", i,
			   m->params[i]);
	FUZZ_CHECK(strlen(m->note) < FF_NOTE_MAX, "note too long");
	FUZZ_CHECK(ff_note_ok(m->note), "a control character in the note");
}

/* A copy of DATA with a NUL after it, for the parsers of C strings. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

#endif
