/*
 * buf.h - a growable byte buffer for building text in memory (core formats
 * into buffers; the layers above decide where the bytes go).
 *
 * Invariant: data is NUL-terminated whenever data != NULL, len excludes the
 * NUL.  After an allocation failure the buffer is marked failed, later
 * appends do nothing, and ff_buf_ok() says so once at the end.
 */
#ifndef FF_BUF_H
#define FF_BUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ff_buf {
	char *data;
	size_t len, cap;
	bool failed;
} ff_buf;

#define FF_BUF_INIT {NULL, 0, 0, false}

void ff_buf_fini(ff_buf *b);
bool ff_buf_ok(const ff_buf *b);
void ff_buf_add(ff_buf *b, const char *s, size_t n);
void ff_buf_puts(ff_buf *b, const char *s);
void ff_buf_putc(ff_buf *b, char c);
void ff_buf_printf(ff_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Appends N bytes and returns where they start, for the caller to fill;
 * NULL when the buffer failed. */
char *ff_buf_extend(ff_buf *b, size_t n);
/* Appends the shortest decimal form of V that reads back as the same double. */
void ff_buf_double(ff_buf *b, double v);
/* Hands the data to the caller (who frees it with free()); the buffer is
 * left empty.  Returns NULL when the buffer failed. */
char *ff_buf_take(ff_buf *b, size_t *len);

#endif
