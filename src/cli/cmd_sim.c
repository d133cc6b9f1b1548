/*
 * cmd_sim.c - 'fieldmarshal sim': solve a level, spawn a crowd, run it
 * headless and print statistics, per-tick rows or ASCII frames, ending with
 * the state hash that replays check.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/glyph.h"
#include "core/sim.h"
#include "core/solver.h"
#include "util.h"

#define SIM_TICK_CAP 100000L

static const char usage[] =
	"usage: fieldmarshal sim LEVEL [--agents N] [--ticks T | --until-arrived]\n"
	"                        [--seed S] [--set NAME=VALUE ...] [--stats tsv]\n"
	"                        [--no-funnel] [--no-separation] [--keep-arrived]\n"
	"                        [--line X0,Y0,X1,Y1] [--frames [EVERY]]\n"
	"\n"
	"Solves LEVEL's flow field, spawns agents in its spawn areas and runs the\n"
	"crowd simulation, then prints the run's statistics and 'hash HEX', a hash\n"
	"of the final state (the same command line gives the same hash).\n"
	"\n"
	"  -n, --agents N       spawn N agents shared among the spawn areas\n"
	"                       (default: each area's own count)\n"
	"  -t, --ticks T        run exactly T ticks\n"
	"  -u, --until-arrived  run until every agent arrived or is stranded\n"
	"                       (the default; gives up after 100000 ticks)\n"
	"  -s, --seed S         seed of the random numbers (parameter 'seed')\n"
	"      --set NAME=VALUE set a simulation parameter (see docs/simulation.md)\n"
	"      --stats tsv      print one tab-separated row per tick\n"
	"      --no-funnel      no density-based funnelling\n"
	"      --no-separation  no separation (and no funnelling)\n"
	"      --keep-arrived   arrived agents stay instead of leaving\n"
	"      --line X0,Y0,X1,Y1\n"
	"                       count agents crossing this segment (cell units),\n"
	"                       net, + along (Y1-Y0, X0-X1): 'crossings' and\n"
	"                       'line_throughput' (per tick, first to last)\n"
	"      --frames [EVERY] print an ASCII frame every EVERY ticks (default 1)\n"
	"  -h, --help           show this help\n";

typedef struct simopts {
	const char *level;
	long agents, ticks, every;
	bool tsv, line;
	double seg[4];
	unsigned flags;
} simopts;

static bool parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

/* Applies "NAME=VALUE" to L; prints why and returns false when bad. */
static bool set_param(ff_level *l, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char name[64], *end;
	double v;
	int id;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof name) {
		ff_cli_usage("sim", "--set wants NAME=VALUE, not '%s'", arg);
		return false;
	}
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	if ((id = ff_param_by_name(name)) < 0) {
		ff_cli_usage("sim", "unknown parameter '%s'", name);
		return false;
	}
	v = strtod(eq + 1, &end);
	if (end == eq + 1 || *end ||
	    ff_level_param_set(l, (ff_param_id)id, v, NULL) != FF_OK) {
		char range[64];
		ff_cli_usage("sim", "bad value '%s' for %s (%s)", eq + 1, name,
			     ff_param_range((ff_param_id)id, range, sizeof range));
		return false;
	}
	return true;
}

enum { OPT_SET = 256, OPT_STATS, OPT_NOFUNNEL, OPT_NOSEP, OPT_KEEP, OPT_FRAMES,
       OPT_LINE };

/* Parses "X0,Y0,X1,Y1" into SEG. */
static bool parse_line(const char *arg, double seg[4])
{
	int end = -1;

	return sscanf(arg, "%lf,%lf,%lf,%lf%n", &seg[0], &seg[1], &seg[2], &seg[3],
		      &end) == 4 && end >= 0 && arg[end] == '\0';
}

/* Parses the command line into O, leaving --set and --seed arguments in
 * SETS (NSETS of them, seed last as "seed=S").  Returns -1 to go on, else
 * the exit code. */
static int parse(int argc, char **argv, simopts *o, const char **sets, int *nsets)
{
	static const struct option opts[] = {
		{"agents", required_argument, NULL, 'n'},
		{"ticks", required_argument, NULL, 't'},
		{"until-arrived", no_argument, NULL, 'u'},
		{"seed", required_argument, NULL, 's'},
		{"set", required_argument, NULL, OPT_SET},
		{"stats", required_argument, NULL, OPT_STATS},
		{"no-funnel", no_argument, NULL, OPT_NOFUNNEL},
		{"no-separation", no_argument, NULL, OPT_NOSEP},
		{"keep-arrived", no_argument, NULL, OPT_KEEP},
		{"frames", optional_argument, NULL, OPT_FRAMES},
		{"line", required_argument, NULL, OPT_LINE},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static char seedarg[80];
	const char *seed = NULL;
	bool until = false, counted = false;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "n:t:us:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (!parse_long(optarg, 0, 100000000L, &o->agents))
				return ff_cli_usage("sim", "bad agent count '%s'", optarg);
			break;
		case 't':
			if (!parse_long(optarg, 0, 1000000000L, &o->ticks))
				return ff_cli_usage("sim", "bad tick count '%s'", optarg);
			if (until)
				return ff_cli_usage("sim", "--ticks and --until-arrived exclude each other");
			counted = true;
			break;
		case 'u':
			if (counted)
				return ff_cli_usage("sim", "--ticks and --until-arrived exclude each other");
			until = true;
			o->ticks = -1;
			break;
		case 's':
			seed = optarg;
			break;
		case OPT_SET:
			if (*nsets >= argc)
				return ff_cli_usage("sim", "too many --set");
			sets[(*nsets)++] = optarg;
			break;
		case OPT_STATS:
			if (strcmp(optarg, "tsv"))
				return ff_cli_usage("sim", "unknown stats format '%s' (tsv)", optarg);
			o->tsv = true;
			break;
		case OPT_NOFUNNEL:
			o->flags |= FF_SIM_NO_FUNNEL;
			break;
		case OPT_NOSEP:
			o->flags |= FF_SIM_NO_SEPARATION;
			break;
		case OPT_KEEP:
			o->flags |= FF_SIM_KEEP_ARRIVED;
			break;
		case OPT_FRAMES:
			o->every = 1;
			/* "--frames 5" as well as "--frames=5": a number after
			 * it is the interval (no level is named by digits alone) */
			if (!optarg && optind < argc && parse_long(argv[optind], LONG_MIN, LONG_MAX,
								   &o->every))
				optarg = argv[optind++];
			if (optarg && !parse_long(optarg, 1, 1000000000L, &o->every))
				return ff_cli_usage("sim", "bad frame interval '%s' (1..1000000000)",
						    optarg);
			break;
		case OPT_LINE:
			if (!parse_line(optarg, o->seg))
				return ff_cli_usage("sim", "--line wants X0,Y0,X1,Y1, not '%s'", optarg);
			o->line = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return FF_EXIT_OK;
		default:
			return ff_cli_usage("sim", "bad option");
		}
	}
	if (optind != argc - 1)
		return ff_cli_usage("sim", "expected one LEVEL");
	o->level = argv[optind];
	if (seed) {
		snprintf(seedarg, sizeof seedarg, "seed=%s", seed);
		sets[(*nsets)++] = seedarg;
	}
	return -1;
}

/* Prints the level with agents in the glyphs the editor uses (core/glyph.h):
 * terrain glyphs ('#' walls), '*' goal cells, 'o' one agent, '2'..'9'
 * several, 'O' ten or more.  COUNT is w*h scratch. */
static void frame(FILE *f, const ff_level *l, const ff_sim *sim, unsigned *count)
{
	const ff_sim_stats *st = ff_sim_last(sim);
	size_t n = ff_sim_count(sim);
	ff_agent a;

	memset(count, 0, (size_t)l->w * (size_t)l->h * sizeof *count);
	for (size_t i = 0; i < n; i++) {
		ff_sim_agent(sim, i, &a);
		count[(size_t)(int)a.y * (size_t)l->w + (size_t)(int)a.x]++;
	}
	fprintf(f, "tick %ld  alive %ld  arrived %ld  stranded %ld\n", st->tick,
		st->alive, st->arrived, st->stranded);
	for (int y = 0; y < l->h; y++) {
		for (int x = 0; x < l->w; x++) {
			unsigned c = count[(size_t)y * (size_t)l->w + (size_t)x];
			int cost = ff_level_cost(l, x, y);

			if (c)
				fputs(ff_glyph_agents(c, false), f);
			else if (cost != FF_WALL && ff_level_is_goal(l, x, y))
				fputs(ff_glyph(FF_GLYPH_GOAL, false), f);
			else
				putc(ff_glyph_terrain(l, cost), f);
		}
		putc('\n', f);
	}
	putc('\n', f);
}

static void tsv_row(FILE *f, const ff_sim_stats *st)
{
	fprintf(f, "%ld\t%ld\t%ld\t%ld\t%ld\t%.4f\t%.4f\t%d\t%ld\t%ld\n", st->tick,
		st->alive, st->arrived, st->stranded, st->arrivals, st->mean_speed,
		st->max_speed, st->max_per_cell, st->wall_violations, st->crossings);
}

static void summary(FILE *f, const ff_sim *sim, bool capped, bool line)
{
	const ff_sim_stats *st = ff_sim_last(sim);
	const ff_sim_totals *t = ff_sim_totals_get(sim);

	fprintf(f, "ticks %ld%s\n", t->ticks, capped ? " (gave up)" : "");
	fprintf(f, "spawned %ld\n", t->spawned);
	fprintf(f, "arrived %ld\n", t->arrived);
	fprintf(f, "alive %ld\n", st->alive);
	fprintf(f, "stranded %ld\n", st->stranded);
	fprintf(f, "first_arrival %ld\n", t->first_arrival);
	fprintf(f, "last_arrival %ld\n", t->last_arrival);
	fprintf(f, "throughput %.4f\n", t->throughput);
	fprintf(f, "max_speed %.4f\n", t->max_speed);
	fprintf(f, "max_per_cell %d\n", t->max_per_cell);
	fprintf(f, "wall_violations %ld\n", t->wall_violations);
	if (line) {
		fprintf(f, "crossings %ld\n", t->crossings);
		fprintf(f, "first_crossing %ld\n", t->first_crossing);
		fprintf(f, "last_crossing %ld\n", t->last_crossing);
		fprintf(f, "line_throughput %.4f\n", t->line_throughput);
	}
	fprintf(f, "hash %016" PRIx64 "\n", ff_sim_hash(sim));
}

/* Runs the simulation per O; returns the exit code. */
static int run(ff_level *l, const ff_solver *solver, const simopts *o)
{
	ff_sim *sim = ff_sim_create(l, solver, 0);
	unsigned *count = o->every ? malloc((size_t)l->w * (size_t)l->h * sizeof *count) : NULL;
	bool until = o->ticks < 0, capped = false;
	long limit = until ? SIM_TICK_CAP : o->ticks;
	ff_err e;
	int rc = FF_EXIT_OK;

	if (!sim || (o->every && !count)) {
		ff_cli_error("out of memory");
		rc = FF_EXIT_FAIL;
		goto out;
	}
	ff_sim_set_flags(sim, o->flags);
	if (o->line && ff_sim_set_line(sim, o->seg[0], o->seg[1], o->seg[2], o->seg[3]) != FF_OK) {
		rc = ff_cli_usage("sim", "--line needs two different finite ends");
		goto out;
	}
	if ((e = ff_sim_spawn_level(sim, o->agents)) == FF_E_NOTFOUND) {
		ff_cli_error("cannot spawn agents: '%s' has no spawn area (add one with "
			     "-e 'spawn add rect X,Y W,H COUNT' in 'run', or in the editor)", o->level);
		rc = FF_EXIT_FAIL;
		goto out;
	}
	if (e != FF_OK) {
		ff_cli_error("cannot spawn agents: %s", ff_strerror(e));
		rc = FF_EXIT_FAIL;
		goto out;
	}
	if (o->tsv)
		printf("tick\talive\tarrived\tstranded\tarrivals\tmean_speed\tmax_speed\t"
		       "max_per_cell\twall_violations\tcrossings\n");
	for (long t = 0; t < limit; t++) {
		const ff_sim_stats *st;

		if (until && t > 0 && ff_sim_last(sim)->alive == ff_sim_last(sim)->stranded)
			break;
		ff_sim_step(sim);
		st = ff_sim_last(sim);
		if (o->tsv)
			tsv_row(stdout, st);
		if (o->every && st->tick % o->every == 0)
			frame(stdout, l, sim, count);
		capped = until && t == limit - 1 && st->alive > st->stranded;
	}
	summary(stdout, sim, capped, o->line);
	if (capped || ff_sim_totals_get(sim)->wall_violations)
		rc = FF_EXIT_FAIL;
out:
	free(count);
	ff_sim_destroy(sim);
	return rc;
}

int ff_cli_sim(int argc, char **argv)
{
	simopts o = {NULL, -1, -1, 0, false, false, {0, 0, 0, 0}, 0};
	const char **sets = calloc((size_t)argc + 1, sizeof *sets);
	ff_solver_opts sopts = {FF_METHOD_FMM, 8, 1, FF_ARROW_CHEAPEST};
	ff_solver *solver = NULL;
	ff_level *l = NULL;
	int nsets = 0, rc;
	ff_err e;

	if (!sets) {
		ff_cli_error("out of memory");
		return FF_EXIT_FAIL;
	}
	if ((rc = parse(argc, argv, &o, sets, &nsets)) >= 0)
		goto out;
	rc = FF_EXIT_FAIL;
	if (!(l = ff_cli_load_level(o.level)))
		goto out;
	for (int i = 0; i < nsets; i++)
		if (!set_param(l, sets[i])) {
			rc = FF_EXIT_USAGE;
			goto out;
		}
	if (l->meta.ngoals == 0) {
		ff_cli_error("%s has no goals, so the agents have nowhere to go; add one, e.g. "
			     "fieldmarshal run %s -e 'goal add cell X,Y' -o FILE", o.level, o.level);
		goto out;
	}
	if (!(solver = ff_cli_solver_for(o.level, l)))
		goto out;
	if ((e = ff_solver_solve(solver, l, l->meta.goals, l->meta.ngoals, &sopts)) != FF_OK) {
		ff_cli_solve_error(o.level, solver, l, l->meta.goals, l->meta.ngoals, e);
		goto out;
	}
	rc = run(l, solver, &o);
out:
	ff_solver_destroy(solver);
	ff_level_destroy(l);
	free(sets);
	return rc;
}
