/* cmd_solve.c - 'fieldmarshal solve': solve a level and print fields or
 * query values. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/glyph.h"
#include "core/level_gen.h"
#include "core/solver.h"
#include "json.h"
#include "picture.h"
#include "util.h"

static const char usage[] =
	"usage: fieldmarshal solve LEVEL [--goal X,Y ...] [--method dijkstra|fmm|fmm2|hier]\n"
	"                         [--sector N] [--los] [--connectivity 8|4]\n"
	"                         [--arrows cheapest|lowest] [--group NAME] [--class CLASS]\n"
	"                         [--show costs|effective|integration|flow]\n"
	"                         [--query X,Y ...]\n"
	"                         [--ascii] [--json] [--format text|svg|png] [-o FILE]\n"
	"\n"
	"Solves LEVEL (a level file of any format, or a stored level) towards its\n"
	"goals (or, when it has none, the passable cell nearest its centre) and\n"
	"prints a summary, the fields, or the values at queried cells.  On a level\n"
	"with groups, the goals are those of its first group that has any, as the\n"
	"editor shows it on opening (--group picks another).\n"
	"\n"
	"  -g, --goal X,Y          a goal cell; repeatable; replaces the level's goals\n"
	"  -m, --method M          dijkstra (exact, default), fmm (Fast Marching),\n"
	"                          fmm2 (Fast Marching, second order where it can) or\n"
	"                          hier (hierarchical: sectors and portals, within a\n"
	"                          few percent of exact; for large levels, it solves\n"
	"                          only the sectors the output needs)\n"
	"      --sector N          hier's sector side: 8, 16, 32 (default) or 64\n"
	"      --los               line of sight (dijkstra, hier): a cell that sees its\n"
	"                          goal (hier: its sector's exit) flows straight at it,\n"
	"                          and its arrow is the one nearest that direction\n"
	"  -c, --connectivity N    8 (default) or 4; Dijkstra only\n"
	"  -r, --arrows RULE       cheapest (default): each arrow is the cheapest step,\n"
	"                          so value = step + the value it points at; lowest:\n"
	"                          the lowest neighbour (can leave the cheapest path\n"
	"                          on weighted terrain); Dijkstra only\n"
	"  -G, --group NAME        solve group NAME's field: towards its goals (unless\n"
	"                          --goal), by its movement class (unless --class)\n"
	"  -C, --class CLASS       solve for movement class CLASS of the level: its own\n"
	"                          costs and walls (default: the painted costs)\n"
	"  -s, --show FIELD        print costs (as painted), effective costs (what the\n"
	"                          solver integrates: with the wall penalty),\n"
	"                          integration values or flow arrows\n"
	"  -q, --query X,Y         print 'X Y VALUE' (or 'X Y unreachable'); repeatable;\n"
	"                          alone (no --show, --json) it solves only as far as\n"
	"                          the queried cells need\n"
	"  -a, --ascii             ASCII arrows instead of Unicode\n"
	"  -j, --json              the summary and the queries as JSON (docs/json.md)\n"
	"  -f, --format FMT        --show's field as text (default), or drawn as svg\n"
	"                          or png (a heat map; png has no arrows)\n"
	"  -o, --output FILE       write --show's field to FILE (format by extension;\n"
	"                          a --format must agree with it)\n"
	"  -h, --help              show this help\n"
	"\n"
	"In --show flow output a wall is its terrain glyph ('#'), a temporary wall\n"
	"(the dynamic layer) '▒' ('%' with --ascii), '*' a goal and 'x' an\n"
	"unreachable cell, as in the editor; --ascii arrows are > v < ^ and\n"
	"p (NE), q (NW), b (SE), d (SW): the letter's bowl is the arrow's head.\n"
	"In integration output '-' is an unreachable cell.\n";

enum { SHOW_NONE, SHOW_COSTS, SHOW_INTEGRATION, SHOW_FLOW, SHOW_EFFECTIVE };

static const char *const formats[] = {"text", "svg", "png", NULL};

typedef struct solve_args {
	ff_shape goals[FF_GOALS_MAX];
	int ngoals;
	int qx[FF_WANT_MAX], qy[FF_WANT_MAX], nq;
	double qv[FF_WANT_MAX];  /* their values */
	ff_solver_opts opts;
	int show;
	bool ascii, json;
	const char *format;      /* "text", "svg" or "png" */
	const char *out;         /* --output, or "-" */
	const char *path;
	const char *cls;         /* --class, or NULL */
	const char *group;       /* --group, or NULL */
} solve_args;

static int parse_args(int argc, char **argv, solve_args *a)
{
	static const struct option opts[] = {
		{"goal", required_argument, NULL, 'g'},
		{"method", required_argument, NULL, 'm'},
		{"sector", required_argument, NULL, 'S'},
		{"los", no_argument, NULL, 'L'},
		{"connectivity", required_argument, NULL, 'c'},
		{"arrows", required_argument, NULL, 'r'},
		{"group", required_argument, NULL, 'G'},
		{"class", required_argument, NULL, 'C'},
		{"show", required_argument, NULL, 's'},
		{"query", required_argument, NULL, 'q'},
		{"ascii", no_argument, NULL, 'a'},
		{"json", no_argument, NULL, 'j'},
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c, x, y;
	char word[16];

	optind = 1;
	while ((c = getopt_long(argc, argv, "g:m:c:r:G:C:s:q:ajf:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'g':
			if (!ff_cli_parse_xy(optarg, &x, &y))
				return ff_cli_usage("solve", "bad goal '%s' (expected X,Y)", optarg);
			if (a->ngoals == FF_GOALS_MAX)
				return ff_cli_usage("solve", "too many goals (at most %d)", FF_GOALS_MAX);
			a->goals[a->ngoals++] = (ff_shape){FF_SHAPE_CELL, x, y, 0, 0, 0};
			break;
		case 'm':
			if (!ff_method_parse(optarg, &a->opts))
				return ff_cli_usage("solve", "unknown method '%s' (dijkstra, fmm, fmm2 "
						    "or hier)", optarg);
			break;
		case 'L':
			a->opts.los = true;
			break;
		case 'S':
			snprintf(word, sizeof word, "sector%s", optarg);
			if (strlen(optarg) > 4 || !ff_solver_word(word, &a->opts))
				return ff_cli_usage("solve", "sector side must be 8, 16, 32 or 64, "
						    "not '%s'", optarg);
			break;
		case 'c':
			if (strcmp(optarg, "8") && strcmp(optarg, "4"))
				return ff_cli_usage("solve", "connectivity must be 8 or 4, not '%s'", optarg);
			a->opts.connectivity = atoi(optarg);
			break;
		case 'r':
			if (strcmp(optarg, "cheapest") && strcmp(optarg, "lowest"))
				return ff_cli_usage("solve", "unknown arrow rule '%s' (cheapest or lowest)",
						    optarg);
			ff_solver_word(optarg, &a->opts);
			break;
		case 'G':
			a->group = optarg;
			break;
		case 'C':
			a->cls = optarg;
			break;
		case 's':
			if (!strcmp(optarg, "costs"))
				a->show = SHOW_COSTS;
			else if (!strcmp(optarg, "effective"))
				a->show = SHOW_EFFECTIVE;
			else if (!strcmp(optarg, "integration"))
				a->show = SHOW_INTEGRATION;
			else if (!strcmp(optarg, "flow"))
				a->show = SHOW_FLOW;
			else
				return ff_cli_usage("solve", "unknown field '%s' (costs, effective, integration or flow)",
						    optarg);
			break;
		case 'q':
			if (!ff_cli_parse_xy(optarg, &x, &y))
				return ff_cli_usage("solve", "bad query '%s' (expected X,Y)", optarg);
			if (a->nq == FF_WANT_MAX)
				return ff_cli_usage("solve", "too many queries (at most %d)",
						    FF_WANT_MAX);
			a->qx[a->nq] = x, a->qy[a->nq++] = y;
			break;
		case 'a':
			a->ascii = true;
			break;
		case 'j':
			a->json = true;
			break;
		case 'f':
			a->format = NULL;
			for (int i = 0; formats[i]; i++)
				if (!strcmp(optarg, formats[i]))
					a->format = formats[i];
			if (!a->format)
				return ff_cli_usage("solve", "unknown format '%s' (text, svg or png)", optarg);
			break;
		case 'o':
			a->out = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return -1;
		default:
			return ff_cli_usage("solve", "bad option");
		}
	}
	if (optind != argc - 1)
		return ff_cli_usage("solve", "expected one LEVEL");
	if (a->json && a->show)
		return ff_cli_usage("solve", "--json gives the summary and queries, not a field");
	if (!ff_cli_format_fits("solve", a->format, a->out))
		return FF_EXIT_USAGE;
	if (!a->format)
		a->format = a->out ? ff_cli_format_of(a->out, formats) : "text";
	if (!a->format || !strcmp(a->format, "text")) {
		if (a->out)
			return ff_cli_usage("solve", "-o writes a picture (FILE.svg or FILE.png); "
					    "send text to a file with > FILE");
		a->format = "text";
	} else if (!a->show) {
		return ff_cli_usage("solve", "--format %s draws a field: add --show FIELD", a->format);
	} else if (!a->out && (a->nq || a->json)) {
		return ff_cli_usage("solve", "a picture and the queries both on standard output: "
				    "write the picture with -o FILE");
	}
	a->path = argv[optind];
	return FF_EXIT_OK;
}

static bool utf8_locale(void)
{
	const char *v = getenv("LC_ALL");

	if (!v || !*v)
		v = getenv("LC_CTYPE");
	if (!v || !*v)
		v = getenv("LANG");
	return v && (strstr(v, "UTF-8") || strstr(v, "utf8") || strstr(v, "UTF8") ||
		     strstr(v, "utf-8"));
}

static void show_field(const ff_solver *s, const ff_level *l, int show, bool ascii)
{
	for (int y = 0; y < l->h; y++) {
		for (int x = 0; x < l->w; x++) {
			int c = ff_level_cost(l, x, y), d = ff_solver_dir(s, x, y);
			double v = ff_solver_value(s, x, y);
			if (show == SHOW_EFFECTIVE)
				c = ff_solver_cost(s, x, y);
			if (show == SHOW_COSTS || show == SHOW_EFFECTIVE) {
				printf(c == FF_WALL ? "%s  #" : "%s%3d", x ? " " : "", c);
			} else if (show == SHOW_INTEGRATION) {
				if (ff_level_wall(l, x, y))
					printf("%s%8s", x ? " " : "", "#");
				else if (isinf(v))
					printf("%s%8s", x ? " " : "", "-");
				else
					printf("%s%8.2f", x ? " " : "", v);
			} else if (c == FF_WALL) {
				putchar(ff_glyph_terrain(l, ff_level_value(l, x, y)));
			} else if (ff_level_dyn(l, x, y) == FF_WALL) {
				fputs(ff_glyph(FF_GLYPH_DYN_WALL, !ascii), stdout);
			} else if (v == 0.0) {
				fputs(ff_glyph(FF_GLYPH_GOAL, !ascii), stdout);
			} else if (d == FF_DIR_NONE) {
				fputs(ff_glyph(FF_GLYPH_UNREACH, !ascii), stdout);
			} else {
				fputs(ff_glyph_arrow(d, !ascii), stdout);
			}
		}
		putchar('\n');
	}
}

typedef struct totals {
	long reach;              /* cells with a finite value */
	double vmax;             /* the largest finite value */
} totals;

static totals count(const ff_solver *s, const ff_level *l)
{
	totals t = {0, 0};

	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++) {
			double v = ff_solver_value(s, x, y);
			if (!isinf(v)) {
				t.reach++;
				if (v > t.vmax)
					t.vmax = v;
			}
		}
	return t;
}

static int connectivity(const solve_args *a)
{
	return a->opts.method == FF_METHOD_FMM ? 4 : a->opts.connectivity;
}

static void summary(const ff_solver *s, const ff_level *l, const solve_args *a)
{
	totals t = count(s, l);

	printf("%s: %dx%d, %s, %d-connected, %ld cells reachable, largest value %.9g\n",
	       l->meta.name, l->w, l->h, ff_method_name(&a->opts), connectivity(a), t.reach,
	       t.vmax);
}

/* The queries' lines, from their values V. */
static void queries(const double *v, const solve_args *a)
{
	for (int i = 0; i < a->nq; i++) {
		if (isinf(v[i]))
			printf("%d %d unreachable\n", a->qx[i], a->qy[i]);
		else
			printf("%d %d %.9g\n", a->qx[i], a->qy[i], v[i]);
	}
}

/* --show FIELD --format svg|png: the picture of the field. */
static int draw(const ff_solver *s, const ff_level *l, const ff_shape *goals, int ngoals,
		const solve_args *a)
{
	static const ff_pic_field fields[] = {
		[SHOW_COSTS] = FF_PIC_COSTS, [SHOW_INTEGRATION] = FF_PIC_INTEGRATION,
		[SHOW_FLOW] = FF_PIC_FLOW, [SHOW_EFFECTIVE] = FF_PIC_EFFECTIVE,
	};
	ff_pic p = {l, s, goals, ngoals, fields[a->show]};

	return ff_cli_picture(&p, !strcmp(a->format, "png"), a->out ? a->out : "-") ?
	       FF_EXIT_OK : FF_EXIT_FAIL;
}

/* The summary and the queries as one JSON document (docs/json.md). */
static int json_out(const ff_solver *s, const ff_level *l, const solve_args *a)
{
	totals t = count(s, l);
	json_t *q = json_array(), *doc;

	for (int i = 0; q && i < a->nq; i++) {
		double v = ff_solver_value(s, a->qx[i], a->qy[i]);
		if (json_array_append_new(q, json_pack("{s:i, s:i, s:b, s:o}", "x", a->qx[i],
						       "y", a->qy[i], "reachable", !isinf(v),
						       "value", ff_json_real(v)))) {
			json_decref(q);
			q = NULL;
		}
	}
	doc = json_pack("{s:s, s:i, s:i, s:s, s:i, s:I, s:o, s:o}", "level", l->meta.name,
			"width", l->w, "height", l->h, "method", ff_method_name(&a->opts),
			"connectivity", connectivity(a), "reachable", (json_int_t)t.reach,
			"largest", ff_json_real(t.vmax), "queries", q);
	return ff_json_print(doc);
}

/* Solves for A's --class with S; false after saying the level has no
 * such class. */
static bool set_class(ff_solver *s, const ff_level *l, const solve_args *a)
{
	int k = ff_level_class_by_name(&l->meta, a->cls);
	char list[FF_CLASSES_MAX * FF_GROUP_NAME_MAX + 16] = "";

	if (k < 0) {
		for (int c = 1; c <= l->meta.nclasses; c++)
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
				 c > 1 ? ", " : "", l->meta.classes[c]);
		ff_cli_error("%s has no movement class '%s' (%s%s)", a->path, a->cls,
			     l->meta.nclasses ? "its classes: " : "it has none", list);
		return false;
	}
	if (k > 0 && a->opts.method == FF_METHOD_HIER) {
		ff_cli_error("--method hier solves for the default movement class only, not '%s' "
			     "(use dijkstra, fmm or fmm2)", a->cls);
		return false;
	}
	ff_solver_set_class(s, k);
	return true;
}

/* For A's --group: its goals into A (unless --goal gave some) and its
 * class (unless --class gave one); false after saying what is wrong. */
static bool use_group(const ff_level *l, solve_args *a)
{
	int g = ff_level_group_by_name(l, a->group);
	char list[FF_GROUPS_MAX * FF_GROUP_NAME_MAX + 16] = "";

	if (g < 0) {
		for (int k = 0; k < l->meta.ngroups; k++)
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
				 k ? ", " : "", ff_level_group_name(l, k));
		ff_cli_error("%s has no group '%s' (its groups: %s)", a->path, a->group, list);
		return false;
	}
	if (!a->ngoals && !(a->ngoals = ff_level_group_goals(l, g, a->goals))) {
		ff_cli_error("group '%s' of %s has no goals", a->group, a->path);
		return false;
	}
	if (!a->cls)
		a->cls = ff_level_class_name(&l->meta, l->meta.group_class[g]);
	return true;
}

int ff_cli_solve(int argc, char **argv)
{
	static solve_args a;
	ff_level *l;
	ff_solver *s;
	const ff_shape *goals;
	int ngoals, rc = FF_EXIT_OK;
	ff_err e;

	memset(&a, 0, sizeof a);
	a.opts = (ff_solver_opts){FF_METHOD_DIJKSTRA, 8, 1, FF_ARROW_CHEAPEST, 0, false};
	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc < 0 ? FF_EXIT_OK : rc;
	a.ascii = a.ascii || !utf8_locale();
	if (a.opts.method == FF_METHOD_FMM)
		a.opts.connectivity = 4;
	l = ff_cli_load_level(a.path);
	if (!l)
		return FF_EXIT_FAIL;
	/* Without --group or --goal: the level's field, as the editor shows it
	 * (a level without groups: every goal, by the painted costs). */
	if (!a.group && !a.ngoals && l->meta.ngoals)
		a.group = ff_level_group_name(l, ff_level_field_group(l));
	if (a.group && !use_group(l, &a)) {
		ff_level_destroy(l);
		return FF_EXIT_FAIL;
	}
	goals = a.ngoals ? a.goals : l->meta.goals;
	ngoals = a.ngoals ? a.ngoals : l->meta.ngoals;
	if (ngoals == 0) {
		a.goals[0] = (ff_shape){FF_SHAPE_CELL, 0, 0, 0, 0, 0};
		if (!ff_gen_centre_cell(l, &a.goals[0].x, &a.goals[0].y)) {
			ff_cli_error("%s has no goals and no passable cell", a.path);
			ff_level_destroy(l);
			return FF_EXIT_FAIL;
		}
		ff_cli_error("%s has no goals; using %d,%d (nearest the centre)", a.path,
			     a.goals[0].x, a.goals[0].y);
		goals = a.goals;
		ngoals = 1;
	}
	for (int i = 0; i < a.nq; i++)
		if (!ff_level_in(l, a.qx[i], a.qy[i])) {
			ff_cli_error("query %d,%d is outside the %dx%d level", a.qx[i],
				     a.qy[i], l->w, l->h);
			ff_level_destroy(l);
			return FF_EXIT_FAIL;
		}
	s = ff_cli_solver_for(a.path, l, &a.opts);
	if (!s || (a.cls && !set_class(s, l, &a))) {
		ff_solver_destroy(s);
		ff_level_destroy(l);
		return FF_EXIT_FAIL;
	}
	/* only values to print: only as much of a solve as they need */
	if (a.nq && !a.show && !a.json)
		e = ff_solver_values_at(s, l, goals, ngoals, &a.opts, a.nq, a.qx, a.qy, a.qv);
	else
		e = ff_solver_solve(s, l, goals, ngoals, &a.opts);
	if (e) {
		ff_cli_solve_error(a.path, s, l, goals, ngoals, e);
		rc = FF_EXIT_FAIL;
	} else if (a.json) {
		rc = json_out(s, l, &a);
	} else {
		if (a.show && strcmp(a.format, "text"))
			rc = draw(s, l, goals, ngoals, &a);
		else if (a.show)
			show_field(s, l, a.show, a.ascii);
		if (a.show)
			for (int i = 0; i < a.nq; i++)
				a.qv[i] = ff_solver_value(s, a.qx[i], a.qy[i]);
		queries(a.qv, &a);
		if (!a.show && !a.nq)
			summary(s, l, &a);
	}
	ff_solver_destroy(s);
	ff_level_destroy(l);
	return rc;
}
