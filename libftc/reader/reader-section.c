// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One v7 section: its header read and checked, its payload loaded and
 * decompressed. Below reader-v7.c, which walks the chain of sections,
 * and reader-tep.c, which loads the header info when it is asked for.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "reader.h"
#include "tracedat-format.h"

int ftc_v7_section_head(struct ftc_reader *r, uint64_t off, struct sec_hdr *h)
{
	unsigned char b[SEC_HDR];

	if (ftc_pread_all(r, b, SEC_HDR, off, "section header") < 0)
		return -1;
	h->id = ftc_rd16(r, b);
	h->flags = ftc_rd16(r, b + 2);
	h->desc = (int32_t)ftc_rd32(r, b + 4);
	h->size = ftc_rd64(r, b + 8);
	if (h->size > r->file_size - off - SEC_HDR)
		return ftc_error(EINVAL, "%s: %s section at offset %llu claims %llu bytes but "
				 "only %llu remain (truncated file?)", r->path,
				 ftc_section_name(h->id), (unsigned long long)off,
				 (unsigned long long)h->size,
				 (unsigned long long)(r->file_size - off - SEC_HDR));
	return 0;
}

/* The payload of a compressed section: u32 csize, u32 usize, one blob. */
static int load_compressed(struct ftc_reader *r, uint64_t off, const struct sec_hdr *h,
			   char **out, size_t *len)
{
	unsigned char b[8];
	uint32_t csize, usize;
	char *cbuf, *ubuf;
	const char *what = ftc_section_name(h->id);

	if (h->size < 8)
		return ftc_error(EINVAL, "%s: compressed %s section at offset %llu is only %llu "
				 "bytes", r->path, what, (unsigned long long)off,
				 (unsigned long long)h->size);
	if (ftc_pread_all(r, b, 8, off + SEC_HDR, what) < 0)
		return -1;
	csize = ftc_rd32(r, b);
	usize = ftc_rd32(r, b + 4);
	if ((uint64_t)csize + 8 > h->size || usize > FTC_MAX_META_SIZE)
		return ftc_error(EINVAL, "%s: %s section at offset %llu: compressed size %u or "
				 "uncompressed size %u is out of range (section has %llu bytes)",
				 r->path, what, (unsigned long long)off, csize, usize,
				 (unsigned long long)h->size);
	cbuf = malloc(csize ? csize : 1);
	if (!cbuf)
		return ftc_error(ENOMEM, "%s: out of memory for the %s section", r->path, what);
	if (ftc_pread_all(r, cbuf, csize, off + SEC_HDR + 8, what) < 0 ||
	    ftc_decompress_check(r, cbuf, csize, usize, what, off) < 0) {
		free(cbuf);
		return -1;
	}
	if (ftc_decompress_alloc(r, cbuf, csize, usize, what, off, &ubuf) < 0) {
		free(cbuf);
		return -1;
	}
	free(cbuf);
	*out = ubuf;
	*len = usize;
	return 0;
}

int ftc_v7_section_load(struct ftc_reader *r, uint64_t off, uint16_t want_id,
			char **out, size_t *len)
{
	struct sec_hdr h;
	char *buf;

	if (off < SEC_HDR || off >= r->file_size)
		return ftc_error(EINVAL, "%s: the %s section offset %llu is outside the file "
				 "(%llu bytes)", r->path, ftc_section_name(want_id),
				 (unsigned long long)off, (unsigned long long)r->file_size);
	if (ftc_v7_section_head(r, off, &h) < 0)
		return -1;
	if (h.id != want_id)
		return ftc_error(EINVAL, "%s: expected a %s section at offset %llu, found id %u",
				 r->path, ftc_section_name(want_id), (unsigned long long)off, h.id);
	if (h.flags & FTC_SEC_COMPRESSED)
		return load_compressed(r, off, &h, out, len);
	if (h.size > FTC_MAX_META_SIZE)
		return ftc_error(EINVAL, "%s: %s section at offset %llu is too large (%llu)",
				 r->path, ftc_section_name(h.id), (unsigned long long)off,
				 (unsigned long long)h.size);
	buf = malloc(h.size + 1);
	if (!buf)
		return ftc_error(ENOMEM, "%s: out of memory", r->path);
	if (ftc_pread_all(r, buf, h.size, off + SEC_HDR, ftc_section_name(h.id)) < 0) {
		free(buf);
		return -1;
	}
	buf[h.size] = '\0';
	*out = buf;
	*len = h.size;
	return 0;
}
