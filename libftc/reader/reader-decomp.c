// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Decompression of v7 sections and chunks with zstd or zlib, and the one
 * decoder of a data chunk's header (the CPU walker, the rescue of a cut
 * file and restore each read chunks).
 */
#include <errno.h>
#include <stdlib.h>
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

/*
 * The output buffer grows with what really comes out, up to the declared
 * size: a few damaged bytes that claim 512 MB cost what they decompress
 * to, not 512 MB (on a small board, or 40 MB of ASan shadow per input).
 */
struct grow_buf {
	char *buf;
	size_t len, cap, max;
};

static int grow_room(struct grow_buf *g)
{
	size_t cap = g->cap ? g->cap * 4 : 64 * 1024;
	char *b;

	if (cap > g->max + 1)
		cap = g->max + 1;	/* one byte more shows the data is too long */
	b = realloc(g->buf, cap);
	if (!b)
		return -1;
	g->buf = b;
	g->cap = cap;
	return 0;
}

static const char *zstd_stream(struct ftc_reader *r, const void *src, size_t slen,
			       struct grow_buf *g)
{
	ZSTD_inBuffer in = { src, slen, 0 };
	size_t ret = 1;

	if (!r->zstd_dctx && !(r->zstd_dctx = ZSTD_createDCtx()))
		return "out of memory";
	ZSTD_DCtx_reset(r->zstd_dctx, ZSTD_reset_session_only);
	while (in.pos < in.size || ret != 0) {
		ZSTD_outBuffer out;

		if (g->len == g->cap && (g->cap > g->max || grow_room(g) < 0))
			return g->cap > g->max ? "the data is longer than its declared size" :
						 "out of memory";
		out = (ZSTD_outBuffer){ g->buf, g->cap, g->len };
		ret = ZSTD_decompressStream(r->zstd_dctx, &out, &in);
		if (ZSTD_isError(ret))
			return ZSTD_getErrorName(ret);
		if (out.pos == g->len && in.pos == in.size && ret != 0)
			return "the data ends inside a frame";
		g->len = out.pos;
	}
	return NULL;
}

static const char *zlib_stream(const void *src, size_t slen, struct grow_buf *g)
{
	z_stream z = { .next_in = (Bytef *)src, .avail_in = (uInt)slen };
	int ret = Z_OK;

	if (slen > UINT32_MAX || inflateInit(&z) != Z_OK)
		return "cannot start zlib";
	while (ret != Z_STREAM_END) {
		if (g->len == g->cap && (g->cap > g->max || grow_room(g) < 0)) {
			inflateEnd(&z);
			return g->cap > g->max ? "the data is longer than its declared size" :
						 "out of memory";
		}
		z.next_out = (Bytef *)g->buf + g->len;
		z.avail_out = (uInt)(g->cap - g->len);
		ret = inflate(&z, Z_NO_FLUSH);
		g->len = g->cap - z.avail_out;
		if (ret == Z_BUF_ERROR && z.avail_in == 0)
			ret = Z_DATA_ERROR;	/* wants more input: the data is cut */
		if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR) {
			inflateEnd(&z);
			return zError(ret);
		}
	}
	inflateEnd(&z);
	return NULL;
}

int ftc_decompress_alloc(struct ftc_reader *r, const void *src, size_t slen, size_t dlen,
			 const char *what, uint64_t off, char **out)
{
	struct grow_buf g = { .max = dlen };
	const char *why;

	if (r->comp == 2)
		why = zstd_stream(r, src, slen, &g);
	else if (r->comp == 1)
		why = zlib_stream(src, slen, &g);
	else
		why = "the section is flagged compressed but the file names no compression";
	if (!why && g.len != dlen)
		why = g.len < dlen ? "the data is shorter than its declared size" :
				     "the data is longer than its declared size";
	if (!why && g.len == g.cap && grow_room(&g) < 0)
		why = "out of memory";
	if (why) {
		free(g.buf);
		return bad(r, what, off, why);
	}
	g.buf[g.len] = '\0';
	*out = g.buf;
	return 0;
}

int ftc_chunk_head(struct ftc_reader *r, uint64_t off, uint64_t limit, uint32_t page,
		   struct ftc_chunk *c, const char **why)
{
	unsigned char h[8];

	if (off > limit || limit - off < 8 || ftc_pread_all(r, h, 8, off, "chunk header") < 0) {
		*why = "a chunk header is cut short";
		return -1;
	}
	c->csize = ftc_rd32(r, h);
	c->usize = ftc_rd32(r, h + 4);
	if (c->csize > limit - off - 8) {
		*why = "a chunk's compressed size runs past the CPU's data (truncated?)";
		return -1;
	}
	if (!c->usize || c->usize > FTC_MAX_CHUNK_SIZE || (page && c->usize % page)) {
		*why = "a chunk's uncompressed size is out of range";
		return -1;
	}
	return 0;
}

int ftc_chunk_read(struct ftc_reader *r, uint64_t off, const struct ftc_chunk *c, void *buf)
{
	if (ftc_pread_all(r, buf, c->csize, off + 8, "chunk") < 0)
		return -1;
	return ftc_decompress_check(r, buf, c->csize, c->usize, "a data chunk", off);
}

int ftc_chunk_unpack(struct ftc_reader *r, uint64_t off, const struct ftc_chunk *c,
		     const void *buf, void *out)
{
	return ftc_decompress(r, buf, c->csize, out, c->usize, "a data chunk", off);
}
