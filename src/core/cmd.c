/*
 * cmd.c - parse and execute one command line against a session.
 *
 * Each command is a row of the table at the bottom: name, usage, summary and
 * a handler.  A handler validates its words, calls one level mutator with an
 * undo patch, and reports errors with the column of the offending word;
 * ff_cmd_exec() records the patch in the session's history.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "level_dyn.h"

#define MAX_WORDS 12

typedef struct args {
	int n;
	char w[MAX_WORDS][64];
	int col[MAX_WORDS];
	int end_col;             /* column just past the line's last word */
	const char *line;        /* the line itself */
} args;

static ff_err fail_at(ff_cmd_result *r, int col, ff_err err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static ff_err fail_at(ff_cmd_result *r, int col, ff_err err, const char *fmt, ...)
{
	va_list ap;

	r->col = col;
	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof r->msg, fmt, ap);
	va_end(ap);
	ff_escape_msg(r->msg, sizeof r->msg);
	return err;
}

static ff_err split(const char *line, args *a, ff_cmd_result *r)
{
	int i = 0;

	a->n = 0;
	a->line = line;
	while (line[i] && line[i] != '#') {
		int s;

		if (line[i] == ' ' || line[i] == '\t' || line[i] == '\r' || line[i] == '\n') {
			i++;
			continue;
		}
		s = i;
		while (line[i] && line[i] != ' ' && line[i] != '\t' && line[i] != '\r' &&
		       line[i] != '\n' && line[i] != '#')
			i++;
		if (a->n == MAX_WORDS)
			return fail_at(r, s + 1, FF_E_PARSE, "too many words");
		if (i - s >= (int)sizeof a->w[0])
			return fail_at(r, s + 1, FF_E_PARSE, "word too long");
		memcpy(a->w[a->n], line + s, (size_t)(i - s));
		a->w[a->n][i - s] = '\0';
		a->col[a->n++] = s + 1;
		a->end_col = i + 1;
	}
	return FF_OK;
}

/* Checks the word count: exactly N words (the command name included). */
static ff_err want(const args *a, int n, const char *usage, ff_cmd_result *r)
{
	if (a->n < n)
		return fail_at(r, a->end_col, FF_E_PARSE, "missing arguments: %s", usage);
	if (a->n > n)
		return fail_at(r, a->col[n], FF_E_PARSE, "trailing garbage '%s': %s",
			       a->w[n], usage);
	return FF_OK;
}

static bool to_long(const char *s, long *v)
{
	char *e;

	errno = 0;
	*v = strtol(s, &e, 10);
	return e != s && !*e && !errno;
}

static ff_err word_int(const args *a, int k, long lo, long hi, const char *what,
		       int *out, ff_cmd_result *r)
{
	long v;

	if (!to_long(a->w[k], &v))
		return fail_at(r, a->col[k], FF_E_PARSE, "%s '%s' is not a whole number",
			       what, a->w[k]);
	if (v < lo || v > hi)
		return fail_at(r, a->col[k], FF_E_INVAL, "%s %ld is out of range %ld..%ld",
			       what, v, lo, hi);
	*out = (int)v;
	return FF_OK;
}

bool ff_cmd_read_xy(const char *s, int *x, int *y, const char **end)
{
	const char *ys;
	char *e;
	long vx, vy;

	errno = 0;
	vx = strtol(s, &e, 10);
	if (e == s || *e != ',' || isspace((unsigned char)*s))
		return false;
	ys = e + 1;
	vy = strtol(ys, &e, 10);
	if (e == ys || errno || isspace((unsigned char)*ys) || labs(vx) >= 1L << 24 ||
	    labs(vy) >= 1L << 24)
		return false;
	*x = (int)vx, *y = (int)vy;
	*end = e;
	return true;
}

/* Reads word K as "X,Y" (range checks are the mutators'). */
static ff_err word_xy(const args *a, int k, int *x, int *y, ff_cmd_result *r)
{
	const char *end;

	if (ff_cmd_read_xy(a->w[k], x, y, &end) && !*end)
		return FF_OK;
	return fail_at(r, a->col[k], FF_E_PARSE, "expected X,Y but got '%s'", a->w[k]);
}

/* A terrain word (ff_level_terrain_word). */
static ff_err word_terrain(const ff_session *s, const args *a, int k, int *cost,
			   ff_cmd_result *r)
{
	char why[sizeof r->msg];
	ff_err err = ff_level_terrain_word(s->level, a->w[k], cost, why, sizeof why);

	return err ? fail_at(r, a->col[k], err, "%s", why) : FF_OK;
}

/* Explains a mutator's error, pointing at word K. */
static ff_err explain(const ff_session *s, const args *a, int k, ff_err err,
		      ff_cmd_result *r)
{
	const ff_level *l = s->level;

	switch (err) {
	case FF_OK:
		return FF_OK;
	case FF_E_RANGE:
		return fail_at(r, a->col[k], err, "'%s' reaches outside the %dx%d level",
			       a->w[k], l->w, l->h);
	case FF_E_WALL:
		return fail_at(r, a->col[k], err, "'%s' lies on walls only", a->w[k]);
	case FF_E_FULL:
		return fail_at(r, a->col[0], err, "%s: table full", a->w[0]);
	default:
		return fail_at(r, a->col[k], err, "%s: %s", a->w[0], ff_strerror(err));
	}
}

#define TRY(x) do { ff_err e_ = (x); if (e_) return e_; } while (0)

typedef ff_err (*handler)(ff_session *s, const args *a, ff_patch *undo,
			  ff_cmd_result *r);

/* Command flags: CMD_AT, 'at' may schedule it (an edit of the level). */
enum { CMD_AT = 1 };

/* A row of the command table (at the bottom). */
typedef struct command {
	ff_cmd_info info;
	handler fn;
	unsigned flags;
} command;

static ff_err do_paint(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	int x, y, cost;

	TRY(want(a, 3, "paint X,Y TERRAIN", r));
	TRY(word_xy(a, 1, &x, &y, r));
	TRY(word_terrain(s, a, 2, &cost, r));
	r->redraw = FF_REDRAW_CELLS | FF_REDRAW_META;
	return explain(s, a, 1, ff_level_paint(s->level, x, y, cost, undo), r);
}

static ff_err do_line(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	int x0, y0, x1, y1, cost;
	ff_err err;

	TRY(want(a, 4, "line X,Y X,Y TERRAIN", r));
	TRY(word_xy(a, 1, &x0, &y0, r));
	TRY(word_xy(a, 2, &x1, &y1, r));
	TRY(word_terrain(s, a, 3, &cost, r));
	r->redraw = FF_REDRAW_CELLS | FF_REDRAW_META;
	err = ff_level_line(s->level, x0, y0, x1, y1, cost, undo);
	return explain(s, a, ff_level_in(s->level, x0, y0) ? 2 : 1, err, r);
}

static ff_err do_rect(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	int x, y, w, h, cost;
	ff_err err;

	TRY(want(a, 4, "rect X,Y W,H TERRAIN", r));
	TRY(word_xy(a, 1, &x, &y, r));
	TRY(word_xy(a, 2, &w, &h, r));
	TRY(word_terrain(s, a, 3, &cost, r));
	if (w < 1 || h < 1)
		return fail_at(r, a->col[2], FF_E_INVAL, "size %d,%d must be at least 1,1", w, h);
	r->redraw = FF_REDRAW_CELLS | FF_REDRAW_META;
	err = ff_level_rect(s->level, x, y, w, h, cost, undo);
	return explain(s, a, ff_level_in(s->level, x, y) ? 2 : 1, err, r);
}

static ff_err do_circle(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	int x, y, rad, cost;

	TRY(want(a, 4, "circle X,Y R TERRAIN", r));
	TRY(word_xy(a, 1, &x, &y, r));
	TRY(word_int(a, 2, 0, FF_LEVEL_MAX_SIDE, "radius", &rad, r));
	TRY(word_terrain(s, a, 3, &cost, r));
	r->redraw = FF_REDRAW_CELLS | FF_REDRAW_META;
	return explain(s, a, 1, ff_level_circle(s->level, x, y, rad, cost, undo), r);
}

static ff_err do_fill(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	int x, y, cost;

	TRY(want(a, 3, "fill X,Y TERRAIN", r));
	TRY(word_xy(a, 1, &x, &y, r));
	TRY(word_terrain(s, a, 2, &cost, r));
	r->redraw = FF_REDRAW_CELLS | FF_REDRAW_META;
	return explain(s, a, 1, ff_level_fill(s->level, x, y, cost, undo), r);
}

/* Reads a shape from word K on: cell X,Y | rect X,Y W,H | circle X,Y R,
 * followed by EXTRA more words. */
static ff_err read_shape(const args *a, int k, int extra, ff_shape *sh, ff_cmd_result *r)
{
	const char *kind = a->w[k];

	memset(sh, 0, sizeof *sh);
	if (!strcmp(kind, "cell")) {
		sh->kind = FF_SHAPE_CELL;
		TRY(want(a, k + 2 + extra, "cell X,Y", r));
	} else if (!strcmp(kind, "rect")) {
		sh->kind = FF_SHAPE_RECT;
		TRY(want(a, k + 3 + extra, "rect X,Y W,H", r));
		TRY(word_xy(a, k + 2, &sh->w, &sh->h, r));
		if (sh->w < 1 || sh->h < 1)
			return fail_at(r, a->col[k + 2], FF_E_INVAL, "size %d,%d must be at least 1,1",
				       sh->w, sh->h);
	} else if (!strcmp(kind, "circle")) {
		sh->kind = FF_SHAPE_CIRCLE;
		TRY(want(a, k + 3 + extra, "circle X,Y R", r));
		TRY(word_int(a, k + 2, 0, FF_LEVEL_MAX_SIDE, "radius", &sh->r, r));
	} else {
		return fail_at(r, a->col[k], FF_E_PARSE,
			       "unknown shape '%s' (cell, rect or circle)", kind);
	}
	return word_xy(a, k + 1, &sh->x, &sh->y, r);
}

/* "rm N" (1-based) and "clear", shared by goal and spawn. */
static ff_err rm_or_clear(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r,
			  int count, ff_err (*rm)(ff_level *, int, ff_patch *),
			  ff_err (*clr)(ff_level *, ff_patch *))
{
	int i;

	if (!strcmp(a->w[1], "clear")) {
		TRY(want(a, 2, "clear", r));
		return clr(s->level, undo);
	}
	TRY(want(a, 3, "rm N", r));
	TRY(word_int(a, 2, 1, count > 0 ? count : 1, "number", &i, r));
	if (count == 0)
		return fail_at(r, a->col[2], FF_E_NOTFOUND, "there is none to remove");
	return rm(s->level, i - 1, undo);
}

/* The words of a shape from word 2: "cell X,Y" 2, "rect X,Y W,H" and
 * "circle X,Y R" 3. */
static int shape_words(const args *a)
{
	return a->n > 2 && !strcmp(a->w[2], "cell") ? 2 : 3;
}

/* "group NAME" at words K and K + 1 into *NAME. */
static ff_err word_group(const args *a, int k, const char **name, ff_cmd_result *r)
{
	if (strcmp(a->w[k], "group"))
		return fail_at(r, a->col[k], FF_E_PARSE, "expected 'group NAME', not '%s'", a->w[k]);
	if (k + 1 >= a->n)
		return fail_at(r, a->end_col, FF_E_PARSE, "missing the group's name");
	if (strcmp(a->w[k + 1], "default") && !ff_group_name_ok(a->w[k + 1]))
		return fail_at(r, a->col[k + 1], FF_E_INVAL, "bad group name '%s' (1 to %d letters, "
			       "digits, '_' or '-')", a->w[k + 1], FF_GROUP_NAME_MAX - 1);
	*name = a->w[k + 1];
	return FF_OK;
}

/* A new group beyond the table, or any other error of adding a goal or a
 * spawn area. */
static ff_err explain_add(const ff_session *s, const args *a, const char *group, ff_err err,
			  ff_cmd_result *r)
{
	const ff_level_meta *m = &s->level->meta;
	int g = ff_level_group_by_name(s->level, group);

	if (err == FF_E_FULL && group && g < 0 && m->ngroups == FF_GROUPS_MAX)
		return fail_at(r, a->col[0], err, "too many groups: at most %d besides the default one",
			       FF_GROUPS_MAX - 1);
	if (err == FF_E_WALL && g >= 0 && m->group_class[g])
		return fail_at(r, a->col[3], err, "'%s' lies on walls only, to class %s of group %s",
			       a->w[3], m->classes[m->group_class[g]], ff_level_group_name(s->level, g));
	return explain(s, a, 3, err, r);
}

static ff_err do_goal(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	const char *group = NULL;
	int at;
	ff_shape sh;

	r->redraw = FF_REDRAW_META;
	if (a->n < 2 || (strcmp(a->w[1], "add") && strcmp(a->w[1], "rm") &&
			 strcmp(a->w[1], "clear")))
		return fail_at(r, a->n < 2 ? a->end_col : a->col[1], FF_E_PARSE,
			       "expected 'goal add SHAPE [group NAME]', 'goal rm N' or 'goal clear'");
	if (strcmp(a->w[1], "add"))
		return rm_or_clear(s, a, undo, r, s->level->meta.ngoals,
				   ff_level_goal_remove, ff_level_goal_clear);
	if (a->n < 3)
		return fail_at(r, a->end_col, FF_E_PARSE, "missing shape: cell, rect or circle");
	at = 2 + shape_words(a);
	TRY(read_shape(a, 2, a->n > at ? 2 : 0, &sh, r));
	if (a->n > at)
		TRY(word_group(a, at, &group, r));
	return explain_add(s, a, group, ff_level_goal_add_to(s->level, &sh, group, undo), r);
}

/* The options after a spawn area's count, from word K: "rate R" and
 * "group NAME", in either order. */
static ff_err spawn_options(const args *a, int k, ff_spawn *sp, const char **group,
			    ff_cmd_result *r)
{
	for (; k < a->n; k += 2) {
		char *e;

		if (!strcmp(a->w[k], "group")) {
			TRY(word_group(a, k, group, r));
			continue;
		}
		if (strcmp(a->w[k], "rate"))
			return fail_at(r, a->col[k], FF_E_PARSE, "expected 'rate R' or 'group NAME' "
				       "after the count, not '%s'", a->w[k]);
		if (k + 1 >= a->n)
			return fail_at(r, a->end_col, FF_E_PARSE, "missing the rate");
		sp->rate = strtod(a->w[k + 1], &e);
		if (*e || e == a->w[k + 1] || !(sp->rate > 0 && sp->rate <= FF_SPAWN_RATE_MAX))
			return fail_at(r, a->col[k + 1], FF_E_INVAL,
				       "rate '%s' must be a number of agents per second in (0, %g]",
				       a->w[k + 1], FF_SPAWN_RATE_MAX);
	}
	return FF_OK;
}

static ff_err do_spawn(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	const char *group = NULL;
	ff_spawn sp;
	int at = 5; /* spawn add SHAPE X,Y W,H|R COUNT */

	r->redraw = FF_REDRAW_META;
	if (a->n < 2 || (strcmp(a->w[1], "add") && strcmp(a->w[1], "rm") &&
			 strcmp(a->w[1], "clear")))
		return fail_at(r, a->n < 2 ? a->end_col : a->col[1], FF_E_PARSE,
			       "expected 'spawn add SHAPE COUNT [rate R] [group NAME]', "
			       "'spawn rm N' or 'spawn clear'");
	if (strcmp(a->w[1], "add"))
		return rm_or_clear(s, a, undo, r, s->level->meta.nspawns,
				   ff_level_spawn_remove, ff_level_spawn_clear);
	if (a->n < 3)
		return fail_at(r, a->end_col, FF_E_PARSE, "missing shape: rect or circle");
	if (!strcmp(a->w[2], "cell"))
		return fail_at(r, a->col[2], FF_E_INVAL, "a spawn area is a rect or a circle");
	memset(&sp, 0, sizeof sp);
	TRY(read_shape(a, 2, a->n > at ? a->n - at : 1, &sp.area, r));
	TRY(word_int(a, at, 1, FF_SPAWN_COUNT_MAX, "agent count", &sp.count, r));
	TRY(spawn_options(a, at + 1, &sp, &group, r));
	return explain_add(s, a, group, ff_level_spawn_add_to(s->level, &sp, group, undo), r);
}

/* "order GROUP SHAPE": the group's goals become that one; its agents turn
 * to it at once. */
static ff_err do_order(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	ff_shape sh;
	int g;

	r->redraw = FF_REDRAW_META;
	if (a->n < 3)
		return fail_at(r, a->end_col, FF_E_PARSE, "expected 'order GROUP SHAPE'");
	g = ff_level_group_by_name(s->level, a->w[1]);
	if (g < 0) {
		char list[120] = "default";

		for (int k = 1; k < s->level->meta.ngroups; k++)
			snprintf(list + strlen(list), sizeof list - strlen(list), ", %s",
				 s->level->meta.groups[k]);
		return fail_at(r, a->col[1], FF_E_NOTFOUND, "no group '%s': the level's groups are %s",
			       a->w[1], list);
	}
	TRY(read_shape(a, 2, 0, &sh, r));
	TRY(explain_add(s, a, a->w[1], ff_level_order(s->level, a->w[1], &sh, undo), r));
	snprintf(r->msg, sizeof r->msg, "group %.15s heads for %.20s %.20s%s%.20s",
		 ff_level_group_name(s->level, g), a->w[2], a->w[3], a->n > 4 ? " " : "",
		 a->n > 4 ? a->w[4] : "");
	return FF_OK;
}

/* dyn SHAPE +N|wall, dyn clear [SHAPE]: the dynamic layer. */
static ff_err do_dyn(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	bool clear = a->n > 1 && !strcmp(a->w[1], "clear");
	ff_shape sh;
	int value = 0;

	r->redraw = FF_REDRAW_CELLS;
	if (clear && a->n == 2)
		return explain(s, a, 1, ff_level_dyn_clear(s->level, undo), r);
	if (a->n < 2 + clear)
		return fail_at(r, a->end_col, FF_E_PARSE, "expected 'dyn SHAPE +N|wall' or "
			       "'dyn clear [SHAPE]'");
	TRY(read_shape(a, 1 + clear, !clear, &sh, r));
	if (!clear && !ff_dyn_parse(a->w[a->n - 1], &value))
		return fail_at(r, a->col[a->n - 1], FF_E_PARSE, "expected %s but got '%s'",
			       FF_DYN_WORDS, a->w[a->n - 1]);
	return explain(s, a, 2 + clear, ff_level_dyn_set(s->level, &sh, value, undo), r);
}

static ff_err do_set(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	const ff_param_info *pi;
	char range[64];
	ff_err err;
	double v;
	int id;

	TRY(want(a, 3, "set PARAM VALUE", r));
	id = ff_param_by_name(a->w[1]);
	if (id < 0)
		return fail_at(r, a->col[1], FF_E_NOTFOUND, "unknown parameter '%s'", a->w[1]);
	pi = ff_param_info_get((ff_param_id)id);
	err = ff_param_parse((ff_param_id)id, a->w[2], s->level->meta.params[FF_P_CELL_SIZE], &v);
	if (err == FF_E_PARSE)
		return fail_at(r, a->col[2], FF_E_PARSE, "'%s' is not a number (in %s%s%s)", a->w[2],
			       *ff_unit_si(pi->unit) ? ff_unit_si(pi->unit) : "no unit",
			       *ff_unit_cells(pi->unit) ? " or " : "", ff_unit_cells(pi->unit));
	if (err || ff_level_param_set(s->level, (ff_param_id)id, v, undo))
		return fail_at(r, a->col[2], FF_E_INVAL, "%s must be %s", pi->name,
			       ff_param_range((ff_param_id)id, range, sizeof range));
	r->redraw = FF_REDRAW_META | FF_REDRAW_STATUS;
	return FF_OK;
}

/* The "CLASS=COST" words from word K on over CLS. */
static ff_err class_costs(const ff_session *s, const args *a, int k, uint8_t *cls,
			  ff_cmd_result *r)
{
	const char *w[MAX_WORDS];
	char why[160];
	int bad;
	ff_err err;

	for (int i = k; i < a->n; i++)
		w[i - k] = a->w[i];
	if ((err = ff_class_costs_read(&s->level->meta, w, a->n - k, cls, &bad, why, sizeof why)))
		return fail_at(r, a->col[k + bad], err, "%s", why);
	return FF_OK;
}

/* terrain NAME CLASS=COST...: an existing terrain's costs for classes. */
static ff_err terrain_classes(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	int t = ff_level_terrain_by_name(s->level, a->w[1]);
	uint8_t cls[FF_CLASSES_MAX + 1];

	if (t < 0)
		return fail_at(r, a->col[1], FF_E_NOTFOUND, "unknown terrain '%s' (to add one: "
			       "'terrain NAME GLYPH COST [CLASS=COST...]')", a->w[1]);
	memcpy(cls, s->level->meta.palette[t].cls, sizeof cls);
	TRY(class_costs(s, a, 2, cls, r));
	r->redraw = FF_REDRAW_META;
	return explain(s, a, 1, ff_level_terrain_classes(s->level, t, cls, undo), r);
}

static ff_err do_terrain(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	uint8_t cls[FF_CLASSES_MAX + 1] = {0};
	int cost;
	ff_err err;

	if (a->n >= 3 && strchr(a->w[2], '=') && a->w[2][1])
		return terrain_classes(s, a, undo, r);
	if (a->n < 4)
		return want(a, 4, "terrain NAME GLYPH COST [CLASS=COST...] | terrain NAME "
			    "CLASS=COST...", r);
	if (strlen(a->w[2]) != 1)
		return fail_at(r, a->col[2], FF_E_INVAL, "glyph '%s' must be one character", a->w[2]);
	if (!strcmp(a->w[3], "wall"))
		cost = FF_WALL;
	else
		TRY(word_int(a, 3, FF_COST_MIN, FF_COST_MAX, "cost", &cost, r));
	if (!ff_terrain_name_ok(a->w[1], cost))
		return fail_at(r, a->col[1], FF_E_INVAL, "bad terrain name '%s' (1 to %d "
			       "characters, not all digits; 'wall' only for walls)", a->w[1],
			       FF_TERRAIN_NAME_MAX - 1);
	TRY(class_costs(s, a, 4, cls, r));
	err = ff_level_terrain_add(s->level, a->w[1], a->w[2][0], cost, cls, undo);
	if (err == FF_E_STATE)
		return fail_at(r, a->col[1], err, "name, glyph or cost already in the palette");
	r->redraw = FF_REDRAW_META;
	return explain(s, a, 1, err, r);
}

/* The level's classes into R's message, as a list for 'class' alone. */
static void list_classes(const ff_level_meta *m, ff_cmd_result *r)
{
	size_t n;

	if (m->nclasses == 0) {
		snprintf(r->msg, sizeof r->msg, "no movement classes: declare one with 'class NAME "
			 "[wall]'");
		return;
	}
	n = (size_t)snprintf(r->msg, sizeof r->msg, "classes:");
	for (int k = 1; k <= m->nclasses && n < sizeof r->msg; k++)
		n += (size_t)snprintf(r->msg + n, sizeof r->msg - n, "%s %s%s", k > 1 ? "," : "",
				      m->classes[k], m->class_walls[k] ? " (wall elsewhere)" : "");
}

/* class NAME [wall]: declares a movement class, or gives one its rule
 * for the terrains that name no cost for it; alone, lists them. */
static ff_err do_class(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	ff_err err;

	if (a->n == 1) {
		list_classes(&s->level->meta, r);
		return FF_OK;
	}
	if (a->n > 3)
		return want(a, 3, "class NAME [wall]", r);
	if (a->n == 3 && strcmp(a->w[2], "wall"))
		return fail_at(r, a->col[2], FF_E_PARSE, "expected 'wall' or nothing after the "
			       "class's name, not '%s'", a->w[2]);
	if (!ff_class_name_ok(a->w[1]))
		return fail_at(r, a->col[1], FF_E_INVAL, "bad class name '%s' (1 to %d letters, "
			       "digits, '_' or '-'; not 'none')", a->w[1], FF_GROUP_NAME_MAX - 1);
	err = ff_level_class_set(s->level, a->w[1], a->n == 3, undo);
	if (err == FF_E_FULL)
		return fail_at(r, a->col[1], err, "too many classes: at most %d", FF_CLASSES_MAX);
	r->redraw = FF_REDRAW_META | FF_REDRAW_FIELD;
	return explain(s, a, 1, err, r);
}

/* Word K as one of the level's classes (or "none") into *CLS. */
static ff_err word_class(const ff_session *s, const args *a, int k, int *cls, ff_cmd_result *r)
{
	const ff_level_meta *m = &s->level->meta;
	char list[160] = "";
	size_t n = 0;

	if ((*cls = ff_level_class_by_name(m, a->w[k])) >= 0)
		return FF_OK;
	for (int c = 1; c <= m->nclasses && n < sizeof list; c++)
		n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", c > 1 ? ", " : "",
				      m->classes[c]);
	if (!m->nclasses)
		return fail_at(r, a->col[k], FF_E_NOTFOUND, "unknown class '%s': the level has none "
			       "(declare one with 'class %s')", a->w[k], a->w[k]);
	return fail_at(r, a->col[k], FF_E_NOTFOUND, "unknown class '%s' (the level's: %s; or "
		       "none)", a->w[k], list);
}

/* group NAME [class CLASS|none]: makes a group, or gives a group its
 * movement class (none: the painted costs). */
static ff_err do_group(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	const char *name;
	int g, k;
	ff_err err;

	if (a->n != 2 && a->n != 4)
		return want(a, a->n < 2 ? 2 : 4, "group NAME [class CLASS|none]", r);
	if (strcmp(a->w[1], "default") && !ff_group_name_ok(a->w[1]))
		return fail_at(r, a->col[1], FF_E_INVAL, "bad group name '%s' (1 to %d letters, "
			       "digits, '_' or '-')", a->w[1], FF_GROUP_NAME_MAX - 1);
	name = a->w[1];
	g = ff_level_group_by_name(s->level, name);
	if (a->n == 4 && strcmp(a->w[2], "class"))
		return fail_at(r, a->col[2], FF_E_PARSE, "expected 'class CLASS', not '%s'", a->w[2]);
	if (a->n == 4)
		TRY(word_class(s, a, 3, &k, r));
	else if (g >= 0) {
		snprintf(r->msg, sizeof r->msg, "group %s: class %s", ff_level_group_name(s->level, g),
			 ff_level_class_name(&s->level->meta, s->level->meta.group_class[g]));
		return FF_OK;
	} else
		k = 0;
	err = ff_level_group_class(s->level, name, k, undo);
	if (err == FF_E_FULL)
		return fail_at(r, a->col[1], err, "too many groups: at most %d besides the default one",
			       FF_GROUPS_MAX - 1);
	r->redraw = FF_REDRAW_META | FF_REDRAW_FIELD | FF_REDRAW_AGENTS;
	return explain(s, a, 1, err, r);
}

/* The name is the level's identity, not an edit: no undo record, and undo
 * and redo keep it (session.c), so saving under a new name (the editor's
 * ':w NAME' runs this) never comes undone. */
static ff_err do_name(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	(void)undo;
	TRY(want(a, 2, "name NAME", r));
	if (ff_level_set_name(s->level, a->w[1], NULL))
		return fail_at(r, a->col[1], FF_E_INVAL,
			       "bad level name '%s' (letters, digits, '_', '-', '.')", a->w[1]);
	s->modified = true;
	r->redraw = FF_REDRAW_STATUS;
	return FF_OK;
}

static ff_err do_resize(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	int w, h;

	TRY(want(a, 2, "resize W,H", r));
	TRY(word_xy(a, 1, &w, &h, r));
	if (w < 1 || h < 1 || w > FF_LEVEL_MAX_SIDE || h > FF_LEVEL_MAX_SIDE)
		return fail_at(r, a->col[1], FF_E_INVAL, "size %d,%d is out of range 1..%d",
			       w, h, FF_LEVEL_MAX_SIDE);
	r->redraw = FF_REDRAW_ALL;
	return explain(s, a, 1, ff_level_resize(s->level, w, h, undo), r);
}

/* undo [N] / redo [N]: history moves, not mutations (no patch of their own).
 * Out of memory half way, the moves made are taken back: all or nothing. */
static ff_err history(ff_session *s, const args *a, ff_cmd_result *r, bool back)
{
	int n = 1, done = 0;
	bool modified = s->modified;
	ff_err err = FF_OK;

	if (a->n > 2)
		return want(a, 2, back ? "undo [N]" : "redo [N]", r);
	if (a->n == 2)
		TRY(word_int(a, 1, 1, FF_UNDO_MAX, "count", &n, r));
	while (done < n && (err = back ? ff_session_undo(s) : ff_session_redo(s)) == FF_OK)
		done++;
	if (err == FF_E_NOMEM) {
		while (done > 0 && (back ? ff_session_redo(s) : ff_session_undo(s)) == FF_OK)
			done--;
		if (!done)
			s->modified = modified;
		return fail_at(r, a->col[0], err, "%s: out of memory%s", a->w[0],
			       done ? " (some steps could not be taken back)" : "");
	}
	if (done == 0 && err == FF_E_RANGE)
		return fail_at(r, a->col[0], FF_E_STATE, "cannot %s what came before the "
			       "recording began", back ? "undo" : "redo");
	if (done == 0)
		return fail_at(r, a->col[0], FF_E_STATE, "nothing to %s", back ? "undo" : "redo");
	r->redraw = FF_REDRAW_ALL;
	return FF_OK;
}

static ff_err do_undo(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	(void)undo;
	return history(s, a, r, true);
}

static ff_err do_redo(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	(void)undo;
	return history(s, a, r, false);
}

/* Reads optional solver words (method, connectivity, arrow rule) from
 * word K on into O. */
static ff_err solver_words(const args *a, int k, ff_solver_opts *o, ff_cmd_result *r)
{
	for (; k < a->n; k++)
		if (!ff_solver_word(a->w[k], o))
			return fail_at(r, a->col[k], FF_E_PARSE, "expected " FF_SOLVER_WORDS
				       " but got '%s'", a->w[k]);
	return FF_OK;
}

static ff_err field_error(const ff_session *s, const args *a, ff_err err,
			  ff_cmd_result *r)
{
	char why[160];

	if (err == FF_E_NOMEM && ff_solver_too_big(s->level->w, s->level->h, s->mem_avail,
						   why, sizeof why))
		return fail_at(r, a->col[0], err, "%s: %s", a->w[0], why);
	if (err == FF_E_NOTFOUND)
		return fail_at(r, a->col[0], err, "the level has no goals: add one with 'goal add'");
	if (err == FF_E_WALL)
		return fail_at(r, a->col[0], err, "every goal cell is a wall");
	return fail_at(r, a->col[0], err, "%s: %s", a->w[0], ff_strerror(err));
}

/* The hierarchy's part of describe(): "integrate: portal 40,31 = 57.2
 * from 41,31; 120 queued". */
static void describe_hier(const ff_solver *sv, ff_phase ph, ff_cmd_result *r)
{
	int x, y, fx, fy;
	double g;

	if (ph != FF_PHASE_INTEGRATE || !ff_solver_last(sv, &x, &y, &fx, &fy) ||
	    !ff_solver_portal(sv, x, y, &g)) {
		snprintf(r->msg, sizeof r->msg, "%s: %ld portals settled", ff_phase_name(ph),
			 ff_solver_settled(sv));
		return;
	}
	if (fx == x && fy == y)         /* its value was the near field's */
		snprintf(r->msg, sizeof r->msg, "%s: portal %d,%d = %.6g near the goals; %ld queued",
			 ff_phase_name(ph), x, y, g, ff_solver_frontier(sv));
	else
		snprintf(r->msg, sizeof r->msg, "%s: portal %d,%d = %.6g from %d,%d; %ld queued",
			 ff_phase_name(ph), x, y, g, fx, fy, ff_solver_frontier(sv));
}

/* Describes where a solve stands, e.g. "integrate: settled 12,7 = 8.41
 * from 11,7; 23 queued" (Fast Marching: "accepted ... from 11,7 and
 * 12,6"). */
static void describe(const ff_session *s, ff_cmd_result *r)
{
	const ff_solver *sv = s->solver;
	ff_phase ph = ff_solver_phase(sv);
	const char *verb = s->opts.method == FF_METHOD_FMM ? "accepted" : "settled";
	int x, y, fx, fy, xs[2], ys[2], n;
	char from[48] = "";

	if (s->opts.method == FF_METHOD_HIER) {
		describe_hier(sv, ph, r);
		return;
	}
	if (ph != FF_PHASE_INTEGRATE || !ff_solver_last(sv, &x, &y, &fx, &fy)) {
		snprintf(r->msg, sizeof r->msg, "%s: %ld cells settled", ff_phase_name(ph),
			 ff_solver_settled(sv));
		return;
	}
	n = ff_solver_sources(sv, x, y, xs, ys);
	if (n == 0 && ff_solver_value(sv, x, y) == 0.0) {
		snprintf(r->msg, sizeof r->msg, "%s: goal %d,%d = 0; %ld queued",
			 ff_phase_name(ph), x, y, ff_solver_frontier(sv));
		return;
	}
	if (n > 0)
		snprintf(from, sizeof from, " from %d,%d", xs[0], ys[0]);
	if (n > 1)
		snprintf(from + strlen(from), sizeof from - strlen(from), " and %d,%d",
			 xs[1], ys[1]);
	snprintf(r->msg, sizeof r->msg, "%s: %s %d,%d = %.6g%s; %ld queued", ff_phase_name(ph),
		 verb, x, y, ff_solver_value(sv, x, y), from, ff_solver_frontier(sv));
}

static ff_err do_solve(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	ff_solver_opts o = s->opts;
	ff_phase ph;
	ff_err err;

	(void)undo;
	if (a->n == 2 && !strcmp(a->w[1], "off")) {
		ff_session_clear_field(s);
		r->redraw = FF_REDRAW_FIELD | FF_REDRAW_STATUS;
		return FF_OK;
	}
	TRY(solver_words(a, 1, &o, r));
	if ((err = ff_session_begin(s, &o)) || (err = ff_session_step(s, FF_STEP_ALL, 1, &ph)))
		return field_error(s, a, err, r);
	describe(s, r);
	r->redraw = FF_REDRAW_FIELD | FF_REDRAW_STATUS;
	return FF_OK;
}

static ff_err do_step(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	static const char *const units[] = {"cell", "wave", "phase", "all"};
	ff_solver_opts o = s->opts;
	ff_phase ph;
	ff_err err;
	int u, n = 1;

	(void)undo;
	if (a->n < 2)
		return fail_at(r, a->end_col, FF_E_PARSE,
			       "expected step cell|wave|phase|all|back [N] or step begin");
	r->redraw = FF_REDRAW_FIELD | FF_REDRAW_STATUS;
	if (!strcmp(a->w[1], "begin")) {
		TRY(solver_words(a, 2, &o, r));
		if ((err = ff_session_begin(s, &o)))
			return field_error(s, a, err, r);
		describe(s, r);
		return FF_OK;
	}
	if (a->n > 3)
		return want(a, 3, "step UNIT [N]", r);
	if (a->n == 3)
		TRY(word_int(a, 2, 1, 1000000000, "count", &n, r));
	if (!strcmp(a->w[1], "back")) {
		if ((err = ff_session_step_back(s, n)))
			return err == FF_E_STATE ? fail_at(r, a->col[1], err, "no step to take back")
						 : field_error(s, a, err, r);
		describe(s, r);
		return FF_OK;
	}
	for (u = 0; u < 4 && strcmp(a->w[1], units[u]); u++)
		;
	if (u == 4)
		return fail_at(r, a->col[1], FF_E_PARSE,
			       "unknown unit '%s' (cell, wave, phase, all, back or begin)", a->w[1]);
	if ((err = ff_session_step(s, (ff_step_unit)u, n, &ph)))
		return field_error(s, a, err, r);
	describe(s, r);
	return FF_OK;
}

static ff_err sim_error(const args *a, ff_err err, ff_cmd_result *r)
{
	if (err == FF_E_STATE)
		return fail_at(r, a->col[0], err, "the field is not solved: 'solve' first");
	return fail_at(r, a->col[0], err, "%s: %s", a->w[0], ff_strerror(err));
}

/* sim funnel|separation on|off: flips one FF_SIM_NO_* flag. */
static ff_err sim_switch(ff_session *s, const args *a, unsigned flag, ff_cmd_result *r)
{
	TRY(want(a, 3, "sim funnel|separation on|off", r));
	if (strcmp(a->w[2], "on") && strcmp(a->w[2], "off"))
		return fail_at(r, a->col[2], FF_E_PARSE, "expected on or off");
	s->sim_flags = !strcmp(a->w[2], "on") ? s->sim_flags & ~flag : s->sim_flags | flag;
	if (s->sim)
		ff_sim_set_flags(s->sim, s->sim_flags);
	return FF_OK;
}

static ff_err sim_add(const ff_session *s, ff_sim *sim, const args *a, ff_cmd_result *r)
{
	int x, y, n, rad = 0, nw = a->n, g = 0;
	const char *group = NULL;
	long placed;
	ff_err err;

	if (nw >= 6 && !strcmp(a->w[nw - 2], "group")) {
		TRY(word_group(a, nw - 2, &group, r));
		if ((g = ff_level_group_by_name(s->level, group)) < 0)
			return fail_at(r, a->col[nw - 1], FF_E_NOTFOUND, "no group '%s'", group);
		nw -= 2;
	}
	if (nw != 4 && nw != 5)
		return want(a, nw < 4 ? 4 : 5, "sim add X,Y N [R] [group NAME]", r);
	TRY(word_xy(a, 2, &x, &y, r));
	TRY(word_int(a, 3, 1, FF_SPAWN_COUNT_MAX, "agent count", &n, r));
	if (nw == 5)
		TRY(word_int(a, 4, 0, FF_LEVEL_MAX_SIDE, "radius", &rad, r));
	err = ff_sim_spawn_at(sim, x + 0.5, y + 0.5, n, rad, g, &placed);
	if (err == FF_E_RANGE || err == FF_E_WALL)
		return fail_at(r, a->col[2], err, "'%s' %s", a->w[2],
			       err == FF_E_RANGE ? "is outside the level" : "is a wall");
	if (err == FF_E_UNREACH)
		return fail_at(r, a->col[0], err, "group '%s' has no goal to walk to: give it one "
			       "with 'goal add SHAPE group %s'", ff_level_group_name(s->level, g),
			       ff_level_group_name(s->level, g));
	if (err)
		return sim_error(a, err, r);
	if (placed < n)
		snprintf(r->msg, sizeof r->msg, "added %ld of %d agents: no room for more bodies there",
			 placed, n);
	return FF_OK;
}

/* "sim line X0,Y0 X1,Y1": a counting line between two cell corners;
 * "sim line clear" removes them all. */
static ff_err sim_line(ff_sim *sim, const args *a, ff_cmd_result *r)
{
	int x0, y0, x1, y1, k;
	ff_err err;

	if (a->n == 3 && !strcmp(a->w[2], "clear")) {
		ff_sim_clear_lines(sim);
		return FF_OK;
	}
	TRY(want(a, 4, "sim line X0,Y0 X1,Y1", r));
	TRY(word_xy(a, 2, &x0, &y0, r));
	TRY(word_xy(a, 3, &x1, &y1, r));
	if ((err = ff_sim_add_line(sim, x0, y0, x1, y1, &k)) == FF_E_INVAL)
		return fail_at(r, a->col[3], err, "the line's two ends are the same point");
	if (err == FF_E_FULL)
		return fail_at(r, a->col[1], err, "at most %d counting lines", FF_SIM_LINES_MAX);
	if (err)
		return sim_error(a, err, r);
	snprintf(r->msg, sizeof r->msg, "line %d counts agents crossing from %d,%d to %d,%d",
		 k + 1, x0, y0, x1, y1);
	return FF_OK;
}

/* sim spawn [N] | add X,Y N [R] [group NAME] | clear | line ..., on SIM
 * of session S. */
static ff_err sim_run(ff_session *s, ff_sim *sim, const char *sub, const args *a,
		      ff_cmd_result *r)
{
	ff_err err;
	int n = -1;

	if (!strcmp(sub, "line"))
		return sim_line(sim, a, r);
	if (!strcmp(sub, "clear")) {
		TRY(want(a, 2, "sim clear", r));
		ff_sim_clear(sim);
		return FF_OK;
	}
	if (!strcmp(sub, "add"))
		return sim_add(s, sim, a, r);
	if (a->n > 3)
		return want(a, 3, "sim spawn [N]", r);
	if (a->n == 3)
		TRY(word_int(a, 2, 1, FF_SPAWN_COUNT_MAX, "agent count", &n, r));
	err = ff_sim_spawn_level(sim, n);
	if (err == FF_E_NOMEM)
		return sim_error(a, err, r);
	if (err) {
		char why[200];

		return fail_at(r, a->col[1], err, "%s", ff_sim_spawn_explain(sim, err, why, sizeof why));
	}
	return FF_OK;
}

static ff_err do_sim(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	const char *sub = a->n > 1 ? a->w[1] : "";
	bool fresh = !s->sim;
	ff_sim *sim;
	ff_err err;

	(void)undo;
	r->redraw = FF_REDRAW_AGENTS | FF_REDRAW_STATUS;
	if (!strcmp(sub, "funnel"))
		return sim_switch(s, a, FF_SIM_NO_FUNNEL, r);
	if (!strcmp(sub, "separation"))
		return sim_switch(s, a, FF_SIM_NO_SEPARATION, r);
	if (!strcmp(sub, "speed-density"))
		return sim_switch(s, a, FF_SIM_FREE_SPEED, r);
	if (strcmp(sub, "spawn") && strcmp(sub, "add") && strcmp(sub, "clear") &&
	    strcmp(sub, "line") && strcmp(sub, "reset"))
		return fail_at(r, a->n > 1 ? a->col[1] : a->end_col, FF_E_PARSE,
			       "expected sim spawn [N] | add X,Y N [R] [group NAME] | clear | reset"
			       " | line X,Y X,Y"
			       " | line clear | funnel on|off | separation on|off"
			       " | speed-density on|off");
	if (!strcmp(sub, "reset")) {
		/* the simulation and everything it kept: agents, tick count,
		 * totals, random state, counting line; the next agent starts
		 * a new one */
		TRY(want(a, 2, "sim reset", r));
		ff_sim_destroy(s->sim);
		s->sim = NULL;
		return FF_OK;
	}
	if ((err = ff_session_sim(s, &sim)))
		return sim_error(a, err, r);
	/* a command that fails changes nothing: not even a crowd made for it */
	if ((err = sim_run(s, sim, sub, a, r)) && fresh) {
		ff_sim_destroy(s->sim);
		s->sim = NULL;
	}
	return err;
}

static ff_err exec_line(ff_session *s, const char *line, ff_cmd_result *res, bool log);
static const command *find(const char *name);
static const command *command_at(int i);

/* A session on a copy of S's level alone, for trying edits on; false when
 * out of memory. */
static bool scratch(const ff_session *s, ff_session *t)
{
	ff_level *copy = ff_level_clone(s->level);

	if (copy)
		ff_session_init(t, copy);
	return copy != NULL;
}

/* LINE run against a copy of S's level, alone: whether it would succeed
 * there (R says why not). */
static ff_err dry_run(const ff_session *s, const char *line, ff_cmd_result *r)
{
	ff_session t;
	ff_err err;

	if (!scratch(s, &t))
		return fail_at(r, 1, FF_E_NOMEM, "out of memory");
	err = ff_cmd_exec(&t, line, r);
	ff_session_fini(&t);
	return err;
}

/* True when a field of L could be solved: it has goals and none lies on
 * walls only (what ff_session_begin() asks). */
static bool solvable(const ff_level *l)
{
	for (int i = 0; i < l->meta.ngoals; i++)
		if (ff_level_check_shape(l, &l->meta.goals[i], true))
			return false;
	return l->meta.ngoals > 0;
}

/* The edits scheduled up to tick END, tried in order on a copy of the
 * level (nothing else changes the level while ticking): the first that
 * would fail, or would leave the field nothing to solve and so stop the
 * run, is why 'tick' refuses before it takes a step.  So a tick that
 * fails has changed nothing. */
static ff_err check_due(const ff_session *s, long end, const args *a, ff_cmd_result *r)
{
	ff_cmd_result sub;
	ff_session t;
	ff_err err = FF_OK;

	if (s->nat == 0 || s->at[0].tick > end)
		return FF_OK;
	if (!scratch(s, &t))
		return fail_at(r, a->col[0], FF_E_NOMEM, "tick: out of memory");
	for (int i = 0; i < s->nat && s->at[i].tick <= end && !err; i++) {
		if ((err = ff_cmd_exec(&t, s->at[i].line, &sub)))
			fail_at(r, a->col[0], err, "at %ld %s: %s", s->at[i].tick, s->at[i].line,
				sub.msg);
		else if (s->field && !solvable(t.level))
			err = fail_at(r, a->col[0], FF_E_STATE, "at %ld %s: no goal would be left to "
				      "solve for, and the run would stop there", s->at[i].tick,
				      s->at[i].line);
	}
	ff_session_fini(&t);
	return err;
}

/* Runs the scheduled commands due by the simulation's tick (check_due()
 * tried them), adding what they changed to R's redraw.  *RAN counts them. */
static ff_err run_due(ff_session *s, const args *a, ff_cmd_result *r, int *ran)
{
	ff_cmd_result sub;
	long tick;
	char *line;

	while ((line = ff_session_at_due(s, ff_session_tick(s), &tick))) {
		ff_err err = exec_line(s, line, &sub, false);

		r->redraw |= sub.redraw;
		if (err)              /* out of memory only */
			fail_at(r, a->col[0], err, "at %ld %s: %s", tick, line, sub.msg);
		free(line);
		if (err)
			return err;
		(*ran)++;
	}
	return FF_OK;
}

/* tick [N]: N steps of the simulation; after each, the commands scheduled
 * for the tick it reached run (so after 'tick 300' those of 'at 300' have
 * run, and tick 301 sees them). */
static ff_err do_tick(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	const ff_sim_stats *st;
	ff_sim *sim;
	ff_err err;
	int n = 1, ran = 0;

	(void)undo;
	if (a->n > 2)
		return want(a, 2, "tick [N]", r);
	if (a->n == 2)
		TRY(word_int(a, 1, 1, 1000000, "count", &n, r));
	/* before the crowd is made: a tick refused leaves none behind */
	TRY(check_due(s, ff_session_tick(s) + n, a, r));
	if ((err = ff_session_sim(s, &sim)))
		return sim_error(a, err, r);
	r->redraw = FF_REDRAW_AGENTS | FF_REDRAW_STATUS;
	for (int i = 0; i < n; i++) {
		ff_sim_step(sim);
		TRY(run_due(s, a, r, &ran));
	}
	st = ff_sim_last(sim);
	snprintf(r->msg, sizeof r->msg, "tick %ld: %ld alive, %ld arrived, %ld stranded%s",
		 st->tick, st->alive, st->arrived, st->stranded,
		 ran ? "; scheduled commands run" : "");
	return FF_OK;
}

/* The schedule, one entry a clause, as much as R's message holds. */
static void list_at(const ff_session *s, ff_cmd_result *r)
{
	size_t n;

	if (s->nat == 0) {
		snprintf(r->msg, sizeof r->msg, "nothing scheduled");
		return;
	}
	n = (size_t)snprintf(r->msg, sizeof r->msg, "%d scheduled:", s->nat);
	for (int i = 0; i < s->nat && n < sizeof r->msg; i++)
		n += (size_t)snprintf(r->msg + n, sizeof r->msg - n, "%s at %ld %s", i ? ";" : "",
				      s->at[i].tick, s->at[i].line);
	ff_escape_msg(r->msg, sizeof r->msg);
}

/* The commands 'at' takes, from the table's flags: "paint, line, ...". */
static const char *at_commands(char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; command_at(i); i++)
		if ((command_at(i)->flags & CMD_AT) && n < size)
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "",
					      command_at(i)->info.name);
	return buf;
}

/* at TICK COMMAND: runs an edit of the level when the simulation reaches
 * TICK (a door that closes at tick 300); 'at' lists, 'at clear' drops
 * what is scheduled.  The edit is tried on a copy of the level first, so
 * a bad one is refused now, with its column, not at its tick. */
static ff_err do_at(ff_session *s, const args *a, ff_patch *undo, ff_cmd_result *r)
{
	const command *c;
	ff_cmd_result sub;
	long now = ff_session_tick(s);
	char names[160];
	const char *line;
	size_t n;
	int tick;
	ff_err err;

	(void)undo;
	if (a->n == 1 || (a->n == 2 && !strcmp(a->w[1], "clear"))) {
		if (a->n == 2)
			ff_session_at_clear(s);
		list_at(s, r);
		return FF_OK;
	}
	TRY(word_int(a, 1, 1, 1000000000, "tick", &tick, r));
	if (tick <= now)
		return fail_at(r, a->col[1], FF_E_STATE, "tick %d is not ahead: the simulation is "
			       "at tick %ld", tick, now);
	if (a->n < 3)
		return fail_at(r, a->end_col, FF_E_PARSE, "missing the command to run at tick %d",
			       tick);
	if (!(c = find(a->w[2])))
		return fail_at(r, a->col[2], FF_E_NOTFOUND, "unknown command '%s'", a->w[2]);
	if (!(c->flags & CMD_AT))
		return fail_at(r, a->col[2], FF_E_INVAL, "'%s' cannot be scheduled: 'at' runs "
			       "edits of the level (%s)", a->w[2], at_commands(names, sizeof names));
	line = a->line + a->col[2] - 1;
	if ((err = dry_run(s, line, &sub)))
		return fail_at(r, sub.col ? a->col[2] + sub.col - 1 : a->col[2], err, "%s", sub.msg);
	for (n = strlen(line); n > 0 && strchr(" \t\r\n", line[n - 1]); n--)
		;
	if ((err = ff_session_at(s, tick, line, n)))
		return fail_at(r, a->col[0], err, "at: out of memory");
	snprintf(r->msg, sizeof r->msg, "scheduled for tick %d", tick);
	return FF_OK;
}

static const command commands[] = {
	{{"paint", "X,Y TERRAIN", "paint one cell"}, do_paint, CMD_AT},
	{{"line", "X,Y X,Y TERRAIN", "paint a straight line, both ends included"}, do_line, CMD_AT},
	{{"rect", "X,Y W,H TERRAIN", "paint a W x H rectangle whose top-left cell is X,Y"}, do_rect, CMD_AT},
	{{"circle", "X,Y R TERRAIN", "paint a filled circle of radius R"}, do_circle, CMD_AT},
	{{"fill", "X,Y TERRAIN", "flood-fill the same-cost region around X,Y"}, do_fill, CMD_AT},
	{{"goal", "add cell X,Y | add rect X,Y W,H | add circle X,Y R [group NAME] | rm N | clear",
	  "add or remove goals (of a group)"}, do_goal, CMD_AT},
	{{"order", "GROUP cell X,Y | GROUP rect X,Y W,H | GROUP circle X,Y R",
	  "give a group new goals (its agents turn at once)"}, do_order, CMD_AT},
	{{"spawn", "add rect X,Y W,H COUNT [rate R] [group NAME] | add circle X,Y R COUNT "
		   "[rate R] [group NAME] | rm N | clear",
	  "add or remove agent spawn areas"}, do_spawn, CMD_AT},
	{{"dyn", "SHAPE +N|wall | clear [SHAPE]  (SHAPE: cell X,Y | rect X,Y W,H | circle X,Y R)",
	  "lay a cost offset or a temporary wall on the dynamic layer, or clear it"}, do_dyn, CMD_AT},
	{{"set", "PARAM VALUE", "set a level parameter"}, do_set, CMD_AT},
	{{"terrain", "NAME GLYPH COST [CLASS=COST...] | NAME CLASS=COST...",
	  "add a terrain to the palette, or give one costs for movement classes"}, do_terrain, CMD_AT},
	{{"class", "[NAME [wall]]", "declare a movement class (wall: terrains naming no cost for "
	  "it are walls to it); alone, list them"}, do_class, CMD_AT},
	{{"group", "NAME [class CLASS|none]", "make a group, or give a group a movement class"},
	 do_group, CMD_AT},
	{{"name", "NAME", "rename the level"}, do_name, 0},
	{{"resize", "W,H", "crop or extend the level (top-left corner stays)"}, do_resize, 0},
	{{"solve", "[dijkstra|fmm|fmm2|hier] [8|4] [cheapest|lowest] [sectorN] [los|nolos] | off",
	  "solve the field in one go (or drop it)"}, do_solve, 0},
	{{"step", "begin [dijkstra|fmm|fmm2|hier] [8|4] [cheapest|lowest] [sectorN] [los|nolos] | "
	  "cell|wave|phase|all|back [N]",
	  "begin a solve, advance it N units, or take N steps back"}, do_step, 0},
	{{"sim", "spawn [N] | add X,Y N [R] [group NAME] | clear | reset | line X,Y X,Y | "
		 "line clear | "
		 "funnel on|off | separation on|off | speed-density on|off",
	  "add or remove agents and counting lines, start afresh, switch behaviours"}, do_sim, 0},
	{{"tick", "[N]", "advance the simulation N fixed timesteps"}, do_tick, 0},
	{{"at", "TICK COMMAND | clear", "run an edit of the level when the simulation reaches "
	  "TICK; alone, list what is scheduled"}, do_at, 0},
	{{"undo", "[N]", "undo the last N changes"}, do_undo, 0},
	{{"redo", "[N]", "redo N undone changes"}, do_redo, 0},
};

#define NCOMMANDS (int)(sizeof commands / sizeof commands[0])

static const command *command_at(int i)
{
	return i >= 0 && i < NCOMMANDS ? &commands[i] : NULL;
}

static const command *find(const char *name)
{
	for (int i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].info.name, name))
			return &commands[i];
	return NULL;
}

const ff_cmd_info *ff_cmd_info_at(int i)
{
	const command *c = command_at(i);

	return c ? &c->info : NULL;
}

/* ff_cmd_exec(), which adds LINE to the session's history when LOG (not
 * for the edits 'tick' runs for 'at': the 'at' line is in it). */
static ff_err exec_line(ff_session *s, const char *line, ff_cmd_result *res, bool log)
{
	ff_patch undo = FF_PATCH_INIT;
	args *a = malloc(sizeof *a);
	ff_err err = FF_E_NOTFOUND;
	const command *c;

	memset(res, 0, sizeof *res);
	if (!a)
		return fail_at(res, 0, FF_E_NOMEM, "out of memory");
	err = split(line, a, res);
	if (err || a->n == 0)
		goto done;
	if (!(c = find(a->w[0]))) {
		err = fail_at(res, a->col[0], FF_E_NOTFOUND, "unknown command '%s'", a->w[0]);
		goto done;
	}
	err = c->fn(s, a, &undo, res);
	if (err) {
		res->redraw = 0;
		if (!res->msg[0])
			fail_at(res, a->col[0], err, "%s: %s", a->w[0], ff_strerror(err));
		ff_patch_fini(&undo);
	} else if (!ff_patch_empty(&undo) && (err = ff_session_push_undo(s, &undo))) {
		res->redraw = 0;
		fail_at(res, a->col[0], err, "%s: %s", a->w[0], ff_strerror(err));
	}
	if (!err && log)
		ff_session_log(s, line);
done:
	free(a);
	return err;
}

ff_err ff_cmd_exec(ff_session *s, const char *line, ff_cmd_result *res)
{
	return exec_line(s, line, res, true);
}
