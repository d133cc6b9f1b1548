/*
 * tiled_data.c - a tile layer's data as Tiled writes it: CSV, or base64
 * (nettle decodes it) of little-endian 32-bit gids, plain or compressed
 * with zlib, gzip (zlib inflates both) or zstd (libzstd, when built with
 * it).  Flip and rotation flags are masked off the gids here.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nettle/base64.h>
#include <zlib.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#include <zstd_errors.h>
#define COMPRESSIONS "zlib, gzip or zstd"
#else
#define COMPRESSIONS "zlib or gzip; zstd needs a build with libzstd"
#endif

#include "tiled_int.h"

/* CSV: W x H numbers separated by commas and blanks; errors at the line
 * and column of the number, counted from the data's own line. */
static ff_err csv(tl_ctx *c, const tl_where *at, const char *p, const char *end)
{
	tl_map *m = c->m;
	size_t n = (size_t)m->w * (size_t)m->h, k = 0;
	const char *bol = p;
	tl_where here = *at;

	for (;;) {
		unsigned long long v = 0;
		const char *start;

		while (p < end && strchr(" \t\r\n", *p))
			if (*p++ == '\n')
				here.line += here.line > 0, bol = p;
		if (p == end)
			break;
		start = p;
		while (p < end && *p >= '0' && *p <= '9' && v <= 0xFFFFFFFFull)
			v = v * 10 + (unsigned)(*p++ - '0');
		if (p == start || v > 0xFFFFFFFFull)
			return tl_fail(c, &here, (int)(start - bol) + 1,
				       "layer data: expected a tile number (CSV), not '%c'", *start);
		if (k == n)
			return tl_fail(c, &here, (int)(start - bol) + 1,
				       "layer data: more than the %zu tiles of a %dx%d layer", n, m->w,
				       m->h);
		m->gids[k++] = (uint32_t)v & ~TL_GID_FLAGS;
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p < end && *p == ',')
			p++;
	}
	if (k != n)
		return tl_fail(c, at, 0, "layer data: %zu tiles for a %dx%d layer of %zu", k, m->w,
			       m->h, n);
	return FF_OK;
}

/* What decompressing a layer's data gave against the N bytes it needs. */
typedef enum dz {
	DZ_OK,                       /* exactly N */
	DZ_SHORT,                    /* fewer (*got) */
	DZ_LONG,                     /* more */
	DZ_BAD,                      /* not data of its compression */
	DZ_UNKNOWN                   /* a compression we do not read */
} dz;

/* Inflates SRC (zlib, or gzip with GZIP) into N bytes at DST. */
static dz inflate_all(const uint8_t *src, size_t sn, uint8_t *dst, size_t n, bool gzip,
		      size_t *got)
{
	uint8_t more[64];
	z_stream z;
	int rc;

	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, gzip ? 16 + MAX_WBITS : MAX_WBITS) != Z_OK)
		return DZ_BAD;
	z.next_in = (Bytef *)src, z.avail_in = (uInt)sn;
	z.next_out = dst, z.avail_out = (uInt)n;
	rc = inflate(&z, Z_FINISH);
	*got = n - z.avail_out;
	if (rc != Z_STREAM_END && z.avail_out == 0) {
		/* full: is there more to come, or is the stream broken? */
		z.next_out = more, z.avail_out = sizeof more;
		rc = inflate(&z, Z_FINISH);
		rc = z.avail_out < sizeof more ? Z_NEED_DICT : Z_DATA_ERROR;
	}
	inflateEnd(&z);
	if (rc == Z_NEED_DICT)
		return DZ_LONG;
	if (rc != Z_STREAM_END || z.avail_in != 0)
		return DZ_BAD;
	return *got == n ? DZ_OK : DZ_SHORT;
}

/* Decompresses SRC as HOW says (none when NULL or empty) into N bytes at
 * DST; *GOT: the bytes it gave when fewer. */
static dz decompress(const char *how, const uint8_t *src, size_t sn, uint8_t *dst, size_t n,
		     size_t *got)
{
	*got = sn;
	if (!how || !*how) {
		if (sn % 4)
			return DZ_BAD;
		if (sn != n)
			return sn < n ? DZ_SHORT : DZ_LONG;
		memcpy(dst, src, n);
		return DZ_OK;
	}
	if (!strcmp(how, "zlib") || !strcmp(how, "gzip"))
		return inflate_all(src, sn, dst, n, how[0] == 'g', got);
#ifdef HAVE_ZSTD
	if (!strcmp(how, "zstd")) {
		size_t r = ZSTD_decompress(dst, n, src, sn);

		if (ZSTD_isError(r))
			return ZSTD_getErrorCode(r) == ZSTD_error_dstSize_tooSmall ? DZ_LONG : DZ_BAD;
		*got = r;
		return r == n ? DZ_OK : DZ_SHORT;
	}
#endif
	return DZ_UNKNOWN;
}

static ff_err base64(tl_ctx *c, const tl_where *at, const char *text, size_t tn,
		     const char *how)
{
	tl_map *m = c->m;
	size_t n = (size_t)m->w * (size_t)m->h * 4, got = 0;
	struct base64_decode_ctx b;
	uint8_t *raw = malloc(BASE64_DECODE_LENGTH(tn) + 1), *bytes = malloc(n);
	const char *kind = how && *how ? how : "uncompressed";
	bool ok;
	dz r = DZ_OK;

	if (!raw || !bytes) {
		free(raw), free(bytes);
		return FF_E_NOMEM;
	}
	base64_decode_init(&b);
	ok = base64_decode_update(&b, &got, raw, tn, text) && base64_decode_final(&b);
	if (ok)
		r = decompress(how, raw, got, bytes, n, &got);
	if (r != DZ_OK) {
		free(raw), free(bytes);
		switch (r) {
		case DZ_UNKNOWN:
			return tl_fail(c, at, 0, "layer data: unknown compression '%s' (" COMPRESSIONS ")",
				       how);
		case DZ_SHORT:
			return tl_fail(c, at, 0, "layer data: %zu tiles for a %dx%d layer of %zu (%s)",
				       got / 4, m->w, m->h, n / 4, kind);
		case DZ_LONG:
			return tl_fail(c, at, 0, "layer data: more than the %zu tiles of a %dx%d layer (%s)",
				       n / 4, m->w, m->h, kind);
		default:
			if (how && *how)
				return tl_fail(c, at, 0, "layer data: not valid %s-compressed data", how);
			return tl_fail(c, at, 0, "layer data: %zu bytes, not whole tiles of 4 bytes", got);
		}
	}
	for (size_t i = 0; ok && i < n / 4; i++)
		m->gids[i] = ((uint32_t)bytes[4 * i] | (uint32_t)bytes[4 * i + 1] << 8 |
			      (uint32_t)bytes[4 * i + 2] << 16 | (uint32_t)bytes[4 * i + 3] << 24) &
			     ~TL_GID_FLAGS;
	free(raw), free(bytes);
	return ok ? FF_OK : tl_fail(c, at, 0, "layer data: bad base64");
}

ff_err tl_decode(tl_ctx *c, const tl_where *at, const char *text, size_t n,
		 const char *encoding, const char *compression)
{
	ff_err err = tl_gids(c->m);

	if (err)
		return err;
	if (encoding && !strcmp(encoding, "csv")) {
		if (compression && *compression)
			return tl_fail(c, at, 0, "layer data: CSV cannot be compressed ('%s')",
				       compression);
		return csv(c, at, text, text + n);
	}
	if (encoding && !strcmp(encoding, "base64"))
		return base64(c, at, text, n, compression);
	return tl_fail(c, at, 0, "layer data: unknown encoding '%s' (csv or base64)",
		       encoding ? encoding : "");
}
