/*
 * replay.c - run a replay log: header, then commands and 'expect' lines.
 *
 * Every expectation kind is a row in a table: how to read the actual value
 * from the session as text, and how to compare it with the expected text.
 * Checking compares; updating writes the actual text in place of the
 * expected one, so both share one path and an updated log always passes.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"
#include "hash.h"
#include "replay.h"
#include "level_dyn.h"
#include "level_text.h"

static const char *const dir_names[9] = {"E", "S", "W", "N", "SE", "SW", "NW", "NE", "none"};

ff_err ff_session_hash_get(const ff_session *s, uint64_t *out)
{
	const ff_level *l = s->level;
	uint64_t h = FF_HASH_SEED;
	size_t len;
	char *text = ff_textlevel_format(l, &len);

	if (!text)
		return FF_E_NOMEM;
	h = ff_hash_bytes(h, text, len);
	free(text);
	h = ff_hash_int(h, s->field, 1);
	if (s->field) {
		h = ff_hash_int(h, (uint64_t)ff_solver_phase(s->solver), 1);
		h = ff_hash_int(h, (uint64_t)s->opts.method, 1);
		h = ff_hash_int(h, (uint64_t)s->opts.connectivity, 1);
		/* second order only, so that hashes recorded before it existed
		 * still hold */
		if (s->opts.order == 2)
			h = ff_hash_int(h, 2, 1);
		/* likewise the lowest-neighbour arrows */
		if (s->opts.arrows == FF_ARROW_LOWEST && s->opts.method == FF_METHOD_DIJKSTRA)
			h = ff_hash_int(h, 3, 1);
		for (int y = 0; y < l->h; y++)
			for (int x = 0; x < l->w; x++) {
				h = ff_hash_double(h, ff_solver_value(s->solver, x, y));
				h = ff_hash_int(h, (uint64_t)ff_solver_dir(s->solver, x, y), 1);
			}
	}
	h = ff_hash_int(h, s->sim != NULL, 1);
	if (s->sim)
		h = ff_hash_int(h, ff_sim_hash(s->sim), 8);
	*out = h;
	return FF_OK;
}

uint64_t ff_session_hash(const ff_session *s)
{
	uint64_t h = 0;

	ff_session_hash_get(s, &h);
	return h;
}

typedef struct line_ctx {
	ff_session *s;
	const char *args;        /* the words after the kind */
	int args_col;
	ff_replay_report *rep;
} line_ctx;

static ff_err fail(ff_replay_report *rep, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static ff_err fail(ff_replay_report *rep, int col, const char *fmt, ...)
{
	va_list ap;

	rep->ok = false;
	rep->col = col;
	va_start(ap, fmt);
	vsnprintf(rep->msg, sizeof rep->msg, fmt, ap);
	va_end(ap);
	ff_escape_msg(rep->msg, sizeof rep->msg);
	return FF_E_PARSE;
}

/* Parses "X,Y REST": the cell, inside the level, and where REST starts. */
static ff_err cell_arg(line_ctx *c, int *x, int *y, const char **rest)
{
	const char *end;

	if (!ff_cmd_read_xy(c->args, x, y, &end) || (*end && *end != ' '))
		return fail(c->rep, c->args_col, "expected X,Y");
	if (!ff_level_in(c->s->level, *x, *y))
		return fail(c->rep, c->args_col, "%d,%d is outside the %dx%d level", *x, *y,
			    c->s->level->w, c->s->level->h);
	*rest = end + (*end == ' ');
	return FF_OK;
}

static ff_err need_field(line_ctx *c)
{
	if (!c->s->field)
		return fail(c->rep, c->args_col, "there is no field: 'solve' first");
	return FF_OK;
}

/* Each reader puts the actual value in ACT and the expected text in *EXP. */
typedef ff_err (*reader)(line_ctx *c, char *act, size_t n, const char **exp);

static ff_err rd_hash(line_ctx *c, char *act, size_t n, const char **exp)
{
	uint64_t h;

	if (ff_session_hash_get(c->s, &h))
		return fail(c->rep, 1, "out of memory");
	snprintf(act, n, "%016llx", (unsigned long long)h);
	*exp = c->args;
	return FF_OK;
}

static ff_err rd_value(line_ctx *c, char *act, size_t n, const char **exp)
{
	int x, y;
	double v;

	if (need_field(c) || cell_arg(c, &x, &y, exp))
		return FF_E_PARSE;
	v = ff_solver_value(c->s->solver, x, y);
	if (isinf(v))
		snprintf(act, n, "unreachable");
	else
		snprintf(act, n, "%.9g", v);
	return FF_OK;
}

static ff_err rd_dir(line_ctx *c, char *act, size_t n, const char **exp)
{
	int x, y, d;

	if (need_field(c) || cell_arg(c, &x, &y, exp))
		return FF_E_PARSE;
	d = ff_solver_dir(c->s->solver, x, y);
	snprintf(act, n, "%s", dir_names[d < 8 ? d : 8]);
	return FF_OK;
}

static ff_err rd_cost(line_ctx *c, char *act, size_t n, const char **exp)
{
	int x, y, cost;

	if (cell_arg(c, &x, &y, exp))
		return FF_E_PARSE;
	cost = ff_level_cost(c->s->level, x, y);
	if (cost == FF_WALL)
		snprintf(act, n, "wall");
	else
		snprintf(act, n, "%d", cost);
	return FF_OK;
}

/* The dynamic layer: "+N", "wall" or "none". */
static ff_err rd_dyn(line_ctx *c, char *act, size_t n, const char **exp)
{
	char word[8];
	int x, y, v;

	if (cell_arg(c, &x, &y, exp))
		return FF_E_PARSE;
	v = ff_level_dyn(c->s->level, x, y);
	snprintf(act, n, "%s", v ? ff_dyn_word(v, word) : "none");
	return FF_OK;
}

static ff_err rd_phase(line_ctx *c, char *act, size_t n, const char **exp)
{
	snprintf(act, n, "%s", c->s->field ? ff_phase_name(ff_solver_phase(c->s->solver)) : "none");
	*exp = c->args;
	return FF_OK;
}

static ff_err rd_settled(line_ctx *c, char *act, size_t n, const char **exp)
{
	if (need_field(c))
		return FF_E_PARSE;
	snprintf(act, n, "%ld", ff_solver_settled(c->s->solver));
	*exp = c->args;
	return FF_OK;
}

/* Simulation counters: arrived, alive, stranded, tick. */
static ff_err rd_sim(line_ctx *c, char *act, size_t n, const char **exp, int which)
{
	const ff_sim_stats *st;
	long v;

	if (!c->s->sim)
		return fail(c->rep, c->args_col, "there are no agents: 'sim spawn' first");
	st = ff_sim_last(c->s->sim);
	v = which == 0 ? ff_sim_totals_get(c->s->sim)->arrived : which == 1 ? st->alive :
	    which == 2 ? st->stranded : ff_sim_totals_get(c->s->sim)->ticks;
	snprintf(act, n, "%ld", v);
	*exp = c->args;
	return FF_OK;
}

static ff_err rd_arrived(line_ctx *c, char *act, size_t n, const char **exp)
{
	return rd_sim(c, act, n, exp, 0);
}

static ff_err rd_alive(line_ctx *c, char *act, size_t n, const char **exp)
{
	return rd_sim(c, act, n, exp, 1);
}

static ff_err rd_stranded(line_ctx *c, char *act, size_t n, const char **exp)
{
	return rd_sim(c, act, n, exp, 2);
}

static ff_err rd_tick(line_ctx *c, char *act, size_t n, const char **exp)
{
	return rd_sim(c, act, n, exp, 3);
}

/* True when S is a whole finite number, into *V. */
static bool finite_number(const char *s, double *v)
{
	char *e;

	*v = strtod(s, &e);
	return e != s && !*e && isfinite(*v);
}

/* Equal but for letter case; values (REAL) also as finite numbers within a
 * relative 1e-6 ('unreachable' only as text: an infinite expectation would
 * be within 1e-6 * inf of every value).  Hashes and counters are exact. */
static bool same(const char *exp, const char *act, bool real)
{
	double a, b;

	if (!strcasecmp(exp, act))
		return true;
	if (!real || !finite_number(exp, &a) || !finite_number(act, &b))
		return false;
	return fabs(a - b) <= 1e-6 * fmax(fabs(a), fabs(b));
}

typedef struct expect_kind {
	const char *name;
	reader read;
	bool is_hash, real;
} expect_kind;

static const expect_kind kinds[] = {
	{"hash", rd_hash, true, false},
	{"value", rd_value, false, true},
	{"dir", rd_dir, false, false},
	{"cost", rd_cost, false, false},
	{"dyn", rd_dyn, false, false},
	{"phase", rd_phase, false, false},
	{"settled", rd_settled, false, false},
	{"arrived", rd_arrived, false, false},
	{"alive", rd_alive, false, false},
	{"stranded", rd_stranded, false, false},
	{"tick", rd_tick, false, false},
};

/* The lines of the text, one at a time, as NUL-terminated copies. */
typedef struct lines {
	const char *p, *end;
	char *cur;
	size_t cap;
	int no;
	bool nomem;              /* a line could not be copied: not its end */
} lines;

/* The next line into LS->cur; false at the end of the text, and when out
 * of memory for the line (LS->nomem: the callers fail, never take it for
 * the end, which would let a replay pass with lines unread). */
static bool next(lines *ls)
{
	const char *nl;
	size_t n;

	if (ls->p >= ls->end || ls->nomem)
		return false;
	nl = memchr(ls->p, '\n', (size_t)(ls->end - ls->p));
	n = (size_t)((nl ? nl : ls->end) - ls->p);
	if (n + 1 > ls->cap) {
		char *c = realloc(ls->cur, n + 1);
		if (!c) {
			ls->nomem = true;
			return false;
		}
		ls->cur = c, ls->cap = n + 1;
	}
	memcpy(ls->cur, ls->p, n);
	/* every CR before the line end: 'level inline' ending in CR CR LF is
	 * 'level inline', as --update writes it */
	while (n && ls->cur[n - 1] == '\r')
		n--;
	ls->cur[n] = '\0';
	ls->p = nl ? nl + 1 : ls->end;
	ls->no++;
	return true;
}

/* Reports the line LS could not read for want of memory. */
static ff_err out_of_memory(const lines *ls, ff_replay_report *rep)
{
	rep->line = ls->no + 1;
	return fail(rep, 1, "out of memory");
}

static bool blank(const char *s)
{
	s += strspn(s, " \t");
	return !*s || *s == '#';
}

/* 'level inline': the text level up to and including its 'end' line, the
 * first 'end' line the level parses up to (a grid row may read 'end'). */
static ff_err inline_level(lines *ls, ff_level **out, ff_replay_report *rep)
{
	const char *start = ls->p;
	int first = ls->no + 1;
	ff_diag diag, bad;
	bool tried = false;

	while (next(ls))
		if (!strcmp(ls->cur, "end")) {
			ff_err err = ff_textlevel_parse(start, (size_t)(ls->p - start), out, &diag);

			if (err == FF_OK)
				return FF_OK;
			if (err == FF_E_NOMEM) {
				rep->line = ls->no;
				return fail(rep, 1, "out of memory");
			}
			if (!tried)
				bad = diag, tried = true;
		}
	if (ls->nomem)
		return out_of_memory(ls, rep);
	if (tried) {
		rep->line = first + bad.line - 1;
		return fail(rep, bad.col, "%s", bad.msg);
	}
	rep->line = ls->no;
	return fail(rep, 1, "truncated: the inline level has no 'end' line");
}

/* The magic line and the header up to and including the level (after
 * refusing a NUL anywhere in the text: a command would end there). */
static ff_err read_header(lines *ls, ff_replay_loader load, const ff_replay_opts *o,
			  ff_level **out, ff_replay_report *rep, ff_buf *buf)
{
	char err[200] = "";
	ff_diag d;

	if (ff_text_has_nul(ls->p, (size_t)(ls->end - ls->p), &d)) {
		rep->line = d.line;
		return fail(rep, d.col, "%s", d.msg);
	}
	if (!next(ls)) {
		rep->line = 1;
		return fail(rep, 1, ls->nomem ? "out of memory" : "empty file: expected '%s'",
			    FF_REPLAY_MAGIC);
	}
	rep->line = 1;
	if (strncmp(ls->cur, "fieldmarshal replay ", 20))
		return fail(rep, 1, "expected '%s' as the first line", FF_REPLAY_MAGIC);
	if (strcmp(ls->cur, FF_REPLAY_MAGIC))
		return fail(rep, 21, "unsupported replay format version '%s' (this program reads 1)",
			    ls->cur + 20);
	ff_buf_printf(buf, "%s\n", ls->cur);
	while (next(ls)) {
		rep->line = ls->no;
		ff_buf_printf(buf, "%s\n", ls->cur);
		if (blank(ls->cur) || !strncmp(ls->cur, "program ", 8))
			continue;
		if (strncmp(ls->cur, "level ", 6) || blank(ls->cur + 6))
			return fail(rep, 1, "expected 'level NAME' or 'level inline' before the commands");
		if (!strcmp(ls->cur + 6, "inline")) {
			const char *from = ls->p;
			ff_err e = inline_level(ls, out, rep);
			if (!e)
				ff_buf_add(buf, from, (size_t)(ls->p - from));
			return e;
		}
		*out = load(o->ctx, ls->cur + 6, err, sizeof err);
		return *out ? FF_OK : fail(rep, 7, "%s", err[0] ? err : "cannot load the level");
	}
	if (ls->nomem)
		return out_of_memory(ls, rep);
	return fail(rep, 1, "truncated: no 'level' line");
}

/* Checks (or, updating, rewrites) one 'expect KIND ARGS' line; the actual
 * value goes to RES->msg. */
static ff_err expect(ff_session *s, const char *line, const ff_replay_opts *o,
		     ff_replay_report *rep, ff_buf *buf, ff_cmd_result *res)
{
	const char *kind = line + (line[6] ? 7 : 6), *sp = strchr(kind, ' '), *exp = NULL;
	size_t klen = sp ? (size_t)(sp - kind) : strlen(kind);
	const char *args = sp ? sp + 1 : line + strlen(line);
	line_ctx c = {s, args, (int)(args - line) + 1, rep};
	char act[64];
	size_t k;

	for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
		if (strlen(kinds[k].name) == klen && !strncmp(kinds[k].name, kind, klen))
			break;
	if (!klen)
		return fail(rep, 8, "expected 'expect KIND ...': hash, value, dir, cost, phase, "
			    "settled, arrived, alive, stranded or tick");
	if (k == sizeof kinds / sizeof kinds[0])
		return fail(rep, 8, "unknown expectation '%.*s'", (int)klen, kind);
	if (kinds[k].read(&c, act, sizeof act, &exp))
		return FF_E_PARSE;
	snprintf(res->msg, sizeof res->msg, "%s", act);
	rep->checks++;
	if (o->update) {
		ff_buf_add(buf, line, (size_t)(exp - line));
		ff_buf_printf(buf, "%s%s\n", exp > line && exp[-1] == ' ' ? "" : " ", act);
		return FF_OK;
	}
	if (!*exp)
		return fail(rep, (int)strlen(line) + 1, "missing expected value (fill it with --update)");
	if (kinds[k].real && strcasecmp(exp, "unreachable") && !finite_number(exp, &(double){0}))
		return fail(rep, (int)(exp - line) + 1, "expected %s '%s': write a finite number "
			    "or 'unreachable'", kinds[k].name, exp);
	if (!same(exp, act, kinds[k].real))
		return fail(rep, (int)(exp - line) + 1, "expected %s %s, got %s", kinds[k].name, exp, act);
	if (kinds[k].is_hash) {
		rep->good_line = rep->line;
		rep->diverged_line = 0;
	}
	return FF_OK;
}

bool ff_replay_is_expect(const char *line)
{
	line += strspn(line, " \t");
	return !strncmp(line, "expect ", 7) || !strcmp(line, "expect");
}

/* True when LINE starts with the word W. */
static bool word_is(const char *line, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(line, w, n) && (!line[n] || line[n] == ' ' || line[n] == '\t' ||
					line[n] == '#');
}

ff_replay_kind ff_replay_kind_of(const char *line)
{
	line += strspn(line, " \t");
	if (blank(line))
		return FF_REPLAY_NONE;
	if (ff_replay_is_expect(line))
		return FF_REPLAY_EXPECT;
	if (word_is(line, "view"))
		return FF_REPLAY_VIEW;
	if (word_is(line, "begin"))
		return FF_REPLAY_BEGIN;
	return FF_REPLAY_COMMAND;
}

/* Runs line LS->cur (blank lines are copied and skipped). */
static ff_err one_line(lines *ls, ff_session *s, const ff_replay_opts *o,
		       ff_replay_report *rep, ff_buf *buf, ff_cmd_result *res)
{
	const char *t = ls->cur + strspn(ls->cur, " \t");

	const ff_replay_kind kind = ff_replay_kind_of(t);

	res->msg[0] = '\0';
	rep->line = ls->no;
	if (kind == FF_REPLAY_EXPECT)
		return expect(s, t, o, rep, buf, res) ? FF_E_PARSE : FF_OK;
	if (!o->update || blank(t))
		ff_buf_printf(buf, "%s\n", ls->cur);
	else
		ff_buf_printf(buf, "%s\n", t);
	/* the editor's view, and where its lesson begins: nothing headless */
	if (kind == FF_REPLAY_VIEW && blank(t + 4))
		return fail(rep, (int)(t - ls->cur) + 5, "expected 'view COMMAND'");
	if (kind == FF_REPLAY_BEGIN && !blank(t + 5))
		return fail(rep, (int)(t - ls->cur) + 7, "'begin' takes nothing after it");
	if (kind != FF_REPLAY_COMMAND)
		return FF_OK;
	if (ff_cmd_exec(s, t, res))
		return fail(rep, res->col + (int)(t - ls->cur), "%s", res->msg);
	rep->commands++;
	if (!rep->diverged_line)
		rep->diverged_line = ls->no;
	return FF_OK;
}

static ff_err body(lines *ls, ff_session *s, const ff_replay_opts *o,
		   ff_replay_report *rep, ff_buf *buf)
{
	ff_cmd_result res;

	while ((!o->until_line || ls->no < o->until_line) && next(ls)) {
		if (one_line(ls, s, o, rep, buf, &res))
			return FF_E_PARSE;
		if (o->trace && !blank(ls->cur))
			o->trace(o->ctx, ls->no, ls->cur, res.msg);
	}
	if (ls->nomem)
		return out_of_memory(ls, rep);
	/* stopped early: an update keeps the lines after LINE as they are */
	ff_buf_add(buf, ls->p, (size_t)(ls->end - ls->p));
	return FF_OK;
}

ff_err ff_replay_run(const char *text, size_t len, ff_replay_loader load,
		     const ff_replay_opts *opts, ff_replay_report *rep, ff_buf *out)
{
	lines ls = {text, text + len, NULL, 0, 0, false};
	ff_buf scratch = FF_BUF_INIT, *buf = opts->update && out ? out : &scratch;
	ff_session *s = malloc(sizeof *s);
	ff_level *l = NULL;
	ff_err err;

	memset(rep, 0, sizeof *rep);
	rep->ok = true;
	if (!s)
		return fail(rep, 0, "out of memory");
	err = read_header(&ls, load, opts, &l, rep, buf);
	if (!err) {
		ff_session_init(s, l);
		err = body(&ls, s, opts, rep, buf);
		ff_session_fini(s);
	}
	if (err)
		rep->ok = false;
	free(s);
	free(ls.cur);
	ff_buf_fini(&scratch);
	return err ? FF_E_PARSE : FF_OK;
}

/* --- recording --------------------------------------------------------- */

static const char *const unit_names[] = {"cell", "wave", "phase", "all"};

/* The session's kept history: the level it began with and every command
 * since, which rebuild its agents too. */
static ff_err record_history(ff_buf *b, const ff_session *s, const char *program)
{
	uint64_t h;

	if (!s->logging || s->log_lost)
		return FF_E_STATE;
	if (ff_session_hash_get(s, &h))
		return FF_E_NOMEM;
	ff_buf_printf(b, "%s\nprogram %s\nlevel inline\n", FF_REPLAY_MAGIC, program);
	ff_buf_add(b, s->log_origin, s->log_origin_len);
	ff_buf_puts(b, "# the session so far, which rebuilds its agents\n");
	ff_buf_add(b, s->log.data, s->log.len);
	ff_buf_printf(b, "expect hash %016llx\n", (unsigned long long)h);
	return ff_buf_ok(b) ? FF_OK : FF_E_NOMEM;
}

ff_err ff_replay_record_begin(ff_buf *b, const ff_session *s, const char *program)
{
	uint64_t h;
	size_t len;
	char *text;

	if (s->sim)
		return record_history(b, s, program);
	if (ff_session_hash_get(s, &h) || !(text = ff_textlevel_format(s->level, &len)))
		return FF_E_NOMEM;
	ff_buf_printf(b, "%s\nprogram %s\nlevel inline\n", FF_REPLAY_MAGIC, program);
	ff_buf_add(b, text, len);
	free(text);
	if (s->sim_flags & FF_SIM_NO_FUNNEL)
		ff_buf_puts(b, "sim funnel off\n");
	if (s->sim_flags & FF_SIM_NO_SEPARATION)
		ff_buf_puts(b, "sim separation off\n");
	if (s->field) {
		char words[64];

		ff_solver_words(&s->opts, words, sizeof words);
		ff_buf_printf(b, "step begin %s\n", words);
		for (int i = 0; i < s->nsteps; i++)
			ff_buf_printf(b, "step %s %ld\n", unit_names[s->steps[i].unit],
				      s->steps[i].n);
	}
	for (int i = 0; i < s->nat; i++)
		ff_buf_printf(b, "at %ld %s\n", s->at[i].tick, s->at[i].line);
	ff_buf_printf(b, "expect hash %016llx\n", (unsigned long long)h);
	return ff_buf_ok(b) ? FF_OK : FF_E_NOMEM;
}

ff_err ff_replay_record_view(ff_buf *b, const char *line)
{
	line += strspn(line, " \t");
	ff_buf_printf(b, "view %.*s\n", (int)strcspn(line, "\n"), line);
	return ff_buf_ok(b) ? FF_OK : FF_E_NOMEM;
}

ff_err ff_replay_record_lesson(ff_buf *b)
{
	ff_buf_puts(b, "begin\n");
	return ff_buf_ok(b) ? FF_OK : FF_E_NOMEM;
}

ff_err ff_replay_record_cmd(ff_buf *b, const ff_session *s, const char *line)
{
	uint64_t h;

	line += strspn(line, " \t");
	if (blank(line))
		return FF_OK;
	if (ff_session_hash_get(s, &h)) {
		b->failed = true;       /* the recording is incomplete */
		return FF_E_NOMEM;
	}
	ff_buf_printf(b, "%.*s\nexpect hash %016llx\n", (int)strcspn(line, "\n"), line,
		      (unsigned long long)h);
	return ff_buf_ok(b) ? FF_OK : FF_E_NOMEM;
}

/* --- playing line by line ---------------------------------------------- */

struct ff_replay_player {
	char *text;
	lines ls;
	ff_replay_opts opts;
	ff_session s;
	ff_buf scratch;
	bool failed;
	int begin_line;          /* the first 'begin' line, 0 for none */
};

/* The number of the first 'begin' line after the header, or 0. */
static int find_begin(const lines *from)
{
	lines ls = *from;
	int found = 0;

	ls.cur = NULL, ls.cap = 0;
	while (!found && next(&ls))
		if (ff_replay_kind_of(ls.cur) == FF_REPLAY_BEGIN)
			found = ls.no;
	free(ls.cur);
	return found;
}

ff_replay_player *ff_replay_player_create(const char *text, size_t len,
					  ff_replay_loader load, void *ctx,
					  ff_replay_report *rep)
{
	ff_replay_player *p = calloc(1, sizeof *p);
	ff_level *l = NULL;

	memset(rep, 0, sizeof *rep);
	rep->ok = true;
	if (!p || !(p->text = malloc(len + 1))) {
		free(p);
		fail(rep, 0, "out of memory");
		return NULL;
	}
	memcpy(p->text, text, len);
	p->text[len] = '\0';
	p->ls = (lines){p->text, p->text + len, NULL, 0, 0, false};
	p->opts.ctx = ctx;
	p->scratch = (ff_buf)FF_BUF_INIT;
	if (read_header(&p->ls, load, &p->opts, &l, rep, &p->scratch)) {
		rep->ok = false;
		free(p->ls.cur);
		ff_buf_fini(&p->scratch);
		free(p->text);
		free(p);
		return NULL;
	}
	ff_session_init(&p->s, l);
	p->begin_line = find_begin(&p->ls);
	return p;
}

void ff_replay_player_destroy(ff_replay_player *p)
{
	if (!p)
		return;
	ff_session_fini(&p->s);
	free(p->ls.cur);
	ff_buf_fini(&p->scratch);
	free(p->text);
	free(p);
}

ff_session *ff_replay_player_session(ff_replay_player *p)
{
	return &p->s;
}

int ff_replay_player_next(ff_replay_player *p, ff_replay_report *rep, int *line,
			  const char **text, char *result, size_t size)
{
	ff_replay_kind kind;
	ff_cmd_result res;

	if (p->failed)
		return FF_E_STATE;
	do {
		if (!next(&p->ls) && !p->ls.nomem)
			return 0;
		if (p->ls.nomem) {
			out_of_memory(&p->ls, rep);
			p->failed = true;
			return FF_E_PARSE;
		}
	} while (blank(p->ls.cur));
	p->scratch.len = 0;
	*line = p->ls.no;
	*text = p->ls.cur + strspn(p->ls.cur, " \t");
	if (one_line(&p->ls, &p->s, &p->opts, rep, &p->scratch, &res)) {
		rep->ok = false;
		p->failed = true;
		return FF_E_PARSE;
	}
	snprintf(result, size, "%s", res.msg);
	kind = ff_replay_kind_of(*text);
	if (kind == FF_REPLAY_VIEW)
		*text += 4 + strspn(*text + 4, " \t");
	return (int)kind;
}

bool ff_replay_player_in_setup(const ff_replay_player *p)
{
	return p->ls.no < p->begin_line;
}
