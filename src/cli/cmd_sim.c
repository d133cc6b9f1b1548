/*
 * cmd_sim.c - 'fieldmarshal sim': solve a level, spawn a crowd, run it
 * headless and print statistics (in SI units, from the level's cell_size),
 * per-tick rows, ASCII frames or trajectories, ending with the state hash
 * that replays check.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/cmd.h"
#include "core/glyph.h"
#include "core/sim.h"
#include "core/solver.h"
#include "json.h"
#include "scratch.h"
#include "store/trajectory.h"
#include "util.h"

#define SIM_TICK_CAP 100000L

static const char usage[] =
	"usage: fieldmarshal sim LEVEL [--agents N] [--ticks T | --until-arrived]\n"
	"                        [--seed S] [--set NAME=VALUE ...] [--stats tsv]\n"
	"                        [--no-funnel] [--no-separation] [--free-speed]\n"
	"                        [--keep-arrived] [--line X0,Y0,X1,Y1 ...]\n"
	"                        [--frames [EVERY]] [--trajectories FILE [--every N]\n"
	"                        [--force]] [--method fmm|fmm2|dijkstra|hier]\n"
	"                        [--threads N] [--json]\n"
	"\n"
	"Solves LEVEL's flow field, spawns agents in its spawn areas and runs the\n"
	"crowd simulation, then prints the run's statistics (SI units: the level's\n"
	"cell_size says how many metres a cell is) and 'hash HEX', a hash of the\n"
	"final state (the same command line gives the same hash).\n"
	"\n"
	"  -n, --agents N       spawn N agents shared among the spawn areas\n"
	"                       (default: each area's own count)\n"
	"  -t, --ticks T        run exactly T ticks\n"
	"  -u, --until-arrived  run until every agent arrived or is stranded\n"
	"                       (the default; gives up after 100000 ticks)\n"
	"  -s, --seed S         seed of the random numbers (parameter 'seed')\n"
	"      --set NAME=VALUE set a parameter; VALUE may carry its unit or the\n"
	"                       cell one: speed=1.2, speed=1.2m/s, speed=2.4cells/s\n"
	"      --stats tsv      print one tab-separated row per tick\n"
	"      --no-funnel      no density-based funnelling\n"
	"      --no-separation  no separation and no bodies (agents overlap)\n"
	"      --free-speed     no speed-density relation: free speed in any crowd\n"
	"      --keep-arrived   arrived agents stay instead of leaving\n"
	"      --line X0,Y0,X1,Y1\n"
	"                       count agents crossing this segment (cell units),\n"
	"                       net, + along (Y1-Y0, X0-X1); repeatable\n"
	"      --frames [EVERY] print an ASCII frame every EVERY ticks (default 1),\n"
	"                       tick 0 first\n"
	"      --trajectories FILE\n"
	"                       write the trajectories to FILE in JuPedSim's SQLite\n"
	"                       format (version 2), which PedPy reads\n"
	"      --every N        with --trajectories: every Nth tick (default 1)\n"
	"      --force          with --trajectories: replace FILE even when it is\n"
	"                       not a trajectory file\n"
	"  -m, --method M       the field the agents follow: fmm (Fast Marching, the\n"
	"                       default), fmm2, dijkstra, or hier (hierarchical, for\n"
	"                       large levels: sectors are solved as agents come near\n"
	"                       them; default movement class, no routing)\n"
	"      --threads N      1, or 2 (0, the default: the second thread, when two\n"
	"                       cores are online, for ticks of 4096 agents or more);\n"
	"                       the same run, the same hash, with either\n"
	"  -j, --json           the statistics as JSON (docs/json.md)\n"
	"  -h, --help           show this help\n";

typedef struct simopts {
	const char *level, *traj;
	long agents, ticks, every, traj_every;
	bool tsv, force, json;
	int nlines;
	double seg[FF_SIM_LINES_MAX][4];
	unsigned flags;
	ff_solver_opts sopts;        /* the fields' */
	int threads;                 /* ff_sim_set_threads() */
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

/* Applies "NAME=VALUE" to L by running the command 'set NAME VALUE' (one
 * rule and one message for every way a parameter is set); prints why and
 * returns false when bad. */
static bool set_param(ff_level *l, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char line[256];
	ff_cmd_result r;
	ff_session s;
	ff_err e;

	if (!eq || eq == arg || strlen(arg) > 200) {
		ff_cli_usage("sim", "--set wants NAME=VALUE, not '%s'", arg);
		return false;
	}
	snprintf(line, sizeof line, "set %.*s %s", (int)(eq - arg), arg, eq + 1);
	ff_session_init(&s, l);
	e = ff_cmd_exec(&s, line, &r);
	s.level = NULL;                  /* the level stays the caller's */
	ff_session_fini(&s);
	if (e)
		ff_cli_usage("sim", "--set %s: %s", arg, r.msg);
	return e == FF_OK;
}

enum { OPT_SET = 256, OPT_STATS, OPT_NOFUNNEL, OPT_NOSEP, OPT_FREE, OPT_KEEP, OPT_FRAMES,
       OPT_LINE, OPT_TRAJ, OPT_EVERY, OPT_FORCE, OPT_THREADS };

/* Parses "X0,Y0,X1,Y1" into SEG. */
static bool parse_line(const char *arg, double seg[4])
{
	int end = -1;

	return sscanf(arg, "%lf,%lf,%lf,%lf%n", &seg[0], &seg[1], &seg[2], &seg[3],
		      &end) == 4 && end >= 0 && arg[end] == '\0';
}

/* One option of the command line into O (SETS: see parse()); -1 to go
 * on, else the exit code. */
static int option(int c, int argc, char **argv, simopts *o, const char **sets, int *nsets,
		  const char **seed)
{
	switch (c) {
	case 'n':
		if (!parse_long(optarg, 0, 100000000L, &o->agents))
			return ff_cli_usage("sim", "bad agent count '%s'", optarg);
		return -1;
	case 't':
		if (!parse_long(optarg, 0, 1000000000L, &o->ticks))
			return ff_cli_usage("sim", "bad tick count '%s'", optarg);
		return -1;
	case 'u':
		return -1;
	case 's':
		*seed = optarg;
		return -1;
	case OPT_SET:
		sets[(*nsets)++] = optarg;
		return -1;
	case OPT_STATS:
		if (strcmp(optarg, "tsv"))
			return ff_cli_usage("sim", "unknown stats format '%s' (tsv)", optarg);
		o->tsv = true;
		return -1;
	case OPT_NOFUNNEL:
		o->flags |= FF_SIM_NO_FUNNEL;
		return -1;
	case OPT_NOSEP:
		o->flags |= FF_SIM_NO_SEPARATION;
		return -1;
	case OPT_FREE:
		o->flags |= FF_SIM_FREE_SPEED;
		return -1;
	case OPT_KEEP:
		o->flags |= FF_SIM_KEEP_ARRIVED;
		return -1;
	case OPT_FRAMES:
		o->every = 1;
		/* "--frames 5" as well as "--frames=5": a number after it is
		 * the interval (no level is named by digits alone) */
		if (!optarg && optind < argc && parse_long(argv[optind], LONG_MIN, LONG_MAX, &o->every))
			optarg = argv[optind++];
		if (optarg && !parse_long(optarg, 1, 1000000000L, &o->every))
			return ff_cli_usage("sim", "bad frame interval '%s' (1..1000000000)", optarg);
		return -1;
	case OPT_LINE:
		if (o->nlines == FF_SIM_LINES_MAX)
			return ff_cli_usage("sim", "at most %d --line", FF_SIM_LINES_MAX);
		if (!parse_line(optarg, o->seg[o->nlines]))
			return ff_cli_usage("sim", "--line wants X0,Y0,X1,Y1, not '%s'", optarg);
		o->nlines++;
		return -1;
	case OPT_TRAJ:
		o->traj = optarg;
		return -1;
	case OPT_EVERY:
		if (!parse_long(optarg, 1, 1000000000L, &o->traj_every))
			return ff_cli_usage("sim", "bad --every '%s' (1..1000000000)", optarg);
		return -1;
	case OPT_FORCE:
		o->force = true;
		return -1;
	case 'm':
		if (!ff_method_parse(optarg, &o->sopts))
			return ff_cli_usage("sim", "unknown method '%s' (fmm, fmm2, dijkstra or hier)",
					    optarg);
		return -1;
	case OPT_THREADS: {
		long n;

		if (!parse_long(optarg, 0, 2, &n))
			return ff_cli_usage("sim", "--threads takes 0, 1 or 2, not '%s'", optarg);
		o->threads = (int)n;
		return -1;
	}
	case 'j':
		o->json = true;
		return -1;
	case 'h':
		fputs(usage, stdout);
		return FF_EXIT_OK;
	default:
		return ff_cli_usage("sim", "bad option");
	}
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
		{"free-speed", no_argument, NULL, OPT_FREE},
		{"keep-arrived", no_argument, NULL, OPT_KEEP},
		{"frames", optional_argument, NULL, OPT_FRAMES},
		{"line", required_argument, NULL, OPT_LINE},
		{"trajectories", required_argument, NULL, OPT_TRAJ},
		{"every", required_argument, NULL, OPT_EVERY},
		{"force", no_argument, NULL, OPT_FORCE},
		{"method", required_argument, NULL, 'm'},
		{"threads", required_argument, NULL, OPT_THREADS},
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static char seedarg[80];
	const char *seed = NULL;
	bool until = false, counted = false;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "n:t:us:m:jh", opts, NULL)) != -1) {
		if ((rc = option(c, argc, argv, o, sets, nsets, &seed)) >= 0)
			return rc;
		until = until || c == 'u';
		counted = counted || c == 't';
		if (until && counted)
			return ff_cli_usage("sim", "--ticks and --until-arrived exclude each other");
	}
	if (until)
		o->ticks = -1;
	if (optind != argc - 1)
		return ff_cli_usage("sim", "expected one LEVEL");
	if ((o->traj_every || o->force) && !o->traj)
		return ff_cli_usage("sim", "--every and --force go with --trajectories");
	if (o->json && (o->tsv || o->every))
		return ff_cli_usage("sim", "--json gives the statistics, not --stats or --frames");
	o->level = argv[optind];
	if (seed) {
		snprintf(seedarg, sizeof seedarg, "seed=%s", seed);
		sets[(*nsets)++] = seedarg;
	}
	return -1;
}

/* The agents of a cell: how many, and their group (FF_GLYPH_MIXED when
 * they belong to several). */
typedef struct tally {
	unsigned n;
	int g;
} tally;

/* Prints the level with agents in the glyphs the editor uses (core/glyph.h):
 * terrain glyphs ('#' walls), '*' goal cells, 'o' one agent, '2'..'9'
 * several, 'O' ten or more; a named group's agents its letter.  COUNT is
 * w*h scratch. */
static void frame(FILE *f, const ff_level *l, const ff_sim *sim, tally *count)
{
	const ff_sim_stats *st = ff_sim_last(sim);
	size_t n = ff_sim_count(sim);
	ff_agent a;

	memset(count, 0, (size_t)l->w * (size_t)l->h * sizeof *count);
	for (size_t i = 0; i < n; i++) {
		tally *t;

		ff_sim_agent(sim, i, &a);
		t = &count[(size_t)(int)a.y * (size_t)l->w + (size_t)(int)a.x];
		t->g = !t->n++ || t->g == a.group ? a.group : FF_GLYPH_MIXED;
	}
	fprintf(f, "tick %ld  alive %zu  arrived %ld  stranded %ld\n", st->tick,
		st->tick ? (size_t)st->alive : n, st->arrived, st->stranded);
	for (int y = 0; y < l->h; y++) {
		for (int x = 0; x < l->w; x++) {
			const tally *t = &count[(size_t)y * (size_t)l->w + (size_t)x];
			int cost = ff_level_cost(l, x, y);

			if (t->n)
				fputs(ff_glyph_cell(t->n, t->g, false), f);
			else if (cost != FF_WALL && ff_level_dyn(l, x, y) == FF_WALL)
				fputs(ff_glyph(FF_GLYPH_DYN_WALL, false), f);
			else if (cost != FF_WALL && ff_level_is_goal(l, x, y))
				fputs(ff_glyph(FF_GLYPH_GOAL, false), f);
			else
				putc(ff_glyph_terrain(l, ff_level_value(l, x, y)), f);
		}
		putc('\n', f);
	}
	putc('\n', f);
}

/* What turns the sim's cells into metres and ticks into seconds. */
typedef struct units {
	double cs, dt;
} units;

/* Whether the statistics list group G of L on its own: on a level with
 * groups, each named group, and the default one when it has spawn areas. */
static bool listed(const ff_level *l, int g)
{
	if (l->meta.ngroups < 2)
		return false;
	if (g > 0)
		return true;
	for (int k = 0; k < l->meta.nspawns; k++)
		if (l->meta.spawns[k].group == 0)
			return true;
	return false;
}

static void tsv_head(FILE *f, const ff_level *l, int nlines)
{
	fputs("tick\ttime\talive\tarrived\tstranded\tarrivals\tmean_speed\tmax_speed\t"
	      "max_per_cell\tmax_density\twall_violations", f);
	for (int k = 0; k < nlines; k++)
		fprintf(f, "\tcrossings_%d", k + 1);
	for (int g = 0; g < l->meta.ngroups; g++)
		if (listed(l, g))
			fprintf(f, "\talive_%s\tarrived_%s", ff_level_group_name(l, g),
				ff_level_group_name(l, g));
	putc('\n', f);
}

static void tsv_row(FILE *f, const ff_level *l, const ff_sim *sim, int nlines, units u)
{
	const ff_sim_stats *st = ff_sim_last(sim);

	fprintf(f, "%ld\t%.4f\t%ld\t%ld\t%ld\t%ld\t%.4f\t%.4f\t%d\t%.4f\t%ld", st->tick,
		st->tick * u.dt, st->alive, st->arrived, st->stranded, st->arrivals,
		st->mean_speed * u.cs, st->max_speed * u.cs, st->max_per_cell, st->max_density,
		st->wall_violations);
	for (int k = 0; k < nlines; k++)
		fprintf(f, "\t%ld", st->crossings[k]);
	for (int g = 0; g < l->meta.ngroups; g++)
		if (listed(l, g)) {
			ff_sim_group gr;

			ff_sim_group_get(sim, g, &gr);
			fprintf(f, "\t%ld\t%ld", gr.alive, gr.arrived);
		}
	putc('\n', f);
}

static void summary(FILE *f, const ff_level *l, const ff_sim *sim, bool capped, units u)
{
	const ff_sim_stats *st = ff_sim_last(sim);
	const ff_sim_totals *t = ff_sim_totals_get(sim);

	fprintf(f, "ticks %ld%s\n", t->ticks, capped ? " (gave up)" : "");
	fprintf(f, "time %.2f s\n", t->ticks * u.dt);
	fprintf(f, "spawned %ld\n", t->spawned);
	fprintf(f, "arrived %ld\n", t->arrived);
	fprintf(f, "alive %ld\n", st->alive);
	fprintf(f, "stranded %ld\n", st->stranded);
	fprintf(f, "first_arrival %ld (%.2f s)\n", t->first_arrival, t->first_arrival * u.dt);
	fprintf(f, "last_arrival %ld (%.2f s)\n", t->last_arrival, t->last_arrival * u.dt);
	fprintf(f, "flow %.4f agents/s\n", t->throughput / u.dt);
	fprintf(f, "max_speed %.4f m/s (%.4f cells/s)\n", t->max_speed * u.cs, t->max_speed);
	fprintf(f, "max_per_cell %d\n", t->max_per_cell);
	fprintf(f, "max_density %.2f agents/m^2\n", t->max_density);
	fprintf(f, "wall_violations %ld\n", t->wall_violations);
	for (int k = 0; k < ff_sim_nlines(sim); k++) {
		ff_sim_line ln;

		ff_sim_line_get(sim, k, &ln);
		fprintf(f, "line %d %g,%g,%g,%g crossings %ld first %ld last %ld flow %.4f agents/s\n",
			k + 1, ln.seg[0], ln.seg[1], ln.seg[2], ln.seg[3], ln.crossings, ln.first,
			ln.last, ln.flow / u.dt);
	}
	for (int g = 0; g < l->meta.ngroups; g++) {
		ff_sim_group gr;

		if (!listed(l, g))
			continue;
		ff_sim_group_get(sim, g, &gr);
		fprintf(f, "group %s spawned %ld arrived %ld alive %ld first %ld (%.2f s) "
			"last %ld (%.2f s) flow %.4f agents/s\n", ff_level_group_name(l, g),
			gr.spawned, gr.arrived, gr.alive, gr.first_arrival, gr.first_arrival * u.dt,
			gr.last_arrival, gr.last_arrival * u.dt, gr.throughput / u.dt);
	}
	fprintf(f, "hash %016" PRIx64 "\n", ff_sim_hash(sim));
}

/* The statistics as one JSON document (docs/json.md). */
static int json_out(const ff_level *l, const ff_sim *sim, bool capped, units u)
{
	const ff_sim_stats *st = ff_sim_last(sim);
	const ff_sim_totals *t = ff_sim_totals_get(sim);
	json_t *lines = json_array(), *groups = json_array(), *doc;
	char hash[17];

	for (int k = 0; k < ff_sim_nlines(sim); k++) {
		ff_sim_line ln;

		ff_sim_line_get(sim, k, &ln);
		if (json_array_append_new(lines, json_pack("{s:o, s:o, s:o, s:o, s:I, s:I, s:I, s:o}",
							   "x0", ff_json_real(ln.seg[0]), "y0",
							   ff_json_real(ln.seg[1]), "x1",
							   ff_json_real(ln.seg[2]), "y1",
							   ff_json_real(ln.seg[3]), "crossings",
							   (json_int_t)ln.crossings, "first",
							   (json_int_t)ln.first, "last",
							   (json_int_t)ln.last, "flow",
							   ff_json_real(ln.flow / u.dt)))) {
			json_decref(lines);
			json_decref(groups);
			return ff_json_print(NULL);
		}
	}
	for (int g = 0; g < l->meta.ngroups; g++) {
		ff_sim_group gr;

		if (!listed(l, g))
			continue;
		ff_sim_group_get(sim, g, &gr);
		if (json_array_append_new(groups, json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:o}",
							    "name", ff_level_group_name(l, g),
							    "spawned", (json_int_t)gr.spawned,
							    "arrived", (json_int_t)gr.arrived,
							    "alive", (json_int_t)gr.alive,
							    "first_arrival", (json_int_t)gr.first_arrival,
							    "last_arrival", (json_int_t)gr.last_arrival,
							    "flow", ff_json_real(gr.throughput / u.dt)))) {
			json_decref(lines);
			json_decref(groups);
			return ff_json_print(NULL);
		}
	}
	snprintf(hash, sizeof hash, "%016" PRIx64, ff_sim_hash(sim));
	doc = json_pack("{s:s, s:o, s:o, s:I, s:o, s:b, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o, "
			"s:i, s:o, s:I, s:o, s:o, s:s}",
			"level", l->meta.name, "cell_size", ff_json_real(u.cs), "dt", ff_json_real(u.dt),
			"ticks", (json_int_t)t->ticks, "time", ff_json_real(t->ticks * u.dt),
			"gave_up", capped, "spawned", (json_int_t)t->spawned,
			"arrived", (json_int_t)t->arrived, "alive", (json_int_t)st->alive,
			"stranded", (json_int_t)st->stranded,
			"first_arrival", (json_int_t)t->first_arrival,
			"last_arrival", (json_int_t)t->last_arrival,
			"flow", ff_json_real(t->throughput / u.dt),
			"max_speed", ff_json_real(t->max_speed * u.cs),
			"max_per_cell", t->max_per_cell, "max_density", ff_json_real(t->max_density),
			"wall_violations", (json_int_t)t->wall_violations, "lines", lines,
			"groups", groups, "hash", hash);
	return ff_json_print(doc);
}

/* Spawns the level's crowd into SIM; prints why and returns false when it
 * cannot. */
static bool spawn(ff_sim *sim, const simopts *o)
{
	ff_err e = ff_sim_spawn_level(sim, o->agents);
	char why[200];

	if (e == FF_OK)
		return true;
	if (e == FF_E_NOTFOUND)
		ff_cli_error("cannot spawn agents: '%s' has no spawn area (add one with "
			     "-e 'spawn add rect X,Y W,H COUNT' in 'run', or in the editor)", o->level);
	else
		ff_cli_error("cannot spawn agents in '%s': %s", o->level,
			     ff_sim_spawn_explain(sim, e, why, sizeof why));
	return false;
}

/* Runs the ticks of O, printing as asked and writing TRAJ; true unless
 * writing the trajectories failed.  *CAPPED: it gave up. */
static bool ticks(const ff_level *l, ff_sim *sim, const simopts *o, units u, ff_traj *traj,
		  tally *count, bool *capped)
{
	bool until = o->ticks < 0;
	long limit = until ? SIM_TICK_CAP : o->ticks;
	char err[300];

	*capped = false;
	if (o->every)
		frame(stdout, l, sim, count);
	if (traj && ff_traj_frame(traj, 0, sim, err, sizeof err) != FF_OK)
		goto fail;
	for (long t = 0; t < limit; t++) {
		const ff_sim_stats *st;

		if (until && t > 0 && ff_sim_last(sim)->alive == ff_sim_last(sim)->stranded &&
		    !ff_sim_pending(sim))
			break;
		ff_sim_step(sim);
		st = ff_sim_last(sim);
		if (o->tsv)
			tsv_row(stdout, l, sim, o->nlines, u);
		if (o->every && st->tick % o->every == 0)
			frame(stdout, l, sim, count);
		if (traj && st->tick % o->traj_every == 0 &&
		    ff_traj_frame(traj, st->tick / o->traj_every, sim, err, sizeof err) != FF_OK)
			goto fail;
		*capped = until && t == limit - 1 && st->alive > st->stranded;
	}
	return true;
fail:
	ff_cli_error("%s", err);
	return false;
}

/* The fields of L's groups, those of its spawn areas solved now, so that a
 * field that cannot be solved is reported as 'solve' reports it.  NULL
 * after printing why. */
static ff_fields *fields_for(const char *what, const ff_level *l, const ff_solver_opts *opts)
{
	char why[160];
	ff_fields *f;

	if (opts->method != FF_METHOD_HIER &&
	    ff_solver_too_big(l->w, l->h, ff_cli_mem_avail(), why, sizeof why)) {
		ff_cli_error("cannot solve '%s': %s", what, why);
		return NULL;
	}
	if (!(f = ff_fields_create(l, opts))) {
		ff_cli_error("out of memory");
		return NULL;
	}
	for (int k = 0; k < l->meta.nspawns; k++) {
		const ff_solver *sv;
		int g = l->meta.spawns[k].group, n = 0;
		ff_err e;

		for (int i = 0; i < l->meta.ngoals; i++)
			n += l->meta.goal_group[i] == g;
		if (!n)
			continue; /* spawning says what is missing */
		if ((e = ff_fields_get(f, g, &sv)) != FF_OK) {
			ff_cli_goal_error(what, l, l->meta.goals, l->meta.ngoals, ff_fields_bad_goal(f), e);
			ff_fields_destroy(f);
			return NULL;
		}
	}
	return f;
}

/* Whether the hierarchical field can serve L's crowd, else says why: it
 * holds the default movement class's costs and no crowd term. */
static bool hier_fits(const char *what, const ff_level *l)
{
	if (l->meta.params[FF_P_ROUTE_INTERVAL] > 0) {
		ff_cli_error("%s: --method hier does not count the crowd; set route_interval "
			     "to 0 or use fmm or dijkstra", what);
		return false;
	}
	for (int g = 0; g < l->meta.ngroups; g++)
		if (l->meta.group_class[g]) {
			ff_cli_error("%s: --method hier solves for the default movement class "
				     "only, not group %s's class '%s' (use fmm or dijkstra)", what,
				     ff_level_group_name(l, g), l->meta.classes[l->meta.group_class[g]]);
			return false;
		}
	return true;
}

/* Runs the simulation per O; returns the exit code. */
static int run(ff_level *l, ff_fields *fields, simopts *o)
{
	ff_sim *sim = ff_sim_create(l, fields, 0);
	tally *count = o->every ? malloc((size_t)l->w * (size_t)l->h * sizeof *count) : NULL;
	units u = {l->meta.params[FF_P_CELL_SIZE], l->meta.params[FF_P_DT]};
	ff_traj *traj = NULL;
	char err[300];
	bool capped;
	int rc = FF_EXIT_FAIL;

	if (!sim || (o->every && !count)) {
		ff_cli_error("out of memory");
		goto out;
	}
	ff_sim_set_flags(sim, o->flags);
	ff_sim_set_threads(sim, o->threads);
	for (int k = 0; k < o->nlines; k++)
		if (ff_sim_add_line(sim, o->seg[k][0], o->seg[k][1], o->seg[k][2], o->seg[k][3],
				    NULL) != FF_OK) {
			rc = ff_cli_usage("sim", "--line needs two different finite ends");
			goto out;
		}
	if (!spawn(sim, o))
		goto out;
	if (o->traj) {
		if (!o->traj_every)
			o->traj_every = 1;
		ff_cli_scratch_hold();
		if (!(traj = ff_traj_create(o->traj, o->force, 1 / (u.dt * o->traj_every), l, u.cs,
					    err, sizeof err))) {
			ff_cli_error("%s", err);
			goto out;
		}
		ff_cli_scratch_set(ff_traj_tmp(traj), o->traj);
		if (ff_traj_parts(l) > 1)
			ff_cli_error("warning: the walkable area of '%s' has %d separate parts; "
				     "PedPy loads only one", o->level, ff_traj_parts(l));
	}
	if (o->tsv)
		tsv_head(stdout, l, o->nlines);
	if (!ticks(l, sim, o, u, traj, count, &capped))
		goto out;
	if (traj) {
		ff_err e = ff_traj_finish(traj, err, sizeof err);

		ff_cli_scratch_clear();
		traj = NULL;
		if (e != FF_OK) {
			ff_cli_error("%s", err);
			goto out;
		}
	}
	if (o->json) {
		if (json_out(l, sim, capped, u) != FF_EXIT_OK)
			goto out;
	} else {
		summary(stdout, l, sim, capped, u);
	}
	rc = capped || ff_sim_totals_get(sim)->wall_violations ? FF_EXIT_FAIL : FF_EXIT_OK;
out:
	ff_traj_abort(traj);
	ff_cli_scratch_clear();
	free(count);
	ff_sim_destroy(sim);
	return rc;
}

int ff_cli_sim(int argc, char **argv)
{
	simopts o = {NULL, NULL, -1, -1, 0, 0, false, false, false, 0, {{0}}, 0,
		     {FF_METHOD_FMM, 8, 1, FF_ARROW_CHEAPEST, 0, false}, 0};
	const char **sets = calloc((size_t)argc + 1, sizeof *sets);
	ff_fields *fields = NULL;
	ff_level *l = NULL;
	int nsets = 0, rc;

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
	if (ff_sim_check(l) != FF_OK) {
		ff_cli_error("%s: radius %g m is more than half a cell (cell_size %g m): raise "
			     "cell_size or lower radius", o.level, l->meta.params[FF_P_RADIUS],
			     l->meta.params[FF_P_CELL_SIZE]);
		goto out;
	}
	if (l->meta.ngoals == 0) {
		ff_cli_error("%s has no goals, so the agents have nowhere to go; add one, e.g. "
			     "fieldmarshal run %s -e 'goal add cell X,Y' -o FILE", o.level, o.level);
		goto out;
	}
	if (o.sopts.method == FF_METHOD_HIER && !hier_fits(o.level, l))
		goto out;
	if (!(fields = fields_for(o.level, l, &o.sopts)))
		goto out;
	rc = run(l, fields, &o);
out:
	ff_fields_destroy(fields);
	ff_level_destroy(l);
	free(sets);
	return rc;
}
