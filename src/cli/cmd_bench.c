/* cmd_bench.c - 'fieldmarshal bench': time full solves (integration + flow)
 * and repairs on generated grids and on given levels; prints a table. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_hier.h"
#include "bench_sim.h"
#include "bench_store.h"
#include "bench_tui.h"
#include "cli.h"
#include "core/level_gen.h"
#include "core/solver.h"
#include "benchutil.h"
#include "util.h"

static const char usage[] =
	"usage: fieldmarshal bench [--quick] [--threads N] [--only TABLE] [--movingai DIR]\n"
	"                         [LEVEL ...]\n"
	"\n"
	"Times full solves (integration and flow) with Dijkstra and Fast Marching\n"
	"(fmm, and fmm2 to second order) on generated grids (open, 20% random\n"
	"walls, rooms with one-cell doors, weighted terrain) at 256, 1024 and 2048\n"
	"cells square, and on each LEVEL (a level file of any format, or a stored\n"
	"level; solved from its goals, else from the passable cell nearest its\n"
	"centre).  Prints\n"
	"the median over repeats, cells per second and the solver's bytes per\n"
	"cell; also the time of an incremental repair after a one-cell edit, and\n"
	"of a value alone as 'solve --query' computes it, near the goal and at a\n"
	"far corner.\n"
	"Progress goes to stderr.\n"
	"Without LEVELs it goes on with the hierarchical field (building its graph,\n"
	"new orders answered at a queried cell, an edit of one cell, beside a full\n"
	"Dijkstra solve, in processor time), the level store's save, load and list\n"
	"times, the crowd's time per tick and the editor's time per frame.\n"
	"\n"
	"  -q, --quick   256 and 1024 only, fewer repeats\n"
	"  -t, --threads N  threads per solve: 1, or 2 (0, the default: two on\n"
	"                levels of 512x512 cells or more when two cores are online)\n"
	"  -o, --only TABLE  one table alone: solve, hier, store, sim or tui\n"
	"  -m, --movingai DIR  also the hierarchical field's error on every Moving AI\n"
	"                map in DIR (FILE.map with FILE.map.scen; make bench gives\n"
	"                tests/data)\n"
	"  -h, --help    show this help\n";

static int threads;               /* --threads */
static const ff_solver_opts dij = {FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_CHEAPEST, 0, false};

static void row(const char *grid, const ff_level *l, const char *what, double ms,
		const ff_solver *s)
{
	double cells = (double)l->w * l->h;

	printf("%-22s %5dx%-5d %-10s %10.3f %10.1f %8.2f\n", grid, l->w, l->h, what,
	       ms, cells / (ms / 1e3) / 1e6, (double)ff_solver_bytes(s) / cells);
	fflush(stdout);
}

/* Times REPS full solves of L with OPTS; returns the median ms. */
static double time_solve(ff_solver *s, const ff_level *l, const ff_shape *g,
			 int ng, const ff_solver_opts *o, int reps)
{
	double t[64];

	for (int i = 0; i < reps; i++) {
		double t0 = ff_bench_ms(CLOCK_MONOTONIC);
		ff_solver_solve(s, l, g, ng, o);
		t[i] = ff_bench_ms(CLOCK_MONOTONIC) - t0;
	}
	return ff_bench_median(t, reps);
}

/* Times repairs after painting and then clearing one wall cell a little
 * away from the first goal (two repairs per edit). */
static double time_repair(ff_solver *s, ff_level *l, const ff_shape *g, int ng,
			  int reps)
{
	double t[64];
	int x = g[0].x + l->w / 8, y = g[0].y + 3;
	uint8_t old;

	if (!ff_level_in(l, x, y))
		x = g[0].x, y = g[0].y + 1;
	if (!ff_level_in(l, x, y) || ff_level_is_goal(l, x, y))
		return NAN;
	old = l->cells[(size_t)y * (size_t)l->w + (size_t)x];
	ff_solver_solve(s, l, g, ng, &dij);
	for (int i = 0; i < reps; i++) {
		double t0;
		l->cells[(size_t)y * (size_t)l->w + (size_t)x] =
			i % 2 ? old : (old == FF_WALL ? 1 : FF_WALL);
		ff_level_changed(l);
		t0 = ff_bench_ms(CLOCK_MONOTONIC);
		ff_solver_repair(s, x, y, x, y);
		t[i] = ff_bench_ms(CLOCK_MONOTONIC) - t0;
	}
	l->cells[(size_t)y * (size_t)l->w + (size_t)x] = old;
	ff_level_changed(l);
	ff_solver_solve(s, l, g, ng, &dij);
	return ff_bench_median(t, reps);
}

/* Times REPS solves of L for the value at (X, Y) alone (or the first
 * passable cell south-east of it: a wall's value needs no solve), as 'solve
 * --query' runs them (ff_solver_values_at: only as far as that cell
 * needs); returns the median ms. */
static double time_query(ff_solver *s, const ff_level *l, const ff_shape *g, int ng, int x,
			 int y, int reps)
{
	double t[64], v;

	x = x < 0 ? 0 : x < l->w ? x : l->w - 1;
	y = y < 0 ? 0 : y < l->h ? y : l->h - 1;
	for (int k = 0; k < l->w && ff_level_wall(l, x, y); k++)
		x = (x + 1) % l->w, y = (y + 1) % l->h;
	for (int i = 0; i < reps; i++) {
		double t0 = ff_bench_ms(CLOCK_MONOTONIC);
		ff_solver_values_at(s, l, g, ng, &dij, 1, &x, &y, &v);
		t[i] = ff_bench_ms(CLOCK_MONOTONIC) - t0;
	}
	return ff_bench_median(t, reps);
}

static void bench_level(const char *grid, ff_level *l, const ff_shape *g, int ng,
			int reps)
{
	static const ff_solver_opts fmm = {FF_METHOD_FMM, 4, 1, FF_ARROW_CHEAPEST, 0, false};
	static const ff_solver_opts fmm2 = {FF_METHOD_FMM, 4, 2, FF_ARROW_CHEAPEST, 0, false};
	ff_solver *s = ff_cli_solver_for(grid, l, &dij);
	ff_err e;

	if (!s)
		return;
	ff_solver_set_threads(s, threads);
	ff_cli_say("bench: %s %dx%d ...", grid, l->w, l->h);
	e = ff_solver_solve(s, l, g, ng, &dij);
	if (e) {
		ff_cli_solve_error(grid, s, l, g, ng, e);
		ff_solver_destroy(s);
		return;
	}
	row(grid, l, "dijkstra", time_solve(s, l, g, ng, &dij, reps), s);
	row(grid, l, "fmm", time_solve(s, l, g, ng, &fmm, reps), s);
	row(grid, l, "fmm2", time_solve(s, l, g, ng, &fmm2, reps), s);
	row(grid, l, "repair", time_repair(s, l, g, ng, reps * 2 > 64 ? 64 : reps * 2), s);
	/* a value near the first goal (a sixteenth of the side away), and at
	 * the corner */
	row(grid, l, "query near",
	    time_query(s, l, g, ng, g[0].x + l->w / 16, g[0].y + l->h / 32, reps), s);
	row(grid, l, "query far", time_query(s, l, g, ng, 0, 0, reps), s);
	ff_solver_destroy(s);
}

/* False when the level cannot be loaded or has no passable cell. */
static bool bench_file(const char *path, int reps)
{
	ff_level *l = ff_cli_load_level(path);
	ff_shape g = {FF_SHAPE_CELL, 0, 0, 0, 0, 0};
	bool ok = true;

	if (!l)
		return false;
	if (l->meta.ngoals > 0)
		bench_level(l->meta.name, l, l->meta.goals, l->meta.ngoals, reps);
	else if (ff_gen_centre_cell(l, &g.x, &g.y))
		bench_level(l->meta.name, l, &g, 1, reps);
	else {
		ff_cli_error("%s: no passable cell", path);
		ok = false;
	}
	ff_level_destroy(l);
	return ok;
}

int ff_cli_bench(int argc, char **argv)
{
	static const struct option opts[] = {
		{"quick", no_argument, NULL, 'q'},
		{"threads", required_argument, NULL, 't'},
		{"only", required_argument, NULL, 'o'},
		{"movingai", required_argument, NULL, 'm'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static const int sizes[3] = {256, 1024, 2048}, full_reps[3] = {21, 9, 5};
	static const char *const tables[] = {"solve", "store", "sim", "tui", "hier"};
	const char *maps = NULL;
	bool quick = false;
	int c, only = -1;

	optind = 1;
	threads = 0;
	while ((c = getopt_long(argc, argv, "qt:o:m:h", opts, NULL)) != -1) {
		if (c == 'q') {
			quick = true;
		} else if (c == 'm') {
			maps = optarg;
		} else if (c == 'o') {
			for (only = 4; only >= 0 && strcmp(optarg, tables[only]); only--)
				;
			if (only < 0)
				return ff_cli_usage("bench", "--only takes solve, hier, store, sim or "
						    "tui, not '%s'", optarg);
		} else if (c == 't') {
			if (strlen(optarg) != 1 || optarg[0] < '0' || optarg[0] > '2')
				return ff_cli_usage("bench", "--threads takes 0, 1 or 2, not '%s'",
						    optarg);
			threads = optarg[0] - '0';
		} else if (c == 'h') {
			fputs(usage, stdout);
			return FF_EXIT_OK;
		} else {
			return ff_cli_usage("bench", "bad option");
		}
	}
	if (only >= 0 && optind < argc)
		return ff_cli_usage("bench", "LEVELs are solved: --only does not mix with them");
	if (only == 1)
		return ff_cli_bench_store(stdout, quick) ? FF_EXIT_OK : FF_EXIT_FAIL;
	if (only == 2)
		return ff_cli_bench_sim(stdout, quick) ? FF_EXIT_OK : FF_EXIT_FAIL;
	if (only == 3)
		return ff_cli_bench_tui(stdout, quick) ? FF_EXIT_OK : FF_EXIT_FAIL;
	if (only == 4)
		return ff_cli_bench_hier(stdout, quick, maps) ? FF_EXIT_OK : FF_EXIT_FAIL;
	printf("%-22s %-11s %-10s %10s %10s %8s\n", "grid", "size", "method",
	       "median ms", "Mcells/s", "B/cell");
	if (optind < argc) {
		int rc = FF_EXIT_OK;
		for (int i = optind; i < argc; i++)
			if (!bench_file(argv[i], quick ? 3 : 9))
				rc = FF_EXIT_FAIL;
		return rc;
	}
	for (int si = 0; si < (quick ? 2 : 3); si++)
		for (int k = 0; k < FF_GEN__COUNT; k++) {
			ff_level *l = ff_gen_level((ff_gen_kind)k, sizes[si], sizes[si], 1);
			if (!l) {
				ff_cli_error("out of memory");
				return FF_EXIT_FAIL;
			}
			bench_level(ff_gen_name((ff_gen_kind)k), l, l->meta.goals, 1,
				    quick ? 3 : full_reps[si]);
			ff_level_destroy(l);
		}
	if (only == 0)
		return FF_EXIT_OK;
	putchar('\n');
	if (!ff_cli_bench_hier(stdout, quick, maps))
		return FF_EXIT_FAIL;
	putchar('\n');
	if (!ff_cli_bench_store(stdout, quick))
		return FF_EXIT_FAIL;
	putchar('\n');
	if (!ff_cli_bench_sim(stdout, quick))
		return FF_EXIT_FAIL;
	putchar('\n');
	return ff_cli_bench_tui(stdout, quick) ? FF_EXIT_OK : FF_EXIT_FAIL;
}
