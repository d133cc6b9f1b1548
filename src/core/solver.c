/*
 * solver.c - the solver's lifecycle, the resumable phase machine
 * (COST -> INTEGRATE -> FLOW -> DONE) and the queries.  The passes
 * themselves live in solver_dijkstra.c and solver_fmm.c, the queue in solver_bucketq.c and the
 * incremental update in solver_repair.c.
 *
 * Invariant: every buffer is allocated by ff_solver_create() (the queue's
 * by ff_solver_work_create(), for a solver of its own or shared by
 * several made with ff_solver_create_shared()); nothing after it
 * allocates.  A one-shot Dijkstra solve computes each flow direction (the
 * cheapest step) as its cell is settled ("fused"); a stepped solve, and the
 * lowest-neighbour rule, compute them in the FLOW phase.  Both give the same
 * bytes: the cheapest step's neighbour is at least 1 below the cell, and
 * every value that low is final when the cell settles.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "solver_hier.h"
#include "solver_los.h"
#include "solver_par.h"

const int ff_dir_dx[8] = {1, 0, -1, 0, 1, -1, -1, 1};
const int ff_dir_dy[8] = {0, 1, 0, -1, 1, 1, -1, -1};

ff_solver_work *ff_solver_work_create(int w, int h)
{
	ff_solver_work *wk;

	if (w < 1 || h < 1 || w > FF_LEVEL_MAX_SIDE || h > FF_LEVEL_MAX_SIDE)
		return NULL;
	wk = calloc(1, sizeof *wk);
	if (!wk)
		return NULL;
	wk->w = w, wk->h = h;
	ffq_size((size_t)w * (size_t)h, &wk->bs, &wk->nblk);
	wk->ent = ff_big_malloc((size_t)wk->nblk * (size_t)wk->bs * sizeof *wk->ent);
	wk->bnext = malloc((size_t)wk->nblk * sizeof *wk->bnext);
	if (!wk->ent || !wk->bnext) {
		ff_solver_work_destroy(wk);
		return NULL;
	}
	if ((size_t)w * (size_t)h >= FF_PAR_MIN_CELLS)
		wk->par = ff_par_create(wk);
	return wk;
}

void ff_solver_work_destroy(ff_solver_work *wk)
{
	if (!wk)
		return;
	assert(wk->users == 0);
	ff_par_destroy(wk->par);
	free(wk->ent);
	free(wk->bnext);
	free(wk);
}

/* A solver on WK, which it borrows. */
static ff_solver *create_on(ff_solver_work *wk)
{
	ff_solver *s = calloc(1, sizeof *s);

	if (!s)
		return NULL;
	s->w = wk->w, s->h = wk->h, s->W = wk->w + 2;
	s->np = (size_t)(s->w + 2) * (size_t)(s->h + 2);
	s->work = wk;
	wk->users++;
	s->ent = wk->ent, s->bnext = wk->bnext;
	s->ring = wk->ring, s->stage = wk->stage;
	s->bs = wk->bs, s->nblk = wk->nblk;
	s->par = wk->par;
	s->cost = ff_big_malloc(s->np);
	s->val = ff_big_malloc(s->np * sizeof *s->val);
	s->cf = ff_big_malloc(s->np);
	if (!s->cost || !s->val || !s->cf) {
		ff_solver_destroy(s);
		return NULL;
	}
	for (int c = 0; c < 256; c++) {
		s->ostep[c] = c == FF_WALL ? INFINITY : (double)c;
		s->dstep[c] = c == FF_WALL ? INFINITY : c * 1.4142135623730951;
	}
	s->phase = FF_PHASE_IDLE;
	s->last = -1;
	s->los_goal = -1;
	/* exact for every padded index of a level of up to 16384^2 (solver_par.c) */
	s->wmagic = ((uint64_t)1 << FF_WSHIFT) / (uint64_t)s->W + 1;
	return s;
}

ff_solver *ff_solver_create(int w, int h)
{
	ff_solver_work *wk = ff_solver_work_create(w, h);
	ff_solver *s = wk ? create_on(wk) : NULL;

	if (!s)
		ff_solver_work_destroy(wk);
	else
		s->own_work = true;     /* freed with it */
	return s;
}

ff_solver *ff_solver_create_shared(ff_solver_work *wk)
{
	return create_on(wk);
}

void ff_solver_set_crowd(ff_solver *s, const uint16_t *crowd)
{
	s->crowd = crowd;
}

void ff_solver_set_class(ff_solver *s, int k)
{
	s->cls = k;
}

int ff_solver_class(const ff_solver *s)
{
	return s->costs.cls;
}

ff_solver *ff_solver_create_hier(int w, int h)
{
	ff_solver *s;

	if (w < 1 || h < 1 || w > FF_LEVEL_MAX_SIDE || h > FF_LEVEL_MAX_SIDE)
		return NULL;
	s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->w = w, s->h = h, s->W = w + 2;
	s->np = (size_t)(w + 2) * (size_t)(h + 2);
	s->hier_only = true;
	s->phase = FF_PHASE_IDLE;
	s->last = -1;
	if (!(s->hier = ff_hier_create(w, h))) {
		free(s);
		return NULL;
	}
	return s;
}

void ff_solver_destroy(ff_solver *s)
{
	if (!s)
		return;
	ff_hier_destroy(s->hier);
	free(s->los_t);
	free(s->los_scratch);
	free(s->cost);
	free(s->val);
	free(s->cf);
	if (s->work) {
		s->work->users--;
		if (s->own_work)
			ff_solver_work_destroy(s->work);
	}
	free(s);
}

/* The field of a W x H solver: its struct and per-cell arrays. */
static size_t field_bytes(int w, int h)
{
	size_t np = (size_t)(w + 2) * (size_t)(h + 2);

	return sizeof(ff_solver) + np * (1 + sizeof(double) + 1);
}

/* A W x H workspace but its thread. */
static size_t work_bytes(int w, int h)
{
	int bs, nblk;

	ffq_size((size_t)w * (size_t)h, &bs, &nblk);
	return sizeof(ff_solver_work) + (size_t)nblk * ((size_t)bs + 1) * sizeof(int32_t);
}

size_t ff_solver_work_bytes(const ff_solver_work *wk)
{
	return work_bytes(wk->w, wk->h) + ff_par_bytes(wk->par);
}

size_t ff_solver_bytes(const ff_solver *s)
{
	size_t hier = s->hier ? ff_hier_bytes(s->hier) : 0;

	size_t los = (s->los_t ? s->np * sizeof *s->los_t : 0) +
		     (s->los_scratch ? (size_t)ff_los_scratch(s->w, s->h) * sizeof(int64_t) : 0);

	if (s->hier_only)
		return sizeof *s + hier;
	return field_bytes(s->w, s->h) + (s->own_work ? ff_solver_work_bytes(s->work) : 0) +
	       hier + los;
}

size_t ff_solver_bytes_for_hier(int w, int h, int sector)
{
	if (w < 1 || h < 1 || w > FF_LEVEL_MAX_SIDE || h > FF_LEVEL_MAX_SIDE)
		return 0;
	return sizeof(ff_solver) + ff_hier_bytes_for(w, h, sector ? sector : FF_SECTOR_DEFAULT);
}

size_t ff_solver_bytes_for(int w, int h)
{
	if (w < 1 || h < 1 || w > FF_LEVEL_MAX_SIDE || h > FF_LEVEL_MAX_SIDE)
		return 0;
	return field_bytes(w, h) + work_bytes(w, h) + ff_par_bytes_for(w, h);
}

/* BYTES as "3.1 GB" or "785 MB" into BUF. */
static const char *human(size_t bytes, char *buf, size_t n)
{
	if (bytes >= (size_t)1 << 30)
		snprintf(buf, n, "%.1f GB", (double)bytes / (1 << 30));
	else
		snprintf(buf, n, "%.0f MB", ceil((double)bytes / (1 << 20)));
	return buf;
}

bool ff_solver_too_big(int w, int h, size_t avail, char *buf, size_t n)
{
	size_t need = ff_solver_bytes_for(w, h);
	char a[32], b[32], c[32];

	if (!avail || need <= avail)
		return false;
	if (buf && n)
		snprintf(buf, n, "a full field of %dx%d cells needs %s, more than the %s available; "
			 "the method 'hier' needs about %s", w, h, human(need, a, sizeof a),
			 human(avail, b, sizeof b),
			 human(ff_solver_bytes_for_hier(w, h, 0) + (size_t)w * (size_t)h / 2,
			       c, sizeof c));
	return true;
}

ff_err ff_solver_set_threads(ff_solver *s, int n)
{
	if (!s || n < 0 || n > 2)
		return FF_E_INVAL;
	s->threads = n;
	return FF_OK;
}

/* The hierarchical method's first phase (ff_solver_begin()). */
static ff_err begin_hier(ff_solver *s, const ff_level *l, const ff_shape *goals, int ngoals,
			 const ff_solver_opts *o)
{
	if (!s->hier && !(s->hier = ff_hier_create(s->w, s->h)))
		return FF_E_NOMEM;
	return ff_hier_order(s->hier, l, goals, ngoals, o->sector ? o->sector : FF_SECTOR_DEFAULT,
			     o->connectivity, o->los);
}

static ff_err check_goals(ff_solver *s, const ff_level *l, const ff_shape *goals,
			  int ngoals)
{
	s->bad_goal = -1;
	if (ngoals < 1 || ngoals > FF_GOALS_MAX || !goals)
		return FF_E_INVAL;
	for (int i = 0; i < ngoals; i++) {
		ff_err e = ff_level_check_shape_as(l, &goals[i], true, s->cls);
		if (e) {
			s->bad_goal = i;
			return e;
		}
	}
	return FF_OK;
}

ff_err ff_solver_begin(ff_solver *s, const ff_level *l, const ff_shape *goals,
		       int ngoals, const ff_solver_opts *opts)
{
	ff_err e;

	if (!s || !l || !opts || l->w != s->w || l->h != s->h)
		return FF_E_INVAL;
	if ((opts->method != FF_METHOD_DIJKSTRA && opts->method != FF_METHOD_FMM &&
	     opts->method != FF_METHOD_HIER) ||
	    (opts->connectivity != 8 && opts->connectivity != 4) ||
	    opts->order < 0 || opts->order > 2 ||
	    (opts->order == 2 && opts->method != FF_METHOD_FMM) ||
	    (opts->arrows != FF_ARROW_CHEAPEST && opts->arrows != FF_ARROW_LOWEST) ||
	    (opts->sector && (opts->sector < 8 || opts->sector > 64 ||
			      (opts->sector & (opts->sector - 1)))) ||
	    (s->hier_only && opts->method != FF_METHOD_HIER))
		return FF_E_INVAL;
	e = check_goals(s, l, goals, ngoals);
	if (e)
		return e;
	if (opts->method == FF_METHOD_HIER && (e = begin_hier(s, l, goals, ngoals, opts))) {
		s->phase = FF_PHASE_IDLE;       /* the order is gone (solver.h) */
		s->have_result = false;
		return e;
	}
	memmove(s->goals, goals, (size_t)ngoals * sizeof *goals);
	s->ngoals = ngoals;
	s->lvl = l;
	s->opts = *opts;
	s->phase = FF_PHASE_COST;
	s->fused = false;
	s->arrows = true;
	s->track = false;
	s->have_result = false;
	s->settled = s->frontier = 0;
	s->last = -1;
	s->flow_pos = 0;
	return FF_OK;
}

int ff_solver_bad_goal(const ff_solver *s)
{
	return s->bad_goal;
}

bool ff_solver_is_goal(const ff_solver *s, int x, int y)
{
	for (int i = 0; i < s->ngoals; i++)
		if (ff_shape_contains(&s->goals[i], x, y))
			return true;
	return false;
}

/* Smallest passable cost in the level (1 when there is none). */
static int min_cost(const ff_solver *s)
{
	int m = FF_COST_MAX;

	for (size_t i = 0; i < s->np && m > FF_COST_MIN; i++)
		if (s->cost[i] < m)
			m = s->cost[i];
	return m;
}

/* The effective costs of thread T's half of the rows (the queue's pool,
 * empty then, halved for their scratch). */
static void costs_half(ff_solver *s, struct ff_par *P, int t)
{
	size_t half = (size_t)s->nblk * (size_t)s->bs * sizeof *s->ent / 2;
	int y0 = t ? s->h / 2 : 0, y1 = t ? s->h - 1 : s->h / 2 - 1;

	(void)P;
	assert(ff_costs_scratch(&s->costs, s->w) <= half);
	ff_costs_fill(&s->costs, 0, y0, s->w - 1, y1, s->cost + ffs_index(s, 0, y0), (size_t)s->W,
		      (uint8_t *)s->ent + (t ? half : 0));
}

void ff_solver_seed(ff_solver *s)
{
	const ff_level *l = s->lvl;
	int W = s->W;

	memset(s->cost, FF_WALL, s->np);
	ff_costs_init(&s->costs, l, ff_solver_metric(&s->opts));
	ff_costs_set_crowd(&s->costs, s->crowd);
	ff_costs_set_class(&s->costs, s->cls);
	/* the wall penalty's build is worth two threads, the copy alone not */
	if (!ff_costs_reach(&s->costs) || !ff_par_both(s, costs_half)) {
		assert(ff_costs_scratch(&s->costs, s->w) <=
		       (size_t)s->nblk * (size_t)s->bs * sizeof *s->ent);
		ff_costs_fill(&s->costs, 0, 0, s->w - 1, s->h - 1, s->cost + W + 1, (size_t)W,
			      (uint8_t *)s->ent);
	}
	for (size_t i = 0; i < s->np; i++)
		s->val[i] = INFINITY;
	memset(s->cf, CF_NODIR, s->np);
	ffq_reset(s);
	s->spills = 0;
	s->nwant = s->nall;
	s->kscale = s->opts.method == FF_METHOD_FMM ? 8.0 / min_cost(s) : 1.0;
	for (int i = 0; i < s->ngoals; i++) {
		int x0, y0, x1, y1;
		if (!ff_shape_clip(l, &s->goals[i], &x0, &y0, &x1, &y1))
			continue;
		for (int y = y0; y <= y1; y++)
			for (int x = x0; x <= x1; x++) {
				int32_t p = ffs_index(s, x, y);
				if (s->cost[p] == FF_WALL || s->val[p] == 0.0 ||
				    !ff_shape_contains(&s->goals[i], x, y))
					continue;
				s->val[p] = 0.0;
				s->frontier++;
				ffq_push(s, p, 0);
			}
	}
}

void ff_solver_flow_range(ff_solver *s, size_t from, size_t to)
{
	const size_t w = (size_t)s->w;
	bool fmm = s->opts.method == FF_METHOD_FMM;

	while (from < to) {
		size_t y = from / w, x0 = from % w, x1 = to - y * w < w ? to - y * w : w;
		int32_t p = ffs_index(s, (int)x0, (int)y);
		if (fmm)
			ff_fmm_flow_span(s, p, (int32_t)(x1 - x0));
		else
			ff_dijkstra_flow_span(s, p, (int32_t)(x1 - x0));
		from = y * w + x1;
	}
}

/* Half of the flow of a whole level: thread T's rows. */
static void flow_half(ff_solver *s, struct ff_par *P, int t)
{
	size_t total = (size_t)s->w * (size_t)s->h, mid = (size_t)(s->h / 2) * (size_t)s->w;

	(void)P;
	ff_solver_flow_range(s, t ? mid : 0, t ? total : mid);
}

/* Advances the FLOW phase by N cells (or rows when WAVE); true at its end.
 * The whole phase at once is split between two threads when there are:
 * each cell's direction reads the values, writes only its own byte. */
static bool flow_step(ff_solver *s, long n, bool wave)
{
	size_t total = (size_t)s->w * (size_t)s->h, to;

	if (n < 0 && !wave && s->flow_pos == 0 && ff_par_both(s, flow_half)) {
		s->flow_pos = total;
		return true;
	}
	if (wave)
		to = (s->flow_pos / (size_t)s->w + 1) * (size_t)s->w;
	else
		to = n < 0 || (size_t)n > total ? total : s->flow_pos + (size_t)n;
	if (to > total)
		to = total;
	ff_solver_flow_range(s, s->flow_pos, to);
	s->flow_pos = to;
	return to == total;
}

static bool integrate(ff_solver *s, long n, bool wave)
{
	return s->opts.method == FF_METHOD_FMM ? ff_fmm_run(s, n, wave)
					       : ff_dijkstra_run(s, n, wave);
}

/* The end of a full solve: its result, and the lines of sight on it. */
static void done(ff_solver *s)
{
	s->phase = FF_PHASE_DONE;
	s->have_result = true;
	if (ffs_los(s))
		ff_solver_los_pass(s);
}

/* advance() for the hierarchical method, whose COST phase begin() did:
 * INTEGRATE settles portals, FLOW solves sectors (a wave: a row of them). */
static long advance_hier(ff_solver *s, long n, bool wave)
{
	long before = ff_hier_settled(s->hier), total = ff_hier_sectors(s->hier), row, to, used;

	switch (s->phase) {
	case FF_PHASE_COST:
		s->phase = s->fused ? FF_PHASE_DONE : FF_PHASE_INTEGRATE;
		s->have_result = s->fused;
		return 1;
	case FF_PHASE_INTEGRATE:
		if (wave ? ff_hier_search_band(s->hier) : ff_hier_search(s->hier, n)) {
			s->phase = FF_PHASE_FLOW;
			s->flow_pos = 0;
		}
		return wave ? 1 : ff_hier_settled(s->hier) - before;
	case FF_PHASE_FLOW:
		row = (s->w + ff_hier_sector_size(s->hier) - 1) / ff_hier_sector_size(s->hier);
		to = wave ? ((long)s->flow_pos / row + 1) * row :
		     n < 0 ? total : (long)s->flow_pos + n;
		to = to < total ? to : total;
		for (long i = (long)s->flow_pos; i < to; i++)
			ff_hier_solve_sector(s->hier, i);
		used = to - (long)s->flow_pos;
		s->flow_pos = (size_t)to;
		if (to == total) {
			s->phase = FF_PHASE_DONE;
			s->have_result = true;
		}
		return wave ? 1 : used;
	default:
		return 0;
	}
}

/* One call's worth of work in the current phase: N units (N < 0 = all of the
 * phase).  Returns the units used. */
static long advance(ff_solver *s, long n, bool wave)
{
	long before = s->settled;

	if (s->opts.method == FF_METHOD_HIER)
		return advance_hier(s, n, wave);
	switch (s->phase) {
	case FF_PHASE_COST:
		ff_solver_seed(s);
		s->phase = FF_PHASE_INTEGRATE;
		return 1;
	case FF_PHASE_INTEGRATE:
		if (integrate(s, wave ? -1 : n, wave)) {
			if (s->fused)
				done(s);
			else
				s->phase = FF_PHASE_FLOW;
		}
		return wave ? 1 : s->settled - before;
	case FF_PHASE_FLOW: {
		size_t pos = s->flow_pos;
		if (flow_step(s, n, wave))
			done(s);
		return wave ? 1 : (long)(s->flow_pos - pos);
	}
	default:
		return 0;
	}
}

/* Whether a solve of O may run one-shot: Dijkstra's arrows chosen as it
 * settles (the same bytes as stepped), the hierarchy solved as asked. */
static bool one_shot(const ff_solver_opts *o)
{
	return (o->method == FF_METHOD_DIJKSTRA && o->arrows == FF_ARROW_CHEAPEST) ||
	       o->method == FF_METHOD_HIER;
}

ff_phase ff_solver_step(ff_solver *s, ff_step_unit unit, long n)
{
	if (!s)
		return FF_PHASE_IDLE;
	/* a shared workspace holds no queue between calls (solver.h) */
	if (s->work && !s->own_work)
		unit = FF_STEP_ALL;
	/* all of a solve not stepped yet is a one-shot solve */
	if (unit == FF_STEP_ALL && s->phase == FF_PHASE_COST)
		s->fused = one_shot(&s->opts);
	if (unit == FF_STEP_ALL) {
		while (s->phase != FF_PHASE_DONE && s->phase != FF_PHASE_IDLE)
			advance(s, -1, false);
	} else if (unit == FF_STEP_PHASE) {
		for (; n > 0 && s->phase != FF_PHASE_DONE && s->phase != FF_PHASE_IDLE; n--)
			advance(s, -1, false);
	} else {
		bool wave = unit == FF_STEP_WAVE;
		while (n > 0 && s->phase != FF_PHASE_DONE && s->phase != FF_PHASE_IDLE) {
			long used = advance(s, wave ? 1 : n, wave);
			n -= used > 0 ? used : 1;
		}
	}
	return s->phase;
}

ff_err ff_solver_solve(ff_solver *s, const ff_level *l, const ff_shape *goals,
		       int ngoals, const ff_solver_opts *opts)
{
	ff_err e = ff_solver_begin(s, l, goals, ngoals, opts);

	if (e)
		return e;
	/* the one-shot Dijkstra chooses the cheapest step as it settles; the
	 * lowest-neighbour rule, for teaching, in a flow pass after; the
	 * hierarchical field is solved where it is asked */
	ff_solver_step(s, FF_STEP_ALL, 0);
	return FF_OK;
}

/* Whether the queue would settle a quarter of L or more before the N
 * cells XS, YS are settled: the square around the nearest goal's box out
 * to the farthest cell does.  The sweeps of open ground (solver_open.c),
 * which solve it whole at a quarter of the queue's cost a cell, are then
 * the quicker way to their values. */
static bool far_cells(const ff_level *l, const ff_shape *goals, int ngoals, int n,
		      const int *xs, const int *ys)
{
	long r = 0, side_x, side_y;

	for (int i = 0; i < n; i++) {
		long best = LONG_MAX;
		for (int g = 0; g < ngoals; g++) {
			int x0, y0, x1, y1;
			long dx, dy;
			if (!ff_shape_clip(l, &goals[g], &x0, &y0, &x1, &y1))
				continue;
			dx = xs[i] < x0 ? x0 - xs[i] : xs[i] > x1 ? xs[i] - x1 : 0;
			dy = ys[i] < y0 ? y0 - ys[i] : ys[i] > y1 ? ys[i] - y1 : 0;
			best = dx > dy ? (dx < best ? dx : best) : (dy < best ? dy : best);
		}
		if (best != LONG_MAX && best > r)
			r = best;
	}
	side_x = 2 * r + 1 < l->w ? 2 * r + 1 : l->w;
	side_y = 2 * r + 1 < l->h ? 2 * r + 1 : l->h;
	return 4 * side_x * side_y >= (long)l->w * l->h;
}

ff_err ff_solver_values_at(ff_solver *s, const ff_level *l, const ff_shape *goals,
			   int ngoals, const ff_solver_opts *opts, int n, const int *xs,
			   const int *ys, double *out)
{
	ff_err e;

	for (int i = 0; i < n; i++)
		if ((unsigned)xs[i] >= (unsigned)l->w || (unsigned)ys[i] >= (unsigned)l->h)
			return FF_E_RANGE;
	if (opts->method == FF_METHOD_HIER) {
		if ((e = ff_solver_solve(s, l, goals, ngoals, opts)))
			return e;
		for (int i = 0; i < n; i++)
			out[i] = ff_solver_value(s, xs[i], ys[i]);
		return FF_OK;
	}
	if ((e = ff_solver_begin(s, l, goals, ngoals, opts)))
		return e;
	/* one shot, whatever the arrow rule: no arrow is read */
	s->fused = opts->method == FF_METHOD_DIJKSTRA;
	s->arrows = false;
	s->partial = n <= FF_WANT_MAX;
	s->far = far_cells(l, goals, ngoals, n, xs, ys);
	for (int i = 0; s->partial && i < n; i++)
		s->want[s->nall++] = ffs_index(s, xs[i], ys[i]);
	ff_solver_seed(s);
	/* a wall never settles: its value is known, INFINITY */
	for (int i = s->nall = 0; i < s->nwant; i++)
		if (s->cost[s->want[i]] != FF_WALL)
			s->want[s->nall++] = s->want[i];
	s->nwant = s->nall;
	s->phase = FF_PHASE_INTEGRATE;
	integrate(s, -1, false);
	for (int i = 0; i < n; i++) {
		int32_t p = ffs_index(s, xs[i], ys[i]);
		out[i] = (s->cf[p] & FL_SETTLED) ? s->val[p] : INFINITY;
	}
	s->partial = s->far = false;
	s->nall = s->nwant = 0;
	s->phase = FF_PHASE_IDLE;
	return FF_OK;
}

/* --- queries ----------------------------------------------------------- */

ff_metric ff_solver_metric(const ff_solver_opts *o)
{
	if (o->method == FF_METHOD_FMM)
		return FF_METRIC_EUCLID;
	return o->connectivity == 4 ? FF_METRIC_MANHATTAN : FF_METRIC_OCTILE;
}

int ff_solver_cost(const ff_solver *s, int x, int y)
{
	if ((unsigned)x >= (unsigned)s->w || (unsigned)y >= (unsigned)s->h)
		return -1;
	if (s->opts.method == FF_METHOD_HIER && s->hier && s->phase != FF_PHASE_IDLE)
		return ff_hier_cost(s->hier, x, y);
	if (s->phase < FF_PHASE_INTEGRATE)
		return -1;
	return s->cost[ffs_index(s, x, y)];
}

ff_phase ff_solver_phase(const ff_solver *s)
{
	return s->phase;
}

const char *ff_phase_name(ff_phase p)
{
	static const char *const names[] = {
		[FF_PHASE_IDLE] = "idle", [FF_PHASE_COST] = "cost",
		[FF_PHASE_INTEGRATE] = "integrate", [FF_PHASE_FLOW] = "flow",
		[FF_PHASE_DONE] = "done",
	};
	return (unsigned)p <= FF_PHASE_DONE ? names[p] : "?";
}

const char *ff_method_name(const ff_solver_opts *o)
{
	if (o->method == FF_METHOD_HIER)
		return "hier";
	if (o->method != FF_METHOD_FMM)
		return "dijkstra";
	return o->order == 2 ? "fmm2" : "fmm";
}

const char *ff_method_label(const ff_solver_opts *o)
{
	if (o->method == FF_METHOD_FMM)
		return ff_method_name(o);
	if (o->method == FF_METHOD_HIER)
		return o->connectivity == 4 ? "hier4" : "hier8";
	if (o->arrows == FF_ARROW_LOWEST)
		return o->connectivity == 4 ? "dijkstra4-lowest" : "dijkstra8-lowest";
	return o->connectivity == 4 ? "dijkstra4" : "dijkstra8";
}

bool ff_method_parse(const char *word, ff_solver_opts *o)
{
	if (!strcmp(word, "dijkstra"))
		o->method = FF_METHOD_DIJKSTRA, o->order = 1;
	else if (!strcmp(word, "fmm"))
		o->method = FF_METHOD_FMM, o->order = 1;
	else if (!strcmp(word, "fmm2"))
		o->method = FF_METHOD_FMM, o->order = 2;
	else if (!strcmp(word, "hier"))
		o->method = FF_METHOD_HIER, o->order = 1;
	else
		return false;
	return true;
}

bool ff_solver_word(const char *word, ff_solver_opts *o)
{
	if (ff_method_parse(word, o))
		return true;
	if (!strcmp(word, "8") || !strcmp(word, "4"))
		o->connectivity = word[0] - '0';
	else if (!strcmp(word, "cheapest"))
		o->arrows = FF_ARROW_CHEAPEST;
	else if (!strcmp(word, "lowest"))
		o->arrows = FF_ARROW_LOWEST;
	else if (!strcmp(word, "los") || !strcmp(word, "nolos"))
		o->los = word[0] == 'l';
	else if (!strcmp(word, "sector8") || !strcmp(word, "sector16") ||
		 !strcmp(word, "sector32") || !strcmp(word, "sector64"))
		o->sector = atoi(word + 6);
	else
		return false;
	return true;
}

void ff_solver_words(const ff_solver_opts *o, char *buf, size_t size)
{
	char sector[16] = "";

	if (o->sector && o->sector != FF_SECTOR_DEFAULT)
		snprintf(sector, sizeof sector, " sector%d", o->sector);
	snprintf(buf, size, "%s %d%s%s%s", ff_method_name(o), o->connectivity == 4 ? 4 : 8,
		 o->arrows == FF_ARROW_LOWEST ? " lowest" : "", sector,
		 o->los && o->method != FF_METHOD_FMM ? " los" : "");
}

/* The hierarchical field of S (solving as asked: a cache, see solver.h). */
static ff_hier *hier_of(const ff_solver *s)
{
	return s->opts.method == FF_METHOD_HIER && s->phase != FF_PHASE_IDLE ? s->hier : NULL;
}

double ff_solver_value(const ff_solver *s, int x, int y)
{
	ff_hier *H = hier_of(s);
	int32_t p;

	if ((unsigned)x >= (unsigned)s->w || (unsigned)y >= (unsigned)s->h ||
	    s->phase < FF_PHASE_INTEGRATE)
		return H && s->phase == FF_PHASE_COST ? ff_hier_known_value(H, x, y) : INFINITY;
	if (H)
		return s->phase == FF_PHASE_DONE ? ff_hier_value(H, x, y) :
		       ff_hier_known_value(H, x, y);
	p = ffs_index(s, x, y);
	return (s->cf[p] & FL_SETTLED) ? s->val[p] : INFINITY;
}

/* The arrow of the grid: the cheapest step, or FMM's best aligned. */
static int grid_dir(const ff_solver *s, int x, int y)
{
	ff_hier *H = hier_of(s);

	if ((unsigned)x >= (unsigned)s->w || (unsigned)y >= (unsigned)s->h ||
	    s->phase < FF_PHASE_INTEGRATE)
		return H && s->phase == FF_PHASE_COST ? ff_hier_known_dir(H, x, y) : FF_DIR_NONE;
	if (H)
		return s->phase == FF_PHASE_DONE ? ff_hier_dir(H, x, y) : ff_hier_known_dir(H, x, y);
	return ffs_dir(s, ffs_index(s, x, y));
}

int ff_solver_dir(const ff_solver *s, int x, int y)
{
	int d = grid_dir(s, x, y), tx, ty;

	if (d != FF_DIR_NONE && ff_solver_sees(s, x, y, &tx, &ty))
		return ff_los_dir8(x, y, tx, ty);
	return d;
}

void ff_solver_flow(const ff_solver *s, int x, int y, float *dx, float *dy)
{
	int d = grid_dir(s, x, y), tx, ty;

	*dx = *dy = 0.0f;
	if (d == FF_DIR_NONE)
		return;
	if (ff_solver_sees(s, x, y, &tx, &ty)) {
		double n = hypot(tx - x, ty - y);
		*dx = (float)((tx - x) / n);
		*dy = (float)((ty - y) / n);
		return;
	}
	if (s->opts.method == FF_METHOD_FMM) {
		ff_fmm_grad(s, ffs_index(s, x, y), dx, dy);
		return;
	}
	*dx = (float)ff_dir_dx[d];
	*dy = (float)ff_dir_dy[d];
	if (d >= FF_DIR_SE) {
		*dx *= (float)0.70710678118654752;
		*dy *= (float)0.70710678118654752;
	}
}

void ff_solver_sample(const ff_solver *s, double x, double y, float *dx, float *dy)
{
	double fx = x - 0.5, fy = y - 0.5, sx = 0, sy = 0, n;
	int i0 = (int)floor(fx), j0 = (int)floor(fy);
	double tx = fx - i0, ty = fy - j0;

	*dx = *dy = 0.0f;
	if (!(fx > -2.0 && fy > -2.0 && fx < s->w + 1.0 && fy < s->h + 1.0))
		return;
	for (int k = 0; k < 4; k++) {
		int i = i0 + (k & 1), j = j0 + (k >> 1);
		double wgt = ((k & 1) ? tx : 1 - tx) * ((k >> 1) ? ty : 1 - ty);
		float vx, vy;
		if (wgt <= 0.0 || (unsigned)i >= (unsigned)s->w ||
		    (unsigned)j >= (unsigned)s->h)
			continue;
		ff_solver_flow(s, i, j, &vx, &vy);
		sx += wgt * vx;
		sy += wgt * vy;
	}
	n = sqrt(sx * sx + sy * sy);
	if (n > 1e-9) {
		*dx = (float)(sx / n);
		*dy = (float)(sy / n);
	}
}

long ff_solver_settled(const ff_solver *s)
{
	return hier_of(s) ? ff_hier_settled(s->hier) : s->settled;
}

long ff_solver_frontier(const ff_solver *s)
{
	if (s->phase != FF_PHASE_INTEGRATE)
		return 0;
	return hier_of(s) ? ff_hier_queued(s->hier) : s->frontier;
}

bool ff_solver_on_frontier(const ff_solver *s, int x, int y)
{
	int32_t p;

	if (s->phase != FF_PHASE_INTEGRATE || hier_of(s) ||
	    (unsigned)x >= (unsigned)s->w || (unsigned)y >= (unsigned)s->h)
		return false;
	p = ffs_index(s, x, y);
	return s->val[p] != INFINITY && !(s->cf[p] & FL_SETTLED);
}

static void unpad(const ff_solver *s, int32_t p, int *x, int *y)
{
	*x = p % s->W - 1;
	*y = p / s->W - 1;
}

bool ff_solver_last(const ff_solver *s, int *x, int *y, int *from_x, int *from_y)
{
	if (hier_of(s))
		return s->phase == FF_PHASE_INTEGRATE &&
		       ff_hier_last(s->hier, x, y, from_x, from_y);
	if (s->last < 0 || s->phase < FF_PHASE_INTEGRATE)
		return false;
	unpad(s, s->last, x, y);
	if (!ff_solver_from(s, *x, *y, from_x, from_y))
		*from_x = *x, *from_y = *y;
	return true;
}

bool ff_solver_from(const ff_solver *s, int x, int y, int *from_x, int *from_y)
{
	int32_t m;

	if ((unsigned)x >= (unsigned)s->w || (unsigned)y >= (unsigned)s->h ||
	    s->opts.method != FF_METHOD_DIJKSTRA || s->phase < FF_PHASE_INTEGRATE)
		return false;
	m = ff_dijkstra_parent(s, ffs_index(s, x, y));
	if (m < 0)
		return false;
	unpad(s, m, from_x, from_y);
	return true;
}

int ff_solver_sources(const ff_solver *s, int x, int y, int xs[2], int ys[2])
{
	int32_t m[2];
	int n;

	if ((unsigned)x >= (unsigned)s->w || (unsigned)y >= (unsigned)s->h ||
	    s->phase < FF_PHASE_INTEGRATE || s->opts.method == FF_METHOD_HIER)
		return 0;
	if (s->opts.method == FF_METHOD_DIJKSTRA)
		return ff_solver_from(s, x, y, &xs[0], &ys[0]) ? 1 : 0;
	n = ff_fmm_sources(s, ffs_index(s, x, y), m);
	for (int i = 0; i < n; i++)
		unpad(s, m[i], &xs[i], &ys[i]);
	return n;
}

int ff_solver_sector_size(const ff_solver *s)
{
	return hier_of(s) ? ff_hier_sector_size(s->hier) : 0;
}

long ff_solver_sectors_solved(const ff_solver *s)
{
	ff_hier_stats st;

	if (!hier_of(s))
		return 0;
	ff_hier_get_stats(s->hier, &st);
	return st.sectors_solved;
}

int ff_solver_sector_state(const ff_solver *s, int x, int y)
{
	return hier_of(s) ? ff_hier_sector_state(s->hier, x, y) : FF_HSEC_IDLE;
}

bool ff_solver_portal(const ff_solver *s, int x, int y, double *g)
{
	*g = INFINITY;
	return hier_of(s) && ff_hier_portal(s->hier, x, y, g);
}

ff_err ff_solver_prepare(ff_solver *s)
{
	return hier_of(s) ? ff_hier_build_edges(s->hier) : FF_E_STATE;
}

bool ff_solver_sees(const ff_solver *s, int x, int y, int *tx, int *ty)
{
	int32_t t;

	if (!ffs_los(s) || s->phase != FF_PHASE_DONE || (unsigned)x >= (unsigned)s->w ||
	    (unsigned)y >= (unsigned)s->h)
		return false;
	if (hier_of(s))
		return ff_hier_sees(s->hier, x, y, tx, ty);
	if ((t = ff_solver_los_target(s, ffs_index(s, x, y))) < 0)
		return false;
	*tx = t % s->W - 1, *ty = t / s->W - 1;
	return true;
}
