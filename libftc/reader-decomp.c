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

int ftc_decompress(struct ftc_reader *r, const void *src, size_t slen, void *dst,
		   size_t dlen, const char *what, uint64_t off)
{
	if (r->comp == 2) {
		size_t got = ZSTD_decompress(dst, dlen, src, slen);

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
