/*
 * session.c - a level with its undo and redo history, and the field kept
 * current as the level changes: after an edit of cells only, the solver
 * repairs the field incrementally; after anything else (goals, size) or
 * while a solve is being stepped, it solves again and replays the steps
 * taken, so the view stays at the same step.
 *
 * Only a change of size allocates (a solver for the new size); when that
 * fails the change is taken back, so every failure leaves the session as
 * it was.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level_text.h"
#include "session.h"

static ff_err refresh(ff_session *s, const ff_patch *p);
static ff_err refresh_field(ff_session *s, const ff_patch *p);

void ff_session_init(ff_session *s, ff_level *level)
{
	memset(s, 0, sizeof *s);
	s->level = level;
	s->undo_bytes_max = FF_UNDO_BYTES;
	s->opts.method = FF_METHOD_DIJKSTRA;
	s->opts.connectivity = 8;
}

static void clear(ff_patch *stack, int *n)
{
	while (*n > 0)
		ff_patch_fini(&stack[--*n]);
}

static void drop_log(ff_session *s)
{
	free(s->log_origin);
	ff_buf_fini(&s->log);
	s->log_origin = NULL;
	s->logging = s->log_lost = false;
}

ff_err ff_session_keep_log(ff_session *s)
{
	drop_log(s);
	if (s->nundo || s->nredo)
		return FF_E_STATE;
	s->log = (ff_buf)FF_BUF_INIT;
	s->log_origin = ff_textlevel_format(s->level, &s->log_origin_len);
	if (!s->log_origin)
		return FF_E_NOMEM;
	s->logging = true;
	return FF_OK;
}

/* The count of "tick N" (N > 0), else 0. */
static long ticks_of(const char *line, size_t len)
{
	char *end;
	long n;

	if (len < 6 || strncmp(line, "tick ", 5))
		return 0;
	n = strtol(line + 5, &end, 10);
	return end == line + len && n > 0 ? n : 0;
}

void ff_session_log(ff_session *s, const char *line)
{
	size_t len, last;
	long n, m;

	if (!s->logging || s->log_lost)
		return;
	line += strspn(line, " \t");
	len = strcspn(line, "\r\n#");
	while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t'))
		len--;
	if (len == 0)
		return;
	/* the log's last line (it ends in a newline), and whether both are
	 * ticks */
	last = s->log.len ? s->log.len - 1 : 0;
	while (last > 0 && s->log.data[last - 1] != '\n')
		last--;
	n = ticks_of(line, len);
	m = s->log.len ? ticks_of(s->log.data + last, s->log.len - 1 - last) : 0;
	if (n && m && n <= LONG_MAX - m) {
		s->log.len = last;
		ff_buf_printf(&s->log, "tick %ld\n", n + m);
	} else {
		ff_buf_printf(&s->log, "%.*s\n", (int)len, line);
	}
	if (!ff_buf_ok(&s->log))
		s->log_lost = true;
}

void ff_session_fini(ff_session *s)
{
	drop_log(s);
	ff_session_at_clear(s);
	free(s->at);
	clear(s->undo, &s->nundo);
	clear(s->redo, &s->nredo);
	ff_level_destroy(s->level);
	ff_sim_destroy(s->sim);
	ff_fields_destroy(s->fields);
	ff_solver_destroy(s->solver);
	free(s->steps);
	s->level = NULL;
	s->sim = NULL;
	s->fields = NULL;
	s->solver = NULL;
	s->steps = NULL;
	s->at = NULL;
}

/* Drops the oldest record of STACK (and lowers FLOOR with it). */
static void drop_oldest(ff_patch *stack, int *n, int *floor)
{
	ff_patch_fini(&stack[0]);
	memmove(stack, stack + 1, (size_t)(*n - 1) * sizeof *stack);
	(*n)--;
	if (*floor > 0)
		(*floor)--;
}

/* Pushes P onto STACK, dropping the oldest record when full. */
static void push(ff_patch *stack, int *n, int *floor, ff_patch *p)
{
	if (*n == FF_UNDO_MAX)
		drop_oldest(stack, n, floor);
	stack[(*n)++] = *p;
	*p = (ff_patch)FF_PATCH_INIT;
}

static size_t stack_bytes(const ff_patch *stack, int n)
{
	size_t b = 0;

	for (int i = 0; i < n; i++)
		b += (size_t)stack[i].w * (size_t)stack[i].h *
		     (size_t)(!!stack[i].cells + !!stack[i].walls + !!stack[i].dyn) +
		     (stack[i].meta ? sizeof *stack[i].meta : 0);
	return b;
}

ff_err ff_session_push_undo(ff_session *s, ff_patch *p)
{
	char name[FF_NAME_MAX];

	if (refresh(s, p)) {
		/* no memory for the field of the new size: take the edit back
		 * (the name, set by no patch, stays) */
		memcpy(name, s->level->meta.name, sizeof name);
		ff_patch_apply(s->level, p);
		memcpy(s->level->meta.name, name, sizeof name);
		ff_patch_fini(p);
		return FF_E_NOMEM;
	}
	clear(s->redo, &s->nredo);
	s->redo_floor = 0;
	push(s->undo, &s->nundo, &s->undo_floor, p);
	while (s->nundo > 1 && stack_bytes(s->undo, s->nundo) > s->undo_bytes_max)
		drop_oldest(s->undo, &s->nundo, &s->undo_floor);
	s->modified = true;
	return FF_OK;
}

void ff_session_mark_history(ff_session *s, bool on)
{
	s->undo_floor = on ? s->nundo : 0;
	s->redo_floor = on ? s->nredo : 0;
}

/* Moves the top of FROM onto TO after applying it: one step of history. */
static ff_err travel(ff_session *s, ff_patch *from, int *nfrom, int ffloor, ff_patch *to,
		     int *nto, int *tfloor)
{
	char name[FF_NAME_MAX];
	ff_patch p;

	if (*nfrom == 0)
		return FF_E_STATE;
	if (*nfrom <= ffloor)
		return FF_E_RANGE;
	p = from[--*nfrom];
	/* a patch's meta holds a name from before; the name stays (cmd.c) */
	memcpy(name, s->level->meta.name, sizeof name);
	ff_patch_apply(s->level, &p);
	if (refresh(s, &p)) {
		ff_patch_apply(s->level, &p);       /* back as it was */
		memcpy(s->level->meta.name, name, sizeof name);
		from[(*nfrom)++] = p;
		return FF_E_NOMEM;
	}
	memcpy(s->level->meta.name, name, sizeof name);
	push(to, nto, tfloor, &p);
	s->modified = true;
	return FF_OK;
}

ff_err ff_session_undo(ff_session *s)
{
	return travel(s, s->undo, &s->nundo, s->undo_floor, s->redo, &s->nredo, &s->redo_floor);
}

ff_err ff_session_redo(ff_session *s)
{
	return travel(s, s->redo, &s->nredo, s->redo_floor, s->undo, &s->nundo, &s->undo_floor);
}

void ff_session_clear_field(ff_session *s)
{
	s->field = false;
	s->nsteps = 0;
}

/* A solver for the level's size and the method: a hierarchical field needs
 * no full one's buffers, but a full solver does it too.  The crowd goes
 * with the old one.  On failure both stay as they were. */
static ff_err ensure_solver(ff_session *s)
{
	const int w = s->level->w, h = s->level->h;
	const bool hier = s->opts.method == FF_METHOD_HIER;
	ff_solver *sv;

	if (s->solver && s->solver_w == w && s->solver_h == h && (hier || !s->solver_hier_only))
		return FF_OK;
	if (hier)
		sv = ff_solver_create_hier(w, h);
	else
		sv = ff_solver_too_big(w, h, s->mem_avail, NULL, 0) ? NULL : ff_solver_create(w, h);
	if (!sv)
		return FF_E_NOMEM;
	ff_sim_destroy(s->sim);
	s->sim = NULL;
	ff_solver_destroy(s->solver);
	s->solver = sv;
	s->solver_w = w, s->solver_h = h;
	s->solver_hier_only = hier;
	return FF_OK;
}

int ff_session_field_group(const ff_session *s)
{
	return ff_level_field_group(s->level);
}

/* Begins again with the current options and replays the recorded steps. */
static ff_err replay(ff_session *s)
{
	const ff_level *l = s->level;
	ff_shape goals[FF_GOALS_MAX];
	int n, g;
	ff_err err;

	if (l->meta.ngoals == 0)
		return FF_E_NOTFOUND;
	if ((err = ensure_solver(s)))
		return err;
	g = ff_session_field_group(s);
	n = ff_level_group_goals(l, g, goals);
	/* the field of the group it shows, by that group's class's costs */
	ff_solver_set_class(s->solver, l->meta.group_class[g]);
	err = ff_solver_begin(s->solver, l, goals, n, &s->opts);
	if (err)
		return err;
	for (int i = 0; i < s->nsteps; i++)
		ff_solver_step(s->solver, s->steps[i].unit, s->steps[i].n);
	return FF_OK;
}

static bool same_goals(const ff_level_meta *a, const ff_level_meta *b)
{
	return a->ngoals == b->ngoals && a->ngroups == b->ngroups &&
	       !memcmp(a->goals, b->goals, (size_t)a->ngoals * sizeof a->goals[0]) &&
	       !memcmp(a->goal_group, b->goal_group, (size_t)a->ngoals);
}

/* Lends the session's field to the fields for the group it solves, when
 * it is finished and solved as they solve; takes it back from the others. */
static void lend(ff_session *s)
{
	int vg = ff_session_field_group(s);
	bool done = s->field && ff_solver_phase(s->solver) == FF_PHASE_DONE;

	if (!s->fields)
		return;
	for (int g = 0; g < FF_GROUPS_MAX; g++)
		ff_fields_lend(s->fields, g, g == vg && done ? s->solver : NULL);
}

/* The crowd keeps its own copy of the flow: hand it the field once it is
 * finished (ticking needs a finished field, so a copy taken mid-step would
 * be wasted work; a change of size recreates the solver and drops the
 * crowd in ensure_solver). */
static void sync_sim(ff_session *s)
{
	lend(s);
	if (!s->sim || !s->field || ff_solver_phase(s->solver) != FF_PHASE_DONE)
		return;
	if (ff_sim_refresh(s->sim) != FF_OK) {
		ff_sim_destroy(s->sim);
		s->sim = NULL;
		snprintf(s->note, sizeof s->note, "agents removed: the level changed size or "
			 "memory ran out");
	}
}

/* Keeps the field, and the crowd following it, current after the change
 * recorded in P was made.  FF_E_NOMEM, with nothing but the level changed,
 * when there is no memory for the field of a new size. */
static ff_err refresh(ff_session *s, const ff_patch *p)
{
	if (refresh_field(s, p))
		return FF_E_NOMEM;
	sync_sim(s);
	return FF_OK;
}

ff_err ff_session_sim(ff_session *s, ff_sim **out)
{
	if (!s->field || ff_solver_phase(s->solver) != FF_PHASE_DONE)
		return FF_E_STATE;
	if (!s->fields && !(s->fields = ff_fields_create(s->level, &s->opts)))
		return FF_E_NOMEM;
	lend(s);
	if (!s->sim) {
		s->sim = ff_sim_create(s->level, s->fields, 1024);
		if (!s->sim)
			return FF_E_NOMEM;
		ff_sim_set_flags(s->sim, s->sim_flags);
	}
	*out = s->sim;
	return FF_OK;
}

ff_err ff_session_group_field(ff_session *s, int g, const ff_solver **out)
{
	if (!s->field)
		return FF_E_STATE;
	if (!s->fields && !(s->fields = ff_fields_create(s->level, &s->opts)))
		return FF_E_NOMEM;
	lend(s);
	return ff_fields_get(s->fields, g, out);
}

static ff_err refresh_field(ff_session *s, const ff_patch *p)
{
	bool cells_only = !p->resized && (!p->meta || (same_goals(p->meta, &s->level->meta) &&
			  ff_costs_rules_equal(p->meta, &s->level->meta)));
	ff_err err;

	if (!s->field)
		return FF_OK;
	if (cells_only && !p->cells && !p->dyn) {
		snprintf(s->note, sizeof s->note, "field unchanged");
		return FF_OK;
	}
	if (s->fields) {
		/* a change of the cost rules (the wall penalty, a class) drops
		 * the fields solved by other costs than now */
		if (p->resized)
			ff_fields_drop_all(s->fields);
		else if (!cells_only)
			ff_fields_meta_changed(s->fields);
		if (!p->resized && (p->cells || p->dyn))
			ff_fields_cells_changed(s->fields, p->x, p->y, p->x + p->w - 1,
						p->y + p->h - 1);
	}
	if (cells_only && ff_solver_phase(s->solver) == FF_PHASE_DONE &&
	    ff_solver_repair(s->solver, p->x, p->y, p->x + p->w - 1, p->y + p->h - 1) == FF_OK) {
		snprintf(s->note, sizeof s->note, "field repaired around %d,%d..%d,%d",
			 p->x, p->y, p->x + p->w - 1, p->y + p->h - 1);
		return FF_OK;
	}
	err = replay(s);
	if (err == FF_E_NOMEM)
		return err;
	if (err) {
		ff_session_clear_field(s);
		snprintf(s->note, sizeof s->note, "field cleared: %s",
			 err == FF_E_NOTFOUND ? "the level has no goals" :
			 err == FF_E_WALL ? "the goals lie on walls only" : ff_strerror(err));
		return FF_OK;
	}
	snprintf(s->note, sizeof s->note, "field solved again");
	return FF_OK;
}

ff_err ff_session_begin(ff_session *s, const ff_solver_opts *opts)
{
	ff_solver_opts old = s->opts;
	int oldn = s->nsteps;
	ff_err err;

	if (opts)
		s->opts = *opts;
	s->nsteps = 0;
	err = replay(s);
	if (err) {
		s->opts = old;
		s->nsteps = oldn;
		return err;
	}
	if (s->fields)
		ff_fields_set_opts(s->fields, &s->opts);
	s->field = true;
	sync_sim(s);
	return FF_OK;
}

ff_err ff_session_step(ff_session *s, ff_step_unit unit, long n, ff_phase *phase)
{
	ff_err err;

	if (n < 1)
		return FF_E_INVAL;
	if (!s->field && (err = ff_session_begin(s, NULL)))
		return err;
	if (s->nsteps == s->steps_cap) {
		int cap = s->steps_cap ? s->steps_cap * 2 : 64;
		ff_step_rec *r = realloc(s->steps, (size_t)cap * sizeof *r);
		if (!r)
			return FF_E_NOMEM;
		s->steps = r, s->steps_cap = cap;
	}
	s->steps[s->nsteps++] = (ff_step_rec){unit, n};
	*phase = ff_solver_step(s->solver, unit, n);
	sync_sim(s);
	return FF_OK;
}

ff_err ff_session_step_back(ff_session *s, int n)
{
	ff_err err;

	if (!s->field || s->nsteps == 0 || n < 1)
		return FF_E_STATE;
	s->nsteps -= n < s->nsteps ? n : s->nsteps;
	err = replay(s);
	sync_sim(s);
	return err;
}

long ff_session_tick(const ff_session *s)
{
	return s->sim ? ff_sim_last(s->sim)->tick : 0;
}

ff_err ff_session_at(ff_session *s, long tick, const char *line, size_t n)
{
	char *copy = malloc(n + 1);
	int i;

	if (!copy)
		return FF_E_NOMEM;
	if (s->nat == s->at_cap) {
		int cap = s->at_cap ? s->at_cap * 2 : 16;
		ff_at *a = realloc(s->at, (size_t)cap * sizeof *a);
		if (!a) {
			free(copy);
			return FF_E_NOMEM;
		}
		s->at = a, s->at_cap = cap;
	}
	memcpy(copy, line, n);
	copy[n] = '\0';
	for (i = s->nat; i > 0 && s->at[i - 1].tick > tick; i--)
		s->at[i] = s->at[i - 1];
	s->at[i] = (ff_at){tick, copy};
	s->nat++;
	return FF_OK;
}

char *ff_session_at_due(ff_session *s, long now, long *tick)
{
	char *line;

	if (s->nat == 0 || s->at[0].tick > now)
		return NULL;
	line = s->at[0].line;
	*tick = s->at[0].tick;
	memmove(s->at, s->at + 1, (size_t)(s->nat - 1) * sizeof *s->at);
	s->nat--;
	return line;
}

void ff_session_at_clear(ff_session *s)
{
	while (s->nat > 0)
		free(s->at[--s->nat].line);
}
