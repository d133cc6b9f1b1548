/*
 * replay_junit.c - replay outcomes as JUnit XML, as Jenkins and GitLab read
 * it (the Apache Ant format; tests/data/JUnit.xsd is its schema): a
 * testsuite per replay, a testcase per 'expect' line (a failure when it did
 * not hold, skipped when it did not run) and a testcase 'replay' for the
 * whole run (an error when a command or line failed).  libxml2 writes it.
 */
#define _POSIX_C_SOURCE 200809L /* localtime_r, gethostname */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libxml/xmlwriter.h>

#include "replay_out.h"
#include "util.h"

/* Seconds as an xs:decimal, whatever the locale's decimal point. */
static void decimal(char *s, size_t n, double seconds)
{
	long us = (long)(seconds * 1e6 + 0.5);

	snprintf(s, n, "%ld.%06ld", us / 1000000, us % 1000000);
}

/* A copy of S that XML can hold (caller frees): control characters other
 * than tab and newline, and every byte past ASCII when S is not UTF-8, as
 * '?'.  A replay is text, but need not be well formed. */
static xmlChar *safe(const char *s)
{
	xmlChar *c = xmlStrdup(BAD_CAST s);
	bool utf8 = c && xmlCheckUTF8(c);

	for (xmlChar *p = c; p && *p; p++)
		if ((*p < ' ' && *p != '\t' && *p != '\n') || *p == 0x7f || (*p >= 0x80 && !utf8))
			*p = '?';
	return c;
}

/* Writes attribute NAME or, with a NULL NAME, text. */
static int attr(xmlTextWriterPtr w, const char *name, const char *value)
{
	xmlChar *v = safe(value);
	int bad = !v || (name ? xmlTextWriterWriteAttribute(w, BAD_CAST name, v) :
			 xmlTextWriterWriteString(w, v)) < 0;

	xmlFree(v);
	return bad;
}

static int attr_int(xmlTextWriterPtr w, const char *name, long v)
{
	return xmlTextWriterWriteFormatAttribute(w, BAD_CAST name, "%ld", v) < 0;
}

/* ELEM (failure, error or skipped) with a message and the diagnosis. */
static int outcome_elem(xmlTextWriterPtr w, const char *elem, const char *type,
			const ff_outcome *o)
{
	ff_buf b = FF_BUF_INIT;
	int bad;

	ff_outcome_diag(o, &b);
	bad = xmlTextWriterStartElement(w, BAD_CAST elem) < 0 || attr(w, "type", type) ||
	      attr(w, "message", o->rep.msg) ||
	      attr(w, NULL, ff_buf_ok(&b) && b.data ? b.data : "") ||
	      xmlTextWriterEndElement(w) < 0;
	ff_buf_fini(&b);
	return bad;
}

/* True when the replay failed at an 'expect' line (a failure, not an
 * error: the commands ran, a value differed). */
static bool failed_check(const ff_outcome *o)
{
	for (int i = 0; i < o->nchecks; i++)
		if (o->checks[i].state == FF_CHECK_FAIL)
			return true;
	return false;
}

static int testcase(xmlTextWriterPtr w, const ff_outcome *o, const char *cls,
		    const ff_check *c)
{
	char name[300], t[32], why[64];
	int len, bad;
	const char *text = c ? ff_outcome_line(o, c->line, &len) : "replay";

	if (c)
		snprintf(name, sizeof name, "line %d: %.*s", c->line, len, text);
	else
		snprintf(name, sizeof name, "replay");
	decimal(t, sizeof t, c ? c->seconds : o->seconds);
	bad = xmlTextWriterStartElement(w, BAD_CAST "testcase") < 0 || attr(w, "name", name) ||
	      attr(w, "classname", cls) || attr(w, "time", t);
	if (!bad && c && c->state == FF_CHECK_FAIL) {
		bad = outcome_elem(w, "failure", "expect", o);
	} else if (!bad && c && c->state == FF_CHECK_NOT_RUN) {
		snprintf(why, sizeof why, "not run: line %d failed", o->rep.line);
		bad = xmlTextWriterStartElement(w, BAD_CAST "skipped") < 0 ||
		      attr(w, "message", o->rep.ok ? "not run: after --until" : why) ||
		      xmlTextWriterEndElement(w) < 0;
	} else if (!bad && !c && !o->rep.ok) {
		bad = outcome_elem(w, failed_check(o) ? "failure" : "error", "replay", o);
	}
	return bad || xmlTextWriterEndElement(w) < 0;
}

/* The suite's counts: tests, failures, errors, skipped. */
static void counts(const ff_outcome *o, long n[4])
{
	bool f = failed_check(o);

	/* the testcase 'replay' fails with a check, or errs on its own */
	n[0] = o->nchecks + 1, n[1] = f, n[2] = !o->rep.ok && !f, n[3] = 0;
	for (int i = 0; i < o->nchecks; i++) {
		n[1] += o->checks[i].state == FF_CHECK_FAIL;
		n[3] += o->checks[i].state == FF_CHECK_NOT_RUN;
	}
}

static int suite(xmlTextWriterPtr w, const ff_outcome *o, int id, const char *stamp,
		 const char *host)
{
	char cls[256], t[32];
	const char *base = strrchr(o->file, '/');
	long n[4];
	int bad;

	snprintf(cls, sizeof cls, "%s", base ? base + 1 : o->file);
	cls[strcspn(cls, ".")] = '\0';
	if (!cls[0])
		snprintf(cls, sizeof cls, "replay");
	counts(o, n);
	decimal(t, sizeof t, o->seconds);
	bad = xmlTextWriterStartElement(w, BAD_CAST "testsuite") < 0 ||
	      attr(w, "name", o->file) || attr(w, "package", o->file) || attr_int(w, "id", id) ||
	      attr(w, "timestamp", stamp) || attr(w, "hostname", host) ||
	      attr_int(w, "tests", n[0]) || attr_int(w, "failures", n[1]) ||
	      attr_int(w, "errors", n[2]) || attr_int(w, "skipped", n[3]) || attr(w, "time", t) ||
	      xmlTextWriterWriteElement(w, BAD_CAST "properties", BAD_CAST "") < 0;
	for (int i = 0; !bad && i < o->nchecks; i++)
		bad = testcase(w, o, cls, &o->checks[i]);
	return bad || testcase(w, o, cls, NULL) ||
	       xmlTextWriterWriteElement(w, BAD_CAST "system-out", BAD_CAST "") < 0 ||
	       xmlTextWriterWriteElement(w, BAD_CAST "system-err", BAD_CAST "") < 0 ||
	       xmlTextWriterEndElement(w) < 0;
}

static int document(xmlTextWriterPtr w, const ff_outcome *v, int n)
{
	char stamp[32], host[256];
	time_t now = time(NULL);
	struct tm tm;
	int bad;

	if (!localtime_r(&now, &tm) || !strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm))
		snprintf(stamp, sizeof stamp, "1970-01-01T00:00:00");
	if (gethostname(host, sizeof host) || !host[0])
		snprintf(host, sizeof host, "localhost");
	host[sizeof host - 1] = '\0';
	bad = xmlTextWriterSetIndent(w, 1) < 0 ||
	      xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) < 0 ||
	      xmlTextWriterStartElement(w, BAD_CAST "testsuites") < 0;
	for (int i = 0; !bad && i < n; i++)
		bad = suite(w, &v[i], i, stamp, host);
	return bad || xmlTextWriterEndDocument(w) < 0;
}

bool ff_outcome_junit(const char *path, const ff_outcome *v, int n)
{
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
	bool ok;

	if (!w) {
		ff_cli_error("cannot write '%s': out of memory", path);
		xmlBufferFree(buf);
		return false;
	}
	ok = !document(w, v, n);
	xmlFreeTextWriter(w); /* flushes into BUF */
	if (!ok)
		ff_cli_error("cannot write '%s': out of memory", path);
	else
		ok = ff_cli_write_file(path, (const char *)xmlBufferContent(buf),
				       (size_t)xmlBufferLength(buf));
	xmlBufferFree(buf);
	return ok;
}
