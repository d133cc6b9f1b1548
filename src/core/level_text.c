/*
 * level_text.c - the plain-text level format (docs/formats.md).
 *
 *   # free text kept as the level's note (only at the very top)
 *   fieldmarshal level 1
 *   name NAME
 *   size W H
 *   class NAME [wall]                (movement classes; zero or more)
 *   terrain NAME GLYPH COST [CLASS=COST...]  (COST 1..254 or "wall")
 *   param NAME VALUE                 (zero or more)
 *   group NAME [class CLASS]         (zero or more; else made where used)
 *   goal cell X Y | goal rect X Y W H | goal circle X Y R   [group NAME]
 *   spawn rect X Y W H COUNT | spawn circle X Y R COUNT   [rate R] [group NAME]
 *   dyn SHAPE +N | dyn SHAPE wall    (the dynamic layer; zero or more)
 *   grid
 *   H rows of W glyphs
 *   end
 *
 * Parsing works on a private ff_level that is handed over only when the
 * whole text is valid, so a malformed file never yields a half level.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "level_dyn.h"
#include "level_text.h"

/* A cursor over the input, one line at a time. */
typedef struct reader {
	const char *p, *end;
	const char *line;        /* current line, without its '\n' or '\r' */
	size_t len;
	int lineno;
	int version;             /* of the format: 1 or 2 */
	ff_diag *diag;
} reader;

static bool next_line(reader *r)
{
	const char *nl;

	if (r->p >= r->end)
		return false;
	nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
	r->line = r->p;
	r->len = (size_t)((nl ? nl : r->end) - r->p);
	r->p = nl ? nl + 1 : r->end;
	if (r->len && r->line[r->len - 1] == '\r')
		r->len--;
	r->lineno++;
	return true;
}

static ff_err fail(reader *r, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static ff_err fail(reader *r, int col, const char *fmt, ...)
{
	va_list ap;

	if (r->diag) {
		r->diag->line = r->lineno;
		r->diag->col = col;
		va_start(ap, fmt);
		vsnprintf(r->diag->msg, sizeof r->diag->msg, fmt, ap);
		va_end(ap);
		ff_escape_msg(r->diag->msg, sizeof r->diag->msg);
	}
	return FF_E_PARSE;
}

/* Splits the current line into at most MAX words, each as long as the
 * longest a level needs, its name (FF_NAME_MAX - 1 chars). */
#define FF_WORDS_MAX 12

typedef struct words {
	int n;
	char w[FF_WORDS_MAX][FF_NAME_MAX];
	int col[FF_WORDS_MAX];
} words;

static ff_err split(reader *r, words *ws)
{
	size_t i = 0;

	ws->n = 0;
	while (i < r->len) {
		size_t s;

		while (i < r->len && (r->line[i] == ' ' || r->line[i] == '\t'))
			i++;
		if (i >= r->len)
			break;
		s = i;
		while (i < r->len && r->line[i] != ' ' && r->line[i] != '\t')
			i++;
		if (ws->n == FF_WORDS_MAX)
			return fail(r, (int)s + 1, "too many words");
		if (i - s >= sizeof ws->w[0])
			return fail(r, (int)s + 1, "word too long");
		memcpy(ws->w[ws->n], r->line + s, i - s);
		ws->w[ws->n][i - s] = '\0';
		ws->col[ws->n++] = (int)s + 1;
	}
	return FF_OK;
}

static bool blank_or_comment(const reader *r)
{
	size_t i = 0;

	while (i < r->len && (r->line[i] == ' ' || r->line[i] == '\t'))
		i++;
	return i == r->len || r->line[i] == '#';
}

/* Reads word K of WS as an integer in [lo, hi]. */
static ff_err word_int(reader *r, const words *ws, int k, long lo, long hi,
		       const char *what, int *out)
{
	char *e;
	long v;

	if (k >= ws->n)
		return fail(r, (int)r->len + 1, "missing %s", what);
	errno = 0;
	v = strtol(ws->w[k], &e, 10);
	if (*e || e == ws->w[k] || errno)
		return fail(r, ws->col[k], "%s '%s' is not a whole number", what, ws->w[k]);
	if (v < lo || v > hi)
		return fail(r, ws->col[k], "%s %ld is out of range %ld..%ld", what, v, lo, hi);
	*out = (int)v;
	return FF_OK;
}

static ff_err want_words(reader *r, const words *ws, int n, const char *usage)
{
	if (ws->n < n)
		return fail(r, (int)r->len + 1, "missing arguments: expected '%s'", usage);
	if (ws->n > n)
		return fail(r, ws->col[n], "trailing garbage '%s': expected '%s'", ws->w[n], usage);
	return FF_OK;
}

/* Reads the note (leading "# " lines) and the magic line. */
static ff_err read_top(reader *r, ff_buf *note)
{
	while (next_line(r)) {
		if (r->len && r->line[0] == '#') {
			size_t skip = r->len > 1 && r->line[1] == ' ' ? 2 : 1, n = r->len;

			/* every CR before the line end goes: the note's lines end in
			 * '\n' alone, so it formats the same each time */
			while (n > skip && r->line[n - 1] == '\r')
				n--;
			for (size_t i = skip; i < n; i++)
				if ((unsigned char)r->line[i] < 0x20 && r->line[i] != '\t' &&
				    r->line[i] != '\r')
					return fail(r, (int)i + 1, "a control character in the note (a "
						    "tab is the only one it takes)");
			ff_buf_add(note, r->line + skip, n - skip);
			ff_buf_putc(note, '\n');
			continue;
		}
		r->version = 2;
		if (r->len == strlen(FF_TEXTLEVEL_MAGIC) &&
		    !memcmp(r->line, FF_TEXTLEVEL_MAGIC, r->len))
			return FF_OK;
		r->version = 1;
		if (r->len == strlen(FF_TEXTLEVEL_MAGIC_V1) &&
		    !memcmp(r->line, FF_TEXTLEVEL_MAGIC_V1, r->len))
			return FF_OK;
		if (r->len > 19 && !memcmp(r->line, "fieldmarshal level ", 19))
			return fail(r, 20, "unsupported format version '%.*s' (this program reads 1 and 2)",
				    (int)(r->len - 19), r->line + 19);
		return fail(r, 1, "expected '%s' as the first line", FF_TEXTLEVEL_MAGIC);
	}
	r->lineno = r->lineno ? r->lineno : 1;
	return fail(r, 1, "truncated: no '%s' line", FF_TEXTLEVEL_MAGIC);
}

/* A 'dyn' line, laid on the level once it exists. */
typedef struct dyn_line {
	ff_shape s;
	int value, line;
} dyn_line;

/* Header lines before "grid", collected so that "size" may come anywhere. */
typedef struct header {
	ff_level_meta m;
	bool have_name, have_size, have_palette;
	double v1_dens_r, v1_dens_t;  /* version 1's funnelling trigger */
	bool v1_funnel;
	int w, h;
	int goal_line[FF_GOALS_MAX], spawn_line[FF_SPAWNS_MAX];
	bool group_line[FF_GROUPS_MAX]; /* the group had its 'group' line */
	dyn_line *dyn;           /* in file order; the caller frees it */
	size_t ndyn, dyn_cap;
} header;

/* The "CLASS=COST" words of a terrain line from word 4 on into T. */
static ff_err parse_class_costs(reader *r, const words *ws, const ff_level_meta *m, ff_terrain *t)
{
	const char *w[FF_WORDS_MAX];
	char why[160];
	int bad;

	for (int i = 4; i < ws->n; i++)
		w[i - 4] = ws->w[i];
	if (ff_class_costs_read(m, w, ws->n - 4, t->cls, &bad, why, sizeof why))
		return fail(r, ws->col[4 + bad], "%s", why);
	return FF_OK;
}

static ff_err parse_terrain(reader *r, const words *ws, header *hd)
{
	ff_terrain *t;
	int cost;

	if (ws->n < 4 && want_words(r, ws, 4, "terrain NAME GLYPH COST [CLASS=COST...]"))
		return FF_E_PARSE;
	if (strlen(ws->w[2]) != 1 || ws->w[2][0] < '!' || ws->w[2][0] > '~')
		return fail(r, ws->col[2], "a glyph is one printable ASCII character, not '%s'",
			    ws->w[2]);
	if (!strcmp(ws->w[3], "wall"))
		cost = FF_WALL;
	else if (word_int(r, ws, 3, FF_COST_MIN, FF_COST_MAX, "cost", &cost))
		return FF_E_PARSE;
	if (!ff_terrain_name_ok(ws->w[1], cost))
		return fail(r, ws->col[1], "bad terrain name '%s' (1 to %d characters, not all "
			    "digits; 'wall' only for walls)", ws->w[1], FF_TERRAIN_NAME_MAX - 1);
	for (int i = 0; i < hd->m.npalette; i++) {
		const ff_terrain *o = &hd->m.palette[i];
		if (!strcmp(o->name, ws->w[1]) || o->glyph == ws->w[2][0] ||
		    (o->cost == cost && cost != FF_WALL))
			return fail(r, ws->col[1], "terrain '%s' repeats the name, glyph or cost of '%s'",
				    ws->w[1], o->name);
	}
	if (hd->m.npalette == FF_PALETTE_MAX)
		return fail(r, 1, "too many terrains (at most %d)", FF_PALETTE_MAX);
	t = &hd->m.palette[hd->m.npalette];
	memset(t, 0, sizeof *t);
	strcpy(t->name, ws->w[1]);
	t->glyph = ws->w[2][0];
	t->cost = (uint8_t)cost;
	if (parse_class_costs(r, ws, &hd->m, t))
		return FF_E_PARSE;
	hd->m.npalette++;
	hd->have_palette = true;
	return FF_OK;
}

/* "class NAME [wall]": a movement class, declared once, before a terrain
 * or group line names it. */
static ff_err parse_class(reader *r, const words *ws, header *hd)
{
	ff_level_meta *m = &hd->m;
	bool walls = ws->n == 3;

	if (ws->n != 2 && (ws->n != 3 || strcmp(ws->w[2], "wall")))
		return ws->n < 2 ? want_words(r, ws, 2, "class NAME [wall]")
				 : fail(r, ws->col[2], "expected 'wall' or nothing after the class's "
					"name, not '%s'", ws->w[2]);
	if (!ff_class_name_ok(ws->w[1]))
		return fail(r, ws->col[1], "bad class name '%s' (1 to %d letters, digits, '_' or "
			    "'-'; not 'none')", ws->w[1], FF_GROUP_NAME_MAX - 1);
	if (ff_level_class_by_name(m, ws->w[1]) > 0)
		return fail(r, ws->col[1], "class '%s' is declared twice", ws->w[1]);
	if (m->nclasses == FF_CLASSES_MAX)
		return fail(r, 1, "too many classes (at most %d)", FF_CLASSES_MAX);
	strcpy(m->classes[++m->nclasses], ws->w[1]);
	m->class_walls[m->nclasses] = walls;
	return FF_OK;
}

/* Version 1 kept lengths in cells (of 0.5 m, the cell size it implied)
 * and triggered funnelling by a neighbour count: what each of its
 * parameters becomes (docs/formats.md, "Version 1"). */
static const struct v1_param {
	const char *name;
	int id;                  /* ff_param_id, or -1: the funnelling trigger */
	double scale;            /* version 2 value per version 1 value */
} v1_params[] = {
	{"speed", FF_P_SPEED, 0.5}, {"accel", FF_P_ACCEL, 0.5}, {"radius", FF_P_RADIUS, 0.5},
	{"sep_radius", FF_P_SEP_RADIUS, 0.5}, {"sep_weight", FF_P_SEP_WEIGHT, 1},
	{"density_radius", -1, 0}, {"density_threshold", -1, 0},
	{"funnel_weight", FF_P_FUNNEL_WEIGHT, 1}, {"jitter", FF_P_JITTER, 1},
	{"arrival_radius", FF_P_ARRIVAL_RADIUS, 0.5}, {"dt", FF_P_DT, 1}, {"seed", FF_P_SEED, 1},
};

static ff_err parse_v1_param(reader *r, const words *ws, header *hd)
{
	char *e, range[64];
	double v;

	for (size_t k = 0; k < sizeof v1_params / sizeof v1_params[0]; k++) {
		const struct v1_param *p = &v1_params[k];

		if (strcmp(ws->w[1], p->name))
			continue;
		v = strtod(ws->w[2], &e);
		if (*e || e == ws->w[2] || !isfinite(v))
			return fail(r, ws->col[2], "value '%s' is not a number", ws->w[2]);
		if (p->id < 0) {
			*(!strcmp(p->name, "density_radius") ? &hd->v1_dens_r : &hd->v1_dens_t) = v;
			hd->v1_funnel = true;
			return FF_OK;
		}
		if (!ff_param_ok((ff_param_id)p->id, v * p->scale))
			return fail(r, ws->col[2], "%s must be %s, not %s (converted from version 1)",
				    p->name, ff_param_range((ff_param_id)p->id, range, sizeof range),
				    ws->w[2]);
		hd->m.params[p->id] = v * p->scale;
		return FF_OK;
	}
	return fail(r, ws->col[1], "unknown parameter '%s'", ws->w[1]);
}

/* Version 1 funnelled above COUNT neighbours within R cells (0.5 m):
 * the same density in agents per square metre, within the range. */
static void v1_funnel(header *hd)
{
	const ff_param_info *pi = ff_param_info_get(FF_P_FUNNEL_DENSITY);
	double r = hd->v1_dens_r * 0.5, rho = hd->v1_dens_t / (3.14159265358979323846 * r * r);

	if (hd->v1_funnel)
		hd->m.params[FF_P_FUNNEL_DENSITY] = rho < pi->min ? pi->min : rho > pi->max ? pi->max : rho;
}

static ff_err parse_param(reader *r, const words *ws, header *hd)
{
	const ff_param_info *pi;
	char range[64];
	ff_err e;
	double v;
	int id;

	if (want_words(r, ws, 3, "param NAME VALUE"))
		return FF_E_PARSE;
	if (r->version == 1)
		return parse_v1_param(r, ws, hd);
	id = ff_param_by_name(ws->w[1]);
	if (id < 0)
		return fail(r, ws->col[1], "unknown parameter '%s'", ws->w[1]);
	pi = ff_param_info_get((ff_param_id)id);
	/* the cell unit reads with the cell size given so far, else the
	 * default: write cell_size first (format() does) */
	e = ff_param_parse((ff_param_id)id, ws->w[2], hd->m.params[FF_P_CELL_SIZE], &v);
	if (e == FF_E_PARSE)
		return fail(r, ws->col[2], "value '%s' is not a number (in %s%s%s)", ws->w[2],
			    *ff_unit_si(pi->unit) ? ff_unit_si(pi->unit) : "no unit",
			    *ff_unit_cells(pi->unit) ? " or " : "", ff_unit_cells(pi->unit));
	if (e != FF_OK)
		return fail(r, ws->col[2], "%s must be %s, not %s", pi->name,
			    ff_param_range((ff_param_id)id, range, sizeof range), ws->w[2]);
	hd->m.params[id] = v;
	return FF_OK;
}

/* Parses "cell X Y", "rect X Y W H" or "circle X Y R" starting at word K;
 * EXTRA more words must follow. */
static ff_err parse_shape(reader *r, const words *ws, int k, int extra, ff_shape *s)
{
	const int big = FF_LEVEL_MAX_SIDE * 2;

	memset(s, 0, sizeof *s);
	if (k >= ws->n)
		return fail(r, (int)r->len + 1, "missing shape: cell, rect or circle");
	if (!strcmp(ws->w[k], "cell")) {
		s->kind = FF_SHAPE_CELL;
		if (want_words(r, ws, k + 3 + extra, "cell X Y"))
			return FF_E_PARSE;
	} else if (!strcmp(ws->w[k], "rect")) {
		s->kind = FF_SHAPE_RECT;
		if (want_words(r, ws, k + 5 + extra, "rect X Y W H"))
			return FF_E_PARSE;
		if (word_int(r, ws, k + 3, 1, big, "width", &s->w) ||
		    word_int(r, ws, k + 4, 1, big, "height", &s->h))
			return FF_E_PARSE;
	} else if (!strcmp(ws->w[k], "circle")) {
		s->kind = FF_SHAPE_CIRCLE;
		if (want_words(r, ws, k + 4 + extra, "circle X Y R"))
			return FF_E_PARSE;
		if (word_int(r, ws, k + 3, 0, big, "radius", &s->r))
			return FF_E_PARSE;
	} else {
		return fail(r, ws->col[k], "unknown shape '%s': expected cell, rect or circle",
			    ws->w[k]);
	}
	if (word_int(r, ws, k + 1, -big, big, "x", &s->x) ||
	    word_int(r, ws, k + 2, -big, big, "y", &s->y))
		return FF_E_PARSE;
	return FF_OK;
}

/* Words of a shape, its kind included: "rect X Y W H" is 5. */
static int shape_words(const char *kind)
{
	return !strcmp(kind, "rect") ? 5 : !strcmp(kind, "circle") ? 4 : 3;
}

/* "group NAME" at words K, K + 1 of WS into *G (a group of M, made when
 * new). */
static ff_err parse_group(reader *r, const words *ws, int k, ff_level_meta *m, int *g)
{
	if (strcmp(ws->w[k], "group"))
		return fail(r, ws->col[k], "expected 'group NAME', not '%s'", ws->w[k]);
	*g = ff_level_meta_group(m, ws->w[k + 1]);
	if (*g == -1)
		return fail(r, ws->col[k + 1], "bad group name '%s' (1 to %d letters, digits, '_' "
			    "or '-')", ws->w[k + 1], FF_GROUP_NAME_MAX - 1);
	if (*g == -2)
		return fail(r, ws->col[k + 1], "too many groups: at most %d besides the default one",
			    FF_GROUPS_MAX - 1);
	return FF_OK;
}

/* "group NAME [class CLASS]": a group (made here unless a goal or spawn
 * line made it), and its movement class; one such line a group.  The
 * default group has one only to give its class. */
static ff_err parse_group_line(reader *r, const words *ws, header *hd)
{
	int g, k = 0;

	if (ws->n != 2 && ws->n != 4)
		return want_words(r, ws, ws->n < 2 ? 2 : 4, "group NAME [class CLASS]");
	if (ws->n == 4 && strcmp(ws->w[2], "class"))
		return fail(r, ws->col[2], "expected 'class CLASS' after the group's name, not '%s'",
			    ws->w[2]);
	if (ws->n == 4 && (k = ff_level_class_by_name(&hd->m, ws->w[3])) < 0)
		return fail(r, ws->col[3], "unknown class '%s' (declare it first: 'class %s')",
			    ws->w[3], ws->w[3]);
	if (ws->n == 2 && !strcmp(ws->w[1], "default"))
		return fail(r, ws->col[1], "the default group is always there: a 'group default' "
			    "line only gives its class");
	if (parse_group(r, ws, 0, &hd->m, &g))
		return FF_E_PARSE;
	if (hd->group_line[g])
		return fail(r, ws->col[1], "a second 'group %s' line", ws->w[1]);
	hd->group_line[g] = true;
	hd->m.group_class[g] = (uint8_t)k;
	return FF_OK;
}

/* "goal SHAPE [group NAME]" into goal N of HD. */
static ff_err parse_goal(reader *r, const words *ws, header *hd, int n)
{
	int at = ws->n > 1 ? 1 + shape_words(ws->w[1]) : 2, g = 0;
	bool group = ws->n == at + 2;

	if (parse_shape(r, ws, 1, group ? 2 : 0, &hd->m.goals[n]))
		return FF_E_PARSE;
	if (group && parse_group(r, ws, at, &hd->m, &g))
		return FF_E_PARSE;
	hd->m.goal_group[n] = (uint8_t)g;
	return FF_OK;
}

/* "spawn SHAPE COUNT [rate R] [group NAME]" into SP. */
static ff_err parse_spawn(reader *r, const words *ws, header *hd, ff_spawn *sp)
{
	int at = ws->n > 1 ? 1 + shape_words(ws->w[1]) : 2, k;
	char *e;

	if (parse_shape(r, ws, 1, ws->n > at + 1 ? ws->n - at : 1, &sp->area))
		return FF_E_PARSE;
	if (sp->area.kind == FF_SHAPE_CELL)
		return fail(r, ws->col[1], "a spawn area is a rect or a circle");
	if (word_int(r, ws, at, 1, FF_SPAWN_COUNT_MAX, "agent count", &sp->count))
		return FF_E_PARSE;
	sp->rate = 0;
	sp->group = 0;
	for (k = at + 1; k < ws->n; k += 2) {
		if (k + 1 >= ws->n || (strcmp(ws->w[k], "rate") && strcmp(ws->w[k], "group")))
			return fail(r, ws->col[k], "expected 'rate R' or 'group NAME' after the count, "
				    "not '%s'", ws->w[k]);
		if (!strcmp(ws->w[k], "group")) {
			if (parse_group(r, ws, k, &hd->m, &sp->group))
				return FF_E_PARSE;
			continue;
		}
		sp->rate = strtod(ws->w[k + 1], &e);
		if (*e || e == ws->w[k + 1] || !(sp->rate > 0 && sp->rate <= FF_SPAWN_RATE_MAX))
			return fail(r, ws->col[k + 1], "rate '%s' must be a number of agents per "
				    "second in (0, %g]", ws->w[k + 1], FF_SPAWN_RATE_MAX);
	}
	return FF_OK;
}

/* "dyn SHAPE VALUE", kept in HD until the level exists. */
static ff_err parse_dyn(reader *r, const words *ws, header *hd)
{
	dyn_line *d;

	if (hd->ndyn == hd->dyn_cap) {
		size_t cap = hd->dyn_cap ? hd->dyn_cap * 2 : 16;
		dyn_line *n = realloc(hd->dyn, cap * sizeof *n);
		if (!n)
			return FF_E_NOMEM;
		hd->dyn = n, hd->dyn_cap = cap;
	}
	d = &hd->dyn[hd->ndyn];
	if (parse_shape(r, ws, 1, 1, &d->s))
		return FF_E_PARSE;
	if (!ff_dyn_parse(ws->w[ws->n - 1], &d->value))
		return fail(r, ws->col[ws->n - 1], "expected %s, not '%s'", FF_DYN_WORDS,
			    ws->w[ws->n - 1]);
	d->line = r->lineno;
	hd->ndyn++;
	return FF_OK;
}

static ff_err parse_header_line(reader *r, const words *ws, header *hd)
{
	const char *k = ws->w[0];

	if ((!strcmp(k, "name") && hd->have_name) || (!strcmp(k, "size") && hd->have_size))
		return fail(r, 1, "a second '%s' line", k);
	if (!strcmp(k, "name")) {
		if (want_words(r, ws, 2, "name NAME"))
			return FF_E_PARSE;
		if (!ff_level_name_ok(ws->w[1]))
			return fail(r, ws->col[1], "bad level name '%s' (letters, digits, '_', '-', '.')",
				    ws->w[1]);
		strcpy(hd->m.name, ws->w[1]);
		hd->have_name = true;
	} else if (!strcmp(k, "size")) {
		if (want_words(r, ws, 3, "size W H") ||
		    word_int(r, ws, 1, 1, FF_LEVEL_MAX_SIDE, "width", &hd->w) ||
		    word_int(r, ws, 2, 1, FF_LEVEL_MAX_SIDE, "height", &hd->h))
			return FF_E_PARSE;
		hd->have_size = true;
	} else if (!strcmp(k, "terrain")) {
		return parse_terrain(r, ws, hd);
	} else if (!strcmp(k, "param")) {
		return parse_param(r, ws, hd);
	} else if (!strcmp(k, "class")) {
		return parse_class(r, ws, hd);
	} else if (!strcmp(k, "group")) {
		return parse_group_line(r, ws, hd);
	} else if (!strcmp(k, "goal")) {
		if (hd->m.ngoals == FF_GOALS_MAX)
			return fail(r, 1, "too many goals (at most %d)", FF_GOALS_MAX);
		hd->goal_line[hd->m.ngoals] = r->lineno;
		return parse_goal(r, ws, hd, hd->m.ngoals++);
	} else if (!strcmp(k, "spawn")) {
		ff_spawn *sp;
		if (hd->m.nspawns == FF_SPAWNS_MAX)
			return fail(r, 1, "too many spawns (at most %d)", FF_SPAWNS_MAX);
		hd->spawn_line[hd->m.nspawns] = r->lineno;
		sp = &hd->m.spawns[hd->m.nspawns++];
		return parse_spawn(r, ws, hd, sp);
	} else if (!strcmp(k, "dyn")) {
		return parse_dyn(r, ws, hd);
	} else {
		return fail(r, ws->col[0], "unknown keyword '%s'", k);
	}
	return FF_OK;
}

static ff_err read_header(reader *r, header *hd)
{
	words ws;
	ff_err err;

	while (next_line(r)) {
		if (blank_or_comment(r))
			continue;
		if (split(r, &ws))
			return FF_E_PARSE;
		if (!strcmp(ws.w[0], "grid")) {
			if (want_words(r, &ws, 1, "grid"))
				return FF_E_PARSE;
			if (!hd->have_name)
				return fail(r, 1, "missing 'name' line before 'grid'");
			if (!hd->have_size)
				return fail(r, 1, "missing 'size' line before 'grid'");
			return FF_OK;
		}
		if ((err = parse_header_line(r, &ws, hd)))
			return err;         /* FF_E_PARSE, or FF_E_NOMEM for a 'dyn' line */
	}
	return fail(r, 1, "truncated: no 'grid' line");
}

/* The grid's rows: costs through a table, at memory speed; then, when
 * the palette has wall terrains of more than one kind, which wall each
 * wall cell is. */
static ff_err read_grid(reader *r, ff_level *l)
{
	uint8_t cost_of[256] = {0};             /* 0: no terrain has the glyph */
	int16_t value_of[256];
	bool kinds = false;

	for (int i = 0; i < l->meta.npalette; i++) {
		int v = ff_level_terrain_value(l, i);
		cost_of[(unsigned char)l->meta.palette[i].glyph] = l->meta.palette[i].cost;
		value_of[(unsigned char)l->meta.palette[i].glyph] = (int16_t)v;
		kinds = kinds || v > FF_WALL;
	}
	for (int y = 0; y < l->h; y++) {
		uint8_t *row = l->cells + (size_t)y * (size_t)l->w;
		size_t x;
		char g;

		if (!next_line(r))
			return fail(r, 1, "truncated: grid has %d of %d rows", y, l->h);
		if (r->len != (size_t)l->w)
			return fail(r, r->len < (size_t)l->w ? (int)r->len + 1 : l->w + 1,
				    "row %d has %zu cells, expected %d", y, r->len, l->w);
		x = ff_grid_row(cost_of, r->line, row, (size_t)l->w);
		if (x < (size_t)l->w) {
			g = r->line[x];
			if (isgraph((unsigned char)g))
				return fail(r, (int)x + 1, "unknown glyph '%c' (not in the terrain "
					    "palette)", g);
			return fail(r, (int)x + 1, "unknown glyph, byte 0x%02x (not in the terrain "
				    "palette)", (unsigned char)g);
		}
		for (x = 0; kinds && x < (size_t)l->w; x++)
			if (row[x] == FF_WALL &&
			    ff_level_put(l, (int)x, y, value_of[(unsigned char)r->line[x]]))
				return FF_E_NOMEM;
	}
	ff_level_changed(l);
	if (!next_line(r) || r->len != 3 || memcmp(r->line, "end", 3))
		return fail(r, 1, "expected 'end' after the %d grid rows", l->h);
	while (next_line(r))
		if (!blank_or_comment(r))
			return fail(r, 1, "trailing garbage after 'end'");
	return FF_OK;
}

/* Goals and spawns are checked once the grid is known, against their lines:
 * inside the level, of a good size.  One that walls cover still loads: the
 * editor may paint walls over it, and the file must hold what it saved;
 * solving or spawning says what is wrong. */
static ff_err check_shapes(reader *r, const ff_level *l, const header *hd)
{
	static const char *const why[] = {
		[-FF_E_INVAL] = "has a bad size", [-FF_E_RANGE] = "lies outside the level",
	};

	for (int i = 0; i < l->meta.ngoals + l->meta.nspawns; i++) {
		bool goal = i < l->meta.ngoals;
		const ff_shape *s = goal ? &l->meta.goals[i] : &l->meta.spawns[i - l->meta.ngoals].area;
		ff_err err = ff_level_check_shape(l, s, goal);

		if (err && err != FF_E_WALL) {
			r->lineno = goal ? hd->goal_line[i] : hd->spawn_line[i - l->meta.ngoals];
			return fail(r, 1, "%s %d %s", goal ? "goal" : "spawn",
				    goal ? i + 1 : i - l->meta.ngoals + 1,
				    -err < 6 && why[-err] ? why[-err] : ff_strerror(err));
		}
	}
	return FF_OK;
}

/* Lays the 'dyn' lines on L in file order (later lines win). */
static ff_err lay_dyn(reader *r, ff_level *l, const header *hd)
{
	for (size_t i = 0; i < hd->ndyn; i++) {
		ff_err err = ff_level_dyn_set(l, &hd->dyn[i].s, hd->dyn[i].value, NULL);

		if (err) {
			r->lineno = hd->dyn[i].line;
			return fail(r, 1, "dyn %s", err == FF_E_RANGE ? "lies outside the level"
							: "has a bad size");
		}
	}
	return FF_OK;
}

ff_err ff_textlevel_parse(const char *buf, size_t len, ff_level **out, ff_diag *diag)
{
	reader r = {buf, buf + len, NULL, 0, 0, 2, diag};
	ff_buf note = FF_BUF_INIT;
	header *hd = calloc(1, sizeof *hd);
	ff_level *l = NULL;
	ff_err err = FF_E_NOMEM;

	if (diag)
		memset(diag, 0, sizeof *diag);
	if (!hd)
		return FF_E_NOMEM;
	if (ff_text_has_nul(buf, len, diag)) {
		free(hd);
		return FF_E_PARSE;
	}
	for (int i = 0; i < FF_P__COUNT; i++)
		hd->m.params[i] = ff_param_info_get((ff_param_id)i)->def;
	hd->m.ngroups = 1;
	hd->v1_dens_r = 1.5;
	hd->v1_dens_t = 8;
	if ((err = read_top(&r, &note)) || (err = read_header(&r, hd)))
		goto done;
	v1_funnel(hd);
	err = FF_E_NOMEM;
	if (!ff_buf_ok(&note) || !(l = ff_level_create(hd->w, hd->h, hd->m.name)))
		goto done;
	if (note.len >= FF_NOTE_MAX) {
		r.lineno = 1;
		err = fail(&r, 1, "leading comment too long (at most %d bytes)", FF_NOTE_MAX - 1);
		goto done;
	}
	if (!hd->have_palette)
		hd->m.npalette = ff_level_default_palette(hd->m.palette);
	memcpy(hd->m.note, note.data ? note.data : "", note.len + 1);
	l->meta = hd->m;
	if ((err = read_grid(&r, l)) || (err = check_shapes(&r, l, hd)) ||
	    (err = lay_dyn(&r, l, hd)))
		goto done;
	*out = l;
	l = NULL;
done:
	ff_level_destroy(l);
	ff_buf_fini(&note);
	free(hd->dyn);
	free(hd);
	return err;
}

static void format_shape(ff_buf *b, const ff_shape *s)
{
	switch (s->kind) {
	case FF_SHAPE_CELL:
		ff_buf_printf(b, "cell %d %d", s->x, s->y);
		break;
	case FF_SHAPE_RECT:
		ff_buf_printf(b, "rect %d %d %d %d", s->x, s->y, s->w, s->h);
		break;
	case FF_SHAPE_CIRCLE:
		ff_buf_printf(b, "circle %d %d %d", s->x, s->y, s->r);
		break;
	}
}

/* True when row Y's cells [x0, x1] all hold V on the layer, none of them
 * in DONE. */
static bool dyn_run(const ff_level *l, const uint8_t *done, int y, int x0, int x1, int v)
{
	for (int x = x0; x <= x1; x++) {
		size_t i = (size_t)y * (size_t)l->w + (size_t)x;
		if (l->dyn[i] != v || done[i])
			return false;
	}
	return true;
}

/* The dynamic layer as 'dyn rect' lines: from each cell not yet written,
 * in row-major order, the longest run of its value to the right, then as
 * many rows down as repeat that run.  The rectangles are disjoint, so the
 * lines read back in any order; the rule makes the text canonical. */
static void format_dyn(ff_buf *b, const ff_level *l)
{
	uint8_t *done;
	char word[8];

	if (ff_level_dyn_empty(l))
		return;
	if (!(done = calloc((size_t)l->w * (size_t)l->h, 1))) {
		b->failed = true;
		return;
	}
	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++) {
			int v = ff_level_dyn(l, x, y), x1 = x, y1 = y;
			if (!v || done[(size_t)y * (size_t)l->w + (size_t)x])
				continue;
			while (x1 + 1 < l->w && dyn_run(l, done, y, x1 + 1, x1 + 1, v))
				x1++;
			while (y1 + 1 < l->h && dyn_run(l, done, y1 + 1, x, x1, v))
				y1++;
			for (int yy = y; yy <= y1; yy++)
				memset(done + (size_t)yy * (size_t)l->w + (size_t)x, 1, (size_t)(x1 - x + 1));
			ff_buf_printf(b, "dyn rect %d %d %d %d %s\n", x, y, x1 - x + 1, y1 - y + 1,
				      ff_dyn_word(v, word));
		}
	free(done);
}

static void format_note(ff_buf *b, const char *note)
{
	while (*note) {
		const char *nl = strchr(note, '\n');
		size_t n = nl ? (size_t)(nl - note) : strlen(note);

		ff_buf_puts(b, n ? "# " : "#");
		ff_buf_add(b, note, n);
		ff_buf_putc(b, '\n');
		note += n + (nl ? 1 : 0);
	}
}

char *ff_textlevel_format(const ff_level *l, size_t *len)
{
	const ff_level_meta *m = &l->meta;
	ff_buf b = FF_BUF_INIT;
	char glyph[FF_TERRAIN_VALUES] = {0};

	format_note(&b, m->note);
	ff_buf_printf(&b, "%s\nname %s\nsize %d %d\n", FF_TEXTLEVEL_MAGIC, m->name, l->w, l->h);
	for (int k = 1; k <= m->nclasses; k++)
		ff_buf_printf(&b, "class %s%s\n", m->classes[k], m->class_walls[k] ? " wall" : "");
	for (int i = 0; i < m->npalette; i++) {
		const ff_terrain *t = &m->palette[i];
		char cls[FF_CLASSES_MAX * 24];

		glyph[ff_level_terrain_value(l, i)] = t->glyph;
		ff_class_cost_words(m, i, cls, sizeof cls);
		if (t->cost == FF_WALL)
			ff_buf_printf(&b, "terrain %s %c wall%s\n", t->name, t->glyph, cls);
		else
			ff_buf_printf(&b, "terrain %s %c %d%s\n", t->name, t->glyph, t->cost, cls);
	}
	for (int i = 0; i < FF_P__COUNT; i++) {
		const ff_param_info *pi = ff_param_info_get((ff_param_id)i);
		if (m->params[i] == pi->def)
			continue;
		ff_buf_printf(&b, "param %s ", pi->name);
		ff_buf_double(&b, m->params[i]);
		ff_buf_putc(&b, '\n');
	}
	for (int g = 0; g < m->ngroups; g++) {
		if (g == 0 && !m->group_class[g])
			continue;
		ff_buf_printf(&b, "group %s", ff_level_group_name(l, g));
		if (m->group_class[g])
			ff_buf_printf(&b, " class %s", m->classes[m->group_class[g]]);
		ff_buf_putc(&b, '\n');
	}
	for (int i = 0; i < m->ngoals; i++) {
		ff_buf_puts(&b, "goal ");
		format_shape(&b, &m->goals[i]);
		if (m->goal_group[i])
			ff_buf_printf(&b, " group %s", m->groups[m->goal_group[i]]);
		ff_buf_putc(&b, '\n');
	}
	for (int i = 0; i < m->nspawns; i++) {
		ff_buf_puts(&b, "spawn ");
		format_shape(&b, &m->spawns[i].area);
		ff_buf_printf(&b, " %d", m->spawns[i].count);
		if (m->spawns[i].rate > 0) {
			ff_buf_puts(&b, " rate ");
			ff_buf_double(&b, m->spawns[i].rate);
		}
		if (m->spawns[i].group)
			ff_buf_printf(&b, " group %s", m->groups[m->spawns[i].group]);
		ff_buf_putc(&b, '\n');
	}
	format_dyn(&b, l);
	ff_buf_puts(&b, "grid\n");
	ff_grid_rows(&b, l, glyph);
	ff_buf_puts(&b, "end\n");
	return ff_buf_take(&b, len);
}
