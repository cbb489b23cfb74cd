// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Block compression for trace.dat v7: metadata sections and chunks of
 * pages are each one independent zstd frame or zlib stream, which is what
 * trace-cmd's decompressors expect.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "ftc.h"
#include "writer.h"

struct ftc_zctx {
	enum ftc_compression c;
	int level;
	ZSTD_CCtx *zstd;
};

int ftc_compression_parse(const char *name)
{
	if (!strcmp(name, "none"))
		return FTC_COMPRESS_NONE;
	if (!strcmp(name, "zlib"))
		return FTC_COMPRESS_ZLIB;
	if (!strcmp(name, "zstd"))
		return FTC_COMPRESS_ZSTD;
	return -1;
}

const char *ftc_compression_name(enum ftc_compression c)
{
	switch (c) {
	case FTC_COMPRESS_ZLIB: return "zlib";
	case FTC_COMPRESS_ZSTD: return "zstd";
	default: return "none";
	}
}

const char *ftc_compression_version(enum ftc_compression c)
{
	switch (c) {
	case FTC_COMPRESS_ZLIB: return zlibVersion();
	case FTC_COMPRESS_ZSTD: return ZSTD_versionString();
	default: return "";
	}
}

struct ftc_zctx *ftc_zctx_new(enum ftc_compression c, int level)
{
	struct ftc_zctx *z = calloc(1, sizeof(*z));

	if (!z) {
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	z->c = c;
	z->level = level;
	if (c != FTC_COMPRESS_ZSTD)
		return z;
	z->zstd = ZSTD_createCCtx();
	if (!z->zstd) {
		free(z);
		ftc_error(ENOMEM, "out of memory for a zstd context");
		return NULL;
	}
	ZSTD_CCtx_setParameter(z->zstd, ZSTD_c_compressionLevel, level);
	/* trace-cmd's frames carry no content size; stay identical. */
	ZSTD_CCtx_setParameter(z->zstd, ZSTD_c_contentSizeFlag, 0);
	return z;
}

void ftc_zctx_free(struct ftc_zctx *z)
{
	if (!z)
		return;
	ZSTD_freeCCtx(z->zstd);
	free(z);
}

size_t ftc_zctx_bound(enum ftc_compression c, size_t in)
{
	switch (c) {
	case FTC_COMPRESS_ZLIB: return compressBound(in);
	case FTC_COMPRESS_ZSTD: return ZSTD_compressBound(in);
	default: return in;
	}
}

long ftc_zctx_compress(struct ftc_zctx *z, void *out, size_t cap,
		       const void *in, size_t len)
{
	uLongf olen = cap;
	size_t r;

	switch (z->c) {
	case FTC_COMPRESS_ZSTD:
		r = ZSTD_compress2(z->zstd, out, cap, in, len);
		if (ZSTD_isError(r))
			return ftc_error(EIO, "zstd compression failed: %s",
					 ZSTD_getErrorName(r));
		return (long)r;
	case FTC_COMPRESS_ZLIB:
		if (compress2(out, &olen, in, len, z->level) != Z_OK)
			return ftc_error(EIO, "zlib compression of %zu bytes failed", len);
		return (long)olen;
	default:
		if (cap < len)
			return ftc_error(ENOBUFS, "no room to copy %zu bytes", len);
		memcpy(out, in, len);
		return (long)len;
	}
}
