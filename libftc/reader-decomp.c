// SPDX-License-Identifier: LGPL-2.1-or-later
/* Decompression of v7 sections and chunks with zstd or zlib. */
#include <errno.h>
#include <zlib.h>
#include <zstd.h>

#include "ftc.h"
#include "reader.h"

static int bad(struct ftc_reader *r, const char *what, uint64_t off, const char *why)
{
	return ftc_error(EINVAL, "%s: cannot decompress %s at offset %llu: %s (corrupt file?)",
			 r->path, what, (unsigned long long)off, why);
}

/* deflate shrinks data at most 1032 to 1. */
#define ZLIB_MAX_RATIO	1032

int ftc_decompress_check(struct ftc_reader *r, const void *src, size_t slen, size_t dlen,
			 const char *what, uint64_t off)
{
	unsigned long long fsz;

	if (r->comp == 1 && dlen / ZLIB_MAX_RATIO > slen + 64)
		return bad(r, what, off, "its declared size is more than the data can hold");
	if (r->comp != 2 || ZSTD_findFrameCompressedSize(src, slen) != slen)
		return 0;	/* several frames: only decompressing tells */
	fsz = ZSTD_getFrameContentSize(src, slen);
	if (fsz != ZSTD_CONTENTSIZE_UNKNOWN && fsz != ZSTD_CONTENTSIZE_ERROR && fsz != dlen)
		return bad(r, what, off, "its declared size is not the size the data holds");
	return 0;
}

/* One context per reader: ZSTD_decompress() makes (and frees) one per call. */
static size_t zstd_decompress(struct ftc_reader *r, void *dst, size_t dlen, const void *src,
			      size_t slen)
{
	if (!r->zstd_dctx)
		r->zstd_dctx = ZSTD_createDCtx();
	if (!r->zstd_dctx)
		return ZSTD_decompress(dst, dlen, src, slen);
	return ZSTD_decompressDCtx(r->zstd_dctx, dst, dlen, src, slen);
}

void ftc_decompress_free(struct ftc_reader *r)
{
	ZSTD_freeDCtx(r->zstd_dctx);
	r->zstd_dctx = NULL;
}

int ftc_decompress(struct ftc_reader *r, const void *src, size_t slen, void *dst,
		   size_t dlen, const char *what, uint64_t off)
{
	if (r->comp == 2) {
		size_t got = zstd_decompress(r, dst, dlen, src, slen);

		if (ZSTD_isError(got))
			return bad(r, what, off, ZSTD_getErrorName(got));
		if (got != dlen)
			return bad(r, what, off, "the data is shorter than its declared size");
		return 0;
	}
	if (r->comp == 1) {
		uLongf got = dlen;
		int ret = uncompress(dst, &got, src, slen);

		if (ret != Z_OK)
			return bad(r, what, off, zError(ret));
		if (got != dlen)
			return bad(r, what, off, "the data is shorter than its declared size");
		return 0;
	}
	return bad(r, what, off, "the section is flagged compressed but the file names no "
		   "compression");
}
