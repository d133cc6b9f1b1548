/* replay_out.c - the outcome of a replay and its JSON form (replay_out.h). */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "replay_out.h"

void ff_outcome_fini(ff_outcome *o)
{
	free(o->text);
	free(o->checks);
	o->text = NULL, o->checks = NULL, o->nchecks = 0;
}

bool ff_outcome_check(ff_outcome *o, int line, const char *actual, ff_check_state st,
		      double seconds)
{
	ff_check *c = realloc(o->checks, (size_t)(o->nchecks + 1) * sizeof *c);

	if (!c)
		return false;
	o->checks = c;
	c += o->nchecks++;
	c->line = line, c->state = st, c->seconds = seconds;
	snprintf(c->actual, sizeof c->actual, "%s", actual ? actual : "");
	return true;
}

const char *ff_outcome_line(const ff_outcome *o, int n, int *len)
{
	const char *p = o->text, *end = o->text + o->len, *nl;

	for (int i = 1; p && i < n; i++)
		p = (nl = memchr(p, '\n', (size_t)(end - p))) ? nl + 1 : NULL;
	if (!p || p >= end) {
		*len = 0;
		return "";
	}
	nl = memchr(p, '\n', (size_t)(end - p));
	*len = (int)((nl ? nl : end) - p);
	if (*len && p[*len - 1] == '\r')
		(*len)--;
	return p;
}

/* True when line N is an 'expect' line. */
static bool is_expect(const ff_outcome *o, int n)
{
	char buf[16];
	int len;
	const char *p = ff_outcome_line(o, n, &len);

	snprintf(buf, sizeof buf, "%.*s", len, p);
	return ff_replay_is_expect(buf);
}

bool ff_outcome_finish(ff_outcome *o)
{
	int last = o->rep.line, nlines = 0;

	if (!o->text)
		return true;
	for (size_t i = 0; i < o->len; i++)
		nlines += o->text[i] == '\n';
	nlines += o->len && o->text[o->len - 1] != '\n';
	if (!o->rep.ok && is_expect(o, last) &&
	    !ff_outcome_check(o, last, NULL, FF_CHECK_FAIL, 0))
		return false;
	for (int n = last + 1; n <= nlines; n++)
		if (is_expect(o, n) && !ff_outcome_check(o, n, NULL, FF_CHECK_NOT_RUN, 0))
			return false;
	return true;
}

/* Whether the failure has a place where the state first diverged. */
static bool diverged(const ff_replay_report *r)
{
	return r->diverged_line && r->diverged_line <= r->line &&
	       strstr(r->msg, "expected hash");
}

void ff_outcome_diag(const ff_outcome *o, ff_buf *b)
{
	const ff_replay_report *r = &o->rep;
	const char *cmd;
	int len;

	if (r->ok)
		return;
	if (r->line)
		ff_buf_printf(b, "%s:%d:%d: %s\n", o->file, r->line, r->col, r->msg);
	else
		ff_buf_printf(b, "%s: %s\n", o->file, r->msg);
	if (!diverged(r))
		return;
	cmd = ff_outcome_line(o, r->diverged_line, &len);
	ff_buf_printf(b, "%s:%d: the state first diverged here (", o->file, r->diverged_line);
	if (r->good_line)
		ff_buf_printf(b, "the hash at line %d matched", r->good_line);
	else
		ff_buf_puts(b, "no earlier hash matched");
	ff_buf_printf(b, "): %.*s\n", len, cmd);
}

static const char *const state_names[] = {"pass", "fail", "not run"};

/* The 'expect' line of C without "expect " and blanks. */
static json_t *expect_text(const ff_outcome *o, const ff_check *c)
{
	int len;
	const char *p = ff_outcome_line(o, c->line, &len), *e = p + len;

	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	p += e - p >= 6 ? 6 : e - p;
	while (p < e && *p == ' ')
		p++;
	return json_stringn(p, (size_t)(e - p));
}

static json_t *failure(const ff_outcome *o)
{
	const ff_replay_report *r = &o->rep;
	int len = 0;
	const char *cmd = diverged(r) ? ff_outcome_line(o, r->diverged_line, &len) : NULL;

	if (r->ok)
		return json_null();
	return json_pack("{s:i, s:i, s:s, s:o, s:o}", "line", r->line, "column", r->col,
			 "message", r->msg,
			 "diverged_line", cmd ? json_integer(r->diverged_line) : json_null(),
			 "diverged_command", cmd ? json_stringn(cmd, (size_t)len) : json_null());
}

json_t *ff_outcome_json(const ff_outcome *o)
{
	json_t *checks = json_array();
	int passed = 0;

	for (int i = 0; checks && i < o->nchecks; i++) {
		const ff_check *c = &o->checks[i];
		json_t *actual = c->state == FF_CHECK_PASS ? json_string(c->actual) : json_null();

		passed += c->state == FF_CHECK_PASS;
		if (json_array_append_new(checks, json_pack("{s:i, s:o, s:s, s:o}", "line", c->line,
							    "expect", expect_text(o, c),
							    "status", state_names[c->state],
							    "actual", actual))) {
			json_decref(checks);
			checks = NULL;
		}
	}
	return json_pack("{s:s, s:b, s:i, s:i, s:o, s:o}", "file", o->file, "ok", o->rep.ok,
			 "commands", o->rep.commands, "passed", passed,
			 "failure", failure(o), "expectations", checks);
}
