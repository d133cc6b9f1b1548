/* bench_hier.c - the hierarchical field's part of 'fieldmarshal bench'
 * (bench_hier.h).  Times are processor time of the calling thread, the
 * median (and the worst) over the orders. */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_hier.h"
#include "benchutil.h"
#include "core/level_gen.h"
#include "core/level_text.h"
#include "core/solver.h"
#include "util.h"

#define ORDERS 16

static const ff_solver_opts HIER = {FF_METHOD_HIER, 8, 1, FF_ARROW_CHEAPEST, 0, false};
static const ff_solver_opts DIJ = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_CHEAPEST, 0, false};

static double cpu_ms(void)
{
	return ff_bench_ms(CLOCK_THREAD_CPUTIME_ID);
}

/* A passable cell of L drawn from *ST. */
static ff_shape any_cell(const ff_level *l, uint64_t *st)
{
	ff_shape c = {FF_SHAPE_CELL, 0, 0, 0, 0, 0};

	do {
		c.x = (int)(ff_gen_rand(st) % (uint64_t)l->w);
		c.y = (int)(ff_gen_rand(st) % (uint64_t)l->h);
	} while (ff_level_cost(l, c.x, c.y) == FF_WALL);
	return c;
}

/* ORDERS new orders, each answered at a queried cell: median and worst
 * ms into T[0], T[1].  The same goals and cells each time (seed 5). */
static bool orders(ff_solver *s, const ff_level *l, double t[2])
{
	double ms[ORDERS];
	uint64_t st = 5;

	for (int i = 0; i < ORDERS; i++) {
		ff_shape g = any_cell(l, &st), q = any_cell(l, &st);
		double t0 = cpu_ms();
		if (ff_solver_solve(s, l, &g, 1, &HIER))
			return false;
		(void)ff_solver_value(s, q.x, q.y);
		ms[i] = cpu_ms() - t0;
	}
	t[1] = 0;
	for (int i = 0; i < ORDERS; i++)
		t[1] = ms[i] > t[1] ? ms[i] : t[1];
	t[0] = ff_bench_median(ms, ORDERS);
	return true;
}

/* The median ms of updating the graph after one cell became a wall and
 * back, at 8 places. */
static double edits(ff_solver *s, ff_level *l)
{
	double ms[16];
	uint64_t st = 9;
	int n = 0;

	for (int i = 0; i < 8; i++) {
		ff_shape c = any_cell(l, &st);
		uint8_t *cell = &l->cells[(size_t)c.y * (size_t)l->w + (size_t)c.x];
		for (int k = 0; k < 2; k++) {
			double t0;
			*cell = k ? 1 : FF_WALL;
			ff_level_changed(l);
			t0 = cpu_ms();
			ff_solver_repair(s, c.x, c.y, c.x, c.y);
			ms[n++] = cpu_ms() - t0;
		}
	}
	return ff_bench_median(ms, n);
}

static void bench_level(FILE *out, ff_gen_kind kind, int n)
{
	ff_level *l = ff_gen_level(kind, n, n, 1);
	ff_solver *h = l ? ff_solver_create_hier(n, n) : NULL, *d = NULL;
	double t0, build, all, cold[2], warm[2], edit, full = NAN;

	if (!h) {
		ff_cli_error("bench: out of memory for %s %dx%d", ff_gen_name(kind), n, n);
		goto done;
	}
	ff_cli_say("bench: hier %s %dx%d ...", ff_gen_name(kind), n, n);
	t0 = cpu_ms();
	ff_solver_solve(h, l, l->meta.goals, 1, &HIER);
	build = cpu_ms() - t0;
	if (!orders(h, l, cold))
		goto done;
	t0 = cpu_ms();
	ff_solver_prepare(h);
	all = cpu_ms() - t0;
	if (!orders(h, l, warm))
		goto done;
	ff_solver_solve(h, l, l->meta.goals, 1, &HIER);
	edit = edits(h, l);
	if (!ff_solver_too_big(n, n, ff_cli_mem_avail(), NULL, 0) &&
	    (d = ff_solver_create(n, n))) {
		ff_solver_set_threads(d, 1);
		t0 = cpu_ms();
		ff_solver_solve(d, l, l->meta.goals, 1, &DIJ);
		full = cpu_ms() - t0;
	}
	fprintf(out, "%-9s %5d² %8.0f %9.0f %8.1f %8.1f %8.1f %8.1f %8.3f %8.0f %7.2f\n",
		ff_gen_name(kind), n, build, all, cold[0], cold[1], warm[0], warm[1], edit, full,
		(double)ff_solver_bytes(h) / ((double)n * n));
	fflush(out);
done:
	ff_solver_destroy(d);
	ff_solver_destroy(h);
	ff_level_destroy(l);
}

/* Scenarios of DIR/NAME.scen against hier; adds to *SUM, *WORST, *N. */
static bool accuracy(FILE *out, const char *dir, const char *name, int stride, double *sum,
		     double *worst, long *n)
{
	char path[4200], *map, *scen, *line, *save = NULL;
	double msum = 0, mworst = 0, t0;
	ff_level *l = NULL;
	ff_solver *s = NULL;
	size_t len, slen;
	long m = 0, i = 0;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(map = ff_cli_read_file(path, &len)))
		return false;
	snprintf(path, sizeof path, "%s/%s.scen", dir, name);
	if (!(scen = ff_cli_read_file(path, &slen)) ||
	    ff_level_parse_any(map, len, "m", &l, &(ff_diag){0}) ||
	    !(s = ff_solver_create_hier(l->w, l->h))) {
		free(map);
		free(scen);
		ff_level_destroy(l);
		ff_cli_error("bench: cannot use %s", name);
		return false;
	}
	t0 = cpu_ms();
	for (line = strtok_r(scen, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int b, mw, mh, sx, sy, gx, gy;
		double opt, e;
		char mp[256];
		ff_shape g = {FF_SHAPE_CELL, 0, 0, 0, 0, 0};
		if (sscanf(line, "%d %255s %d %d %d %d %d %d %lf", &b, mp, &mw, &mh, &sx, &sy,
			   &gx, &gy, &opt) != 9 || i++ % stride || opt <= 0)
			continue;
		g.x = gx, g.y = gy;
		if (ff_solver_solve(s, l, &g, 1, &HIER))
			continue;
		e = (ff_solver_value(s, sx, sy) - opt) / opt;
		msum += e;
		mworst = e > mworst ? e : mworst;
		m++;
	}
	fprintf(out, "%-22s %7ld %9.3f%% %9.3f%% %9.2f\n", name, m, 100 * msum / (m ? m : 1),
		100 * mworst, (cpu_ms() - t0) / (m ? m : 1));
	*sum += msum, *n += m;
	*worst = mworst > *worst ? mworst : *worst;
	ff_solver_destroy(s);
	ff_level_destroy(l);
	free(map);
	free(scen);
	return true;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool accuracies(FILE *out, bool quick, const char *dir)
{
	DIR *d = opendir(dir);
	char *names[64];
	int n = 0;
	double sum = 0, worst = 0;
	long cnt = 0;
	bool ok = true;
	struct dirent *e;

	if (!d) {
		ff_cli_error("bench: cannot open '%s'", dir);
		return false;
	}
	while ((e = readdir(d)) && n < 64) {
		size_t k = strlen(e->d_name);
		if (k > 4 && !strcmp(e->d_name + k - 4, ".map"))
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof *names, by_name);
	fprintf(out, "\n%-22s %7s %10s %10s %9s\n", "hier on Moving AI", "scen", "mean err",
		"worst err", "ms/order");
	for (int i = 0; i < n; i++) {
		ok = names[i] && accuracy(out, dir, names[i], quick ? 10 : 1, &sum, &worst, &cnt) && ok;
		free(names[i]);
	}
	fprintf(out, "%-22s %7ld %9.3f%% %9.3f%%\n", "all", cnt, 100 * sum / (cnt ? cnt : 1),
		100 * worst);
	return ok;
}

bool ff_cli_bench_hier(FILE *out, bool quick, const char *maps)
{
	static const int sizes[2] = {4096, 8192};

	fprintf(out, "%-9s %6s %8s %9s %8s %8s %8s %8s %8s %8s %7s\n", "hier", "size",
		"build ms", "edges ms", "cold ms", "worst", "warm ms", "worst", "edit ms",
		"dijkstra", "B/cell");
	for (int si = 0; si < (quick ? 1 : 2); si++) {
		bench_level(out, FF_GEN_OPEN, sizes[si]);
		bench_level(out, FF_GEN_ROOMS, sizes[si]);
	}
	return !maps || accuracies(out, quick, maps);
}
