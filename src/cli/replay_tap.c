/*
 * replay_tap.c - a replay's outcome as TAP version 13 test points
 * (testanything.org): one per 'expect' line and one for the replay, a
 * failure's words in a YAML block under its point, so 'prove' runs a folder
 * of replays.
 */
#include <stdio.h>
#include <string.h>

#include "replay_out.h"

/* Prints N bytes of S for a test point's description: '#' would start a
 * directive and '\' escapes, so both are escaped. */
static void describe(const char *s, int n)
{
	for (int i = 0; i < n; i++) {
		if (s[i] == '#' || s[i] == '\\')
			putchar('\\');
		putchar((unsigned char)s[i] < ' ' ? ' ' : s[i]);
	}
}

/* The YAML block of a failed point: each line of the diagnosis as a
 * single-quoted scalar ('' is a quote inside one). */
static void yaml(const ff_outcome *o)
{
	ff_buf b = FF_BUF_INIT;
	const char *p;
	int k = 0;

	ff_outcome_diag(o, &b);
	if (!ff_buf_ok(&b) || !b.len) {
		ff_buf_fini(&b);
		return;
	}
	puts("  ---");
	for (p = b.data; *p; p++) {
		if (p == b.data || p[-1] == '\n')
			printf("  %s: '", k++ ? "diverged" : "message");
		if (*p == '\n')
			fputs("'\n", stdout);
		else if (*p == '\'')
			fputs("''", stdout);
		else
			putchar((unsigned char)*p < ' ' ? ' ' : *p);
	}
	printf("  severity: fail\n  ...\n");
	ff_buf_fini(&b);
}

int ff_outcome_tap(const ff_outcome *o, int n)
{
	int len, fail_line = o->rep.ok ? 0 : o->rep.line;

	fputs("# ", stdout);
	describe(o->file, (int)strlen(o->file));
	putchar('\n');
	for (int i = 0; i < o->nchecks; i++) {
		const ff_check *c = &o->checks[i];
		const char *t = ff_outcome_line(o, c->line, &len);

		while (len && (*t == ' ' || *t == '\t'))
			t++, len--;
		printf("%sok %d - ", c->state == FF_CHECK_FAIL ? "not " : "", ++n);
		describe(o->file, (int)strlen(o->file));
		printf(":%d: ", c->line);
		describe(t, len);
		if (c->state == FF_CHECK_NOT_RUN && fail_line)
			printf(" # SKIP not run: line %d failed", fail_line);
		else if (c->state == FF_CHECK_NOT_RUN)
			printf(" # SKIP not run: after --until");
		putchar('\n');
		if (c->state == FF_CHECK_FAIL)
			yaml(o);
	}
	printf("%sok %d - ", o->rep.ok ? "" : "not ", ++n);
	describe(o->file, (int)strlen(o->file));
	if (o->rep.ok) {
		printf(": %d commands, %d checks passed\n", o->rep.commands, o->rep.checks);
	} else {
		printf(": failed\n");
		yaml(o);
	}
	return n;
}
