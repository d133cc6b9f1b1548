/* buf.c - growable text buffer; see buf.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

void ff_buf_fini(ff_buf *b)
{
	free(b->data);
	*b = (ff_buf)FF_BUF_INIT;
}

bool ff_buf_ok(const ff_buf *b)
{
	return !b->failed;
}

static bool reserve(ff_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1, cap = b->cap ? b->cap : 64;
	char *d;

	if (b->failed)
		return false;
	if (need <= b->cap)
		return true;
	while (cap < need)
		cap *= 2;
	d = realloc(b->data, cap);
	if (!d) {
		b->failed = true;
		return false;
	}
	b->data = d, b->cap = cap;
	return true;
}

void ff_buf_add(ff_buf *b, const char *s, size_t n)
{
	if (!reserve(b, n))
		return;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

char *ff_buf_extend(ff_buf *b, size_t n)
{
	char *at;

	if (!reserve(b, n))
		return NULL;
	at = b->data + b->len;
	b->len += n;
	b->data[b->len] = '\0';
	return at;
}

void ff_buf_puts(ff_buf *b, const char *s)
{
	ff_buf_add(b, s, strlen(s));
}

void ff_buf_putc(ff_buf *b, char c)
{
	ff_buf_add(b, &c, 1);
}

void ff_buf_printf(ff_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void ff_buf_double(ff_buf *b, double v)
{
	char s[40];

	for (int prec = 1; prec <= 17; prec++) {
		snprintf(s, sizeof s, "%.*g", prec, v);
		if (strtod(s, NULL) == v)
			break;
	}
	ff_buf_puts(b, s);
}

char *ff_buf_take(ff_buf *b, size_t *len)
{
	char *d = b->failed ? NULL : b->data;

	if (!d && !b->failed) {
		d = calloc(1, 1);
		if (!d)
			return NULL;
	}
	if (len)
		*len = b->len;
	if (b->failed)
		free(b->data);
	*b = (ff_buf)FF_BUF_INIT;
	return d;
}
